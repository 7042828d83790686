//! The 8-bit backend: every convolution and matrix over the board's points
//! in integers. Weights are int8 with a scale an output channel, exactly
//! as tengen's coded files quantise them ([`super::coded::encode`] with
//! 127 steps), so a coded file runs here as its original. Each layer's
//! input is quantised when the layer runs, from that evaluation's own
//! range: u8 codes with a step and, where values go negative (SiLU, Mish,
//! RMS norms), a zero point. The kernels sum codes times weights in i32
//! and give back floats: `(sum - zero point * column sum) * step * scale`.
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

use super::desc::Attention;
use super::desc::{Block, Conv, MatMul, Model};
use super::float::Float;
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
    /// Kernel row, kernel column, group, output channel, then the
    /// group's channels' weights: the 4 bytes a lane multiplies.
    pub w: Vec<u8>,
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
        let mut q = vec![0u8; k * k * groups * cout_pad * 4];
        let mut colsum = vec![0i32; cout_pad];
        for tap in 0..k * k {
            for ci in 0..cin {
                let (g, at) = (ci / per_group, ci % per_group);
                for co in 0..cout {
                    let v = w[(tap * cin + ci) * cout + co] / scale[co];
                    let c = v.round().clamp(-wtop, wtop) as i16;
                    colsum[co] += c as i32;
                    let lane = ((tap * groups + g) * cout_pad + co) * 4;
                    if per_group == 2 {
                        q[lane + 2 * at..][..2].copy_from_slice(&c.to_le_bytes());
                    } else {
                        q[lane + at] = c as u8;
                    }
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
        let lane = ((tap * self.groups + g) * self.cout_pad + co) * 4;
        if self.per_group == 2 {
            i16::from_le_bytes([self.w[lane + 2 * at], self.w[lane + 2 * at + 1]]) as i32
        } else {
            self.w[lane + at] as i8 as i32
        }
    }
}

/// A layer's input in codes, on a board padded by the kernel's reach.
pub struct Codes<'a> {
    /// A point after another, `groups * 4` bytes each, rows of `stride`
    /// points; the border holds the zero point.
    pub codes: &'a [u8],
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
}

/// A thread's codes and padded outputs, grown once.
#[derive(Default)]
struct Scratch {
    codes: Vec<u8>,
    out: Vec<f32>,
    fin: Vec<f32>,
    zc: Vec<i32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

impl Int8 {
    /// `model`'s layers quantised for `kernel`, which must run here.
    pub fn new(model: &Model, kernel: Kernel) -> Int8 {
        assert!(
            kernel.runs_here(),
            "{} does not run on this CPU",
            kernel.name()
        );
        let mut layers: Vec<Option<QLayer>> = Vec::new();
        // a transformer's layers lose too much in 8 bits (module doc)
        let fine = model.kind().contains("transformer");
        let mut put = |id: usize, l: QLayer| {
            if layers.len() <= id {
                layers.resize_with(id + 1, || None);
            }
            layers[id] = Some(l);
        };
        let conv = |c: &Conv| {
            assert!(
                c.ky == c.kx && c.dilation == (1, 1),
                "{}: a {}x{} kernel",
                c.name,
                c.ky,
                c.kx
            );
            (c.id, QLayer::new(kernel, c.ky, c.cin, c.cout, &c.w, fine))
        };
        let mm = |m: &MatMul| (m.id, QLayer::new(kernel, 1, m.cin, m.cout, &m.w, fine));
        let mut all = Vec::new();
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
        let (t, p, v) = (&model.trunk, &model.policy, &model.value);
        walk(&t.blocks, &mut all);
        all.extend([&p.p1, &p.g1, &v.v1].map(Layer::C));
        // the input layer (binary planes, the most sensitive weights) and
        // the heads' last layers (a few outputs) stay in float: they cost
        // little there
        for l in all {
            let (id, q) = match l {
                Layer::C(c) => conv(c),
                Layer::M(m) => mm(m),
            };
            put(id, q);
        }
        Int8 { kernel, layers }
    }

    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The quantised form of layer `id`, or none for a layer in float.
    fn layer(&self, id: usize) -> Option<&QLayer> {
        self.layers.get(id).and_then(Option::as_ref)
    }

    /// `l` over `input` (`l.cin` floats a point of a `w` x `h` board) into
    /// `out` (`l.cout` a point).
    fn run(&self, l: &QLayer, input: &[f32], out: &mut [f32], w: usize, h: usize, add: bool) {
        let area = w * h;
        assert!(input.len() >= area * l.cin && out.len() >= area * l.cout);
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            let stride = w + l.k - 1;
            let n = stride * (h + l.k - 1) * l.groups * 4;
            if s.codes.len() < n {
                s.codes.resize(n, 0);
            }
            let codes = &mut s.codes[..n];
            let (step, zero) = quantise_with(self.kernel, &input[..area * l.cin], l, w, codes);
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
            let input = Codes {
                codes,
                stride,
                w,
                h,
            };
            if direct {
                return run_kernel(self.kernel, l, &input, &fin, &mut out[..area * l.cout]);
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
        })
    }
}

