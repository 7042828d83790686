//! `tengen evaluate`: what the search's playouts say of positions given as
//! move sequences, to hold beside a teacher's win rate and score lead
//! (`tools/value_check.py` does, on the held-out teacher positions).

use super::{no_more_args, parse_flag, search_config, take_switch, ToolError};
use crate::games::go::nn;
use crate::games::go::Searcher;
use crate::go::coord::sgf_point;
use crate::go::{Game, Move};
use crate::search::Budget;
use std::fmt::Write as _;

pub const USAGE: &str = "\
usage: tengen evaluate [--playouts N] [--komi K] [--size N]
                       [--net] [--model FILE] [--children C]
                       [--set NAME=VALUE]... < POSITIONS
  Each input line is MOVES, then optionally a space and a label, MOVES
  two SGF letters a move ('..' a pass, black first). Each output line is the position's value for the side to move
  by N playouts (default 3000, about what one search of the arena clock
  plays) of the search's playout policy: the share won (0..1, a draw
  half) and the mean margin in points (komi K, default 7.5, counted),
  then the label unchanged. --net: then the network's winning chance and
  lead for the side to move, before the label: the built-in network's
  or, with --model (which implies --net), FILE's; any board size, the
  moves' history read; --playouts 0 with it leaves the playouts out.
  --children C: instead, a search of N playouts (the bot's tree, priors
  and network) and its C most visited root moves, each as
  MOVE:PLAYOUTS:WINRATE, with --net then :WIN:LEAD, the network's read
  of the position after the move, all for the side to move here: how
  the search and the value head rank the same moves.";

pub fn run(mut args: Vec<String>, input: &str) -> Result<String, ToolError> {
    if args.iter().any(|a| a == "--help") {
        return Ok(format!("{USAGE}\n"));
    }
    let playouts: u32 = parse_flag(&mut args, "--playouts")?.unwrap_or(3000);
    let komi: f32 = parse_flag(&mut args, "--komi")?.unwrap_or(7.5);
    let size: usize = parse_flag(&mut args, "--size")?.unwrap_or(19);
    let net = super::model::install(&mut args)? | take_switch(&mut args, "--net");
    let children: Option<usize> = parse_flag(&mut args, "--children")?;
    let config = search_config(&mut args)?;
    no_more_args(&args)?;
    if (playouts == 0 && (!net || children.is_some())) || !komi.is_finite() {
        return Err(ToolError::usage(
            "--playouts must be positive (or 0 with --net alone), --komi finite",
        ));
    }
    if !(2..=crate::go::MAX_SIZE).contains(&size) {
        return Err(ToolError::usage(format!(
            "--size: 2 to {}",
            crate::go::MAX_SIZE
        )));
    }
    let mut searcher = Searcher::new(config);
    let mut out = String::new();
    for (n, line) in input.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        let (moves, label) = line.split_once(' ').unwrap_or((line, ""));
        let game = replay_game(size, komi, moves)
            .map_err(|e| ToolError::input(format!("line {}: {e}", n + 1)))?;
        let mut fields = Vec::new();
        if let Some(c) = children {
            searcher.clear();
            fields = ranked(&mut searcher, &game, playouts, c, net);
        } else if playouts > 0 {
            let (win, margin) = searcher.rollouts(&game, playouts);
            fields.push(format!("{win:.4} {margin:.2}"));
        }
        if let Some((win, lead)) = net.then(|| read(&game)) {
            fields.push(format!("{win:.4} {lead:.2}"));
        }
        let _ = write!(out, "{}", fields.join(" "));
        if !label.is_empty() {
            out.push(' ');
            out.push_str(label);
        }
        out.push('\n');
    }
    Ok(out)
}

