//! What a value network reads of a game beyond its board (KataGo's inputs:
//! the last five moves, the boards one and two moves ago, the positions
//! superko bans), carried along a search's path; and the network's read
//! of a search position ([`GoState`]'s [`Valued`] side): its evaluation
//! from Black's view and the policy over the moves the rules allow.

use super::nn::{self, inputs::Position};
use super::state::{to_action, GoState, PASS};
use crate::deps::{ArrayVec, FxHashSet};
use crate::go::{Board, Color, Game, Move};
use crate::search::puct::{Evaluation, Valued};
use crate::search::tree::SearchGame;
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

/// The share of the likeliest move's prior that the moves the tree must
/// keep get at least (the tree keeps what has its `min_prior`, 1e-3).
const KEEP: f32 = 1e-2;

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
}

/// Black's view of the finished game `s`: its literal count.
fn result(s: &GoState) -> Evaluation {
    let margin = s.board.area_margin() as f32 - s.komi;
    let win = match margin {
        m if m > 0.0 => 1.0,
        m if m < 0.0 => 0.0,
        _ => 0.5,
    };
    Evaluation {
        win,
        score: margin,
        score_stdev: 0.0,
    }
}

impl Valued for GoState {
    fn evaluate(&self, root: bool, policy: &mut Vec<(u16, f32)>) -> Option<Evaluation> {
        if self.is_over() {
            return Some(result(self));
        }
        let h = self.history.as_deref()?;
        let net = nn::active();
        let b = &self.board;
        let pla = b.to_move();
        let (own, opp) = (self.passed[pla.index()], self.passed[pla.opp().index()]);
        let pos = Position {
            board: b,
            pla,
            moves: &h.moves,
            recent: [0, 1].map(|i| h.known[i].then(|| &h.boards[i])),
            seen: h.seen.as_deref(),
            komi: self.komi,
            pass_ends: self.rules.pass_ends(opp, own),
            over: false,
        };
        // a symmetry a position, as KataGo takes a random one an evaluation
        let symmetry = ((b.hash() ^ h.salt) >> 17) as usize % 8;
        let optimism = self.optimism[(!root) as usize];
        let e = net.evaluate_at(&pos, symmetry, optimism);
        let w = b.width();
        let top = e.policy.iter().fold(0f32, |m, &p| m.max(p));
        for (i, &p) in e.policy[..b.area()].iter().enumerate() {
            let q = b.point(i % w, i / w);
            // the network's legality and the game's (the referees' rules),
            // and never an own true eye: the referee counts the board as it
            // stands, so filling one only gives the eye away
            if p >= 0.0 && b.is_sensible(pla, q) {
                policy.push((to_action(Move::Play(q)), p));
            }
        }
        // where retaking a ko ends the game (Riddles.io), the tree weighs
        // it as the likeliest move, so that its exact result is read: the
        // network knows no such move
        if let Some(k) = b.ko_point().filter(|_| self.rules.ko_retake_ends()) {
            policy.push((to_action(Move::Play(k)), top));
        }
        // passing may end the game: always a child, however unlikely
        policy.push((PASS, e.policy[b.area()].max(KEEP * top)));
        let stdev = (e.white_score_sq - e.white_score * e.white_score)
            .max(0.0)
            .sqrt();
        Some(Evaluation {
            win: e.winrate(Color::Black),
            score: e.lead(Color::Black),
            score_stdev: stdev,
        })
    }
}
