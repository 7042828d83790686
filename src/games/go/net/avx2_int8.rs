//! The 8-bit kernel for AVX2: `vpmaddubsw` sums pairs of u8 x i8 products
//! in i16 (never saturating: codes are at most 127), `vpmaddwd` by ones
//! sums those pairs into i32 lanes, `vpaddd` into the sums: three
//! instructions for what `vpdpbusd` does in one. 4 points by 2 vectors of
//! sums, 2 weight vectors, a broadcast, a product and the ones take 14 of
//! the 16 registers.

use super::direct8::{self, Dot};
use super::int8::{Finish, QLayer};
use std::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_maddubs_epi16,
    _mm256_set1_epi16, _mm256_set1_epi32, _mm256_setzero_si256, _mm256_storeu_si256,
};

struct Avx2;

impl Dot for Avx2 {
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
        let pairs = _mm256_maddubs_epi16(a, w);
        _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)))
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
/// The CPU must have AVX2; the layout as [`direct8::conv`] requires.
#[target_feature(enable = "avx2")]
pub unsafe fn conv(
    layer: &QLayer,
    stride: usize,
    cq: usize,
    input: &[u8],
    points: &[usize],
    fin: &mut Finish,
) {
    direct8::conv::<Avx2, 4, 2>(layer, stride, cq, input, points, fin)
}
