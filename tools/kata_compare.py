#!/usr/bin/env python3
"""tools/kata_compare.py: two GTP engines' kata-raw-nn side by side.

    kata_compare.py --a "CMD" --b "CMD" [--positions N] [--seed S]
                    [--from-move M] [--symmetry random|K] [--optimism X]
                    [--jsonl OUT] [--fixture OUT] SGF...
    kata_compare.py --a "CMD" --b "CMD" --selfplay N --size S [--moves K] ...

Replays the games of the SGF files (each a game or a collection of them,
as a match's games.sgf; a game is named FILE#K, the Kth of FILE, in a
collection) in both engines (boardsize, komi 7.5,
play ...) and, at N positions drawn from move M on (seeded, spread over
the games, no position twice), asks both for `kata-raw-nn SYMMETRY
OPTIMISM` at the same symmetry (random: drawn per position). With
--selfplay, the games are N of A's own on an S x S board (A's `genmove`,
K moves each, default S * S / 2), each asked at its end and at its middle. Engine A is the reference (KataGo:
"gtp:" not needed, a plain command line, e.g. `katago gtp -model NET
-config CFG`), B the one checked (`tengen gtp --model NET`). Prints how
often the top move agrees and the mean and largest differences in win
rate, lead, score, ownership and any move's probability; --jsonl writes
one line a position with both engines' numbers; --fixture writes A's
answers in the form tests/katago.rs reads (the moves, the symmetry, the
raw answer). Exits 1 if an engine fails, a file does not split into games
or a game cannot be replayed.
Python 3 standard library only.
"""

import argparse
import json
import random
import re
import shlex
import subprocess
import sys
import time

import sgf_games

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def sgf_moves(text):
    """(size, [(colour, vertex)]) of a game's main line; vertex 'pass'."""
    m = re.search(r"SZ\[(\d+)\]", text)
    size = int(m.group(1)) if m else 19
    if re.search(r";\s*A[BW]\[", text) or re.search(r"\bA[BW]\[", text):
        raise ValueError("set-up stones")
    moves = []
    for colour, point in re.findall(r";\s*([BW])\[([a-z]{0,2})\]", text):
        if point in ("", "tt") and not (point == "tt" and size > 19):
            moves.append((colour, "pass"))
        else:
            x, y = ord(point[0]) - 97, ord(point[1]) - 97
            moves.append((colour, f"{LETTERS[x]}{size - y}"))
    return size, moves


class Engine:
    def __init__(self, cmd, name):
        self.name = name
        self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def ask(self, line):
        self.send(line)
        return self.answer(line)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def answer(self, line):
        lines = []
        while True:
            out = self.p.stdout.readline()
            if out == "":
                raise RuntimeError(f"{self.name} ended while answering {line!r}")
            out = out.rstrip("\n")
            if out == "" and lines:
                break
            if out or lines:
                lines.append(out)
        head = lines[0]
        if not head.startswith("="):
            raise ValueError(f"{self.name}: {line!r}: {' '.join(lines)}")
        lines[0] = head[1:].strip()
        return [l for l in lines if l != ""]

    def close(self):
        try:
            self.ask("quit")
        except (RuntimeError, ValueError, BrokenPipeError):
            pass
        self.p.wait(timeout=30)


def parse_raw(lines, size):
    """kata-raw-nn's answer (one symmetry) as a dict of numbers."""
    out, i = {}, 0
    while i < len(lines):
        words = lines[i].split()
        if not words:
            i += 1
            continue
        key = words[0]
        if key in ("policy", "whiteOwnership"):
            rows = [r.split() for r in lines[i + 1:i + 1 + size]]
            vals = [float("nan") if v == "NAN" else float(v) for r in rows for v in r]
            out[key] = vals
            i += 1 + size
        else:
            out[key] = float(words[1])
            i += 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="the reference engine's command line")
    ap.add_argument("--b", required=True, help="the checked engine's command line")
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--from-move", type=int, default=20)
    ap.add_argument("--symmetry", default="random")
    ap.add_argument("--optimism", type=float, default=0.0)
    ap.add_argument("--jsonl")
    ap.add_argument("--fixture")
    ap.add_argument("--selfplay", type=int, default=0)
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--moves", type=int)
    ap.add_argument("sgf", nargs="*")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.selfplay:
        return selfplay(args, rng)
    if not args.sgf:
        sys.exit("kata_compare.py: no SGF files (or --selfplay N)")
    games = []
    for file in sorted(args.sgf):
        try:
            named = sgf_games.named(file)
        except OSError as e:
            sys.exit(f"kata_compare.py: {file}: {e.strerror}")
        except ValueError as e:  # a collection that does not split: no guessing
            sys.exit(f"kata_compare.py: {e}")
        for path, text in named:
            try:
                size, moves = sgf_moves(text)
            except (ValueError, IndexError) as e:
                print(f"skipped {path}: {e}", file=sys.stderr)
                continue
            if len(moves) > args.from_move:
                games.append((path, size, moves))
    if not games:
        sys.exit("kata_compare.py: no game long enough")
    # positions: a random game, a random move from --from-move on
    wanted, total = {}, sum(len(g[2]) + 1 - args.from_move for g in games)
    for _ in range(min(args.positions, total)):
        while True:
            g = rng.randrange(len(games))
            n = rng.randrange(args.from_move, len(games[g][2]) + 1)
            if n not in wanted.setdefault(g, set()):
                wanted[g].add(n)
                break
    a, b = Engine(args.a, "A"), Engine(args.b, "B")
    jsonl = open(args.jsonl, "w") if args.jsonl else None
    fixture = open(args.fixture, "w") if args.fixture else None
    stats = {"n": 0, "top": 0, "win": [], "lead": [], "score": [], "own_mean": [], "own_max": [], "policy": []}
    start = time.time()
    try:
        for g in sorted(wanted):
            path, size, moves = games[g]
            for e in (a, b):
                e.ask(f"boardsize {size}")
                e.ask("clear_board")
                e.ask("komi 7.5")
            for n in range(len(moves) + 1):
                if n in wanted[g]:
                    ask_both(a, b, size, moves[:n], {"sgf": path, "move": n}, args, rng, stats, jsonl, fixture)
                if n < len(moves):
                    c, v = moves[n]
                    try:
                        for e in (a, b):
                            e.ask(f"play {c} {v}")
                    except ValueError as err:
                        print(f"{path}: stops at move {n + 1}: {err}", file=sys.stderr)
                        break
    finally:
        a.close()
        b.close()
    report(stats, time.time() - start)


