//! `tengen arena` end to end: matches between scripted bots (python3
//! scripts in tests/bots/) with short banks, checking the referee's rulings,
//! its clock, its outputs and the GTP adapter.

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

/// Runs a match that must succeed; returns its JSON lines.
fn games(dir: &Path, args: &[&str]) -> Vec<String> {
    let out = arena(dir, args);
    assert!(
        out.status.success(),
        "arena failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    let text = fs::read_to_string(dir.join("out/games.jsonl")).unwrap();
    text.lines().map(str::to_string).collect()
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

fn read(path: impl AsRef<Path>) -> String {
    fs::read_to_string(path.as_ref())
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.as_ref().display()))
}

#[test]
fn two_timeouts_lose() {
    let _serial = serial();
    let dir = scratch("timeouts");
    let a = bot("--sleep 1:3000");
    let b = bot("--walk");
    let g = games(
        &dir,
        &opts("--size 5 --games 1 --bank 300 --per-move 100", &[&a, &b]),
    );
    assert_eq!(field(&g[0], "reason"), "timeout");
    assert_eq!(field(&g[0], "result"), "W+Time");
    assert_eq!(field(&g[0], "winner_player"), "B");
    let black = field(&g[0], "black_stats");
    assert!(black.contains("\"timeouts\":2"), "{black}");
    assert_eq!(field(&g[0], "moves"), "0");
}

#[test]
fn one_timeout_is_forgiven_and_the_late_answer_taken() {
    let _serial = serial();
    let dir = scratch("one-timeout");
    // Black's second request (move 3): 2000 ms, missed; asked again with
    // min(0 + 4000, 2000); the late answer comes within it. (Not the first
    // request: python's start-up would count against the bank.)
    let a = bot("--walk --sleep 2:3000");
    let b = bot("--walk");
    let o = "--size 5 --games 1 --max-rounds 4 --bank 2000 --per-move 4000";
    let g = games(&dir, &opts(o, &[&a, &b]));
    assert_eq!(field(&g[0], "reason"), "round_limit");
    assert!(field(&g[0], "black_stats").contains("\"timeouts\":1"));
    let sgf = read(dir.join("out/game-0001.sgf"));
    assert!(
        sgf.contains(";B[ca]C[") && sgf.contains("no answer within 2000 ms, asked again"),
        "{sgf}"
    );
}

/// Black's bot writes each answer twice; the second copy must be dropped
/// as stale, not taken as the answer to the next request.
fn assert_stale_copy_dropped(name: &str, black: &str) {
    let _serial = serial();
    let dir = scratch(name);
    let a = bot(black);
    let b = bot("--walk");
    let args = ["--size", "5", "--games", "1", "--max-rounds", "3", &a, &b];
    let g = games(&dir, &args);
    assert_eq!(field(&g[0], "reason"), "round_limit");
    let sgf = read(dir.join("out/game-0001.sgf"));
    assert!(
        sgf.contains(";B[ca]C[") && sgf.contains("dropped stale output \"place_move 0 0\""),
        "{sgf}"
    );
}

#[test]
fn stale_lines_are_dropped() {
    assert_stale_copy_dropped("stale", "--walk --double");
}

/// The stale line begins before the next request (in the write of the
/// answer before it) and ends after it (its end of line comes with the next
/// answer), as when unbuffered Python's `print` writes its text and its end
/// apart and is descheduled in between: still stale, judged by its first
/// byte.
#[test]
fn stale_line_ended_after_the_request_is_dropped() {
    assert_stale_copy_dropped("stale-split", "--walk --double --split");
}

#[test]
fn illegal_move_loses_or_counts_as_a_pass() {
    let _serial = serial();
    let dir = scratch("illegal");
    let a = bot("--answers 'place_move 0 0'");
    let b = bot("--answers 'place_move 0 0'");
    let g = games(&dir, &opts("--size 5 --games 1", &[&a, &b]));
    assert_eq!(field(&g[0], "reason"), "illegal");
    assert_eq!(field(&g[0], "result"), "B+Forfeit");
    assert!(field(&g[0], "detail").contains("occupied"));
    assert!(field(&g[0], "white_stats").contains("\"illegal\":1"));

    let dir = scratch("illegal-pass");
    let b = bot("--answers 'hello'");
    let g = games(&dir, &opts("--size 5 --games 1 --illegal pass", &[&a, &b]));
    // white's answer became a pass, black passed: two passes, black owns all
    assert_eq!(field(&g[0], "reason"), "two_passes");
    assert_eq!(field(&g[0], "result"), "B+17.5");
    assert_eq!(field(&g[0], "margin"), "17.5");
    assert!(field(&g[0], "white_stats").contains("\"illegal\":1"));
    let sgf = read(dir.join("out/game-0001.sgf"));
    assert!(
        sgf.contains(";W[]C[") && sgf.contains("unreadable answer"),
        "{sgf}"
    );
}

