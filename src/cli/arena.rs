//! `tengen arena` options: parsing, checking and the help text, for the Go
//! arena (`--game go`, the default) and the CodinGame referee (`--game
//! NAME`, a game of [`crate::games::registry`]), and the command's entry
//! point.

use super::{no_more_args, parse_flag, take_flag, ToolError};
use crate::arena::codingame;
use crate::arena::{self, date, Config, Failure, GameConfig, PlayerSpec};
use crate::games::{self, registry::Entry};
use crate::go::Rules;
use crate::go::MAX_SIZE;
use crate::protocol::field::Dialect;
use std::path::PathBuf;
use std::time::SystemTime;

/// The help text, the CodinGame games' names and paragraphs filled in.
pub fn help() -> String {
    let games = games::entries();
    let names: Vec<&str> = games.iter().map(|g| g.name).collect();
    let mut text = HELP.replace("{names}", &names.join("|"));
    for g in &games {
        text.push('\n');
        text.push_str(g.arena_help);
    }
    text
}

/// The names of the CodinGame games, in prose: `a, b or c`.
fn names(last: &str) -> String {
    let names: Vec<&str> = games::entries().iter().map(|g| g.name).collect();
    match names.split_last() {
        Some((end, [])) => end.to_string(),
        Some((end, rest)) => format!("{} {last} {end}", rest.join(", ")),
        None => String::new(),
    }
}

