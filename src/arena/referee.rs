//! One game, refereed as the arena does it: settings, then each turn the
//! updates and `action move T` to the player to move, its answer judged,
//! the timebank kept, and the end decided by passes, the round limit, the
//! lack of moves or a fault.

use super::arena_bot::ArenaBot;
use super::gtp_player::GtpBot;
use super::player::{Player, Reply, Seat, Turn};
use super::process::Process;
use super::record::{GameRecord, MoveRec, Reason, SideStats};
use super::rules::{self, Marks};
use super::spec::{log_name, GameConfig, PlayerSpec};
use super::start::Start;
use super::sys::Stop;
use crate::go::{self, Color, Game, Move};
use crate::protocol::field::Dialect;
use std::path::Path;
use std::time::{Duration, Instant};

/// One game of the match.
pub struct GameJob<'a> {
    pub index: usize,
    pub seed: u64,
    /// Which player (0 = A, 1 = B) has black.
    pub black: usize,
    pub players: &'a [PlayerSpec; 2],
    pub out: &'a Path,
    /// The recorded moves the game begins with (`--from`).
    pub start: Option<&'a Start>,
}

/// Plays one game. `Ok(None)`: the match stopped before it ended. `Err`: a
/// player could not be started at all, or the start's moves do not replay
/// (the match cannot go on).
pub fn play(cfg: &GameConfig, job: &GameJob, stop: &Stop) -> Result<Option<GameRecord>, String> {
    let mut game = rules::new_game(cfg.size, cfg.komi, cfg.rules);
    let mut moves = Vec::new();
    if let Some(start) = job.start {
        // checked when the match began: the moves replay
        start.replay(&mut game)?;
        for (k, &(color, xy)) in start.moves.iter().enumerate() {
            let note = match k {
                0 => format!(
                    "moves 1-{} replayed from {}",
                    start.moves.len(),
                    start.source
                ),
                _ => "replayed".to_string(),
            };
            moves.push(MoveRec {
                color,
                xy,
                ms: 0,
                note,
            });
        }
    }
    let seats = [job.black, 1 - job.black];
    let specs = seats.map(|s| &job.players[s]);
    let mut bots: Vec<Box<dyn Player>> = Vec::new();
    for c in [Color::Black, Color::White] {
        let settings = settings_lines(cfg, c);
        let log = job.out.join(log_name(job.index, specs[c.index()].label));
        let seat = Seat {
            spec: specs[c.index()],
            settings: &settings,
            size: cfg.size,
            komi: cfg.komi,
            bank_ms: cfg.bank_ms,
            hang: Duration::from_millis(cfg.hang_ms),
            log: &log,
            seed: job.seed,
        };
        match start_player(&seat, stop) {
            Ok(b) => bots.push(b),
            Err(_) if stop.is_set() => return Ok(None),
            Err(e) => return Err(e),
        }
    }
    let mut marks = Marks::default();
    marks.update(&game);
    let mut referee = Referee {
        cfg,
        specs,
        bots,
        turns: game.moves().len(),
        game,
        marks,
        bank: [cfg.bank_ms; 2],
        sides: Default::default(),
        moves,
        stop: stop.clone(),
    };
    let end = referee.run();
    // The game is over: close both inputs, give the bots a moment to exit
    // on their own (none when stopping), then kill what is left.
    let grace = if end.is_some() { 300 } else { 0 };
    for b in &mut referee.bots {
        b.finish();
    }
    let until = Instant::now() + Duration::from_millis(grace);
    for b in &mut referee.bots {
        b.reap(until);
    }
    // asked after the game: a bot's log is complete once it is gone
    Ok(end.map(|(reason, loser, detail)| referee.record(job, seats, reason, loser, detail)))
}

/// The `settings` lines a player receives, in the arena's order.
pub fn settings_lines(cfg: &GameConfig, c: Color) -> Vec<String> {
    let names = rules::player_names(cfg.dialect);
    let ids = rules::bot_ids(cfg.dialect);
    vec![
        format!("settings timebank {}", cfg.bank_ms),
        format!("settings time_per_move {}", cfg.per_move_ms),
        format!("settings player_names {},{}", names[0], names[1]),
        format!("settings your_bot {}", names[c.index()]),
        format!("settings your_botid {}", ids[c.index()]),
        format!("settings field_width {}", cfg.size),
        format!("settings field_height {}", cfg.size),
        format!("settings max_rounds {}", cfg.max_rounds),
    ]
}

