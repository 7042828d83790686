//! The model description: what a KataGo network is made of, layer by
//! layer, as its file describes it (KataGo's `cpp/neuralnet/desc.h`).
//! Weights are kept as the file orders them; batch norms are merged into
//! one scale and one bias a channel when read. [`super::read`] fills it;
//! the backends turn it into what they compute with.

use std::fmt;

/// An activation function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    Identity,
    Relu,
    Mish,
    Silu,
}

impl Act {
    /// The function at `x`, as KataGo's CPU backend computes it.
    #[inline]
    pub fn apply(self, x: f32) -> f32 {
        match self {
            Act::Identity => x,
            Act::Relu => x.max(0.0),
            // softplus(x) = ln(1 + e^x); for large x it is x
            Act::Mish => x * (if x < 20.0 { x.exp().ln_1p() } else { x }).tanh(),
            Act::Silu => x / (1.0 + (-x).exp()),
        }
    }
}

/// A convolution: `ky` x `kx` kernels from `cin` to `cout` channels, the
/// weights in the file's order (kernel row, kernel column, input channel,
/// output channel).
#[derive(Clone, Debug)]
pub struct Conv {
    pub name: String,
    /// The layer's place among the model's convolutions and matrices, in
    /// the order of the file: backends keep their forms of the weights
    /// under it.
    pub id: usize,
    pub ky: usize,
    pub kx: usize,
    pub cin: usize,
    pub cout: usize,
    pub dilation: (usize, usize),
    pub w: Vec<f32>,
}

impl Conv {
    /// Multiply-adds a `w` x `h` board takes.
    pub fn macs(&self, area: usize) -> u64 {
        (self.ky * self.kx * self.cin * self.cout * area) as u64
    }
}

/// A batch norm merged into `x * scale + bias` a channel.
#[derive(Clone, Debug)]
pub struct Norm {
    pub name: String,
    pub scale: Vec<f32>,
    pub bias: Vec<f32>,
}

/// A matrix from `cin` to `cout` values, row by row (input by input).
#[derive(Clone, Debug)]
pub struct MatMul {
    pub name: String,
    /// As [`Conv::id`].
    pub id: usize,
    pub cin: usize,
    pub cout: usize,
    pub w: Vec<f32>,
}

impl MatMul {
    /// `out = x * self` (`x`: `cin` values, `out`: `cout`).
    pub fn apply(&self, x: &[f32], out: &mut [f32]) {
        out.fill(0.0);
        for (&v, row) in x.iter().zip(self.w.chunks_exact(self.cout)) {
            for (o, &w) in out.iter_mut().zip(row) {
                *o += v * w;
            }
        }
    }
}

/// The RMS norm inside a transformer block: `x / rms(x) * weight` a point.
#[derive(Clone, Debug)]
pub struct RmsNorm {
    pub name: String,
    pub epsilon: f32,
    pub weight: Vec<f32>,
}

/// How rotary position embedding turns queries and keys.
#[derive(Clone, Debug)]
pub enum Rope {
    None,
    /// Learnt frequencies: `(kv head, pair, [x, y])`.
    Learnt(Vec<f32>),
    /// Fixed frequencies from a base: the first half of the pairs by row,
    /// the second by column.
    Theta(f32),
}

/// Multi-head self-attention over the board's points.
#[derive(Clone, Debug)]
pub struct Attention {
    pub heads: usize,
    pub kv_heads: usize,
    pub q_dim: usize,
    pub v_dim: usize,
    pub norm: RmsNorm,
    pub q: MatMul,
    pub k: MatMul,
    pub v: MatMul,
    pub out: MatMul,
    pub rope: Rope,
}

impl Attention {
    /// The floats a point of the queries, the keys, the values and the
    /// output take: every head's, the keys' and values' shared by
    /// `heads / kv_heads` of them.
    pub fn widths(&self) -> (usize, usize, usize, usize) {
        let (qd, vd) = (self.q_dim, self.v_dim);
        (
            self.heads * qd,
            self.kv_heads * qd,
            self.kv_heads * vd,
            self.heads * vd,
        )
    }
}

