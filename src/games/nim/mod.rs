//! Nim, the toy game of docs/adding-a-game.md: listed in the tests only,
//! it checks that a game added by following that document plays through
//! the generic paths (the referee and its match, the bot's driver). A
//! pile of stones; each turn takes 1 to 3 of them; whoever takes the last
//! one wins, and a player facing an empty pile has lost.

pub mod codingame;
pub mod entry;
pub mod referee;
pub mod rules;

pub use rules::Nim;
