#!/usr/bin/env python3
"""How well a reader of positions agrees with the teacher's win rate and
score lead on the held-out teacher positions (every tenth game by id, as
tools/teacher/train.py holds them out).

usage: tools/value_check.py --tengen BIN [--positions N] [--playouts P]
                            [--seed S] SHARD.jsonl.gz...

Samples N positions (default 400) of the held-out games, asks
`BIN evaluate --playouts P` for each (the search's playouts: share won
and mean margin, side to move), and prints the mean absolute error of
the win rate (0..1) and of the score (points) against the teacher's,
next to those of a constant guess (the held-out mean), so a reader that
learnt nothing shows as such. Standard library only.
"""
import argparse
import gzip
import json
import random
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


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tengen", required=True)
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--playouts", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("shards", nargs="+")
    a = ap.parse_args(argv)
    pool = positions(a.shards)
    if not pool:
        sys.exit("value_check.py: no held-out 19x19 positions in those shards")
    random.Random(a.seed).shuffle(pool)
    sample = pool[:a.positions]
    text = "".join(f"{m} {k}\n" for k, (m, _, _) in enumerate(sample))
    r = subprocess.run([a.tengen, "evaluate", "--playouts", str(a.playouts)],
                       input=text, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"value_check.py: {a.tengen} evaluate failed: {r.stderr.strip()}")
    got = {}
    for line in r.stdout.splitlines():
        w, s, k = line.split()
        got[int(k)] = (float(w), float(s))
    if len(got) != len(sample):
        sys.exit(f"value_check.py: {len(got)} answers for {len(sample)} positions")
    tw = [w for _, w, _ in sample]
    ts = [s for _, _, s in sample]
    pw = [got[k][0] for k in range(len(sample))]
    ps = [got[k][1] for k in range(len(sample))]
    mw, ms = sum(tw) / len(tw), sum(ts) / len(ts)
    print(f"{len(sample)} held-out positions of {len(pool)}, {a.playouts} playouts each")
    print(f"win rate MAE: playouts {mae(pw, tw):.3f}, constant {mae([mw] * len(tw), tw):.3f}")
    print(f"score MAE (points): playouts {mae(ps, ts):.2f}, constant {mae([ms] * len(ts), ts):.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
