//! TEMPORARY placeholder until the RAVE-MCTS lands (same signatures): plays
//! a random legal, non-eye-filling move.

use super::{Budget, Horizon, Stats};
use crate::go::{Game, Move, Point};

#[derive(Clone, Debug)]
pub struct Config {
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config { seed: 1 }
    }
}

pub struct Searcher {
    rng: super::rng::Rng,
}

impl Searcher {
    pub fn new(config: Config) -> Searcher {
        Searcher {
            rng: super::rng::Rng::new(config.seed),
        }
    }

    /// Chooses a move for the side to move in `game`.
    pub fn think(&mut self, game: &Game, _horizon: Horizon, _budget: Budget) -> (Move, Stats) {
        let b = game.board();
        let c = b.to_move();
        let mut cands: Vec<Point> = b.empty_points().iter().map(|&p| Point(p)).collect();
        cands.sort();
        while !cands.is_empty() {
            let i = self.rng.below(cands.len());
            let p = cands.swap_remove(i);
            if !b.is_eye(c, p) && game.is_legal(Move::Play(p)) {
                return (Move::Play(p), Stats::default());
            }
        }
        (Move::Pass, Stats::default())
    }
}
