"""The value and score head that tools/teacher/train.py trains on the
teacher's win rates and score leads (--value-head), beside the policy
head, on the output of the policy network's trunk (net.trunk_length()):

    a 1x1 convolution to CONV channels, ReLU;
    each of those channels' mean and max over the board, and 1 if White
    is to move (0 if Black): the planes do not say who is, and komi does;
    a fully connected layer to FC, ReLU; one to 2 outputs:
    the side to move's win logit and its score lead / SCORE_SCALE.

Small on purpose: the bot runs it after every trunk evaluation. Kept as
numpy arrays (KEYS, in the .npz beside the policy's layers) and as the
section export.py appends to the bot's weight file (section_bytes(),
layout in export.py's doc). Needs PyTorch for all but the arrays."""
import struct

import numpy as np

CONV, FC = 32, 64
# the score is learnt in units of 20 points: a Huber loss of delta 1 on it
# is quadratic within 20 points of the teacher's lead, linear beyond
SCORE_SCALE = 20.0
KEYS = ("value_conv", "value_conv_b", "value_fc1", "value_fc1_b", "value_fc2", "value_fc2_b")
MAGIC = b"TGVALUE1"


def init(channels, seed=0, conv=CONV, fc=FC):
    """He-initialised head arrays for a trunk of `channels` channels, in
    KEYS' order: (channels, conv), (conv,), (2 conv + 1, fc), (fc,),
    (fc, 2), (2,)."""
    rng = np.random.default_rng(seed + 60)

    def normal(shape, scale):
        return (rng.standard_normal(shape) * scale).astype(np.float32)
    inputs = 2 * conv + 1
    return (normal((channels, conv), (2 / channels) ** 0.5), np.zeros(conv, np.float32),
            normal((inputs, fc), (2 / inputs) ** 0.5), np.zeros(fc, np.float32),
            normal((fc, 2), 0.01), np.zeros(2, np.float32))


def to_torch(head, grad=False):
    import torch
    return [torch.from_numpy(np.ascontiguousarray(p)).float().requires_grad_(grad) for p in head]


def from_torch(thead):
    return tuple(p.detach().cpu().numpy().astype(np.float32) for p in thead)


def forward(thead, h, white):
    """The head's 2 outputs (win logit, score / SCORE_SCALE) for the trunk
    output `h` (NCHW) and `white` (N: 1.0 where White is to move)."""
    import torch
    import torch.nn.functional as F
    conv, conv_b, fc1, fc1_b, fc2, fc2_b = thead
    g = F.relu(torch.einsum("nchw,ck->nkhw", h, conv) + conv_b[None, :, None, None])
    z = torch.cat([g.mean(dim=(2, 3)), g.amax(dim=(2, 3)), white[:, None].to(g.dtype)], dim=1)
    return F.relu(z @ fc1 + fc1_b) @ fc2 + fc2_b


def loss(out, win, lead, score_weight):
    """Binary cross-entropy of the win logit against the teacher's win rate
    (0..1), plus `score_weight` x the Huber loss of the score against the
    teacher's lead (points) / SCORE_SCALE; positions without labels (NaN:
    game records) left out."""
    import torch.nn.functional as F
    known = ~win.isnan()
    if not bool(known.any()):
        return out.sum() * 0
    out, win, lead = out[known].float(), win[known], lead[known]
    return F.binary_cross_entropy_with_logits(out[:, 0], win) + score_weight * F.huber_loss(
        out[:, 1], lead / SCORE_SCALE, delta=1.0)


class Errors:
    """The held-out value figures: mean absolute errors of the win
    probability against the teacher's win rate and of the score (points)
    against its lead, beside those of always answering the training
    positions' mean (`means`: win, lead), to show what the head learnt."""

    def __init__(self, means):
        self.means, self.n = means, 0
        self.win = self.lead = self.base_win = self.base_lead = 0.0

    def add(self, out, win, lead):
        """One batch: `out` the head's outputs, `win`, `lead` numpy labels."""
        import torch
        out = out.float()
        known = ~np.isnan(win)
        p = torch.sigmoid(out[:, 0]).numpy()[known]
        score = out[:, 1].numpy()[known] * SCORE_SCALE
        win, lead = win[known], lead[known]
        self.n += int(known.sum())
        self.win += float(np.abs(p - win).sum())
        self.lead += float(np.abs(score - lead).sum())
        self.base_win += float(np.abs(self.means[0] - win).sum())
        self.base_lead += float(np.abs(self.means[1] - lead).sum())

    def line(self):
        n = max(self.n, 1)
        return (f"value MAE {self.win / n:.4f} (the mean's {self.base_win / n:.4f}), "
                f"score MAE {self.lead / n:.2f} points (the mean's {self.base_lead / n:.2f}) "
                f"of {self.n}")


