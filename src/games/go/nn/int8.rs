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
mod scalar;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod vnni256;
#[cfg(target_arch = "x86_64")]
mod vnni512;
pub mod winograd;

use super::desc::Attention;
use super::desc::{Block, Conv, MatMul, Model};
use super::forward::Kernels;
use std::cell::RefCell;

/// An instruction set's kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// `vpdpbusd` on 512-bit vectors (AVX-512 VNNI).
    Vnni512,
    /// `vpdpbusd` on 256-bit vectors (AVX-512 VNNI with VL), for CPUs
    /// that slow down on 512-bit instructions.
    Vnni256,
    /// `vpmaddwd` on 256-bit vectors: 16-bit codes and weights.
    Avx2,
    /// Plain integer loops: any CPU, and the reference.
    Scalar,
}

impl Kernel {
    /// Every kernel, fastest first.
    pub const ALL: [Kernel; 4] = [
        Kernel::Vnni512,
        Kernel::Vnni256,
        Kernel::Avx2,
        Kernel::Scalar,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kernel::Vnni512 => "vnni512",
            Kernel::Vnni256 => "vnni256",
            Kernel::Avx2 => "avx2",
            Kernel::Scalar => "int8",
        }
    }

    /// Whether this CPU has the kernel's instructions.
    pub fn runs_here(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let vnni = has!("avx512f")
                && has!("avx512bw")
                && has!("avx512vnni")
                && has!("avx2")
                && has!("fma");
            match self {
                Kernel::Vnni512 => vnni,
                Kernel::Vnni256 => vnni && has!("avx512vl"),
                Kernel::Avx2 => has!("avx2") && has!("fma"),
                Kernel::Scalar => true,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Kernel::Scalar
        }
    }

    /// The fastest kernel this CPU runs.
    pub fn best() -> Kernel {
        Kernel::ALL
            .into_iter()
            .find(|k| k.runs_here())
            .unwrap_or(Kernel::Scalar)
    }

    /// Whether the kernel takes 16-bit codes and weights, two to a
    /// 4-byte group, rather than 8-bit, four to a group.
    fn wide(self) -> bool {
        self == Kernel::Avx2
    }
}

/// How finely a backend's layers are quantised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// 8-bit codes and the int8 weights of tengen's coded files.
    Eight,
    /// 12-bit codes and 10- to 13-bit weights, as far as an i32 sum
    /// allows: half the speed of 8 bits on VNNI, the same on AVX2.
    Sixteen,
    /// 3x3 convolutions by Winograd's F(2x2, 3x3) in 16 bits
    /// ([`winograd`]), the other layers as [`Precision::Sixteen`]: on
    /// b6c96, 99.8 % of float's top moves at 1.95 ms on VNNI-512 (8 bits:
    /// 97.3 % at 1.61 ms; 16: 2.66 ms), 3.9 ms on AVX2 (16: 6.5 ms).
    Winograd,
}

impl Precision {
    /// What measured best for `model` (module doc): 16 bits
    /// for a transformer, which 8 bits move too far (its few 3x3 layers
    /// gain nothing by Winograd); Winograd for a convnet, on any kernel.
    pub fn for_model(model: &Model) -> Precision {
        match model.kind().contains("transformer") {
            true => Precision::Sixteen,
            false => Precision::Winograd,
        }
    }
}

/// A convolution or matrix quantised and laid out for a kernel.
pub struct QLayer {
    /// The kernel's side (1 for a matrix).
    pub k: usize,
    pub cin: usize,
    pub cout: usize,
    /// `cout` rounded up to the widest vector (16 channels).
    pub cout_pad: usize,
    /// Input channels to a 4-byte group: 4 (8-bit) or 2 (16-bit).
    pub per_group: usize,
    /// 4-byte groups of input a point (the last padded with zero weights).
    pub groups: usize,
    /// The largest input code: 255, or more for a layer in 16 bits.
    pub top: i32,
    /// By kernel row, kernel column, group and output channel, the
    /// group's weights: the 4 bytes a lane multiplies, little-endian.
    pub w: Vec<u32>,
    /// Each output channel's weight scale (`cout_pad`, 1 past `cout`).
    pub scale: Vec<f32>,
    /// Each output channel's sum of weight codes, for the zero point.
    pub colsum: Vec<i32>,
}

