//! `tengen arena`: the local engine simulator. Plays the arena protocol with
//! two bots exactly as the referee would, enforces the rules and the
//! timebank, and runs matches large enough to measure strength.
//!
//! - `cli`: options and help; `tourney`: the match loop and its outputs.
//! - `referee`: one game; `rules`: its rulings; `record`: what it leaves.
//! - `bot`: players as the referee sees them, the arena-protocol bot;
//!   `gtp_player`: the GTP adapter; `process`: a bot process and its I/O.
//! - `sgf`, `json`, `stats`: the outputs; `spec`: player command lines;
//!   `sys`: Ctrl-C and process-group kills; `time`: UTC dates; `start`:
//!   games begun from the positions of an earlier match.

mod bot;
mod cli;
mod gtp_player;
mod json;
mod process;
mod record;
mod referee;
mod rules;
mod sgf;
mod spec;
mod start;
mod stats;
mod sys;
mod time;
mod tourney;

use crate::tools::ToolError;

/// `tengen arena ARGS`: runs a match, prints the summary on stdout.
pub fn run(args: Vec<String>) -> Result<(), ToolError> {
    match cli::parse(args)? {
        None => {
            print!("{}", cli::HELP);
            Ok(())
        }
        Some(cfg) => tourney::run(&cfg),
    }
}
