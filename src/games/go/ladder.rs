//! Ladder reading: whether a string of two liberties can be caught by
//! an atari and the chase after it. The priors (ataris that capture,
//! extensions that die) and the playout policy (saves that escape) both
//! ask it, and [`ladders`] reads a whole board's for the priors and the
//! network's planes; it must stay cheap, so it reads at most
//! [`LADDER_BUDGET`] positions on scratch boards kept per thread.

use crate::deps::ArrayVec;
use crate::go::{Board, Color, Point};
use std::cell::RefCell;

/// What extending from atari gives a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// One liberty still, or none.
    Caught,
    /// Two liberties, and a ladder catches the string anyway.
    Ladder,
    /// Three liberties, or two that a ladder reading says are enough.
    Escapes,
}

/// How a string of `c` in atari fares by extending at its last liberty
/// `lib` (a legal move).
pub fn run_from_atari(board: &Board, c: Color, lib: Point) -> Run {
    match board.liberties_after(c, lib, 3) {
        0 | 1 => Run::Caught,
        2 if ladder_after_extension(board, c, lib) => Run::Ladder,
        _ => Run::Escapes,
    }
}

/// Positions a ladder reading may look at.
const LADDER_BUDGET: u32 = 24;

thread_local! {
    /// Scratch boards for ladder reading, one a level. A playout reads
    /// dozens of ladders: copying the used part of a kept board is much
    /// cheaper than cloning a whole one each time.
    static LADDER_BOARDS: RefCell<Vec<Board>> = const { RefCell::new(Vec::new()) };
}

/// Runs `read` on the kept scratch boards, `boards[0]` a copy of `board`.
fn with_ladder_boards<T>(board: &Board, read: impl FnOnce(&mut [Board]) -> T) -> T {
    LADDER_BOARDS.with_borrow_mut(|boards| {
        if boards.is_empty() {
            // every level spends budget before going deeper
            boards.resize(LADDER_BUDGET as usize + 2, board.clone());
        }
        boards[0].copy_from(board);
        read(boards)
    })
}

/// Whether `c` extending at `lib` still gets caught in a ladder.
pub fn ladder_after_extension(board: &Board, c: Color, lib: Point) -> bool {
    with_ladder_boards(board, |boards| {
        boards[0].play_legal(c, lib);
        let mut budget = LADDER_BUDGET;
        caught_in_ladder(boards, lib, &mut budget)
    })
}

/// An atari on the string at `s`, which has two liberties, that it cannot
/// escape: captured at once or in a ladder, whoever is to move on `board`.
pub fn capturing_atari(board: &Board, s: Point) -> Option<Point> {
    let defender = board.at(s).color()?;
    let libs = board.liberties::<3>(s);
    if libs.len() != 2 {
        return None;
    }
    // Reading needs board copies; most strings escape on sight: running
    // from one atari gives the other liberty's string three or more.
    let hopeless = |run: Point| board.liberties_after(defender, run, 4) <= 3;
    if !hopeless(libs[0]) && !hopeless(libs[1]) {
        return None;
    }
    with_ladder_boards(board, |boards| {
        let mut budget = LADDER_BUDGET;
        capturing_atari_in(boards, s, &mut budget)
    })
}

/// Reads a ladder against the string at `s` in `boards[0]`: true if it
/// has fewer than two liberties, or two and an atari that captures it.
fn caught_in_ladder(boards: &mut [Board], s: Point, budget: &mut u32) -> bool {
    match boards.first().map(|b| b.liberty_count(s)) {
        Some(0 | 1) => true,
        Some(2) => capturing_atari_in(boards, s, budget).is_some(),
        _ => false,
    }
}

/// The attacker's atari on the string at `s` in `boards[0]` (two
/// liberties) after which every defence ends in capture. The other boards
/// are scratch for the levels below. Bounded by `budget` positions; an
/// unfinished reading counts as an escape.
fn capturing_atari_in(boards: &mut [Board], s: Point, budget: &mut u32) -> Option<Point> {
    let (b, rest) = boards.split_first_mut()?;
    let defender = b.at(s).color()?;
    let attacker = defender.opp();
    let libs = b.liberties::<3>(s);
    if libs.len() != 2 {
        return None;
    }
    for &atari in &libs {
        if *budget == 0 || rest.is_empty() {
            return None;
        }
        *budget -= 1;
        if !b.is_legal(attacker, atari) || b.liberties_after(attacker, atari, 2) < 2 {
            continue; // the atari stone itself would be captured at once
        }
        // The atari takes one liberty from the string the defender makes
        // by running (captures only add some): four now leave it three,
        // an escape, without copying a board to see it.
        let run = if libs[0] == atari { libs[1] } else { libs[0] };
        if b.liberties_after(defender, run, 4) >= 4 {
            continue;
        }
        let b2 = &mut rest[0];
        b2.copy_from(b);
        b2.play_legal(attacker, atari);
        // the defender may capture an attacking string in atari instead
        let escape_by_capture = b2.stones(s).any(|st| {
            b2.neighbors(st)
                .iter()
                .any(|&n| b2.at(n) == attacker.stone() && b2.liberty_count(n) == 1)
        });
        if escape_by_capture {
            continue;
        }
        let Some(run) = b2.atari_liberty(s) else {
            continue;
        };
        if !b2.is_legal(defender, run) {
            return Some(atari);
        }
        let after = b2.liberties_after(defender, run, 3);
        if after >= 3 {
            continue;
        }
        if after <= 1 {
            return Some(atari);
        }
        b2.play_legal(defender, run);
        if caught_in_ladder(rest, s, budget) {
            return Some(atari);
        }
    }
    None
}