const HELP: &str = "\
tengen arena: the local engine simulator. Plays games between two bots as
the TheAIGames / Riddles.io Go referee does (or, with --game NAME, as
CodinGame's referee of that game does), and measures their strength.

usage: tengen arena [OPTIONS] PLAYER_A PLAYER_B
       tengen arena --game {names} [MATCH OPTIONS] PLAYER_A PLAYER_B

A player is a command line, run without a shell (split on whitespace; '...'
and \"...\" quote, \\ escapes), speaking the arena protocol on stdin/stdout;
or `gtp:COMMAND`, a GTP engine driven through a built-in adapter, e.g.
  'gtp:gnugo --mode gtp --level 10 --chinese-rules --capture-all-dead'
Each player is one process per game; its stderr goes to DIR/game-NNNN-A.log
(or -B). Bots get no seed through the protocol; the game's seed is in the
environment as TENGEN_ARENA_SEED.

An arena bot gets the settings lines at the start, then at each of its turns
the updates (round, move number, field, both players' points) and `action
move T`, T its bank in ms; it never sees the opponent's move. It answers one
line: `place_move X Y` (or `X,Y`) or `pass`. Lines it wrote before a request
are dropped as stale (noted in the SGF). A GTP engine gets boardsize,
clear_board, komi, the moves it has not seen (`play B D4`) and `genmove`;
`resign` loses the game; with a clock it also gets time_settings/time_left.

Match (every game):
  --game G           go (default): the Go arena below; or a CodinGame game
                     (see the end of this text)
  --games N          games to play (default 2); colours alternate, A
                     moves first (is black) in the first game
  --jobs K           games at once (default: cores / 2, at least 1, since
                     every game runs two bot processes)
  --seed S           seed of the match; game i records seed S + i
                     (default: from the clock)
  --out DIR          output folder (default matches/<UTC timestamp>); must
                     not hold a games.jsonl already
  --name-a NAME      names in the SGF, JSON and summary (default: the
  --name-b NAME      program's file name, the script's for an interpreter)
  --clock-a on|off   (go only) whether the timebank is enforced on a player (default:
  --clock-b on|off   on for arena bots, off for GTP engines). A player
                     without clock is still shown the full bank in
                     `action move` and is waited for up to --hang-limit.

Game (go only):
  --size N           board size (default 19, at most 25)
  --komi K           komi, to white (default 7.5)
  --max-rounds R     the game stops when the round counter reaches R: each
                     player moves at most R-1 times, as observed on the
                     arena (default 250)
  --stop-after R     cut each game when the round counter reaches R, while
                     the players still play for --max-rounds: a study of
                     the opening (score the cut positions with
                     tools/trajectory.py). A cut game has no result: it is
                     left out of the wins and the score
  --from PATH        begin each game from a recorded position: the first
  --from-move K      K moves of a game of an earlier match, replayed (the
                     games that went on past move K, in file order: every
                     game of PATH, an SGF file or collection; or, for a
                     match folder, of its games.sgf, else its game-*.sgf
                     in name order); games 2j and 2j+1 share one, colours
                     swapped, so each position is played from both sides.
                     The moves count toward the round limit; both banks
                     start full; games.jsonl's `start` names the game
                     (FILE#K: the Kth game of FILE). A screen of the late
                     game
  --dialect D        theaigames (standard rules' default): player1/player2, ids 1 and 2,
                     field 0/1/2, `update game move M` sent (M: number
                     of the move to be played, from 1); or riddles:
                     player0/player1, ids 0 and 1, field ./0/1 with -1 as
                     the rules mark (default with --rules riddles*, whose
                     1.0.3 is this dialect's default rules)
  --bank MS          the timebank: initial and maximum, in ms (default 10000)
  --per-move MS      added at each request (default 200): after an answer
                     taking E ms the bank is min(bank - E + per-move, bank max)
  --timeouts N       requests left unanswered within the bank that lose the
                     game (default 2, 1 with --rules riddles). A miss is
                     asked again with the bank then left (per-move); a late
                     answer is taken as the answer to that new request
  --illegal lose|pass
                     an illegal or unreadable answer loses the game
                     (default), or counts as a pass
  --hang-limit MS    longest wait for a player without clock (default 60000);
                     past it the request counts as a timeout
  --rules R          standard (the default, but riddles-1.0.3 with --dialect
                     riddles): suicide and positional superko are
                     illegal; two passes in a row, the round limit or no
                     legal move for either player end the game; Tromp-Taylor
                     area count with komi, no dead stone removal.
                     riddles-1.0.2, riddles-1.0.3 (alias riddles): the
                     public Riddles.io referee of that version, as its
                     source rules: no superko; a refused answer loses the
                     turn, not the game; a player passing on two of its own
                     turns in a row, an immediate ko retake (counted with
                     it) or a full board ends the game; raw area without
                     komi wins, equal areas draw (the points lines still
                     show komi); the first timeout loses (unless --timeouts
                     says otherwise); the riddles dialect unless --dialect
                     says otherwise. 1.0.3 refuses a stone with no empty
                     neighbour after its captures, marks such points -1
                     (a stone set there by a capture keeps the mark) and
                     calls the board full once no empty point has an empty
                     neighbour; 1.0.2 once no empty point is left

Output, in DIR: games.sgf, the SGF collection of the match (one file,
`(;...)(;...)`, that Sabaki or GoGui open as a list of games), each game
appended as it ends and named `game N` (GN), its number in games.jsonl;
the answer times are in the move comments. With
  --sgf-per-game     a file a game instead, game-NNNN.sgf
Then games.jsonl, the bots' logs, and summary.txt. games.jsonl's first line is
the match's, {\"match\":{...}}: this command line, the folder it ran in, the
cores it could use (taskset limits them), the start time, tengen's version
and commit, each player's command line, and the settings of every game;
then one line per finished game, appended as it ends, which adds what each
engine said of itself (a GTP engine's `name` and `version`, an arena bot's
first line on stderr: tengen's names its version and commit). The summary (wins, score with a 95 % Wilson interval, Elo
difference with its 95 % error, average length, timeouts, illegal moves) is
printed on stdout; a progress line goes to stderr when it is a terminal.
Ctrl-C stops: no new game starts, games in progress are dropped and their
bots killed, and the summary of the finished games is printed (exit 130).

--game NAME, a CodinGame game: the match options above apply (no gtp:
players), and:
  --first-ms MS      limit of a bot's first answer, counted from the start
                     of its process (default 1000)
  --turn-ms MS       limit of each later answer, counted from the moment
                     its turn's input was sent (default 100)
Each bot is started when its first turn comes and gets the game's first
lines, then each turn that turn's lines, and answers one line. A late
answer, an unreadable or illegal one, a crash or end of output loses the
game at once. DIR gets games.jsonl (the match's line first, as above; then
per game: players, winner, the reason end, limit, timeout, illegal or
crash and who faulted, the game's own fields, the moves, the answer
times), the bots' logs and summary.txt (wins, score of A with a 95 %
Wilson interval, faults by kind, slowest answers), also printed on stdout.
The games:
";

/// The options of the Go arena only: refused with another game.
const GO_ONLY: [&str; 16] = [
    "--size",
    "--komi",
    "--max-rounds",
    "--stop-after",
    "--from",
    "--from-move",
    "--dialect",
    "--bank",
    "--per-move",
    "--timeouts",
    "--illegal",
    "--hang-limit",
    "--rules",
    "--clock-a",
    "--clock-b",
    "--sgf-per-game",
];

/// The options of the CodinGame referee only: refused with --game go.
const CODINGAME_ONLY: [&str; 2] = ["--first-ms", "--turn-ms"];

/// The first of `flags` given in `args` (as `--flag V` or `--flag=V`).
fn given<'a>(args: &[String], flags: &[&'a str]) -> Option<&'a str> {
    flags.iter().copied().find(|f| {
        args.iter()
            .any(|a| a == f || a.strip_prefix(f).is_some_and(|r| r.starts_with('=')))
    })
}

/// `tengen arena ARGS`: parses them, plays the match, and returns what is
/// left to print (the summary is printed as the match ends).
pub fn run(mut args: Vec<String>) -> Result<String, ToolError> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(help());
    }
    let game = match take_flag(&mut args, "--game")?.as_deref() {
        None | Some("go") => None,
        Some(v) => match games::entry(v) {
            Some(g) => Some(g),
            None => {
                return Err(ToolError::usage(format!(
                    "--game: go, {}, not {v:?}",
                    names("or")
                )))
            }
        },
    };
    let result = match game {
        None => {
            if let Some(f) = given(&args, &CODINGAME_ONLY) {
                return Err(ToolError::usage(format!(
                    "{f} is an option of --game {}, not of Go",
                    names("and")
                )));
            }
            let mut cfg = parse(args)?.expect("--help was handled");
            cfg.command = std::env::args().collect();
            arena::run(&cfg)
        }
        Some(game) => {
            let mut cfg = parse_codingame(args, game)?;
            cfg.command = std::env::args().collect();
            codingame::run(&cfg)
        }
    };
    result.map_err(|e| match e {
        Failure::Io(m) => ToolError::input(m),
        Failure::Taken(m) => ToolError::usage(m),
        Failure::Interrupted(n) => ToolError {
            message: format!("interrupted after {n} finished games"),
            code: 130,
        },
    })?;
    Ok(String::new())
}

/// The options of a CodinGame match (`--game` already taken out).
pub fn parse_codingame(mut args: Vec<String>, game: Entry) -> Result<codingame::Config, ToolError> {
    if let Some(f) = given(&args, &GO_ONLY) {
        return Err(ToolError::usage(format!(
            "{f} is an option of Go only, not of --game {}",
            game.name
        )));
    }
    let common = common(&mut args)?;
    let (first, turn) = game.limits;
    let first_ms = at_least(
        "--first-ms",
        parse_flag(&mut args, "--first-ms")?.unwrap_or(first),
        1,
    )?;
    let turn_ms = at_least(
        "--turn-ms",
        parse_flag(&mut args, "--turn-ms")?.unwrap_or(turn),
        1,
    )?;
    let players = players(args, common.names)?;
    if let Some(p) = players.iter().find(|p| p.gtp) {
        return Err(ToolError::usage(format!(
            "player {}: --game {} plays no GTP engine: give a command line without gtp:",
            p.label, game.name
        )));
    }
    Ok(codingame::Config {
        game,
        command: Vec::new(),
        players,
        games: common.games,
        jobs: common.jobs.min(common.games),
        seed: common.seed,
        out: common.out,
        first_ms,
        turn_ms,
    })
}

/// The options every game takes.
struct Common {
    names: [Option<String>; 2],
    games: usize,
    jobs: usize,
    seed: u64,
    out: PathBuf,
}

fn common(args: &mut Vec<String>) -> Result<Common, ToolError> {
    let names = [take_flag(args, "--name-a")?, take_flag(args, "--name-b")?];
    let games = at_least("--games", parse_flag(args, "--games")?.unwrap_or(2), 1)?;
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let jobs = parse_flag(args, "--jobs")?.unwrap_or((cores / 2).max(1));
    let jobs = at_least("--jobs", jobs, 1)?;
    let seed = match parse_flag::<u64>(args, "--seed")? {
        Some(s) => s,
        None => SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    };
    let out = take_flag(args, "--out")?.map_or_else(
        || PathBuf::from("matches").join(date::stamp(SystemTime::now())),
        PathBuf::from,
    );
    Ok(Common {
        names,
        games,
        jobs,
        seed,
        out,
    })
}

/// The two players left in `args` once every option is taken, named
/// (`--name-a`, `--name-b`) and told apart if their names agree.
fn players(
    mut args: Vec<String>,
    names: [Option<String>; 2],
) -> Result<[PlayerSpec; 2], ToolError> {
    if let Some(a) = args.iter().find(|a| a.starts_with('-') && a.len() > 1) {
        return Err(ToolError::usage(format!(
            "unknown option {a:?} (tengen arena --help lists them)"
        )));
    }
    if args.len() != 2 {
        return Err(ToolError::usage(format!(
            "expected two players, got {}\n\nusage: tengen arena [OPTIONS] PLAYER_A PLAYER_B \
             (tengen arena --help)",
            args.len()
        )));
    }
    let b_text = args.pop().expect("two players");
    let a_text = args.pop().expect("two players");
    no_more_args(&args)?;
    let mut players = [
        PlayerSpec::parse(&a_text, 'A').map_err(ToolError::usage)?,
        PlayerSpec::parse(&b_text, 'B').map_err(ToolError::usage)?,
    ];
    for (p, name) in players.iter_mut().zip(names) {
        if let Some(n) = name {
            p.name = n;
        }
    }
    if players[0].name == players[1].name {
        for p in &mut players {
            p.name = format!("{}-{}", p.name, p.label);
        }
    }
    Ok(players)
}

fn on_off(args: &mut Vec<String>, name: &str) -> Result<Option<bool>, ToolError> {
    match take_flag(args, name)?.as_deref() {
        None => Ok(None),
        Some("on") => Ok(Some(true)),
        Some("off") => Ok(Some(false)),
        Some(v) => Err(ToolError::usage(format!(
            "{name}: expected on or off, not {v:?}"
        ))),
    }
}

fn at_least<T: PartialOrd + std::fmt::Display>(name: &str, v: T, min: T) -> Result<T, ToolError> {
    if v < min {
        return Err(ToolError::usage(format!("{name} must be at least {min}")));
    }
    Ok(v)
}

/// Parses the arguments; `Ok(None)` for `--help`.
pub fn parse(mut args: Vec<String>) -> Result<Option<Config>, ToolError> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(None);
    }
    // Flags first, so that only the two players are left.
    let common = common(&mut args)?;
    let clocks = [
        on_off(&mut args, "--clock-a")?,
        on_off(&mut args, "--clock-b")?,
    ];
    let size = parse_flag(&mut args, "--size")?.unwrap_or(19);
    if !(1..=MAX_SIZE).contains(&size) {
        return Err(ToolError::usage(format!("--size must be 1 to {MAX_SIZE}")));
    }
    let komi: f32 = parse_flag(&mut args, "--komi")?.unwrap_or(7.5);
    if !komi.is_finite() || komi.abs() > 1000.0 {
        return Err(ToolError::usage("--komi must be a number of points"));
    }
    let max_rounds = at_least(
        "--max-rounds",
        parse_flag(&mut args, "--max-rounds")?.unwrap_or(250),
        1,
    )?;
    let stop_after = match parse_flag(&mut args, "--stop-after")? {
        None => None,
        Some(r) => Some(at_least("--stop-after", r, 2)?),
    };
    let from = take_flag(&mut args, "--from")?;
    let sgf_per_game = super::take_switch(&mut args, "--sgf-per-game");
    let from_move: Option<usize> = parse_flag(&mut args, "--from-move")?;
    let bank_ms = at_least(
        "--bank",
        parse_flag(&mut args, "--bank")?.unwrap_or(10_000),
        1,
    )?;
    let per_move_ms = parse_flag(&mut args, "--per-move")?.unwrap_or(200);
    let hang_ms = at_least(
        "--hang-limit",
        parse_flag(&mut args, "--hang-limit")?.unwrap_or(60_000),
        1,
    )?;
    let dialect = match take_flag(&mut args, "--dialect")?.as_deref() {
        None => None,
        Some("theaigames") => Some(Dialect::TheAiGames),
        Some("riddles") => Some(Dialect::Riddles),
        Some(v) => {
            return Err(ToolError::usage(format!(
                "--dialect: theaigames or riddles, not {v:?}"
            )))
        }
    };
    // a bot reads the rules from the dialect: each defaults to the other's
    let rules: Rules = match take_flag(&mut args, "--rules")? {
        None if dialect == Some(Dialect::Riddles) => Rules::Riddles103,
        None => Rules::Standard,
        Some(v) => v
            .parse()
            .map_err(|e| ToolError::usage(format!("--rules: {e}")))?,
    };
    // the Riddles.io referee speaks its own dialect
    let dialect = dialect.unwrap_or(if rules.is_riddles() {
        Dialect::Riddles
    } else {
        Dialect::TheAiGames
    });
    let starts = match (from, from_move) {
        (None, None) => Vec::new(),
        (Some(dir), Some(k)) => {
            let k = at_least("--from-move", k, 1)?;
            if k / 2 + 1 >= max_rounds as usize {
                return Err(ToolError::usage(format!(
                    "--from-move {k} is past the round limit ({max_rounds})"
                )));
            }
            arena::load_starts(std::path::Path::new(&dir), k, size, rules)
                .map_err(ToolError::input)?
        }
        _ => return Err(ToolError::usage("--from and --from-move go together")),
    };
    let illegal_pass = match take_flag(&mut args, "--illegal")?.as_deref() {
        None | Some("lose") => false,
        Some("pass") => true,
        Some(v) => {
            return Err(ToolError::usage(format!(
                "--illegal: lose or pass, not {v:?}"
            )))
        }
    };
    let timeouts =
        parse_flag(&mut args, "--timeouts")?.unwrap_or(if rules.is_riddles() { 1 } else { 2 });
    let max_timeouts = at_least("--timeouts", timeouts, 1)?;
    let mut players = players(args, common.names)?;
    for (p, clock) in players.iter_mut().zip(clocks) {
        if let Some(c) = clock {
            p.clock = c;
        }
    }
    Ok(Some(Config {
        command: Vec::new(),
        players,
        games: common.games,
        jobs: common.jobs.min(common.games),
        seed: common.seed,
        out: common.out,
        game: GameConfig {
            size,
            komi,
            max_rounds,
            stop_after,
            bank_ms,
            per_move_ms,
            dialect,
            rules,
            illegal_pass,
            max_timeouts,
            hang_ms,
        },
        starts,
        sgf_per_game,
    }))
}

#[cfg(test)]
mod tests;
