#!/usr/bin/env python3
"""Self-test of coding.py, the tensors of the bot's weight file: coded
tensors read back as their quantised values, a bad one is refused, the
fitted scale errs no more than the largest weight's; the bot's test
networks read with their flags, another header is refused. Needs numpy (the
training venv's python: see tools/teacher/bench_train.py)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import coding  # noqa: E402
import net  # noqa: E402
import numpy as np  # noqa: E402

NETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../src/games/go/net")


def weights(seed, shape):
    """Normal weights whose channels differ in spread, with a few outliers."""
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(shape) * rng.uniform(0.01, 0.1, shape[-1])
    w.reshape(-1)[rng.integers(0, w.size, 5)] *= 8
    return w.astype(np.float32)


class CodingTest(unittest.TestCase):
    def test_a_coded_tensor_reads_back_as_its_quantised_values(self):
        w = weights(1, (3, 3, 64, 8))
        for bits in (8, 6, 4):
            q, scales = coding.quantise(w, bits)
            self.assertLessEqual(int(np.abs(q).max()), (1 << (bits - 1)) - 1)
            blob = coding.encode_coded(q, scales)
            self.assertEqual(len(blob) % 4, 0)
            values, at = coding.decode(blob + b"rest", 0, w.size)
            self.assertEqual(at, len(blob))
            want = coding.dequantised(q.reshape(-1, 8), scales).reshape(-1)
            self.assertTrue((values == want).all())
            # within 1 % of the integers' entropy, beside the tables
            _, counts = np.unique(q, return_counts=True)
            p = counts / w.size
            entropy = -(p * np.log2(p)).sum() * w.size / 8
            tables = 4 * 8 + 2 * (2 * int(np.abs(q).max()) + 1) + 20
            self.assertLess(len(blob), 1.01 * entropy + tables)

    def test_a_plain_tensor_reads_back_as_itself(self):
        w = weights(2, (5, 3))
        values, at = coding.decode(coding.encode_plain(w), 0, w.size)
        self.assertTrue((values == w.reshape(-1)).all())
        self.assertEqual(at, 4 + 4 * w.size)

    def test_the_fitted_scale_errs_no_more_than_the_largest_weights(self):
        w = weights(3, (3, 3, 32, 16))
        for bits in (7, 5):
            err = {}
            for fit in (False, True):
                q, scales = coding.quantise(w, bits, fit)
                err[fit] = ((coding.dequantised(q.reshape(-1, 16), scales).reshape(w.shape)
                             - w) ** 2).sum(axis=(0, 1, 2))
            self.assertTrue((err[True] <= err[False] * (1 + 1e-6)).all())
            self.assertLess(err[True].sum(), err[False].sum())

    def test_a_bad_coded_tensor_is_refused(self):
        w = weights(4, (64, 4))
        blob = bytearray(coding.encode_coded(*coding.quantise(w, 6)))
        with self.assertRaisesRegex(ValueError, "end"):
            coding.decode(bytes(blob[:-8]), 0, w.size)
        with self.assertRaisesRegex(ValueError, "count|end early"):
            coding.decode(bytes(blob), 0, w.size + 4)
        with self.assertRaisesRegex(ValueError, "scales"):
            coding.decode(bytes(blob), 0, w.size - 1)
        blob[0] = 9
        with self.assertRaisesRegex(ValueError, "unknown kind 9"):
            coding.decode(bytes(blob), 0, w.size)


class WeightFileTest(unittest.TestCase):
    def test_the_bots_test_networks_read_with_their_flags(self):
        with open(os.path.join(NETS, "tiny-pooled/policy.net"), "rb") as f:
            layers, skip = net.from_bytes(f.read())
        self.assertEqual(skip, (False, False, True, False, True, False, False))
        self.assertEqual([len(layer) > 2 for layer in layers],
                         [False, False, True, False, True, True, False])
        self.assertEqual(layers[0][0].shape[:2], (5, 5))

    def test_another_header_is_refused_saying_what_is_expected(self):
        with open(os.path.join(NETS, "tiny-residual/policy.net"), "rb") as f:
            blob = f.read()
        self.assertEqual(len(net.from_bytes(blob)[0]), 4)
        for bad in (b"TGPOLNN3" + blob[8:], b"TGPOL"):
            with self.assertRaisesRegex(ValueError, "expected a TGPOLNN5 weight file"):
                net.from_bytes(bad)


if __name__ == "__main__":
    unittest.main()
