//! tengen: a Go bot for the TheAIGames / Riddles.io arena.
//!
//! - [`go`]: the rules (board, strings, superko, Tromp-Taylor scoring).
//! - [`search`]: playout policies and the RAVE-MCTS search.
//! - [`protocol`]: the arena bot's dialects and GTP.
//! - [`arena`]: the local engine simulator.
//! - [`tools`]: the small command-line tools (`score`, `validate`, `bench`).

pub mod arena;
pub mod go;
pub mod protocol;
pub mod search;
pub mod tools;
