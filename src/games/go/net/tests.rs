use super::*;
use crate::go::{Cell, Color, Move};

/// Input planes.
const P: usize = planes::PLANES.len();

/// A weight file for `layers` of (kernel, in, out), weights from a fixed
/// pseudo-random sequence in [-1, 1).
fn net_file(layers: &[(usize, usize, usize)], seed: u64) -> Vec<u8> {
    let none = vec![false; layers.len()];
    weight_file(layers, &none, &none, seed)
}

/// The same with each layer's skip and pooled flags, every tensor f32
/// (tag 0; the coded ones have tests of their own in `format_tests.rs`).
pub(super) fn weight_file(
    layers: &[(usize, usize, usize)],
    skips: &[bool],
    pooled: &[bool],
    seed: u64,
) -> Vec<u8> {
    let mut s = seed;
    let mut real = move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    };
    let mut out = MAGIC.to_vec();
    out.extend((layers.len() as u32).to_le_bytes());
    for (l, &(k, cin, cout)) in layers.iter().enumerate() {
        for v in [k, cin, cout, skips[l] as usize, pooled[l] as usize] {
            out.extend((v as u32).to_le_bytes());
        }
        let matrix = if pooled[l] { 2 * cin * cout } else { 0 };
        for n in [k * k * cin * cout, cout, matrix] {
            if n > 0 {
                out.extend(0u32.to_le_bytes());
                (0..n).for_each(|_| out.extend(real().to_le_bytes()));
            }
        }
    }
    out
}

/// The same convolutions written the obvious way, point by point, with
/// the board's edge as zeros.
fn reference(net: &Net, planes: &[u8], w: usize, h: usize) -> Vec<f32> {
    let mut x: Vec<Vec<f32>> = planes
        .chunks(w * h)
        .map(|p| p.iter().map(|&v| v as f32).collect())
        .collect();
    let mut inputs = Vec::new();
    for (l, layer) in net.layers.iter().enumerate() {
        inputs.push(x.clone());
        let (k, cin, cout) = (layer.k as i64, layer.cin, layer.cout);
        let mut y = vec![vec![0.0f32; w * h]; cout];
        for (o, out) in y.iter_mut().enumerate() {
            let mut bias = layer.b[o];
            if !layer.pooled.is_empty() {
                for (i, plane) in x.iter().enumerate().take(cin) {
                    let mean = plane.iter().sum::<f32>() / (w * h) as f32;
                    let max = plane.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                    bias += mean * layer.pooled[i * cout + o]
                        + max * layer.pooled[(cin + i) * cout + o];
                }
            }
            for py in 0..h as i64 {
                for px in 0..w as i64 {
                    let mut sum = bias;
                    for ky in 0..k {
                        for kx in 0..k {
                            let (sy, sx) = (py + ky - k / 2, px + kx - k / 2);
                            if sy < 0 || sx < 0 || sy >= h as i64 || sx >= w as i64 {
                                continue;
                            }
                            for (i, plane) in x.iter().enumerate().take(cin) {
                                let wi = (((ky * k + kx) as usize * cin) + i) * cout + o;
                                sum += layer.w[wi] * plane[(sy * w as i64 + sx) as usize];
                            }
                        }
                    }
                    if layer.skip {
                        sum += inputs[l - 1][o][(py * w as i64 + px) as usize];
                    }
                    let last = l + 1 == net.layers.len();
                    out[(py * w as i64 + px) as usize] = if last { sum } else { sum.max(0.0) };
                }
            }
        }
        x = y;
    }
    x.remove(0)
}

fn close(a: f32, b: f32, tolerance: f32) -> bool {
    (a - b).abs() <= tolerance * a.abs().max(b.abs()).max(1.0)
}

/// The logits of `net` for `planes`, after checking them against the
/// point-by-point reference.
fn matches_reference(net: &Net, planes: &[u8], w: usize, h: usize) -> Vec<f32> {
    let (fast, slow) = (
        net.logits_by(Path::Float, planes, w, h),
        reference(net, planes, w, h),
    );
    for (i, (f, s)) in fast.iter().zip(&slow).enumerate() {
        assert!(close(*f, *s, 1e-4), "point {i}: {f} against {s}");
    }
    fast
}

#[test]
fn inference_agrees_with_convolutions_written_point_by_point() {
    // a board wider than high, kernels of every size the reader takes
    let net = Net::from_bytes(&net_file(&[(5, P, 6), (3, 6, 7), (1, 7, 4), (3, 4, 1)], 7)).unwrap();
    let mut b = Board::from_ascii(
        ". X O . . . .
         X O . O X . .
         . X O X . . O
         . . . . X . .",
    )
    .unwrap();
    b.play(Move::Play(b.point(4, 0))).unwrap();
    let planes = planes::encode(&b);
    let fast = matches_reference(&net, &planes, 7, 4);
    assert_eq!(fast.len(), 28);
    // the buffers are reused: a second, different board must not see the first
    let other = Board::new(5, 5);
    let planes = planes::encode(&other);
    assert_eq!(
        net.logits_by(Path::Float, &planes, 5, 5),
        reference(&net, &planes, 5, 5)
    );
}

