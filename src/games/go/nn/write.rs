//! Writing a [`Model`] back in KataGo's format ([`super::read`] reads it
//! again to the same model): the layers in the file's order, batch norms
//! in their merged form (mean 0, variance 1), weight blocks as `@BIN@`
//! f32s, or the convolutions' and matrices' weights coded
//! ([`super::coded`]): tengen's own files, and tests' small models.

use super::coded;
use super::desc::*;

/// How weight blocks are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weights {
    /// Every block as `@BIN@` and f32s, as KataGo writes them.
    Plain,
    /// Convolutions' and matrices' weights quantised to `top` steps either
    /// side of zero with a scale an output channel, and coded.
    Coded { top: i32 },
}

/// The bytes of a model file holding `m`.
pub fn model(m: &Model, weights: Weights) -> Vec<u8> {
    let mut w = Writer {
        out: Vec::new(),
        weights,
    };
    w.tokens(&[&m.name, &m.version.to_string()]);
    w.tokens(&[
        &super::inputs::SPATIAL.to_string(),
        &super::inputs::GLOBAL.to_string(),
    ]);
    if m.version >= 13 {
        let x = &m.multipliers;
        let all = [
            x.td_score,
            x.score_mean,
            x.score_stdev,
            x.lead,
            x.variance_time,
            x.shortterm_value_error,
            x.shortterm_score_error,
        ];
        w.tokens(&all.map(|v| v.to_string()).each_ref().map(|s| s.as_str()));
    }
    if m.version >= 15 {
        w.tokens(&["0"; 8]);
    }
    let t = &m.trunk;
    let mut head = vec![
        "trunk".to_string(),
        t.blocks.len().to_string(),
        t.channels.to_string(),
    ];
    head.extend(t.header.iter().map(|h| h.to_string()));
    if m.version >= 15 {
        let rms = matches!(t.tip, Tip::Rms { .. });
        head.push((rms as u8).to_string());
        head.extend(["0"; 5].map(String::from));
    }
    w.tokens(&head.iter().map(|s| s.as_str()).collect::<Vec<_>>());
    w.conv(&t.conv);
    w.matmul(&t.global);
    w.blocks(&t.blocks, m.version);
    match &t.tip {
        Tip::Batch(n) => w.norm(n),
        Tip::Rms {
            name,
            epsilon,
            spatial,
            gamma,
            beta,
        } => {
            let (c, sp) = (gamma.len().to_string(), (*spatial as u8).to_string());
            w.tokens(&[name, &c, &epsilon.to_string(), &sp, "0"]);
            w.floats(gamma, None);
            w.floats(beta, None);
        }
    }
    w.act("trunk.act", t.tip_act, m.version);
    let p = &m.policy;
    if m.version >= 17 {
        w.tokens(&["policyhead", &p.p2.cout.to_string(), "0", "0", "0"]);
    } else {
        w.tokens(&["policyhead"]);
    }
    w.conv(&p.p1);
    w.conv(&p.g1);
    w.norm_act(&p.g1_norm, m.version);
    w.matmul(&p.gpool_mul);
    w.norm_act(&p.p1_norm, m.version);
    w.conv(&p.p2);
    w.matmul(&p.pass1);
    if let Some((b, a, m2)) = &p.pass2 {
        w.bias("policyhead.passbias", b);
        w.act("policyhead.passact", *a, m.version);
        w.matmul(m2);
    }
    let v = &m.value;
    w.tokens(if m.version >= 17 {
        &["valuehead", "0", "0", "0"][..]
    } else {
        &["valuehead"][..]
    });
    w.conv(&v.v1);
    w.norm_act(&v.v1_norm, m.version);
    w.matmul(&v.v2);
    w.bias("valuehead.v2bias", &v.v2_bias);
    w.act("valuehead.v2act", v.v2_act, m.version);
    w.matmul(&v.v3);
    w.bias("valuehead.v3bias", &v.v3_bias);
    w.matmul(&v.sv3);
    w.bias("valuehead.sv3bias", &v.sv3_bias);
    w.conv(&v.ownership);
    w.out
}

struct Writer {
    out: Vec<u8>,
    weights: Weights,
}

impl Writer {
    fn tokens(&mut self, t: &[&str]) {
        self.out.extend(t.join(" ").bytes());
        self.out.push(b'\n');
    }

    /// A block of weights: coded in `cols` columns if they are a layer's
    /// and the file codes them, else plain.
    fn floats(&mut self, v: &[f32], cols: Option<usize>) {
        match (self.weights, cols) {
            (Weights::Coded { top }, Some(cols)) => {
                self.out.extend(coded::MARK);
                self.out.extend(coded::encode(v, cols, top));
            }
            _ => {
                self.out.extend(b"@BIN@");
                v.iter().for_each(|x| self.out.extend(x.to_le_bytes()));
            }
        }
        self.out.push(b'\n');
    }

