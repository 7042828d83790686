#!/usr/bin/env python3
"""Win rates pooled over `tengen arena` match folders, and two arms compared.

Matches of one setting are often played in pieces (one core each, stopped and
restarted); this adds them up. With two groups of folders, split by `--`, it
also tells how likely a gap at least as large as the one seen would be if both
arms had the same win rate (Fisher's exact test), so that a handful of games
is not read as a finding.

usage: tools/pool.py DIR... [-- DIR...] [--name NAME]

For each folder and each group: games, wins of NAME (default tengen; a draw
counts half), by colour, and the score with its 95 % Wilson interval. Games
lost by a fault (a crash, a timeout, an illegal move) are counted; the arena's
own summary shows them apart.
"""
import json
import math
import os
import sys


def wilson(p, n, z=1.96):
    """95 % Wilson score interval of a proportion p over n trials."""
    if n == 0:
        return (0.0, 1.0)
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def fisher(a, b, c, d):
    """Fisher's exact test on [[a, b], [c, d]] (wins, losses of each arm):
    the two-sided p and the one-sided p of the first arm doing this well or
    better."""
    n1, n2, k = a + b, c + d, a + c
    n = n1 + n2

    def prob(x):
        return math.comb(n1, x) * math.comb(n2, k - x) / math.comb(n, k)

    lo, hi = max(0, k - n2), min(k, n1)
    seen = prob(a)
    two = sum(prob(x) for x in range(lo, hi + 1) if prob(x) <= seen * (1 + 1e-9))
    one = sum(prob(x) for x in range(a, hi + 1))
    return min(1.0, two), min(1.0, one)


class Tally:
    def __init__(self):
        self.games = self.wins = 0.0
        self.by = {"black": [0, 0.0], "white": [0, 0.0]}

    def add(self, colour, score):
        self.games += 1
        self.wins += score
        self.by[colour][0] += 1
        self.by[colour][1] += score

    def merge(self, other):
        self.games += other.games
        self.wins += other.wins
        for c in self.by:
            self.by[c][0] += other.by[c][0]
            self.by[c][1] += other.by[c][1]

    def line(self, label):
        n = int(self.games)
        if n == 0:
            return f"{label}: no games"
        p = self.wins / n
        lo, hi = wilson(p, n)
        colours = ", ".join(f"{w:g} of {g} as {c}" for c, (g, w) in self.by.items())
        return (
            f"{label}: {self.wins:g} of {n} ({100 * p:.1f} %, 95 % CI "
            f"{100 * lo:.1f} - {100 * hi:.1f} %, Wilson; {colours})"
        )


def read(folder, name):
    path = os.path.join(folder, "games.jsonl")
    if not os.path.isfile(path):
        sys.exit(f"pool.py: no games.jsonl in {folder}")
    t = Tally()
    with open(path) as f:
        for k, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                g = json.loads(line)
                if "match" in g:  # the match's facts, not a game
                    continue
                black, white = g["black"], g["white"]
                winner = g.get("winner")
            except (ValueError, KeyError, TypeError) as e:
                sys.exit(f"pool.py: {path} line {k}: not a game record ({e})")
            if name == black:
                colour = "black"
            elif name == white:
                colour = "white"
            else:
                continue
            score = 0.5 if winner is None else float(winner == name)
            t.add(colour, score)
    if t.games == 0:
        sys.exit(f"pool.py: no games of {name!r} in {folder}")
    return t


def main(argv):
    name = "tengen"
    if "--name" in argv:
        i = argv.index("--name")
        if i + 1 >= len(argv):
            sys.exit("pool.py: --name needs a value")
        name = argv[i + 1]
        argv = argv[:i] + argv[i + 2 :]
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__.strip())
        return
    groups = [[]]
    for a in argv:
        if a == "--":
            groups.append([])
        else:
            groups[-1].append(a)
    if len(groups) > 2 or any(not g for g in groups):
        sys.exit("pool.py: usage: tools/pool.py DIR... [-- DIR...] [--name NAME]")
    totals = []
    for gi, folders in enumerate(groups):
        total = Tally()
        for folder in folders:
            t = read(folder, name)
            print(t.line(folder))
            total.merge(t)
        label = "pooled" if len(groups) == 1 else f"arm {gi + 1}"
        print(total.line(label))
        totals.append(total)
    if len(totals) == 2:
        a, b = totals
        # draws are rare; Fisher's test counts whole wins
        wa, wb = round(a.wins), round(b.wins)
        two, one = fisher(wa, int(a.games) - wa, wb, int(b.games) - wb)
        print(
            f"arm 1 against arm 2: Fisher exact p = {two:.3f} (two-sided), "
            f"{one:.3f} (arm 1 at least this far ahead)"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