#[test]
fn residual_blocks_agree_with_the_reference() {
    // a first layer, two blocks of two (the second of each skips), a head
    let layers = [
        (5, P, 6),
        (3, 6, 6),
        (3, 6, 6),
        (1, 6, 6),
        (3, 6, 6),
        (1, 6, 1),
    ];
    let skips = [false, false, true, false, true, false];
    let net = Net::from_bytes(&weight_file(&layers, &skips, &[false; 6], 3)).unwrap();
    let plain = Net::from_bytes(&net_file(&layers, 3)).unwrap();
    let mut b = Board::new(6, 5);
    for (x, y) in [(1, 1), (2, 1), (4, 3)] {
        b.play(Move::Play(b.point(x, y))).unwrap();
    }
    let planes = planes::encode(&b);
    let fast = matches_reference(&net, &planes, 6, 5);
    // the skips change the answer: the flags are read, not ignored
    assert_ne!(fast, plain.logits_by(Path::Float, &planes, 6, 5));
}

#[test]
fn pooled_layers_agree_with_the_reference() {
    // blocks whose second layer takes the pooled bias, and a pooled 1x1
    // layer in the head, as train.py --pooled builds them
    let layers = [
        (5, P, 6),
        (3, 6, 6),
        (3, 6, 6),
        (3, 6, 6),
        (3, 6, 6),
        (1, 6, 6),
        (1, 6, 1),
    ];
    let skips = [false, false, true, false, true, false, false];
    let pooled = [false, false, true, false, true, true, false];
    let net = Net::from_bytes(&weight_file(&layers, &skips, &pooled, 9)).unwrap();
    let mut b = Board::new(7, 6);
    for (x, y) in [(1, 1), (2, 1), (4, 3), (5, 5)] {
        b.play(Move::Play(b.point(x, y))).unwrap();
    }
    let planes = planes::encode(&b);
    let fast = matches_reference(&net, &planes, 7, 6);
    // the matrices change the answer: the same weights without them differ
    let none = [false; 7];
    let unpooled = weight_file(&layers, &skips, &none, 9);
    assert_ne!(
        fast,
        Net::from_bytes(&unpooled)
            .unwrap()
            .logits_by(Path::Float, &planes, 7, 6)
    );
}

#[test]
fn layers_of_16_and_32_channels_agree_with_the_reference() {
    // wide enough for the vector kernel where the CPU has one (several
    // output chunks, a skip, a pooled bias), on boards of every width
    // from 1 to 13: full blocks of points and every partial one
    let layers = [
        (3, P, 16),
        (3, 16, 32),
        (3, 32, 32),
        (3, 32, 32),
        (1, 32, 16),
        (1, 16, 1),
    ];
    let skips = [false, false, false, true, false, false];
    let pooled = [false, false, false, true, false, false];
    let net = Net::from_bytes(&weight_file(&layers, &skips, &pooled, 11)).unwrap();
    // the 3x3 layers with inputs in eights go through Winograd's
    // transform where the CPU can: both ways are checked here
    #[cfg(target_arch = "x86_64")]
    {
        let avx = avx::usable();
        let wino: Vec<bool> = net.layers.iter().map(|l| !l.wino.is_empty()).collect();
        let want: Vec<bool> = layers
            .iter()
            .map(|&(k, cin, _)| avx && k == 3 && cin % 8 == 0)
            .collect();
        assert_eq!(wino, want);
        assert_eq!(&wino[1..4], [avx; 3]);
    }
    for w in 1..=13 {
        let h = 3 + w % 4;
        let mut b = Board::new(w, h);
        for i in (0..w * h).step_by(3) {
            let _ = b.play(Move::Play(b.point(i % w, i / w)));
        }
        let fast = matches_reference(&net, &planes::encode(&b), w, h);
        assert_eq!(fast.len(), w * h);
    }
}

#[test]
fn a_pooled_last_layer_is_refused() {
    let layers = [(3, P, 4), (1, 4, 1)];
    let file = weight_file(&layers, &[false, false], &[false, true], 1);
    let err = Net::from_bytes(&file).err().unwrap();
    assert!(err.contains("last layer"), "{err}");
}