/// Output channels are padded to a multiple of this.
const PAD: usize = 16;

impl QLayer {
    /// `w` (`k` x `k` x `cin` x `cout` in the file's order) for `kernel`:
    /// one scale an output channel, its largest weight at 127, or, `fine`,
    /// 16-bit codes and weights with as many steps as an i32 sum allows.
    pub fn new(kernel: Kernel, k: usize, cin: usize, cout: usize, w: &[f32], fine: bool) -> QLayer {
        assert_eq!(w.len(), k * k * cin * cout);
        let (top, wtop) = if fine {
            // 12-bit codes; the weights' steps what is left
            let wtop = (i32::MAX as f64 / (4095.0 * (k * k * cin) as f64)).min(32767.0);
            (4095, wtop.floor().max(127.0) as f32)
        } else {
            (255, 127.0)
        };
        // as coded::encode computes them, to find a coded file's codes
        let mut scale = vec![0f32; cout];
        for (i, v) in w.iter().enumerate() {
            scale[i % cout] = scale[i % cout].max(v.abs());
        }
        for s in &mut scale {
            *s = if *s > 0.0 { *s / wtop } else { 1.0 };
        }
        let cout_pad = cout.next_multiple_of(PAD);
        let per_group = if kernel.wide() || fine { 2 } else { 4 };
        let groups = cin.div_ceil(per_group);
        let mut q = vec![0u32; k * k * groups * cout_pad];
        let mut colsum = vec![0i32; cout_pad];
        for tap in 0..k * k {
            for ci in 0..cin {
                let (g, at) = (ci / per_group, ci % per_group);
                for co in 0..cout {
                    let v = w[(tap * cin + ci) * cout + co] / scale[co];
                    let c = v.round().clamp(-wtop, wtop) as i32;
                    colsum[co] += c;
                    let bits = 32 / per_group;
                    let mask = (1u32 << bits) - 1;
                    q[(tap * groups + g) * cout_pad + co] |= (c as u32 & mask) << (bits * at);
                }
            }
        }
        scale.resize(cout_pad, 1.0);
        QLayer {
            k,
            cin,
            cout,
            cout_pad,
            per_group,
            groups,
            top,
            w: q,
            scale,
            colsum,
        }
    }

    /// The weight code of tap `tap`, input `ci`, output `co`.
    pub fn code(&self, tap: usize, ci: usize, co: usize) -> i32 {
        let (g, at) = (ci / self.per_group, ci % self.per_group);
        lane(
            self.w[(tap * self.groups + g) * self.cout_pad + co],
            self.per_group,
            at,
        )
    }
}

/// Element `at` of a 4-byte group of `per` signed elements (bytes or i16).
pub fn lane(group: u32, per: usize, at: usize) -> i32 {
    let bits = 32 / per;
    // shifted to the top, then back down with its sign
    ((group << (32 - bits * (at + 1))) as i32) >> (32 - bits)
}

/// `c` as 4-byte groups of `per` elements each (codes, unsigned, or
/// weights, signed), the last group completed with `pad`, into `out`.
#[inline(always)]
pub fn pack(c: &[i32], per: usize, pad: i32, out: &mut [u32]) {
    let whole = c.len() / per;
    let el = |v: i32| v as u32 & (if per == 2 { 0xffff } else { 0xff });
    if per == 2 {
        for (o, c) in out.iter_mut().zip(c.chunks_exact(2)) {
            *o = el(c[0]) | el(c[1]) << 16;
        }
    } else {
        for (o, c) in out.iter_mut().zip(c.chunks_exact(4)) {
            *o = el(c[0]) | el(c[1]) << 8 | el(c[2]) << 16 | el(c[3]) << 24;
        }
    }
    if let Some(o) = out.get_mut(whole).filter(|_| !c.len().is_multiple_of(per)) {
        let bits = 32 / per;
        *o = (0..per)
            .map(|i| el(*c.get(whole * per + i).unwrap_or(&pad)) << (bits * i))
            .fold(0, |a, b| a | b);
    }
}

