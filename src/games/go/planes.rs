//! The input of a policy network: the position as feature planes seen
//! from the side to move, one byte (0 or 1) a point and plane, plane by
//! plane, points row by row from the top left. Training data and the bot
//! encode with this one function, so the two cannot drift apart.
//!
//! Past the stones and liberties, the planes say what a move does (its
//! captures, the liberties it keeps, ladders): a few layers of 3x3
//! convolutions cannot count a string's liberties or read a ladder, and
//! without them the network missed the capture of six stones in atari.

use super::ladder::{ladders, run_from_atari, Run};
use crate::go::{Board, Cell, Move, Point};

/// What each plane holds, in order. The moves' planes (from 12 on) mark
/// sensible moves only.
pub const PLANES: [&str; 19] = [
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
    "a move that captures",
    "a move that captures 3 or more stones",
    "a move whose string is left 1 liberty (self-atari)",
    "a move whose string is left 2 liberties",
    "the simple-ko point",
    "an atari the enemy string cannot escape (at once or in a ladder)",
    "an extension from atari that does not save the own string",
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
    let caught = ladders(b, true, false);
    for y in 0..h {
        for x in 0..w {
            let p = b.point(x, y);
            match b.at(p) {
                Cell::Empty => {
                    set(2, p);
                    if b.is_sensible(me, p) {
                        set(SENSIBLE, p);
                        let captured = b.captured_by(me, p);
                        if captured > 0 {
                            set(12, p);
                        }
                        if captured >= 3 {
                            set(13, p);
                        }
                        match b.liberties_after(me, p, 3) {
                            1 => set(14, p),
                            2 => set(15, p),
                            _ => {}
                        }
                        if caught.catches(p) {
                            set(17, p);
                        }
                    }
                }
                cell => {
                    let own = cell == me.stone();
                    let libs = b.liberty_count(p).clamp(1, 3);
                    set(if own { 0 } else { 1 }, p);
                    set(if own { 2 } else { 5 } + libs, p);
                    // the last liberty of an own string in atari, read once
                    // a string (at the stone that names it)
                    if own && libs == 1 && b.string_id(p) == p {
                        let lib = b.liberties::<1>(p)[0];
                        if b.is_sensible(me, lib) && run_from_atari(b, me, lib) != Run::Escapes {
                            set(18, lib);
                        }
                    }
                }
            }
        }
    }
    if let Some(ko) = b.ko_point() {
        set(16, ko);
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

    /// The planes of what a move does: captures, liberties kept, the ko,
    /// ladders.
    #[test]
    fn the_move_planes_say_what_a_move_does() {
        // black to move. (2, 3): black's stone at (2, 2) extends into one
        // liberty at (2, 4): a self-atari that saves nothing. (6, 1): takes
        // white's three stones at the right. (0, 6) captures one at the
        // bottom left and starts a ko.
        let b = Board::from_ascii(
            ". . . . . X O
             . . O . X O .
             . O X O . X O
             . O . O . . X
             . . . . . . .
             O X . . . . .
             . O X . . . .",
        )
        .unwrap();
        assert_eq!(b.to_move(), Color::Black);
        let planes = encode(&b);
        let area = b.area();
        let at = |plane: usize, x: usize, y: usize| planes[plane * area + y * 7 + x];
        let marked = |plane: usize| -> Vec<(usize, usize)> {
            (0..area)
                .filter(|&i| planes[plane * area + i] == 1)
                .map(|i| (i % 7, i / 7))
                .collect()
        };
        assert_eq!(marked(12), [(6, 1), (0, 6)]);
        assert_eq!(marked(13), [(6, 1)]);
        assert_eq!(at(14, 2, 3), 1);
        assert_eq!(marked(18), [(2, 3)]);
        // the ko appears once black has taken
        let mut after = b.clone();
        after.play(Move::Play(b.point(0, 6))).unwrap();
        let planes = encode(&after);
        // white may not retake at once at (1, 6)
        assert_eq!(planes[16 * area + 6 * 7 + 1], 1, "the ko point (1, 6)");
        assert_eq!(planes[16 * area..17 * area].iter().sum::<u8>(), 1);
        // a lone white stone with two liberties, in a ladder either way
        let ladder = Board::from_ascii(
            ". . . . . . .
             . . . . . . .
             . . X . . . .
             . X O . . . .
             . . . X . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        let mut ladder = ladder;
        ladder.set_to_move(Color::Black);
        let planes = encode(&ladder);
        let ataris: Vec<usize> = (0..area).filter(|&i| planes[17 * area + i] == 1).collect();
        assert!(!ataris.is_empty(), "no atari catches the stone");
        for i in ataris {
            assert!([3 * 7 + 3, 4 * 7 + 2].contains(&i), "{i}");
        }
    }
}
