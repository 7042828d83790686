//! What a move looks like to the learnt prior: a few features, each from
//! one group (the shape around the point, the distance to the last two
//! moves, the line and how crowded the area is, tactics), that
//! `tengen learn` weighs from game records and [`super::gammas`] reads
//! back. The same function describes a move in both, so the weights learnt
//! are the weights used.

use crate::go::{Board, Cell, Color, Move, Point};

/// The feature groups, in the order of [`Features`]' slots.
pub const GROUPS: [&str; 8] = [
    "shape",
    "dist_last",
    "dist_last2",
    "line",
    "capture",
    "escape",
    "self_atari",
    "atari",
];

/// One key per group; 0 where the feature is absent (it then weighs 1).
/// The shape is as it stands on the board: [`canonical`] names it the same
/// under the symmetries.
pub type Features = [u32; GROUPS.len()];

/// The 8 neighbours as (dx, dy), orthogonal ones first.
const AROUND: [(i32, i32); 8] = [
    (0, -1),
    (-1, 0),
    (1, 0),
    (0, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
];

/// The features of `c` playing the legal point `p`.
pub fn features(b: &Board, c: Color, p: Point) -> Features {
    let mut f = [0; GROUPS.len()];
    f[0] = shape_code(b, c, p);
    let last = b.last_moves();
    f[1] = distance(b, p, last[0]);
    f[2] = distance(b, p, last[1]);
    f[3] = line(b, p);
    let captured = b.captured_by(c, p);
    let (own_in_atari, atari_given) = tactics(b, c, p);
    f[4] = match captured {
        0 => 0,
        1 => 1,
        2..=3 => 2,
        _ => 3,
    };
    // three liberties tell a safe escape from a ladder-prone one; two
    // are enough for the rest
    let libs = b.liberties_after(c, p, if own_in_atari { 3 } else { 2 });
    if own_in_atari {
        f[5] = libs.max(1) as u32; // 1: the string stays in atari
    }
    if captured == 0 && libs <= 1 {
        f[6] = match b.joined_size(c, p) {
            1 => 1,
            2..=3 => 2,
            _ => 3,
        };
    }
    if atari_given > 0 && libs >= 2 {
        f[7] = if atari_given >= 3 { 2 } else { 1 };
    }
    f
}

/// The 3x3 around `p` as it stands, 3 bits a neighbour in the order of
/// [`AROUND`], plus 1 so that no shape is 0: 0 empty, 1 off the board,
/// 2-4 own stone (1, 2, 3+ liberties; diagonal stones count 2), 5-7 the
/// opponent's.
pub fn shape_code(b: &Board, c: Color, p: Point) -> u32 {
    // the board's ring runs NW N NE W E SW S SE
    const RING_AT: [usize; 8] = [1, 3, 4, 6, 0, 2, 5, 7];
    let ring = b.ring(p);
    let mut code = 0;
    for (k, &r) in RING_AT.iter().enumerate() {
        let q = ring[r];
        let value = match b.at(q) {
            Cell::Empty => 0,
            Cell::Off => 1,
            cell => {
                let side = if cell == c.stone() { 2 } else { 5 };
                // diagonal stones: colour only
                let libs = if k < 4 {
                    b.liberty_count(q).min(3) as u32 - 1
                } else {
                    0
                };
                side + libs
            }
        };
        code = code << 3 | value;
    }
    code + 1
}

/// Where each neighbour of [`AROUND`] goes under symmetry `s`: bit 0
/// mirrors x, bit 1 mirrors y, bit 2 swaps the axes.
fn symmetry(s: usize) -> [usize; 8] {
    let mut to = [0; 8];
    for (k, &(dx, dy)) in AROUND.iter().enumerate() {
        let (mut x, mut y) = (dx, dy);
        if s & 1 != 0 {
            x = -x;
        }
        if s & 2 != 0 {
            y = -y;
        }
        if s & 4 != 0 {
            (x, y) = (y, x);
        }
        to[k] = AROUND
            .iter()
            .position(|&d| d == (x, y))
            .expect("a neighbour");
    }
    to
}

/// The 8 codes of a [`shape_code`] under the symmetries (some may repeat).
pub fn variants(code: u32) -> [u32; 8] {
    let raw = code - 1;
    let mut out = [0; 8];
    for (s, v) in out.iter_mut().enumerate() {
        let to = symmetry(s);
        let mut moved = [0; 8];
        for k in 0..8 {
            moved[to[k]] = raw >> (3 * (7 - k)) & 7;
        }
        *v = moved.iter().fold(0, |acc, &x| acc << 3 | x) + 1;
    }
    out
}

/// The smallest of a shape's codes under the symmetries.
pub fn canonical(code: u32) -> u32 {
    variants(code).into_iter().min().expect("8 codes")
}

/// Distance to `mv` as Coulom (2007) measures it, dx + dy + max(dx, dy),
/// capped at 17; 1 when it was a pass (or there was none).
fn distance(b: &Board, p: Point, mv: Move) -> u32 {
    let Move::Play(q) = mv else { return 1 };
    let ((x, y), (qx, qy)) = (b.xy(p), b.xy(q));
    let (dx, dy) = (x.abs_diff(qx), y.abs_diff(qy));
    (dx + dy + dx.max(dy)).min(17) as u32
}

/// The line (1 to 5, 5 for the centre) and how many stones lie within
/// Manhattan distance 3 (none, 1-2, 3-5, 6+).
fn line(b: &Board, p: Point) -> u32 {
    let (x, y) = b.xy(p);
    let (w, h) = (b.width() as i64, b.height() as i64);
    let line = x
        .min(y)
        .min(b.width() - 1 - x)
        .min(b.height() - 1 - y)
        .min(4) as u32;
    let mut stones = 0;
    for dy in -3i64..=3 {
        let row = y as i64 + dy;
        if !(0..h).contains(&row) {
            continue;
        }
        let r = 3 - dy.abs();
        let (from, to) = ((x as i64 - r).max(0), (x as i64 + r).min(w - 1));
        let start = b.point(from as usize, row as usize).0;
        for i in 0..=(to - from) as u16 {
            stones += b.at(Point(start + i)).is_stone() as u32;
        }
    }
    let crowd = match stones {
        0 => 0,
        1..=2 => 1,
        3..=5 => 2,
        _ => 3,
    };
    1 + line * 4 + crowd
}

/// Whether an own string next to `p` is in atari, and the size of the
/// largest enemy string next to `p` with two liberties (which the move
/// puts in atari).
fn tactics(b: &Board, c: Color, p: Point) -> (bool, usize) {
    let (mut own_in_atari, mut atari) = (false, 0);
    for n in b.neighbors(p) {
        let Some(owner) = b.at(n).color() else {
            continue;
        };
        let libs = b.liberty_count(n);
        if owner == c {
            own_in_atari |= libs == 1;
        } else if libs == 2 {
            atari = atari.max(b.string_size(n));
        }
    }
    (own_in_atari, atari)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black to play a hane at the head of two stones, at (2, 2).
    const HANE: &str = ". . . . .\n\
                        . . X O .\n\
                        . . . X .\n\
                        . . . . .\n\
                        . . . . .";

    #[test]
    fn the_shape_is_the_same_under_symmetry_and_colour() {
        let shape = |b: &Board, c, p| canonical(shape_code(b, c, p));
        // a hane at the head of two stones, seen from both players and
        // mirrored
        let black = Board::from_ascii(HANE).unwrap();
        let white = Board::from_ascii(
            ". . . . .\n\
             . X O . .\n\
             . O . . .\n\
             . . . . .\n\
             . . . . .",
        )
        .unwrap();
        let a = shape(&black, Color::Black, black.point(2, 2));
        let b = shape(&white, Color::White, white.point(2, 2));
        assert_eq!(a, b);
        // the other side sees another shape
        assert_ne!(a, shape(&black, Color::White, black.point(2, 2)));
        // and one liberty less on a neighbour is another shape too
        let crowded = Board::from_ascii(
            ". . . . .\n\
             . . X O .\n\
             . . . X O\n\
             . . . . .\n\
             . . . . .",
        )
        .unwrap();
        assert_ne!(a, shape(&crowded, Color::Black, crowded.point(2, 2)));
    }

    #[test]
    fn tactics_see_captures_escapes_self_ataris_and_ataris() {
        let b = Board::from_ascii(
            ". X . . .\n\
             X O . . .\n\
             . X . . .",
        )
        .unwrap();
        // black takes the white stone's last liberty
        let f = features(&b, Color::Black, b.point(2, 1));
        assert_eq!((f[4], f[5], f[6]), (1, 0, 0));
        // white extends it to three liberties
        let f = features(&b, Color::White, b.point(2, 1));
        assert_eq!((f[4], f[5], f[6]), (0, 3, 0));
        let b = Board::from_ascii(
            ". X . . .\n\
             X . X . .\n\
             . . . . .",
        )
        .unwrap();
        // white in the mouth of three black stones has one liberty left
        let f = features(&b, Color::White, b.point(1, 1));
        assert_eq!((f[4], f[6], f[7]), (0, 1, 0));
        let b = Board::from_ascii(
            ". O . . .\n\
             . X . . .\n\
             . . . . .",
        )
        .unwrap();
        // black takes a liberty of the two-liberty white stone
        let f = features(&b, Color::Black, b.point(2, 0));
        assert_eq!((f[6], f[7]), (0, 1));
        // and black's move far away gives no atari
        assert_eq!(features(&b, Color::Black, b.point(4, 2))[7], 0);
    }

    #[test]
    fn variants_are_the_symmetries_of_a_shape() {
        let b = Board::from_ascii(HANE).unwrap();
        let code = shape_code(&b, Color::Black, b.point(2, 2));
        let all = variants(code);
        assert!(all.contains(&code));
        // a hane has no symmetry of its own but the diagonal mirror
        let mut distinct = all.to_vec();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 4);
        for v in all {
            assert_eq!(canonical(v), canonical(code));
            assert!(variants(v).contains(&code));
        }
    }

    #[test]
    fn distances_and_lines_follow_the_board() {
        let mut b = Board::new(19, 19);
        b.play_legal(Color::Black, b.point(3, 3));
        let next = b.point(3, 4);
        // dx + dy + max = 0 + 1 + 1
        assert_eq!(distance(&b, next, b.last_moves()[0]), 2);
        assert_eq!(distance(&b, next, b.last_moves()[1]), 1);
        // line 4 (index 3), one stone within 3
        assert_eq!(line(&b, next), 1 + 3 * 4 + 1);
        assert_eq!(line(&b, b.point(9, 9)), 1 + 4 * 4);
    }
}
