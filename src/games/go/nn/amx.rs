//! The bf16 backend on Intel AMX (Sapphire Rapids and later): the
//! matrices, the convolutions of odd sides (3x3, 1x1, the 5x5 input
//! layer; each window position a step over the board's rows shifted to
//! it, [`shifted`]), attention ([`attention`]) and SwiGLU (its middle
//! made in L1 from the products' sums, [`tiles::gated`]) as bf16 products
//! summed in f32 on the tile unit ([`tiles`]); a norm and activation
//! before a convolution are taken as its inputs go to bf16
//! ([`vector::norm_act_bf16`]). bf16 keeps each value's own
//! exponent, so a layer needs no scales and no integer bounds. The heads'
//! last layers, whose outputs are not whole tiles of 16, run on the 8-bit
//! backend's VNNI-512 kernel, which every AMX CPU has. (Winograd in bf16
//! was tried for the 3x3 layers: its transforms amplify bf16's rounding
//! of the weights to 4 % of the outputs' range.)

pub mod attention;
pub mod tiles;
pub mod vector;

#[cfg(test)]
mod tests;

use super::desc::{Act, Attention, Conv, Layer, MatMul, Model, Norm};
use super::forward::{self, sized, Kernels};
use super::int8::{Int8, Kernel, Precision};
use std::cell::RefCell;
use tiles::{Packed, K_STEP, ROWS};

/// The AMX backend of a model.
pub struct Amx {
    /// The layers left to the integers (only those), and attention.
    rest: Int8,
    /// The matrices and the convolutions not 3x3 (weights by window
    /// position and input, then output), under their ids.
    mats: Vec<Option<Packed>>,
}

/// A thread's buffers, grown once.
#[derive(Default)]
struct Scratch {
    /// Rows of inputs in bf16.
    a: Vec<u16>,
    /// The last rows' sums, when the rows are not whole tiles.
    tail: Vec<f32>,
    /// A convolution's sums over its padded board.
    sums: Vec<f32>,
    /// SwiGLU's middle in bf16, the rows its last matrix reads.
    mid: Vec<u16>,
    att: attention::Scratch,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// Whether this CPU runs the backend.
pub fn runs_here() -> bool {
    tiles::available() && Kernel::Vnni512.runs_here()
}

impl Amx {
    /// `model`'s layers for AMX (this CPU must run it: [`runs_here`]).
    pub fn new(model: &Model) -> Amx {
        assert!(runs_here(), "this CPU or OS does not run AMX");
        let mut mats = Vec::new();
        let input = Layer::C(&model.trunk.conv);
        for l in model.middle().into_iter().chain([input]) {
            // whole tiles of outputs only (every middle layer of KataGo's
            // nets), convolutions of odd sides
            let whole = |cout: usize| cout.is_multiple_of(ROWS);
            match l {
                Layer::C(c)
                    if whole(c.cout) && c.dilation == (1, 1) && c.ky % 2 == 1 && c.kx % 2 == 1 =>
                {
                    // a window position's inputs padded to whole steps
                    // (a 1x1 layer's rows are the points as they are)
                    let kp = match c.ky * c.kx {
                        1 => c.cin,
                        _ => c.cin.next_multiple_of(K_STEP),
                    };
                    let mut p = Packed::new(0, 0, &[]);
                    p.refill_with(c.ky * c.kx * kp, c.cout, |ki, ni| {
                        let (pos, i) = (ki / kp, ki % kp);
                        if i < c.cin {
                            c.w[(pos * c.cin + i) * c.cout + ni]
                        } else {
                            0.0
                        }
                    });
                    put(&mut mats, c.id, p);
                }
                Layer::M(m) if whole(m.cout) => {
                    put(&mut mats, m.id, Packed::new(m.cin, m.cout, &m.w))
                }
                _ => {}
            }
        }
        let precision = Precision::for_model(model);
        let rest = Int8::leaving(model, Kernel::Vnni512, precision, &|id| {
            got(&mats, id).is_some()
        });
        Amx { rest, mats }
    }

