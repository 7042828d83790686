//! One evaluation of a [`Model`], written once for every backend: the
//! norms, activations, pooling, attention and heads in float, as KataGo's
//! CPU backend (`cpp/neuralnet/eigenbackend.cpp`) computes them, and the
//! convolutions and matrices, where nearly all the work is, through a
//! backend's [`Kernels`] (which may also take a convolution's norm and
//! activation, SwiGLU and attention whole, and does in float by
//! default). Values are kept point by point (each point's
//! channels together), on the board's own points only: a convolution
//! reads zeros past the edge, as KataGo's masked board of any size does.

pub mod act;

use super::desc::*;
use act::{add, norm_act, rms_norm};
use std::cell::RefCell;

/// What a backend computes: the layers with weights over every point.
pub trait Kernels {
    /// `conv` of `input` (`conv.cin` values a point of a `w` x `h` board)
    /// into `out` (`conv.cout` a point), added to what `out` holds when
    /// `add`, else in place of it.
    fn conv(&self, conv: &Conv, input: &[f32], out: &mut [f32], w: usize, h: usize, add: bool);

    /// [`Kernels::conv`] of `act(x * scale + bias)` by `n`'s norm and
    /// activation ([`act::norm_act`]), `t` room for those: a backend may
    /// take them as it reads its input.
    #[allow(clippy::too_many_arguments)]
    fn conv_of(
        &self,
        n: (&Norm, Act),
        x: &[f32],
        t: &mut Vec<f32>,
        conv: &Conv,
        out: &mut [f32],
        w: usize,
        h: usize,
        add: bool,
    ) {
        let t = sized(t, conv.cin * w * h);
        norm_act(&x[..t.len()], n.0, n.1, t);
        self.conv(conv, t, out, w, h, add);
    }

    /// `m` applied to each of the `points` rows of `input` (`m.cin`
    /// values each) into `out` (`m.cout` each).
    fn matmul(&self, m: &MatMul, input: &[f32], out: &mut [f32], points: usize);

    /// Each of `ms` applied to the same `input` into the matching `outs`
    /// (`m.cout` values a point each): a backend may share the work on
    /// the input.
    fn matmuls(&self, ms: &[&MatMul], input: &[f32], outs: &mut [&mut [f32]], points: usize) {
        for (m, out) in ms.iter().zip(outs.iter_mut()) {
            self.matmul(m, input, out, points);
        }
    }

    /// SwiGLU's feed-forward over `points` rows of `input`: `w2` of
    /// `silu(input w1) * (input gate)` into `out` (`w2.cout` a point),
    /// `mid` room for the two middles. Through the matrices ([`swiglu`])
    /// unless a backend has better.
    fn swiglu(
        &self,
        [w1, gate, w2]: [&MatMul; 3],
        input: &[f32],
        out: &mut [f32],
        points: usize,
        mid: [&mut Vec<f32>; 2],
    ) {
        swiglu(self, [w1, gate, w2], input, out, points, mid)
    }

    /// Scaled dot-product attention of `at`'s heads over `points` points:
    /// `q` (`heads * q_dim` a point), `k` (`kv_heads * q_dim`) and `v`
    /// (`kv_heads * v_dim`), rotated already, into `out` (`heads *
    /// v_dim` a point). In float unless a backend has better.
    fn attention(
        &self,
        at: &Attention,
        q: &[f32],
        k: &[f32],
        v: &[f32],
        out: &mut [f32],
        points: usize,
    ) {
        attention(at, q, k, v, out, points)
    }
}

/// [`Kernels::swiglu`] through `k`'s matrices, the middle in float.
pub fn swiglu<K: Kernels + ?Sized>(
    k: &K,
    [w1, gate, w2]: [&MatMul; 3],
    input: &[f32],
    out: &mut [f32],
    points: usize,
    [u, v]: [&mut Vec<f32>; 2],
) {
    let u = sized(u, w1.cout * points);
    let v = sized(v, gate.cout * points);
    k.matmuls(&[w1, gate], input, &mut [&mut *u, &mut *v], points);
    act::silu_gate(u, v);
    k.matmul(w2, u, out, points);
}

