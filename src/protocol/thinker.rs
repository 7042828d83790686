//! An answer by the deadline, whatever the search does. The search runs on a
//! worker thread that keeps its searcher from move to move; the caller waits
//! for it until the hard deadline and answers without it if it must. A panic
//! in the search is caught and the searcher rebuilt; a move the rules refuse
//! is replaced by the fallback.
//!
//! Between our answer and the next request the worker may ponder: search
//! the position on the opponent's time, keeping the tree for the next move.
//! The next request raises its stop flag and queues its own search behind
//! it; the pondering search stops within a playout.

use super::fallback::{candidates, fallback};
use crate::deps::log;
use crate::games::go::{Config, Searcher, Stats};
use crate::go::{Game, Move, Point};
use crate::search::time::{self, Lateness};
use crate::search::{Budget, Horizon};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Deep recursion in a tree search copies boards on the stack; if the system
/// refuses this much, the default stack is tried.
const WORKER_STACK: usize = 64 << 20;
/// Searches still running a turn late that we leave to finish on their
/// own (each holds a core until its deadline, which it sees as soon as it
/// runs again). With this many still busy, a turn is answered without a
/// search; once one finishes, it is counted back and the next turn
/// searches again.
const MAX_STRAGGLERS: usize = 2;
/// How long a turn waits for a search that missed the last one: it has seen
/// its deadline pass as soon as it ran again and stops within a playout,
/// keeping its tree, unless the host still holds it back.
const LATE_WAIT: Duration = Duration::from_millis(20);
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
pub type Maker = Arc<dyn Fn() -> Box<dyn Think> + Send + Sync>;

struct Job {
    id: u64,
    game: Game,
    horizon: Horizon,
    kind: Kind,
}

enum Kind {
    /// Choose a move, never one of `avoid`: search until `soft`, unless
    /// `hard` has passed.
    Think {
        soft: Instant,
        hard: Instant,
        avoid: Vec<Point>,
    },
    /// Search until `stop` is raised or `until` passes; choose nothing.
    Ponder {
        stop: Arc<AtomicBool>,
        until: Instant,
    },
}

struct Outcome {
    id: u64,
    answer: Result<(Move, Stats), String>,
    /// How far past its deadline a search returned.
    overran: Duration,
}

struct Worker {
    jobs: Sender<Job>,
    done: Receiver<Outcome>,
    /// Jobs sent whose outcome has not come back yet.
    pending: usize,
    /// The pondering job, while its outcome has not come back: the last
    /// job sent, so whatever is queued next runs as soon as it stops.
    ponder: Option<u64>,
}

impl Worker {
    /// Counts an outcome that came back.
    fn returned(&mut self, id: u64) {
        self.pending -= 1;
        if self.ponder == Some(id) {
            self.ponder = None;
        }
    }

    /// Waits up to `patience` for the outcomes still due; false if some
    /// are still out (or the thread is gone: then `usize::MAX` jobs count
    /// as pending, never done).
    fn wait(&mut self, patience: Duration) -> bool {
        let until = Instant::now() + patience;
        while self.pending != 0 {
            let left = until.saturating_duration_since(Instant::now());
            match self.done.recv_timeout(left) {
                Ok(o) => self.returned(o.id),
                Err(RecvTimeoutError::Timeout) => return false,
                Err(RecvTimeoutError::Disconnected) => {
                    self.pending = usize::MAX;
                    return false;
                }
            }
        }
        true
    }

    /// Counts the outcomes that came back since, without waiting.
    fn drain(&mut self) {
        self.wait(Duration::ZERO);
    }
}

pub struct Thinker {
    make: Maker,
    worker: Option<Worker>,
    /// Workers left running a search a turn late, until it ends.
    stragglers: Vec<Worker>,
    next_id: u64,
    /// Whether to ponder after answering.
    pondering: bool,
    /// The stop flag of the pondering job, while it may be running.
    ponder_stop: Option<Arc<AtomicBool>>,
    /// How late the host has been running our searches and answers.
    lateness: Lateness,
}

fn panic_message(e: Box<dyn std::any::Any + Send>) -> String {
    e.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| e.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}

/// Runs `f` on the searcher (built first if there is none), catching a
/// panic: the searcher is then dropped, since whatever state it was left in
/// is not to be trusted.
fn guarded<T>(
    searcher: &mut Option<Box<dyn Think>>,
    make: &Maker,
    f: impl FnOnce(&mut dyn Think) -> T,
) -> Result<T, String> {
    let run = panic::catch_unwind(AssertUnwindSafe(|| {
        f(searcher.get_or_insert_with(|| make()).as_mut())
    }));
    run.map_err(|e| {
        *searcher = None;
        panic_message(e)
    })
}

fn work(make: Maker, jobs: Receiver<Job>, done: Sender<Outcome>) {
    let mut searcher: Option<Box<dyn Think>> = None;
    for job in jobs {
        let (game, horizon) = (&job.game, job.horizon);
        let mut overran = Duration::ZERO;
        let answer = match job.kind {
            Kind::Think { hard, .. } if Instant::now() >= hard => {
                Err("the request was already answered".to_string())
            }
            Kind::Think { soft, avoid, .. } => guarded(&mut searcher, &make, |s| {
                let moved = s.think(game, horizon, Budget::until(soft), &avoid);
                overran = Instant::now().saturating_duration_since(soft);
                moved
            })
            .map_err(|e| format!("the search panicked: {e}")),
            Kind::Ponder { stop, until } => {
                if !stop.load(Ordering::Relaxed) {
                    let budget = Budget::until(until);
                    let run = guarded(&mut searcher, &make, |s| {
                        s.ponder(game, horizon, budget, &stop)
                    });
                    if let Err(e) = run {
                        log::warn!("pondering panicked: {e}");
                    }
                }
                Err("pondered".to_string())
            }
        };
        let outcome = Outcome {
            id: job.id,
            answer,
            overran,
        };
        if done.send(outcome).is_err() {
            return;
        }
    }
}