/// A block of the trunk or of a nested block, each adding to its input.
/// (A model holds a few dozen, read once: their sizes do not matter.)
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Block {
    /// Norm, activation, convolution, twice.
    Ordinary {
        name: String,
        pre: (Norm, Act),
        conv1: Conv,
        mid: (Norm, Act),
        conv2: Conv,
    },
    /// An ordinary block whose middle takes a bias from the board's
    /// pooled view through `gpool`.
    GlobalPool {
        name: String,
        pre: (Norm, Act),
        conv1: Conv,
        gpool_conv: Conv,
        gpool: (Norm, Act),
        gpool_mul: MatMul,
        mid: (Norm, Act),
        conv2: Conv,
    },
    /// Down to fewer channels, inner blocks there, back up.
    Nested {
        name: String,
        pre: (Norm, Act),
        conv_in: Conv,
        blocks: Vec<Block>,
        post: (Norm, Act),
        conv_out: Conv,
    },
    Attention {
        name: String,
        attention: Box<Attention>,
    },
    /// SwiGLU feed-forward: `(silu(x W1) * (x Wgate)) W2` after an RMS norm.
    Ffn {
        name: String,
        norm: RmsNorm,
        w1: MatMul,
        gate: MatMul,
        w2: MatMul,
    },
}

impl Block {
    pub fn name(&self) -> &str {
        match self {
            Block::Ordinary { name, .. }
            | Block::GlobalPool { name, .. }
            | Block::Nested { name, .. }
            | Block::Attention { name, .. }
            | Block::Ffn { name, .. } => name,
        }
    }

    /// The block's kind as KataGo's file names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Block::Ordinary { .. } => "ordinary_block",
            Block::GlobalPool { .. } => "gpool_block",
            Block::Nested { .. } => "nested_bottleneck_block",
            Block::Attention { .. } => "transformer_attention_block",
            Block::Ffn { .. } => "transformer_ffn_block",
        }
    }
}

/// The norm at the trunk's tip.
#[derive(Clone, Debug)]
pub enum Tip {
    Batch(Norm),
    /// RMS norm with a scale and a bias a channel, over each point's
    /// channels, or over the whole board (`spatial`).
    Rms {
        name: String,
        epsilon: f32,
        spatial: bool,
        gamma: Vec<f32>,
        beta: Vec<f32>,
    },
}

#[derive(Clone, Debug)]
pub struct Trunk {
    pub channels: usize,
    /// The header's other channel counts (mid, regular, dilated, global
    /// pooling): KataGo reads and ignores them; kept to write them back.
    pub header: [usize; 4],
    pub conv: Conv,
    pub global: MatMul,
    pub blocks: Vec<Block>,
    pub tip: Tip,
    pub tip_act: Act,
}

#[derive(Clone, Debug)]
pub struct PolicyHead {
    pub p1: Conv,
    pub g1: Conv,
    pub g1_norm: (Norm, Act),
    pub gpool_mul: MatMul,
    pub p1_norm: (Norm, Act),
    /// To the policy channels: the policy, then (model version 12 on)
    /// the optimistic policy, then (16, some of 17) Q-value channels.
    pub p2: Conv,
    /// The pass logits from the pooled view: one matrix, or (version 15
    /// on) a matrix, a bias, an activation and a second matrix.
    pub pass1: MatMul,
    pub pass2: Option<(Vec<f32>, Act, MatMul)>,
}

#[derive(Clone, Debug)]
pub struct ValueHead {
    pub v1: Conv,
    pub v1_norm: (Norm, Act),
    pub v2: MatMul,
    pub v2_bias: Vec<f32>,
    pub v2_act: Act,
    /// Win, loss and no-result logits.
    pub v3: MatMul,
    pub v3_bias: Vec<f32>,
    /// Score mean, its spread, lead, time left, short-term errors.
    pub sv3: MatMul,
    pub sv3_bias: Vec<f32>,
    pub ownership: Conv,
}

/// What turns the raw outputs into scores (KataGo's
/// `ModelPostProcessParams`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Multipliers {
    pub td_score: f32,
    pub score_mean: f32,
    pub score_stdev: f32,
    pub lead: f32,
    pub variance_time: f32,
    pub shortterm_value_error: f32,
    pub shortterm_score_error: f32,
}

