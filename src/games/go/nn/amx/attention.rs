//! Attention on AMX tiles in bf16: a head's scores `Q Kᵀ` are one matrix
//! product (the keys, transposed, packed as its weights), the softmax is
//! taken in float, and its weights, rounded to bf16, mix the values in a
//! second product (the values packed as weights), a block of queries at a
//! time. Keys and values are packed once for the heads that share them.

use super::tiles::{gemm, On, Packed, K_STEP, ROWS};
use super::vector::{below, pow2};
use crate::games::go::nn::desc::Attention;
use crate::games::go::nn::forward::sized;

/// A thread's buffers, grown once.
#[derive(Default)]
pub struct Scratch {
    /// A head's queries in bf16, a point a row.
    a: Vec<u16>,
    /// A block's softmax weights in bf16, a query a row.
    p: Vec<u16>,
    kt: Option<Packed>,
    v: Option<Packed>,
    /// A block's scores, a query a row.
    s: Vec<f32>,
    /// A block's mixes of values, before their division by the sums.
    mix: Vec<f32>,
}

/// Whether [`run`] takes `at`: values of whole tiles of 16 (KataGo's
/// transformer nets' 32 and 64).
pub fn takes(at: &Attention) -> bool {
    at.v_dim.is_multiple_of(ROWS) && at.heads.is_multiple_of(at.kv_heads.max(1))
}

/// Attention of `at`'s heads over `area` points, as
/// [`crate::games::go::nn::forward::Kernels::attention`] has it.
///
/// # Safety
/// [`tiles::available`] must have said yes; [`takes`] `at`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
pub unsafe fn run(
    at: &Attention,
    sc: &mut Scratch,
    q: &[f32],
    k: &[f32],
    v: &[f32],
    out: &mut [f32],
    area: usize,
) {
    let (qd, vd) = (at.q_dim, at.v_dim);
    let (qn, kn, vn, on) = at.widths();
    assert!(takes(at) && q.len() >= area * qn && k.len() >= area * kn);
    assert!(v.len() >= area * vn && out.len() >= area * on);
    // scores scaled, in powers of two
    let scale = std::f32::consts::LOG2_E / (qd as f32).sqrt();
    let group = at.heads / at.kv_heads;
    let rows = area.next_multiple_of(ROWS);
    for kvh in 0..at.kv_heads {
        let kt = sc.kt.get_or_insert_with(|| Packed::new(0, 0, &[]));
        keys(kt, &k[kvh * qd..], kn, qd, area);
        let vp = sc.v.get_or_insert_with(|| Packed::new(0, 0, &[]));
        values(vp, &v[kvh * vd..], vn, vd, area);
        let (np, kp) = (kt.n_pad, vp.k_pad);
        for head in kvh * group..(kvh + 1) * group {
            let qa = sized(&mut sc.a, rows * kt.k_pad);
            for (i, to) in qa.chunks_exact_mut(kt.k_pad).enumerate() {
                let from = &q[(i * qn + head * qd).min(q.len())..];
                bf16_row(from, if i < area { qd } else { 0 }, to);
            }
            // a block of queries at a time: its scores, weights and mixes
            // stay in cache between the products
            let s = sized(&mut sc.s, BLOCK * np);
            let pa = sized(&mut sc.p, BLOCK * kp);
            let mix = sized(&mut sc.mix, BLOCK * vd);
            let on_ = On::new();
            for first in (0..area).step_by(BLOCK) {
                let n = BLOCK.min(area - first);
                let tiles = n.div_ceil(ROWS);
                let from = qa.as_ptr().add(first * kt.k_pad);
                gemm(&on_, from, tiles, kt, s.as_mut_ptr(), np, false);
                // the softmax of each query's scores: its weights in bf16
                // as they come, each mix divided by the sum of those it took
                let mut inv = [0.0; BLOCK];
                for (i, inv) in inv.iter_mut().enumerate().take(n) {
                    *inv = 1.0 / exps(&s[i * np..][..np], area, scale, &mut pa[i * kp..][..kp]);
                }
                pa[n * kp..tiles * ROWS * kp].fill(0);
                gemm(&on_, pa.as_ptr(), tiles, vp, mix.as_mut_ptr(), vd, false);
                for (i, (m, inv)) in mix.chunks_exact(vd).zip(inv).take(n).enumerate() {
                    let o = &mut out[(first + i) * on + head * vd..][..vd];
                    o.iter_mut().zip(m).for_each(|(o, m)| *o = m * inv);
                }
            }
        }
    }
}

