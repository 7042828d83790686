//! The kernel for AVX-512 VNNI: `vpdpbusd` on 512-bit vectors, 16 output
//! channels by 4 input channels an instruction (`vpdpwssd`, by 2, for
//! 16-bit layers), 32 registers for sums, weights and the broadcast
//! input.

use super::block::{self, widened, Dot};
use super::layer::{Codes, Finish, QLayer};
use std::arch::x86_64::*;

/// 8-bit products (`vpdpbusd`).
pub(super) struct Vnni512;

widened!(Wide, Vnni512, _mm512_dpwssd_epi32);

impl Dot for Vnni512 {
    type V = __m512i;
    const LANES: usize = 16;
    #[inline(always)]
    unsafe fn zero() -> __m512i {
        _mm512_setzero_si512()
    }
    #[inline(always)]
    unsafe fn load(p: *const u32) -> __m512i {
        _mm512_loadu_si512(p.cast())
    }
    #[inline(always)]
    unsafe fn splat(p: *const u32) -> __m512i {
        _mm512_set1_epi32(p.read() as i32)
    }
    #[inline(always)]
    unsafe fn dot(acc: __m512i, a: __m512i, w: __m512i) -> __m512i {
        _mm512_dpbusd_epi32(acc, a, w)
    }
    #[inline(always)]
    unsafe fn finish(acc: __m512i, zc: *const i32, mul: *const f32, out: *mut f32, add: bool) {
        let v = _mm512_sub_epi32(acc, _mm512_loadu_si512(zc.cast()));
        let mut f = _mm512_mul_ps(_mm512_cvtepi32_ps(v), _mm512_loadu_ps(mul));
        if add {
            f = _mm512_add_ps(_mm512_loadu_ps(out), f);
        }
        _mm512_storeu_ps(out, f)
    }
    #[inline(always)]
    unsafe fn scaled(acc: __m512i, mul: *const f32, out: *mut f32) {
        _mm512_storeu_ps(
            out,
            _mm512_mul_ps(_mm512_cvtepi32_ps(acc), _mm512_loadu_ps(mul)),
        )
    }
}

/// `l` over `input` into `out` (see [`block::layer`]).
///
/// # Safety
/// The CPU must have AVX-512 F, BW and VNNI; the sizes as
/// [`super::run_kernel`] checks them.
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
pub unsafe fn run(l: &QLayer, input: &Codes, fin: &Finish, out: &mut [f32], next: &[u32]) {
    match l.per_group {
        2 => blocks::<Wide>(l, input, fin, out, next),
        _ => blocks::<Vnni512>(l, input, fin, out, next),
    }
}

/// [`run`] with `D`'s products: the register blocks that divide the
/// layer's outputs.
#[inline(always)]
unsafe fn blocks<D: Dot>(l: &QLayer, input: &Codes, fin: &Finish, out: &mut [f32], next: &[u32]) {
    // a block of weights (64 outputs) past L1 (48 KB) for long inputs
    let long = l.groups * 256 > 40 << 10;
    match l.cout_pad {
        c if c.is_multiple_of(64) && !long => block::layer::<D, 6, 4>(l, input, fin, out, next),
        c if c.is_multiple_of(48) => block::layer::<D, 8, 3>(l, input, fin, out, next),
        c if c.is_multiple_of(32) => block::layer::<D, 12, 2>(l, input, fin, out, next),
        _ => block::layer::<D, 16, 1>(l, input, fin, out, next),
    }
}

/// [`super::quantise`] compiled for these instructions.
///
/// # Safety
/// The CPU must have them.
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
pub unsafe fn quantise(
    x: &[f32],
    l: &QLayer,
    w: usize,
    row: &mut Vec<i32>,
    codes: &mut [u32],
) -> (f32, i32) {
    super::layer::quantise(x, l, w, row, codes)
}
