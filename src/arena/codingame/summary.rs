//! What a CodinGame match leaves: one JSON line per game for
//! `games.jsonl`, and the running totals behind `summary.txt` (wins, A's
//! score with its Wilson interval, faults by kind, the slowest answers).

use super::referee::{median, Reason, Record, Times};
use crate::arena::json::string;
use crate::arena::spec::log_name;
use crate::arena::spec::PlayerSpec;
use crate::arena::stats::wilson;
use std::collections::BTreeMap;

fn int(v: Option<u64>) -> String {
    v.map_or_else(|| "null".to_string(), |x| x.to_string())
}

fn label(p: usize) -> String {
    ['A', 'B'][p].to_string()
}

fn opt_str(v: Option<String>) -> String {
    v.map_or_else(|| "null".to_string(), |s| string(&s))
}

fn times(t: &Times) -> String {
    format!(
        "{{\"answers\":{},\"first_ms\":{},\"later_max_ms\":{},\"later_median_ms\":{}}}",
        t.answers(),
        int(t.first),
        int(t.later_max()),
        int(t.later_median())
    )
}

/// The line for one game (no newline). Seat-named keys (`black`,
/// `black_player`, `black_times`) follow the game's names for its seats.
pub fn game_line(rec: &Record, game: &str, players: &[PlayerSpec; 2]) -> String {
    let [s0, s1] = rec.seat_names;
    let winner = rec.winner_player();
    let fault = rec.fault_player();
    let moves: Vec<String> = rec.moves.iter().map(|m| string(m)).collect();
    let logs = [0, 1].map(|p| string(&log_name(rec.index, players[p].label)));
    let mut fields = vec![
        ("game".to_string(), (rec.index + 1).to_string()),
        ("kind".to_string(), string(game)),
        ("seed".to_string(), rec.seed.to_string()),
        (s0.to_string(), string(&rec.names[0])),
        (s1.to_string(), string(&rec.names[1])),
        (format!("{s0}_player"), string(&label(rec.seats[0]))),
        (format!("{s1}_player"), string(&label(rec.seats[1]))),
        (
            "winner".to_string(),
            opt_str(winner.map(|p| players[p].name.clone())),
        ),
        ("winner_player".to_string(), opt_str(winner.map(label))),
        (
            "winner_seat".to_string(),
            opt_str(rec.winner.map(|s| rec.seat_names[s].to_string())),
        ),
        ("reason".to_string(), string(rec.reason.key())),
        ("fault".to_string(), opt_str(fault.map(label))),
        ("detail".to_string(), string(&rec.detail)),
        ("state".to_string(), string(&rec.state)),
        ("turns".to_string(), rec.turns.to_string()),
    ];
    fields.extend(rec.fields.iter().cloned());
    fields.extend([
        ("moves".to_string(), format!("[{}]", moves.join(","))),
        (format!("{s0}_times"), times(&rec.times[0])),
        (format!("{s1}_times"), times(&rec.times[1])),
        (
            "logs".to_string(),
            format!("{{\"A\":{},\"B\":{}}}", logs[0], logs[1]),
        ),
    ]);
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{v}", string(k)))
        .collect();
    format!("{{{}}}", body.join(","))
}

/// The faults counted per player, in this order.
const FAULTS: [Reason; 3] = [Reason::Timeout, Reason::Illegal, Reason::Crash];

