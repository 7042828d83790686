//! The float32 backend: the reference every other backend is measured
//! against, and the one a CPU without an 8-bit kernel runs. Each output
//! point's sums start at zero, take each tap inside the board times its
//! row of weights (the file's layout: kernel row, kernel column, input
//! channel, output channel), and are stored or added: for matrices a few
//! points and output channels at a time, so that each weight loaded
//! serves several points. The loops over output channels are the vector
//! loops; where the CPU has AVX2 and FMA they are compiled for it.
//!
//! Subnormal numbers run flushed to zero (x86's FTZ and DAZ): some nets
//! have channels of weights near 1e-38, dead in training, and each
//! product with one would cost a hundred cycles (b10c384: 3.2 s an
//! evaluation, not 0.6 s); what it changes is below 1e-38.

use super::desc::{Attention, Conv, MatMul};
use super::forward::{act, Kernels};

/// Float32 kernels on the model's own weights.
pub struct Float;

impl Kernels for Float {
    fn conv(&self, conv: &Conv, input: &[f32], out: &mut [f32], w: usize, h: usize, add: bool) {
        run(conv, &conv.w, input, out, (w, h), add, false)
    }

    fn matmul(&self, m: &MatMul, input: &[f32], out: &mut [f32], points: usize) {
        let as_conv = Conv {
            name: String::new(),
            id: m.id,
            ky: 1,
            kx: 1,
            cin: m.cin,
            cout: m.cout,
            dilation: (1, 1),
            w: Vec::new(),
        };
        run(&as_conv, &m.w, input, out, (points, 1), false, true)
    }

    fn attention(
        &self,
        at: &Attention,
        q: &[f32],
        k: &[f32],
        v: &[f32],
        out: &mut [f32],
        points: usize,
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx2,fma")]
            unsafe fn avx2(
                at: &Attention,
                q: &[f32],
                k: &[f32],
                v: &[f32],
                out: &mut [f32],
                points: usize,
            ) {
                attention(at, q, k, v, out, points)
            }
            let _flushed = Flushed::new();
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                // SAFETY: the CPU has both features, just checked
                return unsafe { avx2(at, q, k, v, out, points) };
            }
        }
        attention(at, q, k, v, out, points)
    }
}

/// [`super::forward::attention`] with its loops turned to run in vector
/// lanes: each query's scores over the keys at once (the keys
/// transposed), each score's products still summed in order; the
/// softmax through [`act::exp`], sums in lanes and a multiply by the
/// sum's inverse, which is where its numbers differ, by float rounding.
#[inline(always)]
fn attention(at: &Attention, q: &[f32], k: &[f32], v: &[f32], out: &mut [f32], area: usize) {
    let (qd, vd) = (at.q_dim, at.v_dim);
    let (qn, kn, vn, on) = at.widths();
    let scale = 1.0 / (qd as f32).sqrt();
    let group = at.heads / at.kv_heads;
    let (mut kt, mut scores) = (vec![0.0f32; qd * area], vec![0.0f32; area]);
    for kvh in 0..at.kv_heads {
        for j in 0..area {
            for (d, &x) in k[j * kn + kvh * qd..][..qd].iter().enumerate() {
                kt[d * area + j] = x;
            }
        }
        for head in kvh * group..(kvh + 1) * group {
            for i in 0..area {
                scores.fill(0.0);
                for (&x, row) in q[i * qn + head * qd..][..qd]
                    .iter()
                    .zip(kt.chunks_exact(area))
                {
                    scores.iter_mut().zip(row).for_each(|(s, &kv)| *s += x * kv);
                }
                scores.iter_mut().for_each(|s| *s *= scale);
                let top = lanes(&scores, f32::NEG_INFINITY, |a, b| if b > a { b } else { a });
                scores.iter_mut().for_each(|s| *s = act::exp(*s - top));
                let inv = 1.0 / lanes(&scores, 0.0, |a, b| a + b);
                scores.iter_mut().for_each(|s| *s *= inv);
                let o = &mut out[i * on + head * vd..][..vd];
                o.fill(0.0);
                for (j, &wgt) in scores.iter().enumerate() {
                    o.iter_mut()
                        .zip(&v[j * vn + kvh * vd..][..vd])
                        .for_each(|(o, v)| *o += wgt * v);
                }
            }
        }
    }
}

