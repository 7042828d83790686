//! `tengen validate`: plays a list of moves on a given position and prints
//! the board after them, or `NOT_VALID` if any move breaks the rules.
//!
//! Input: S, M, S rows of `.`/`B`/`W`, then M moves `C i j` (colour, row,
//! column). A move is not valid if it is off the board, on a stone, suicide,
//! or recreates the board as it stood before the opponent's previous move
//! (simple ko as this puzzle defines it). Moves need not alternate.

use super::{no_more_args, ToolError};
use crate::go::{Board, Cell, Color, MAX_SIZE};

pub fn run(args: Vec<String>, input: &str) -> Result<String, ToolError> {
    no_more_args(&args)?;
    let puzzle = parse(input)?;
    Ok(puzzle.solve())
}

/// A parsed puzzle.
#[derive(Debug)]
pub struct Puzzle {
    size: usize,
    cells: Vec<Cell>,
    moves: Vec<(Color, i64, i64)>,
}

fn next_token<'a>(
    tokens: &mut impl Iterator<Item = (usize, &'a str)>,
    what: &str,
) -> Result<(usize, &'a str), ToolError> {
    tokens
        .next()
        .ok_or_else(|| ToolError::input(format!("input ends where {what} was expected")))
}

fn number(line: usize, text: &str, what: &str) -> Result<i64, ToolError> {
    text.parse().map_err(|_| {
        ToolError::input(format!(
            "line {line}: {what} should be a whole number, found {text:?}"
        ))
    })
}

/// Reads the puzzle. Rows and moves are read by lines; extra blank lines and
/// trailing spaces are tolerated.
pub fn parse(input: &str) -> Result<Puzzle, ToolError> {
    let mut lines = input
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let (ln, s) = next_token(&mut lines, "the board size S")?;
    let size = number(ln, s, "the board size S")?;
    if !(0..=MAX_SIZE as i64).contains(&size) {
        return Err(ToolError::input(format!(
            "line {ln}: board size {size} is not in 0..={MAX_SIZE}"
        )));
    }
    let size = size as usize;
    let (ln, m) = next_token(&mut lines, "the move count M")?;
    let count = number(ln, m, "the move count M")?;
    if count < 0 {
        return Err(ToolError::input(format!(
            "line {ln}: move count {count} is negative"
        )));
    }
    let mut cells = Vec::with_capacity(size * size);
    for row in 0..size {
        let (ln, text) = next_token(&mut lines, &format!("board row {}", row + 1))?;
        if text.chars().count() != size {
            return Err(ToolError::input(format!(
                "line {ln}: board row {} has {} characters, expected {size}",
                row + 1,
                text.chars().count()
            )));
        }
        for ch in text.chars() {
            cells.push(match ch {
                '.' => Cell::Empty,
                'B' => Cell::Black,
                'W' => Cell::White,
                other => {
                    return Err(ToolError::input(format!(
                        "line {ln}: {other:?} is not a board character (., B or W)"
                    )))
                }
            });
        }
    }
    let mut moves = Vec::new();
    for k in 0..count {
        let (ln, text) = next_token(&mut lines, &format!("move {}", k + 1))?;
        let parts: Vec<&str> = text.split_whitespace().collect();
        if parts.len() != 3 {
            return Err(ToolError::input(format!(
                "line {ln}: a move is `B i j` or `W i j`, found {text:?}"
            )));
        }
        let color = match parts[0] {
            "B" => Color::Black,
            "W" => Color::White,
            other => {
                return Err(ToolError::input(format!(
                    "line {ln}: colour {other:?} is not B or W"
                )))
            }
        };
        moves.push((
            color,
            number(ln, parts[1], "the row")?,
            number(ln, parts[2], "the column")?,
        ));
    }
    if let Some((ln, extra)) = lines.next() {
        return Err(ToolError::input(format!(
            "line {ln}: unexpected text after the last move: {extra:?}"
        )));
    }
    Ok(Puzzle { size, cells, moves })
}

impl Puzzle {
    /// `NOT_VALID\n`, or the board after the moves, one row a line.
    pub fn solve(&self) -> String {
        const NOT_VALID: &str = "NOT_VALID\n";
        if self.size == 0 {
            return if self.moves.is_empty() {
                String::new()
            } else {
                NOT_VALID.into()
            };
        }
        let mut board = match Board::from_cells(self.size, self.size, &self.cells) {
            Ok(b) => b,
            // a string without liberties cannot be a position of a game
            Err(_) => return NOT_VALID.into(),
        };
        // positions[k] = the board before move k
        let mut positions = vec![board.hash()];
        for (k, &(color, row, col)) in self.moves.iter().enumerate() {
            let Some(p) = board.try_point(col, row) else {
                return NOT_VALID.into();
            };
            if board.play_stone(color, p).is_err() {
                return NOT_VALID.into();
            }
            if k >= 1 && board.hash() == positions[k - 1] {
                return NOT_VALID.into();
            }
            positions.push(board.hash());
        }
        let mut out = String::new();
        for y in 0..self.size {
            for x in 0..self.size {
                out.push(match board.at(board.point(x, y)) {
                    Cell::Black => 'B',
                    Cell::White => 'W',
                    _ => '.',
                });
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(text: &str) -> String {
        parse(text).unwrap().solve()
    }

    #[test]
    fn the_seed_example() {
        let input = "5\n5\n.....\n.....\n.....\n.....\n.....\nB 2 2\nW 2 3\nB 3 2\nW 3 4\nB 4 3\n";
        assert_eq!(solve(input), ".....\n.....\n..BW.\n..B.W\n...B.\n");
    }

    #[test]
    fn ko_retake_is_not_valid_but_a_later_retake_is() {
        let board = ".BW..\nB.BW.\n.BW..\n.....\n.....\n";
        // W takes the ko at (1,1); B retakes at once at (1,2): not valid
        assert_eq!(
            solve(&format!("5\n2\n{board}W 1 1\nB 1 2\n")),
            "NOT_VALID\n"
        );
        // with a ko threat exchanged in between, the retake is fine
        let out = solve(&format!("5\n4\n{board}W 1 1\nB 4 4\nW 4 3\nB 1 2\n"));
        assert_eq!(out, ".BW..\nB.BW.\n.BW..\n.....\n...WB\n");
    }

    #[test]
    fn suicide_occupied_and_off_board_are_not_valid() {
        let board = ".B...\nB....\n.....\n.....\n.....\n";
        assert_eq!(solve(&format!("5\n1\n{board}W 0 0\n")), "NOT_VALID\n");
        assert_eq!(solve(&format!("5\n1\n{board}W 0 1\n")), "NOT_VALID\n");
        assert_eq!(solve(&format!("5\n1\n{board}W 5 0\n")), "NOT_VALID\n");
        assert_eq!(solve(&format!("5\n1\n{board}W -1 0\n")), "NOT_VALID\n");
    }

    #[test]
    fn malformed_input_is_an_error() {
        assert!(parse("").is_err());
        assert!(parse("3\n").is_err());
        assert!(parse("2\n0\n..\n.\n").is_err());
        assert!(parse("2\n1\n..\n..\nB 0\n").is_err());
        assert!(parse("2\n1\n..\n..\nX 0 0\n").is_err());
        assert!(parse("2\n0\n.Z\n..\n").is_err());
        assert!(parse("26\n0\n").is_err());
        assert!(parse("2\n0\n..\n..\nB 0 0\n").is_err());
    }
}
