//! The GTP adapter: drives a GTP engine (GNU Go, ...) as an arena player.
//! It asks the engine's `name` and `version` first, for the records.
//! The engine keeps its own board: before each `genmove` it is sent the
//! moves it has not seen (`play B D4`, `play W pass`); if the game went
//! differently from what it believes (its move was refused and counted as a
//! pass), it is reset with `clear_board` and the whole game is replayed.

use super::facts::{self, Engine};
use super::player::{Player, Reply, Seat, Turn};
use super::process::{Process, Wait};
use super::sys::Stop;
use crate::go::{coord, Color, Move};
use std::time::{Duration, Instant};

pub struct GtpBot {
    process: Process,
    stop: Stop,
    /// The moves the engine has on its board, in order.
    synced: Vec<(Color, Move)>,
    /// The engine's board may hold a move the game does not: replay all.
    dirty: bool,
    /// A `genmove` is out and unanswered (the referee timed it out).
    pending: bool,
    clock: bool,
    hang: Duration,
    /// Its answers to `name` and `version`.
    name: Option<String>,
    version: Option<String>,
}

/// Why a GTP command failed.
enum Fail {
    Refused(String),
    Timeout,
    Gone(String),
    Stopped,
}

impl GtpBot {
    /// Sets the engine up: board size, empty board, komi, and for a clocked
    /// engine the timebank as absolute time.
    pub fn start(process: Process, seat: &Seat, stop: Stop) -> Result<GtpBot, String> {
        let mut bot = GtpBot {
            process,
            stop,
            synced: Vec::new(),
            dirty: false,
            pending: false,
            clock: seat.spec.clock,
            hang: seat.hang,
            name: None,
            version: None,
        };
        // what it is, for the records; an engine may refuse to say
        bot.name = bot.optional("name")?;
        bot.version = bot.optional("version")?;
        let setup = [
            format!("boardsize {}", seat.size),
            "clear_board".to_string(),
            format!("komi {}", seat.komi),
        ];
        for cmd in &setup {
            bot.command(cmd).map_err(|f| describe(cmd, f))?;
        }
        if bot.clock {
            // Absolute time in whole seconds (0 would mean no limit to
            // some engines). Optional for the engine: a refusal is fine.
            let secs = (seat.bank_ms / 1000).max(1);
            let _ = bot.command(&format!("time_settings {secs} 0 0"));
        }
        Ok(bot)
    }

    /// The answer to a command the engine may refuse (`None`), shortened.
    fn optional(&mut self, cmd: &str) -> Result<Option<String>, String> {
        match self.command(cmd) {
            Ok((_, text)) => Ok(Some(facts::short(&text))),
            Err(Fail::Refused(_)) => Ok(None),
            Err(f) => Err(describe(cmd, f)),
        }
    }

    /// Sends a command and returns the answer's text and when it came.
    fn command(&mut self, cmd: &str) -> Result<(Instant, String), Fail> {
        self.process.send(cmd).map_err(Fail::Gone)?;
        self.response(Instant::now() + self.hang)
    }

    /// Reads one response: `= text` or `? text`, ended by an empty line.
    /// Lines before it that are neither are skipped (engine chatter).
    fn response(&mut self, deadline: Instant) -> Result<(Instant, String), Fail> {
        let (at, first) = loop {
            match self.next_line(deadline)? {
                (at, l) if l.starts_with('=') || l.starts_with('?') => break (at, l),
                _ => {}
            }
        };
        let mut text = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
        text = text.trim();
        let mut body = text.to_string();
        // the rest of a multi-line answer; a little grace past the deadline
        let rest = deadline.max(Instant::now() + Duration::from_secs(1));
        loop {
            let (_, l) = self.next_line(rest)?;
            if l.trim().is_empty() {
                break;
            }
            body.push('\n');
            body.push_str(l.trim());
        }
        if first.starts_with('?') {
            Err(Fail::Refused(body))
        } else {
            Ok((at, body))
        }
    }

