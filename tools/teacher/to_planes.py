#!/usr/bin/env python3
"""Teacher shards -> training examples for a policy network: every labelled
position's input planes (encoded by `tengen planes`, as the bot encodes
them) with the teacher's policy.

usage: tools/teacher/to_planes.py [--tengen PATH] OUT.txt.gz SHARD.jsonl.gz...

Each output line: hex planes (see `tengen planes --help`), the teacher's
top moves (two SGF letters each, may be empty: '-'), their per-milles
(comma-separated, '-' if none), the pass per-mille, and the game id.
Games with setup stones or their own colour order are skipped. Exit
status 2 on bad arguments, 1 when a shard or tengen fails.
"""
import gzip
import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def examples(game):
    """One shard line (parsed) -> `tengen planes` input lines, or [] when
    the game cannot be replayed from the empty board, black first."""
    if game.get("setup") or game.get("colors") or game.get("first", "B") != "B":
        return []
    moves, size = game["moves"], game["size"]
    out = []
    for k, (_, _, p_pass, top, qs) in enumerate(game["pos"]):
        label = " ".join([top or "-", ",".join(map(str, qs)) or "-", str(p_pass), game["id"]])
        out.append(f"{moves[:2 * k]} {label}" if k else f" {label}")
    return out if size == 19 else []


def main(argv):
    tengen = os.path.join(ROOT, "target", "release", "tengen")
    if len(argv) > 1 and argv[1] == "--tengen":
        if len(argv) < 3:
            print("to_planes.py: --tengen needs a path", file=sys.stderr)
            return 2
        tengen, argv = argv[2], [argv[0]] + argv[3:]
    if len(argv) < 3 or argv[1].startswith("-"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    out_path, shards = argv[1], argv[2:]
    lines = []
    for shard in shards:
        try:
            with gzip.open(shard, "rt", encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        lines.extend(examples(json.loads(line)))
        except (OSError, EOFError, ValueError) as e:
            print(f"to_planes.py: {shard}: {e}", file=sys.stderr)
            return 1
    run = subprocess.run([tengen, "planes"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True)
    if run.returncode != 0:
        print(f"to_planes.py: tengen planes: {run.stderr.strip()}", file=sys.stderr)
        return 1
    with gzip.open(out_path, "wt", encoding="utf-8") as f:
        f.write(run.stdout)
    print(f"{len(lines)} positions written to {out_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
