//! 3x3 layers by Winograd's minimal filtering F(2x2, 3x3) (Lavin and Gray,
//! "Fast Algorithms for Convolutional Neural Networks", 2015), with AVX2
//! and FMA. Each 4x4 tile of the input gives a 2x2 block of outputs from
//! 16 products an input and output channel instead of 36: the
//! multiply-adds, nearly all of a wide network's time, drop 2.25 times
//! (less the tiles' overhang on an odd board: 100 tiles for 361 points).
//! The 16 products are 16 matrix products, tiles by input channels times
//! input by output channels, summed in registers as in [`super::avx`].
//!
//! Tiles: `tw` x `th` of them, row by row, tile (tx, ty) reading the
//! board's cells from (2tx - 1, 2ty - 1) (zeros off the board) and
//! writing its points from (2tx, 2ty). `ξ` = 4 x tile row + tile column
//! names one of a tile's 16 cells and, after the transforms, one of the
//! 16 products.

use super::avx::{self, LANES};
use super::{store, Grid, Step};
use std::arch::x86_64::{
    __m256, _mm256_add_ps, _mm256_broadcast_ss, _mm256_fmadd_ps, _mm256_loadu_ps,
    _mm256_setzero_ps, _mm256_storeu_ps, _mm256_sub_ps,
};

/// Tiles one pass of the products sums: 6 x 2 sums, 2 weights and a
/// broadcast input fit the 16 registers.
const ROWS: usize = 6;

/// Whether a layer of kernel `k`, `cin` inputs and `cout` outputs runs
/// here on this CPU: a 3x3 kernel, inputs in eights, outputs in sixteens,
/// a CPU with AVX2 and FMA.
pub fn fits(k: usize, cin: usize, cout: usize) -> bool {
    k == 3 && cin.is_multiple_of(8) && cout.is_multiple_of(LANES) && avx::usable()
}

/// A 3x3 layer's weights `w` (kernel row, kernel column, input channel,
/// output channel) transformed, G g Gᵀ: 16 matrices of `cin` rows of
/// `cout`, one for each `ξ`.
pub fn weights(w: &[f32], cin: usize, cout: usize) -> Vec<f32> {
    assert_eq!(w.len(), 9 * cin * cout);
    // G's four rows applied to a kernel column or row
    let g = |a: f32, b: f32, c: f32| [a, (a + b + c) / 2.0, (a - b + c) / 2.0, c];
    let mut u = vec![0.0; 16 * cin * cout];
    for ci in 0..cin {
        for co in 0..cout {
            let at = |ky: usize, kx: usize| w[((ky * 3 + kx) * cin + ci) * cout + co];
            // cols[kx][i]: G applied down kernel column kx
            let cols = [0, 1, 2].map(|kx| g(at(0, kx), at(1, kx), at(2, kx)));
            for i in 0..4 {
                let row = g(cols[0][i], cols[1][i], cols[2][i]);
                for (j, v) in row.into_iter().enumerate() {
                    u[((i * 4 + j) * cin + ci) * cout + co] = v;
                }
            }
        }
    }
    u
}

/// Values of `scratch` a board of `g` needs for a layer of `cin` inputs and
/// `cout` outputs: the transformed tiles, then their products.
fn scratch_len(g: Grid, cin: usize, cout: usize) -> usize {
    16 * g.w.div_ceil(2) * g.h.div_ceil(2) * (cin + cout)
}