impl Default for Multipliers {
    /// Before model version 13 the file has none: KataGo's defaults.
    fn default() -> Self {
        Multipliers {
            td_score: 20.0,
            score_mean: 20.0,
            score_stdev: 20.0,
            lead: 20.0,
            variance_time: 40.0,
            shortterm_value_error: 0.25,
            shortterm_score_error: 30.0,
        }
    }
}

/// A whole network.
#[derive(Clone, Debug)]
pub struct Model {
    pub name: String,
    pub version: u32,
    pub multipliers: Multipliers,
    pub trunk: Trunk,
    pub policy: PolicyHead,
    pub value: ValueHead,
}

/// A convolution or a matrix of a model.
pub enum Layer<'a> {
    C(&'a Conv),
    M(&'a MatMul),
}

impl Layer<'_> {
    /// The layer's id ([`Conv::id`]).
    pub fn id(&self) -> usize {
        match self {
            Layer::C(c) => c.id,
            Layer::M(m) => m.id,
        }
    }
}

impl Model {
    /// Channels of the policy output (see [`PolicyHead::p2`]).
    pub fn policy_channels(&self) -> usize {
        self.policy.p2.cout
    }

    /// Every convolution and matrix of `blocks`, in order, with their
    /// multiply-adds on a board of `area` points.
    fn block_macs(blocks: &[Block], area: u64) -> u64 {
        let mm = |m: &MatMul| (m.cin * m.cout) as u64;
        let conv = |c: &Conv| c.macs(area as usize);
        blocks
            .iter()
            .map(|b| match b {
                Block::Ordinary { conv1, conv2, .. } => conv(conv1) + conv(conv2),
                Block::GlobalPool {
                    conv1,
                    gpool_conv,
                    gpool_mul,
                    conv2,
                    ..
                } => conv(conv1) + conv(gpool_conv) + mm(gpool_mul) + conv(conv2),
                Block::Nested {
                    conv_in,
                    blocks,
                    conv_out,
                    ..
                } => conv(conv_in) + Self::block_macs(blocks, area) + conv(conv_out),
                Block::Attention { attention: a, .. } => {
                    let proj = mm(&a.q) + mm(&a.k) + mm(&a.v) + mm(&a.out);
                    let scores = (a.heads * (a.q_dim + a.v_dim)) as u64 * area;
                    (proj + scores) * area
                }
                Block::Ffn { w1, gate, w2, .. } => (mm(w1) + mm(gate) + mm(w2)) * area,
            })
            .sum()
    }