/// [`Kernels::attention`] in float, as KataGo's CPU backend: each query's
/// softmax over every point's key, then the mix of their values.
pub fn attention(at: &Attention, q: &[f32], k: &[f32], v: &[f32], out: &mut [f32], area: usize) {
    let (qn, kn, vn, _) = at.widths();
    let scale = 1.0 / (at.q_dim as f32).sqrt();
    let group = at.heads / at.kv_heads;
    let mut scores = vec![0.0f32; area];
    for head in 0..at.heads {
        let kvh = head / group;
        for i in 0..area {
            let qi = &q[i * qn + head * at.q_dim..][..at.q_dim];
            let mut top = f32::NEG_INFINITY;
            for (j, s) in scores.iter_mut().enumerate() {
                let kj = &k[j * kn + kvh * at.q_dim..][..at.q_dim];
                *s = qi.iter().zip(kj).map(|(a, b)| a * b).sum::<f32>() * scale;
                top = top.max(*s);
            }
            let mut total = 0.0;
            for s in scores.iter_mut() {
                *s = (*s - top).exp();
                total += *s;
            }
            let o = &mut out[i * at.heads * at.v_dim + head * at.v_dim..][..at.v_dim];
            o.fill(0.0);
            for (j, &s) in scores.iter().enumerate() {
                let vj = &v[j * vn + kvh * at.v_dim..][..at.v_dim];
                let wgt = s / total;
                o.iter_mut().zip(vj).for_each(|(o, v)| *o += wgt * v);
            }
        }
    }
}

/// The raw outputs, from the side to move's view, before KataGo's
/// post-processing ([`super::outputs`]).
#[derive(Clone, Debug, Default)]
pub struct Raw {
    /// The policy logits, a point after another, each point's policy
    /// channels together.
    pub policy: Vec<f32>,
    /// The pass logit of each policy channel.
    pub pass: Vec<f32>,
    /// Win, loss and no-result logits.
    pub value: [f32; 3],
    /// Score mean, its spread, lead, time left (and, model version 9
    /// on, the short-term errors), before their multipliers.
    pub score: Vec<f32>,
    /// The ownership logit of each point.
    pub ownership: Vec<f32>,
}

/// A board's scratch buffers, kept per thread and grown once.
#[derive(Default)]
struct Scratch {
    bufs: [Vec<f32>; 6],
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// Evaluates `model` on a `w` x `h` board: `spatial` holds the input
/// planes a plane after another (as [`super::inputs::Features`]),
/// `global` the global inputs.
pub fn evaluate(
    model: &Model,
    k: &dyn Kernels,
    spatial: &[u8],
    global: &[f32],
    w: usize,
    h: usize,
) -> Raw {
    SCRATCH.with(|s| Pass { model, k, w, h }.run(&mut s.borrow_mut(), spatial, global))
}

/// One evaluation's fixed parts.
struct Pass<'a> {
    model: &'a Model,
    k: &'a dyn Kernels,
    w: usize,
    h: usize,
}

/// `n` values of `buf` (grown once, kept by a thread's scratch) from its
/// first 64-byte boundary: AMX's tile loads and stores run five times
/// slower across cache lines, and AVX-512's vectors cross fewer of them.
/// What the slice held is kept when `buf` grows.
pub fn sized<V: Copy + Default>(buf: &mut Vec<V>, n: usize) -> &mut [V] {
    let pad = 64 / std::mem::size_of::<V>().max(1);
    if buf.len() < n + pad {
        let (before, held) = (line_start(buf), buf.len());
        buf.resize(n + pad, V::default());
        let after = line_start(buf);
        if after != before {
            let kept = held.saturating_sub(before).min(n);
            buf.copy_within(before..before + kept, after);
        }
    }
    let l = line_start(buf);
    &mut buf[l..l + n]
}

/// Where in `b` the first 64-byte line starts (0 if none does).
pub fn line_start<V>(b: &[V]) -> usize {
    match b.as_ptr().align_offset(64) {
        l if l < b.len().min(64) => l,
        _ => 0,
    }
}

/// KataGo's pooled view of `x` (`c` channels a point over `area`
/// points): each channel's mean, the mean scaled by the board's width
/// ((sqrt(area) - 14) / 10), and its max (at least -1, as KataGo's mask
/// makes it).
fn gpool(x: &[f32], c: usize, area: usize, out: &mut [f32]) {
    let (mean, rest) = out.split_at_mut(c);
    let (scaled, max) = rest.split_at_mut(c);
    mean.fill(0.0);
    max.fill(-1.0);
    for xs in x.chunks_exact(c) {
        for i in 0..c {
            mean[i] += xs[i];
            max[i] = max[i].max(xs[i]);
        }
    }
    let side = (area as f32).sqrt();
    for i in 0..c {
        mean[i] /= area as f32;
        scaled[i] = mean[i] * (side - 14.0) * 0.1;
    }
}