/// `kernel`'s pass of `l` over `input` into `out` (`l.cout_pad` floats a
/// point), as [`Int8`] runs it and the tests check it.
pub fn run_kernel(kernel: Kernel, l: &QLayer, input: &Codes, fin: &Finish, out: &mut [f32]) {
    let points = input.w * input.h;
    assert!(fin.row >= l.cout_pad && out.len() >= (points - 1) * fin.row + l.cout_pad);
    assert!(input.codes.len() >= input.stride * (input.h + l.k - 1) * l.groups * 4);
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

/// [`quantise`] compiled for `kernel`'s instructions.
fn quantise_with(kernel: Kernel, x: &[f32], l: &QLayer, w: usize, codes: &mut [u8]) -> (f32, i32) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Int8 takes only kernels that run here
        Kernel::Vnni512 | Kernel::Vnni256 => unsafe { vnni512::quantise(x, l, w, codes) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above
        Kernel::Avx2 => unsafe { avx2::quantise(x, l, w, codes) },
        _ => quantise(x, l, w, codes),
    }
}

/// Quantises `x` (`l.cin` floats a point of a board `w` wide) into
/// `codes` (`l.groups * 4` bytes a point of the board padded by `l`'s
/// reach, u8 codes or u16 for a 16-bit kernel) from its own range;
/// returns the step and the zero point.
#[inline(always)]
pub fn quantise(x: &[f32], l: &QLayer, w: usize, codes: &mut [u8]) -> (f32, i32) {
    let (c, wide, r, bytes) = (l.cin, l.per_group == 2, l.k / 2, l.groups * 4);
    let stride = w + 2 * r;
    // 16 lanes of each, which vectorise
    let (mut lo, mut hi) = ([0f32; 16], [0f32; 16]);
    let mut chunks = x.chunks_exact(16);
    for ch in &mut chunks {
        for i in 0..16 {
            lo[i] = if ch[i] < lo[i] { ch[i] } else { lo[i] };
            hi[i] = if ch[i] > hi[i] { ch[i] } else { hi[i] };
        }
    }
    let lo = chunks
        .remainder()
        .iter()
        .chain(&lo)
        .fold(0f32, |a, &b| a.min(b));
    let hi = chunks
        .remainder()
        .iter()
        .chain(&hi)
        .fold(0f32, |a, &b| a.max(b));
    let top = l.top as f32;
    let step = if hi > lo { (hi - lo) / top } else { 1.0 };
    let inv = 1.0 / step;
    let zero = (-lo * inv).round_ties_even().clamp(0.0, top) as i32;
    let fill = |cell: &mut [u8]| {
        if wide {
            for pair in cell.chunks_exact_mut(2) {
                pair.copy_from_slice(&(zero as u16).to_le_bytes());
            }
        } else {
            cell.fill(zero as u8);
        }
    };
    for (i, cell) in codes.chunks_exact_mut(bytes).enumerate() {
        let (y, xx) = (i / stride, i % stride);
        let inside = (r..r + w).contains(&xx) && y >= r && (y - r) * w < x.len() / c;
        if !inside {
            fill(cell);
            continue;
        }
        let src = &x[((y - r) * w + xx - r) * c..][..c];
        let code = |v: f32| {
            // rounded to an integer (ties to even) by adding 2^23, whose
            // low bits are then the code: a conversion that vectorises
            let t = (v * inv + zero as f32).clamp(0.0, top) + 8388608.0;
            (t.to_bits() & 0xffff) as u16
        };
        if wide {
            for (pair, &v) in cell.chunks_exact_mut(2).zip(src) {
                pair.copy_from_slice(&code(v).to_le_bytes());
            }
            for pair in cell[2 * c..].chunks_exact_mut(2) {
                pair.copy_from_slice(&(zero as u16).to_le_bytes());
            }
        } else {
            for (q, &v) in cell.iter_mut().zip(src) {
                *q = code(v) as u8;
            }
            cell[c..].fill(zero as u8);
        }
    }
    (step, zero)
}

impl Kernels for Int8 {
    fn conv(&self, conv: &Conv, input: &[f32], out: &mut [f32], w: usize, h: usize, add: bool) {
        match self.layer(conv.id) {
            Some(l) => self.run(l, input, out, w, h, add),
            None => Float.conv(conv, input, out, w, h, add),
        }
    }

    fn matmul(&self, m: &MatMul, input: &[f32], out: &mut [f32], points: usize) {
        match self.layer(m.id) {
            Some(l) => self.run(l, input, out, points, 1, false),
            None => Float.matmul(m, input, out, points),
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
        attention::run(self.kernel, at, q, k, v, out, points)
    }
}
