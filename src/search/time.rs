//! The time manager: how long to think on this move, from the bank the
//! engine reports. Pure arithmetic on durations; the caller owns the clock.
//!
//! The arena's clock is a bank: `T` left now, `per_move` added after every
//! answer, never more than `max_bank` (what would overflow is lost). The plan
//! splits everything still to come evenly over the moves we expect to play,
//!
//! `share = (T - reserve + (n - 1) * per_move) / n`,
//!
//! never spends less than what the cap would otherwise throw away, and never
//! plans into the reserve kept for stalls of the host (see [`reserve`]). As
//! the round limit nears, `n` falls to 1 and the last move gets the whole
//! bank but the reserve, so a game that runs to the limit ends with the bank
//! spent rather than hoarded.

use std::time::Duration;

/// Kept back from every plan at the least: reading the request, writing the
/// answer, the scheduler and the engine's own clock.
pub const MARGIN: Duration = Duration::from_millis(50);

/// The part of the bank a plan leaves alone: a tenth of the cap, at least
/// [`MARGIN`]. The plan spends the bank in the middle game, and then lives on
/// little more than the increment for many moves; a virtual machine stops a
/// process for a tenth of a second when idle and for half a second under
/// load (measured on the dev host, and seen in CI), and with only the margin
/// kept back one such stall on a spent bank loses the game. Kept back for
/// good, the reserve costs a tenth of one bank over the whole game.
/// While the host is slow the reserve widens to twice the [`Clock::slack`]
/// (at most a third of the cap), so that two such stalls in a row on a
/// spent bank still leave the answer in time.
pub fn reserve(clock: Clock) -> Duration {
    let slow = (clock.slack * 2).min(clock.max_bank / 3);
    (clock.max_bank / 10).max(MARGIN).max(slow)
}

/// What a plan may spend: the bank less the reserve. Once a stall or a
/// timeout has eaten into the reserve, half the increment (or half the bank,
/// if less, and never into the margin), so that the reserve fills up again
/// while we still search; on a host that keeps stalling, less by an eighth
/// of the slack, so that a stall every third answer is paid for.
pub fn available(clock: Clock) -> Duration {
    let refill = (clock.per_move.min(clock.bank) / 2)
        .saturating_sub(clock.slack / 8)
        .min(clock.bank.saturating_sub(MARGIN));
    clock.bank.saturating_sub(reserve(clock)).max(refill)
}

/// How far past the soft deadline a search may return before the caller
/// answers without it (on top of half the soft budget).
pub const GRACE: Duration = Duration::from_millis(50);

/// A plan shorter than this is not worth starting a search for.
pub const MIN_SEARCH: Duration = Duration::from_millis(5);

/// The clock as the engine states it when it asks for a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Left in the bank now; all of it may be spent on this move.
    pub bank: Duration,
    /// Added to the bank after each of our moves.
    pub per_move: Duration,
    /// The bank never holds more than this.
    pub max_bank: Duration,
    /// How late the host has been running us lately ([`Lateness`]); zero
    /// on a quiet host. It widens the reserve and the room a search has
    /// between its two deadlines.
    pub slack: Duration,
}

impl Clock {
    /// The engine's clock, on a quiet host.
    pub fn new(bank: Duration, per_move: Duration, max_bank: Duration) -> Clock {
        Clock {
            bank,
            per_move,
            max_bank,
            slack: Duration::ZERO,
        }
    }

    /// The same clock on a host that has been `slack` late lately.
    pub fn with_slack(self, slack: Duration) -> Clock {
        Clock { slack, ..self }
    }
}

/// How late the host runs us. A loaded virtual machine stops the whole
/// process for hundreds of milliseconds now and then; it shows as a search
/// that ends past its deadline, or an answer past the hard one. The slack
/// is the worst such lateness seen, shrinking by an eighth at every answer:
/// the plans widen their margins at once when the host stalls, and narrow
/// them again within some twenty quiet answers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lateness {
    slack: Duration,
}

impl Lateness {
    /// Lateness below this is the ordinary jitter of waking a thread.
    pub const NOISE: Duration = Duration::from_millis(10);
    /// The slack never grows past this: a longer stall is an outage, not a
    /// pace to plan for.
    pub const MAX: Duration = Duration::from_secs(2);

