//! The match: games run K at once on worker threads; the main thread writes
//! each finished game at once (SGF, one line appended to games.jsonl) so no
//! result is lost, keeps the running score, and prints the summary.

use super::record::GameRecord;
use super::referee::{self, GameJob};
use super::start::Start;
use super::stats::Summary;
use super::sys::{self, Stop};
use super::Config;
use super::{date, json, sgf};
use std::fs::{self, File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::SystemTime;

/// The seed recorded for game `i`.
fn game_seed(seed: u64, i: usize) -> u64 {
    seed.wrapping_add(i as u64)
}

/// Why a match stopped short.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// The output folder could not be made, or a game could not go on.
    Io(String),
    /// The output folder holds an earlier match.
    Taken(String),
    /// Ctrl-C, after this many finished games.
    Interrupted(usize),
}

/// Runs the match and prints its summary. Interrupted matches and fatal
/// errors still print the summary of the games that finished.
pub fn run(cfg: &Config) -> Result<(), Failure> {
    let out = &cfg.out;
    fs::create_dir_all(out)
        .map_err(|e| Failure::Io(format!("cannot create {}: {e}", out.display())))?;
    let jsonl_path = out.join("games.jsonl");
    if fs::metadata(&jsonl_path).is_ok_and(|m| m.len() > 0) {
        return Err(Failure::Taken(format!(
            "{} already exists: choose another --out",
            jsonl_path.display()
        )));
    }
    let mut jsonl = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&jsonl_path)
        .map_err(|e| Failure::Io(format!("cannot open {}: {e}", jsonl_path.display())))?;

    sys::catch_sigint();
    let stop = Stop::new();
    let next = AtomicUsize::new(0);
    let names = cfg.players.clone().map(|p| p.name);
    let mut summary = Summary::new(names);
    let mut fatal: Option<String> = None;
    let progress = std::io::stderr().is_terminal();
    let (tx, rx) = mpsc::channel::<Result<Option<GameRecord>, String>>();

    thread::scope(|s| {
        for _ in 0..cfg.jobs {
            let (tx, stop, next) = (tx.clone(), stop.clone(), &next);
            s.spawn(move || loop {
                if stop.is_set() {
                    break;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= cfg.games {
                    break;
                }
                let job = GameJob {
                    index: i,
                    seed: game_seed(cfg.seed, i),
                    black: i % 2,
                    start: Start::for_game(&cfg.starts, i),
                    players: &cfg.players,
                    out,
                };
                let result = referee::play(&cfg.game, &job, &stop);
                let failed = result.is_err();
                if tx.send(result).is_err() || failed {
                    break;
                }
            });
        }
        drop(tx);
        for result in rx {
            let rec = match result {
                Ok(Some(rec)) => rec,
                Ok(None) => continue,
                Err(e) => {
                    fatal.get_or_insert(e);
                    stop.set();
                    continue;
                }
            };
            if let Err(e) = save(cfg, &rec, &mut jsonl) {
                fatal.get_or_insert(e);
                stop.set();
            }
            summary.add(&rec);
            if progress {
                eprint!("\r{}   ", summary.progress(cfg.games));
            }
        }
    });
    if progress && summary.games > 0 {
        eprintln!();
    }

    let text = format!(
        "{}{}results: {}\n",
        header(cfg, &summary),
        summary.text(),
        out.display()
    );
    print!("{text}");
    let _ = fs::write(out.join("summary.txt"), &text);
    if let Some(e) = fatal {
        return Err(Failure::Io(e));
    }
    if sys::interrupted() {
        return Err(Failure::Interrupted(summary.games));
    }
    Ok(())
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
fn save(cfg: &Config, rec: &GameRecord, jsonl: &mut File) -> Result<(), String> {
    let sgf_path = cfg.out.join(sgf::file_name(rec.index));
    let text = sgf::write(rec, &cfg.game, &date::date(SystemTime::now()));
    fs::write(&sgf_path, text).map_err(|e| format!("cannot write {}: {e}", sgf_path.display()))?;
    let line = json::game_line(rec, &cfg.game, &cfg.players);
    writeln!(jsonl, "{line}")
        .and_then(|()| jsonl.flush())
        .map_err(|e| format!("cannot append to games.jsonl: {e}"))
}
