//! The scalar kernel: plain loops over the same codes and weights as the
//! vector kernels, on any CPU. It is the integer reference: every vector
//! kernel gives exactly its sums (`tests.rs`), so it is kept obvious
//! rather than fast.

use super::layer::{lane, Codes, Finish, QLayer};

/// `l` over `input` into `out` (`l.cout_pad` floats a point).
pub fn run(l: &QLayer, input: &Codes, fin: &Finish, out: &mut [f32]) {
    // input channel `ci` of the cell at `cell`: 8-bit codes unsigned,
    // 16-bit ones signed (as `vpmaddwd` and `vpdpwssd` take them)
    let code = |cell: usize, ci: usize| {
        let g = input.codes[cell * l.groups + ci / l.per_group];
        match l.per_group {
            2 => lane(g, 2, ci % 2),
            _ => (g >> (8 * (ci % 4)) & 0xff) as i32,
        }
    };
    for y in 0..input.h {
        for x in 0..input.w {
            let o = &mut out[(y * input.w + x) * fin.row..][..l.cout_pad];
            for (co, o) in o.iter_mut().enumerate() {
                // wrapping, as the vector kernels sum: right whenever the sum fits
                let mut sum = 0i32;
                for ky in 0..l.k {
                    for kx in 0..l.k {
                        let cell = (y + ky) * input.stride + x + kx;
                        for ci in 0..l.groups * l.per_group {
                            sum = sum.wrapping_add(code(cell, ci) * l.code(ky * l.k + kx, ci, co));
                        }
                    }
                }
                let v = (sum - fin.zc[co]) as f32 * fin.mul[co];
                *o = if fin.add { *o + v } else { v };
            }
        }
    }
}
