#!/usr/bin/env python3
"""Exports the weights train.py saved (.npz) as the bot's network file,
and the logits the trainer's own network computes for a few positions, so
that a Rust test can hold the bot's inference to them.

usage: tools/teacher/export.py [--check N] [--bits B [--max-scale]]
                               [--policy-only | --value-from NPZ]
                               WEIGHTS.npz EXAMPLES.txt.gz OUT_DIR
       tools/teacher/export.py --half OUT.npz WEIGHTS.npz

Writes OUT_DIR/policy.net (format: the doc of src/games/go/net.rs) and
OUT_DIR/check.txt: N positions of EXAMPLES (from to_planes.py), one a
line: the hex planes, then the 361 logits to 4 decimals, comma-separated.
With --bits B, policy.net holds the weights and pooled matrices
quantised to B bits with a scale an output channel (the one whose
rounding errs least in squares, or with --max-scale the one that maps
the largest weight to the top level), entropy-coded (coding.py); the
check logits are those of the weights as stored. Without it the weights
are float32.
With --half, writes the weights as float16 instead, compressed, to keep a
wide net in data/nets at half the size (train.py reads them as float32).

Weights with a value head (train.py --value-head; value.py) get a value
section after the policy's last layer, whose bytes stay as they were
(--policy-only leaves the section out). --value-from takes the head
from another file, e.g. the policy from the bot's own file (WEIGHTS may
be one)
and the head trained on its trunk with --freeze-trunk. Little-endian,
float32 whatever the policy's weights are:

    the 8 bytes TGVALUE1;
    6 u32: TAP, the policy layer whose output (after its ReLU) the head
      reads (0-based: the trunk's last layer, 24 in a 12-block net), C
      its channels, K (32) and F (64) the head's widths, E = 1 extra
      input, O = 2 outputs;
    the 1x1 convolution: C x K weights (input channel major), K biases;
      then a ReLU, and each of the K channels' mean over the board's
      points, then each one's max: 2K values, then 1.0 if White is to
      move, else 0.0 (the planes do not say; komi does): 2K + E inputs;
    a fully connected layer: (2K + E) x F weights (input major), F
      biases; then a ReLU;
    a fully connected layer: F x O weights (input major), O biases:
      output 0 the side to move's win logit (its winning chance is
      1 / (1 + exp(-logit))), output 1 its score lead in points.

The file ends there. With a value section, each check.txt line goes on
with the side to move (b or w: the extra input) and the two outputs to 4
decimals, comma-separated.
The bot's built-in network lives in src/games/go/net/. Needs numpy and
PyTorch (see tools/teacher/bench_train.py --help). Exit status 2 on bad
arguments, 1 when a file cannot be read or written.
"""
import argparse
import gzip
import os
import struct
import sys

from train import N, load_value, load_weights, plane_count, save_weights


def tensor(a, bits=None, fit=True):
    """One tensor's bytes in the weight file (coding.py), and the values a
    reader gets back from them: float32 as it is without `bits`, else
    quantised to `bits` with a scale a column (its last axis), coded."""
    import numpy as np

    import coding
    a = np.asarray(a, np.float32)
    if not bits:
        return coding.encode_plain(a), a
    q, scales = coding.quantise(a, bits, fit)
    return coding.encode_coded(q, scales), coding.dequantised(q, scales).reshape(a.shape)


def net_bytes(layers, skip, bits=None, fit=True):
    """The weight file (TGPOLNN5) of `layers` (weights HWIO, biases[,
    pooled matrix]) and their skip flags, and the layers as the bot reads
    them back. With `bits`, the weights and pooled matrices are quantised
    to that many bits with a scale an output channel and coded; the biases
    stay float32."""
    out = [b"TGPOLNN5", struct.pack("<I", len(layers))]
    read = []
    for layer, s in zip(layers, skip):
        w, b = layer[:2]
        k, k2, cin, cout = w.shape
        if k != k2 or b.shape != (cout,):
            raise ValueError(f"a layer of shape {w.shape} with biases {b.shape}")
        pooled = layer[2] if len(layer) > 2 else None
        if pooled is not None and pooled.shape != (2 * cin, cout):
            raise ValueError(f"a pooled matrix of shape {pooled.shape} in a {cin} -> {cout} layer")
        out.append(struct.pack("<IIIII", k, cin, cout, int(s), int(pooled is not None)))
        coded = [tensor(w, bits, fit), tensor(b)]
        if pooled is not None:
            coded.append(tensor(pooled, bits, fit))
        out += [blob for blob, _ in coded]
        read.append(tuple(values for _, values in coded))
    return b"".join(out), read


