#!/usr/bin/env python3
"""Self-test of the training tools (train.py, net.py, export.py): tiny runs end to end,
resume, widening, export. Skipped without PyTorch: run it with the training venv's python
(tools/teacher/bench_train.py's --help has the install line).

usage: ~/.cache/tengen-train/bin/python tools/teacher/test_train.py
"""

import contextlib
import gzip
import importlib.util
import io
import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import to_planes  # noqa: E402
from test_label import release_tengen, write_shard  # noqa: E402


def file_flags(path, value_at=None):
    """The (skip, pooled) flags of each layer of an exported weight file,
    after checking that its layers fill it exactly, or up to its value
    section, where one is (its offset put in the list `value_at`)."""
    with open(path, "rb") as f:
        blob = f.read()
    assert blob[:8] == b"TGPOLNN5", blob[:8]
    count = int.from_bytes(blob[8:12], "little")
    flags, at = [], 12
    for _ in range(count):
        k, cin, cout, skip, pooled = (int.from_bytes(blob[at + 4 * i:at + 4 * i + 4], "little")
                                      for i in range(5))
        flags.append((skip, pooled))
        at += 20
        for n in [k * k * cin * cout, cout] + ([2 * cin * cout] if pooled else []):
            # each tensor: its tag (0: float32), its values
            assert int.from_bytes(blob[at:at + 4], "little") == 0
            at += 4 + 4 * n
    if value_at is not None and blob[at:at + 8] == b"TGVALUE1":
        value_at.append(at)
    else:
        assert at == len(blob), (at, len(blob))
    return flags


def net_of(planes):
    """A 2-layer net of 4 channels that takes `planes` planes (numpy)."""
    import net
    return net.init(planes, 4, 2)


def random_policy_net(seed, batch):
    """Planes of `batch` random positions, every point sensible, and the
    masked logits of a 4 x 3 net with random weights throughout (init's
    head starts flat, and so would its policy); the dtype of each call's
    logits is kept in the list returned third."""
    import numpy as np

    import net
    import train
    rng = np.random.default_rng(seed)
    v = (rng.random((batch, 19, 19, 19)) < 0.3).astype(np.float32)
    v[:, train.SENSIBLE] = 1
    params = [tuple(rng.standard_normal(p.shape).astype(np.float32) * 0.3 for p in layer)
              for layer in net.init(19, 4, 3, first=5)]
    tparams = net.to_torch(params)
    seen = []

    def logits(x):
        out = train.masked_logits(tparams, x, (False,) * len(params))
        seen.append(out.dtype)
        return out
    return v, logits, seen


