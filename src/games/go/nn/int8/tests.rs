//! The 8-bit backend's checks: every kernel that runs here gives the
//! scalar kernel's integers on random layers of every shape the nets use,
//! attention too; the whole backend stays near float on the tiny models
//! of every kind; a coded file's codes come back exactly.

use super::super::desc::{Block, Model};
use super::super::forward::{self, Kernels};
use super::super::tests::{largest_gap, tiny_models, Build, Numbers};
use super::super::{float::Float, inputs, read, write};
use super::layer::quantise;
use super::*;

/// Kernels this CPU runs, the scalar one last.
fn here() -> Vec<Kernel> {
    Kernel::ALL.into_iter().filter(|k| k.runs_here()).collect()
}

/// `n` random floats in [lo, hi).
fn floats(r: &mut Numbers, n: usize, lo: f32, hi: f32) -> Vec<f32> {
    (0..n)
        .map(|_| lo + (hi - lo) * (r.next() + 1.0) / 2.0)
        .collect()
}

/// `kernel` and the scalar kernel on a random layer: the same outputs,
/// bit for bit, with integer sums as the outputs (step 1, no zero point)
/// and with a real finish added to an output.
fn same_as_scalar(
    kernel: Kernel,
    r: &mut Numbers,
    (k, cin, cout, fine): (usize, usize, usize, bool),
) {
    let (w, h) = if k == 1 { (41, 1) } else { (7, 5) };
    let weights = floats(r, k * k * cin * cout, -0.5, 0.5);
    let l = QLayer::new(kernel, k, cin, cout, &weights, fine);
    // inputs of a ReLU layer, or going negative
    let lo = if r.next() > 0.0 { 0.0 } else { -0.7 };
    let x = floats(r, w * h * cin, lo, 1.3);
    let stride = w + k - 1;
    let mut codes = vec![0; stride * (h + k - 1) * l.groups];
    let (step, zero) = quantise(&x, &l, w, &mut Vec::new(), &mut codes);
    assert!(zero == 0 || lo < 0.0, "a zero point for inputs >= 0");
    let input = Codes {
        codes: &codes,
        stride,
        w,
        h,
    };
    let ones = vec![1.0; l.cout_pad];
    let zc: Vec<i32> = l.colsum.iter().map(|c| c * zero).collect();
    let mul: Vec<f32> = l.scale.iter().map(|s| s * step).collect();
    let start = floats(r, w * h * l.cout_pad, -1.0, 1.0);
    for (zc, mul, add) in [(&vec![0; l.cout_pad], &ones, false), (&zc, &mul, true)] {
        let fin = Finish {
            row: l.cout_pad,
            zc,
            mul,
            add,
        };
        let (mut a, mut b) = (start.clone(), start.clone());
        run_kernel(kernel, &l, &input, &fin, &mut a, &[]);
        run_kernel(Kernel::Scalar, &l, &input, &fin, &mut b, &[]);
        for (i, (a, b)) in a.iter().zip(&b).enumerate() {
            assert!(
                a.to_bits() == b.to_bits(),
                "{}: {k}x{k} {cin}->{cout} (fine {fine}), output {i}: {a} against {b}",
                kernel.name()
            );
            // sums past 2^24 would round: in 8 bits these are integers,
            // exactly (in 16 they go past, and agree to the last bit)
            assert!(add || fine || a.abs() < (1 << 24) as f32);
        }
    }
}

#[test]
fn kernels_give_the_scalar_kernels_integers() {
    let mut r = Build::new(11).r;
    let shapes = [
        (5, 22, 96, false),
        (5, 22, 16, false),
        (3, 96, 96, false),
        (3, 16, 16, false),
        (3, 8, 12, false),
        (3, 12, 6, false),
        (3, 2, 8, false),
        (3, 144, 192, false),
        (1, 192, 48, false),
        (1, 96, 1, false),
        (1, 8, 2, false),
        (1, 384, 192, true),
        (1, 192, 512, true),
        (1, 512, 192, true),
        (1, 8, 12, true),
        (3, 64, 32, true),
    ];
    for kernel in here() {
        for &shape in &shapes {
            same_as_scalar(kernel, &mut r, shape);
        }
    }
}

