//! The match settings, with the defaults the bot falls back on when the
//! engine leaves one out, and what they say about colours.

use super::lines::Setting;
use crate::deps::log;
use crate::go::{Color, MAX_SIZE};
use crate::protocol::field::Dialect;

#[derive(Clone, Debug)]
pub struct Settings {
    pub timebank_ms: u64,
    pub time_per_move_ms: u64,
    pub player_names: Vec<String>,
    pub your_bot: Option<String>,
    pub your_botid: Option<u8>,
    pub width: Option<usize>,
    pub height: Option<usize>,
    pub max_rounds: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            timebank_ms: 10_000,
            time_per_move_ms: 200,
            player_names: Vec::new(),
            your_bot: None,
            your_botid: None,
            width: None,
            height: None,
            max_rounds: 250,
        }
    }
}

/// The bot id of the first player (black) in a dialect.
pub fn black_id(dialect: Dialect) -> u8 {
    match dialect {
        Dialect::TheAiGames => 1,
        Dialect::Riddles => 0,
    }
}

/// The players' names in a dialect, black first.
pub fn default_names(dialect: Dialect) -> [&'static str; 2] {
    match dialect {
        Dialect::TheAiGames => ["player1", "player2"],
        Dialect::Riddles => ["player0", "player1"],
    }
}

fn side(v: i64) -> Option<usize> {
    (1..=MAX_SIZE as i64).contains(&v).then_some(v as usize)
}

impl Settings {
    /// Applies one setting; a value that makes no sense is logged and the
    /// previous value kept.
    pub fn apply(&mut self, s: Setting) {
        let refuse = |what: &str, v: i64| log::warn!("ignoring settings {what} {v}");
        match s {
            Setting::Timebank(v) if v > 0 => self.timebank_ms = v as u64,
            Setting::Timebank(v) => refuse("timebank", v),
            Setting::TimePerMove(v) if v >= 0 => self.time_per_move_ms = v as u64,
            Setting::TimePerMove(v) => refuse("time_per_move", v),
            Setting::PlayerNames(names) => self.player_names = names,
            Setting::YourBot(name) => self.your_bot = Some(name),
            Setting::YourBotId(v) if (0..=2).contains(&v) => self.your_botid = Some(v as u8),
            Setting::YourBotId(v) => refuse("your_botid", v),
            Setting::FieldWidth(v) => match side(v) {
                Some(w) => self.width = Some(w),
                None => refuse("field_width", v),
            },
            Setting::FieldHeight(v) => match side(v) {
                Some(h) => self.height = Some(h),
                None => refuse("field_height", v),
            },
            Setting::MaxRounds(v) if v > 0 => self.max_rounds = v as usize,
            Setting::MaxRounds(v) => refuse("max_rounds", v),
            Setting::Unknown(key, value) => {
                log::warn!("ignoring unknown setting {key} = {value:?}")
            }
        }
    }

    /// The dialect the names and ids give away: only Riddles.io has a
    /// `player0` or id 0, only TheAIGames a `player2` or id 2.
    pub fn dialect(&self) -> Option<Dialect> {
        let mut names = self.player_names.iter().chain(self.your_bot.as_ref());
        if self.your_botid == Some(0) || names.clone().any(|n| n == "player0") {
            Some(Dialect::Riddles)
        } else if self.your_botid == Some(2) || names.any(|n| n == "player2") {
            Some(Dialect::TheAiGames)
        } else {
            None
        }
    }

    /// Our colour, if the settings alone tell it (`dialect` is the fallback
    /// when they do not give the dialect away).
    pub fn our_color(&self, dialect: Option<Dialect>) -> Option<Color> {
        let black = |is_black: bool| if is_black { Color::Black } else { Color::White };
        if let (Some(id), Some(d)) = (self.your_botid, self.dialect().or(dialect)) {
            return Some(black(id == black_id(d)));
        }
        let me = self.your_bot.as_ref()?;
        if self.player_names.len() == 2 {
            let i = self.player_names.iter().position(|n| n == me)?;
            return Some(black(i == 0));
        }
        let d = self.dialect().or(dialect)?;
        let i = default_names(d).iter().position(|n| n == me)?;
        Some(black(i == 0))
    }

    /// The names of the black and white players.
    pub fn names(&self, dialect: Dialect) -> [String; 2] {
        match self.player_names.as_slice() {
            [b, w] => [b.clone(), w.clone()],
            _ => default_names(self.dialect().unwrap_or(dialect)).map(String::from),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(settings: &[Setting]) -> Settings {
        let mut s = Settings::default();
        for x in settings {
            s.apply(x.clone());
        }
        s
    }

    #[test]
    fn colours_from_the_settings() {
        let names = |a: &str, b: &str| Setting::PlayerNames(vec![a.into(), b.into()]);
        let s = with(&[names("player0", "player1"), Setting::YourBotId(1)]);
        assert_eq!(s.our_color(None), Some(Color::White));
        let s = with(&[names("player1", "player2"), Setting::YourBotId(1)]);
        assert_eq!(s.our_color(None), Some(Color::Black));
        let s = with(&[Setting::YourBotId(2)]);
        assert_eq!(s.our_color(None), Some(Color::White));
        let s = with(&[Setting::YourBotId(0)]);
        assert_eq!(s.our_color(None), Some(Color::Black));
        // id 1 alone is black on TheAIGames, white on Riddles.io
        let s = with(&[Setting::YourBotId(1)]);
        assert_eq!(s.our_color(None), None);
        assert_eq!(s.our_color(Some(Dialect::Riddles)), Some(Color::White));
        assert_eq!(s.our_color(Some(Dialect::TheAiGames)), Some(Color::Black));
        let s = with(&[Setting::YourBot("player1".into())]);
        assert_eq!(s.our_color(Some(Dialect::Riddles)), Some(Color::White));
    }

    #[test]
    fn nonsense_is_refused() {
        let s = with(&[
            Setting::FieldWidth(0),
            Setting::FieldHeight(99),
            Setting::Timebank(-5),
            Setting::MaxRounds(0),
            Setting::YourBotId(7),
        ]);
        assert_eq!((s.width, s.height), (None, None));
        assert_eq!(s.timebank_ms, 10_000);
        assert_eq!(s.max_rounds, 250);
        assert_eq!(s.your_botid, None);
    }
}
