//! The learnt policy network: convolutions with ReLU over the planes of
//! [`super::planes`] (plain, or in residual blocks), then a 1x1 head to
//! one logit a point, trained on the teacher's moves by
//! `tools/teacher/train.py` and exported by `tools/teacher/export.py`. One
//! thread, no allocation past the first call's buffers. Layers whose
//! outputs come in sixteens run with AVX2 and FMA where the CPU has them
//! (checked at run time: the arena's CPU is unknown), 3x3 ones by
//! Winograd's transform (`net/winograd.rs`), the rest point by point in
//! plain loops the compiler vectorises as the target allows. Or, by the
//! path `net/paths.rs` picks for the CPU, in 8-bit integers
//! (`net/int8.rs`, with a kernel a file for VNNI and AVX2).
//!
//! The weight file, little-endian, as `tools/teacher/export.py` writes it:
//! the 8 bytes `TGPOLNN5`, the number of layers (u32), then per layer its
//! kernel size, input and output channels, its skip flag and its pooled
//! flag (u32 each), and its tensors: the weights (kernel row, kernel
//! column, input channel, output channel), the biases (one an output
//! channel) and, with the pooled flag, a matrix of 2 x input channels rows
//! by output channels. Each tensor is tagged: f32, or quantised to a few
//! bits a value and entropy-coded, decoded as the file is read
//! (`net/format.rs`). Every layer but the last is followed by a ReLU; the
//! last has one output channel. A layer with the skip flag adds, before
//! its ReLU, the input of the layer before it: the second layer of a
//! residual block. A pooled layer adds to its biases the board's mean,
//! then its max, of each input channel times its matrix: a view of the
//! whole board that 3x3 kernels lack. A value section may follow the last
//! layer ([`value`]): the value and score head, computed in the same pass
//! ([`Net::evaluate`]).

use super::planes;
use crate::go::{Board, Color, Point};
use builtin::BUILTIN;
use calibrate::Calibration;
use format::Reader;
pub use paths::Path;
use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::OnceLock;
pub use value::Value;
use value::ValueHead;

/// The one format: what `export.py` writes.
const MAGIC: &[u8; 8] = b"TGPOLNN5";

struct Layer {
    k: usize,
    cin: usize,
    cout: usize,
    w: Vec<f32>,
    b: Vec<f32>,
    /// Adds the previous layer's input before the ReLU.
    skip: bool,
    /// The pooled bias's matrix: `2 * cin` rows of `cout` (empty if none).
    pooled: Vec<f32>,
    /// The weights for Winograd's transform, if the layer and the CPU
    /// suit it (empty if not).
    wino: Vec<f32>,
}

/// The network in play, set once (see [`Net::active`]).
static ACTIVE: OnceLock<Net> = OnceLock::new();

/// A policy network; [`Net::active`] is the one the bot plays with.
pub struct Net {
    layers: Vec<Layer>,
    /// The widest layer: every buffer keeps this many values a point.
    width: usize,
    /// Zero border around the board: half the largest kernel.
    pad: usize,
    /// The value and score head, if the file has one ([`value`]).
    value: Option<ValueHead>,
    /// The code that computes it ([`Path::chosen`] unless set).
    path: Path,
    /// The layers in 8 bits, made on first use by an 8-bit path: codes
    /// up to 127, then up to 255 ([`int8::top`]).
    int8: [OnceLock<int8::Quantised>; 2],
    /// What the 8-bit paths know of the activations (the built-in table
    /// if it is this network's, unless set).
    calibration: OnceLock<Calibration>,
}

impl Net {
    /// Whether the search asks the network about `b`: only on
    /// 19x19, the one size it learnt (on 9x9 nearly every point is near
    /// an edge, which it only saw on the rim of a large board).
    pub fn knows(b: &Board) -> bool {
        b.width() == 19 && b.height() == 19
    }