#[test]
fn attention_is_the_same_on_every_kernel() {
    let mut b = Build::new(5);
    for (heads, dim, points) in [(6, 32, 361), (2, 4, 81), (3, 5, 25)] {
        let c = heads * dim;
        let block = b.attention("att", c, heads, dim);
        let Block::Attention { attention: at, .. } = block else {
            unreachable!()
        };
        let (q, k, v) = (
            floats(&mut b.r, points * c, -2.0, 2.0),
            floats(&mut b.r, points * c, -2.0, 2.0),
            floats(&mut b.r, points * c, -1.0, 1.0),
        );
        let mut want = vec![0.0; points * c];
        forward::attention(&at, &q, &k, &v, &mut want, points);
        let mut scalar = vec![0.0; points * c];
        attention::run(Kernel::Scalar, &at, &q, &k, &v, &mut scalar, points);
        let most = largest_gap(&want, &scalar);
        assert!(
            most < 2e-3,
            "{heads} heads of {dim} over {points}: {most} from float"
        );
        for kernel in here() {
            let mut got = vec![0.0; points * c];
            attention::run(kernel, &at, &q, &k, &v, &mut got, points);
            assert!(
                got.iter()
                    .zip(&scalar)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "{}: attention differs from the scalar kernel's",
                kernel.name()
            );
        }
    }
}

/// The raw outputs of `m` on a board of `size` with some stones.
fn raw(m: &Model, k: &dyn Kernels, size: usize) -> forward::Raw {
    let area = size * size;
    let mut spatial = vec![0u8; inputs::SPATIAL * area];
    spatial[..area].fill(1);
    for p in (0..area).step_by(7) {
        spatial[area * (1 + p % 2) + p] = 1;
    }
    let mut global = [0.0; inputs::GLOBAL];
    global[5] = -0.375;
    forward::evaluate(m, k, &spatial, &global, size, size)
}

#[test]
fn the_backend_stays_near_float() {
    for m in tiny_models() {
        for kernel in here() {
            let int8 = Int8::new(&m, kernel);
            for size in [9, 19] {
                let (f, q) = (raw(&m, &Float, size), raw(&m, &int8, size));
                let near = |a: &[f32], b: &[f32], tol: f32, what: &str| {
                    let most = largest_gap(a, b);
                    let scale = a.iter().fold(1.0f32, |m, v| m.max(v.abs()));
                    assert!(
                        most <= tol * scale,
                        "{} on {}, {size}x{size}: {what} moved by {most} (scale {scale})",
                        m.name,
                        kernel.name()
                    );
                };
                near(&f.policy, &q.policy, 0.03, "policy");
                near(&f.value, &q.value, 0.03, "value");
                near(&f.score, &q.score, 0.03, "score");
                near(&f.ownership, &q.ownership, 0.03, "ownership");
            }
        }
    }
}

#[test]
fn coded_files_give_the_same_codes() {
    let m = &tiny_models()[0];
    let coded = read::model(&write::model(m, write::Weights::Coded { top: 127 })).unwrap();
    let (a, b) = (&m.trunk.blocks, &coded.trunk.blocks);
    let (Block::Ordinary { conv1: x, .. }, Block::Ordinary { conv1: y, .. }) = (&a[0], &b[0])
    else {
        panic!("the tiny v8 model starts with an ordinary block")
    };
    for kernel in here() {
        let (p, q) = (
            QLayer::new(kernel, 3, x.cin, x.cout, &x.w, false),
            QLayer::new(kernel, 3, y.cin, y.cout, &y.w, false),
        );
        assert_eq!(p.w, q.w, "{}: the codes", kernel.name());
        for (s, t) in p.scale.iter().zip(&q.scale) {
            assert!(
                (s - t).abs() <= s * 2.0 * f32::EPSILON,
                "scales {s} and {t}"
            );
        }
    }
}

#[test]
fn one_backend_serves_every_thread() {
    fn shared<T: Send + Sync>(_: &T) {}
    let m = &tiny_models()[2];
    let int8 = Int8::new(m, Kernel::best());
    shared(&int8);
    let want = raw(m, &int8, 9);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| assert_eq!(raw(m, &int8, 9).value, want.value));
        }
    });
    assert!(Kernel::best().runs_here() && Kernel::Scalar.runs_here());
}
