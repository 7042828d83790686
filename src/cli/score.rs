//! `tengen score`: Tromp-Taylor count of an n x n diagram read from stdin.
//! Only `X` (black), `O` (white) and `-` (empty) count; every other character
//! is ignored, so the text may be spaced, wrapped or annotated.

use super::{no_more_args, parse_flag, ToolError};
use crate::go::score::{self, frame, Framed};
use crate::go::Cell;

/// Largest side the tool accepts.
pub const MAX_SIDE: usize = 255;

pub fn run(mut args: Vec<String>, input: &str) -> Result<String, ToolError> {
    let komi: f32 = parse_flag(&mut args, "--komi")?.unwrap_or(0.0);
    if !komi.is_finite() {
        return Err(ToolError::usage("--komi must be a finite number"));
    }
    no_more_args(&args)?;
    Ok(score_text(input, komi)? + "\n")
}

/// The result line for a diagram: `B+n`, `W+n` or `Jigo`.
pub fn score_text(input: &str, komi: f32) -> Result<String, ToolError> {
    let cells: Vec<Cell> = input
        .chars()
        .filter_map(|c| match c {
            'X' => Some(Cell::Black),
            'O' => Some(Cell::White),
            '-' => Some(Cell::Empty),
            _ => None,
        })
        .collect();
    let n = cells.len().isqrt();
    if n * n != cells.len() {
        return Err(ToolError::input(format!(
            "{} board characters (X, O, -) do not form a square board ({}x{} = {}, {}x{} = {})",
            cells.len(),
            n,
            n,
            n * n,
            n + 1,
            n + 1,
            (n + 1) * (n + 1)
        )));
    }
    if n > MAX_SIDE {
        return Err(ToolError::input(format!(
            "a {n}x{n} board is larger than {MAX_SIDE}x{MAX_SIDE}"
        )));
    }
    let framed = frame(n, n, &cells);
    let f = Framed {
        cells: &framed,
        stride: n + 1,
        width: n,
        height: n,
    };
    let (black, white) = score::count(&f, None);
    Ok(score::result_string(black as f32 - white as f32 - komi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_input_is_a_zero_board() {
        assert_eq!(score_text("", 0.0).unwrap(), "Jigo");
        assert_eq!(score_text("", 7.5).unwrap(), "W+7.5");
    }

    #[test]
    fn not_a_square_is_an_error() {
        let e = score_text("XO", 0.0).unwrap_err();
        assert_eq!(e.code, 1);
        assert!(e.message.contains("2 board characters"), "{}", e.message);
    }

    #[test]
    fn komi_is_given_to_white() {
        // X owns the whole 2x2 board but for O's stone: black 3, white 1.
        assert_eq!(score_text("X X\nX O", 0.0).unwrap(), "B+2");
        assert_eq!(score_text("XX XO", 6.5).unwrap(), "W+4.5");
    }
}
