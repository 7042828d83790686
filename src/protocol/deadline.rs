//! A search on a thread of its own that answers by a deadline, for every
//! front end: the arena bot and GTP ([`super::thinker`]) and the
//! CodinGame bots. The searcher lives on the thread from job to job (so a
//! tree can be kept, and it need not be `Send`); the caller waits for an
//! answer until its deadline and goes on without one if it must. A panic
//! costs the searcher (rebuilt for the next job), never the caller. A job
//! may also run in the background (pondering) until the next one comes.
//!
//! A search still running a job late is left to finish on its own and a
//! fresh thread takes the next job; with [`MAX_STRAGGLERS`] of them still
//! busy, jobs are refused until one ends, so a stalled host is never
//! buried under threads.

use crate::deps::log;
use std::any::Any;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Searches still running a job late that are left to finish on their
/// own (each holds a core until it sees its deadline, as soon as it runs
/// again). With this many still busy, jobs are refused.
pub const MAX_STRAGGLERS: usize = 2;
/// How long a job waits for a search that missed the last one: it saw its
/// deadline pass as soon as it ran again and stops within a playout,
/// keeping its tree, unless the host still holds it back.
pub const LATE_WAIT: Duration = Duration::from_millis(20);

/// Builds the searcher, on the search thread.
pub type Make<S> = Arc<dyn Fn() -> S + Send + Sync>;

/// Why a job has no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Missed {
    /// None by the deadline: the search is late, stuck or held back.
    Late,
    /// The search panicked (its searcher is rebuilt for the next job).
    Panicked(String),
    /// No search to ask: too many still running late, or no thread.
    NoSearch(String),
}

impl fmt::Display for Missed {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Missed::Late => write!(f, "no answer from the search by the deadline"),
            Missed::Panicked(e) => write!(f, "the search panicked: {e}"),
            Missed::NoSearch(why) => write!(f, "{why}"),
        }
    }
}

type Task<S> = Box<dyn FnOnce(&mut S) -> Box<dyn Any + Send> + Send>;

struct Job<S> {
    id: u64,
    task: Task<S>,
    /// Skipped if this has passed before it starts: its asker has gone on.
    expires: Option<Instant>,
}

struct Outcome {
    id: u64,
    answer: Result<Box<dyn Any + Send>, Missed>,
}

/// One search thread and what it still owes.
struct Worker<S> {
    jobs: Sender<Job<S>>,
    done: Receiver<Outcome>,
    /// Jobs sent whose outcome has not come back yet; `usize::MAX` once
    /// the thread is gone.
    pending: usize,
    /// The background job, while its outcome has not come back: the last
    /// job sent, so whatever is queued next runs as soon as it stops.
    background: Option<u64>,
}

impl<S> Worker<S> {
    fn returned(&mut self, id: u64) {
        self.pending -= 1;
        if self.background == Some(id) {
            self.background = None;
        }
    }

    /// Waits up to `patience` for the outcomes still due; false if some
    /// are still out or the thread is gone.
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

    fn gone(&self) -> bool {
        self.pending == usize::MAX
    }
}

fn panic_message(e: Box<dyn Any + Send>) -> String {
    e.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| e.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}

fn work<S>(make: Make<S>, jobs: Receiver<Job<S>>, done: Sender<Outcome>) {
    let mut searcher: Option<S> = None;
    for job in jobs {
        let answer = if job.expires.is_some_and(|t| Instant::now() >= t) {
            Err(Missed::Late)
        } else {
            let task = job.task;
            let run = panic::catch_unwind(AssertUnwindSafe(|| {
                task(searcher.get_or_insert_with(|| make()))
            }));
            // whatever state a panic left the searcher in is not trusted
            run.map_err(|e| {
                searcher = None;
                let e = panic_message(e);
                log::warn!("the search panicked: {e}");
                Missed::Panicked(e)
            })
        };
        if done.send(Outcome { id: job.id, answer }).is_err() {
            return;
        }
    }
}

/// The search thread and the searcher it keeps.
pub struct Deadline<S: 'static> {
    make: Make<S>,
    stack: Option<usize>,
    worker: Option<Worker<S>>,
    stragglers: Vec<Worker<S>>,
    next_id: u64,
    /// The background job's stop flag, while it may be running.
    stop: Option<Arc<AtomicBool>>,
}

