//! Reading a KataGo model file (`.bin`, or `.txt` whose weights are
//! written out as numbers) into a [`Model`]: whitespace-separated tokens
//! (names, sizes, flags) in the order of KataGo's `cpp/neuralnet/desc.cpp`,
//! each block of weights either `@BIN@` and little-endian f32s or numbers.
//! Decompressing a `.gz` is the caller's (the arena build carries no gzip).
//! Every size is checked against the bytes left before anything is
//! allocated, so a truncated, corrupt or foreign file gives an error
//! naming the layer, never a panic.

use super::coded;
use super::desc::*;

/// The model versions whose inputs are the V7 features ([`super::inputs`]).
pub const VERSIONS: std::ops::RangeInclusive<u32> = 8..=17;

/// The largest size any count in a file may have: far above any real net.
const MAX_DIM: usize = 1 << 16;

/// Reads a model from the bytes of an uncompressed model file.
pub fn model(bytes: &[u8]) -> Result<Model, String> {
    let mut r = Reader {
        d: bytes,
        p: 0,
        layers: 0,
    };
    let name = r.token("the model's name")?.to_string();
    if name.is_empty()
        || name.len() > 96
        || !name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
    {
        return Err("not a KataGo model file: it does not start with a model name".into());
    }
    let version = r
        .int("the model version")
        .map_err(|_| "not a KataGo model file: no model version after the name".to_string())?;
    check_version(version)?;
    let version = version as u32;
    let (spatial, global) = (r.dim("input channels")?, r.dim("global input channels")?);
    if (spatial, global) != (super::inputs::SPATIAL, super::inputs::GLOBAL) {
        return Err(format!(
            "{name}: {spatial} input planes and {global} global inputs, not the V7 features' {} and {}",
            super::inputs::SPATIAL,
            super::inputs::GLOBAL
        ));
    }
    let mut multipliers = Multipliers::default();
    if version >= 13 {
        let m = &mut multipliers;
        for (v, what) in [
            (&mut m.td_score, "tdScoreMultiplier"),
            (&mut m.score_mean, "scoreMeanMultiplier"),
            (&mut m.score_stdev, "scoreStdevMultiplier"),
            (&mut m.lead, "leadMultiplier"),
            (&mut m.variance_time, "varianceTimeMultiplier"),
            (
                &mut m.shortterm_value_error,
                "shorttermValueErrorMultiplier",
            ),
            (
                &mut m.shortterm_score_error,
                "shorttermScoreErrorMultiplier",
            ),
        ] {
            *v = r.float(what)?;
            if !(*v > 0.0 && v.is_finite()) {
                return Err(format!("{name}: {what} {v} is not positive"));
            }
        }
    }
    if version >= 15 {
        match r.int("metaEncoderVersion")? {
            0 => {}
            1 => {
                return Err(format!(
                    "{name}: a model that reads SGF metadata (KataGo's human-imitation nets) is not supported"
                ))
            }
            v => return Err(format!("{name}: unknown metaEncoderVersion {v}")),
        }
        match r.int("preferPassAliveUnderSuicideRules")? {
            0 => {}
            1 => {
                return Err(format!(
                    "{name}: a model that wants pass-alive areas computed as if suicide were legal is not supported"
                ))
            }
            v => return Err(format!("{name}: preferPassAliveUnderSuicideRules {v}")),
        }
        r.zeros(&name, 6)?;
    }
    let trunk = trunk(&mut r, version)?;
    let policy = policy_head(&mut r, version, trunk.channels)?;
    let value = value_head(&mut r, version, trunk.channels)?;
    if !r.rest_is_blank() {
        return Err(format!(
            "{name}: {} bytes after the value head",
            bytes.len() - r.p
        ));
    }
    Ok(Model {
        name,
        version,
        multipliers,
        trunk,
        policy,
        value,
    })
}

/// Refuses what tengen does not read, with the reason in one line.
fn check_version(v: i64) -> Result<(), String> {
    match v {
        v if v < 3 => Err(format!(
            "model version {v}: too old even for KataGo (it reads 3 to 17)"
        )),
        3..=7 => Err(format!(
            "model version {v} reads KataGo's V{} input features; tengen computes only the V7 features of model versions 8 to 17",
            match v {
                3 | 4 => 3,
                5 => 4,
                6 => 5,
                _ => 6,
            }
        )),
        v if v > *VERSIONS.end() as i64 => Err(format!(
            "model version {v} is newer than the 8 to 17 tengen reads (KataGo v1.17.2's)"
        )),
        _ => Ok(()),
    }
}

