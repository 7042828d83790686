//! The playout policy: local answers to the last move first, then a random
//! move that does not fill an own eye and rarely throws a string away.
//!
//! Near the last move, in order: capture a string left in atari; save an
//! own string put in atari (by capturing around it, or by extending when a
//! simple ladder reading says it escapes); a 3x3 shape reply. Otherwise a
//! uniformly random legal move, where a self-atari of three or more stones
//! is refused most of the time.

use super::patterns;
use super::playout::random_move_where;
use super::rng::Rng;
use crate::go::{Board, Cell, Color, Move, Point};
use arrayvec::ArrayVec;
use std::cell::RefCell;

/// Probabilities (in percent) of trying each heuristic, so that playouts
/// keep some variety.
#[derive(Clone, Copy, Debug)]
pub struct PolicyConfig {
    pub capture: u32,
    pub save: u32,
    pub pattern: u32,
    /// Chance of refusing a self-atari of 3+ stones in the random phase.
    pub refuse_self_atari: u32,
}

impl Default for PolicyConfig {
    fn default() -> Self {
        PolicyConfig {
            capture: 90,
            save: 90,
            pattern: 85,
            refuse_self_atari: 95,
        }
    }
}

/// The policy's move for the side to move.
pub fn choose(board: &Board, rng: &mut Rng, cfg: &PolicyConfig) -> Move {
    if let Move::Play(last) = board.last_moves()[0] {
        let mut cands = Candidates::new();
        if rng.chance(cfg.capture, 100) {
            captures_near(board, last, &mut cands);
            if let Some(p) = pick(&cands, rng) {
                return Move::Play(p);
            }
        }
        if rng.chance(cfg.save, 100) {
            saves_near(board, last, &mut cands);
            if let Some(p) = pick(&cands, rng) {
                return Move::Play(p);
            }
        }
        if rng.chance(cfg.pattern, 100) {
            patterns_near(board, last, &mut cands);
            if let Some(p) = pick(&cands, rng) {
                return Move::Play(p);
            }
        }
    }
    random_move(board, rng, cfg)
}

/// Candidate moves of one heuristic, at most this many (the rest are
/// dropped).
pub type Candidates = ArrayVec<Point, 16>;

/// Adds `p` unless it is there already or the list is full.
fn add(out: &mut Candidates, p: Point) {
    if !out.is_full() && !out.contains(&p) {
        out.push(p);
    }
}

/// Adds the move of `c` that captures the string at `s`, which is in
/// atari, if it is legal.
fn add_capture(board: &Board, c: Color, s: Point, out: &mut Candidates) {
    if let Some(lib) = board.atari_liberty(s) {
        if board.is_legal(c, lib) {
            add(out, lib);
        }
    }
}

/// Strings larger than this are not walked for enemy neighbours: a
/// playout move should stay cheap, and such strings rarely fight that way.
const MAX_WALK: usize = 24;

/// The enemy stones next to the string at `s` (a string touching one
/// several times is named as often), or none if the string has more than
/// [`MAX_WALK`] stones.
fn enemy_stones_next_to(board: &Board, s: Point) -> impl Iterator<Item = Point> + '_ {
    let opp = board.at(s).color().expect("a stone").opp().stone();
    let walk = (board.string_size(s) <= MAX_WALK).then(|| board.stones(s));
    walk.into_iter()
        .flatten()
        .flat_map(move |st| board.neighbors(st))
        .filter(move |&n| board.at(n) == opp)
}

fn pick(cands: &Candidates, rng: &mut Rng) -> Option<Point> {
    (!cands.is_empty()).then(|| cands[rng.below(cands.len())])
}

/// Points around the last move: itself, its neighbours and diagonals.
#[inline]
fn around(board: &Board, last: Point) -> [Point; 9] {
    let (n, d) = (board.neighbors(last), board.diagonals(last));
    [last, n[0], n[1], n[2], n[3], d[0], d[1], d[2], d[3]]
}

/// Bit k set when the k-th point holds a `kind` string in atari. Which
/// points do is random in a playout, so the test has no branch.
#[inline]
fn in_atari<const N: usize>(board: &Board, points: &[Point; N], kind: Cell) -> u32 {
    points.iter().enumerate().fold(0, |mask, (k, &q)| {
        mask | ((((board.at(q) == kind) & (board.liberty_count(q) == 1)) as u32) << k)
    })
}

