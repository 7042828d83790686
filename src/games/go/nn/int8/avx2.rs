//! The kernel for AVX2: `vpmaddwd` on 256-bit vectors, 16-bit codes and
//! weights, 8 output channels by 2 input channels an instruction and a
//! `vpaddd` into the sums. Wider than the 8-bit form (`vpmaddubsw` would
//! saturate its i16 pairs with codes past 127) and as fast: the same
//! codes as the VNNI kernels, the same sums. 16 registers: 4 points by 2
//! vectors of sums.

use super::block::{self, Dot};
use super::layer::{Codes, Finish, QLayer};
use std::arch::x86_64::*;

pub(super) struct Avx2;

impl Dot for Avx2 {
    type V = __m256i;
    const LANES: usize = 8;
    #[inline(always)]
    unsafe fn zero() -> __m256i {
        _mm256_setzero_si256()
    }
    #[inline(always)]
    unsafe fn load(p: *const u32) -> __m256i {
        _mm256_loadu_si256(p.cast())
    }
    #[inline(always)]
    unsafe fn splat(p: *const u32) -> __m256i {
        _mm256_set1_epi32(p.read() as i32)
    }
    #[inline(always)]
    unsafe fn dot(acc: __m256i, a: __m256i, w: __m256i) -> __m256i {
        _mm256_add_epi32(acc, _mm256_madd_epi16(a, w))
    }
    #[inline(always)]
    unsafe fn finish(acc: __m256i, zc: *const i32, mul: *const f32, out: *mut f32, add: bool) {
        let v = _mm256_sub_epi32(acc, _mm256_loadu_si256(zc.cast()));
        let mut f = _mm256_mul_ps(_mm256_cvtepi32_ps(v), _mm256_loadu_ps(mul));
        if add {
            f = _mm256_add_ps(_mm256_loadu_ps(out), f);
        }
        _mm256_storeu_ps(out, f)
    }
    #[inline(always)]
    unsafe fn scaled(acc: __m256i, mul: *const f32, out: *mut f32) {
        _mm256_storeu_ps(
            out,
            _mm256_mul_ps(_mm256_cvtepi32_ps(acc), _mm256_loadu_ps(mul)),
        )
    }
}

/// `l` over `input` into `out` (see [`block::layer`]).
///
/// # Safety
/// The CPU must have AVX2; the sizes as [`super::run_kernel`] checks them.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn run(l: &QLayer, input: &Codes, fin: &Finish, out: &mut [f32], next: &[u32]) {
    assert_eq!(l.per_group, 2, "16-bit layers only");
    block::layer::<Avx2, 4, 2>(l, input, fin, out, next)
}

/// [`super::quantise`] compiled for these instructions.
///
/// # Safety
/// The CPU must have them.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn quantise(
    x: &[f32],
    l: &QLayer,
    w: usize,
    row: &mut Vec<i32>,
    codes: &mut [u32],
) -> (f32, i32) {
    super::layer::quantise(x, l, w, row, codes)
}