    /// The network in play: one [`Net::install`] put in place, else the
    /// one in the binary, read on first use.
    pub fn active() -> &'static Net {
        ACTIVE
            .get_or_init(|| Net::from_bytes(BUILTIN).expect("the built-in net/policy.net is valid"))
    }

    /// Puts `net` in play in place of the built-in one (`--net-file`, to
    /// try a network without building it in). Only before the first
    /// [`Net::active`]: the search must not change nets mid-game.
    pub fn install(net: Net) -> Result<(), String> {
        ACTIVE
            .set(net)
            .map_err(|_| "a network is already in play".to_string())
    }

    /// Reads a weight file (format in the module doc).
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, String> {
        let rest = bytes.strip_prefix(MAGIC).ok_or(
            "not a tengen policy network: expected a TGPOLNN5 weight file \
             (as tools/teacher/export.py writes them)",
        )?;
        let mut r = Reader::new(rest)?;
        let count = r.u32()? as usize;
        let mut layers = Vec::new();
        let mut cin_expected = planes::PLANES.len();
        for l in 0..count {
            let (k, cin, cout) = (r.u32()? as usize, r.u32()? as usize, r.u32()? as usize);
            let (skip, pooled) = (r.u32()? != 0, r.u32()? != 0);
            if k % 2 == 0 || k > 9 || cin != cin_expected || cout == 0 || cout > 512 {
                return Err(format!(
                    "layer {l}: kernel {k}, {cin} -> {cout} channels (expected odd kernel, {cin_expected} in)"
                ));
            }
            let before = layers.last().map(|p: &Layer| p.cin);
            if skip && before != Some(cout) {
                return Err(format!(
                    "layer {l}: skips over a layer that takes {before:?} channels, not its {cout}"
                ));
            }
            let n = k * k * cin * cout;
            let (w, b) = (r.tensor(n)?, r.tensor(cout)?);
            let pooled = if pooled {
                r.tensor(2 * cin * cout)?
            } else {
                Vec::new()
            };
            if w.iter().chain(&b).chain(&pooled).any(|x| !x.is_finite()) {
                return Err(format!("layer {l}: a weight is not finite"));
            }
            layers.push(Layer {
                wino: transformed(k, cin, cout, &w),
                k,
                cin,
                cout,
                w,
                b,
                skip,
                pooled,
            });
            cin_expected = cout;
        }
        // a value section may follow the layers
        let value = match r.done() {
            true => None,
            false => Some(ValueHead::read(r.rest())?),
        };
        match layers.last() {
            Some(l) if l.cout == 1 && !l.skip && l.pooled.is_empty() => {}
            _ => {
                return Err(
                    "the last layer must have one output channel and no skip or pooled flag".into(),
                )
            }
        }
        if let Some(v) = &value {
            let tapped = layers[..layers.len() - 1].get(v.tap).map(|l| l.cout);
            if tapped != Some(v.channels()) {
                return Err(format!(
                    "the value head reads {} channels of layer {}, which has {tapped:?}",
                    v.channels(),
                    v.tap
                ));
            }
        }
        let width = layers.iter().map(|l| l.cin.max(l.cout)).max().unwrap_or(1);
        let pad = layers.iter().map(|l| l.k / 2).max().unwrap_or(0);
        Ok(Net {
            layers,
            width,
            pad,
            value,
            path: Path::chosen(),
            int8: [OnceLock::new(), OnceLock::new()],
            calibration: OnceLock::new(),
        })
    }

    /// Multiply-adds one evaluation of a `w` x `h` board takes (before the
    /// zeros it skips).
    pub fn macs(&self, w: usize, h: usize) -> usize {
        self.layers
            .iter()
            .map(|l| l.k * l.k * l.cin * l.cout * w * h + l.pooled.len())
            .sum()
    }

    /// The path the network's evaluations take.
    pub fn path(&self) -> Path {
        self.path
    }

    /// The same network computed by `path` (the CPU must run it).
    pub fn with_path(mut self, path: Path) -> Net {
        assert!(path.runs_here(), "this CPU cannot run the {path} path");
        self.path = path;
        self
    }

    /// One logit a point, row by row from the top left, for the planes of
    /// a `w` x `h` board ([`planes::encode`]).
    pub fn logits(&self, planes: &[u8], w: usize, h: usize) -> Vec<f32> {
        self.logits_by(self.path, planes, w, h)
    }

    /// Whether the network has a value head ([`Net::evaluate`]).
    pub fn has_value(&self) -> bool {
        self.value.is_some()
    }

    /// [`Net::logits`], and the value head's read of the position when the
    /// network has one and `to_move` says whose turn it is (on any path:
    /// the head reads the float outputs every path keeps).
    fn forward(
        &self,
        planes: &[u8],
        w: usize,
        h: usize,
        to_move: Option<Color>,
    ) -> (Vec<f32>, Option<Value>) {
        self.forward_by(self.path, planes, w, h, to_move)
    }

    /// [`Net::forward`] computed by `path` (one this CPU runs).
    pub fn forward_by(
        &self,
        path: Path,
        planes: &[u8],
        w: usize,
        h: usize,
        to_move: Option<Color>,
    ) -> (Vec<f32>, Option<Value>) {
        let (Some(head), Some(side)) = (&self.value, to_move) else {
            return (self.logits_by(path, planes, w, h), None);
        };
        let mut value = None;
        let logits = self.observe_by(path, planes, w, h, &mut |l, g, out| {
            if l == head.tap {
                let points = (0..g.w * g.h).map(|i| {
                    let at = ((i / g.w + g.pad) * g.stride + i % g.w + g.pad) * g.c;
                    &out[at..at + g.c]
                });
                value = Some(head.forward(points, side == Color::White));
            }
        });
        (logits, value)
    }

    /// The 8-bit paths' calibration ([`Calibration::for_net`] unless
    /// [`Net::calibrate`] set one).
    pub fn calibration(&self) -> &Calibration {
        self.calibration.get_or_init(|| Calibration::for_net(self))
    }

    /// Sets the 8-bit paths' calibration, before their first use.
    pub fn calibrate(&self, cal: Calibration) -> Result<(), String> {
        self.calibration
            .set(cal)
            .map_err(|_| "the 8-bit paths are calibrated already".to_string())
    }

    /// [`Net::logits`] computed by `path` (one this CPU runs).
    pub fn logits_by(&self, path: Path, planes: &[u8], w: usize, h: usize) -> Vec<f32> {
        self.observe_by(path, planes, w, h, &mut |_, _, _| {})
    }

    /// [`Net::logits_by`], showing `seen` each layer's output in float.
    fn observe_by(
        &self,
        path: Path,
        planes: &[u8],
        w: usize,
        h: usize,
        seen: &mut dyn FnMut(usize, Grid, &[f32]),
    ) -> Vec<f32> {
        thread_local! {
            static BUFFERS8: RefCell<int8::Buffers> = RefCell::default();
        }
        if path.is_int8() {
            let top = int8::top(path);
            let q = self.int8[(top > 127) as usize]
                .get_or_init(|| int8::Quantised::new(self, self.calibration(), top));
            return BUFFERS8.with(|cell| {
                int8::run(self, q, path, planes, (w, h), &mut cell.borrow_mut(), seen)
            });
        }
        self.observe(planes, w, h, seen)
    }

    /// [`Net::logits`] in float, showing `seen` each layer's output.
    fn observe(
        &self,
        planes: &[u8],
        w: usize,
        h: usize,
        seen: &mut dyn FnMut(usize, Grid, &[f32]),
    ) -> Vec<f32> {
        thread_local! {
            static BUFFERS: RefCell<[Vec<f32>; 4]> = const { RefCell::new([const { Vec::new() }; 4]) };
        }
        BUFFERS.with(|cell| {
            let [cur, next, kept, scratch] = &mut *cell.borrow_mut();
            self.run(planes, w, h, [cur, next, kept, scratch], seen)
        })
    }

    /// The buffers: the layer's input, its output, a block's input kept
    /// for the layer that skips over it, the transforms' scratch.
    fn run(
        &self,
        planes: &[u8],
        w: usize,
        h: usize,
        buffers: [&mut Vec<f32>; 4],
        seen: &mut dyn FnMut(usize, Grid, &[f32]),
    ) -> Vec<f32> {
        let [cur, next, kept, scratch] = buffers;
        let (pad, c) = (self.pad, self.width);
        let stride = w + 2 * pad;
        let cells = stride * (h + 2 * pad);
        // the border stays zero: only the board's cells are ever written
        for buf in [&mut *cur, &mut *next] {
            buf.clear();
            buf.resize(cells * c, 0.0);
        }
        // wholly overwritten before each use: sized, never cleared
        kept.resize(cells * c, 0.0);
        let area = w * h;
        assert_eq!(
            planes.len(),
            planes::PLANES.len() * area,
            "planes of a {w}x{h} board"
        );
        for (plane, values) in planes.chunks_exact(area).enumerate() {
            for (i, &v) in values.iter().enumerate() {
                let cell = (i / w + pad) * stride + i % w + pad;
                cur[cell * c + plane] = v as f32;
            }
        }
        let last = self.layers.len() - 1;
        let grid = Grid {
            w,
            h,
            stride,
            pad,
            c,
        };
        for (l, layer) in self.layers.iter().enumerate() {
            if self.layers.get(l + 1).is_some_and(|n| n.skip) {
                kept.copy_from_slice(cur);
            }
            let add = layer.skip.then_some(&kept[..]);
            let bias = pooled_bias(layer, grid, cur);
            let step = Step {
                layer,
                bias: &bias,
                add,
                relu: l != last,
            };
            conv(step, grid, cur, next, scratch);
            seen(l, grid, next);
            std::mem::swap(cur, next);
        }
        (0..area)
            .map(|i| cur[((i / w + pad) * stride + i % w + pad) * c])
            .collect()
    }

    /// The network's probability for each sensible move of the side to
    /// move on `b` (legal, no own eye filled: the moves the bot may play,
    /// so never a point the rules refuse), summing to 1. Empty when there
    /// is no such move.
    pub fn policy(&self, b: &Board) -> Vec<(Point, f32)> {
        self.read(b, None).0
    }

    /// [`Net::policy`], and the value head's read of `b` for the side to
    /// move if the network has one: one pass through the trunk for both.
    pub fn evaluate(&self, b: &Board) -> (Vec<(Point, f32)>, Option<Value>) {
        self.read(b, Some(b.to_move()))
    }

    /// The policy of `b`, and the value head's read for `to_move` if one
    /// is given (the policy alone skips the head's work).
    fn read(&self, b: &Board, to_move: Option<Color>) -> (Vec<(Point, f32)>, Option<Value>) {
        let planes = planes::encode(b);
        let (w, h) = (b.width(), b.height());
        let sensible = &planes[planes::SENSIBLE * w * h..][..w * h];
        let (logits, value) = self.forward(&planes, w, h, to_move);
        let mut out: Vec<(Point, f32)> = (0..w * h)
            .filter(|&i| sensible[i] != 0)
            .map(|i| (b.point(i % w, i / w), logits[i]))
            .collect();
        let top = out.iter().map(|m| m.1).fold(f32::NEG_INFINITY, f32::max);
        let mut total = 0.0;
        for m in &mut out {
            m.1 = (m.1 - top).exp();
            total += m.1;
        }
        for m in &mut out {
            m.1 /= total;
        }
        (out, value)
    }

    /// The `n` moves of [`Net::policy`] with the highest probability,
    /// likeliest first.
    pub fn likeliest(&self, b: &Board, n: usize) -> Vec<(Point, f32)> {
        let mut policy = self.policy(b);
        policy.sort_by(|x, y| y.1.total_cmp(&x.1));
        policy.truncate(n);
        policy
    }
}

