//! The inputs against KataGo's, on positions of real games: `fixture.txt`
//! holds the features the Python re-implementation validated against
//! KataGo computes (written by `gen_fixture.py`, whose header gives the
//! format); this replays each game with tengen's rules and compares every
//! plane and global. `TENGEN_INPUTS_FIXTURE=<path>` checks a larger file
//! written by the same script instead.

use super::{features, Features, Position, GLOBAL, SPATIAL};
use crate::go::{Board, Game, Move};

const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";

/// One plane of a `P` line on a board of `area` points: `k=<bits>` or
/// `k:<i>,<j>,...`.
fn parse_plane(text: &str, area: usize) -> (usize, Vec<u8>) {
    let mut bits = vec![0u8; area];
    if let Some((k, packed)) = text.split_once('=') {
        for (d, ch) in packed.bytes().enumerate() {
            let v = DIGITS.iter().position(|&c| c == ch).expect("a digit");
            for j in 0..6 {
                if 6 * d + j < area {
                    bits[6 * d + j] = ((v >> j) & 1) as u8;
                }
            }
        }
        (k.parse().unwrap(), bits)
    } else {
        let (k, list) = text.split_once(':').expect("k=bits or k:list");
        for i in list.split(',') {
            bits[i.parse::<usize>().unwrap()] = 1;
        }
        (k.parse().unwrap(), bits)
    }
}

/// The features a `P` line gives on a `size` x `size` board: its turn and
/// the expected features.
fn parse_position(line: &str, size: usize) -> (usize, Features) {
    let area = size * size;
    let mut parts = line.split(' ').skip(1);
    let turn = parts.next().unwrap().parse().unwrap();
    let mut want = Features::new(size, size);
    for (k, v) in parts.next().unwrap().split(',').enumerate() {
        want.global[k] = v.parse().unwrap();
    }
    for plane in parts {
        let (k, bits) = parse_plane(plane, area);
        want.spatial[k * area..(k + 1) * area].copy_from_slice(&bits);
    }
    (turn, want)
}

/// The moves of a `G` line.
fn parse_moves(text: &str, size: usize) -> Vec<Move> {
    let b = Board::new(size, size);
    text.as_bytes()
        .chunks(2)
        .map(|c| match c {
            b".." => Move::Pass,
            _ => Move::Play(b.point((c[0] - b'a') as usize, (c[1] - b'a') as usize)),
        })
        .collect()
}

/// What differs between the features, as text (empty if nothing).
fn differences(got: &Features, want: &Features) -> String {
    let mut out = String::new();
    let (w, area) = (want.width, want.area());
    if (got.width, got.height) != (want.width, want.height) {
        return format!(" size {}x{}", got.width, got.height);
    }
    for k in 0..SPATIAL {
        let points: Vec<(usize, usize, u8)> = (0..area)
            .filter(|&i| got.spatial[k * area + i] != want.spatial[k * area + i])
            .map(|i| (i % w, i / w, got.spatial[k * area + i]))
            .collect();
        if !points.is_empty() {
            out += &format!(" plane {k} at (x, y, ours) {points:?};");
        }
    }
    for g in 0..GLOBAL {
        if got.global[g] != want.global[g] {
            out += &format!(" global {g} {} != {};", got.global[g], want.global[g]);
        }
    }
    out
}

/// Checks every position of a fixture; returns (positions, failures).
fn check(text: &str) -> (usize, Vec<String>) {
    let (count, failures, _) = replay(text, 1);
    (count, failures)
}

