//! The 8-bit backend: every convolution and matrix over the board's points
//! in integers. Weights have a scale an output channel: in 8 bits exactly
//! as tengen's coded files quantise them ([`super::coded::encode`] with
//! 127 steps), so a coded file runs here as its original. Each layer's
//! input is quantised when the layer runs, from that evaluation's own
//! range: codes with a step and, where values go negative (SiLU, Mish,
//! RMS norms), a zero point. The kernels sum codes times weights in i32
//! and give back floats: `(sum - zero point * column sum) * step * scale`.
//!
//! [`Precision`]: 8-bit codes and weights (`vpdpbusd`), or 12-bit codes
//! and weights as fine as an i32 sum allows (`vpdpwssd`, half as fast).
//! Measured against float on 200 - 600 positions of the match records
//! (moves 60 - 240), top move agreeing: b6c96 97.3 % in 8 bits, 99.3 % in
//! 16; b15c192 96.0 / 98.5 %; b18c384 99 / 100 % (100 positions). The
//! transformer b10c384 in 8 bits moves the empty board's win rate from
//! 0.630 to 0.598 (its weights alone to 0.596), its error spread over all
//! its layers, none much worse than another; in 16 bits 0.628 and 99.0 %.
//! Rounding a coded file's 8-bit weights against real inputs (GPTQ) took
//! the weights' part of that away (b6c96's coded file 98.0 % rather than
//! 95.3 %), not the codes'; it went when Winograd in 16 bits and coded
//! files with finer weights (`--steps 2047`: 99.4 %) did better.
//! The input layer (the most sensitive weights; binary planes, exact in
//! any codes) and the heads' last layers (a few outputs) are in 16 bits
//! always.
//!
//! One kernel an instruction set ([`Kernel`]), chosen at run time; the
//! scalar one is the reference the vector kernels equal integer for
//! integer (`int8/tests.rs`). Norms, activations and heads stay in float
//! (`forward.rs`); attention runs in [`attention`].

mod attention;
#[cfg(target_arch = "x86_64")]
mod avx2;
mod block;
mod dispatch;
pub mod layer;
mod scalar;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod vnni256;
#[cfg(target_arch = "x86_64")]
mod vnni512;
pub mod winograd;

pub use layer::{Kernel, Precision};

use super::desc::Attention;
use super::desc::{Conv, Layer, MatMul, Model};
use super::forward::Kernels;
use dispatch::{quantise_with, run_kernel};
use layer::{Codes, Finish, QLayer};
use std::cell::RefCell;

/// The 8-bit backend of a model.
pub struct Int8 {
    kernel: Kernel,
    /// Each layer's quantised form under its id ([`Conv::id`]).
    layers: Vec<Option<QLayer>>,
    /// The 3x3 layers run by [`winograd`], under their ids.
    wino: Vec<Option<winograd::WLayer>>,
}

/// A thread's codes and padded outputs, grown once.
#[derive(Default)]
struct Scratch {
    codes: Vec<u32>,
    row: Vec<i32>,
    out: Vec<f32>,
    fin: Vec<f32>,
    zc: Vec<i32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

impl Int8 {
    /// `model`'s layers quantised for `kernel`, which must run here, at
    /// [`Precision::for_model`].
    pub fn new(model: &Model, kernel: Kernel) -> Int8 {
        Int8::with_precision(model, kernel, Precision::for_model(model))
    }

    /// `model`'s layers quantised for `kernel` at `precision`; the input
    /// layer (its weights the most sensitive, its binary planes exact in
    /// any codes) and the heads' last layers (a few outputs: little work)
    /// in 16 bits whatever it is.
    pub fn with_precision(model: &Model, kernel: Kernel, precision: Precision) -> Int8 {
        Int8::leaving(model, kernel, precision, &|_| false)
    }

    /// [`Int8::with_precision`] without the layers whose ids `taken`
    /// names (another backend runs them; asking this one for them panics).
    pub fn leaving(
        model: &Model,
        kernel: Kernel,
        precision: Precision,
        taken: &dyn Fn(usize) -> bool,
    ) -> Int8 {
        assert!(
            kernel.runs_here(),
            "{} does not run on this CPU",
            kernel.name()
        );
        let mut layers: Vec<Option<QLayer>> = Vec::new();
        let mut wino = Vec::new();
        let mut put = |l: Layer, fine: bool| {
            if taken(l.id()) {
                return;
            }
            let (id, q) = match l {
                Layer::C(c) => {
                    assert!(
                        c.ky == c.kx && c.dilation == (1, 1),
                        "{}: a {}x{} kernel",
                        c.name,
                        c.ky,
                        c.kx
                    );
                    if c.ky == 3 && precision == Precision::Winograd {
                        wino.resize_with(wino.len().max(c.id + 1), || None);
                        wino[c.id] = Some(winograd::WLayer::new(kernel, c.cin, c.cout, &c.w));
                        return;
                    }
                    (c.id, QLayer::new(kernel, c.ky, c.cin, c.cout, &c.w, fine))
                }
                Layer::M(m) => (m.id, QLayer::new(kernel, 1, m.cin, m.cout, &m.w, fine)),
            };
            if layers.len() <= id {
                layers.resize_with(id + 1, || None);
            }
            layers[id] = Some(q);
        };
        for l in model.middle() {
            put(l, precision != Precision::Eight);
        }
        for c in [&model.trunk.conv, &model.policy.p2, &model.value.ownership] {
            put(Layer::C(c), true);
        }
        Int8 {
            kernel,
            layers,
            wino,
        }
    }

    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The quantised form of layer `id`.
    fn layer(&self, id: usize) -> &QLayer {
        self.layers
            .get(id)
            .and_then(Option::as_ref)
            .expect("a layer of the model this backend was made for")
    }

