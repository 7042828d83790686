//! The AMX backend's checks: the tile products equal plain loops over the
//! same bf16 values (to f32 rounding: the tiles sum in their own order),
//! on shapes that leave partial steps, tiles and pairs of tiles; the
//! convolutions by window, attention and SwiGLU are float's to bf16's
//! precision; a whole network keeps float's outputs. The kernels' checks
//! run where the CPU has AMX; the references' everywhere.

use super::tiles::{self, Packed, ROWS};
use super::*;
use crate::games::go::nn::desc::{Act, Block};
use crate::games::go::nn::float::Float;
use crate::games::go::nn::forward;
use crate::games::go::nn::tests::{largest_gap, tiny_models, Build, Numbers};

/// `n` random floats in [lo, hi).
fn floats(r: &mut Numbers, n: usize, lo: f32, hi: f32) -> Vec<f32> {
    (0..n)
        .map(|_| lo + (hi - lo) * (r.next() + 1.0) / 2.0)
        .collect()
}

/// The largest difference of `a` from `b`, over the largest `|b|`.
fn off(a: &[f32], b: &[f32]) -> f32 {
    let scale = b.iter().fold(1e-30f32, |m, v| m.max(v.abs()));
    largest_gap(a, b) / scale
}

#[test]
fn bf16_rounds_to_nearest_even() {
    assert_eq!(tiles::bf16(1.0), 0x3f80);
    // halfway between 1 and the next bf16 (1 + 2^-7): to the even one, 1
    assert_eq!(tiles::bf16(f32::from_bits(0x3f80_8000)), 0x3f80);
    // halfway above an odd one: up, to even
    assert_eq!(tiles::bf16(f32::from_bits(0x3f81_8000)), 0x3f82);
    assert_eq!(tiles::bf16(f32::from_bits(0x3f80_8001)), 0x3f81);
    assert_eq!(tiles::f32_of(tiles::bf16(-2.5)), -2.5);
    if runs_here() {
        let mut r = Build::new(9).r;
        let x = floats(&mut r, 37, -3.0, 3.0);
        let mut got = vec![7u16; 40];
        // SAFETY: runs_here said yes
        unsafe { tiles::to_bf16(&x, &mut got) };
        let want: Vec<u16> = x.iter().map(|&v| tiles::bf16(v)).collect();
        assert_eq!(&got[..37], &want[..]);
        assert_eq!(&got[37..], &[0, 0, 0]);
    }
}

#[test]
fn packed_weights_are_where_the_tiles_take_them() {
    let mut r = Build::new(1).r;
    let (k, n) = (40, 20);
    let w = floats(&mut r, k * n, -1.0, 1.0);
    let p = Packed::new(k, n, &w);
    assert_eq!((p.k_pad, p.n_pad, p.w().len()), (64, 32, 64 * 32));
    for ki in 0..p.k_pad {
        for ni in 0..p.n_pad {
            let want = if ki < k && ni < n {
                tiles::bf16(w[ki * n + ni])
            } else {
                0
            };
            assert_eq!(p.get(ki, ni), want, "input {ki}, output {ni}");
        }
    }
}

#[test]
fn tile_products_are_the_plain_sums() {
    if !runs_here() {
        return;
    }
    let mut r = Build::new(2).r;
    // (input tiles of rows, inputs, outputs): odd and even tiles of rows
    // and of outputs, inputs in partial steps
    for (t, k, n) in [
        (1, 32, 16),
        (2, 96, 96),
        (3, 40, 48),
        (4, 384, 64),
        (5, 7, 32),
    ] {
        let p = Packed::new(k, n, &floats(&mut r, k * n, -1.0, 1.0));
        let rows = t * ROWS;
        let x = floats(&mut r, rows * k, -2.0, 2.0);
        let mut a = vec![0u16; rows * p.k_pad];
        for (x, to) in x.chunks_exact(k).zip(a.chunks_exact_mut(p.k_pad)) {
            // SAFETY: runs_here said yes
            unsafe { tiles::to_bf16(x, to) };
        }
        // outputs a row wider than the matrix: the tiles keep to their columns
        let ldc = p.n_pad + 16;
        let start = floats(&mut r, rows * ldc, -1.0, 1.0);
        for add in [false, true] {
            let (mut got, mut want) = (start.clone(), start.clone());
            // SAFETY: runs_here said yes; the sizes as gemm asks
            unsafe {
                let on = tiles::On::new();
                tiles::gemm(&on, a.as_ptr(), t, &p, got.as_mut_ptr(), ldc, add);
            }
            tiles::reference(&a, rows, &p, &mut want, ldc, add);
            let e = off(&got, &want);
            assert!(e < 1e-5, "{t} tiles, {k} -> {n} (add {add}): {e}");
            for row in 0..rows {
                assert_eq!(
                    &got[row * ldc + p.n_pad..][..16],
                    &start[row * ldc + p.n_pad..][..16],
                    "past the outputs"
                );
            }
        }
    }
}