def section_bytes(head, tap):
    """The value section of the bot's weight file: MAGIC, the policy layer
    whose output it reads (`tap`), its sizes, then the arrays in float32;
    the score output multiplied by SCORE_SCALE, so the file gives points."""
    conv, conv_b, fc1, fc1_b, fc2, fc2_b = (np.asarray(p, np.float32) for p in head)
    channels, k = conv.shape
    inputs, fc = fc1.shape
    if conv_b.shape != (k,) or inputs != 2 * k + 1 or fc1_b.shape != (fc,) \
            or fc2.shape != (fc, 2) or fc2_b.shape != (2,):
        raise ValueError(f"a value head of shapes {[p.shape for p in head]}")
    scale = np.array([1.0, SCORE_SCALE], np.float32)
    out = [MAGIC, struct.pack("<6I", tap, channels, k, fc, 1, 2)]
    for p in (conv, conv_b, fc1, fc1_b, fc2 * scale, fc2_b * scale):
        out.append(p.astype("<f4").tobytes(order="C"))
    return b"".join(out)


def from_section(blob):
    """What section_bytes() took, from the section's bytes: (head, tap)."""
    if blob[:8] != MAGIC:
        raise ValueError("no value section (TGVALUE1)")
    if len(blob) < 32:
        raise ValueError("the value section ends early")
    tap, channels, k, fc, extra, outs = struct.unpack_from("<6I", blob, 8)
    if extra != 1 or outs != 2 or not 0 < k <= 1024 or not 0 < fc <= 1024 \
            or not 0 < channels <= 4096:
        raise ValueError(f"a value head of {channels} -> {k} -> {fc} channels, "
                         f"{extra} extra inputs, {outs} outputs")
    shapes = [(channels, k), (k,), (2 * k + 1, fc), (fc,), (fc, 2), (2,)]
    at, head = 32, []
    for shape in shapes:
        n = int(np.prod(shape))
        if at + 4 * n > len(blob):
            raise ValueError("the value section ends early")
        head.append(np.frombuffer(blob, "<f4", n, at).astype(np.float32).reshape(shape))
        at += 4 * n
    if at != len(blob):
        raise ValueError("bytes left after the value section")
    scale = np.array([1.0, SCORE_SCALE], np.float32)
    head[4], head[5] = head[4] / scale, head[5] / scale
    return tuple(head), tap


def arrays(head):
    """The head as .npz entries (KEYS)."""
    return dict(zip(KEYS, head))


def from_arrays(files):
    """The head kept in an .npz's entries (float32), or None if it has none."""
    if KEYS[0] not in files:
        return None
    return tuple(np.asarray(files[k]).astype(np.float32) for k in KEYS)


def model(tparams, skip, thead, frozen_end, trunk, policy, bf16=False, compiler=None):
    """The net with its value head as one function (planes NCHW, white to
    move) -> (the policy's logits over the sensible points, or None when
    not `policy`; the head's outputs). Layers before `frozen_end` run
    without gradients (through `compiler`, e.g. torch.compile, if given):
    a frozen trunk costs its forward pass alone. With `bf16` the policy's
    layers run under bfloat16 autocast, the head in float32."""
    import torch

    import net
    from train import SENSIBLE

    def frozen(v):
        with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            return net.run(tparams, v, skip, 0, frozen_end)
    first = compiler(frozen) if compiler else frozen

    def run(v, white):
        h = first(v) if frozen_end else v
        lg = None
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            h = net.run(tparams, h, skip, frozen_end, trunk)
            if policy:
                mask = v[:, SENSIBLE].reshape(v.shape[0], -1) > 0
                lg = net.head_logits(tparams, net.run(tparams, h, skip, trunk, len(tparams) - 1))
                lg = lg.masked_fill(~mask, -1e9)
        return lg, forward(thead, h.float(), white)
    return run


def train_step(run, opt, sched, score_weight):
    """A step function (planes, policy targets, white, win, lead) -> loss:
    loss() on the head's outputs of `run` (a model()), plus the policy's
    cross-entropy where `run` gives its logits."""
    import torch.nn.functional as F

    def step(v, t, white, win, lead):
        opt.zero_grad()
        lg, out = run(v, white)
        total = loss(out, win, lead, score_weight)
        if lg is not None:
            total = total - (t * F.log_softmax(lg.float(), 1)).sum(1).mean()
        total.backward()
        opt.step()
        if sched:
            sched.step()
        return total.item()
    return step