fn spawn_with(make: Maker, stack: Option<usize>) -> std::io::Result<Worker> {
    let (jobs, inbox) = mpsc::channel();
    let (outbox, done) = mpsc::channel();
    let mut builder = thread::Builder::new().name("search".into());
    if let Some(size) = stack {
        builder = builder.stack_size(size);
    }
    builder.spawn(move || work(make, inbox, outbox))?;
    Ok(Worker {
        jobs,
        done,
        pending: 0,
        ponder: None,
    })
}

fn spawn(make: Maker) -> Option<Worker> {
    spawn_with(make.clone(), Some(WORKER_STACK))
        .or_else(|e| {
            log::warn!("no big stack for the search ({e}); trying the default");
            spawn_with(make, None)
        })
        .map_err(|e| log::error!("cannot start the search thread: {e}"))
        .ok()
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
            worker: spawn(make.clone()),
            make,
            stragglers: Vec::new(),
            next_id: 0,
            pondering: false,
            ponder_stop: None,
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
        let Ok(mut w) = self.take_worker() else {
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        let kind = Kind::Ponder {
            stop: stop.clone(),
            until: Instant::now() + PONDER_MAX,
        };
        if let Some(id) = self.send(&mut w, game, horizon, kind) {
            w.ponder = Some(id);
            self.ponder_stop = Some(stop);
        }
        self.worker = Some(w);
    }

    /// Queues a job on `w`; its id, unless the worker is gone.
    fn send(&mut self, w: &mut Worker, game: &Game, horizon: Horizon, kind: Kind) -> Option<u64> {
        let id = self.next_id;
        self.next_id += 1;
        let job = Job {
            id,
            game: game.clone(),
            horizon,
            kind,
        };
        w.jobs.send(job).ok()?;
        w.pending += 1;
        Some(id)
    }

    /// How late the host has been running us lately: plan with it
    /// ([`time::Clock::slack`]).
    pub fn slack(&self) -> Duration {
        self.lateness.slack()
    }

    /// Tells the pondering search, if any, to stop; does not wait for it.
    pub fn stop_pondering(&mut self) {
        if let Some(stop) = self.ponder_stop.take() {
            stop.store(true, Ordering::Relaxed);
        }
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

    /// A worker with nothing left to do but a stopped pondering search:
    /// late answers are drained, a late search is waited for a moment
    /// ([`LATE_WAIT`]); one still busy then is left to finish on its own
    /// and replaced, unless [`MAX_STRAGGLERS`] are
    /// busy already (then this turn goes without a search). Stragglers that
    /// have finished are dropped, and their threads end.
    fn take_worker(&mut self) -> Result<Worker, String> {
        self.stragglers.retain_mut(|w| {
            w.drain();
            // a thread that is gone is no straggler either
            w.pending != 0 && w.pending != usize::MAX
        });
        if let Some(mut w) = self.worker.take() {
            w.drain();
            let pending = w.pending;
            match pending {
                0 => return Ok(w),
                // told to stop, and the last job sent: what comes next
                // waits for it one playout at most
                1 if w.ponder.is_some() => return Ok(w),
                usize::MAX => log::error!("the search thread is gone; starting another"),
                _ if w.wait(LATE_WAIT) => return Ok(w),
                _ if w.pending == usize::MAX => {
                    log::error!("the search thread is gone; starting another")
                }
                _ => {
                    log::error!("the search is still running a turn late; leaving it to finish");
                    self.stragglers.push(w);
                }
            }
        }
        if self.stragglers.len() > MAX_STRAGGLERS {
            return Err(format!(
                "{} searches still running late: no search this turn",
                self.stragglers.len()
            ));
        }
        spawn(self.make.clone()).ok_or_else(|| "no search thread".to_string())
    }

    /// The search's answer, and how far past its deadline it came.
    fn search(
        &mut self,
        game: &Game,
        horizon: Horizon,
        soft: Instant,
        hard: Instant,
        avoid: &[Point],
    ) -> (Result<(Move, Stats), String>, Duration) {
        let mut w = match self.take_worker() {
            Ok(w) => w,
            Err(why) => return (Err(why), Duration::ZERO),
        };
        let avoid = avoid.to_vec();
        let kind = Kind::Think { soft, hard, avoid };
        let Some(id) = self.send(&mut w, game, horizon, kind) else {
            return (Err("the search thread is gone".into()), Duration::ZERO);
        };
        loop {
            let left = hard.saturating_duration_since(Instant::now());
            match w.done.recv_timeout(left) {
                Ok(o) => {
                    w.returned(o.id);
                    if o.id == id {
                        self.worker = Some(w);
                        return (o.answer, o.overran);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.worker = Some(w);
                    // the search's deadline lay GRACE or more before this one
                    let why = "no move from the search by the hard deadline";
                    return (Err(why.into()), time::GRACE);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return (Err("the search thread is gone".into()), Duration::ZERO);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
