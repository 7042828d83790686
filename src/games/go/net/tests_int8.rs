//! The 8-bit paths: every kernel against the integer reference (the same
//! sums, so the same logits to the bit), and the integers against float.

use super::tests::weight_file;
use super::*;
use crate::go::Move;
use calibrate::Calibration;

/// Input planes.
const P: usize = planes::PLANES.len();

/// A board `w` x `h` with stones on a third of its points.
fn board(w: usize, h: usize) -> Board {
    let mut b = Board::new(w, h);
    for i in (0..w * h).step_by(3) {
        let _ = b.play(Move::Play(b.point(i % w, i / w)));
    }
    b
}

/// The 8-bit paths this CPU runs, the reference last.
fn int8_paths() -> Vec<Path> {
    Path::ALL
        .into_iter()
        .filter(|p| p.is_int8() && p.runs_here())
        .collect()
}

#[test]
fn every_int8_kernel_computes_the_reference_sums() {
    // output channels in 64s, 32s and 16s (each kernel's blocks), 5x5,
    // 3x3 and 1x1 kernels, inputs not in fours, a skip, pooled biases
    let layers = [
        (5, P, 48),
        (3, 48, 64),
        (3, 64, 64),
        (3, 64, 64),
        (1, 64, 32),
        (3, 32, 16),
        (1, 16, 1),
    ];
    let skips = [false, false, false, true, false, false, false];
    let pooled = [false, false, false, true, true, false, false];
    let net = Net::from_bytes(&weight_file(&layers, &skips, &pooled, 21)).unwrap();
    let paths = int8_paths();
    assert!(paths.contains(&Path::Int8Scalar));
    // AVX2's codes go up to 127, not 255: its reference is the scalar
    // kernel on those codes
    let q127 = int8::Quantised::new(&net, net.calibration(), 127);
    // the kernels sum classes apart: some layer has several
    assert!(q127.most_classes() > 1);
    let mut buffers = int8::Buffers::default();
    for w in 1..=19 {
        let h = [19, 1, 7, w][w % 4];
        let planes = planes::encode(&board(w, h));
        let want = net.logits_by(Path::Int8Scalar, &planes, w, h);
        let want127 = int8::run(
            &net,
            &q127,
            Path::Int8Scalar,
            &planes,
            (w, h),
            &mut buffers,
            &mut |_, _, _| {},
        );
        assert_eq!(want.len(), w * h);
        assert_ne!(want, want127);
        for &p in &paths {
            let want = if int8::top(p) == 127 { &want127 } else { &want };
            assert_eq!(&net.logits_by(p, &planes, w, h), want, "{p} on {w}x{h}");
        }
        // and not by chance: the float net differs from the integers
        assert_ne!(net.logits_by(Path::Float, &planes, w, h), *want);
    }
}

/// `net` with its weights rounded as an int8 file's are (its largest at
/// 127 an output channel): the 8-bit paths then use them exactly.
fn int8_weights(mut net: Net) -> Net {
    for l in &mut net.layers {
        let cout = l.cout;
        let mut scale = vec![0f32; cout];
        for (i, &w) in l.w.iter().enumerate() {
            scale[i % cout] = scale[i % cout].max(w.abs() / 127.0);
        }
        for (i, w) in l.w.iter_mut().enumerate() {
            *w = (*w / scale[i % cout]).round() * scale[i % cout];
        }
        l.wino = transformed(l.k, l.cin, cout, &l.w);
    }
    net
}

