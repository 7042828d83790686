"""The policy network that tools/teacher/train.py trains and
bench_train.py times: convolutions with ReLU (plain, or in residual
blocks), a 1x1 head to one logit a point. Needs PyTorch (see
bench_train.py --help).

Weights are kept as numpy arrays in the layout of the bot's file (HWIO
convolutions), and turned into torch tensors (OIHW) to run. A layer is
(weights, biases) or (weights, biases, pooled): with `pooled`
(2 * input channels x output channels) the layer adds to every point the
board's mean and max of each input channel times that matrix, so that a
net of 3x3 convolutions sees the whole board (KataGo's global pooling,
simplified)."""
import struct

import numpy as np

import coding


def normal(rng, shape, scale):
    """float32 weights of `shape` drawn from N(0, scale^2)."""
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def he(shape):
    """He's scale for an HWIO convolution: sqrt(2 / its fan-in)."""
    return (2 / (shape[0] * shape[1] * shape[2])) ** 0.5


def init(inputs, channels, layers, first=3, blocks=0, pooled=False, seed=0):
    """He-initialised weights: the first layer `first` x `first`, the rest
    3x3, then the head. With `blocks`, the layers after the first are that
    many residual blocks of two (`layers` is then ignored); the second
    layer of a block starts at zero, so each block starts as the identity.
    With `pooled`, the second layer of each block (every layer after the
    first, without blocks) takes the pooled bias, and the head gets a 1x1
    layer with it before the logits (a bias alone would shift every logit
    alike)."""
    rng = np.random.default_rng(seed)
    params, cin = [], inputs
    count = 1 + 2 * blocks if blocks else layers
    for k in range(count):
        size = first if k == 0 else 3
        second = blocks and k > 0 and k % 2 == 0
        shape = (size, size, cin, channels)
        layer = (normal(rng, shape, 0.0 if second else he(shape)), np.zeros(channels, np.float32))
        if pooled and k > 0 and (second or not blocks):
            layer += (normal(rng, (2 * cin, channels), 0.01),)
        params.append(layer)
        cin = channels
    if pooled:
        params.append((normal(rng, (1, 1, cin, cin), he((1, 1, cin, cin))),
                       np.zeros(cin, np.float32), normal(rng, (2 * cin, cin), 0.01)))
    params.append((normal(rng, (1, 1, cin, 1), 0.01), np.zeros(1, np.float32)))
    return params


def skips(params, blocks):
    """For each layer of `params`, whether it adds the input of the layer
    before it (the block's input) ahead of its ReLU: the second layer of
    each residual block."""
    trunk = 1 + 2 * blocks
    return tuple(bool(blocks) and 0 < k < trunk and k % 2 == 0 for k in range(len(params)))


def widen(params, channels, noise=0.0, seed=0):
    """The same network with `channels` channels in every hidden layer
    (at least as many as it has, at most twice): each new channel repeats
    an old one, and the layers that read a repeated channel share its
    weights between the copies, so the logits are unchanged (Net2Net).
    `noise` (relative to each layer's weight scale) breaks the symmetry
    between the copies so that training can tell them apart."""
    old = params[0][0].shape[3]
    if not old <= channels <= 2 * old:
        raise ValueError(f"cannot widen {old} channels to {channels}")
    rng = np.random.default_rng(seed)
    source = np.concatenate([np.arange(old), np.arange(channels - old)])
    share = np.ones(old, np.float32)
    share[:channels - old] = 0.5
    spread = share[source]
    out = []
    for k, layer in enumerate(params):
        w, b = layer[:2]
        cin = w.shape[2]
        last = k == len(params) - 1
        if k > 0:
            # a repeated input channel: its weight split between its copies
            w = w[:, :, source, :] * spread[None, None, :, None]
        if not last:
            w, b = w[..., source], b[source]
        new = (w.astype(np.float32), b.astype(np.float32))
        if len(layer) > 2:
            p = layer[2]
            p = np.concatenate([p[:cin][source], p[cin:][source]]) * np.tile(spread, 2)[:, None]
            new += ((p if last else p[:, source]).astype(np.float32),)
        if noise and not last:
            scale = float(np.std(new[0])) or 1.0
            new = (new[0] + rng.standard_normal(new[0].shape).astype(np.float32) * noise * scale,) \
                + new[1:]
        out.append(new)
    return out