impl<S: 'static> Deadline<S> {
    /// Starts the thread at once, so the first job does not pay for it;
    /// `stack` asks for a stack that size (the default if refused).
    pub fn new(make: Make<S>, stack: Option<usize>) -> Deadline<S> {
        let mut d = Deadline {
            make,
            stack,
            worker: None,
            stragglers: Vec::new(),
            next_id: 0,
            stop: None,
        };
        d.worker = d.spawn();
        d
    }

    fn spawn(&self) -> Option<Worker<S>> {
        let start = |stack: Option<usize>| {
            let (jobs, inbox) = mpsc::channel();
            let (outbox, done) = mpsc::channel();
            let mut builder = thread::Builder::new().name("search".into());
            if let Some(size) = stack {
                builder = builder.stack_size(size);
            }
            let make = self.make.clone();
            builder.spawn(move || work(make, inbox, outbox))?;
            Ok::<_, std::io::Error>(Worker {
                jobs,
                done,
                pending: 0,
                background: None,
            })
        };
        start(self.stack)
            .or_else(|e| {
                log::warn!("no big stack for the search ({e}); trying the default");
                start(None)
            })
            .map_err(|e| log::error!("cannot start the search thread: {e}"))
            .ok()
    }

    /// Runs `task` on the searcher; its answer, if it comes by `until`.
    pub fn ask<A: Send + 'static>(
        &mut self,
        task: impl FnOnce(&mut S) -> A + Send + 'static,
        until: Instant,
    ) -> Result<A, Missed> {
        self.stop_background();
        let mut w = self.take_worker()?;
        let task: Task<S> = Box::new(move |s| Box::new(task(s)));
        let Some(id) = self.send(&mut w, task, Some(until)) else {
            return Err(Missed::NoSearch("the search thread is gone".into()));
        };
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match w.done.recv_timeout(left) {
                Ok(o) => {
                    w.returned(o.id);
                    if o.id == id {
                        self.worker = Some(w);
                        let answer = o.answer?.downcast::<A>();
                        return Ok(*answer.expect("the answer of the task sent"));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.worker = Some(w);
                    return Err(Missed::Late);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Missed::NoSearch("the search thread is gone".into()));
                }
            }
        }
    }

    /// Runs `task` on the searcher until the next job or
    /// [`Deadline::stop_background`]: it must return soon once the flag it
    /// is given is raised.
    pub fn background(&mut self, task: impl FnOnce(&mut S, &AtomicBool) + Send + 'static) {
        self.stop_background();
        let Ok(mut w) = self.take_worker() else {
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let task: Task<S> = Box::new(move |s| {
            if !flag.load(Ordering::Relaxed) {
                task(s, &flag);
            }
            Box::new(())
        });
        if let Some(id) = self.send(&mut w, task, None) {
            w.background = Some(id);
            self.stop = Some(stop);
        }
        self.worker = Some(w);
    }

    /// Searches left running late that have not ended yet.
    pub fn stragglers(&self) -> usize {
        self.stragglers.len()
    }

    /// Tells the background job, if any, to stop; does not wait for it.
    pub fn stop_background(&mut self) {
        if let Some(stop) = self.stop.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// Queues a job on `w`; its id, unless the thread is gone.
    fn send(&mut self, w: &mut Worker<S>, task: Task<S>, expires: Option<Instant>) -> Option<u64> {
        let id = self.next_id;
        self.next_id += 1;
        w.jobs.send(Job { id, task, expires }).ok()?;
        w.pending += 1;
        Some(id)
    }

    /// A thread with nothing left to do but a stopped background job:
    /// late answers are drained, a late search is waited for a moment
    /// ([`LATE_WAIT`]); one still busy then is left to finish on its own
    /// and replaced, unless [`MAX_STRAGGLERS`] are busy already. Stragglers
    /// that have finished are dropped, and their threads end.
    fn take_worker(&mut self) -> Result<Worker<S>, Missed> {
        self.stragglers.retain_mut(|w| {
            w.wait(Duration::ZERO);
            w.pending != 0 && !w.gone()
        });
        if let Some(mut w) = self.worker.take() {
            w.wait(Duration::ZERO);
            let pending = w.pending;
            match pending {
                0 => return Ok(w),
                // told to stop, and the last job sent: what comes next
                // waits for it one playout at most
                1 if w.background.is_some() => return Ok(w),
                usize::MAX => log::error!("the search thread is gone; starting another"),
                _ if w.wait(LATE_WAIT) => return Ok(w),
                _ if w.gone() => log::error!("the search thread is gone; starting another"),
                _ => {
                    log::error!("the search is still running a job late; leaving it to finish");
                    self.stragglers.push(w);
                }
            }
        }
        if self.stragglers.len() > MAX_STRAGGLERS {
            return Err(Missed::NoSearch(format!(
                "{} searches still running late: no search this time",
                self.stragglers.len()
            )));
        }
        self.spawn()
            .ok_or_else(|| Missed::NoSearch("no search thread".into()))
    }
}

#[cfg(test)]
mod tests;
