#!/usr/bin/env python3
"""Strings a bot lost to a capture, and what it could have done a move earlier.

usage: tools/lost_strings.py MATCH_DIR [MATCH_DIR ...] [--name NAME] [--min N] [--list]

For each capture of a string of at least N (default 3) stones of NAME's
(default tengen) in the games of MATCH_DIR/games.jsonl, looks at the position
before NAME's last move and tells, for the string as it stood then, the first of
  false-eye   in atari on a point whose neighbours are all NAME's stones, and
              filling it leaves at least 2 liberties
  extend      in atari, and playing its liberty leaves at least 3 liberties
  capture     in atari next to an opponent string in atari (not when NAME's
              move was that capture: it did not save the string, a snapback)
  self-atari  not in atari, and NAME's last move put it in atari
  none        anything else (already lost, a ladder, a semeai, ...)
The win rate is NAME's at that move, from its log (game-NNNN-A.log or -B.log:
the `winrate` line after `protocol::state] move K`); ? without a log or a
search (a forced pass). --list shows each capture: folder, game, move, stones,
class, point to play (the liberty; the capture; NAME's move for self-atari),
win rate, result. The table counts, per class, captures in won games, in lost
ones, in lost ones at a win rate of 0.5 or more, and lost games with one.
A last games.jsonl line still being written is skipped. Exit status 2 on bad
input: no folder or games.jsonl, a bad line, an SGF that does not parse or
replay (a game is found in MATCH_DIR/games.sgf by its number, or in the
file its games.jsonl line names), N < 1.
"""
import argparse
import json
import os
import re
import sys

import sgf_games

PROG = "lost_strings.py"
COLUMNS = "ABCDEFGHJKLMNOPQRST"
CLASSES = ("false-eye", "extend", "capture", "self-atari", "none")
MOVE_RE = re.compile(r"protocol::state\] move (\d+)\s*$")
WINRATE_RE = re.compile(r"\bwinrate ([0-9.]+)")
# a value may hold `\]`, and comments hold anything
TOKEN_RE = re.compile(r"\s*(\(|\)|;|[A-Za-z]+|\[(?:\\.|[^\\\]])*\])", re.S)


def bad_input(msg):
    print(f"{PROG}: {msg}", file=sys.stderr)
    sys.exit(2)


def read_sgf(text):
    """(size, [(colour, point index or None for a pass)]) of a game."""
    if TOKEN_RE.sub("", text).strip():
        raise ValueError("does not parse (an unterminated value, stray text?)")
    tokens = TOKEN_RE.findall(text)
    if tokens[:2] != ["(", ";"] or tokens[-1] != ")" or tokens.count("(") + tokens.count(")") != 2:
        raise ValueError("not one game tree without variations")
    props, ident = [], None
    for t in tokens:
        if t[0] == "[":
            props.append((ident, t[1:-1]))
        else:
            ident = t if t[0].isalpha() else None
    size, moves = next((v for k, v in props if k == "SZ"), "19"), []
    if not size.isdigit() or not 2 <= int(size) <= 19:
        raise ValueError(f"board size {size!r} not supported")
    size = int(size)
    for k, v in props:
        if k in ("B", "W") and v in ("", "tt"):
            moves.append((k, None))
        elif k in ("B", "W"):
            x, y = (ord(c) - 97 for c in v) if len(v) == 2 else (-1, -1)
            if not (0 <= x < size and 0 <= y < size):
                raise ValueError(f"move {len(moves) + 1} {k}[{v}] is not a point")
            moves.append((k, y * size + x))
    return size, moves


def group(board, nb, p):
    """The string at p and its liberties, as two sets."""
    colour, stones, libs, todo = board[p], {p}, set(), [p]
    while todo:
        for q in nb[todo.pop()]:
            if board[q] == colour and q not in stones:
                stones.add(q)
                todo.append(q)
            elif board[q] is None:
                libs.add(q)
    return stones, libs


def play(board, nb, p, colour):
    """Plays colour at p; returns the strings it captured."""
    if board[p] is not None:
        raise ValueError("the point is taken")
    board[p] = colour
    captured = []
    for q in nb[p]:
        if board[q] not in (None, colour) and not any(q in s for s in captured):
            stones, libs = group(board, nb, q)
            if not libs:
                captured.append(stones)
    for q in set().union(*captured):
        board[q] = None
    if not group(board, nb, p)[1]:
        board[p] = None
        raise ValueError("suicide")
    return captured


def classify(before, nb, last, lost, me):
    """(class, point to play) for the string `lost` (its stones when it was
    captured), seen in `before`, where `me` played `last` (None: a pass)."""
    strings = []
    for p in sorted(lost - {last}):  # only `last` was played in between
        if not any(p in s for s, _ in strings):
            strings.append(group(before, nb, p))
    in_atari = [(s, next(iter(libs))) for s, libs in strings if len(libs) == 1]
    if not in_atari:
        # only a move of its own can have taken its liberties
        return ("self-atari", last) if last in lost else ("none", None)
    for _, lib in in_atari:
        if all(before[q] == me for q in nb[lib]) and liberties_after(before, nb, lib, me) >= 2:
            return "false-eye", lib
    for _, lib in in_atari:
        if liberties_after(before, nb, lib, me) >= 3:
            return "extend", lib
    for s, _ in in_atari:
        for q in sorted({q for p in s for q in nb[p] if before[q] not in (None, me)}):
            libs = group(before, nb, q)[1]
            if len(libs) == 1 and libs != {last}:
                return "capture", next(iter(libs))
    return "none", None


def liberties_after(before, nb, p, me):
    """Liberties of me's string at p once played there (it may capture), or 0."""
    board = list(before)
    try:
        play(board, nb, p, me)
    except ValueError:
        return 0
    return len(group(board, nb, p)[1])