def deepen(params, skip, blocks, seed=0):
    """The same residual network with `blocks` residual blocks in all (at
    least as many as it has, at most twice): a new block follows each of
    the first old ones. A new block's second layer (and its pooled matrix,
    in a pooled net) starts at zero, so the block passes its input through
    the ReLU unchanged, and the logits are those of `params`; its first
    layer is He-initialised so that training can use it. Returns the
    layers and their skip flags."""
    old = sum(skip)
    if not old or not old <= blocks <= 2 * old:
        raise ValueError(f"cannot deepen {old} residual blocks to {blocks}")
    rng = np.random.default_rng(seed)
    out, flags = [params[0]], [skip[0]]
    for k in range(old):
        out += params[1 + 2 * k:3 + 2 * k]
        flags += [False, True]
        if k < blocks - old:
            first, second = params[1 + 2 * k], params[2 + 2 * k]
            shape = first[0].shape
            w = normal(rng, shape, he(shape))
            out.append((w, np.zeros(shape[3], np.float32)) + tuple(np.zeros_like(p) for p in first[2:]))
            out.append(tuple(np.zeros_like(p) for p in second))
            flags += [False, True]
    trunk = 1 + 2 * old
    return out + list(params[trunk:]), tuple(flags) + tuple(skip[trunk:])


def to_torch(params, grad=False):
    """numpy layers (HWIO) -> torch layers (OIHW weights, biases, pooled),
    leaf tensors with gradients when `grad`."""
    import torch
    out = []
    for layer in params:
        t = [torch.from_numpy(np.ascontiguousarray(layer[0].transpose(3, 2, 0, 1)))]
        t += [torch.from_numpy(np.ascontiguousarray(p)) for p in layer[1:]]
        out.append(tuple(p.float().requires_grad_(grad) for p in t))
    return out


def from_torch(tparams):
    """What to_torch() took: numpy layers (HWIO)."""
    out = []
    for layer in tparams:
        ps = [p.detach().cpu().numpy() for p in layer]
        out.append((np.ascontiguousarray(ps[0].transpose(2, 3, 1, 0)),) + tuple(ps[1:]))
    return out


def pool(h):
    """Each channel's mean and max over the board: (batch, 2 * channels)."""
    import torch
    return torch.cat([h.mean(dim=(2, 3)), h.amax(dim=(2, 3))], dim=1)


