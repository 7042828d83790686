//! The `tengen` binary. No arguments: the arena bot on stdin/stdout.
//! Subcommands run the other tools; `tengen help` lists them ([`tengen::cli`]).

use std::process::ExitCode;

fn main() -> ExitCode {
    tengen::deps::init_logger();
    let code = tengen::cli::run(std::env::args().skip(1).collect());
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
