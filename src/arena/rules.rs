//! The referee's rulings, as pure functions: reading an answer, judging a
//! move under the match's rules, the end by lack of moves, and the field,
//! marks and points the players are shown.

use crate::go::{Board, Cell, Game, Illegal, Move, Rules};
use crate::protocol::field::Dialect;

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

/// An empty `size` x `size` game under the match's `rules`. The referee
/// plays on it and the `--from` starts are checked on it, so both apply
/// the same rules.
pub fn new_game(size: usize, komi: f32, rules: Rules) -> Game {
    Game::new(size, size, komi).with_rules(rules)
}

/// Judges `mv` for the side to move: `Err` says why the referee refuses it.
/// (Under the Riddles.io rules an immediate ko retake is legal and ends the
/// game: [`Game::play`] says so.)
pub fn judge(game: &Game, mv: Move) -> Result<(), String> {
    game.check(mv).map_err(|e| match e {
        Illegal::Ko => "retakes a ko at once (superko)".to_string(),
        e => e.to_string(),
    })
}

fn has_stone_move(game: &Game) -> bool {
    game.board().points().any(|p| game.is_legal(Move::Play(p)))
}

/// Neither player has a legal stone move left: the game ends (standard
/// rules; the Riddles.io referee ends a game by [`Rules::board_full`]).
pub fn nobody_can_move(game: &Game) -> bool {
    if game.rules().is_riddles() || has_stone_move(game) {
        return false;
    }
    let mut other = game.clone();
    other.set_to_move(game.to_move().opp());
    !has_stone_move(&other)
}

/// The points each side is shown, black's and white's
/// ([`Rules::shown_points`]).
pub fn points(game: &Game) -> [f32; 2] {
    game.rules().shown_points(game.board(), game.komi())
}

/// The `-1` marks of the Riddles.io referee 1.0.3, kept as it keeps them:
/// after every turn each empty point is marked when it has no empty
/// neighbour, and a stone keeps the mark its point had when it was set (a
/// capture on a marked point leaves a stone that reads `-1`).
#[derive(Clone, Debug, Default)]
pub struct Marks(Vec<bool>);

impl Marks {
    /// Marks the empty points of `game`'s board that have no empty
    /// neighbour (under 1.0.3; no marks otherwise).
    pub fn update(&mut self, game: &Game) {
        let b = game.board();
        if self.0.len() != b.area() {
            self.0 = vec![false; b.area()];
        }
        if game.rules() != Rules::Riddles103 {
            return;
        }
        for (i, p) in b.points().enumerate() {
            if b.at(p) == Cell::Empty {
                self.0[i] = b.nbr_count(p, Cell::Empty) == 0;
            }
        }
    }

    pub fn is_marked(&self, i: usize) -> bool {
        self.0.get(i).copied().unwrap_or(false)
    }
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

/// The `update game field` value. On Riddles.io, marked points read `-1`
/// ([`Marks`]), whatever they hold.
pub fn field_text(game: &Game, dialect: Dialect, marks: &Marks) -> String {
    let ids = bot_ids(dialect);
    let board = game.board();
    let cells: Vec<String> = board
        .points()
        .enumerate()
        .map(|(i, p)| match board.at(p) {
            _ if dialect == Dialect::Riddles && marks.is_marked(i) => "-1".into(),
            Cell::Black => ids[0].to_string(),
            Cell::White => ids[1].to_string(),
            _ => match dialect {
                Dialect::TheAiGames => "0".into(),
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

    /// 1.0.3: the point with no empty neighbour is marked for both
    /// players and refused; the mark stays on a stone set there by a
    /// capture. 1.0.2 sends no marks and lets the string join.
    #[test]
    fn riddles_marks_and_refusals() {
        let text = "X.X..\nXX...\n.....\n.....\n.....";
        let board = Board::from_ascii(text).unwrap();
        let g = Game::from_board(board.clone(), 7.5).with_rules(Rules::Riddles103);
        let eye = g.board().point(1, 0);
        assert_eq!(judge(&g, Move::Play(eye)), Err("suicide".into()));
        let mut marks = Marks::default();
        marks.update(&g);
        let f = field_text(&g, Dialect::Riddles, &marks);
        assert!(f.starts_with("0,-1,0,.,"), "{f}");
        let old = Game::from_board(board, 7.5).with_rules(Rules::Riddles102);
        assert_eq!(judge(&old, Move::Play(eye)), Ok(()));
        let mut none = Marks::default();
        none.update(&old);
        assert!(field_text(&old, Dialect::Riddles, &none).starts_with("0,.,0,.,"));
        let f = field_text(&g, Dialect::TheAiGames, &marks);
        assert!(f.starts_with("1,0,1,0,"), "{f}");

        // white captures on a marked point: the stone reads -1 until taken
        let board = Board::from_ascii(".XO..\nXO...\nO....\n.....\n.....").unwrap();
        let mut g = Game::from_board(board, 7.5).with_rules(Rules::Riddles103);
        g.set_to_move(crate::go::Color::White);
        let mut marks = Marks::default();
        marks.update(&g);
        let corner = g.board().point(0, 0);
        assert!(marks.is_marked(0));
        assert_eq!(judge(&g, Move::Play(corner)), Ok(()));
        g.play(Move::Play(corner)).unwrap();
        marks.update(&g);
        let f = field_text(&g, Dialect::Riddles, &marks);
        // the captured points have no empty neighbour either
        assert!(f.starts_with("-1,-1,1,.,.,-1,1,"), "{f}");
        assert_eq!(points_text(7.5), "7.5");
        assert_eq!(points_text(0.0), "0.0");
        assert_eq!(points_text(7.25), "7.25");
    }

    /// The referee's own area: no stone, nothing; alone on the board, the
    /// whole board (but 1 for a single stone); komi for white either way.
    #[test]
    fn riddles_points_follow_the_referee_s_count() {
        let mut g = new_game(5, 7.5, Rules::Riddles103);
        assert_eq!(points(&g), [0.0, 7.5]);
        g.play(Move::Play(g.board().point(2, 2))).unwrap();
        assert_eq!(points(&g), [1.0, 7.5]);
        let mut std = new_game(5, 7.5, Rules::Standard);
        std.play(Move::Play(std.board().point(2, 2))).unwrap();
        assert_eq!(points(&std), [25.0, 7.5]);
        g.play(Move::Pass).unwrap();
        g.play(Move::Play(g.board().point(2, 3))).unwrap();
        assert_eq!(points(&g), [25.0, 7.5]);
        g.play(Move::Play(g.board().point(0, 0))).unwrap();
        assert_eq!(points(&g), [2.0, 8.5]);
    }

    #[test]
    fn one_point_board_has_no_move() {
        assert!(nobody_can_move(&Game::new(1, 1, 7.5)));
        assert!(!nobody_can_move(&Game::new(2, 2, 7.5)));
    }
}
