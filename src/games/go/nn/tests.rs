//! Small models of every kind KataGo's files hold, with random weights:
//! the reader against the writer, bad files, and the evaluation's
//! invariants. (Exactness against KataGo itself: `tests/katago.rs`.)

use super::desc::*;
use super::inputs::Position;
use super::write::{self, Weights};
use super::{read, Network};
use crate::go::{Board, Color};

/// Deterministic numbers in [-1, 1).
pub struct Numbers(u64);

impl Numbers {
    pub fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
    fn vec(&mut self, n: usize, scale: f32) -> Vec<f32> {
        (0..n).map(|_| self.next() * scale).collect()
    }
}

/// The largest `|a - b|` over the pairs; a NaN on either side is as far
/// off as can be (`f32::max` alone would pass over it).
pub fn largest_gap(a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(a, b)| match (a - b).abs() {
            d if d.is_nan() => f32::INFINITY,
            d => d,
        })
        .fold(0.0, f32::max)
}

/// A builder of layers with fresh ids and random weights.
pub struct Build {
    pub r: Numbers,
    id: usize,
}

impl Build {
    pub fn new(seed: u64) -> Build {
        Build {
            r: Numbers(seed),
            id: 0,
        }
    }
    fn id(&mut self) -> usize {
        self.id += 1;
        self.id - 1
    }
    pub fn conv(&mut self, name: &str, k: usize, cin: usize, cout: usize) -> Conv {
        let scale = 1.5 / ((k * k * cin) as f32).sqrt();
        Conv {
            name: name.into(),
            id: self.id(),
            ky: k,
            kx: k,
            cin,
            cout,
            dilation: (1, 1),
            w: self.r.vec(k * k * cin * cout, scale),
        }
    }
    pub fn mm(&mut self, name: &str, cin: usize, cout: usize) -> MatMul {
        MatMul {
            name: name.into(),
            id: self.id(),
            cin,
            cout,
            w: self.r.vec(cin * cout, 1.5 / (cin as f32).sqrt()),
        }
    }
    pub fn norm(&mut self, name: &str, c: usize, act: Act) -> (Norm, Act) {
        let scale = (0..c).map(|_| 0.8 + 0.4 * self.r.next()).collect();
        let n = Norm {
            name: name.into(),
            scale,
            bias: self.r.vec(c, 0.3),
        };
        (n, act)
    }
    pub fn rms(&mut self, name: &str, c: usize) -> RmsNorm {
        RmsNorm {
            name: name.into(),
            epsilon: 1e-6,
            weight: (0..c).map(|_| 0.9 + 0.2 * self.r.next()).collect(),
        }
    }
    pub fn ordinary(&mut self, name: &str, c: usize, act: Act) -> Block {
        Block::Ordinary {
            name: name.into(),
            pre: self.norm(&format!("{name}.norm1"), c, act),
            conv1: self.conv(&format!("{name}.conv1"), 3, c, c),
            mid: self.norm(&format!("{name}.norm2"), c, act),
            conv2: self.conv(&format!("{name}.conv2"), 3, c, c),
        }
    }
    pub fn gpool(&mut self, name: &str, c: usize, act: Act) -> Block {
        let (r, g) = (c - c / 4, c / 4);
        Block::GlobalPool {
            name: name.into(),
            pre: self.norm(&format!("{name}.norm1"), c, act),
            conv1: self.conv(&format!("{name}.conv1"), 3, c, r),
            gpool_conv: self.conv(&format!("{name}.convg"), 3, c, g),
            gpool: self.norm(&format!("{name}.normg"), g, act),
            gpool_mul: self.mm(&format!("{name}.gmul"), 3 * g, r),
            mid: self.norm(&format!("{name}.norm2"), r, act),
            conv2: self.conv(&format!("{name}.conv2"), 3, r, c),
        }
    }
    pub fn nested(
        &mut self,
        name: &str,
        c: usize,
        mid: usize,
        inner: Vec<Block>,
        act: Act,
    ) -> Block {
        Block::Nested {
            name: name.into(),
            pre: self.norm(&format!("{name}.normin"), c, act),
            conv_in: self.conv(&format!("{name}.convin"), 1, c, mid),
            blocks: inner,
            post: self.norm(&format!("{name}.normout"), mid, act),
            conv_out: self.conv(&format!("{name}.convout"), 1, mid, c),
        }
    }
    pub fn attention(&mut self, name: &str, c: usize, heads: usize, dim: usize) -> Block {
        let attention = Attention {
            heads,
            kv_heads: heads,
            q_dim: dim,
            v_dim: dim,
            norm: self.rms(&format!("{name}.norm"), c),
            q: self.mm(&format!("{name}.q"), c, heads * dim),
            k: self.mm(&format!("{name}.k"), c, heads * dim),
            v: self.mm(&format!("{name}.v"), c, heads * dim),
            out: self.mm(&format!("{name}.out"), heads * dim, c),
            rope: Rope::Learnt(self.r.vec(heads * dim, 0.5)),
        };
        Block::Attention {
            name: name.into(),
            attention: Box::new(attention),
        }
    }
    pub fn ffn(&mut self, name: &str, c: usize, hidden: usize) -> Block {
        Block::Ffn {
            name: name.into(),
            norm: self.rms(&format!("{name}.norm"), c),
            w1: self.mm(&format!("{name}.w1"), c, hidden),
            gate: self.mm(&format!("{name}.gate"), c, hidden),
            w2: self.mm(&format!("{name}.w2"), hidden, c),
        }
    }

