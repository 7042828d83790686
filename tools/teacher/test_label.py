#!/usr/bin/env python3
"""Self-test of the labeller and the data tools (label.py, shards.py, to_sgf.py, to_planes.py,
agree.py), without KataGo: SGF parsing, coordinates, quantisation, shard round-trip and resume,
with a fake engine. The training tools' tests are in test_train.py.

usage: python3 tools/teacher/test_label.py   (or python3 -m unittest from tools/teacher)
"""

import contextlib
import gzip
import io
import json
import os
import random
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agree  # noqa: E402
import label  # noqa: E402
import shards  # noqa: E402
import to_planes  # noqa: E402
import to_sgf  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def release_tengen(test):
    """The release build of tengen; skips `test` when there is none."""
    tengen = os.path.join(REPO, "target", "release", "tengen")
    if not os.path.exists(tengen):
        test.skipTest("no release build of tengen")
    return tengen


class FakeEngine:
    """Mimics Engine.analyze: a legal, deterministic policy in KataGo's layout
    (row-major from the top-left, pass last, -1 on occupied points; captures ignored)."""

    def __init__(self):
        self.queries = 0

    def analyze(self, moves, komi, turns=None, initial_stones=None):
        self.queries += 1
        if turns is None:
            turns = [len(moves)]
        res = {}
        for t in turns:
            occupied = {shards.gtp_to_idx(v) for _, v in moves[:t]} | \
                {shards.gtp_to_idx(v) for _, v in (initial_stones or [])}
            occupied.discard(shards.PASS)
            w = [0.0 if i in occupied else 1.0 + ((i * 7919 + t) % 97) for i in range(shards.NPOS)]
            w[40] = 0 if 40 in occupied else 2000.0  # a favourite: index 40 = SGF "cc" (x 2, y 2)
            w.append(5.0 if t < 200 else 5000.0)  # pass
            s = sum(w)
            pol = [(-1 if i in occupied else x / s) for i, x in enumerate(w)]
            res[t] = (pol, 0.5 + t / 1000.0, -7.5 + t / 10.0)
        return res


class QuietFake(FakeEngine):
    """FakeEngine in label.Engine's place: made from a teacher, nothing to close."""

    def __init__(self, teacher, use_preload=True):
        FakeEngine.__init__(self)

    def close(self):
        pass

    def kill(self):
        pass


def fake_teacher_dir(root):
    """A teacher folder for label.main() whose engine is faked: empty files."""
    tdir = os.path.join(root, "teacher")
    os.makedirs(tdir)
    for n in ("katago", "model.bin.gz", "analysis.cfg"):
        open(os.path.join(tdir, n), "w").close()
    with open(os.path.join(tdir, "teacher.json"), "w") as f:
        json.dump({"katago": os.path.join(tdir, "katago"), "model": os.path.join(tdir, "model.bin.gz"),
                   "config": os.path.join(tdir, "analysis.cfg"), "network": "fake net", "komi": 7.5}, f)
    return tdir


class Coordinates(unittest.TestCase):
    def test_sgf_idx(self):
        self.assertEqual(shards.sgf_to_idx("aa"), 0)            # top-left = A19
        self.assertEqual(shards.sgf_to_idx("sa"), 18)           # top-right = T19
        self.assertEqual(shards.sgf_to_idx("as"), 18 * 19)      # bottom-left = A1
        self.assertEqual(shards.sgf_to_idx("cd"), 3 * 19 + 2)   # x 2, y 3
        self.assertEqual(shards.sgf_to_idx(""), shards.PASS)
        self.assertEqual(shards.sgf_to_idx("tt"), shards.PASS)
        for i in range(shards.NPOS + 1):
            self.assertEqual(shards.sgf_to_idx(shards.idx_to_sgf(i)), i)
            self.assertEqual(shards.gtp_to_idx(shards.idx_to_gtp(i)), i)

    def test_gtp(self):
        self.assertEqual(shards.idx_to_gtp(0), "A19")
        self.assertEqual(shards.idx_to_gtp(18), "T19")          # no I column
        self.assertEqual(shards.idx_to_gtp(360), "T1")
        self.assertEqual(shards.idx_to_gtp(shards.sgf_to_idx("pd")), "Q16")
        self.assertEqual(shards.idx_to_gtp(shards.sgf_to_idx("dp")), "D4")
        self.assertEqual(shards.idx_to_gtp(shards.sgf_to_idx("jj")), "K10")
        self.assertEqual(shards.idx_to_gtp(shards.PASS), "pass")
        self.assertEqual(shards.gtp_to_idx("pass"), shards.PASS)

    def test_move_string(self):
        ms = [shards.sgf_to_idx("pd"), shards.PASS, shards.sgf_to_idx("aa")]
        self.assertEqual(shards.moves_to_str(ms), "pd..aa")
        self.assertEqual(shards.str_to_moves("pd..aa"), ms)


