"""Tests of tools/teacher/kata_board.py, kata_game.py, kata_torch.py and label.py's
TorchEngine without KataGo or its model: board and features on hand-made positions, the
model loader, the symmetries and the engine on a tiny synthetic model file. Needs numpy
(and torch for all but the board tests): run it with the training venv's python.

    ~/.cache/tengen-train/bin/python -m unittest tools/teacher/test_kata_torch.py
"""

import gzip
import json
import os
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kata_board as kb  # noqa: E402
import kata_game as kg  # noqa: E402

try:
    import torch
    import kata_torch as kt
except ImportError:  # torch missing: only the board tests run
    torch = None


def L(x, y):
    return kb.LOCS[y * 19 + x]


def I(x, y):
    return y * 19 + x


def board(black=(), white=()):
    b = kb.Board()
    for x, y in black:
        b.c[L(x, y)] = kb.BLACK
    for x, y in white:
        b.c[L(x, y)] = kb.WHITE
    return b


class BoardTest(unittest.TestCase):
    def test_capture_and_liberties(self):
        # White stone at (1,1) with black on three sides; black fills the last liberty.
        g = kg.Game([I(1, 0), I(1, 1), I(0, 1), I(9, 9), I(2, 1), I(9, 10), I(1, 2)])
        self.assertEqual(g.board.c[L(1, 1)], kb.EMPTY)
        self.assertEqual(g.board.c[L(9, 9)], kb.WHITE)
        sp, gl = g.features()
        self.assertEqual(sp[0].sum(), 361)
        # white to move: own stones plane 1 = 2 white stones, plane 2 = 4 black stones
        self.assertEqual(sp[1].sum(), 2)
        self.assertEqual(sp[2].sum(), 4)
        # (9,9)+(9,10) is one chain with 6 liberties; the black stone (1,0) now has 3
        self.assertEqual(sp[5, 0, 1], 1)  # 3 liberties
        self.assertEqual(sp[3:6, 9, 9].sum(), 0)
        self.assertAlmostEqual(gl[5], 7.5 / 20)  # white's own komi
        self.assertEqual(g.to_move, kb.WHITE)
        with self.assertRaises(ValueError):
            g.play(I(1, 0))  # occupied

    def ko_game(self):
        # Black (1,0) (0,1) (1,2); white (2,0) (3,1) (2,2) (1,1); black (2,1) takes (1,1).
        return kg.Game([I(1, 0), I(2, 0), I(0, 1), I(3, 1), I(1, 2), I(2, 2), I(10, 10),
                        I(1, 1), I(2, 1)])

    def test_ko_plane_and_legality(self):
        g = self.ko_game()
        self.assertEqual(g.board.c[L(1, 1)], kb.EMPTY)
        self.assertEqual(g.board.ko, L(1, 1))
        sp, _ = g.features()
        self.assertEqual(sp[6, 1, 1], 1)
        self.assertEqual(sp[6].sum(), 1)
        self.assertFalse(g.legal_mask()[I(1, 1)])
        self.assertTrue(g.legal_mask()[kb.PASS])
        # after a move elsewhere by each side the ko may be retaken
        g.play(I(15, 15))
        g.play(I(15, 3))
        self.assertTrue(g.legal_mask()[I(1, 1)])
        self.assertEqual(g.features()[0][6].sum(), 0)

    def test_superko_ban(self):
        g = self.ko_game()
        g.play(I(15, 15))
        g.play(I(15, 3))
        g.play(I(1, 1))  # white retakes
        # black retaking at (2,1) is a simple-ko ban (not a superko ban)
        self.assertFalse(g.legal_mask()[I(2, 1)])
        self.assertEqual(g.superko_banned(), set())

    def test_suicide_illegal(self):
        g = kg.Game([I(1, 0), I(10, 10), I(0, 1)])  # white to move, (0,0) is suicide
        self.assertFalse(g.legal_mask()[I(0, 0)])
        self.assertTrue(g.legal_mask()[I(2, 0)])

    def test_history_planes(self):
        g = kg.Game([I(3, 3), I(15, 15), kb.PASS])
        sp0, gl0 = g.features(max_history=0)
        self.assertEqual(sp0[9:14].sum() + gl0[:5].sum(), 0)
        sp5, gl5 = g.features(max_history=5)
        self.assertEqual(gl5[0], 1)            # the last move was a pass
        self.assertEqual(sp5[10, 15, 15], 1)   # the move before
        self.assertEqual(sp5[11, 3, 3], 1)
        self.assertEqual(gl5[14], 1)           # a second pass would end the game

    def test_pass_end_suppressed_when_losing(self):
        # white to move after black's pass, on an empty board white wins by komi: kept
        g = kg.Game([kb.PASS])
        self.assertEqual(g.features()[1][14], 1)
        # black to move after white's pass, one stone each: black would lose by komi
        # if the game ended -> the flag is hidden (passing hacks)
        g = kg.Game([kb.PASS, I(3, 3), I(15, 15), kb.PASS])
        self.assertEqual(g.features()[1][14], 0)
        self.assertEqual(g.features(passing_hacks=False)[1][14], 1)


