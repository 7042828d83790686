//! Coordinates in the notations players use: GTP vertices (`D4`, letters
//! skip `I`, rows counted from the bottom) and SGF points (`dd`, from the top).

use super::board::Board;
use super::color::Move;

const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A GTP vertex for a move (`pass` for a pass).
pub fn to_gtp(board: &Board, mv: Move) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(p) => {
            let (x, y) = board.xy(p);
            format!("{}{}", LETTERS[x] as char, board.height() - y)
        }
    }
}

/// Parses a GTP vertex (case-insensitive) or `pass`.
pub fn from_gtp(board: &Board, text: &str) -> Option<Move> {
    let t = text.trim().to_ascii_uppercase();
    if t == "PASS" {
        return Some(Move::Pass);
    }
    let mut chars = t.chars();
    let letter = chars.next()? as u8;
    let x = LETTERS.iter().position(|&l| l == letter)?;
    let row: usize = chars.as_str().parse().ok()?;
    if row == 0 || row > board.height() {
        return None;
    }
    board
        .try_point(x as i64, (board.height() - row) as i64)
        .map(Move::Play)
}

/// An SGF point for column `x`, row `y` from the top (`dd`).
pub fn sgf_point(x: usize, y: usize) -> String {
    format!("{}{}", (b'a' + x as u8) as char, (b'a' + y as u8) as char)
}
