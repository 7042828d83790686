//! 3x3 convolutions by Winograd's minimal filtering F(2x2, 3x3), in 16-bit
//! integers: the board cut into 2x2 output tiles, each read from a 4x4
//! input tile `d`; each tile's 16 transformed inputs `V = Bᵀ d B` times
//! the 16 transformed weights `U = G g Gᵀ`, summed over the input
//! channels, and the 16 sums `M` brought back to the tile's 4 outputs by
//! `Aᵀ M A`. 16 products a tile of 4 points where the direct convolution
//! takes 9 a point: on 19x19, 100 tiles, 0.44 of its multiply-adds.
//!
//! In integers: the input is quantised from its own range, as for a
//! direct layer, to codes up to [`TOP`] less the zero point, and
//! transformed exactly (`Bᵀ` has 0 and ±1): each `V` a sum of 4 codes,
//! at most `4 * TOP` across, an i16. The weights are transformed in float
//! (`G` has halves) and each of the 16 matrices quantised with its own
//! scale an output channel, as finely as an i32 sum allows: `cin`
//! products of at most `4 * TOP` by the largest weight stay below 2^31
//! ([`WLayer::new`] asserts it). The products are `vpdpwssd` (AVX-512
//! VNNI) or `vpmaddwd` (AVX2), i16 by i16 in pairs, in [`kernel`]; their
//! sums finished into floats with their scales, and `Aᵀ M A` (0 and ±1)
//! adds in float, in a fixed order, so that every kernel gives the
//! scalar reference's outputs ([`reference`]) bit for bit.

#[cfg(target_arch = "x86_64")]
pub mod dispatch;
pub mod kernel;
#[cfg(test)]
mod tests;

use super::layer::{lane, range, Kernel, PAD};

/// The largest input code: 11 bits.
pub const TOP: i32 = 2047;

/// A 3x3 convolution's transformed weights, quantised.
pub struct WLayer {
    pub cin: usize,
    pub cout: usize,
    /// `cout` rounded up to the widest vector.
    pub cout_pad: usize,
    /// Pairs of input channels (the last padded with a zero weight).
    pub groups: usize,
    /// The largest input code.
    pub top: i32,
    /// The output channels a kernel's block of sums spans ([`width`]).
    pub width: usize,
    /// By block of `width` output channels, tile position (`4 * row +
    /// column` of `U`), pair of input channels and output channel, the
    /// pair's two i16 weights: what a block of sums takes, in the order
    /// it takes them.
    pub w: Vec<u32>,
    /// By tile position and output channel, the weights' scale.
    pub scale: Vec<f32>,
}

/// `Bᵀ` of F(2x2, 3x3), on 4 values.
#[inline(always)]
fn bt<T: Lanes>(d: [T; 4]) -> [T; 4] {
    [
        d[0].sub(d[2]),
        d[1].add(d[2]),
        d[2].sub(d[1]),
        d[1].sub(d[3]),
    ]
}

/// `Aᵀ` of F(2x2, 3x3): 4 values to 2.
#[inline(always)]
fn at<T: Lanes>(m: [T; 4]) -> [T; 2] {
    [m[0].add(m[1]).add(m[2]), m[1].sub(m[2]).sub(m[3])]
}

/// `G` of F(2x2, 3x3).
const G: [[f64; 3]; 4] = [
    [1.0, 0.0, 0.0],
    [0.5, 0.5, 0.5],
    [0.5, -0.5, 0.5],
    [0.0, 0.0, 1.0],
];

/// The output channels `kernel`'s block of sums spans in a layer of
/// `cout_pad`: two vectors where they divide it, else one.
pub fn width(kernel: Kernel, cout_pad: usize) -> usize {
    let lanes = if kernel == Kernel::Vnni512 { 16 } else { 8 };
    if cout_pad.is_multiple_of(2 * lanes) {
        2 * lanes
    } else {
        lanes
    }
}