/// Queries a pass of [`run`] takes: two tiles of rows, the products'
/// best shape; their scores (47 KB for 19x19) stay in L2.
const BLOCK: usize = 2 * ROWS;

/// The first `n` of `x` into `to` in bf16 (to nearest, ties to even),
/// zeros past them; `to` whole 64-byte rows.
///
/// # Safety
/// The CPU must have AVX-512 F, BW and BF16 (every AMX CPU has them).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
unsafe fn bf16_row(x: &[f32], n: usize, to: &mut [u16]) {
    use std::arch::x86_64::*;
    assert!(x.len() >= n && to.len().is_multiple_of(32) && to.len() >= n);
    for (c, row) in to.chunks_exact_mut(32).enumerate() {
        let lo = _mm512_maskz_loadu_ps(below(n, 2 * c), x.as_ptr().wrapping_add(32 * c));
        let hi = _mm512_maskz_loadu_ps(below(n, 2 * c + 1), x.as_ptr().wrapping_add(32 * c + 16));
        let b: __m512i = std::mem::transmute(_mm512_cvtne2ps_pbh(hi, lo));
        _mm512_storeu_si512(row.as_mut_ptr().cast(), b);
    }
}

/// `kt` made the keys' transpose, `d` x `area`, from `k` (a point's
/// `d` values at the start of each `width`): the weights of the scores'
/// product. A key's values of a step, in bf16, are 16 pairs that go down
/// a tile's column: one scatter.
///
/// # Safety
/// As [`bf16_row`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
unsafe fn keys(kt: &mut Packed, k: &[f32], width: usize, d: usize, area: usize) {
    use std::arch::x86_64::*;
    assert!(area == 0 || k.len() >= (area - 1) * width + d);
    let (k_pad, points) = (d.next_multiple_of(K_STEP), area.next_multiple_of(ROWS));
    let w = kt.reshape(d, area);
    let rows = _mm512_mullo_epi32(
        _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        _mm512_set1_epi32(16),
    );
    let mut pair = [0u16; K_STEP];
    for j in 0..points {
        for st in 0..k_pad / K_STEP {
            let n = match j < area {
                true => d.saturating_sub(st * K_STEP).min(K_STEP),
                false => 0,
            };
            let from = &k[(j * width + st * K_STEP).min(k.len())..];
            bf16_row(from, n, &mut pair);
            let col = _mm512_loadu_si512(pair.as_ptr().cast());
            // tile (point block, step), row r, column j % 16: u16 at
            // r * 32 + (j % 16) * 2, a u32 at r * 16 + j % 16
            let tile = Packed::at(k_pad, st * K_STEP, j);
            let base = w.as_mut_ptr().add(tile).cast::<i32>();
            _mm512_i32scatter_epi32::<4>(base, rows, col);
        }
    }
}

