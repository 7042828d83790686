//! tengen: a Go bot for the TheAIGames / Riddles.io arena.
//!
//! - [`go`]: the rules (board, strings, superko, Tromp-Taylor scoring).
//! - [`search`]: playout policies and the RAVE-MCTS search.
//! - [`tools`]: the small command-line tools (`score`, `validate`, `bench`).

pub mod go;
pub mod search;
pub mod tools;