/// Where strings of two liberties are caught or saved, for the side to
/// move: the ataris that capture an enemy string, at once or in a ladder
/// ([`capturing_atari`]), and the liberties that give an own string
/// the enemy could catch that way three liberties.
#[derive(Default)]
pub struct Ladders {
    /// The ataris that catch an enemy string.
    pub ataris: ArrayVec<Point, 16>,
    /// The liberties that save an own string.
    pub defences: ArrayVec<Point, 16>,
}

impl Ladders {
    /// Whether an atari at `p` catches an enemy string (read with
    /// `ataris` on).
    pub fn catches(&self, p: Point) -> bool {
        self.ataris.contains(&p)
    }
}

/// Reads every string of two liberties once: the enemy's when `ataris`,
/// ours when `defences`.
pub fn ladders(b: &Board, ataris: bool, defences: bool) -> Ladders {
    let c = b.to_move();
    let mut out = Ladders::default();
    if !ataris && !defences {
        return out;
    }
    let mut heads: ArrayVec<Point, 32> = ArrayVec::new();
    for &e in b.empty_points() {
        for q in b.neighbors(Point(e)) {
            let own = b.at(q) == c.stone();
            let wanted = if own { defences } else { ataris };
            // empty and off-board points have no liberties
            if !wanted || b.liberty_count(q) != 2 {
                continue;
            }
            let h = b.string_id(q);
            if heads.contains(&h) || heads.is_full() {
                continue;
            }
            heads.push(h);
            let Some(atari) = capturing_atari(b, q) else {
                continue;
            };
            if !own {
                push_new(&mut out.ataris, atari);
                continue;
            }
            // by reference: the CodinGame files' ArrayVec (deps/lite.rs) has no other
            for &lib in b.liberties::<2>(q).iter() {
                if b.liberties_after(c, lib, 3) >= 3 {
                    push_new(&mut out.defences, lib);
                }
            }
        }
    }
    out
}

fn push_new(points: &mut ArrayVec<Point, 16>, p: Point) {
    if !points.is_full() && !points.contains(&p) {
        points.push(p);
    }
}

/// White's stone in atari; extending right leaves two liberties and black
/// chases it in a ladder that nothing breaks (a test fixture).
#[cfg(test)]
pub(crate) const LADDER: &str = ". . . . . . .\n\
                                 . . . . . . .\n\
                                 . . . X . . .\n\
                                 . . X O . X .\n\
                                 . . . X . . .\n\
                                 . . . . . . .\n\
                                 . . . . . . .";

/// A board from a diagram, with `to_move` to play (for tests).
#[cfg(test)]
pub(crate) fn board(diagram: &str, to_move: Color) -> Board {
    let mut b = Board::from_ascii(diagram).unwrap();
    b.set_to_move(to_move);
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atari_that_captures_is_found_and_one_that_lets_the_string_run_is_not() {
        // white's stone has two liberties; either atari starts a ladder that
        // runs to the edge
        let caught = ". . . . . . .\n\
                      . . . . . . .\n\
                      . . . X . . .\n\
                      . . X O . . .\n\
                      . . . . X . .\n\
                      . . . . . . .\n\
                      . . . . . . .";
        let b = board(caught, Color::Black);
        let s = b.point(3, 3);
        let atari = capturing_atari(&b, s).expect("a ladder");
        assert!([b.point(4, 3), b.point(3, 4)].contains(&atari), "{atari:?}");
        // without the stone below right, running gives three liberties
        let free = caught.replacen(". X . .\n", ". . . .\n", 1);
        let b = board(&free, Color::Black);
        assert_eq!(capturing_atari(&b, s), None);
        // a white stone on the ladder's path breaks it one way
        let broken = caught.replacen(". . . . . . .", ". . . . . . O", 1);
        let b = board(&broken, Color::Black);
        assert_eq!(capturing_atari(&b, s), Some(b.point(4, 3)));
    }
}
