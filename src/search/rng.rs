//! The random source of playouts: xoshiro256++, seeded, so that a search
//! with a fixed seed and playout count is reproducible.

use crate::deps::Xoshiro256PlusPlus;
use crate::deps::{RngCore, SeedableRng};

#[derive(Clone, Debug)]
pub struct Rng(Xoshiro256PlusPlus);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (n > 0), by multiply-shift: no division.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((self.0.next_u32() as u64 * n as u64) >> 32) as usize
    }

    /// True with probability `num / den`.
    #[inline]
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        self.below(den as usize) < num as usize
    }

    /// A float in [0, 1).
    #[inline]
    pub fn unit(&mut self) -> f32 {
        (self.0.next_u32() >> 8) as f32 / (1u32 << 24) as f32
    }
}