#[test]
fn convolutions_are_the_float_ones() {
    if !runs_here() {
        return;
    }
    let mut b = Build::new(3);
    // (side, inputs, outputs, board): the 5x5 input layer, 3x3s (inputs
    // of whole steps and not), 1x1s, odd boards
    for (k, cin, cout, (w, h)) in [
        (5, 22, 96, (19, 19)),
        (3, 96, 96, (19, 19)),
        (3, 40, 32, (7, 5)),
        (3, 64, 48, (1, 1)),
        (1, 40, 32, (9, 9)),
        (5, 3, 16, (7, 4)),
    ] {
        let conv = b.conv("c", k, cin, cout);
        let x = floats(&mut b.r, w * h * cin, -0.6, 1.4);
        let start = floats(&mut b.r, w * h * cout, -1.0, 1.0);
        let mut model = tiny_models().remove(0);
        model.trunk.conv = conv.clone();
        let amx = Amx::new(&model);
        for add in [false, true] {
            let (mut got, mut want) = (start.clone(), start.clone());
            amx.conv(&conv, &x, &mut got, w, h, add);
            Float.conv(&conv, &x, &mut want, w, h, add);
            // bf16's 8 bits of mantissa, in the inputs and the weights
            let e = off(&got, &want);
            assert!(
                e < 1e-2,
                "{k}x{k} {cin}->{cout} on {w}x{h} (add {add}): {e}"
            );
        }
        // a norm and activation taken as the inputs go to bf16
        for act in [Act::Identity, Act::Relu, Act::Silu, Act::Mish] {
            let n = b.norm("n", cin, act);
            let x = floats(&mut b.r, w * h * cin, -4.0, 4.0);
            let (mut got, mut want) = (start.clone(), start.clone());
            let t = &mut Vec::new();
            amx.conv_of((&n.0, n.1), &x, t, &conv, &mut got, w, h, true);
            Float.conv_of((&n.0, n.1), &x, t, &conv, &mut want, w, h, true);
            let e = off(&got, &want);
            assert!(e < 1e-2, "{k}x{k} {cin}->{cout} after {act:?}: {e}");
        }
    }
}

#[test]
fn attention_is_the_float_one() {
    if !runs_here() {
        return;
    }
    let mut b = Build::new(4);
    // the last case's scores reach 2^190 (in powers of two), past f32:
    // the softmax's second, shifted, pass; its queries and keys exact in
    // bf16 (integers, halves), so that its scores are exact
    for (heads, kv_heads, q_dim, v_dim, area, big) in [
        (2, 1, 8, 16, 361, false),
        (3, 3, 32, 32, 49, false),
        (1, 1, 40, 64, 5, false),
        (2, 2, 32, 32, 361, true),
    ] {
        let Block::Attention {
            attention: mut at, ..
        } = b.attention("a", 16, 1, 16)
        else {
            unreachable!("an attention block")
        };
        (at.heads, at.kv_heads, at.q_dim, at.v_dim) = (heads, kv_heads, q_dim, v_dim);
        let mut q = floats(&mut b.r, area * heads * q_dim, -1.5, 1.5);
        let mut k = floats(&mut b.r, area * kv_heads * q_dim, -1.5, 1.5);
        if big {
            q.iter_mut().for_each(|x| *x = (*x * 85.0).round());
            k.iter_mut()
                .for_each(|x| *x = (*x / 1.5 * 2.0).round() / 2.0);
        }
        let v = floats(&mut b.r, area * kv_heads * v_dim, -1.0, 1.0);
        let (mut got, mut want) = (
            vec![9.0; area * heads * v_dim],
            vec![0.0; area * heads * v_dim],
        );
        let mut sc = attention::Scratch::default();
        // SAFETY: runs_here said yes; v_dim whole tiles
        unsafe { attention::run(&at, &mut sc, &q, &k, &v, &mut got, area) };
        forward::attention(&at, &q, &k, &v, &mut want, area);
        let e = off(&got, &want);
        assert!(e < 2e-2, "{heads} heads over {area} points: {e} from float");
    }
}

#[test]
fn swiglu_is_the_float_one() {
    if !runs_here() {
        return;
    }
    // middles of whole steps take the fused products (a lone tile of
    // rows at 7 points, a part one at 361); 48 goes through the matrices
    for (c, hidden, points) in [(64, 96, 361), (32, 64, 7), (48, 48, 33)] {
        let mut b = Build::new(c as u64);
        let ffn = b.ffn("f", c, hidden);
        let model = b.model(15, c, vec![ffn], Act::Silu);
        let Block::Ffn { w1, gate, w2, .. } = &model.trunk.blocks[0] else {
            unreachable!("a feed-forward block")
        };
        let amx = Amx::new(&model);
        let x = floats(&mut b.r, points * c, -2.0, 2.0);
        let (mut got, mut want) = (vec![9.0; points * c], vec![0.0; points * c]);
        let ms = [w1, gate, w2];
        amx.swiglu(ms, &x, &mut got, points, [&mut Vec::new(), &mut Vec::new()]);
        forward::swiglu(
            &Float,
            ms,
            &x,
            &mut want,
            points,
            [&mut Vec::new(), &mut Vec::new()],
        );
        let e = off(&got, &want);
        assert!(
            e < 2e-2,
            "{c} -> {hidden} -> {c} on {points} points: {e} from float"
        );
    }
}

#[test]
fn networks_keep_floats_outputs() {
    if !runs_here() {
        return;
    }
    for model in tiny_models() {
        let amx = Amx::new(&model);
        for (w, h) in [(19, 19), (9, 9), (5, 7)] {
            let mut r = Build::new(w as u64).r;
            let spatial: Vec<u8> = (0..22 * w * h).map(|_| (r.next() > 0.3) as u8).collect();
            let global = floats(&mut r, 19, -0.5, 0.5);
            let a = forward::evaluate(&model, &amx, &spatial, &global, w, h);
            let f = forward::evaluate(&model, &Float, &spatial, &global, w, h);
            let e = off(&a.policy, &f.policy).max(off(&a.value, &f.value));
            assert!(e < 3e-2, "{} on {w}x{h}: {e} from float", model.kind());
        }
    }
}
