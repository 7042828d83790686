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
//! Each layer's output channels are sorted by their range on the
//! positions of [`Calibration`] and split, four at a time, into up to
//! [`CLASSES`] classes with a step each (the class's widest range over
//! the top code), chosen to inject the least rounding noise: a channel
//! that stays small gets small steps. The codes are stored in that order,
//! so each class is a run of whole groups of four: a kernel sums each
//! class apart ([`QLayer::classes`]) and [`Finish`] weighs the sums by
//! their steps. An output past its range (1 in 1 000 on the calibration
//! positions) takes the top code, and the next layer adds what the code
//! lacks times its float weights ([`fix_outliers`]): exact, and rare
//! enough to cost little. Folding a step a channel into the next layer's
//! weights would round the weights again. Agreement with float, speed:
//! `docs/network.md`.

use super::calibrate::Calibration;
use super::paths::Path;
use super::{conv, planes, pooled_bias, Grid, Net, Step};

/// The most classes of steps a layer's outputs are split into: each
/// costs a kernel a store of its sums and [`Finish`] a multiply-add.
pub const CLASSES: usize = 2;

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
    /// Input groups of four codes (the last zero-padded).
    pub groups: usize,
    /// Kernel row, kernel column, group, output channel, then the group's
    /// four inputs (in their codes' order): the four bytes a `vpdpbusd`
    /// lane multiplies.
    pub w: Vec<i8>,
    /// The input's classes: runs of groups with one step each, summed
    /// apart.
    pub classes: Vec<(usize, usize)>,
    /// What a class's sums are multiplied by (its step times the output
    /// channel's weight scale): a row of `cout` a class.
    mul: Vec<f32>,
}

/// Where a layer's output channels go in the codes and at what step.
struct Codes {
    /// Each channel's place among the codes.
    place: Vec<usize>,
    /// One over each channel's step.
    inv: Vec<f32>,
    /// The classes: runs of groups of four places, and their steps.
    classes: Vec<(usize, usize)>,
    steps: Vec<f32>,
}

impl Codes {
    /// The input planes: 0 or 1, a step of 1, in order.
    fn planes(n: usize) -> Codes {
        Codes {
            place: (0..n).collect(),
            inv: vec![1.0; n],
            classes: vec![(0, n.div_ceil(4))],
            steps: vec![1.0],
        }
    }

    /// Channels whose largest values are `most`, codes up to `top`: sorted
    /// by their largest value, in fours, split into classes to minimise
    /// the sum over channels of their step squared (rounding noise).
    fn new(most: &[f32], top: i32) -> Codes {
        let n = most.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| most[b].total_cmp(&most[a]));
        let groups = n.div_ceil(4);
        // a class starting at group g is as coarse as its first channel
        let head = |g: usize| most[order[4 * g]].max(0.0);
        let size = |g0: usize, g1: usize| (4 * g1).min(n) - 4 * g0;
        let cost = |g0: usize, g1: usize| head(g0).powi(2) * size(g0, g1) as f32;
        // best[j][g]: the least cost of groups g.. in at most j classes,
        // and where the first of them ends
        let mut best = vec![vec![(f32::INFINITY, groups); groups + 1]; CLASSES + 1];
        for row in &mut best {
            row[groups].0 = 0.0;
        }
        for j in 1..=CLASSES {
            for g0 in (0..groups).rev() {
                for g1 in g0 + 1..=groups {
                    let c = cost(g0, g1) + best[j - 1][g1].0;
                    if c < best[j][g0].0 {
                        best[j][g0] = (c, g1);
                    }
                }
            }
        }
        let (mut classes, mut steps, mut g, mut j) = (Vec::new(), Vec::new(), 0, CLASSES);
        while g < groups {
            let g1 = best[j][g].1;
            let m = head(g);
            classes.push((g, g1));
            // channels never positive in calibration: the finest step,
            // and what passes it is an outlier
            let finest = steps.last().copied().unwrap_or(1.0);
            steps.push(if m > 0.0 { m / top as f32 } else { finest });
            (g, j) = (g1, j - 1);
        }
        // one class: the channels' own order, stored without a scatter
        if classes.len() == 1 {
            order = (0..n).collect();
        }
        let mut place = vec![0; n];
        let mut inv = vec![0.0; n];
        for (at, &ch) in order.iter().enumerate() {
            place[ch] = at;
            let class = classes.iter().position(|&(_, g1)| at < 4 * g1).unwrap_or(0);
            inv[ch] = 1.0 / steps[class];
        }
        Codes {
            place,
            inv,
            classes,
            steps,
        }
    }
}

