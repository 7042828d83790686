//! The network in 8-bit integers: each convolution's inputs quantised to
//! codes of one step a layer, its weights to int8 with a scale an output
//! channel, the products summed in i32 by a kernel (`vnni512.rs`,
//! `vnni256.rs`, `avx2_int8.rs` through `direct8.rs`, or [`conv_scalar`]
//! on any CPU), then scaled back to float for the biases, the residual
//! adds and the ReLU ([`Finish`]). The residual stream, the pooled biases
//! and the last layer (one output channel) stay in float, as in `net.rs`.
//!
//! Codes are 0..=255 for VNNI, 0..=127 for AVX2 ([`top`]): its
//! `vpmaddubsw` sums two u8 x i8 products in i16, and only 2 x 127 x 127
//! < 32767 never saturates. Kernels with the same codes compute the same
//! integers, so each is checked for equality with [`conv_scalar`].
//!
//! The step of each layer's output (its codes' unit) is calibrated when
//! the network is first used in 8 bits: the float network runs on the
//! positions of `calibration.txt` (from training games, none of them held
//! out), and the step is the layer's largest output there over the top
//! code. (Clipping the rarest outputs, a step at the 99.99th percentile,
//! or one step a channel, folded into the next layer's weights, agreed
//! less often with float on held-out positions: `bench --net --agree`.)

use super::paths::Path;
use super::{conv, planes, pooled_bias, Grid, Net, Step};

/// The largest code of an activation on `path`.
pub fn top(path: Path) -> i32 {
    if path == Path::Avx2 {
        127
    } else {
        255
    }
}

/// A layer's quantised weights, laid out for the kernels.
pub struct QLayer {
    pub k: usize,
    pub cout: usize,
    /// Input channels in fours (the last four zero-padded).
    pub groups: usize,
    /// Kernel row, kernel column, group, output channel, then the group's
    /// four input channels: the four bytes a `vpdpbusd` lane multiplies.
    pub w: Vec<i8>,
    /// What the sums are multiplied by (the input's step times the
    /// channel's weight scale), an output channel.
    mul: Vec<f32>,
}

/// The network's layers in 8 bits (none for a layer left in float: the
/// last), the step of each layer's output codes, the largest code.
pub struct Quantised {
    layers: Vec<Option<QLayer>>,
    steps: Vec<f32>,
    top: i32,
}

impl Quantised {
    /// The quantised form of `net` with codes up to `top`, its steps
    /// calibrated on the positions of `calibration.txt`.
    pub fn new(net: &Net, top: i32) -> Quantised {
        let steps = calibrate(net, &calibration_planes(), top);
        let last = net.layers.len() - 1;
        let layers = net
            .layers
            .iter()
            .enumerate()
            .map(|(l, layer)| {
                let input_step = if l == 0 { 1.0 } else { steps[l - 1] };
                (l != last).then(|| QLayer::new(layer, input_step))
            })
            .collect();
        Quantised { layers, steps, top }
    }
}

impl QLayer {
    fn new(layer: &super::Layer, input_step: f32) -> QLayer {
        let (k, cin, cout) = (layer.k, layer.cin, layer.cout);
        let groups = cin.div_ceil(4);
        // one scale an output channel, its largest weight at 127: an int8
        // file's own weights and scales come back exactly
        let mut scale = vec![0f32; cout];
        for (i, &w) in layer.w.iter().enumerate() {
            scale[i % cout] = scale[i % cout].max(w.abs());
        }
        for s in &mut scale {
            *s = if *s > 0.0 { *s / 127.0 } else { 1.0 };
        }
        let mut w = vec![0i8; k * k * groups * cout * 4];
        for tap in 0..k * k {
            for ci in 0..cin {
                for (co, s) in scale.iter().enumerate() {
                    let v = layer.w[(tap * cin + ci) * cout + co] / s;
                    let at = ((tap * groups + ci / 4) * cout + co) * 4 + ci % 4;
                    w[at] = v.round().clamp(-127.0, 127.0) as i8;
                }
            }
        }
        let mul = scale.iter().map(|s| s * input_step).collect();
        QLayer {
            k,
            cout,
            groups,
            w,
            mul,
        }
    }
}

