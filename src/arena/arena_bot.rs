//! A player speaking the arena protocol on stdin/stdout, as a bot uploaded
//! to the arena does.

use super::facts::{self, Engine};
use super::player::{Player, Reply, Seat, Turn};
use super::process::{Process, Wait};
use super::sys::Stop;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A bot speaking the arena protocol on stdin/stdout.
pub struct ArenaBot {
    process: Process,
    stop: Stop,
    /// Lines dropped as stale, reported with the next answer.
    stale: Vec<String>,
    /// Its stderr log, whose first line says what it is.
    log: PathBuf,
}

impl ArenaBot {
    /// Sends the settings to the bot in `process`.
    pub fn start(process: Process, seat: &Seat, stop: Stop) -> ArenaBot {
        let mut bot = ArenaBot {
            process,
            stop,
            stale: Vec::new(),
            log: seat.log.to_path_buf(),
        };
        for line in seat.settings {
            // A bot that dies during the settings is caught at its first turn.
            if bot.process.send(line).is_err() {
                break;
            }
        }
        bot
    }
}

impl Player for ArenaBot {
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

    fn engine(&self) -> Engine {
        Engine {
            gtp: None,
            stderr: facts::first_line(&self.log),
        }
    }
}
