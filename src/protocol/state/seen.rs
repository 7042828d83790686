//! A field as the referee showed it, apart from the table that tracks the
//! game, so that the stories explaining it need not reach back.

use crate::go::{Board, Cell};
use crate::protocol::field::Dialect;

/// A field as read, in colours: each dialect's ids mapped to black and white
/// by that field's own dialect, so a change of dialect changes nothing.
#[derive(Clone, Debug)]
pub struct Seen {
    pub dialect: Dialect,
    pub width: usize,
    pub height: usize,
    /// The cells, a marked one (`-1`) read as empty.
    pub cells: Vec<Cell>,
    /// Whether each cell is marked `-1`.
    pub marked: Vec<bool>,
}

impl Seen {
    pub(super) fn any_marked(&self) -> bool {
        self.marked.iter().any(|&m| m)
    }

    /// Whether some unmarked empty cell has no empty neighbour (what the
    /// 1.0.3 referee would have marked).
    pub(super) fn unmarked_closed_point(&self) -> bool {
        let (w, h) = (self.width, self.height);
        let empty = |x: usize, y: usize| self.cells[y * w + x] == Cell::Empty;
        (0..w * h).any(|i| {
            let (x, y) = (i % w, i / w);
            empty(x, y)
                && !self.marked[i]
                && !(x > 0 && empty(x - 1, y)
                    || x + 1 < w && empty(x + 1, y)
                    || y > 0 && empty(x, y - 1)
                    || y + 1 < h && empty(x, y + 1))
        })
    }

    /// Whether `board` shows what this field shows: the same cells, and
    /// where the referee `marking` marks, `-1` exactly on the empty points
    /// with no empty neighbour and on the stones in `stale` ([`super::carry`]).
    pub(super) fn fits(&self, board: &Board, stale: &[bool], marking: bool) -> bool {
        board.points().enumerate().all(|(i, p)| {
            let cell = board.at(p);
            let mark = marking
                && match cell {
                    Cell::Empty => board.nbr_count(p, Cell::Empty) == 0,
                    _ => stale.get(i).copied().unwrap_or(false),
                };
            self.marked[i] == mark && (mark || cell == self.cells[i])
        })
    }
}