/// The file's bytes and where reading has got to.
struct Reader<'a> {
    d: &'a [u8],
    p: usize,
    /// Convolutions and matrices read so far (their ids).
    layers: usize,
}

impl<'a> Reader<'a> {
    fn skip_space(&mut self) {
        while self.p < self.d.len() && self.d[self.p].is_ascii_whitespace() {
            self.p += 1;
        }
    }

    /// The next whitespace-separated token; `what` names it in errors.
    fn token(&mut self, what: &str) -> Result<&'a str, String> {
        self.skip_space();
        let start = self.p;
        while self.p < self.d.len() && !self.d[self.p].is_ascii_whitespace() {
            self.p += 1;
        }
        if start == self.p {
            return Err(format!("the file ends before {what}"));
        }
        std::str::from_utf8(&self.d[start..self.p])
            .ok()
            .filter(|t| t.bytes().all(|c| c.is_ascii_graphic()))
            .ok_or_else(|| format!("binary bytes where {what} should be (byte {start})"))
    }

    fn int(&mut self, what: &str) -> Result<i64, String> {
        let t = self.token(what)?;
        t.parse()
            .map_err(|_| format!("{what}: expected a whole number, found {t:?}"))
    }

    /// A count of channels or a size: 1 to [`MAX_DIM`].
    fn dim(&mut self, what: &str) -> Result<usize, String> {
        match self.int(what)? {
            n if n >= 1 && n as usize <= MAX_DIM => Ok(n as usize),
            n => Err(format!("{what}: {n} is out of range")),
        }
    }

    /// A 0 or 1 flag.
    fn flag(&mut self, what: &str) -> Result<bool, String> {
        match self.int(what)? {
            0 => Ok(false),
            1 => Ok(true),
            n => Err(format!("{what}: {n} is not 0 or 1")),
        }
    }

    fn float(&mut self, what: &str) -> Result<f32, String> {
        let t = self.token(what)?;
        t.parse()
            .map_err(|_| format!("{what}: expected a number, found {t:?}"))
    }

    /// `n` options that must all be 0 (reserved by KataGo's format).
    fn zeros(&mut self, what: &str, n: usize) -> Result<(), String> {
        for i in 0..n {
            let v = self.int(what)?;
            if v != 0 {
                return Err(format!("{what}: unknown option {i} set to {v}"));
            }
        }
        Ok(())
    }

    /// A layer's name, which must start with `within` (KataGo names a
    /// block's layers after it).
    fn name(&mut self, what: &str) -> Result<String, String> {
        Ok(self.token(what)?.to_string())
    }

    /// `n` weights of layer `name`: `@BIN@` and f32s, a coded tensor
    /// ([`coded`]) or `n` numbers.
    fn floats(&mut self, n: usize, name: &str) -> Result<Vec<f32>, String> {
        self.skip_space();
        let rest = &self.d[self.p..];
        let out = if rest.starts_with(b"@BIN@") {
            let bytes = n
                .checked_mul(4)
                .filter(|&b| b <= rest.len() - 5)
                .ok_or_else(|| format!("{name}: the file ends inside its {n} weights"))?;
            self.p += 5 + bytes;
            rest[5..5 + bytes]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        } else if rest.starts_with(coded::MARK) {
            let (values, used) =
                coded::decode(&rest[coded::MARK.len()..], n).map_err(|e| format!("{name}: {e}"))?;
            self.p += coded::MARK.len() + used;
            values
        } else if rest.first().is_some_and(|c| *c == b'@') {
            return Err(format!("{name}: an unknown kind of weight block"));
        } else {
            // numbers take at least two bytes each
            if n > rest.len() / 2 {
                return Err(format!("{name}: the file ends inside its {n} weights"));
            }
            let mut out = Vec::with_capacity(n);
            for _ in 0..n {
                out.push(self.float(name)?);
            }
            out
        };
        if out.iter().any(|x| !x.is_finite()) {
            return Err(format!("{name}: a weight is not finite"));
        }
        Ok(out)
    }

    /// The next layer's id.
    fn id(&mut self) -> usize {
        self.layers += 1;
        self.layers - 1
    }

    fn rest_is_blank(&mut self) -> bool {
        self.skip_space();
        self.p == self.d.len()
    }
}