/// The network's layers in 8 bits (none for a layer left in float: the
/// last), where each layer's output codes go, the largest code.
pub struct Quantised {
    layers: Vec<Option<QLayer>>,
    codes: Vec<Codes>,
    top: i32,
}

impl Quantised {
    /// The quantised form of `net` with codes up to `top`, its steps from
    /// `cal`.
    pub fn new(net: &Net, cal: &Calibration, top: i32) -> Quantised {
        let codes: Vec<Codes> = cal.most.iter().map(|m| Codes::new(m, top)).collect();
        let last = net.layers.len() - 1;
        let input = Codes::planes(planes::PLANES.len());
        let layers = net
            .layers
            .iter()
            .enumerate()
            .map(|(l, layer)| {
                let from = if l == 0 { &input } else { &codes[l - 1] };
                (l != last).then(|| QLayer::new(layer, from))
            })
            .collect();
        Quantised { layers, codes, top }
    }

    /// The most classes any layer's input has.
    #[cfg(test)]
    pub fn most_classes(&self) -> usize {
        self.layers
            .iter()
            .flatten()
            .map(|l| l.classes.len())
            .max()
            .unwrap_or(0)
    }
}

impl QLayer {
    fn new(layer: &super::Layer, input: &Codes) -> QLayer {
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
                let at = input.place[ci];
                for (co, s) in scale.iter().enumerate() {
                    let v = layer.w[(tap * cin + ci) * cout + co] / s;
                    w[((tap * groups + at / 4) * cout + co) * 4 + at % 4] =
                        v.round().clamp(-127.0, 127.0) as i8;
                }
            }
        }
        let mul = input
            .steps
            .iter()
            .flat_map(|step| scale.iter().map(move |s| s * step))
            .collect();
        QLayer {
            k,
            cout,
            groups,
            w,
            classes: input.classes.clone(),
            mul,
        }
    }
}

/// What becomes of a layer's sums: each class's times its `mul`, plus
/// the biases and the residual `add`, the ReLU; stored in float (`fout`,
/// `c` values a cell) and as codes (`qout`, `cq` a cell) in their places.
pub struct Finish<'a> {
    /// A row of `cout` a class of the input.
    mul: &'a [f32],
    cout: usize,
    bias: &'a [f32],
    add: Option<&'a [f32]>,
    relu: bool,
    /// The output's codes: each channel's place and one over its step.
    place: &'a [usize],
    /// Whether each channel's place is its own index (no scatter).
    in_order: bool,
    inv: &'a [f32],
    /// The largest code.
    top: f32,
    c: usize,
    cq: usize,
    fout: &'a mut [f32],
    qout: &'a mut [u8],
    /// What the input's outliers add, exactly (`c` a cell; empty if none).
    fix: &'a [f32],
    /// The outputs past the largest code: cell, channel, what it lacks.
    outliers: &'a mut Vec<(usize, usize, f32)>,
}

