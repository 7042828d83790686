"""tools/teacher/kata_torch.py: KataGo's network (a .bin.gz model) evaluated in PyTorch.

The teacher's raw policy and value without the KataGo binary, so that they can be
computed in bf16 (AMX) and in batches. The model format, the layer maths and the
post-processing follow KataGo (https://github.com/lightvector/KataGo, MIT licence,
v1.17.2): cpp/neuralnet/desc.cpp (the .bin format: text header tokens, "@BIN@" + little-
endian float32 arrays), cpp/neuralnet/modelversion.cpp, cpp/neuralnet/eigenbackend.cpp
(the forward pass: nested bottleneck blocks, transformer attention with learnable 2-D
RoPE, SwiGLU feed-forward, RMS norms, global pooling, policy/value heads) and
cpp/neuralnet/nneval.cpp + cpp/search/searchresults.cpp (policy softmax over legal
moves, root policy optimism 0.2, the pass cap of the passing hacks, the win/loss
softmax). Written from reading that code, not copied. The input features are in
kata_game.py (on kata_board.py).

    python tools/teacher/kata_validate.py --validate 200   # compare with KataGo itself

Usage from Python:

    from kata_torch import load_model, evaluate
    net = load_model("~/.cache/tengen-teacher/model.bin.gz")
    res = evaluate(net, [[72, 288], [72]], bf16=True)   # move lists from the empty board
    res["policy"]   # (N, 362) float32, illegal moves -1 as KataGo's analysis engine
    res["winrate"]  # (N,) black win probability ("rawWinrate"), res["lead"] black lead
"""

import gzip
import math
import os
import re
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kata_board as kb  # noqa: E402
import kata_game as kg  # noqa: E402

SIZE, S = 19, 361
ROOT_POLICY_OPTIMISM = 0.2   # analysis engine: rootPolicyOptimism = min(policyOptimism 1, 0.2)
PASS_CAP = 19.0              # enablePassingHacks: pass prior <= 19 x the other moves


class ModelError(Exception):
    pass


# --- reading the file -----------------------------------------------------------------

class Reader:
    """Tokens and float blocks of a KataGo .bin model (whitespace-separated text tokens;
    each float array is "@BIN@" followed by the little-endian float32 values)."""

    def __init__(self, data):
        self.d = data
        self.p = 0
        self.names = set()

    def tok(self):
        d, p = self.d, self.p
        while p < len(d) and d[p] in b" \t\r\n":
            p += 1
        q = p
        while q < len(d) and d[q] not in b" \t\r\n@":
            q += 1
        if q == p:
            raise ModelError("expected a token at byte %d" % p)
        self.p = q
        t = d[p:q]
        if not all(32 < ch < 127 for ch in t):
            raise ModelError("binary junk where a token was expected at byte %d" % p)
        return t.decode()

    def int(self, what):
        t = self.tok()
        if not re.fullmatch(r"-?\d+", t):
            raise ModelError("%s: expected an integer, got %r" % (what, t))
        return int(t)

    def float(self, what):
        t = self.tok()
        if not re.fullmatch(r"[-+0-9.eE]+", t):
            raise ModelError("%s: expected a number, got %r" % (what, t))
        return float(t)

    def name(self, prefix=None):
        t = self.tok()
        if prefix is not None and not t.startswith(prefix):
            raise ModelError("layer %r: expected a name starting with %r" % (t, prefix))
        if t in self.names:
            raise ModelError("duplicate layer name %r" % t)
        self.names.add(t)
        return t

    def floats(self, n, name):
        i = self.d.find(b"@", self.p)
        if i < 0 or i - self.p > 100 or self.d[self.p:i].strip():
            raise ModelError("%s: no @BIN@ float block" % name)
        if self.d[i:i + 5] != b"@BIN@":
            raise ModelError("%s: bad float block header" % name)
        start = i + 5
        if start + 4 * n > len(self.d):
            raise ModelError("%s: file ends inside its %d floats" % (name, n))
        a = np.frombuffer(self.d, dtype="<f4", count=n, offset=start).astype(np.float32)
        if not np.all(np.isfinite(a)):
            raise ModelError("%s: non-finite weights" % name)
        self.p = start + 4 * n
        return torch.from_numpy(a.copy())


