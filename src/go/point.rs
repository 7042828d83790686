//! Points of the framed board and its size limits: what the board, its
//! sets and the moves share, apart from the board so none reaches back.

/// Largest supported width or height.
pub const MAX_SIZE: usize = 25;
/// Length of the per-point arrays: the framed largest board needs
/// (25 + 2) * (25 + 1) + 1 = 703 cells; a power of two lets indices be
/// masked instead of bounds-checked.
pub const MAX_POINTS: usize = 1024;
const _: () = assert!((MAX_SIZE + 2) * (MAX_SIZE + 1) < MAX_POINTS);

/// No string head, no ko: index 0, always in the frame.
pub(super) const NONE: u16 = 0;

/// An index into the framed board. Index 0 is always in the frame, so no real
/// point is ever 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub u16);

impl Point {
    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize & (MAX_POINTS - 1)
    }
}
