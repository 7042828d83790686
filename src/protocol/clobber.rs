//! `tengen clobber`: the CodinGame Clobber bot on stdin/stdout.
//!
//! It reads `boardSize` and `color`, then each turn the board's rows, the
//! opponent's last action and the number of legal actions, and answers a
//! move in chess notation (`e2e3`). The board says everything about the
//! position, so it is read afresh each turn. A row it cannot read is
//! logged and the board it expected (its own move and the opponent's last
//! action on the last board) stands in; with no board at all it answers
//! `random`, which the referee plays for it. End of input ends the bot.
//! The search answers on a [`Worker`] thread; when it is late or fails,
//! the greedy move goes out instead.

use super::codingame::{self, Lines, GRACE};
use super::worker::Worker;
use crate::deps::log;
use crate::games::clobber::player::{
    alphabeta_move, greedy_move, random_move, Kind, Report, Searcher,
};
use crate::games::clobber::{Clobber, Move, SIZE};
use crate::go::Color;
use crate::search::rng::Rng;
use crate::search::Budget;
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

/// How the bot plays.
pub type Options = codingame::Options<Kind>;

impl Default for Options {
    fn default() -> Self {
        Options::new(Kind::Search)
    }
}

/// Runs the bot on stdin/stdout until end of input. Returns the exit code.
pub fn run(opts: Options) -> i32 {
    codingame::run(&opts, serve)
}

/// Plays from `input` to `out` until end of input; fails only when `out`
/// cannot be written.
pub fn serve(input: impl BufRead, out: &mut impl Write, opts: &Options) -> io::Result<()> {
    let mut lines = Lines::new(input);
    let mut next = move || lines.next();
    let Some(size_line) = next() else {
        return Ok(());
    };
    let size = match size_line.trim().parse::<usize>() {
        Ok(n) if (1..=SIZE).contains(&n) => n,
        _ => {
            log::warn!("cannot read the board size {size_line:?}: taking 8");
            SIZE
        }
    };
    let Some(color_line) = next() else {
        return Ok(());
    };
    let mut me = match color_line.trim() {
        "w" | "W" => Some(Color::White),
        "b" | "B" => Some(Color::Black),
        other => {
            log::warn!("cannot read my colour {other:?}: guessing it");
            None
        }
    };
    let seed = opts.seed;
    let mut worker: Worker<(Clobber, Instant), (Option<Move>, Report)> =
        Worker::new(Box::new(move || {
            let mut searcher = Searcher::new(seed);
            Box::new(move |(pos, deadline): (Clobber, Instant)| {
                searcher.choose(&pos, Budget::until(deadline))
            })
        }));
    let mut rng = Rng::new(opts.seed);
    let mut expected: Option<Clobber> = None;
    let mut answered = 0u32;
    loop {
        let Some(first_row) = next() else {
            return Ok(());
        };
        let start = Instant::now();
        let mut rows = vec![first_row];
        for _ in 1..size {
            rows.push(match next() {
                Some(r) => r,
                None => return Ok(()),
            });
        }
        let (Some(last), Some(count)) = (next(), next()) else {
            return Ok(());
        };
        // each move takes a stone and white moves first: white is to move
        // when an even number of stones is gone
        let color = *me.get_or_insert_with(|| {
            let stones: usize = rows.iter().map(|r| r.matches(['w', 'b']).count()).sum();
            match (size * size).saturating_sub(stones) % 2 {
                0 => Color::White,
                _ => Color::Black,
            }
        });
        let Some(pos) = position(&rows, color, expected.take(), &last) else {
            log::error!("no board to play on: answering random");
            codingame::answer(out, "random")?;
            continue;
        };
        if let Ok(n) = count.trim().parse::<u32>() {
            if n != pos.mobility(color) {
                log::warn!("{n} legal actions announced, {} found", pos.mobility(color));
            }
        }
        let search_ms = if answered == 0 {
            opts.first_ms
        } else {
            opts.turn_ms
        };
        let deadline = start + Duration::from_millis(search_ms);
        let chosen = match opts.player {
            Kind::Random => random_move(&pos, &mut rng),
            Kind::Greedy => greedy_move(&pos, &mut rng),
            Kind::AlphaBeta(depth) => alphabeta_move(&pos, depth, &mut rng),
            Kind::Search => match worker.ask((pos, deadline), deadline + GRACE) {
                Some((m, report)) => {
                    log::info!(
                        "turn {}: {:?} after {} playouts ({} reused), win rate {:.2}, solved {:?} in {} nodes",
                        pos.turns() + 1,
                        m.map(|m| pos.move_name(m)),
                        report.playouts,
                        report.reused,
                        report.winrate,
                        report.solved,
                        report.solver_nodes
                    );
                    m
                }
                None => greedy_move(&pos, &mut rng),
            },
        };
        let chosen = chosen.filter(|&m| pos.check(m).is_ok());
        let Some(m) = chosen.or_else(|| greedy_move(&pos, &mut rng)) else {
            // no legal move: the game is lost; the referee wants a line
            log::warn!("no legal move left");
            codingame::answer(out, "random")?;
            continue;
        };
        codingame::answer(out, &pos.move_name(m))?;
        let mut after = pos;
        after.play_unchecked(m);
        expected = Some(after);
        answered += 1;
    }
}

/// The position to play: the rows shown, or if they cannot be read, the
/// board expected from our last move and the opponent's `last` action.
fn position(rows: &[String], me: Color, expected: Option<Clobber>, last: &str) -> Option<Clobber> {
    match Clobber::from_rows(rows, me) {
        Ok(pos) => Some(pos),
        Err(e) => {
            log::warn!("cannot read the board ({e}): playing on the board I expect");
            let mut pos = expected?;
            match pos.parse_move(last) {
                Some(m) if pos.check(m).is_ok() => pos.play_unchecked(m),
                _ => log::warn!("and cannot read the last action {last:?}"),
            }
            (pos.to_move() == me).then_some(pos)
        }
    }
}

#[cfg(test)]
mod tests;
