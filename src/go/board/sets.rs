//! Small fixed sets used while playing a move: the strings around a point
//! (`Heads`) and a bit set of points (`PointSet`).

use crate::go::point::{Point, MAX_POINTS, NONE};

/// Up to four distinct strings around a point, named by their heads, packed
/// 16 bits a slot into one word (slot k in bits 16k..16k+16). Unused slots
/// hold 0, which no real point is, so membership tests every slot at once.
/// One word stays in a register: as a small array written slot by slot and
/// then read whole, it stalled store forwarding on every move.
#[derive(Clone, Copy)]
pub(super) struct Heads {
    bits: u64,
    pub(super) n: u32,
}

impl Heads {
    const LANES: u64 = 0x0001_0001_0001_0001;

    #[inline]
    pub(super) fn new() -> Heads {
        Heads { bits: 0, n: 0 }
    }
    /// Whether a slot holds `x` (a zero-lane test on the word xor `x`).
    #[inline(always)]
    pub(super) fn contains(&self, x: u16) -> bool {
        let v = self.bits ^ (x as u64).wrapping_mul(Self::LANES);
        v.wrapping_sub(Self::LANES) & !v & (Self::LANES << 15) != 0
    }
    /// Adds `h`; true if it was not there yet.
    #[inline]
    pub(super) fn insert(&mut self, h: u16) -> bool {
        debug_assert!(h != NONE);
        let fresh = !self.contains(h);
        self.push_if(h, fresh);
        fresh
    }
    /// Appends `h` when `yes`, without a branch; unused slots stay 0.
    #[inline(always)]
    pub(super) fn push_if(&mut self, h: u16, yes: bool) {
        self.bits |= ((h as u64) << (16 * (self.n & 3))) & (yes as u64).wrapping_neg();
        self.n += yes as u32;
    }
    #[inline(always)]
    pub(super) fn get(&self, k: u32) -> u16 {
        (self.bits >> (16 * (k & 3))) as u16
    }
    #[inline]
    pub(super) fn iter(self) -> impl Iterator<Item = u16> {
        (0..self.n).map(move |k| self.get(k))
    }
}

/// A set of points as a fixed bit array; cheap to create on the stack.
#[derive(Clone)]
pub struct PointSet([u64; MAX_POINTS.div_ceil(64)]);

impl Default for PointSet {
    fn default() -> Self {
        Self::new()
    }
}

impl PointSet {
    #[inline]
    pub fn new() -> Self {
        PointSet([0; MAX_POINTS.div_ceil(64)])
    }
    /// Adds `p`; true if it was not there yet.
    #[inline]
    pub fn insert(&mut self, p: Point) -> bool {
        let (w, b) = (p.idx() >> 6, 1u64 << (p.idx() & 63));
        let fresh = self.0[w] & b == 0;
        self.0[w] |= b;
        fresh
    }
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        self.0[p.idx() >> 6] & (1u64 << (p.idx() & 63)) != 0
    }
}
