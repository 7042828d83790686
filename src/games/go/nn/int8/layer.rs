//! What the integer kernels share: the instruction sets ([`Kernel`]), the
//! precisions, a layer's quantised weights ([`QLayer`]), a pass's codes
//! and how its sums are finished, and the quantisation of an input
//! (compiled for each kernel's instructions in [`super::dispatch`]).

use super::super::desc::Model;

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
    /// 3x3 convolutions by Winograd's F(4x4, 3x3) in 16 bits
    /// ([`winograd`]), the other layers as [`Precision::Sixteen`]: for
    /// b6c96 as exact as 16 bits and the fastest on every kernel
    /// (docs/network.md, section 4; 8 bits kept 97.3 % of the top moves,
    /// 16 bits alone took 2.66 ms on VNNI-512, 6.5 on AVX2).
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
pub const PAD: usize = 16;

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

/// The codes `x` takes from its own range (0 always within it), `top`
/// the largest code: the step, its inverse and the zero point (a whole
/// number), as every layer's quantisation computes them.
#[inline(always)]
pub fn range(x: &[f32], top: i32) -> (f32, f32, f32) {
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
    let top = top as f32;
    let step = if hi > lo { (hi - lo) / top } else { 1.0 };
    let inv = 1.0 / step;
    (step, inv, (-lo * inv).round_ties_even().clamp(0.0, top))
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
    let top = l.top as f32;
    let (step, inv, zero) = range(x, l.top);
    let zero = zero as i32;
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