/// [`conv_blocked`] for `dense` inputs, else [`conv_generic`], compiled
/// for AVX2 and FMA where the CPU has them, subnormals flushed.
fn run(
    conv: &Conv,
    wts: &[f32],
    input: &[f32],
    out: &mut [f32],
    (w, h): (usize, usize),
    add: bool,
    dense: bool,
) {
    #[inline(always)]
    fn either(
        conv: &Conv,
        wts: &[f32],
        input: &[f32],
        out: &mut [f32],
        (w, h): (usize, usize),
        add: bool,
        dense: bool,
    ) {
        match dense {
            true => conv_blocked(conv, wts, input, out, w, h, add),
            false => conv_generic(conv, wts, input, out, w, h, add, 0),
        }
    }
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2,fma")]
        unsafe fn avx2(
            conv: &Conv,
            wts: &[f32],
            input: &[f32],
            out: &mut [f32],
            size: (usize, usize),
            add: bool,
            dense: bool,
        ) {
            either(conv, wts, input, out, size, add, dense)
        }
        let _flushed = Flushed::new();
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has both features, just checked
            return unsafe { avx2(conv, wts, input, out, (w, h), add, dense) };
        }
    }
    either(conv, wts, input, out, (w, h), add, dense)
}

/// Subnormals flushed to zero, inputs and results, while it lives.
#[cfg(target_arch = "x86_64")]
struct Flushed(u32);

#[cfg(target_arch = "x86_64")]
impl Flushed {
    /// MXCSR's flush-to-zero (bit 15) and denormals-are-zero (bit 6).
    const BITS: u32 = 0x8040;

