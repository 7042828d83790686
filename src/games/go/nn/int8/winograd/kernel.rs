//! The Winograd layer pass every vector kernel shares, written once over
//! [`Dot`] (16-bit products). Every tile's input transform first; then
//! for each `C` vectors of output channels, each block of `P` tiles, the
//! 36 tile positions in turn, `P` by `C` vectors of i32 sums in
//! registers. Each step broadcasts a pair of a tile's transformed codes to
//! every lane and takes its dot product with each lane's pair of weights.
//! A row of 6 positions' sums, finished into floats, is folded at once
//! into the tiles' outputs (`Aᵀ` along the row, then its share of each
//! column), so that what is kept stays in L1; a block of output channels'
//! weights streams from L3 once and stays in L2 for the other blocks of
//! tiles. A kernel file calls [`layer`] from a function compiled for its
//! CPU features.

use super::super::block::Dot;
use super::{at, down, lines, transform, zeroed, Job, Line, Tiles, T};
use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T1};

/// `job` into `out` (`job.l.cout` floats a point) with `D`'s products,
/// `P` tiles by `C` vectors of sums at a time; `bufs` are scratch.
///
/// # Safety
/// The CPU must run `D`'s instructions.
#[inline(always)]
pub unsafe fn layer<D: Dot, const P: usize, const C: usize>(
    job: &Job,
    bufs: [&mut Vec<Line>; 6],
    out: &mut [f32],
) {
    let l = job.l;
    let (w, h) = job.dims;
    let tiles = w.div_ceil(4) * h.div_ceil(4);
    let (width, groups, pad) = (C * D::LANES, l.groups, l.cout_pad);
    assert!(width == l.width && pad.is_multiple_of(width) && l.w.len() >= T * groups * pad);
    assert!(l.scale.len() >= T * pad && out.len() >= w * h * l.cout);
    let [v, steps, tmp, zeros, m, y] = bufs;
    let (n, blocks) = (2 * groups, tiles.div_ceil(P));
    let (v, steps) = (
        lines::<i16>(v, blocks * P * T * n),
        lines::<f32>(steps, blocks * P * T),
    );
    let (tmp, zeros) = (lines::<f32>(tmp, T * n), zeroed(zeros, n));
    // every block's transform first, then the products a block of output
    // channels at a time: its weights (to 440 KB) read from L3 once, the
    // transformed inputs (to 350 KB) from L2 as often as there are blocks
    for (b, first) in (0..tiles).step_by(P).enumerate() {
        let mut tl = Tiles {
            v: &mut v[b * P * T * n..][..P * T * n],
            steps: &mut steps[b * P * T..][..P * T],
            tmp,
            zeros,
        };
        transform(
            job.x,
            job.dims,
            (l.cin, l.top),
            (first, P.min(tiles - first)),
            &mut tl,
        );
    }
    let (m, y) = (
        lines::<f32>(m, 6 * P * width),
        lines::<f32>(y, 16 * P * width),
    );
    // the next layer's weights, a few lines each round of sums: all of
    // them by the end, in L2 when that layer starts (b15c192: 14.6 ms an
    // evaluation with, 18.3 without)
    let rounds = blocks * (pad / width) * T;
    let (next, per) = (job.next.as_ptr(), (job.next.len() / 16).div_ceil(rounds));
    let mut ahead = 0;
    for co in (0..pad).step_by(width) {
        for (b, first) in (0..tiles).step_by(P).enumerate() {
            let n = P.min(tiles - first);
            let steps = &steps[b * P * T..][..P * T];
            // a short last block repeats its last tile
            let vp: *const u32 = v.as_ptr().add(b * P * T * 2 * groups).cast();
            let corners: [*const u32; P] = std::array::from_fn(|p| vp.add(p.min(n - 1) * groups));
            let mut wp = l.w.as_ptr().add(co * T * groups);
            for xi in 0..T {
                for _ in groups..per {
                    if ahead < job.next.len() {
                        _mm_prefetch::<_MM_HINT_T1>(next.add(ahead).cast());
                        ahead += 16;
                    }
                }
                let mut acc = [[D::zero(); C]; P];
                let at = xi * n * groups;
                for g in 0..groups {
                    // a line a step, not a burst, which stalls the loads
                    if g < per && ahead < job.next.len() {
                        _mm_prefetch::<_MM_HINT_T1>(next.add(ahead).cast());
                        ahead += 16;
                    }
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
                // the row's sums, finished, by column, tile and channel:
                // the weights' scale, then the tile's step
                let col = xi % 6;
                for (p, acc) in acc.iter().enumerate().take(n) {
                    for (j, &s) in acc.iter().enumerate() {
                        let c = co + j * D::LANES;
                        let o = m.as_mut_ptr().add((col * P + p) * width + j * D::LANES);
                        D::scaled(s, l.scale.as_ptr().add(xi * pad + c), o);
                    }
                }
                let row = &mut m[col * P * width..][..n * width];
                for (p, row) in row.chunks_exact_mut(width).enumerate() {
                    let step = steps[p * T + xi];
                    for v in row {
                        *v *= step;
                    }
                }
                if col == 5 {
                    match xi / 6 {
                        0 => fold::<0>(m, y, P * width),
                        1 => fold::<1>(m, y, P * width),
                        2 => fold::<2>(m, y, P * width),
                        3 => fold::<3>(m, y, P * width),
                        4 => fold::<4>(m, y, P * width),
                        _ => fold::<5>(m, y, P * width),
                    }
                }
            }
            store(y, job, (first, n), P, (co, width), out);
        }
    }
}

/// Folds row `I` of the tiles' sums `m` (by column, then `k` floats a
/// column) into their outputs `y` (by output, then `k` floats): `Aᵀ`
/// along the row, then the row's share of `Aᵀ` down each column
/// ([`down`]), as [`super::reference`] adds them.
#[inline(always)]
fn fold<const I: usize>(m: &[f32], y: &mut [f32], k: usize) {
    let (m, y) = (&m[..6 * k], &mut y[..16 * k]);
    let mut ms = m.chunks_exact(k);
    let ms: [&[f32]; 6] = std::array::from_fn(|_| ms.next().expect("six columns"));
    let mut ys = y.chunks_exact_mut(k);
    let mut ys: [&mut [f32]; 16] = std::array::from_fn(|_| ys.next().expect("16 outputs"));
    let [y0, y1, y2, y3, y4, y5, y6, y7, y8, y9, y10, y11, y12, y13, y14, y15] = &mut ys;
    for e in 0..k {
        let z = at([ms[0][e], ms[1][e], ms[2][e], ms[3][e], ms[4][e], ms[5][e]]);
        down(I, z[0], [&mut y0[e], &mut y4[e], &mut y8[e], &mut y12[e]]);
        down(I, z[1], [&mut y1[e], &mut y5[e], &mut y9[e], &mut y13[e]]);
        down(I, z[2], [&mut y2[e], &mut y6[e], &mut y10[e], &mut y14[e]]);
        down(I, z[3], [&mut y3[e], &mut y7[e], &mut y11[e], &mut y15[e]]);
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
    let tw = w.div_ceil(4);
    let end = (co + width).min(cout);
    if co >= end {
        return;
    }
    for t in 0..tiles.1 {
        let (ty, tx) = ((tiles.0 + t) / tw, (tiles.0 + t) % tw);
        for o in 0..16 {
            let (py, px) = (4 * ty + o / 4, 4 * tx + o % 4);
            if py >= h || px >= w {
                continue;
            }
            let src = &y[(o * p + t) * width..][..end - co];
            let dst = &mut out[(py * w + px) * cout + co..][..end - co];
            // plus 0 when stored (a -0 made +0), as the reference does:
            // a plain copy became a call to memmove for a few floats, 3 %
            // of b6c96's time
            for (d, &s) in dst.iter_mut().zip(src) {
                *d = s + if job.add { *d } else { 0.0 };
            }
        }
    }
}
