//! The command line: the subcommands, their arguments and their errors.
//! The small tools take their arguments and input as text and return what
//! to print, or a [`ToolError`]; [`run`] turns errors into a message on
//! stderr and a non-zero exit. The bot, GTP and the arena get a ready
//! configuration from here.

pub mod arena;
pub mod bench;
pub mod evaluate;
pub mod learn;
pub mod model;
pub mod score;
pub mod validate;

use crate::games::codingame::{self, Bot};
use crate::games::go::{Config, PARAMS};
use crate::games::registry::{Game, Visit};
use std::io::Read;
use std::time::Duration;

/// The help text: [`HELP`] with each CodinGame game's entry.
pub fn help() -> String {
    let usages: String = crate::games::entries().iter().map(|g| g.usage).collect();
    HELP.replace("{games}", &usages)
}

const HELP: &str = "\
tengen: a Go bot for the TheAIGames / Riddles.io arena

usage:
  tengen                 the arena bot: reads the engine's lines on stdin
  tengen bot [--set NAME=VALUE]... [--model FILE]
                         the arena bot with search parameters changed
                         (tengen bot --help lists them), or with a
                         KataGo network (.bin.gz) instead of the built-in
  tengen score [--komi K]
                         Tromp-Taylor count of an X/O/- diagram on stdin
  tengen validate        play moves on a position from stdin (see README)
  tengen bench [--seconds S] [--positions] [--size N] [--seed N]
               [--search [--playouts N] [--set NAME=VALUE]...]
               [--net [--model FILE]]
                         playouts per second, one thread; --net: ms a
                         network evaluation on each path (tengen bench
                         --help)
  tengen gtp [--seconds S] [--set NAME=VALUE]... [--model FILE]
                         a GTP engine on stdin/stdout (S: seconds a move
                         when the controller sets no time)
  tengen model FILE [--code OUT [--steps N]]
                         a KataGo network's description, or its coded
                         form for the arena build (tengen model --help)
  tengen learn [--player NAME] [--teacher] [--out FILE] SGF...
                         fit the learnt prior's move weights to game
                         records (tengen learn --help)
  tengen evaluate [--playouts N] [--net] [--children C] < POSITIONS
                         the playouts' (the value head's) win rate and
                         margin for move sequences, or the search's
                         likeliest moves (tengen evaluate --help)
{games}  tengen random-bot [--seed S]
                         an arena bot playing uniformly random legal moves
  tengen arena ...       the local engine simulator (tengen arena --help)
  tengen help            this text

Diagnostics go to stderr; set RUST_LOG=debug for more.
";

/// Runs the command line `args` (without the program name); returns the
/// process exit code. No arguments: the arena bot.
pub fn run(mut args: Vec<String>) -> i32 {
    if args.is_empty() {
        return crate::protocol::run_default_bot();
    }
    let command = args.remove(0);
    match dispatch(&command, args) {
        Ok(out) => {
            print!("{out}");
            0
        }
        Err(e) => {
            eprintln!("tengen {command}: {}", e.message);
            e.code
        }
    }
}

fn read_stdin() -> Result<String, ToolError> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| ToolError::input(format!("cannot read stdin: {e}")))?;
    Ok(input)
}

/// The entry of `command` in [`help`]: its usage lines and what it does.
fn entry(command: &str) -> Option<String> {
    let head = format!("  tengen {command} ");
    let help = help();
    let lines: Vec<&str> = help.lines().collect();
    let start = lines.iter().position(|l| l.starts_with(&head))?;
    let len = lines[start + 1..]
        .iter()
        .take_while(|l| l.starts_with("   "))
        .count();
    Some(format!(
        "usage:\n{}\n",
        lines[start..=start + len].join("\n")
    ))
}

fn dispatch(command: &str, mut args: Vec<String>) -> Result<String, ToolError> {
    // the commands without a --help of their own answer with their entry
    // here, before any of them waits for stdin
    const OWN_HELP: [&str; 6] = ["bench", "learn", "evaluate", "bot", "arena", "model"];
    if args.iter().any(|a| a == "--help") && !OWN_HELP.contains(&command) {
        if let Some(text) = entry(command) {
            return Ok(text);
        }
    }
    match command {
        "score" => score::run(args, &read_stdin()?),
        "validate" => validate::run(args, &read_stdin()?),
        "bench" => bench::run(args),
        "learn" => learn::run(args),
        "evaluate" => evaluate::run(args, &read_stdin()?),
        "model" => model::run(args),
        "bot" if args.iter().any(|a| a == "--help") => Ok(params_help()),
        "bot" => {
            model::install(&mut args)?;
            let config = search_config(&mut args)?;
            no_more_args(&args)?;
            exited(crate::protocol::run_bot(config), "the bot")
        }
        "gtp" => {
            let secs: f64 = parse_flag(&mut args, "--seconds")?.unwrap_or(1.0);
            model::install(&mut args)?;
            let config = search_config(&mut args)?;
            no_more_args(&args)?;
            if !(secs.is_finite() && secs > 0.0 && secs < 1e6) {
                return Err(ToolError::usage(format!("--seconds {secs}: out of range")));
            }
            crate::protocol::run_gtp(Duration::from_secs_f64(secs), config)
                .map_err(ToolError::input)?;
            Ok(String::new())
        }
        "random-bot" => {
            let seed = parse_flag(&mut args, "--seed")?
                .or_else(crate::protocol::arena_seed)
                .unwrap_or(1);
            no_more_args(&args)?;
            exited(crate::protocol::run_random_bot(seed), "the random bot")
        }
        "arena" => arena::run(args),
        "help" | "--help" | "-h" => Ok(help()),
        other => match crate::games::visit(other, RunBot(args)) {
            Some(done) => done,
            None => Err(ToolError::usage(format!(
                "unknown command {other:?}\n\n{}",
                help()
            ))),
        },
    }
}

