//! A Winograd layer handed to the kernel of its instruction set (its
//! transforms, products and outputs: [`kernel::layer`] compiled for
//! each set), on a thread's buffers.

use super::kernel;
use super::{reference, Job, Line, WLayer};
use crate::games::go::nn::int8::layer::Kernel;
use std::cell::RefCell;

/// A thread's buffers, grown once.
#[derive(Default)]
pub struct Scratch {
    v: Vec<Line>,
    steps: Vec<Line>,
    tmp: Vec<Line>,
    zeros: Vec<Line>,
    m: Vec<Line>,
    y: Vec<Line>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// `l` over `x` (`l.cin` floats a point of a `w` x `h` board) into `out`
/// (`l.cout` a point), added to what it holds when `add`, on `kernel`;
/// the weights of `next`, the layer likely run next, fetched meanwhile.
pub fn run(
    kernel: Kernel,
    l: &WLayer,
    next: Option<&WLayer>,
    x: &[f32],
    out: &mut [f32],
    (w, h): (usize, usize),
    add: bool,
) {
    let area = w * h;
    assert!(x.len() >= area * l.cin && out.len() >= area * l.cout);
    SCRATCH.with(|sc| {
        let sc = &mut *sc.borrow_mut();
        let job = Job {
            l,
            x: &x[..area * l.cin],
            dims: (w, h),
            add,
            next: next.map_or(&[], |n| &n.w),
        };
        let out = &mut out[..area * l.cout];
        let bufs = [
            &mut sc.v,
            &mut sc.steps,
            &mut sc.tmp,
            &mut sc.zeros,
            &mut sc.m,
            &mut sc.y,
        ];
        match kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: Int8 and the tests take only kernels that run here
            Kernel::Vnni512 => unsafe { vnni512(&job, bufs, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above
            Kernel::Vnni256 => unsafe { vnni256(&job, bufs, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above
            Kernel::Avx2 => unsafe { avx2(&job, bufs, out) },
            _ => reference(&job, bufs, out),
        }
    })
}

/// A layer's products and outputs on AVX-512 VNNI ([`kernel::layer`]
/// compiled for it; the kernels' files know nothing of Winograd).
///
/// # Safety
/// The CPU must have AVX-512 F, BW and VNNI.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
unsafe fn vnni512(job: &Job, bufs: [&mut Vec<Line>; 6], out: &mut [f32]) {
    use crate::games::go::nn::int8::vnni512::Wide;
    match job.l.width / 16 {
        2 => kernel::layer::<Wide, 13, 2>(job, bufs, out),
        _ => kernel::layer::<Wide, 13, 1>(job, bufs, out),
    }
}

/// The same on AVX-512 VNNI's 256-bit vectors.
///
/// # Safety
/// The CPU must have AVX-512 F, BW and VNNI (and VL).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vnni")]
unsafe fn vnni256(job: &Job, bufs: [&mut Vec<Line>; 6], out: &mut [f32]) {
    use crate::games::go::nn::int8::vnni256::Wide;
    match job.l.width / 8 {
        2 => kernel::layer::<Wide, 13, 2>(job, bufs, out),
        _ => kernel::layer::<Wide, 13, 1>(job, bufs, out),
    }
}

/// The same on AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn avx2(job: &Job, bufs: [&mut Vec<Line>; 6], out: &mut [f32]) {
    use crate::games::go::nn::int8::avx2::Avx2;
    match job.l.width / 8 {
        2 => kernel::layer::<Avx2, 5, 2>(job, bufs, out),
        _ => kernel::layer::<Avx2, 5, 1>(job, bufs, out),
    }
}