impl Pass<'_> {
    fn area(&self) -> usize {
        self.w * self.h
    }

    fn run(&self, s: &mut Scratch, spatial: &[u8], global: &[f32]) -> Raw {
        let (m, area) = (self.model, self.area());
        let c = m.trunk.channels;
        let [x, a, b, d, e, f] = &mut s.bufs;
        // the input planes, a point's together
        let planes = m.trunk.conv.cin;
        assert_eq!(
            spatial.len(),
            planes * area,
            "input planes of a {area}-point board"
        );
        let input = sized(a, planes * area);
        for (pl, values) in spatial.chunks_exact(area).enumerate() {
            for (p, &v) in values.iter().enumerate() {
                input[p * planes + pl] = v as f32;
            }
        }
        let x = sized(x, c * area);
        self.k.conv(&m.trunk.conv, input, x, self.w, self.h, false);
        let mut g = vec![0.0; c];
        m.trunk.global.apply(global, &mut g);
        for xs in x.chunks_exact_mut(c) {
            xs.iter_mut().zip(&g).for_each(|(v, g)| *v += g);
        }
        for block in &m.trunk.blocks {
            self.block(block, x, c, [a, b, d, e, f]);
        }
        let t = sized(a, c * area);
        self.tip(x, t);
        self.heads(t, [b, d, e, f])
    }

    /// Adds `block`'s output to `x` (`c` channels a point).
    fn block(&self, block: &Block, x: &mut [f32], c: usize, bufs: [&mut Vec<f32>; 5]) {
        let area = self.area();
        let (w, h) = (self.w, self.h);
        let [a, b, d, e, f] = bufs;
        match block {
            Block::Ordinary {
                pre,
                conv1,
                mid,
                conv2,
                ..
            } => {
                let u = sized(b, conv1.cout * area);
                self.k.conv_of((&pre.0, pre.1), x, a, conv1, u, w, h, false);
                self.k.conv_of((&mid.0, mid.1), u, a, conv2, x, w, h, true);
            }
            Block::GlobalPool {
                pre,
                conv1,
                gpool_conv,
                gpool: gnorm,
                gpool_mul,
                mid,
                conv2,
                ..
            } => {
                let t = sized(a, c * area);
                norm_act(x, &pre.0, pre.1, t);
                let r = sized(b, conv1.cout * area);
                self.k.conv(conv1, t, r, w, h, false);
                let gc = gpool_conv.cout;
                let g = sized(d, gc * area);
                self.k.conv(gpool_conv, t, g, w, h, false);
                let g2 = sized(e, gc * area);
                norm_act(g, &gnorm.0, gnorm.1, g2);
                let pooled = sized(f, 3 * gc + conv1.cout);
                let (pooled, bias) = pooled.split_at_mut(3 * gc);
                gpool(g2, gc, area, pooled);
                gpool_mul.apply(pooled, bias);
                for rs in r.chunks_exact_mut(conv1.cout) {
                    rs.iter_mut().zip(&*bias).for_each(|(v, b)| *v += b);
                }
                self.k.conv_of((&mid.0, mid.1), r, a, conv2, x, w, h, true);
            }
            Block::Nested {
                pre,
                conv_in,
                blocks,
                post,
                conv_out,
                ..
            } => {
                let mc = conv_in.cout;
                // the inner trunk keeps its own buffer: `b` is taken apart
                let mut inner = std::mem::take(b);
                let y = sized(&mut inner, mc * area);
                self.k
                    .conv_of((&pre.0, pre.1), x, a, conv_in, y, w, h, false);
                for block in blocks {
                    self.block(block, y, mc, [a, d, e, f, &mut Vec::new()]);
                }
                self.k
                    .conv_of((&post.0, post.1), y, a, conv_out, x, w, h, true);
                *b = inner;
            }
            Block::Attention { attention, .. } => self.attention(attention, x, c, [a, b, d]),
            Block::Ffn {
                norm, w1, gate, w2, ..
            } => {
                let t = sized(a, c * area);
                rms_norm(x, norm, t);
                let o = sized(e, c * area);
                self.k.swiglu([w1, gate, w2], t, o, area, [b, d]);
                add(x, o);
            }
        }
    }

    /// Adds the attention block's output to `x`.
    fn attention(&self, at: &Attention, x: &mut [f32], c: usize, bufs: [&mut Vec<f32>; 3]) {
        let area = self.area();
        let [a, b, d] = bufs;
        let t = sized(a, c * area);
        rms_norm(x, &at.norm, t);
        let (qn, kn, vn, _) = at.widths();
        let qkv = sized(b, (qn + kn + vn) * area);
        let (q, rest) = qkv.split_at_mut(qn * area);
        let (k, v) = rest.split_at_mut(kn * area);
        self.k.matmuls(
            &[&at.q, &at.k, &at.v],
            t,
            &mut [&mut *q, &mut *k, &mut *v],
            area,
        );
        rope(at, q, at.heads, self.w, self.h);
        rope(at, k, at.kv_heads, self.w, self.h);
        let out = sized(d, at.heads * at.v_dim * area);
        self.k.attention(at, q, k, v, out, area);
        let o = sized(a, c * area);
        self.k.matmul(&at.out, out, o, area);
        add(x, o);
    }

    /// The trunk's tip: its norm and activation, from `x` into `t`.
    fn tip(&self, x: &[f32], t: &mut [f32]) {
        let tr = &self.model.trunk;
        let c = tr.channels;
        match &tr.tip {
            Tip::Batch(n) => norm_act(x, n, tr.tip_act, t),
            Tip::Rms {
                epsilon,
                spatial,
                gamma,
                beta,
                ..
            } => {
                let whole = |xs: &[f32]| {
                    let sq: f32 = xs.iter().map(|v| v * v).sum();
                    1.0 / (sq / xs.len() as f32 + epsilon).sqrt()
                };
                let board = whole(x);
                for (xs, ts) in x.chunks_exact(c).zip(t.chunks_exact_mut(c)) {
                    let r = if *spatial { board } else { whole(xs) };
                    for i in 0..c {
                        ts[i] = tr.tip_act.apply(xs[i] * r * gamma[i] + beta[i]);
                    }
                }
            }
        }
    }

    /// The policy and value heads on the trunk's output `t`.
    fn heads(&self, t: &[f32], bufs: [&mut Vec<f32>; 4]) -> Raw {
        let (m, area, w, h) = (self.model, self.area(), self.w, self.h);
        let (p, v) = (&m.policy, &m.value);
        let [a, b, d, e] = bufs;
        let pc = p.p1.cout;
        let p1 = sized(a, pc * area);
        self.k.conv(&p.p1, t, p1, w, h, false);
        let gc = p.g1.cout;
        let g = sized(b, gc * area);
        self.k.conv(&p.g1, t, g, w, h, false);
        let g2 = sized(d, gc * area);
        norm_act(g, &p.g1_norm.0, p.g1_norm.1, g2);
        let mut pooled = vec![0.0; 3 * gc];
        gpool(g2, gc, area, &mut pooled);
        let mut bias = vec![0.0; pc];
        p.gpool_mul.apply(&pooled, &mut bias);
        for ps in p1.chunks_exact_mut(pc) {
            ps.iter_mut().zip(&bias).for_each(|(v, b)| *v += b);
        }
        let p1n = sized(b, pc * area);
        norm_act(p1, &p.p1_norm.0, p.p1_norm.1, p1n);
        let mut policy = vec![0.0; p.p2.cout * area];
        self.k.conv(&p.p2, p1n, &mut policy, w, h, false);
        let mut pass = vec![0.0; p.pass1.cout];
        p.pass1.apply(&pooled, &mut pass);
        if let Some((b2, act, m2)) = &p.pass2 {
            for (x, b) in pass.iter_mut().zip(b2) {
                *x = act.apply(*x + b);
            }
            let mut out = vec![0.0; m2.cout];
            m2.apply(&pass, &mut out);
            pass = out;
        }
        // the value head
        let vc = v.v1.cout;
        let v1 = sized(a, vc * area);
        self.k.conv(&v.v1, t, v1, w, h, false);
        let v1n = sized(e, vc * area);
        norm_act(v1, &v.v1_norm.0, v.v1_norm.1, v1n);
        let mut pooled = vec![0.0; 3 * vc];
        {
            let (mean, rest) = pooled.split_at_mut(vc);
            for vs in v1n.chunks_exact(vc) {
                mean.iter_mut().zip(vs).for_each(|(m, v)| *m += v);
            }
            let side = (area as f32).sqrt() - 14.0;
            for i in 0..vc {
                mean[i] /= area as f32;
                rest[i] = mean[i] * side * 0.1;
                rest[vc + i] = mean[i] * (side * side * 0.01 - 0.1);
            }
        }
        let mut v2 = vec![0.0; v.v2.cout];
        v.v2.apply(&pooled, &mut v2);
        for (x, b) in v2.iter_mut().zip(&v.v2_bias) {
            *x = v.v2_act.apply(*x + b);
        }
        let mut value = [0.0; 3];
        v.v3.apply(&v2, &mut value);
        value.iter_mut().zip(&v.v3_bias).for_each(|(x, b)| *x += b);
        let mut score = vec![0.0; v.sv3.cout];
        v.sv3.apply(&v2, &mut score);
        score.iter_mut().zip(&v.sv3_bias).for_each(|(x, b)| *x += b);
        let mut ownership = vec![0.0; area];
        self.k.conv(&v.ownership, v1n, &mut ownership, w, h, false);
        Raw {
            policy,
            pass,
            value,
            score,
            ownership,
        }
    }
}

