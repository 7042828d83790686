//! What a CodinGame bot (`tengen GAME`) is made of, for any game: the
//! [`Bot`] trait a game implements (how it reads its lines and chooses
//! its answer), the bot's [`Options`], and the turn loop over a [`Bot`]
//! ([`serve`]). The search thread with its deadline is the caller's
//! (`protocol::codingame`): here it is only a function that may fail to
//! answer.

use crate::deps::log;
use std::io::{self, BufRead, Write};
use std::str::FromStr;
use std::time::{Duration, Instant};

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

/// The options `tengen GAME` has without arguments: the search.
pub fn defaults<B: Bot>() -> Options<B::Player> {
    Options::new(B::SEARCH)
}

/// A game's CodinGame bot: what it keeps from turn to turn, how it reads
/// the game's lines and what it answers. Each turn's search runs on a
/// thread of its own that may be late; the bot answers without it then.
pub trait Bot: Sized {
    /// The players `--player` names.
    type Player: Copy + std::fmt::Debug + FromStr<Err = String> + Send + 'static;
    /// What the search thread is given each turn, and what it answers.
    type Job: Send + 'static;
    type Found: Send + 'static;

    /// The player that searches: the default.
    const SEARCH: Self::Player;

    /// The bot after the lines sent once at the start; `None`: the input
    /// ended first.
    fn start(lines: &mut dyn Iterator<Item = String>, opts: &Options<Self::Player>)
        -> Option<Self>;

    /// The search the thread runs, made on it (again after a panic).
    fn searcher(seed: u64) -> Box<dyn FnMut(Self::Job) -> Self::Found>;

    /// One turn: reads its lines, chooses by `deadline` and returns the
    /// answer line. `search` hands a job to the search thread: `None` when
    /// it did not answer in time. `None`: the input ended.
    fn turn(
        &mut self,
        lines: &mut dyn Iterator<Item = String>,
        deadline: Instant,
        search: &mut dyn FnMut(Self::Job) -> Option<Self::Found>,
    ) -> Option<String>;
}

/// Plays bot `B` from `input` to `out` until end of input, `ask` running
/// each search job with the turn's deadline; fails only when `out` cannot
/// be written. A turn's time counts from its first line.
pub fn serve<B: Bot>(
    input: impl BufRead,
    out: &mut impl Write,
    opts: &Options<B::Player>,
    mut ask: impl FnMut(B::Job, Instant) -> Option<B::Found>,
) -> io::Result<()> {
    let mut lines = Lines::new(input);
    let Some(mut bot) = B::start(&mut lines, opts) else {
        return Ok(());
    };
    let mut answered = 0u32;
    loop {
        let Some(first) = lines.next() else {
            return Ok(());
        };
        let start = Instant::now();
        let ms = if answered == 0 {
            opts.first_ms
        } else {
            opts.turn_ms
        };
        let deadline = start + Duration::from_millis(ms);
        let mut turn = std::iter::once(first).chain(&mut lines);
        let Some(text) = bot.turn(&mut turn, deadline, &mut |job| ask(job, deadline)) else {
            return Ok(());
        };
        answer(out, &text)?;
        answered += 1;
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

/// For a game's tests: [`serve`] with the search run at once on this
/// thread (it keeps its own deadline), its answers returned.
#[cfg(test)]
pub fn answers<B: Bot>(input: impl BufRead, opts: &Options<B::Player>) -> Vec<String> {
    let mut out = Vec::new();
    serve_here::<B>(input, &mut out, opts).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// [`serve`] with the search on this thread, for tests.
#[cfg(test)]
pub fn serve_here<B: Bot>(
    input: impl BufRead,
    out: &mut impl Write,
    opts: &Options<B::Player>,
) -> io::Result<()> {
    let mut search = B::searcher(opts.seed);
    serve::<B>(input, out, opts, |job, _| Some(search(job)))
}
