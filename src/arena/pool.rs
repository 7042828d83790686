//! What every match does around its games, whatever the game: the output
//! folder and its games.jsonl, games run K at once on worker threads with
//! each finished one handed to the main thread at once (so no result is
//! lost), Ctrl-C, and how the match ended. The Go arena (`tourney`) and the
//! CodinGame referee (`codingame`) both run on it.

use super::facts;
use super::sys::{self, Stop};
use std::fs::{self, File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

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

/// Makes `out`, starts its games.jsonl with the match's line (`facts`) and
/// keeps it open for appending; refuses a folder that holds an earlier
/// match's games (one that ended before its first game is replaced).
pub fn open_results(out: &Path, match_line: &str) -> Result<File, Failure> {
    fs::create_dir_all(out)
        .map_err(|e| Failure::Io(format!("cannot create {}: {e}", out.display())))?;
    let jsonl_path = out.join("games.jsonl");
    let io = |e: std::io::Error| Failure::Io(format!("cannot write {}: {e}", jsonl_path.display()));
    if let Ok(old) = fs::read(&jsonl_path) {
        let old = String::from_utf8_lossy(&old);
        let game = |l: &&str| !l.trim().is_empty() && !facts::is_match_line(l);
        if old.lines().any(|l| game(&l)) {
            return Err(Failure::Taken(format!(
                "{} already holds games: choose another --out",
                jsonl_path.display()
            )));
        }
    }
    let mut file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(true)
        .open(&jsonl_path)
        .map_err(io)?;
    writeln!(file, "{match_line}")
        .and_then(|()| file.flush())
        .map_err(io)?;
    Ok(file)
}

/// Plays games `0..games`, `jobs` at once: `play(i, stop)` on a worker
/// thread, then `done` with each finished game on this thread as it comes
/// (a game cut short gives `None` and is skipped). `done` returns the
/// match's progress line, drawn on stderr when that is a terminal, and
/// whether the game was kept. Ctrl-C or the first error, of a game or of
/// `done`, stops the match: no game starts after it. Returns that first
/// error.
pub fn play_games<R: Send>(
    games: usize,
    jobs: usize,
    play: impl Fn(usize, &Stop) -> Result<Option<R>, String> + Sync,
    mut done: impl FnMut(R) -> (String, Result<(), String>),
) -> Option<String> {
    sys::catch_sigint();
    let terminal = std::io::stderr().is_terminal();
    let mut drawn = false;
    let stop = Stop::new();
    let next = AtomicUsize::new(0);
    let mut fatal: Option<String> = None;
    let (tx, rx) = mpsc::channel::<Result<Option<R>, String>>();
    thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            let (tx, stop, next, play) = (tx.clone(), stop.clone(), &next, &play);
            s.spawn(move || loop {
                if stop.is_set() {
                    break;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= games {
                    break;
                }
                let result = play(i, &stop);
                let failed = result.is_err();
                if tx.send(result).is_err() || failed {
                    break;
                }
            });
        }
        drop(tx);
        for result in rx {
            let outcome = match result {
                Ok(Some(rec)) => {
                    let (line, kept) = done(rec);
                    if terminal {
                        eprint!("\r{line}   ");
                        drawn = true;
                    }
                    kept
                }
                Ok(None) => continue,
                Err(e) => Err(e),
            };
            if let Err(e) = outcome {
                fatal.get_or_insert(e);
                stop.set();
            }
        }
    });
    if drawn {
        eprintln!();
    }
    fatal
}

/// How a match that has printed its summary ended: the first error, else
/// Ctrl-C after `finished` games, else well.
pub fn ending(fatal: Option<String>, finished: usize) -> Result<(), Failure> {
    if let Some(e) = fatal {
        return Err(Failure::Io(e));
    }
    if sys::interrupted() {
        return Err(Failure::Interrupted(finished));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_match_line_comes_first_and_games_are_never_overwritten() {
        let out = std::env::temp_dir().join(format!("tengen-pool-{}", std::process::id()));
        let _ = fs::remove_dir_all(&out);
        let jsonl = out.join("games.jsonl");
        let first = r#"{"match":{"game":"go"}}"#;
        drop(open_results(&out, first).unwrap());
        assert_eq!(fs::read_to_string(&jsonl).unwrap(), format!("{first}\n"));
        // a match that ended before its first game leaves nothing to keep
        let second = r#"{"match":{"game":"other"}}"#;
        let mut f = open_results(&out, second).unwrap();
        writeln!(f, r#"{{"game":1}}"#).unwrap();
        drop(f);
        let text = fs::read_to_string(&jsonl).unwrap();
        assert_eq!(text, format!("{second}\n{{\"game\":1}}\n"));
        assert!(matches!(open_results(&out, first), Err(Failure::Taken(_))));
        assert_eq!(fs::read_to_string(&jsonl).unwrap(), text);
        let _ = fs::remove_dir_all(&out);
    }
}
