"""The tensors of the bot's weight file, TGPOLNN5 (the doc of
src/games/go/net/format.rs): each one either float32 as it is, or
quantised to a few bits with one scale a column and entropy-coded by
rANS. export.py writes them, net.from_bytes() reads them back; the Rust
reader decodes the same bytes to the same floats.
"""
import struct

import numpy as np

PLAIN, CODED = 0, 1
# rANS: frequencies sum to 2^PROB_BITS; a 32-bit state kept in
# [2^16, 2^32), read and written 16 bits at a time
PROB_BITS = 12
LOW = 1 << 16


def quantise(w, bits, fit=True):
    """`w` as integers in [-(2^(bits-1) - 1), 2^(bits-1) - 1] and one
    float32 scale a column (the last axis): `q * scales` stands for `w`.
    With `fit`, each column's scale is the one of 41 (from half its
    largest magnitude to all of it, over the top level) whose rounding
    errs least in squares, else the largest magnitude maps to the top."""
    top_level = (1 << (bits - 1)) - 1
    flat = np.asarray(w, np.float32).reshape(-1, w.shape[-1])
    top = np.abs(flat).max(axis=0)
    top = np.where(top > 0, top, 1).astype(np.float32)
    best = (top / top_level).astype(np.float32)
    if fit:
        err = np.full(flat.shape[1], np.inf)
        for r in np.linspace(0.5, 1.0, 41):
            s = (top * r / top_level).astype(np.float32)
            q = np.clip(np.rint(flat / s), -top_level, top_level)
            e = ((q * s - flat) ** 2).sum(axis=0)
            best = np.where(e < err, s, best)
            err = np.minimum(e, err)
    q = np.clip(np.rint(flat / best), -top_level, top_level).astype(np.int16)
    return q.reshape(w.shape), best.astype(np.float32)


def dequantised(q, scales):
    """What a reader computes from `q` and its scales: each value times its
    column's scale, in float32."""
    return (q.astype(np.float32) * scales).astype(np.float32)


def frequencies(symbols, m):
    """The counts of the m symbols scaled to sum to 2^PROB_BITS, each one
    present at least 1."""
    counts = np.bincount(symbols, minlength=m).astype(np.int64)
    total = 1 << PROB_BITS
    f = np.where(counts > 0, np.maximum(1, np.rint(counts * total / counts.sum())), 0)
    f = f.astype(np.int64)
    # the rounding's excess or shortfall goes to the likeliest symbol
    f[np.argmax(f)] += total - f.sum()
    if f.min() < 0 or f.max() > total:
        raise ValueError("too many kinds of values for the coder's table")
    return f


def rans_encode(symbols, freqs):
    """The 16-bit words of `symbols` coded with `freqs`: the final state
    (two words, high first), then what the decoder reads in turn."""
    starts = np.concatenate([[0], np.cumsum(freqs)[:-1]]).tolist()
    freqs = freqs.tolist()
    x, out = LOW, []
    bound = 1 << (32 - PROB_BITS)
    for s in reversed(symbols.tolist()):
        f = freqs[s]
        if x >= bound * f:
            out.append(x & 0xFFFF)
            x >>= 16
        x = ((x // f) << PROB_BITS) + x % f + starts[s]
    out += [x & 0xFFFF, x >> 16]
    return np.array(out[::-1], np.uint16)


def rans_decode(words, freqs, n):
    """The n symbols of rans_encode()'s words; a ValueError if they do not
    decode to n symbols exactly."""
    mask = (1 << PROB_BITS) - 1
    starts = np.concatenate([[0], np.cumsum(freqs)[:-1]])
    slot = np.repeat(np.arange(len(freqs)), freqs).tolist()
    starts, freqs, words = starts.tolist(), freqs.tolist(), words.tolist()
    if len(words) < 2:
        raise ValueError("the coded weights end early")
    x, at = (words[0] << 16) | words[1], 2
    out = [0] * n
    for i in range(n):
        s = slot[x & mask]
        x = freqs[s] * (x >> PROB_BITS) + (x & mask) - starts[s]
        if x < LOW:
            if at == len(words):
                raise ValueError("the coded weights end early")
            x = (x << 16) | words[at]
            at += 1
        out[i] = s
    if x != LOW or at != len(words):
        raise ValueError("the coded weights do not decode to their count")
    return np.array(out, np.int64)


def padded(raw):
    return raw + bytes(-len(raw) % 4)


def encode_plain(a):
    """A tensor's bytes as float32."""
    return struct.pack("<I", PLAIN) + np.asarray(a, "<f4").tobytes(order="C")


def encode_coded(q, scales):
    """The bytes of quantise()'s `q` and `scales`: the tag, the columns, the
    scales, the symbol count m (symbol s stands for s - (m - 1) / 2), the
    m frequencies (u16), the number of stream words, the stream."""
    half = int(np.abs(q).max())
    m = 2 * half + 1
    symbols = (q.reshape(-1).astype(np.int64) + half)
    freqs = frequencies(symbols, m)
    words = rans_encode(symbols, freqs)
    return b"".join([
        struct.pack("<II", CODED, len(scales)),
        np.asarray(scales, "<f4").tobytes(),
        struct.pack("<I", m),
        padded(freqs.astype("<u2").tobytes()),
        struct.pack("<I", len(words)),
        padded(words.astype("<u2").tobytes()),
    ])


def decode(blob, at, n):
    """The n float32 values of the tensor at byte `at` of `blob`, and the
    byte after it."""
    def u32():
        nonlocal at
        if at + 4 > len(blob):
            raise ValueError("the file ends early")
        at += 4
        return struct.unpack_from("<I", blob, at - 4)[0]

    def take(count, kind, size):
        nonlocal at
        end = at + count * size
        if end > len(blob):
            raise ValueError("the file ends early")
        out = np.frombuffer(blob, kind, count, at)
        at = end + (-end % 4)
        return out

    tag = u32()
    if tag == PLAIN:
        return take(n, "<f4", 4).astype(np.float32), at
    if tag != CODED:
        raise ValueError(f"a tensor of unknown kind {tag}")
    cols = u32()
    if cols == 0 or n % cols:
        raise ValueError(f"{cols} scales for {n} values")
    scales = take(cols, "<f4", 4).astype(np.float32)
    m = u32()
    if m % 2 == 0 or m > 255:
        raise ValueError(f"{m} symbols: not an odd count up to 255")
    freqs = take(m, "<u2", 2).astype(np.int64)
    if freqs.sum() != 1 << PROB_BITS:
        raise ValueError("the coder's frequencies do not sum to its total")
    words = take(u32(), "<u2", 2)
    q = rans_decode(words, freqs, n) - (m - 1) // 2
    return dequantised(q.reshape(-1, cols), scales).reshape(-1), at
