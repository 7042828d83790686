//! Atari Go (CodinGame) for the referee: `myColor` and `boardSize` at the
//! start; each turn the opponent's last stone (`-1 -1` for none or a pass),
//! `myScore opponentScore` (captures) and the rows; the answer `x y` or
//! `PASS`, judged by [`AtariGo::check`].

use crate::games::atari_go::{AtariGo, Outcome, SIZE};
use crate::games::referee::{json_strings, Refereed};
use crate::go::{Color, Move};

/// Seat 0 is black, who moves first: seats and colour indices agree.
fn color(seat: usize) -> Color {
    if seat == 0 {
        Color::Black
    } else {
        Color::White
    }
}

pub struct AtariGoGame {
    game: AtariGo,
}

impl AtariGoGame {
    pub fn new() -> AtariGoGame {
        AtariGoGame {
            game: AtariGo::new(SIZE),
        }
    }

    /// A game with another turn limit (the tests play short games).
    #[cfg(test)]
    pub fn with_turns(turns: u32) -> AtariGoGame {
        AtariGoGame {
            game: AtariGo::new(SIZE).with_turns(turns),
        }
    }

    /// The move an answer names, or why it names none.
    fn parse(&self, answer: &str) -> Result<Move, String> {
        let text = answer.trim();
        if text == "PASS" {
            return Ok(Move::Pass);
        }
        let unreadable = || format!("unreadable answer {text:?}: expected `x y` or `PASS`");
        let words: Vec<&str> = text.split_whitespace().collect();
        let [x, y] = words[..] else {
            return Err(unreadable());
        };
        let (Ok(x), Ok(y)) = (x.parse::<i64>(), y.parse::<i64>()) else {
            return Err(unreadable());
        };
        let p = self
            .game
            .board()
            .try_point(x, y)
            .ok_or_else(|| format!("{x} {y}: off the board"))?;
        self.game
            .check(p)
            .map_err(|why| format!("{x} {y}: {why}"))?;
        Ok(Move::Play(p))
    }

    fn text(&self, mv: Move) -> String {
        match mv {
            Move::Pass => "PASS".to_string(),
            Move::Play(p) => {
                let (x, y) = self.game.board().xy(p);
                format!("{x} {y}")
            }
        }
    }
}

impl Default for AtariGoGame {
    fn default() -> Self {
        AtariGoGame::new()
    }
}

impl Refereed for AtariGoGame {
    fn seat_names(&self) -> [&'static str; 2] {
        ["black", "white"]
    }

    fn initial_lines(&self, seat: usize) -> Vec<String> {
        vec![
            color(seat).letter().to_string(),
            self.game.board().width().to_string(),
        ]
    }

    fn to_move(&self) -> usize {
        self.game.to_move().index()
    }

    fn turn_lines(&self) -> Vec<String> {
        let me = self.game.to_move();
        // turns alternate, so the last move is the opponent's
        let last = match self.game.last_move() {
            Some(mv @ Move::Play(_)) => self.text(mv),
            _ => "-1 -1".to_string(),
        };
        let mut lines = vec![
            last,
            format!(
                "{} {}",
                self.game.captures(me),
                self.game.captures(me.opp())
            ),
        ];
        lines.extend(self.game.rows());
        lines
    }

    fn apply(&mut self, answer: &str) -> Result<String, String> {
        let mv = self.parse(answer)?;
        let text = self.text(mv);
        self.game.play(mv).map_err(|why| format!("{text}: {why}"))?;
        Ok(text)
    }

    fn turns(&self) -> u32 {
        self.game.turns()
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn outcome(&self) -> Option<Option<usize>> {
        self.game.outcome().map(|o| match o {
            Outcome::Win(c) => Some(c.index()),
            Outcome::Draw => None,
        })
    }

    fn describe(&self) -> String {
        let g = &self.game;
        let side = |c: Color| format!("{c} {} captures {} stones", g.captures(c), g.stones(c));
        format!(
            "{}, {}, {} turns",
            side(Color::Black),
            side(Color::White),
            g.turns()
        )
    }

    fn json_fields(&self) -> Vec<(String, String)> {
        let g = &self.game;
        let pair = |f: &dyn Fn(Color) -> u32| {
            format!(
                "{{\"black\":{},\"white\":{}}}",
                f(Color::Black),
                f(Color::White)
            )
        };
        vec![
            ("captures".to_string(), pair(&|c| g.captures(c))),
            ("stones".to_string(), pair(&|c| g.stones(c))),
            ("board".to_string(), json_strings(&g.rows())),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_rulings() {
        let mut g = AtariGoGame::with_turns(6);
        assert_eq!(g.initial_lines(0), ["B", "9"]);
        assert_eq!(g.initial_lines(1), ["W", "9"]);
        let t = g.turn_lines();
        assert_eq!(t.len(), 11);
        assert_eq!((t[0].as_str(), t[1].as_str()), ("-1 -1", "0 0"));
        assert!(t[2..].iter().all(|r| r == "........."));
        assert_eq!(g.apply("  0\t0 ").unwrap(), "0 0");
        assert_eq!(g.to_move(), 1);
        assert!(g.apply("0 0").unwrap_err().contains("occupied"));
        assert!(g.apply("9 0").unwrap_err().contains("off the board"));
        assert!(g.apply("-1 -1").unwrap_err().contains("off the board"));
        for bad in ["", "pass", "1", "1 2 3", "a b", "1.0 2"] {
            assert!(g.apply(bad).unwrap_err().contains("unreadable"), "{bad:?}");
        }
        assert_eq!(g.apply("1 0").unwrap(), "1 0");
        assert_eq!(g.turn_lines()[0], "1 0");
        assert_eq!(g.turn_lines()[2], "BW.......");
        assert_eq!(g.apply("PASS").unwrap(), "PASS");
        assert_eq!(g.turn_lines()[0], "-1 -1");
        // white takes the corner: its score first on its turns
        assert_eq!(g.apply("0 1").unwrap(), "0 1");
        let t = g.turn_lines();
        assert_eq!((t[0].as_str(), t[1].as_str()), ("0 1", "0 1"));
        assert_eq!((t[2].as_str(), t[3].as_str()), (".W.......", "W........"));
        assert!(g.apply("0 0").unwrap_err().contains("suicide"));
        g.apply("PASS").unwrap();
        assert!(!g.is_over());
        g.apply("PASS").unwrap();
        assert!(g.is_over());
        assert_eq!(g.outcome(), Some(Some(1)));
        assert_eq!(
            g.describe(),
            "black 0 captures 1 stones, white 1 captures 2 stones, 6 turns"
        );
        let fields = g.json_fields();
        assert_eq!(fields[0].1, "{\"black\":0,\"white\":1}");
        assert_eq!(fields[1].1, "{\"black\":1,\"white\":2}");
    }

    #[test]
    fn passing_to_the_turn_limit_draws() {
        let mut g = AtariGoGame::new();
        while !g.is_over() {
            assert_eq!(g.apply("PASS").unwrap(), "PASS");
        }
        assert_eq!((g.turns(), g.outcome()), (80, Some(None)));
        assert!(!g.at_limit());
    }
}
