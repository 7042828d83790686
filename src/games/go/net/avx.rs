//! The convolutions with AVX2 and FMA: `POINTS` neighbouring points of a
//! row by `LANES` output channels at a time, the sums in registers. Each
//! weight loaded serves all the points, where [`super::conv_points`]
//! reads all of a layer's weights (more than the first cache holds) again
//! for every point. (Written as plain loops over arrays the compiler kept
//! the sums scalar, 5x slower: hence the intrinsics.)

use super::{store, Grid, Layer, Step};
use std::arch::x86_64::{
    __m256, _mm256_broadcast_ss, _mm256_fmadd_ps, _mm256_loadu_ps, _mm256_storeu_ps,
};

/// Output channels one pass sums: two 8-lane vectors.
pub const LANES: usize = 16;
/// Points one pass sums: 6 x 2 sums, 2 weights and a broadcast input fit
/// the 16 registers (measured 4 % faster than 4 points).
const POINTS: usize = 6;

/// Whether this CPU has AVX2 and FMA, which the kernels here and in
/// `winograd.rs` need (checked at run time: the arena's CPU is unknown).
pub fn usable() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

/// One layer into `next` (as [`super::conv_points`]), for `layer.cout` a
/// multiple of [`LANES`].
///
/// # Safety
/// The CPU must have AVX2 and FMA.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn conv(step: Step, g: Grid, cur: &[f32], next: &mut [f32]) {
    let (layer, bias) = (step.layer, step.bias);
    let (k, cin, cout) = (layer.k, layer.cin, layer.cout);
    // what the unchecked reads below rely on
    let cells = (g.h + 2 * g.pad) * g.stride;
    assert!(cout.is_multiple_of(LANES) && cin <= g.c && cout <= g.c && k / 2 <= g.pad);
    assert!(g.stride == g.w + 2 * g.pad && cur.len() >= cells * g.c);
    assert!(layer.w.len() == k * k * cin * cout && bias.len() == cout);
    for y in 0..g.h {
        let mut x = 0;
        while x < g.w {
            let n = (g.w - x).min(POINTS);
            for co in (0..cout).step_by(LANES) {
                let sums = match n {
                    POINTS => spill(block::<POINTS>(layer, bias, g, cur, (x, y, co))),
                    5 => spill(block::<5>(layer, bias, g, cur, (x, y, co))),
                    4 => spill(block::<4>(layer, bias, g, cur, (x, y, co))),
                    3 => spill(block::<3>(layer, bias, g, cur, (x, y, co))),
                    2 => spill(block::<2>(layer, bias, g, cur, (x, y, co))),
                    _ => spill(block::<1>(layer, bias, g, cur, (x, y, co))),
                };
                for (p, mut sums) in sums.into_iter().take(n).enumerate() {
                    let at = ((y + g.pad) * g.stride + x + p + g.pad) * g.c + co;
                    store(&mut sums, step, at, next);
                }
            }
            x += n;
        }
    }
}

/// The sums of `P` points as arrays, padded to `POINTS` points.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn spill<const P: usize>(acc: [[__m256; 2]; P]) -> [[f32; LANES]; POINTS] {
    let mut out = [[0.0; LANES]; POINTS];
    for (o, a) in out.iter_mut().zip(acc) {
        _mm256_storeu_ps(o.as_mut_ptr(), a[0]);
        _mm256_storeu_ps(o.as_mut_ptr().add(8), a[1]);
    }
    out
}

/// The sums of output channels `co..co + LANES` for the `P` points from
/// (`x`, `y`) on, bias included.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn block<const P: usize>(
    layer: &Layer,
    bias: &[f32],
    g: Grid,
    cur: &[f32],
    (x, y, co): (usize, usize, usize),
) -> [[__m256; 2]; P] {
    let (k, cin, cout) = (layer.k, layer.cin, layer.cout);
    let off = g.pad - k / 2;
    let b = bias.as_ptr().add(co);
    let mut acc = [[_mm256_loadu_ps(b), _mm256_loadu_ps(b.add(8))]; P];
    for ky in 0..k {
        let row = (y + off + ky) * g.stride + x + off;
        for kx in 0..k {
            let input = cur.as_ptr().add((row + kx) * g.c);
            let mut w = layer.w.as_ptr().add((ky * k + kx) * cin * cout + co);
            for ci in 0..cin {
                let (w0, w1) = (_mm256_loadu_ps(w), _mm256_loadu_ps(w.add(8)));
                for (p, a) in acc.iter_mut().enumerate() {
                    let v = _mm256_broadcast_ss(&*input.add(p * g.c + ci));
                    a[0] = _mm256_fmadd_ps(v, w0, a[0]);
                    a[1] = _mm256_fmadd_ps(v, w1, a[1]);
                }
                w = w.add(cout);
            }
        }
    }
    acc
}