/// Checks that `net` gives the logits its trainer computed for the check
/// positions `tools/teacher/export.py` wrote beside it.
fn agrees_with_its_trainer(net: &Net, check: &str) {
    let mut checked = 0;
    for line in check.lines() {
        // planes, logits, then with a value head the side to move and
        // the head's win logit and lead
        let fields: Vec<&str> = line.split(' ').collect();
        let (hex, logits) = (fields[0], fields[1]);
        let bits: Vec<u8> = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        let planes: Vec<u8> = (0..planes::PLANES.len() * 361)
            .map(|i| (bits[i / 8] >> (i % 8)) & 1)
            .collect();
        let want: Vec<f32> = logits.split(',').map(|v| v.parse().unwrap()).collect();
        let side = match fields.get(2) {
            Some(&"w") => Color::White,
            _ => Color::Black,
        };
        // the float path: the 8-bit ones are held to it apart (tests_int8.rs)
        let (got, value) = net.forward_by(Path::Float, &planes, 19, 19, Some(side));
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                close(*g, *w, 1e-3),
                "position {checked}, point {i}: {g} against {w}"
            );
        }
        assert_eq!(
            value.is_some(),
            fields.len() > 2,
            "a value head iff values to check"
        );
        if let (Some(v), Some(outs)) = (value, fields.get(3)) {
            let want: Vec<f32> = outs.split(',').map(|v| v.parse().unwrap()).collect();
            let logit = value::ValueHead::logit(v);
            assert!(
                close(logit, want[0], 2e-3),
                "position {checked}: win logit {logit} against {}",
                want[0]
            );
            assert!(
                close(v.lead, want[1], 2e-2),
                "position {checked}: lead {} against {}",
                v.lead,
                want[1]
            );
        }
        checked += 1;
    }
    assert!(checked >= 2);
}

/// A value section appended to a policy file is read, reads the layer it
/// names, and is refused where that layer has other channels.
#[test]
fn a_value_section_rides_after_the_layers() {
    let policy = include_bytes!("tiny-pooled/policy.net").to_vec();
    let net = Net::from_bytes(&policy).unwrap();
    assert!(!net.has_value());
    let tap = net.layers.len() - 3;
    let c = net.layers[tap].cout;
    let section = |c: usize| {
        let mut b = value::MAGIC.to_vec();
        for d in [tap, c, 2, 3, 1, 2] {
            b.extend((d as u32).to_le_bytes());
        }
        let n = c * 2 + 2 + 5 * 3 + 3 + 3 * 2 + 2;
        for i in 0..n {
            b.extend((((i * 7919) % 13) as f32 / 13.0 - 0.4).to_le_bytes());
        }
        b
    };
    let net = Net::from_bytes(&[policy.clone(), section(c)].concat()).unwrap();
    assert!(net.has_value());
    let mut b = Board::new(19, 19);
    b.play(Move::Play(b.point(3, 3))).unwrap();
    let (policy_now, value) = net.evaluate(&b);
    let v = value.expect("a value");
    assert!(v.win > 0.0 && v.win < 1.0 && v.lead.is_finite());
    // the head does not change the policy
    assert_eq!(policy_now, Net::from_bytes(&policy).unwrap().policy(&b));
    // White to move is an input of its own
    b.play(Move::Pass).unwrap();
    assert_ne!(net.evaluate(&b).1, Some(v));
    // every path reads the head, near what float reads
    let bytes = [policy.clone(), section(c)].concat();
    let on = |p: Path| Net::from_bytes(&bytes).unwrap().with_path(p).evaluate(&b).1;
    let float = on(Path::Float).expect("a value");
    for p in Path::ALL.into_iter().filter(|p| p.runs_here()) {
        let v = on(p).expect("a value on every path");
        let near = (v.win - float.win).abs() < 0.02 && (v.lead - float.lead).abs() < 0.5;
        assert!(near, "{p}: {v:?}, float {float:?}");
    }
    let wrong = [policy, section(c + 1)].concat();
    let refused = Net::from_bytes(&wrong).err().expect("refused");
    assert!(refused.contains("channels"), "{refused}");
}

#[test]
fn the_builtin_network_agrees_with_its_trainer() {
    agrees_with_its_trainer(
        &Net::from_bytes(super::BUILTIN).unwrap(),
        include_str!("check.txt"),
    );
}

/// A tiny residual net trained and exported by the tools (a first layer,
/// one block of two, the head), whose skip changes its logits by up to
/// 0.17: the bot adds the same input as the trainer.
#[test]
fn a_residual_network_agrees_with_its_trainer() {
    let net = Net::from_bytes(include_bytes!("tiny-residual/policy.net")).unwrap();
    assert_eq!(
        net.layers.iter().map(|l| l.skip).collect::<Vec<_>>(),
        [false, false, true, false]
    );
    agrees_with_its_trainer(&net, include_str!("tiny-residual/check.txt"));
}

