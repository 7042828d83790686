//! Attention in 16-bit integers: a head's scores `Q K^T` and its mix of
//! values `P V` are two layers of the kernels (`block.rs`, 16-bit form:
//! `vpdpwssd`, `vpmaddwd`), the keys and the values taking the place of
//! weights. Each key has its own scale, each query and each value channel
//! too, all from this evaluation; codes go as far as the sums allow
//! without overflowing an i32 (8191 for 32 dimensions, 2439 over 361
//! points). The softmax stays in float, through a vectorised exponential,
//! and its weights are coded relative to the row's largest; each output
//! is divided by its row's sum of codes, so the mix's weights sum to one
//! exactly. In 8 bits the weights of far points round to nothing, and the
//! scores' errors grow through the exponential (measured: `int8.rs`).

use super::{run_kernel, Codes, Finish, Kernel, QLayer};
use crate::games::go::nn::desc::Attention;
use crate::games::go::nn::forward::act::exp;
use std::cell::RefCell;

/// A thread's buffers, grown once.
#[derive(Default)]
struct Scratch {
    /// Weights of the keys' and the values' layers.
    kw: Vec<u8>,
    vw: Vec<u8>,
    /// The queries' codes, and their scales.
    qc: Vec<u8>,
    qs: Vec<f32>,
    /// The scores, the softmax's codes and each row's sum of them.
    scores: Vec<f32>,
    pc: Vec<u8>,
    tot: Vec<f32>,
    /// Each key's and each value channel's multiplier, zeros, a head's
    /// outputs.
    mk: Vec<f32>,
    mv: Vec<f32>,
    zero: Vec<i32>,
    o: Vec<f32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// The largest code of two operands whose `n` products sum in an i32.
fn top(n: usize) -> f32 {
    (i32::MAX as f64 / n.max(1) as f64)
        .sqrt()
        .min(32767.0)
        .floor() as f32
}

/// `v` rounded to an integer (ties to even) as an i16's bytes, through
/// the 2^23 trick that vectorises; `|v|` at most 32767.
#[inline(always)]
fn code(v: f32) -> [u8; 2] {
    let t = v + 12582912.0;
    (t.to_bits().wrapping_sub(0x4b40_0000) as u16).to_le_bytes()
}

/// The largest of `f(v)` over `x` and `init`, in 16 lanes: a fold of
/// one float would wait on each comparison in turn.
#[inline(always)]
fn largest(x: &[f32], init: f32, f: impl Fn(f32) -> f32) -> f32 {
    let mut m = [init; 16];
    let mut chunks = x.chunks_exact(16);
    for ch in &mut chunks {
        for (m, &v) in m.iter_mut().zip(ch) {
            *m = if f(v) > *m { f(v) } else { *m };
        }
    }
    let tail = chunks.remainder().iter().map(|&v| f(v));
    m.into_iter().chain(tail).fold(init, f32::max)
}

/// The largest magnitude in `x`.
#[inline(always)]
fn most(x: &[f32]) -> f32 {
    largest(x, 0.0, f32::abs)
}

/// Zeroed `n` values in `v`.
fn zeroed<T: Clone + Default>(v: &mut Vec<T>, n: usize) -> &mut [T] {
    v.clear();
    v.resize(n, T::default());
    v
}

/// The layer of `rows` rows of `n` values each (`at(row)` the row's
/// values), taken as `cin = n` inputs by `cout = rows` outputs (`keys`)
/// or, transposed, `cin = rows` by `cout = n`: 16-bit codes, one scale an
/// output, `top` the largest code; `mul` gets each output's scale times
/// `by`.
#[inline(always)]
fn layer<'a>(
    w: &mut Vec<u8>,
    rows: usize,
    n: usize,
    at: impl Fn(usize) -> &'a [f32],
    keys: bool,
    top: f32,
    (mul, by): (&mut Vec<f32>, f32),
) -> QLayer {
    let (cin, cout) = if keys { (n, rows) } else { (rows, n) };
    // the keys' outputs in fours of 16 lanes: the widest register blocks
    let cout_pad = cout.next_multiple_of(if keys { 64 } else { 16 });
    let groups = cin.div_ceil(2);
    let wb = zeroed(w, groups * cout_pad * 4);
    let m = zeroed(mul, cout_pad);
    let place = |ci: usize, co: usize| ((ci / 2) * cout_pad + co) * 4 + (ci % 2) * 2;
    if keys {
        for (j, m) in m.iter_mut().enumerate().take(rows) {
            let row = at(j);
            let s = most(row) / top;
            let inv = if s > 0.0 { 1.0 / s } else { 0.0 };
            for (d, &v) in row.iter().enumerate() {
                wb[place(d, j)..][..2].copy_from_slice(&code(v * inv));
            }
            *m = s * by;
        }
    } else {
        for j in 0..rows {
            for (m, &v) in m.iter_mut().zip(at(j)) {
                *m = if v.abs() > *m { v.abs() } else { *m };
            }
        }
        m.iter_mut().for_each(|m| *m /= top);
        for j in 0..rows {
            for (d, &v) in at(j).iter().enumerate() {
                let inv = if m[d] > 0.0 { 1.0 / m[d] } else { 0.0 };
                wb[place(j, d)..][..2].copy_from_slice(&code(v * inv));
            }
        }
    }
    QLayer {
        k: 1,
        cin,
        cout,
        cout_pad,
        per_group: 2,
        groups,
        w: std::mem::take(w),
        scale: Vec::new(),
        colsum: Vec::new(),
    }
}