/// The positions the steps are calibrated on: planes of 19x19 boards.
fn calibration_planes() -> Vec<Vec<u8>> {
    let area = 361;
    include_str!("calibration.txt")
        .lines()
        .filter_map(|line| {
            let hex = line.split_whitespace().next()?;
            let bits: Vec<u8> = (0..hex.len() / 2)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap_or(0))
                .collect();
            let n = planes::PLANES.len() * area;
            (bits.len() * 8 >= n).then(|| (0..n).map(|i| (bits[i / 8] >> (i % 8)) & 1).collect())
        })
        .collect()
}

/// Each layer's output step: its largest output on `positions` over
/// `top` (1 for a layer never positive).
fn calibrate(net: &Net, positions: &[Vec<u8>], top: i32) -> Vec<f32> {
    let mut most = vec![0f32; net.layers.len()];
    for planes in positions {
        let mut seen = |l: usize, g: Grid, out: &[f32]| {
            let cout = net.layers[l].cout;
            for y in 0..g.h {
                for x in 0..g.w {
                    let at = ((y + g.pad) * g.stride + x + g.pad) * g.c;
                    most[l] = out[at..at + cout].iter().fold(most[l], |m, &v| m.max(v));
                }
            }
        };
        net.observe(planes, 19, 19, &mut seen);
    }
    most.iter()
        .map(|&m| if m > 0.0 { m / top as f32 } else { 1.0 })
        .collect()
}

/// What becomes of a layer's sums: times `mul`, plus the biases and the
/// residual `add`, the ReLU; stored in float (`fout`, `c` values a cell)
/// and as codes of the output's step (`qout`, `cq` a cell).
pub struct Finish<'a> {
    mul: &'a [f32],
    bias: &'a [f32],
    add: Option<&'a [f32]>,
    relu: bool,
    /// One over the output's step.
    inv: f32,
    /// The largest code.
    top: f32,
    c: usize,
    cq: usize,
    fout: &'a mut [f32],
    qout: &'a mut [u8],
}

impl Finish<'_> {
    /// Finishes the sums of output channels `co..co + sums.len()` of the
    /// point at `cell`. Inlined into each kernel, so that it runs with
    /// that kernel's instructions.
    #[inline(always)]
    pub fn put(&mut self, cell: usize, co: usize, sums: &[i32]) {
        let n = sums.len();
        let (at, aq) = (cell * self.c + co, cell * self.cq + co);
        let fout = &mut self.fout[at..at + n];
        let (mul, bias) = (&self.mul[co..co + n], &self.bias[co..co + n]);
        for i in 0..n {
            fout[i] = sums[i] as f32 * mul[i] + bias[i];
        }
        if let Some(add) = self.add {
            for (f, &a) in fout.iter_mut().zip(&add[at..at + n]) {
                *f += a;
            }
        }
        if self.relu {
            for f in fout.iter_mut() {
                *f = f.max(0.0);
            }
        }
        let inv = self.inv;
        for (q, &f) in self.qout[aq..aq + n].iter_mut().zip(&*fout) {
            // f >= 0 after the ReLU (negative saturates to 0 anyway)
            *q = (f * inv + 0.5).min(self.top) as u8;
        }
    }
}

/// The buffers one evaluation reuses: float input, output and kept block
/// input, the float kernels' scratch, codes in and out, the board's cells.
#[derive(Default)]
pub struct Buffers {
    f: [Vec<f32>; 4],
    q: [Vec<u8>; 2],
    points: Vec<usize>,
}