/// Two kos on 7x7; the last black move recreates the position after
/// white's 7th move (not an immediate retake: only superko forbids it).
const SUPERKO_BLACK: &str = "place_move 2 1;place_move 1 2;place_move 2 3;place_move 2 4;\
    place_move 1 5;place_move 2 6;place_move 3 2;place_move 3 5;pass;place_move 3 2";
const SUPERKO_WHITE: &str = "place_move 3 1;place_move 4 2;place_move 3 3;place_move 3 4;\
    place_move 4 5;place_move 3 6;place_move 2 5;place_move 2 2;place_move 2 5";

#[test]
fn superko_violation_is_caught() {
    let _serial = serial();
    let dir = scratch("superko");
    let a = bot(&format!("--answers '{SUPERKO_BLACK}'"));
    let b = bot(&format!("--answers '{SUPERKO_WHITE}'"));
    let g = games(&dir, &opts("--size 7 --games 1", &[&a, &b]));
    assert_eq!(field(&g[0], "reason"), "illegal");
    assert_eq!(field(&g[0], "result"), "W+Forfeit");
    assert!(field(&g[0], "detail").contains("positional superko"));
    assert_eq!(field(&g[0], "moves"), "18");
}

#[test]
fn two_passes_end_the_game_and_the_count_is_right() {
    let _serial = serial();
    let dir = scratch("passes");
    let log = dir.join("black.log");
    let a = bot(&format!(
        "--log '{}' --answers 'place_move 2 0;place_move 2 1;place_move 2 2;place_move 2 3;place_move 2 4'",
        log.display()
    ));
    let b = bot("--answers 'place_move 4 4'");
    let g = games(&dir, &opts("--size 5 --games 1", &[&a, &b]));
    // black: a wall of 5 and the 10 points left of it; the right side
    // touches white's stone too. White: 1 + komi.
    assert_eq!(field(&g[0], "reason"), "two_passes");
    assert_eq!(field(&g[0], "result"), "B+6.5");
    assert_eq!(field(&g[0], "area"), r#"{"black":15,"white":1,"komi":7.5}"#);
    assert_eq!(field(&g[0], "moves"), "11");
    // the points black was shown before its last move
    let seen = read(&log);
    assert!(
        seen.contains("update player1 points 15.0\nupdate player2 points 8.5\naction move"),
        "{seen}"
    );
    let sgf = read(dir.join("out/game-0001.sgf"));
    assert!(sgf.contains("RE[B+6.5]") && sgf.contains("KM[7.5]") && sgf.contains("SZ[5]"));
}

#[test]
fn round_limit_ends_the_game() {
    let _serial = serial();
    let dir = scratch("rounds");
    let log = dir.join("white.log");
    let a = bot("--walk");
    let b = bot(&format!("--walk --log '{}'", log.display()));
    let g = games(&dir, &opts("--size 5 --games 1 --max-rounds 4", &[&a, &b]));
    assert_eq!(field(&g[0], "reason"), "round_limit");
    assert_eq!(field(&g[0], "moves"), "6");
    let seen = read(&log);
    assert!(seen.contains("settings max_rounds 4") && seen.contains("update game round 3"));
    assert!(!seen.contains("update game round 4"), "{seen}");
}

/// `--stop-after` cuts the game while the players are still told the full
/// round limit, and a cut game is left out of the score.
#[test]
fn stop_after_cuts_the_game_without_a_result() {
    let _serial = serial();
    let dir = scratch("stop-after");
    let log = dir.join("white.log");
    let a = bot("--walk");
    let b = bot(&format!("--walk --log '{}'", log.display()));
    let args = opts(
        "--size 5 --games 2 --max-rounds 9 --stop-after 4",
        &[&a, &b],
    );
    let g = games(&dir, &args);
    for line in &g {
        assert_eq!(field(line, "reason"), "stopped");
        assert_eq!(field(line, "moves"), "6");
        assert_eq!(field(line, "winner"), "null");
        assert_eq!(field(line, "result"), "Void");
    }
    let seen = read(&log);
    assert!(seen.contains("settings max_rounds 9") && seen.contains("update game round 3"));
    assert!(!seen.contains("update game round 4"), "{seen}");
    assert!(read(dir.join("out/game-0001.sgf")).contains("RE[Void]"));
    let summary = read(dir.join("out/summary.txt"));
    assert!(
        summary.contains("cut by --stop-after: 2 games")
            && summary.contains("no game with a result"),
        "{summary}"
    );
}

#[test]
fn lines_are_sent_as_the_referee_sends_them() {
    let _serial = serial();
    let dir = scratch("lines");
    let log = dir.join("black.log");
    let a = bot(&format!(
        "--log '{}' --answers 'place_move 1 0'",
        log.display()
    ));
    let b = bot("--answers 'pass'");
    games(
        &dir,
        &opts("--size 3 --games 1 --bank 5000 --per-move 500", &[&a, &b]),
    );
    let seen = read(&log);
    let expected = "settings timebank 5000\nsettings time_per_move 500\n\
        settings player_names player1,player2\nsettings your_bot player1\nsettings your_botid 1\n\
        settings field_width 3\nsettings field_height 3\nsettings max_rounds 250\n\
        update game round 1\nupdate game move 1\nupdate game field 0,0,0,0,0,0,0,0,0\n\
        update player1 points 0.0\nupdate player2 points 7.5\naction move 5000\n\
        update game round 2\nupdate game move 3\nupdate game field 0,1,0,0,0,0,0,0,0\n\
        update player1 points 9.0\nupdate player2 points 7.5\naction move ";
    assert!(seen.starts_with(expected), "{seen}");

    // Riddles.io 1.0.3: ids 0 and 1, `.` for empty, `-1` on the empty
    // point with no empty neighbour (the corner), no move number, the
    // referee's points (white's with komi).
    let dir = scratch("lines-riddles");
    let log = dir.join("white.log");
    let a = bot("--answers 'place_move 1 0;place_move 0 1'");
    let b = bot(&format!(
        "--log '{}' --answers 'place_move 2 2'",
        log.display()
    ));
    games(
        &dir,
        &opts("--size 3 --games 1 --rules riddles-1.0.3", &[&a, &b]),
    );
    let seen = read(&log);
    assert!(seen.contains(
        "settings player_names player0,player1\nsettings your_bot player1\nsettings your_botid 1\n"
    ));
    assert!(
        seen.contains(
            "update game field -1,0,.,0,.,.,.,.,1\n\
             update player0 points 3.0\nupdate player1 points 8.5\n"
        ),
        "{seen}"
    );
    assert!(!seen.contains("update game move"));
    // the riddles dialect under the standard rules marks nothing
    let dir = scratch("lines-riddles-standard");
    games(
        &dir,
        &opts(
            "--size 3 --games 1 --dialect riddles --rules standard",
            &[&a, &b],
        ),
    );
    let seen = read(&log);
    assert!(
        seen.contains("update game field .,0,.,0,.,.,.,.,1\n"),
        "{seen}"
    );
}

#[test]
fn riddles_quirks() {
    let _serial = serial();
    // Passing on two of one's own turns in a row ends the game.
    let dir = scratch("riddles-passes");
    let a = bot("--answers 'pass;pass'");
    let b = bot("--answers 'place_move 0 0;place_move 1 1'");
    let g = games(&dir, &opts("--size 5 --games 1 --rules riddles", &[&a, &b]));
    assert_eq!(field(&g[0], "reason"), "own_passes");
    assert_eq!(field(&g[0], "moves"), "3");
    assert_eq!(field(&g[0], "rules"), "riddles-1.0.3");

    // An immediate ko retake ends the game, counted with it.
    let dir = scratch("riddles-ko");
    let black = SUPERKO_BLACK.rsplit_once(";pass").unwrap().0;
    let white = "place_move 3 1;place_move 4 2;place_move 3 3;place_move 3 4;\
        place_move 4 5;place_move 3 6;place_move 2 5;place_move 2 5";
    let a = bot(&format!("--answers '{black}'"));
    let b = bot(&format!("--answers '{white}'"));
    let g = games(&dir, &opts("--size 7 --games 1 --rules riddles", &[&a, &b]));
    assert_eq!(field(&g[0], "reason"), "ko_retake");
    // the retake is played: the referee accepts it, then ends the game
    assert_eq!(field(&g[0], "moves"), "16");
    assert!(field(&g[0], "margin").parse::<f32>().is_ok());
    // the same retake under the standard rules is an illegal move
    let dir = scratch("standard-ko");
    let g = games(&dir, &opts("--size 7 --games 1", &[&a, &b]));
    assert_eq!(field(&g[0], "reason"), "illegal");

    // 1.0.3 refuses a stone with no empty neighbour (black's corner): the
    // turn is lost, not the game; 1.0.2 lets it join its string.
    let a = bot("--answers 'place_move 1 0;place_move 0 1;place_move 0 0;pass;pass'");
    let b = bot("--answers 'place_move 2 2;place_move 2 1;pass;pass;pass'");
    let dir = scratch("riddles-refused");
    let g = games(&dir, &opts("--size 3 --games 1 --rules riddles", &[&a, &b]));
    assert_eq!(field(&g[0], "reason"), "own_passes");
    assert!(field(&g[0], "black_stats").contains("\"illegal\":1"));
    let sgf = read(dir.join("out/game-0001.sgf"));
    assert!(sgf.contains("refused"), "{sgf}");
    let dir = scratch("riddles-1.0.2-joins");
    let g = games(
        &dir,
        &opts("--size 3 --games 1 --rules riddles-1.0.2", &[&a, &b]),
    );
    assert!(field(&g[0], "black_stats").contains("\"illegal\":0"));
}

#[test]
fn gtp_adapter_plays_against_an_arena_bot() {
    let _serial = serial();
    let dir = scratch("gtp");
    let log = dir.join("gtp.log");
    let a = bot("--answers 'place_move 0 0;place_move 1 0'");
    // The engine is slower than the bank, but GTP players have no clock.
    let b = gtp(&format!(
        "--moves 'E5;E4' --sleep 400 --log '{}'",
        log.display()
    ));
    let g = games(
        &dir,
        &opts("--size 5 --games 1 --bank 300 --per-move 100", &[&a, &b]),
    );
    assert_eq!(field(&g[0], "reason"), "two_passes");
    assert_eq!(field(&g[0], "result"), "W+7.5");
    assert_eq!(field(&g[0], "white_player"), "B");
    let white = field(&g[0], "white_stats");
    assert!(
        white.contains("\"timeouts\":0") && white.contains("\"bank_left_ms\":null"),
        "{white}"
    );
    let sgf = read(dir.join("out/game-0001.sgf"));
    assert!(sgf.contains(";W[ea]") && sgf.contains(";W[eb]"), "{sgf}");
    let seen = read(&log);
    let expected =
        "boardsize 5\nclear_board\nkomi 7.5\nplay B A5\ngenmove w\nplay B B5\ngenmove w\n\
        play B pass\ngenmove w\nquit\n";
    assert_eq!(seen, expected);

    // A clocked engine is held to the bank: its first move is late but
    // comes within the second request; its second is late twice.
    let dir = scratch("gtp-clock");
    let b = gtp("--moves 'E5' --sleep 1300");
    let o = "--size 5 --games 1 --bank 1000 --per-move 2000 --clock-b on";
    let g = games(&dir, &opts(o, &[&a, &b]));
    assert!(field(&g[0], "white_stats").contains("\"timeouts\":2"));
    assert_eq!(field(&g[0], "reason"), "timeout");
    assert_eq!(field(&g[0], "moves"), "3");
    let sgf = read(dir.join("out/game-0001.sgf"));
    assert!(
        sgf.contains(";W[ea]C[") && sgf.contains("asked again"),
        "{sgf}"
    );

    // A resigning engine loses.
    let dir = scratch("gtp-resign");
    let b = gtp("--moves 'resign'");
    let g = games(&dir, &opts("--size 5 --games 1", &[&a, &b]));
    assert_eq!(field(&g[0], "result"), "B+Resign");
    assert_eq!(field(&g[0], "reason"), "resign");
}

#[test]
fn a_match_alternates_colours_and_sums_up() {
    let _serial = serial();
    let dir = scratch("match");
    let a = bot("--walk");
    let b = bot("--walk");
    let out = arena(
        &dir,
        &opts(
            "--size 5 --max-rounds 3 --games 4 --jobs 2 --seed 7",
            &[&a, &b],
        ),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut g: Vec<String> = read(dir.join("out/games.jsonl"))
        .lines()
        .map(str::to_string)
        .collect();
    g.sort_by_key(|l| field(l, "game").parse::<u32>().unwrap());
    assert_eq!(g.len(), 4);
    for (i, line) in g.iter().enumerate() {
        assert_eq!(field(line, "black_player"), ["A", "B"][i % 2]);
        assert_eq!(field(line, "seed"), (7 + i).to_string());
        assert!(dir.join(format!("out/game-{:04}.sgf", i + 1)).exists());
    }
    // walk bots fill the top row: on 5x5 after 2 moves each, white wins by komi
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("4 of 4 games"), "{stdout}");
    assert!(
        stdout.contains("script.py-A (A): 2 wins")
            && stdout.contains("Elo script.py-A - script.py-B")
    );
    assert!(
        stdout.contains("average game length: 4.0 moves"),
        "{stdout}"
    );
    assert_eq!(read(dir.join("out/summary.txt")), stdout);
    // a second match into the same folder is refused: results are never lost
    let again = arena(&dir, &[&a, &b]);
    assert_eq!(again.status.code(), Some(2));
}

/// `--from`: games begin with the first moves of an earlier match's games,
/// each start played twice with the colours swapped; the bots are asked
/// from the move after them on, and the records say where they came from.
#[test]
fn games_begin_from_recorded_positions() {
    let _serial = serial();
    let dir = scratch("from");
    let walk = bot("--walk");
    games(
        &dir,
        &opts("--size 5 --max-rounds 9 --games 1", &[&walk, &walk]),
    );
    let source = dir.join("out/game-0001.sgf");
    let recorded = tengen::go::sgf::read_sgf(&read(&source)).unwrap().moves;
    assert!(recorded.len() > 4, "{recorded:?}");

    let second = dir.join("second");
    let log = dir.join("a.log");
    let a = bot(&format!("--walk --log '{}'", log.display()));
    let from = dir.join("out");
    let out = Command::new(TENGEN)
        .args(["arena", "--size", "5", "--max-rounds", "9", "--games", "2"])
        .args(["--from", from.to_str().unwrap(), "--from-move", "4"])
        .args(["--out", second.to_str().unwrap(), &a, &walk])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = read(second.join("games.jsonl"));
    let mut g: Vec<&str> = lines.lines().collect();
    g.sort_by_key(|l| field(l, "game").parse::<u32>().unwrap());
    assert_eq!(g.len(), 2);
    for (i, line) in g.iter().enumerate() {
        assert_eq!(field(line, "start"), source.display().to_string());
        assert_eq!(field(line, "black_player"), ["A", "B"][i]);
        let sgf = read(second.join(format!("game-{:04}.sgf", i + 1)));
        let moves = tengen::go::sgf::read_sgf(&sgf).unwrap().moves;
        assert_eq!(moves[..4], recorded[..4], "game {}", i + 1);
        assert!(moves.len() > 4, "nothing played after the start: {sgf}");
        let note = format!("C[0 ms; moves 1-4 replayed from {}]", source.display());
        assert!(sgf.contains(&note), "{sgf}");
    }
    // A's first request is the fifth move (as black: round 3, four stones
    // on the field), never an earlier one
    let seen = read(&log);
    assert!(!seen.contains("update game move 1\n"));
    let first = seen.find("update game move ").map(|i| &seen[i..i + 19]);
    assert_eq!(first, Some("update game move 5\n"), "{seen}");
    assert!(seen.contains("update game round 3"), "{seen}");

    // a start past every game, or half the option, fails clearly
    for (args, code, needle) in [
        (
            vec!["--from-move", "400", "--max-rounds", "250"],
            1,
            "goes on past move 400",
        ),
        (
            vec!["--from-move", "4", "--max-rounds", "2"],
            2,
            "past the round limit",
        ),
        (vec![], 2, "--from and --from-move go together"),
    ] {
        let out = Command::new(TENGEN)
            .args(["arena", "--size", "5", "--from", from.to_str().unwrap()])
            .args(args.iter().copied())
            .args(["--out", dir.join("bad").to_str().unwrap(), &a, &walk])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }

    // under --rules riddles a start is checked as the referee will replay
    // it: black's fifth move sets a stone with no empty neighbour at the
    // corner, which 1.0.3 refuses
    let eye_fill = dir.join("eye-fill");
    std::fs::create_dir_all(&eye_fill).unwrap();
    std::fs::write(
        eye_fill.join("game-0001.sgf"),
        "(;GM[1]SZ[5];B[ba];W[ee];B[ab];W[ed];B[aa];W[dd];B[cc])",
    )
    .unwrap();
    let refused = dir.join("refused");
    let out = Command::new(TENGEN)
        .args(["arena", "--size", "5", "--rules", "riddles"])
        .args(["--from", eye_fill.to_str().unwrap(), "--from-move", "5"])
        .args(["--out", refused.to_str().unwrap(), &a, &walk])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("game-0001.sgf: move 5: suicide"), "{err}");
    assert!(
        !refused.exists(),
        "a match began from a start it cannot replay"
    );
}

