//! What the CodinGame bots ([`super::atari_go`], [`super::clobber`])
//! share: their options, the way they run on stdin/stdout, and their
//! reading of input lines.

use crate::deps::log;
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// How a CodinGame bot plays.
#[derive(Clone, Debug)]
pub struct Options<K> {
    /// Which player answers (the game's own kinds).
    pub player: K,
    pub seed: u64,
    /// Search time of the first turn (limit 1 000 ms, the process start
    /// included) and of each later one (limit 100 ms), in ms.
    pub first_ms: u64,
    pub turn_ms: u64,
}

impl<K> Options<K> {
    /// `player` with the default seed and search times.
    pub fn new(player: K) -> Options<K> {
        Options {
            player,
            seed: 1,
            first_ms: 500,
            turn_ms: 70,
        }
    }
}

/// How long past its own deadline the search may answer before the
/// fallback goes out: it stops within a playout of the deadline.
pub const GRACE: Duration = Duration::from_millis(12);

/// Runs `serve` on stdin/stdout until end of input. Returns the exit
/// code: 1 only when the answer could not be written.
pub fn run<K>(
    opts: &Options<K>,
    serve: fn(io::StdinLock<'static>, &mut io::StdoutLock<'static>, &Options<K>) -> io::Result<()>,
) -> i32 {
    let mut out = io::stdout().lock();
    match serve(io::stdin().lock(), &mut out, opts) {
        Ok(()) => 0,
        Err(e) => {
            log::error!("cannot write the answer: {e}");
            1
        }
    }
}

/// Input lines, blank ones skipped; a line that is not UTF-8 comes as an
/// unreadable one, another read error is logged and ends the input.
pub struct Lines<B: BufRead>(io::Lines<B>);

impl<B: BufRead> Lines<B> {
    pub fn new(input: B) -> Lines<B> {
        Lines(input.lines())
    }
}

impl<B: BufRead> Iterator for Lines<B> {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        loop {
            match self.0.next()? {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => return Some(line),
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    // the bytes are consumed: an unreadable line in their place
                    log::warn!("a line is not UTF-8");
                    return Some("\u{fffd}".to_string());
                }
                Err(e) => {
                    log::error!("cannot read input: {e}");
                    return None;
                }
            }
        }
    }
}

/// Writes one answer line and flushes it.
pub fn answer(out: &mut impl Write, text: &str) -> io::Result<()> {
    writeln!(out, "{text}")?;
    out.flush()
}
