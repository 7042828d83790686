//! The match's running totals and the summary: wins, the score with a
//! Wilson 95 % interval, the Elo difference with its error, the margins
//! of the counted wins, game length, timeouts and illegal moves.

use super::record::{GameRecord, Reason};
use std::collections::BTreeMap;

/// z for a two-sided 95 % interval.
const Z: f64 = 1.96;

/// Wilson score interval for a proportion `p` over `n` trials.
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference that makes `p` the expected score.
pub fn elo(p: f64) -> f64 {
    // `+ 0.0` turns -0 into 0, so an even score prints as +0
    -400.0 * (1.0 / p - 1.0).log10() + 0.0
}

/// 95 % error of [`elo`] at `p` over `n` games (delta method).
pub fn elo_error(p: f64, n: f64) -> f64 {
    Z * 400.0 / std::f64::consts::LN_10 / (n * p * (1.0 - p)).sqrt()
}

#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Names of players A and B.
    pub names: [String; 2],
    pub games: usize,
    pub wins: [usize; 2],
    pub wins_as_black: [usize; 2],
    pub draws: usize,
    pub moves: usize,
    pub timeouts: [u32; 2],
    pub illegal: [u32; 2],
    pub reasons: BTreeMap<&'static str, usize>,
    /// Games that ended in play, not by a fault (timeout, illegal move,
    /// crash): A's wins, B's wins, draws. An engine that crashes now and
    /// then (GNU Go does) would otherwise hand out wins.
    pub in_play: [usize; 3],
    /// Each player's wins on the count: how many, and their margins'
    /// sum (a change that keeps more of a won or a lost game shows here
    /// before it shows in the score).
    pub counted_wins: [(usize, f64); 2],
}

impl Summary {
    pub fn new(names: [String; 2]) -> Summary {
        Summary {
            names,
            ..Summary::default()
        }
    }

    pub fn add(&mut self, rec: &GameRecord) {
        self.games += 1;
        self.moves += rec.moves.len();
        *self.reasons.entry(rec.reason.key()).or_default() += 1;
        for c in 0..2 {
            let p = rec.seats[c];
            self.timeouts[p] += rec.sides[c].timeouts;
            self.illegal[p] += rec.sides[c].illegal;
        }
        if rec.reason == Reason::Stopped {
            return; // no result: counted in `reasons` only
        }
        match rec.winner_player() {
            Some(p) => {
                self.wins[p] += 1;
                if rec.seats[0] == p {
                    self.wins_as_black[p] += 1;
                }
            }
            None => self.draws += 1,
        }
        if !rec.reason.is_fault() {
            self.in_play[rec.winner_player().unwrap_or(2)] += 1;
        }
        if let (Some(p), Some(m)) = (rec.winner_player(), rec.margin) {
            self.counted_wins[p].0 += 1;
            self.counted_wins[p].1 += f64::from(m.abs());
        }
    }

    /// Games cut by `--stop-after`: no result, left out of the score.
    fn stopped(&self) -> usize {
        self.reasons
            .get(Reason::Stopped.key())
            .copied()
            .unwrap_or(0)
    }

    /// Games with a result: all but the cut ones.
    fn decided(&self) -> usize {
        self.games - self.stopped()
    }

