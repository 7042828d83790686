//! `tengen evaluate`: what the search's playouts say of positions given as
//! move sequences, to hold beside a teacher's win rate and score lead
//! (`tools/value_check.py` does, on the held-out teacher positions).

use super::planes::replay;
use super::{install_net_file, no_more_args, parse_flag, take_switch, ToolError};
use crate::games::go::net::Net;
use crate::games::go::{Config, Searcher};
use crate::go::Game;
use std::fmt::Write as _;

pub const USAGE: &str = "\
usage: tengen evaluate [--playouts N] [--komi K] [--size N]
                       [--net] [--net-file FILE] < POSITIONS
  Each input line is MOVES, then optionally a space and a label, MOVES
  as for tengen planes (two SGF letters a move, '..' a pass, black
  first). Each output line is the position's value for the side to move
  by N playouts (default 3000, about what one search of the arena clock
  plays) of the search's playout policy: the share won (0..1, a draw
  half) and the mean margin in points (komi K, default 7.5, counted),
  then the label unchanged. --net: then the network's value head's
  winning chance and lead for the side to move (the network of
  --net-file, else the built-in one; it must have a value head), before
  the label; --playouts 0 with it leaves the playouts out.";

pub fn run(mut args: Vec<String>, input: &str) -> Result<String, ToolError> {
    if args.iter().any(|a| a == "--help") {
        return Ok(format!("{USAGE}\n"));
    }
    let playouts: u32 = parse_flag(&mut args, "--playouts")?.unwrap_or(3000);
    let komi: f32 = parse_flag(&mut args, "--komi")?.unwrap_or(7.5);
    let size: usize = parse_flag(&mut args, "--size")?.unwrap_or(19);
    let net = install_net_file(&mut args)? | take_switch(&mut args, "--net");
    no_more_args(&args)?;
    if (playouts == 0 && !net) || !komi.is_finite() {
        return Err(ToolError::usage(
            "--playouts must be positive (or 0 with --net), --komi finite",
        ));
    }
    if net && !Net::active().has_value() {
        return Err(ToolError::input("the network has no value head"));
    }
    let mut searcher = Searcher::new(Config::default());
    let mut out = String::new();
    for (n, line) in input.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        let (moves, label) = line.split_once(' ').unwrap_or((line, ""));
        let board =
            replay(size, moves).map_err(|e| ToolError::input(format!("line {}: {e}", n + 1)))?;
        let game = Game::from_board(board, komi);
        let mut fields = Vec::new();
        if playouts > 0 {
            let (win, margin) = searcher.rollouts(&game, playouts);
            fields.push(format!("{win:.4} {margin:.2}"));
        }
        if let Some(v) = net
            .then(|| Net::active().evaluate(game.board()).1)
            .flatten()
        {
            fields.push(format!("{:.4} {:.2}", v.win, v.lead));
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
        // the built-in network has no value head yet: a clear error
        if !Net::active().has_value() {
            assert!(run(vec!["--net".into()], "").is_err());
        }
        assert!(run(vec![], "zz\n").is_err());
    }
}
