//! Attention for the 8-bit backend.

use super::Kernel;
use crate::games::go::nn::desc::Attention;
use crate::games::go::nn::forward;

pub fn run(
    _k: Kernel,
    at: &Attention,
    q: &[f32],
    k: &[f32],
    v: &[f32],
    out: &mut [f32],
    points: usize,
) {
    forward::attention(at, q, k, v, out, points)
}
