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
pub mod random;
pub mod settings;
pub mod state;
pub mod thinker;

use crate::games::go::Config;
use crate::tools::ToolError;

/// The arena bot on stdin/stdout. Returns the process exit code.
pub fn run_bot() -> i32 {
    // without arguments there is nothing to refuse
    run_bot_with(search_config(&mut Vec::new()).unwrap_or_default())
}

/// `tengen bot [--set NAME=VALUE]...`: the arena bot with search parameters
/// changed, for tuning matches.
pub fn run_tuned_bot(mut args: Vec<String>) -> Result<(), ToolError> {
    let config = search_config(&mut args)?;
    crate::tools::no_more_args(&args)?;
    match run_bot_with(config) {
        0 => Ok(()),
        code => Err(ToolError {
            message: format!("the bot stopped with exit code {code}"),
            code,
        }),
    }
}

/// The arena bot on stdin/stdout, its search set up by `config`. Returns
/// the process exit code.
fn run_bot_with(config: Config) -> i32 {
    bot::run_with(bot::Bot::with_thinker(thinker::Thinker::new(config)))
}

/// The seed the local arena gives each game's bots: without it, two bots at
/// a fixed playout count would replay the same game over and over.
fn arena_seed() -> Option<u64> {
    std::env::var("TENGEN_ARENA_SEED").ok()?.parse().ok()
}

/// The search configuration, seeded by the arena if it runs us, with every
/// `--set NAME=VALUE` of `args` applied (and taken out of `args`).
pub fn search_config(args: &mut Vec<String>) -> Result<Config, ToolError> {
    let mut config = Config {
        seed: arena_seed().unwrap_or(Config::default().seed),
        ..Config::default()
    };
    while let Some(assignment) = crate::tools::take_flag(args, "--set")? {
        config
            .set(&assignment)
            .map_err(|e| ToolError::usage(format!("--set {e}")))?;
    }
    Ok(config)
}

/// `tengen random-bot [--seed S]`: the arena bot with a uniformly random
/// player instead of the search, as a sparring partner.
pub fn run_random_bot(mut args: Vec<String>) -> Result<(), ToolError> {
    let seed: u64 = crate::tools::parse_flag(&mut args, "--seed")?
        .or_else(arena_seed)
        .unwrap_or(1);
    crate::tools::no_more_args(&args)?;
    let make: thinker::Maker = std::sync::Arc::new(move || {
        Box::new(random::RandomPlayer::new(seed)) as Box<dyn thinker::Think>
    });
    bot::run_with(bot::Bot::with_thinker(thinker::Thinker::with(make)));
    Ok(())
}

/// `tengen gtp`: a GTP engine on stdin/stdout.
pub fn run_gtp(args: Vec<String>) -> Result<(), ToolError> {
    gtp::run(args)
}
