//! The 8-bit kernel for AVX-512 VNNI on 256-bit vectors (EVEX `vpdpbusd`
//! with AVX-512 VL): 8 output channels by 4 input channels an
//! instruction, the 32 registers of AVX-512. For CPUs that run 512-bit
//! instructions slower than twice 256. (AVX-VNNI, the VEX form of the
//! same instruction on CPUs without AVX-512, would be this kernel with
//! `_mm256_dpbusd_avx_epi32`; the development machine lacks it, so it is
//! not written.)

use super::direct8::{self, Dot};
use super::int8::{Finish, QLayer};
use std::arch::x86_64::{
    __m256i, _mm256_dpbusd_epi32, _mm256_loadu_si256, _mm256_set1_epi32, _mm256_setzero_si256,
    _mm256_storeu_si256,
};

struct Vnni256;

impl Dot for Vnni256 {
    type V = __m256i;
    const LANES: usize = 8;
    #[inline(always)]
    unsafe fn zero() -> __m256i {
        _mm256_setzero_si256()
    }
    #[inline(always)]
    unsafe fn load(p: *const i8) -> __m256i {
        _mm256_loadu_si256(p.cast())
    }
    #[inline(always)]
    unsafe fn splat(p: *const u8) -> __m256i {
        _mm256_set1_epi32(p.cast::<i32>().read_unaligned())
    }
    #[inline(always)]
    unsafe fn dot(acc: __m256i, a: __m256i, w: __m256i) -> __m256i {
        _mm256_dpbusd_epi32(acc, a, w)
    }
    #[inline(always)]
    unsafe fn store(p: *mut i32, v: __m256i) {
        _mm256_storeu_si256(p.cast(), v)
    }
}

/// One layer's sums into `fin` (see [`direct8::conv`]); `layer.cout` a
/// multiple of 16.
///
/// # Safety
/// The CPU must have AVX-512 F, VL, BW and VNNI; the layout as
/// [`direct8::conv`] requires.
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vnni")]
pub unsafe fn conv(
    layer: &QLayer,
    stride: usize,
    cq: usize,
    input: &[u8],
    points: &[usize],
    fin: &mut Finish,
) {
    if layer.cout.is_multiple_of(32) {
        direct8::conv::<Vnni256, 6, 4>(layer, stride, cq, input, points, fin)
    } else {
        direct8::conv::<Vnni256, 12, 2>(layer, stride, cq, input, points, fin)
    }
}
