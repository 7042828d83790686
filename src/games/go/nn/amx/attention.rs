//! Attention on AMX tiles in bf16: a head's scores `Q Kᵀ` are one matrix
//! product (the keys, transposed, packed as its weights), the softmax is
//! taken in float, and its weights, rounded to bf16, mix the values in a
//! second product (the values packed as weights). Keys and values are
//! packed once for the heads that share them.

use super::tiles::{self, gemm, On, Packed, ROWS};
use crate::games::go::nn::desc::Attention;
use crate::games::go::nn::forward::sized;

/// A thread's buffers, grown once.
#[derive(Default)]
pub struct Scratch {
    /// A head's queries, then its softmax weights, in bf16, a point a row.
    a: Vec<u16>,
    /// Each query's inverse sum of softmax weights.
    sums: Vec<f32>,
    kt: Option<Packed>,
    v: Option<Packed>,
    /// A head's scores, a query a row.
    s: Vec<f32>,
    /// The last rows' outputs, when the points are not whole tiles.
    tail: Vec<f32>,
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
    let (full, left) = (area / ROWS, area % ROWS);
    for kvh in 0..at.kv_heads {
        let kt = sc.kt.get_or_insert_with(|| Packed::new(0, 0, &[]));
        kt.refill_with(qd, area, |d, j| k[j * kn + kvh * qd + d]);
        let vp = sc.v.get_or_insert_with(|| Packed::new(0, 0, &[]));
        vp.refill_with(area, vd, |j, d| v[j * vn + kvh * vd + d]);
        let (np, kp) = (kt.n_pad, vp.k_pad);
        for head in kvh * group..(kvh + 1) * group {
            let a = sized(&mut sc.a, rows * kt.k_pad.max(kp));
            let qa = &mut a[..rows * kt.k_pad];
            for (i, to) in qa.chunks_exact_mut(kt.k_pad).enumerate().take(area) {
                tiles::to_bf16(&q[i * qn + head * qd..][..qd], to);
            }
            qa[area * kt.k_pad..].fill(0);
            let s = sized(&mut sc.s, rows * np);
            let on_ = On::new();
            gemm(
                &on_,
                qa.as_ptr(),
                rows / ROWS,
                kt,
                s.as_mut_ptr(),
                np,
                false,
            );
            // the softmax of each query's scores: its weights in bf16 as
            // they come, each mix divided by the sum of those it took
            let pa = &mut a[..rows * kp];
            let sums = sized(&mut sc.sums, area);
            for (i, total) in sums.iter_mut().enumerate() {
                *total = 1.0 / exps(&s[i * np..][..np], area, scale, &mut pa[i * kp..][..kp]);
            }
            pa[area * kp..].fill(0);
            let o = out.as_mut_ptr().add(head * vd);
            gemm(&on_, pa.as_ptr(), full, vp, o, on, false);
            if left > 0 {
                let tail = sized(&mut sc.tail, ROWS * vd);
                let from = pa.as_ptr().add(full * ROWS * kp);
                gemm(&on_, from, 1, vp, tail.as_mut_ptr(), vd, false);
                for (r, t) in tail.chunks_exact(vd).take(left).enumerate() {
                    out[((full * ROWS + r) * at.heads + head) * vd..][..vd].copy_from_slice(t);
                }
            }
            for (i, inv) in sums.iter().enumerate() {
                out[i * on + head * vd..][..vd]
                    .iter_mut()
                    .for_each(|o| *o *= inv);
            }
        }
    }
}

/// `2^((x - top) * scale)` of the scores `row` (`top` the largest of
/// its first `n`) into `to` in bf16, zeros past `n`; returns the sum of
/// what `to` holds. In whole vectors of 16 lanes, those past `n` masked,
/// 2^x by [`crate::games::go::nn::forward::act::exp2`]'s polynomial (written out: the compiler kept the
/// sums in memory, a chain of stores and loads).
///
/// # Safety
/// The CPU must have AVX-512 F, BW and BF16 (every AMX CPU has them).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
unsafe fn exps(row: &[f32], n: usize, scale: f32, to: &mut [u16]) -> f32 {
    use std::arch::x86_64::*;
    assert!(row.len().is_multiple_of(16) && row.len() >= n && to.len() >= row.len());
    let lanes = |c: usize| -> __mmask16 {
        let left = n.saturating_sub(c * 16).min(16);
        ((1u32 << left) - 1) as __mmask16
    };
    // two chains of maxima, each half as long
    let (mut m0, mut m1) = (
        _mm512_set1_ps(f32::NEG_INFINITY),
        _mm512_set1_ps(f32::NEG_INFINITY),
    );
    let vectors = row.len() / 16;
    for c in (0..vectors).step_by(2) {
        let v = _mm512_loadu_ps(row.as_ptr().add(c * 16));
        m0 = _mm512_mask_max_ps(m0, lanes(c), m0, v);
        if c + 1 < vectors {
            let v = _mm512_loadu_ps(row.as_ptr().add(c * 16 + 16));
            m1 = _mm512_mask_max_ps(m1, lanes(c + 1), m1, v);
        }
    }
    let top = _mm512_set1_ps(_mm512_reduce_max_ps(_mm512_max_ps(m0, m1)));
    let sc = _mm512_set1_ps(scale);
    let poly = [
        0.009_618_1,
        0.055_504_1,
        0.240_226_5,
        std::f32::consts::LN_2,
        1.0,
    ]
    .map(|v| _mm512_set1_ps(v));
    let mut t = _mm512_setzero_ps();
    for c in 0..row.len() / 16 {
        let x = _mm512_loadu_ps(row.as_ptr().add(c * 16));
        let y = _mm512_max_ps(
            _mm512_mul_ps(_mm512_sub_ps(x, top), sc),
            _mm512_set1_ps(-100.0),
        );
        // y = n + f, |f| <= 1/2; 2^f by the polynomial, times 2^n by vscalefps
        let n = _mm512_roundscale_ps::<0x08>(y);
        let f = _mm512_sub_ps(y, n);
        let mut p = poly[0];
        for k in &poly[1..] {
            p = _mm512_fmadd_ps(p, f, *k);
        }
        let e = _mm512_maskz_scalef_ps(lanes(c), p, n);
        let b: __m256i = std::mem::transmute(_mm512_cvtneps_pbh(e));
        _mm256_storeu_si256(to.as_mut_ptr().add(c * 16).cast(), b);
        let back = _mm512_slli_epi32(_mm512_cvtepu16_epi32(b), 16);
        t = _mm512_add_ps(t, _mm512_castsi512_ps(back));
    }
    to[row.len()..].fill(0);
    _mm512_reduce_add_ps(t)
}