class Sgf(unittest.TestCase):
    def test_parse_main_line(self):
        text = ("(;GM[1]SZ[19]KM[6.5]PB[a\\]b]C[x (y) ;z]AB[dd][pp]"
                ";W[qd]C[1 ms];B[](;W[dp];B[tt])(;W[aa]))")
        nodes = shards.parse_sgf(text)
        self.assertEqual(nodes[0]["PB"], ["a]b"])
        self.assertEqual(nodes[0]["AB"], ["dd", "pp"])
        path = os.path.join(tempfile.mkdtemp(), "t.sgf")
        with open(path, "w") as f:
            f.write(text)
        g = shards.game_from_sgf(path, "x")
        self.assertEqual(g.komi, 6.5)
        self.assertEqual(shards.moves_to_str(g.moves), "qd..dp..")
        self.assertEqual(g.colors, "WBWB")
        self.assertEqual(g.setup_b, [shards.sgf_to_idx("dd"), shards.sgf_to_idx("pp")])
        self.assertEqual(g.query_moves()[0], ["W", "R16"])
        self.assertEqual(g.initial_stones(), [["B", "D16"], ["B", "Q4"]])

    def test_repo_games(self):
        d = os.path.join(REPO, "data", "gnugo-games")
        if not os.path.isdir(d):
            self.skipTest("no data/gnugo-games")
        names = sorted(n for n in os.listdir(d) if n.endswith(".sgf"))
        self.assertTrue(names)
        g = shards.game_from_sgf(os.path.join(d, names[0]), "x")
        self.assertEqual(shards.moves_to_str(g.moves[:3]), "lcppph")  # g1-game-0001 opens B lc, W pp, B ph
        self.assertEqual(g.colors[:4], "BWBW")
        self.assertEqual(g.komi, 7.5)

    def test_rejects_other_sizes(self):
        path = os.path.join(tempfile.mkdtemp(), "t.sgf")
        with open(path, "w") as f:
            f.write("(;SZ[9];B[ee])")
        with self.assertRaises(ValueError):
            shards.game_from_sgf(path, "x")


class Quantise(unittest.TestCase):
    def test_policy(self):
        pol = [0.0] * (shards.NPOS + 1)
        pol[5] = -1
        pol[100], pol[50], pol[7], pol[8] = 0.6, 0.2, 0.0095, 0.004
        pol[shards.PASS] = 0.1864
        rest = 1 - sum(p for p in pol if p > 0)
        for i in range(200, 300):
            pol[i] = rest / 100
        p_pass, mv, qs = shards.quantise_policy(pol)
        self.assertEqual(p_pass, 186)
        self.assertEqual(qs, [600, 200, 10])   # 0.0095 rounds to 10 per-mille; 0.004 dropped
        self.assertEqual(mv, shards.idx_to_sgf(100) + shards.idx_to_sgf(50) + shards.idx_to_sgf(7))
        self.assertEqual(shards.quantise_value(0.4567, -3.26), (457, -33))
        many = [1.0 / 361] * 361 + [0.0]
        self.assertEqual(shards.quantise_policy(many), (0, "", []))  # nothing reaches 1 %
        top = [0.05] * 20 + [0.0] * 341 + [0.0]
        self.assertEqual(len(shards.quantise_policy(top)[2]), 8)

    def test_orientation_of_fake(self):
        # with one stone, the policy at that point is -1: the check label.py --check does
        e = FakeEngine()
        pol = e.analyze([["B", "C16"]], 7.5)[1][0]
        self.assertEqual(pol[shards.sgf_to_idx("cd")], -1)
        self.assertEqual(pol[3 * 19 + 2], -1)
        self.assertGreater(pol[2 * 19 + 3], 0)

    def test_sample(self):
        rng = random.Random(1)
        pol = [-1] * 361 + [1.0]
        self.assertEqual(label.sample_move(pol, 1.0, rng), shards.PASS)
        pol = [0.0] * 362
        pol[3], pol[4] = 0.9, 0.1
        self.assertEqual(label.sample_move(pol, 0, rng), 3)
        n = sum(label.sample_move(pol, 1.0, rng) == 4 for _ in range(2000))
        self.assertTrue(120 < n < 280, n)
        n = sum(label.sample_move(pol, 0.5, rng) == 4 for _ in range(2000))  # 0.01/0.82
        self.assertTrue(n < 60, n)


