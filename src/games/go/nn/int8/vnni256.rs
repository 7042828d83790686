//! The kernel for AVX-512 VNNI on 256-bit vectors (with AVX-512 VL), for
//! CPUs that slow down on 512-bit ones: `vpdpbusd`, 8 output channels by
//! 4 input channels an instruction (`vpdpwssd`, by 2, for 16-bit layers),
//! 32 registers for sums, weights and the broadcast input.

use super::block::{self, widened, Dot};
use super::layer::{Codes, Finish, QLayer};
use std::arch::x86_64::*;

/// 8-bit products (`vpdpbusd`).
pub(super) struct Vnni256;

widened!(Wide, Vnni256, _mm256_dpwssd_epi32);

impl Dot for Vnni256 {
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
        _mm256_dpbusd_epi32(acc, a, w)
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
/// The CPU must have AVX-512 F, VL, BW and VNNI; the sizes as
/// [`super::run_kernel`] checks them.
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vnni")]
pub unsafe fn run(l: &QLayer, input: &Codes, fin: &Finish, out: &mut [f32], next: &[u32]) {
    match l.per_group {
        2 => blocks::<Wide>(l, input, fin, out, next),
        _ => blocks::<Vnni256>(l, input, fin, out, next),
    }
}

/// [`run`] with `D`'s products: the register blocks that divide the
/// layer's outputs.
#[inline(always)]
unsafe fn blocks<D: Dot>(l: &QLayer, input: &Codes, fin: &Finish, out: &mut [f32], next: &[u32]) {
    match l.cout_pad {
        c if c.is_multiple_of(32) => block::layer::<D, 6, 4>(l, input, fin, out, next),
        c if c.is_multiple_of(24) => block::layer::<D, 8, 3>(l, input, fin, out, next),
        _ => block::layer::<D, 12, 2>(l, input, fin, out, next),
    }
}
