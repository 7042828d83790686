//! `tengen clobber`: the CodinGame Clobber bot, a [`codingame::Bot`].
//!
//! It reads `boardSize` and `color`, then each turn the board's rows, the
//! opponent's last action and the number of legal actions, and answers a
//! move in chess notation (`e2e3`). The board says everything about the
//! position, so it is read afresh each turn. A row it cannot read is
//! logged and the board it expected (its own move and the opponent's last
//! action on the last board) stands in; with no board at all it answers
//! `random`, which the referee plays for it. End of input ends the bot.
//! The search answers on a thread of its own; when it is late or fails,
//! the greedy move goes out instead.

use super::player::{alphabeta_move, greedy_move, random_move, Kind, Report, Searcher};
use super::{Clobber, Move, SIZE};
use crate::deps::log;
use crate::games::codingame::{self, Options};
use crate::go::Color;
use crate::search::rng::Rng;
use crate::search::Budget;
use std::time::Instant;

/// The bot between turns.
pub struct ClobberBot {
    size: usize,
    /// My colour: `None` until the board tells it, when the line was
    /// unreadable.
    me: Option<Color>,
    player: Kind,
    rng: Rng,
    /// The board after my last move, for a turn whose board is unreadable.
    expected: Option<Clobber>,
}

impl codingame::Bot for ClobberBot {
    type Player = Kind;
    type Job = (Clobber, Instant);
    type Found = (Option<Move>, Report);
    const SEARCH: Kind = Kind::Search;

    fn start(lines: &mut dyn Iterator<Item = String>, opts: &Options<Kind>) -> Option<ClobberBot> {
        let size_line = lines.next()?;
        let size = match size_line.trim().parse::<usize>() {
            Ok(n) if (1..=SIZE).contains(&n) => n,
            _ => {
                log::warn!("cannot read the board size {size_line:?}: taking 8");
                SIZE
            }
        };
        let color_line = lines.next()?;
        let me = match color_line.trim() {
            "w" | "W" => Some(Color::White),
            "b" | "B" => Some(Color::Black),
            other => {
                log::warn!("cannot read my colour {other:?}: guessing it");
                None
            }
        };
        Some(ClobberBot {
            size,
            me,
            player: opts.player,
            rng: Rng::new(opts.seed),
            expected: None,
        })
    }

    fn searcher(seed: u64) -> Box<dyn FnMut((Clobber, Instant)) -> (Option<Move>, Report)> {
        let mut searcher = Searcher::new(seed);
        Box::new(move |(pos, deadline): (Clobber, Instant)| {
            searcher.choose(&pos, Budget::until(deadline))
        })
    }

    fn turn(
        &mut self,
        lines: &mut dyn Iterator<Item = String>,
        deadline: Instant,
        search: &mut dyn FnMut((Clobber, Instant)) -> Option<(Option<Move>, Report)>,
    ) -> Option<String> {
        let size = self.size;
        let rows: Vec<String> = (&mut *lines).take(size).collect();
        if rows.len() < size {
            return None;
        }
        let (last, count) = (lines.next()?, lines.next()?);
        // each move takes a stone and white moves first: white is to move
        // when an even number of stones is gone
        let color = *self.me.get_or_insert_with(|| {
            let stones: usize = rows.iter().map(|r| r.matches(['w', 'b']).count()).sum();
            match (size * size).saturating_sub(stones) % 2 {
                0 => Color::White,
                _ => Color::Black,
            }
        });
        let Some(pos) = position(&rows, color, self.expected.take(), &last) else {
            log::error!("no board to play on: answering random");
            return Some("random".to_string());
        };
        if let Ok(n) = count.trim().parse::<u32>() {
            if n != pos.mobility(color) {
                log::warn!("{n} legal actions announced, {} found", pos.mobility(color));
            }
        }
        let rng = &mut self.rng;
        let chosen = match self.player {
            Kind::Random => random_move(&pos, rng),
            Kind::Greedy => greedy_move(&pos, rng),
            Kind::AlphaBeta(depth) => alphabeta_move(&pos, depth, rng),
            Kind::Search => match search((pos, deadline)) {
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
                None => greedy_move(&pos, rng),
            },
        };
        let chosen = chosen.filter(|&m| pos.check(m).is_ok());
        let Some(m) = chosen.or_else(|| greedy_move(&pos, rng)) else {
            // no legal move: the game is lost; the referee wants a line
            log::warn!("no legal move left");
            return Some("random".to_string());
        };
        let mut after = pos;
        after.play_unchecked(m);
        self.expected = Some(after);
        Some(pos.move_name(m))
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
