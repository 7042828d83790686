//! One CodinGame game: each bot started when its first turn comes, its
//! initial lines then each turn's lines sent, every answer timed from the
//! `done` stamp of the line against the moment the turn's input went out
//! (the first against the process start), and the first fault (a late or
//! refused answer, a crash) losing the game at once.

use crate::arena::process::{Process, Wait};
use crate::arena::spec::log_name;
use crate::arena::spec::PlayerSpec;
use crate::arena::sys::Stop;
use crate::games::referee::Refereed;
use crate::games::registry::Entry;
use std::path::Path;
use std::time::{Duration, Instant};

/// How long past a deadline the referee still waits: the verdict is the
/// line's own stamp, and a line stamped in time may reach the referee a
/// little after the deadline.
const GRACE: Duration = Duration::from_millis(50);

/// How long a finished game's bots may take to exit by themselves.
const EXIT_GRACE: Duration = Duration::from_millis(300);

/// The limits and the players of every game of a match.
pub struct Table<'a> {
    pub game: Entry,
    pub players: &'a [PlayerSpec; 2],
    pub first: Duration,
    pub turn: Duration,
    pub out: &'a Path,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    /// Played to the end.
    End,
    /// Stopped by the referee's own limit on turns (a draw).
    Limit,
    Timeout,
    Illegal,
    Crash,
}

impl Reason {
    pub fn key(self) -> &'static str {
        match self {
            Reason::End => "end",
            Reason::Limit => "limit",
            Reason::Timeout => "timeout",
            Reason::Illegal => "illegal",
            Reason::Crash => "crash",
        }
    }
}

/// The median of `times` (the mean of the middle two for an even count).
pub fn median(times: &[u64]) -> Option<u64> {
    let mut t = times.to_vec();
    t.sort_unstable();
    match t.len() {
        0 => None,
        n if n % 2 == 1 => Some(t[n / 2]),
        n => Some((t[n / 2 - 1] + t[n / 2]) / 2),
    }
}

/// A seat's answer times, in ms.
#[derive(Clone, Debug, Default)]
pub struct Times {
    pub first: Option<u64>,
    pub later: Vec<u64>,
}

impl Times {
    pub fn later_max(&self) -> Option<u64> {
        self.later.iter().copied().max()
    }
    pub fn later_median(&self) -> Option<u64> {
        median(&self.later)
    }
    /// Adds an answer time: the first, or a later one.
    fn push(&mut self, ms: u64) {
        match self.first {
            None => self.first = Some(ms),
            Some(_) => self.later.push(ms),
        }
    }
    pub fn answers(&self) -> usize {
        usize::from(self.first.is_some()) + self.later.len()
    }
}

