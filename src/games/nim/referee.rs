//! Nim for the referee: `pile maxTake` at the start; each turn the stones
//! left and the opponent's last take (0 on the first turn); the answer
//! the stones taken.

use super::rules::{Nim, MAX_TAKE, PILE};
use crate::games::referee::Refereed;

pub struct NimGame {
    game: Nim,
    last: u32,
    /// Turns after which the referee calls a draw.
    limit: u32,
}

impl NimGame {
    pub fn new() -> NimGame {
        NimGame::from_pile(PILE)
    }

    /// A game from a pile of `left` stones (the tests set up ends).
    pub fn from_pile(left: u32) -> NimGame {
        NimGame {
            game: Nim::new(left),
            last: 0,
            limit: u32::MAX,
        }
    }

    /// A game the referee stops after `limit` turns.
    pub fn with_limit(mut self, limit: u32) -> NimGame {
        self.limit = limit;
        self
    }
}

impl Default for NimGame {
    fn default() -> Self {
        NimGame::new()
    }
}

impl Refereed for NimGame {
    fn seat_names(&self) -> [&'static str; 2] {
        ["first", "second"]
    }

    fn initial_lines(&self, _seat: usize) -> Vec<String> {
        vec![format!("{PILE} {MAX_TAKE}")]
    }

    fn to_move(&self) -> usize {
        self.game.to_move()
    }

    fn turn_lines(&self) -> Vec<String> {
        vec![self.game.left.to_string(), self.last.to_string()]
    }

    fn apply(&mut self, answer: &str) -> Result<String, String> {
        let text = answer.trim();
        let take = text
            .parse::<u32>()
            .map_err(|_| format!("unreadable answer {text:?}: expected a number"))?;
        self.game.play(take)?;
        self.last = take;
        Ok(take.to_string())
    }

    fn turns(&self) -> u32 {
        self.game.turns
    }

    fn is_over(&self) -> bool {
        self.game.is_over() || self.at_limit()
    }

    fn at_limit(&self) -> bool {
        !self.game.is_over() && self.game.turns >= self.limit
    }

    fn outcome(&self) -> Option<Option<usize>> {
        if self.at_limit() {
            return Some(None);
        }
        // the player to move before an empty pile has lost
        self.game.is_over().then(|| Some(1 - self.game.to_move()))
    }

    fn describe(&self) -> String {
        format!("{} stones left, {} turns", self.game.left, self.game.turns)
    }

    fn json_fields(&self) -> Vec<(String, String)> {
        vec![("left".to_string(), self.game.left.to_string())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_rulings() {
        let mut g = NimGame::from_pile(5);
        assert_eq!(g.initial_lines(1), ["21 3"]);
        assert_eq!(g.turn_lines(), ["5", "0"]);
        for bad in ["", "x", "0", "4", "-1"] {
            assert!(g.apply(bad).is_err(), "{bad:?}");
        }
        assert_eq!(g.apply(" 2 ").unwrap(), "2");
        assert_eq!(
            (g.to_move(), g.turn_lines()),
            (1, vec!["3".into(), "2".into()])
        );
        assert_eq!(g.outcome(), None);
        g.apply("3").unwrap();
        assert!(g.is_over());
        assert_eq!(g.outcome(), Some(Some(1)));
        assert_eq!(g.describe(), "0 stones left, 2 turns");
        // an empty pile: the first player has lost unasked
        assert_eq!(NimGame::from_pile(0).outcome(), Some(Some(1)));
        let mut g = NimGame::new().with_limit(1);
        g.apply("1").unwrap();
        assert!(g.is_over() && g.at_limit());
        assert_eq!(g.outcome(), Some(None));
    }
}