fn conv(r: &mut Reader, cin: Option<usize>, cout: Option<usize>) -> Result<Conv, String> {
    let name = r.name("a convolution")?;
    let mut dims = [0; 6];
    for (d, what) in dims
        .iter_mut()
        .zip(["rows", "columns", "in", "out", "dilation", "dilation"])
    {
        *d = r.dim(&format!("{name}: {what}"))?;
    }
    let [ky, kx, ci, co, dy, dx] = dims;
    if ky % 2 == 0 || kx % 2 == 0 || ky > 9 || kx > 9 {
        return Err(format!(
            "{name}: a {ky}x{kx} kernel (odd sizes up to 9 only)"
        ));
    }
    expect(&name, "input channels", ci, cin)?;
    expect(&name, "output channels", co, cout)?;
    let w = r.floats(ky * kx * ci * co, &name)?;
    Ok(Conv {
        name,
        id: r.id(),
        ky,
        kx,
        cin: ci,
        cout: co,
        dilation: (dy, dx),
        w,
    })
}

fn expect(name: &str, what: &str, got: usize, want: Option<usize>) -> Result<(), String> {
    match want {
        Some(w) if w != got => Err(format!("{name}: {got} {what}, expected {w}")),
        _ => Ok(()),
    }
}

fn norm(r: &mut Reader, c: usize) -> Result<Norm, String> {
    let name = r.name("a batch norm")?;
    let n = r.dim(&format!("{name}: channels"))?;
    expect(&name, "channels", n, Some(c))?;
    let eps = r.float(&name)?;
    if !(eps > 0.0 && eps.is_finite()) {
        return Err(format!("{name}: epsilon {eps} is not positive"));
    }
    let (has_scale, has_bias) = (r.flag(&name)?, r.flag(&name)?);
    let mean = r.floats(n, &name)?;
    let var = r.floats(n, &name)?;
    let scale = match has_scale {
        true => r.floats(n, &name)?,
        false => vec![1.0; n],
    };
    let bias = match has_bias {
        true => r.floats(n, &name)?,
        false => vec![0.0; n],
    };
    // KataGo's merged form: scale / sqrt(var + eps), bias - scale * mean
    let merged: Vec<f32> = (0..n).map(|i| scale[i] / (var[i] + eps).sqrt()).collect();
    let bias = (0..n).map(|i| bias[i] - merged[i] * mean[i]).collect();
    Ok(Norm {
        name,
        scale: merged,
        bias,
    })
}

fn act(r: &mut Reader, version: u32) -> Result<Act, String> {
    let name = r.name("an activation")?;
    if version < 11 {
        return Ok(Act::Relu);
    }
    match r.token(&name)? {
        "ACTIVATION_IDENTITY" => Ok(Act::Identity),
        "ACTIVATION_RELU" => Ok(Act::Relu),
        "ACTIVATION_MISH" => Ok(Act::Mish),
        "ACTIVATION_SILU" => Ok(Act::Silu),
        k => Err(format!("{name}: unknown activation {k}")),
    }
}

fn norm_act(r: &mut Reader, c: usize, version: u32) -> Result<(Norm, Act), String> {
    Ok((norm(r, c)?, act(r, version)?))
}

fn matmul(r: &mut Reader, cin: Option<usize>, cout: Option<usize>) -> Result<MatMul, String> {
    let name = r.name("a matrix")?;
    let ci = r.dim(&format!("{name}: in"))?;
    let co = r.dim(&format!("{name}: out"))?;
    expect(&name, "inputs", ci, cin)?;
    expect(&name, "outputs", co, cout)?;
    let w = r.floats(ci * co, &name)?;
    Ok(MatMul {
        name,
        id: r.id(),
        cin: ci,
        cout: co,
        w,
    })
}

fn bias(r: &mut Reader, c: Option<usize>) -> Result<Vec<f32>, String> {
    let name = r.name("a bias")?;
    let n = r.dim(&format!("{name}: channels"))?;
    expect(&name, "channels", n, c)?;
    r.floats(n, &name)
}

fn rms_norm(r: &mut Reader, c: usize) -> Result<RmsNorm, String> {
    let name = r.name("an RMS norm")?;
    expect(&name, "channels", r.dim(&name)?, Some(c))?;
    let epsilon = r.float(&name)?;
    if !(epsilon > 0.0 && epsilon <= 1.0) {
        return Err(format!("{name}: epsilon {epsilon} out of range"));
    }
    let weight = r.floats(c, &name)?;
    Ok(RmsNorm {
        name,
        epsilon,
        weight,
    })
}

