//! Clobber (CodinGame) for the referee: `boardSize` and `color` (`w` or
//! `b`) at the start; each turn the rows top to bottom, the opponent's
//! last action (`null` on white's first turn) and the number of legal
//! actions; the answer a move like `e2e3` (a comment may follow after a
//! space) judged by [`Clobber::check`], or `random`, which the referee
//! plays for the bot with the game's seed. White moves first; the player
//! to move without a move has lost and is not asked.

use crate::games::clobber::{Clobber, Move, SIZE};
use crate::games::referee::{json_strings, Refereed};
use crate::go::Color;
use crate::search::rng::Rng;

/// The referee's safety net: each move takes a stone, so no 8x8 game
/// gets near it, but a game that did would end here as a draw.
const TURN_LIMIT: u32 = 200;

/// Seat 0 is white, who moves first.
fn color(seat: usize) -> Color {
    if seat == 0 {
        Color::White
    } else {
        Color::Black
    }
}

fn seat(c: Color) -> usize {
    usize::from(c == Color::Black)
}

pub struct ClobberGame {
    game: Clobber,
    /// The last move played, sent as the next player's `lastAction`.
    last: Option<Move>,
    /// Picks the moves answered `random`.
    rng: Rng,
    limit: u32,
}

impl ClobberGame {
    pub fn new(seed: u64) -> ClobberGame {
        ClobberGame {
            game: Clobber::new(SIZE),
            last: None,
            // not the bots' own seed (TENGEN_ARENA_SEED): a bot seeded
            // with it should not find the referee's picks predictable
            rng: Rng::new(seed ^ 0x636c_6f62_6265_7200),
            limit: TURN_LIMIT,
        }
    }

    /// A game from `rows` with `to_move` to move (the tests set up ends).
    #[cfg(test)]
    pub fn from_rows(rows: &[&str], to_move: Color, seed: u64) -> ClobberGame {
        ClobberGame {
            game: Clobber::from_rows(rows, to_move).expect("rows of a board"),
            ..ClobberGame::new(seed)
        }
    }

    /// A game with another turn limit (the tests reach it).
    #[cfg(test)]
    pub fn with_limit(mut self, limit: u32) -> ClobberGame {
        self.limit = limit;
        self
    }

    fn stones(&self, c: Color) -> u32 {
        self.game.stones(c).count_ones()
    }

    /// The move an answer names (`random`: one picked now), or why it
    /// names none.
    fn parse(&mut self, answer: &str) -> Result<Move, String> {
        let text = answer.trim();
        if text.split_whitespace().next() == Some("random") {
            let moves = self.game.moves();
            // never empty: the referee asks only a player with a move
            return match moves.len() {
                0 => Err("random: no legal move".to_string()),
                n => Ok(moves[self.rng.below(n)]),
            };
        }
        let m = self.game.parse_move(text).ok_or_else(|| {
            format!("unreadable answer {text:?}: expected a move like e2e3, or random")
        })?;
        let name = text.split_whitespace().next().unwrap_or(text);
        self.game.check(m).map_err(|why| format!("{name}: {why}"))?;
        Ok(m)
    }
}

impl Refereed for ClobberGame {
    fn seat_names(&self) -> [&'static str; 2] {
        ["white", "black"]
    }

    fn initial_lines(&self, seat: usize) -> Vec<String> {
        let letter = if color(seat) == Color::White {
            "w"
        } else {
            "b"
        };
        vec![self.game.size().to_string(), letter.to_string()]
    }

    fn to_move(&self) -> usize {
        seat(self.game.to_move())
    }

    fn turn_lines(&self) -> Vec<String> {
        let mut lines = self.game.rows();
        // turns alternate, so the last move is the opponent's
        lines.push(
            self.last
                .map_or_else(|| "null".to_string(), |m| self.game.move_name(m)),
        );
        lines.push(self.game.mobility(self.game.to_move()).to_string());
        lines
    }

    fn apply(&mut self, answer: &str) -> Result<String, String> {
        let m = self.parse(answer)?;
        let text = self.game.move_name(m);
        self.game.play_unchecked(m);
        self.last = Some(m);
        Ok(text)
    }

    fn turns(&self) -> u32 {
        self.game.turns()
    }

    fn is_over(&self) -> bool {
        self.game.is_over() || self.at_limit()
    }

    fn at_limit(&self) -> bool {
        !self.game.is_over() && self.game.turns() >= self.limit
    }

    fn outcome(&self) -> Option<Option<usize>> {
        if self.at_limit() {
            return Some(None);
        }
        self.game.winner().map(|c| Some(seat(c)))
    }

    fn describe(&self) -> String {
        let g = &self.game;
        let mut text = format!(
            "white {} stones, black {} stones, {} turns",
            self.stones(Color::White),
            self.stones(Color::Black),
            g.turns()
        );
        if g.is_over() {
            text.push_str(&format!(", {} has no move", g.to_move()));
        }
        text
    }

