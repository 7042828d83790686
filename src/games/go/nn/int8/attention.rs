//! Attention in integers: a head's scores `Q K^T` and its mix of values
//! `P V` are two layers of the kernels (`block.rs`), the keys and the
//! values taking the place of weights, each key and each value channel
//! with its own scale, each query too, all from this evaluation. The
//! softmax stays in float, through a vectorised exponential; its weights
//! are coded relative to the row's largest, and each output is divided by
//! its row's sum of codes, so the mix's weights sum to one exactly.
//!
//! Each product is in 16 bits (`vpdpwssd`, `vpmaddwd`), codes as far as
//! the sums allow without overflowing an i32 (8191 for 32 dimensions,
//! 2439 over 361 points), or in 8 bits (`vpdpbusd`, twice as fast), the
//! queries with a zero point: [`EIGHT`] says which.

use super::{run_kernel, Codes, Finish, Kernel, QLayer};
use crate::games::go::nn::desc::Attention;
use crate::games::go::nn::forward::act::exp;
use std::cell::RefCell;

/// Whether the scores and the mix run in 8 bits, on the kernels that
/// have 8-bit products.
const EIGHT: (bool, bool) = (false, false);

/// A thread's buffers, grown once.
#[derive(Default)]
struct Scratch {
    /// Weights of the keys' and the values' layers.
    kw: Vec<u8>,
    vw: Vec<u8>,
    /// The queries' codes and scales; the scores; the softmax's codes and
    /// each row's sum of them; a head's outputs.
    qc: Vec<u8>,
    qs: Vec<f32>,
    scores: Vec<f32>,
    pc: Vec<u8>,
    tot: Vec<i32>,
    o: Vec<f32>,
    /// A row's codes before they are packed.
    row: Vec<i32>,
    /// Each key's and each value channel's multiplier; each key's zero
    /// point correction; zeros.
    mk: Vec<f32>,
    mv: Vec<f32>,
    zk: Vec<i32>,
    zero: Vec<i32>,
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

/// `v` rounded to an integer, ties to even, through the 2^23 trick that
/// vectorises; `|v|` below 2^22.
#[inline(always)]
fn round(v: f32) -> i32 {
    (v + 12582912.0).to_bits() as i32 - 0x4b40_0000
}

/// Stores `v` as the `n`-byte (1 or 2) element `at` of `buf`.
#[inline(always)]
fn put(buf: &mut [u8], n: usize, at: usize, v: i32) {
    if n == 1 {
        buf[at] = v as u8;
    } else {
        buf[2 * at..2 * at + 2].copy_from_slice(&(v as i16).to_le_bytes());
    }
}

/// Stores `src` as `n`-byte (1 or 2) elements at the start of `dst`, a
/// loop each, which vectorise.
#[inline(always)]
fn pack(dst: &mut [u8], n: usize, src: &[i32]) {
    if n == 1 {
        dst.iter_mut().zip(src).for_each(|(d, &s)| *d = s as u8);
    } else {
        for (d, &s) in dst.chunks_exact_mut(2).zip(src) {
            d.copy_from_slice(&(s as i16).to_le_bytes());
        }
    }
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

/// `v` holding `n` zeros.
fn zeroed<T: Clone + Default>(v: &mut Vec<T>, n: usize) -> &mut [T] {
    v.clear();
    v.resize(n, T::default());
    v
}

/// `v` holding at least `n` values, as they are.
fn sized<T: Clone + Default>(v: &mut Vec<T>, n: usize) -> &mut [T] {
    if v.len() < n {
        v.resize(n, T::default());
    }
    &mut v[..n]
}

/// A layer of `cin` inputs by `cout` outputs (`cout_pad` padded) whose
/// weights, in `w`, are filled by the caller: `per` inputs a group.
fn shell(w: &mut Vec<u8>, cin: usize, cout: usize, cout_pad: usize, per: usize) -> QLayer {
    let groups = cin.div_ceil(per);
    zeroed(w, groups * cout_pad * 4);
    QLayer {
        k: 1,
        cin,
        cout,
        cout_pad,
        per_group: per,
        groups,
        top: 0,
        w: std::mem::take(w),
        scale: Vec::new(),
        colsum: Vec::new(),
    }
}

/// The keys of head `kvh` as the layer from a query's `qd` dimensions to
/// the `points` keys, each key with its own scale (`top` its largest
/// code); `mul` gets each key's scale over sqrt(qd), `zc` its sum of
/// codes times `zero`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn keys(
    s: &mut Scratch,
    k: &[f32],
    kn: usize,
    at: usize,
    qd: usize,
    points: usize,
    per: usize,
    zero: i32,
) -> QLayer {
    // outputs in fours of 16 lanes: the widest register blocks
    let cp = points.next_multiple_of(64);
    let mut l = shell(&mut s.kw, qd, points, cp, per);
    let (n, top) = (4 / per, if per == 4 { 127.0 } else { top(qd) });
    let mul = zeroed(&mut s.mk, cp);
    let zc = zeroed(&mut s.zk, cp);
    let by = 1.0 / (qd as f32).sqrt();
    for j in 0..points {
        let row = &k[j * kn + at..][..qd];
        let sc = largest(row, 0.0, f32::abs) / top;
        let inv = if sc > 0.0 { 1.0 / sc } else { 0.0 };
        let mut sum = 0;
        for (d, &v) in row.iter().enumerate() {
            let c = round(v * inv);
            sum += c;
            put(&mut l.w, n, ((d / per) * cp + j) * per + d % per, c);
        }
        mul[j] = sc * by;
        zc[j] = sum * zero;
    }
    l
}

/// The values of head `kvh` as the layer from the `points` softmax
/// weights to the `vd` channels, each channel with its own scale.
#[inline(always)]
fn values(
    s: &mut Scratch,
    v: &[f32],
    vn: usize,
    at: usize,
    vd: usize,
    points: usize,
    per: usize,
) -> QLayer {
    let cp = vd.next_multiple_of(16);
    let mut l = shell(&mut s.vw, points, vd, cp, per);
    let (n, top) = (4 / per, if per == 4 { 127.0 } else { top(points) });
    let mul = zeroed(&mut s.mv, cp);
    for j in 0..points {
        for (m, &x) in mul.iter_mut().zip(&v[j * vn + at..][..vd]) {
            *m = if x.abs() > *m { x.abs() } else { *m };
        }
    }
    let inv: Vec<f32> = mul
        .iter_mut()
        .map(|m| {
            *m /= top;
            if *m > 0.0 {
                1.0 / *m
            } else {
                0.0
            }
        })
        .collect();
    for j in 0..points {
        let base = (j / per) * cp * per + j % per;
        for (d, (&x, &i)) in v[j * vn + at..][..vd].iter().zip(&inv).enumerate() {
            put(&mut l.w, n, base + d * per, round(x * i));
        }
    }
    l
}

/// Every head of `at` over `points` points (see
/// [`crate::games::go::nn::forward::Kernels::attention`]).
#[allow(clippy::too_many_arguments)]
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
    // the 16-bit kernel of AVX2 has no 8-bit form
    let eight = |e: bool| e && kernel != Kernel::Avx2;
    let (qper, pper) = (
        if eight(EIGHT.0) { 4 } else { 2 },
        if eight(EIGHT.1) { 4 } else { 2 },
    );
    // the queries' codes: symmetric in 16 bits, about 128 in 8
    let (qtop, qzero) = if qper == 4 {
        (127.0, 128)
    } else {
        (top(qd), 0)
    };
    let ptop = if pper == 4 { 255.0 } else { top(points) };
    for kvh in 0..at.kv_heads {
        let kl = keys(s, k, kn, kvh * qd, qd, points, qper, qzero);
        let vl = values(s, v, vn, kvh * vd, vd, points, pper);
        zeroed(&mut s.zero, vl.cout_pad);
        let (qb, pb) = (kl.groups * 4, vl.groups * 4);
        for head in (kvh * at.heads / at.kv_heads..).take(at.heads / at.kv_heads) {
            let qc = zeroed(&mut s.qc, points * qb);
            let qs = sized(&mut s.qs, points);
            for (i, (codes, sc)) in qc.chunks_exact_mut(qb).zip(qs.iter_mut()).enumerate() {
                let row = &q[i * qn + head * qd..][..qd];
                *sc = largest(row, 0.0, f32::abs) / qtop;
                let inv = if *sc > 0.0 { 1.0 / *sc } else { 0.0 };
                let c = sized(&mut s.row, qd);
                c.iter_mut()
                    .zip(row)
                    .for_each(|(c, &x)| *c = round(x * inv) + qzero);
                pack(codes, 4 / qper, c);
            }
            let scores = sized(&mut s.scores, points * kl.cout_pad);
            let fin = Finish {
                row: kl.cout_pad,
                zc: &s.zk,
                mul: &s.mk,
                add: false,
            };
            let input = Codes {
                codes: qc,
                stride: points,
                w: points,
                h: 1,
            };
            run_kernel(kernel, &kl, &input, &fin, scores);
            // the softmax's weights, the row's largest coded as `ptop`
            let pc = zeroed(&mut s.pc, points * pb);
            let tot = sized(&mut s.tot, points);
            for (i, (codes, tot)) in pc.chunks_exact_mut(pb).zip(tot.iter_mut()).enumerate() {
                let row = &scores[i * kl.cout_pad..][..points];
                let m = largest(row, f32::MIN, |v| v);
                let sc = s.qs[i];
                let c = sized(&mut s.row, points);
                c.iter_mut()
                    .zip(row)
                    .for_each(|(c, &x)| *c = round(exp((x - m) * sc) * ptop));
                *tot = c.iter().sum();
                pack(codes, 4 / pper, c);
            }
            let o = sized(&mut s.o, points * vl.cout_pad);
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
            for (i, (o, &t)) in o.chunks_exact(vl.cout_pad).zip(s.tot.iter()).enumerate() {
                let inv = 1.0 / t as f32;
                let dst = &mut out[i * on + head * vd..][..vd];
                dst.iter_mut().zip(o).for_each(|(d, &o)| *d = o * inv);
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
            #[allow(clippy::too_many_arguments)]
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
            #[allow(clippy::too_many_arguments)]
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
