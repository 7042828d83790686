//! The protocols: the arena bot (both dialects) and GTP.
//!
//! - [`bot`]: the arena loop; [`lines`] reads the engine's lines,
//!   [`field`] the board in them, [`settings`] keeps the match settings,
//!   [`state`] keeps our game in step with the engine's fields.
//! - [`deadline`]: a search on a thread of its own that answers by a
//!   deadline, for every front end; [`thinker`]: Go's choice on it, by the
//!   hard deadline whatever happens; [`fallback`] is the move it answers then.
//! - [`gtp`]: the GTP engine, with [`gtp_clock`] for its time controls;
//!   [`version`]: which build runs.
//! - [`codingame`]: runs a game's CodinGame bot on stdin/stdout, its
//!   search on the [`deadline`] thread.

pub mod bot;
pub mod codingame;
pub mod deadline;
pub mod fallback;
pub mod field;
pub mod gtp;
pub mod gtp_clock;
pub mod lines;
pub mod random;
pub mod settings;
pub mod state;
pub mod thinker;
pub mod version;

use crate::games::go::Config;

/// The first line an arena bot writes on stderr: which build plays (the
/// local arena records it with each game). Not a diagnostic, so not left
/// to the log level.
fn banner(player: &str) {
    eprintln!("tengen {} {player}", version::version());
}

/// The arena bot as `tengen` runs it without arguments: the default
/// search, seeded by the local arena when it runs us. Returns the process
/// exit code.
pub fn run_default_bot() -> i32 {
    run_bot(Config {
        seed: arena_seed().unwrap_or(Config::default().seed),
        ..Config::default()
    })
}

/// The seed the local arena gives each game's bots (`TENGEN_ARENA_SEED`):
/// without it, two bots at a fixed playout count would replay the same
/// game over and over.
pub fn arena_seed() -> Option<u64> {
    std::env::var("TENGEN_ARENA_SEED").ok()?.parse().ok()
}

/// The arena bot on stdin/stdout, its search set up by `config`. Returns
/// the process exit code.
pub fn run_bot(config: Config) -> i32 {
    banner("arena bot");
    bot::run_with(bot::Bot::with_thinker(thinker::Thinker::new(config)))
}

/// The arena bot with a uniformly random player instead of the search, as
/// a sparring partner. Returns the process exit code.
pub fn run_random_bot(seed: u64) -> i32 {
    banner("random bot");
    let make: thinker::Maker = std::sync::Arc::new(move || {
        Box::new(random::RandomPlayer::new(seed)) as Box<dyn thinker::Think>
    });
    bot::run_with(bot::Bot::with_thinker(thinker::Thinker::with(make)))
}

pub use gtp::run as run_gtp;