/// One 3x3 layer into `next` (as [`super::conv_points`]), from its
/// transformed weights `u` ([`weights`]); `scratch` is grown as needed.
///
/// # Safety
/// The CPU must have AVX2 and FMA; the layer must [`fits`].
#[target_feature(enable = "avx2,fma")]
pub unsafe fn conv(
    step: Step,
    u: &[f32],
    g: Grid,
    cur: &[f32],
    next: &mut [f32],
    scratch: &mut Vec<f32>,
) {
    let (cin, cout) = (step.layer.cin, step.layer.cout);
    // what the unchecked reads and writes below rely on
    assert!(step.layer.k == 3 && cin.is_multiple_of(8) && cout.is_multiple_of(LANES));
    assert!(u.len() == 16 * cin * cout && step.bias.len() == cout);
    assert!(cin <= g.c && cout <= g.c && g.pad >= 1 && g.stride == g.w + 2 * g.pad);
    let cells = (g.h + 2 * g.pad) * g.stride * g.c;
    assert!(cur.len() >= cells && next.len() >= cells);
    let need = scratch_len(g, cin, cout);
    if scratch.len() < need {
        scratch.resize(need, 0.0);
    }
    let tiles = g.w.div_ceil(2) * g.h.div_ceil(2);
    let (v, m) = scratch[..need].split_at_mut(16 * tiles * cin);
    tiles_in(g, cin, cur, v);
    for xi in 0..16 {
        products(xi, tiles, (cin, cout), v, u, m);
    }
    tiles_out(step, g, m, next);
}

/// Bᵀ applied to four values (rows or columns of a tile).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn bt(d: [__m256; 4]) -> [__m256; 4] {
    [
        _mm256_sub_ps(d[0], d[2]),
        _mm256_add_ps(d[1], d[2]),
        _mm256_sub_ps(d[2], d[1]),
        _mm256_sub_ps(d[1], d[3]),
    ]
}

/// Each tile's 16 cells transformed, Bᵀ d B, into `v`: tile by tile, `ξ`
/// by `ξ`, `cin` values each.
#[target_feature(enable = "avx2,fma")]
unsafe fn tiles_in(g: Grid, cin: usize, cur: &[f32], v: &mut [f32]) {
    let (tw, th) = (g.w.div_ceil(2), g.h.div_ceil(2));
    assert!(v.len() == 16 * tw * th * cin);
    for ty in 0..th {
        for tx in 0..tw {
            // where each cell's channels start, or none off the board
            let mut cells = [None; 16];
            for (n, cell) in cells.iter_mut().enumerate() {
                let (x, y) = (
                    (2 * tx + n % 4).wrapping_sub(1),
                    (2 * ty + n / 4).wrapping_sub(1),
                );
                if x < g.w && y < g.h {
                    *cell = Some(((y + g.pad) * g.stride + x + g.pad) * g.c);
                }
            }
            let out = v.as_mut_ptr().add((ty * tw + tx) * 16 * cin);
            for ci in (0..cin).step_by(8) {
                let mut d = [_mm256_setzero_ps(); 16];
                for (d, cell) in d.iter_mut().zip(cells) {
                    if let Some(at) = cell {
                        *d = _mm256_loadu_ps(cur.as_ptr().add(at + ci));
                    }
                }
                // along each row, then down each column
                let mut e = [_mm256_setzero_ps(); 16];
                for i in 0..4 {
                    let row = bt([d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]]);
                    e[4 * i..4 * i + 4].copy_from_slice(&row);
                }
                for j in 0..4 {
                    let col = bt([e[j], e[4 + j], e[8 + j], e[12 + j]]);
                    for (i, c) in col.into_iter().enumerate() {
                        _mm256_storeu_ps(out.add((4 * i + j) * cin + ci), c);
                    }
                }
            }
        }
    }
}

/// Product `xi` of every tile: its transformed inputs in `v` times the
/// transformed weights' matrix `xi` in `u`, into `m` (tile by tile, `ξ`
/// by `ξ`, `cout` values each).
#[target_feature(enable = "avx2,fma")]
unsafe fn products(
    xi: usize,
    tiles: usize,
    (cin, cout): (usize, usize),
    v: &[f32],
    u: &[f32],
    m: &mut [f32],
) {
    assert!(v.len() == 16 * tiles * cin && m.len() == 16 * tiles * cout);
    let u = u.as_ptr().add(xi * cin * cout);
    for co in (0..cout).step_by(LANES) {
        let mut t = 0;
        while t < tiles {
            let n = (tiles - t).min(ROWS);
            let a = v.as_ptr().add((t * 16 + xi) * cin);
            let out = m.as_mut_ptr().add((t * 16 + xi) * cout + co);
            let dims = (cin, cout);
            match n {
                ROWS => rows::<ROWS>(a, u.add(co), dims, out),
                5 => rows::<5>(a, u.add(co), dims, out),
                4 => rows::<4>(a, u.add(co), dims, out),
                3 => rows::<3>(a, u.add(co), dims, out),
                2 => rows::<2>(a, u.add(co), dims, out),
                _ => rows::<1>(a, u.add(co), dims, out),
            }
            t += n;
        }
    }
}

