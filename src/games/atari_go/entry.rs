//! Atari Go in the list of games (`games/mod.rs`): its names, its help,
//! its bot and its referee.

use super::codingame::AtariGoBot;
use super::referee::AtariGoGame;
use crate::games::referee::Refereed;
use crate::games::registry::Game;

impl Game for AtariGoGame {
    const NAME: &'static str = "atari-go";
    const TITLE: &'static str = "Atari Go";
    const USAGE: &'static str = "  \
  tengen atari-go [--player search|random|greedy] [--seed S]
                 [--first-ms MS] [--turn-ms MS]
                         the CodinGame Atari Go bot on stdin/stdout
                         (MS: search time of the first turn and the rest)
";
    const PLAYERS: &'static [&'static str] = &["search", "random", "greedy"];
    const ARENA_HELP: &'static str = "\
--game atari-go: CodinGame's Atari Go, 9x9, 80 turns (a pass is a turn),
black first; more captures win, then more stones played, else a draw.
Each bot gets `myColor` (B or W) and `boardSize`; each turn, the
opponent's last stone `x y` (-1 -1 on the first turn and after a pass),
`myScore opponentScore` (stones captured) and the rows of the board, top
to bottom, of B, W and `.`. It answers `x y` (column, row, from 0) or
PASS; off the board, occupied, suicide and ko are illegal. games.jsonl
adds the captures and stones per colour and the final board.
";
    type Bot = AtariGoBot;

    fn referee(_seed: u64) -> Box<dyn Refereed> {
        Box::new(AtariGoGame::new())
    }
}
