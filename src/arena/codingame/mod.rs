//! `tengen arena --game NAME`: a referee for the CodinGame games listed
//! in [`crate::games::registry`], with the match around it. Each turn the
//! player to move gets a few lines and answers one; a late answer (the
//! game's limits: 1000 ms for the first, process start included, then
//! 100 ms), a refused one, a crash or end of output loses at once.
//!
//! - each game implements [`Refereed`] in its own folder.
//! - `referee`: one game; `summary`: the JSON line and the summary.
//! - here: the match, on the arena's `pool` (games run `jobs` at once,
//!   each finished game written at once so none is lost), its games.jsonl
//!   begun with the match's line (`facts`).

mod referee;
mod summary;
#[cfg(test)]
mod tests;

pub use crate::games::referee::Refereed;
use crate::games::registry::Entry;

use super::facts::{self, Match};
use super::spec::PlayerSpec;
use super::sys::Stop;
use super::Failure;
use super::{date, pool};
use referee::{Record, Table};
use std::fs::{self, File};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;
use summary::Summary;

/// Everything a CodinGame match needs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game, from the list of games.
    pub game: Entry,
    /// The arena's command line, for the records (empty: not known).
    pub command: Vec<String>,
    /// Players A and B: plain command lines (no `gtp:`).
    pub players: [PlayerSpec; 2],
    pub games: usize,
    pub jobs: usize,
    /// Game i's bots get `seed + i` in `TENGEN_ARENA_SEED`.
    pub seed: u64,
    pub out: PathBuf,
    /// The limits of the first answer (process start included) and of each
    /// later one, in ms.
    pub first_ms: u64,
    pub turn_ms: u64,
}

/// Runs the match and prints its summary (also written to summary.txt).
/// An interrupted match or a fatal error still prints the summary of the
/// games that finished.
pub fn run(cfg: &Config) -> Result<(), Failure> {
    if let Some(p) = cfg.players.iter().find(|p| p.gtp) {
        return Err(Failure::Io(format!(
            "player {}: {} is not played through GTP: give its command line without gtp:",
            p.label, cfg.game.name
        )));
    }
    let out = &cfg.out;
    let facts = Match {
        game: cfg.game.name,
        command: &cfg.command,
        players: &cfg.players,
        games: cfg.games,
        jobs: cfg.jobs,
        seed: cfg.seed,
        out,
        settings: vec![
            ("first_ms", cfg.first_ms.to_string()),
            ("turn_ms", cfg.turn_ms.to_string()),
        ],
    };
    let started = date::iso(std::time::SystemTime::now());
    let mut jsonl = pool::open_results(out, &facts::match_line(&facts, &started))?;
    let names = cfg.players.clone().map(|p| p.name);
    let mut summary = Summary::new(names, cfg.game.seat_names());
    let table = Table {
        game: cfg.game,
        players: &cfg.players,
        first: Duration::from_millis(cfg.first_ms),
        turn: Duration::from_millis(cfg.turn_ms),
        out,
    };
    let play =
        |i: usize, stop: &Stop| referee::play(&table, i, cfg.seed.wrapping_add(i as u64), stop);
    let fatal = pool::play_games(cfg.games, cfg.jobs, play, |rec: Record| {
        let saved = save(cfg, &rec, &mut jsonl);
        summary.add(&rec);
        (summary.progress(cfg.games), saved)
    });

    let text = format!(
        "match: {}, {} (A) vs {} (B), {} of {} games, first answer {} ms, later {} ms, seed {}\n{}results: {}\n",
        cfg.game.name,
        cfg.players[0].name,
        cfg.players[1].name,
        summary.games,
        cfg.games,
        cfg.first_ms,
        cfg.turn_ms,
        cfg.seed,
        summary.text(),
        out.display()
    );
    print!("{text}");
    let _ = fs::write(out.join("summary.txt"), &text);
    pool::ending(fatal, summary.games)
}

/// Appends a finished game's line to games.jsonl, flushed.
fn save(cfg: &Config, rec: &Record, jsonl: &mut File) -> Result<(), String> {
    let line = summary::game_line(rec, cfg.game.name, &cfg.players);
    writeln!(jsonl, "{line}")
        .and_then(|()| jsonl.flush())
        .map_err(|e| format!("cannot append to games.jsonl: {e}"))
}