    /// Each of `ps` applied to the `m` rows of `input` into the matching
    /// `outs`, added to what they hold when `add`; the input taken to bf16
    /// once, a row by `row` (as [`plain`]).
    fn rows(
        &self,
        ps: &[&Packed],
        input: &[f32],
        outs: &mut [&mut [f32]],
        m: usize,
        add: bool,
        row: impl Fn(&[f32], &mut [u16]),
    ) {
        assert!(ps.iter().all(|p| p.k == ps[0].k && p.n == p.n_pad));
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            // SAFETY: `runs_here` said yes when the backend was made
            unsafe {
                let a = bf16_rows(&mut s.a, input, m, ps[0].k, row);
                let on = tiles::On::new();
                for (p, out) in ps.iter().zip(outs.iter_mut()) {
                    product(&on, a, p, out, m, add, &mut s.tail);
                }
            }
        })
    }

    /// SwiGLU ([`Kernels::swiglu`]) on the tiles: `w1` and `gate` by
    /// [`tiles::gated`], whose sums become `silu(u) * g` in bf16 in the
    /// rows `w2` reads, without a pass over the middle in f32.
    ///
    /// # Safety
    /// [`runs_here`] must have said yes; `w2.k` is `w1.n` and whole steps.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
    unsafe fn swiglu_tiles(
        &self,
        [w1, g, w2]: [&Packed; 3],
        input: &[f32],
        out: &mut [f32],
        m: usize,
    ) {
        use std::arch::x86_64::*;
        assert!(w1.n == w2.k && w2.k == w2.k_pad && w1.n == w1.n_pad);
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            let a = bf16_rows(&mut s.a, input, m, w1.k, plain);
            let rows = m.next_multiple_of(ROWS);
            let kp = w2.k_pad;
            let mid = sized(&mut s.mid, rows * kp);
            let on = tiles::On::new();
            tiles::gated(&on, a.as_ptr(), rows / ROWS, [w1, g], |r, col, sums| {
                for (i, row) in sums.chunks_exact(32).enumerate() {
                    let u = _mm512_loadu_ps(row.as_ptr());
                    let g = _mm512_loadu_ps(row.as_ptr().add(16));
                    let b = _mm512_cvtneps_pbh(_mm512_mul_ps(vector::silu(u), g));
                    let to = mid.as_mut_ptr().add((r * ROWS + i) * kp + col * 16);
                    _mm256_storeu_si256(to.cast(), std::mem::transmute::<__m256bh, __m256i>(b));
                }
            });
            product(&on, mid, w2, out, m, false, &mut s.tail);
        })
    }

    /// `conv` (packed in `p`) of `input`, each point's values taken into
    /// bf16 by `row` (as [`plain`]), into `out` as [`Kernels::conv`].
    #[allow(clippy::too_many_arguments)]
    fn conv_by(
        &self,
        conv: &Conv,
        p: &Packed,
        input: &[f32],
        out: &mut [f32],
        (w, h): (usize, usize),
        add: bool,
        row: impl Fn(&[f32], &mut [u16]),
    ) {
        if conv.ky * conv.kx == 1 {
            return self.rows(&[p], input, &mut [out], w * h, add, row);
        }
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            // SAFETY: `runs_here` said yes when the backend was made
            unsafe { shifted(conv, p, s, input, out, (w, h), add, row) }
        })
    }
}

/// The `m` rows of `k` values of `x` in bf16 in `buf`, each row made by
/// `row` (a point's values into its row, zeros to whole steps, as
/// [`plain`]), rows of zeros to whole tiles.
fn bf16_rows<'a>(
    buf: &'a mut Vec<u16>,
    x: &[f32],
    m: usize,
    k: usize,
    row: impl Fn(&[f32], &mut [u16]),
) -> &'a [u16] {
    assert!(x.len() >= m * k);
    let kp = k.next_multiple_of(K_STEP);
    let a = sized(buf, m.next_multiple_of(ROWS) * kp);
    for (x, to) in x.chunks_exact(k).zip(a.chunks_exact_mut(kp)).take(m) {
        row(x, to);
    }
    a[m * kp..].fill(0);
    a
}

