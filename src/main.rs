//! The `tengen` binary. No arguments: the arena bot on stdin/stdout.
//! Subcommands run the other tools; `tengen help` lists them ([`tengen::cli`]).

use std::process::ExitCode;
use tengen::deps::env_logger;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let code = tengen::cli::run(std::env::args().skip(1).collect());
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