    fn conv(&mut self, c: &Conv) {
        let dims = [c.ky, c.kx, c.cin, c.cout, c.dilation.0, c.dilation.1].map(|d| d.to_string());
        let mut t = vec![c.name.as_str()];
        t.extend(dims.iter().map(|s| s.as_str()));
        self.tokens(&t);
        self.floats(&c.w, Some(c.cout));
    }

    fn matmul(&mut self, m: &MatMul) {
        self.tokens(&[&m.name, &m.cin.to_string(), &m.cout.to_string()]);
        self.floats(&m.w, Some(m.cout));
    }

    fn bias(&mut self, name: &str, b: &[f32]) {
        self.tokens(&[name, &b.len().to_string()]);
        self.floats(b, None);
    }

    /// A norm in merged form: mean 0 and variance 1 leave scale and bias.
    fn norm(&mut self, n: &Norm) {
        let c = n.scale.len();
        self.tokens(&[&n.name, &c.to_string(), "1e-20", "1", "1"]);
        self.floats(&vec![0.0; c], None);
        self.floats(&vec![1.0; c], None);
        self.floats(&n.scale, None);
        self.floats(&n.bias, None);
    }

    fn act(&mut self, name: &str, a: Act, version: u32) {
        if version < 11 {
            return self.tokens(&[name]);
        }
        let kind = match a {
            Act::Identity => "ACTIVATION_IDENTITY",
            Act::Relu => "ACTIVATION_RELU",
            Act::Mish => "ACTIVATION_MISH",
            Act::Silu => "ACTIVATION_SILU",
        };
        self.tokens(&[name, kind]);
    }

    fn norm_act(&mut self, (n, a): &(Norm, Act), version: u32) {
        self.norm(n);
        self.act(&format!("{}.act", n.name), *a, version);
    }

    fn rms(&mut self, n: &RmsNorm) {
        let c = n.weight.len().to_string();
        self.tokens(&[&n.name, &c, &n.epsilon.to_string()]);
        self.floats(&n.weight, None);
    }

    fn blocks(&mut self, blocks: &[Block], version: u32) {
        for b in blocks {
            match b {
                Block::Ordinary {
                    name,
                    pre,
                    conv1,
                    mid,
                    conv2,
                } => {
                    self.tokens(&["ordinary_block", name]);
                    self.norm_act(pre, version);
                    self.conv(conv1);
                    self.norm_act(mid, version);
                    self.conv(conv2);
                }
                Block::GlobalPool {
                    name,
                    pre,
                    conv1,
                    gpool_conv,
                    gpool,
                    gpool_mul,
                    mid,
                    conv2,
                } => {
                    self.tokens(&["gpool_block", name]);
                    self.norm_act(pre, version);
                    self.conv(conv1);
                    self.conv(gpool_conv);
                    self.norm_act(gpool, version);
                    self.matmul(gpool_mul);
                    self.norm_act(mid, version);
                    self.conv(conv2);
                }
                Block::Nested {
                    name,
                    pre,
                    conv_in,
                    blocks,
                    post,
                    conv_out,
                } => {
                    self.tokens(&["nested_bottleneck_block", name, &blocks.len().to_string()]);
                    self.norm_act(pre, version);
                    self.conv(conv_in);
                    self.blocks(blocks, version);
                    self.norm_act(post, version);
                    self.conv(conv_out);
                }
                Block::Attention { name, attention: a } => {
                    let rope = !matches!(a.rope, Rope::None);
                    let learnt = matches!(a.rope, Rope::Learnt(_));
                    let dims = [
                        a.heads,
                        a.kv_heads,
                        a.q_dim,
                        a.v_dim,
                        rope as usize,
                        learnt as usize,
                    ]
                    .map(|d| d.to_string());
                    let mut t = vec!["transformer_attention_block", name.as_str()];
                    t.extend(dims.iter().map(|s| s.as_str()));
                    self.tokens(&t);
                    self.rms(&a.norm);
                    for m in [&a.q, &a.k, &a.v, &a.out] {
                        self.matmul(m);
                    }
                    match &a.rope {
                        Rope::None => {}
                        Rope::Learnt(f) => {
                            let shape = [a.kv_heads, a.q_dim / 2, 2].map(|d| d.to_string());
                            self.tokens(&[
                                &format!("{name}.rope"),
                                &shape[0],
                                &shape[1],
                                &shape[2],
                            ]);
                            self.floats(f, None);
                        }
                        Rope::Theta(t) => self.tokens(&[&format!("{name}.rope"), &t.to_string()]),
                    }
                }
                Block::Ffn {
                    name,
                    norm,
                    w1,
                    gate,
                    w2,
                } => {
                    let (c, hidden) = (w1.cin.to_string(), w1.cout.to_string());
                    self.tokens(&["transformer_ffn_block", name, &c, &hidden, "1"]);
                    self.rms(norm);
                    for m in [w1, gate, w2] {
                        self.matmul(m);
                    }
                }
            }
        }
    }
}