class LadderTest(unittest.TestCase):
    # White (3,3) with black (4,3), (3,2) and the diagonal (2,4). Black at (2,3) too puts
    # it in atari and the ladder runs down-right across the empty board.
    BLACK = [(4, 3), (3, 2), (2, 4)]

    def test_ladder_works(self):
        b = board(self.BLACK + [(2, 3)], [(3, 3)])
        self.assertTrue(kb.ladder_captured(b, L(3, 3)))
        g = kg.Game()
        g.board = b
        sp, _ = g.features()
        self.assertEqual(sp[14, 3, 3], 1)
        self.assertEqual(sp[15, 3, 3], 1)  # no history: previous boards = this board
        self.assertEqual(sp[16, 3, 3], 1)
        self.assertEqual(sp[14].sum(), 1)

    def test_ladder_breaker(self):
        b = board(self.BLACK + [(2, 3)], [(3, 3), (16, 16)])
        self.assertFalse(kb.ladder_captured(b, L(3, 3)))
        g = kg.Game()
        g.board = b
        self.assertEqual(g.features()[0][14].sum(), 0)

    def test_two_liberties_working_moves(self):
        # two liberties: black (2,3) chases down-right, black (3,4) chases up-left
        b = board(self.BLACK, [(3, 3)])
        lad, working = kb.ladders(b)
        self.assertEqual(lad, {L(3, 3)})
        self.assertEqual(set(working[L(3, 3)]), {L(2, 3), L(3, 4)})
        g = kg.Game()
        g.board = b  # black to move: the laddered stone is the opponent's -> plane 17
        sp = g.features()[0]
        self.assertEqual(sp[17, 3, 2] + sp[17, 4, 3], 2)
        self.assertEqual(sp[17].sum(), 2)
        # a breaker on the down-right path leaves only the up-left chase
        lad, working = kb.ladders(board(self.BLACK, [(3, 3), (16, 16)]))
        self.assertEqual(working[L(3, 3)], [L(3, 4)])

    def test_atari_escape(self):
        # one liberty but extending gives three: not a ladder
        b = board([(2, 3), (3, 2), (4, 3)], [(3, 3)])
        self.assertFalse(kb.ladder_captured(b, L(3, 3)))


class AreaTest(unittest.TestCase):
    # White wall along the top-left edge: eye A = {(0,0) empty, (1,0) black stone},
    # eye B = (3,0). With both eyes the group is pass-alive and the dead black stone
    # counts as white's; with B filled it is not.
    WALL = [(2, 0), (4, 0)] + [(x, 1) for x in range(5)]

    def test_two_eyes_pass_alive(self):
        b = board([(1, 0), (10, 10)], self.WALL)
        ar = kb.area(b)
        for x, y in self.WALL + [(0, 0), (1, 0), (3, 0)]:
            self.assertEqual(ar[L(x, y)], kb.WHITE, (x, y))
        self.assertEqual(ar[L(10, 10)], kb.BLACK)  # a stone, counted as it stands
        self.assertNotIn(L(10, 11), ar)  # open space with both colours around
        g = kg.Game()
        g.board = b  # black to move: white area is the opponent's plane 19
        sp, _ = g.features()
        self.assertEqual(sp[19, 0, 1], 1)
        self.assertEqual(sp[18, 0, 1], 0)
        self.assertEqual(sp[19].sum(), 10)
        self.assertEqual(sp[18].sum(), 1)  # the black stone (10,10)

    def test_one_eye_not_pass_alive(self):
        b = board([(1, 0), (10, 10)], self.WALL + [(3, 0)])
        ar = kb.area(b)
        self.assertEqual(ar[L(1, 0)], kb.BLACK)   # the black stone stays black
        self.assertNotIn(L(0, 0), ar)
        self.assertEqual(ar[L(3, 0)], kb.WHITE)   # a stone, counted as it stands