impl WLayer {
    /// `w` (3 x 3 x `cin` x `cout` in the file's order) transformed and
    /// quantised for `kernel`, for input codes up to [`TOP`].
    pub fn new(kernel: Kernel, cin: usize, cout: usize, w: &[f32]) -> WLayer {
        let top = TOP;
        assert_eq!(w.len(), 9 * cin * cout);
        // a V is 4 codes less the zero point, each at most `top` across
        let vtop = 4 * top as i64;
        assert!(
            top > 0 && vtop <= i16::MAX as i64,
            "transformed codes past an i16"
        );
        let wtop = (i32::MAX as i64 / (cin as i64 * vtop)).min(i16::MAX as i64);
        // every sum of `cin` products within an i32 (`vpdpwssd` sums
        // pairs of them wrapping, exact when the whole sum fits)
        assert!(
            wtop >= 127 && cin as i64 * vtop * wtop <= i32::MAX as i64,
            "{cin} inputs: sums past an i32"
        );
        let (cout_pad, groups) = (cout.next_multiple_of(PAD), cin.div_ceil(2));
        let width = self::width(kernel, cout_pad);
        let mut q = vec![0u32; 16 * groups * cout_pad];
        let mut scale = vec![1f32; 16 * cout_pad];
        let mut u = vec![0f64; cin * cout];
        for xi in 0..16 {
            let (gy, gx) = (G[xi / 4], G[xi % 4]);
            for (i, u) in u.iter_mut().enumerate() {
                let (ci, co) = (i / cout, i % cout);
                *u = (0..9)
                    .map(|tap| gy[tap / 3] * gx[tap % 3] * w[(tap * cin + ci) * cout + co] as f64)
                    .sum();
            }
            let mut most = vec![0f64; cout];
            for (i, v) in u.iter().enumerate() {
                most[i % cout] = most[i % cout].max(v.abs());
            }
            let s: Vec<f64> = most
                .iter()
                .map(|&m| if m > 0.0 { m / wtop as f64 } else { 1.0 })
                .collect();
            for (i, v) in u.iter().enumerate() {
                let (ci, co) = (i / cout, i % cout);
                let c = (v / s[co]).round().clamp(-wtop as f64, wtop as f64) as i32;
                let at = ((co / width * 16 + xi) * groups + ci / 2) * width + co % width;
                q[at] |= (c as u32 & 0xffff) << (16 * (ci % 2));
            }
            for (co, s) in s.iter().enumerate() {
                scale[xi * cout_pad + co] = *s as f32;
            }
        }
        WLayer {
            cin,
            cout,
            cout_pad,
            groups,
            top,
            width,
            w: q,
            scale,
        }
    }

    /// The weight of tile position `xi`, input `ci`, output `co`.
    pub fn code(&self, xi: usize, ci: usize, co: usize) -> i32 {
        let width = self.width;
        let at = ((co / width * 16 + xi) * self.groups + ci / 2) * width + co % width;
        lane(self.w[at], 2, ci % 2)
    }
}

/// A cache line.
#[derive(Clone, Copy, Default)]
#[repr(align(64))]
pub struct Line(pub [u32; 16]);

/// `v` as at least `n` elements of `T` (i16, u32, i32, f32), on cache
/// lines.
fn lines<T>(v: &mut Vec<Line>, n: usize) -> &mut [T] {
    let size = std::mem::size_of::<T>();
    assert!(size <= 4 && 64 % size == 0);
    let want = (n * size).div_ceil(64);
    if v.len() < want {
        v.resize(want, Line::default());
    }
    // SAFETY: as many bytes as `want` lines hold, aligned to 64; T is
    // i16, u32, i32 or f32, for which any bits are a value
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast(), n) }
}

/// A layer's quantised input and how to finish it.
pub struct Job<'a> {
    pub l: &'a WLayer,
    /// The input codes less the zero point, as [`quantise`] leaves them.
    pub board: &'a [i16],
    /// The board's width and height.
    pub dims: (usize, usize),
    /// By tile position and output channel, a sum's scale.
    pub mul: &'a [f32],
    /// Whether the outputs are added to what `out` holds.
    pub add: bool,
    /// Weights to bring into L2 meanwhile (the next layer's).
    pub next: &'a [u32],
}