/// `moves` (two SGF letters a move, `..` a pass) played from the empty
/// board as a game, its history kept for the network to read.
fn replay_game(size: usize, komi: f32, moves: &str) -> Result<Game, String> {
    if !moves.len().is_multiple_of(2) {
        return Err(format!("{moves:?}: not two letters a move"));
    }
    let mut game = Game::new(size, size, komi);
    for pair in moves.as_bytes().chunks(2) {
        let mv = match crate::go::sgf::point(pair) {
            Some((x, y)) if x >= size || y >= size => {
                return Err(format!("{moves:?}: a move off the {size}x{size} board"))
            }
            Some((x, y)) => Move::Play(game.board().point(x, y)),
            None if pair == b".." => Move::Pass,
            None => return Err(format!("{moves:?}: not two letters a move")),
        };
        game.play(mv).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// The network's winning chance and lead for the side to move.
fn read(game: &Game) -> (f32, f32) {
    let e = nn::active().evaluate(&nn::position(game), 0.0);
    let pla = game.to_move();
    (e.winrate(pla), e.lead(pla))
}

/// The `c` most visited root moves of a search of `playouts` on `game`,
/// each `MOVE:PLAYOUTS:WINRATE[:WIN:LEAD]` for the side to move.
fn ranked(searcher: &mut Searcher, game: &Game, playouts: u32, c: usize, net: bool) -> Vec<String> {
    let a = searcher.analyze_within(game, &Budget::playouts(u64::from(playouts)));
    a.moves
        .iter()
        .take(c)
        .map(|m| {
            let b = game.board();
            let name = match m.mv {
                Move::Pass => "..".to_string(),
                Move::Play(p) => {
                    let (x, y) = b.xy(p);
                    sgf_point(x, y)
                }
            };
            let mut text = format!("{name}:{}:{:.4}", m.visits, m.winrate);
            let mut after = game.clone();
            if net && after.play(m.mv).is_ok() {
                // the network reads for the side to move after the move
                let (win, lead) = read(&after);
                let _ = write!(text, ":{:.4}:{:.2}", 1.0 - win, -lead);
            }
            text
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black has ten stones on two rows of a 5x5 board, white none: a
    /// won position for black, read from the side to move either way.
    #[test]
    fn values_are_the_side_to_move_s() {
        let rows = "aa..ba..ca..da..ea..ab..bb..cb..db..eb..";
        let args = || {
            vec![
                "--size".into(),
                "5".into(),
                "--playouts".into(),
                "300".into(),
            ]
        };
        let out = run(args(), &format!("{rows} black\n{rows}.. white\n")).unwrap();
        let read = |line: &str| -> (f32, f32, String) {
            let f: Vec<&str> = line.split_whitespace().collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].to_string(),
            )
        };
        let lines: Vec<&str> = out.lines().collect();
        let (bw, bm, bl) = read(lines[0]);
        let (ww, wm, wl) = read(lines[1]);
        assert_eq!((bl.as_str(), wl.as_str()), ("black", "white"));
        assert!(bw > 0.7 && bm > 0.0, "{out}");
        assert!(ww < 0.4 && wm < 0.0, "{out}");
        assert!(run(vec!["--playouts".into(), "0".into()], "").is_err());
        assert!(run(vec![], "zz\n").is_err());
        assert!(run(vec![], "dd.\n").is_err());
        // the network reads any board: black's win and lead from it too
        let small_net = vec!["--size".into(), "5".into(), "--net".into()];
        let out = run(small_net, &format!("{rows} black\n")).unwrap();
        let f: Vec<f32> = out
            .split_whitespace()
            .take(4)
            .map(|x| x.parse().unwrap())
            .collect();
        assert!(f[2] > 0.7 && f[3] > 0.0, "{out}");
    }

    /// Three white stones on the edge of a 5x5 board have one liberty and
    /// black is to move: the search's most visited move takes them.
    #[test]
    fn children_rank_the_search_s_root_moves() {
        let args = vec![
            "--size".into(),
            "5".into(),
            "--playouts".into(),
            "300".into(),
            "--children".into(),
            "3".into(),
        ];
        let out = run(args, "abaabbbacbcadb.. atari\n").unwrap();
        let fields: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(fields.last(), Some(&"atari"), "{out}");
        let first: Vec<&str> = fields[0].split(':').collect();
        assert_eq!(first[0], "da", "{out}");
        let played: u32 = fields[..fields.len() - 1]
            .iter()
            .map(|f| f.split(':').nth(1).unwrap().parse::<u32>().unwrap())
            .sum();
        assert!(
            played <= 300 && first[2].parse::<f32>().unwrap() > 0.6,
            "{out}"
        );
        let zero = vec![
            "--children".into(),
            "3".into(),
            "--playouts".into(),
            "0".into(),
        ];
        assert!(run(zero, "").is_err());
    }
}
