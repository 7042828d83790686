#!/usr/bin/env python3
"""How well a reader of positions agrees with the teacher's win rate and
score lead on the held-out teacher positions (every tenth game by id, as
tools/teacher/train.py holds them out).

usage: tools/value_check.py --tengen BIN [--positions N] [--playouts P]
                            [--net | --net-file FILE] [--seed S] [--by-phase]
                            SHARD.jsonl.gz...

Samples N positions (default 400) of the held-out games, asks
`BIN evaluate --playouts P` for each (the search's playouts: share won
and mean margin, side to move; with --net or --net-file also the
network's value head: `evaluate --net`; --playouts 0 leaves the
playouts out), and prints the mean absolute error of
the win rate (0..1) and of the score (points) against the teacher's,
next to those of a constant guess (the held-out mean), so a reader that
learnt nothing shows as such. --by-phase adds, for each stretch of 50
moves, each reader's error, its correlation with the teacher's win rate,
and the spread of its win rates next to the teacher's: a reader whose
values crowd round one half (playouts in the opening) has a small
spread, and mixing it with another reader needs them on one scale.
Standard library only.
"""
import argparse
import gzip
import json
import random
import statistics
import subprocess
import sys
import zlib


def held_out(gid):
    return zlib.crc32(gid.encode()) % 10 == 0


def positions(paths):
    """(moves before the position, teacher win rate and lead for the side
    to move) of every position of the held-out 19x19 games."""
    out = []
    for path in paths:
        with gzip.open(path, "rt") as f:
            for line in f:
                g = json.loads(line)
                if not held_out(g["id"]) or g.get("size") != 19:
                    continue
                if g.get("setup") or g.get("colors") or g.get("first", "B") != "B":
                    continue
                for k, pos in enumerate(g["pos"]):
                    win, lead = pos[0] / 1000.0, pos[1] / 10.0
                    if k % 2:
                        win, lead = 1.0 - win, -lead
                    out.append((g["moves"][:2 * k], win, lead))
    return out


def mae(xs, ys):
    return sum(abs(x - y) for x, y in zip(xs, ys)) / max(1, len(xs))


def correlation(xs, ys):
    """Pearson's r, 0 where a reader never varies (statistics raises)."""
    try:
        return statistics.correlation(xs, ys)
    except statistics.StatisticsError:
        return 0.0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tengen", required=True)
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--playouts", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--net", action="store_true", help="also the built-in network's value head")
    ap.add_argument("--net-file", help="also this weight file's value head")
    ap.add_argument("--by-phase", action="store_true",
                    help="errors, correlations and spreads for each 50 moves")
    ap.add_argument("shards", nargs="+")
    a = ap.parse_args(argv)
    pool = positions(a.shards)
    if not pool:
        sys.exit("value_check.py: no held-out 19x19 positions in those shards")
    random.Random(a.seed).shuffle(pool)
    sample = pool[:a.positions]
    text = "".join(f"{m} {k}\n" for k, (m, _, _) in enumerate(sample))
    cmd = [a.tengen, "evaluate", "--playouts", str(a.playouts)]
    if a.net_file:
        cmd += ["--net-file", a.net_file]
    elif a.net:
        cmd += ["--net"]
    readers = (["playouts"] if a.playouts > 0 else []) + (["network"] if a.net or a.net_file else [])
    if not readers:
        sys.exit("value_check.py: nothing to check: --playouts 0 without --net")
    r = subprocess.run(cmd, input=text, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"value_check.py: {a.tengen} evaluate failed: {r.stderr.strip()}")
    got = {}
    for line in r.stdout.splitlines():
        f = line.split()
        got[int(f[-1])] = [float(x) for x in f[:-1]]
    if len(got) != len(sample) or any(len(v) != 2 * len(readers) for v in got.values()):
        sys.exit(f"value_check.py: {len(got)} answers for {len(sample)} positions")
    tw = [w for _, w, _ in sample]
    ts = [s for _, _, s in sample]
    mw, ms = sum(tw) / len(tw), sum(ts) / len(ts)
    print(f"{len(sample)} held-out positions of {len(pool)}")
    wins = [f"constant {mae([mw] * len(tw), tw):.3f}"]
    scores = [f"constant {mae([ms] * len(ts), ts):.2f}"]
    for j, name in enumerate(readers):
        pw = [got[k][2 * j] for k in range(len(sample))]
        ps = [got[k][2 * j + 1] for k in range(len(sample))]
        label = f"playouts ({a.playouts} each)" if name == "playouts" else name
        wins.append(f"{label} {mae(pw, tw):.3f}")
        scores.append(f"{label} {mae(ps, ts):.2f}")
    print("win rate MAE: " + ", ".join(wins))
    print("score MAE (points): " + ", ".join(scores))
    if a.by_phase:
        moves = [len(m) // 2 for m, _, _ in sample]
        for lo in range(0, max(moves) + 1, 50):
            ks = [k for k in range(len(sample)) if lo <= moves[k] < lo + 50]
            if len(ks) < 10:
                continue
            t = [tw[k] for k in ks]
            parts = [f"teacher spread {statistics.pstdev(t):.3f}"]
            for j, name in enumerate(readers):
                r = [got[k][2 * j] for k in ks]
                parts.append(f"{name} MAE {mae(r, t):.3f} r {correlation(r, t):.2f} "
                             f"spread {statistics.pstdev(r):.3f}")
            print(f"moves {lo}-{lo + 49} ({len(ks)}): " + ", ".join(parts))


if __name__ == "__main__":
    main(sys.argv[1:])
