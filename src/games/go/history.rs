//! What a value network reads of a game beyond its board (KataGo's inputs:
//! the last five moves, the boards one and two moves ago, the positions
//! superko bans), carried along a search's path.

use super::nn::inputs::Position;
use crate::deps::{ArrayVec, FxHashSet};
use crate::go::{Board, Color, Game, Move};
use std::sync::Arc;

/// A game's recent past, as the network reads it.
#[derive(Clone)]
pub struct History {
    /// The last moves, oldest first (five at most: all the network reads).
    moves: ArrayVec<(Color, Move), 5>,
    /// The boards one and two moves ago, where known.
    boards: [Board; 2],
    known: [bool; 2],
    /// The positions of the game so far, where positional superko holds.
    seen: Option<Arc<FxHashSet<u64>>>,
    /// Mixed into each position's symmetry: the search's seed, so that
    /// games of a match differ as the arena's seeds do.
    salt: u64,
}

/// The largest board a KataGo network reads (its inputs' 19x19).
pub const MAX_SIDE: usize = 19;

impl History {
    /// `game`'s past, if the network reads its board; `seed` picks the
    /// symmetries the positions are read in.
    pub fn of(game: &Game, seed: u64) -> Option<Box<History>> {
        let b = game.board();
        if b.width() > MAX_SIDE || b.height() > MAX_SIDE {
            return None;
        }
        let moves = game.moves();
        let last = &moves[moves.len().saturating_sub(5)..];
        let board = |n| game.board_before(n).unwrap_or(b).clone();
        Some(Box::new(History {
            moves: last.iter().copied().collect(),
            boards: [board(1), board(2)],
            known: [1, 2].map(|n| game.board_before(n).is_some()),
            seen: game
                .rules()
                .superko()
                .then(|| Arc::new(game.history().clone())),
            salt: seed.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        }))
    }

    /// Notes that `c` plays `mv` on `board` (as it stands before).
    pub fn record(&mut self, board: &Board, c: Color, mv: Move) {
        if self.moves.is_full() {
            self.moves.remove(0);
        }
        self.moves.push((c, mv));
        let [one, two] = &mut self.boards;
        two.copy_from(one);
        one.copy_from(board);
        self.known = [true, self.known[0]];
    }

    /// `board` with this past, as the network reads it: `pla` to move,
    /// `komi` counted, passing ending the game where `pass_ends`.
    pub fn position<'a>(
        &'a self,
        board: &'a Board,
        pla: Color,
        komi: f32,
        pass_ends: bool,
    ) -> Position<'a> {
        Position {
            board,
            pla,
            moves: &self.moves,
            recent: [0, 1].map(|i| self.known[i].then(|| &self.boards[i])),
            seen: self.seen.as_deref(),
            komi,
            pass_ends,
            over: false,
        }
    }

    /// The symmetry `board` is read in: one a position, as KataGo takes
    /// a random one an evaluation, the search's seed mixed in.
    pub fn symmetry(&self, board: &Board) -> usize {
        ((board.hash() ^ self.salt) >> 17) as usize % 8
    }
}
