//! Attention in 16-bit integers: a head's scores `Q K^T` and its mix of
//! values `P V` are two layers of the kernels (`block.rs`, 16-bit form:
//! `vpdpwssd`, `vpmaddwd`), the keys and the values taking the place of
//! weights, each key and each value channel with its own scale, each
//! query too, all from this evaluation. Codes go as far as the sums allow
//! without overflowing an i32 (8191 for 32 dimensions, 2439 over 361
//! points). The softmax stays in float, through a vectorised exponential;
//! its weights are coded relative to the row's largest, and each output
//! is divided by its row's sum of codes, so the mix's weights sum to one
//! exactly.
//!
//! In 8 bits (`vpdpbusd`) the mix moved b10c384's policy seven times as
//! far from float, and the scores, whose inner sums are only 32 long,
//! ran no faster.

use super::dispatch::run_kernel;
use super::layer::{Codes, Finish, Kernel, QLayer};
use crate::games::go::nn::desc::Attention;
use std::cell::RefCell;

/// A thread's buffers, grown once.
#[derive(Default)]
struct Scratch {
    /// Weights of the keys' and the values' layers.
    kw: Vec<u32>,
    vw: Vec<u32>,
    /// The queries' codes and scales; the scores; the softmax's codes and
    /// each row's sum of them; a head's outputs; a row's codes unpacked.
    qc: Vec<u32>,
    qs: Vec<f32>,
    scores: Vec<f32>,
    pc: Vec<u32>,
    tot: Vec<i32>,
    o: Vec<f32>,
    row: Vec<i32>,
    /// Each key's and each value channel's multiplier; zeros, and for
    /// the scores, ones past the keys.
    mk: Vec<f32>,
    mv: Vec<f32>,
    zero: Vec<i32>,
    past: Vec<i32>,
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

/// 2^y for y <= 0, to 4e-5 (the softmax's codes have 12 bits): y split
/// as n + f with |f| <= 1/2, a polynomial for 2^f, 2^n put in the
/// exponent's bits. Below -100 it is 2^-100: never subnormal.
#[inline(always)]
fn exp2(y: f32) -> f32 {
    let y = y.max(-100.0);
    let t = y + 12582912.0;
    let f = y - (t - 12582912.0);
    let p = 1.0
        + f * (std::f32::consts::LN_2 + f * (0.240_226_5 + f * (0.055_504_1 + f * 0.009_618_1)));
    let bits = (t.to_bits().wrapping_sub(0x4b40_0000).wrapping_add(127)) << 23;
    p * f32::from_bits(bits)
}

/// Two i16 codes as a group.
#[inline(always)]
fn pair(a: i32, b: i32) -> u32 {
    (a as u32 & 0xffff) | (b as u32) << 16
}

/// The largest of `f(v)` over `x` and `init`, in 16 lanes, one vector
/// (one lane would wait on each comparison in turn), then halves.
#[inline(always)]
fn largest(x: &[f32], init: f32, f: impl Fn(f32) -> f32) -> f32 {
    let mut m = [init; 16];
    let mut chunks = x.chunks_exact(16);
    let most = |m: &mut [f32; 16], ch: &[f32]| {
        for (m, &v) in m.iter_mut().zip(ch) {
            let b = f(v);
            *m = if b > *m { b } else { *m };
        }
    };
    for ch in &mut chunks {
        most(&mut m, ch);
    }
    most(&mut m, chunks.remainder());
    // halves, each an array of its own, which LLVM keeps in registers
    fn half<const N: usize, const H: usize>(m: [f32; N]) -> [f32; H] {
        std::array::from_fn(|i| if m[i + H] > m[i] { m[i + H] } else { m[i] })
    }
    let m: [f32; 2] = half(half::<8, 4>(half::<16, 8>(m)));
    if m[1] > m[0] {
        m[1]
    } else {
        m[0]
    }
}

/// `x` times `inv`, rounded, into `c`, whose lanes past `x` get zeros.
#[inline(always)]
fn code_row(x: &[f32], inv: f32, c: &mut [i16]) {
    let (c, rest) = c.split_at_mut(x.len());
    c.iter_mut()
        .zip(x)
        .for_each(|(c, &x)| *c = round(x * inv) as i16);
    rest.fill(0);
}

/// A row of scores as the softmax's codes into `c`: each `2^((x - m)
/// sc)` of the row's largest `m`, coded as `top` at 1; the row whole
/// vectors long (scores past the keys are -inf, their codes 0). Returns
/// the codes' sum.
#[inline(always)]
fn softmax_row(row: &[f32], sc: f32, top: f32, c: &mut [i16]) -> i32 {
    assert!(row.len().is_multiple_of(16) && c.len() == row.len());
    let m = largest(row, f32::MIN, |v| v);
    // 16 sums, one a lane, in registers
    let mut tot = [0i32; 16];
    for (x, c) in row.chunks_exact(16).zip(c.chunks_exact_mut(16)) {
        let mut v = [0i32; 16];
        for i in 0..16 {
            v[i] = round(exp2((x[i] - m) * sc) * top);
        }
        for i in 0..16 {
            c[i] = v[i] as i16;
            tot[i] += v[i];
        }
    }
    tot.iter().sum()
}

/// Groups of two i16 as their lanes, the low first, as [`pair`] and
/// the kernels take them.
fn halves(g: &mut [u32]) -> &mut [i16] {
    const { assert!(cfg!(target_endian = "little"), "i16 lanes low first") };
    // SAFETY: the same bytes, at an alignment i16 needs less of; any
    // bits are an i16
    unsafe { std::slice::from_raw_parts_mut(g.as_mut_ptr().cast(), 2 * g.len()) }
}

/// `v` holding at least `n` values, as they are.
fn sized<T: Clone + Default>(v: &mut Vec<T>, n: usize) -> &mut [T] {
    if v.len() < n {
        v.resize(n, T::default());
    }
    &mut v[..n]
}

/// `v` holding `n` zeros.
fn zeroed<T: Clone + Default>(v: &mut Vec<T>, n: usize) -> &mut [T] {
    v.clear();
    v.resize(n, T::default());
    v
}

/// A 16-bit layer of `cin` inputs by `cout` outputs (`cout_pad` padded),
/// its weights zeros in `w` for the caller to fill.
fn shell(w: &mut Vec<u32>, cin: usize, cout: usize, cout_pad: usize) -> QLayer {
    let groups = cin.div_ceil(2);
    zeroed(w, groups * cout_pad);
    QLayer {
        k: 1,
        cin,
        cout,
        cout_pad,
        per_group: 2,
        groups,
        top: 0,
        w: std::mem::take(w),
        scale: Vec::new(),
        colsum: Vec::new(),
    }
}

/// The keys at `at` of each point's `kn` values as the layer from a
/// query's `qd` dimensions to the `points` keys, each key with its own
/// scale; `mul` gets each key's scale over sqrt(qd), in powers of 2
/// rather than of e (for [`exp2`]).
#[inline(always)]
fn keys(s: &mut Scratch, k: &[f32], (kn, at, qd): (usize, usize, usize), points: usize) -> QLayer {
    // outputs in fours of 16 lanes: the widest register blocks
    let cp = points.next_multiple_of(64);
    let mut l = shell(&mut s.kw, qd, points, cp);
    let top = top(qd);
    let mul = zeroed(&mut s.mk, cp);
    // scores past the keys -inf, `(0 - 1) * inf`, which the softmax's
    // whole vectors code as 0
    mul[points..].fill(f32::INFINITY);
    let past = zeroed(&mut s.past, cp);
    past[points..].fill(1);
    let by = std::f32::consts::LOG2_E / (qd as f32).sqrt();
    let c = sized(&mut s.row, qd + 1);
    for (j, m) in mul.iter_mut().enumerate().take(points) {
        let row = &k[j * kn + at..][..qd];
        let sc = largest(row, 0.0, f32::abs) / top;
        let inv = if sc > 0.0 { 1.0 / sc } else { 0.0 };
        c.iter_mut()
            .zip(row)
            .for_each(|(c, &x)| *c = round(x * inv));
        c[qd] = 0;
        for (g, c) in c.chunks_exact(2).enumerate() {
            l.w[g * cp + j] = pair(c[0], c[1]);
        }
        *m = sc * by;
    }
    l
}

/// The values at `at` of each point's `vn` as the layer from the `points`
/// softmax weights to the `vd` channels, each channel with its own scale.
#[inline(always)]
fn values(
    s: &mut Scratch,
    v: &[f32],
    (vn, at, vd): (usize, usize, usize),
    points: usize,
) -> QLayer {
    let cp = vd.next_multiple_of(16);
    let mut l = shell(&mut s.vw, points, vd, cp);
    let top = top(points);
    let mul = zeroed(&mut s.mv, cp);
    for j in 0..points {
        for (m, &x) in mul.iter_mut().zip(&v[j * vn + at..][..vd]) {
            *m = if x.abs() > *m { x.abs() } else { *m };
        }
    }
    mul.iter_mut().for_each(|m| *m /= top);
    let inv: Vec<f32> = mul
        .iter()
        .map(|&m| if m > 0.0 { 1.0 / m } else { 0.0 })
        .collect();
    let zeros = vec![0.0; vd];
    for (g, w) in l.w.chunks_exact_mut(cp).enumerate() {
        let a = &v[2 * g * vn + at..][..vd];
        let b = match 2 * g + 1 < points {
            true => &v[(2 * g + 1) * vn + at..][..vd],
            false => &zeros[..],
        };
        for (((w, &a), &b), &i) in w.iter_mut().zip(a).zip(b).zip(&inv) {
            *w = pair(round(a * i), round(b * i));
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
    let (qn, kn, vn, on) = at.widths();
    let (qtop, ptop) = (top(qd), top(points));
    for kvh in 0..at.kv_heads {
        let kl = keys(s, k, (kn, kvh * qd, qd), points);
        let vl = values(s, v, (vn, kvh * vd, vd), points);
        zeroed(&mut s.zero, kl.cout_pad.max(vl.cout_pad));
        let (qg, pg) = (kl.groups, vl.groups);
        for head in (kvh * at.heads / at.kv_heads..).take(at.heads / at.kv_heads) {
            // the queries, each with its own scale
            let qc = sized(&mut s.qc, points * qg);
            let qs = sized(&mut s.qs, points);
            for (i, (codes, sc)) in qc.chunks_exact_mut(qg).zip(qs.iter_mut()).enumerate() {
                let row = &q[i * qn + head * qd..][..qd];
                *sc = largest(row, 0.0, f32::abs) / qtop;
                let inv = if *sc > 0.0 { 1.0 / *sc } else { 0.0 };
                code_row(row, inv, halves(codes));
            }
            let scores = sized(&mut s.scores, points * kl.cout_pad);
            let fin = Finish {
                row: kl.cout_pad,
                zc: &s.past,
                mul: &s.mk,
                add: false,
            };
            let input = Codes {
                codes: qc,
                stride: points,
                w: points,
                h: 1,
            };
            run_kernel(kernel, &kl, &input, &fin, scores, &[]);
            // the softmax's weights, the row's largest coded as `ptop`
            // a row's codes whole vectors long, into the next row's,
            // which that row then writes (the last into a tail)
            let whole = points.next_multiple_of(16);
            let pc = halves(sized(&mut s.pc, points * pg + whole));
            for (i, tot) in sized(&mut s.tot, points).iter_mut().enumerate() {
                let row = &scores[i * kl.cout_pad..][..whole];
                *tot = softmax_row(row, s.qs[i], ptop, &mut pc[2 * i * pg..][..whole]);
            }
            let pc = &s.pc[..points * pg];
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
            run_kernel(kernel, &vl, &input, &fin, o, &[]);
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