    /// Counts one answer that came `late` past where it was due (zero if
    /// on time).
    pub fn observe(&mut self, late: Duration) {
        let kept = self.slack - self.slack / 8;
        self.slack = if late > Self::NOISE {
            kept.max(late.min(Self::MAX))
        } else {
            kept
        };
    }

    /// The margin the plans add (see [`Clock::slack`]).
    pub fn slack(&self) -> Duration {
        self.slack
    }
}

/// Deadlines, measured from the moment the request was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The search's deadline: what we mean to spend.
    pub soft: Duration,
    /// The last moment to answer, searched or not: never into the reserve
    /// while the bank holds more, never past half the bank.
    pub hard: Duration,
}

impl Plan {
    /// Answer at once.
    pub const INSTANT: Plan = Plan {
        soft: Duration::ZERO,
        hard: Duration::ZERO,
    };

    /// A fixed budget per move (no bank known, as in GTP without time
    /// settings).
    pub fn fixed(per_move: Duration) -> Plan {
        Plan {
            soft: per_move,
            hard: per_move + per_move / 2 + GRACE,
        }
    }

    /// Whether the plan leaves no room for a search.
    pub fn is_instant(&self) -> bool {
        self.soft < MIN_SEARCH
    }
}

/// How many more moves we expect to play, this one included: half the empty
/// points plus a few (captures reopen the board), but never more than the
/// round limit allows.
pub fn own_moves_left(empty_points: usize, own_moves_to_limit: Option<usize>) -> usize {
    let by_board = empty_points / 2 + 10;
    own_moves_to_limit
        .map_or(by_board, |limit| by_board.min(limit))
        .max(1)
}

/// Over how many of our moves a plan spreads the bank (the `n` of the
/// share): the moves until the board is 70 % full, plus a few, but never
/// more than we expect to play. With a steady increment, time saved in the
/// bank can only be spent later; spread over the whole game, the bank was
/// still half full when the board reached 70 % in matches against GNU Go,
/// and it went to the last moves, which rarely decide anything, while the
/// late middle game, where the groups live or die, got less than the
/// increment. Once the board is that full the bank is spread over a few
/// moves only, so whatever an early stop leaves in it is spent soon.
/// Without an increment, pass [`own_moves_left`] itself: a bank spent early
/// would leave the rest of the game nothing.
pub fn spread_over(empty_points: usize, area: usize, own_moves_left: usize) -> usize {
    let open = empty_points.saturating_sub(area * 3 / 10);
    (open / 2 + 10).min(own_moves_left).max(1)
}

/// How much of an even share a move deserves at this stage, from the part
/// of the board still empty: the opening a little more than the even share,
/// the middle game more, the late middle game still more than the
/// increment, the endgame the even share. Never less: with a bank that
/// fills up again, time saved on one move is only ever spent on a later one,
/// so a weight under 1 just hoards for the last moves of the game.
/// The plan is recomputed from the bank at every move, so what one phase
/// takes the next one lacks, and the bank still bounds every plan.
pub fn phase_weight(empty: usize, area: usize) -> f64 {
    let empty_share = empty as f64 / area.max(1) as f64;
    if empty_share > 0.85 {
        1.2
    } else if empty_share > 0.5 {
        1.6
    } else if empty_share > 0.3 {
        1.3
    } else {
        1.0
    }
}

/// The plan for a move on a board with `empty` of its `area` points empty,
/// at most `own_moves_to_limit` of our moves before a round limit: the
/// arena bot and GTP both plan with this. With an increment the bank is
/// spread until the board is mostly full ([`spread_over`]); without one,
/// over every move still expected. The share is weighted by the phase.
pub fn plan_move(
    clock: Clock,
    empty: usize,
    area: usize,
    own_moves_to_limit: Option<usize>,
) -> Plan {
    let n = own_moves_left(empty, own_moves_to_limit);
    let n = if clock.per_move.is_zero() {
        n
    } else {
        spread_over(empty, area, n)
    };
    plan_weighted(clock, n, phase_weight(empty, area))
}

/// The deadlines for this move, given the clock and the number of our moves
/// still to play (this one included): an even share of what is to come.
pub fn plan(clock: Clock, moves_left: usize) -> Plan {
    plan_weighted(clock, moves_left, 1.0)
}

