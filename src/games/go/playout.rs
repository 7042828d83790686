//! Playout policies. The light one plays uniformly among legal moves that do
//! not fill an own eye; it is the speed reference of `tengen bench`.

use crate::go::{Board, Move, Point};
use crate::search::rng::Rng;

/// A uniformly random legal move for the side to move that does not fill
/// one of its own eyes; pass when there is none.
#[inline]
pub fn uniform_move(board: &Board, rng: &mut Rng) -> Move {
    random_move_where(board, rng, |_, _| true)
}

/// Scans the empty points from a random one for the first that is legal,
/// does not fill an own eye, and that `keep` accepts; pass when none is.
/// (Always inlined: the light playout loop around it runs 3 % fewer
/// instructions than with the call the compiler otherwise keeps.)
#[inline(always)]
pub fn random_move_where(
    board: &Board,
    rng: &mut Rng,
    mut keep: impl FnMut(Point, &mut Rng) -> bool,
) -> Move {
    let c = board.to_move();
    let empties = board.empty_points();
    let n = empties.len();
    if n == 0 {
        return Move::Pass;
    }
    let start = rng.below(n);
    let mut i = start;
    loop {
        let p = Point(empties[i]);
        if board.is_sensible(c, p) && keep(p, rng) {
            return Move::Play(p);
        }
        i += 1;
        if i == n {
            i = 0;
        }
        if i == start {
            return Move::Pass;
        }
    }
}

/// Plays uniformly random moves until two passes in a row or `max_moves`
/// moves. Returns the number of moves played.
pub fn light_playout(board: &mut Board, rng: &mut Rng, max_moves: usize) -> usize {
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < max_moves {
        let mv = uniform_move(board, rng);
        match mv {
            Move::Pass => {
                passes += 1;
                board.pass();
            }
            Move::Play(p) => {
                passes = 0;
                board.play_legal(board.to_move(), p);
            }
        }
        moves += 1;
    }
    moves
}
