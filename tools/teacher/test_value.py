#!/usr/bin/env python3
"""Self-test of the value head (value.py, train.py --value-head, export.py's
value section): tiny runs end to end. Skipped without PyTorch or a release
build of tengen: run it with the training venv's python.

usage: ~/.cache/tengen-train/bin/python tools/teacher/test_value.py
"""

import contextlib
import gzip
import importlib.util
import io
import os
import re
import shutil
import struct
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import to_planes  # noqa: E402
from test_label import release_tengen, write_shard  # noqa: E402
from test_train import file_flags  # noqa: E402

MAE = (r"value MAE ([0-9.]+) \(the mean's ([0-9.]+)\), score MAE ([0-9.]+) points "
       r"\(the mean's ([0-9.]+)\) of (\d+)")


def quiet(f, *args):
    """f(*args) with its stdout kept: (its result, what it printed)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        return f(*args), out.getvalue()


class ValueHeadTest(unittest.TestCase):
    def setUp(self):
        if importlib.util.find_spec("torch") is None:
            self.skipTest("no PyTorch in this python")
        self.tengen = release_tengen(self)
        self.d = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.d)

    def examples(self, games=24):
        """Teacher examples whose values only the side to move sets: Black
        wins 30 % and trails by 5 points (White 70 %, 5 ahead), as komi
        would have it; the planes do not say who is to move."""
        out = []
        for g in range(games):
            moves = "pddpdd" if g % 2 else "dppdpp"
            out.append({"id": f"g{g}", "size": 19, "komi": 7.5, "moves": moves, "first": "B",
                        "pos": [[300, -50, 10, moves[k:k + 2] + "qq", [600, 300]]
                                for k in range(0, 6, 2)]})
        path = os.path.join(self.d, "ex.txt.gz")
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(to_planes.main(["to_planes.py", "--tengen", self.tengen, path,
                                             write_shard(self.d, out)]), 0)
        return path

    def policy_net(self, examples):
        import train
        path = os.path.join(self.d, "p.npz")
        self.assertEqual(quiet(train.main, ["--channels", "4", "--blocks", "1", "--pooled",
                                            "--epochs", "1", "--batch", "4", "--out", path,
                                            examples])[0], 0)
        return path

    def test_the_examples_carry_the_side_to_moves_values(self):
        import numpy as np
        import torch

        import train
        import value
        labels = []
        train.load(self.examples(2), 0, values=labels)
        self.assertEqual(labels, [(0.0, 0.3, -5.0), (1.0, 0.7, 5.0), (0.0, 0.3, -5.0)] * 2)
        # a record's line (its move at the corner, a sensible point) has none: NaNs
        packed = bytearray(858)
        packed[train.SENSIBLE * 361 // 8] |= 1 << (train.SENSIBLE * 361 % 8)
        records = os.path.join(self.d, "rec.txt.gz")
        with gzip.open(records, "wt") as f:
            f.write(f"{packed.hex()} aa 1000 0 r1\n")
        labels = []
        train.load(records, 0, values=labels)
        self.assertTrue(np.isnan(labels).all() and len(labels) == 1)
        # and the loss leaves them out
        out = value.forward(value.to_torch(value.init(4)), torch.rand(3, 4, 19, 19),
                            torch.tensor([0.0, 1.0, 0.0]))
        self.assertEqual(tuple(out.shape), (3, 2))
        nan = float("nan")
        some = value.loss(out, torch.tensor([nan, 0.7, nan]), torch.tensor([nan, 5.0, nan]), 1.0)
        one = value.loss(out[1:2], torch.tensor([0.7]), torch.tensor([5.0]), 1.0)
        self.assertAlmostEqual(some.item(), one.item(), places=6)
        none = value.loss(out, torch.full((3,), nan), torch.full((3,), nan), 1.0)
        self.assertEqual(none.item(), 0.0)

    def test_a_head_on_a_frozen_trunk_learns_and_leaves_the_policy(self):
        import numpy as np

        import train
        examples = self.examples()
        policy = self.policy_net(examples)
        run = ["--init", policy, "--value-head", "--freeze-trunk", "--epochs", "12",
               "--batch", "4", "--lr", "1e-2"]
        heads = os.path.join(self.d, "v.npz")
        code, printed = quiet(train.main, run + ["--out", heads, examples])
        self.assertEqual(code, 0, printed)
        before, after = train.load_weights(policy), train.load_weights(heads)
        self.assertEqual(before[1], after[1])
        for a_layer, b_layer in zip(before[0], after[0]):
            for x, y in zip(a_layer, b_layer):
                self.assertTrue(bool((x == y).all()))
        head = train.load_value(heads)
        self.assertEqual([p.shape for p in head],
                         [(4, 32), (32,), (65, 64), (64,), (64, 2), (2,)])
        self.assertIsNone(train.load_value(policy))
        # the side to move is all there is to learn: far better than the mean
        code, printed = quiet(train.main, ["--eval", heads, examples])
        m = re.search(MAE, printed)
        self.assertIsNotNone(m, printed)
        win, base_win, lead, base_lead, n = (float(g) for g in m.groups())
        self.assertGreater(n, 0)
        self.assertLess(win, base_win / 3)
        self.assertLess(lead, base_lead / 3)
        self.assertIn("held out: value MAE", printed)
        # a resumed run ends where one in one go does
        piece = os.path.join(self.d, "piece.npz")
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(train.main(run + ["--out", piece, "--stop-at", "5", examples]), 0)
            self.assertEqual(train.main(run[2:] + ["--resume", piece, "--out", piece,
                                                             examples]), 0)
            for a_p, b_p in zip(head, train.load_value(piece)):
                self.assertTrue(np.allclose(a_p, b_p, atol=1e-5))
            # a policy run does not resume it
            self.assertEqual(train.main(["--epochs", "12", "--batch", "4", "--lr", "1e-2",
                                         "--stop-at", "2", "--out", piece, "--value-head",
                                         "--freeze-trunk", "--init", policy, examples]), 0)
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(train.main(["--epochs", "12", "--batch", "4", "--lr", "1e-2",
                                         "--resume", piece, "--out", piece, examples]), 2)

    def test_tuning_the_last_block_keeps_the_first_layers(self):
        import train
        examples = self.examples()
        policy = self.policy_net(examples)
        tuned = os.path.join(self.d, "t.npz")
        code, printed = quiet(train.main, ["--init", policy, "--value-head", "--tune-blocks", "1",
                                           "--trunk-lr", "1e-3", "--epochs", "1", "--batch", "4",
                                           "--out", tuned, examples])
        self.assertEqual(code, 0, printed)
        self.assertIn("held out: value MAE", printed)
        before, after = train.load_weights(policy)[0], train.load_weights(tuned)[0]
        self.assertTrue(all((x == y).all() for x, y in zip(before[0], after[0])))
        for k in range(1, len(before)):
            self.assertFalse(all((x == y).all() for x, y in zip(before[k], after[k])), k)
        # trained on without --value-head: the head, now stale, is left out
        again = os.path.join(self.d, "again.npz")
        code, printed = quiet(train.main, ["--init", tuned, "--epochs", "1", "--batch", "4",
                                           "--out", again, examples])
        self.assertEqual(code, 0)
        self.assertIn("value head read is left out", printed)
        self.assertIsNone(train.load_value(again))

    def test_wrong_value_options_are_refused(self):
        import train
        examples = self.examples(4)
        policy = self.policy_net(examples)
        for wrong in (["--freeze-trunk"], ["--tune-blocks", "1"], ["--trunk-lr", "1e-4"],
                      ["--value-head", "--freeze-trunk"],
                      ["--value-head", "--freeze-trunk", "--init", policy, "--tune-blocks", "1"],
                      ["--value-head", "--freeze-trunk", "--init", policy, "--records", examples]):
            with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
                train.main(wrong + [examples])
        # more blocks than the net has; examples without value labels
        bare = os.path.join(self.d, "bare.txt.gz")
        with gzip.open(examples, "rt") as f, gzip.open(bare, "wt") as g:
            for line in f:
                g.write(" ".join(line.split()[:5]) + "\n")
        for wrong, path in ((["--tune-blocks", "2"], examples), ([], bare)):
            with contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(train.main(["--init", policy, "--value-head", "--epochs", "1"]
                                            + wrong + [path]), 2)

    def test_the_value_section_follows_the_policy_unchanged(self):
        import numpy as np
        import torch

        import export
        import net
        import train
        import value
        examples = self.examples(4)
        policy = self.policy_net(examples)
        heads = os.path.join(self.d, "v.npz")
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(train.main(["--init", policy, "--value-head", "--freeze-trunk",
                                         "--epochs", "1", "--batch", "4", "--out", heads,
                                         examples]), 0)
        outs = {}
        for name, args in (("plain", [policy]), ("value", [heads]),
                           ("only", ["--policy-only", heads])):
            outs[name] = os.path.join(self.d, name)
            self.assertEqual(quiet(export.main, ["--check", "3"] + args
                                   + [examples, outs[name]])[0], 0)

        def blob(name):
            with open(os.path.join(outs[name], "policy.net"), "rb") as f:
                return f.read()
        self.assertEqual(blob("only"), blob("plain"))
        # the head of one file on the policy of another (here the bot's own file of it)
        outs["from"] = os.path.join(self.d, "from")
        self.assertEqual(quiet(export.main, ["--check", "3", "--value-from", heads,
                                             os.path.join(outs["plain"], "policy.net"),
                                             examples, outs["from"]])[0], 0)
        self.assertEqual(blob("from"), blob("value"))
        # coded too: the bot's coded file exported again is the same file, head added
        for name, args in (("coded", ["--policy-only", heads]),
                           ("again", ["--value-from", heads, os.path.join(self.d, "coded",
                                                                          "policy.net")])):
            outs[name] = os.path.join(self.d, name)
            args = ["--bits", "8", "--max-scale"] + args + [examples, outs[name]]
            self.assertEqual(quiet(export.main, args)[0], 0)
        self.assertEqual(blob("again")[:len(blob("coded"))], blob("coded"))
        self.assertEqual(blob("again")[len(blob("coded")):], blob("value")[len(blob("plain")):])
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(export.main(["--value-from", policy, heads, examples,
                                          outs["from"]]), 1)
            with self.assertRaises(SystemExit):
                export.main(["--policy-only", "--value-from", heads, heads, examples,
                             outs["from"]])
        at = []
        self.assertEqual(file_flags(os.path.join(outs["value"], "policy.net"), at),
                         [(0, 0), (0, 0), (1, 1), (0, 1), (0, 0)])
        whole = blob("value")
        self.assertEqual(whole[:at[0]], blob("plain"))
        section = whole[at[0]:]
        self.assertEqual(section[:8], b"TGVALUE1")
        # TAP, C, K, F, E, O: the trunk's last layer is the block's second
        self.assertEqual(struct.unpack_from("<6I", section, 8), (2, 4, 32, 64, 1, 2))
        self.assertEqual(len(section), 32 + 4 * (4 * 32 + 32 + 65 * 64 + 64 + 64 * 2 + 2))
        head = train.load_value(heads)
        read = train.load_value(os.path.join(outs["value"], "policy.net"))
        for x, y in zip(head, read):
            self.assertTrue(np.allclose(x, y, rtol=1e-6, atol=1e-7))
        self.assertEqual(len(train.load_weights(os.path.join(outs["value"], "policy.net"))[0]), 5)
        for bad in (section[:-4], section + bytes(4), b"TGVALUE2" + section[8:]):
            with self.assertRaises(ValueError):
                value.from_section(bad)
        # the check lines: the policy's as before, then the side and the two outputs,
        # which a plain numpy reading of the section's layout gives again
        with open(os.path.join(outs["plain"], "check.txt")) as f:
            plain = f.read().split("\n")
        with open(os.path.join(outs["value"], "check.txt")) as f:
            lines = f.read().split("\n")[:-1]
        # one a 997 lines: the first position alone here
        self.assertEqual(len(lines), 1)
        floats = np.frombuffer(section, "<f4", offset=32)
        sizes = [4 * 32, 32, 65 * 64, 64, 64 * 2, 2]
        conv, conv_b, fc1, fc1_b, fc2, fc2_b = np.split(floats, np.cumsum(sizes)[:-1])
        layers, skip = train.load_weights(policy)
        for k, line in enumerate(lines):
            hexes, logits, side, outputs = line.split()
            self.assertEqual(f"{hexes} {logits}", plain[k])
            count = train.plane_count(hexes)
            x = train.planes(np.frombuffer(bytes.fromhex(hexes), np.uint8)[None], count)
            with torch.no_grad():
                h = net.run(net.to_torch(layers), torch.from_numpy(x), skip, 0, 3)[0].numpy()
            g = np.maximum(np.einsum("chw,ck->khw", h, conv.reshape(4, 32))
                           + conv_b[:, None, None], 0)
            z = np.concatenate([g.mean(axis=(1, 2)), g.max(axis=(1, 2)), [float(side == "w")]])
            want = np.maximum(z @ fc1.reshape(65, 64) + fc1_b, 0) @ fc2.reshape(64, 2) + fc2_b
            got = np.array([float(v) for v in outputs.split(",")])
            self.assertTrue(np.allclose(got, want, atol=2e-4), (got, want))


if __name__ == "__main__":
    unittest.main()