def winrates(path):
    """{move number: win rate} from a bot's log; {} when there is none."""
    rates, current = {}, None
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        return {}
    for line in lines:
        m, w = MOVE_RE.search(line), WINRATE_RE.search(line)
        if m:
            current = int(m.group(1))
        elif w and current is not None:
            rates[current], current = float(w.group(1)), None  # not the next answer's
    return rates


def read_games(folder):
    path = os.path.join(folder, "games.jsonl")
    try:
        lines = open(path, encoding="utf-8").read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        bad_input(f"{path}: {getattr(e, 'strerror', None) or e}")
    games = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            g = json.loads(line)
            if "match" in g:  # the match's facts, not a game
                continue
            g["game"], g["black"], g["white"] = int(g["game"]), g["black"], g["white"]
        except (ValueError, KeyError, TypeError) as e:
            if n == len(lines):  # no newline yet: the arena is still writing it
                print(f"{PROG}: {path}:{n}: skipping an incomplete last line", file=sys.stderr)
                continue
            bad_input(f"{path}:{n}: not a game record ({e})")
        games.append(g)
    return games


def scan_game(folder, g, me, min_stones):
    """[(capturing move, stones, class, point, win rate)] of one game."""
    sgf = g.get("sgf") or f"game-{g['game']:04d}.sgf"
    try:
        # games.sgf (a collection) or a file a game
        sgf, text = sgf_games.match_game(folder, g)
        size, moves = read_sgf(text)
    except (OSError, ValueError) as e:
        bad_input(f"{folder} game {g['game']}: {sgf}: {getattr(e, 'strerror', None) or e}")
    nb = [[q for q, ok in ((p - 1, p % size > 0), (p + 1, p % size < size - 1),
                           (p - size, p >= size), (p + size, p < size * (size - 1))) if ok]
          for p in range(size * size)]
    board = [None] * (size * size)
    log = (g.get("logs") or {}).get(g.get("black_player" if me == "B" else "white_player"))
    before, last, last_num, found = None, None, None, []
    for num, (colour, p) in enumerate(moves, 1):
        if colour == me:
            before, last, last_num = list(board), p, num
        if p is None:
            continue
        try:
            captured = play(board, nb, p, colour)
        except ValueError as e:
            bad_input(f"{folder} game {g['game']}: move {num} {colour} {gtp(p, size)} is illegal ({e})")
        if colour == me or before is None:
            continue
        for s in (s for s in captured if len(s) >= min_stones):
            cls, at = classify(before, nb, last, s, me)
            found.append((num, len(s), cls, gtp(at, size), last_num))
    rates = winrates(os.path.join(folder, log)) if found and log else {}
    return [f[:4] + (rates.get(f[4]),) for f in found]


def gtp(p, size):
    return "-" if p is None else f"{COLUMNS[p % size]}{size - p // size}"


def main():
    ap = argparse.ArgumentParser(prog=f"tools/{PROG}", description=__doc__.split("\n")[0])
    ap.error = bad_input  # one line, like every other bad input
    ap.add_argument("match_dirs", nargs="+", metavar="MATCH_DIR")
    ap.add_argument("--name", default="tengen")
    ap.add_argument("--min", type=int, default=3, metavar="N")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.min < 1:
        bad_input(f"--min must be at least 1 (got {a.min})")
    if len(set(map(os.path.realpath, a.match_dirs))) < len(a.match_dirs):
        bad_input("a folder is given twice")
    for d in a.match_dirs:
        if not os.path.isdir(d):
            bad_input(f"no folder {d}")
    labels = [os.path.basename(os.path.normpath(d)) for d in a.match_dirs]
    if len(set(labels)) < len(labels):
        labels = [os.path.normpath(d) for d in a.match_dirs]
    table = {c: [0, 0, 0, set()] for c in CLASSES + ("all",)}  # won, lost, lost at >= 0.5, lost games
    played = {"won": 0, "lost": 0, "draw": 0}
    if a.list:
        print(f"{'folder':<8} {'game':>4} {'move':>4} {'stones':>6} {'class':<10} {'play':<4} {'winrate':>7}  result")
    for d, label in zip(a.match_dirs, labels):
        for g in read_games(d):
            if a.name not in (g["black"], g["white"]) or g["black"] == g["white"]:
                continue  # in self-play there is no opponent to tell apart
            winner = g.get("winner")
            result = "draw" if winner is None else "won" if winner == a.name else "lost"
            played[result] += 1
            for num, stones, cls, at, rate in scan_game(d, g, "B" if g["black"] == a.name else "W", a.min):
                for row in (table[cls], table["all"]):
                    if result == "won":
                        row[0] += 1
                    elif result == "lost":
                        row[1] += 1
                        row[2] += rate is not None and rate >= 0.5
                        row[3].add((d, g["game"]))
                if a.list:
                    shown = "?" if rate is None else f"{rate:.3f}"
                    print(f"{label:<8} {g['game']:>4} {num:>4} {stones:>6} {cls:<10} {at:<4} {shown:>7}  {result}")
    if a.list:
        print()
    print(f"{a.name}: {sum(played.values())} games ({played['won']} won, {played['lost']} lost, "
          f"{played['draw']} drawn) in {' '.join(labels)}; captured strings of {a.min}+ stones")
    print(f"{'class':<10} {'won':>5} {'lost':>5} {'lost>=0.5':>9} {'lost games':>10}")
    for c, (won, lost, hopeful, games) in table.items():
        print(f"{c:<10} {won:>5} {lost:>5} {hopeful:>9} {len(games):>10}")


if __name__ == "__main__":
    main()