/// A layer's input in codes, on a board padded by the kernel's reach.
pub struct Codes<'a> {
    /// A point after another, `groups` 4-byte groups each, rows of
    /// `stride` points; the border holds the zero point.
    pub codes: &'a [u32],
    pub stride: usize,
    pub w: usize,
    pub h: usize,
}

/// What turns a layer's sums into floats: channel `co`'s is `(sum -
/// zc[co]) * mul[co]`, added to the output when `add`; a point's outputs
/// are `row` floats apart.
pub struct Finish<'a> {
    pub row: usize,
    pub zc: &'a [i32],
    pub mul: &'a [f32],
    pub add: bool,
}

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
        assert!(
            kernel.runs_here(),
            "{} does not run on this CPU",
            kernel.name()
        );
        let mut layers: Vec<Option<QLayer>> = Vec::new();
        let mut wino = Vec::new();
        let mut put = |l: Layer, fine: bool| {
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
        for l in coarse(model) {
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

    /// Each of `ls` over the same `input` (`cin` floats a point of a `w`
    /// x `h` board; the layers alike in all but their outputs) into the
    /// matching `outs`, added to what they hold when `add`: the input is
    /// quantised once.
    fn run(
        &self,
        ls: &[&QLayer],
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
            for (l, out) in ls.iter().zip(outs.iter_mut()) {
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
                    run_kernel(self.kernel, l, &input, &fin, &mut out[..area * l.cout]);
                    continue;
                }
                if s.out.len() < area * l.cout_pad {
                    s.out.resize(area * l.cout_pad, 0.0);
                }
                let padded = &mut s.out[..area * l.cout_pad];
                run_kernel(self.kernel, l, &input, &fin, padded);
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

/// `kernel`'s pass of `l` over `input` into `out` (`l.cout_pad` floats a
/// point), as [`Int8`] runs it and the tests check it.
pub fn run_kernel(kernel: Kernel, l: &QLayer, input: &Codes, fin: &Finish, out: &mut [f32]) {
    let points = input.w * input.h;
    assert!(fin.row >= l.cout_pad && out.len() >= (points - 1) * fin.row + l.cout_pad);
    assert!(input.codes.len() >= input.stride * (input.h + l.k - 1) * l.groups);
    assert!(
        input.stride == input.w + l.k - 1
            && fin.zc.len() >= l.cout_pad
            && fin.mul.len() >= l.cout_pad
    );
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Int8::new and the tests take only kernels that run here;
        // the sizes are checked above
        Kernel::Vnni512 => unsafe { vnni512::run(l, input, fin, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above
        Kernel::Vnni256 => unsafe { vnni256::run(l, input, fin, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above
        Kernel::Avx2 => unsafe { avx2::run(l, input, fin, out) },
        _ => scalar::run(l, input, fin, out),
    }
}

enum Layer<'a> {
    C(&'a Conv),
    M(&'a MatMul),
}

/// The layers of `model` that run at the backend's precision: all but
/// the input layer and the heads' last ones, which are in 16 bits.
fn coarse(model: &Model) -> Vec<Layer<'_>> {
    fn walk<'a>(blocks: &'a [Block], all: &mut Vec<Layer<'a>>) {
        for b in blocks {
            match b {
                Block::Ordinary { conv1, conv2, .. } => {
                    all.extend([Layer::C(conv1), Layer::C(conv2)])
                }
                Block::GlobalPool {
                    conv1,
                    gpool_conv,
                    conv2,
                    ..
                } => all.extend([Layer::C(conv1), Layer::C(gpool_conv), Layer::C(conv2)]),
                Block::Nested {
                    conv_in,
                    blocks,
                    conv_out,
                    ..
                } => {
                    all.push(Layer::C(conv_in));
                    walk(blocks, all);
                    all.push(Layer::C(conv_out));
                }
                Block::Attention { attention: a, .. } => {
                    all.extend([&a.q, &a.k, &a.v, &a.out].map(Layer::M))
                }
                Block::Ffn { w1, gate, w2, .. } => all.extend([w1, gate, w2].map(Layer::M)),
            }
        }
    }
    let mut all = Vec::new();
    let (t, p, v) = (&model.trunk, &model.policy, &model.value);
    walk(&t.blocks, &mut all);
    all.extend([&p.p1, &p.g1, &v.v1].map(Layer::C));
    all
}

/// [`quantise`] compiled for `kernel`'s instructions.
fn quantise_with(
    kernel: Kernel,
    x: &[f32],
    l: &QLayer,
    w: usize,
    row: &mut Vec<i32>,
    codes: &mut [u32],
) -> (f32, i32) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Int8 takes only kernels that run here
        Kernel::Vnni512 | Kernel::Vnni256 => unsafe { vnni512::quantise(x, l, w, row, codes) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above
        Kernel::Avx2 => unsafe { avx2::quantise(x, l, w, row, codes) },
        _ => quantise(x, l, w, row, codes),
    }
}

/// Quantises `x` (`l.cin` floats a point of a board `w` wide) into
/// `codes` (`l.groups` a point of the board padded by `l`'s reach) from
/// its own range, `l.top` the largest code; returns the step and the
/// zero point. `row` is scratch.
#[inline(always)]
pub fn quantise(
    x: &[f32],
    l: &QLayer,
    w: usize,
    row: &mut Vec<i32>,
    codes: &mut [u32],
) -> (f32, i32) {
    let (c, per, r, groups) = (l.cin, l.per_group, l.k / 2, l.groups);
    let stride = w + 2 * r;
    // 32 lanes of each, which vectorise (written so, LLVM's code is
    // eight times as fast as for `min` or a select on indexed lanes)
    let (mut lo, mut hi) = ([0f32; 32], [0f32; 32]);
    let mut chunks = x.chunks_exact(32);
    for ch in &mut chunks {
        for (i, &v) in ch.iter().enumerate() {
            let (l, h) = (lo[i], hi[i]);
            lo[i] = if v < l { v } else { l };
            hi[i] = if v > h { v } else { h };
        }
    }
    let tail = chunks.remainder();
    let lo = tail.iter().chain(&lo).fold(0f32, |a, &b| a.min(b));
    let hi = tail.iter().chain(&hi).fold(0f32, |a, &b| a.max(b));
    let top = l.top as f32;
    let step = if hi > lo { (hi - lo) / top } else { 1.0 };
    let inv = 1.0 / step;
    let zero = (-lo * inv).round_ties_even().clamp(0.0, top) as i32;
    let mut border = vec![0u32; groups];
    pack(&vec![zero; c], per, zero, &mut border);
    if row.len() < c {
        row.resize(c, 0);
    }
    let row = &mut row[..c];
    let points = x.len() / c;
    for (i, cell) in codes.chunks_exact_mut(groups).enumerate() {
        let (y, xx) = (i / stride, i % stride);
        if !((r..r + w).contains(&xx) && y >= r && (y - r) * w < points) {
            cell.copy_from_slice(&border);
            continue;
        }
        let src = &x[((y - r) * w + xx - r) * c..][..c];
        for (q, &v) in row.iter_mut().zip(src) {
            // rounded to an integer (ties to even) by adding 2^23, whose
            // low bits are then the code: a conversion that vectorises
            let t = (v * inv + zero as f32).clamp(0.0, top) + 8388608.0;
            *q = (t.to_bits() & 0xffff) as i32;
        }
        pack(row, per, zero, cell);
    }
    (step, zero)
}

impl Kernels for Int8 {
    fn conv(&self, conv: &Conv, input: &[f32], out: &mut [f32], w: usize, h: usize, add: bool) {
        if let Some(l) = self.wino.get(conv.id).and_then(Option::as_ref) {
            // the 3x3 layer likely next, whose weights to fetch meanwhile
            let (after, before) = (&self.wino[conv.id + 1..], &self.wino[..conv.id]);
            let next = after.iter().chain(before).flatten().next();
            return winograd::run(self.kernel, l, next, input, out, (w, h), add);
        }
        self.run(&[self.layer(conv.id)], input, &mut [out], (w, h), add)
    }

    fn matmul(&self, m: &MatMul, input: &[f32], out: &mut [f32], points: usize) {
        self.matmuls(&[m], input, &mut [out], points)
    }

    fn matmuls(&self, ms: &[&MatMul], input: &[f32], outs: &mut [&mut [f32]], points: usize) {
        let ls: Vec<&QLayer> = ms.iter().map(|m| self.layer(m.id)).collect();
        self.run(&ls, input, outs, (points, 1), false)
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