/// A layer's rotary angles on a board: (cos, sin) of each point, key
/// head and pair, and what they were computed from.
struct Angles {
    rope: Rope,
    dims: (usize, usize, usize, usize),
    table: Vec<(f32, f32)>,
}

thread_local! {
    /// Each layer's angles, computed once a thread (a million sines and
    /// cosines an evaluation of b10c384 otherwise).
    static ANGLES: RefCell<Vec<Angles>> = RefCell::default();
}

/// The angle of pair `p` of key head `kvh` at column `col` of row `y`.
fn angle(at: &Attention, kvh: usize, p: usize, col: usize, y: usize) -> f32 {
    let pairs = at.q_dim / 2;
    match &at.rope {
        Rope::None => 0.0,
        Rope::Learnt(f) => {
            let i = (kvh * pairs + p) * 2;
            col as f32 * f[i] + y as f32 * f[i + 1]
        }
        Rope::Theta(theta) => {
            let (half, per) = ((at.q_dim / 2) as f32, pairs / 2);
            let (pos, q) = if p < per { (y, p) } else { (col, p - per) };
            pos as f32 / theta.powf((2 * q) as f32 / half)
        }
    }
}

/// Whether two ropes are the same.
fn same(a: &Rope, b: &Rope) -> bool {
    match (a, b) {
        (Rope::None, Rope::None) => true,
        (Rope::Learnt(x), Rope::Learnt(y)) => x == y,
        (Rope::Theta(x), Rope::Theta(y)) => x == y,
        _ => false,
    }
}