/// The probabilities of the sensible points of `planes` (a board of
/// `logits.len()` points) for `logits`, dense, zero elsewhere: what
/// [`Net::policy`] gives, for tools that compare paths point by point.
pub fn sensible_softmax(planes: &[u8], logits: &[f32]) -> Vec<f32> {
    let area = logits.len();
    let sensible = &planes[planes::SENSIBLE * area..][..area];
    let top = logits.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
    let e: Vec<f32> = logits
        .iter()
        .zip(sensible)
        .map(|(&v, &s)| if s != 0 { (v - top).exp() } else { 0.0 })
        .collect();
    let total: f32 = e.iter().sum();
    e.iter().map(|v| v / total.max(f32::MIN_POSITIVE)).collect()
}

/// Where a board lies in the padded buffers: `c` values a cell, rows of
/// `stride` cells, the board starting `pad` cells in.
#[derive(Clone, Copy)]
struct Grid {
    w: usize,
    h: usize,
    stride: usize,
    pad: usize,
    c: usize,
}

/// Adds to `acc` the products of `input` (one value an input channel of
/// one cell) with their rows of `weights` (`acc.len()` outputs a row).
/// (Two input channels at a time, for half the loads and stores of the
/// sums, measured no faster.)
#[inline(always)]
fn mul_add(acc: &mut [f32], input: &[f32], weights: &[f32]) {
    for (&v, row) in input.iter().zip(weights.chunks_exact(acc.len())) {
        // binary inputs and ReLU outputs: mostly zeros
        if v != 0.0 {
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += v * w;
            }
        }
    }
}

