//! `tengen arena` end to end: matches between scripted bots (python3
//! scripts in tests/bots/) with short banks, checking the referee's rulings,
//! its clock, its outputs and the GTP adapter.

mod matches;
mod referee;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

const TENGEN: &str = env!("CARGO_BIN_EXE_tengen");

/// The tests run one at a time: verdicts that depend on timing, and the
/// tengen game on a real clock, must not share two cores with a test
/// starting a batch of python bots.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn bots_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots")
}

/// An arena bot command: the scripted bot with `args`.
fn bot(args: &str) -> String {
    format!(
        "python3 '{}' {args}",
        bots_dir().join("script.py").display()
    )
}

/// A GTP engine command: the scripted GTP engine with `args`.
fn gtp(args: &str) -> String {
    format!(
        "gtp:python3 '{}' {args}",
        bots_dir().join("gtp.py").display()
    )
}

/// A fresh folder for one test, removed when the test passes and kept
/// (its path on stderr) when it fails, for a look at the records.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("records kept in {}", self.0.display());
        } else {
            let _ = fs::remove_dir_all(&self.0);
        }
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("tengen-arena-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// Runs `tengen arena ARGS --out DIR/out`.
fn arena(dir: &Path, args: &[&str]) -> Output {
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    Command::new(TENGEN)
        .arg("arena")
        .args(args)
        .args(["--out", out])
        .output()
        .expect("tengen runs")
}

/// Options from one string, then the players.
fn opts<'a>(options: &'a str, players: &[&'a str]) -> Vec<&'a str> {
    options
        .split_whitespace()
        .chain(players.iter().copied())
        .collect()
}

/// Runs a match that must succeed; returns its games' JSON lines (the
/// match's own line, first, is checked and left out).
fn games(dir: &Path, args: &[&str]) -> Vec<String> {
    let out = arena(dir, args);
    assert!(
        out.status.success(),
        "arena failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    game_lines(&dir.join("out"))
}

/// The games' lines of the games.jsonl in `out`, after the match's line.
fn game_lines(out: &Path) -> Vec<String> {
    let text = read(out.join("games.jsonl"));
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    assert!(first.starts_with("{\"match\":{"), "{text}");
    lines.map(str::to_string).collect()
}

/// The match's line of the games.jsonl in `out`.
fn match_line(out: &Path) -> String {
    read(out.join("games.jsonl"))
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The raw JSON value of `key` in a flat-enough JSON line (strings
/// unescaped only as far as these tests need).
fn field(line: &str, key: &str) -> String {
    let pat = format!("\"{key}\":");
    let start = line
        .find(&pat)
        .unwrap_or_else(|| panic!("no {key} in {line}"))
        + pat.len();
    let rest = &line[start..];
    let (mut depth, mut in_str, mut escaped) = (0, false, false);
    for (i, c) in rest.char_indices() {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '{' | '[' => depth += 1,
            '}' | ']' if depth > 0 => depth -= 1,
            ',' | '}' if depth == 0 => return rest[..i].trim_matches('"').to_string(),
            _ => {}
        }
    }
    panic!("unterminated {key} in {line}")
}

/// The SGF of game `n` (as the arena numbers it, `GN[game n]`) in the
/// collection `out/games.sgf`; exactly one game there must have it.
fn game_sgf(out: &Path, n: usize) -> String {
    let text = read(out.join("games.sgf"));
    let gn = format!("GN[game {n}]");
    let all = tengen::go::sgf::games(&text).unwrap_or_else(|e| panic!("games.sgf: {e}"));
    let named: Vec<&str> = all.into_iter().filter(|g| g.contains(&gn)).collect();
    assert_eq!(named.len(), 1, "{gn} in {text}");
    named[0].to_string()
}

fn read(path: impl AsRef<Path>) -> String {
    fs::read_to_string(path.as_ref())
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.as_ref().display()))
}
