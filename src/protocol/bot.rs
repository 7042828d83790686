//! The arena bot: reads the engine's lines, answers each `action move` with
//! one line. Stdout carries answers only; everything else goes to the log.

use super::lines::{self, Line};
use super::state::Table;
use super::thinker::Thinker;
use crate::deps::log;
use crate::games::go::Config;
use crate::go::{Board, Game, Move};
use crate::search::time::{self, Clock, Plan};
use crate::search::Horizon;
use std::io::Write;
use std::time::{Duration, Instant};

pub struct Bot {
    table: Table,
    thinker: Thinker,
    /// The position after our last answer, and its horizon: what to ponder
    /// once the answer is out.
    after_answer: Option<(Game, Horizon)>,
}

impl Default for Bot {
    fn default() -> Self {
        Bot::new()
    }
}

/// An answer as the engine reads it: `place_move X Y` (column, row) or `pass`.
pub fn answer_text(board: &Board, mv: Move) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(p) => {
            let (x, y) = board.xy(p);
            format!("place_move {x} {y}")
        }
    }
}

impl Bot {
    pub fn new() -> Bot {
        Bot::with_thinker(Thinker::new(Config::default()))
    }

    /// A bot answering with whatever `thinker` runs.
    pub fn with_thinker(thinker: Thinker) -> Bot {
        Bot {
            table: Table::new(),
            thinker,
            after_answer: None,
        }
    }

    /// Takes one line, read at `read_at`; returns the answer to print, if the
    /// line asks for one.
    pub fn handle(&mut self, line: &str, read_at: Instant) -> Option<String> {
        match lines::parse(line) {
            Line::Move { bank_ms } => Some(self.answer(bank_ms, read_at)),
            Line::Blank => None,
            Line::Junk(why) => {
                let shown: String = line.trim_end().chars().take(80).collect();
                log::warn!("ignoring {shown:?}: {why}");
                None
            }
            other => {
                self.table.apply(other);
                None
            }
        }
    }

    /// Called once the answer is written: searches on the opponent's time
    /// (if pondering is on) until the next request.
    pub fn answered(&mut self) {
        if let Some((game, horizon)) = self.after_answer.take() {
            self.thinker.ponder(&game, horizon);
        }
    }

    /// The deadlines for this turn, from the bank the engine gave.
    fn plan(&self, bank_ms: Option<i64>, board: &Board, own_moves_to_limit: usize) -> Plan {
        let s = &self.table.settings;
        let max_bank = Duration::from_millis(s.timebank_ms);
        let bank = match bank_ms {
            Some(t) if t > 0 => Duration::from_millis(t as u64),
            _ => {
                log::warn!("bank {bank_ms:?}: answering at once");
                return Plan::INSTANT;
            }
        };
        if bank > max_bank {
            // the engine never fills the bank past its cap: trust the cap
            log::warn!("bank {bank:?} above the timebank {max_bank:?}; planning with the cap");
        }
        let per_move = Duration::from_millis(s.time_per_move_ms);
        let clock = Clock::new(bank.min(max_bank), per_move, max_bank);
        let clock = clock.with_slack(self.thinker.slack());
        let empty = board.empty_points().len();
        time::plan_move(clock, empty, board.area(), Some(own_moves_to_limit))
    }

    fn answer(&mut self, bank_ms: Option<i64>, read_at: Instant) -> String {
        let turn = self.table.begin_turn();
        let game = self.table.game();
        let plan = self.plan(bank_ms, game.board(), turn.own_moves_to_limit);
        log::info!(
            "{} to move, bank {bank_ms:?} ms, margin {:?}, {} plies left: {plan:?}",
            turn.us,
            self.thinker.slack(),
            turn.horizon.moves_left.unwrap_or(0)
        );
        let mv = self.thinker.choose(
            &game,
            turn.horizon,
            read_at + plan.soft,
            read_at + plan.hard,
            &turn.avoid,
        );
        let text = answer_text(game.board(), mv);
        self.table.play_ours(mv);
        let horizon = Horizon {
            moves_left: turn.horizon.moves_left.map(|m| m.saturating_sub(1)),
        };
        self.after_answer = Some((self.table.game(), horizon));
        log::info!("answered {text} after {:?}", read_at.elapsed());
        text
    }
}

/// Runs `bot` on stdin/stdout until end of input. Returns the exit code.
///
/// Lines are read, and stamped as they arrive, on a thread of their own:
/// while a long line is being handled the next request may already be in,
/// and its clock runs from then (a 10 MB line just before an `action` cost
/// ~770 ms that the answer's plan did not count).
pub fn run_with(mut bot: Bot) -> i32 {
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut input = std::io::stdin().lock();
            let mut buf = Vec::new();
            loop {
                let read = lines::read_line(&mut input, &mut buf);
                let more = matches!(read, Ok(Some(_)));
                let stamped = read.map(|l| l.map(|l| (l, Instant::now())));
                if tx.send(stamped).is_err() || !more {
                    return;
                }
            }
        });
    if let Err(e) = reader {
        log::warn!("cannot start the reading thread ({e}); the clock starts after each line");
        return run_inline(bot);
    }
    let mut out = std::io::stdout().lock();
    for read in rx {
        let (line, read_at) = match read {
            Ok(Some(stamped)) => stamped,
            Ok(None) => return 0,
            Err(e) => {
                log::warn!("cannot read stdin: {e}");
                return 0;
            }
        };
        if !answer(&mut bot, &mut out, &line, read_at) {
            return 0;
        }
    }
    0
}

/// [`run_with`] reading on this thread, for when no other can be started.
fn run_inline(mut bot: Bot) -> i32 {
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let mut buf = Vec::new();
    loop {
        let line = match lines::read_line(&mut input, &mut buf) {
            Ok(Some(line)) => line,
            Ok(None) => return 0,
            Err(e) => {
                log::warn!("cannot read stdin: {e}");
                return 0;
            }
        };
        if !answer(&mut bot, &mut out, &line, Instant::now()) {
            return 0;
        }
    }
}

/// Hands `line` to the bot and writes its answer, if any; false when the
/// answer cannot be written (the engine is gone).
fn answer(bot: &mut Bot, out: &mut impl Write, line: &str, read_at: Instant) -> bool {
    if let Some(answer) = bot.handle(line, read_at) {
        if let Err(e) = writeln!(out, "{answer}").and_then(|()| out.flush()) {
            log::warn!("cannot write the answer: {e}");
            return false;
        }
        bot.answered();
    }
    true
}
