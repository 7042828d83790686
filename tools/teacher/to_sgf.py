#!/usr/bin/env python3
"""Teacher shards -> SGF games with the teacher's move on every move node.

usage: tools/teacher/to_sgf.py OUT_DIR SHARD.jsonl.gz...

Writes OUT_DIR/<id>.sgf for each labelled game: its moves, and on each
move's node TM[xy], the teacher's likeliest board point in the position
before that move (none where passing was likelier), so that
`tengen learn --teacher OUT_DIR/*.sgf` fits the learnt prior to the
teacher's choices. Games with setup stones are skipped (learn cannot
replay them). Exit status 2 on bad arguments, 1 on an unreadable shard.
"""
import gzip
import json
import os
import re
import sys

from shards import shard_colors


def game_sgf(game):
    """One shard line (parsed) -> SGF text, or None if it has setup stones."""
    if game.get("setup"):
        return None
    moves = game["moves"]
    if len(moves) % 2:
        raise ValueError("odd-length move string")
    n = len(moves) // 2
    colors = shard_colors(game)
    pos = game["pos"]
    if len(pos) != n:
        raise ValueError(f"{len(pos)} positions for {n} moves")
    out = [f"(;GM[1]FF[4]SZ[{game['size']}]KM[{game['komi']}]"
           f"PB[{game.get('pb', '')}]PW[{game.get('pw', '')}]"]
    for k in range(n):
        mv = moves[2 * k:2 * k + 2]
        node = f";{colors[k]}[{'' if mv == '..' else mv}]"
        _, _, p_pass, top, qs = pos[k]
        if top and qs and qs[0] > p_pass:
            node += f"TM[{top[:2]}]"
        out.append(node)
    out.append(")")
    return "".join(out)


def main(argv):
    if len(argv) < 3 or argv[1].startswith("-"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    out_dir, shards = argv[1], argv[2:]
    os.makedirs(out_dir, exist_ok=True)
    written = skipped = 0
    for shard in shards:
        try:
            with gzip.open(shard, "rt", encoding="utf-8") as f:
                lines = [l for l in f if l.strip()]
        except (OSError, EOFError) as e:
            print(f"to_sgf.py: {shard}: {e}", file=sys.stderr)
            return 1
        for line in lines:
            game = json.loads(line)
            text = game_sgf(game)
            if text is None:
                skipped += 1
                continue
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", game["id"]) + ".sgf"
            with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
                f.write(text + "\n")
            written += 1
    print(f"{written} games written to {out_dir}, {skipped} with setup stones skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