/// Every head of `at` over `points` points (see
/// [`crate::games::go::nn::forward::Kernels::attention`]).
#[inline(always)]
fn heads(
    s: &mut Scratch,
    kernel: Kernel,
    at: &Attention,
    q: &[f32],
    k: &[f32],
    v: &[f32],
    out: &mut [f32],
    points: usize,
) {
    let (qd, vd) = (at.q_dim, at.v_dim);
    let (qn, kn, vn, on) = (
        at.heads * qd,
        at.kv_heads * qd,
        at.kv_heads * vd,
        at.heads * vd,
    );
    let (tqk, tpv) = (top(qd), top(points));
    for kvh in 0..at.kv_heads {
        let kl = layer(
            &mut s.kw,
            points,
            qd,
            |j| &k[j * kn + kvh * qd..][..qd],
            true,
            tqk,
            (&mut s.mk, 1.0 / (qd as f32).sqrt()),
        );
        let vl = layer(
            &mut s.vw,
            points,
            vd,
            |j| &v[j * vn + kvh * vd..][..vd],
            false,
            tpv,
            (&mut s.mv, 1.0),
        );
        zeroed(&mut s.zero, kl.cout_pad.max(vl.cout_pad));
        for head in (kvh * at.heads / at.kv_heads..).take(at.heads / at.kv_heads) {
            // the queries, each with its own scale
            let qb = zeroed(&mut s.qc, points * kl.groups * 4);
            let qs = zeroed(&mut s.qs, points);
            for (i, (codes, sc)) in qb
                .chunks_exact_mut(kl.groups * 4)
                .zip(qs.iter_mut())
                .enumerate()
            {
                let row = &q[i * qn + head * qd..][..qd];
                *sc = most(row) / tqk;
                let inv = if *sc > 0.0 { 1.0 / *sc } else { 0.0 };
                for (c, &v) in codes.chunks_exact_mut(2).zip(row) {
                    c.copy_from_slice(&code(v * inv));
                }
            }
            let scores = zeroed(&mut s.scores, points * kl.cout_pad);
            let fin = Finish {
                row: kl.cout_pad,
                zc: &s.zero,
                mul: &s.mk,
                add: false,
            };
            let input = Codes {
                codes: qb,
                stride: points,
                w: points,
                h: 1,
            };
            run_kernel(kernel, &kl, &input, &fin, scores);
            // the softmax's weights, the row's largest coded as `tpv`
            let pc = zeroed(&mut s.pc, points * vl.groups * 4);
            let tot = zeroed(&mut s.tot, points);
            for (i, codes) in pc.chunks_exact_mut(vl.groups * 4).enumerate() {
                let row = &scores[i * kl.cout_pad..][..points];
                let m = largest(row, f32::MIN, |v| v);
                let sc = s.qs[i];
                let mut sum = 0;
                for (c, &v) in codes.chunks_exact_mut(2).zip(row) {
                    let p = code(exp((v - m) * sc) * tpv);
                    c.copy_from_slice(&p);
                    sum += i16::from_le_bytes(p) as i32;
                }
                tot[i] = sum as f32;
            }
            let o = zeroed(&mut s.o, points * vl.cout_pad);
            let fin = Finish {
                row: vl.cout_pad,
                zc: &s.zero,
                mul: &s.mv,
                add: false,
            };
            let input = Codes {
                codes: pc,
                stride: points,
                w: points,
                h: 1,
            };
            run_kernel(kernel, &vl, &input, &fin, o);
            for (i, (o, &t)) in o.chunks_exact(vl.cout_pad).zip(&s.tot).enumerate() {
                let dst = &mut out[i * on + head * vd..][..vd];
                dst.iter_mut().zip(o).for_each(|(d, &o)| *d = o / t);
            }
        }
        s.kw = kl.w;
        s.vw = vl.w;
    }
}

/// [`heads`] compiled for `kernel`'s CPU features (256-bit vectors for
/// VNNI-256, which is for CPUs that slow down on 512-bit ones).
pub fn run(
    kernel: Kernel,
    at: &Attention,
    q: &[f32],
    k: &[f32],
    v: &[f32],
    out: &mut [f32],
    points: usize,
) {
    SCRATCH.with(|s| {
        let s = &mut *s.borrow_mut();
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
            unsafe fn avx512(
                s: &mut Scratch,
                kernel: Kernel,
                at: &Attention,
                q: &[f32],
                k: &[f32],
                v: &[f32],
                out: &mut [f32],
                points: usize,
            ) {
                heads(s, kernel, at, q, k, v, out, points)
            }
            #[target_feature(enable = "avx2,fma")]
            unsafe fn avx2(
                s: &mut Scratch,
                kernel: Kernel,
                at: &Attention,
                q: &[f32],
                k: &[f32],
                v: &[f32],
                out: &mut [f32],
                points: usize,
            ) {
                heads(s, kernel, at, q, k, v, out, points)
            }
            match kernel {
                // SAFETY: Int8 takes only kernels that run here
                Kernel::Vnni512 => return unsafe { avx512(s, kernel, at, q, k, v, out, points) },
                // SAFETY: as above; every kernel but the scalar one has AVX2
                Kernel::Vnni256 | Kernel::Avx2 => {
                    return unsafe { avx2(s, kernel, at, q, k, v, out, points) }
                }
                Kernel::Scalar => {}
            }
        }
        heads(s, kernel, at, q, k, v, out, points)
    })
}