/// The biases of `layer` for the input `cur`: its own, plus for a pooled
/// layer the board's mean and max of each input channel times its matrix.
fn pooled_bias<'a>(layer: &'a Layer, g: Grid, cur: &[f32]) -> Cow<'a, [f32]> {
    if layer.pooled.is_empty() {
        return Cow::Borrowed(&layer.b);
    }
    let mut bias = layer.b.clone();
    let cin = layer.cin;
    let mut pooled = vec![0.0f32; 2 * cin];
    let (sum, max) = pooled.split_at_mut(cin);
    max.fill(f32::NEG_INFINITY);
    for y in 0..g.h {
        for x in 0..g.w {
            let at = ((y + g.pad) * g.stride + x + g.pad) * g.c;
            for ((s, m), &v) in sum.iter_mut().zip(max.iter_mut()).zip(&cur[at..at + cin]) {
                *s += v;
                *m = m.max(v);
            }
        }
    }
    let area = (g.w * g.h) as f32;
    sum.iter_mut().for_each(|s| *s /= area);
    mul_add(&mut bias, &pooled, &layer.pooled);
    Cow::Owned(bias)
}

/// What one layer computes from its input: its weights, its biases for
/// this input, what it adds before its ReLU, and whether it has one.
#[derive(Clone, Copy)]
struct Step<'a> {
    layer: &'a Layer,
    bias: &'a [f32],
    add: Option<&'a [f32]>,
    relu: bool,
}