#[test]
fn outputs_past_the_largest_code_are_added_exactly() {
    // ranges a hundredth of the calibrated ones: fine steps, and most
    // outputs past the codes, added apart in float
    let layers = [
        (5, P, 32),
        (3, 32, 32),
        (3, 32, 32),
        (1, 32, 16),
        (1, 16, 1),
    ];
    let skips = [false, false, true, false, false];
    let pooled = [false, false, true, true, false];
    let net = int8_weights(Net::from_bytes(&weight_file(&layers, &skips, &pooled, 23)).unwrap());
    let mut cal = net.calibration().clone();
    cal.most.iter_mut().flatten().for_each(|m| *m /= 100.0);
    let mut buffers = int8::Buffers::default();
    for top in [127, 255] {
        let q = int8::Quantised::new(&net, &cal, top);
        for w in [1, 4, 19] {
            let planes = planes::encode(&board(w, w));
            let float = net.logits_by(Path::Float, &planes, w, w);
            let want = int8::run(
                &net,
                &q,
                Path::Int8Scalar,
                &planes,
                (w, w),
                &mut buffers,
                &mut |_, _, _| {},
            );
            let scale = float.iter().fold(1e-3f32, |m, v| m.max(v.abs()));
            for (a, b) in want.iter().zip(&float) {
                assert!(
                    (a - b).abs() < 1e-3 * scale,
                    "{top} on {w}x{w}: {a} against {b}"
                );
            }
            for p in int8_paths().into_iter().filter(|&p| int8::top(p) == top) {
                let got = int8::run(
                    &net,
                    &q,
                    p,
                    &planes,
                    (w, w),
                    &mut buffers,
                    &mut |_, _, _| {},
                );
                assert_eq!(got, want, "{p} on {w}x{w}");
            }
        }
    }
}

#[test]
fn the_builtin_network_in_int8_agrees_with_float() {
    // the fastest path of each kind of codes (all kernels on them
    // compute the same integers, above)
    let net = Net::from_bytes(BUILTIN).unwrap();
    let paths = int8_paths();
    let wide = paths.iter().find(|&&p| int8::top(p) == 255).unwrap();
    let narrow = paths.iter().find(|&&p| int8::top(p) == 127);
    for &path in [Some(wide), narrow].into_iter().flatten() {
        let mut worst: f32 = 0.0;
        for w in 1..=19 {
            let b = board(w, w);
            let planes = planes::encode(&b);
            let float = net.logits_by(Path::Float, &planes, w, w);
            let int8 = net.logits_by(path, &planes, w, w);
            let (pf, pi) = (
                sensible_softmax(&planes, &float),
                sensible_softmax(&planes, &int8),
            );
            let tvd: f32 = pf.iter().zip(&pi).map(|(a, b)| (a - b).abs()).sum::<f32>() / 2.0;
            worst = worst.max(tvd);
            // the 8-bit top move is the float's, or all but as likely to it
            let best = |p: &[f32]| (0..p.len()).max_by(|&i, &j| p[i].total_cmp(&p[j])).unwrap();
            let (top, mine) = (pf[best(&pf)], pf[best(&pi)]);
            assert!(mine >= 0.9 * top, "{path} on {w}x{w}: {mine} against {top}");
        }
        assert!(worst < 0.03, "{path}: total variation up to {worst}");
        assert!(worst > 0.0, "{path} is not float");
    }
}

#[test]
fn calibration_tables_are_read_back_for_their_network_only() {
    let layers = [(3, P, 16), (3, 16, 16), (1, 16, 1)];
    let file = |seed| weight_file(&layers, &[false; 3], &[false; 3], seed);
    let (net, other) = (
        Net::from_bytes(&file(3)).unwrap(),
        Net::from_bytes(&file(4)).unwrap(),
    );
    let cal = net.calibration().clone();
    assert_eq!(cal.most.len(), 2);
    assert!(cal.most.iter().flatten().any(|&m| m > 0.0));
    let text = cal.to_text(&net, "a comment\nover two lines");
    assert_eq!(Calibration::parse(&text, &net), Ok(cal));
    assert!(Calibration::parse(&text, &other).is_err());
    let short: String = text.lines().take(4).map(|l| format!("{l}\n")).collect();
    assert!(Calibration::parse(&short, &net).is_err());
}

#[test]
fn paths_are_named_and_the_best_runs_here() {
    for p in Path::ALL {
        assert_eq!(Path::parse(p.name()), Some(p));
    }
    assert_eq!(Path::parse(" vnni512\n"), Some(Path::Vnni512));
    assert_eq!(Path::parse("vnni"), None);
    assert!(Path::best().runs_here() && Path::Float.runs_here());
    assert!(!Path::Float.is_int8() && Path::Avx2.is_int8());
}
