#!/usr/bin/env python3
"""Pairs two tools/rerank_check.py dumps of the same positions: the points
the search's pick loses against the teacher's own move in each, and their
difference position by position, with a 95 % interval.

usage: tools/rerank_pair.py BASE.jsonl[.gz] OTHER.jsonl[.gz]

Exit status 2 on bad input (a file missing or not a dump). Standard
library only.
"""
import gzip
import json
import statistics
import sys


def read(path):
    """{(game, moves): points the search's pick loses against the teacher's move}."""
    out = {}
    try:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            for line in f:
                d = json.loads(line)
                pick = d["candidates"][0]
                out[(d["sgf"], d["moves"])] = d["teacher_after_it"][1] - pick["teacher_lead"]
    except (OSError, ValueError, KeyError, IndexError) as e:
        print(f"rerank_pair.py: {path}: not a rerank_check dump ({e})", file=sys.stderr)
        sys.exit(2)
    return out


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    base, other = read(argv[0]), read(argv[1])
    keys = sorted(set(base) & set(other))
    if len(keys) < 2:
        print("rerank_pair.py: fewer than 2 positions in both", file=sys.stderr)
        sys.exit(2)
    d = [other[k] - base[k] for k in keys]
    half = lambda xs: 1.96 * statistics.pstdev(xs) / len(xs) ** 0.5
    b = [base[k] for k in keys]
    o = [other[k] for k in keys]
    print(f"{len(keys)} positions in both; points lost against the teacher's move a pick:")
    print(f"  {argv[0]}: {statistics.fmean(b):.2f} ± {half(b):.2f}")
    print(f"  {argv[1]}: {statistics.fmean(o):.2f} ± {half(o):.2f}")
    print(f"  difference: {statistics.fmean(d):+.2f} ± {half(d):.2f} "
          f"({sum(x != 0 for x in d)} positions with another pick)")


if __name__ == "__main__":
    main(sys.argv[1:])