impl Finish<'_> {
    /// Finishes output channels `co..co + n` of the point at `cell` from
    /// `sums`: `n` sums for each class of the input, in turn. Inlined into
    /// each kernel, so that it runs with that kernel's instructions.
    #[inline(always)]
    pub fn put(&mut self, cell: usize, co: usize, sums: &[i32]) {
        let n = sums.len() / (self.mul.len() / self.cout);
        let at = cell * self.c + co;
        let fout = &mut self.fout[at..at + n];
        fout.copy_from_slice(&self.bias[co..co + n]);
        for (row, sums) in self.mul.chunks_exact(self.cout).zip(sums.chunks_exact(n)) {
            for ((f, &m), &s) in fout.iter_mut().zip(&row[co..co + n]).zip(sums) {
                *f += s as f32 * m;
            }
        }
        for add in [self.add, Some(self.fix).filter(|f| !f.is_empty())]
            .into_iter()
            .flatten()
        {
            for (f, &a) in fout.iter_mut().zip(&add[at..at + n]) {
                *f += a;
            }
        }
        if self.relu {
            for f in fout.iter_mut() {
                *f = f.max(0.0);
            }
        }
        // codes a run of channels at a time in vector lanes, then to their
        // places (a scatter the compiler leaves scalar)
        let qout = &mut self.qout[cell * self.cq..][..self.cq];
        let (place, inv) = (&self.place[co..co + n], &self.inv[co..co + n]);
        let (top, mut over) = (self.top, false);
        for ((f, place), inv) in fout.chunks(64).zip(place.chunks(64)).zip(inv.chunks(64)) {
            let mut codes = [0u8; 64];
            for ((q, &f), &inv) in codes.iter_mut().zip(f).zip(inv) {
                // f >= 0 after the ReLU (negative saturates to 0 anyway)
                let c = f * inv + 0.5;
                *q = c.min(top) as u8;
                over |= c > top + 0.5;
            }
            if self.in_order {
                qout[place[0]..][..place.len()].copy_from_slice(&codes[..place.len()]);
            } else {
                for (&q, &p) in codes.iter().zip(place) {
                    qout[p] = q;
                }
            }
        }
        if over {
            for (i, (&f, &inv)) in fout.iter().zip(inv).enumerate() {
                if f * inv + 0.5 > top + 0.5 {
                    self.outliers.push((cell, co + i, f - top / inv));
                }
            }
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
    /// The outliers of a layer's input and of its output; their fix.
    outliers: [Vec<(usize, usize, f32)>; 2],
    fix: Vec<f32>,
}

/// One logit a point (as [`Net::logits`]) by `path`, which must be an
/// 8-bit one this CPU runs.
pub fn run(
    net: &Net,
    q: &Quantised,
    path: Path,
    planes: &[u8],
    (w, h): (usize, usize),
    b: &mut Buffers,
    seen: &mut dyn FnMut(usize, Grid, &[f32]),
) -> Vec<f32> {
    let [cur, next, kept, scratch] = &mut b.f;
    let [qcur, qnext] = &mut b.q;
    let [out_cur, out_next] = &mut b.outliers;
    out_cur.clear();
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
                fix_outliers(layer, grid, out_cur, &mut b.fix);
                out_next.clear();
                let codes = &q.codes[l];
                let mut fin = Finish {
                    mul: &ql.mul,
                    cout: ql.cout,
                    bias: &bias,
                    add,
                    relu,
                    place: &codes.place,
                    in_order: codes.place.iter().enumerate().all(|(i, &p)| i == p),
                    inv: &codes.inv,
                    top: q.top as f32,
                    c,
                    cq,
                    fout: next,
                    qout: qnext,
                    fix: &b.fix,
                    outliers: out_next,
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
        std::mem::swap(out_cur, out_next);
        seen(l, grid, cur);
    }
    b.points.iter().map(|&cell| cur[cell * c]).collect()
}

/// Into `fix` (empty if there are none), what `layer` adds to its sums
/// for the part of its input's `outliers` past the largest code: that
/// part times the float weights, in a fixed order (every kernel's
/// outliers are the same, and so are the sums).
fn fix_outliers(
    layer: &super::Layer,
    g: Grid,
    outliers: &mut [(usize, usize, f32)],
    fix: &mut Vec<f32>,
) {
    fix.clear();
    if outliers.is_empty() {
        return;
    }
    outliers.sort_unstable_by_key(|&(cell, ch, _)| (cell, ch));
    fix.resize(g.stride * (g.h + 2 * g.pad) * g.c, 0.0);
    let (k, cin, cout) = (layer.k, layer.cin, layer.cout);
    for &(cell, ch, excess) in outliers.iter() {
        for tap in 0..k * k {
            // the output whose window has this input at `tap`
            let out = cell + (k / 2) * (g.stride + 1) - tap / k * g.stride - tap % k;
            let w = &layer.w[(tap * cin + ch) * cout..][..cout];
            for (f, &w) in fix[out * g.c..][..cout].iter_mut().zip(w) {
                *f += excess * w;
            }
        }
    }
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

/// The integer reference: each point's sums in plain loops, a class of
/// the input at a time.
pub fn conv_scalar(
    ql: &QLayer,
    stride: usize,
    cq: usize,
    input: &[u8],
    points: &[usize],
    fin: &mut Finish,
) {
    let (k, cout, groups) = (ql.k, ql.cout, ql.groups);
    let mut sums = vec![0i32; ql.classes.len() * cout];
    for &cell in points {
        sums.fill(0);
        let corner = cell - (k / 2) * (stride + 1);
        for (&(g0, g1), sums) in ql.classes.iter().zip(sums.chunks_exact_mut(cout)) {
            for tap in 0..k * k {
                let a = &input[(corner + tap / k * stride + tap % k) * cq..][..groups * 4];
                let w = &ql.w[tap * groups * cout * 4..][..groups * cout * 4];
                for g in g0..g1 {
                    let a = &a[4 * g..4 * g + 4];
                    for (s, w) in sums.iter_mut().zip(w[g * cout * 4..].chunks_exact(4)) {
                        *s += (0..4).map(|j| a[j] as i32 * w[j] as i32).sum::<i32>();
                    }
                }
            }
        }
        fin.put(cell, 0, &sums);
    }
}
