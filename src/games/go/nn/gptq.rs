//! 8-bit weights rounded against what the layer sees (GPTQ: Frantar et
//! al., 2022), in the format of tengen's coded files: one scale an output
//! channel, its largest weight at 127 steps. Rounding each weight to its
//! nearest code leaves errors that add up over a layer's inputs; here the
//! inputs are rounded one at a time (the busiest first), and each
//! rounding's error on the layer's output, as the Gram matrix of its
//! inputs ([`super::calibrate`]) weighs it, is taken out by moving the
//! weights not yet rounded (through the Cholesky factor of `H^-1`).
//!
//! Each channel's largest weight keeps the code ±127 (its error spread as
//! any other), so that the result, written as `code * scale`, gives the
//! 8-bit backend ([`super::int8::QLayer::new`]) and the coded file
//! ([`super::write`]) the same scale and codes again.

use super::calibrate::{Gram, Grams};
use super::desc::{Block, Model};

/// Layers with more inputs a point than this keep their nearest codes
/// (`n^3` work: b18c384's 3x3 layers have 3456).
pub const MOST_INPUTS: usize = 2048;

/// `model` with the weights of each convolution and matrix over the
/// board that `grams` has replaced by their rounded values, `top` steps
/// either side of zero (127: the 8-bit backend's).
pub fn model(model: &Model, grams: &Grams, top: i32) -> Model {
    let mut out = model.clone();
    visit(&mut out, &mut |id, w, cout| {
        if let Some(g) = grams.get(id).filter(|g| g.n <= MOST_INPUTS) {
            layer(w, cout, g, top as f32);
        }
    });
    out
}

/// Each convolution's and matrix's id, weights and outputs.
fn visit(m: &mut Model, f: &mut dyn FnMut(usize, &mut [f32], usize)) {
    fn blocks(bs: &mut [Block], f: &mut dyn FnMut(usize, &mut [f32], usize)) {
        for b in bs {
            match b {
                Block::Ordinary { conv1, conv2, .. } => {
                    f(conv1.id, &mut conv1.w, conv1.cout);
                    f(conv2.id, &mut conv2.w, conv2.cout);
                }
                Block::GlobalPool {
                    conv1,
                    gpool_conv,
                    conv2,
                    ..
                } => {
                    for c in [conv1, gpool_conv, conv2] {
                        f(c.id, &mut c.w, c.cout);
                    }
                }
                Block::Nested {
                    conv_in,
                    blocks: inner,
                    conv_out,
                    ..
                } => {
                    f(conv_in.id, &mut conv_in.w, conv_in.cout);
                    blocks(inner, f);
                    f(conv_out.id, &mut conv_out.w, conv_out.cout);
                }
                Block::Attention { attention: a, .. } => {
                    for x in [&mut a.q, &mut a.k, &mut a.v, &mut a.out] {
                        f(x.id, &mut x.w, x.cout);
                    }
                }
                Block::Ffn { w1, gate, w2, .. } => {
                    for x in [w1, gate, w2] {
                        f(x.id, &mut x.w, x.cout);
                    }
                }
            }
        }
    }
    let c = &mut m.trunk.conv;
    f(c.id, &mut c.w, c.cout);
    blocks(&mut m.trunk.blocks, f);
    let (p, v) = (&mut m.policy, &mut m.value);
    for c in [&mut p.p1, &mut p.g1, &mut p.p2, &mut v.v1, &mut v.ownership] {
        f(c.id, &mut c.w, c.cout);
    }
}

