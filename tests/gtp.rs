//! `tengen gtp` through the real binary, as GoGui, Sabaki or a twogtp-style
//! driver would use it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};
use tengen::go::{coord, Board, Cell, Color, Game, Move};

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
/// does; both must then call the same stones dead and count the board
/// without them to the same result.
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
    let dead = engines[0].ok("final_status_list dead");
    assert_eq!(engines[1].ok("final_status_list dead"), dead);
    let b = g.board();
    let mut cells = b.cells();
    for v in dead.split_whitespace() {
        let Some(Move::Play(p)) = coord::from_gtp(b, v) else {
            panic!("dead {v:?}")
        };
        assert_ne!(b.at(p), Cell::Empty, "{v} is empty");
        let (x, y) = b.xy(p);
        cells[y * b.width() + x] = Cell::Empty;
    }
    let margin = Board::from_cells(7, 7, &cells)
        .unwrap()
        .area_score(7.5)
        .margin();
    let expected = if margin == 0.0 {
        "0".to_string()
    } else {
        tengen::go::score::result_string(margin)
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

/// `--model` puts another network in play: the policy shown is that
/// file's, not the built-in network's; a file it cannot read ends it.
#[test]
fn a_network_file_replaces_the_built_in_policy() {
    let tiny = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/katago/tiny-v8.bin");
    let policy = |args: &[&str]| {
        let mut e = Engine::start(&[&["--seconds", "0.03"], args].concat());
        e.ok("play b D4");
        e.ok("tengen-policy 5")
    };
    let default = policy(&[]);
    assert_eq!(policy(&[]), default);
    assert_ne!(policy(&["--model", tiny]), default);
    assert_eq!(
        Engine::start(&["--model", "/nonexistent.bin"]).exit_code(),
        Some(1)
    );
}

/// Reads one line of output (without its end of line).
fn line(e: &mut Engine) -> String {
    let mut l = String::new();
    assert!(e.stdout.read_line(&mut l).unwrap() > 0, "end of output");
    l.trim_end_matches('\n').to_string()
}

fn send(e: &mut Engine, command: &str) {
    let stdin = e.stdin.as_mut().unwrap();
    writeln!(stdin, "{command}").unwrap();
    stdin.flush().unwrap();
}

/// Checks an `info` line as Leela Zero writes it: every root move with its
/// visits, win rate, prior and lower bound in ten-thousandths, its rank
/// and its line, most visited first; returns the moves.
fn check_info(text: &str, game: &Game) -> Vec<String> {
    assert!(text.starts_with("info move "), "{text:?}");
    let mut moves = Vec::new();
    let mut last_visits = u32::MAX;
    for (order, item) in text.split("info ").skip(1).enumerate() {
        let w: Vec<&str> = item.split_whitespace().collect();
        let keys = ["move", "visits", "winrate", "prior", "lcb", "order", "pv"];
        for (k, key) in keys.iter().enumerate() {
            assert_eq!(w.get(2 * k), Some(key), "{item:?}");
        }
        let visits: u32 = w[3].parse().unwrap();
        assert!(visits > 0 && visits <= last_visits, "{item:?}");
        last_visits = visits;
        for k in [5, 7, 9] {
            assert!(w[k].parse::<u32>().unwrap() <= 10_000, "{item:?}");
        }
        assert_eq!(w[11], order.to_string());
        assert_eq!(w[13], w[1], "the line starts with the move: {item:?}");
        let mv = coord::from_gtp(game.board(), w[1]).expect("a vertex");
        assert!(game.is_legal(mv), "{item:?}");
        moves.push(w[1].to_string());
    }
    moves
}

/// An engine on a `size` board where black has played `vertex`, and the
/// same game here, to check what the engine reports against.
fn one_black_move(size: usize, vertex: &str) -> (Engine, Game) {
    let mut e = Engine::quick();
    e.ok(&format!("boardsize {size}"));
    e.ok("clear_board");
    e.ok(&format!("play b {vertex}"));
    let mut g = Game::new(size, size, 7.5);
    let mv = coord::from_gtp(g.board(), vertex).expect("a vertex");
    g.play(mv).unwrap();
    (e, g)
}

#[test]
fn lz_analyze_streams_until_the_next_command() {
    let (mut e, g) = one_black_move(9, "E5");
    send(&mut e, "7 lz-analyze 5");
    assert_eq!(line(&mut e), "=7");
    for _ in 0..3 {
        check_info(&line(&mut e), &g);
    }
    // any command stops it: the answer ends with a blank line first
    send(&mut e, "8 name");
    loop {
        let l = line(&mut e);
        if l.is_empty() {
            break;
        }
        check_info(&l, &g);
    }
    assert_eq!(line(&mut e), "=8 tengen");
    assert_eq!(line(&mut e), "");
    // the colour tag analyses for that side; bad tags are refused
    send(&mut e, "lz-analyze b interval 5");
    assert_eq!(line(&mut e), "=");
    let mut black = g.clone();
    black.set_to_move(Color::Black);
    check_info(&line(&mut e), &black);
    send(&mut e, "name");
    while !line(&mut e).is_empty() {}
    assert_eq!(line(&mut e), "= tengen");
    assert_eq!(line(&mut e), "");
    assert_eq!(e.fails("lz-analyze sideways"), "cannot parse analyze tags");
    assert_eq!(e.exit_code(), Some(0));
}

/// KataGo's `kata-analyze`: win rates 0..1, the value head's score lead
/// on 19x19, and with `ownership true` one value a point after the moves.
#[test]
fn kata_analyze_writes_what_katago_writes() {
    let (mut e, g) = one_black_move(19, "Q16");
    send(&mut e, "4 kata-analyze 5 ownership true");
    assert_eq!(line(&mut e), "=4");
    let text = line(&mut e);
    let (moves, own) = text.split_once(" ownership ").expect("the ownership");
    let own: Vec<f32> = own.split_whitespace().map(|v| v.parse().unwrap()).collect();
    assert_eq!(own.len(), 361);
    assert!(own.iter().all(|v| (-1.0..=1.0).contains(v)));
    assert!(moves.starts_with("info move "), "{moves:?}");
    for item in moves.split("info ").skip(1) {
        let w: Vec<&str> = item.split_whitespace().collect();
        let get = |key: &str| {
            let i = w.iter().position(|&x| x == key);
            i.map(|i| w[i + 1])
                .unwrap_or_else(|| panic!("{key} in {item:?}"))
        };
        let winrate: f32 = get("winrate").parse().unwrap();
        assert!((0.0..=1.0).contains(&winrate), "{item:?}");
        let lead: f32 = get("scoreLead").parse().unwrap();
        assert!(lead.abs() < 100.0, "{item:?}");
        assert_eq!(get("scoreMean"), get("scoreLead"));
        let mv = coord::from_gtp(g.board(), get("move")).expect("a vertex");
        assert!(g.is_legal(mv), "{item:?}");
        assert_eq!(get("pv"), get("move"), "the line starts with the move");
        for key in ["visits", "prior", "lcb", "order", "utility"] {
            get(key);
        }
    }
    send(&mut e, "name");
    while !line(&mut e).is_empty() {}
    assert_eq!(line(&mut e), "= tengen");
    assert_eq!(line(&mut e), "");
    assert_eq!(
        e.fails("kata-analyze ownership maybe"),
        "cannot parse analyze tags"
    );
    assert_eq!(e.exit_code(), Some(0));
}

#[test]
fn lz_genmove_analyze_plays_after_its_info_lines() {
    let mut e = Engine::start(&["--seconds", "0.3"]);
    e.ok("boardsize 9");
    e.ok("clear_board");
    send(&mut e, "3 lz-genmove_analyze b 5");
    assert_eq!(line(&mut e), "=3");
    let g = Game::new(9, 9, 7.5);
    let played = loop {
        let l = line(&mut e);
        match l.strip_prefix("play ") {
            Some(v) => break v.to_string(),
            None => {
                check_info(&l, &g);
            }
        }
    };
    assert_eq!(line(&mut e), "");
    // the move is on the board
    assert_eq!(e.fails(&format!("play w {played}")), "illegal move");
    assert_eq!(e.exit_code(), Some(0));
}

#[test]
fn handicap_commands_follow_the_specification() {
    let mut e = Engine::quick();
    assert_eq!(e.ok("fixed_handicap 4"), "D4 Q16 D16 Q4");
    assert_eq!(e.fails("fixed_handicap 2"), "board not empty");
    e.ok("clear_board");
    assert_eq!(e.fails("fixed_handicap 10"), "invalid number of stones");
    assert_eq!(e.fails("fixed_handicap 1"), "invalid number of stones");
    assert_eq!(e.ok("fixed_handicap 9").split(' ').count(), 9);
    // white moves next; undo cannot take a handicap stone back
    let w = e.ok("genmove w");
    assert_eq!(e.fails(&format!("play b {w}")), "illegal move");
    e.ok("undo");
    assert_eq!(e.fails("undo"), "cannot undo");
    e.ok("clear_board");
    assert_eq!(e.fails("place_free_handicap 1"), "invalid number of stones");
    assert_eq!(e.fails("place_free_handicap many"), "syntax error");
    assert_eq!(e.fails("set_free_handicap D4"), "invalid number of stones");
    let placed = e.ok("place_free_handicap 12");
    assert_eq!(placed.split(' ').count(), 12, "{placed}");
    e.ok("clear_board");
    assert!(e.fails("set_free_handicap D4 D4").contains("repeated"));
    assert!(e.fails("set_free_handicap D4 Z99").contains("vertex"));
    e.ok("set_free_handicap D4 Q16 K10");
    assert_eq!(e.fails("play b K10"), "illegal move");
    e.ok("boardsize 5");
    assert_eq!(e.fails("fixed_handicap 2"), "invalid number of stones");
    assert_eq!(e.exit_code(), Some(0));
}

#[test]
fn sgf_records_are_written_and_loaded() {
    let dir = std::env::temp_dir().join(format!("tengen-gtp-sgf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.sgf");
    let mut e = Engine::quick();
    e.ok("boardsize 9");
    e.ok("clear_board");
    e.ok("komi 6.5");
    e.ok("fixed_handicap 2");
    for (c, v) in [("w", "E5"), ("b", "D5"), ("w", "pass"), ("b", "F5")] {
        e.ok(&format!("play {c} {v}"));
    }
    let sgf = e.ok("printsgf");
    assert!(sgf.contains("SZ[9]") && sgf.contains("KM[6.5]"), "{sgf}");
    assert!(sgf.contains("AB[cg][gc]PL[W]"), "{sgf}");
    assert!(sgf.contains(";W[ee];B[de];W[];B[fe])"), "{sgf}");
    let board = e.ok("showboard");
    e.ok(&format!("printsgf {}", file.display()));
    e.ok("boardsize 19");
    e.ok(&format!("loadsgf {}", file.display()));
    assert_eq!(e.ok("showboard"), board);
    // up to move 3: two moves played, black's D5 the last
    e.ok(&format!("loadsgf {} 3", file.display()));
    let before = e.ok("showboard");
    assert!(before.contains(" 5 . . . X O . . . ."), "{before}");
    e.ok("play w pass");
    assert!(e
        .fails("loadsgf /nonexistent/x.sgf")
        .contains("cannot load file"));
    // a problem: stones set up, black to play (PL) although black has more
    let problem = dir.join("problem.sgf");
    std::fs::write(&problem, "(;SZ[9]AB[cc][dd]AW[ee]PL[B])").unwrap();
    e.ok(&format!("loadsgf {}", problem.display()));
    assert!(e.ok("showboard").contains("black to move"));
    assert!(e.ok("printsgf").ends_with("AW[ee]PL[B])"));
    // a collection (a match's games.sgf): its first game, as GNU Go reads one
    let two = dir.join("two.sgf");
    std::fs::write(&two, "(;SZ[9];B[cc])\n(;SZ[9];B[gg];W[cc])\n").unwrap();
    e.ok(&format!("loadsgf {}", two.display()));
    let first = e.ok("showboard");
    assert!(
        first.contains(" 7 . . X . . . . . .") && first.contains("white to move"),
        "{first}"
    );
    std::fs::write(dir.join("bad.sgf"), "(;SZ[9];B[zz])").unwrap();
    let bad = dir.join("bad.sgf");
    assert!(e
        .fails(&format!("loadsgf {}", bad.display()))
        .contains("cannot load file"));
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(e.exit_code(), Some(0));
}

#[test]
fn dead_stones_are_listed_scored_and_cleaned_up() {
    let mut e = Engine::quick();
    e.ok("boardsize 7");
    e.ok("clear_board");
    e.ok("komi 0.5");
    // a black wall down the C file and a white stone in atari on the
    // right edge, G4, with its last liberty at F4: dead
    for v in ["C1", "C2", "C3", "C4", "C5", "C6", "C7", "G3", "G5"] {
        e.ok(&format!("play b {v}"));
    }
    e.ok("play w G4");
    let dead = e.ok("final_status_list dead");
    assert!(dead.lines().any(|l| l == "G4"), "{dead:?}");
    assert!(!dead.contains('C'), "{dead:?}");
    let alive = e.ok("final_status_list alive");
    assert!(alive.contains("C1"), "{alive:?}");
    assert!(e.fails("final_status_list maybe").contains("syntax"));
    // G4 off the board, black owns all 49 points
    assert_eq!(e.ok("final_score"), "B+48.5");
    assert_eq!(e.fails("kgs-genmove_cleanup purple"), "syntax error");
    // cleanup does not pass while G4 stands
    let mv = e.ok("kgs-genmove_cleanup b");
    assert_ne!(mv.to_lowercase(), "pass");
    assert_eq!(e.exit_code(), Some(0));
}

#[test]
fn gogui_analyze_commands_are_known_and_answer() {
    let mut e = Engine::quick();
    e.ok("boardsize 9");
    e.ok("clear_board");
    e.ok("play b E5");
    let list = e.ok("gogui-analyze_commands");
    for entry in list.lines() {
        let command = entry.split('/').nth(2).unwrap().split(' ').next().unwrap();
        assert_eq!(e.ok(&format!("known_command {command}")), "true", "{entry}");
    }
    let own = e.ok("tengen-ownership");
    assert!(own.starts_with("INFLUENCE "), "{own}");
    assert_eq!(own.split_whitespace().count(), 1 + 2 * 81);
    let pv = e.ok("tengen-pv");
    assert!(pv.starts_with("VAR w "), "{pv}");
    let map = e.ok("tengen-policy-map");
    assert!(map.lines().any(|l| l.starts_with("COLOR #")), "{map}");
    assert!(map.lines().any(|l| l.starts_with("LABEL ")), "{map}");
    for ok in [
        "none",
        "absolute 600",
        "byoyomi 600 30 5",
        "canadian 600 300 25",
    ] {
        e.ok(&format!("kgs-time_settings {ok}"));
    }
    for bad in ["", "sudden", "absolute", "canadian 600 300", "absolute -5"] {
        assert_eq!(e.fails(&format!("kgs-time_settings {bad}")), "syntax error");
    }
    assert_eq!(e.exit_code(), Some(0));
}