/// Turns each pair of channels (2p, 2p + 1) of each of the `heads` heads
/// of `x` (queries or keys, a point after another on a `w` x `h` board)
/// by its angle at the point (KataGo's rotary position embedding).
fn rope(at: &Attention, x: &mut [f32], heads: usize, w: usize, h: usize) {
    if matches!(at.rope, Rope::None) {
        return;
    }
    let pairs = at.q_dim / 2;
    let dims = (at.kv_heads, at.q_dim, w, h);
    ANGLES.with(|a| {
        let mut a = a.borrow_mut();
        let found = a
            .iter()
            .position(|t| t.dims == dims && same(&t.rope, &at.rope));
        let i = found.unwrap_or_else(|| {
            let mut table = Vec::with_capacity(w * h * at.kv_heads * pairs);
            for y in 0..h {
                for col in 0..w {
                    for kvh in 0..at.kv_heads {
                        table.extend((0..pairs).map(|p| {
                            let (sin, cos) = angle(at, kvh, p, col, y).sin_cos();
                            (cos, sin)
                        }));
                    }
                }
            }
            // a bound on what other boards and models leave
            if a.len() >= 64 {
                a.clear();
            }
            a.push(Angles {
                rope: at.rope.clone(),
                dims,
                table,
            });
            a.len() - 1
        });
        let stride = heads * at.q_dim;
        let x = &mut x[..w * h * stride];
        act::rotate(x, &a[i].table, heads, at.kv_heads, pairs);
    })
}