    fn next_line(&mut self, deadline: Instant) -> Result<(Instant, String), Fail> {
        match self.process.recv(Some(deadline), &self.stop) {
            Wait::Line(line) => Ok((line.done, line.text)),
            Wait::Timeout => Err(Fail::Timeout),
            Wait::Stopped => Err(Fail::Stopped),
            Wait::Eof => Err(Fail::Gone(
                self.process.exit_note(Duration::from_millis(200)),
            )),
        }
    }

    /// Brings the engine's board up to the game's.
    fn sync(&mut self, turn: &Turn) -> Result<(), String> {
        let moves = turn.game.moves();
        if self.dirty || !moves.starts_with(&self.synced) {
            self.command("clear_board")
                .map_err(|f| describe("clear_board", f))?;
            self.synced.clear();
            self.dirty = false;
        }
        for &(c, mv) in &moves[self.synced.len()..] {
            let cmd = format!(
                "play {} {}",
                c.letter(),
                coord::to_gtp(turn.game.board(), mv)
            );
            self.command(&cmd).map_err(|f| describe(&cmd, f))?;
            self.synced.push((c, mv));
        }
        Ok(())
    }
}

fn describe(cmd: &str, f: Fail) -> String {
    match f {
        Fail::Refused(why) => format!("`{cmd}` refused: {why}"),
        Fail::Timeout => format!("no answer to `{cmd}`"),
        Fail::Gone(why) => format!("gone during `{cmd}`: {why}"),
        Fail::Stopped => "stopped".to_string(),
    }
}

impl Player for GtpBot {
    fn ask(&mut self, turn: &Turn) -> Reply {
        let mut sent = Instant::now();
        if !(turn.retry && self.pending) {
            if let Err(e) = self.sync(turn) {
                return if self.stop.is_set() {
                    Reply::Stopped
                } else {
                    Reply::Crash(e)
                };
            }
            let letter = turn.color.letter().to_ascii_lowercase();
            if self.clock {
                let secs = turn.bank_ms / 1000;
                let _ = self.command(&format!("time_left {letter} {secs} 0"));
            }
            // the clock starts as genmove is written
            sent = Instant::now();
            if let Err(e) = self.process.send(&format!("genmove {letter}")) {
                return Reply::Crash(e);
            }
            self.pending = true;
        }
        // on a retry the same genmove is still out: keep waiting for it
        let (at, text) = match self.response(sent + turn.limit) {
            Ok(r) => r,
            Err(Fail::Timeout) => return Reply::Timeout,
            Err(Fail::Stopped) => return Reply::Stopped,
            Err(Fail::Gone(why)) => return Reply::Crash(format!("no answer: {why}")),
            Err(Fail::Refused(why)) => {
                self.pending = false;
                self.dirty = true;
                return Reply::Answer {
                    text: format!("? {why}"),
                    ms: 0,
                    stale: Vec::new(),
                };
            }
        };
        self.pending = false;
        let ms = at.saturating_duration_since(sent).as_millis() as u64;
        if text.eq_ignore_ascii_case("resign") {
            return Reply::Resign;
        }
        let board = turn.game.board();
        let text = match coord::from_gtp(board, &text) {
            Some(mv) => {
                self.synced.push((turn.color, mv));
                crate::protocol::bot::answer_text(board, mv)
            }
            None => {
                self.dirty = true; // whatever the engine did, it is not ours
                text
            }
        };
        Reply::Answer {
            text,
            ms,
            stale: Vec::new(),
        }
    }

    fn finish(&mut self) {
        let _ = self.process.send("quit");
        self.process.close();
    }

    fn reap(&mut self, until: Instant) {
        self.process.reap(until);
    }

    fn engine(&self) -> Engine {
        Engine {
            gtp: Some((self.name.clone(), self.version.clone())),
            stderr: None,
        }
    }
}
