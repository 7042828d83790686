//! 3x3 convolutions by Winograd's minimal filtering F(4x4, 3x3), in 16-bit
//! integers: the board cut into 4x4 output tiles, each read from a 6x6
//! input tile `d`; each tile's 36 transformed inputs `V = Bᵀ d B` times
//! the 36 transformed weights `U = G g Gᵀ`, summed over the input
//! channels, and the 36 sums `M` brought back to the tile's 16 outputs by
//! `Aᵀ M A`. 36 products a tile of 16 points where the direct
//! convolution takes 9 a point: on 19x19, 25 tiles, 0.25 of its
//! multiply-adds (F(2x2, 3x3), 0.44, measured slower: docs/network.md).
//!
//! In integers: `Bᵀ` has entries up to 5, so `V` spans up to a hundred
//! times its input's range. It is taken in float from the float input,
//! then quantised a tile and a position at a time, from the largest `V`
//! of that tile and position over the channels, to codes up to the
//! layer's `top`. The weights are transformed in float and each of the 36
//! matrices quantised with its own scale an output channel, as finely as
//! an i32 sum allows: `top` times the sum of the channel's codes below
//! 2^31 ([`WLayer::new`]). The products are `vpdpwssd` (AVX-512 VNNI) or
//! `vpmaddwd` (AVX2), i16 by i16 in pairs, in [`kernel`]; their sums
//! finished into floats with the weights' scale and the tile's step, and
//! `Aᵀ M A` adds in float, in a fixed order, so that every kernel gives
//! the scalar reference's outputs ([`reference`]) bit for bit.

#[cfg(target_arch = "x86_64")]
pub mod dispatch;
pub mod kernel;
#[cfg(test)]
mod tests;

use super::layer::{lane, Kernel, PAD};

/// Positions of a transformed tile.
pub const T: usize = 36;

/// A 3x3 convolution's transformed weights, quantised.
pub struct WLayer {
    pub cin: usize,
    pub cout: usize,
    /// `cout` rounded up to the widest vector.
    pub cout_pad: usize,
    /// Pairs of input channels (the last padded with a zero weight).
    pub groups: usize,
    /// The largest transformed input code.
    pub top: i32,
    /// The output channels a kernel's block of sums spans ([`width`]).
    pub width: usize,
    /// By block of `width` output channels, tile position (`6 * row +
    /// column` of `U`), pair of input channels and output channel, the
    /// pair's two i16 weights: what a block of sums takes, in the order
    /// it takes them.
    pub w: Vec<u32>,
    /// By tile position and output channel, the weights' scale (zero for
    /// a channel whose weights are all near zero).
    pub scale: Vec<f32>,
}

/// `Bᵀ` of F(4x4, 3x3), on 6 values.
#[inline(always)]
fn bt<T: Lanes>(d: [T; 6]) -> [T; 6] {
    let (d12, d34) = (d[1].add(d[2]), d[3].add(d[4]));
    let (e, f) = (d[4].sub(d[2]), d[3].sub(d[1]));
    [
        d[0].scale(4.0).sub(d[2].scale(5.0)).add(d[4]),
        d34.sub(d12.scale(4.0)),
        d[4].sub(d[3]).sub(d[2].sub(d[1]).scale(4.0)),
        e.add(f.scale(2.0)),
        e.sub(f.scale(2.0)),
        d[1].scale(4.0).sub(d[3].scale(5.0)).add(d[5]),
    ]
}

/// `Aᵀ` of F(4x4, 3x3): 6 values to 4.
#[inline(always)]
fn at<T: Lanes>(m: [T; 6]) -> [T; 4] {
    let (a, b) = (m[1].add(m[2]), m[1].sub(m[2]));
    let (c, d) = (m[3].add(m[4]), m[3].sub(m[4]));
    [
        m[0].add(a).add(c),
        b.add(d.scale(2.0)),
        a.add(c.scale(4.0)),
        b.add(d.scale(8.0)).add(m[5]),
    ]
}

