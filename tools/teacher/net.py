"""The policy network that tools/teacher/train.py trains and
bench_train.py times: convolutions with ReLU (plain, or in residual
blocks), a 1x1 head to one logit a point. Needs JAX (see bench_train.py --help).

A layer is (weights, biases) or (weights, biases, pooled): with `pooled`
(2 * input channels x output channels) the layer adds to every point the
board's mean and max of each input channel times that matrix, so that a
net of 3x3 convolutions sees the whole board (KataGo's global pooling,
simplified)."""
import struct

import jax
import jax.numpy as jnp

DIMS = ("NHWC", "HWIO", "NHWC")


def conv(x, w, b):
    return jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=DIMS) + b


def init(key, inputs, channels, layers, first=3, blocks=0, pooled=False):
    """He-initialised weights: the first layer `first` x `first`, the rest
    3x3, then the head. With `blocks`, the layers after the first are that
    many residual blocks of two (`layers` is then ignored); the second
    layer of a block starts at zero, so each block starts as the identity.
    With `pooled`, the second layer of each block (every layer after the
    first, without blocks) takes the pooled bias, and the head gets a 1x1
    layer with it before the logits (a bias alone would shift every logit
    alike)."""
    params, cin = [], inputs
    count = 1 + 2 * blocks if blocks else layers
    for k in range(count):
        key, sub, sub2 = jax.random.split(key, 3)
        size = first if k == 0 else 3
        second = blocks and k > 0 and k % 2 == 0
        scale = 0.0 if second else (2 / (size * size * cin)) ** 0.5
        layer = (jax.random.normal(sub, (size, size, cin, channels)) * scale, jnp.zeros(channels))
        if pooled and k > 0 and (second or not blocks):
            layer += (jax.random.normal(sub2, (2 * cin, channels)) * 0.01,)
        params.append(layer)
        cin = channels
    if pooled:
        key, sub, sub2 = jax.random.split(key, 3)
        params.append((jax.random.normal(sub, (1, 1, cin, cin)) * (2 / cin) ** 0.5,
                       jnp.zeros(cin), jax.random.normal(sub2, (2 * cin, cin)) * 0.01))
    key, sub = jax.random.split(key)
    params.append((jax.random.normal(sub, (1, 1, cin, 1)) * 0.01, jnp.zeros(1)))
    return params


def skips(params, blocks):
    """For each layer of `params`, whether it adds the input of the layer
    before it (the block's input) ahead of its ReLU: the second layer of
    each residual block."""
    trunk = 1 + 2 * blocks
    return tuple(bool(blocks) and 0 < k < trunk and k % 2 == 0 for k in range(len(params)))


def pool(h):
    """Each channel's mean and max over the board: (batch, 2 * channels)."""
    return jnp.concatenate([jnp.mean(h, axis=(1, 2)), jnp.max(h, axis=(1, 2))], axis=-1)


def logits(params, x, skip=None):
    """One logit a point of the NHWC batch `x`, flattened row by row;
    `skip` as skips() gives it (none by default)."""
    h, ins = x, []
    for k, layer in enumerate(params[:-1]):
        ins.append(h)
        z = conv(h, layer[0], layer[1])
        if len(layer) > 2:
            z = z + (pool(h) @ layer[2])[:, None, None, :]
        if skip and skip[k]:
            z = z + ins[k - 1]
        h = jax.nn.relu(z)
    return conv(h, params[-1][0], params[-1][1]).reshape(x.shape[0], -1)


def train_step(logits_fn, opt):
    """One jitted Adam-style step of `opt` on the cross-entropy between the
    soft targets and the softmax of `logits_fn(params, x)`: train.py's, and
    the one bench_train.py times. Returns (params, opt state, loss)."""
    import optax

    def loss(ps, x, t):
        return -jnp.mean(jnp.sum(t * jax.nn.log_softmax(logits_fn(ps, x)), -1))

    @jax.jit
    def step(ps, st, x, t):
        value, grads = jax.value_and_grad(loss)(ps, x, t)
        updates, st = opt.update(grads, st, ps)
        return optax.apply_updates(ps, updates), st, value

    return step


def from_bytes(blob):
    """The layers and skip flags of a weight file in the bot's format (the
    doc of src/games/go/net.rs; export.py writes it), as numpy arrays: the
    bot's built-in network can be scored or trained on from its own file."""
    import numpy as np
    flags = {b"TGPOLNN1": 0, b"TGPOLNN2": 1, b"TGPOLNN3": 2}.get(blob[:8])
    if flags is None:
        raise ValueError("not a tengen policy network (no TGPOLNN3, 2 or 1 header)")
    at = 8

    def words(n, kind):
        nonlocal at
        if at + 4 * n > len(blob):
            raise ValueError("the file ends early")
        out = struct.unpack_from(f"<{n}{kind}", blob, at)
        at += 4 * n
        return out

    layers, skip = [], []
    for _ in range(words(1, "I")[0]):
        k, cin, cout = words(3, "I")
        marks = words(flags, "I") + (0, 0)
        w = np.array(words(k * k * cin * cout, "f"), np.float32).reshape(k, k, cin, cout)
        layer = (w, np.array(words(cout, "f"), np.float32))
        if marks[1]:
            layer += (np.array(words(2 * cin * cout, "f"), np.float32).reshape(2 * cin, cout),)
        layers.append(layer)
        skip.append(bool(marks[0]))
    if at != len(blob):
        raise ValueError("bytes left after the last layer")
    return layers, tuple(skip)
