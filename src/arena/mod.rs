//! `tengen arena`: the local engine simulator. Plays the arena protocol with
//! two bots exactly as the referee would, enforces the rules and the
//! timebank, and runs matches large enough to measure strength.
//!
//! - `pool`: what every match does around its games (output folder, games
//!   run K at once, Ctrl-C); `tourney`: the Go match and its outputs (the
//!   options and help are the command line's: `crate::cli::arena`).
//! - `referee`: one game; `rules`: its rulings; `record`: what it leaves.
//! - `player`: players as the referee sees them; `arena_bot`: one that
//!   speaks the arena protocol, `gtp_player`: the GTP adapter; `process`:
//!   a bot process and its I/O.
//! - `sgf`, `json`, `stats`: the outputs; `facts`: what makes a match's
//!   records checkable (games.jsonl's first line); `config`: a match's setting; `spec`: player command lines;
//!   `sys`: Ctrl-C and process-group kills; `date`: UTC dates; `start`:
//!   games begun from the positions of an earlier match.
//! - `codingame`: the referee and match of CodinGame-style games
//!   (`--game NAME`), on `process`, `spec`, `sys` and `stats`.

mod arena_bot;
pub mod codingame;
mod config;
pub mod date;
mod facts;
mod gtp_player;
mod json;
mod player;
mod pool;
mod process;
mod record;
mod referee;
pub mod rules;
mod sgf;
mod spec;
mod start;
mod stats;
mod sys;
mod tourney;

pub use config::Config;
pub use pool::Failure;
pub use spec::{GameConfig, PlayerSpec};
pub use start::{load as load_starts, Start};
pub use tourney::run;
