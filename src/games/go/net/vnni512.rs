//! The 8-bit kernel for AVX-512 VNNI: `vpdpbusd` on 512-bit vectors, 16
//! output channels by 4 input channels an instruction. 6 points by 4
//! vectors (64 output channels) of sums, 4 weight vectors and a broadcast
//! take 29 of the 32 registers.

use super::direct8::{self, Dot};
use super::int8::{Finish, QLayer};
use std::arch::x86_64::{
    __m512i, _mm512_dpbusd_epi32, _mm512_loadu_si512, _mm512_set1_epi32, _mm512_setzero_si512,
    _mm512_storeu_si512,
};

struct Vnni512;

impl Dot for Vnni512 {
    type V = __m512i;
    const LANES: usize = 16;
    #[inline(always)]
    unsafe fn zero() -> __m512i {
        _mm512_setzero_si512()
    }
    #[inline(always)]
    unsafe fn load(p: *const i8) -> __m512i {
        _mm512_loadu_si512(p.cast())
    }
    #[inline(always)]
    unsafe fn splat(p: *const u8) -> __m512i {
        _mm512_set1_epi32(p.cast::<i32>().read_unaligned())
    }
    #[inline(always)]
    unsafe fn dot(acc: __m512i, a: __m512i, w: __m512i) -> __m512i {
        _mm512_dpbusd_epi32(acc, a, w)
    }
    #[inline(always)]
    unsafe fn store(p: *mut i32, v: __m512i) {
        _mm512_storeu_si512(p.cast(), v)
    }
}

/// One layer's sums into `fin` (see [`direct8::conv`]); `layer.cout` a
/// multiple of 16.
///
/// # Safety
/// The CPU must have AVX-512 F, BW and VNNI; the layout as
/// [`direct8::conv`] requires.
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
pub unsafe fn conv(
    layer: &QLayer,
    stride: usize,
    cq: usize,
    input: &[u8],
    points: &[usize],
    fin: &mut Finish,
) {
    if layer.cout.is_multiple_of(64) {
        direct8::conv::<Vnni512, 6, 4>(layer, stride, cq, input, points, fin)
    } else if layer.cout.is_multiple_of(32) {
        direct8::conv::<Vnni512, 12, 2>(layer, stride, cq, input, points, fin)
    } else {
        direct8::conv::<Vnni512, 12, 1>(layer, stride, cq, input, points, fin)
    }
}