/// [`plan`], with the even share scaled by `weight` (see [`phase_weight`]).
pub fn plan_weighted(clock: Clock, moves_left: usize, weight: f64) -> Plan {
    let avail = available(clock);
    if avail < MIN_SEARCH {
        return Plan::INSTANT;
    }
    let n = moves_left.max(1) as u32;
    let share = ((avail + clock.per_move * (n - 1)) / n).mul_f64(weight.clamp(0.1, 10.0));
    // Whatever would push the next bank over its cap is lost unless spent now.
    let overflow = (clock.bank + clock.per_move).saturating_sub(clock.max_bank);
    // The search stops at `soft` and then still has to choose and report:
    // a soft deadline at the hard one (the whole bank, on the last moves)
    // would make it miss every time. Keep some room, a fifth of a short
    // bank at least, more on a slow host.
    let room = (GRACE + clock.slack).min(avail / 5);
    let soft = share.max(overflow).min(avail - room);
    // on a slow host a search that was stopped is waited for a little
    // longer: its move is better than the fallback's
    let hard = (soft + soft / 2 + GRACE + clock.slack).min(avail);
    Plan { soft, hard }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Empty points before our `k`-th move (from 0), as the board filled in
    /// 14 games against GNU Go level 10 (the mean at every 25th move):
    /// captures keep it open long after move 200.
    fn empty_before_own_move(k: usize) -> usize {
        const SEEN: [usize; 11] = [361, 315, 268, 222, 180, 145, 110, 95, 75, 60, 60];
        let (i, j) = (k / 25, k % 25);
        if i + 1 >= SEEN.len() {
            return SEEN[SEEN.len() - 1];
        }
        SEEN[i] - (SEEN[i] - SEEN[i + 1]) * j / 25
    }

    /// Plays a game against the arena's bank rule: asked `requests` times,
    /// spending `spend(plan)` each time. Returns (used, available) in ms and
    /// checks that no answer ever came after the bank ran out.
    fn simulate(
        bank: u64,
        per_move: u64,
        max_rounds: usize,
        requests: usize,
        black: bool,
        spend: impl Fn(Plan, usize) -> Duration,
    ) -> (u64, u64) {
        let mut left = ms(bank);
        let mut used = Duration::ZERO;
        for k in 0..requests {
            let round = k + 1;
            // white moves second, onto one more stone
            let empty = empty_before_own_move(k) - usize::from(!black);
            let to_limit = max_rounds.saturating_sub(round).max(1);
            let n = spread_over(empty, 361, own_moves_left(empty, Some(to_limit)));
            let clock = Clock::new(left, ms(per_move), ms(bank));
            let p = plan_weighted(clock, n, phase_weight(empty, 361));
            let avail = available(clock);
            // the search gets room to finish between the two deadlines
            assert!(
                p.soft + GRACE.min(avail / 5) <= p.hard,
                "move {round}: {p:?}"
            );
            // the reserve is left alone, and at worst half the bank is kept
            assert!(
                p.hard + reserve(clock) <= left || p.hard <= left / 2,
                "move {round}: {p:?} {left:?}"
            );
            let spent = spend(p, k);
            assert!(spent < left, "move {round}: spent {spent:?} of {left:?}");
            used += spent;
            left = (left - spent + ms(per_move)).min(ms(bank));
        }
        (used.as_millis() as u64, bank + per_move * requests as u64)
    }

    #[test]
    fn a_full_game_uses_the_bank() {
        for black in [true, false] {
            for requests in [249, 250] {
                let (used, total) = simulate(10_000, 200, 250, requests, black, |p, _| p.soft);
                assert!(
                    used * 100 >= total * 80,
                    "used {used} of {total} (black {black}, {requests} moves)"
                );
                assert!(used <= total);
            }
        }
    }

    /// The mean time spent in ms over each 25 of our moves, when each
    /// search uses `percent` of its soft deadline (the rest is an early stop).
    fn spent_by_quarter_hundred(percent: u32) -> Vec<u64> {
        let spent = std::cell::RefCell::new(Vec::new());
        simulate(10_000, 200, 250, 249, true, |p, _| {
            let t = p.soft * percent / 100;
            spent.borrow_mut().push(t.as_millis() as u64);
            t
        });
        let spent = spent.into_inner();
        spent
            .chunks(25)
            .map(|c| c.iter().sum::<u64>() / c.len() as u64)
            .collect()
    }

    #[test]
    fn the_middle_game_gets_more_than_the_endgame() {
        let spent_all = spent_by_quarter_hundred(100);
        // our first 75 moves lie in the opening and middle game of the
        // simulated board; then the bank is spent, and the increment is left
        for m in &spent_all[..3] {
            assert!(*m > 250, "{spent_all:?}");
        }
        assert!(spent_all[3..].iter().all(|&m| m <= 210), "{spent_all:?}");
        assert_eq!(phase_weight(361, 361), 1.2);
        assert_eq!(phase_weight(200, 361), 1.6);
        assert_eq!(phase_weight(150, 361), 1.3);
        assert_eq!(phase_weight(100, 361), 1.0);
    }

    #[test]
    fn the_bank_goes_to_the_late_middle_game_not_to_the_last_moves() {
        // Searches stop early when the best move is clear; in matches they
        // used about 70 % of their plans. What they leave in the bank must
        // reach our moves 100-150 (game moves 200-300, where groups live or
        // die), not wait for the round limit.
        let spent_most = spent_by_quarter_hundred(70);
        assert!(spent_most[4] > 200 && spent_most[5] > 200, "{spent_most:?}");
        assert!(spent_most[9] < 250, "{spent_most:?}");
    }

    #[test]
    fn the_bank_is_spread_until_the_board_is_seventy_percent_full() {
        assert_eq!(spread_over(361, 361, 190), 136);
        assert_eq!(spread_over(180, 361, 100), 46);
        assert_eq!(spread_over(100, 361, 60), 10);
        // never past the moves we expect to play
        assert_eq!(spread_over(361, 361, 40), 40);
        assert_eq!(spread_over(0, 361, 0), 1);
        // 9x9: until 24 points are empty
        assert_eq!(spread_over(81, 81, 50), 38);
    }

    #[test]
    fn running_to_the_hard_deadline_never_overdraws() {
        for (bank, per_move, rounds) in [(10_000, 200, 250), (10_000, 500, 200), (2_000, 100, 250)]
        {
            simulate(bank, per_move, rounds, rounds, true, |p, _| p.hard);
            // a search that overshoots now and then
            simulate(bank, per_move, rounds, rounds - 1, false, |p, k| {
                if k % 3 == 0 {
                    p.hard
                } else {
                    p.soft
                }
            });
        }
    }

    #[test]
    fn a_stall_of_the_host_on_top_of_the_hard_deadline_never_overdraws() {
        // the search runs to the hard deadline and then the host stops us
        // for the longest stall seen in CI, at any one move of a game on
        // the arena's clock
        for stalled in 0..250 {
            simulate(10_000, 200, 250, 250, stalled % 2 == 0, |p, k| {
                if k == stalled {
                    p.hard + ms(450)
                } else {
                    p.soft
                }
            });
        }
    }

    #[test]
    fn the_reserve_is_a_tenth_of_the_cap_and_refills_once_touched() {
        let c = |bank, max_bank| Clock::new(ms(bank), ms(200), ms(max_bank));
        assert_eq!(reserve(c(10_000, 10_000)), ms(1_000));
        assert_eq!(available(c(10_000, 10_000)), ms(9_000));
        assert_eq!(reserve(c(200, 200)), MARGIN);
        // a stall took part of the reserve: half the increment is spent
        assert_eq!(available(c(1_050, 10_000)), ms(100));
        assert_eq!(available(c(600, 10_000)), ms(100));
        // a timeout left less than the increment: half of it
        assert_eq!(available(c(120, 10_000)), ms(60));
    }

    #[test]
    fn lateness_widens_at_once_and_narrows_by_an_eighth_an_answer() {
        let mut l = Lateness::default();
        l.observe(ms(5));
        assert_eq!(l.slack(), Duration::ZERO, "jitter is no lateness");
        l.observe(ms(400));
        assert_eq!(l.slack(), ms(400));
        l.observe(ms(100));
        assert_eq!(l.slack(), ms(350));
        l.observe(Duration::ZERO);
        assert_eq!(l.slack(), ms(306) + Duration::from_micros(250));
        for _ in 0..30 {
            l.observe(Duration::ZERO);
        }
        assert!(l.slack() < Lateness::NOISE, "{l:?}");
        l.observe(ms(60_000));
        assert_eq!(l.slack(), Lateness::MAX);
    }

    #[test]
    fn a_slow_host_widens_the_reserve_and_the_room_between_the_deadlines() {
        let quiet = Clock::new(ms(10_000), ms(200), ms(10_000));
        let slow = quiet.with_slack(ms(800));
        assert_eq!(reserve(quiet), ms(1_000));
        assert_eq!(reserve(slow), ms(1_600));
        // never more than a third of the cap
        assert_eq!(reserve(quiet.with_slack(Lateness::MAX)), ms(10_000) / 3);
        let (p, q) = (plan(quiet, 50), plan(slow, 50));
        assert!(q.soft <= p.soft, "{p:?} {q:?}");
        assert_eq!(q.hard - q.soft, q.soft / 2 + GRACE + ms(800));
        // on the last move, the soft deadline keeps the slack clear of the hard one
        let last = plan(slow, 1);
        assert_eq!(last.hard, ms(10_000) - ms(1_600));
        assert_eq!(last.soft, last.hard - GRACE - ms(800));
    }

    #[test]
    fn a_host_that_stalls_now_and_then_never_overdraws() {
        // every `every`-th answer the host stops us for 450 ms once the
        // search is done, past the hard deadline; the plans follow the
        // lateness seen, as the bot's do
        for every in [3, 5, 10] {
            for black in [true, false] {
                let mut late = Lateness::default();
                let mut left = ms(10_000);
                for k in 0..250 {
                    let empty = empty_before_own_move(k) - usize::from(!black);
                    let clock = Clock::new(left, ms(200), ms(10_000)).with_slack(late.slack());
                    let p = plan_move(clock, empty, 361, Some(250 - k));
                    let spent = if k % every == every - 1 {
                        p.hard + ms(450)
                    } else {
                        p.soft
                    };
                    assert!(
                        spent < left,
                        "every {every}, move {k}: {spent:?} of {left:?}"
                    );
                    late.observe(spent.saturating_sub(p.hard));
                    left = (left - spent + ms(200)).min(ms(10_000));
                }
            }
        }
    }

    #[test]
    fn the_old_starter_kit_clock_is_used_too() {
        let (used, total) = simulate(10_000, 500, 200, 199, true, |p, _| p.soft);
        assert!(used * 100 >= total * 80, "used {used} of {total}");
    }

    #[test]
    fn an_empty_or_negative_bank_answers_at_once() {
        let c = Clock::new(ms(30), ms(200), ms(10_000));
        assert_eq!(plan(c, 100), Plan::INSTANT);
        assert!(plan(c, 100).is_instant());
        let c = Clock {
            bank: Duration::ZERO,
            ..c
        };
        assert_eq!(plan(c, 1), Plan::INSTANT);
    }

    #[test]
    fn the_last_move_gets_the_whole_bank() {
        let c = Clock::new(ms(6_000), ms(200), ms(10_000));
        let p = plan(c, 1);
        assert_eq!(p.hard, ms(6_000) - reserve(c));
        assert_eq!(p.hard, ms(5_000));
        // the search stops early enough to answer by the hard deadline
        assert_eq!(p.soft, p.hard - GRACE);
        // with less left than the reserve, half of it is kept and a fifth
        // of the rest is the room
        let short = plan(Clock { bank: ms(150), ..c }, 1);
        assert_eq!((short.soft, short.hard), (ms(60), ms(75)));
    }

    #[test]
    fn a_full_bank_spends_at_least_the_increment() {
        let c = Clock::new(ms(10_000), ms(200), ms(10_000));
        // even when expecting a very long game
        assert!(plan(c, 10_000).soft >= ms(200));
    }

    #[test]
    fn moves_left_follow_board_and_round_limit() {
        assert_eq!(own_moves_left(361, None), 190);
        assert_eq!(own_moves_left(361, Some(40)), 40);
        assert_eq!(own_moves_left(0, Some(0)), 1);
        assert_eq!(own_moves_left(0, None), 10);
    }

    #[test]
    fn fixed_plans_leave_grace() {
        let p = Plan::fixed(ms(1000));
        assert_eq!(p.soft, ms(1000));
        assert_eq!(p.hard, ms(1550));
    }
}