    #[allow(deprecated)]
    fn new() -> Flushed {
        use std::arch::x86_64::{_mm_getcsr, _mm_setcsr};
        // SAFETY: MXCSR exists on every x86-64 CPU; the bits set change
        // only how subnormal numbers are taken, until drop restores them
        unsafe {
            let old = _mm_getcsr();
            _mm_setcsr(old | Self::BITS);
            Flushed(old)
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl Drop for Flushed {
    #[allow(deprecated)]
    fn drop(&mut self) {
        // SAFETY: the value read when made
        unsafe { std::arch::x86_64::_mm_setcsr(self.0) }
    }
}

/// Output channels `from..` of `conv`'s shape with `weights` over a `w`
/// x `h` board, point by point.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn conv_generic(
    conv: &Conv,
    weights: &[f32],
    input: &[f32],
    out: &mut [f32],
    w: usize,
    h: usize,
    add: bool,
    from: usize,
) {
    let (cin, cout) = (conv.cin, conv.cout);
    let (ry, rx) = (conv.ky / 2, conv.kx / 2);
    let (dy, dx) = conv.dilation;
    assert!(input.len() >= w * h * cin && out.len() >= w * h * cout);
    let mut acc = vec![0.0f32; cout - from];
    for y in 0..h {
        for x in 0..w {
            acc.fill(0.0);
            for ky in 0..conv.ky {
                let Some(sy) = (y + ky * dy).checked_sub(ry * dy).filter(|&v| v < h) else {
                    continue;
                };
                for kx in 0..conv.kx {
                    let Some(sx) = (x + kx * dx).checked_sub(rx * dx).filter(|&v| v < w) else {
                        continue;
                    };
                    let src = &input[(sy * w + sx) * cin..][..cin];
                    let taps = &weights[(ky * conv.kx + kx) * cin * cout..][..cin * cout];
                    for (&v, row) in src.iter().zip(taps.chunks_exact(cout)) {
                        // inputs after ReLU or binary planes: often zero
                        if v != 0.0 {
                            for (a, &wt) in acc.iter_mut().zip(&row[from..]) {
                                *a += v * wt;
                            }
                        }
                    }
                }
            }
            let dst = &mut out[(y * w + x) * cout + from..][..cout - from];
            if add {
                dst.iter_mut().zip(&acc).for_each(|(d, a)| *d += a);
            } else {
                dst.copy_from_slice(&acc);
            }
        }
    }
}

/// Output channels a block of sums holds, and points a block runs.
const W: usize = 32;
const P: usize = 4;

/// `conv`'s shape with `weights` over a `w` x `h` board: `P` points of a
/// row by `W` output channels at a time, their sums in registers, each
/// weight loaded serving `P` points. Each sum takes its products in the
/// order of [`conv_generic`] (which does the last channels past a
/// multiple of `W`), so the numbers are the same. For dense inputs: on
/// ReLU's, half zeros, the plain loop that skips zeros is faster.
#[inline(always)]
fn conv_blocked(
    conv: &Conv,
    weights: &[f32],
    input: &[f32],
    out: &mut [f32],
    w: usize,
    h: usize,
    add: bool,
) {
    let (cin, cout) = (conv.cin, conv.cout);
    let (ry, rx) = (conv.ky / 2, conv.kx / 2);
    let (dy, dx) = conv.dilation;
    assert!(input.len() >= w * h * cin && out.len() >= w * h * cout);
    let zeros = vec![0.0f32; cin];
    let full = cout / W * W;
    for co in (0..full).step_by(W) {
        for y in 0..h {
            for x0 in (0..w).step_by(P) {
                let n = P.min(w - x0);
                let mut acc = [[0.0f32; W]; P];
                for ky in 0..conv.ky {
                    let Some(sy) = (y + ky * dy).checked_sub(ry * dy).filter(|&v| v < h) else {
                        continue;
                    };
                    for kx in 0..conv.kx {
                        // a point past the edge, or past the chunk, reads zeros
                        let srcs: [&[f32]; P] = std::array::from_fn(|p| {
                            let sx = (x0 + p + kx * dx).checked_sub(rx * dx).filter(|&v| v < w);
                            match sx.filter(|_| p < n) {
                                Some(sx) => &input[(sy * w + sx) * cin..][..cin],
                                None => &zeros[..],
                            }
                        });
                        let taps = &weights[(ky * conv.kx + kx) * cin * cout..][..cin * cout];
                        for ci in 0..cin {
                            let row: &[f32; W] = taps[ci * cout + co..][..W].try_into().unwrap();
                            for (acc, src) in acc.iter_mut().zip(&srcs) {
                                let v = src[ci];
                                for (a, &wt) in acc.iter_mut().zip(row) {
                                    *a += v * wt;
                                }
                            }
                        }
                    }
                }
                for (p, acc) in acc.iter().enumerate().take(n) {
                    let dst = &mut out[(y * w + x0 + p) * cout + co..][..W];
                    if add {
                        dst.iter_mut().zip(acc).for_each(|(d, a)| *d += a);
                    } else {
                        dst.copy_from_slice(acc);
                    }
                }
            }
        }
    }
    if full < cout {
        conv_generic(conv, weights, input, out, w, h, add, full);
    }
}

/// `x` folded by `f` from `init` in 16 lanes, then the lanes: a fold of
/// one float would wait on each step in turn.
#[inline(always)]
fn lanes(x: &[f32], init: f32, f: impl Fn(f32, f32) -> f32) -> f32 {
    let mut m = [init; 16];
    let mut chunks = x.chunks_exact(16);
    for ch in &mut chunks {
        for (i, &v) in ch.iter().enumerate() {
            m[i] = f(m[i], v);
        }
    }
    chunks
        .remainder()
        .iter()
        .chain(&m)
        .fold(init, |a, &b| f(a, b))
}
