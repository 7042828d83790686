//! The referee's view of a player: something asked for a move each turn.
//! [`ArenaBot`] speaks the arena protocol; the GTP adapter is in
//! `gtp_player.rs`.

use super::gtp_player::GtpBot;
use super::process::{Process, Wait};
use super::spec::PlayerSpec;
use super::sys::Stop;
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

pub trait Bot {
    fn ask(&mut self, turn: &Turn) -> Reply;
    /// Tells the bot the game is over (closes its input), without waiting.
    fn finish(&mut self);
    /// Waits until `until` for the bot to exit, then kills it.
    fn reap(&mut self, until: Instant);
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

/// Starts a player's process for one game.
pub fn start(seat: &Seat, stop: &Stop) -> Result<Box<dyn Bot>, String> {
    // Bots get no seed through the protocol; the environment is harmless.
    let env = [("TENGEN_ARENA_SEED", seat.seed.to_string())];
    let process = Process::spawn(&seat.spec.argv, seat.log, &env)
        .map_err(|e| format!("player {}: {e}", seat.spec.label))?;
    if seat.spec.gtp {
        let bot = GtpBot::start(process, seat, stop.clone())
            .map_err(|e| format!("player {} (GTP): {e}", seat.spec.label))?;
        return Ok(Box::new(bot));
    }
    let mut bot = ArenaBot {
        process,
        stop: stop.clone(),
        stale: Vec::new(),
    };
    for line in seat.settings {
        // A bot that dies during the settings is caught at its first turn.
        if bot.process.send(line).is_err() {
            break;
        }
    }
    Ok(Box::new(bot))
}

/// A bot speaking the arena protocol on stdin/stdout.
pub struct ArenaBot {
    process: Process,
    stop: Stop,
    /// Lines dropped as stale, reported with the next answer.
    stale: Vec<String>,
}

impl Bot for ArenaBot {
    fn ask(&mut self, turn: &Turn) -> Reply {
        if !turn.retry {
            // Lines read before this turn's request (the answer to a re-ask
            // after a late answer, chatter) are not answers to it. On a
            // re-ask the late answer is exactly what is wanted.
            self.stale.extend(self.process.drain());
            for line in turn.updates {
                if let Err(e) = self.process.send(line) {
                    return Reply::Crash(e);
                }
            }
        }
        // Taken before the request is written: a line begun (its first
        // byte read) before this instant cannot answer it, however the
        // threads are scheduled and in however many writes it came. (A line
        // begun before the request but read after this instant cannot be
        // told apart from an answer: nobody can.)
        let asked = Instant::now();
        if let Err(e) = self.process.send(&format!("action move {}", turn.bank_ms)) {
            return Reply::Crash(e);
        }
        loop {
            return match self.process.recv(Some(asked + turn.limit), &self.stop) {
                Wait::Line(line) if line.begun < asked && !turn.retry => {
                    self.stale.push(line.text);
                    continue;
                }
                Wait::Line(line) => Reply::Answer {
                    text: line.text,
                    ms: line.done.saturating_duration_since(asked).as_millis() as u64,
                    stale: std::mem::take(&mut self.stale),
                },
                Wait::Timeout => Reply::Timeout,
                Wait::Stopped => Reply::Stopped,
                Wait::Eof => Reply::Crash(format!(
                    "no answer: {}",
                    self.process.exit_note(Duration::from_millis(200))
                )),
            };
        }
    }

    fn finish(&mut self) {
        self.process.close();
    }

    fn reap(&mut self, until: Instant) {
        self.process.reap(until);
    }
}