    fn json_fields(&self) -> Vec<(String, String)> {
        vec![
            (
                "stones".to_string(),
                format!(
                    "{{\"white\":{},\"black\":{}}}",
                    self.stones(Color::White),
                    self.stones(Color::Black)
                ),
            ),
            ("board".to_string(), json_strings(&self.game.rows())),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start's rows: a1 (bottom left) black.
    fn start_rows() -> Vec<String> {
        (0..8)
            .map(|y| ["wbwbwbwb", "bwbwbwbw"][y % 2].to_string())
            .collect()
    }

    /// An 8x8 board empty but for `top`, its first row.
    fn lone_row(top: &str) -> Vec<&str> {
        let mut rows = vec!["........"; 8];
        rows[0] = top;
        rows
    }

    #[test]
    fn lines_and_rulings() {
        let mut g = ClobberGame::new(3);
        assert_eq!(g.seat_names(), ["white", "black"]);
        assert_eq!(g.initial_lines(0), ["8", "w"]);
        assert_eq!(g.initial_lines(1), ["8", "b"]);
        assert_eq!(g.to_move(), 0);
        let mut want = start_rows();
        // every neighbouring pair is one move for each side: 2 * 8 * 7
        want.extend(["null".to_string(), "112".to_string()]);
        assert_eq!(g.turn_lines(), want);
        // a comment after the move is ignored, and not recorded
        assert_eq!(g.apply("a2a1 takes the corner").unwrap(), "a2a1");
        assert_eq!(g.to_move(), 1);
        let t = g.turn_lines();
        assert_eq!(t.len(), 10);
        assert_eq!((t[6].as_str(), t[7].as_str()), (".bwbwbwb", "wwbwbwbw"));
        // black lost a1's two moves and the two onto a2
        assert_eq!((t[8].as_str(), t[9].as_str()), ("a2a1", "108"));
        for (bad, why) in [
            ("b1c1", "b1 holds no stone of the mover"),
            ("b2a1", "b2a1: the squares are not neighbours"),
            ("a3a2", "a2 holds no enemy stone"),
            ("a3a6", "the squares are not neighbours"),
            ("", "unreadable"),
            ("pass", "unreadable"),
            ("e2", "unreadable"),
            ("e2-e3", "unreadable"),
            ("i1h1", "unreadable"),
            ("a9a8", "unreadable"),
            ("randomly", "unreadable"),
        ] {
            let e = g.apply(bad).unwrap_err();
            assert!(e.contains(why), "{bad:?}: {e}");
        }
        // a refused answer changes nothing
        assert_eq!((g.turns(), g.to_move()), (1, 1));
        assert_eq!(g.apply(" C1B1 ").unwrap(), "c1b1");
        assert_eq!(g.turn_lines()[7], "wb.wbwbw");
        assert_eq!(g.turn_lines()[8], "c1b1");
        assert_eq!(g.describe(), "white 31 stones, black 31 stones, 2 turns");
        let fields = g.json_fields();
        assert_eq!(
            fields[0],
            ("stones".into(), "{\"white\":31,\"black\":31}".into())
        );
        assert!(
            fields[1].1.ends_with(",\".bwbwbwb\",\"wb.wbwbw\"]"),
            "{}",
            fields[1].1
        );
    }

    #[test]
    fn random_is_played_for_the_bot_and_recorded() {
        let mut g = ClobberGame::new(5);
        let mut replay = Clobber::new(SIZE);
        while !g.is_over() {
            let answer = ["random", "random as you like"][g.turns() as usize % 2];
            let played = g.apply(answer).unwrap();
            // the move actually played, legal, and the next lastAction
            let m = replay.parse_move(&played).unwrap();
            replay.play(m).unwrap();
            assert_eq!(g.turn_lines()[8], played);
            assert_eq!(g.turn_lines()[..8], replay.rows()[..]);
        }
        assert!(replay.is_over() && !g.at_limit());
        // the side to move has no move: the other has won
        assert_eq!(g.outcome(), Some(Some(1 - g.to_move())));
        assert!(g.describe().ends_with("has no move"), "{}", g.describe());
        // the same seed picks the same moves
        let (mut a, mut b) = (ClobberGame::new(9), ClobberGame::new(9));
        for _ in 0..10 {
            assert_eq!(a.apply("random"), b.apply("random"));
        }
    }

    #[test]
    fn the_player_without_a_move_has_lost() {
        // white to move has nothing to take: black wins unasked
        let g = ClobberGame::from_rows(&lone_row("w.b....."), Color::White, 1);
        assert!(g.is_over());
        assert_eq!(g.outcome(), Some(Some(1)));
        let mut g = ClobberGame::from_rows(&lone_row("wb......"), Color::White, 1);
        assert_eq!((g.is_over(), g.outcome()), (false, None));
        assert_eq!(g.turn_lines()[9], "1");
        assert_eq!(g.apply("a8b8").unwrap(), "a8b8");
        assert_eq!((g.is_over(), g.outcome()), (true, Some(Some(0))));
        assert_eq!(
            g.describe(),
            "white 1 stones, black 0 stones, 1 turns, black has no move"
        );
    }

    #[test]
    fn the_turn_limit_draws() {
        let mut g = ClobberGame::new(1).with_limit(2);
        g.apply("random").unwrap();
        assert!(!g.is_over());
        g.apply("random").unwrap();
        assert!(g.is_over() && g.at_limit());
        assert_eq!(g.outcome(), Some(None));
    }
}
