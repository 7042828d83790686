//! GTP's clock (`time_settings`, `time_left`: main time, then Canadian
//! byo-yomi) turned into the bank the time manager plans with.

use crate::search::time::{self, Clock, Plan};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Settings {
    main: Duration,
    byo_time: Duration,
    byo_stones: u32,
}

#[derive(Clone, Debug)]
pub struct GtpClock {
    /// Used while no time settings (or "no limit") are in force.
    pub default_move_time: Duration,
    settings: Option<Settings>,
    /// Time left and stones left in the period (0: still in main time).
    left: (Duration, u32),
}

/// Seconds as GTP sends them; controllers may send decimals.
pub fn seconds(text: &str) -> Option<Duration> {
    let s: f64 = text.parse().ok()?;
    (0.0..1e9).contains(&s).then(|| Duration::from_secs_f64(s))
}

impl GtpClock {
    pub fn new(default_move_time: Duration) -> GtpClock {
        GtpClock {
            default_move_time,
            settings: None,
            left: (Duration::ZERO, 0),
        }
    }

    /// `time_settings main byo_time byo_stones`. A byo-yomi time with no
    /// stones means no limit.
    pub fn set(&mut self, main: Duration, byo_time: Duration, byo_stones: u32) {
        if main.is_zero() && !byo_time.is_zero() && byo_stones == 0 {
            self.settings = None;
            return;
        }
        self.settings = Some(Settings {
            main,
            byo_time,
            byo_stones,
        });
        self.left = if main.is_zero() {
            (byo_time, byo_stones)
        } else {
            (main, 0)
        };
    }

    /// `time_left color time stones`.
    pub fn set_left(&mut self, time: Duration, stones: u32) {
        self.left = (time, stones);
    }

    /// Counts a move's time ourselves, for controllers that never send
    /// `time_left`.
    pub fn spent(&mut self, d: Duration) {
        let Some(s) = self.settings else { return };
        let (t, stones) = self.left;
        let t = t.saturating_sub(d);
        self.left = match stones {
            0 if t.is_zero() && s.byo_stones > 0 => (s.byo_time, s.byo_stones),
            0 => (t, 0),
            1 => (s.byo_time, s.byo_stones),
            n => (t, n - 1),
        };
    }

    /// The deadlines for a move, with `empty` of `area` points empty, on a
    /// host that has been `slack` late lately ([`time::Lateness`]).
    pub fn plan(&self, empty: usize, area: usize, slack: Duration) -> Plan {
        let Some(s) = self.settings else {
            return Plan::fixed(self.default_move_time);
        };
        let (t, stones) = self.left;
        if stones > 0 {
            // a byo-yomi period: its time shared by its stones
            let clock = Clock::new(t, Duration::ZERO, t).with_slack(slack);
            return time::plan(clock, stones as usize);
        }
        // main time; when it runs out a byo-yomi period starts, so one
        // stone's share of it can be counted on as well
        let per_stone = match s.byo_stones {
            0 => Duration::ZERO,
            n => s.byo_time / n,
        };
        let bank = t + per_stone;
        let clock = Clock::new(bank, per_stone, bank);
        // main time spent early would leave sudden death nothing: without
        // byo-yomi (no increment) it is spread over the whole game
        time::plan_move(clock.with_slack(slack), empty, area, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn without_settings_a_fixed_budget() {
        let c = GtpClock::new(s(1));
        assert_eq!(c.plan(361, 361, Duration::ZERO), Plan::fixed(s(1)));
        let mut c = GtpClock::new(s(1));
        c.set(s(0), s(5), 0);
        assert_eq!(c.plan(361, 361, Duration::ZERO), Plan::fixed(s(1)));
    }

    #[test]
    fn byo_yomi_shares_the_period() {
        let mut c = GtpClock::new(s(1));
        c.set(s(0), s(10), 5);
        let p = c.plan(361, 361, Duration::ZERO);
        // a tenth of the period is kept back: 9 s over 5 stones
        assert_eq!(p.soft, Duration::from_millis(1800));
        assert!(p.hard < s(10));
        c.set_left(Duration::from_millis(900), 1);
        assert!(c.plan(361, 361, Duration::ZERO).hard <= Duration::from_millis(850));
    }

    #[test]
    fn main_time_is_spread_and_counted() {
        let mut c = GtpClock::new(s(1));
        c.set(s(60), s(0), 0);
        let p = c.plan(81, 81, Duration::ZERO);
        assert!(p.soft > Duration::ZERO && p.soft < s(3), "{p:?}");
        c.spent(s(59));
        c.spent(s(5));
        assert_eq!(c.plan(81, 81, Duration::ZERO), Plan::INSTANT);
        // with byo-yomi after main time, running out of main starts a period
        let mut c = GtpClock::new(s(1));
        c.set(s(1), s(30), 10);
        c.spent(s(2));
        assert_eq!(c.left, (s(30), 10));
        c.spent(s(1));
        assert_eq!(c.left, (s(29), 9));
    }

    #[test]
    fn seconds_are_read() {
        assert_eq!(seconds("1.5"), Some(Duration::from_millis(1500)));
        assert_eq!(seconds("-1"), None);
        assert_eq!(seconds("inf"), None);
    }
}