/// Rounds `w` (`n` rows of `cout`: a row an input, unrolled as `g`'s)
/// to codes of `top` steps either side of zero times its channels'
/// scales, against `g`.
pub fn layer(w: &mut [f32], cout: usize, g: &Gram, top: f32) {
    let n = g.n;
    assert_eq!(w.len(), n * cout);
    // the scales, and where each channel's largest weight is
    let mut scale = vec![0f32; cout];
    let mut pin = vec![usize::MAX; cout];
    for (i, row) in w.chunks_exact(cout).enumerate() {
        for (co, &v) in row.iter().enumerate() {
            if v.abs() > scale[co] {
                scale[co] = v.abs();
                pin[co] = i;
            }
        }
    }
    let sign: Vec<f32> = (0..cout)
        .map(|co| match pin[co] {
            usize::MAX => 0.0,
            i => w[i * cout + co].signum(),
        })
        .collect();
    for s in &mut scale {
        *s = if *s > 0.0 { *s / top } else { 1.0 };
    }
    // the busiest inputs first; unused ones (H_ii = 0) count as 1, and
    // 1 % of the mean diagonal is added, as GPTQ's dampening
    let mut h = g.h.clone();
    let mean = (0..n).map(|i| h[i * n + i]).sum::<f64>() / n as f64;
    let damp = 0.01 * if mean > 0.0 { mean } else { 1.0 };
    for i in 0..n {
        if h[i * n + i] <= 0.0 {
            h[i * n + i] = 1.0;
        }
        h[i * n + i] += damp;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| h[b * n + b].total_cmp(&h[a * n + a]));
    let hp: Vec<f64> = order
        .iter()
        .flat_map(|&i| order.iter().map(move |&j| (i, j)))
        .map(|(i, j)| h[i * n + j])
        .collect();
    let u = inverse_factor(hp, n);
    let mut wp: Vec<f64> = order
        .iter()
        .flat_map(|&i| w[i * cout..][..cout].iter().map(|&v| v as f64))
        .collect();
    let mut err = vec![0f64; cout];
    for (k, &i) in order.iter().enumerate() {
        let d = u[k * n + k];
        let (done, rest) = wp.split_at_mut((k + 1) * cout);
        let row = &mut done[k * cout..];
        for co in 0..cout {
            let s = scale[co] as f64;
            let c = if pin[co] == i {
                sign[co] as f64 * top as f64
            } else {
                (row[co] / s).round().clamp(-top as f64, top as f64)
            };
            err[co] = (row[co] - c * s) / d;
            row[co] = c * s;
        }
        for (j, later) in rest.chunks_exact_mut(cout).enumerate() {
            let f = u[k * n + k + 1 + j];
            later.iter_mut().zip(&err).for_each(|(v, e)| *v -= f * e);
        }
    }
    for (k, &i) in order.iter().enumerate() {
        for co in 0..cout {
            // the code times the scale in f32, as the coded file decodes it
            let c = (wp[k * cout + co] / scale[co] as f64).round() as f32;
            w[i * cout + co] = c * scale[co];
        }
    }
}

/// The upper Cholesky factor `U` of `H^-1` (`H^-1 = U^T U`), `H`
/// symmetric positive definite, `n` x `n`.
fn inverse_factor(h: Vec<f64>, n: usize) -> Vec<f64> {
    // H = L L^T, then L^-1, H^-1 = L^-T L^-1, then its factor
    let l = cholesky(h, n);
    let mut li = vec![0f64; n * n];
    for j in 0..n {
        li[j * n + j] = 1.0 / l[j * n + j];
        for i in j + 1..n {
            let s: f64 = (j..i).map(|k| l[i * n + k] * li[k * n + j]).sum();
            li[i * n + j] = -s / l[i * n + i];
        }
    }
    let mut inv = vec![0f64; n * n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (i..n).map(|k| li[k * n + i] * li[k * n + j]).sum();
            inv[i * n + j] = s;
            inv[j * n + i] = s;
        }
    }
    let l = cholesky(inv, n);
    // U = L^T
    let mut u = vec![0f64; n * n];
    for i in 0..n {
        for j in 0..=i {
            u[j * n + i] = l[i * n + j];
        }
    }
    u
}

