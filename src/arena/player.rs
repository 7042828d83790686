//! The referee's view of a player: something asked for a move each turn.
//! `arena_bot.rs` speaks the arena protocol, `gtp_player.rs` GTP.

use super::facts::Engine;
use super::spec::PlayerSpec;
use crate::go::{Color, Game};
use std::path::Path;
use std::time::{Duration, Instant};

/// One request for a move.
pub struct Turn<'a> {
    pub game: &'a Game,
    pub color: Color,
    /// The `update ...` lines of this turn (arena protocol).
    pub updates: &'a [String],
    /// The bank shown in `action move T`, in ms.
    pub bank_ms: u64,
    /// How long the referee waits for the answer.
    pub limit: Duration,
    /// Asked again after a miss: the updates are not sent again.
    pub retry: bool,
}

#[derive(Debug, PartialEq)]
pub enum Reply {
    /// An answer in the arena's words (`place_move X Y`, `pass`), its
    /// answer time, and stale lines dropped before the request.
    Answer {
        text: String,
        ms: u64,
        stale: Vec<String>,
    },
    Timeout,
    /// The bot is gone or broke its protocol; the text says how.
    Crash(String),
    /// A GTP engine resigned.
    Resign,
    /// The match is stopping.
    Stopped,
}

pub trait Player {
    fn ask(&mut self, turn: &Turn) -> Reply;
    /// Tells the bot the game is over (closes its input), without waiting.
    fn finish(&mut self);
    /// Waits until `until` for the bot to exit, then kills it.
    fn reap(&mut self, until: Instant);
    /// What the engine said of itself (asked once the game is over).
    fn engine(&self) -> Engine;
}

/// What a player needs to know to be started for one game.
pub struct Seat<'a> {
    pub spec: &'a PlayerSpec,
    /// The `settings ...` lines (arena protocol).
    pub settings: &'a [String],
    pub size: usize,
    pub komi: f32,
    pub bank_ms: u64,
    /// Longest wait for an unclocked answer or a GTP set-up command.
    pub hang: Duration,
    pub log: &'a Path,
    pub seed: u64,
}
