//! `tengen gtp` through the real binary, as GoGui, Sabaki or a twogtp-style
//! driver would use it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};
use tengen::go::{coord, Color, Game, Move};

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .arg("gtp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tengen gtp");
        Engine {
            stdin: child.stdin.take(),
            stdout: BufReader::new(child.stdout.take().unwrap()),
            child,
        }
    }

    /// A fast engine: 30 ms a move when no time settings are sent.
    fn quick() -> Engine {
        Engine::start(&["--seconds", "0.03"])
    }

    /// Sends a command; returns the whole reply (`=...` or `?...`) without
    /// the blank line that ends it.
    fn raw(&mut self, command: &str) -> String {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{command}").unwrap();
        stdin.flush().unwrap();
        let mut reply = String::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).unwrap();
            assert!(n > 0, "end of output after {command:?}");
            if line == "\n" && !reply.is_empty() {
                return reply.trim_end_matches('\n').to_string();
            }
            reply += &line;
        }
    }

    /// A command that must succeed; returns the text after `= `.
    fn ok(&mut self, command: &str) -> String {
        let r = self.raw(command);
        assert!(r.starts_with('='), "{command:?} failed: {r:?}");
        r[1..].trim_start_matches(' ').to_string()
    }

    /// A command that must fail; returns the message after `? `.
    fn fails(&mut self, command: &str) -> String {
        let r = self.raw(command);
        assert!(r.starts_with('?'), "{command:?} should fail: {r:?}");
        r[1..].trim().to_string()
    }

    fn exit_code(mut self) -> Option<i32> {
        drop(self.stdin.take());
        self.child.wait().unwrap().code()
    }
}

#[test]
fn administrative_commands() {
    let mut e = Engine::quick();
    assert_eq!(e.ok("protocol_version"), "2");
    assert_eq!(e.ok("name"), "tengen");
    assert!(!e.ok("version").is_empty());
    assert_eq!(e.ok("known_command genmove"), "true");
    assert_eq!(e.ok("known_command fly"), "false");
    let list = e.ok("list_commands");
    for c in ["play", "genmove", "final_score", "time_left", "quit"] {
        assert!(list.lines().any(|l| l == c), "{c} missing from {list}");
    }
    assert_eq!(e.raw("7 name"), "=7 tengen");
    assert_eq!(e.raw("8 fly"), "?8 unknown command");
    // a comment line gets no reply at all
    assert_eq!(e.raw("# a comment only\nname # and a comment"), "= tengen");
    assert_eq!(e.fails("boardsize 40"), "unacceptable size");
    assert_eq!(e.fails("boardsize nine"), "syntax error");
    assert_eq!(e.fails("komi lots"), "syntax error");
    assert_eq!(e.ok("quit"), "");
    assert_eq!(e.exit_code(), Some(0));
}

#[test]
fn play_undo_showboard_and_score() {
    let mut e = Engine::quick();
    e.ok("boardsize 5");
    e.ok("clear_board");
    e.ok("komi 0");
    e.ok("play b C3");
    assert_eq!(e.fails("play w C3"), "illegal move");
    assert_eq!(e.fails("play purple C3"), "syntax error");
    assert!(e.fails("play w Z9").contains("coordinate"));
    assert_eq!(e.ok("final_score"), "B+25");
    e.ok("play white b2");
    e.ok("play w pass");
    let board = e.ok("showboard");
    assert!(board.contains(" 3 . . X . ."), "{board}");
    assert!(board.contains(" 2 . O . . ."), "{board}");
    e.ok("undo");
    e.ok("undo");
    assert!(e.ok("showboard").contains(" 2 . . . . ."));
    e.ok("undo");
    assert_eq!(e.fails("undo"), "cannot undo");
    assert_eq!(e.ok("final_score"), "0");
    e.ok("komi 7.5");
    assert_eq!(e.ok("final_score"), "W+7.5");
    assert_eq!(e.exit_code(), Some(0));
}

#[test]
fn a_ko_is_not_retaken_at_once() {
    let mut e = Engine::quick();
    e.ok("boardsize 5");
    let mut g = Game::new(5, 5, 7.5);
    // black takes the ko at C4 by capturing at... the classic shape:
    //   . X O . .
    //   X O . O .
    //   . X O . .
    for (c, v) in [
        (Color::Black, "B5"),
        (Color::White, "C5"),
        (Color::Black, "A4"),
        (Color::White, "D4"),
        (Color::Black, "B3"),
        (Color::White, "C3"),
        (Color::Black, "C4"),
        (Color::White, "B4"),
    ] {
        let mv = coord::from_gtp(g.board(), v).unwrap();
        g.set_to_move(c);
        g.play(mv).unwrap();
        e.ok(&format!("play {} {v}", c.letter()));
    }
    // white's B4 took the black stone at C4: black may not retake at once
    assert_eq!(g.board().captures_by(Color::White), 1);
    assert_eq!(e.fails("play b C4"), "illegal move");
    let answer = e.ok("genmove b");
    assert_ne!(answer, "C4");
    let mv = coord::from_gtp(g.board(), &answer).expect("a vertex");
    assert!(g.is_legal(mv), "{answer}");
    assert_eq!(e.exit_code(), Some(0));
}

