//! The referee's rulings: the clock, stale lines, illegal moves, superko,
//! the ends of a game and the lines it sends.

use super::*;

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
    let sgf = game_sgf(&dir.join("out"), 1);
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
    let sgf = game_sgf(&dir.join("out"), 1);
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
    let sgf = game_sgf(&dir.join("out"), 1);
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
    let sgf = game_sgf(&dir.join("out"), 1);
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
    assert!(game_sgf(&dir.join("out"), 1).contains("RE[Void]"));
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
    let sgf = game_sgf(&dir.join("out"), 1);
    assert!(sgf.contains("refused"), "{sgf}");
    let dir = scratch("riddles-1.0.2-joins");
    let g = games(
        &dir,
        &opts("--size 3 --games 1 --rules riddles-1.0.2", &[&a, &b]),
    );
    assert!(field(&g[0], "black_stats").contains("\"illegal\":0"));
}
