#!/usr/bin/env python3
"""Answer times against the bank offered, from a `tengen arena` match folder.

The bank a bot is offered at each request is rebuilt from the answer times
in the SGF comments with the arena's rule: the first request offers the full
bank; after an answer taking t ms the next offers min(T - t + per_move, bank).

usage: tools/answer_times.py MATCH_DIR [--name NAME] [--bank MS] [--per-move MS]

Prints, for the bot NAME (default tengen): answers, the answer times' mean
(KataGo's `maxTime` at equal time) and percentiles,
the share of the bank each answer took, answers slower than the bank offered
(must be 0), the bank left unused at the end of each game, and the share of
the available time (first bank + per-move x answers) the bot used.
"""
import argparse
import json
import os
import re
import sys

import sgf_games


def percentile(values, q):
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(q / 100 * (len(s) - 1))))
    return s[k]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("match_dir")
    ap.add_argument("--name", default="tengen")
    ap.add_argument("--bank", type=int, default=10000)
    ap.add_argument("--per-move", type=int, default=200)
    a = ap.parse_args()
    jsonl = os.path.join(a.match_dir, "games.jsonl")
    if not os.path.isfile(jsonl):
        sys.exit(f"answer_times.py: no games.jsonl in {a.match_dir}")
    times, shares, late, left, used = [], [], 0, [], []
    games = 0
    with open(jsonl) as f:
        for line in f:
            if not line.strip():
                continue
            g = json.loads(line)
            if "match" in g:  # the match's facts, not a game
                continue
            if a.name == g["black"]:
                colour = "B"
            elif a.name == g["white"]:
                colour = "W"
            else:
                continue
            try:  # games.sgf (a collection) or a file a game
                sgf = sgf_games.match_game(a.match_dir, g)[1]
            except (OSError, ValueError) as e:
                sys.exit(f"answer_times.py: game {g.get('game')}: {getattr(e, 'strerror', None) or e}")
            answers = [int(ms) for c, ms in re.findall(r";([BW])\[[a-z]*\]C\[(\d+) ms", sgf) if c == colour]
            if not answers:
                continue
            games += 1
            bank = a.bank
            for t in answers:
                times.append(t)
                shares.append(t / bank if bank > 0 else float("inf"))
                if t > bank:
                    late += 1
                bank = min(bank - t + a.per_move, a.bank)
            left.append(bank)
            used.append(sum(answers) / (a.bank + a.per_move * len(answers)))
    if games == 0:
        sys.exit(f"answer_times.py: no game of {a.name!r} in {a.match_dir}")
    print(f"{a.name}: {games} games, {len(times)} answers (bank {a.bank} ms + {a.per_move} ms a move)")
    print("answer time ms: mean {:.0f} median {} p90 {} p99 {} max {}".format(
        sum(times) / len(times), percentile(times, 50), percentile(times, 90),
        percentile(times, 99), max(times)))
    print("share of the bank offered: median {:.1%} p90 {:.1%} p99 {:.1%} max {:.1%}".format(
        percentile(shares, 50), percentile(shares, 90), percentile(shares, 99), max(shares)))
    print(f"answers slower than the bank offered: {late}")
    print("bank left at the end of a game, ms: min {} median {} max {}".format(
        min(left), percentile(left, 50), max(left)))
    print("share of the available time used: min {:.1%} median {:.1%} max {:.1%}".format(
        min(used), percentile(used, 50), max(used)))


if __name__ == "__main__":
    main()
