//! The games the generic search ([`crate::search`]) plays, each with its
//! own knowledge: for Go, the priors, the playout policy, patterns, ladder
//! reading and the learnt prior; Atari Go reuses Go's board and ladders
//! with its own rules, priors and playouts; Clobber has its own bitboards
//! and an exact endgame solver.

pub mod atari_go;
pub mod clobber;
pub mod codingame;
pub mod go;
pub mod referee;
