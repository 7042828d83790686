//! Runs any game's CodinGame bot ([`crate::games::codingame::Bot`]) on
//! stdin/stdout, its search on a [`Worker`] thread that must answer by
//! the turn's deadline: the game's turn loop with the deadline added.

use super::worker::Worker;
use crate::deps::log;
use crate::games::codingame::{self, Bot, Options};
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// How long past its own deadline the search may answer before the
/// fallback goes out: it stops within a playout of the deadline.
pub const GRACE: Duration = Duration::from_millis(12);

/// Runs bot `B` on stdin/stdout until end of input. Returns the exit
/// code: 1 only when the answer could not be written.
pub fn run<B: Bot>(opts: Options<B::Player>) -> i32 {
    let mut out = io::stdout().lock();
    match serve::<B>(io::stdin().lock(), &mut out, &opts) {
        Ok(()) => 0,
        Err(e) => {
            log::error!("cannot write the answer: {e}");
            1
        }
    }
}

/// Plays bot `B` from `input` to `out` until end of input; fails only
/// when `out` cannot be written.
pub fn serve<B: Bot>(
    input: impl BufRead,
    out: &mut impl Write,
    opts: &Options<B::Player>,
) -> io::Result<()> {
    let seed = opts.seed;
    let mut worker: Worker<B::Job, B::Found> = Worker::new(Box::new(move || B::searcher(seed)));
    codingame::serve::<B>(input, out, opts, |job, deadline| {
        worker.ask(job, deadline + GRACE)
    })
}
