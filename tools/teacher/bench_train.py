#!/usr/bin/env python3
"""How fast a policy network trains on this CPU: random inputs, the real
shapes (19x19, INPUTS planes, LAYERS 3x3 convolutions of CHANNELS, a 1x1
head to 361 logits, soft targets, Adam), timed after one warm-up step.

usage: tools/teacher/bench_train.py [--channels 48] [--layers 6]
                                    [--inputs 12] [--batch 256] [--steps 10]

Needs JAX (CPU) and optax: python3 -m venv ~/.cache/tengen-train &&
~/.cache/tengen-train/bin/pip install jax optax (about 630 MB, no CUDA).
"""
import argparse
import sys
import time


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name, default in (("channels", 48), ("layers", 6), ("inputs", 12),
                          ("batch", 256), ("steps", 10)):
        ap.add_argument("--" + name, type=int, default=default)
    a = ap.parse_args(argv)
    try:
        import jax
        import jax.numpy as jnp
        import numpy as np
        import optax

        import net
    except ImportError as e:
        print(f"bench_train.py: {e} (see --help for the install)", file=sys.stderr)
        return 2
    params = net.init(jax.random.PRNGKey(0), a.inputs, a.channels, a.layers)

    opt = optax.adam(1e-3)
    state = opt.init(params)
    step = net.train_step(net.logits, opt)

    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.random((a.batch, 19, 19, a.inputs), dtype=np.float32))
    t = jax.nn.softmax(jnp.asarray(rng.random((a.batch, 361), dtype=np.float32)))
    params, state, value = step(params, state, x, t)
    value.block_until_ready()
    t0 = time.time()
    for _ in range(a.steps):
        params, state, value = step(params, state, x, t)
    value.block_until_ready()
    dt = (time.time() - t0) / a.steps
    print(f"jax {jax.__version__} on {jax.devices()[0].platform}: {a.channels} channels x "
          f"{a.layers} layers, {a.inputs} inputs, batch {a.batch}: {dt * 1000:.0f} ms a step, "
          f"{a.batch / dt:.0f} positions/s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