class Shards(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def make_sgfs(self, n):
        d = os.path.join(self.dir, "games")
        os.makedirs(d, exist_ok=True)
        paths = []
        for k in range(n):
            p = os.path.join(d, "g%02d.sgf" % k)
            with open(p, "w") as f:
                f.write("(;SZ[19]KM[7.5];B[pd];W[dp];B[%s];W[];B[])" % shards.idx_to_sgf(100 + k))
            paths.append(p)
        return paths

    def test_round_trip_and_resume(self):
        out = os.path.join(self.dir, "out")
        store = shards.ShardStore(out, games_per_shard=2)
        eng = FakeEngine()
        paths = self.make_sgfs(5)
        for p in paths:
            g = shards.game_from_sgf(p, label.sgf_game_id(p))
            store.add("games", shards.shard_line(g, label.label_game(eng, g), "net"))
        self.assertEqual(eng.queries, 5)  # one analyzeTurns query per game
        self.assertEqual(sorted(os.listdir(out)),
                         ["games-0000.jsonl.gz", "games-0001.jsonl.gz", "games-0002.jsonl.gz"])
        lines = shards.read_shard(os.path.join(out, "games-0000.jsonl.gz"))
        d = json.loads(lines[0])
        self.assertEqual(d["id"], "sgf/games/g00.sgf")
        self.assertEqual(d["moves"], "pddp" + shards.idx_to_sgf(100) + "....")
        self.assertEqual(len(d["pos"]), 5)
        self.assertNotIn("colors", d)
        p0 = shards.decode_position(d["pos"][0])
        self.assertEqual(p0["top"][0][0], 40)
        self.assertAlmostEqual(p0["winrate"], 0.5)
        self.assertAlmostEqual(p0["lead"], -7.5)
        self.assertGreater(p0["top"][0][1], 0.05)
        # the played stone's point never appears among later top moves
        for t, rec in enumerate(d["pos"]):
            played = set(shards.str_to_moves(d["moves"])[:t]) - {shards.PASS}
            for i, _ in shards.decode_position(rec)["top"]:
                self.assertNotIn(i, played)
        # resume: a new store sees all five games and appends to the last shard
        store2 = shards.ShardStore(out, games_per_shard=2)
        self.assertEqual(len(store2.done), 5)
        self.assertEqual(store2.positions, 25)
        g = shards.game_from_sgf(paths[0], "extra")
        store2.add("games", shards.shard_line(g, label.label_game(eng, g), "net"))
        self.assertEqual(len(shards.read_shard(os.path.join(out, "games-0002.jsonl.gz"))), 2)
        # deterministic bytes, no leftover temp files
        self.assertFalse([n for n in os.listdir(out) if n.endswith(".tmp")])
        with gzip.open(os.path.join(out, "games-0002.jsonl.gz")) as f:
            self.assertTrue(f.read().endswith(b"\n"))

    def test_run_resumes_with_fake_engine(self):
        paths = self.make_sgfs(3)
        out = os.path.join(self.dir, "out")
        tdir = fake_teacher_dir(self.dir)
        real = label.Engine
        made = []

        class Fake(QuietFake):
            def __init__(self, teacher, use_preload=True):
                QuietFake.__init__(self, teacher)
                made.append(self)
        label.Engine = Fake
        try:
            argv = ["--teacher-dir", tdir, "--out", out, "--selfplay", "2", "--max-moves", "30"] + paths
            self.assertEqual(label.main(argv), 0)
            first = made[-1].queries
            self.assertEqual(first, 3 + 30 + 30)  # 3 games in 3 queries, 2 self-play games of 30 moves
            self.assertEqual(label.main(argv), 0)  # everything done: no engine started
            self.assertEqual(len(made), 1)
            argv[5] = "3"
            self.assertEqual(label.main(argv), 0)  # one more self-play game
            self.assertEqual(made[-1].queries, 30)
        finally:
            label.Engine = real
        names = sorted(os.listdir(out))
        self.assertEqual(names, ["games-0000.jsonl.gz", "selfplay-0000.jsonl.gz"])
        sp = [json.loads(x) for x in shards.read_shard(os.path.join(out, "selfplay-0000.jsonl.gz"))]
        self.assertEqual([d["id"] for d in sp], ["selfplay-000000", "selfplay-000001", "selfplay-000002"])
        for d in sp:
            self.assertEqual(len(shards.str_to_moves(d["moves"])), len(d["pos"]))
            self.assertEqual(d["src"], "katago-selfplay")

    def test_a_failed_side_by_side_batch_plays_its_unfinished_games_again(self):
        out = os.path.join(self.dir, "out")
        tdir = fake_teacher_dir(self.dir)
        real, sleep = label.Engine, label.time.sleep
        asked = []

        class Flaky(QuietFake):
            def analyze_many(self, queries, komi, keys):
                asked.append(list(keys))
                # the second move of games 0 and 1, played side by side: both unfinished
                if len(asked) == 2:
                    raise label.EngineError("katago fell over")
                return [self.analyze(q, komi)[len(q)] for q in queries]

        label.Engine = Flaky
        label.time.sleep = lambda s: None
        try:
            self.assertEqual(label.main(["--teacher-dir", tdir, "--out", out, "--selfplay", "3",
                                         "--selfplay-batch", "2", "--max-moves", "2"]), 0)
        finally:
            label.Engine, label.time.sleep = real, sleep
        sp = [json.loads(x) for x in shards.read_shard(os.path.join(out, "selfplay-0000.jsonl.gz"))]
        self.assertEqual(sorted(d["id"] for d in sp),
                         ["selfplay-000000", "selfplay-000001", "selfplay-000002"])
        self.assertTrue(all(len(d["pos"]) == 2 for d in sp))
        ids = ["selfplay-%06d" % k for k in range(3)]
        # both played again from their first move on a new engine, then the third
        self.assertEqual(asked, [ids[:2]] * 4 + [ids[2:]] * 2)

    def test_parts_share_a_folder(self):
        paths = self.make_sgfs(8)
        out = os.path.join(self.dir, "out")
        tdir = fake_teacher_dir(self.dir)
        real = label.Engine
        label.Engine = QuietFake
        try:
            for part in ("0/2", "1/2"):
                self.assertEqual(label.main(["--teacher-dir", tdir, "--out", out, "--part", part,
                                             "--selfplay", "5", "--max-moves", "4"] + paths), 0)
            # a part finds its work done; a whole-folder labeller has nothing left either
            for part in ("0/2", "1/2", "0/1"):
                before = sorted(os.listdir(out))
                self.assertEqual(label.main(["--teacher-dir", tdir, "--out", out, "--part", part,
                                             "--selfplay", "5", "--max-moves", "4"] + paths), 0)
                self.assertEqual(sorted(os.listdir(out)), before)
            # a part clears its own half-written shards at start, not another part's
            unfinished = os.path.join(out, "games-p1-0001.jsonl.gz.tmp")
            open(unfinished, "w").close()
            for part, left in (("0/2", True), ("1/2", False)):
                self.assertEqual(label.main(["--teacher-dir", tdir, "--out", out,
                                             "--part", part] + paths), 0)
                self.assertEqual(os.path.exists(unfinished), left)
        finally:
            label.Engine = real
        ids = {}
        for name in os.listdir(out):
            m = shards.SHARD_RE.match(name)
            if m:
                for line in shards.read_shard(os.path.join(out, name)):
                    ids.setdefault(json.loads(line)["id"], []).append(m.group("prefix"))
        games = {label.sgf_game_id(p) for p in paths}
        selfplay = {"selfplay-%06d" % k for k in range(5)}
        self.assertEqual(set(ids), games | selfplay)
        # each game once, in the shards of its part: by the id's hash, or the
        # self-play game's number
        for gid, prefixes in ids.items():
            if gid in selfplay:
                want = "selfplay-p%d" % (int(gid[-6:]) % 2)
            else:
                want = "games-p%d" % (0 if label.in_part(gid, (0, 2)) else 1)
            self.assertEqual(prefixes, [want], gid)
        self.assertTrue(0 < sum(label.in_part(g, (0, 2)) for g in games) < len(games))
        # with part 1 running (its locks held here), part 0 runs, a second part 1 does not,
        # nor does a labeller of the whole folder
        import fcntl
        fd = os.open(os.path.join(out, ".part-1.lock"), os.O_RDWR)
        shared = os.open(out, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB)
            label.Engine = QuietFake
            try:
                self.assertEqual(label.main(["--teacher-dir", tdir, "--out", out,
                                             "--part", "0/2"] + paths), 0)
            finally:
                label.Engine = real
            for part in ("1/2", "0/1"):
                with self.assertRaises(SystemExit):
                    label.main(["--teacher-dir", tdir, "--out", out, "--part", part] + paths)
            fcntl.flock(fd, fcntl.LOCK_UN)
            fcntl.flock(shared, fcntl.LOCK_UN)
            whole = os.open(out, os.O_RDONLY)
            fcntl.flock(whole, fcntl.LOCK_EX | fcntl.LOCK_NB)
            with self.assertRaises(SystemExit):
                label.main(["--teacher-dir", tdir, "--out", out, "--part", "0/2"] + paths)
            os.close(whole)
        finally:
            os.close(fd)
            os.close(shared)
        for bad in ("2/2", "1", "a/b", "-1/2"):
            with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
                label.main(["--teacher-dir", tdir, "--out", out, "--part", bad])


class ToSgfTest(unittest.TestCase):
    def test_teacher_moves_go_on_their_move_nodes(self):
        game = {"id": "g", "size": 9, "komi": 7.5, "moves": "cc..ee", "first": "B",
                "pos": [[500, 0, 10, "eedd", [600, 300]],    # the teacher's ee
                        [500, 0, 900, "aa", [50]],           # passing likelier
                        [500, 0, 0, "", []]]}                # nothing listed
        self.assertEqual(to_sgf.game_sgf(game),
                         "(;GM[1]FF[4]SZ[9]KM[7.5]PB[]PW[];B[cc]TM[ee];W[];B[ee])")
        self.assertIsNone(to_sgf.game_sgf(dict(game, setup={"B": "aa"})))
        with self.assertRaises(ValueError):
            to_sgf.game_sgf(dict(game, pos=game["pos"][:2]))


def write_shard(folder, games):
    """A shard of `games` (shard lines, parsed) in `folder`; its path."""
    path = os.path.join(folder, "s-0000.jsonl.gz")
    with gzip.open(path, "wt") as f:
        for game in games:
            f.write(json.dumps(game) + "\n")
    return path


class ToPlanesTest(unittest.TestCase):
    def test_one_input_line_a_position_with_its_label(self):
        game = {"id": "g", "size": 19, "komi": 7.5, "moves": "pd..dd", "first": "B",
                "pos": [[370, -10, 10, "pddp", [600, 300]], [420, 25, 900, "", []],
                        [1000, 0, 0, "dd", [990]]]}
        # the values turned to the side to move: Black, White, Black
        self.assertEqual(to_planes.examples(game),
                         [" pddp 600,300 10 g b 370 -10", "pd - - 900 g w 580 -25",
                          "pd.. dd 990 0 g b 1000 0"])
        self.assertEqual(to_planes.examples(dict(game, size=9)), [])
        self.assertEqual(to_planes.examples(dict(game, colors="BWB")), [])

    def test_the_planes_come_from_tengen(self):
        tengen = release_tengen(self)
        d = tempfile.mkdtemp()
        try:
            game = {"id": "g", "size": 19, "komi": 7.5, "moves": "pddd", "first": "B",
                    "pos": [[500, 0, 10, "pd", [600]], [500, 0, 10, "dd", [700]]]}
            shard = write_shard(d, [game])
            out = os.path.join(d, "out.txt.gz")
            self.assertEqual(to_planes.main(["to_planes.py", "--tengen", tengen, out, shard]), 0)
            with gzip.open(out, "rt") as f:
                lines = f.read().split("\n")[:-1]
            self.assertEqual(len(lines), 2)
            # 19 planes of 361 bits: 858 bytes
            self.assertEqual([len(l.split()[0]) for l in lines], [1716, 1716])
            self.assertEqual(lines[1].split()[1:], ["dd", "700", "10", "g", "w", "500", "0"])
        finally:
            shutil.rmtree(d)

    def test_a_record_gives_each_move_played_as_the_label(self):
        pd, dd, pp = (shards.sgf_to_idx(v) for v in ("pd", "dd", "pp"))
        game = shards.Game("r1", "x.sgf", [pd, dd, shards.PASS, pp], "BWBW", 6.5)
        self.assertEqual(to_planes.record_examples(game),
                         [" pd 1000 0 r1", "pd dd 1000 0 r1", "pddd.. pp 1000 0 r1"])
        self.assertEqual(to_planes.record_examples(shards.Game("r", "x", [pd], "W", 6.5)), [])
        self.assertEqual(to_planes.record_examples(
            shards.Game("r", "x", [pd, dd], "BW", 0.5, setup_b=[pp])), [])

    def test_records_from_a_folder_stop_at_an_illegal_move(self):
        tengen = release_tengen(self)
        d = tempfile.mkdtemp()
        try:
            os.makedirs(os.path.join(d, "in", "deeper"))
            with open(os.path.join(d, "in", "a.sgf"), "w") as f:
                f.write("(;GM[1]SZ[19]KM[6.5];B[pd];W[dd];B[pp])")
            # the third move plays on a stone: the positions after it are left out (its
            # own goes through, and train.py drops it: the label is no sensible point)
            with open(os.path.join(d, "in", "deeper", "b.SGF"), "w") as f:
                f.write("(;GM[1]SZ[19];B[pd];W[dp];B[dp];W[qq])")
            with open(os.path.join(d, "in", "c.sgf"), "w") as f:
                f.write("(;GM[1]SZ[9];B[cc])")
            with open(os.path.join(d, "in", "deeper", "a-again.sgf"), "w") as f:
                f.write("(;GM[1]SZ[19]KM[7.5];B[pd];W[dd];B[pp])")
            out = os.path.join(d, "out.txt.gz")
            self.assertEqual(to_planes.main(["to_planes.py", "--tengen", tengen, "--records",
                                             out, os.path.join(d, "in")]), 0)
            with gzip.open(out, "rt") as f:
                labels = [line.split()[1] for line in f]
            self.assertEqual(labels, ["pd", "dd", "pp", "pd", "dp", "dp"])
        finally:
            shutil.rmtree(d)


class AgreeTest(unittest.TestCase):
    # g6 is held out (crc32 % 10 == 0), g0 is not
    GAME = {"id": "g6", "size": 19, "komi": 7.5, "moves": "pddddpqp", "first": "B",
            "pos": [[500, 0, 10, "pd", [600]], [500, 0, 900, "dd", [50]],
                    [500, 0, 0, "dpqd", [400, 300]], [500, 0, 5, "", []]]}

    def test_positions_come_from_held_out_games_where_a_point_beats_passing(self):
        other = dict(self.GAME, id="g0")
        todo = agree.samples([other, self.GAME], 10)
        self.assertEqual([(g["id"], k) for g, k in todo], [("g6", 0), ("g6", 2)])
        self.assertEqual([k for _, k in agree.samples([self.GAME], 1)], [0])

    def test_vertices_and_the_teachers_mass(self):
        self.assertEqual(agree.vertex("pd"), "Q16")
        self.assertEqual(agree.vertex("aa"), "A19")
        self.assertEqual(agree.vertex(".."), "pass")
        self.assertEqual(agree.teacher_mass(self.GAME, 2, "d4"), 400)
        self.assertEqual(agree.teacher_mass(self.GAME, 2, "R16"), 300)
        self.assertEqual(agree.teacher_mass(self.GAME, 2, "K10"), 0)
        self.assertEqual(agree.teacher_mass(self.GAME, 1, "pass"), 900)
        lo, hi = agree.wilson(5, 10)
        self.assertTrue(0.2 < lo < 0.5 < hi < 0.8)

    def test_a_run_against_tengen(self):
        tengen = release_tengen(self)
        d = tempfile.mkdtemp()
        try:
            shard = write_shard(d, [self.GAME])
            for extra in [[], ["--net"]]:
                self.assertEqual(agree.main(["--tengen", tengen, "--playouts", "50"] + extra
                                            + [shard]), 0)
            self.assertEqual(agree.main(["--tengen", "/nonexistent", shard]), 1)
        finally:
            shutil.rmtree(d)


if __name__ == "__main__":
    unittest.main()
