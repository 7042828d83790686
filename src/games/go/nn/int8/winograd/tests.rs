//! Winograd's checks: every kernel that runs here gives the scalar
//! kernel's outputs bit for bit, on boards odd and even, inputs signed
//! and not, outputs stored and added; the scalar kernel's are the float
//! convolution's to the codes' precision (F(4x4, 3x3) loses about a bit
//! to its transforms: 6e-3 of the outputs' range at 384 inputs).

use super::super::super::desc::Conv;
use super::super::super::float::Float;
use super::super::super::forward::Kernels;
use super::super::super::tests::{largest_gap, Build, Numbers};
use super::dispatch::run;
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

/// A random 3x3 layer, an input for it on a `w` x `h` board (going
/// negative when `signed`) and a start for its outputs.
fn case(
    b: &mut Build,
    cin: usize,
    cout: usize,
    (w, h): (usize, usize),
    signed: bool,
) -> (Conv, Vec<f32>, Vec<f32>) {
    let conv = b.conv("c", 3, cin, cout);
    let lo = if signed { -0.6 } else { 0.0 };
    let x = floats(&mut b.r, w * h * cin, lo, 1.4);
    let start = floats(&mut b.r, w * h * cout, -1.0, 1.0);
    (conv, x, start)
}

const SHAPES: [(usize, usize, (usize, usize)); 8] = [
    (96, 96, (19, 19)),
    (192, 64, (9, 9)),
    (16, 16, (8, 5)),
    (8, 12, (19, 19)),
    (3, 5, (2, 3)),
    (2, 16, (1, 1)),
    (33, 47, (7, 6)),
    (384, 32, (5, 5)),
];

#[test]
fn kernels_give_the_scalar_kernels_outputs() {
    let mut b = Build::new(3);
    for (i, &(cin, cout, wh)) in SHAPES.iter().enumerate() {
        let (conv, x, start) = case(&mut b, cin, cout, wh, i % 2 == 1);
        for kernel in here() {
            let l = WLayer::new(kernel, cin, cout, &conv.w);
            for add in [false, true] {
                let (mut a, mut want) = (start.clone(), start.clone());
                run(kernel, &l, None, &x, &mut a, wh, add);
                run(Kernel::Scalar, &l, Some(&l), &x, &mut want, wh, add);
                for (j, (a, b)) in a.iter().zip(&want).enumerate() {
                    assert!(
                        a.to_bits() == b.to_bits(),
                        "{}: {cin}->{cout} on {wh:?} (add {add}), output {j}: {a} against {b}",
                        kernel.name()
                    );
                }
            }
        }
    }
}

#[test]
fn the_scalar_kernel_is_the_float_convolution() {
    let mut b = Build::new(4);
    for (i, &(cin, cout, wh)) in SHAPES.iter().enumerate() {
        let (conv, x, start) = case(&mut b, cin, cout, wh, i % 2 == 0);
        let l = WLayer::new(Kernel::Scalar, cin, cout, &conv.w);
        for add in [false, true] {
            let (mut got, mut want) = (start.clone(), start.clone());
            run(Kernel::Scalar, &l, None, &x, &mut got, wh, add);
            Float.conv(&conv, &x, &mut want, wh.0, wh.1, add);
            let scale = want.iter().fold(0f32, |m, v| m.max(v.abs()));
            let most = largest_gap(&got, &want);
            assert!(
                most <= 8e-3 * scale,
                "{cin}->{cout} on {wh:?} (add {add}): {most} from float (scale {scale})"
            );
        }
    }
}

#[test]
fn extreme_inputs_stay_exact() {
    // every input at -1 or 1, in the patterns that make transformed
    // inputs largest: the sums still fit, the outputs near float's
    let mut b = Build::new(5);
    let (cin, cout, (w, h)) = (384, 16, (6, 6));
    let conv = b.conv("c", 3, cin, cout);
    let l = WLayer::new(Kernel::Scalar, cin, cout, &conv.w);
    for pattern in 0..4 {
        let x: Vec<f32> = (0..w * h * cin)
            .map(|i| {
                let (p, c) = (i / cin, i % cin);
                let (y, xx) = (p / w, p % w);
                let on = match pattern {
                    0 => true,
                    1 => (y + xx) % 2 == 0,
                    2 => (y / 2 + xx / 2 + c) % 2 == 0,
                    _ => (y % 4 == 1 || y % 4 == 2) == (xx % 4 < 2),
                };
                if on {
                    1.0
                } else {
                    -1.0
                }
            })
            .collect();
        let mut want = vec![0.0; w * h * cout];
        run(Kernel::Scalar, &l, None, &x, &mut want, (w, h), false);
        for kernel in here() {
            let mut got = vec![0.0; w * h * cout];
            run(
                kernel,
                &WLayer::new(kernel, cin, cout, &conv.w),
                Some(&l),
                &x,
                &mut got,
                (w, h),
                false,
            );
            assert_eq!(got, want, "{}: pattern {pattern}", kernel.name());
        }
        let mut float = vec![0.0; w * h * cout];
        Float.conv(&conv, &x, &mut float, w, h, false);
        let scale = float.iter().fold(0f32, |m, v| m.max(v.abs()));
        let most = largest_gap(&want, &float);
        assert!(
            most <= 1e-2 * scale,
            "pattern {pattern}: {most} from float (scale {scale})"
        );
    }
}

#[test]
#[should_panic(expected = "sums past an i32")]
fn too_many_inputs_are_refused() {
    // even equal weights leave codes of 7 bits up to 133 000 inputs
    let cin = 1 << 18;
    WLayer::new(Kernel::Scalar, cin, 1, &vec![0.1; 9 * cin]);
}
