//! The multiply-add peak of one core, to tell how close the network's
//! kernels come to it (docs/network.md, "How fast"): `vpdpwssd` on 512
//! bits (32 i16 x i16 products an instruction, the 16-bit paths'),
//! `vpdpbusd` (64 u8 x i8 ones, plain 8 bits) and FMA on 256 bits (8
//! float ones), each on 16 or 12 independent accumulators so that
//! latency never waits.
//!
//!     rustc -O -C target-cpu=native tools/peak.rs -o /tmp/tengen-peak && /tmp/tengen-peak
//!
//! Each line also gives the floor of b6c96 (0.36 G multiply-adds an
//! evaluation) at that peak.

use std::time::Instant;

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// `$name(n)`: `n` rounds of `$op` on 16 zmm accumulators, summed.
macro_rules! dot512 {
    ($name:ident, $op:ident, $a:expr, $w:expr) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
        unsafe fn $name(n: u64) -> i32 {
            let (a, w) = (_mm512_set1_epi32($a), _mm512_set1_epi32($w));
            let mut acc = [_mm512_setzero_si512(); 16];
            for _ in 0..n {
                for x in acc.iter_mut() {
                    *x = $op(*x, a, w);
                }
            }
            let mut s = _mm512_setzero_si512();
            for x in acc {
                s = _mm512_add_epi32(s, x);
            }
            _mm512_reduce_add_epi32(s)
        }
    };
}

dot512!(dpbusd, _mm512_dpbusd_epi32, 0x0102_0304, 0x0101_0101);
dot512!(dpwssd, _mm512_dpwssd_epi32, 0x0001_0002, 0x0001_0001);

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn fma(n: u64) -> f32 {
    let (a, w) = (_mm256_set1_ps(1.0001), _mm256_set1_ps(0.9999));
    let mut acc = [_mm256_setzero_ps(); 12];
    for _ in 0..n {
        for x in acc.iter_mut() {
            *x = _mm256_fmadd_ps(a, w, *x);
        }
    }
    let mut s = _mm256_setzero_ps();
    for x in acc {
        s = _mm256_add_ps(s, x);
    }
    let mut o = [0f32; 8];
    _mm256_storeu_ps(o.as_mut_ptr(), s);
    o[0]
}

#[cfg(target_arch = "x86_64")]
fn main() {
    let n = 50_000_000u64;
    let report = |name: &str, per: f64, secs: f64, instrs: f64| {
        let gmacs = instrs * per / secs / 1e9;
        println!(
            "{name}: {:.2} G instructions/s, {gmacs:.1} G multiply-adds/s, b6c96 floor {:.2} ms",
            instrs / secs / 1e9,
            0.36e9 / (gmacs * 1e9) * 1e3
        );
    };
    if is_x86_feature_detected!("avx512vnni") && is_x86_feature_detected!("avx512bw") {
        let t = Instant::now();
        let r = unsafe { dpwssd(n) };
        report("vpdpwssd zmm", 32.0, t.elapsed().as_secs_f64(), (n * 16) as f64);
        std::hint::black_box(r);
        let t = Instant::now();
        let r = unsafe { dpbusd(n) };
        report("vpdpbusd zmm", 64.0, t.elapsed().as_secs_f64(), (n * 16) as f64);
        std::hint::black_box(r);
    }
    if is_x86_feature_detected!("fma") && is_x86_feature_detected!("avx2") {
        let t = Instant::now();
        let r = unsafe { fma(n) };
        report("vfmadd ymm", 8.0, t.elapsed().as_secs_f64(), (n * 12) as f64);
        std::hint::black_box(r);
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("x86-64 only");
}
