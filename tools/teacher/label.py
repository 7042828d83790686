#!/usr/bin/env python3
"""tools/teacher/label.py: labels Go positions with a KataGo teacher's raw policy and value.

Python 3 standard library only. Needs a teacher directory made by tools/teacher/setup.sh
(katago built with the Eigen backend, a network, the FTZ preload library, analysis.cfg
and teacher.json). With --engine torch the network is evaluated in PyTorch instead
(engines.TorchEngine, kata_torch.py; --bf16 for bfloat16): run it with the training
venv's python.

usage:
  label.py --teacher-dir DIR [--out data/teacher] [--selfplay N] [SGF ...]
  label.py --teacher-dir DIR --check

For every position of every game (each position at which a move was played: turn 0 is
the empty or setup board) it records KataGo's raw policy (one visit, no search) and its
raw value. Inputs, in order:
  1. SGF game records given on the command line (19x19 only; main line only);
  2. with --selfplay N, up to N KataGo raw-policy self-play games: each move is sampled
     from the policy with temperature --temp-open (default 1.0) for the first
     --open-moves (30) moves and --temp (0.5) after, until two passes in a row or
     --max-moves (300) moves. Their positions are labelled by the very queries that
     chose the moves.

Output: gzip'd JSON-lines shards in --out, named PREFIX-NNNN.jsonl.gz (PREFIX: the SGF
files' folder name, or "selfplay"), at most --games-per-shard games each, one line per
game; the format is described in data/teacher/README.md and in shard_line() below.

Parts: --part K/N (N labellers, one a core, K = 0 .. N-1) labels only the games whose id
hashes to K, and the self-play games numbered K modulo N, into shards of its own
(PREFIX-pK-NNNN.jsonl.gz), so that N labellers can share one folder.

Resumable: the shards are the record of what is done. At start every shard is read and
games whose id is already there are skipped (self-play games are numbered: the numbers
not yet in the shards are played). Each finished game rewrites its shard to a temporary
file that is then renamed over it, so a kill loses at most the game in progress. Locks on
the output folder stop two labellers of the same work from writing it at once.

Size budget: --max-bytes (default 30 MB) caps the total size of the shards in --out;
the labeller stops when it is reached, so the repository stays lean.

Progress (positions/s) goes to stderr, one line per game.
"""

import argparse
import fcntl
import hashlib
import itertools
import json
import os
import random
import signal
import sys
import time

from engines import LIVE_ENGINES, Engine, EngineError, QueryError, TorchEngine, log
from shards import (GTP_COLS, NPOS, PASS, SIZE, Game, ShardStore, game_from_sgf,
                    gtp_to_idx, idx_to_gtp, idx_to_sgf, position_record, sgf_to_idx,
                    shard_line)


def make_engine(args, teacher):
    if args.engine == "torch":
        return TorchEngine(teacher, args.bf16, compile=args.compile)
    return Engine(teacher, use_preload=not args.no_preload)


def engine_tag(args):
    """What a shard line says about the engine, beside the network: nothing for KataGo."""
    return {"engine": "torch-bf16" if args.bf16 else "torch"} if args.engine == "torch" else {}


def load_teacher(d):
    with open(os.path.join(d, "teacher.json")) as f:
        t = json.load(f)
    for k in ("katago", "model", "config"):
        if not os.path.exists(t[k]):
            raise SystemExit("label.py: %s missing (%s): run tools/teacher/setup.sh" % (k, t[k]))
    return t


# --- labelling ----------------------------------------------------------------------

def label_game(engine, game):
    """All positions of a recorded game in one query (analyzeTurns)."""
    n = len(game.moves)
    if n == 0:
        return []
    res = engine.analyze(game.query_moves(), game.komi, turns=list(range(n)),
                         initial_stones=game.initial_stones() or None)
    out = []
    for t in range(n):
        policy, wr, lead = res[t]
        m = game.moves[t]
        if m != PASS and policy[m] < 0:
            raise QueryError("move %d (%s) is illegal per the teacher's policy" % (t, idx_to_sgf(m)))
        out.append(position_record(policy, wr, lead))
    return out


def sample_move(policy, temperature, rng):
    legal = [(i, p) for i, p in enumerate(policy) if p > 0]
    if not legal:
        return PASS
    if temperature <= 0:
        return max(legal, key=lambda t: t[1])[0]
    ws = [p ** (1.0 / temperature) for _, p in legal]
    r = rng.random() * sum(ws)
    for (i, _), w in zip(legal, ws):
        r -= w
        if r <= 0:
            return i
    return legal[-1][0]