/// The scalar kernel: each tile's 16 sums in plain integer loops,
/// finished as the vector kernels finish them, then `Aᵀ M A` in the
/// order they take it: along each row of `M`, then down the two columns
/// left. The reference the vector kernels equal.
fn reference(job: &Job, bufs: [&mut Vec<Line>; 3], out: &mut [f32]) {
    let (l, (w, h)) = (job.l, job.dims);
    let tw = w.div_ceil(2);
    let (n, pad) = (2 * l.groups, l.cout_pad);
    let [v, _, _] = bufs;
    let v = lines::<i16>(v, 16 * n);
    for t in 0..tw * h.div_ceil(2) {
        transform(job.board, job.dims, n, (t, 1), v);
        for co in 0..l.cout {
            let m: [f32; 16] = std::array::from_fn(|xi| {
                // wrapping, as the vector kernels sum: exact, as the sum fits
                let mut sum = 0i32;
                for ci in 0..n {
                    sum = sum.wrapping_add(v[xi * n + ci] as i32 * l.code(xi, ci, co));
                }
                sum as f32 * job.mul[xi * pad + co]
            });
            let z: [[f32; 2]; 4] =
                std::array::from_fn(|r| at([m[4 * r], m[4 * r + 1], m[4 * r + 2], m[4 * r + 3]]));
            // j picks a column of every row of z
            #[allow(clippy::needless_range_loop)]
            for j in 0..2 {
                let y = at([z[0][j], z[1][j], z[2][j], z[3][j]]);
                for (i, y) in y.into_iter().enumerate() {
                    let (py, px) = (2 * (t / tw) + i, 2 * (t % tw) + j);
                    if py < h && px < w {
                        let o = &mut out[(py * w + px) * l.cout + co];
                        *o = if job.add { *o + y } else { y };
                    }
                }
            }
        }
    }
}

/// Lane by lane, `a + b` and `a - b` of `N` i16 (wrapping) or f32.
// (loops, not `array::from_fn`, whose closures LLVM leaves uninlined
// out of the functions compiled for vector instructions)
pub trait Lanes: Copy {
    fn add(self, b: Self) -> Self;
    fn sub(self, b: Self) -> Self;
}

impl<const N: usize> Lanes for [i16; N] {
    #[inline(always)]
    fn add(mut self, b: Self) -> Self {
        for k in 0..N {
            self[k] = self[k].wrapping_add(b[k]);
        }
        self
    }
    #[inline(always)]
    fn sub(mut self, b: Self) -> Self {
        for k in 0..N {
            self[k] = self[k].wrapping_sub(b[k]);
        }
        self
    }
}

impl<const N: usize> Lanes for [f32; N] {
    #[inline(always)]
    fn add(mut self, b: Self) -> Self {
        for k in 0..N {
            self[k] += b[k];
        }
        self
    }
    #[inline(always)]
    fn sub(mut self, b: Self) -> Self {
        for k in 0..N {
            self[k] -= b[k];
        }
        self
    }
}

