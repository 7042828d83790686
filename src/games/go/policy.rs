//! The playout policy: local answers to the last move first, then a random
//! move that does not fill an own eye and rarely throws a string away.
//!
//! Near the last move, in order: capture a string left in atari; save an
//! own string put in atari (by capturing around it, or by extending when a
//! simple ladder reading says it escapes); a 3x3 shape reply. Otherwise a
//! uniformly random legal move, where a self-atari of three or more stones
//! is refused most of the time.

use super::ladder::{self, Run};
use super::patterns;
use super::playout::random_move_where;
use crate::deps::ArrayVec;
use crate::go::{Board, Cell, Color, Move, Point};
use crate::search::rng::Rng;

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
        if ladder::run_from_atari(board, c, lib) == Run::Escapes {
            out.push(lib);
        }
    }
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

#[cfg(test)]
mod tests {
    use super::ladder::board;
    use super::*;

    #[test]
    fn a_ladder_is_read_to_the_end() {
        let b = board(ladder::LADDER, Color::White);
        assert!(ladder::ladder_after_extension(
            &b,
            Color::White,
            b.point(4, 3)
        ));
        let mut out = Candidates::new();
        save_string(&b, b.point(3, 3), &mut out);
        assert!(out.is_empty(), "extending into a ladder is no save");
        // Without the black stone on the right, the extension has three
        // liberties and is the save.
        let free = ladder::LADDER.replacen("O . X", "O . .", 1);
        let b = board(&free, Color::White);
        save_string(&b, b.point(3, 3), &mut out);
        assert_eq!(out.as_slice(), &[b.point(4, 3)]);
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