/// `tengen GAME ARGS`: a CodinGame game's bot, with its options.
struct RunBot(Vec<String>);

impl Visit for RunBot {
    type Out = Result<String, ToolError>;
    fn visit<G: Game>(self) -> Self::Out {
        let mut args = self.0;
        let opts = codingame_options::<G::Bot>(&mut args, codingame::defaults::<G::Bot>())?;
        let code = crate::protocol::codingame::run::<G::Bot>(opts);
        exited(code, &format!("the {} bot", G::TITLE))
    }
}

/// The options of a CodinGame bot over `defaults`: `--player`, `--seed`
/// (else the arena's), `--first-ms`, `--turn-ms`; nothing else may be
/// left.
fn codingame_options<B: Bot>(
    args: &mut Vec<String>,
    defaults: codingame::Options<B::Player>,
) -> Result<codingame::Options<B::Player>, ToolError> {
    let player = match take_flag(args, "--player")? {
        Some(p) => p.parse().map_err(ToolError::usage)?,
        None => defaults.player,
    };
    let opts = codingame::Options {
        player,
        seed: parse_flag(args, "--seed")?
            .or_else(crate::protocol::arena_seed)
            .unwrap_or(defaults.seed),
        first_ms: parse_flag(args, "--first-ms")?.unwrap_or(defaults.first_ms),
        turn_ms: parse_flag(args, "--turn-ms")?.unwrap_or(defaults.turn_ms),
    };
    no_more_args(args)?;
    Ok(opts)
}

/// A bot's exit code as a tool's result.
fn exited(code: i32, what: &str) -> Result<String, ToolError> {
    match code {
        0 => Ok(String::new()),
        code => Err(ToolError {
            message: format!("{what} stopped with exit code {code}"),
            code,
        }),
    }
}

fn params_help() -> String {
    let mut text = String::from(
        "tengen bot [--set NAME=VALUE]...: the arena bot, its search changed.\n\
         `tengen gtp` takes the same --set. Parameters:\n",
    );
    for p in PARAMS {
        text += &format!("  {:26} {}\n", p.name, p.what);
    }
    text
}

/// The search configuration, seeded by the arena if it runs us, with every
/// `--set NAME=VALUE` of `args` applied (and taken out of `args`).
pub fn search_config(args: &mut Vec<String>) -> Result<Config, ToolError> {
    let mut config = Config {
        seed: crate::protocol::arena_seed().unwrap_or(Config::default().seed),
        ..Config::default()
    };
    while let Some(assignment) = take_flag(args, "--set")? {
        config
            .set(&assignment)
            .map_err(|e| ToolError::usage(format!("--set {e}")))?;
    }
    Ok(config)
}

/// A tool's failure: the message for stderr and the exit code.
#[derive(Debug, PartialEq, Eq)]
pub struct ToolError {
    pub message: String,
    pub code: i32,
}

impl ToolError {
    /// Bad input or arguments (exit 1).
    pub fn input(message: impl Into<String>) -> ToolError {
        ToolError {
            message: message.into(),
            code: 1,
        }
    }
    /// Bad usage (exit 2).
    pub fn usage(message: impl Into<String>) -> ToolError {
        ToolError {
            message: message.into(),
            code: 2,
        }
    }
}

/// Reads the value after flag `name` in `args` (`--name V` or `--name=V`),
/// removing both. Fails if the flag is present without a value.
pub fn take_flag(args: &mut Vec<String>, name: &str) -> Result<Option<String>, ToolError> {
    let eq = format!("{name}=");
    if let Some(i) = args.iter().position(|a| a == name) {
        if i + 1 >= args.len() {
            return Err(ToolError::usage(format!("{name} needs a value")));
        }
        let v = args.remove(i + 1);
        args.remove(i);
        return Ok(Some(v));
    }
    if let Some(i) = args.iter().position(|a| a.starts_with(&eq)) {
        let v = args.remove(i)[eq.len()..].to_string();
        return Ok(Some(v));
    }
    Ok(None)
}

/// Parses a flag's value, naming the flag in the error.
pub fn parse_flag<T: std::str::FromStr>(
    args: &mut Vec<String>,
    name: &str,
) -> Result<Option<T>, ToolError> {
    match take_flag(args, name)? {
        None => Ok(None),
        Some(v) => v
            .parse()
            .map(Some)
            .map_err(|_| ToolError::usage(format!("{name}: cannot read {v:?}"))),
    }
}

/// Fails on any argument left over.
pub fn no_more_args(args: &[String]) -> Result<(), ToolError> {
    match args.first() {
        None => Ok(()),
        Some(a) => Err(ToolError::usage(format!("unexpected argument {a:?}"))),
    }
}

/// Removes a flag without a value; true if it was there.
pub fn take_switch(args: &mut Vec<String>, name: &str) -> bool {
    match args.iter().position(|a| a == name) {
        Some(i) => {
            args.remove(i);
            true
        }
        None => false,
    }
}