/// `n` blocks on `c` channels (KataGo's `parseResidualBlockStack`).
fn blocks(r: &mut Reader, n: usize, c: usize, version: u32) -> Result<Vec<Block>, String> {
    let mut out = Vec::with_capacity(n.min(64));
    for _ in 0..n {
        let kind = r.token("a block kind")?;
        let name = r.name(kind)?;
        let block = match kind {
            "ordinary_block" => {
                let pre = norm_act(r, c, version)?;
                let conv1 = conv(r, Some(c), None)?;
                let mid = norm_act(r, conv1.cout, version)?;
                let conv2 = conv(r, Some(conv1.cout), Some(c))?;
                Block::Ordinary {
                    name,
                    pre,
                    conv1,
                    mid,
                    conv2,
                }
            }
            "gpool_block" => {
                let pre = norm_act(r, c, version)?;
                let conv1 = conv(r, Some(c), None)?;
                let gpool_conv = conv(r, Some(c), None)?;
                let gpool = norm_act(r, gpool_conv.cout, version)?;
                let gpool_mul = matmul(r, Some(3 * gpool_conv.cout), Some(conv1.cout))?;
                let mid = norm_act(r, conv1.cout, version)?;
                let conv2 = conv(r, Some(conv1.cout), Some(c))?;
                Block::GlobalPool {
                    name,
                    pre,
                    conv1,
                    gpool_conv,
                    gpool,
                    gpool_mul,
                    mid,
                    conv2,
                }
            }
            "nested_bottleneck_block" => {
                let inner = r.dim(&format!("{name}: inner blocks"))?;
                let pre = norm_act(r, c, version)?;
                let conv_in = conv(r, Some(c), None)?;
                let blocks = blocks(r, inner, conv_in.cout, version)?;
                let post = norm_act(r, conv_in.cout, version)?;
                let conv_out = conv(r, Some(conv_in.cout), Some(c))?;
                Block::Nested {
                    name,
                    pre,
                    conv_in,
                    blocks,
                    post,
                    conv_out,
                }
            }
            "transformer_attention_block" => Block::Attention {
                attention: Box::new(attention(r, &name, c)?),
                name,
            },
            "transformer_ffn_block" => {
                expect(&name, "channels", r.dim(&name)?, Some(c))?;
                let hidden = r.dim(&name)?;
                if !r.flag(&name)? {
                    return Err(format!(
                        "{name}: a feed-forward block without SwiGLU is not supported (KataGo's CPU backend refuses it too)"
                    ));
                }
                let norm = rms_norm(r, c)?;
                let w1 = matmul(r, Some(c), Some(hidden))?;
                let gate = matmul(r, Some(c), Some(hidden))?;
                let w2 = matmul(r, Some(hidden), Some(c))?;
                Block::Ffn {
                    name,
                    norm,
                    w1,
                    gate,
                    w2,
                }
            }
            k => return Err(format!("{name}: unknown block kind {k}")),
        };
        out.push(block);
    }
    Ok(out)
}

fn attention(r: &mut Reader, name: &str, c: usize) -> Result<Attention, String> {
    let heads = r.dim(name)?;
    let kv_heads = r.dim(name)?;
    let q_dim = r.dim(name)?;
    let v_dim = r.dim(name)?;
    let (use_rope, learnt) = (r.flag(name)?, r.flag(name)?);
    if heads % kv_heads != 0 {
        return Err(format!("{name}: {heads} heads over {kv_heads} key heads"));
    }
    if use_rope && q_dim % 2 != 0 {
        return Err(format!("{name}: rotary embedding needs an even head size"));
    }
    let norm = rms_norm(r, c)?;
    let q = matmul(r, Some(c), Some(heads * q_dim))?;
    let k = matmul(r, Some(c), Some(kv_heads * q_dim))?;
    let v = matmul(r, Some(c), Some(kv_heads * v_dim))?;
    let out = matmul(r, Some(heads * v_dim), Some(c))?;
    let rope = match (use_rope, learnt) {
        (false, _) => Rope::None,
        (true, true) => {
            let freqs = r.name("rope frequencies")?;
            let shape = [r.dim(&freqs)?, r.dim(&freqs)?, r.dim(&freqs)?];
            if shape != [kv_heads, q_dim / 2, 2] {
                return Err(format!("{freqs}: shape {shape:?}"));
            }
            Rope::Learnt(r.floats(kv_heads * q_dim, &freqs)?)
        }
        (true, false) => {
            let what = r.name("rope theta")?;
            let theta = r.float(&what)?;
            if !(theta > 0.0 && theta.is_finite()) {
                return Err(format!("{what}: {theta}"));
            }
            Rope::Theta(theta)
        }
    };
    Ok(Attention {
        heads,
        kv_heads,
        q_dim,
        v_dim,
        norm,
        q,
        k,
        v,
        out,
        rope,
    })
}