def run(tparams, h, skip=None, start=0, stop=None):
    """Layers `start` to `stop` (not included) of `tparams`, each with its
    ReLU, on the NCHW batch `h`: a part of the net that begins at a
    block's first layer (a skip reaches back one layer only)."""
    import torch.nn.functional as F
    before = None  # the input of the layer before: the block's input
    for k in range(start, len(tparams) if stop is None else stop):
        layer = tparams[k]
        w = layer[0]
        z = F.conv2d(h, w, layer[1], padding=w.shape[2] // 2)
        if len(layer) > 2:
            z = z + (pool(h) @ layer[2])[:, :, None, None]
        if skip and skip[k]:
            z = z + before
        before, h = h, F.relu(z)
    return h


def trunk_length(params, skip):
    """The layers before the policy head: the first layer and the residual
    blocks, or every layer but the head's (one 1x1 layer to the logits,
    after a pooled 1x1 layer in a pooled net). The value head reads the
    output of the last of them."""
    if any(skip):
        return 1 + 2 * sum(skip)
    pooled_head = len(params) > 2 and len(params[-2]) > 2 and params[-2][0].shape[0] == 1
    return len(params) - 1 - pooled_head


def logits(tparams, x, skip=None):
    """One logit a point of the NCHW batch `x` (a torch tensor), flattened
    row by row; `tparams` from to_torch(), `skip` as skips() gives it
    (none by default)."""
    return head_logits(tparams, run(tparams, x, skip, 0, len(tparams) - 1))


def head_logits(tparams, h):
    """The last layer's logits, flattened, of what the layers before it gave."""
    import torch.nn.functional as F
    return F.conv2d(h, tparams[-1][0], tparams[-1][1]).flatten(1)


def schedule(opt, steps, warmup=0):
    """The learning rate over `steps` steps: linear from nearly 0 to the
    optimiser's rate over the first `warmup` steps, then a cosine down to 0."""
    import torch

    cosine = torch.optim.lr_scheduler.CosineAnnealingLR(opt, max(steps - warmup, 1))
    if warmup <= 0:
        return cosine
    ramp = torch.optim.lr_scheduler.LinearLR(opt, start_factor=1 / warmup, total_iters=warmup)
    return torch.optim.lr_scheduler.SequentialLR(opt, [ramp, cosine], milestones=[warmup])


def train_step(logits_fn, opt, sched=None, bf16=False):
    """A step function (x, t) -> loss (a float): `opt` (then `sched`)
    steps on the cross-entropy between the soft targets `t` and the
    softmax of `logits_fn(x)`. train.py's step, and the one
    bench_train.py times. With `bf16` the forward pass runs under
    bfloat16 autocast (the weights and the loss stay float32): CPUs with
    AMX or AVX-512 BF16 run the convolutions several times faster."""
    import torch
    import torch.nn.functional as F

    def step(x, t):
        opt.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            lg = logits_fn(x)
        loss = -(t * F.log_softmax(lg.float(), 1)).sum(1).mean()
        loss.backward()
        opt.step()
        if sched:
            sched.step()
        return loss.item()

    return step


def numpy_logits(params, x, skip=None):
    """logits() for numpy layers and an NHWC numpy batch: numpy out."""
    import torch
    with torch.no_grad():
        v = torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2), dtype=np.float32))
        return logits(to_torch(params), v, skip).numpy()


def from_bytes(blob):
    """The layers and skip flags of a weight file in the bot's format (the
    doc of src/games/go/net.rs; export.py writes it), as numpy arrays: the
    bot's built-in network can be scored or trained on from its own file.
    A value section after the layers (export.py) is left to value_section()."""
    layers, skip, at = parse(blob)
    return layers, skip


def value_section(blob):
    """The bytes of a weight file after its policy layers: its value
    section (value.from_section() reads it), or b"" if it has none."""
    return blob[parse(blob)[2]:]


def parse(blob):
    """from_bytes()'s layers and flags, and where the value section begins."""
    if blob[:8] != b"TGPOLNN5":
        raise ValueError("not a tengen policy network: expected a TGPOLNN5 weight file "
                         "(as export.py writes them)")
    at = 8

    def words(n):
        nonlocal at
        if at + 4 * n > len(blob):
            raise ValueError("the file ends early")
        out = struct.unpack_from(f"<{n}I", blob, at)
        at += 4 * n
        return out

    layers, skip = [], []
    for _ in range(words(1)[0]):
        k, cin, cout, skips, pooled = words(5)
        # each tensor tagged, plain or coded (coding.py)
        layer = ()
        for size, shape in [(k * k * cin * cout, (k, k, cin, cout)), (cout, (cout,))] + \
                ([(2 * cin * cout, (2 * cin, cout))] if pooled else []):
            values, at = coding.decode(blob, at, size)
            layer += (values.reshape(shape),)
        layers.append(layer)
        skip.append(bool(skips))
    if at != len(blob) and blob[at:at + 8] != b"TGVALUE1":
        raise ValueError("bytes left after the last layer")
    return layers, tuple(skip), at
