//! Search: RAVE-MCTS over playouts. Knows the rules through `go`, nothing of
//! protocols; the only clock it knows is the deadline in its [`Budget`].
//!
//! Entry point: [`Searcher::think`].

pub mod features;
pub mod gammas;
pub mod go_game;
mod params;
pub mod patterns;
pub mod playout;
pub mod policy;
pub mod rng;
pub mod time;
pub mod tree;

use crate::go::Move;
use std::time::{Duration, Instant};

/// How long a search may run: until a deadline, for a number of playouts,
/// or whichever comes first. Tests use playout counts only.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    pub deadline: Option<Instant>,
    pub playouts: Option<u64>,
}

impl Budget {
    pub fn playouts(n: u64) -> Budget {
        Budget {
            deadline: None,
            playouts: Some(n),
        }
    }
    pub fn until(deadline: Instant) -> Budget {
        Budget {
            deadline: Some(deadline),
            playouts: None,
        }
    }
}

/// What a search did, for logs and benchmarks.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub playouts: u64,
    pub elapsed: Duration,
    /// Estimated win rate of the chosen move for the side to move, 0..1.
    pub winrate: f32,
    /// Principal variation, starting with the chosen move.
    pub pv: Vec<Move>,
    /// Nodes in the tree after the search.
    pub nodes: usize,
    /// Playouts already under the root when the search began (tree reuse).
    pub reused: u64,
}

/// The game as the search sees it: the position with its history, and how
/// many more moves (plies, both players) the game may last before the round
/// limit stops it (`None`: no limit).
#[derive(Clone, Copy, Debug)]
pub struct Horizon {
    pub moves_left: Option<usize>,
}

mod searcher;
pub use params::PARAMS;
pub use searcher::{Config, Searcher};