/// One layer into `next`: with 8-lane fused multiply-adds where the CPU
/// has them, by Winograd's transform for a 3x3 kernel ([`winograd::conv`])
/// or directly ([`avx::conv`]), else point by point.
fn conv(step: Step, g: Grid, cur: &[f32], next: &mut [f32], scratch: &mut Vec<f32>) {
    #[cfg(target_arch = "x86_64")]
    if !step.layer.wino.is_empty() {
        // SAFETY: `wino` is only filled where the layer fits and the CPU
        // has the features ([`transformed`])
        return unsafe { winograd::conv(step, &step.layer.wino, g, cur, next, scratch) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = scratch;
    #[cfg(target_arch = "x86_64")]
    if step.layer.cout.is_multiple_of(avx::LANES) && avx::usable() {
        // SAFETY: the CPU has both features, just checked
        return unsafe { avx::conv(step, g, cur, next) };
    }
    conv_points(step, g, cur, next)
}

/// One layer point by point: each point's outputs summed in a buffer from
/// the biases, then stored.
fn conv_points(step: Step, g: Grid, cur: &[f32], next: &mut [f32]) {
    let (layer, bias) = (step.layer, step.bias);
    let (k, cin, cout) = (layer.k, layer.cin, layer.cout);
    let acc = &mut vec![0.0f32; cout][..];
    let off = g.pad - k / 2;
    for y in 0..g.h {
        for x in 0..g.w {
            acc.copy_from_slice(bias);
            for ky in 0..k {
                let row = (y + off + ky) * g.stride + x + off;
                for kx in 0..k {
                    let input = &cur[(row + kx) * g.c..][..cin];
                    let weights = &layer.w[(ky * k + kx) * cin * cout..][..cin * cout];
                    mul_add(acc, input, weights);
                }
            }
            let at = ((y + g.pad) * g.stride + x + g.pad) * g.c;
            store(acc, step, at, next);
        }
    }
}

/// Stores `acc`, the sums of a point's outputs, in `next` from `at`: plus
/// the values of the step's `add` there if it has one, then its ReLU.
fn store(acc: &mut [f32], step: Step, at: usize, next: &mut [f32]) {
    let out = &mut next[at..at + acc.len()];
    if let Some(add) = step.add {
        for (a, &v) in acc.iter_mut().zip(&add[at..at + out.len()]) {
            *a += v;
        }
    }
    if step.relu {
        for (o, &a) in out.iter_mut().zip(&*acc) {
            *o = a.max(0.0);
        }
    } else {
        out.copy_from_slice(acc);
    }
}

/// A layer's weights for [`winograd::conv`] where the layer and this CPU
/// suit it, else none.
fn transformed(k: usize, cin: usize, cout: usize, w: &[f32]) -> Vec<f32> {
    #[cfg(target_arch = "x86_64")]
    if winograd::fits(k, cin, cout) {
        return winograd::weights(w, cin, cout);
    }
    let _ = (k, cin, cout, w);
    Vec::new()
}

// a module of its own: the arena zip compiles it as a crate alone (a
// rustc holding 3.6 MB of bytes needs tens of MB more)
#[path = "net/builtin.rs"]
pub mod builtin;

#[path = "net/value.rs"]
pub mod value;

#[cfg(target_arch = "x86_64")]
#[path = "net/avx.rs"]
mod avx;

#[cfg(target_arch = "x86_64")]
#[path = "net/winograd.rs"]
mod winograd;

#[path = "net/format.rs"]
mod format;
#[path = "net/paths.rs"]
mod paths;

#[path = "net/calibrate.rs"]
pub mod calibrate;
#[path = "net/int8.rs"]
mod int8;

#[path = "net/direct8.rs"]
#[cfg(target_arch = "x86_64")]
mod direct8;

#[path = "net/vnni512.rs"]
#[cfg(target_arch = "x86_64")]
mod vnni512;

#[path = "net/vnni256.rs"]
#[cfg(target_arch = "x86_64")]
mod vnni256;

#[path = "net/avx2_int8.rs"]
#[cfg(target_arch = "x86_64")]
mod avx2_int8;

#[cfg(test)]
#[path = "net/tests.rs"]
mod tests;

#[cfg(test)]
#[path = "net/tests_int8.rs"]
mod tests_int8;