/// A point's values into its row of bf16 as they are ([`tiles::to_bf16`]);
/// only where [`runs_here`] said yes.
fn plain(x: &[f32], to: &mut [u16]) {
    // SAFETY: the backend exists, so `runs_here` said yes
    unsafe { tiles::to_bf16(x, to) }
}

/// `p` applied to the `m` rows of `a` (in bf16, [`bf16_rows`]) into
/// `out`, added to what it holds when `add`; a last part tile of rows
/// through `tail`.
///
/// # Safety
/// As [`bf16_rows`]; `on` for this thread.
unsafe fn product(
    on: &tiles::On,
    a: &[u16],
    p: &Packed,
    out: &mut [f32],
    m: usize,
    add: bool,
    tail: &mut Vec<f32>,
) {
    let (n, kp) = (p.n, p.k_pad);
    let (full, left) = (m / ROWS, m % ROWS);
    assert!(out.len() >= m * n && a.len() >= m.next_multiple_of(ROWS) * kp);
    tiles::gemm(on, a.as_ptr(), full, p, out.as_mut_ptr(), n, add);
    if left > 0 {
        let done = full * ROWS;
        let tail = sized(tail, ROWS * n);
        if add {
            tail[..left * n].copy_from_slice(&out[done * n..m * n]);
        }
        let from = a.as_ptr().add(done * kp);
        tiles::gemm(on, from, 1, p, tail.as_mut_ptr(), n, add);
        out[done * n..m * n].copy_from_slice(&tail[..left * n]);
    }
}

/// `v` under `id` in `all`.
fn put<V>(all: &mut Vec<Option<V>>, id: usize, v: V) {
    if all.len() <= id {
        all.resize_with(id + 1, || None);
    }
    all[id] = Some(v);
}

/// What `all` keeps under `id`.
fn got<V>(all: &[Option<V>], id: usize) -> Option<&V> {
    all.get(id).and_then(Option::as_ref)
}

impl Kernels for Amx {
    fn conv(&self, conv: &Conv, input: &[f32], out: &mut [f32], w: usize, h: usize, add: bool) {
        match got(&self.mats, conv.id) {
            Some(p) => self.conv_by(conv, p, input, out, (w, h), add, plain),
            None => self.rest.conv(conv, input, out, w, h, add),
        }
    }

    fn conv_of(
        &self,
        (n, a): (&Norm, Act),
        x: &[f32],
        t: &mut Vec<f32>,
        conv: &Conv,
        out: &mut [f32],
        w: usize,
        h: usize,
        add: bool,
    ) {
        match got(&self.mats, conv.id) {
            // SAFETY: the backend exists, so `runs_here` said yes
            Some(p) => self.conv_by(conv, p, x, out, (w, h), add, |x, to| unsafe {
                vector::norm_act_bf16(x, n, a, to)
            }),
            None => self.rest.conv_of((n, a), x, t, conv, out, w, h, add),
        }
    }

    fn matmul(&self, m: &MatMul, input: &[f32], out: &mut [f32], points: usize) {
        self.matmuls(&[m], input, &mut [out], points)
    }

    fn matmuls(&self, ms: &[&MatMul], input: &[f32], outs: &mut [&mut [f32]], points: usize) {
        let ps: Option<Vec<&Packed>> = ms.iter().map(|m| got(&self.mats, m.id)).collect();
        match ps {
            Some(ps) => self.rows(&ps, input, outs, points, false, plain),
            None => self.rest.matmuls(ms, input, outs, points),
        }
    }