/// Replays the games of a fixture and checks each position, computing
/// its features `rounds` times; returns (positions, failures, the
/// seconds each position's features took, the mean over the rounds).
fn replay(text: &str, rounds: usize) -> (usize, Vec<String>, Vec<(f64, String)>) {
    let mut times = Vec::new();
    let (mut count, mut failures) = (0, Vec::new());
    let mut game = Game::new(19, 19, 7.5);
    let (mut name, mut size, mut moves) = (String::new(), 19, Vec::new());
    // the boards after the last three moves, the newest last
    let mut boards: Vec<Board> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("G ") {
            let mut fields = rest.split(' ');
            name = fields.next().unwrap().to_string();
            size = fields.next().unwrap().parse().unwrap();
            moves = parse_moves(fields.next().unwrap_or(""), size);
            game = Game::new(size, size, 7.5);
            boards = vec![game.board().clone()];
            continue;
        }
        if !line.starts_with("P ") {
            continue;
        }
        let (turn, want) = parse_position(line, size);
        while game.moves().len() < turn {
            let mv = moves[game.moves().len()];
            game.play(mv)
                .unwrap_or_else(|e| panic!("{name}: move {mv:?}: {e}"));
            boards.push(game.board().clone());
            if boards.len() > 3 {
                boards.remove(0);
            }
        }
        let n = boards.len();
        let pos = Position {
            board: game.board(),
            pla: game.to_move(),
            moves: game.moves(),
            recent: [
                n.checked_sub(2).map(|i| &boards[i]),
                n.checked_sub(3).map(|i| &boards[i]),
            ],
            seen: Some(game.history()),
            komi: game.komi(),
            pass_ends: game.pass_ends(),
            over: game.is_over(),
        };
        let start = std::time::Instant::now();
        let mut got = features(&pos);
        for _ in 1..rounds {
            got = features(std::hint::black_box(&pos));
        }
        let took = start.elapsed().as_secs_f64() / rounds as f64;
        times.push((took, format!("{name} after {turn} moves")));
        let diff = differences(&got, &want);
        if !diff.is_empty() {
            failures.push(format!("{name} after {turn} moves:{diff}"));
        }
        count += 1;
    }
    (count, failures, times)
}

#[test]
fn features_match_katagos_on_real_games() {
    let text = match std::env::var("TENGEN_INPUTS_FIXTURE") {
        Ok(path) => std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")),
        Err(_) => include_str!("fixture.txt").to_string(),
    };
    let (count, failures) = check(&text);
    eprintln!("{count} positions checked, {} differ", failures.len());
    assert!(count >= 200, "only {count} positions in the fixture");
    assert!(
        failures.is_empty(),
        "{} of {count} positions differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

#[test]
fn the_fixture_reader_sees_a_difference() {
    let text = include_str!("fixture.txt");
    let p = text.lines().find(|l| l.starts_with("P ")).unwrap();
    // drop the first plane listed after plane 0: the check must fail
    let cut: Vec<&str> = p
        .split(' ')
        .enumerate()
        .filter(|&(i, _)| i != 4)
        .map(|(_, s)| s)
        .collect();
    let g = text.lines().find(|l| l.starts_with("G ")).unwrap();
    let (count, failures) = check(&format!("{g}\n{}\n", cut.join(" ")));
    assert_eq!((count, failures.len()), (1, 1));
}

/// The time the features of a 19x19 position take, on the fixture's
/// positions of real games (middle and end games): well under 100
/// microseconds each in a release build. Timing on a shared machine: run
/// it on purpose, `cargo test --release --lib nn::inputs::fixture --
/// --ignored --nocapture`.
#[test]
#[ignore]
fn features_take_well_under_100_microseconds() {
    let (_, failures, times) = replay(include_str!("fixture.txt"), 50);
    assert!(failures.is_empty());
    let mut times: Vec<(f64, String)> = times
        .into_iter()
        .filter(|(_, name)| name.starts_with("data/"))
        .collect();
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mean = times.iter().map(|t| t.0).sum::<f64>() / times.len() as f64;
    let (median, worst) = (times[times.len() / 2].0, &times[times.len() - 1]);
    eprintln!(
        "features of {} 19x19 positions: mean {:.1} us, median {:.1} us, slowest {:.1} us ({})",
        times.len(),
        mean * 1e6,
        median * 1e6,
        worst.0 * 1e6,
        worst.1
    );
    assert!(mean < 100e-6, "mean {:.1} us", mean * 1e6);
}