def selfplay_games(engine, games, komi, temp_open, open_moves, temp, max_moves):
    """Plays the self-play games `games` ([(gid, rng)]) side by side, one query a move
    of each: an engine with analyze_many() answers for all of them in one batch.
    Yields (Game, positions, the positions asked about so far) as each game ends."""
    live = [(gid, rng, [], [], []) for gid, rng in games]  # + moves, colours, positions
    asked = 0
    while live:
        queries = [[[colors[k], idx_to_gtp(m)] for k, m in enumerate(moves)]
                   for _, _, moves, colors, _ in live]
        if hasattr(engine, "analyze_many"):
            answers = engine.analyze_many(queries, komi, [g[0] for g in live])
        else:
            answers = [engine.analyze(q, komi)[len(q)] for q in queries]
        asked += len(answers)
        going = []
        for (gid, rng, moves, colors, positions), (policy, wr, lead) in zip(live, answers):
            positions.append(position_record(policy, wr, lead))
            colors.append("BW"[len(moves) % 2])
            moves.append(sample_move(policy, temp_open if len(moves) < open_moves else temp, rng))
            if len(moves) >= max_moves or moves[-2:] == [PASS, PASS]:
                yield Game(gid, "katago-selfplay", moves, "".join(colors), komi), positions, asked
            else:
                going.append((gid, rng, moves, colors, positions))
        live = going


def parse_part(text):
    """--part "K/N" -> (K, N), with 0 <= K < N."""
    try:
        k, n = (int(v) for v in text.split("/"))
        if 0 <= k < n:
            return k, n
    except ValueError:
        pass
    raise argparse.ArgumentTypeError("%r: K/N, two whole numbers with 0 <= K < N" % text)


def in_part(gid, part):
    """Whether the labeller of `part` (K, N) labels the game `gid`: by a hash
    of the id apart from the held-out one (train.py), so that each part gets
    its share of the held-out games. Not a CRC: its low bits are linear in
    the input's, and ids that differ in a digit's low bits can all fall in
    one part."""
    k, n = part
    return int(hashlib.sha1(gid.encode()).hexdigest(), 16) % n == k


def sgf_game_id(path):
    p = os.path.abspath(path)
    return "sgf/%s/%s" % (os.path.basename(os.path.dirname(p)), os.path.basename(p))


class Progress:
    def __init__(self):
        self.t0 = time.time()
        self.n = 0

    def report(self, gid, npos, secs, store, extra=""):
        self.n += npos
        el = time.time() - self.t0
        log("%s: %d positions in %.1f s (%.2f/s); session %d positions, %.2f/s; "
            "total %d games, %d positions, %.2f MB%s" % (
                gid, npos, secs, npos / max(secs, 1e-9), self.n, self.n / max(el, 1e-9),
                len(store.done), store.positions, store.total_bytes() / 1e6, extra))