    fn swiglu(
        &self,
        ms: [&MatMul; 3],
        input: &[f32],
        out: &mut [f32],
        points: usize,
        mid: [&mut Vec<f32>; 2],
    ) {
        let ps = ms.map(|m| got(&self.mats, m.id));
        match ps {
            [Some(w1), Some(g), Some(w2)]
                if w1.n == w2.k
                    && w2.k == w2.k_pad
                    && w1.n == w1.n_pad
                    && w1.n == g.n
                    && w1.k == g.k =>
            {
                // SAFETY: `runs_here` said yes when the backend was made;
                // `w2` reads whole steps of `w1`'s outputs
                unsafe { self.swiglu_tiles([w1, g, w2], input, out, points) }
            }
            _ => forward::swiglu(self, ms, input, out, points, mid),
        }
    }

    fn attention(
        &self,
        at: &Attention,
        q: &[f32],
        k: &[f32],
        v: &[f32],
        out: &mut [f32],
        points: usize,
    ) {
        if !attention::takes(at) {
            return self.rest.attention(at, q, k, v, out, points);
        }
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            // SAFETY: `runs_here` said yes when the backend was made
            unsafe { attention::run(at, &mut s.att, q, k, v, out, points) }
        })
    }
}

/// `conv` (packed in `p`) over the `w` x `h` board `x` into `out`, added
/// to what it holds when `add`. The board goes to bf16 once (by `row`,
/// as [`plain`]), a point a row of `conv.cin` rounded up to a step, each
/// board row led by `conv.kx / 2` zero points, which are also the
/// previous board row's right margin, with `conv.ky / 2` board rows of
/// zeros above and below.
/// The product runs over every row of that padded board, margins too
/// (`kx / 2` in `w + kx / 2` wasted), each window position's step reading
/// the same rows shifted by its offset; the margins' sums are dropped.
///
/// # Safety
/// [`tiles::available`] must have said yes.
#[allow(clippy::too_many_arguments)]
unsafe fn shifted(
    conv: &Conv,
    p: &Packed,
    s: &mut Scratch,
    x: &[f32],
    out: &mut [f32],
    (w, h): (usize, usize),
    add: bool,
    row: impl Fn(&[f32], &mut [u16]),
) {
    let (cin, n) = (conv.cin, p.n);
    let kp = cin.next_multiple_of(K_STEP);
    let (py, px) = (conv.ky / 2, conv.kx / 2);
    assert!(p.k == conv.ky * conv.kx * kp && p.n == p.n_pad);
    assert!(x.len() >= w * h * cin && out.len() >= w * h * n);
    let wp = w + px;
    let tiles = (h * wp).div_ceil(ROWS);
    // padded row of point (y, x): px + (py + y) * wp + px + x; the
    // products' row i is padded row px + py * wp + i
    let a = sized(&mut s.a, (tiles * ROWS + 2 * (py * wp + px)) * kp);
    // each row written once: the points' by `row`, the margins' zeros
    let mut next = 0;
    for y in 0..h {
        let first = px + (py + y) * wp + px;
        a[next * kp..first * kp].fill(0);
        for xx in 0..w {
            row(
                &x[(y * w + xx) * cin..][..cin],
                &mut a[(first + xx) * kp..][..kp],
            );
        }
        next = first + w;
    }
    a[next * kp..].fill(0);
    let cbs = kp / K_STEP;
    let step = |st: usize| {
        let (pos, cb) = (st / cbs, st % cbs);
        let (dy, dx) = ((pos / conv.kx) as isize, (pos % conv.kx) as isize);
        let rows = (dy - py as isize) * wp as isize + dx - px as isize;
        rows * kp as isize + (cb * K_STEP) as isize
    };
    let sums = sized(&mut s.sums, tiles * ROWS * n);
    let on = tiles::On::new();
    let from = a.as_ptr().add((px + py * wp) * kp);
    tiles::gemm_by(&on, from, kp, step, tiles, p, sums.as_mut_ptr(), n, false);
    for (y, o) in out.chunks_exact_mut(w * n).take(h).enumerate() {
        let got = &sums[(y * wp + px) * n..][..w * n];
        if add {
            o.iter_mut().zip(got).for_each(|(o, g)| *o += g);
        } else {
            o.copy_from_slice(got);
        }
    }
}
