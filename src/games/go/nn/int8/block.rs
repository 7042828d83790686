//! The layer pass every vector kernel shares, written once over [`Dot`]:
//! `P` points by `C` vectors of output channels at a time, their i32 sums
//! in registers. Each step broadcasts a 4-byte group of a point's input
//! codes to every lane and takes its dot product with each lane's 4 bytes
//! of weights: each weight vector loaded serves `P` points, each broadcast
//! `C` vectors. The sums are finished into floats as they leave the
//! registers. A kernel file implements [`Dot`] and calls [`layer`] from a
//! function compiled for its CPU features, into which all of this inlines.

use super::layer::{Codes, Finish, QLayer};
use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T1};

/// One instruction set's vectors.
pub trait Dot {
    /// A vector of i32 lanes.
    type V: Copy;
    /// Output channels a vector holds.
    const LANES: usize;
    /// Zeros.
    unsafe fn zero() -> Self::V;
    /// `LANES` groups of weights from `p`.
    unsafe fn load(p: *const u32) -> Self::V;
    /// The group of codes at `p` in every lane.
    unsafe fn splat(p: *const u32) -> Self::V;
    /// `acc` plus, lane by lane, the dot product of the group of codes in
    /// `a` with the group of weights in `w`: four u8 by four i8, or two
    /// i16 by two i16, as the kernel's layers are laid out.
    unsafe fn dot(acc: Self::V, a: Self::V, w: Self::V) -> Self::V;
    /// `LANES` floats `(acc - zc) * mul` to `out`, added to what it holds
    /// when `add`: a multiply, then an add, never fused, as
    /// [`super::scalar`] rounds them.
    unsafe fn finish(acc: Self::V, zc: *const i32, mul: *const f32, out: *mut f32, add: bool);
    /// `LANES` floats `acc * mul` to `out`: [`Dot::finish`] with no zero
    /// point to take off (one vector instruction fewer, on the ports the
    /// products use).
    unsafe fn scaled(acc: Self::V, mul: *const f32, out: *mut f32);
}

/// `l` over `input` into `out` (`fin.row` floats a point), `C * LANES`
/// output channels at a time, which must divide `l.cout_pad`; `next`
/// brought into L2 meanwhile, a few lines a block of sums.
///
/// # Safety
/// The CPU must run `D`'s instructions; the sizes as
/// [`super::run_kernel`] checks them.
#[inline(always)]
pub unsafe fn layer<D: Dot, const P: usize, const C: usize>(
    l: &QLayer,
    input: &Codes,
    fin: &Finish,
    out: &mut [f32],
    next: &[u32],
) {
    let width = C * D::LANES;
    assert!(l.cout_pad.is_multiple_of(width));
    let groups = l.groups;
    let points = input.w * input.h;
    let chunks = points.div_ceil(P);
    let base = input.codes.as_ptr();
    // a kernel row at a time over every point, so that the row's weights
    // stay in L1 (a 3x3 layer's whole block would not); the sums between
    // rows wait in `partial`
    let mut partial = vec![[[D::zero(); C]; P]; if l.k > 1 { chunks } else { 0 }];
    // the next layer's weights (from L3: the layers of a large net do
    // not fit L2), all of them by the end
    let rounds = chunks * l.k * (l.cout_pad / width);
    let per = (next.len() / 16).div_ceil(rounds);
    let mut ahead = next.chunks(16);
    for co in (0..l.cout_pad).step_by(width) {
        for ky in 0..l.k {
            for (chunk, first) in (0..points).step_by(P).enumerate() {
                for line in ahead.by_ref().take(per) {
                    _mm_prefetch::<_MM_HINT_T1>(line.as_ptr().cast());
                }
                let n = P.min(points - first);
                // a short last chunk repeats its last point
                let corners: [*const u32; P] = std::array::from_fn(|p| {
                    let i = first + p.min(n - 1);
                    let (y, x) = (i / input.w, i % input.w);
                    base.add(((y + ky) * input.stride + x) * groups)
                });
                let start = if ky == 0 {
                    [[D::zero(); C]; P]
                } else {
                    partial[chunk]
                };
                let acc = sums::<D, P, C>(l, start, ky, corners, co);
                if ky + 1 < l.k {
                    partial[chunk] = acc;
                    continue;
                }
                for (p, acc) in acc.iter().enumerate().take(n) {
                    let o = out.as_mut_ptr().add((first + p) * fin.row + co);
                    for (j, &v) in acc.iter().enumerate() {
                        let c = co + j * D::LANES;
                        let (zc, mul) = (fin.zc.as_ptr().add(c), fin.mul.as_ptr().add(c));
                        D::finish(v, zc, mul, o.add(j * D::LANES), fin.add);
                    }
                }
            }
        }
    }
}

/// `acc` plus the sums of kernel row `ky` for output channels `co..co +
/// C * LANES` of the `P` points whose rows `ky` start at `corners`.
#[inline(always)]
unsafe fn sums<D: Dot, const P: usize, const C: usize>(
    l: &QLayer,
    mut acc: [[D::V; C]; P],
    ky: usize,
    corners: [*const u32; P],
    co: usize,
) -> [[D::V; C]; P] {
    let (k, groups) = (l.k, l.groups);
    let mut w = l.w.as_ptr().add(ky * k * groups * l.cout_pad + co);
    for kx in 0..k {
        let tap = kx * groups;
        for g in 0..groups {
            let wv: [D::V; C] = std::array::from_fn(|j| D::load(w.add(j * D::LANES)));
            for (p, acc) in acc.iter_mut().enumerate() {
                let a = D::splat(corners[p].add(tap + g));
                for (s, &wv) in acc.iter_mut().zip(&wv) {
                    *s = D::dot(*s, a, wv);
                }
            }
            w = w.add(l.cout_pad);
        }
    }
    acc
}

/// A kernel's [`Dot`] with its 16-bit product `$dot` in place of the
/// 8-bit one: the type `$wide`, for layers of two i16 a group.
macro_rules! widened {
    ($wide:ident, $base:ty, $dot:ident) => {
        pub(super) struct $wide;

        impl Dot for $wide {
            type V = <$base as Dot>::V;
            const LANES: usize = <$base as Dot>::LANES;
            #[inline(always)]
            unsafe fn zero() -> Self::V {
                <$base>::zero()
            }
            #[inline(always)]
            unsafe fn load(p: *const u32) -> Self::V {
                <$base>::load(p)
            }
            #[inline(always)]
            unsafe fn splat(p: *const u32) -> Self::V {
                <$base>::splat(p)
            }
            #[inline(always)]
            unsafe fn dot(acc: Self::V, a: Self::V, w: Self::V) -> Self::V {
                $dot(acc, a, w)
            }
            #[inline(always)]
            unsafe fn finish(
                acc: Self::V,
                zc: *const i32,
                mul: *const f32,
                out: *mut f32,
                add: bool,
            ) {
                <$base>::finish(acc, zc, mul, out, add)
            }
            #[inline(always)]
            unsafe fn scaled(acc: Self::V, mul: *const f32, out: *mut f32) {
                <$base>::scaled(acc, mul, out)
            }
        }
    };
}
pub(super) use widened;