/// The match's running totals; arrays by player (0 = A, 1 = B).
#[derive(Clone, Debug)]
pub struct Summary {
    pub names: [String; 2],
    /// The game's names for its seats: "as black", "as white".
    pub seat_names: [&'static str; 2],
    pub games: usize,
    pub wins: [usize; 2],
    /// Wins from seat 0 (the first to move).
    pub wins_first: [usize; 2],
    pub draws: usize,
    pub turns: u64,
    /// Timeouts, illegal answers and crashes ([`FAULTS`]).
    pub faults: [[usize; 3]; 2],
    pub reasons: BTreeMap<&'static str, usize>,
    pub first_max: [Option<u64>; 2],
    pub later: [Vec<u64>; 2],
}

impl Summary {
    pub fn new(names: [String; 2], seat_names: [&'static str; 2]) -> Summary {
        Summary {
            names,
            seat_names,
            games: 0,
            wins: [0; 2],
            wins_first: [0; 2],
            draws: 0,
            turns: 0,
            faults: [[0; 3]; 2],
            reasons: BTreeMap::new(),
            first_max: [None; 2],
            later: Default::default(),
        }
    }

    pub fn add(&mut self, rec: &Record) {
        self.games += 1;
        self.turns += u64::from(rec.turns);
        *self.reasons.entry(rec.reason.key()).or_default() += 1;
        match rec.winner_player() {
            Some(p) => {
                self.wins[p] += 1;
                if rec.seats[0] == p {
                    self.wins_first[p] += 1;
                }
            }
            None => self.draws += 1,
        }
        if let Some(p) = rec.fault_player() {
            if let Some(k) = FAULTS.iter().position(|&r| r == rec.reason) {
                self.faults[p][k] += 1;
            }
        }
        for seat in 0..2 {
            let p = rec.seats[seat];
            let t = &rec.times[seat];
            self.first_max[p] = self.first_max[p].max(t.first);
            self.later[p].extend(&t.later);
        }
    }

    /// A's score (a draw counts half), if any game finished.
    pub fn score(&self) -> Option<f64> {
        let n = self.games;
        (n > 0).then(|| (self.wins[0] as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// The running score, for the progress line.
    pub fn progress(&self, total: usize) -> String {
        format!(
            "[{}/{total}] {} {} - {} {} ({} draws)",
            self.games, self.names[0], self.wins[0], self.wins[1], self.names[1], self.draws
        )
    }

    pub fn text(&self) -> String {
        let [a, b] = &self.names;
        let [s0, s1] = self.seat_names;
        let mut out = String::new();
        for p in 0..2 {
            let (w, wf) = (self.wins[p], self.wins_first[p]);
            out.push_str(&format!(
                "{} ({}): {w} wins ({wf} as {s0}, {} as {s1})\n",
                self.names[p],
                label(p),
                w - wf
            ));
        }
        out.push_str(&format!("draws: {}\n", self.draws));
        let Some(p) = self.score() else {
            out.push_str("no game finished\n");
            return out;
        };
        let n = self.games;
        let (lo, hi) = wilson(p, n as f64);
        out.push_str(&format!(
            "score of {a}: {:.1} % over {n} games (95 % CI {:.1} % - {:.1} %, Wilson)\n",
            100.0 * p,
            100.0 * lo,
            100.0 * hi
        ));
        out.push_str(&format!(
            "average game length: {:.1} turns\n",
            self.turns as f64 / n as f64
        ));
        let ends: Vec<String> = self
            .reasons
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        out.push_str(&format!("ended by: {}\n", ends.join(", ")));
        let faults = |p: usize| {
            let f = self.faults[p];
            format!(
                "{} timeout {}, illegal {}, crash {}",
                self.names[p], f[0], f[1], f[2]
            )
        };
        out.push_str(&format!("faults: {}; {}\n", faults(0), faults(1)));
        let ms = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |x| format!("{x} ms"));
        out.push_str(&format!(
            "slowest first answer (process start included): {a} {}, {b} {}\n",
            ms(self.first_max[0]),
            ms(self.first_max[1])
        ));
        let later = |p: usize| {
            let t = &self.later[p];
            let slowest = t.iter().copied().max();
            format!(
                "{} {} (median {})",
                self.names[p],
                ms(slowest),
                ms(median(t))
            )
        };
        out.push_str(&format!(
            "slowest later answer: {}, {}\n",
            later(0),
            later(1)
        ));
        out
    }
}