    /// A whole model of `version` on `blocks` with `c` channels.
    pub fn model(&mut self, version: u32, c: usize, blocks: Vec<Block>, act: Act) -> Model {
        let policy_channels = match version {
            17.. | 16 => 4,
            12.. => 2,
            _ => 1,
        };
        let tip = if version >= 15 {
            Tip::Rms {
                name: "trunk.norm".into(),
                epsilon: 1e-6,
                spatial: false,
                gamma: (0..c).map(|_| 1.0 + 0.1 * self.r.next()).collect(),
                beta: self.r.vec(c, 0.1),
            }
        } else {
            Tip::Batch(self.norm("trunk.norm", c, act).0)
        };
        let (pc, vc) = (8, 8);
        Model {
            name: format!("tiny-v{version}"),
            version,
            multipliers: Multipliers::default(),
            trunk: Trunk {
                channels: c,
                header: [c, c, c / 4, c / 4],
                conv: self.conv("conv1", 5, super::inputs::SPATIAL, c),
                global: self.mm("ginput", super::inputs::GLOBAL, c),
                blocks,
                tip,
                tip_act: act,
            },
            policy: PolicyHead {
                p1: self.conv("p1", 1, c, pc),
                g1: self.conv("g1", 1, c, pc),
                g1_norm: self.norm("g1norm", pc, act),
                gpool_mul: self.mm("gmul", 3 * pc, pc),
                p1_norm: self.norm("p1norm", pc, act),
                p2: self.conv("p2", 1, pc, policy_channels),
                pass1: if version >= 15 {
                    self.mm("pass1", 3 * pc, pc)
                } else {
                    self.mm("pass1", 3 * pc, policy_channels)
                },
                pass2: (version >= 15).then(|| {
                    let b = self.r.vec(pc, 0.1);
                    (b, act, self.mm("pass2", pc, policy_channels))
                }),
            },
            value: ValueHead {
                v1: self.conv("v1", 1, c, vc),
                v1_norm: self.norm("v1norm", vc, act),
                v2: self.mm("v2", 3 * vc, 16),
                v2_bias: self.r.vec(16, 0.1),
                v2_act: act,
                v3: self.mm("v3", 16, 3),
                v3_bias: self.r.vec(3, 0.1),
                sv3: self.mm("sv3", 16, if version >= 9 { 6 } else { 4 }),
                sv3_bias: self.r.vec(if version >= 9 { 6 } else { 4 }, 0.1),
                ownership: self.conv("own", 1, vc, 1),
            },
        }
    }
}