    /// A's score (a draw counts half), if any game has a result.
    pub fn score(&self) -> Option<f64> {
        let n = self.decided();
        (n > 0).then(|| (self.wins[0] as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// The running score, for the progress line.
    pub fn progress(&self, total: usize) -> String {
        format!(
            "[{}/{total}] {} {} - {} {}{}",
            self.games,
            self.names[0],
            self.wins[0],
            self.wins[1],
            self.names[1],
            if self.draws > 0 {
                format!(" ({} draws)", self.draws)
            } else {
                String::new()
            }
        )
    }

    pub fn text(&self) -> String {
        let [a, b] = &self.names;
        let n = self.decided();
        let mut out = String::new();
        for p in 0..2 {
            let (w, wb) = (self.wins[p], self.wins_as_black[p]);
            out.push_str(&format!(
                "{} ({}): {w} wins ({wb} as black, {} as white)\n",
                self.names[p],
                ['A', 'B'][p],
                w - wb
            ));
        }
        out.push_str(&format!("draws: {}\n", self.draws));
        if self.stopped() > 0 {
            out.push_str(&format!(
                "cut by --stop-after: {} games, no result\n",
                self.stopped()
            ));
        }
        let Some(p) = self.score() else {
            if self.games == 0 {
                out.push_str("no game finished\n");
            } else {
                out.push_str("no game with a result\n");
                out.push_str(&self.lengths_and_faults());
            }
            return out;
        };
        let (lo, hi) = wilson(p, n as f64);
        out.push_str(&format!(
            "score of {a}: {:.1} % over {n} games (95 % CI {:.1} % - {:.1} %, Wilson)\n",
            100.0 * p,
            100.0 * lo,
            100.0 * hi
        ));
        let [wa, wb, d] = self.in_play;
        let played = wa + wb + d;
        if played < n && played > 0 {
            let p = (wa as f64 + 0.5 * d as f64) / played as f64;
            let (lo, hi) = wilson(p, played as f64);
            out.push_str(&format!(
                "without the games lost by a fault: {a} {wa} - {wb} {b}{}, score of {a} {:.1} % over {played} games (95 % CI {:.1} % - {:.1} %, Wilson)\n",
                if d > 0 { format!(" ({d} draws)") } else { String::new() },
                100.0 * p,
                100.0 * lo,
                100.0 * hi
            ));
        }
        let elo_line = if p > 0.0 && p < 1.0 {
            format!("{:+.0} +- {:.0}", elo(p), elo_error(p, n as f64))
        } else if p >= 1.0 {
            format!(
                ">= {:+.0} (all games won; bound from the Wilson interval)",
                elo(lo)
            )
        } else {
            format!(
                "<= {:+.0} (all games lost; bound from the Wilson interval)",
                elo(hi)
            )
        };
        out.push_str(&format!("Elo {a} - {b}: {elo_line} (95 %)\n"));
        let won_by: Vec<String> = (0..2)
            .filter(|&p| self.counted_wins[p].0 > 0)
            .map(|p| {
                let (k, sum) = self.counted_wins[p];
                format!("{} by {:.1} ({k})", self.names[p], sum / k as f64)
            })
            .collect();
        if !won_by.is_empty() {
            out.push_str(&format!(
                "mean margin of the wins on the count (games): {}\n",
                won_by.join(", ")
            ));
        }
        out.push_str(&self.lengths_and_faults());
        out
    }

    /// Game length, timeouts, illegal moves and how the games ended.
    fn lengths_and_faults(&self) -> String {
        let [a, b] = &self.names;
        let mut out = String::new();
        out.push_str(&format!(
            "average game length: {:.1} moves\n",
            self.moves as f64 / self.games as f64
        ));
        out.push_str(&format!(
            "timeouts: {a} {}, {b} {}\n",
            self.timeouts[0], self.timeouts[1]
        ));
        out.push_str(&format!(
            "illegal moves: {a} {}, {b} {}\n",
            self.illegal[0], self.illegal[1]
        ));
        let ends: Vec<String> = self
            .reasons
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        out.push_str(&format!("ended by: {}\n", ends.join(", ")));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Color;

    fn game(reason: Reason, black_wins: bool) -> GameRecord {
        GameRecord {
            index: 0,
            seed: 0,
            seats: [0, 1],
            names: ["a".into(), "b".into()],
            moves: Vec::new(),
            start: None,
            reason,
            detail: String::new(),
            winner: Some(if black_wins {
                Color::Black
            } else {
                Color::White
            }),
            result: String::new(),
            margin: None,
            area: None,
            sides: Default::default(),
            engines: Default::default(),
        }
    }

    #[test]
    fn a_crash_is_reported_apart() {
        let mut s = Summary::new(["a".into(), "b".into()]);
        s.add(&game(Reason::RoundLimit, false));
        let plain = s.text();
        assert!(!plain.contains("fault"), "{plain}");
        s.add(&game(Reason::Crash, true));
        s.add(&game(Reason::TwoPasses, true));
        let text = s.text();
        assert!(text.contains("score of a: 66.7 % over 3 games"), "{text}");
        assert!(
            text.contains(
                "without the games lost by a fault: a 1 - 1 b, score of a 50.0 % over 2 games"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_cut_game_stays_out_of_the_score() {
        let mut s = Summary::new(["a".into(), "b".into()]);
        s.add(&game(Reason::TwoPasses, true));
        s.add(&GameRecord {
            winner: None,
            ..game(Reason::Stopped, true)
        });
        let text = s.text();
        assert!(text.contains("score of a: 100.0 % over 1 games"), "{text}");
        assert!(text.contains("cut by --stop-after: 1 games"), "{text}");
        assert!(
            text.contains("draws: 0") && !text.contains("fault"),
            "{text}"
        );
        assert!(text.contains("ended by: stopped 1, two_passes 1"), "{text}");
    }

    #[test]
    fn the_margins_of_each_side_s_counted_wins_are_averaged() {
        let mut s = Summary::new(["a".into(), "b".into()]);
        let counted = |black_wins, margin| GameRecord {
            margin: Some(margin),
            ..game(Reason::TwoPasses, black_wins)
        };
        s.add(&counted(true, 10.5));
        s.add(&counted(true, 2.5));
        s.add(&counted(false, 30.5));
        // no count: a win, but no margin
        s.add(&game(Reason::Crash, true));
        let text = s.text();
        assert!(
            text.contains(
                "mean margin of the wins on the count (games): a by 6.5 (2), b by 30.5 (1)"
            ),
            "{text}"
        );
    }

    #[test]
    fn wilson_and_elo() {
        let (lo, hi) = wilson(0.5, 100.0);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(1.0, 10.0);
        assert!((lo - 0.7225).abs() < 1e-3 && hi == 1.0, "{lo}");
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.85).abs() < 0.1);
        // 100 games at 50 %: about +-70 Elo
        assert!((elo_error(0.5, 100.0) - 68.1).abs() < 0.5);
    }
}
