//! `tengen planes`: the policy network's input planes for positions given
//! as move sequences, for training it offline with the very encoding the
//! bot uses ([`crate::games::go::planes`]).

use super::{no_more_args, parse_flag, take_switch, ToolError};
use crate::deps::log;
use crate::games::go::planes::{encode, PLANES};
use crate::go::{sgf, Board, Move, MAX_SIZE};
use std::fmt::Write as _;

pub const USAGE: &str = "\
usage: tengen planes [--size N] [--skip-bad] < POSITIONS
  Each input line is MOVES, then optionally a space and anything (a
  label), where MOVES are two SGF letters a move ('..' a pass) from the
  empty board, black first. Each output line is the position after them,
  as hex of its planes packed a bit a point (least significant bit first,
  plane after plane, points row by row from the top left), then the
  label unchanged. A line whose moves cannot be replayed is an error, or
  with --skip-bad left out and named on stderr (game records from
  elsewhere may break these rules).";

pub fn run(mut args: Vec<String>, input: &str) -> Result<String, ToolError> {
    if args.iter().any(|a| a == "--help") {
        let names: Vec<String> = PLANES
            .iter()
            .enumerate()
            .map(|(k, n)| format!("  {k:2} {n}"))
            .collect();
        return Ok(format!("{USAGE}\nplanes:\n{}\n", names.join("\n")));
    }
    let size: usize = parse_flag(&mut args, "--size")?.unwrap_or(19);
    let skip_bad = take_switch(&mut args, "--skip-bad");
    if !(2..=MAX_SIZE).contains(&size) {
        return Err(ToolError::usage(format!(
            "--size must be in 2..={MAX_SIZE}"
        )));
    }
    no_more_args(&args)?;
    let mut out = String::new();
    let mut skipped = 0;
    for (n, line) in input.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        let (moves, label) = line.split_once(' ').unwrap_or((line, ""));
        let board = match replay(size, moves) {
            Ok(board) => board,
            Err(e) if skip_bad => {
                log::warn!("line {}: {e}; left out", n + 1);
                skipped += 1;
                continue;
            }
            Err(e) => return Err(ToolError::input(format!("line {}: {e}", n + 1))),
        };
        for byte in pack(&encode(&board)) {
            let _ = write!(out, "{byte:02x}");
        }
        if !label.is_empty() {
            out.push(' ');
            out.push_str(label);
        }
        out.push('\n');
    }
    if skipped > 0 {
        log::warn!("{skipped} lines left out");
    }
    Ok(out)
}

/// The board after `moves` (SGF letter pairs, `..` a pass) from the empty
/// `size` x `size` board, black first.
pub(crate) fn replay(size: usize, moves: &str) -> Result<Board, String> {
    let bytes = moves.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return Err("an odd number of letters".into());
    }
    let mut b = Board::new(size, size);
    for (k, pair) in bytes.chunks(2).enumerate() {
        let mv = match pair {
            b".." => Move::Pass,
            text => match sgf::point(text) {
                Some((x, y)) if x < size && y < size => Move::Play(b.point(x, y)),
                Some(_) => return Err(format!("move {}: off the board", k + 1)),
                None => return Err(format!("move {}: not a move", k + 1)),
            },
        };
        b.play(mv).map_err(|e| format!("move {}: {e}", k + 1))?;
    }
    Ok(b)
}

/// Bytes of 0/1 packed eight to a byte, the first in the lowest bit.
fn pack(bits: &[u8]) -> Vec<u8> {
    bits.chunks(8)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u8, |acc, (i, &b)| acc | (b << i))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_come_out_packed_with_their_labels() {
        let out = run(vec!["--size".into(), "3".into()], "bb x y\n\n..\n").unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        let (hex, label) = lines[0].split_once(' ').unwrap();
        assert_eq!(label, "x y");
        // 19 planes of 9 points: 171 bits, 22 bytes
        assert_eq!(hex.len(), 44);
        let bytes: Vec<u8> = (0..22)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        let bit = |plane: usize, x: usize, y: usize| {
            let i = plane * 9 + y * 3 + x;
            (bytes[i / 8] >> (i % 8)) & 1
        };
        // white to move after black's centre stone: an enemy stone, the last move
        assert_eq!((bit(1, 1, 1), bit(0, 1, 1), bit(9, 1, 1)), (1, 0, 1));
        assert_eq!(bit(8, 1, 1), 1, "4 liberties count as 3 or more");
        assert!(
            lines[1].len() == 44,
            "a pass from the empty board, no label"
        );
        for bad in ["b", "zz", "bbbb", "a!"] {
            assert!(
                run(vec!["--size".into(), "3".into()], bad).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn skip_bad_leaves_out_the_lines_that_cannot_be_replayed() {
        let args = || vec!["--size".into(), "3".into(), "--skip-bad".into()];
        // the second line plays on an occupied point, the third off the board
        let out = run(args(), "bb first\nbbbb second\nzz third\n.. fourth\n").unwrap();
        let labels: Vec<&str> = out.lines().map(|l| l.split_once(' ').unwrap().1).collect();
        assert_eq!(labels, ["first", "fourth"]);
    }
}
