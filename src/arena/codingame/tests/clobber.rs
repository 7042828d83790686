//! Clobber's games through the referee, against scripted bots.

use super::{Scratch, SLOW};
use crate::arena::codingame::referee::Reason;
use crate::arena::codingame::Kind;
use crate::games::clobber::referee::ClobberGame;
use crate::games::clobber::{Clobber, SIZE};
use crate::go::Color;

fn seat(c: Color) -> usize {
    usize::from(c == Color::Black)
}

/// The start's rows: a1 (bottom left) black.
fn start_rows() -> Vec<String> {
    (0..8)
        .map(|y| ["wbwbwbwb", "bwbwbwbw"][y % 2].to_string())
        .collect()
}

/// An 8x8 board empty but for `top`, its first row.
fn lone_row(top: &str) -> Vec<&str> {
    let mut rows = vec!["........"; 8];
    rows[0] = top;
    rows
}

/// The 10 lines of a turn: the rows, the last action, the count.
fn turn(rows: &[String], last: &str, count: u32) -> Vec<String> {
    let mut lines = rows.to_vec();
    lines.extend([last.to_string(), count.to_string()]);
    lines
}

#[test]
fn the_lines_sent_follow_the_protocol() {
    let dir = Scratch::for_game("clobber-protocol", Kind::Clobber);
    // white's first answer has a comment; then both answer random
    let a = dir.bot('A', &["a2a1 first blood"]);
    let b = dir.bot('B', &["c1b1"]);
    let r = dir.play([a, b], 0, SLOW);
    assert_eq!((r.reason, r.fault), (Reason::End, None));
    assert_eq!(r.moves[..2], ["a2a1", "c1b1"]);
    // every move recorded was legal, and the game ended as recorded
    let mut replay = Clobber::new(SIZE);
    for m in &r.moves {
        replay.play(replay.parse_move(m).unwrap()).unwrap();
    }
    assert!(replay.is_over());
    assert_eq!(r.winner, Some(seat(replay.to_move().opp())));
    assert_eq!(r.turns as usize, r.moves.len());
    // the loser was not asked on the turn it had no move
    let answers = [r.times[0].answers(), r.times[1].answers()];
    assert_eq!(answers[0] + answers[1], r.moves.len());
    assert_eq!(answers[0], r.moves.len().div_ceil(2));

    let white = dir.lines('A');
    assert_eq!(white.len(), 2 + 10 * answers[0]);
    let mut want = vec!["8".to_string(), "w".to_string()];
    want.extend(turn(&start_rows(), "null", 112));
    let mut rows = start_rows();
    rows[6] = ".bwbwbwb".into();
    rows[7] = "wb.wbwbw".into();
    let count = Clobber::from_rows(&rows, Color::White)
        .unwrap()
        .mobility(Color::White);
    want.extend(turn(&rows, "c1b1", count));
    assert_eq!(white[..want.len()], want[..]);

    let black = dir.lines('B');
    assert_eq!(black.len(), 2 + 10 * answers[1]);
    rows[7] = "wwbwbwbw".into();
    let mut want = vec!["8".to_string(), "b".to_string()];
    want.extend(turn(&rows, "a2a1", 108));
    assert_eq!(black[..want.len()], want[..]);
    // black's second turn: white's third move, as the record has it
    assert_eq!(black[2 + 10 + 8], r.moves[2]);
}

#[test]
fn an_illegal_move_loses() {
    for (answer, why) in [
        ("b1c1", "b1 holds no stone of the mover"),
        ("b2a1", "b2a1: the squares are not neighbours"),
        ("a3a2", "a2 holds no enemy stone"),
        ("resign", "unreadable"),
    ] {
        let dir = Scratch::for_game("clobber-illegal", Kind::Clobber);
        let a = dir.bot('A', &["a2a1"]);
        let r = dir.play([a, dir.bot('B', &[answer])], 0, SLOW);
        assert_eq!(
            (r.reason, r.fault, r.winner),
            (Reason::Illegal, Some(1), Some(0)),
            "{answer}"
        );
        assert!(
            r.detail.starts_with("black (b) at turn 2: "),
            "{}",
            r.detail
        );
        assert!(r.detail.contains(why), "{answer}: {}", r.detail);
        assert_eq!((r.turns, r.moves.clone()), (1, vec!["a2a1".to_string()]));
    }
}

#[test]
fn the_referee_ends_the_game_of_a_player_without_a_move() {
    let dir = Scratch::for_game("clobber-nomove", Kind::Clobber);
    let game = ClobberGame::from_rows(&lone_row("wb......"), Color::White, 1);
    let r = dir.play_game(
        Box::new(game),
        [dir.bot('A', &[]), dir.bot('B', &[])],
        0,
        SLOW,
    );
    assert_eq!((r.reason, r.winner, r.turns), (Reason::End, Some(0), 1));
    assert_eq!(r.detail, "white (a) won");
    assert_eq!(r.moves, ["a8b8"]);
    // black, without a move from its first turn, was never started
    assert_eq!(r.times[1].answers(), 0);
    assert!(dir.lines('B').is_empty());
}

#[test]
fn the_referee_draws_at_the_turn_limit() {
    let dir = Scratch::for_game("clobber-limit", Kind::Clobber);
    let game = ClobberGame::new(2).with_limit(5);
    let r = dir.play_game(
        Box::new(game),
        [dir.bot('A', &[]), dir.bot('B', &[])],
        0,
        SLOW,
    );
    assert_eq!((r.reason, r.winner, r.fault), (Reason::Limit, None, None));
    assert_eq!(r.turns, 5);
    assert_eq!(r.detail, "draw at the turn limit (5 turns)");
}
