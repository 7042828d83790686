//! The Go match: games run K at once (the machinery in `pool`); the main
//! thread writes the match's facts first (`facts`), then each finished
//! game at once (appended to games.sgf, or its own SGF file with
//! `--sgf-per-game`; one line appended to games.jsonl) so no result is
//! lost, keeps the running score, and prints the summary.

use super::config::Config;
use super::facts::{self, Match};
use super::json::{int, num, object, opt_str, string};
use super::pool::Failure;
use super::record::{GameRecord, SideStats};
use super::referee::{self, GameJob};
use super::spec::{log_name, GameConfig, PlayerSpec};
use super::start::Start;
use super::stats::Summary;
use super::sys::Stop;
use super::{date, json, pool, sgf};
use std::fs::{self, File};
use std::io::Write;
use std::time::SystemTime;

/// The seed recorded for game `i`.
fn game_seed(seed: u64, i: usize) -> u64 {
    seed.wrapping_add(i as u64)
}

/// Runs the match and prints its summary. Interrupted matches and fatal
/// errors still print the summary of the games that finished.
pub fn run(cfg: &Config) -> Result<(), Failure> {
    let out = &cfg.out;
    let started = date::iso(SystemTime::now());
    // refused before games.jsonl is touched, as an earlier match's is
    let mut records = sgf::Records::new(out, cfg.sgf_per_game).map_err(Failure::Taken)?;
    let mut jsonl = pool::open_results(out, &facts::match_line(&facts(cfg), &started))?;
    let names = cfg.players.clone().map(|p| p.name);
    let mut summary = Summary::new(names);
    let play = |i: usize, stop: &Stop| {
        let job = GameJob {
            index: i,
            seed: game_seed(cfg.seed, i),
            black: i % 2,
            start: Start::for_game(&cfg.starts, i),
            players: &cfg.players,
            out,
        };
        referee::play(&cfg.game, &job, stop)
    };
    let fatal = pool::play_games(cfg.games, cfg.jobs, play, |rec: GameRecord| {
        let saved = save(cfg, &rec, &mut records, &mut jsonl);
        summary.add(&rec);
        (summary.progress(cfg.games), saved)
    });

    let text = format!(
        "{}{}results: {}\n",
        header(cfg, &summary),
        summary.text(),
        out.display()
    );
    print!("{text}");
    let _ = fs::write(out.join("summary.txt"), &text);
    pool::ending(fatal, summary.games)
}

/// What every game of the match shares, for games.jsonl's first line.
fn facts(cfg: &Config) -> Match<'_> {
    let g = &cfg.game;
    let opt = |v: Option<u32>| v.map_or_else(|| "null".to_string(), |r| r.to_string());
    let clock = |p: usize| cfg.players[p].clock.to_string();
    let settings = vec![
        ("size", g.size.to_string()),
        ("komi", json::number(g.komi)),
        ("max_rounds", g.max_rounds.to_string()),
        ("stop_after", opt(g.stop_after)),
        ("bank_ms", g.bank_ms.to_string()),
        ("per_move_ms", g.per_move_ms.to_string()),
        ("dialect", json::string(&g.dialect.to_string())),
        ("rules", json::string(&g.rules.to_string())),
        (
            "illegal",
            json::string(if g.illegal_pass { "pass" } else { "lose" }),
        ),
        ("timeouts", g.max_timeouts.to_string()),
        ("hang_ms", g.hang_ms.to_string()),
        ("clock", json::object(&[("A", clock(0)), ("B", clock(1))])),
    ];
    Match {
        game: "go",
        command: &cfg.command,
        players: &cfg.players,
        games: cfg.games,
        jobs: cfg.jobs,
        seed: cfg.seed,
        out: &cfg.out,
        settings,
    }
}

fn header(cfg: &Config, summary: &Summary) -> String {
    let g = &cfg.game;
    format!(
        "match: {} (A) vs {} (B), {} of {} games, {}x{} komi {}, {} dialect, {} rules, bank {} ms + {} ms per move, seed {}\n",
        cfg.players[0].name,
        cfg.players[1].name,
        summary.games,
        cfg.games,
        g.size,
        g.size,
        g.komi,
        g.dialect,
        g.rules,
        g.bank_ms,
        g.per_move_ms,
        cfg.seed
    )
}

/// Writes a finished game: its SGF, then its line in games.jsonl (flushed).
fn save(
    cfg: &Config,
    rec: &GameRecord,
    records: &mut sgf::Records,
    jsonl: &mut File,
) -> Result<(), String> {
    let text = sgf::write(rec, &cfg.game, &date::date(SystemTime::now()));
    let file = records.save(rec.index, &text)?;
    let line = game_line(rec, &cfg.game, &cfg.players, &file);
    writeln!(jsonl, "{line}")
        .and_then(|()| jsonl.flush())
        .map_err(|e| format!("cannot append to games.jsonl: {e}"))
}

/// A player's answers in a game, for its line.
fn side(s: &SideStats) -> String {
    format!(
        "{{\"answers\":{},\"max_ms\":{},\"median_ms\":{},\"bank_left_ms\":{},\"timeouts\":{},\"illegal\":{}}}",
        s.times.len(),
        int(s.max_ms()),
        int(s.median_ms()),
        int(s.bank_left),
        s.timeouts,
        s.illegal
    )
}

/// One game's line of `games.jsonl` (no newline); `sgf` is the file its
/// record is in (in games.sgf, the game named `game N`, N its number).
fn game_line(rec: &GameRecord, cfg: &GameConfig, players: &[PlayerSpec; 2], sgf: &str) -> String {
    let label = |p: usize| players[p].label.to_string();
    let winner = rec.winner_player();
    let winner_color = rec.winner.map(|c| c.to_string());
    let area = match rec.area {
        Some((b, w)) => format!(
            "{{\"black\":{b},\"white\":{w},\"komi\":{}}}",
            num(Some(cfg.komi))
        ),
        None => "null".to_string(),
    };
    let logs = [0, 1].map(|p| string(&log_name(rec.index, players[p].label)));
    // player p's engine: the one in the seat p had
    let engine = |p: usize| {
        let c = if rec.seats[0] == p { 0 } else { 1 };
        rec.engines[c].json()
    };
    let fields = [
        ("game", (rec.index + 1).to_string()),
        ("seed", rec.seed.to_string()),
        ("black", string(&rec.names[0])),
        ("white", string(&rec.names[1])),
        ("black_player", string(&label(rec.seats[0]))),
        ("white_player", string(&label(rec.seats[1]))),
        ("winner", opt_str(winner.map(|p| players[p].name.as_str()))),
        ("winner_player", opt_str(winner.map(label).as_deref())),
        ("winner_color", opt_str(winner_color.as_deref())),
        ("result", string(&rec.result)),
        ("margin", num(rec.margin)),
        ("reason", string(rec.reason.key())),
        ("detail", string(&rec.detail)),
        ("moves", rec.moves.len().to_string()),
        ("start", opt_str(rec.start.as_deref())),
        ("rounds", rec.moves.len().div_ceil(2).to_string()),
        ("area", area),
        ("size", cfg.size.to_string()),
        ("komi", num(Some(cfg.komi))),
        ("dialect", string(&cfg.dialect.to_string())),
        ("rules", string(&cfg.rules.to_string())),
        ("black_stats", side(&rec.sides[0])),
        ("white_stats", side(&rec.sides[1])),
        ("sgf", string(sgf)),
        ("logs", format!("{{\"A\":{},\"B\":{}}}", logs[0], logs[1])),
        ("engines", object(&[("A", engine(0)), ("B", engine(1))])),
    ];
    object(&fields)
}