#[test]
fn time_controls_are_taken() {
    // a default of 30 s a move, which the time settings must replace
    let mut e = Engine::start(&["--seconds", "30"]);
    e.ok("boardsize 9");
    e.ok("time_settings 0 1 20");
    e.ok("time_left b 1 20");
    let asked = Instant::now();
    let v = e.ok("genmove b");
    // 1 s for 20 stones, ~50 ms; seconds of room for a loaded host
    assert!(asked.elapsed() < Duration::from_secs(10), "{v}");
    e.ok("time_settings 60 0 0");
    e.ok("time_left w 0.2 0");
    e.ok("genmove w");
    assert_eq!(e.fails("time_left w soon 0"), "syntax error");
    assert_eq!(e.fails("time_settings 1 2"), "syntax error");
    assert_eq!(e.exit_code(), Some(0));
}

#[test]
fn reg_genmove_does_not_play() {
    let mut e = Engine::quick();
    e.ok("boardsize 7");
    let v = e.ok("reg_genmove b");
    assert!(!v.is_empty());
    assert!(e.ok("showboard").lines().all(|l| !l.contains('X')));
    assert_eq!(e.exit_code(), Some(0));
}

/// Two engines play each other, each move checked and forwarded, as twogtp
/// does; both must then count the same result.
#[test]
fn two_engines_play_a_game() {
    let mut engines = [Engine::quick(), Engine::quick()];
    for e in &mut engines {
        e.ok("boardsize 7");
        e.ok("clear_board");
        e.ok("komi 7.5");
    }
    let mut g = Game::new(7, 7, 7.5);
    for ply in 0..60 {
        let c = g.to_move();
        let (mover, other) = if ply % 2 == 0 { (0, 1) } else { (1, 0) };
        let v = engines[mover].ok(&format!("genmove {}", c.letter()));
        let mv = coord::from_gtp(g.board(), &v).unwrap_or_else(|| panic!("vertex {v:?}"));
        assert_ne!(v.to_lowercase(), "resign");
        assert!(g.is_legal(mv), "illegal {v} by {c}");
        g.play(mv).unwrap();
        engines[other].ok(&format!("play {} {v}", c.letter()));
        if g.is_over() {
            break;
        }
    }
    let expected = {
        let m = g.board().area_score(7.5).margin();
        if m == 0.0 {
            "0".to_string()
        } else {
            tengen::go::score::result_string(m)
        }
    };
    for mut e in engines {
        assert_eq!(e.ok("final_score"), expected);
        assert_eq!(e.ok("quit"), "");
        assert_eq!(e.exit_code(), Some(0));
    }
    assert!(g.moves().iter().any(|(_, m)| *m != Move::Pass));
}

#[test]
fn end_of_input_exits_cleanly() {
    let e = Engine::quick();
    assert_eq!(e.exit_code(), Some(0));
    assert_eq!(
        Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(["gtp", "--seconds", "-1"])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .code(),
        Some(2)
    );
}

#[test]
fn the_policy_network_shows_its_likeliest_moves() {
    let mut e = Engine::quick();
    for mv in ["b D4", "w Q16", "b Q4", "w D16"] {
        e.ok(&format!("play {mv}"));
    }
    let parse = |reply: &str| -> Vec<(String, f32)> {
        reply
            .lines()
            .map(|l| {
                let (v, p) = l.split_once(' ').expect("VERTEX PERCENT");
                (v.to_string(), p.parse().expect("a percentage"))
            })
            .collect()
    };
    let black = parse(&e.ok("tengen-policy"));
    assert_eq!(black.len(), 10);
    assert!(black.windows(2).all(|w| w[0].1 >= w[1].1), "{black:?}");
    assert!(black
        .iter()
        .all(|(v, p)| !["D4", "Q16", "Q4", "D16"].contains(&v.as_str()) && *p > 0.0));
    assert!(black.iter().map(|m| m.1).sum::<f32>() <= 100.1);
    assert_eq!(parse(&e.ok("tengen-policy black 3")), black[..3]);
    assert_eq!(parse(&e.ok("tengen-policy w 1")).len(), 1);
    assert_eq!(e.fails("tengen-policy b many"), "syntax error");
    assert_eq!(e.fails("tengen-policy 3 4"), "syntax error");
    assert_eq!(e.ok("known_command tengen-policy"), "true");
}
