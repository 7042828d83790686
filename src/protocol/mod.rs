//! The protocols: the arena bot (both dialects) and GTP.
//!
//! - [`bot`]: the arena loop; [`lines`] reads the engine's lines,
//!   [`settings`] keeps the match settings, [`state`] keeps our game in step
//!   with the engine's fields.
//! - [`thinker`]: runs the search on a worker thread and answers by the hard
//!   deadline whatever happens; [`fallback`] is the move it answers then.
//! - [`gtp`]: the GTP engine, with [`gtp_clock`] for its time controls.

pub mod bot;
pub mod fallback;
pub mod gtp;
pub mod gtp_clock;
pub mod lines;
pub mod settings;
pub mod state;
pub mod thinker;

use crate::tools::ToolError;

/// The arena bot on stdin/stdout. Returns the process exit code.
pub fn run_bot() -> i32 {
    bot::run()
}

/// `tengen gtp`: a GTP engine on stdin/stdout.
pub fn run_gtp(args: Vec<String>) -> Result<(), ToolError> {
    gtp::run(args)
}
