//! AVX-512 arithmetic that AMX's softmax and SwiGLU share, to bf16's
//! precision (their results are rounded to bf16 next): cheaper than the
//! float path's, whose results must be KataGo's to 1e-5.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

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
