//! An answer by the deadline, whatever the search does, for the arena bot
//! and GTP. The search runs on the [`Deadline`] thread, which keeps its
//! searcher from move to move; the caller waits for it until the hard
//! deadline and answers without it if it must. A panic in the search is
//! caught and the searcher rebuilt; a move the rules refuse is replaced by
//! the fallback.
//!
//! Between our answer and the next request the searcher may ponder: search
//! the position on the opponent's time, keeping the tree for the next move.
//! The next request raises its stop flag and queues its own search behind
//! it; the pondering search stops within a playout.

use super::deadline::{Deadline, Make, Missed};
use super::fallback::{candidates, fallback};
use crate::deps::log;
use crate::games::go::{Config, Searcher, Stats};
use crate::go::{Game, Move, Point};
use crate::search::time::{self, Lateness};
use crate::search::{Budget, Horizon};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Deep recursion in a tree search copies boards on the stack; if the system
/// refuses this much, the default stack is tried.
const WORKER_STACK: usize = 64 << 20;
/// Pondering stops by itself after this long, in case no request comes
/// (the game is over and the engine has not closed our input yet).
const PONDER_MAX: Duration = Duration::from_secs(60);

/// What the worker runs: the searcher, or a stand-in in tests.
pub trait Think {
    /// A move for `game`, never a point of `avoid` (see
    /// [`Searcher::think_avoiding`]).
    fn think(
        &mut self,
        game: &Game,
        horizon: Horizon,
        budget: Budget,
        avoid: &[Point],
    ) -> (Move, Stats);

    /// Searches `game` on the opponent's time until `stop` is raised or
    /// `budget` is spent (see [`Searcher::ponder`]). Nothing, by default.
    fn ponder(&mut self, _game: &Game, _horizon: Horizon, _budget: Budget, _stop: &AtomicBool) {}
}

impl Think for Searcher {
    fn think(
        &mut self,
        game: &Game,
        horizon: Horizon,
        budget: Budget,
        avoid: &[Point],
    ) -> (Move, Stats) {
        Searcher::think_avoiding(self, game, horizon, budget, avoid)
    }

    fn ponder(&mut self, game: &Game, horizon: Horizon, budget: Budget, stop: &AtomicBool) {
        Searcher::ponder(self, game, horizon, budget, stop);
    }
}

/// Builds a searcher on the worker thread (so it need not be `Send`).
pub type Maker = Make<Box<dyn Think>>;

pub struct Thinker {
    search: Deadline<Box<dyn Think>>,
    /// Whether to ponder after answering.
    pondering: bool,
    /// How late the host has been running our searches and answers.
    lateness: Lateness,
}

impl Thinker {
    /// Starts the worker at once, so the first move does not pay for it.
    pub fn new(config: Config) -> Thinker {
        let pondering = config.ponder;
        let mut t = Thinker::with(Arc::new(move || {
            Box::new(Searcher::new(config.clone())) as Box<dyn Think>
        }));
        t.pondering = pondering;
        t
    }

    /// A thinker running whatever `make` builds, not pondering.
    pub fn with(make: Maker) -> Thinker {
        Thinker {
            search: Deadline::new(make, Some(WORKER_STACK)),
            pondering: false,
            lateness: Lateness::default(),
        }
    }

    /// Whether [`Thinker::ponder`] searches.
    pub fn set_pondering(&mut self, on: bool) {
        self.pondering = on;
    }

    /// Starts searching `game` (the opponent to move) on the opponent's
    /// time, if pondering is on, until the next request.
    pub fn ponder(&mut self, game: &Game, horizon: Horizon) {
        self.stop_pondering();
        if !self.pondering {
            return;
        }
        let (game, until) = (game.clone(), Instant::now() + PONDER_MAX);
        self.search.background(move |s, stop| {
            s.ponder(&game, horizon, Budget::until(until), stop);
        });
    }