/// One logit a point (as [`Net::logits`]) by `path`, which must be an
/// 8-bit one this CPU runs.
pub fn run(
    net: &Net,
    q: &Quantised,
    path: Path,
    planes: &[u8],
    w: usize,
    h: usize,
    b: &mut Buffers,
) -> Vec<f32> {
    let [cur, next, kept, scratch] = &mut b.f;
    let [qcur, qnext] = &mut b.q;
    let (pad, c) = (net.pad, net.width);
    let cq = c.next_multiple_of(4);
    let stride = w + 2 * pad;
    let cells = stride * (h + 2 * pad);
    for buf in [&mut *cur, &mut *next] {
        buf.clear();
        buf.resize(cells * c, 0.0);
    }
    kept.resize(cells * c, 0.0);
    // the border and the channels past a layer's stay zero
    for buf in [&mut *qcur, &mut *qnext] {
        buf.clear();
        buf.resize(cells * cq, 0);
    }
    let area = w * h;
    assert_eq!(
        planes.len(),
        planes::PLANES.len() * area,
        "planes of a {w}x{h} board"
    );
    b.points.clear();
    b.points
        .extend((0..area).map(|i| (i / w + pad) * stride + i % w + pad));
    for (plane, values) in planes.chunks_exact(area).enumerate() {
        for (&cell, &v) in b.points.iter().zip(values) {
            cur[cell * c + plane] = v as f32;
            qcur[cell * cq + plane] = v;
        }
    }
    let grid = Grid {
        w,
        h,
        stride,
        pad,
        c,
    };
    let last = net.layers.len() - 1;
    for (l, layer) in net.layers.iter().enumerate() {
        if net.layers.get(l + 1).is_some_and(|n| n.skip) {
            kept.copy_from_slice(cur);
        }
        let add = layer.skip.then_some(&kept[..]);
        let bias = pooled_bias(layer, grid, cur);
        let relu = l != last;
        match &q.layers[l] {
            Some(ql) => {
                let mut fin = Finish {
                    mul: &ql.mul,
                    bias: &bias,
                    add,
                    relu,
                    inv: 1.0 / q.steps[l],
                    top: q.top as f32,
                    c,
                    cq,
                    fout: next,
                    qout: qnext,
                };
                kernel(path, ql, grid, cq, qcur, &b.points, &mut fin);
            }
            None => {
                let step = Step {
                    layer,
                    bias: &bias,
                    add,
                    relu,
                };
                conv(step, grid, cur, next, scratch);
            }
        }
        std::mem::swap(cur, next);
        std::mem::swap(qcur, qnext);
    }
    b.points.iter().map(|&cell| cur[cell * c]).collect()
}

/// One quantised layer's sums into `fin` by `path`'s kernel where it takes
/// the layer, else by [`conv_scalar`].
fn kernel(
    path: Path,
    ql: &QLayer,
    g: Grid,
    cq: usize,
    input: &[u8],
    points: &[usize],
    fin: &mut Finish,
) {
    // what the kernels' unchecked reads rely on
    assert!(ql.groups * 4 <= cq && ql.k / 2 <= g.pad && g.stride == g.w + 2 * g.pad);
    assert!(input.len() >= g.stride * (g.h + 2 * g.pad) * cq);
    assert!(ql.w.len() == ql.k * ql.k * ql.groups * ql.cout * 4);
    assert!(points.iter().all(|&p| p >= (ql.k / 2) * (g.stride + 1)));
    #[cfg(target_arch = "x86_64")]
    if ql.cout.is_multiple_of(16) && path.runs_here() {
        // SAFETY: the CPU runs the path (just checked); the layout is as
        // asserted above
        unsafe {
            match path {
                Path::Vnni512 => return super::vnni512::conv(ql, g.stride, cq, input, points, fin),
                Path::Vnni256 => return super::vnni256::conv(ql, g.stride, cq, input, points, fin),
                Path::Avx2 => return super::avx2_int8::conv(ql, g.stride, cq, input, points, fin),
                _ => {}
            }
        }
    }
    let _ = path;
    conv_scalar(ql, g.stride, cq, input, points, fin)
}

/// The integer reference: each point's sums in plain loops.
pub fn conv_scalar(
    ql: &QLayer,
    stride: usize,
    cq: usize,
    input: &[u8],
    points: &[usize],
    fin: &mut Finish,
) {
    let (k, cout, groups) = (ql.k, ql.cout, ql.groups);
    let mut sums = vec![0i32; cout];
    for &cell in points {
        sums.fill(0);
        let corner = cell - (k / 2) * (stride + 1);
        for tap in 0..k * k {
            let a = &input[(corner + tap / k * stride + tap % k) * cq..][..groups * 4];
            let w = &ql.w[tap * groups * cout * 4..][..groups * cout * 4];
            for (g, a) in a.chunks_exact(4).enumerate() {
                for (s, w) in sums.iter_mut().zip(w[g * cout * 4..].chunks_exact(4)) {
                    *s += (0..4).map(|j| a[j] as i32 * w[j] as i32).sum::<i32>();
                }
            }
        }
        fin.put(cell, 0, &sums);
    }
}
