//! `tengen arena --game NAME` end to end with the real bots, for every
//! CodinGame game listed (`tengen::games::entries`): each of the game's
//! players plays a match of two games against the next one in its list.
//! The limits are large (20 s): the tests check the referee and the bots'
//! protocol, not the bots' speed on a busy machine.

use std::fs;
use std::path::Path;
use std::process::Command;

const TENGEN: &str = env!("CARGO_BIN_EXE_tengen");

/// A match of two games of `game` between `tengen GAME --player a` and
/// `--player b` into `out`: every game played out, its records as printed.
fn play(out: &Path, game: &str, [a, b]: [&str; 2]) {
    let run = Command::new(TENGEN)
        .args(["arena", "--game", game, "--games", "2", "--seed", "9"])
        .args(["--first-ms", "20000", "--turn-ms", "20000"])
        .args(["--name-a", a, "--name-b", b, "--out"])
        .arg(out)
        .args([
            format!("'{TENGEN}' {game} --player {a}"),
            format!("'{TENGEN}' {game} --player {b}"),
        ])
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
        facts.starts_with(&format!("{{\"match\":{{\"game\":\"{game}\",")),
        "{facts}"
    );
    assert!(facts.contains("\"tengen_commit\":"), "{facts}");
    assert_eq!(lines.len(), 2, "{games}");
    for line in &lines {
        // both bots answer legal moves in time: every game is played out
        for part in [format!("\"kind\":\"{game}\""), "\"fault\":null".to_string()] {
            assert!(line.contains(&part), "{part} not in {line}");
        }
        assert!(
            line.contains("\"reason\":\"end\"") || line.contains("\"reason\":\"limit\""),
            "{line}"
        );
    }
    let summary = fs::read_to_string(out.join("summary.txt")).unwrap();
    assert_eq!(summary, stdout);
    for part in [
        format!("match: {game}, {a} (A) vs {b} (B), 2 of 2 games"),
        format!("score of {a}: "),
        format!("faults: {a} timeout 0, illegal 0, crash 0; {b} timeout 0, illegal 0, crash 0"),
    ] {
        assert!(summary.contains(&part), "{part} not in {summary}");
    }
    for log in ["game-0001-A.log", "game-0002-B.log"] {
        assert!(out.join(log).exists(), "{log}");
    }
}

#[test]
fn every_player_of_every_game_plays_out_a_match() {
    let games = tengen::games::entries();
    assert!(!games.is_empty());
    for g in games {
        assert!(g.players.len() >= 2, "{}: {:?}", g.name, g.players);
        for pair in g.players.windows(2) {
            let dir = std::env::temp_dir().join(format!(
                "tengen-codingame-arena-{}-{}-{}",
                g.name,
                pair[0],
                std::process::id()
            ));
            let _ = fs::remove_dir_all(&dir);
            play(&dir.join("out"), g.name, [pair[0], pair[1]]);
            let _ = fs::remove_dir_all(&dir);
        }
    }
}
