#!/usr/bin/env python3
"""What tengen suffered in a tools/stress.sh match folder.

usage: tools/stress_summary.py DIR [--stalls N] [--stop-ms MS] [--every-ms MS]
                               [--burners K] [--cores C] [--seconds S]

From DIR/games.jsonl (side A is tengen): games, wins, timeouts, illegal
moves, the worst answer time and the smallest bank left. From tengen's logs
(DIR/game-*-A.log, written with RUST_LOG=info): fallbacks, searches given up,
searches still running a turn late, and answers that took longer than the
hard deadline of the plan logged before them.
"""
import glob
import json
import os
import re
import sys

UNITS = {"ns": 1e-6, "µs": 1e-3, "us": 1e-3, "ms": 1.0, "s": 1000.0}
DURATION = r"([0-9.]+)(ns|µs|us|ms|s)"
PLAN = re.compile(r"Plan \{ soft: " + DURATION + r", hard: " + DURATION + r" \}")
BANK = re.compile(r"to move, bank Some\((-?\d+)\) ms")
ANSWERED = re.compile(r"answered .* after " + DURATION + r"\s*$")


def ms(value, unit):
    """A Rust Duration's Debug text (number and unit) in milliseconds."""
    return float(value) * UNITS[unit]


def options(argv):
    opts, rest = {}, []
    i = 0
    while i < len(argv):
        if argv[i].startswith("--") and i + 1 < len(argv):
            opts[argv[i][2:]] = argv[i + 1]
            i += 2
        else:
            rest.append(argv[i])
            i += 1
    if len(rest) != 1:
        sys.exit(__doc__.strip().splitlines()[2])
    return rest[0], opts


def main():
    folder, opts = options(sys.argv[1:])
    games = wins = timeouts = illegal = 0
    worst_ms = None
    least_bank = None
    reasons = {}
    path = os.path.join(folder, "games.jsonl")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if not line.strip():
                    continue
                g = json.loads(line)
                if "match" in g:  # the match's facts, not a game
                    continue
                games += 1
                side = "black" if g.get("black_player") == "A" else "white"
                s = g.get(side + "_stats") or {}
                if g.get("winner_player") == "A":
                    wins += 1
                timeouts += s.get("timeouts", 0)
                illegal += s.get("illegal", 0)
                if s.get("max_ms") is not None:
                    worst_ms = max(worst_ms or 0, s["max_ms"])
                if s.get("bank_left_ms") is not None:
                    b = s["bank_left_ms"]
                    least_bank = b if least_bank is None else min(least_bank, b)
                reasons[g.get("reason")] = reasons.get(g.get("reason"), 0) + 1

    fallbacks = given_up = late = answers = planned = over_hard = slow = 0
    worst_over = 0.0
    games_given_up = 0
    # the answer that came closest to the bank it had: (spare ms, took, bank)
    closest = None
    logs = sorted(glob.glob(os.path.join(folder, "game-*-A.log")))
    for log in logs:
        hard = bank = None
        gave_up_here = False
        with open(log, errors="replace") as f:
            for line in f:
                if "falling back" in line:
                    fallbacks += 1
                if "the host is slow" in line:
                    slow += 1
                if "not searching any more" in line or "no search this turn" in line:
                    given_up += 1
                    gave_up_here = True
                m = BANK.search(line)
                if m:
                    bank = int(m.group(1))
                if "still running a turn late" in line:
                    late += 1
                m = PLAN.search(line)
                if m:
                    hard = ms(m.group(3), m.group(4))
                    continue
                m = ANSWERED.search(line)
                if m:
                    answers += 1
                    took = ms(m.group(1), m.group(2))
                    if bank is not None and (closest is None or bank - took < closest[0]):
                        closest = (bank - took, took, bank)
                    bank = None
                    if hard is not None:
                        planned += 1
                        if took > hard:
                            over_hard += 1
                            worst_over = max(worst_over, took - hard)
                    hard = None
        games_given_up += gave_up_here

    def show(v, unit=" ms"):
        return "-" if v is None else f"{v:g}{unit}"

    o = opts.get
    lines = [
        f"stress match: {folder}",
        f"host: stalls of {o('stop-ms', '?')} ms every ~{o('every-ms', '?')} ms, "
        f"{o('burners', '0')} burner(s) per core on {o('cores', '?')} core(s); "
        f"took {o('seconds', '?')} s",
        f"games: {games}   tengen wins: {wins}   ended by: "
        + (", ".join(f"{k} {v}" for k, v in sorted(reasons.items(), key=str)) or "-"),
        f"tengen timeouts: {timeouts}   illegal moves: {illegal}",
        f"worst answer: {show(worst_ms)}   smallest bank left: {show(least_bank)}",
        f"stalls caused: {o('stalls', '?')}",
        f"from {len(logs)} log(s), {answers} answers: fallbacks {fallbacks}, "
        f"searches given up {given_up} (in {games_given_up} game(s)), "
        f"still running a turn late {late}, late answers seen by the bot {slow}",
        "closest answer to its bank: "
        + (f"{closest[1]:.0f} ms of {closest[2]} ms ({closest[0]:.0f} ms to spare)"
           if closest else "-"),
        f"answers past the planned hard deadline: {over_hard} of {planned} with a plan"
        + (f" (worst by {worst_over:.0f} ms)" if over_hard else ""),
    ]
    if answers == 0 and logs:
        lines.append("(no 'answered' lines: were the logs written with RUST_LOG=info?)")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
