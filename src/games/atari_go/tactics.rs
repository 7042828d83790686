//! What a stone would do in a capture race, read from the strings around
//! it: the stones it takes, the strings of ours it pulls out of atari, the
//! strings of theirs it puts in atari, and whether it walks into atari
//! itself. The priors, the playout policy and the greedy player all ask.

use crate::games::go::ladder::{self, Run};
use crate::go::{Board, Cell, Color, Point};

/// A stone's effect on the strings next to it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    /// Enemy stones it captures.
    pub captures: u32,
    /// Own stones in atari next to it (saved if `liberties` > 1).
    pub rescues: u32,
    /// Enemy stones it puts in atari (strings of two liberties touching it).
    pub ataris: u32,
    /// The fewest liberties of an enemy string next to it, before it (0:
    /// none touches it).
    pub weakest: u32,
    /// Liberties of its own string afterwards, counted up to 3.
    pub liberties: u32,
}

impl Effect {
    /// Whether the stone can be taken at once: one liberty, nothing taken.
    pub fn self_atari(&self) -> bool {
        self.liberties <= 1 && self.captures == 0
    }
}

/// Reads what a stone of `c` at the empty point `p` would do.
pub fn effect(b: &Board, c: Color, p: Point) -> Effect {
    let mut e = Effect {
        captures: b.captured_by(c, p) as u32,
        ..Effect::default()
    };
    let (own, opp) = (c.stone(), c.opp().stone());
    let mut seen: [Point; 4] = [Point(0); 4];
    for (k, n) in b.neighbors(p).into_iter().enumerate() {
        let cell = b.at(n);
        if !cell.is_stone() {
            continue;
        }
        let id = b.string_id(n);
        if seen[..k].contains(&id) {
            continue;
        }
        seen[k] = id;
        let (libs, size) = (b.liberty_count(n) as u32, b.string_size(n) as u32);
        if cell == own && libs == 1 {
            e.rescues += size;
        } else if cell == opp {
            e.weakest = if e.weakest == 0 {
                libs
            } else {
                e.weakest.min(libs)
            };
            if libs == 2 {
                e.ataris += size;
            }
        }
    }
    e.liberties = b.liberties_after(c, p, 3) as u32;
    e
}

/// Whether extending at `p` really saves the own strings in atari next to
/// it: it gets three liberties, or two that no ladder takes.
pub fn escapes(b: &Board, c: Color, p: Point) -> bool {
    run(b, c, p) == Run::Escapes
}

fn run(b: &Board, c: Color, p: Point) -> Run {
    ladder::run_from_atari(b, c, p)
}

/// Whether `p` is an atari that takes an enemy string next to it for sure:
/// at once or by a ladder, whatever it does.
pub fn catches(b: &Board, c: Color, p: Point) -> bool {
    b.neighbors(p).into_iter().any(|n| {
        b.at(n) == c.opp().stone()
            && b.liberty_count(n) == 2
            && ladder::capturing_atari(b, n) == Some(p)
    })
}

/// Whether `p` is an eye of `c` that only a fool fills: all neighbours own
/// stones (or the edge), none of them in atari.
pub fn own_eye(b: &Board, c: Color, p: Point) -> bool {
    b.neighbors(p).into_iter().all(|n| match b.at(n) {
        Cell::Off => true,
        cell => cell == c.stone() && b.liberty_count(n) > 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str, to_move: Color) -> Board {
        let mut b = Board::from_ascii(text).unwrap();
        b.set_to_move(to_move);
        b
    }

    #[test]
    fn a_stone_reads_its_captures_rescues_and_ataris() {
        let b = board(
            ". X O . .
             X O . . .
             . X . . .
             . . . . .
             . . . . .",
            Color::Black,
        );
        // white (1,1) has one liberty, (2,1): black takes it there, and
        // puts white (2,0) in atari on the way
        let e = effect(&b, Color::Black, b.point(2, 1));
        assert_eq!((e.captures, e.ataris), (1, 1));
        assert!(!e.self_atari());
        // white extending there joins both stones, with three liberties
        let e = effect(&b, Color::White, b.point(2, 1));
        assert_eq!((e.rescues, e.liberties), (1, 3));
        assert!(escapes(&b, Color::White, b.point(2, 1)));
        // (3,0) puts white's (2,0) in atari
        let e = effect(&b, Color::Black, b.point(3, 0));
        assert_eq!((e.ataris, e.weakest, e.liberties), (1, 2, 2));
        // black (1,0) is in atari: the corner is no safe eye, and white
        // takes it there
        assert!(!own_eye(&b, Color::Black, b.point(0, 0)));
        assert_eq!(effect(&b, Color::White, b.point(0, 0)).captures, 1);
        // a stone that fills its own last liberty walks into atari
        let b = board(
            ". X . .
             X O . .
             . X . .
             . . . .",
            Color::White,
        );
        assert!(effect(&b, Color::White, b.point(0, 0)).liberties <= 1);
        assert!(own_eye(&b, Color::Black, b.point(0, 0)));
    }

    #[test]
    fn a_ladder_atari_catches_and_an_extension_into_a_ladder_does_not_save() {
        // white (3,3) has two liberties; an atari drives it into a ladder
        let b = board(
            ". . . . . . .
             . . . . . . .
             . . . X . . .
             . . X O . . .
             . . . . X . .
             . . . . . . .
             . . . . . . .",
            Color::Black,
        );
        let ataris = [b.point(4, 3), b.point(3, 4)];
        assert!(ataris.iter().any(|&p| catches(&b, Color::Black, p)));
        assert!(!catches(&b, Color::Black, b.point(0, 6)));
        // once in atari, running does not save it
        let mut b2 = b.clone();
        let atari = *ataris
            .iter()
            .find(|&&p| catches(&b, Color::Black, p))
            .unwrap();
        b2.play_legal(Color::Black, atari);
        let run = b2.atari_liberty(b2.point(3, 3)).unwrap();
        assert!(!escapes(&b2, Color::White, run));
    }
}
