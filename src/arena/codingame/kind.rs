//! The games the referee knows, and a new one of each: above the games
//! (`atari_go`, `clobber`), which know only the [`Refereed`] trait.

use crate::games::atari_go::referee::AtariGoGame;
use crate::games::clobber::referee::ClobberGame;
use crate::games::referee::Refereed;

/// The games the referee knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    AtariGo,
    Clobber,
}

impl Kind {
    pub const ALL: [Kind; 2] = [Kind::AtariGo, Kind::Clobber];

    /// The kind named `name` on the command line.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The name on the command line (`--game`) and in the records.
    pub fn name(self) -> &'static str {
        match self {
            Kind::AtariGo => "atari-go",
            Kind::Clobber => "clobber",
        }
    }

    /// A new game, as CodinGame starts it. `seed` is the game's: what the
    /// referee chooses itself (a `random` answer in Clobber) follows it.
    pub fn new_game(self, seed: u64) -> Box<dyn Refereed> {
        match self {
            Kind::AtariGo => Box::new(AtariGoGame::new()),
            Kind::Clobber => Box::new(ClobberGame::new(seed)),
        }
    }

    /// The time limits CodinGame gives, in ms: the first answer (process
    /// start included) and each later one.
    pub fn default_limits(self) -> (u64, u64) {
        match self {
            Kind::AtariGo | Kind::Clobber => (1000, 100),
        }
    }

    pub fn seat_names(self) -> [&'static str; 2] {
        self.new_game(0).seat_names()
    }
}
