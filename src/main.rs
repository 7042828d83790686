//! The `tengen` binary. No arguments: the arena bot on stdin/stdout.
//! Subcommands run the other tools; `tengen help` lists them.

use std::io::Read;
use std::process::ExitCode;
use tengen::tools::{self, ToolError};

const HELP: &str = "\
tengen: a Go bot for the TheAIGames / Riddles.io arena

usage:
  tengen                 the arena bot: reads the engine's lines on stdin
  tengen bot [--set NAME=VALUE]...
                         the arena bot with search parameters changed
                         (tengen bot --help lists them)
  tengen score [--komi K]
                         Tromp-Taylor count of an X/O/- diagram on stdin
  tengen validate        play moves on a position from stdin (see README)
  tengen bench [--seconds S] [--positions] [--size N] [--seed N]
               [--search [--playouts N] [--set NAME=VALUE]...]
                         playouts per second, one thread
  tengen gtp [--seconds S] [--set NAME=VALUE]...
                         a GTP engine on stdin/stdout (S: seconds a move
                         when the controller sets no time)
  tengen learn [--player NAME] [--out FILE] SGF...
                         fit the learnt prior's move weights to game
                         records (tengen learn --help)
  tengen random-bot [--seed S]
                         an arena bot playing uniformly random legal moves
  tengen arena ...       the local engine simulator (tengen arena --help)
  tengen help            this text

Diagnostics go to stderr; set RUST_LOG=debug for more.
";

fn read_stdin() -> Result<String, ToolError> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| ToolError::input(format!("cannot read stdin: {e}")))?;
    Ok(input)
}

fn dispatch(command: &str, args: Vec<String>) -> Result<String, ToolError> {
    match command {
        "score" => tools::score::run(args, &read_stdin()?),
        "validate" => tools::validate::run(args, &read_stdin()?),
        "bench" => tools::bench::run(args),
        "learn" => tools::learn::run(args),
        "bot" if args.iter().any(|a| a == "--help") => Ok(params_help()),
        "bot" => tengen::protocol::run_tuned_bot(args).map(|()| String::new()),
        "gtp" => tengen::protocol::run_gtp(args).map(|()| String::new()),
        "random-bot" => tengen::protocol::run_random_bot(args).map(|()| String::new()),
        "arena" => tengen::arena::run(args).map(|()| String::new()),
        "help" | "--help" | "-h" => Ok(HELP.to_string()),
        other => Err(ToolError::usage(format!(
            "unknown command {other:?}\n\n{HELP}"
        ))),
    }
}

fn params_help() -> String {
    let mut text = String::from(
        "tengen bot [--set NAME=VALUE]...: the arena bot, its search changed.\n\
         `tengen gtp` takes the same --set. Parameters:\n",
    );
    for p in tengen::games::go::PARAMS {
        text += &format!("  {:26} {}\n", p.name, p.what);
    }
    text
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        return ExitCode::from(tengen::protocol::run_bot() as u8);
    }
    let command = args.remove(0);
    match dispatch(&command, args) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tengen {command}: {}", e.message);
            ExitCode::from(e.code as u8)
        }
    }
}