def ask_both(a, b, size, moves, where, args, rng, stats, jsonl, fixture):
    """Both engines' kata-raw-nn of the position after `moves`, compared
    and written where asked."""
    sym = rng.randrange(8) if args.symmetry == "random" else int(args.symmetry)
    q = f"kata-raw-nn {sym} {args.optimism:g}"
    # both engines at work at once: each on its own core
    a.send(q)
    b.send(q)
    ra, rb = a.answer(q), b.answer(q)
    pa, pb = parse_raw(ra, size), parse_raw(rb, size)
    compare(stats, pa, pb)
    if jsonl:
        jsonl.write(json.dumps({**where, "symmetry": sym, "a": pa, "b": pb}) + "\n")
    if fixture:
        played = " ".join(f"{c} {v}" for c, v in moves)
        fixture.write(f"position {size} {sym} {args.optimism:g} {played}\n")
        fixture.write("\n".join(ra) + "\nend\n")


def selfplay(args, rng):
    """--selfplay: A plays itself; both are asked at each game's middle
    and end."""
    size, length = args.size, args.moves or args.size * args.size // 2
    a, b = Engine(args.a, "A"), Engine(args.b, "B")
    jsonl = open(args.jsonl, "w") if args.jsonl else None
    fixture = open(args.fixture, "w") if args.fixture else None
    stats = {"n": 0, "top": 0, "win": [], "lead": [], "score": [], "own_mean": [], "own_max": [], "policy": []}
    start = time.time()
    try:
        for g in range(args.selfplay):
            for e in (a, b):
                e.ask(f"boardsize {size}")
                e.ask("clear_board")
                e.ask("komi 7.5")
            moves = []
            for n in range(length):
                if n == length // 2:
                    ask_both(a, b, size, moves, {"game": g, "move": n}, args, rng, stats, jsonl, fixture)
                c = "BW"[n % 2]
                v = a.ask(f"genmove {c}")[0]
                if v.lower() == "resign":
                    break
                b.ask(f"play {c} {v}")
                moves.append((c, v))
            ask_both(a, b, size, moves, {"game": g, "move": len(moves)}, args, rng, stats, jsonl, fixture)
    finally:
        a.close()
        b.close()
    report(stats, time.time() - start)


def compare(stats, pa, pb):
    stats["n"] += 1
    pol_a, pol_b = pa["policy"] + [pa["policyPass"]], pb["policy"] + [pb["policyPass"]]
    best = lambda p: max(range(len(p)), key=lambda i: -1 if p[i] != p[i] else p[i])
    stats["top"] += best(pol_a) == best(pol_b)
    stats["win"].append(abs(pa["whiteWin"] - pb["whiteWin"]))
    stats["lead"].append(abs(pa["whiteLead"] - pb["whiteLead"]))
    stats["score"].append(abs(pa["whiteScoreSelfplay"] - pb["whiteScoreSelfplay"]))
    d = [abs(x - y) for x, y in zip(pa["whiteOwnership"], pb["whiteOwnership"])]
    stats["own_mean"].append(sum(d) / len(d))
    stats["own_max"].append(max(d))
    nan = [(x != x) != (y != y) for x, y in zip(pol_a, pol_b)]
    if any(nan):
        stats["policy"].append(1.0)  # a move legal for one engine only
    else:
        stats["policy"].append(max(abs(x - y) for x, y in zip(pol_a, pol_b) if x == x))


def report(s, seconds):
    n = max(s["n"], 1)
    mean = lambda v: sum(v) / max(len(v), 1)
    print(f"positions {s['n']} ({seconds:.0f} s)")
    print(f"top move agrees {s['top']} of {s['n']} ({100.0 * s['top'] / n:.2f} %)")
    print(f"whiteWin     mean {mean(s['win']):.2e}  max {max(s['win'], default=0):.2e}")
    print(f"whiteLead    mean {mean(s['lead']):.2e}  max {max(s['lead'], default=0):.2e}")
    print(f"whiteScore   mean {mean(s['score']):.2e}  max {max(s['score'], default=0):.2e}")
    print(f"ownership    mean {mean(s['own_mean']):.2e}  max {max(s['own_max'], default=0):.2e}")
    print(f"policy (largest difference of any move) mean {mean(s['policy']):.2e}  max {max(s['policy'], default=0):.2e}")


if __name__ == "__main__":
    main()
