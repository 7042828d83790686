//! Nim in the list of games (`games/mod.rs`, in the tests only).

use super::codingame::NimBot;
use super::referee::NimGame;
use crate::games::referee::Refereed;
use crate::games::registry::Game;

impl Game for NimGame {
    const NAME: &'static str = "nim";
    const TITLE: &'static str = "Nim";
    const USAGE: &'static str = "  \
  tengen nim [--player search|random] [--seed S] [--first-ms MS] [--turn-ms MS]
                         the toy game's bot on stdin/stdout (tests only)
";
    const PLAYERS: &'static [&'static str] = &["search", "random"];
    const ARENA_HELP: &'static str = "\
--game nim: a pile of 21 stones; each turn takes 1 to 3; whoever takes
the last stone wins. Each bot gets `21 3`; each turn, the stones left and
the opponent's last take (0 on the first turn). It answers the stones it
takes.
";
    type Bot = NimBot;

    fn referee(_seed: u64) -> Box<dyn Refereed> {
        Box::new(NimGame::new())
    }
}
