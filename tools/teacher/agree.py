#!/usr/bin/env python3
"""How often tengen's whole search picks the teacher's move, on held-out
positions: a strength proxy that needs no match and no clock.

usage: tools/teacher/agree.py --tengen BIN [--positions 300] [--net]
                              [--playouts 2000] [--set NAME=VALUE]...
                              SHARD.jsonl.gz...

The positions are drawn evenly from train.py's held-out games (every
tenth by id), among those where the teacher prefers a board point to
passing.
tengen replays each position through `tengen gtp` and answers
`reg_genmove` under a playout cap, so a run decides the same on any host
(`--net`: the policy network's likeliest move instead, no search).
Reported: top-1 agreement with a 95 % Wilson interval, and the teacher's
mean probability for the moves chosen (per-mille; moves it did not list
count 0). Exit status 2 on bad arguments, 1 if tengen fails.
"""
import argparse
import gzip
import json
import math
import subprocess
import sys
import time

from shards import SIZE, idx_to_gtp, sgf_to_idx, shard_colors
from train import held_out


def vertex(xy):
    """Two SGF letters of a shard -> a GTP vertex ("pass" for "..")."""
    return idx_to_gtp(sgf_to_idx(xy))


def samples(games, count):
    """(game, ply) of `count` positions spread evenly over the held-out
    games, in a fixed order."""
    every = []
    for game in sorted(games, key=lambda g: g["id"]):
        if game.get("setup") or game["size"] != SIZE or not held_out(game["id"]):
            continue
        for k, (_, _, p_pass, top, qs) in enumerate(game["pos"]):
            if top and qs and qs[0] > p_pass:
                every.append((game, k))
    step = max(1, len(every) // count)
    return every[::step][:count]


def teacher_mass(game, k, answer):
    """The teacher's per-mille for the GTP vertex `answer` at ply k."""
    _, _, p_pass, top, qs = game["pos"][k]
    if answer.lower() == "pass":
        return p_pass
    for i, q in enumerate(qs):
        if vertex(top[2 * i:2 * i + 2]) == answer.upper():
            return q
    return 0


def wilson(hits, n, z=1.96):
    if n == 0:
        return 0.0, 0.0
    p = hits / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


class Engine:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)

    def ask(self, command):
        self.p.stdin.write(command + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"tengen ended after {command!r}")
            if line == "\n" and lines:
                break
            lines.append(line.strip())
        reply = " ".join(lines)
        if not reply.startswith("="):
            raise RuntimeError(f"{command!r}: {reply}")
        return reply[1:].strip()


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tengen", required=True)
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--playouts", type=int, default=2000)
    ap.add_argument("--net", action="store_true", help="the network's move, no search")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("shards", nargs="+")
    a = ap.parse_args(argv)
    if a.positions < 1 or a.playouts < 1:
        ap.error("--positions and --playouts must be positive")
    games = []
    for path in a.shards:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            games += [json.loads(line) for line in f]
    todo = samples(games, a.positions)
    argv = [a.tengen, "gtp", "--seconds", "600", "--set", f"playouts={a.playouts}"]
    for s in a.set:
        argv += ["--set", s]
    t0, hits, mass = time.time(), 0, 0
    try:
        e = Engine(argv)
        for game, k in todo:
            cols = shard_colors(game)
            e.ask(f"boardsize {SIZE}")
            e.ask("clear_board")
            e.ask(f"komi {game['komi']}")
            for i in range(k):
                e.ask(f"play {cols[i]} {vertex(game['moves'][2 * i:2 * i + 2])}")
            if a.net:
                answer = e.ask(f"tengen-policy {cols[k]} 1").split()[0]
            else:
                answer = e.ask(f"reg_genmove {cols[k]}")
            top = game["pos"][k][3][:2]
            hits += answer.upper() == vertex(top)
            mass += teacher_mass(game, k, answer)
        e.ask("quit")
    except (OSError, RuntimeError) as err:
        print(f"agree.py: {err}", file=sys.stderr)
        return 1
    n = len(todo)
    lo, hi = wilson(hits, n)
    what = "the network alone" if a.net else f"{' '.join(a.set) or 'defaults'}, {a.playouts} playouts"
    print(f"{what}: top-1 {hits} of {n} "
          f"({100 * hits / max(n, 1):.1f} %, 95 % CI {100 * lo:.1f} - {100 * hi:.1f} %), "
          f"teacher's mean per-mille for the moves chosen {mass / max(n, 1):.0f}, "
          f"{time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
