//! Each pass handed to the kernel of its instruction set: the layer's
//! products ([`run_kernel`]) and its input's quantisation
//! ([`quantise_with`]).

use super::layer::{quantise, Codes, Finish, Kernel, QLayer};
use super::scalar;
#[cfg(target_arch = "x86_64")]
use super::{avx2, vnni256, vnni512};

/// `kernel`'s pass of `l` over `input` into `out` (`l.cout_pad` floats a
/// point), as [`Int8`] runs it and the tests check it; `next`, weights
/// to bring into L2 meanwhile (the next layer's).
pub fn run_kernel(
    kernel: Kernel,
    l: &QLayer,
    input: &Codes,
    fin: &Finish,
    out: &mut [f32],
    next: &[u32],
) {
    let points = input.w * input.h;
    assert!(fin.row >= l.cout_pad && out.len() >= (points - 1) * fin.row + l.cout_pad);
    assert!(input.codes.len() >= input.stride * (input.h + l.k - 1) * l.groups);
    assert!(
        input.stride == input.w + l.k - 1
            && fin.zc.len() >= l.cout_pad
            && fin.mul.len() >= l.cout_pad
    );
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Int8::new and the tests take only kernels that run here;
        // the sizes are checked above
        Kernel::Vnni512 => unsafe { vnni512::run(l, input, fin, out, next) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above
        Kernel::Vnni256 => unsafe { vnni256::run(l, input, fin, out, next) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above
        Kernel::Avx2 => unsafe { avx2::run(l, input, fin, out, next) },
        _ => scalar::run(l, input, fin, out),
    }
}

/// [`quantise`] compiled for `kernel`'s instructions.
pub fn quantise_with(
    kernel: Kernel,
    x: &[f32],
    l: &QLayer,
    w: usize,
    row: &mut Vec<i32>,
    codes: &mut [u32],
) -> (f32, i32) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Int8 takes only kernels that run here
        Kernel::Vnni512 | Kernel::Vnni256 => unsafe { vnni512::quantise(x, l, w, row, codes) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above
        Kernel::Avx2 => unsafe { avx2::quantise(x, l, w, row, codes) },
        _ => quantise(x, l, w, row, codes),
    }
}