/// A finished game. Arrays are in seat order (seat 0 moved first).
#[derive(Clone, Debug)]
pub struct Record {
    pub index: usize,
    pub seed: u64,
    /// The player (0 = A, 1 = B) in each seat.
    pub seats: [usize; 2],
    /// The players' names in seat order.
    pub names: [String; 2],
    pub seat_names: [&'static str; 2],
    pub reason: Reason,
    /// The seat that faulted, for a game not played to the end.
    pub fault: Option<usize>,
    /// The winning seat; `None`: a draw.
    pub winner: Option<usize>,
    /// What happened, in words.
    pub detail: String,
    /// The final state in one line.
    pub state: String,
    pub turns: u32,
    /// The accepted answers, as the game writes them.
    pub moves: Vec<String>,
    pub times: [Times; 2],
    /// The game's own fields for the JSON line.
    pub fields: Vec<(String, String)>,
}

impl Record {
    /// The player (0 = A, 1 = B) who won, if anyone did.
    pub fn winner_player(&self) -> Option<usize> {
        self.winner.map(|s| self.seats[s])
    }
    pub fn fault_player(&self) -> Option<usize> {
        self.fault.map(|s| self.seats[s])
    }
}

/// A bot in its seat: started at its first turn.
struct Bot {
    process: Process,
    started: Instant,
    /// Whether it has had a turn: the first answer has its own limit.
    answered: bool,
}

/// How a game stopped short of its end: the faulting seat and why, or the
/// match stopping.
enum Cut {
    Fault(usize, Reason, String),
    Stopped,
}

/// Plays game `index` (0-based): player A sits in seat 0 in even games.
/// `Ok(None)`: the match stopped first. `Err`: a bot could not be started
/// at all (the match cannot go on).
pub fn play(table: &Table, index: usize, seed: u64, stop: &Stop) -> Result<Option<Record>, String> {
    play_game(table, table.game.new_game(seed), index, seed, stop)
}

/// Plays `game` as game `index` of `table`: [`play`] with the game given
/// (the tests give games set up near their end).
pub fn play_game(
    table: &Table,
    mut game: Box<dyn Refereed>,
    index: usize,
    seed: u64,
    stop: &Stop,
) -> Result<Option<Record>, String> {
    let seats = [index % 2, 1 - index % 2];
    let mut bots: [Option<Bot>; 2] = [None, None];
    let mut moves = Vec::new();
    let mut times: [Times; 2] = Default::default();
    let mut cut = None;
    while !game.is_over() {
        match turn(table, index, seed, seats, &mut *game, &mut bots, stop) {
            Ok(Answer { seat, text, ms }) => {
                times[seat].push(ms);
                moves.push(text);
            }
            Err(Step::Spawn(e)) => {
                reap(&mut bots, Duration::ZERO);
                return Err(e);
            }
            Err(Step::Refused(seat, ms, why)) => {
                // a refused answer still came in its time
                times[seat].push(ms);
                cut = Some(Cut::Fault(seat, Reason::Illegal, why));
                break;
            }
            Err(Step::Cut(c)) => {
                cut = Some(c);
                break;
            }
        }
    }
    let stopped = matches!(cut, Some(Cut::Stopped));
    reap(&mut bots, if stopped { Duration::ZERO } else { EXIT_GRACE });
    let (reason, fault, winner, detail) = match cut {
        Some(Cut::Stopped) => return Ok(None),
        Some(Cut::Fault(seat, reason, why)) => (reason, Some(seat), Some(1 - seat), why),
        None => {
            let winner = game.outcome().expect("the game is over");
            let names = game.seat_names();
            let why = match winner {
                Some(s) => format!("{} ({}) won", names[s], table.players[seats[s]].name),
                None => "draw".to_string(),
            };
            if game.at_limit() {
                let why = format!("{why} at the turn limit ({} turns)", game.turns());
                (Reason::Limit, None, winner, why)
            } else {
                (Reason::End, None, winner, why)
            }
        }
    };
    Ok(Some(Record {
        index,
        seed,
        seats,
        names: seats.map(|p| table.players[p].name.clone()),
        seat_names: game.seat_names(),
        reason,
        fault,
        winner,
        detail,
        state: game.describe(),
        turns: game.turns(),
        moves,
        times,
        fields: game.json_fields(),
    }))
}

/// An accepted answer: the seat, the move as the record writes it, the
/// answer time in ms.
struct Answer {
    seat: usize,
    text: String,
    ms: u64,
}

/// How a turn failed: a bot that could not be started (fatal to the
/// match), an answer refused (with its seat and time), or the game cut.
enum Step {
    Spawn(String),
    Refused(usize, u64, String),
    Cut(Cut),
}

/// Plays one turn: starts the bot to move if it is new, sends its lines,
/// waits for the answer and plays it.
fn turn(
    table: &Table,
    index: usize,
    seed: u64,
    seats: [usize; 2],
    game: &mut dyn Refereed,
    bots: &mut [Option<Bot>; 2],
    stop: &Stop,
) -> Result<Answer, Step> {
    if stop.is_set() {
        return Err(Step::Cut(Cut::Stopped));
    }
    let seat = game.to_move();
    let spec = &table.players[seats[seat]];
    let who = format!("{} ({})", game.seat_names()[seat], spec.name);
    let turn_no = game.turns() + 1;
    let fault = |reason, why: String| Step::Cut(Cut::Fault(seat, reason, why));
    let mut lines = Vec::new();
    if bots[seat].is_none() {
        // Started now rather than with the game: the first limit counts
        // from the process start, and a bot started early would lose the
        // opponent's first turn from it.
        let log = table.out.join(log_name(index, spec.label));
        let env = [("TENGEN_ARENA_SEED", seed.to_string())];
        let started = Instant::now();
        let process = match Process::spawn(&spec.argv, &log, &env) {
            Ok(p) => p,
            Err(_) if stop.is_set() => return Err(Step::Cut(Cut::Stopped)),
            Err(e) => return Err(Step::Spawn(format!("player {}: {e}", spec.label))),
        };
        bots[seat] = Some(Bot {
            process,
            started,
            answered: false,
        });
        lines = game.initial_lines(seat);
    }
    let bot = bots[seat].as_mut().expect("started above");
    lines.extend(game.turn_lines());
    for line in &lines {
        if let Err(e) = bot.process.send(line) {
            return Err(fault(
                Reason::Crash,
                format!("{who} at turn {turn_no}: {e}"),
            ));
        }
    }
    let (since, limit) = match bot.answered {
        false => (bot.started, table.first),
        true => (Instant::now(), table.turn),
    };
    bot.answered = true;
    let line = match bot.process.recv(Some(since + limit + GRACE), stop) {
        Wait::Line(line) => line,
        Wait::Timeout => {
            let why = format!(
                "{who} gave no answer at turn {turn_no} within {} ms",
                limit.as_millis()
            );
            return Err(fault(Reason::Timeout, why));
        }
        Wait::Eof => {
            let note = bot.process.exit_note(Duration::from_millis(200));
            let why = format!("{who} stopped at turn {turn_no}: {note}");
            return Err(fault(Reason::Crash, why));
        }
        Wait::Stopped => return Err(Step::Cut(Cut::Stopped)),
    };
    // A line written before this turn's input is still this turn's answer,
    // as on CodinGame, which reads the bots' lines in order: 0 ms.
    let took = line.done.saturating_duration_since(since);
    let ms = took.as_millis() as u64;
    if took > limit {
        let why = format!(
            "{who} answered at turn {turn_no} in {:.1} ms, over the {} ms limit",
            took.as_secs_f64() * 1000.0,
            limit.as_millis()
        );
        return Err(fault(Reason::Timeout, why));
    }
    match game.apply(&line.text) {
        Ok(text) => Ok(Answer { seat, text, ms }),
        Err(why) => Err(Step::Refused(
            seat,
            ms,
            format!("{who} at turn {turn_no}: {why}"),
        )),
    }
}

/// Closes the bots' input (the game is over), gives them `grace` to exit,
/// then kills what is left.
fn reap(bots: &mut [Option<Bot>; 2], grace: Duration) {
    for bot in bots.iter_mut().flatten() {
        bot.process.close();
    }
    let until = Instant::now() + grace;
    for bot in bots.iter_mut().flatten() {
        bot.process.reap(until);
    }
}