/// `P` tiles' sums over the input channels for [`LANES`] output
/// channels: tile `p`'s inputs at `a + p * 16 * cin`, the weights' rows
/// `cout` apart from `u`, the sums to `out + p * 16 * cout`.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn rows<const P: usize>(
    a: *const f32,
    u: *const f32,
    (cin, cout): (usize, usize),
    out: *mut f32,
) {
    let mut acc = [[_mm256_setzero_ps(); 2]; P];
    for ci in 0..cin {
        let w = u.add(ci * cout);
        let (w0, w1) = (_mm256_loadu_ps(w), _mm256_loadu_ps(w.add(8)));
        for (p, s) in acc.iter_mut().enumerate() {
            let x = _mm256_broadcast_ss(&*a.add(p * 16 * cin + ci));
            s[0] = _mm256_fmadd_ps(x, w0, s[0]);
            s[1] = _mm256_fmadd_ps(x, w1, s[1]);
        }
    }
    for (p, s) in acc.iter().enumerate() {
        let o = out.add(p * 16 * cout);
        _mm256_storeu_ps(o, s[0]);
        _mm256_storeu_ps(o.add(8), s[1]);
    }
}

/// Each tile's 16 products back to its 2x2 points, Aᵀ m A, plus the
/// biases; then [`store`]d, the points on the board only.
#[target_feature(enable = "avx2,fma")]
unsafe fn tiles_out(step: Step, g: Grid, m: &[f32], next: &mut [f32]) {
    let cout = step.layer.cout;
    let (tw, th) = (g.w.div_ceil(2), g.h.div_ceil(2));
    assert!(m.len() == 16 * tw * th * cout);
    for ty in 0..th {
        for tx in 0..tw {
            let q = m.as_ptr().add((ty * tw + tx) * 16 * cout);
            for co in (0..cout).step_by(LANES) {
                // the four points' sums, row by row
                let mut sums = [[0.0f32; LANES]; 4];
                for half in 0..2 {
                    let c = co + 8 * half;
                    let mut r = [_mm256_setzero_ps(); 16];
                    for (n, r) in r.iter_mut().enumerate() {
                        *r = _mm256_loadu_ps(q.add(n * cout + c));
                    }
                    // Aᵀ down each column: s0, s1 the two output rows
                    let mut s = [[_mm256_setzero_ps(); 4]; 2];
                    for j in 0..4 {
                        s[0][j] = _mm256_add_ps(_mm256_add_ps(r[j], r[4 + j]), r[8 + j]);
                        s[1][j] = _mm256_sub_ps(_mm256_sub_ps(r[4 + j], r[8 + j]), r[12 + j]);
                    }
                    let bias = _mm256_loadu_ps(step.bias.as_ptr().add(c));
                    for (row, s) in s.iter().enumerate() {
                        let left = _mm256_add_ps(_mm256_add_ps(s[0], s[1]), s[2]);
                        let right = _mm256_sub_ps(_mm256_sub_ps(s[1], s[2]), s[3]);
                        let (left, right) = (_mm256_add_ps(left, bias), _mm256_add_ps(right, bias));
                        _mm256_storeu_ps(sums[2 * row].as_mut_ptr().add(8 * half), left);
                        _mm256_storeu_ps(sums[2 * row + 1].as_mut_ptr().add(8 * half), right);
                    }
                }
                for (p, sums) in sums.iter_mut().enumerate() {
                    let (x, y) = (2 * tx + p % 2, 2 * ty + p / 2);
                    if x < g.w && y < g.h {
                        let at = ((y + g.pad) * g.stride + x + g.pad) * g.c + co;
                        store(sums, step, at, next);
                    }
                }
            }
        }
    }
}