fn trunk(r: &mut Reader, version: u32) -> Result<Trunk, String> {
    let name = r.name("the trunk")?;
    let count = r.dim(&format!("{name}: blocks"))?;
    let c = r.dim(&format!("{name}: channels"))?;
    let mut header = [0; 4];
    for (h, what) in header
        .iter_mut()
        .zip(["mid", "regular", "dilated", "gpool"])
    {
        *h = r.dim(&format!("{name}: {what} channels"))?;
    }
    let mut rms_tip = false;
    if version >= 15 {
        rms_tip = match r.int(&name)? {
            0 => false,
            1 => true,
            k => return Err(format!("{name}: unknown trunk norm kind {k}")),
        };
        r.zeros(&name, 5)?;
    }
    let conv = conv(r, Some(super::inputs::SPATIAL), Some(c))?;
    let global = matmul(r, Some(super::inputs::GLOBAL), Some(c))?;
    let blocks = blocks(r, count, c, version)?;
    let tip = if rms_tip {
        let name = r.name("the trunk's RMS norm")?;
        expect(&name, "channels", r.dim(&name)?, Some(c))?;
        let epsilon = r.float(&name)?;
        let spatial = r.flag(&name)?;
        if r.int(&name)? != 0 {
            return Err(format!("{name}: grouped RMS norm is not supported"));
        }
        if !(epsilon > 0.0 && epsilon <= 1.0) {
            return Err(format!("{name}: epsilon {epsilon} out of range"));
        }
        let gamma = r.floats(c, &name)?;
        let beta = r.floats(c, &name)?;
        Tip::Rms {
            name,
            epsilon,
            spatial,
            gamma,
            beta,
        }
    } else {
        Tip::Batch(norm(r, c)?)
    };
    let tip_act = act(r, version)?;
    Ok(Trunk {
        channels: c,
        header,
        conv,
        global,
        blocks,
        tip,
        tip_act,
    })
}

fn policy_head(r: &mut Reader, version: u32, c: usize) -> Result<PolicyHead, String> {
    let name = r.name("the policy head")?;
    let channels = match version {
        17.. => {
            let n = r.dim(&name)?;
            r.zeros(&name, 3)?;
            if n != 2 && n != 4 {
                return Err(format!("{name}: {n} policy channels"));
            }
            n
        }
        16 => 4,
        12.. => 2,
        _ => 1,
    };
    let p1 = conv(r, Some(c), None)?;
    let g1 = conv(r, Some(c), None)?;
    let g1_norm = norm_act(r, g1.cout, version)?;
    let gpool_mul = matmul(r, Some(3 * g1.cout), Some(p1.cout))?;
    let p1_norm = norm_act(r, p1.cout, version)?;
    let p2 = conv(r, Some(p1.cout), Some(channels))?;
    let (pass1, pass2) = if version >= 15 {
        let m1 = matmul(r, Some(3 * g1.cout), Some(p1.cout))?;
        let b = bias(r, Some(p1.cout))?;
        let a = act(r, version)?;
        let m2 = matmul(r, Some(p1.cout), Some(channels))?;
        (m1, Some((b, a, m2)))
    } else {
        (matmul(r, Some(3 * g1.cout), Some(channels))?, None)
    };
    Ok(PolicyHead {
        p1,
        g1,
        g1_norm,
        gpool_mul,
        p1_norm,
        p2,
        pass1,
        pass2,
    })
}

fn value_head(r: &mut Reader, version: u32, c: usize) -> Result<ValueHead, String> {
    let name = r.name("the value head")?;
    if version >= 17 {
        r.zeros(&name, 3)?;
    }
    let v1 = conv(r, Some(c), None)?;
    let v1_norm = norm_act(r, v1.cout, version)?;
    let v2 = matmul(r, Some(3 * v1.cout), None)?;
    let v2_bias = bias(r, Some(v2.cout))?;
    let v2_act = act(r, version)?;
    let v3 = matmul(r, Some(v2.cout), Some(3))?;
    let v3_bias = bias(r, Some(3))?;
    let scores = if version >= 9 { 6 } else { 4 };
    let sv3 = matmul(r, Some(v2.cout), Some(scores))?;
    let sv3_bias = bias(r, Some(scores))?;
    let ownership = conv(r, Some(v1.cout), Some(1))?;
    Ok(ValueHead {
        v1,
        v1_norm,
        v2,
        v2_bias,
        v2_act,
        v3,
        v3_bias,
        sv3,
        sv3_bias,
        ownership,
    })
}
