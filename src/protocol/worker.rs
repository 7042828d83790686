//! A search on a thread of its own that must answer by a deadline: the
//! CodinGame bots ask it each turn and, when it is late, stuck or has
//! panicked, answer a quick fallback move instead. A panic costs the
//! worker (a fresh one is made for the next turn), never the bot.

use crate::deps::log;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Instant;

/// Makes the function that answers jobs on the worker thread (again, after
/// a panic).
pub type Maker<J, A> = Box<dyn Fn() -> Box<dyn FnMut(J) -> A + Send> + Send>;

pub struct Worker<J: Send + 'static, A: Send + 'static> {
    make: Maker<J, A>,
    jobs: Option<Sender<(u64, J)>>,
    answers: Option<Receiver<(u64, A)>>,
    next: u64,
}

impl<J: Send + 'static, A: Send + 'static> Worker<J, A> {
    pub fn new(make: Maker<J, A>) -> Worker<J, A> {
        Worker {
            make,
            jobs: None,
            answers: None,
            next: 0,
        }
    }

    fn spawn(&mut self) {
        let (job_tx, job_rx) = mpsc::channel::<(u64, J)>();
        let (ans_tx, ans_rx) = mpsc::channel();
        let mut answer = (self.make)();
        let spawned = thread::Builder::new().name("search".into()).spawn(move || {
            for (id, job) in job_rx {
                if ans_tx.send((id, answer(job))).is_err() {
                    break;
                }
            }
        });
        match spawned {
            Ok(_) => {
                self.jobs = Some(job_tx);
                self.answers = Some(ans_rx);
            }
            Err(e) => log::error!("cannot start the search thread: {e}"),
        }
    }

    /// Gives `job` to the worker and waits for its answer until `until`.
    /// `None`: no answer in time (late, stuck, or it panicked).
    pub fn ask(&mut self, job: J, until: Instant) -> Option<A> {
        if self.jobs.is_none() {
            self.spawn();
        }
        self.next += 1;
        let id = self.next;
        let sent = self.jobs.as_ref().map(|tx| tx.send((id, job)));
        if !matches!(sent, Some(Ok(()))) {
            self.jobs = None;
            log::warn!("the search thread is gone; answering without it");
            return None;
        }
        let rx = self.answers.as_ref()?;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok((got, a)) if got == id => return Some(a),
                Ok(_) => continue, // a late answer to an earlier turn
                Err(RecvTimeoutError::Timeout) => {
                    log::warn!("the search did not answer in time");
                    return None;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    log::error!("the search thread stopped (a panic?); a new one next turn");
                    self.jobs = None;
                    self.answers = None;
                    return None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn worker() -> Worker<u32, u32> {
        Worker::new(Box::new(|| {
            Box::new(|job: u32| match job {
                0 => panic!("asked to panic"),
                1 => {
                    thread::sleep(Duration::from_millis(300));
                    1
                }
                n => n * 2,
            })
        }))
    }

    #[test]
    fn answers_and_survives_panics_and_late_answers() {
        let mut w = worker();
        let soon = || Instant::now() + Duration::from_secs(30);
        assert_eq!(w.ask(21, soon()), Some(42));
        // a panic: no answer, and the next job gets a fresh worker
        assert_eq!(w.ask(0, soon()), None);
        assert_eq!(w.ask(5, soon()), Some(10));
        // too late: no answer; its answer, when it comes, is not taken for
        // the next job's
        assert_eq!(w.ask(1, Instant::now()), None);
        assert_eq!(w.ask(7, soon()), Some(14));
    }
}
