//! `tengen arena --game atari-go` end to end with the real Atari Go bot:
//! a random player against the greedy one. The limits are large (20 s):
//! the test checks the referee and the bot's protocol, not the bot's speed
//! on a busy machine.

use std::fs;
use std::process::Command;

const TENGEN: &str = env!("CARGO_BIN_EXE_tengen");

#[test]
fn random_against_greedy() {
    let dir = std::env::temp_dir().join(format!("tengen-atari-go-arena-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let out = dir.join("out");
    let a = format!("'{TENGEN}' atari-go --player random");
    let b = format!("'{TENGEN}' atari-go --player greedy");
    let run = Command::new(TENGEN)
        .args(["arena", "--game", "atari-go", "--games", "2", "--seed", "9"])
        .args(["--first-ms", "20000", "--turn-ms", "20000"])
        .args(["--name-a", "random", "--name-b", "greedy", "--out"])
        .arg(&out)
        .args([&a, &b])
        .output()
        .expect("tengen runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "arena failed: {}\n{stdout}\nrecords in {}",
        String::from_utf8_lossy(&run.stderr),
        out.display()
    );
    let games = fs::read_to_string(out.join("games.jsonl")).unwrap();
    let mut lines: Vec<&str> = games.lines().collect();
    let facts = lines.remove(0);
    assert!(
        facts.starts_with("{\"match\":{\"game\":\"atari-go\",")
            && facts.contains("\"tengen_commit\":"),
        "{facts}"
    );
    assert_eq!(lines.len(), 2, "{games}");
    for line in &lines {
        // both bots answer legal moves in time: every game is played out
        for part in ["\"reason\":\"end\"", "\"fault\":null", "\"turns\":80"] {
            assert!(line.contains(part), "{part} not in {line}");
        }
    }
    let summary = fs::read_to_string(out.join("summary.txt")).unwrap();
    assert_eq!(summary, stdout);
    for part in [
        "match: atari-go, random (A) vs greedy (B), 2 of 2 games",
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
