//! Clobber in the list of games (`games/mod.rs`): its names, its help,
//! its bot and its referee.

use super::codingame::ClobberBot;
use super::referee::ClobberGame;
use crate::games::referee::Refereed;
use crate::games::registry::Game;

impl Game for ClobberGame {
    const NAME: &'static str = "clobber";
    const TITLE: &'static str = "Clobber";
    const USAGE: &'static str = "  \
  tengen clobber [--player search|random|greedy|alphabeta[DEPTH]] [--seed S]
                 [--first-ms MS] [--turn-ms MS]
                         the CodinGame Clobber bot on stdin/stdout
";
    const PLAYERS: &'static [&'static str] = &["search", "random", "greedy", "alphabeta"];
    const ARENA_HELP: &'static str = "\
--game clobber: CodinGame's Clobber, 8x8, the board full of stones in a
checkerboard (a1 black); white moves first. A move takes an own stone onto
an orthogonally adjacent enemy stone, which is removed. The player who has
no move on their turn loses (the game ends without asking them); there
are no draws (a game reaching 200 turns, impossible on 8x8, would be a
draw with reason limit). Each bot gets `boardSize` (8) and `color` (w or
b); each turn, the rows of the board, top to bottom, of w, b and `.`, the
opponent's last move (`null` on white's first turn) and the number of its
legal moves. It answers a move in chess notation, `e2e3` (the stone on e2
takes the one on e3), a comment after a space allowed and ignored, or
`random`, for which the referee plays a random legal move (from the
game's seed) and records that move. No own stone on the first square, no
enemy stone on the second, or squares not side by side: illegal.
games.jsonl adds the stones left per colour and the final board.
";
    type Bot = ClobberBot;

    fn referee(seed: u64) -> Box<dyn Refereed> {
        Box::new(ClobberGame::new(seed))
    }
}
