//! The referee's rulings, as pure functions: reading an answer, judging a
//! move (with the Riddles.io quirks when asked), the end by lack of moves,
//! and the field and points the players are shown.

use crate::go::field::Dialect;
use crate::go::{Board, Cell, Game, Illegal, Move};

/// Reads `place_move X Y`, `place_move X,Y` or `pass`. The error says why
/// the answer cannot be read, or that the point is off the board.
pub fn parse_answer(board: &Board, text: &str) -> Result<Move, String> {
    let t = text.trim();
    if t == "pass" {
        return Ok(Move::Pass);
    }
    let unreadable = || format!("unreadable answer {t:?}");
    let rest = t.strip_prefix("place_move").ok_or_else(unreadable)?;
    if !rest.starts_with([' ', '\t']) {
        return Err(unreadable());
    }
    let nums: Vec<&str> = rest
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    let [x, y] = nums[..] else {
        return Err(unreadable());
    };
    let (x, y): (i64, i64) = match (x.parse(), y.parse()) {
        (Ok(x), Ok(y)) => (x, y),
        _ => return Err(unreadable()),
    };
    board
        .try_point(x, y)
        .map(Move::Play)
        .ok_or_else(|| format!("{t:?} is off the board"))
}

/// The referee's ruling on a readable move.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Legal,
    Illegal(String),
    /// Riddles.io quirk: an immediate ko retake ends the game.
    KoRetake,
}

/// An empty `size` x `size` game under the match's rules: with `riddles`,
/// filling one's own eye is illegal. The referee plays on it and the
/// `--from` starts are checked on it, so both apply the same rules.
pub fn new_game(size: usize, komi: f32, riddles: bool) -> Game {
    let mut game = Game::new(size, size, komi);
    game.forbid_own_eye_fills(riddles);
    game
}

/// Judges `mv` for the side to move. `riddles` adds the Riddles.io
/// referee's quirk that an immediate ko retake ends the game; its other one,
/// that filling one's own eye is illegal, is the game's own rule
/// ([`Game::forbid_own_eye_fills`], set by [`new_game`]).
pub fn judge(game: &Game, mv: Move, riddles: bool) -> Verdict {
    match game.check(mv) {
        Err(Illegal::Ko) if riddles => Verdict::KoRetake,
        Err(Illegal::Ko) => Verdict::Illegal("retakes a ko at once (superko)".into()),
        Err(e) => Verdict::Illegal(e.to_string()),
        Ok(()) => Verdict::Legal,
    }
}

fn has_stone_move(game: &Game) -> bool {
    game.board().points().any(|p| game.is_legal(Move::Play(p)))
}

/// Neither player has a legal stone move left: the game ends.
pub fn nobody_can_move(game: &Game) -> bool {
    if has_stone_move(game) {
        return false;
    }
    let mut other = game.clone();
    other.set_to_move(game.to_move().opp());
    !has_stone_move(&other)
}

/// The bot ids of black and white in a dialect.
pub fn bot_ids(dialect: Dialect) -> [u8; 2] {
    match dialect {
        Dialect::TheAiGames => [1, 2],
        Dialect::Riddles => [0, 1],
    }
}

/// The player names of black and white in a dialect.
pub fn player_names(dialect: Dialect) -> [String; 2] {
    bot_ids(dialect).map(|id| format!("player{id}"))
}

/// The `update game field` value for the side to move. On Riddles.io, empty
/// points where the mover may not play are marked `-1`, as that engine does.
pub fn field_text(game: &Game, dialect: Dialect) -> String {
    let ids = bot_ids(dialect);
    let board = game.board();
    let cells: Vec<String> = board
        .points()
        .map(|p| match board.at(p) {
            Cell::Black => ids[0].to_string(),
            Cell::White => ids[1].to_string(),
            _ => match dialect {
                Dialect::TheAiGames => "0".into(),
                Dialect::Riddles if !game.is_legal(Move::Play(p)) => "-1".into(),
                Dialect::Riddles => ".".into(),
            },
        })
        .collect();
    cells.join(",")
}

/// A points value as the engine writes it: `7.5`, `0.0`, `42.0`.
pub fn points_text(v: f32) -> String {
    if (v * 10.0).fract() == 0.0 {
        format!("{v:.1}")
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read() {
        let b = Board::new(5, 5);
        assert_eq!(parse_answer(&b, "pass"), Ok(Move::Pass));
        assert_eq!(
            parse_answer(&b, "place_move 3 1"),
            Ok(Move::Play(b.point(3, 1)))
        );
        assert_eq!(
            parse_answer(&b, " place_move 3,1\r"),
            Ok(Move::Play(b.point(3, 1)))
        );
        assert!(parse_answer(&b, "place_move 5 0")
            .unwrap_err()
            .contains("off the board"));
        for bad in [
            "",
            "place_move",
            "place_move 1",
            "place_move1 1",
            "move 1 1",
            "PASS",
        ] {
            assert!(
                parse_answer(&b, bad).unwrap_err().contains("unreadable"),
                "{bad}"
            );
        }
    }

    #[test]
    fn riddles_quirks_and_marks() {
        let board = Board::from_ascii("X.X..\nXX...\n.....\n.....\n.....").unwrap();
        let mut g = Game::from_board(board, 7.5);
        let eye = g.board().point(1, 0);
        assert_eq!(judge(&g, Move::Play(eye), true), Verdict::Legal);
        assert!(field_text(&g, Dialect::Riddles).starts_with("0,.,0,.,"));
        g.forbid_own_eye_fills(true);
        assert_eq!(
            judge(&g, Move::Play(eye), true),
            Verdict::Illegal("fills its own eye".into())
        );
        let f = field_text(&g, Dialect::Riddles);
        assert!(f.starts_with("0,-1,0,.,"), "{f}");
        let f = field_text(&g, Dialect::TheAiGames);
        assert!(f.starts_with("1,0,1,0,"), "{f}");
        assert_eq!(points_text(7.5), "7.5");
        assert_eq!(points_text(0.0), "0.0");
        assert_eq!(points_text(7.25), "7.25");
    }

    #[test]
    fn one_point_board_has_no_move() {
        assert!(nobody_can_move(&Game::new(1, 1, 7.5)));
        assert!(!nobody_can_move(&Game::new(2, 2, 7.5)));
    }
}
