//! A uniformly random player: every legal move that does not fill an own
//! eye is equally likely; it passes only when none is left. The reference
//! weakest opponent of strength runs (`tengen random-bot`).

use super::thinker::Think;
use crate::games::go::Stats;
use crate::go::{Cell, Game, Move, Point};
use crate::search::rng::Rng;
use crate::search::{Budget, Horizon};

pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Think for RandomPlayer {
    fn think(&mut self, game: &Game, _: Horizon, _: Budget, avoid: &[Point]) -> (Move, Stats) {
        let b = game.board();
        let c = b.to_move();
        let choices: Vec<Point> = b
            .points()
            .filter(|&p| b.at(p) == Cell::Empty && !b.is_eye(c, p) && game.is_legal(Move::Play(p)))
            .filter(|p| !avoid.contains(p))
            .collect();
        let mv = if choices.is_empty() {
            Move::Pass
        } else {
            Move::Play(choices[self.rng.below(choices.len())])
        };
        (mv, Stats::default())
    }
}
