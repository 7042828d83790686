//! Search: playout policies and (later) the RAVE-MCTS tree. Knows the rules
//! through `go`, nothing of protocols.

pub mod playout;
pub mod rng;
