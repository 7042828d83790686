#!/usr/bin/env python3
"""Did the search see the move that was played? One position of a game record.

usage: tools/neglected.py GAME.sgf MOVES [--game N [--nth]] [--playouts N]
                          [--bin PATH] [--set NAME=VALUE]...

GAME.sgf is a file of one game or a collection (a match's games.sgf), of
which --game N picks the game named `game N` (the arena's number, as in
games.jsonl), or with --nth the Nth of the file.
Replays the first MOVES moves of the game (passes count) into `tengen gtp`,
has it search the position for the side to move with pondering off and at
most N playouts (default 8000; a fixed count, so the machine's load changes
nothing but the time), and prints the root moves the search liked best and
where the move actually played next in the record (move MOVES + 1) stood:
its rank by playouts, its playouts, its value, its visits with the prior
and its AMAF value. A move the record's winner played and the search gave
a handful of playouts is a blind spot (docs/measurements.md: the AMAF bias).
--set passes search parameters on, as `tengen gtp --set` takes them.

tengen: PATH, else target/release/tengen next to this script's folder.
Exit status: 2 on bad input (no such file, a collection that does not
split into games, several games and no --game, no game N, no moves, MOVES
out of range, a move tengen refuses) or when tengen fails.
"""
import os
import re
import subprocess
import sys

import sgf_games

COLUMNS = "ABCDEFGHJKLMNOPQRST"


def fail(msg):
    print(f"neglected.py: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    pos, playouts, binary, sets, game, nth = [], 8000, None, [], None, False
    it = iter(argv)
    for a in it:
        if a == "--nth":
            nth = True
        elif a in ("--playouts", "--bin", "--set", "--game"):
            v = next(it, None)
            if v is None:
                fail(f"{a} needs a value")
            if a == "--game":
                if not v.isdigit() or int(v) == 0:
                    fail(f"--game {v!r}: expected a game number")
                game = int(v)
            elif a == "--playouts":
                if not v.isdigit() or int(v) == 0:
                    fail(f"--playouts {v!r}: expected a positive count")
                playouts = int(v)
            elif a == "--bin":
                binary = v
            else:
                sets.append(v)
        elif a in ("-h", "--help"):
            print(__doc__)
            sys.exit(0)
        elif a.startswith("--"):
            fail(f"unknown option {a}")
        else:
            pos.append(a)
    if len(pos) != 2:
        fail("usage: tools/neglected.py GAME.sgf MOVES [--game N [--nth]] [--playouts N] [--bin PATH] "
             "[--set NAME=VALUE]...")
    if not pos[1].isdigit():
        fail(f"MOVES {pos[1]!r}: expected a move count")
    if nth and game is None:
        fail("--nth goes with --game N")
    return pos[0], int(pos[1]), playouts, binary, sets, game, nth


def read_record(path, game, nth):
    """(name, size, komi, [(colour, vertex or 'pass')]) of a game of the file."""
    try:
        games = sgf_games.read(path)
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    except ValueError as e:
        fail(str(e))
    if game is None and len(games) > 1:
        fail(f"{path} holds {len(games)} games: pick one with --game N (tools/sgf_games.py {path} lists them)")
    try:
        text = games[0] if game is None else sgf_games.pick(games, game, nth)
    except ValueError as e:
        fail(f"{path}: {e}")
    if len(games) > 1:
        path = f"{path}#{games.index(text) + 1}"
    size = int((re.search(r"SZ\[(\d+)\]", text) or ["", "19"])[1])
    if not 2 <= size <= 19:
        fail(f"{path}: board size {size} out of range")
    komi = (re.search(r"KM\[([-0-9.]+)\]", text) or ["", "7.5"])[1]
    moves = []
    for colour, at in re.findall(r";\s*([BW])\[([a-z]{0,2})\]", text):
        if at in ("", "tt"):
            moves.append((colour, "pass"))
        elif len(at) == 2:
            x, y = ord(at[0]) - 97, ord(at[1]) - 97
            if not (0 <= x < size and 0 <= y < size):
                fail(f"{path}: move {len(moves) + 1} [{at}] is off the board")
            moves.append((colour, f"{COLUMNS[x]}{size - y}"))
        else:
            fail(f"{path}: move {len(moves) + 1} [{at}] is not a point")
    if not moves:
        fail(f"{path}: no moves")
    return path, size, komi, moves


def main():
    path, upto, playouts, binary, sets, game, nth = parse_args(sys.argv[1:])
    path, size, komi, moves = read_record(path, game, nth)
    if upto >= len(moves):
        fail(f"MOVES {upto}: the record has {len(moves)} moves, so at most {len(moves) - 1}")
    played_colour, played = moves[upto]
    # after the opponent's move, or at the start whoever the record lets move
    to_move = {"B": "W", "W": "B"}[moves[upto - 1][0]] if upto > 0 else played_colour
    binary = binary or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "tengen")
    cmd = [binary, "gtp", "--seconds", "3600", "--set", f"playouts={playouts}", "--set", "ponder=false"]
    for s in sets:
        cmd += ["--set", s]
    script = [f"boardsize {size}", "clear_board", f"komi {komi}"]
    script += [f"play {c} {v}" for c, v in moves[:upto]]
    script += [f"genmove {to_move}", "quit"]
    env = dict(os.environ, RUST_LOG="tengen::search::searcher=trace")
    try:
        run = subprocess.run(cmd, input="\n".join(script) + "\n", capture_output=True, text=True, env=env)
    except OSError as e:
        fail(f"{binary}: {e.strerror} (build it: cargo build --release)")
    answers = [l for l in run.stdout.splitlines() if l.startswith(("=", "?"))]
    refused = [(i, l) for i, l in enumerate(answers) if l.startswith("?")]
    if run.returncode != 0 or refused:
        where = f"; command {refused[0][0] + 1} ({script[refused[0][0]]}) answered {refused[0][1]!r}" if refused else ""
        said = run.stderr.strip().splitlines()[-1:] or [""]
        fail(f"tengen failed (exit {run.returncode}){where}: {said[0]}")
    rows = [l.split("searcher] ", 1)[1] for l in run.stderr.splitlines() if l.startswith("[TRACE") and "searcher] " in l]
    if not rows:
        fail("tengen printed no root moves (a build older than the trace of the root moves?)")
    print(f"{os.path.basename(path)} after {upto} moves, {to_move} to move; played next: {played_colour} {played}")
    print(f"tengen answers {answers[-2].lstrip('= ').strip() if len(answers) >= 2 else '?'} after {playouts} playouts{' with ' + ' '.join(sets) if sets else ''}")
    for r in rows[:3]:
        print(f"  top   {r}")
    mine = [(i, r) for i, r in enumerate(rows, 1) if r.split(" ", 1)[0] == played]
    if played_colour != to_move:
        print(f"  (the record's next move is by {played_colour}, not the side to move)")
    elif mine:
        print(f"  rank {mine[0][0]} of {len(rows)}: {mine[0][1]}")
    else:
        print(f"  {played} is not among the {len(rows)} root moves (illegal, or a point the bot never fills)")


if __name__ == "__main__":
    main()
