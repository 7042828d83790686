//! The games the generic search ([`crate::search`]) plays, each with its
//! own knowledge: for Go, the priors, the playout policy, patterns, ladder
//! reading and the learnt prior; the CodinGame games each in a folder of
//! their own (rules, search knowledge, referee, bot), found through the
//! list below ([`registry`]; docs/adding-a-game.md).

pub mod atari_go;
pub mod clobber;
pub mod codingame;
pub mod go;
#[cfg(test)]
pub mod nim;
pub mod referee;
pub mod registry;

// The CodinGame games: a line each.
registry::list!(
    atari_go::referee::AtariGoGame,
    clobber::referee::ClobberGame,
    #[cfg(test)]
    nim::referee::NimGame,
);