/// `G` of F(4x4, 3x3).
const G: [[f64; 3]; 6] = [
    [1.0 / 4.0, 0.0, 0.0],
    [-1.0 / 6.0, -1.0 / 6.0, -1.0 / 6.0],
    [-1.0 / 6.0, 1.0 / 6.0, -1.0 / 6.0],
    [1.0 / 24.0, 1.0 / 12.0, 1.0 / 6.0],
    [1.0 / 24.0, -1.0 / 12.0, 1.0 / 6.0],
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
    /// quantised for `kernel`.
    pub fn new(kernel: Kernel, cin: usize, cout: usize, w: &[f32]) -> WLayer {
        assert_eq!(w.len(), 9 * cin * cout);
        let size = cin * cout;
        // by position, input and output: `G g` down the columns, then
        // `Gᵀ` along the rows
        let mut u = vec![0f64; T * size];
        for i in 0..size {
            let g = |ky: usize, kx: usize| w[(ky * 3 + kx) * size + i] as f64;
            let gg: [[f64; 3]; 6] = std::array::from_fn(|a| {
                std::array::from_fn(|kx| (0..3).map(|ky| G[a][ky] * g(ky, kx)).sum())
            });
            for (xi, u) in u.iter_mut().skip(i).step_by(size).enumerate() {
                let (a, b) = (xi / 6, xi % 6);
                *u = (0..3).map(|kx| gg[a][kx] * G[b][kx]).sum();
            }
        }
        // by position and output, the largest weight and their sum
        let (mut most, mut sum) = (vec![0f64; T * cout], vec![0f64; T * cout]);
        for (i, v) in u.iter().enumerate() {
            let k = i / size * cout + i % cout;
            most[k] = most[k].max(v.abs());
            sum[k] += v.abs();
        }
        // every sum of products within an i32 (`vpdpwssd` sums pairs of
        // them wrapping, exact when the whole sum fits): the codes' top
        // times the sum of a column's weights, rounded, at most 2^31.
        // The codes and the widest column's largest weight get as many
        // bits each; the other columns' weights as many as they allow.
        let widest = most
            .iter()
            .zip(&sum)
            .map(|(m, s)| if *m > 0.0 { s / m } else { 0.0 })
            .fold(1.0, f64::max);
        let top = (i32::MAX as f64 / widest)
            .sqrt()
            .floor()
            .min(i16::MAX as f64) as i32;
        let room = i32::MAX as f64 / top as f64 - cin as f64 / 2.0;
        assert!(
            top >= 127 && room >= 127.0,
            "{cin} inputs: sums past an i32"
        );
        let steps: Vec<f64> = most
            .iter()
            .zip(&sum)
            .map(|(m, s)| (m / i16::MAX as f64).max(s / room))
            .collect();
        let (cout_pad, groups) = (cout.next_multiple_of(PAD), cin.div_ceil(2));
        let width = self::width(kernel, cout_pad);
        let mut q = vec![0u32; T * groups * cout_pad];
        let mut scale = vec![0f32; T * cout_pad];
        let mut codes = vec![0i64; T * cout];
        // a channel of weights near 1e-38 (dead in training) would give
        // subnormal outputs, a hundred cycles each downstream: its
        // outputs are zeros
        let inv: Vec<f64> = steps
            .iter()
            .map(|&s| if s > 1e-30 { 1.0 / s } else { 0.0 })
            .collect();
        // where each output channel's weights start (see [`WLayer::code`])
        let base: Vec<usize> = (0..cout)
            .map(|co| co / width * T * groups * width + co % width)
            .collect();
        for (i, v) in u.chunks_exact(cout).enumerate() {
            let (xi, ci) = (i / cin, i % cin);
            let inv = &inv[xi * cout..][..cout];
            let codes = &mut codes[xi * cout..][..cout];
            for (co, (&v, &inv)) in v.iter().zip(inv).enumerate() {
                // rounded (ties to even) by adding 1.5 * 2^52: no call to
                // `rint`, which took a fifth of a net's reading
                let c = ((v * inv + 6755399441055744.0) - 6755399441055744.0) as i32;
                codes[co] += c.abs() as i64;
                q[base[co] + (xi * groups + ci / 2) * width] |=
                    (c as u32 & 0xffff) << (16 * (ci % 2));
            }
        }
        assert!(codes.iter().all(|&c| c * top as i64 <= i32::MAX as i64));
        for (k, &s) in steps.iter().enumerate() {
            let (xi, co) = (k / cout, k % cout);
            scale[xi * cout_pad + co] = if s > 1e-30 { s as f32 } else { 0.0 };
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
        let at = ((co / width * T + xi) * self.groups + ci / 2) * width + co % width;
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

/// A layer's input and how to finish it.
pub struct Job<'a> {
    pub l: &'a WLayer,
    /// The input, `l.cin` floats a point.
    pub x: &'a [f32],
    /// The board's width and height.
    pub dims: (usize, usize),
    /// Whether the outputs are added to what `out` holds.
    pub add: bool,
    /// Weights to bring into L2 meanwhile (the next layer's).
    pub next: &'a [u32],
}

/// A block of tiles' transformed inputs.
pub struct Tiles<'a> {
    /// By tile position, tile and channel, the codes.
    pub v: &'a mut [i16],
    /// By tile and tile position, the codes' step.
    pub steps: &'a mut [f32],
    /// One tile's transformed inputs in float, by position and channel.
    pub tmp: &'a mut [f32],
    /// Zeros, a point's worth: the input off the board.
    pub zeros: &'a [f32],
}

/// The scalar kernel: each tile's 36 sums in plain integer loops,
/// finished as the vector kernels finish them, then `Aᵀ M A` in the
/// order they take it: along each row of `M`, each row's 4 results then
/// added down the columns ([`down`]). The reference the vector kernels
/// equal.
fn reference(job: &Job, bufs: [&mut Vec<Line>; 6], out: &mut [f32]) {
    let (l, (w, h)) = (job.l, job.dims);
    let tw = w.div_ceil(4);
    let (n, pad) = (2 * l.groups, l.cout_pad);
    let [v, steps, tmp, zeros, _, _] = bufs;
    let mut tiles = Tiles {
        v: lines::<i16>(v, T * n),
        steps: lines::<f32>(steps, T),
        tmp: lines::<f32>(tmp, T * n),
        zeros: zeroed(zeros, n),
    };
    for t in 0..tw * h.div_ceil(4) {
        transform(job.x, job.dims, (l.cin, l.top), (t, 1), &mut tiles);
        for co in 0..l.cout {
            let m: [f32; T] = std::array::from_fn(|xi| {
                // wrapping, as the vector kernels sum: exact, as the sum fits
                let mut sum = 0i32;
                for ci in 0..n {
                    sum = sum.wrapping_add(tiles.v[xi * n + ci] as i32 * l.code(xi, ci, co));
                }
                sum as f32 * l.scale[xi * pad + co] * tiles.steps[xi]
            });
            let mut y = [[0f32; 4]; 4];
            for i in 0..6 {
                let z = at(std::array::from_fn(|j| m[6 * i + j]));
                let [y0, y1, y2, y3] = &mut y;
                for (j, z) in z.into_iter().enumerate() {
                    down(i, z, [&mut y0[j], &mut y1[j], &mut y2[j], &mut y3[j]]);
                }
            }
            for (o, y) in y.into_iter().flatten().enumerate() {
                let (py, px) = (4 * (t / tw) + o / 4, 4 * (t % tw) + o % 4);
                if py < h && px < w {
                    let o = &mut out[(py * w + px) * l.cout + co];
                    *o = y + if job.add { *o } else { 0.0 };
                }
            }
        }
    }
}

/// Row `i` of `M A`'s share `z` of the 4 outputs `y` down a column of a
/// tile (`Aᵀ`'s column `i`), the first row setting them.
#[inline(always)]
fn down(i: usize, z: f32, [y0, y1, y2, y3]: [&mut f32; 4]) {
    match i {
        0 => *y0 = z,
        1 => (*y0, *y1, *y2, *y3) = (*y0 + z, z, z, z),
        2 => (*y0, *y1, *y2, *y3) = (*y0 + z, *y1 - z, *y2 + z, *y3 - z),
        3 => (*y0, *y1, *y2, *y3) = (*y0 + z, *y1 + 2.0 * z, *y2 + 4.0 * z, *y3 + 8.0 * z),
        4 => (*y0, *y1, *y2, *y3) = (*y0 + z, *y1 - 2.0 * z, *y2 + 4.0 * z, *y3 - 8.0 * z),
        _ => *y3 += z,
    }
}

/// Lane by lane, `a + b`, `a - b` and `a * k` of `N` f32.
// (loops, not `array::from_fn`, whose closures LLVM leaves uninlined
// out of the functions compiled for vector instructions)
pub trait Lanes: Copy {
    fn add(self, b: Self) -> Self;
    fn sub(self, b: Self) -> Self;
    fn scale(self, k: f32) -> Self;
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
    #[inline(always)]
    fn scale(mut self, f: f32) -> Self {
        for v in &mut self {
            *v *= f;
        }
        self
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
    #[inline(always)]
    fn scale(self, k: f32) -> Self {
        self * k
    }
}

/// `buf` as `n` zeros.
fn zeroed(buf: &mut Vec<Line>, n: usize) -> &[f32] {
    let z = lines::<f32>(buf, n);
    z.fill(0.0);
    z
}

/// The input transform: from `x` (`cin` floats a point of a `w` x `h`
/// board, zeros off it) into `out`, `Bᵀ d B` of `tiles.1` tiles from tile
/// `tiles.0` on, `2 * cin.div_ceil(2)` channels (the last past `cin`
/// zeros), each tile's position quantised from its largest value to codes
/// up to `top`.
#[inline(always)]
pub fn transform(
    x: &[f32],
    (w, h): (usize, usize),
    (cin, top): (usize, i32),
    tiles: (usize, usize),
    out: &mut Tiles,
) {
    let tw = w.div_ceil(4);
    let (first, count) = tiles;
    let n = 2 * cin.div_ceil(2);
    assert!(first + count <= tw * h.div_ceil(4) && x.len() >= w * h * cin);
    assert!(out.tmp.len() >= T * n && out.zeros.len() >= cin);
    assert!(out.v.len() >= count * T * n && out.steps.len() >= count * T);
    let (whole, lim) = (cin / 16 * 16, top as f32);
    for t in first..first + count {
        let (ty, tx) = (t / tw, t % tw);
        let at: [*const f32; T] = std::array::from_fn(|i| {
            let (py, px) = (
                (4 * ty + i / 6).wrapping_sub(1),
                (4 * tx + i % 6).wrapping_sub(1),
            );
            match py < h && px < w {
                // SAFETY: a point of `x`, as checked above
                true => unsafe { x.as_ptr().add((py * w + px) * cin) },
                false => out.zeros.as_ptr(),
            }
        });
        for c in (0..whole).step_by(16) {
            // SAFETY: `at` within `x` or `zeros`, `tmp` as checked above
            unsafe { tile_in::<16>(&at, out.tmp, n, c) };
        }
        for c in whole..cin {
            // SAFETY: as above
            unsafe { tile_in::<1>(&at, out.tmp, n, c) };
        }
        if cin < n {
            for xi in 0..T {
                out.tmp[xi * n + cin] = 0.0;
            }
        }
        let p = t - first;
        for xi in 0..T {
            let x = &out.tmp[xi * n..][..n];
            let most = most(x);
            // (an all but zero position: codes of zero, not subnormals)
            let (step, inv) = match most > 1e-20 {
                true => (most / lim, lim / most),
                false => (0.0, 0.0),
            };
            out.steps[p * T + xi] = step;
            let to = &mut out.v[(xi * count + p) * n..][..n];
            for (q, &v) in to.iter_mut().zip(x) {
                // rounded to an integer (ties to even) by adding 1.5 *
                // 2^23, whose low bits are then the code: a conversion
                // that vectorises; within `lim`, as `most` bounds `v`
                let r = v * inv + 12582912.0;
                *q = (r.to_bits() as i32 - 0x4b40_0000) as i16;
            }
        }
    }
}

/// The largest `|v|` of `x`.
#[inline(always)]
fn most(x: &[f32]) -> f32 {
    // 16 lanes, which vectorise
    let mut m = [0f32; 16];
    let mut chunks = x.chunks_exact(16);
    for ch in &mut chunks {
        for (m, &v) in m.iter_mut().zip(ch) {
            let a = v.abs();
            *m = if a > *m { a } else { *m };
        }
    }
    // halved into new arrays, which vectorises: a chain of 16 compares
    // was a tenth of the layer's time (and halving in place stalls on
    // loads of what was just stored)
    let mx = |a: f32, b: f32| if b > a { b } else { a };
    let mut h8 = [0f32; 8];
    for i in 0..8 {
        h8[i] = mx(m[i], m[i + 8]);
    }
    let mut h4 = [0f32; 4];
    for i in 0..4 {
        h4[i] = mx(h8[i], h8[i + 4]);
    }
    let top = mx(mx(h4[0], h4[2]), mx(h4[1], h4[3]));
    let rest = chunks.remainder().iter();
    rest.fold(top, |m, &v| mx(m, v.abs()))
}

/// `N` channels from `c` of one tile of [`transform`]: the 36 inputs at
/// `at`, `Bᵀ` along each row into `tmp`, then down each column in place
/// (by position, `n` floats apart).
///
/// # Safety
/// `at[i] + c + N` readable, `35 * n + c + N` within `tmp`.
#[inline(always)]
unsafe fn tile_in<const N: usize>(at: &[*const f32; T], tmp: &mut [f32], n: usize, c: usize) {
    let ld = |p: *const f32, i: usize| p.add(i).cast::<[f32; N]>().read_unaligned();
    let to = tmp.as_mut_ptr().add(c);
    let st = |i: usize, v: [f32; N]| to.add(i * n).cast::<[f32; N]>().write_unaligned(v);
    // (six named loads, not `array::from_fn`: see [`Lanes`])
    for r in 0..6 {
        let a = &at[6 * r..];
        let row = bt([
            ld(a[0], c),
            ld(a[1], c),
            ld(a[2], c),
            ld(a[3], c),
            ld(a[4], c),
            ld(a[5], c),
        ]);
        for (j, v) in row.into_iter().enumerate() {
            st(6 * r + j, v);
        }
    }
    let src = to.cast_const();
    for j in 0..6 {
        let col = bt([
            ld(src, j * n),
            ld(src, (6 + j) * n),
            ld(src, (12 + j) * n),
            ld(src, (18 + j) * n),
            ld(src, (24 + j) * n),
            ld(src, (30 + j) * n),
        ]);
        for (i, v) in col.into_iter().enumerate() {
            st(6 * i + j, v);
        }
    }
}
