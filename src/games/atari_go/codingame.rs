//! `tengen atari-go`: the CodinGame Atari Go bot, a [`codingame::Bot`].
//!
//! It reads `myColor` and `boardSize`, then each turn the opponent's last
//! stone (`x y`, `-1 -1` for none), the scores and the board's rows, and
//! answers `x y` or `PASS`. It keeps its own game (the ko needs the
//! history) and checks it against every board it is shown: a board that
//! contradicts it is logged and the game resumed from the board. A line it
//! cannot read is logged and its own game stands in for it; end of input
//! ends the bot cleanly. The search answers on a thread of its own; when
//! it is late or fails, the greedy move goes out instead.

use super::player::{greedy_move, random_move, Kind, Report, Searcher};
use super::AtariGo;
use crate::deps::log;
use crate::games::codingame::{self, Options};
use crate::go::{Board, Cell, Color, Move, Point, MAX_SIZE};
use crate::search::rng::Rng;
use crate::search::Budget;
use std::time::Instant;

/// A search job: the game, the search's deadline, and the opponent's last
/// stone when the ko history is unknown.
type Job = (AtariGo, Instant, Option<Point>);

/// The bot between turns.
pub struct AtariGoBot {
    /// My colour and the board size: `None` until the board tells them,
    /// when their lines were unreadable.
    me: Option<Color>,
    size: Option<usize>,
    player: Kind,
    rng: Rng,
    /// The game after my last move.
    game: Option<AtariGo>,
    answered: u32,
}

impl codingame::Bot for AtariGoBot {
    type Player = Kind;
    type Job = Job;
    type Found = (Move, Report);
    const SEARCH: Kind = Kind::Search;

    fn start(lines: &mut dyn Iterator<Item = String>, opts: &Options<Kind>) -> Option<AtariGoBot> {
        let me = parse_color(&lines.next()?);
        let size_line = lines.next();
        Some(AtariGoBot {
            me,
            size: size_line.as_deref().and_then(parse_size),
            player: opts.player,
            rng: Rng::new(opts.seed),
            game: None,
            answered: 0,
        })
    }

    fn searcher(seed: u64) -> Box<dyn FnMut(Job) -> (Move, Report)> {
        let mut searcher = Searcher::new(seed);
        Box::new(move |(game, deadline, last): Job| {
            searcher.choose(&game, Budget::until(deadline), |mv| {
                allowed(&game, last, mv)
            })
        })
    }

    fn turn(
        &mut self,
        lines: &mut dyn Iterator<Item = String>,
        deadline: Instant,
        search: &mut dyn FnMut(Job) -> Option<(Move, Report)>,
    ) -> Option<String> {
        let last_line = lines.next()?;
        let scores_line = lines.next()?;
        let n = *self.size.get_or_insert(9);
        let rows: Vec<String> = (&mut *lines).take(n).collect();
        if rows.len() < n {
            return None;
        }
        let color = *self.me.get_or_insert_with(|| guess_color(&rows));
        let turns = 2 * self.answered + (color == Color::White) as u32;
        let last = parse_pair(&last_line);
        let scores = parse_pair(&scores_line);
        if last.is_none() {
            log::warn!("cannot read the last move {last_line:?}");
        }
        if scores.is_none() {
            log::warn!("cannot read the scores {scores_line:?}");
        }
        let (now, last_stone) = position(self.game.take(), n, color, turns, last, scores, &rows);
        let fallback =
            |rng: &mut Rng| greedy_move(&now, rng, |p| allowed(&now, last_stone, Move::Play(p)));
        let rng = &mut self.rng;
        let mv = match self.player {
            Kind::Random => random_move(&now, rng, |p| allowed(&now, last_stone, Move::Play(p))),
            Kind::Greedy => fallback(rng),
            Kind::Search => match search((now.clone(), deadline, last_stone)) {
                Some((mv, report)) => {
                    log::info!(
                        "turn {}: {} after {} playouts ({} reused), win rate {:.2}",
                        turns + 1,
                        text(&now, mv),
                        report.playouts,
                        report.reused,
                        report.winrate
                    );
                    mv
                }
                None => fallback(rng),
            },
        };
        let mv = if allowed(&now, last_stone, mv) {
            mv
        } else {
            log::error!(
                "refusing my own move {}: answering the fallback",
                text(&now, mv)
            );
            fallback(rng)
        };
        let answer = text(&now, mv);
        let mut next = now;
        next.play_legal(mv);
        self.game = Some(next);
        self.answered += 1;
        Some(answer)
    }
}

/// Whether the side to move may play `mv`: the rules, and for a game
/// resumed without its history, no ko retake of the opponent's `last` stone.
fn allowed(game: &AtariGo, last: Option<Point>, mv: Move) -> bool {
    match mv {
        Move::Pass => true,
        Move::Play(p) => {
            let unknown = game.ko_unknown(game.to_move());
            game.is_legal(p) && !(unknown && last.is_some_and(|l| game.resumed_ko(p, l)))
        }
    }
}

