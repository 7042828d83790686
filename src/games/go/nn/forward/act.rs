//! The activations over whole layers, written so that they vectorise: an
//! exponential of plain arithmetic (no call, no branch), Mish and SiLU
//! through it, each loop compiled for AVX2 and FMA where the CPU has
//! them. They agree with [`Act::apply`] to float rounding (a few units in
//! the last place), which is how KataGo's vectorised backends differ from
//! its scalar ones too.

use super::super::desc::{Act, Norm, RmsNorm};

/// e^x to within 2 units in the last place (Cephes' `expf`): x split as
/// n ln 2 + r with |r| <= ln 2 / 2, a polynomial for e^r, 2^n put in the
/// exponent's bits. Below -86 it is e^-86: never subnormal, which would
/// cost a hundred cycles a value.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    let x = x.clamp(-86.0, 88.0);
    // round to an integer by adding 1.5 * 2^23: its low bits are then n
    let t = x * std::f32::consts::LOG2_E + 12582912.0;
    let n = t - 12582912.0;
    let r = x - n * 0.693_359_4 + n * 2.121_944_4e-4;
    let mut p = 1.987_569_1e-4;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 1.666_666_5e-1;
    p = p * r + 0.5;
    let e = p * r * r + r + 1.0;
    let bits = (t.to_bits().wrapping_sub(0x4b40_0000).wrapping_add(127)) << 23;
    e * f32::from_bits(bits)
}

/// Below this Mish and SiLU are taken as 0 (they are under 2e-16): their
/// products with small values would be subnormal, and each subnormal
/// costs a hundred cycles.
const FLUSH: f32 = -40.0;

/// Mish: x tanh(ln(1 + e^x)), as x n / (n + 2) with n = e^x (e^x + 2);
/// x itself past 20, as KataGo takes it.
#[inline(always)]
pub fn mish(x: f32) -> f32 {
    let e = exp(x.min(20.0));
    let n = e * (e + 2.0);
    match x {
        20.0.. => x,
        FLUSH.. => x * n / (n + 2.0),
        _ => 0.0,
    }
}

/// SiLU: x / (1 + e^-x).
#[inline(always)]
pub fn silu(x: f32) -> f32 {
    if x < FLUSH {
        0.0
    } else {
        x / (1.0 + exp(-x))
    }
}

/// `a` at `x` through the functions above.
#[inline(always)]
fn apply(a: Act, x: f32) -> f32 {
    match a {
        Act::Identity => x,
        Act::Relu => x.max(0.0),
        Act::Mish => mish(x),
        Act::Silu => silu(x),
    }
}