/// The points whose bits are set in `mask`.
#[inline]
fn marked<const N: usize>(points: [Point; N], mut mask: u32) -> impl Iterator<Item = Point> {
    std::iter::from_fn(move || {
        let k = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (k < N).then(|| points[k])
    })
}

/// Liberties that capture an opponent string in atari near the last move.
fn captures_near(board: &Board, last: Point, out: &mut Candidates) {
    out.clear();
    let c = board.to_move();
    let points = around(board, last);
    for q in marked(points, in_atari(board, &points, c.opp().stone())) {
        add_capture(board, c, q, out);
    }
}

/// Moves that save an own string the last move put in atari.
fn saves_near(board: &Board, last: Point, out: &mut Candidates) {
    out.clear();
    let points = board.neighbors(last);
    for q in marked(points, in_atari(board, &points, board.to_move().stone())) {
        save_string(board, q, out);
    }
}

/// Ways to save the own string through `s`, which is in atari.
pub fn save_string(board: &Board, s: Point, out: &mut Candidates) {
    let c = board.at(s).color().expect("a stone");
    // capture a neighbouring string in atari
    for n in enemy_stones_next_to(board, s) {
        if board.liberty_count(n) == 1 {
            add_capture(board, c, n, out);
        }
    }
    // extend, unless that only runs into a ladder
    if let Some(lib) = board.atari_liberty(s) {
        if out.is_full() || out.contains(&lib) || !board.is_legal(c, lib) {
            return;
        }
        if run_from_atari(board, c, lib) == Run::Escapes {
            out.push(lib);
        }
    }
}

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

/// Empty points around the last move whose shape matches a pattern.
fn patterns_near(board: &Board, last: Point, out: &mut Candidates) {
    out.clear();
    let c = board.to_move();
    let table = patterns::table();
    let n = board.neighbors(last);
    let d = board.diagonals(last);
    let points = [n[0], n[1], n[2], n[3], d[0], d[1], d[2], d[3]];
    let shaped = points.iter().enumerate().fold(0, |mask, (k, &q)| {
        mask | ((((board.at(q) == Cell::Empty) & table.matches(board, q)) as u32) << k)
    });
    for q in marked(points, shaped) {
        if board.is_legal(c, q) && !board.is_eye(c, q) && !self_atari(board, c, q) {
            out.push(q);
        }
    }
}

/// Whether a stone of `c` at `p` would leave its string with one liberty.
#[inline]
pub fn self_atari(board: &Board, c: Color, p: Point) -> bool {
    !board.keeps_two_liberties(c, p)
}

/// A random legal move that does not fill an own eye; self-ataris of three
/// or more stones are refused most of the time. Pass when nothing is left.
pub fn random_move(board: &Board, rng: &mut Rng, cfg: &PolicyConfig) -> Move {
    let c = board.to_move();
    random_move_where(board, rng, |p, rng| {
        board.nbr_count(p, Cell::Empty) >= 2 // two liberties at least
            || board.joined_size(c, p) < 3
            || board.keeps_two_liberties(c, p)
            || !rng.chance(cfg.refuse_self_atari, 100)
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn board(diagram: &str, to_move: Color) -> Board {
        let mut b = Board::from_ascii(diagram).unwrap();
        b.set_to_move(to_move);
        b
    }

    #[test]
    fn a_ladder_is_read_to_the_end() {
        let b = board(LADDER, Color::White);
        assert!(ladder_after_extension(&b, Color::White, b.point(4, 3)));
        let mut out = Candidates::new();
        save_string(&b, b.point(3, 3), &mut out);
        assert!(out.is_empty(), "extending into a ladder is no save");
        // Without the black stone on the right, the extension has three
        // liberties and is the save.
        let free = LADDER.replacen("O . X", "O . .", 1);
        let b = board(&free, Color::White);
        save_string(&b, b.point(3, 3), &mut out);
        assert_eq!(out.as_slice(), &[b.point(4, 3)]);
    }

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

    #[test]
    fn random_moves_never_fill_own_eyes() {
        let b = board(
            ". X . X .\n\
             X X X X X\n\
             O O O O O\n\
             . O . O .\n\
             O . O . O",
            Color::Black,
        );
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            if let Move::Play(p) = random_move(&b, &mut rng, &PolicyConfig::default()) {
                assert!(!b.is_eye(Color::Black, p));
            }
        }
    }
}