#[test]
fn no_legal_move_ends_the_game() {
    let _serial = serial();
    let dir = scratch("one-point");
    let g = games(&dir, &["--size", "1", "--games", "1", &bot(""), &bot("")]);
    assert_eq!(field(&g[0], "reason"), "no_legal_move");
    assert_eq!(field(&g[0], "result"), "W+7.5");
}

#[test]
fn bad_arguments_fail_clearly() {
    let _serial = serial();
    let dir = scratch("bad-args");
    for (args, needle) in [
        (&["--size", "0", "a", "b"][..], "--size"),
        (&["only-one"], "two players"),
        (&["a", "b", "--bogus"], "unknown option"),
        (&["a", "b", "--illegal", "maybe"], "--illegal"),
        (&["a", "b", "--stop-after", "1"], "--stop-after"),
        (&["a", "b", "--stop-after", "x"], "--stop-after"),
    ] {
        let out = arena(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let out = arena(&dir, &["/nonexistent/bot", &bot("")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start"));

    let help = Command::new(TENGEN)
        .args(["arena", "--help"])
        .output()
        .unwrap();
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    for opt in [
        "--games",
        "--jobs",
        "--seed",
        "--out",
        "--name-a",
        "--clock-b",
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
    ] {
        assert!(text.contains(opt), "help lacks {opt}");
    }
}

#[test]
fn ctrl_c_prints_the_summary_so_far() {
    let _serial = serial();
    let dir = scratch("ctrl-c");
    let out = dir.join("out");
    // Game 1 is quick; in game 2, B is black and sleeps for a minute.
    let child = Command::new(TENGEN)
        .args([
            "arena",
            "--size",
            "5",
            "--games",
            "3",
            "--jobs",
            "1",
            "--max-rounds",
            "2",
        ])
        .args(["--out", out.to_str().unwrap()])
        .arg(bot("--walk"))
        .arg(bot("--walk --sleep-black 1:60000"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let jsonl = out.join("games.jsonl");
    let start = Instant::now();
    while fs::read_to_string(&jsonl).map_or(true, |t| t.is_empty()) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "game 1 never finished"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("1 of 3 games"), "{stdout}");
    assert!(start.elapsed() < Duration::from_secs(20));
    assert_eq!(read(&jsonl).lines().count(), 1);
}

/// Two tengen bots on 9x9 on a real clock: no timeout, no illegal move. The
/// bank is large enough that the reserve it keeps (a tenth of it) outlasts
/// the stalls of a loaded CI host: with a 1 s bank, one answer came after a
/// 470 ms stall and missed.
#[test]
fn tengen_plays_tengen() {
    let _serial = serial();
    let dir = scratch("tengen");
    let g = games(
        &dir,
        &opts(
            "--size 9 --games 1 --bank 5000 --per-move 100 --max-rounds 60",
            &[TENGEN, TENGEN],
        ),
    );
    let reason = field(&g[0], "reason");
    assert!(
        ["two_passes", "round_limit", "no_legal_move"].contains(&reason.as_str()),
        "{}",
        g[0]
    );
    assert!(field(&g[0], "margin").parse::<f32>().is_ok());
    for side in ["black_stats", "white_stats"] {
        let s = field(&g[0], side);
        assert!(
            s.contains("\"timeouts\":0") && s.contains("\"illegal\":0"),
            "{s}"
        );
    }
    let moves: usize = field(&g[0], "moves").parse().unwrap();
    let sgf = read(dir.join("out/game-0001.sgf"));
    assert!(sgf.starts_with("(;GM[1]FF[4]") && sgf.trim_end().ends_with(')'));
    assert!(sgf.contains("PB[tengen-A]") && sgf.contains("PW[tengen-B]") && sgf.contains("SZ[9]"));
    assert_eq!(
        sgf.matches(";B[").count() + sgf.matches(";W[").count(),
        moves
    );
}
