//! What each layer of a network sees: the float network run on real
//! positions, each convolution's and matrix's input gathered as its Gram
//! matrix `H = X^T X` (a row of `X` a point's input, unrolled over the
//! kernel's taps for a convolution, zeros past the board's edge, as the
//! kernels read them). [`super::gptq`] rounds the weights against it:
//! `w H w^T` is the squared error a change `w` to an output channel's
//! weights makes, summed over the positions.

use super::desc::{Attention, Conv, MatMul, Model};
use super::float::Float;
use super::forward::{self, Kernels};
use super::inputs::Features;
use std::cell::RefCell;

/// One layer's Gram matrix.
#[derive(Clone, Debug)]
pub struct Gram {
    /// Its side: the layer's inputs a point (taps times channels).
    pub n: usize,
    /// `n` x `n`, row after row.
    pub h: Vec<f64>,
    /// The points it sums over.
    pub rows: usize,
}

/// Each layer's [`Gram`] under its id ([`Conv::id`]).
#[derive(Clone, Debug, Default)]
pub struct Grams {
    pub by_id: Vec<Option<Gram>>,
}

impl Grams {
    pub fn get(&self, id: usize) -> Option<&Gram> {
        self.by_id.get(id).and_then(Option::as_ref)
    }
}

/// The float network, gathering what its layers see.
struct Recorder {
    grams: RefCell<Grams>,
    /// A row buffer, grown once.
    rows: RefCell<Vec<f32>>,
}

impl Recorder {
    /// Adds the rows `x` (`n` values each) to layer `id`'s Gram matrix.
    fn add(&self, id: usize, x: &[f32], n: usize) {
        let mut g = self.grams.borrow_mut();
        if g.by_id.len() <= id {
            g.by_id.resize(id + 1, None);
        }
        let gram = g.by_id[id].get_or_insert_with(|| Gram {
            n,
            h: vec![0.0; n * n],
            rows: 0,
        });
        assert_eq!(gram.n, n, "layer {id}'s inputs changed size");
        gram.rows += x.len() / n;
        accumulate(&mut gram.h, x, n);
    }

    /// `ids`, which share their input `x` (`n` values a point).
    fn share(&self, ids: &[usize], x: &[f32], n: usize) {
        self.add(ids[0], x, n);
        let mut g = self.grams.borrow_mut();
        let first = g.by_id[ids[0]].clone();
        for &id in &ids[1..] {
            if g.by_id.len() <= id {
                g.by_id.resize(id + 1, None);
            }
            g.by_id[id] = first.clone();
        }
    }
}

impl Kernels for Recorder {
    fn conv(&self, conv: &Conv, input: &[f32], out: &mut [f32], w: usize, h: usize, add: bool) {
        let (k, cin) = (conv.ky, conv.cin);
        if k == 1 {
            self.add(conv.id, &input[..w * h * cin], cin);
        } else if conv.kx == k {
            // the input unrolled: a point's taps, row by row, each `cin`
            let n = k * k * cin;
            let mut rows = self.rows.borrow_mut();
            rows.clear();
            rows.resize(w * h * n, 0.0);
            let r = (k / 2) as isize;
            for (p, row) in rows.chunks_exact_mut(n).enumerate() {
                let (y, x) = ((p / w) as isize, (p % w) as isize);
                for (tap, dst) in row.chunks_exact_mut(cin).enumerate() {
                    let (yy, xx) = (y + (tap / k) as isize - r, x + (tap % k) as isize - r);
                    if (0..h as isize).contains(&yy) && (0..w as isize).contains(&xx) {
                        let at = (yy as usize * w + xx as usize) * cin;
                        dst.copy_from_slice(&input[at..at + cin]);
                    }
                }
            }
            self.add(conv.id, &rows, n);
        }
        Float.conv(conv, input, out, w, h, add)
    }

    fn matmul(&self, m: &MatMul, input: &[f32], out: &mut [f32], points: usize) {
        self.add(m.id, &input[..points * m.cin], m.cin);
        Float.matmul(m, input, out, points)
    }

    fn matmuls(&self, ms: &[&MatMul], input: &[f32], outs: &mut [&mut [f32]], points: usize) {
        let ids: Vec<usize> = ms.iter().map(|m| m.id).collect();
        self.share(&ids, &input[..points * ms[0].cin], ms[0].cin);
        Float.matmuls(ms, input, outs, points)
    }

    fn attention(
        &self,
        at: &Attention,
        q: &[f32],
        k: &[f32],
        v: &[f32],
        out: &mut [f32],
        points: usize,
    ) {
        Float.attention(at, q, k, v, out, points)
    }
}

/// Every layer's Gram matrix over `positions`, each evaluated by the
/// float network.
pub fn grams(model: &Model, positions: &[Features]) -> Grams {
    let r = Recorder {
        grams: RefCell::default(),
        rows: RefCell::default(),
    };
    for f in positions {
        forward::evaluate(model, &r, &f.spatial, &f.global, f.width, f.height);
    }
    r.grams.into_inner()
}

/// `h += x^T x` for the rows `x` of `n` values, eight rows at a time (so
/// that each pass over `h` does eight rows' work), compiled for AVX2 and
/// FMA where the CPU has them.
fn accumulate(h: &mut [f64], x: &[f32], n: usize) {
    #[inline(always)]
    fn generic(h: &mut [f64], x: &[f32], n: usize) {
        const R: usize = 8;
        // the sums of this call in f32 (a few thousand rows), then added
        let mut acc = vec![0f32; n * n];
        let mut block = vec![0f32; R * n];
        for rows in x.chunks(R * n) {
            block.fill(0.0);
            block[..rows.len()].copy_from_slice(rows);
            let b: [&[f32]; R] = std::array::from_fn(|r| &block[r * n..][..n]);
            for (i, out) in acc.chunks_exact_mut(n).enumerate() {
                let a: [f32; R] = std::array::from_fn(|r| b[r][i]);
                if a.iter().all(|&v| v == 0.0) {
                    continue;
                }
                for (j, o) in out.iter_mut().enumerate() {
                    let mut s = 0.0;
                    for r in 0..R {
                        s += a[r] * b[r][j];
                    }
                    *o += s;
                }
            }
        }
        h.iter_mut().zip(&acc).for_each(|(h, &a)| *h += a as f64);
    }
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2,fma")]
        unsafe fn avx2(h: &mut [f64], x: &[f32], n: usize) {
            generic(h, x, n)
        }
        use std::arch::is_x86_feature_detected as has;
        if has!("avx2") && has!("fma") {
            // SAFETY: the CPU has both, just checked
            return unsafe { avx2(h, x, n) };
        }
    }
    generic(h, x, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gram_matrices_sum_the_rows_products() {
        let n = 5;
        let x: Vec<f32> = (0..13 * n)
            .map(|i| ((i * 37 % 11) as f32 - 5.0) * 0.3)
            .collect();
        let mut h = vec![0.0; n * n];
        accumulate(&mut h, &x, n);
        for i in 0..n {
            for j in 0..n {
                let want: f64 = x.chunks_exact(n).map(|r| r[i] as f64 * r[j] as f64).sum();
                assert!((h[i * n + j] - want).abs() < 1e-4, "{i} {j}");
            }
        }
    }
}