# --- a tiny synthetic model file -----------------------------------------------------------

class Writer:
    def __init__(self, seed=0, zero=False):
        self.parts = []
        self.rng = np.random.default_rng(seed)
        self.zero = zero

    def t(self, *toks):
        self.parts.append(("\n".join(str(t) for t in toks) + "\n").encode())

    def f(self, n, values=None):
        if values is None:
            values = np.zeros(n) if self.zero else self.rng.normal(0, 0.3, n)
        self.parts.append(b"@BIN@" + np.asarray(values, "<f4").tobytes() + b"\n")

    def conv(self, name, k, ic, oc):
        self.t(name, k, k, ic, oc, 1, 1)
        self.f(k * k * ic * oc)

    def bn(self, name, c):
        self.t(name, c, 1e-5, 1, 1)
        self.f(c, np.zeros(c))
        self.f(c, np.ones(c))
        self.f(c, np.ones(c))
        self.f(c)

    def mat(self, name, ic, oc):
        self.t(name, ic, oc)
        self.f(ic * oc)

    def bias(self, name, c, values=None):
        self.t(name, c)
        self.f(c, values)

    def act(self, name):
        self.t(name, "ACTIVATION_SILU")

    def data(self):
        return b"".join(self.parts)


def tiny_model(seed=0, zero=False, kind="ordinary_block", value_bias=None, lead_bias=None):
    """A version 15 model: trunk of 8 channels, a gpool block and a nested bottleneck
    block holding [kind, attention with learnable rope, SwiGLU ffn]."""
    w = Writer(seed, zero)
    w.t("tiny", 15, 22, 19, 20.0, 20.0, 20.0, 20.0, 40.0, 0.25, 150.0, 0, 0, 0, 0, 0, 0, 0, 0)
    c, m = 8, 4
    w.t("trunk", 2, c, m, m, 2, 2, 1, 0, 0, 0, 0, 0)
    w.conv("m.conv_spatial", 3, 22, c)
    w.mat("m.linear_global", 19, c)
    w.t("gpool_block", "m.b0")
    w.bn("m.b0.n1", c), w.act("m.b0.a1"), w.conv("m.b0.c1", 3, c, m), w.conv("m.b0.cg", 3, c, 2)
    w.bn("m.b0.ng", 2), w.act("m.b0.ag"), w.mat("m.b0.gm", 6, m)
    w.bn("m.b0.n2", m), w.act("m.b0.a2"), w.conv("m.b0.c2", 3, m, c)
    w.t("nested_bottleneck_block", "m.b1", 3)
    w.bn("m.b1.n1", c), w.act("m.b1.a1"), w.conv("m.b1.c1", 1, c, m)
    w.t(kind, "m.b1.s0")
    w.bn("m.b1.s0.n1", m), w.act("m.b1.s0.a1"), w.conv("m.b1.s0.c1", 3, m, m)
    w.bn("m.b1.s0.n2", m), w.act("m.b1.s0.a2"), w.conv("m.b1.s0.c2", 3, m, m)
    w.t("transformer_attention_block", "m.b1.s1", 2, 1, 2, 2, 1, 1)
    w.t("m.b1.s1.norm1", m, 1e-6)
    w.f(m)
    w.mat("m.b1.s1.q", m, 4), w.mat("m.b1.s1.k", m, 2), w.mat("m.b1.s1.v", m, 2), w.mat("m.b1.s1.o", 4, m)
    w.t("m.b1.s1.rope_freqs", 1, 1, 2)
    w.f(2)
    w.t("transformer_ffn_block", "m.b1.s2", m, 6, 1)
    w.t("m.b1.s2.norm", m, 1e-6)
    w.f(m)
    w.mat("m.b1.s2.l1", m, 6), w.mat("m.b1.s2.g", m, 6), w.mat("m.b1.s2.l2", 6, m)
    w.bn("m.b1.n2", m), w.act("m.b1.a2"), w.conv("m.b1.c2", 1, m, c)
    w.t("m.norm_trunkfinal", c, 1e-6, 1, 0)
    w.f(c, np.ones(c))
    w.f(c)
    w.act("m.act_trunkfinal")
    w.t("m.policy_head")
    w.conv("m.policy_head.c1p", 1, c, 4), w.conv("m.policy_head.c1g", 1, c, 2), w.bn("m.policy_head.bg", 2), w.act("m.policy_head.ag")
    w.mat("m.policy_head.lg", 6, 4), w.bn("m.policy_head.b2", 4), w.act("m.policy_head.a2"), w.conv("m.policy_head.c2", 1, 4, 2)
    w.mat("m.policy_head.lp", 6, 4), w.bias("m.policy_head.lpb", 4), w.act("m.policy_head.ap"), w.mat("m.policy_head.lp2", 4, 2)
    w.t("m.value_head")
    w.conv("m.value_head.c1", 1, c, 3), w.bn("m.value_head.b1", 3), w.act("m.value_head.a1"), w.mat("m.value_head.l2", 9, 5)
    w.bias("m.value_head.b2", 5), w.act("m.value_head.a2"), w.mat("m.value_head.l3", 5, 3), w.bias("m.value_head.b3", 3, value_bias)
    w.mat("m.value_head.lm", 5, 6), w.bias("m.value_head.bm", 6, lead_bias), w.conv("m.value_head.own", 1, 3, 1)
    return w.data()


