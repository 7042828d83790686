//! The Winograd layer pass every vector kernel shares, written once over
//! [`Dot`] (16-bit products). A block of `P` tiles at a time: their input
//! transform, then for each `C` vectors of output channels, the 16 tile
//! positions in turn, `P` by `C` vectors of i32 sums in registers. Each
//! step broadcasts a pair of a tile's transformed codes to every lane and
//! takes its dot product with each lane's pair of weights. A row of 4
//! positions' sums, finished into floats, is folded at once into the
//! tiles' outputs (`Aᵀ` along the row, then its share of each column), so
//! that what is kept stays in L1; the weights stream through from L2,
//! once a block of tiles, in the order they are stored. A kernel file
//! calls [`layer`] from a function compiled for its CPU features.

use super::super::block::Dot;
use super::{at, lines, transform, Job, Lanes, Line};
use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T1};

/// `job` into `out` (`job.l.cout` floats a point) with `D`'s products,
/// `P` tiles by `C` vectors of sums at a time; `bufs` are scratch.
///
/// # Safety
/// The CPU must run `D`'s instructions.
#[inline(always)]
pub unsafe fn layer<D: Dot, const P: usize, const C: usize>(
    job: &Job,
    bufs: [&mut Vec<Line>; 3],
    out: &mut [f32],
) {
    let l = job.l;
    let (w, h) = job.dims;
    let tiles = w.div_ceil(2) * h.div_ceil(2);
    let (width, groups, pad) = (C * D::LANES, l.groups, l.cout_pad);
    assert!(width == l.width && pad.is_multiple_of(width) && l.w.len() >= 16 * groups * pad);
    assert!(job.mul.len() >= 16 * pad && out.len() >= w * h * l.cout);
    let [v, m, y] = bufs;
    let v = lines::<i16>(v, P * 16 * 2 * groups);
    let (m, y) = (
        lines::<f32>(m, 4 * P * width),
        lines::<f32>(y, 4 * P * width),
    );
    // the next layer's weights, a few lines each round of sums: all of
    // them by the end, in L2 when that layer starts
    let rounds = tiles.div_ceil(P) * (pad / width) * 16;
    let (next, per) = (job.next.as_ptr(), (job.next.len() / 16).div_ceil(rounds));
    let mut ahead = 0;
    for first in (0..tiles).step_by(P) {
        let n = P.min(tiles - first);
        transform(job.board, job.dims, 2 * groups, (first, n), v);
        // a short last block repeats its last tile
        let vp: *const u32 = v.as_ptr().cast();
        let corners: [*const u32; P] = std::array::from_fn(|p| vp.add(p.min(n - 1) * groups));
        for co in (0..pad).step_by(width) {
            let mut wp = l.w.as_ptr().add(co * 16 * groups);
            for xi in 0..16 {
                for _ in 0..per {
                    if ahead < job.next.len() {
                        _mm_prefetch::<_MM_HINT_T1>(next.add(ahead).cast());
                        ahead += 16;
                    }
                }
                let mut acc = [[D::zero(); C]; P];
                let at = xi * n * groups;
                for g in 0..groups {
                    let mut wv = [D::zero(); C];
                    for (j, wv) in wv.iter_mut().enumerate() {
                        *wv = D::load(wp.add(j * D::LANES));
                    }
                    for (p, acc) in acc.iter_mut().enumerate() {
                        let a = D::splat(corners[p].add(at + g));
                        for (s, &wv) in acc.iter_mut().zip(&wv) {
                            *s = D::dot(*s, a, wv);
                        }
                    }
                    wp = wp.add(width);
                }
                // the row's sums, finished, by column, tile and channel
                let col = xi % 4;
                for (p, acc) in acc.iter().enumerate().take(n) {
                    for (j, &s) in acc.iter().enumerate() {
                        let c = co + j * D::LANES;
                        let o = m.as_mut_ptr().add((col * P + p) * width + j * D::LANES);
                        D::scaled(s, job.mul.as_ptr().add(xi * pad + c), o);
                    }
                }
                if col == 3 {
                    fold(m, y, xi / 4, P * width);
                }
            }
            store(y, job, (first, n), P, (co, width), out);
        }
    }
}

/// Folds row `row` of the tiles' sums `m` (by column, then `k` floats a
/// column) into their outputs `y` (by output, then `k` floats): `Aᵀ`
/// along the row, then the row's share of `Aᵀ` down each column, in the
/// order [`super::reference`] adds them (`y0 = z0 + z1 + z2`, `y1 = z1 -
/// z2 - z3` of the rows' `z`).
#[inline(always)]
fn fold(m: &[f32], y: &mut [f32], row: usize, k: usize) {
    let (m, y) = (&m[..4 * k], &mut y[..4 * k]);
    let (m0, rest) = m.split_at(k);
    let (m1, rest) = rest.split_at(k);
    let (m2, m3) = rest.split_at(k);
    let (y0, y1) = y.split_at_mut(2 * k);
    let z = |i: usize| at([m0[i], m1[i], m2[i], m3[i]]);
    match row {
        0 => {
            for i in 0..k {
                [y0[i], y0[k + i]] = z(i);
            }
        }
        1 => {
            for i in 0..k {
                let [z0, z1] = z(i);
                (y0[i], y0[k + i]) = (y0[i] + z0, y0[k + i] + z1);
                (y1[i], y1[k + i]) = (z0, z1);
            }
        }
        2 => {
            for i in 0..k {
                let [z0, z1] = z(i);
                (y0[i], y0[k + i]) = (y0[i] + z0, y0[k + i] + z1);
                (y1[i], y1[k + i]) = (y1[i] - z0, y1[k + i] - z1);
            }
        }
        _ => {
            for i in 0..k {
                let [z0, z1] = z(i);
                (y1[i], y1[k + i]) = (y1[i] - z0, y1[k + i] - z1);
            }
        }
    }
}

/// The outputs `y` of the `tiles.1` tiles from `tiles.0` on (by output,
/// then `p` tiles of `width` channels from `cs.0`) to `out`, each output
/// channel below the layer's `cout`, added to what it holds when
/// `job.add`.
#[inline(always)]
fn store(
    y: &[f32],
    job: &Job,
    tiles: (usize, usize),
    p: usize,
    (co, width): (usize, usize),
    out: &mut [f32],
) {
    let ((w, h), cout) = (job.dims, job.l.cout);
    let tw = w.div_ceil(2);
    let end = (co + width).min(cout);
    if co >= end {
        return;
    }
    for t in 0..tiles.1 {
        let (ty, tx) = ((tiles.0 + t) / tw, (tiles.0 + t) % tw);
        for o in 0..4 {
            let (py, px) = (2 * ty + o / 2, 2 * tx + o % 2);
            if py >= h || px >= w {
                continue;
            }
            let src = &y[(o * p + t) * width..][..end - co];
            let dst = &mut out[(py * w + px) * cout + co..][..end - co];
            // (not `copy_from_slice`: a call to memmove for a few floats)
            for (d, &s) in dst.iter_mut().zip(src) {
                *d = if job.add { *d + s } else { s };
            }
        }
    }
}

impl Lanes for f32 {
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        self + b
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        self - b
    }
}
