"""src/games/go/nn/inputs/gen_fixture.py: writes fixture.txt, the positions that check
tengen's KataGo V7 inputs (inputs.rs) in CI against the Python re-implementation that was
validated against KataGo itself (kata_game.py, beside this file), with the settings of KataGo's
GTP `kata-raw-nn`: five moves of history, no passing hacks.

    python3 src/games/go/nn/inputs/gen_fixture.py               # the committed fixture
    python3 src/games/go/nn/inputs/gen_fixture.py --positions 2400 --random 100 --seed 2 \
        --out /tmp/big.txt
    TENGEN_INPUTS_FIXTURE=/tmp/big.txt cargo test --release --lib nn::inputs::fixture
    python3 src/games/go/nn/inputs/gen_fixture.py --positions 0 --random 25 --every-turn \
        --seed 3 --out /tmp/every.txt          # every position of 50 random games

Needs numpy (kata_game.py does); the Rust test does not. Reads the game records in
data/match-games (its SGF collections, read by tools/sgf_games.py; 19x19, komi 7.5, no setup stones, colours alternating from black), and
plays --random games of random legal moves (a few passes among them) on 9x9 and on 13x13,
with more captures and kos than the records and the small boards' sizes; kata_board.py and
kata_game.py are loaded once per size with their SIZE changed (both sizes are odd, as the
parity wave kata_game.py computes assumes). Takes positions in the middle and at the end of
each game (the last one after the game ended, if it did), and writes for each game a line

    G <name> <size> <moves>   the moves from the empty board, two SGF letters each, '..' a pass

followed by a line for each of its positions

    P <turn> <globals> <plane> <plane> ...

turn: the moves played; globals: the 19 global inputs, comma-separated; each plane that is
not all zero as 'k=<bits>' (a bitset of the points, row by row from the top left, six
points a digit of DIGITS below, the first point the lowest bit) or 'k:<i>,<j>,...' (the
points set), whichever is shorter.
"""

import argparse
import glob
import os
import random
import re
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import sgf_games  # noqa: E402 (tools/ is not a package)
TEACHER = os.path.dirname(os.path.abspath(__file__))
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"


def game_class(size, cache={}):
    """kata_game.Game on a size x size board: kata_board.py and kata_game.py run again
    with their SIZE set."""
    if size not in cache:
        saved = sys.modules.get("kata_board")
        modules = {}
        for name in ("kata_board", "kata_game"):
            path = os.path.join(TEACHER, name + ".py")
            text = open(path).read()
            if name == "kata_board":
                text = text.replace("\nSIZE = 19\n", "\nSIZE = %d\n" % size)
            module = types.ModuleType(name)
            module.__file__ = path
            exec(compile(text, path, "exec"), module.__dict__)
            sys.modules[name] = modules[name] = module
        if saved is None:
            del sys.modules["kata_board"]
        else:
            sys.modules["kata_board"] = saved
        del sys.modules["kata_game"]
        assert modules["kata_board"].SIZE == size
        cache[size] = modules["kata_game"].Game
    return cache[size]


def random_game(size, rng):
    """Random legal moves (superko respected) with a pass now and then, until two passes
    in a row or three moves a point."""
    game = game_class(size)(komi=7.5)
    area = size * size
    while len(game.moves) < 3 * area and game.passes < 2:
        legal = [i for i, ok in enumerate(game.legal_mask()[:area]) if ok]
        if not legal or rng.random() < 0.03:
            game.play(area)
        else:
            game.play(rng.choice(legal))
    return game.moves


def read_moves(text):
    """The moves of a 19x19 game with komi 7.5 and no setup, or None if it is another."""
    if "SZ[19]" not in text or "KM[7.5]" not in text or re.search(r"A[BW]\[", text):
        return None
    moves = []
    for k, (color, value) in enumerate(re.findall(r";([BW])\[([a-s]{2})?\]", text)):
        if color != "BW"[k % 2]:
            return None
        if value:
            moves.append((ord(value[1]) - 97) * 19 + ord(value[0]) - 97)
        else:
            moves.append(19 * 19)
    return moves


def letters(m, size):
    return ".." if m == size * size else chr(97 + m % size) + chr(97 + m // size)


def encode_plane(k, bits):
    on = [i for i, v in enumerate(bits) if v]
    listed = "%d:%s" % (k, ",".join(map(str, on)))
    digits = []
    for i in range(0, len(bits), 6):
        n = sum(1 << j for j in range(6) if i + j < len(bits) and bits[i + j])
        digits.append(DIGITS[n])
    packed = "%d=%s" % (k, "".join(digits))
    return listed if len(listed) <= len(packed) else packed


def encode_global(v):
    v = float(v)
    return "0" if v == 0 else ("%d" % v if v == int(v) else repr(v))


def turns_of(n, rng):
    """Two middle-game turns, one late turn and the end of the game."""
    mid = sorted(rng.sample(range(n * 3 // 10, n * 7 // 10), 2))
    late = rng.randrange(n * 8 // 10, n)
    return sorted(set(mid + [late, n]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=250, help="from the game records")
    ap.add_argument("--random", type=int, default=8, help="random games of each small size")
    ap.add_argument("--every-turn", action="store_true",
                    help="every position of the random games, not four")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(HERE, "fixture.txt"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    # each file a collection (a match's games.sgf): its games named FILE#K
    records = []
    for path in sorted(glob.glob(os.path.join(ROOT, "data", "match-games", "**", "*.sgf"),
                                 recursive=True)):
        rel = os.path.relpath(path, ROOT)
        records += [(rel + n[len(path):], text) for n, text in sgf_games.named(path)]
    rng.shuffle(records)
    games = []  # (name, size, moves, turns)
    count = 0
    for name, text in records:
        if count >= args.positions:
            break
        moves = read_moves(text)
        if moves is None or len(moves) < 40:
            continue
        turns = turns_of(len(moves), rng)[: args.positions - count]
        games.append((name, 19, moves, turns))
        count += len(turns)
    for size in (9, 13):
        for k in range(args.random):
            moves = []
            while len(moves) < 20:
                moves = random_game(size, rng)
            turns = range(len(moves) + 1) if args.every_turn else turns_of(len(moves), rng)
            games.append(("random-%dx%d-%d-%d" % (size, size, args.seed, k), size, moves,
                          turns))
    lines = ["# written by gen_fixture.py --positions %d --random %d --seed %d: see its header"
             % (args.positions, args.random, args.seed)]
    count = 0
    for name, size, moves, turns in games:
        lines.append("G %s %d %s" % (name, size, "".join(letters(m, size) for m in moves)))
        game = game_class(size)(komi=7.5)
        for t in turns:
            while len(game.moves) < t:
                game.play(moves[len(game.moves)])
            sp, gl = game.features(max_history=5, passing_hacks=False)
            planes = [encode_plane(k, sp[k].reshape(-1)) for k in range(22) if sp[k].any()]
            glob_text = ",".join(encode_global(v) for v in gl)
            lines.append("P %d %s %s" % (t, glob_text, " ".join(planes)))
            count += 1
        print("%d positions" % count, file=sys.stderr, end="\r")
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("%d positions written to %s" % (count, args.out), file=sys.stderr)


if __name__ == "__main__":
    main()