/// The game this turn: ours moved on by the opponent's stone when the board
/// shown agrees with it, else resumed from the board shown. Returns it and
/// the opponent's last stone where the ko history is unknown.
fn position(
    ours: Option<AtariGo>,
    size: usize,
    me: Color,
    turns: u32,
    last: Option<(i64, i64)>,
    scores: Option<(i64, i64)>,
    rows: &[String],
) -> (AtariGo, Option<Point>) {
    let mut expected = ours.unwrap_or_else(|| AtariGo::new(size));
    let last_point = last.and_then(|(x, y)| expected.board().try_point(x, y));
    if expected.turns() < turns {
        // the opponent's turn: a stone, or a pass (`-1 -1`)
        let mv = match (last, last_point) {
            (Some((-1, -1)), _) => Some(Move::Pass),
            (_, Some(p)) => Some(Move::Play(p)),
            _ => None,
        };
        if let Some(mv) = mv {
            if let Err(e) = expected.play(mv) {
                log::warn!("the opponent's move {last:?} is illegal here ({e})");
            }
        }
    }
    let cells = read_rows(rows, size);
    let my_scores = scores.map(|(a, b)| (a.max(0) as u32, b.max(0) as u32));
    let agrees = |g: &AtariGo| {
        let board_ok = cells.as_ref().is_none_or(|c| *c == g.board().cells());
        let scores_ok = my_scores.is_none_or(|s| s == (g.captures(me), g.captures(me.opp())));
        board_ok && scores_ok && g.turns() == turns && g.to_move() == me
    };
    if agrees(&expected) {
        return (expected, None);
    }
    let board = cells.and_then(|c| Board::from_cells(size, size, &c).ok());
    let Some(board) = board else {
        log::warn!("the board shown is unreadable; playing on my own");
        return (expected, None);
    };
    log::warn!("the board shown differs from mine: resuming from it");
    let (mine, theirs) = my_scores.unwrap_or((expected.captures(me), expected.captures(me.opp())));
    let captures = match me {
        Color::Black => [mine, theirs],
        Color::White => [theirs, mine],
    };
    let game = AtariGo::resume(board, me, turns, captures);
    (game, last_point)
}

/// The rows as cells, if they are `size` rows of `size` cells of
/// `B`/`W`/`.` (case aside).
fn read_rows(rows: &[String], size: usize) -> Option<Vec<Cell>> {
    let mut cells = Vec::with_capacity(size * size);
    for (y, row) in rows.iter().enumerate() {
        let row = row.trim();
        if row.chars().count() != size {
            log::warn!("row {y} {row:?} is not {size} cells");
            return None;
        }
        for ch in row.chars() {
            cells.push(match ch.to_ascii_uppercase() {
                'B' => Cell::Black,
                'W' => Cell::White,
                '.' => Cell::Empty,
                _ => {
                    log::warn!("row {y} {row:?}: unknown cell {ch:?}");
                    return None;
                }
            });
        }
    }
    Some(cells)
}

/// The answer as CodinGame reads it.
fn text(game: &AtariGo, mv: Move) -> String {
    match mv {
        Move::Pass => "PASS".to_string(),
        Move::Play(p) => {
            let (x, y) = game.board().xy(p);
            format!("{x} {y}")
        }
    }
}

fn parse_color(line: &str) -> Option<Color> {
    match line.trim() {
        "B" | "b" => Some(Color::Black),
        "W" | "w" => Some(Color::White),
        other => {
            log::warn!("cannot read my colour {other:?}: guessing it from the board");
            None
        }
    }
}

fn parse_size(line: &str) -> Option<usize> {
    match line.trim().parse::<usize>() {
        Ok(n) if (2..=MAX_SIZE).contains(&n) => Some(n),
        _ => {
            log::warn!("cannot read the board size {line:?}: guessing it from the rows");
            None
        }
    }
}

fn parse_pair(line: &str) -> Option<(i64, i64)> {
    let mut words = line.split_whitespace().map(str::parse::<i64>);
    match (words.next(), words.next(), words.next()) {
        (Some(Ok(a)), Some(Ok(b)), None) => Some((a, b)),
        _ => None,
    }
}

/// Whose turn it is by the stones on the board: black's when both have as
/// many (no captures, no passes assumed).
fn guess_color(rows: &[String]) -> Color {
    let count = |c: char| rows.iter().map(|r| r.matches(c).count()).sum::<usize>();
    if count('B') > count('W') {
        Color::White
    } else {
        Color::Black
    }
}

#[cfg(test)]
mod tests;
