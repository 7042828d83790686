//! Intel AMX's tile instructions for bf16 matrix products: eight tile
//! registers of 16 rows by 64 bytes, `tdpbf16ps` adding a 16 x 32 bf16
//! tile times a 32 x 16 one into a 16 x 16 f32 one (products exact in
//! f32, summed in f32). Written as inline assembly (Rust's AMX
//! intrinsics are not stable); the tile registers are not the compiler's,
//! so nothing it holds is clobbered.
//!
//! [`Packed`]: a matrix's weights as the tiles take them; [`gemm`]: rows
//! of bf16 inputs times them into f32 outputs; [`bf16`] and [`to_bf16`]:
//! rounding floats to bf16 (to nearest, ties to even), as the scalar
//! reference of the tests does.

use crate::games::go::nn::forward::{line_start, sized};
#[cfg(target_arch = "x86_64")]
use std::arch::asm;
use std::sync::OnceLock;

/// Rows of a tile; f32 or bf16 pairs a row.
pub const ROWS: usize = 16;
/// bf16 values a row of an input tile (32 = 64 bytes).
pub const K_STEP: usize = 32;

/// The weights [`gemm`] keeps in L1 (of 48 KB) at a time.
const SPAN_BYTES: usize = 24 << 10;

/// Whether this CPU and its OS run AMX with bf16: cpuid's AMX-TILE and
/// AMX-BF16 with AVX-512 BW and BF16 (for the conversions), and Linux
/// granting the process the tile data (`arch_prctl(ARCH_REQ_XCOMP_PERM)`),
/// asked once. Using a tile before that grant kills the process (SIGILL).
pub fn available() -> bool {
    static OK: OnceLock<bool> = OnceLock::new();
    *OK.get_or_init(|| {
        #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
        {
            use std::arch::is_x86_feature_detected as has;
            #[allow(unused_unsafe)]
            // SAFETY: cpuid exists on every x86_64 CPU
            let id = unsafe { std::arch::x86_64::__cpuid_count(7, 0) };
            let (bf16, tile) = (id.edx >> 22 & 1 == 1, id.edx >> 24 & 1 == 1);
            let vectors = has!("avx512f") && has!("avx512bw") && has!("avx512bf16");
            // SAFETY: a system call that only sets a permission
            bf16 && tile && vectors && unsafe { request() }
        }
        #[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
        false
    })
}

/// Asks Linux for the tile data state (feature 18) for this process.
///
/// # Safety
/// Linux on x86_64.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
unsafe fn request() -> bool {
    const ARCH_REQ_XCOMP_PERM: i64 = 0x1023;
    const XFEATURE_XTILEDATA: i64 = 18;
    let r: i64;
    asm!(
        "syscall",
        inlateout("rax") 158i64 => r, // arch_prctl
        in("rdi") ARCH_REQ_XCOMP_PERM,
        in("rsi") XFEATURE_XTILEDATA,
        lateout("rcx") _,
        lateout("r11") _,
        options(nostack),
    );
    r == 0
}

/// `x` rounded to bf16 (to nearest, ties to even; not NaN-aware: the
/// networks' values are finite).
#[inline(always)]
pub fn bf16(x: f32) -> u16 {
    let b = x.to_bits();
    (b.wrapping_add(0x7fff + (b >> 16 & 1)) >> 16) as u16
}

/// The float a bf16 stands for.
#[inline(always)]
pub fn f32_of(b: u16) -> f32 {
    f32::from_bits((b as u32) << 16)
}