/// One tiny model of each generation: g170's ReLU convnet (version 8),
/// a nested-bottleneck Mish net (14), an nbt transformer with SiLU (15)
/// and a version 17 with four policy channels.
pub fn tiny_models() -> Vec<Model> {
    let mut b = Build::new(7);
    let v8 = {
        let blocks = vec![
            b.ordinary("b0", 16, Act::Relu),
            b.gpool("b1", 16, Act::Relu),
        ];
        b.model(8, 16, blocks, Act::Relu)
    };
    let v14 = {
        let inner = vec![
            b.ordinary("b0.i0", 8, Act::Mish),
            b.gpool("b0.i1", 8, Act::Mish),
        ];
        let blocks = vec![
            b.nested("b0", 16, 8, inner, Act::Mish),
            b.ordinary("b1", 16, Act::Mish),
        ];
        b.model(14, 16, blocks, Act::Mish)
    };
    let transformer = |b: &mut Build, version| {
        let inner = vec![b.attention("b0.att", 8, 2, 4), b.ffn("b0.ffn", 8, 12)];
        let blocks = vec![b.nested("b0", 16, 8, inner, Act::Silu)];
        b.model(version, 16, blocks, Act::Silu)
    };
    let v15 = transformer(&mut b, 15);
    let v17 = transformer(&mut b, 17);
    vec![v8, v14, v15, v17]
}

fn position(board: &Board) -> Position<'_> {
    Position {
        board,
        pla: Color::Black,
        moves: &[],
        recent: [None, None],
        seen: None,
        komi: 7.5,
        pass_ends: false,
        over: false,
    }
}

#[test]
fn written_models_read_back_the_same() {
    for m in tiny_models() {
        let bytes = write::model(&m, Weights::Plain);
        let back = read::model(&bytes).unwrap_or_else(|e| panic!("{}: {e}", m.name));
        assert_eq!(write::model(&back, Weights::Plain), bytes, "{}", m.name);
        assert_eq!(back.parameters(), m.parameters());
        let board = Board::new(9, 9);
        let (a, b) = (Network::new(m), Network::new(back));
        assert_eq!(
            a.evaluate(&position(&board), 0.0),
            b.evaluate(&position(&board), 0.0)
        );
    }
}

#[test]
fn evaluations_are_distributions() {
    for m in tiny_models() {
        let net = Network::new(m);
        for size in [5, 9, 19] {
            let board = Board::new(size, size);
            let e = net.evaluate(&position(&board), 0.2);
            let total: f32 = e.policy.iter().filter(|&&p| p >= 0.0).sum();
            assert!(
                (total - 1.0).abs() < 1e-4,
                "{}: policy sums to {total}",
                net.model().name
            );
            assert!((e.white_win + e.white_loss - 1.0).abs() < 1e-5);
            assert_eq!(e.white_ownership.len(), size * size);
            assert!(e.white_ownership.iter().all(|o| o.abs() <= 1.0));
            assert!(e.white_lead.is_finite() && e.white_score_sq >= 0.0);
        }
    }
}

#[test]
fn coded_models_are_smaller_and_evaluate_close() {
    for m in tiny_models() {
        let plain = write::model(&m, Weights::Plain);
        let coded = write::model(&m, Weights::Coded { top: 127 });
        // tiny models are mostly norms and biases, which stay plain
        assert!(
            coded.len() * 5 < plain.len() * 3,
            "{}: {} against {}",
            m.name,
            coded.len(),
            plain.len()
        );
        let back = read::model(&coded).unwrap();
        let board = Board::new(19, 19);
        let (a, b) = (Network::new(m), Network::new(back));
        let (x, y) = (
            a.evaluate(&position(&board), 0.0),
            b.evaluate(&position(&board), 0.0),
        );
        assert!(
            (x.white_win - y.white_win).abs() < 0.02,
            "{} against {}",
            x.white_win,
            y.white_win
        );
        let most = largest_gap(&x.policy, &y.policy);
        assert!(most < 0.02, "{}: policy moved by {most}", a.model().name);
    }
}

