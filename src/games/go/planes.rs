//! The input of a policy network: the position as feature planes seen
//! from the side to move, one byte (0 or 1) a point and plane, plane by
//! plane, points row by row from the top left. Training data and the bot
//! encode with this one function, so the two cannot drift apart.

use crate::go::{Board, Cell, Move, Point};

/// What each plane holds, in order.
pub const PLANES: [&str; 12] = [
    "own stone",
    "enemy stone",
    "empty",
    "own string with 1 liberty",
    "own string with 2 liberties",
    "own string with 3 or more",
    "enemy string with 1 liberty",
    "enemy string with 2 liberties",
    "enemy string with 3 or more",
    "the last move",
    "the move before it",
    "a sensible move (legal, no own eye filled)",
];

/// The plane of the sensible moves: the ones a policy may choose.
pub const SENSIBLE: usize = 11;

/// The planes of `b` for the side to move: `PLANES.len() * area` bytes.
pub fn encode(b: &Board) -> Vec<u8> {
    let (w, h) = (b.width(), b.height());
    let area = w * h;
    let mut out = vec![0u8; PLANES.len() * area];
    let me = b.to_move();
    let mut set = |plane: usize, p: Point| {
        let (x, y) = b.xy(p);
        out[plane * area + y * w + x] = 1;
    };
    for y in 0..h {
        for x in 0..w {
            let p = b.point(x, y);
            match b.at(p) {
                Cell::Empty => {
                    set(2, p);
                    if b.is_sensible(me, p) {
                        set(SENSIBLE, p);
                    }
                }
                cell => {
                    let own = cell == me.stone();
                    let libs = b.liberty_count(p).clamp(1, 3);
                    set(if own { 0 } else { 1 }, p);
                    set(if own { 2 } else { 5 } + libs, p);
                }
            }
        }
    }
    for (k, mv) in b.last_moves().into_iter().enumerate() {
        if let Move::Play(p) = mv {
            set(9 + k, p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Color;

    #[test]
    fn planes_are_seen_from_the_side_to_move() {
        let mut b = Board::from_ascii(". X .\nX O .\n. X .").unwrap();
        b.set_to_move(Color::White);
        b.play(Move::Play(b.point(2, 1))).unwrap(); // white extends: 2 liberties
        b.play(Move::Play(b.point(2, 0))).unwrap(); // black: white has 1 left
        let planes = encode(&b);
        let at = |plane: usize, x: usize, y: usize| planes[plane * 9 + y * 3 + x];
        // white to move: its stones are "own", both in atari
        assert_eq!((at(0, 1, 1), at(0, 2, 1), at(1, 1, 0)), (1, 1, 1));
        assert_eq!((at(3, 1, 1), at(3, 2, 1)), (1, 1));
        // black's top string has one liberty left, its others two
        assert_eq!((at(6, 1, 0), at(6, 2, 0)), (1, 1));
        assert_eq!((at(7, 0, 1), at(7, 1, 2)), (1, 1));
        assert_eq!((at(9, 2, 0), at(10, 2, 1)), (1, 1));
        // (0, 0) captures; (2, 2) would be suicide
        assert_eq!((at(2, 0, 0), at(11, 0, 0)), (1, 1));
        assert_eq!((at(2, 2, 2), at(11, 2, 2)), (1, 0));
        // every point is exactly one of own, enemy, empty
        for i in 0..9 {
            assert_eq!(planes[i] + planes[9 + i] + planes[18 + i], 1);
        }
    }
}