/// `x` into `to` as bf16, zeros past `x` (16 at a time where the CPU
/// has AVX-512).
///
/// # Safety
/// The CPU must have AVX-512 F and BW ([`available`] checks it).
#[inline]
#[cfg_attr(target_arch = "x86_64", target_feature(enable = "avx512f,avx512bw"))]
pub unsafe fn to_bf16(x: &[f32], to: &mut [u16]) {
    assert!(to.len() >= x.len());
    let whole = x.len() / 16 * 16;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let (one, round) = (_mm512_set1_epi32(1), _mm512_set1_epi32(0x7fff));
        for i in (0..whole).step_by(16) {
            let b = _mm512_loadu_si512(x.as_ptr().add(i).cast());
            let odd = _mm512_and_si512(_mm512_srli_epi32(b, 16), one);
            let r = _mm512_srli_epi32(_mm512_add_epi32(b, _mm512_add_epi32(round, odd)), 16);
            _mm256_storeu_si256(to.as_mut_ptr().add(i).cast(), _mm512_cvtepi32_epi16(r));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let whole = 0;
    for (t, &v) in to[whole..].iter_mut().zip(&x[whole..]) {
        *t = bf16(v);
    }
    to[x.len()..].fill(0);
}

/// A `k` x `n` matrix (inputs by outputs) as bf16 tiles: by block of 16
/// outputs, step of 32 inputs, pair of inputs and output, the pair's two
/// values, each (block, step) one 1 KB tile; zeros past `k` and `n`.
pub struct Packed {
    pub k: usize,
    pub n: usize,
    /// `k` rounded up to [`K_STEP`].
    pub k_pad: usize,
    /// `n` rounded up to 16.
    pub n_pad: usize,
    /// The weights, from [`Packed::w`]'s 64-byte boundary on.
    w: Vec<u16>,
}

impl Packed {
    /// `w` (`k` rows of `n`) packed.
    pub fn new(k: usize, n: usize, w: &[f32]) -> Packed {
        let mut p = Packed {
            k: 0,
            n: 0,
            k_pad: 0,
            n_pad: 0,
            w: Vec::new(),
        };
        assert_eq!(w.len(), k * n);
        p.refill_with(k, n, |ki, ni| w[ki * n + ni]);
        p
    }

    /// This matrix made the `k` x `n` one whose value at input `ki` and
    /// output `ni` is `get(ki, ni)`, in the same memory; written in the
    /// tiles' order.
    pub fn refill_with(&mut self, k: usize, n: usize, get: impl Fn(usize, usize) -> f32) {
        let (k_pad, n_pad) = (k.next_multiple_of(K_STEP), n.next_multiple_of(ROWS));
        let mut to = self.reshape(k, n).iter_mut();
        for n0 in (0..n_pad).step_by(16) {
            for ki in (0..k_pad).step_by(2) {
                for ni in n0..n0 + 16 {
                    for ki in [ki, ki + 1] {
                        let v = if ki < k && ni < n {
                            bf16(get(ki, ni))
                        } else {
                            0
                        };
                        *to.next().expect("k_pad * n_pad values") = v;
                    }
                }
            }
        }
    }

    /// This matrix made `k` x `n`, in the same memory: its weights (as
    /// [`Packed::w`]) for the caller to write, every one, in the tiles'
    /// order ([`Packed::at`]).
    pub fn reshape(&mut self, k: usize, n: usize) -> &mut [u16] {
        let (k_pad, n_pad) = (k.next_multiple_of(K_STEP), n.next_multiple_of(ROWS));
        (self.k, self.n, self.k_pad, self.n_pad) = (k, n, k_pad, n_pad);
        sized(&mut self.w, k_pad * n_pad)
    }

    /// Where input `ki`'s weight for output `ni` is kept.
    pub fn at(k_pad: usize, ki: usize, ni: usize) -> usize {
        let tile = (ni / 16 * (k_pad / K_STEP) + ki / K_STEP) * 512;
        tile + (ki % K_STEP / 2) * 32 + ni % 16 * 2 + ki % 2
    }

    /// The weights in the tiles' order, 64-byte aligned (the tiles load
    /// aligned rows several times faster).
    pub fn w(&self) -> &[u16] {
        &self.w[line_start(&self.w)..][..self.k_pad * self.n_pad]
    }

    /// The bf16 weight of input `ki` for output `ni`.
    pub fn get(&self, ki: usize, ni: usize) -> u16 {
        self.w()[Packed::at(self.k_pad, ki, ni)]
    }
}

/// The tile registers configured (all eight 16 rows by 64 bytes) for
/// this thread while it lives; released when dropped.
pub struct On(());

/// The tile configuration `ldtilecfg` reads.
#[repr(C, align(64))]
struct Config {
    palette: u8,
    start_row: u8,
    reserved: [u8; 14],
    colsb: [u16; 16],
    rows: [u8; 16],
}

impl On {
    /// Configures the tiles.
    ///
    /// # Safety
    /// [`available`] must have said yes.
    pub unsafe fn new() -> On {
        let mut c = Config {
            palette: 1,
            start_row: 0,
            reserved: [0; 14],
            colsb: [0; 16],
            rows: [0; 16],
        };
        c.colsb[..8].fill(64);
        c.rows[..8].fill(ROWS as u8);
        #[cfg(target_arch = "x86_64")]
        asm!("ldtilecfg [{}]", in(reg) &c, options(nostack, readonly));
        On(())
    }
}

impl Drop for On {
    fn drop(&mut self) {
        // SAFETY: the tiles were configured by `On::new`
        #[cfg(target_arch = "x86_64")]
        unsafe {
            asm!("tilerelease", options(nostack, nomem))
        };
    }
}

#[cfg(target_arch = "x86_64")]
mod ops {
    use std::arch::asm;

    /// Tile `T` from `p`, rows `stride` bytes apart.
    #[inline(always)]
    pub unsafe fn load<const T: u8>(p: *const u8, stride: usize) {
        asm!("tileloadd tmm{t}, [{p} + {s}*1]", t = const T, p = in(reg) p, s = in(reg) stride,
            options(nostack, readonly));
    }

    /// Tile `T` to `p`, rows `stride` bytes apart.
    #[inline(always)]
    pub unsafe fn store<const T: u8>(p: *mut u8, stride: usize) {
        asm!("tilestored [{p} + {s}*1], tmm{t}", t = const T, p = in(reg) p, s = in(reg) stride,
            options(nostack));
    }

    /// Tile `T` to zeros.
    #[inline(always)]
    pub unsafe fn zero<const T: u8>() {
        asm!("tilezero tmm{t}", t = const T, options(nostack, nomem));
    }

    /// Tile `C` += tile `A` (bf16 pairs) times tile `B` (bf16 pairs).
    #[inline(always)]
    pub unsafe fn dot<const C: u8, const A: u8, const B: u8>() {
        asm!("tdpbf16ps tmm{c}, tmm{a}, tmm{b}", c = const C, a = const A, b = const B,
            options(nostack, nomem));
    }
}

/// `c` (`tiles * 16` rows of `b.n_pad` f32, `ldc` apart) set to, or with
/// `add` added to, `a` (`tiles * 16` rows of `b.k_pad` bf16, zeros past
/// the inputs) times `b`. Two by two tiles of sums at a time, over every
/// step of inputs: two input tiles and two weight tiles loaded a step.
///
/// # Safety
/// `on` for this thread; `a` and `c` that many rows; `ldc >= b.n_pad`.
#[cfg(target_arch = "x86_64")]
pub unsafe fn gemm(
    on: &On,
    a: *const u16,
    tiles: usize,
    b: &Packed,
    c: *mut f32,
    ldc: usize,
    add: bool,
) {
    let k = b.k_pad;
    gemm_by(on, a, k, |s| (s * K_STEP) as isize, tiles, b, c, ldc, add)
}

/// [`gemm`] with step `s`'s input tile at `a + step(s)` (in bf16 values
/// from each tile of rows' first), rows `lda` apart: a convolution's
/// steps read the rows of a padded board shifted to each window
/// position, with no copy of each point's window.
///
/// # Safety
/// As [`gemm`], every row `a` and `step` reach within one allocation.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub unsafe fn gemm_by(
    _on: &On,
    a: *const u16,
    lda: usize,
    step: impl Fn(usize) -> isize,
    tiles: usize,
    b: &Packed,
    c: *mut f32,
    ldc: usize,
    add: bool,
) {
    assert!(ldc >= b.n_pad);
    let (steps, cols) = (b.k_pad / K_STEP, b.n_pad / 16);
    let (lda, ldcb) = (lda * 2, ldc * 4);
    let at = |p: *const u8, s: usize| p.wrapping_offset(step(s) * 2);
    // the weights of a span of output tiles (to 24 KB) stay in L1 while
    // every pair of input tiles passes, each pair kept for the span
    let span = (SPAN_BYTES / (steps * 1024)).max(2) & !1;
    for first in (0..cols).step_by(span) {
        for r in (0..tiles).step_by(2) {
            let two = r + 1 < tiles;
            let a0 = a.cast::<u8>().add(r * ROWS * lda);
            let a1 = a0.wrapping_add(ROWS * lda);
            for col in (first..cols.min(first + span)).step_by(2) {
                let twoc = col + 1 < cols;
                let c0 = c.add(r * ROWS * ldc + col * 16).cast::<u8>();
                let w0 = b.w().as_ptr().add(col * steps * 512).cast::<u8>();
                let w1 = w0.wrapping_add(steps * 1024);
                let (a0, a1) = (|s| at(a0, s), |s| at(a1, s));
                block(a0, a1, lda, [w0, w1], steps, (two, twoc), c0, ldcb, add);
            }
        }
    }
}

