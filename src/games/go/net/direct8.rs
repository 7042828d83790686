//! The 8-bit convolution the vector kernels share, written once over
//! [`Dot`]: `P` points by `C` vectors of output channels at a time, the
//! i32 sums in registers. Each step broadcasts four input channels (four
//! u8 codes) of a point to every lane and multiplies them with four int8
//! weights an output channel. Each weight vector loaded serves the `P`
//! points; each broadcast the `C` vectors.
//!
//! The input's classes (`int8.rs`: runs of groups with a step each) are
//! summed apart, one after another, and handed to [`Finish`] together.
//!
//! A kernel file (`vnni512.rs`, ...) implements [`Dot`] with its
//! instructions and calls [`conv`] from a function compiled for its CPU
//! features: [`conv`] and the [`Dot`] methods are inlined into it.

use super::int8::{Finish, QLayer};

/// One instruction set's vector and its dot product of fours.
pub trait Dot {
    type V: Copy;
    /// Output channels (i32 lanes) a vector holds.
    const LANES: usize;
    /// Zeros.
    unsafe fn zero() -> Self::V;
    /// `4 * LANES` weights from `p`.
    unsafe fn load(p: *const i8) -> Self::V;
    /// The four bytes at `p` in every lane.
    unsafe fn splat(p: *const u8) -> Self::V;
    /// `acc` plus, lane by lane, the sum of the four products of the
    /// unsigned bytes of `a` with the signed bytes of `w`.
    unsafe fn dot(acc: Self::V, a: Self::V, w: Self::V) -> Self::V;
    /// The lanes to `p`.
    unsafe fn store(p: *mut i32, v: Self::V);
}

/// The widest block of output channels a kernel sums at once.
const MAX_CHANNELS: usize = 64;
const MAX_SUMS: usize = MAX_CHANNELS * super::int8::CLASSES;

/// One layer's sums for `points` (padded cells), `cq` codes a cell in
/// rows of `stride` cells, into `fin`; `layer.cout` must be a multiple of
/// `C * D::LANES`.
///
/// # Safety
/// The CPU must run `D`'s instructions; `input` must hold every cell the
/// kernel reaches from `points` and `layer.groups * 4 <= cq` (as
/// `int8::kernel` asserts).
#[inline(always)]
pub unsafe fn conv<D: Dot, const P: usize, const C: usize>(
    layer: &QLayer,
    stride: usize,
    cq: usize,
    input: &[u8],
    points: &[usize],
    fin: &mut Finish,
) {
    let width = C * D::LANES;
    assert!(width <= MAX_CHANNELS && layer.cout.is_multiple_of(width));
    assert!(layer.classes.len() <= super::int8::CLASSES);
    let n = width * layer.classes.len();
    let reach = (layer.k / 2) * (stride + 1);
    // each point's sums, a class after another (every one read is written)
    let mut sums = [[0i32; MAX_SUMS]; P];
    for co in (0..layer.cout).step_by(width) {
        for chunk in points.chunks(P) {
            // a short last chunk repeats its last point
            let corners: [*const u8; P] = std::array::from_fn(|p| {
                let cell = chunk[p.min(chunk.len() - 1)];
                input.as_ptr().add((cell - reach) * cq)
            });
            for (i, &groups) in layer.classes.iter().enumerate() {
                let acc = block::<D, P, C>(layer, stride, cq, corners, co, groups);
                for (sums, acc) in sums.iter_mut().zip(&acc) {
                    for (j, &v) in acc.iter().enumerate() {
                        D::store(sums.as_mut_ptr().add(i * width + j * D::LANES), v);
                    }
                }
            }
            for (&cell, sums) in chunk.iter().zip(&sums) {
                fin.put(cell, co, &sums[..n]);
            }
        }
    }
}

/// The sums of output channels `co..co + C * LANES` over input groups
/// `g0..g1` for the `P` points whose kernel windows start at `corners`.
#[inline(always)]
unsafe fn block<D: Dot, const P: usize, const C: usize>(
    layer: &QLayer,
    stride: usize,
    cq: usize,
    corners: [*const u8; P],
    co: usize,
    (g0, g1): (usize, usize),
) -> [[D::V; C]; P] {
    let (k, cout, groups) = (layer.k, layer.cout, layer.groups);
    let mut acc = [[D::zero(); C]; P];
    for ky in 0..k {
        for kx in 0..k {
            let tap = (ky * stride + kx) * cq;
            let mut w = layer
                .w
                .as_ptr()
                .add((((ky * k + kx) * groups + g0) * cout + co) * 4);
            for g in g0..g1 {
                let wv: [D::V; C] = std::array::from_fn(|j| D::load(w.add(j * 4 * D::LANES)));
                for (p, acc) in acc.iter_mut().enumerate() {
                    let a = D::splat(corners[p].add(tap + 4 * g));
                    for (s, &wv) in acc.iter_mut().zip(&wv) {
                        *s = D::dot(*s, a, wv);
                    }
                }
                w = w.add(cout * 4);
            }
        }
    }
    acc
}