    /// The weights of the layer after `id` that is not run by Winograd,
    /// the one likely run next of those.
    fn after(&self, id: usize) -> &[u32] {
        let (after, before) = (&self.layers[id + 1..], &self.layers[..id]);
        after
            .iter()
            .chain(before)
            .flatten()
            .next()
            .map_or(&[], |l| &l.w)
    }

    /// Each of `ls` over the same `input` (`cin` floats a point of a `w`
    /// x `h` board; the layers alike in all but their outputs) into the
    /// matching `outs`, added to what they hold when `add`: the input is
    /// quantised once. `next`: the weights of the layer run after them.
    fn run(
        &self,
        ls: &[&QLayer],
        next: &[u32],
        input: &[f32],
        outs: &mut [&mut [f32]],
        (w, h): (usize, usize),
        add: bool,
    ) {
        let (area, l) = (w * h, ls[0]);
        assert!(input.len() >= area * l.cin);
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            let stride = w + l.k - 1;
            let n = stride * (h + l.k - 1) * l.groups;
            if s.codes.len() < n {
                s.codes.resize(n, 0);
            }
            let codes = &mut s.codes[..n];
            let x = &input[..area * l.cin];
            let (step, zero) = quantise_with(self.kernel, x, l, w, &mut s.row, codes);
            let input = Codes {
                codes,
                stride,
                w,
                h,
            };
            for (i, (l, out)) in ls.iter().zip(outs.iter_mut()).enumerate() {
                let next = ls.get(i + 1).map_or(next, |n| &n.w);
                assert!(
                    out.len() >= area * l.cout
                        && (l.k, l.cin, l.top) == (ls[0].k, ls[0].cin, ls[0].top)
                );
                s.fin.clear();
                // a channel of weights near 1e-38 (dead in training) would
                // give subnormal outputs, a hundred cycles each downstream:
                // its outputs, below 1e-22, are zeros
                let flush = |m: f32| if m.abs() < 1e-30 { 0.0 } else { m };
                s.fin.extend(l.scale.iter().map(|sc| flush(sc * step)));
                s.zc.clear();
                s.zc.extend(l.colsum.iter().map(|c| c * zero));
                let direct = l.cout == l.cout_pad;
                let fin = Finish {
                    row: l.cout_pad,
                    zc: &s.zc,
                    mul: &s.fin,
                    add: add && direct,
                };
                if direct {
                    run_kernel(
                        self.kernel,
                        l,
                        &input,
                        &fin,
                        &mut out[..area * l.cout],
                        next,
                    );
                    continue;
                }
                if s.out.len() < area * l.cout_pad {
                    s.out.resize(area * l.cout_pad, 0.0);
                }
                let padded = &mut s.out[..area * l.cout_pad];
                run_kernel(self.kernel, l, &input, &fin, padded, next);
                for (o, v) in out
                    .chunks_exact_mut(l.cout)
                    .zip(padded.chunks_exact(l.cout_pad))
                {
                    if add {
                        o.iter_mut().zip(v).for_each(|(o, v)| *o += v);
                    } else {
                        o.copy_from_slice(&v[..l.cout]);
                    }
                }
            }
        })
    }
}

impl Kernels for Int8 {
    fn conv(&self, conv: &Conv, input: &[f32], out: &mut [f32], w: usize, h: usize, add: bool) {
        if let Some(l) = self.wino.get(conv.id).and_then(Option::as_ref) {
            // the 3x3 layer likely next, whose weights to fetch meanwhile
            let (after, before) = (&self.wino[conv.id + 1..], &self.wino[..conv.id]);
            let next = after.iter().chain(before).flatten().next();
            return winograd::dispatch::run(self.kernel, l, next, input, out, (w, h), add);
        }
        let next = self.after(conv.id);
        self.run(&[self.layer(conv.id)], next, input, &mut [out], (w, h), add)
    }

    fn matmul(&self, m: &MatMul, input: &[f32], out: &mut [f32], points: usize) {
        self.matmuls(&[m], input, &mut [out], points)
    }

    fn matmuls(&self, ms: &[&MatMul], input: &[f32], outs: &mut [&mut [f32]], points: usize) {
        let ls: Vec<&QLayer> = ms.iter().map(|m| self.layer(m.id)).collect();
        let last = ms.iter().map(|m| m.id).max().expect("a layer");
        self.run(&ls, self.after(last), input, outs, (points, 1), false)
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
        attention::run(self.kernel, at, q, k, v, out, points)
    }
}