class TrainSmokeTest(unittest.TestCase):
    """A tiny training run end to end (skipped without PyTorch: run this
    file with the training venv's python, see tools/teacher/bench_train.py)."""

    def setUp(self):
        if importlib.util.find_spec("torch") is None:
            self.skipTest("no PyTorch in this python")

    def assertSameWeights(self, a, b):
        """Two nets' layers (as load_weights() gives them) hold equal arrays."""
        self.assertEqual(len(a), len(b))
        for a_layer, b_layer in zip(a, b):
            self.assertEqual(len(a_layer), len(b_layer))
            for x, y in zip(a_layer, b_layer):
                self.assertTrue(bool((x == y).all()))

    def tiny_examples(self, d, tengen):
        """The examples of 12 games of 3 teacher positions each, in `d`."""
        games = []
        for g in range(12):
            moves = "pddpdd" if g % 2 else "dppdpp"
            games.append({"id": f"g{g}", "size": 19, "komi": 7.5, "moves": moves, "first": "B",
                          "pos": [[500, 0, 10, moves[k:k + 2] + "qq", [600, 300]]
                                  for k in range(0, 6, 2)]})
        examples = os.path.join(d, "ex.txt.gz")
        self.assertEqual(to_planes.main(["to_planes.py", "--tengen", tengen, examples,
                                         write_shard(d, games)]), 0)
        return examples

    def test_a_tiny_net_trains_and_saves(self):
        import train
        tengen = release_tengen(self)
        d = tempfile.mkdtemp()
        try:
            examples = self.tiny_examples(d, tengen)
            weights = os.path.join(d, "w.npz")
            self.assertEqual(train.main(["--channels", "4", "--layers", "2", "--epochs", "1",
                                         "--batch", "4", "--out", weights, examples]), 0)
            self.assertTrue(os.path.getsize(weights) > 0)
            # residual blocks: trained, then exported with their skip flags
            import export
            self.assertEqual(train.main(["--channels", "4", "--blocks", "1", "--epochs", "1",
                                         "--batch", "4", "--out", weights, examples]), 0)
            out = os.path.join(d, "net")
            self.assertEqual(export.main(["--check", "2", weights, examples, out]), 0)
            self.assertEqual(file_flags(os.path.join(out, "policy.net")), [(0, 0), (0, 0), (1, 0), (0, 0)])
            # global pooling: the second layer of the block and a head layer pooled
            self.assertEqual(train.main(["--channels", "4", "--blocks", "1", "--pooled",
                                         "--epochs", "1", "--batch", "4", "--out", weights,
                                         examples]), 0)
            self.assertEqual(export.main(["--check", "2", weights, examples, out]), 0)
            self.assertEqual(file_flags(os.path.join(out, "policy.net")),
                             [(0, 0), (0, 0), (1, 1), (0, 1), (0, 0)])
            # the bot's file reads back as the weights it was made from
            saved, _ = train.load_weights(weights)
            read, flags = train.load_weights(os.path.join(out, "policy.net"))
            self.assertEqual(flags, (False, False, True, False, False))
            self.assertEqual([len(layer) for layer in read], [2, 2, 3, 3, 2])
            self.assertSameWeights(saved, read)
            # kept in float16: read back as float32, the same to fp16's precision and flags
            import numpy as np
            small = os.path.join(d, "half.npz")
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(export.main(["--half", small, weights]), 0)
            halved, half_flags = train.load_weights(small)
            self.assertEqual(half_flags, train.load_weights(weights)[1])
            self.assertEqual([len(layer) for layer in halved], [2, 2, 3, 3, 2])
            for a_layer, b_layer in zip(saved, halved):
                for x, y in zip(a_layer, b_layer):
                    self.assertEqual(y.dtype, np.float32)
                    self.assertTrue(np.allclose(x, y, rtol=1e-3, atol=1e-4))
            self.assertFalse(any((x == y).all() and x.std() > 0 for a_layer, b_layer
                                 in zip(saved, halved) for x, y in zip(a_layer, b_layer)))
            with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
                export.main(["--half", small, weights, examples])
            # in 8 bits, each channel's largest weight at the top: within half
            # a step of each channel's scale, and the check logits are those
            # of the weights as the file holds them
            quantised = os.path.join(d, "int8")
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(export.main(["--bits", "8", "--max-scale", "--check", "2",
                                              weights, examples, quantised]), 0)
            with open(os.path.join(quantised, "policy.net"), "rb") as f:
                self.assertEqual(f.read(8), b"TGPOLNN5")
            read8, flags8 = train.load_weights(os.path.join(quantised, "policy.net"))
            self.assertEqual(flags8, flags)
            for a_layer, b_layer in zip(saved, read8):
                # the weights and the pooled matrix quantised, the biases not
                for x, y in [(a_layer[0], b_layer[0])] + list(zip(a_layer[2:], b_layer[2:])):
                    step = np.abs(x).reshape(-1, x.shape[-1]).max(axis=0) / 127
                    self.assertTrue((np.abs(x - y) <= step / 2 + 1e-7).all())
                    self.assertFalse((x == y).all())
                self.assertTrue((a_layer[1] == b_layer[1]).all())
            import net
            with open(os.path.join(quantised, "check.txt")) as f:
                hexes, logits = f.readline().split()
            planes = train.plane_count(hexes)
            bits = np.unpackbits(np.frombuffer(bytes.fromhex(hexes), np.uint8),
                                 bitorder="little")[:planes * 361]
            x = bits.reshape(planes, 19, 19).transpose(1, 2, 0)[None].astype(np.float32)
            want = net.numpy_logits(read8, x, flags8)[0]
            got = np.array([float(v) for v in logits.split(",")])
            self.assertTrue(np.allclose(got, want, atol=1e-4), np.abs(got - want).max())
            self.assertEqual(train.main(["--channels", "4", "--blocks", "1", "--epochs", "1",
                                         "--batch", "4", "--out", weights, examples]), 0)
            # training on from saved weights keeps their shape and flags
            again = os.path.join(d, "w2.npz")
            self.assertEqual(train.main(["--init", weights, "--epochs", "1", "--batch", "4",
                                         "--out", again, examples]), 0)
            params, skip = train.load_weights(again)
            self.assertEqual((len(params), skip), (4, (False, False, True, False)))
            # and widened on the way: every hidden layer 6 channels, the head still one logit
            self.assertEqual(train.main(["--init", weights, "--widen", "6", "--epochs", "1",
                                         "--batch", "4", "--out", again, examples]), 0)
            params, skip = train.load_weights(again)
            self.assertEqual([layer[0].shape[3] for layer in params], [6, 6, 6, 1])
            self.assertEqual(skip, (False, False, True, False))
            # and deepened: a second block that starts as the identity
            self.assertEqual(train.main(["--init", weights, "--deepen", "2", "--epochs", "1",
                                         "--batch", "4", "--out", again, examples]), 0)
            params, skip = train.load_weights(again)
            self.assertEqual(skip, (False, False, True, False, True, False))
            # distilled: the targets mixed with a net's policy over the sensible points
            import numpy as np
            x, t, _, _, count = train.load(examples, 0)
            params, skip = train.load_weights(again)
            self.assertTrue(np.array_equal(train.distil(x, t, count, params, skip, 0.0), t))
            alone = train.distil(x, t, count, params, skip, 1.0).astype(np.float32)
            sensible = train.planes(x, count)[:, train.SENSIBLE].reshape(len(x), -1) > 0
            self.assertTrue(np.allclose(alone.sum(1), 1, atol=1e-2))
            self.assertEqual(float(alone[~sensible].max()), 0.0)
            self.assertFalse(np.allclose(alone, t.astype(np.float32), atol=1e-3))
            half = train.distil(x, t, count, params, skip, 0.5).astype(np.float32)
            self.assertTrue(np.allclose(half, (alone + t) / 2, atol=2e-3))
            self.assertEqual(train.main(["--init", weights, "--distil", again, "--epochs", "1",
                                         "--batch", "4", "--out", os.path.join(d, "w3.npz"),
                                         examples]), 0)
            # --eval with --out writes the weights as read
            copy = os.path.join(d, "copy.npz")
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(train.main(["--eval", again, "--out", copy, examples]), 0)
            self.assertSameWeights(train.load_weights(again)[0], train.load_weights(copy)[0])
            self.assertIsNone(train.progress_of(copy))
            # --fit scores the training games beside the held-out ones
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(train.main(["--eval", again, "--fit", "5", examples]), 0)
            fit = re.search(r"training games: top-1 ([0-9.]+) %, top-5 ([0-9.]+) % of (\d+)",
                            out.getvalue())
            self.assertIsNotNone(fit, out.getvalue())
            self.assertTrue(0 < int(fit.group(3)) <= 5)
            self.assertLessEqual(float(fit.group(1)), float(fit.group(2)))
            # records: their positions join the training ones, whole games by id
            self.assertEqual([train.taken(f"g{g}", 1.0) for g in range(3)], [True] * 3)
            self.assertEqual([train.taken(f"g{g}", 0.0) for g in range(3)], [False] * 3)
            some = sum(train.taken(f"r{g}", 0.3) for g in range(1000))
            self.assertTrue(250 < some < 350, some)
            for share, want in (("1", 36), ("0.5", 3 * sum(train.taken(f"g{g}", 0.5)
                                                           for g in range(12)))):
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    self.assertEqual(train.main(["--init", weights, "--records", examples,
                                                 "--records-share", share, "--epochs", "1",
                                                 "--batch", "4", examples]), 0)
                added = re.search(r"(\d+) record positions added: (\d+) training positions",
                                  out.getvalue())
                self.assertEqual((int(added.group(1)), int(added.group(2))), (want, 30 + want),
                                 out.getvalue())
            # records that pick no game, or take other planes, stop the run with nothing written
            bad = os.path.join(d, "w5.npz")
            with contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(train.main(["--records", examples, "--records-share", "0",
                                             "--out", bad, examples]), 2)
            self.assertFalse(os.path.exists(bad))
            # a record of 20 planes, its move the corner (a sensible point: bit 11 * 361)
            packed = bytearray(903)
            packed[train.SENSIBLE * 361 // 8] |= 1 << (train.SENSIBLE * 361 % 8)
            wide = os.path.join(d, "wide.txt.gz")
            with gzip.open(wide, "wt") as f:
                f.write(f"{packed.hex()} aa 1000 0 r1\n")
            self.assertEqual(train.load(wide, 0)[4], 20)
            with contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(train.main(["--records", wide, "--out", bad, examples]), 2)
                self.assertEqual(train.main([os.path.join(d, "none.txt.gz")]), 2)
            self.assertFalse(os.path.exists(bad))
            # options that would be ignored are refused
            for wrong in (["--fit", "5"], ["--eval", again, "--distil", again],
                          ["--eval", again, "--records", examples],
                          ["--records", examples, "--records-share", "2"]):
                with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
                    train.main(wrong + [examples])
            # a net that takes other planes is refused, with nothing written
            other = os.path.join(d, "other.npz")
            train.save_weights(other, net_of(count + 1), (False, False))
            self.assertEqual(train.main(["--init", weights, "--distil", other, "--epochs", "1",
                                         "--out", os.path.join(d, "w4.npz"), examples]), 2)
            self.assertFalse(os.path.exists(os.path.join(d, "w4.npz")))
        finally:
            shutil.rmtree(d)

    def test_a_run_stopped_and_resumed_ends_as_in_one_go(self):
        import numpy as np

        import train
        tengen = release_tengen(self)
        d = tempfile.mkdtemp()
        try:
            examples = self.tiny_examples(d, tengen)
            def options(warmup="2"):
                return ["--channels", "4", "--blocks", "1", "--epochs", "2", "--batch", "4",
                        "--warmup", warmup, "--lr", "3e-3", "--seed", "5"]
            run = options()
            whole, piece = os.path.join(d, "whole.npz"), os.path.join(d, "piece.npz")
            quiet = contextlib.redirect_stdout(io.StringIO())
            with quiet:
                self.assertEqual(train.main(run + ["--out", whole, examples]), 0)
                # stopped within the first epoch, then resumed to the end
                self.assertEqual(train.main(run + ["--out", piece, "--stop-at", "3", examples]), 0)
            self.assertEqual(train.progress_of(piece)["done"], 3)
            self.assertGreater(train.progress_of(piece)["steps"], 3)
            self.assertTrue(os.path.exists(piece + ".opt"))
            # another run's options are refused, and the saved run is left as it was
            # as is a stop the resumed run is already past
            for other in (options(warmup="3"), run + ["--bf16"], run + ["--stop-at", "3"]):
                with contextlib.redirect_stderr(io.StringIO()):
                    self.assertEqual(train.main(other + ["--resume", piece, "--out", piece,
                                                         examples]), 2)
            self.assertEqual(train.progress_of(piece)["done"], 3)
            with quiet:
                self.assertEqual(train.main(run + ["--resume", piece, "--out", piece,
                                                   examples]), 0)
            self.assertIsNone(train.progress_of(piece))
            self.assertFalse(os.path.exists(piece + ".opt"))
            a, _ = train.load_weights(whole)
            b, _ = train.load_weights(piece)
            for la, lb in zip(a, b):
                for x, y in zip(la, lb):
                    self.assertTrue(np.allclose(x, y, atol=1e-6), np.abs(x - y).max())
            # compiled, the rest of the run goes where it went: --compile is no option of the
            # run, so the resume takes it (not bit for bit: Adam scales the float noise of fused
            # kernels up to its step on the weights whose gradients are near 0)
            def gap(params):
                return max(float(np.abs(x - y).max()) for la, lb in zip(a, params)
                           for x, y in zip(la, lb))
            with quiet:
                self.assertEqual(train.main(run + ["--out", piece, "--stop-at", "3", examples]), 0)
                start = gap(train.load_weights(piece)[0])
                self.assertEqual(train.main(run + ["--resume", piece, "--out", piece, "--compile",
                                                   examples]), 0)
            self.assertIsNone(train.progress_of(piece))
            self.assertLess(gap(train.load_weights(piece)[0]), start / 5)
            # a finished run is no run to resume
            with contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(train.main(run + ["--resume", whole, "--out", piece,
                                                   examples]), 2)
        finally:
            shutil.rmtree(d)

    def test_a_cycle_of_given_steps_ends_within_its_epoch(self):
        import train
        tengen = release_tengen(self)
        d = tempfile.mkdtemp()
        try:
            examples = self.tiny_examples(d, tengen)
            run = ["--channels", "4", "--blocks", "1", "--epochs", "2", "--batch", "4",
                   "--steps", "3", "--seed", "5"]
            piece = os.path.join(d, "piece.npz")
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(train.main(run + ["--out", piece, "--stop-at", "2", examples]), 0)
            self.assertEqual(train.progress_of(piece)["steps"], 3)
            # the step count is an option of the run: another one is refused
            with contextlib.redirect_stderr(io.StringIO()):
                for steps in (["--steps", "4"], []):
                    self.assertEqual(train.main(run[:-4] + steps + ["--seed", "5", "--resume",
                                                                    piece, "--out", piece,
                                                                    examples]), 2)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(train.main(run + ["--resume", piece, "--out", piece,
                                                   examples]), 0)
            self.assertIsNone(train.progress_of(piece))
            # one step after the resume, then the held-out score; no second epoch
            self.assertIn("epoch 1: loss", out.getvalue())
            self.assertNotIn("epoch 2", out.getvalue())
            with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
                train.main(["--steps", "-1", examples])
        finally:
            shutil.rmtree(d)

    def test_the_policy_averaged_over_symmetries_turns_with_the_board(self):
        import numpy as np
        import torch

        import kata_torch as kt
        import train
        v, logits, _ = random_policy_net(3, 2)

        def turned(x, s):
            return kt.turn(torch.from_numpy(x), s).numpy().copy()
        one = train.policy(logits, v, 1)
        self.assertTrue(np.allclose(one.sum(1), 1, atol=1e-5))
        every = train.policy(logits, v, 8)
        self.assertFalse(np.allclose(one, every, atol=1e-4))
        # averaged over all 8, the policy of a turned board is the turned policy
        for s in (1, 4, 7):
            want = turned(every.reshape(-1, 19, 19), s).reshape(-1, 361)
            self.assertTrue(np.allclose(train.policy(logits, turned(v, s), 8), want, atol=1e-5), s)

    def test_the_held_out_agreement_by_source(self):
        import train
        self.assertEqual(train.source("sgf/match-games/pachi-w8-game-0001.sgf"), "match-games")
        self.assertEqual(train.source("sgf/gnugo-games/g1-game-0001.sgf"), "gnugo-games")
        self.assertEqual(train.source("selfplay-000170"), "selfplay")
        tengen = release_tengen(self)
        d = tempfile.mkdtemp()
        try:
            # held-out games of three kinds (2, 1 and 3 of them, 3 positions each)
            # beside training games; in the match games the teacher's move is the
            # first one played, a sensible point in the first position only
            def ids(pattern, held, n):
                found = (pattern % k for k in range(10000))
                return [g for g in found if train.held_out(g) == held][:n]
            gids = (ids("sgf/match-games/m-game-%04d.sgf", True, 2)
                    + ids("sgf/gnugo-games/g-game-%04d.sgf", True, 1)
                    + ids("selfplay-%06d", True, 3) + ids("selfplay-%06d", False, 6))
            games = []
            for g, gid in enumerate(gids):
                moves = "pddpdd" if g % 2 else "dppdpp"
                first = "match" in gid
                games.append({"id": gid, "size": 19, "komi": 7.5, "moves": moves, "first": "B",
                              "pos": [[500, 0, 10, moves[0 if first else k:][:2] + "qq", [600, 300]]
                                      for k in range(0, 6, 2)]})
            examples = os.path.join(d, "ex.txt.gz")
            self.assertEqual(to_planes.main(["to_planes.py", "--tengen", tengen, examples,
                                             write_shard(d, games)]), 0)
            weights = os.path.join(d, "w.npz")
            self.assertEqual(train.main(["--channels", "4", "--layers", "2", "--epochs", "1",
                                         "--batch", "4", "--out", weights, examples]), 0)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(train.main(["--eval", weights, "--by-source", examples]), 0)
            line = r"held out(?:, ([a-z-]+))?: top-1 ([0-9.]+) %, top-5 [0-9.]+ % of (\d+)"
            rows = {m.group(1): (float(m.group(2)), int(m.group(3)))
                    for m in re.finditer(line, out.getvalue())}
            self.assertEqual(sorted(rows, key=str),
                             sorted([None, "gnugo-games", "match-games", "selfplay"], key=str),
                             out.getvalue())
            self.assertEqual([rows[k][1] for k in ("match-games", "gnugo-games", "selfplay")],
                             [2, 3, 9])
            # the kinds' hits add up to the whole's
            hits = sum(round(p * n / 100) for k, (p, n) in rows.items() if k)
            self.assertEqual(hits, round(rows[None][0] * 14 / 100))
            with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
                train.main(["--by-source", examples])
        finally:
            shutil.rmtree(d)

    def two_block_net(self, pooled):
        """numpy, net.py, a net of 2 residual blocks with weights in every
        layer, its skips, a batch of 3 and its logits."""
        import numpy as np

        import net
        params = net.init(5, 4, 0, first=3, blocks=2, pooled=pooled, seed=3)
        # the second layers of blocks start at zero: give them weights to carry
        params = [(layer[0] + np.float32(0.1), layer[1] + np.float32(0.05)) + layer[2:]
                  for layer in params]
        skip = net.skips(params, 2)
        x = np.random.default_rng(1).integers(0, 2, (3, 7, 7, 5)).astype(np.float32)
        return np, net, params, skip, x, net.numpy_logits(params, x, skip)

    def test_widening_keeps_the_logits(self):
        np, net, params, skip, x, before = self.two_block_net(pooled=True)
        for channels in (4, 5, 8):
            wide = net.widen(params, channels)
            self.assertEqual([layer[0].shape[3] for layer in wide], [channels] * 6 + [1])
            self.assertEqual([len(layer) for layer in wide], [len(layer) for layer in params])
            after = net.numpy_logits(wide, x, skip)
            # equal but for float rounding (the logits run to the hundreds)
            self.assertLess(float(np.abs(after - before).max()), 1e-5 * float(np.abs(before).max()))
        # noise makes the copies differ, and so the logits a little
        noisy = net.numpy_logits(net.widen(params, 8, noise=0.05), x, skip)
        self.assertGreater(float(np.abs(noisy - before).max()), 1e-3 * float(np.abs(before).max()))
        for channels in (3, 9):
            with self.assertRaises(ValueError):
                net.widen(params, channels)

    def test_deepening_keeps_the_logits(self):
        for pooled in (False, True):
            np, net, params, skip, x, before = self.two_block_net(pooled)
            for blocks in (2, 3, 4):
                deep, flags = net.deepen(params, skip, blocks)
                trunk = 1 + 2 * blocks
                self.assertEqual(len(deep), trunk + len(params) - 5)
                self.assertEqual(flags, net.skips(deep, blocks))
                self.assertEqual([len(layer) for layer in deep[trunk:]],
                                 [len(layer) for layer in params[5:]])
                after = net.numpy_logits(deep, x, flags)
                self.assertLess(float(np.abs(after - before).max()),
                                1e-5 * float(np.abs(before).max()))
                if blocks > 2:
                    # the new block's first layer is random: training can move its second
                    self.assertGreater(float(np.abs(deep[3][0]).max()), 0.0)
            for blocks in (1, 5):
                with self.assertRaises(ValueError):
                    net.deepen(params, skip, blocks)
        with self.assertRaises(ValueError):
            net.deepen(params[:1] + params[-1:], (False, False), 1)

    def test_the_policy_scored_in_bf16_is_float32_and_close(self):
        import numpy as np
        import torch

        import train
        v, logits, seen = random_policy_net(5, 3)
        want = train.policy(logits, v, 2)
        got = train.policy(logits, v, 2, bf16=True)
        self.assertEqual(seen, [torch.float32] * 2 + [torch.bfloat16] * 2)
        self.assertEqual(got.dtype, np.float32)
        self.assertTrue(np.allclose(got.sum(1), 1, atol=1e-5))
        self.assertTrue(np.allclose(got, want, atol=2e-3))
        self.assertFalse(np.array_equal(got, want))

    def test_a_bf16_step_computes_in_bfloat16_and_keeps_float32_weights(self):
        np, net, _, _, x, _ = self.two_block_net(pooled=True)
        import torch
        # freshly initialised: logits of a few units, where bfloat16 rounds little
        params = net.init(5, 4, 0, first=3, blocks=2, pooled=True, seed=3)
        skip = net.skips(params, 2)
        v = torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2)))
        t = torch.softmax(torch.from_numpy(
            np.random.default_rng(2).random((3, 49), dtype=np.float32)), 1)
        losses = {}
        for bf16 in (False, True):
            tparams = net.to_torch(params, grad=True)
            opt = torch.optim.SGD([p for layer in tparams for p in layer], lr=1e-4)
            seen = []

            def logits(b):
                out = net.logits(tparams, b, skip)
                seen.append(out.dtype)
                return out

            step = net.train_step(logits, opt, bf16=bf16)
            losses[bf16] = [step(v, t) for _ in range(3)]
            self.assertEqual(set(seen), {torch.bfloat16 if bf16 else torch.float32})
            self.assertEqual({p.dtype for layer in tparams for p in layer}, {torch.float32})
        # the same loss but for bfloat16's rounding, and it falls alike
        for a, b in zip(losses[False], losses[True]):
            self.assertLess(abs(a - b), 0.02 * abs(a))
        self.assertLess(losses[True][-1], losses[True][0])

    def test_the_warmup_raises_the_rate_then_the_cosine_lowers_it(self):
        import torch

        import net

        def rates(warmup):
            opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
            sched = net.schedule(opt, 20, warmup)
            out = []
            for _ in range(20):
                out.append(opt.param_groups[0]["lr"])
                opt.step()
                sched.step()
            return out

        plain, warm = rates(0), rates(5)
        self.assertAlmostEqual(plain[0], 0.1)
        self.assertAlmostEqual(warm[0], 0.02)
        self.assertEqual(warm[:6], sorted(warm[:6]))
        self.assertAlmostEqual(warm[5], 0.1)
        self.assertEqual(warm[5:], sorted(warm[5:], reverse=True))
        self.assertLess(warm[-1], 0.01)
        self.assertLess(plain[-1], 0.01)


if __name__ == "__main__":
    unittest.main()