def locked(path, how, busy, create=False):
    """A descriptor of `path` holding a flock (`how`): a SystemExit naming
    `busy` when another labeller holds it."""
    fd = os.open(path, (os.O_RDWR | os.O_CREAT) if create else os.O_RDONLY)
    try:
        fcntl.flock(fd, how | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise SystemExit("label.py: another labeller is writing %s" % busy)
    return fd


def run(args):
    teacher = load_teacher(args.teacher_dir)
    net = teacher.get("network", "?").split()[0]
    komi_default = float(teacher.get("komi", 7.5))
    outdir = args.out
    os.makedirs(outdir, exist_ok=True)
    k, n = args.part
    # one labeller locks the folder; parts share it, each locking a file of its own
    fds = [locked(outdir, fcntl.LOCK_EX if n == 1 else fcntl.LOCK_SH, outdir)]

    def on_term(signum, frame):
        raise SystemExit("label.py: stopped by signal %d" % signum)
    try:
        if n > 1:
            fds.append(locked(os.path.join(outdir, ".part-%d.lock" % k), fcntl.LOCK_EX,
                              "part %d of %s" % (k, outdir), create=True))
        signal.signal(signal.SIGTERM, on_term)
        return run_locked(args, teacher, net, komi_default, outdir)
    finally:
        for e in list(LIVE_ENGINES):
            e.kill()
        for fd in fds:
            os.close(fd)


def run_locked(args, teacher, net, komi_default, outdir):
    part, parts = args.part
    store = ShardStore(outdir, args.games_per_shard, "-p%d" % part if parts > 1 else "")
    log("start: %d games already labelled (%d positions, %.2f MB) in %s" % (
        len(store.done), store.positions, store.total_bytes() / 1e6, outdir))
    failed_path = os.path.join(outdir, "failed.txt")
    failed = set()
    if os.path.exists(failed_path):
        with open(failed_path) as f:
            failed = {line.split("\t")[0] for line in f if line.strip()}

    engine = [None]

    def eng():
        if engine[0] is None:
            engine[0] = make_engine(args, teacher)
        return engine[0]

    def stop_engine():
        if engine[0] is not None:
            engine[0].kill()
        engine[0] = None

    failures = [0]

    def engine_failed(e):
        """Logs a failure of the engine, restarts it and waits a little;
        gives up after five in a row."""
        failures[0] += 1
        log("engine failure %d: %s; restarting" % (failures[0], e))
        stop_engine()
        if failures[0] >= 5:
            raise SystemExit("label.py: katago keeps failing; see its logs")
        time.sleep(5)

    def over_budget():
        b = store.total_bytes()
        if b >= args.max_bytes:
            log("size budget reached: %.2f MB >= --max-bytes %.2f MB; stopping" % (b / 1e6, args.max_bytes / 1e6))
            return True
        return False

    def cpu(e):
        return e.cpu_seconds() if hasattr(e, "cpu_seconds") else 0.0

    def cpu_rate(npos, c0):
        used = cpu(engine[0]) - c0 if engine[0] is not None else 0.0
        return "; %.2f positions per katago CPU-s" % (npos / used) if used > 0 else ""

    prog = Progress()
    # 1. SGF records
    for path in args.sgf:
        gid = sgf_game_id(path)
        if gid in store.done or gid in failed or not in_part(gid, args.part):
            continue
        if over_budget():
            return 0
        try:
            game = game_from_sgf(path, gid, komi_default)
        except (ValueError, OSError) as e:
            log("skip %s: %s" % (path, e))
            continue
        game.src = os.path.relpath(os.path.abspath(path), args.src_root) if args.src_root else path
        prefix = args.prefix or os.path.basename(os.path.dirname(os.path.abspath(path))) or "sgf"
        t, c = time.time(), cpu(eng())
        while True:
            try:
                positions = label_game(eng(), game)
                failures[0] = 0
                break
            except QueryError as e:
                log("cannot label %s: %s (recorded in %s)" % (gid, e, failed_path))
                with open(failed_path, "a") as f:
                    f.write("%s\t%s\n" % (gid, e))
                positions = None
                break
            except EngineError as e:
                engine_failed(e)
        if positions is None:
            continue
        store.add(prefix, shard_line(game, positions, net, engine_tag(args)))
        prog.report(gid, len(positions), time.time() - t, store, cpu_rate(len(positions), c))

    # 2. self-play, a few games side by side where the engine batches them
    if args.selfplay > 0:
        side_by_side = args.selfplay_batch or (8 if args.engine == "torch" else 1)

        def selfplay_id(k):
            return "%s-%06d" % (args.selfplay_tag, k)
        todo = (k for k in range(part, args.selfplay, parts)  # this part's numbers
                if selfplay_id(k) not in store.done)
        batch = []
        while True:
            batch += list(itertools.islice(todo, side_by_side - len(batch)))
            if not batch:
                break
            if over_budget():
                return 0
            games = [(selfplay_id(k), random.Random("%s/%d" % (args.selfplay_tag, k)))
                     for k in batch]
            t, c = time.time(), cpu(eng())
            try:
                for game, positions, asked in selfplay_games(
                        eng(), games, komi_default, args.temp_open, args.open_moves, args.temp,
                        args.max_moves):
                    extra = {"temp": "%g x%d, then %g" % (args.temp_open, args.open_moves, args.temp)}
                    extra.update(engine_tag(args))
                    store.add("selfplay", shard_line(game, positions, net, extra))
                    # side by side, a game's share of the time (and of the CPU) so far
                    share = len(positions) / asked
                    prog.report(game.gid, len(positions), (time.time() - t) * share, store,
                                cpu_rate(asked, c))
                failures[0] = 0
            except (EngineError, QueryError) as e:
                engine_failed(e)
                # played again: those of its games that ended are in the shards
                batch = [k for k in batch if selfplay_id(k) not in store.done]
                continue
            batch = []
    stop_engine()
    log("done")
    return 0


# --- check --------------------------------------------------------------------------

def check(args):
    """Asks the engine about known positions: orientation, legality marks, speed."""
    teacher = load_teacher(args.teacher_dir)
    e = make_engine(args, teacher)
    try:
        pol, wr, lead = e.analyze([], 7.5)[0]
        assert len(pol) == NPOS + 1, len(pol)
        assert all(p > 0 for p in pol[:NPOS]), "empty board has an illegal point"
        assert abs(sum(pol) - 1) < 1e-3, sum(pol)
        log("empty board: black winrate %.3f, black lead %.1f, pass %.4f, top %s" % (
            wr, lead, pol[PASS], [idx_to_gtp(i) for i in sorted(range(NPOS), key=lambda i: -pol[i])[:4]]))
        # One black stone at C16 = SGF "cd" = x 2, y 3 from the top: index 3*19+2 = 59.
        # Its transpose (index 41), vertical mirror (15*19+2) and horizontal mirror must
        # stay legal.
        stone = gtp_to_idx("C16")
        assert stone == sgf_to_idx("cd") == 59, stone
        pol = e.analyze([["B", "C16"]], 7.5)[1][0]
        assert pol[59] == -1, "the occupied point C16 is not marked illegal: orientation wrong"
        for other in (41, 15 * SIZE + 2, 3 * SIZE + 16):
            assert pol[other] > 0, "point %s marked illegal" % idx_to_gtp(other)
        assert sum(1 for p in pol if p < 0) == 1
        # Value orientation: Black 57 stones up on the left -> Black's winrate high.
        wall = []
        for x in range(3):
            for r in range(1, 20):
                wall += [["B", GTP_COLS[x] + str(r)], ["W", "pass"]]
        pol, wr, lead = e.analyze(wall[:-1], 7.5)[len(wall) - 1]
        assert wr > 0.8 and lead > 10, (wr, lead)
        log("board with a black wall: black winrate %.3f, black lead %.1f (values are Black's)" % (wr, lead))
        # analyzeTurns for a short game gives each turn
        g = [["B", "Q16"], ["W", "D4"], ["B", "Q4"], ["W", "D16"]]
        res = e.analyze(g, 7.5, turns=[0, 1, 2, 3])
        assert sorted(res) == [0, 1, 2, 3]
        assert res[3][0][gtp_to_idx("Q4")] == -1 and res[2][0][gtp_to_idx("Q4")] > 0
        # speed
        # speed, on distinct positions (repeats would hit KataGo's neural net cache)
        # (and per CPU-second of katago, which other load on the machine does not change)
        rng = random.Random()
        n, t, c = 0, time.time(), e.cpu_seconds()
        while time.time() - t < args.check_seconds:
            pts = rng.sample(range(NPOS), 10 + n % 50)
            try:
                e.analyze([["BW"[k % 2], idx_to_gtp(p)] for k, p in enumerate(pts)], 7.5)
            except QueryError:
                continue  # a random move list can hold a suicide
            n += 1
        log("check ok: %.2f positions/s, %.2f positions per katago CPU-second "
            "(one query per position, preload %s)" % (
                n / (time.time() - t), n / max(e.cpu_seconds() - c, 1e-9),
                "off" if args.no_preload else "on"))
    finally:
        e.close()
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sgf", nargs="*", help="SGF game records (19x19) to label")
    ap.add_argument("--teacher-dir", default=os.environ.get("TENGEN_TEACHER_DIR",
                    os.path.expanduser("~/.cache/tengen-teacher")))
    ap.add_argument("--out", default="data/teacher", help="shard folder (default data/teacher)")
    ap.add_argument("--src-root", default=None,
                    help="record SGF paths relative to this folder (default: as given)")
    ap.add_argument("--prefix", default=None, help="shard name prefix for the SGF games "
                    "(default: their folder's name)")
    ap.add_argument("--games-per-shard", type=int, default=100)
    ap.add_argument("--selfplay", type=int, default=0, help="self-play games to reach (total, resumable)")
    ap.add_argument("--selfplay-tag", default="selfplay")
    ap.add_argument("--temp-open", type=float, default=1.0)
    ap.add_argument("--open-moves", type=int, default=30)
    ap.add_argument("--temp", type=float, default=0.5)
    ap.add_argument("--max-moves", type=int, default=300)
    ap.add_argument("--selfplay-batch", type=int, default=0, metavar="G",
                    help="self-play games played side by side (default: 8 with --engine "
                         "torch, which evaluates them in one batch; 1 with katago)")
    ap.add_argument("--max-bytes", type=float, default=30e6, help="stop when the shards reach this size")
    ap.add_argument("--no-preload", action="store_true", help="run katago without the FTZ library")
    ap.add_argument("--engine", choices=("katago", "torch"), default="katago",
                    help="katago: KataGo's analysis engine; torch: its network in PyTorch "
                         "(kata_torch.py; run with the training venv's python)")
    ap.add_argument("--bf16", action="store_true",
                    help="with --engine torch: in bfloat16 (faster with AMX; the top move "
                         "as float32's in 98.75 %% of positions)")
    ap.add_argument("--compile", action="store_true",
                    help="with --engine torch: through torch.compile (about 1.5x faster, "
                         "after about 20 s a batch size)")
    ap.add_argument("--part", type=parse_part, default=(0, 1), metavar="K/N",
                    help="label only part K (0 .. N-1) of the work, for N labellers on one "
                         "folder, one a core (default: all of it)")
    ap.add_argument("--check", action="store_true", help="check the engine and exit")
    ap.add_argument("--check-seconds", type=float, default=5.0)
    args = ap.parse_args(argv)
    if (args.bf16 or args.compile) and args.engine != "torch":
        ap.error("--bf16 and --compile are options of --engine torch")
    if args.check:
        return check(args)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