/// A tiny pooled net exported by the tools (a first layer, two blocks whose
/// second layer is pooled, a pooled 1x1 head layer). Its pooled matrices
/// were set large (normal, sd 0.05) before the export, so pooling moves its
/// logits by 0.15 on average: the bot pools as the trainer does.
#[test]
fn a_pooled_network_agrees_with_its_trainer() {
    let net = Net::from_bytes(include_bytes!("tiny-pooled/policy.net")).unwrap();
    assert_eq!(
        net.layers
            .iter()
            .map(|l| !l.pooled.is_empty())
            .collect::<Vec<_>>(),
        [false, false, true, false, true, true, false]
    );
    agrees_with_its_trainer(&net, include_str!("tiny-pooled/check.txt"));
}

#[test]
fn the_policy_covers_the_sensible_moves_only() {
    // black's eye at (0, 0) is no move for black; (4, 4) is white's eye,
    // suicide for black
    let b = Board::from_ascii(
        ". X . . .
         X X . . .
         . . . . .
         . . . O O
         . . . O .",
    )
    .unwrap();
    assert_eq!(b.to_move(), Color::Black);
    let policy = Net::active().policy(&b);
    let total: f32 = policy.iter().map(|m| m.1).sum();
    assert!(close(total, 1.0, 1e-5), "{total}");
    let empty = b.empty_points().len();
    assert_eq!(policy.len(), empty - 2);
    for &(p, prob) in &policy {
        assert_eq!(b.at(p), Cell::Empty);
        assert!(b.is_sensible(Color::Black, p) && prob > 0.0);
    }
}

#[test]
fn a_bad_weight_file_is_refused_with_its_reason() {
    let good = net_file(&[(3, P, 4), (1, 4, 1)], 1);
    assert!(Net::from_bytes(&good).is_ok());
    let refused = |bytes: &[u8], why: &str| {
        let e = Net::from_bytes(bytes).err().expect("refused");
        assert!(e.contains(why), "{e}");
    };
    // an older format, or none: the message says what the file should be
    let mut old = good.clone();
    old[..8].copy_from_slice(b"TGPOLNN3");
    refused(&old, "expected a TGPOLNN5 weight file");
    refused(b"TGPOL", "expected a TGPOLNN5 weight file");
    refused(&good[..good.len() - 4], "ends early");
    refused(&good[..good.len() - 1], "whole words");
    refused(&[&good[..], &[0; 4]].concat(), "left after");
    refused(&net_file(&[(3, P - 1, 4), (1, 4, 1)], 1), "19 in");
    refused(&net_file(&[(2, P, 4), (1, 4, 1)], 1), "odd kernel");
    refused(&net_file(&[(3, P, 4), (1, 4, 2)], 1), "one output");
    let skipping = |skips: &[bool]| {
        let layers = [(3, P, 4), (3, 4, 4), (3, 4, 4), (1, 4, 1)];
        weight_file(&layers, skips, &[false; 4], 1)
    };
    assert!(Net::from_bytes(&skipping(&[false, false, true, false])).is_ok());
    // the first layer's input is the planes, not a block's
    refused(&skipping(&[false, true, false, false]), "skips over");
    refused(&skipping(&[true, false, false, false]), "skips over");
    let widening = [(3, P, 4), (3, 4, 4), (3, 4, 6), (1, 6, 1)];
    refused(
        &weight_file(&widening, &[false, false, true, false], &[false; 4], 1),
        "not its 6",
    );
    let narrow = [(3, P, 1), (1, 1, 1), (1, 1, 1)];
    refused(
        &weight_file(&narrow, &[false, false, true], &[false; 3], 1),
        "no skip",
    );
    // the head's last weight: its bias's tag and value follow
    let mut nan = good.clone();
    let at = nan.len() - 12;
    nan[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    refused(&nan, "not finite");
}

/// Under the Riddles.io 1.0.3 rule (a stone needs an empty neighbour after
/// its captures) a point the referee refuses gets no probability.
#[test]
fn the_policy_never_offers_a_point_the_rules_refuse() {
    use crate::go::Legality;
    // (1, 1): a false eye; filling it keeps liberties but leaves the stone
    // no empty neighbour
    let mut b = Board::from_ascii(
        ". X O . .
         X . X O .
         . X O . .
         . . . . .
         . . . . .",
    )
    .unwrap();
    let fill = b.point(1, 1);
    let offered = |b: &Board| Net::active().policy(b).iter().any(|m| m.0 == fill);
    assert!(offered(&b));
    b.set_legality(Legality::EmptyNeighbour);
    assert!(!offered(&b));
    assert!(!Net::active().policy(&b).is_empty());
}