    /// The convolutions and matrices a backend may run at its own
    /// precision, in order: all but the input layer and the heads' last
    /// ones (the most sensitive weights, and a few outputs). The global
    /// pooling's small matrices run in float everywhere.
    pub fn middle(&self) -> Vec<Layer<'_>> {
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
        let (t, p, v) = (&self.trunk, &self.policy, &self.value);
        walk(&t.blocks, &mut all);
        all.extend([&p.p1, &p.g1, &v.v1].map(Layer::C));
        all
    }

    /// Multiply-adds one evaluation of a board of `area` points takes.
    pub fn macs(&self, area: usize) -> u64 {
        let (t, p, v) = (&self.trunk, &self.policy, &self.value);
        let a = area as u64;
        t.conv.macs(area)
            + Self::block_macs(&t.blocks, a)
            + p.p1.macs(area)
            + p.g1.macs(area)
            + p.p2.macs(area)
            + v.v1.macs(area)
            + v.ownership.macs(area)
    }

    /// Learnt parameters (weights, biases, norms' scales).
    pub fn parameters(&self) -> u64 {
        let mut n = 0u64;
        self.visit(&mut |len| n += len as u64);
        n
    }

    /// Calls `f` with the length of every tensor of the model.
    fn visit(&self, f: &mut dyn FnMut(usize)) {
        fn norm(n: &Norm, f: &mut dyn FnMut(usize)) {
            f(n.scale.len());
            f(n.bias.len());
        }
        fn blocks(bs: &[Block], f: &mut dyn FnMut(usize)) {
            for b in bs {
                match b {
                    Block::Ordinary {
                        pre,
                        conv1,
                        mid,
                        conv2,
                        ..
                    } => {
                        norm(&pre.0, f);
                        f(conv1.w.len());
                        norm(&mid.0, f);
                        f(conv2.w.len());
                    }
                    Block::GlobalPool {
                        pre,
                        conv1,
                        gpool_conv,
                        gpool,
                        gpool_mul,
                        mid,
                        conv2,
                        ..
                    } => {
                        norm(&pre.0, f);
                        f(conv1.w.len());
                        f(gpool_conv.w.len());
                        norm(&gpool.0, f);
                        f(gpool_mul.w.len());
                        norm(&mid.0, f);
                        f(conv2.w.len());
                    }
                    Block::Nested {
                        pre,
                        conv_in,
                        blocks: inner,
                        post,
                        conv_out,
                        ..
                    } => {
                        norm(&pre.0, f);
                        f(conv_in.w.len());
                        blocks(inner, f);
                        norm(&post.0, f);
                        f(conv_out.w.len());
                    }
                    Block::Attention { attention: a, .. } => {
                        f(a.norm.weight.len());
                        for m in [&a.q, &a.k, &a.v, &a.out] {
                            f(m.w.len());
                        }
                        if let Rope::Learnt(r) = &a.rope {
                            f(r.len());
                        }
                    }
                    Block::Ffn {
                        norm: n,
                        w1,
                        gate,
                        w2,
                        ..
                    } => {
                        f(n.weight.len());
                        for m in [w1, gate, w2] {
                            f(m.w.len());
                        }
                    }
                }
            }
        }
        let (t, p, v) = (&self.trunk, &self.policy, &self.value);
        f(t.conv.w.len());
        f(t.global.w.len());
        blocks(&t.blocks, f);
        match &t.tip {
            Tip::Batch(n) => norm(n, f),
            Tip::Rms { gamma, beta, .. } => {
                f(gamma.len());
                f(beta.len());
            }
        }
        for c in [&p.p1, &p.g1, &p.p2] {
            f(c.w.len());
        }
        norm(&p.g1_norm.0, f);
        norm(&p.p1_norm.0, f);
        f(p.gpool_mul.w.len());
        f(p.pass1.w.len());
        if let Some((b, _, m)) = &p.pass2 {
            f(b.len());
            f(m.w.len());
        }
        f(v.v1.w.len());
        norm(&v.v1_norm.0, f);
        for m in [&v.v2, &v.v3, &v.sv3] {
            f(m.w.len());
        }
        for b in [&v.v2_bias, &v.v3_bias, &v.sv3_bias] {
            f(b.len());
        }
        f(v.ownership.w.len());
    }

    /// What the trunk is made of, as KataGo's log line says it: "convnet",
    /// "nbt convnet", "transformer" or "nbt transformer".
    pub fn kind(&self) -> &'static str {
        fn any(bs: &[Block], f: &dyn Fn(&Block) -> bool) -> bool {
            bs.iter()
                .any(|b| f(b) || matches!(b, Block::Nested { blocks, .. } if any(blocks, f)))
        }
        let blocks = &self.trunk.blocks;
        let nested = blocks.iter().any(|b| matches!(b, Block::Nested { .. }));
        let transformer = any(blocks, &|b| {
            matches!(b, Block::Attention { .. } | Block::Ffn { .. })
        });
        match (nested, transformer) {
            (false, false) => "convnet",
            (true, false) => "nbt convnet",
            (false, true) => "transformer",
            (true, true) => "nbt transformer",
        }
    }
}

impl fmt::Display for Model {
    /// One line: name, version, kind, size.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{} (model version {}, {}, {} blocks x {} channels, {} parameters, {:.2} G multiply-adds on 19x19)",
            self.name,
            self.version,
            self.kind(),
            self.trunk.blocks.len(),
            self.trunk.channels,
            self.parameters(),
            self.macs(361) as f64 / 1e9
        )
    }
}