    /// How late the host has been running us lately: plan with it
    /// ([`time::Clock::slack`]).
    pub fn slack(&self) -> Duration {
        self.lateness.slack()
    }

    /// Tells the pondering search, if any, to stop; does not wait for it.
    pub fn stop_pondering(&mut self) {
        self.search.stop_background();
    }

    /// A legal move for the side to move in `game`, never one of `avoid`
    /// (unless passing), answered by `hard`. The search runs until `soft`.
    /// How late the answer comes, past `hard` or the search past its own
    /// deadline, goes into [`Thinker::slack`].
    pub fn choose(
        &mut self,
        game: &Game,
        horizon: Horizon,
        soft: Instant,
        hard: Instant,
        avoid: &[Point],
    ) -> Move {
        let (mv, overran) = self.choose_now(game, horizon, soft, hard, avoid);
        let late = Instant::now().saturating_duration_since(hard).max(overran);
        let before = self.lateness.slack();
        self.lateness.observe(late);
        if late > Lateness::NOISE {
            log::warn!(
                "{late:?} late: the host is slow; margin now {:?} (was {before:?})",
                self.lateness.slack()
            );
        }
        mv
    }

    /// [`Thinker::choose`], with how far past its deadline the search
    /// returned (zero when there was none).
    fn choose_now(
        &mut self,
        game: &Game,
        horizon: Horizon,
        soft: Instant,
        hard: Instant,
        avoid: &[Point],
    ) -> (Move, Duration) {
        self.stop_pondering();
        let b = game.board();
        match candidates(game, avoid).as_slice() {
            [] => {
                log::info!("no legal move: pass");
                return (Move::Pass, Duration::ZERO);
            }
            // our own true eye: filling it is never better than passing
            [p] if b.is_eye(b.to_move(), *p) => return (Move::Pass, Duration::ZERO),
            // a lone safe move; a lone self-atari is weighed against passing
            [p] if b.captures_at(b.to_move(), *p) || b.liberties_after(b.to_move(), *p, 2) >= 2 => {
                log::info!("forced move {:?}", b.xy(*p));
                return (Move::Play(*p), Duration::ZERO);
            }
            _ => {}
        }
        if soft.saturating_duration_since(Instant::now()) < time::MIN_SEARCH {
            log::info!("no time to search");
            return (fallback(game, avoid), Duration::ZERO);
        }
        let (answer, overran) = self.search(game, horizon, soft, hard, avoid);
        match answer {
            Ok((mv, stats)) => {
                let refused = mv.point().is_some_and(|p| avoid.contains(&p));
                if game.is_legal(mv) && !refused {
                    log::info!(
                        "{} playouts in {:?}, winrate {:.3}, {} nodes, {} network evaluations",
                        stats.playouts,
                        stats.elapsed,
                        stats.winrate,
                        stats.nodes,
                        stats.net_evaluations
                    );
                    return (mv, overran);
                }
                log::warn!(
                    "the search chose {mv:?}, which is illegal or was refused here; falling back"
                );
            }
            Err(why) => log::warn!("{why}; falling back"),
        }
        (fallback(game, avoid), overran)
    }

    /// The search's answer, and how far past its deadline it came.
    fn search(
        &mut self,
        game: &Game,
        horizon: Horizon,
        soft: Instant,
        hard: Instant,
        avoid: &[Point],
    ) -> (Result<(Move, Stats), Missed>, Duration) {
        let (game, avoid) = (game.clone(), avoid.to_vec());
        let asked = self.search.ask(
            move |s| {
                let moved = s.think(&game, horizon, Budget::until(soft), &avoid);
                (moved, Instant::now().saturating_duration_since(soft))
            },
            hard,
        );
        match asked {
            Ok((moved, overran)) => (Ok(moved), overran),
            // the search's deadline lay GRACE or more before this one
            Err(Missed::Late) => (Err(Missed::Late), time::GRACE),
            Err(e) => (Err(e), Duration::ZERO),
        }
    }
}

#[cfg(test)]
mod tests;