#[test]
fn damaged_files_are_errors_not_panics() {
    for m in tiny_models() {
        for weights in [Weights::Plain, Weights::Coded { top: 127 }] {
            let bytes = write::model(&m, weights);
            // every cut short of the end fails
            let step = (bytes.len() / 300).max(1);
            for cut in (0..bytes.len() - 1).step_by(step) {
                assert!(
                    read::model(&bytes[..cut]).is_err(),
                    "{}: read when cut at {cut}",
                    m.name
                );
            }
            // a flipped byte fails or reads some model: never a panic
            for at in (0..bytes.len()).step_by(step) {
                let mut bad = bytes.clone();
                bad[at] ^= 0x24;
                let _ = read::model(&bad);
            }
        }
    }
    assert!(read::model(b"PK\x03\x04 a zip file").is_err());
    assert!(read::model(&[]).is_err());
}

#[test]
fn unsupported_versions_are_refused_in_one_line() {
    let m = &tiny_models()[0];
    let text = write::model(m, Weights::Plain);
    let with_version = |v: &str| {
        let mut t = format!("{} {v}", m.name).into_bytes();
        t.extend(&text[m.name.len() + 2..]);
        t
    };
    for (v, needle) in [
        ("5", "V4 input features"),
        ("7", "V6"),
        ("2", "too old"),
        ("18", "newer"),
    ] {
        let e = read::model(&with_version(v)).unwrap_err();
        assert!(e.contains(needle) && !e.contains('\n'), "version {v}: {e}");
    }
}

/// The tiny models' files, which KataGo's answers in `tests/katago.rs`
/// were made with: they must be what [`tiny_models`] builds (write them
/// anew with `TENGEN_WRITE_FIXTURES=1`, then remake the answers).
#[test]
fn tiny_model_files_are_current() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/katago");
    for m in tiny_models() {
        let path = dir.join(format!("{}.bin", m.name));
        let bytes = write::model(&m, Weights::Plain);
        if std::env::var_os("TENGEN_WRITE_FIXTURES").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &bytes).unwrap();
        }
        let kept = std::fs::read(&path).unwrap_or_default();
        assert!(
            kept == bytes,
            "{} is not what tiny_models() builds",
            path.display()
        );
    }
}

#[test]
fn models_with_inputs_tengen_lacks_are_refused_in_one_line() {
    let m = &tiny_models()[2];
    assert_eq!(m.version, 15);
    let bytes = write::model(m, Weights::Plain);
    // the v15 header's fourth line: the metadata encoder's version, the
    // pass-alive flag and 6 options (after name, inputs, multipliers)
    let line = |k| bytes.split(|&b| b == b'\n').nth(k).unwrap();
    let options = b"0 0 0 0 0 0 0 0";
    assert_eq!(line(3), options);
    let at = bytes
        .windows(options.len())
        .position(|w| w == options)
        .unwrap();
    for (bad, needle) in [
        (b"1 0 0 0 0 0 0 0", "SGF metadata"),
        (b"0 1 0 0 0 0 0 0", "as if suicide were legal"),
        (b"0 0 0 1 0 0 0 0", "unknown option"),
    ] {
        let mut changed = bytes.clone();
        changed[at..at + options.len()].copy_from_slice(bad);
        let e = read::model(&changed).unwrap_err();
        assert!(e.contains(needle) && !e.contains('\n'), "{e}");
    }
}

#[test]
fn scratch_slices_start_on_cache_lines_and_keep_what_they_held() {
    use super::forward::sized;
    let mut buf: Vec<f32> = Vec::new();
    let s = sized(&mut buf, 10);
    assert_eq!(s.as_ptr() as usize % 64, 0);
    s.iter_mut().enumerate().for_each(|(i, v)| *v = i as f32);
    // grown many times (moved, to other alignments), it keeps its values
    for n in [1000, 5000, 100_000] {
        let s = sized(&mut buf, n);
        assert_eq!(s.as_ptr() as usize % 64, 0);
        assert_eq!(s.len(), n);
        assert!((0..10).all(|i| s[i] == i as f32), "lost on growing to {n}");
    }
    let mut bytes: Vec<u16> = vec![7; 3];
    assert_eq!(sized(&mut bytes, 33).as_ptr() as usize % 64, 0);
}