/// SwiGLU's first products: `a` (`tiles` tiles of rows of `u.k_pad`
/// inputs) times `u` and `g` (packed alike). For each pair of row tiles
/// and 16 columns, `u`'s sums and `g`'s side by side (a 32 x 32 block of
/// f32, `u`'s 16 columns first; 16 rows for a last lone tile) go to
/// `done(row tile, column tile, block)` while they are in L1: the
/// middle's f32 never reaches memory.
///
/// # Safety
/// As [`gemm`].
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub unsafe fn gated(
    _on: &On,
    a: *const u16,
    tiles: usize,
    [u, g]: [&Packed; 2],
    mut done: impl FnMut(usize, usize, &[f32]),
) {
    assert!(u.k_pad == g.k_pad && u.n_pad == g.n_pad);
    #[repr(align(64))]
    struct Block([f32; 2 * ROWS * 32]);
    let mut sums = Block([0.0; 2 * ROWS * 32]);
    let (steps, cols, lda) = (u.k_pad / K_STEP, u.n_pad / 16, u.k_pad * 2);
    // as gemm's span, a tile of each matrix a column
    let span = (SPAN_BYTES / (2 * steps * 1024)).max(1);
    for first in (0..cols).step_by(span) {
        for r in (0..tiles).step_by(2) {
            let two = r + 1 < tiles;
            let a0 = a.cast::<u8>().add(r * ROWS * lda);
            let a1 = a0.wrapping_add(ROWS * lda);
            for col in first..cols.min(first + span) {
                let w = [u, g].map(|m| m.w().as_ptr().add(col * steps * 512).cast::<u8>());
                let (a0, a1) = (|s| a0.add(s * K_STEP * 2), |s| a1.add(s * K_STEP * 2));
                let c = sums.0.as_mut_ptr().cast::<u8>();
                block(a0, a1, lda, w, steps, (two, true), c, 32 * 4, false);
                done(
                    r,
                    col,
                    &sums.0[..if two { 2 * ROWS * 32 } else { ROWS * 32 }],
                );
            }
        }
    }
}

