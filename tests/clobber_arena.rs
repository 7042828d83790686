//! `tengen arena --game clobber` end to end with the real Clobber bot:
//! a random player against the greedy one, and alpha-beta against the
//! search. The limits are large (20 s): the tests check the referee and
//! the bot's protocol, not the bot's speed on a busy machine.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const TENGEN: &str = env!("CARGO_BIN_EXE_tengen");

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tengen-clobber-arena-{name}-{}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    dir
}

/// Runs a match of `games` between `tengen clobber` with options `a` and
/// with `b`, named `names`, into `out`; returns its games' lines of
/// games.jsonl (after the match's line) and checks that summary.txt is what
/// was printed.
fn play(out: &Path, games: &str, a: &str, b: &str, names: [&str; 2]) -> (Vec<String>, String) {
    let run = Command::new(TENGEN)
        .args([
            "arena", "--game", "clobber", "--games", games, "--seed", "9",
        ])
        .args(["--first-ms", "20000", "--turn-ms", "20000"])
        .args(["--name-a", names[0], "--name-b", names[1], "--out"])
        .arg(out)
        .args([
            format!("'{TENGEN}' clobber {a}"),
            format!("'{TENGEN}' clobber {b}"),
        ])
        .output()
        .expect("tengen runs");
    let stdout = String::from_utf8_lossy(&run.stdout).to_string();
    assert!(
        run.status.success(),
        "arena failed: {}\n{stdout}\nrecords in {}",
        String::from_utf8_lossy(&run.stderr),
        out.display()
    );
    let games = fs::read_to_string(out.join("games.jsonl")).unwrap();
    let summary = fs::read_to_string(out.join("summary.txt")).unwrap();
    assert_eq!(summary, stdout);
    let mut lines = games.lines();
    let facts = lines.next().unwrap_or_default();
    assert!(
        facts.starts_with("{\"match\":{\"game\":\"clobber\",\"command\":["),
        "{facts}"
    );
    (lines.map(str::to_string).collect(), summary)
}

/// Both bots answered legal moves in time: the game was played out.
fn played_out(line: &str) {
    for part in [
        "\"kind\":\"clobber\"",
        "\"reason\":\"end\"",
        "\"fault\":null",
        "\"stones\":{\"white\":",
        "\"board\":[",
    ] {
        assert!(line.contains(part), "{part} not in {line}");
    }
    // someone won: Clobber has no draws
    assert!(line.contains("\"winner_seat\":\""), "{line}");
    assert!(line.contains(" has no move\""), "{line}");
}

#[test]
fn random_against_greedy() {
    let dir = scratch("greedy");
    let out = dir.join("out");
    let (lines, summary) = play(
        &out,
        "2",
        "--player random",
        "--player greedy",
        ["random", "greedy"],
    );
    assert_eq!(lines.len(), 2, "{lines:?}");
    for line in &lines {
        played_out(line);
    }
    for part in [
        "match: clobber, random (A) vs greedy (B), 2 of 2 games",
        " as white, ",
        "draws: 0",
        "score of random: ",
        "ended by: end 2",
        "faults: random timeout 0, illegal 0, crash 0; greedy timeout 0, illegal 0, crash 0",
    ] {
        assert!(summary.contains(part), "{part} not in {summary}");
    }
    for log in ["game-0001-A.log", "game-0002-B.log"] {
        assert!(out.join(log).exists(), "{log}");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn alphabeta_against_search() {
    let dir = scratch("search");
    let out = dir.join("out");
    let (lines, summary) = play(
        &out,
        "1",
        "--player alphabeta",
        "--player search",
        ["alphabeta", "search"],
    );
    assert_eq!(lines.len(), 1, "{lines:?}");
    played_out(&lines[0]);
    assert!(
        lines[0].contains("\"white\":\"alphabeta\",\"black\":\"search\""),
        "{}",
        lines[0]
    );
    for part in [
        "match: clobber, alphabeta (A) vs search (B), 1 of 1 games",
        "ended by: end 1",
        "faults: alphabeta timeout 0, illegal 0, crash 0; search timeout 0, illegal 0, crash 0",
    ] {
        assert!(summary.contains(part), "{part} not in {summary}");
    }
    let _ = fs::remove_dir_all(&dir);
}
