//! Atari Go (CodinGame, seed 000) on the generic search: the rules
//! ([`rules`]), what a stone does in a capture race ([`tactics`]), the
//! position as a [`crate::search::tree::SearchGame`] with its priors and
//! playout policy ([`state`]), and the players ([`player`]: the search,
//! and a random and a greedy one for testing).

pub mod codingame;
pub mod entry;
pub mod player;
pub mod referee;
pub mod rules;
pub mod state;
pub mod tactics;

pub use rules::{AtariGo, Outcome, SIZE, TURNS};
