//! The search loops: simulations on a tree until the budget is spent, a
//! stop flag is raised, or the best move can no longer change; on a value
//! network also once the best move holds most of the visits
//! ([`grow_valued`]).

use super::puct::{Puct, Valued};
use super::rng::Rng;
use super::tree::{SearchGame, Tree};
use super::Budget;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How a [`grow`] spreads its simulations and when it stops.
#[derive(Clone, Copy, Default)]
pub struct Grow<'a> {
    /// An action that gets at least one simulation in this many: one the
    /// selection would never try while others look as good (Go's pass,
    /// late in the game, which no AMAF count lifts).
    pub forced: Option<(u16, u64)>,
    /// Every other simulation goes through this action (while pondering,
    /// the opponent's expected reply).
    pub focus: Option<u16>,
    /// Stop when raised (pondering); with it, the search never stops early.
    pub stop: Option<&'a AtomicBool>,
}

/// The clock is read every this many simulations: a playout in a position
/// full of ladders can take milliseconds on a loaded machine.
pub const CLOCK_EVERY: u64 = 8;

/// Runs simulations from `state`, the root of `tree`, until the budget is
/// spent, `how.stop` is raised, or (with no stop flag) the best move is
/// out of reach. `t0` is when the simulations began, for the rate. Returns
/// the number run.
pub fn grow<G: SearchGame>(
    tree: &mut Tree<G>,
    state: &G,
    rng: &mut Rng,
    budget: &Budget,
    how: Grow,
    t0: Instant,
) -> u64 {
    let mut playouts = 0u64;
    let limit = budget.playouts.unwrap_or(u64::MAX);
    while playouts < limit {
        let forced_due = how.forced.filter(|&(action, share)| {
            tree.children()
                .iter()
                .find(|c| c.action == action)
                .is_some_and(|c| (c.playouts as u64) * share < playouts)
        });
        let first = match how.focus {
            _ if forced_due.is_some() => forced_due.map(|(a, _)| a),
            Some(a) if playouts.is_multiple_of(2) => Some(a),
            _ => None,
        };
        tree.simulate_through(state, rng, first);
        playouts += 1;
        if let Some(stop) = how.stop {
            // the opponent's move is in: every playout counts now
            let over = budget.deadline.is_some_and(|d| Instant::now() >= d);
            if stop.load(Ordering::Relaxed) || over {
                break;
            }
        } else if playouts.is_multiple_of(CLOCK_EVERY) && should_stop(tree, budget, playouts, t0) {
            break;
        }
    }
    playouts
}

/// Whether to stop now: at the deadline, or when the runner-up cannot
/// catch the best move ([`out_of_reach`]). `t0` is when the playouts began.
fn should_stop<G: SearchGame>(tree: &Tree<G>, budget: &Budget, done: u64, t0: Instant) -> bool {
    let now = Instant::now();
    let to_go = match budget.deadline {
        Some(d) if now >= d => return true,
        Some(d) => Some((now.duration_since(t0), d.duration_since(now))),
        None => None,
    };
    let (mut first, mut second) = (0u32, 0u32);
    for c in tree.children() {
        if c.playouts > first {
            second = first;
            first = c.playouts;
        } else if c.playouts > second {
            second = c.playouts;
        }
    }
    out_of_reach(first - second, done, to_go, budget.playouts)
}

/// Whether a lead of `gap` playouts at the root can no longer change hands:
/// the playouts still to come, from the `limit` or from the rate so far
/// over the time to go (`(elapsed, left)`), are fewer than the gap.
/// The rate counts only the time the `done` playouts took, from
/// [`RATE_SAMPLE`] of them on: counting the time a big tree took to reuse
/// made a search look slow and stop after 8 playouts.
fn out_of_reach(
    gap: u32,
    done: u64,
    to_go: Option<(Duration, Duration)>,
    limit: Option<u64>,
) -> bool {
    let by_limit = limit.map_or(u64::MAX, |l| l.saturating_sub(done));
    let remaining = match to_go {
        // too few playouts to tell the rate: one slow one (a long ladder, a
        // page fault in a fresh tree) would stop the search
        Some(_) if done < RATE_SAMPLE => by_limit,
        Some((elapsed, left)) => {
            let rate = done as f64 / elapsed.as_secs_f64().max(1e-6);
            ((rate * left.as_secs_f64()) as u64).min(by_limit)
        }
        None => by_limit,
    };
    gap as u64 > remaining
}

