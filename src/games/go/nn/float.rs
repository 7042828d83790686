//! The float32 backend: the reference every other backend is measured
//! against, and the one a CPU without an 8-bit kernel runs. Convolutions
//! go point by point: each output point's sums start at zero, take each
//! tap inside the board times its row of weights (the file's layout:
//! kernel row, kernel column, input channel, output channel), and are
//! stored or added. The loops over output channels are the vector loops;
//! where the CPU has AVX2 and FMA they are compiled for it.

use super::desc::{Conv, MatMul};
use super::forward::Kernels;

/// Float32 kernels on the model's own weights.
pub struct Float;

impl Kernels for Float {
    fn conv(&self, conv: &Conv, input: &[f32], out: &mut [f32], w: usize, h: usize, add: bool) {
        run(conv, &conv.w, input, out, w, h, add)
    }

    fn matmul(&self, m: &MatMul, input: &[f32], out: &mut [f32], points: usize) {
        let as_conv = Conv {
            name: String::new(),
            id: m.id,
            ky: 1,
            kx: 1,
            cin: m.cin,
            cout: m.cout,
            dilation: (1, 1),
            w: Vec::new(),
        };
        run(&as_conv, &m.w, input, out, points, 1, false)
    }
}

/// [`conv_generic`] compiled for AVX2 and FMA where the CPU has them.
fn run(conv: &Conv, wts: &[f32], input: &[f32], out: &mut [f32], w: usize, h: usize, add: bool) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has both features, just checked
        return unsafe { run_avx2(conv, wts, input, out, w, h, add) };
    }
    conv_generic(conv, wts, input, out, w, h, add)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn run_avx2(
    conv: &Conv,
    wts: &[f32],
    input: &[f32],
    out: &mut [f32],
    w: usize,
    h: usize,
    add: bool,
) {
    conv_generic(conv, wts, input, out, w, h, add)
}

/// `conv`'s shape with `weights` over a `w` x `h` board (a matrix is a
/// 1x1 convolution over `w` points of a row).
#[inline(always)]
fn conv_generic(
    conv: &Conv,
    weights: &[f32],
    input: &[f32],
    out: &mut [f32],
    w: usize,
    h: usize,
    add: bool,
) {
    let (cin, cout) = (conv.cin, conv.cout);
    let (ry, rx) = (conv.ky / 2, conv.kx / 2);
    let (dy, dx) = conv.dilation;
    assert!(input.len() >= w * h * cin && out.len() >= w * h * cout);
    let mut acc = vec![0.0f32; cout];
    for y in 0..h {
        for x in 0..w {
            acc.fill(0.0);
            for ky in 0..conv.ky {
                let Some(sy) = (y + ky * dy).checked_sub(ry * dy).filter(|&v| v < h) else {
                    continue;
                };
                for kx in 0..conv.kx {
                    let Some(sx) = (x + kx * dx).checked_sub(rx * dx).filter(|&v| v < w) else {
                        continue;
                    };
                    let src = &input[(sy * w + sx) * cin..][..cin];
                    let taps = &weights[(ky * conv.kx + kx) * cin * cout..][..cin * cout];
                    for (&v, row) in src.iter().zip(taps.chunks_exact(cout)) {
                        // inputs after ReLU or binary planes: often zero
                        if v != 0.0 {
                            for (a, &wt) in acc.iter_mut().zip(row) {
                                *a += v * wt;
                            }
                        }
                    }
                }
            }
            let dst = &mut out[(y * w + x) * cout..][..cout];
            if add {
                dst.iter_mut().zip(&acc).for_each(|(d, a)| *d += a);
            } else {
                dst.copy_from_slice(&acc);
            }
        }
    }
}