/// Quantises `x` (`l.cin` floats a point of a `w` x `h` board) from its
/// own range into `board`: codes up to `l.top` less the zero point, `n`
/// i16 a point (the last past `l.cin` zeros), the board padded by a
/// point and out to whole tiles with zeros. Returns the step.
#[inline(always)]
fn quantise(x: &[f32], l: &WLayer, (w, h): (usize, usize), n: usize, board: &mut [i16]) -> f32 {
    let top = l.top as f32;
    let (step, inv, zero) = range(x, l.top);
    let bw = 2 * w.div_ceil(2) + 2;
    let rows = board.len() / (bw * n);
    board[..bw * n].fill(0);
    board[(h + 1) * bw * n..].fill(0);
    for (y, row) in board
        .chunks_exact_mut(bw * n)
        .enumerate()
        .take(rows - 1)
        .skip(1)
        .take(h)
    {
        row[..n].fill(0);
        row[(w + 1) * n..].fill(0);
        let src = &x[(y - 1) * w * l.cin..][..w * l.cin];
        for (dst, src) in row[n..].chunks_exact_mut(n).zip(src.chunks_exact(l.cin)) {
            for (q, &v) in dst.iter_mut().zip(src) {
                // rounded to an integer (ties to even) by adding 2^23,
                // whose low bits are then the code: a conversion that
                // vectorises; less the zero point
                let t = (v * inv + zero).clamp(0.0, top) + 8388608.0;
                *q = (t.to_bits() as i32 & 0xffff).wrapping_sub(zero as i32) as i16;
            }
            dst[l.cin..].fill(0);
        }
    }
    step
}

/// The input transform: from `board` (as [`quantise`] leaves it) into
/// `v`, by tile position, tile and channel, `Bᵀ d B` of `tiles.1` tiles
/// from tile `tiles.0` on.
#[inline(always)]
pub fn transform(
    board: &[i16],
    (w, h): (usize, usize),
    n: usize,
    tiles: (usize, usize),
    v: &mut [i16],
) {
    let (tw, th) = (w.div_ceil(2), h.div_ceil(2));
    let bw = 2 * tw + 2;
    let (first, count) = tiles;
    assert!(first + count <= tw * th);
    assert!(board.len() >= bw * (2 * th + 2) * n && v.len() >= count * 16 * n);
    for t in first..first + count {
        let (ty, tx) = (t / tw, t % tw);
        let corner = (2 * ty * bw + 2 * tx) * n;
        let at: [usize; 16] = std::array::from_fn(|i| corner + (i / 4 * bw + i % 4) * n);
        let to = (t - first) * n;
        let whole = n / 32 * 32;
        for c in (0..whole).step_by(32) {
            // SAFETY: within `board` and `v`, as checked above
            unsafe { tile_in::<32>(board, &at, v, to, count * n, c) };
        }
        for c in whole..n {
            // SAFETY: as above
            unsafe { tile_in::<1>(board, &at, v, to, count * n, c) };
        }
    }
}

/// `N` channels from `c` of one tile of [`transform`]: the 16 inputs at
/// `at`, the 16 transformed to `to`, `n` apart.
///
/// # Safety
/// `at[i] + c + N` within `d`, `to + 15 * n + c + N` within `v`.
#[inline(always)]
unsafe fn tile_in<const N: usize>(
    d: &[i16],
    at: &[usize; 16],
    v: &mut [i16],
    to: usize,
    n: usize,
    c: usize,
) {
    let ld = |i: usize| {
        d.as_ptr()
            .add(at[i] + c)
            .cast::<[i16; N]>()
            .read_unaligned()
    };
    // Bᵀ on each row, then on each column; in named values, not arrays
    // of them, which LLVM kept on the stack (zeroed, stored, reloaded:
    // a fifth of the layer's time)
    let [a0, a1, a2, a3] = bt([ld(0), ld(1), ld(2), ld(3)]);
    let [b0, b1, b2, b3] = bt([ld(4), ld(5), ld(6), ld(7)]);
    let [c0, c1, c2, c3] = bt([ld(8), ld(9), ld(10), ld(11)]);
    let [d0, d1, d2, d3] = bt([ld(12), ld(13), ld(14), ld(15)]);
    let cols = [
        [a0, b0, c0, d0],
        [a1, b1, c1, d1],
        [a2, b2, c2, d2],
        [a3, b3, c3, d3],
    ];
    for (nu, col) in cols.into_iter().enumerate() {
        for (xi, col) in bt(col).into_iter().enumerate() {
            let o = v.as_mut_ptr().add(to + (xi * 4 + nu) * n + c);
            o.cast::<[i16; N]>().write_unaligned(col);
        }
    }
}
