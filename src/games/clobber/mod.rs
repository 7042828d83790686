//! Clobber (CodinGame, seed 002) on the generic search: the rules on
//! bitboards with chess notation ([`rules`]), the exact endgame solver
//! over independent regions ([`solver`]), the position as a
//! [`crate::search::tree::SearchGame`] ([`state`]), and the players
//! ([`player`]: the search, and random, greedy and alpha-beta ones).

pub mod codingame;
pub mod entry;
pub mod player;
pub mod referee;
pub mod rules;
pub mod solver;
pub mod state;

pub use rules::{Clobber, Move, SIZE};
