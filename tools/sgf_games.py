#!/usr/bin/env python3
"""tools/sgf_games.py: the games of an SGF collection, for the tools that
read match records (imported by them) and on the command line.

usage: tools/sgf_games.py FILE               list its games
       tools/sgf_games.py FILE N [--nth]     print game N of it

A collection is SGF's own form for many games in one file, `(;...)(;...)`,
as `tengen arena` writes a match's games.sgf (Sabaki and GoGui open it as a
list of games); a file of one game is a collection of one. The list gives
each game's place in the file, its name (GN: `game N`, the arena's number,
which games.jsonl gives), players, result and moves. Game N is the one
named `game N`; with --nth, the Nth of the file (for files whose names
repeat or are missing). Exit status 2 on bad input: no file, text that
does not split into games, no such game. Python 3 standard library only.
"""
import os
import re
import signal
import sys

COLLECTION = "games.sgf"
GN_RE = re.compile(r"\bGN\[((?:\\.|[^\\\]])*)\]", re.S)


def split(text):
    """The games of an SGF collection, each the text of one game tree, in
    file order. ValueError on text between games, a game not closed or no
    game at all (the rules of `tengen::go::sgf::games`)."""
    games, i, n = [], 1 if text.startswith("\ufeff") else 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        if text[i] != "(":
            raise ValueError(f"game {len(games) + 1}: expected '(' at {i}, found {text[i]!r}")
        start, depth = i, 0
        while True:
            if i >= n:
                raise ValueError(f"game {len(games) + 1}: not closed with ')'")
            c = text[i]
            if c == "[":
                i += 1
                while i < n and text[i] != "]":
                    i += 2 if text[i] == "\\" else 1
                if i >= n:
                    raise ValueError(f"game {len(games) + 1}: a property value is not closed with ']'")
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        i += 1
        games.append(text[start:i])
    if not games:
        raise ValueError("no SGF game in it")
    return games


def read(path):
    """The games of the file at `path` (OSError, or ValueError naming it)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    try:
        return split(text)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None


def name(game):
    """A game's name (its first GN), or None."""
    m = GN_RE.search(game)
    return m.group(1) if m else None


def pick(games, n, nth=False):
    """Game `n` of `games`: the one named `game n`, or with `nth` the nth of
    the file. ValueError when there is none or more than one."""
    if nth:
        if not 1 <= n <= len(games):
            raise ValueError(f"it holds {len(games)} games, no game {n} of the file")
        return games[n - 1]
    places = [k for k, g in enumerate(games, 1) if name(g) == f"game {n}"]
    if len(places) == 1:
        return games[places[0] - 1]
    if places:
        raise ValueError(f"games {', '.join(map(str, places))} of the file are all named "
                         f"'game {n}': pick one by its place (--nth)")
    raise ValueError(f"none of its {len(games)} games is named 'game {n}' "
                     "(--nth picks by place in the file)")


def match_game(folder, line):
    """(name, SGF text) of the game of a games.jsonl `line` in a match
    folder: from the file the line names, else from the folder's games.sgf
    (sets whose per-game files were gathered into one), found there by its
    number; a file of one game without that name is that game."""
    number = int(line["game"])
    path = os.path.join(folder, line.get("sgf") or f"game-{number:04d}.sgf")
    if not os.path.isfile(path) and os.path.isfile(os.path.join(folder, COLLECTION)):
        path = os.path.join(folder, COLLECTION)
    games = read(path)
    if len(games) == 1 and name(games[0]) is None:
        return path, games[0]
    try:
        game = pick(games, number)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
    return (path if len(games) == 1 else f"{path}#{games.index(game) + 1}"), game


def named(path):
    """[(name, SGF text)] of a file's games: `path` for a file of one game,
    `path#K` (the Kth of the file) otherwise, as tengen names them."""
    games = read(path)
    if len(games) == 1:
        return [(path, games[0])]
    return [(f"{path}#{k}", g) for k, g in enumerate(games, 1)]


def prop(game, ident):
    m = re.search(r"\b" + ident + r"\[((?:\\.|[^\\\]])*)\]", game)
    return m.group(1) if m else ""


def fail(msg):
    print(f"sgf_games.py: {msg}", file=sys.stderr)
    return 2


def main(argv):
    args = [a for a in argv if a != "--nth"]
    nth = len(args) < len(argv)
    if len(args) not in (1, 2) or (nth and len(args) != 2):
        return fail("usage: tools/sgf_games.py FILE [N [--nth]]")
    path = args[0]
    try:
        games = read(path)
    except OSError as e:
        return fail(f"{path}: {e.strerror}")
    except ValueError as e:
        return fail(str(e))
    if len(args) == 2:
        if not args[1].isdigit():
            return fail(f"{args[1]!r} is not a game number")
        try:
            sys.stdout.write(pick(games, int(args[1]), nth) + "\n")
        except ValueError as e:
            return fail(f"{path}: {e}")
        return 0
    print(f"{len(games)} games in {path}")
    for k, g in enumerate(games, 1):
        moves = len(re.findall(r";\s*[BW]\[", g))
        print(f"{k:>4}  {name(g) or '-':<10} {prop(g, 'PB')} - {prop(g, 'PW')}  "
              f"{prop(g, 'RE') or '?'}  {moves} moves")
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the list quietly
    sys.exit(main(sys.argv[1:]))
