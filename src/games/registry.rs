//! The CodinGame games, found by name. Each game's folder has a type
//! implementing [`Game`]; `games/mod.rs` lists those types once
//! ([`list!`]), and the command line (`tengen NAME`), the arena
//! (`--game NAME`) and the tests find every game through that list.

use super::codingame::Bot;
use super::referee::Refereed;

/// A CodinGame game as tengen knows it: its names and help, its bot and
/// its referee.
pub trait Game: 'static {
    /// The name on the command line (`tengen NAME`, `--game NAME`) and in
    /// the records.
    const NAME: &'static str;
    /// The name in prose, as in `the TITLE bot`.
    const TITLE: &'static str;
    /// `tengen help`'s entry for `tengen NAME`: its usage lines, then
    /// what it does, indented as the others there.
    const USAGE: &'static str;
    /// The players `--player` takes, the search first: the tests play
    /// each.
    const PLAYERS: &'static [&'static str];
    /// `tengen arena --help`'s paragraph on `--game NAME`: the rules and
    /// the lines the bots get.
    const ARENA_HELP: &'static str;
    /// The time limits CodinGame gives, in ms: the first answer (process
    /// start included) and each later one.
    const LIMITS: (u64, u64) = (1000, 100);

    /// The bot `tengen NAME` runs.
    type Bot: Bot;

    /// A new game, as CodinGame starts it. `seed` is the game's: what the
    /// referee chooses itself follows it.
    fn referee(seed: u64) -> Box<dyn Refereed>;
}

/// A [`Game`] as a value, its types left out: what the arena keeps.
#[derive(Clone, Copy)]
pub struct Entry {
    pub name: &'static str,
    pub title: &'static str,
    pub usage: &'static str,
    pub players: &'static [&'static str],
    pub arena_help: &'static str,
    pub limits: (u64, u64),
    referee: fn(u64) -> Box<dyn Refereed>,
}

impl Entry {
    pub fn of<G: Game>() -> Entry {
        Entry {
            name: G::NAME,
            title: G::TITLE,
            usage: G::USAGE,
            players: G::PLAYERS,
            arena_help: G::ARENA_HELP,
            limits: G::LIMITS,
            referee: G::referee,
        }
    }

    /// A new game ([`Game::referee`]).
    pub fn new_game(self, seed: u64) -> Box<dyn Refereed> {
        (self.referee)(seed)
    }

    pub fn seat_names(self) -> [&'static str; 2] {
        self.new_game(0).seat_names()
    }
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Entry({})", self.name)
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        self.name == other.name
    }
}

impl Eq for Entry {}

/// Something done with one game whose type only the list knows: running
/// its bot, say. [`list!`] calls `visit` with the game named.
pub trait Visit {
    type Out;
    fn visit<G: Game>(self) -> Self::Out;
}

/// Writes, where it is called, `entries()` (every game listed, in order)
/// and `visit(name, v)` (`v` done with the game named `name`, if listed).
/// A game listed with `#[cfg(test)]` is there in the tests only.
macro_rules! list {
    ($($(#[$attr:meta])* $game:ty),* $(,)?) => {
        /// The CodinGame games, in the order listed.
        // pushed one by one: a game may be listed under a #[cfg]
        #[allow(clippy::vec_init_then_push)]
        pub fn entries() -> Vec<registry::Entry> {
            #[allow(unused_mut)]
            let mut all = Vec::new();
            $($(#[$attr])* all.push(registry::Entry::of::<$game>());)*
            all
        }

        /// `v` done with the game named `name`; `None`: no such game.
        pub fn visit<V: registry::Visit>(name: &str, v: V) -> Option<V::Out> {
            $($(#[$attr])* {
                if name == <$game as registry::Game>::NAME {
                    return Some(v.visit::<$game>());
                }
            })*
            None
        }

        /// The game named `name`.
        pub fn entry(name: &str) -> Option<registry::Entry> {
            entries().into_iter().find(|e| e.name == name)
        }
    };
}

pub(crate) use list;