@unittest.skipIf(torch is None, "needs torch")
class LoaderTest(unittest.TestCase):
    def load(self, data):
        with tempfile.NamedTemporaryFile(suffix=".bin.gz", delete=False) as f:
            f.write(gzip.compress(data))
        try:
            return kt.load_model(f.name)
        finally:
            os.unlink(f.name)

    def test_conv_layout(self):
        # file order y, x, ic, oc -> torch (oc, ic, y, x)
        vals = np.arange(3 * 3 * 2 * 4, dtype=np.float32)
        r = kt.Reader(b"c 3 3 2 4 1 1\n@BIN@" + vals.astype("<f4").tobytes())
        layers = kt.Layers()
        cv = kt.read_conv(r, layers, None)
        w = getattr(layers, cv["w"])
        y, x, ic, oc = 2, 1, 1, 3
        self.assertEqual(w[oc, ic, y, x].item(), vals[((y * 3 + x) * 2 + ic) * 4 + oc])

    def test_zero_model_outputs(self):
        net = self.load(tiny_model(zero=True, value_bias=[1.0, 0.0, 0.0],
                                   lead_bias=[0, 0, 0.5, 0, 0, 0]))
        self.assertEqual(net.spec["version"], 15)
        res = kt.evaluate(net, [[], [I(3, 3)]])
        self.assertEqual(res["policy"].shape, (2, 362))
        np.testing.assert_allclose(res["policy"][0], 1 / 362, rtol=1e-5)
        self.assertEqual(res["policy"][1][I(3, 3)], -1)   # occupied: illegal
        np.testing.assert_allclose(res["policy"][1][res["policy"][1] >= 0], 1 / 361, rtol=1e-5)
        p = 1 / (1 + np.exp(-1))
        np.testing.assert_allclose(res["winrate"], [p, 1 - p], rtol=1e-6)  # black's view
        np.testing.assert_allclose(res["lead"], [10.0, -10.0], rtol=1e-6)

    def test_random_model_batching_and_bf16(self):
        for seed in (3, 4):
            net = self.load(tiny_model(seed=seed))
            pos = [[I(3, 3), I(15, 15)], [], [I(9, 9)]]
            together = kt.evaluate(net, pos)
            for k, p in enumerate(pos):
                alone = kt.evaluate(net, [p])
                np.testing.assert_allclose(alone["policy"][0], together["policy"][k], atol=1e-5)
                np.testing.assert_allclose(alone["winrate"][0], together["winrate"][k], atol=1e-6)
            legal = together["policy"] >= 0
            np.testing.assert_allclose(np.where(legal, together["policy"], 0).sum(1), 1, atol=1e-5)
            self.assertGreater(together["policy"][0].std(), 0)
            bf = kt.evaluate(net, pos, bf16=True)
            np.testing.assert_allclose(bf["winrate"], together["winrate"], atol=0.05)

    def test_a_symmetry_turns_the_board_and_the_policy_back(self):
        net = self.load(tiny_model(seed=5))
        moves = [I(2, 3), I(15, 4), I(9, 12), I(3, 16)]
        plain = kt.evaluate(net, [moves])["policy"][0]

        def where(i, sym):  # the point i goes to under the symmetry
            one = torch.zeros(19 * 19)
            one[i] = 1
            return int(kt.turn(one.view(19, 19), sym).reshape(-1).argmax())

        differs = False
        for sym in range(8):
            got = kt.evaluate(net, [moves], symmetry=sym)["policy"][0]
            # the turned game asked at the identity, read back at the original points
            turned = kt.evaluate(net, [[where(m, sym) for m in moves]])["policy"][0]
            back = np.array([turned[where(i, sym)] for i in range(361)] + [turned[361]])
            np.testing.assert_allclose(got, back, atol=1e-6)
            self.assertEqual(list(np.flatnonzero(got < 0)), sorted(moves))
            differs |= float(np.abs(got - plain).max()) > 1e-4
        # the position encoding makes the answer depend on the symmetry
        self.assertTrue(differs)

    def test_bad_files_fail_loudly(self):
        good = tiny_model()
        self.load(good)
        for bad in (good.replace(b"transformer_ffn_block", b"transformer_fnn_block"),
                    good.replace(b"ACTIVATION_SILU", b"ACTIVATION_GELU", 1),
                    good.replace(b"m.b1.s1.v\n4\n2", b"m.b1.s1.v\n4\n3"),
                    good.replace(b"m.b1.s2.norm", b"m.b2.s2.norm"),
                    good.replace(b"tiny\n15", b"tiny\n18"),
                    good + b"@BIN@junk",
                    good[:-100]):
            with self.assertRaises(kt.ModelError):
                self.load(bad)