/// Simulations on the value tree `tree` from `state`, its root, until the
/// budget is spent or `how.stop` is raised. `how.forced` and `how.focus`
/// as [`grow`]'s. Returns the number run.
pub fn grow_valued<G: Valued>(
    tree: &mut Puct,
    state: &G,
    budget: &Budget,
    how: Grow,
    t0: Instant,
) -> u64 {
    let mut sims = 0u64;
    let limit = budget.playouts.unwrap_or(u64::MAX);
    while sims < limit {
        let forced_due = how.forced.filter(|&(action, share)| {
            tree.children()
                .iter()
                .find(|c| c.action == action)
                .is_some_and(|c| (c.visits as u64) * share < sims)
        });
        let first = match how.focus {
            _ if forced_due.is_some() => forced_due.map(|(a, _)| a),
            Some(a) if sims.is_multiple_of(2) => Some(a),
            _ => None,
        };
        if tree.simulate(state, first).is_none() {
            break; // no network for this position: nothing to grow
        }
        sims += 1;
        if let Some(stop) = how.stop {
            let over = budget.deadline.is_some_and(|d| Instant::now() >= d);
            if stop.load(Ordering::Relaxed) || over {
                break;
            }
        } else if valued_should_stop(budget, sims, t0) {
            break;
        }
    }
    sims
}

/// Whether a timed value search stops now: at the deadline, or before a
/// simulation that would end late. Stopping once the runner-up could not
/// catch the best move measured no gain (docs/measurements.md): the time
/// goes into the tree the next move reuses.
fn valued_should_stop(budget: &Budget, done: u64, t0: Instant) -> bool {
    let Some(d) = budget.deadline else {
        return false; // a count is spent in full, as KataGo's maxPlayouts
    };
    let now = Instant::now();
    now >= d || would_overrun(now.duration_since(t0), d.duration_since(now), done)
}

/// Whether the next simulation, at the mean time of the `done` before it,
/// would end further past the deadline than stopping now ends before it.
/// One evaluation of a big net is tens of milliseconds: begun anyway, the
/// answer comes late and the plans' margin for lateness widens.
fn would_overrun(spent: Duration, left: Duration, done: u64) -> bool {
    done >= 2 && left * 2 < spent / done.min(u32::MAX as u64) as u32
}

/// Playouts before the rate of a timed search is trusted to stop it early:
/// the first ones after a long ponder walk a big, cold tree, several times
/// slower than the rest.
const RATE_SAMPLE: u64 = 256;

#[cfg(test)]
mod tests {
    use super::super::puct::{Evaluation, PuctConfig, Utility};
    use super::super::tree::{Amaf, Prior};
    use super::*;

    /// One move of three ends the game; the first wins, the others lose.
    #[derive(Clone)]
    struct Pick(Option<u16>);

    impl SearchGame for Pick {
        fn actions(&self) -> usize {
            3
        }
        fn to_move(&self) -> u8 {
            self.0.map_or(0, |_| 1)
        }
        fn is_over(&self) -> bool {
            self.0.is_some()
        }
        fn expand(&self, _: &mut Vec<Prior>) {
            unreachable!("the value tree expands from the policy")
        }
        fn play(&mut self, action: u16) {
            self.0 = Some(action);
        }
        fn amaf_action(&self, _: u16) -> bool {
            false
        }
        fn playout(&mut self, _: &mut Rng, _: &mut Amaf) -> f32 {
            unreachable!("the value tree plays no playouts")
        }
    }

