#!/usr/bin/env python3
"""Teacher shards -> training examples for a policy network: every labelled
position's input planes (encoded by `tengen planes`, as the bot encodes
them) with the teacher's policy. With --records, game records instead:
every position with the move played as its only label, for pretraining.

usage: tools/teacher/to_planes.py [--tengen PATH] OUT.txt.gz SHARD.jsonl.gz...
       tools/teacher/to_planes.py [--tengen PATH] --records OUT.txt.gz SGF|DIR...

Each output line: hex planes (see `tengen planes --help`), the teacher's
top moves (two SGF letters each, may be empty: '-'), their per-milles
(comma-separated, '-' if none), the pass per-mille, and the game id;
from the shards, then the side to move (`b` or `w`), the teacher's win
rate for it (per-mille) and its score lead (tenths of a point): the
value labels. Record lines stop at the game id.
Games with setup stones or their own colour order are skipped, and so
are a record's positions from an illegal move on. Exit status 2 on bad
arguments, 1 when a shard or tengen fails.
"""
import gzip
import hashlib
import json
import os
import subprocess
import sys

import shards

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def examples(game):
    """One shard line (parsed) -> `tengen planes` input lines, or [] when
    the game cannot be replayed from the empty board, black first."""
    if game.get("setup") or game.get("colors") or game.get("first", "B") != "B":
        return []
    moves, size = game["moves"], game["size"]
    out = []
    for k, (win, lead, p_pass, top, qs) in enumerate(game["pos"]):
        # the shards' values are Black's; colours alternate from black here
        black = k % 2 == 0
        value = ["b", str(win), str(lead)] if black else ["w", str(1000 - win), str(-lead)]
        label = " ".join([top or "-", ",".join(map(str, qs)) or "-", str(p_pass), game["id"]]
                         + value)
        out.append(f"{moves[:2 * k]} {label}" if k else f" {label}")
    return out if size == 19 else []


def record_examples(game):
    """A game record (shards.Game) -> `tengen planes` input lines, one a
    move played (passes left out) with that move as the whole label, or []
    when it has setup stones or does not alternate from black."""
    if game.setup_b or game.setup_w or game.colors != "BW" * (len(game.colors) // 2) + \
            "B" * (len(game.colors) % 2):
        return []
    played = shards.moves_to_str(game.moves)
    return [f"{played[:2 * k]} {played[2 * k:2 * k + 2]} 1000 0 {game.gid}"
            for k, m in enumerate(game.moves) if m != shards.PASS]


def record_paths(args):
    """The SGF files named in `args`, folders searched through, sorted."""
    paths = []
    for a in args:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                paths += [os.path.join(root, n) for n in names if n.lower().endswith(".sgf")]
        else:
            paths.append(a)
    return sorted(paths)


def record_lines(args):
    """Input lines for every readable 19x19 record among `args`, each game
    once; a game's id is a hash of its file's name, so held-out games stay
    put."""
    lines, games, unreadable, seen = [], 0, 0, set()
    for path in record_paths(args):
        gid = "r" + hashlib.sha1(os.path.basename(path).encode()).hexdigest()[:11]
        try:
            game = shards.game_from_sgf(path, gid)
        except (OSError, ValueError) as e:
            unreadable += 1
            print(f"to_planes.py: {path}: {e}; left out", file=sys.stderr)
            continue
        key = tuple(game.moves)
        found = [] if key in seen else record_examples(game)
        seen.add(key)
        games += bool(found)
        lines += found
    print(f"{games} records read, {unreadable} left out", file=sys.stderr)
    return lines


def main(argv):
    tengen = os.path.join(ROOT, "target", "release", "tengen")
    if len(argv) > 1 and argv[1] == "--tengen":
        if len(argv) < 3:
            print("to_planes.py: --tengen needs a path", file=sys.stderr)
            return 2
        tengen, argv = argv[2], [argv[0]] + argv[3:]
    records = len(argv) > 1 and argv[1] == "--records"
    if records:
        argv = [argv[0]] + argv[2:]
    if len(argv) < 3 or argv[1].startswith("-"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    out_path, inputs = argv[1], argv[2:]
    lines = record_lines(inputs) if records else []
    for shard in [] if records else inputs:
        try:
            with gzip.open(shard, "rt", encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        lines.extend(examples(json.loads(line)))
        except (OSError, EOFError, ValueError) as e:
            print(f"to_planes.py: {shard}: {e}", file=sys.stderr)
            return 1
    run = subprocess.run([tengen, "planes"] + ["--skip-bad"] * records,
                         input="\n".join(lines) + "\n", capture_output=True, text=True)
    if run.returncode != 0:
        print(f"to_planes.py: tengen planes: {run.stderr.strip()}", file=sys.stderr)
        return 1
    with gzip.open(out_path, "wt", encoding="utf-8") as f:
        f.write(run.stdout)
    written = run.stdout.count("\n")
    print(f"{written} positions written to {out_path}"
          + (f" ({len(lines) - written} after an illegal move left out)" if records else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
