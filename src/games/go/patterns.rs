//! 3x3 shape patterns around an empty point, after the hand-made set of
//! Gelly et al. (MoGo, 2006): hane, cut, and edge shapes that a strong
//! player would consider answering at once.
//!
//! A neighbourhood is coded in 16 bits, 2 per neighbour (empty, black,
//! white, off the board), and one 64 Ki-entry table says whether any
//! pattern matches it, under the 8 symmetries and with colours swapped.

use crate::go::{Board, Cell, Point};
use std::sync::OnceLock;

/// The patterns, rows top to bottom, the centre being the move. `X` is the
/// player to move, `O` the opponent, `.` empty, `x` not `O` (X or empty),
/// `o` not `X`, `#` off the board, `?` anything.
const PATTERNS: [&str; 13] = [
    "XOX...???", // hane: enclosing
    "XO....?.?", // hane: non-cutting
    "XO?X..x.?", // hane: magari
    ".O.X.....", // diagonal attachment
    "XO?O.o?o?", // cut: unprotected
    "XO?O.X???", // cut: peeped
    "?X?O.Oooo", // cut: de
    "OX?o.O???", // cut: keima
    "X.?O.?##?", // edge: chase
    "OX?X.O###", // edge: block the side cut
    "?X?x.O###", // edge: block the side connection
    "?XOx.x###", // edge: sagari
    "?OXX.O###", // edge: cut
];

/// The 8 neighbours in reading order, as (dx, dy).
const RING: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// One bit per code: 8 KiB, so lookups stay in the first-level cache.
pub struct Table([u64; 1 << 10]);

impl Table {
    /// Whether the 3x3 neighbourhood of the empty point `p` matches.
    #[inline]
    pub fn matches(&self, board: &Board, p: Point) -> bool {
        let c = code(board, p) as usize;
        self.0[c >> 6] >> (c & 63) & 1 == 1
    }
}

/// The pattern table, built on first use.
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut bits = [0u64; 1 << 10];
        for (c, &m) in build().iter().enumerate() {
            if m {
                bits[c >> 6] |= 1 << (c & 63);
            }
        }
        Table(bits)
    })
}

/// Whether the 3x3 neighbourhood of the empty point `p` matches a pattern.
#[inline]
pub fn matches(board: &Board, p: Point) -> bool {
    table().matches(board, p)
}

/// The 16-bit code of the neighbourhood of `p` (kept by the board).
#[inline]
pub fn code(board: &Board, p: Point) -> u16 {
    board.ring_code(p)
}

/// Cell kinds a pattern character allows (bit per `Cell` value), with `X`
/// standing for black.
fn allowed(ch: u8) -> u8 {
    let (e, b, w, off) = (
        1 << Cell::Empty as u8,
        1 << Cell::Black as u8,
        1 << Cell::White as u8,
        1 << Cell::Off as u8,
    );
    match ch {
        b'X' => b,
        b'O' => w,
        b'.' => e,
        b'x' => b | e,
        b'o' => w | e,
        b'#' => off,
        b'?' => e | b | w | off,
        _ => unreachable!("bad pattern character {}", ch as char),
    }
}

fn build() -> Vec<bool> {
    let mut table = vec![false; 1 << 16];
    for pat in PATTERNS {
        let cells: Vec<u8> = pat.bytes().collect();
        for sym in 0..8 {
            for swap in [false, true] {
                // position k of the ring reads pattern cell at the transformed offset
                let mut want = [0u8; 8];
                for (k, &(dx, dy)) in RING.iter().enumerate() {
                    let (tx, ty) = transform(dx, dy, sym);
                    let mut a = allowed(cells[((ty + 1) * 3 + tx + 1) as usize]);
                    if swap {
                        let (b, w) = (a >> Cell::Black as u8 & 1, a >> Cell::White as u8 & 1);
                        a &= !((1 << Cell::Black as u8) | (1 << Cell::White as u8));
                        a |= (b << Cell::White as u8) | (w << Cell::Black as u8);
                    }
                    want[k] = a;
                }
                // every code whose k-th cell is one the pattern allows there
                let mut codes = vec![0u32];
                for (k, &w) in want.iter().enumerate() {
                    codes = codes
                        .iter()
                        .flat_map(|&c| {
                            (0..4u32)
                                .filter(move |v| w >> v & 1 == 1)
                                .map(move |v| c | v << (2 * k))
                        })
                        .collect();
                }
                for c in codes {
                    table[c as usize] = true;
                }
            }
        }
    }
    table
}

/// The 8 symmetries of the square.
fn transform(dx: i32, dy: i32, sym: u32) -> (i32, i32) {
    let (x, y) = if sym & 4 != 0 { (dy, dx) } else { (dx, dy) };
    let x = if sym & 1 != 0 { -x } else { x };
    let y = if sym & 2 != 0 { -y } else { y };
    (x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(diagram: &str, x: usize, y: usize) -> bool {
        let b = Board::from_ascii(diagram).unwrap();
        matches(&b, b.point(x, y))
    }

    #[test]
    fn hane_and_cut_shapes_match_in_any_orientation_and_colour() {
        // enclosing hane: X O X above the centre
        assert!(at(
            ". . . . .\n. X O X .\n. . . . .\n. . . . .\n. . . . .",
            2,
            2
        ));
        // the same rotated and with colours swapped
        assert!(at(
            ". . . . .\n. . . O .\n. . . X .\n. . . O .\n. . . . .",
            2,
            2
        ));
        // unprotected cut
        assert!(at(
            ". . . . .\n. X O . .\n. O . . .\n. . . . .\n. . . . .",
            2,
            2
        ));
    }

    #[test]
    fn empty_and_plain_shapes_do_not_match() {
        assert!(!at(
            ". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .",
            2,
            2
        ));
        assert!(!at(
            ". . . . .\n. X . . .\n. . . . .\n. . . . .\n. . . . .",
            2,
            2
        ));
        // a lone stone beside, and a solid wall above: no hane, no cut
        assert!(!at(
            ". . . . .\n. . . . .\n. X . . .\n. . . . .\n. . . . .",
            2,
            2
        ));
        assert!(!at(
            ". . . . .\n. X X X .\n. . . . .\n. . . . .\n. . . . .",
            2,
            2
        ));
    }

    #[test]
    fn edge_shapes_need_the_edge() {
        // edge chase, bottom edge: X . / O . / # #
        assert!(at(
            ". . . . .\n. . . . .\n. . . . .\n. X . . .\n. O . . .",
            2,
            4
        ));
    }
}
