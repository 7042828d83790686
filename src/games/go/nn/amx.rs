//! The bf16 backend on Intel AMX (Sapphire Rapids and later): the
//! matrices, the convolutions other than 3x3 (the 1x1 ones, the 5x5
//! input layer, as one matrix product over each point's window) and
//! attention ([`attention`]) as bf16 products summed in f32 on the tile
//! unit ([`tiles`]). bf16 keeps each value's own exponent, so a layer
//! needs no scales and no integer bounds. The 3x3 layers run on the
//! 8-bit backend's VNNI-512 kernel (Winograd F(4x4) in 16-bit integers,
//! which every AMX CPU has): F(4x4)'s transforms amplify bf16's rounding
//! of their weights to 4 % of the outputs' range, and its weights, four
//! times the layer's, stream from L3 at any precision. So do the heads'
//! last layers, whose outputs are not whole tiles of 16.

pub mod attention;
pub mod tiles;

#[cfg(test)]
mod tests;

use super::desc::{Attention, Conv, Layer, MatMul, Model};
use super::forward::{sized, Kernels};
use super::int8::{Int8, Kernel, Precision};
use std::cell::RefCell;
use tiles::{Packed, ROWS};

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
    /// A convolution's inputs, a point's window a row.
    window: Vec<f32>,
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
            // nets); 3x3 layers to the integer Winograd
            let whole = |cout: usize| cout.is_multiple_of(ROWS);
            match l {
                Layer::C(c) if whole(c.cout) && c.dilation == (1, 1) && (c.ky, c.kx) != (3, 3) => {
                    let k = c.ky * c.kx * c.cin;
                    put(&mut mats, c.id, Packed::new(k, c.cout, &c.w));
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
    /// `outs`, added to what they hold when `add`; the input rounded to
    /// bf16 once.
    fn rows(&self, ps: &[&Packed], input: &[f32], outs: &mut [&mut [f32]], m: usize, add: bool) {
        let (k, kp) = (ps[0].k, ps[0].k_pad);
        assert!(input.len() >= m * k && ps.iter().all(|p| p.k == k && p.n == p.n_pad));
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            let rows = m.next_multiple_of(ROWS);
            let a = sized(&mut s.a, rows * kp);
            // SAFETY: `runs_here` said yes when the backend was made
            unsafe {
                for (x, to) in input.chunks_exact(k).zip(a.chunks_exact_mut(kp)).take(m) {
                    tiles::to_bf16(x, to);
                }
            }
            a[m * kp..].fill(0);
            let (full, left) = (m / ROWS, m % ROWS);
            for (p, out) in ps.iter().zip(outs.iter_mut()) {
                let n = p.n;
                assert!(out.len() >= m * n);
                // SAFETY: as above; `a` holds `rows` rows of `kp`, `out`
                // `full` tiles of rows of `n`, `tail` one
                unsafe {
                    let on = tiles::On::new();
                    tiles::gemm(&on, a.as_ptr(), full, p, out.as_mut_ptr(), n, add);
                    if left > 0 {
                        let done = full * ROWS;
                        let tail = sized(&mut s.tail, ROWS * n);
                        if add {
                            tail[..left * n].copy_from_slice(&out[done * n..m * n]);
                        }
                        let from = a.as_ptr().add(done * kp);
                        tiles::gemm(&on, from, 1, p, tail.as_mut_ptr(), n, add);
                        out[done * n..m * n].copy_from_slice(&tail[..left * n]);
                    }
                }
            }
        })
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
        let Some(p) = got(&self.mats, conv.id) else {
            return self.rest.conv(conv, input, out, w, h, add);
        };
        if conv.ky * conv.kx == 1 {
            return self.rows(&[p], input, &mut [out], w * h, add);
        }
        // (the buffer taken out: `rows` borrows the scratch again)
        let mut window = SCRATCH.with(|s| std::mem::take(&mut s.borrow_mut().window));
        windows(conv, input, (w, h), &mut window);
        self.rows(&[p], &window, &mut [out], w * h, add);
        SCRATCH.with(|s| s.borrow_mut().window = window);
    }

    fn matmul(&self, m: &MatMul, input: &[f32], out: &mut [f32], points: usize) {
        self.matmuls(&[m], input, &mut [out], points)
    }

    fn matmuls(&self, ms: &[&MatMul], input: &[f32], outs: &mut [&mut [f32]], points: usize) {
        let ps: Option<Vec<&Packed>> = ms.iter().map(|m| got(&self.mats, m.id)).collect();
        match ps {
            Some(ps) => self.rows(&ps, input, outs, points, false),
            None => self.rest.matmuls(ms, input, outs, points),
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

/// Each point's `conv.ky` x `conv.kx` window of `x` (`conv.cin` floats a
/// point of a `w` x `h` board, zeros off it) into `to`, a point a row, in
/// the order of the weights: window position, then input.
fn windows(conv: &Conv, x: &[f32], (w, h): (usize, usize), to: &mut Vec<f32>) {
    let (cin, ky, kx) = (conv.cin, conv.ky, conv.kx);
    let row = ky * kx * cin;
    to.clear();
    to.resize(w * h * row, 0.0);
    for (p, r) in to.chunks_exact_mut(row).enumerate() {
        let (y, xx) = (p / w, p % w);
        for dy in 0..ky {
            let Some(sy) = (y + dy).checked_sub(ky / 2).filter(|&v| v < h) else {
                continue;
            };
            for dx in 0..kx {
                let Some(sx) = (xx + dx).checked_sub(kx / 2).filter(|&v| v < w) else {
                    continue;
                };
                r[(dy * kx + dx) * cin..][..cin].copy_from_slice(&x[(sy * w + sx) * cin..][..cin]);
            }
        }
    }
}