/// The lower Cholesky factor of `a`, in place; a pivot that rounding
/// leaves at or below zero is taken as tiny.
fn cholesky(mut a: Vec<f64>, n: usize) -> Vec<f64> {
    for j in 0..n {
        let d = a[j * n + j] - (0..j).map(|k| a[j * n + k] * a[j * n + k]).sum::<f64>();
        let d = d.max(1e-12).sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let s: f64 = (0..j).map(|k| a[i * n + k] * a[j * n + k]).sum();
            a[i * n + j] = (a[i * n + j] - s) / d;
        }
        a[j * n + j + 1..(j + 1) * n].fill(0.0);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A layer's output error on `x` with weights `q` for `w`.
    fn error(x: &[f32], w: &[f32], q: &[f32], n: usize, cout: usize) -> f64 {
        let mut e = 0.0;
        for row in x.chunks_exact(n) {
            for co in 0..cout {
                let d: f64 = (0..n)
                    .map(|i| row[i] as f64 * (w[i * cout + co] - q[i * cout + co]) as f64)
                    .sum();
                e += d * d;
            }
        }
        e
    }

    #[test]
    fn rounding_against_the_inputs_beats_the_nearest_codes() {
        let (n, cout, rows) = (24, 8, 300);
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        };
        // correlated inputs, some channels far busier than others
        let base: Vec<f32> = (0..rows * 4).map(|_| rnd()).collect();
        let x: Vec<f32> = (0..rows * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                base[r * 4 + c % 4] * (1.0 + c as f32 * 0.3) + 0.1 * rnd()
            })
            .collect();
        let w: Vec<f32> = (0..n * cout).map(|_| rnd()).collect();
        let mut h = vec![0.0; n * n];
        for row in x.chunks_exact(n) {
            for i in 0..n {
                for j in 0..n {
                    h[i * n + j] += row[i] as f64 * row[j] as f64;
                }
            }
        }
        let g = Gram { n, h, rows };
        let mut q = w.clone();
        layer(&mut q, cout, &g, 127.0);
        let mut near = w.clone();
        let mut scale = vec![0f32; cout];
        for (i, v) in w.iter().enumerate() {
            scale[i % cout] = scale[i % cout].max(v.abs() / 127.0);
        }
        for (i, v) in near.iter_mut().enumerate() {
            *v = (*v / scale[i % cout]).round() * scale[i % cout];
        }
        let (eg, en) = (error(&x, &w, &q, n, cout), error(&x, &w, &near, n, cout));
        assert!(eg < 0.5 * en, "gptq {eg} vs nearest {en}");
        // the same scales and codes again, as the backend finds them
        for co in 0..cout {
            let top = (0..n).map(|i| q[i * cout + co].abs()).fold(0f32, f32::max);
            assert_eq!(top, scale[co] * 127.0);
            for i in 0..n {
                let c = q[i * cout + co] / (top / 127.0);
                assert!((c - c.round()).abs() < 1e-3 && c.abs() <= 127.0);
            }
        }
    }

    #[test]
    fn coded_files_keep_the_rounded_codes() {
        use super::super::inputs::{features, Position};
        use super::super::{calibrate, read, tests::tiny_models, write};
        use crate::go::{Board, Color};
        let board = Board::new(9, 9);
        let pos = Position {
            board: &board,
            pla: Color::Black,
            moves: &[],
            recent: [None, None],
            seen: None,
            komi: 7.5,
            pass_ends: false,
            over: false,
        };
        for m in tiny_models() {
            let grams = calibrate::grams(&m, &[features(&pos)]);
            let mut q = model(&m, &grams, 127);
            let coded = write::model(&q, write::Weights::Coded { top: 127 });
            let mut back = read::model(&coded).unwrap();
            // the file's values are the rounded ones, not coded again
            let (mut a, mut b) = (Vec::new(), Vec::new());
            visit(&mut q, &mut |_, w, _| a.push(w.to_vec()));
            visit(&mut back, &mut |_, w, _| b.push(w.to_vec()));
            assert!(a.len() > 2 && a.len() == b.len(), "{}", m.name);
            for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                let top = x.iter().fold(0f32, |t, v| t.max(v.abs()));
                let off = x
                    .iter()
                    .zip(y)
                    .map(|(x, y)| (x - y).abs())
                    .fold(0.0, f32::max);
                assert!(off <= top * 1e-6, "{}: layer {i} moved {off}", m.name);
            }
        }
    }
}