    impl Valued for Pick {
        fn evaluate(&self, _: bool, policy: &mut Vec<(u16, f32)>) -> Option<Evaluation> {
            let win = match self.0 {
                Some(a) => (a == 0) as u8 as f32,
                None => {
                    policy.extend([(0, 0.8), (1, 0.1), (2, 0.1)]);
                    0.5
                }
            };
            Some(Evaluation {
                win,
                score: 0.0,
                score_stdev: 0.0,
            })
        }
    }

    #[test]
    fn a_count_of_evaluations_is_spent_in_full_though_the_move_is_sure() {
        let mut tree = Puct::new(0, PuctConfig::default(), Utility::WIN);
        let budget = Budget::playouts(60);
        let sims = grow_valued(
            &mut tree,
            &Pick(None),
            &budget,
            Grow::default(),
            Instant::now(),
        );
        assert_eq!(sims, 60);
        assert_eq!(tree.best_child().map(|c| c.action), Some(0));
        // a deadline far off does not stop it early either
        let mut tree = Puct::new(0, PuctConfig::default(), Utility::WIN);
        let far = Budget {
            deadline: Some(Instant::now() + Duration::from_secs(3600)),
            playouts: Some(60),
        };
        let sims = grow_valued(
            &mut tree,
            &Pick(None),
            &far,
            Grow::default(),
            Instant::now(),
        );
        assert_eq!(sims, 60);
    }

    #[test]
    fn a_timed_search_runs_to_its_deadline_though_the_move_is_sure() {
        let mut tree = Puct::new(0, PuctConfig::default(), Utility::WIN);
        let t0 = Instant::now();
        let deadline = t0 + Duration::from_millis(60);
        let budget = Budget {
            deadline: Some(deadline),
            playouts: None,
        };
        let sims = grow_valued(&mut tree, &Pick(None), &budget, Grow::default(), t0);
        assert_eq!(tree.best_child().map(|c| c.action), Some(0));
        // the winning move led by far from the first simulations on; the
        // search stopped at the deadline, or early by less than half of a
        // simulation's mean time (a stalled host makes that long)
        let now = Instant::now();
        let left = deadline.saturating_duration_since(now);
        let mean = now.duration_since(t0) / sims as u32;
        assert!(left <= Duration::from_millis(5) || left * 2 < mean);
    }

    #[test]
    fn a_simulation_that_would_end_late_is_not_begun() {
        let ms = Duration::from_millis;
        // 6 simulations of 60 ms each: 20 ms left is too little, 40 enough
        assert!(would_overrun(ms(360), ms(20), 6));
        assert!(!would_overrun(ms(360), ms(40), 6));
        // a small net's 3 ms simulations use the time to the last ms
        assert!(!would_overrun(ms(300), ms(2), 100));
        // one simulation tells nothing yet (it may have paid for a reuse)
        assert!(!would_overrun(ms(300), ms(1), 1));
    }

    #[test]
    fn the_lead_is_out_of_reach_only_when_the_playouts_to_come_cannot_close_it() {
        let ms = Duration::from_millis;
        // a search that reused a big tree, as logged in a match: 8 playouts
        // in 1 ms, 290 ms to go, a lead of 684 (the whole search once gave
        // up here, counting the 6 ms the reuse took as search time)
        assert!(!out_of_reach(684, 8, Some((ms(1), ms(290))), None));
        assert!(!out_of_reach(684, 8, Some((ms(7), ms(290))), None));
        // with a rate known: 640 playouts in 70 ms, 120 ms to go: ~1 100 more
        assert!(out_of_reach(1_410, 640, Some((ms(70), ms(120))), None));
        assert!(!out_of_reach(1_000, 640, Some((ms(70), ms(120))), None));
        // a playout budget alone, and both: the smaller bound counts
        assert!(out_of_reach(101, 900, None, Some(1_000)));
        assert!(!out_of_reach(100, 900, None, Some(1_000)));
        assert!(out_of_reach(
            101,
            900,
            Some((ms(90), ms(1_000))),
            Some(1_000)
        ));
        // before the rate is trusted, the limit still counts
        assert!(out_of_reach(60, 50, Some((ms(1), ms(1_000))), Some(100)));
        // no bound at all: never
        assert!(!out_of_reach(u32::MAX, 5, None, None));
    }
}
