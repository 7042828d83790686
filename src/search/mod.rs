//! The generic search: RAVE-MCTS over any game that implements
//! [`tree::SearchGame`]. It knows nothing of Go or of protocols; the only
//! clock it knows is the deadline in its [`Budget`]. Each game's knowledge
//! (priors, playout policy) lives beside it, in [`crate::games`].

pub mod arena;
pub mod grow;
pub mod puct;
pub mod rng;
pub mod time;
pub mod tree;

use std::time::Instant;

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

/// How many more moves (plies, both players) the game may last before its
/// round limit stops it (`None`: no limit).
#[derive(Clone, Copy, Debug)]
pub struct Horizon {
    pub moves_left: Option<usize>,
}