/// `vp` made the values, `area` x `d`, from `v` (a point's `d` values
/// at the start of each `width`; `d` whole tiles of 16): the weights of
/// the mixing product. A tile's row is two points' 16 values, in bf16,
/// interleaved: one conversion and one permutation.
///
/// # Safety
/// As [`bf16_row`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
unsafe fn values(vp: &mut Packed, v: &[f32], width: usize, d: usize, area: usize) {
    use std::arch::x86_64::*;
    assert!(d.is_multiple_of(ROWS) && (area == 0 || v.len() >= (area - 1) * width + d));
    let k_pad = area.next_multiple_of(K_STEP);
    let w = vp.reshape(area, d);
    let mut mix = [0i16; 32];
    for (i, m) in mix.iter_mut().enumerate() {
        *m = (i / 2 + i % 2 * 16) as i16;
    }
    let mix = _mm512_loadu_si512(mix.as_ptr().cast());
    let point = |j: usize, c: usize| {
        if j < area {
            _mm512_loadu_ps(v.as_ptr().add(j * width + c * 16))
        } else {
            _mm512_setzero_ps()
        }
    };
    for j in (0..k_pad).step_by(2) {
        for c in 0..d / 16 {
            let b: __m512i = std::mem::transmute(_mm512_cvtne2ps_pbh(point(j + 1, c), point(j, c)));
            let row = _mm512_permutexvar_epi16(mix, b);
            let at = Packed::at(k_pad, j, c * 16);
            _mm512_storeu_si512(w.as_mut_ptr().add(at).cast(), row);
        }
    }
}

/// `2^(x * scale)` of the scores `row`'s first `n`, shifted so that
/// they sum to a number f32 holds well, into `to` in bf16, zeros past
/// `n`; returns the sum of what `to` holds (by `vdpbf16ps` with ones, in
/// f32). A softmax needs no shift for the scores trained nets give (2^x
/// keeps its precision over f32's range), so the scores are read once;
/// only a sum out of [2^-60, 2^60] (or not a number) takes a second pass,
/// shifted by the largest score.
///
/// # Safety
/// The CPU must have AVX-512 F, BW and BF16 (every AMX CPU has them).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
unsafe fn exps(row: &[f32], n: usize, scale: f32, to: &mut [u16]) -> f32 {
    use std::arch::x86_64::*;
    assert!(row.len() >= n && to.len().is_multiple_of(32) && to.len() >= row.len());
    let sum = pow2s(row, n, scale, 0.0, to);
    if (2f32.powi(-60)..=2f32.powi(60)).contains(&sum) {
        return sum;
    }
    let mut m = _mm512_set1_ps(f32::NEG_INFINITY);
    for c in 0..n.div_ceil(16) {
        let v = _mm512_maskz_loadu_ps(below(n, c), row.as_ptr().add(c * 16));
        m = _mm512_mask_max_ps(m, below(n, c), m, v);
    }
    pow2s(row, n, scale, _mm512_reduce_max_ps(m) * scale, to)
}

/// `2^(x * scale - shift)` ([`pow2`]) of `row`'s first `n` into `to`, as
/// [`exps`] has it, the sum in two chains.
///
/// # Safety
/// As [`exps`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
unsafe fn pow2s(row: &[f32], n: usize, scale: f32, shift: f32, to: &mut [u16]) -> f32 {
    use std::arch::x86_64::*;
    let (sc, shift) = (_mm512_set1_ps(scale), _mm512_set1_ps(shift));
    let weights = |c: usize| {
        let x = _mm512_maskz_loadu_ps(below(n, c), row.as_ptr().wrapping_add(c * 16));
        let p = pow2(_mm512_fmsub_ps(x, sc, shift));
        _mm512_maskz_mov_ps(below(n, c), p)
    };
    let ones: __m512bh = std::mem::transmute(_mm512_set1_epi16(0x3f80));
    let (mut t, mut u) = (_mm512_setzero_ps(), _mm512_setzero_ps());
    for (c, pair) in to.chunks_exact_mut(32).enumerate() {
        let b = _mm512_cvtne2ps_pbh(weights(2 * c + 1), weights(2 * c));
        _mm512_storeu_si512(
            pair.as_mut_ptr().cast(),
            std::mem::transmute::<__m512bh, __m512i>(b),
        );
        (t, u) = (u, _mm512_dpbf16_ps(t, b, ones));
    }
    _mm512_reduce_add_ps(_mm512_add_ps(t, u))
}