/// Runs `f` compiled for AVX-512, or AVX2 and FMA, where the CPU has
/// them: the same arithmetic in wider vectors (Rust fuses no multiply
/// and add by itself), so the same numbers.
macro_rules! multiversion {
    ($(#[$m:meta])* fn $name:ident($($arg:ident: $t:ty),*) $body:block) => {
        $(#[$m])*
        pub fn $name($($arg: $t),*) {
            #[inline(always)]
            fn generic($($arg: $t),*) $body
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512bw,avx2,fma")]
                unsafe fn avx512($($arg: $t),*) {
                    generic($($arg),*)
                }
                #[target_feature(enable = "avx2,fma")]
                unsafe fn avx2($($arg: $t),*) {
                    generic($($arg),*)
                }
                use std::arch::is_x86_feature_detected as has;
                if has!("avx512f") && has!("avx512bw") && has!("avx2") && has!("fma") {
                    // SAFETY: the CPU has them, just checked
                    return unsafe { avx512($($arg),*) };
                }
                if has!("avx2") && has!("fma") {
                    // SAFETY: as above
                    return unsafe { avx2($($arg),*) };
                }
            }
            generic($($arg),*)
        }
    };
}

multiversion! {
    /// `out = act(x * scale + bias)` channel by channel, `c` channels a
    /// point.
    fn norm_act(x: &[f32], n: &Norm, a: Act, out: &mut [f32]) {
        let c = n.scale.len();
        // one loop an activation, each its own vector loop
        macro_rules! each {
            ($f:expr) => {
                for (xs, os) in x.chunks_exact(c).zip(out.chunks_exact_mut(c)) {
                    for (((o, &x), &s), &b) in os.iter_mut().zip(xs).zip(&n.scale).zip(&n.bias) {
                        *o = $f(x * s + b);
                    }
                }
            };
        }
        match a {
            Act::Identity => each!(|v| apply(Act::Identity, v)),
            Act::Relu => each!(|v| apply(Act::Relu, v)),
            Act::Mish => each!(|v| apply(Act::Mish, v)),
            Act::Silu => each!(|v| apply(Act::Silu, v)),
        }
    }
}

multiversion! {
    /// SwiGLU's middle: `u = silu(u) * v`.
    fn silu_gate(u: &mut [f32], v: &[f32]) {
        for (u, &v) in u.iter_mut().zip(v) {
            *u = silu(*u) * v;
        }
    }
}

multiversion! {
    /// `x / rms(x) * weight` over each point's channels.
    fn rms_norm(x: &[f32], n: &RmsNorm, out: &mut [f32]) {
        let c = n.weight.len();
        for (xs, os) in x.chunks_exact(c).zip(out.chunks_exact_mut(c)) {
            // in 16 lanes, each a vector's lane: a sum in order waits on
            // each add in turn
            let mut lanes = [0f32; 16];
            let mut chunks = xs.chunks_exact(16);
            for ch in &mut chunks {
                lanes.iter_mut().zip(ch).for_each(|(l, v)| *l += v * v);
            }
            let sq = chunks.remainder().iter().map(|v| v * v).sum::<f32>() + lanes.iter().sum::<f32>();
            let r = 1.0 / (sq / c as f32 + n.epsilon).sqrt();
            for ((o, &x), &w) in os.iter_mut().zip(xs).zip(&n.weight) {
                *o = x * r * w;
            }
        }
    }
}

multiversion! {
    /// `x += y`.
    fn add(x: &mut [f32], y: &[f32]) {
        x.iter_mut().zip(y).for_each(|(x, y)| *x += y);
    }
}

multiversion! {
    /// Turns each pair of channels (2p, 2p + 1) of each of the `heads`
    /// heads of each point of `x` by its angle (cos, sin) in `table`:
    /// the point's `kv_heads` key heads' `pairs` pairs each, head `h`
    /// taking key head `h * kv_heads / heads`'s.
    fn rotate(x: &mut [f32], table: &[(f32, f32)], heads: usize, kv_heads: usize, pairs: usize) {
        let stride = heads * 2 * pairs;
        for (point, t) in x.chunks_exact_mut(stride).zip(table.chunks_exact(kv_heads * pairs)) {
            for (head, hx) in point.chunks_exact_mut(2 * pairs).enumerate() {
                let t = &t[head * kv_heads / heads * pairs..][..pairs];
                for (pair, &(cos, sin)) in hx.chunks_exact_mut(2).zip(t) {
                    let (x0, x1) = (pair[0], pair[1]);
                    pair[0] = x0 * cos - x1 * sin;
                    pair[1] = x0 * sin + x1 * cos;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activations_agree_with_the_scalar_ones() {
        let ulps =
            |a: f32, b: f32| (a - b).abs() / (a.abs().max(b.abs()) * f32::EPSILON).max(1e-30);
        for i in -4000..4000 {
            let x = i as f32 * 0.0137;
            let e = x.exp();
            assert!(ulps(exp(x), e) <= 2.0, "exp({x}) = {} not {e}", exp(x));
            for a in [Act::Mish, Act::Silu] {
                let (got, want) = (apply(a, x), a.apply(x));
                assert!(
                    (got - want).abs() <= 1e-6 * want.abs().max(1e-3) || (x < FLUSH && got == 0.0),
                    "{a:?}({x}) = {got} not {want}"
                );
            }
        }
        assert!(exp(-200.0) < 1e-37 && exp(100.0).is_finite());
        assert!(mish(1e9) == 1e9 && silu(-1e9).abs() < 1e-20);
    }
}