/// How a turn went.
enum Step {
    Next,
    /// The game is over: why, who lost by a fault, in words.
    Over(Reason, Option<Color>, String),
    Stopped,
}

type End = (Reason, Option<Color>, String);

struct Referee<'a> {
    cfg: &'a GameConfig,
    /// Black's and white's players.
    specs: [&'a PlayerSpec; 2],
    bots: Vec<Box<dyn Player>>,
    game: Game,
    /// Turns taken, lost ones included: they count toward the round limit.
    turns: usize,
    marks: Marks,
    bank: [u64; 2],
    sides: [SideStats; 2],
    moves: Vec<MoveRec>,
    stop: Stop,
}

impl Referee<'_> {
    /// Plays turns until the game ends; `None` if the match stopped.
    fn run(&mut self) -> Option<End> {
        loop {
            if self.stop.is_set() {
                return None;
            }
            let n = self.turns;
            let round = (n / 2 + 1) as u32;
            if round >= self.cfg.max_rounds {
                let why = format!("round {round} reached the limit");
                return Some((Reason::RoundLimit, None, why));
            }
            if self.cfg.stop_after.is_some_and(|r| round >= r) {
                let why = format!("cut at round {round} (--stop-after)");
                return Some((Reason::Stopped, None, why));
            }
            if rules::nobody_can_move(&self.game) {
                let why = "no legal move for either player".to_string();
                return Some((Reason::NoLegalMove, None, why));
            }
            match self.turn(round, n + 1) {
                Step::Next => {}
                Step::Over(reason, loser, why) => return Some((reason, loser, why)),
                Step::Stopped => return None,
            }
        }
    }

    /// The `update` lines of a turn.
    fn updates(&self, round: u32, move_no: usize) -> Vec<String> {
        let d = self.cfg.dialect;
        let names = rules::player_names(d);
        let points = rules::points(&self.game);
        let mut lines = vec![format!("update game round {round}")];
        if d == Dialect::TheAiGames {
            lines.push(format!("update game move {move_no}"));
        }
        let field = rules::field_text(&self.game, d, &self.marks);
        lines.push(format!("update game field {field}"));
        for (name, v) in names.iter().zip(points) {
            lines.push(format!("update {name} points {}", rules::points_text(v)));
        }
        lines
    }

    fn turn(&mut self, round: u32, move_no: usize) -> Step {
        let c = self.game.to_move();
        let ci = c.index();
        let who = format!("{c} ({})", self.specs[ci].name);
        let clocked = self.specs[ci].clock;
        let updates = self.updates(round, move_no);
        let mut note = String::new();
        let mut retry = false;
        let (text, ms) = loop {
            let (shown, limit) = if clocked {
                (self.bank[ci], self.bank[ci])
            } else {
                (self.cfg.bank_ms, self.cfg.hang_ms)
            };
            let turn = Turn {
                game: &self.game,
                color: c,
                updates: &updates,
                bank_ms: shown,
                limit: Duration::from_millis(limit),
                retry,
            };
            match self.bots[ci].ask(&turn) {
                Reply::Answer { text, ms, stale } => {
                    for line in stale {
                        note.push_str(&format!("dropped stale output {line:?}; "));
                    }
                    break (text, ms);
                }
                Reply::Timeout => {
                    let side = &mut self.sides[ci];
                    side.timeouts += 1;
                    if clocked {
                        // the whole bank went by: only the increment is left
                        self.bank[ci] = self.cfg.per_move_ms.min(self.cfg.bank_ms);
                    }
                    let miss = format!("no answer within {limit} ms");
                    if side.timeouts >= self.cfg.max_timeouts {
                        let n = side.timeouts;
                        let why =
                            format!("{who} timed out at move {move_no} ({miss}; timeout {n})");
                        return Step::Over(Reason::Timeout, Some(c), why);
                    }
                    note.push_str(&format!("{miss}, asked again; "));
                    retry = true;
                }
                Reply::Crash(why) => {
                    let why = format!("{who} failed at move {move_no}: {why}");
                    return Step::Over(Reason::Crash, Some(c), why);
                }
                Reply::Resign => {
                    let why = format!("{who} resigned at move {move_no}");
                    return Step::Over(Reason::Resign, Some(c), why);
                }
                Reply::Stopped => return Step::Stopped,
            }
        };
        if clocked {
            let left = self.bank[ci].saturating_sub(ms) + self.cfg.per_move_ms;
            self.bank[ci] = left.min(self.cfg.bank_ms);
        }
        self.sides[ci].times.push(ms);
        let ruling = rules::parse_answer(self.game.board(), &text).and_then(|mv| {
            rules::judge(&self.game, mv)
                .map(|()| mv)
                .map_err(|why| format!("{:?}: {why}", text.trim()))
        });
        self.turns += 1;
        let mv = match ruling {
            Ok(mv) => Some(mv),
            Err(why) => {
                self.sides[ci].illegal += 1;
                if self.cfg.rules.is_riddles() {
                    // the Riddles.io referee restores the board: a lost turn
                    note.push_str(&format!("refused {why}, turn lost; "));
                    None
                } else if self.cfg.illegal_pass {
                    note.push_str(&format!("illegal {why}, counted as a pass; "));
                    Some(Move::Pass)
                } else {
                    let why = format!("{who} played an illegal move at move {move_no}: {why}");
                    return Step::Over(Reason::Illegal, Some(c), why);
                }
            }
        };
        let xy = mv.and_then(|m| m.point()).map(|p| self.game.board().xy(p));
        match mv {
            Some(mv) => {
                self.game.play(mv).expect("the move was judged legal");
            }
            None => self.game.lose_turn(),
        }
        self.marks.update(&self.game);
        let note = note.trim_end_matches("; ").to_string();
        self.moves.push(MoveRec {
            color: c,
            xy,
            ms,
            note,
        });
        match self.game.end() {
            None => Step::Next,
            Some(end) => {
                let reason = match end {
                    go::End::TwoPasses => Reason::TwoPasses,
                    go::End::OwnPasses => Reason::OwnPasses,
                    go::End::KoRetake => Reason::KoRetake,
                    go::End::BoardFull => Reason::BoardFull,
                };
                Step::Over(reason, None, format!("{end} (move {move_no}, {who})"))
            }
        }
    }

    fn record(
        &self,
        job: &GameJob,
        seats: [usize; 2],
        reason: Reason,
        loser: Option<Color>,
        detail: String,
    ) -> GameRecord {
        let (winner, result, margin, area) = match loser {
            None if reason == Reason::Stopped => (None, "Void".to_string(), None, None),
            Some(l) if !reason.counted() => {
                let w = l.opp();
                let word = match reason {
                    Reason::Timeout => "Time",
                    Reason::Resign => "Resign",
                    _ => "Forfeit",
                };
                (Some(w), format!("{}+{word}", w.letter()), None, None)
            }
            _ => {
                let s = self.game.board().area_score(self.game.counted_komi());
                let area = Some((s.black, s.white));
                (s.winner(), s.result(), Some(s.margin()), area)
            }
        };
        let mut sides = self.sides.clone();
        for c in [Color::Black, Color::White] {
            let clocked = self.specs[c.index()].clock;
            sides[c.index()].bank_left = clocked.then_some(self.bank[c.index()]);
        }
        GameRecord {
            index: job.index,
            seed: job.seed,
            seats,
            names: self.specs.map(|s| s.name.clone()),
            moves: self.moves.clone(),
            start: job.start.map(|s| s.source.clone()),
            reason,
            detail,
            winner,
            result,
            margin,
            area,
            sides,
            engines: [0, 1].map(|c| self.bots[c].engine()),
        }
    }
}

/// Starts a player's process for one game.
fn start_player(seat: &Seat, stop: &Stop) -> Result<Box<dyn Player>, String> {
    // Bots get no seed through the protocol; the environment is harmless.
    let env = [("TENGEN_ARENA_SEED", seat.seed.to_string())];
    let process = Process::spawn(&seat.spec.argv, seat.log, &env)
        .map_err(|e| format!("player {}: {e}", seat.spec.label))?;
    if seat.spec.gtp {
        let bot = GtpBot::start(process, seat, stop.clone())
            .map_err(|e| format!("player {} (GTP): {e}", seat.spec.label))?;
        return Ok(Box::new(bot));
    }
    Ok(Box::new(ArenaBot::start(process, seat, stop.clone())))
}
