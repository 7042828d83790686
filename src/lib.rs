//! tengen: a Go bot for the TheAIGames / Riddles.io arena.
//!
//! - [`go`]: the rules (board, strings, superko, Tromp-Taylor scoring).
//! - [`search`]: the generic RAVE-MCTS search, over a game trait.
//! - [`games`]: the games it plays, each with its knowledge (Go: priors,
//!   playout policy, patterns, ladders, the learnt prior).
//! - [`protocol`]: the arena bot's dialects and GTP.
//! - [`arena`]: the local engine simulator.
//! - [`cli`]: the command line: subcommands, their arguments and errors,
//!   and the small tools (`score`, `validate`, `bench`, `learn`).

pub mod arena;
pub mod cli;
pub mod deps;
pub mod games;
pub mod go;
pub mod protocol;
pub mod search;