def value_outputs(layers, skip, trunk, head, xs, white):
    """The value head's outputs (win logit, score lead in points) for the
    NHWC batch `xs`, White to move where `white` says: the check values."""
    import numpy as np
    import torch

    import net
    import value
    with torch.no_grad():
        v = torch.from_numpy(np.ascontiguousarray(xs.transpose(0, 3, 1, 2)))
        h = net.run(net.to_torch(layers), v, skip, 0, trunk)
        out = value.forward(value.to_torch(head), h, torch.tensor(white, dtype=torch.float32))
    return out.numpy() * np.array([1.0, value.SCORE_SCALE], np.float32)


def half(weights, out):
    """Writes `weights` to `out` in float16, compressed (load_weights reads it)."""
    try:
        params, skip = load_weights(weights)
        save_weights(out, params, skip, half=True, head=load_value(weights))
    except (OSError, ValueError, KeyError) as e:
        print(f"export.py: {e}", file=sys.stderr)
        return 1
    print(f"{len(params)} layers in float16, {os.path.getsize(out)} bytes in {out}")
    return 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("weights")
    ap.add_argument("examples", nargs="?")
    ap.add_argument("out_dir", nargs="?")
    ap.add_argument("--check", type=int, default=4)
    ap.add_argument("--half", metavar="OUT", help="write the weights in float16 to OUT (.npz)")
    ap.add_argument("--bits", type=int, choices=range(2, 9), metavar="B",
                    help="quantise the weights and pooled matrices to B bits (2 to 8) and code them")
    ap.add_argument("--max-scale", action="store_true",
                    help="with --bits: each channel's largest weight sets its scale, "
                         "not the scale that errs least")
    ap.add_argument("--policy-only", action="store_true",
                    help="leave a value head out: the policy's file alone")
    ap.add_argument("--value-from", metavar="NPZ",
                    help="the value head of this file (train.py's), not of WEIGHTS")
    a = ap.parse_args(argv)
    if a.max_scale and not a.bits:
        ap.error("--max-scale goes with --bits")
    if a.half and a.examples:
        ap.error("--half takes the weights only")
    if a.policy_only and a.value_from:
        ap.error("--policy-only leaves out the head --value-from would take")
    if not a.half and not a.out_dir:
        ap.error("give the weights, the examples and the output folder")
    try:
        import numpy as np
        import torch  # noqa: F401 (net.numpy_logits)

        import net
        import value
    except ImportError as e:
        print(f"export.py: {e} (see tools/teacher/bench_train.py --help)", file=sys.stderr)
        return 2
    if a.half:
        return half(a.weights, a.half)
    try:
        params, skip = load_weights(a.weights)
        head = None if a.policy_only else load_value(a.value_from or a.weights)
        if a.value_from and head is None:
            raise ValueError(f"{a.value_from} has no value head")
        layers = [tuple(np.asarray(p) for p in layer) for layer in params]
        blob, layers = net_bytes(layers, skip, a.bits, not a.max_scale)
        # the check logits are those of the weights as stored: `layers` as read back
        lines, sides = [], []
        with gzip.open(a.examples, "rt", encoding="utf-8") as f:
            for k, line in enumerate(f):
                # spread over the file: opening, middle game, end
                if k % 997 == 0:
                    fields = line.split()
                    lines.append(fields[0])
                    # the side to move, where the examples have value labels
                    sides.append(fields[5] if len(fields) > 7 else "b")
                if len(lines) >= a.check:
                    break
        xs = []
        for hexes in lines:
            count = plane_count(hexes)
            bits = np.unpackbits(np.frombuffer(bytes.fromhex(hexes), np.uint8),
                                 bitorder="little")[:count * N * N]
            xs.append(bits.reshape(count, N, N).transpose(1, 2, 0))
        xs = np.stack(xs).astype(np.float32)
        logits = net.numpy_logits(layers, xs, skip)
        checks = [""] * len(lines)
        if head is not None:
            trunk = net.trunk_length(layers, skip)
            if head[0].shape[0] != layers[trunk - 1][0].shape[3]:
                raise ValueError(f"a value head that reads {head[0].shape[0]} channels, "
                                 f"a trunk of {layers[trunk - 1][0].shape[3]}")
            blob += value.section_bytes(head, trunk - 1)
            outs = value_outputs(layers, skip, trunk, head, xs, [s == "w" for s in sides])
            checks = [f" {s} {win:.4f},{lead:.4f}" for s, (win, lead) in zip(sides, outs)]
        os.makedirs(a.out_dir, exist_ok=True)
        with open(os.path.join(a.out_dir, "policy.net"), "wb") as f:
            f.write(blob)
        with open(os.path.join(a.out_dir, "check.txt"), "w") as f:
            for hexes, row, check in zip(lines, logits, checks):
                f.write(hexes + " " + ",".join(f"{v:.4f}" for v in row) + check + "\n")
    except (OSError, ValueError, KeyError) as e:
        print(f"export.py: {e}", file=sys.stderr)
        return 1
    print(f"{len(layers)} layers{' and a value head' * (head is not None)}, {len(blob)} bytes, {len(lines)} check positions in {a.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
