//! AVX-512 arithmetic of AMX's softmax, SwiGLU and the norms taken into
//! convolutions, to bf16's precision (their results are rounded to bf16
//! next): cheaper than the float path's, whose results must be KataGo's
//! to 1e-5.

use crate::games::go::nn::desc::{Act, Norm};
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Lanes `c * 16 ..` of 16 that are below `n`: the mask of a vector of
/// the first `n` values.
#[inline(always)]
pub fn below(n: usize, c: usize) -> u16 {
    let left = n.saturating_sub(c * 16).min(16);
    ((1u32 << left) - 1) as u16
}

/// 2^y in each lane: 2^f (`|f| <= 1/2`, a cubic: 8e-5 off, under bf16's
/// 2e-3) times 2^n by `vscalefps`, which saturates where shifting bits
/// into the exponent would wrap.
///
/// # Safety
/// The CPU must have AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
pub unsafe fn pow2(y: __m512) -> __m512 {
    let e = _mm512_roundscale_ps::<0x08>(y);
    let f = _mm512_sub_ps(y, e);
    let mut p = _mm512_set1_ps(0.055_088_68);
    for k in [0.242_604_05, 0.693_276_2, 0.999_928_94] {
        p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(k));
    }
    _mm512_scalef_ps(p, e)
}

/// SiLU, `x / (1 + e^-x)`, to 2e-4 in each lane: [`pow2`] and a 14-bit
/// reciprocal. Far below zero `e^-x` is infinite and the result -0.
///
/// # Safety
/// The CPU must have AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
pub unsafe fn silu(x: __m512) -> __m512 {
    let e = pow2(_mm512_mul_ps(x, _mm512_set1_ps(-std::f32::consts::LOG2_E)));
    _mm512_mul_ps(x, _mm512_rcp14_ps(_mm512_add_ps(e, _mm512_set1_ps(1.0))))
}

/// Mish, `x tanh(ln(1 + e^x))` as `x n / (n + 2)` with `n = e^x (e^x +
/// 2)`, to 2e-4 in each lane; `x` itself past 20, as KataGo takes it.
///
/// # Safety
/// The CPU must have AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
pub unsafe fn mish(x: __m512) -> __m512 {
    let big = _mm512_set1_ps(20.0);
    let e = pow2(_mm512_mul_ps(
        _mm512_min_ps(x, big),
        _mm512_set1_ps(std::f32::consts::LOG2_E),
    ));
    let n = _mm512_mul_ps(e, _mm512_add_ps(e, _mm512_set1_ps(2.0)));
    let y = _mm512_mul_ps(
        _mm512_mul_ps(x, n),
        _mm512_rcp14_ps(_mm512_add_ps(n, _mm512_set1_ps(2.0))),
    );
    _mm512_mask_blend_ps(_mm512_cmp_ps_mask::<_CMP_GT_OQ>(x, big), y, x)
}

/// `act(x * n.scale + n.bias)` of a point's channels `x` into `to` in
/// bf16 (to nearest, ties to even; subnormal results to zero), zeros
/// past them: a norm and activation taken as a product reads its input.
///
/// # Safety
/// The CPU must have AVX-512 F, BW and BF16 (every AMX CPU has them).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
pub unsafe fn norm_act_bf16(x: &[f32], n: &Norm, a: Act, to: &mut [u16]) {
    let c = x.len();
    assert!(n.scale.len() == c && n.bias.len() == c && to.len() >= c);
    for i in (0..c).step_by(16) {
        let lanes = below(c, i / 16);
        let at = |v: &[f32]| _mm512_maskz_loadu_ps(lanes, v.as_ptr().add(i));
        let y = _mm512_fmadd_ps(at(x), at(&n.scale), at(&n.bias));
        let y = match a {
            Act::Identity => y,
            Act::Relu => _mm512_max_ps(y, _mm512_setzero_ps()),
            Act::Silu => silu(y),
            Act::Mish => mish(y),
        };
        let b: __m256i = std::mem::transmute(_mm512_cvtneps_pbh(y));
        // the 512-bit form: the 256-bit one wants AVX-512 VL besides
        let b = _mm512_castsi256_si512(b);
        _mm512_mask_storeu_epi16(to.as_mut_ptr().add(i).cast(), lanes as u32, b);
    }
    to[c..].fill(0);
}