@unittest.skipIf(torch is None, "needs torch")
class TorchEngineTest(unittest.TestCase):
    """label.py's TorchEngine and a labelling run with it, on the tiny model."""

    def setUp(self):
        import shutil
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        self.teacher = {"model": os.path.join(self.dir, "model.bin.gz"),
                        "katago": os.path.join(self.dir, "katago"),
                        "config": os.path.join(self.dir, "analysis.cfg"),
                        "network": "tiny", "komi": 7.5}
        with open(self.teacher["model"], "wb") as f:
            f.write(gzip.compress(tiny_model(seed=6)))
        for k in ("katago", "config"):  # load_teacher() wants them; torch does not use them
            open(self.teacher[k], "w").close()
        with open(os.path.join(self.dir, "teacher.json"), "w") as f:
            json.dump(self.teacher, f)

    def engine(self, seed=7):
        import label
        return label, label.TorchEngine(self.teacher, bf16=False, seed=seed)

    def test_a_game_asked_at_once_or_move_by_move_gets_the_same_answers(self):
        label, e = self.engine()
        moves = [["B", "Q16"], ["W", "D4"], ["B", "Q4"], ["W", "pass"], ["B", "D16"]]
        whole = e.analyze(moves, 7.5, turns=range(6))
        self.assertEqual(sorted(whole), list(range(6)))
        for t in range(6):
            # the game kept from query to query (self-play) as a fresh one: the same
            # answer at the same symmetry
            _, one = self.engine()
            _, step = self.engine()
            for k in range(t):
                step.analyze(moves[:k], 7.5)
            step.rng = one.rng.__class__(7)
            got = step.analyze(moves[:t], 7.5)[t]
            self.assertEqual(step.games[None][1], [label.gtp_to_idx(m) for _, m in moves[:t]])
            pol = np.array(got[0])
            self.assertEqual(sorted(np.flatnonzero(pol < 0)),
                             sorted(label.gtp_to_idx(m) for _, m in moves[:t] if m != "pass"))
            np.testing.assert_allclose(pol, one.analyze(moves[:t], 7.5)[t][0], atol=1e-6)
            # the batch of the whole game: another symmetry, the same legal points
            np.testing.assert_array_equal(pol < 0, np.array(whole[t][0]) < 0)
        # each answer is evaluate()'s at the symmetry the engine draws, in float32
        import random
        _, fresh = self.engine()
        sym = random.Random(7).randrange(8)
        want = kt.evaluate(fresh.net, [[label.gtp_to_idx(m) for _, m in moves[:3]]], symmetry=sym)
        np.testing.assert_allclose(fresh.analyze(moves[:3], 7.5)[3][0], want["policy"][0], atol=1e-6)
        # another game after it: replayed from the empty board
        _, fresh = self.engine()
        e.rng = fresh.rng.__class__(7)
        np.testing.assert_allclose(e.analyze([["B", "D4"]], 7.5)[1][0],
                                   fresh.analyze([["B", "D4"]], 7.5)[1][0], atol=1e-6)

    def test_several_games_in_one_batch(self):
        label, e = self.engine()
        games = [[["B", "Q16"]], [["B", "D4"], ["W", "Q4"]], []]
        got = e.analyze_many(games, 7.5, ["a", "b", "c"])
        for q, answer in zip(games, got):
            _, one = self.engine()  # the batch's symmetry is a fresh engine's first
            alone = one.analyze(q, 7.5)[len(q)]
            np.testing.assert_allclose(answer[0], alone[0], atol=1e-5)
            self.assertAlmostEqual(answer[1], alone[1], places=5)
        # the games move on under their keys; those not asked about are dropped
        e.analyze_many([games[1] + [["B", "pass"]]], 7.5, ["b"])
        self.assertEqual(list(e.games), ["b"])
        self.assertEqual(e.games["b"][1], [label.gtp_to_idx(m) for m in ("D4", "Q4", "pass")])

    def test_the_compiled_network_answers_as_the_plain_one(self):
        import label
        plain = label.TorchEngine(self.teacher, bf16=False, seed=3)
        fast = label.TorchEngine(self.teacher, bf16=False, seed=3, compile=True)
        self.assertIsNone(plain.model)
        self.assertIsNotNone(fast.model)
        moves = [["B", "Q16"], ["W", "D4"], ["B", "Q4"]]
        for a, b in zip(plain.analyze_many([moves, moves[:1]], 7.5, [0, 1]),
                        fast.analyze_many([moves, moves[:1]], 7.5, [0, 1])):
            np.testing.assert_allclose(a[0], b[0], atol=1e-5)
        with self.assertRaises(SystemExit):  # an option of the torch engine only
            label.main(["--teacher-dir", self.dir, "--compile", "--check"])

    def test_refused_queries(self):
        label, e = self.engine()
        for bad in ([["W", "Q16"]], [["B", "Q16"], ["B", "D4"]], [["B", "Q16"], ["W", "Q16"]]):
            with self.assertRaises(label.QueryError):
                e.analyze(bad, 7.5)
        with self.assertRaises(label.QueryError):
            e.analyze([], 7.5, initial_stones=[["B", "Q16"]])
        # a refused query leaves the engine usable
        self.assertEqual(len(e.analyze([["B", "Q16"]], 7.5)[1][0]), 362)

    def test_a_labelling_run_with_the_torch_engine(self):
        import label
        import shards
        out = os.path.join(self.dir, "out")
        argv = ["--teacher-dir", self.dir, "--engine", "torch", "--out", out,
                "--selfplay", "2", "--max-moves", "12"]
        self.assertEqual(label.main(argv), 0)
        lines = [json.loads(x) for x in shards.read_shard(os.path.join(out, "selfplay-0000.jsonl.gz"))]
        self.assertEqual([d["id"] for d in lines], ["selfplay-000000", "selfplay-000001"])
        for d in lines:
            self.assertEqual((d["engine"], d["net"]), ("torch", "tiny"))
            self.assertEqual(len(d["pos"]), len(shards.str_to_moves(d["moves"])))
        self.assertEqual(label.main(argv + ["--bf16"]), 0)  # all done: nothing more
        self.assertEqual(len(list(shards.read_shard(os.path.join(out, "selfplay-0000.jsonl.gz")))), 2)
        # three more, two side by side then one
        self.assertEqual(label.main(argv[:-3] + ["5", "--max-moves", "12", "--selfplay-batch", "2"]), 0)
        lines = [json.loads(x) for x in shards.read_shard(os.path.join(out, "selfplay-0000.jsonl.gz"))]
        self.assertEqual(sorted(d["id"] for d in lines), ["selfplay-%06d" % k for k in range(5)])
        for d in lines:
            self.assertEqual(len(d["pos"]), len(shards.str_to_moves(d["moves"])))
            self.assertLessEqual(len(d["pos"]), 12)


if __name__ == "__main__":
    unittest.main()
