#!/usr/bin/env python3
"""How fast a policy network trains on this CPU: random inputs, the real
shapes (19x19, INPUTS planes, the nets of train.py, 361 logits, soft
targets, Adam), timed after two warm-up steps.

usage: tools/teacher/bench_train.py [--channels 32] [--layers 6 | --blocks B] [--pooled]
                                    [--inputs 19] [--batch 256] [--steps 5] [--threads 1]
                                    [--bf16] [--compile]

Needs PyTorch and numpy in a venv of their own (about 5.4 GB: the
registry's torch wheel brings CUDA libraries, unused here, which it
loads at import; installed in about a minute):
python3 -m venv ~/.cache/tengen-train && ~/.cache/tengen-train/bin/pip install torch numpy
"""
import argparse
import sys
import time


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name, default in (("channels", 32), ("layers", 6), ("blocks", 0), ("inputs", 19),
                          ("batch", 256), ("steps", 5), ("threads", 1)):
        ap.add_argument("--" + name, type=int, default=default)
    ap.add_argument("--pooled", action="store_true")
    ap.add_argument("--bf16", action="store_true", help="the forward pass in bfloat16 (autocast)")
    ap.add_argument("--compile", action="store_true", help="the forward pass through torch.compile")
    a = ap.parse_args(argv)
    try:
        import numpy as np
        import torch

        import net
    except ImportError as e:
        print(f"bench_train.py: {e} (see --help for the install)", file=sys.stderr)
        return 2
    torch.set_num_threads(a.threads)
    params = net.init(a.inputs, a.channels, a.layers, first=5, blocks=a.blocks, pooled=a.pooled)
    skip = net.skips(params, a.blocks)
    tparams = net.to_torch(params, grad=True)
    opt = torch.optim.Adam([p for layer in tparams for p in layer], lr=1e-3)
    rng = np.random.default_rng(0)
    x = torch.from_numpy(rng.random((a.batch, a.inputs, 19, 19), dtype=np.float32))
    t = torch.softmax(torch.from_numpy(rng.random((a.batch, 361), dtype=np.float32)), 1)

    fn = lambda v: net.logits(tparams, v, skip)  # noqa: E731
    step = net.train_step(torch.compile(fn) if a.compile else fn, opt, bf16=a.bf16)
    for _ in range(2):
        step(x, t)
    t0 = time.time()
    for _ in range(a.steps):
        step(x, t)
    dt = (time.time() - t0) / a.steps
    shape = f"{a.blocks} blocks" if a.blocks else f"{a.layers} layers"
    print(f"torch {torch.__version__}, {a.threads} thread(s): {a.channels} channels x {shape}"
          f"{', pooled' if a.pooled else ''}{', bf16' if a.bf16 else ''}"
          f"{', compiled' if a.compile else ''}, {a.inputs} inputs, batch {a.batch}: "
          f"{dt * 1000:.0f} ms a step, {a.batch / dt:.0f} positions/s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