/// A block of [`gemm_by`]: the sums of input tiles `a0(s)` and `a1(s)`
/// (the second only if `two`) by weight tiles `w0` and `w1` (the second
/// only if `twoc`), each `steps` steps, into the tiles at `c0` (`w1`'s
/// 64 bytes on, `a1`'s 16 rows of `ldcb` bytes on), added to what they
/// hold when `add`.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn block(
    a0: impl Fn(usize) -> *const u8,
    a1: impl Fn(usize) -> *const u8,
    lda: usize,
    [w0, w1]: [*const u8; 2],
    steps: usize,
    (two, twoc): (bool, bool),
    c0: *mut u8,
    ldcb: usize,
    add: bool,
) {
    use ops::*;
    let (c1, c2) = (c0.wrapping_add(64), c0.wrapping_add(ROWS * ldcb));
    let c3 = c2.wrapping_add(64);
    if add {
        load::<0>(c0, ldcb);
        if twoc {
            load::<1>(c1, ldcb);
        }
        if two {
            load::<2>(c2, ldcb);
            if twoc {
                load::<3>(c3, ldcb);
            }
        }
    } else {
        zero::<0>();
        zero::<1>();
        zero::<2>();
        zero::<3>();
    }
    if two && twoc {
        // the common case, without branches: each tile reloaded for the
        // next step as soon as its last product of this one is issued
        // (tiles are not renamed: a load waits for the products reading it)
        load::<4>(a0(0), lda);
        load::<6>(w0, 64);
        load::<5>(a1(0), lda);
        load::<7>(w1, 64);
        for s in 1..=steps {
            let more = s < steps;
            dot::<0, 4, 6>();
            dot::<1, 4, 7>();
            if more {
                load::<4>(a0(s), lda);
            }
            dot::<2, 5, 6>();
            if more {
                load::<6>(w0.add(s * 1024), 64);
            }
            dot::<3, 5, 7>();
            if more {
                load::<5>(a1(s), lda);
                load::<7>(w1.add(s * 1024), 64);
            }
        }
    } else {
        edge(a0, a1, w0, w1, lda, steps, two, twoc);
    }
    store::<0>(c0, ldcb);
    if twoc {
        store::<1>(c1, ldcb);
    }
    if two {
        store::<2>(c2, ldcb);
        if twoc {
            store::<3>(c3, ldcb);
        }
    }
}

/// [`gemm`]'s steps where the inputs or the weights are a single tile.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn edge(
    a0: impl Fn(usize) -> *const u8,
    a1: impl Fn(usize) -> *const u8,
    w0: *const u8,
    w1: *const u8,
    lda: usize,
    steps: usize,
    two: bool,
    twoc: bool,
) {
    use ops::*;
    for s in 0..steps {
        load::<4>(a0(s), lda);
        load::<6>(w0.add(s * 1024), 64);
        dot::<0, 4, 6>();
        if twoc {
            load::<7>(w1.wrapping_add(s * 1024), 64);
            dot::<1, 4, 7>();
        }
        if two {
            load::<5>(a1(s), lda);
            dot::<2, 5, 6>();
            if twoc {
                dot::<3, 5, 7>();
            }
        }
    }
}

/// [`gemm`] in plain loops: the reference the tests hold it to (within
/// f32 rounding: the tiles sum in their own order).
pub fn reference(a: &[u16], rows: usize, b: &Packed, c: &mut [f32], ldc: usize, add: bool) {
    for r in 0..rows {
        for n in 0..b.n_pad {
            let s: f64 = (0..b.k_pad)
                .map(|k| f32_of(a[r * b.k_pad + k]) as f64 * f32_of(b.get(k, n)) as f64)
                .sum();
            let o = &mut c[r * ldc + n];
            *o = s as f32 + if add { *o } else { 0.0 };
        }
    }
}