ACTS = {"ACTIVATION_IDENTITY": "id", "ACTIVATION_RELU": "relu",
        "ACTIVATION_MISH": "mish", "ACTIVATION_SILU": "silu"}


def act(x, kind):
    return {"silu": F.silu, "relu": F.relu, "mish": F.mish}.get(kind, lambda y: y)(x)


class Layers(torch.nn.Module):
    """Holds every weight tensor of the file as a buffer named after its layer."""

    def __init__(self):
        super().__init__()
        self.shapes = {}

    def add(self, name, t):
        key = name.replace(".", "__")
        self.register_buffer(key, t)
        self.shapes[name] = tuple(t.shape)
        return key


def read_conv(r, L, prefix, ic=None, oc=None):
    n = r.name(prefix)
    ky, kx, cin, cout, dy, dx = (r.int(n) for _ in range(6))
    if min(ky, kx, cin, cout, dy, dx) <= 0 or ky % 2 == 0 or kx % 2 == 0:
        raise ModelError("%s: bad conv sizes" % n)
    if (ic is not None and cin != ic) or (oc is not None and cout != oc):
        raise ModelError("%s: conv %dx%d channels %d->%d, expected %s->%s" % (n, ky, kx, cin, cout, ic, oc))
    w = r.floats(ky * kx * cin * cout, n).view(ky, kx, cin, cout).permute(3, 2, 0, 1).contiguous()
    return {"kind": "conv", "w": L.add(n, w), "dil": (dy, dx), "pad": (dy * (ky // 2), dx * (kx // 2)),
            "k": (ky, kx), "ic": cin, "oc": cout}


def read_bn(r, L, prefix, c):
    n = r.name(prefix)
    ch = r.int(n)
    eps = r.float(n)
    has_scale, has_bias = r.int(n), r.int(n)
    if ch != c or not eps > 0 or has_scale not in (0, 1) or has_bias not in (0, 1):
        raise ModelError("%s: batch norm of %d channels (eps %g), expected %d" % (n, ch, eps, c))
    mean, var = r.floats(ch, n), r.floats(ch, n)
    scale = r.floats(ch, n) if has_scale else torch.ones(ch)
    bias = r.floats(ch, n) if has_bias else torch.zeros(ch)
    ms = scale / torch.sqrt(var + eps)
    return {"kind": "bn", "scale": L.add(n + ".scale", ms), "bias": L.add(n + ".bias", bias - ms * mean)}


def read_act(r, prefix):
    n = r.name(prefix)
    k = r.tok()
    if k not in ACTS:
        raise ModelError("%s: unknown activation %r" % (n, k))
    return ACTS[k]


def read_mat(r, L, prefix, ic=None, oc=None):
    n = r.name(prefix)
    cin, cout = r.int(n), r.int(n)
    if (ic is not None and cin != ic) or (oc is not None and cout != oc) or min(cin, cout) <= 0:
        raise ModelError("%s: matmul %d->%d, expected %s->%s" % (n, cin, cout, ic, oc))
    return {"w": L.add(n, r.floats(cin * cout, n).view(cin, cout)), "ic": cin, "oc": cout}


def read_bias(r, L, prefix, c):
    n = r.name(prefix)
    ch = r.int(n)
    if ch != c:
        raise ModelError("%s: bias of %d channels, expected %d" % (n, ch, c))
    return L.add(n, r.floats(ch, n))


def read_tnorm(r, L, prefix, c):
    n = r.name(prefix)
    ch, eps = r.int(n), r.float(n)
    if ch != c or not 0 < eps <= 1:
        raise ModelError("%s: rms norm of %d channels, expected %d" % (n, ch, c))
    return {"w": L.add(n, r.floats(ch, n)), "eps": eps}


def read_blocks(r, L, n, c, prefix, version):
    blocks = []
    for _ in range(n):
        kind = r.tok()
        name = r.name(prefix)
        p = name + "."
        b = {"kind": kind, "name": name}
        if kind in ("ordinary_block", "gpool_block", "nested_bottleneck_block"):
            k = r.int(name) if kind == "nested_bottleneck_block" else 0
            if kind == "nested_bottleneck_block" and k < 1:
                raise ModelError("%s: %d inner blocks" % (name, k))
            b["bn1"], b["act1"] = read_bn(r, L, p, c), read_act(r, p)
            b["conv1"] = read_conv(r, L, p, ic=c)
            m = b["conv1"]["oc"]
            if kind == "gpool_block":
                b["convg"] = read_conv(r, L, p, ic=c)
                g = b["convg"]["oc"]
                b["bng"], b["actg"] = read_bn(r, L, p, g), read_act(r, p)
                b["gmul"] = read_mat(r, L, p, ic=3 * g, oc=m)
            if k:
                b["blocks"] = read_blocks(r, L, k, m, p, version)
            b["bn2"], b["act2"] = read_bn(r, L, p, m), read_act(r, p)
            b["conv2"] = read_conv(r, L, p, ic=m, oc=c)
        elif kind == "transformer_attention_block":
            h, hkv, dq, dv, rope, learn = (r.int(name) for _ in range(6))
            if min(h, hkv, dq, dv) < 1 or h % hkv or (rope and dq % 2) or rope not in (0, 1) or learn not in (0, 1):
                raise ModelError("%s: bad attention header" % name)
            b.update(heads=h, kv=hkv, dq=dq, dv=dv)
            b["norm"] = read_tnorm(r, L, p, c)
            b["q"] = read_mat(r, L, p, ic=c, oc=h * dq)
            b["k"] = read_mat(r, L, p, ic=c, oc=hkv * dq)
            b["v"] = read_mat(r, L, p, ic=c, oc=hkv * dv)
            b["o"] = read_mat(r, L, p, ic=h * dv, oc=c)
            b["rope"] = None
            if rope:
                if not learn:
                    raise ModelError("%s: fixed-theta RoPE is not supported" % name)
                n2 = r.name(p)
                shape = (r.int(n2), r.int(n2), r.int(n2))
                if shape != (hkv, dq // 2, 2):
                    raise ModelError("%s: rope freqs %s, expected %s" % (n2, shape, (hkv, dq // 2, 2)))
                # angle of pair p of kv head k at point (x, y): x * freq_x + y * freq_y
                fr = r.floats(hkv * dq, n2).view(hkv, dq // 2, 2)
                xs, ys = (torch.arange(S) % SIZE).float(), (torch.arange(S) // SIZE).float()
                ang = xs[None, None, :] * fr[:, :, 0:1] + ys[None, None, :] * fr[:, :, 1:2]
                ang_q = ang[[i * hkv // h for i in range(h)]]  # query head -> its kv head
                # tables (heads, S, pairs)
                b["rope"] = (L.add(name + ".rope_cos_q", torch.cos(ang_q).transpose(1, 2).contiguous()),
                             L.add(name + ".rope_sin_q", torch.sin(ang_q).transpose(1, 2).contiguous()),
                             L.add(name + ".rope_cos_k", torch.cos(ang).transpose(1, 2).contiguous()),
                             L.add(name + ".rope_sin_k", torch.sin(ang).transpose(1, 2).contiguous()))
        elif kind == "transformer_ffn_block":
            ch, fc, glu = r.int(name), r.int(name), r.int(name)
            if ch != c or fc < 1 or glu not in (0, 1):
                raise ModelError("%s: bad ffn header" % name)
            if not glu:
                raise ModelError("%s: non-SwiGLU feed-forward not supported" % name)
            b["norm"] = read_tnorm(r, L, p, c)
            b["l1"] = read_mat(r, L, p, ic=c, oc=fc)
            b["gate"] = read_mat(r, L, p, ic=c, oc=fc)
            b["l2"] = read_mat(r, L, p, ic=fc, oc=c)
        else:
            raise ModelError("%s: unknown block kind %r" % (name, kind))
        blocks.append(b)
    return blocks


def read_model(data):
    """The bytes of a .bin model -> (spec dict, Layers holding the weights)."""
    r = Reader(data)
    L = Layers()
    m = {"name": r.tok(), "version": r.int("version")}
    v = m["version"]
    if not 12 <= v <= 17:
        raise ModelError("model version %d not supported (12..17)" % v)
    m["n_spatial"], m["n_global"] = r.int("inputs"), r.int("global inputs")
    if (m["n_spatial"], m["n_global"]) != (kg.NUM_SPATIAL, kg.NUM_GLOBAL):
        raise ModelError("inputs %d+%d, only V7 features (22+19) supported" % (m["n_spatial"], m["n_global"]))
    mult = [20.0, 20.0, 20.0, 20.0, 40.0, 0.25, 30.0]
    if v >= 13:
        mult = [r.float("multipliers") for _ in range(7)]
    m["lead_mult"] = mult[3]
    if v >= 15:
        if r.int("metaEncoderVersion") != 0:
            raise ModelError("SGF metadata encoder models are not supported")
        if r.int("preferPassAliveUnderSuicideRules") != 0:
            raise ModelError("models preferring pass-alive under suicide rules are not supported")
        for k in range(6):
            if r.int("model option") != 0:
                raise ModelError("unknown model option %d set" % k)
    tname = r.tok()
    nb, c, mid, reg, dil, gp = (r.int(tname) for _ in range(6))
    norm_kind = 0
    if v >= 15:
        norm_kind = r.int(tname)
        if any(r.int(tname) for _ in range(5)) or norm_kind not in (0, 1):
            raise ModelError("%s: unsupported trunk options" % tname)
    m["conv0"] = read_conv(r, L, None, ic=m["n_spatial"], oc=c)
    m["lin0"] = read_mat(r, L, None, ic=m["n_global"], oc=c)
    m["blocks"] = read_blocks(r, L, nb, c, None, v)
    if norm_kind == 0:
        m["tip"] = read_bn(r, L, None, c)
    else:
        n = r.name()
        ch, eps, spatial, group = r.int(n), r.float(n), r.int(n), r.int(n)
        if ch != c or group != 0 or not 0 < eps <= 1:
            raise ModelError("%s: bad trunk rms norm" % n)
        m["tip"] = {"kind": "rms", "spatial": bool(spatial), "eps": eps,
                    "g": L.add(n + ".gamma", r.floats(c, n)), "b": L.add(n + ".beta", r.floats(c, n))}
    m["tip_act"] = read_act(r, None)
    pname = r.name()
    p = pname + "."
    npol = 2 if v <= 15 else 4
    if v >= 17:
        npol = r.int(pname)
        if any(r.int(pname) for _ in range(3)):
            raise ModelError("%s: unsupported policy options" % pname)
    ph = {"p1": read_conv(r, L, p, ic=c)}
    pc = ph["p1"]["oc"]
    ph["g1"] = read_conv(r, L, p, ic=c)
    gc = ph["g1"]["oc"]
    ph["g1bn"], ph["g1act"] = read_bn(r, L, p, gc), read_act(r, p)
    ph["gmul"] = read_mat(r, L, p, ic=3 * gc, oc=pc)
    ph["p1bn"], ph["p1act"] = read_bn(r, L, p, pc), read_act(r, p)
    ph["p2"] = read_conv(r, L, p, ic=pc, oc=npol)
    if v >= 15:
        ph["pass1"] = read_mat(r, L, p, ic=3 * gc, oc=pc)
        ph["pass_b"] = read_bias(r, L, p, pc)
        ph["pass_act"] = read_act(r, p)
        ph["pass2"] = read_mat(r, L, p, ic=pc, oc=npol)
    else:
        ph["pass1"] = read_mat(r, L, p, ic=3 * gc, oc=npol)
    m["policy"] = ph
    vname = r.name()
    p = vname + "."
    if v >= 17 and any(r.int(vname) for _ in range(3)):
        raise ModelError("%s: unsupported value options" % vname)
    vh = {"v1": read_conv(r, L, p, ic=c)}
    vc = vh["v1"]["oc"]
    vh["v1bn"], vh["v1act"] = read_bn(r, L, p, vc), read_act(r, p)
    vh["v2"] = read_mat(r, L, p, ic=3 * vc)
    vh["v2b"] = read_bias(r, L, p, vh["v2"]["oc"])
    vh["v2act"] = read_act(r, p)
    vh["v3"] = read_mat(r, L, p, ic=vh["v2"]["oc"], oc=3)
    vh["v3b"] = read_bias(r, L, p, 3)
    vh["sv3"] = read_mat(r, L, p, ic=vh["v2"]["oc"], oc=6)
    vh["sv3b"] = read_bias(r, L, p, 6)
    vh["own"] = read_conv(r, L, p, ic=vc, oc=1)
    m["value"] = vh
    if data[r.p:].strip():
        raise ModelError("%d unexpected bytes after the value head" % len(data[r.p:].strip()))
    return m, L


# --- the forward pass -------------------------------------------------------------------
# Activations are (N, S, C) with S = 361 points in row-major order (y * 19 + x).

class KataNet(torch.nn.Module):
    def __init__(self, spec, layers):
        super().__init__()
        self.spec = spec
        self.layers = layers

    def t(self, key):
        return getattr(self.layers, key)

    def conv(self, x, cv):
        if cv["k"] == (1, 1):
            w = self.t(cv["w"])
            return x @ w.view(w.shape[0], w.shape[1]).t()
        n = x.shape[0]
        y = x.transpose(1, 2).reshape(n, -1, SIZE, SIZE)
        y = F.conv2d(y, self.t(cv["w"]), padding=cv["pad"], dilation=cv["dil"])
        return y.reshape(n, cv["oc"], S).transpose(1, 2)

    def mm(self, x, mat):
        return x @ self.t(mat["w"])

    def bn(self, x, b, kind):
        return act(x * self.t(b["scale"]) + self.t(b["bias"]), kind)

    def rms(self, x, nrm):
        x = x.float()
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + nrm["eps"]) * self.t(nrm["w"])

    @staticmethod
    def gpool(x):
        mean = x.mean(1)
        return torch.cat([mean, mean * ((math.sqrt(S) - 14.0) * 0.1), x.max(1).values], 1)

    def block(self, x, b):
        k = b["kind"]
        if k == "transformer_attention_block":
            n = x.shape[0]
            h, hk = self.rms(x, b["norm"]), b["heads"] // b["kv"]
            q = self.mm(h, b["q"]).view(n, S, b["heads"], b["dq"]).transpose(1, 2)
            kk = self.mm(h, b["k"]).view(n, S, b["kv"], b["dq"]).transpose(1, 2)
            v = self.mm(h, b["v"]).view(n, S, b["kv"], b["dv"]).transpose(1, 2)
            if b["rope"] is not None:
                cq, sq, ck, sk = (self.t(key) for key in b["rope"])
                q, kk = rope(q, cq, sq), rope(kk, ck, sk)
            if hk > 1:
                kk, v = kk.repeat_interleave(hk, 1), v.repeat_interleave(hk, 1)
            if torch.is_autocast_enabled():
                dt = torch.get_autocast_dtype("cpu")
                q, kk, v = q.to(dt), kk.to(dt), v.to(dt)
            o = F.scaled_dot_product_attention(q, kk, v)
            o = o.transpose(1, 2).reshape(n, S, b["heads"] * b["dv"])
            return x + self.mm(o, b["o"])
        if k == "transformer_ffn_block":
            h = self.rms(x, b["norm"])
            return x + self.mm(F.silu(self.mm(h, b["l1"])) * self.mm(h, b["gate"]), b["l2"])
        y = self.conv(self.bn(x, b["bn1"], b["act1"]), b["conv1"])
        if k == "gpool_block":
            g = self.bn(self.conv(self.bn(x, b["bn1"], b["act1"]), b["convg"]), b["bng"], b["actg"])
            y = y + self.mm(self.gpool(g), b["gmul"])[:, None, :]
        elif k == "nested_bottleneck_block":
            for inner in b["blocks"]:
                y = self.block(y, inner)
        return x + self.conv(self.bn(y, b["bn2"], b["act2"]), b["conv2"])

    def forward(self, spatial, glob):
        """spatial (N, 22, 19, 19), glob (N, 19) -> policy logits (N, C, 362) with C = 2
        (plain, optimistic) or more, value logits (N, 3), misc value outputs (N, 6)."""
        m = self.spec
        n = spatial.shape[0]
        x = F.conv2d(spatial, self.t(m["conv0"]["w"]), padding=m["conv0"]["pad"], dilation=m["conv0"]["dil"])
        x = x.reshape(n, -1, S).transpose(1, 2).float() + self.mm(glob, m["lin0"]).float()[:, None, :]
        for b in m["blocks"]:
            x = self.block(x, b).float()
        tip = m["tip"]
        if tip["kind"] == "bn":
            x = self.bn(x, tip, m["tip_act"])
        else:
            dims = (1, 2) if tip["spatial"] else (2,)
            x = x * torch.rsqrt(x.pow(2).mean(dims, keepdim=True) + tip["eps"])
            x = act(x * self.t(tip["g"]) + self.t(tip["b"]), m["tip_act"])
        ph = m["policy"]
        p1 = self.conv(x, ph["p1"])
        pooled = self.gpool(self.bn(self.conv(x, ph["g1"]), ph["g1bn"], ph["g1act"]))
        p1 = self.bn(p1 + self.mm(pooled, ph["gmul"])[:, None, :], ph["p1bn"], ph["p1act"])
        pol = self.conv(p1, ph["p2"]).transpose(1, 2)
        if "pass_b" in ph:
            pas = self.mm(act(self.mm(pooled, ph["pass1"]) + self.t(ph["pass_b"]), ph["pass_act"]), ph["pass2"])
        else:
            pas = self.mm(pooled, ph["pass1"])
        vh = m["value"]
        v1 = self.bn(self.conv(x, vh["v1"]), vh["v1bn"], vh["v1act"])
        mean = v1.mean(1)
        k = math.sqrt(S) - 14.0
        pooled_v = torch.cat([mean, mean * (k * 0.1), mean * (k * k * 0.01 - 0.1)], 1)
        v2 = act(self.mm(pooled_v, vh["v2"]) + self.t(vh["v2b"]), vh["v2act"])
        value = self.mm(v2, vh["v3"]) + self.t(vh["v3b"])
        misc = self.mm(v2, vh["sv3"]) + self.t(vh["sv3b"])
        return torch.cat([pol, pas[:, :, None]], 2).float(), value.float(), misc.float()


def rope(x, cos, sin):
    """Rotates channel pairs (2p, 2p+1) of x (N, H, S, D) by the angles of the tables (H, S, D/2)."""
    x0, x1 = x[..., 0::2].float(), x[..., 1::2].float()
    return torch.stack([x0 * cos - x1 * sin, x0 * sin + x1 * cos], -1).flatten(-2)


def load_model(path):
    path = os.path.expanduser(path)
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    spec, layers = read_model(data)
    net = KataNet(spec, layers)
    net.eval()
    return net


# --- evaluation -------------------------------------------------------------------------

def _bf16_copy(net):
    if getattr(net, "_bf16", None) is None:
        layers = Layers()
        for k, t in net.layers.named_buffers():
            layers.register_buffer(k, t.to(torch.bfloat16) if t.dim() >= 2 and "rope" not in k else t)
        net._bf16 = KataNet(net.spec, layers)
    return net._bf16


def position(game, max_history=0):
    """A game's inputs as it stands: (spatial, global, legal moves, black to move)."""
    sp, gl = game.features(max_history=max_history)
    return sp, gl, game.legal_mask(), game.to_move == kb.BLACK


def batch(inputs):
    """position()s -> the (spatial, global, legal, black to move) run() takes."""
    sp, gl, legal, black = (np.stack(x) for x in zip(*inputs))
    return torch.from_numpy(sp), torch.from_numpy(gl), legal, black


def features(positions, max_history=0):
    """Move lists (or kata_game.Game objects) -> (spatial, global, legal, to_move)."""
    games = [p if isinstance(p, kg.Game) else kg.Game(p) for p in positions]
    return batch([position(g, max_history) for g in games])


def postprocess(net, pol, value, misc, legal, black, optimism=ROOT_POLICY_OPTIMISM):
    """Raw outputs -> KataGo analysis-engine policy (illegal -1), black winrate, black lead."""
    pol = pol.double().numpy()
    logits = pol[:, 0] + (pol[:, 1] - pol[:, 0]) * optimism
    logits = np.where(legal, logits, -1e30)
    e = np.exp(logits - logits.max(1, keepdims=True))
    e[:, :S] *= legal[:, :S]
    board_sum = e[:, :S].sum(1)
    e[:, S] = np.maximum(1e-20, np.minimum(e[:, S], board_sum * PASS_CAP))
    probs = e / e.sum(1, keepdims=True)
    probs = np.where(legal, probs, -1.0).astype(np.float32)
    v = value.double().numpy()[:, :2]
    v = np.exp(v - v.max(1, keepdims=True))
    v /= v.sum(1, keepdims=True)  # no-result is impossible under positional superko + area
    winrate = np.where(black, v[:, 0], v[:, 1])
    lead = misc.double().numpy()[:, 2] * net.spec["lead_mult"]
    return probs, winrate, np.where(black, lead, -lead)


def turn(x, symmetry):
    """The board axes (the last two) of x turned by one of the 8 symmetries: bit 4
    transposes, then bit 1 flips the rows, bit 2 the columns."""
    if symmetry & 4:
        x = x.transpose(-1, -2)
    if symmetry & 1:
        x = x.flip(-2)
    if symmetry & 2:
        x = x.flip(-1)
    return x


def unturn(x, symmetry):
    """turn()'s inverse."""
    if symmetry & 2:
        x = x.flip(-1)
    if symmetry & 1:
        x = x.flip(-2)
    if symmetry & 4:
        x = x.transpose(-1, -2)
    return x


def compiled(net, bf16=False):
    """The module run() uses, through torch.compile: about 1.5x faster on this CPU in
    bf16, after about 20 s of compiling for each batch size met."""
    return torch.compile(_bf16_copy(net) if bf16 else net, dynamic=False)


@torch.no_grad()
def run(net, sp, gl, legal, black, bf16=False, symmetry=0, model=None):
    """One forward pass of features() -> (policy (N, 362), winrate (N,), lead (N,)) as
    postprocess() gives them. `symmetry` (0 .. 7) turns the board before the net and the
    policy back after it, as KataGo does with a random one for each query (its
    transformer's position encoding makes the answer depend on it). `model`: the module
    to run instead of `net` itself (compiled())."""
    if model is None:
        model = _bf16_copy(net) if bf16 else net
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
        pol, value, misc = model(turn(sp, symmetry).contiguous(), gl)
    board = unturn(pol[:, :, :S].reshape(pol.shape[0], pol.shape[1], SIZE, SIZE), symmetry)
    pol = torch.cat([board.reshape(pol.shape[0], pol.shape[1], S), pol[:, :, S:]], 2)
    return postprocess(net, pol, value, misc, legal, black)


def evaluate(net, positions, bf16=False, batch_size=8, max_history=0, symmetry=0):
    """positions: move lists from the empty board (policy indices, 361 = pass, colours
    alternating from Black, komi 7.5) or kata_game.Game objects. Returns a dict of
    numpy arrays: policy (N, 362), winrate (N,), lead (N,)."""
    out = {"policy": [], "winrate": [], "lead": []}
    for i in range(0, len(positions), batch_size):
        sp, gl, legal, black = features(positions[i:i + batch_size], max_history)
        p, w, ld = run(net, sp, gl, legal, black, bf16, symmetry)
        out["policy"].append(p)
        out["winrate"].append(w)
        out["lead"].append(ld)
    return {k: np.concatenate(v) for k, v in out.items()}
