//! GTP commands that set a game up or write it out: the handicap
//! (`fixed_handicap`, `place_free_handicap`, `set_free_handicap`, where
//! the GTP 2 specification places the fixed stones), game records
//! (`loadsgf`, `printsgf`) and KGS's time settings.

use super::{number, Engine, Reply};
use crate::go::coord::sgf_point;
use crate::go::sgf::read_sgf;
use crate::go::{coord, Board, Color, Game, Move};
use std::time::Duration;

/// The handicap points of the GTP 2 specification (section 4.1.1) for an
/// `n` x `n` board, in its order: as many as the board allows (none below
/// 7, 4 on even sizes and on 7, 9 on the other odd ones).
pub fn fixed_points(n: usize) -> Vec<(usize, usize)> {
    if n < 7 {
        return Vec::new();
    }
    let d = if n >= 13 { 3 } else { 2 };
    let (lo, hi, mid) = (d, n - 1 - d, n / 2);
    // (x, y) with y from the top: D4 is (lo, hi), Q16 (hi, lo)
    let corners = [(lo, hi), (hi, lo), (lo, lo), (hi, hi)];
    if n.is_multiple_of(2) || n == 7 {
        return corners.to_vec();
    }
    let sides = [(lo, mid), (hi, mid), (mid, hi), (mid, lo)];
    let center = (mid, mid);
    let mut order = corners.to_vec();
    order.extend_from_slice(&sides);
    order.push(center);
    order
}

/// The fixed handicap of `k` stones, as the specification lays them out
/// (the centre stone goes in for odd counts from 5).
fn fixed(n: usize, k: usize) -> Option<Vec<(usize, usize)>> {
    let all = fixed_points(n);
    if k < 2 || k > all.len() {
        return None;
    }
    let center = all.get(8).copied();
    let picked = match k {
        5 => [&all[..4], &[center?]].concat(),
        7 => [&all[..6], &[center?]].concat(),
        _ => all[..k].to_vec(),
    };
    Some(picked)
}

impl Engine {
    /// `fixed_handicap N`, `place_free_handicap N`, `set_free_handicap V...`.
    pub(super) fn handicap(&mut self, command: &str, args: &[&str]) -> Reply {
        if !self.game.moves().is_empty()
            || self.game.board().empty_points().len() != self.game.board().area()
        {
            return Err("board not empty".into());
        }
        let n = self.size;
        let points: Vec<(usize, usize)> = match command {
            "fixed_handicap" => {
                let k: usize = number(args.first())?;
                fixed(n, k).ok_or("invalid number of stones")?
            }
            "place_free_handicap" => {
                let k: usize = number(args.first())?;
                if k < 2 || k >= n * n {
                    return Err("invalid number of stones".into());
                }
                // the fixed points first, then the rest in reading order
                // from the board's middle outward
                let mut pts = fixed(n, k.min(fixed_points(n).len())).unwrap_or_default();
                let mut rest: Vec<(usize, usize)> = (0..n * n)
                    .map(|i| (i % n, i / n))
                    .filter(|p| !pts.contains(p))
                    .collect();
                let c = (n as i64 - 1) / 2;
                rest.sort_by_key(|&(x, y)| (x as i64 - c).abs().max((y as i64 - c).abs()));
                pts.extend(rest.into_iter().take(k - pts.len()));
                pts
            }
            _ => {
                let b = self.game.board();
                let mut pts = Vec::new();
                for v in args {
                    let Some(Move::Play(p)) = coord::from_gtp(b, v) else {
                        return Err(format!("bad vertex {v}"));
                    };
                    let xy = b.xy(p);
                    if pts.contains(&xy) {
                        return Err(format!("repeated vertex {v}"));
                    }
                    pts.push(xy);
                }
                if pts.len() < 2 || pts.len() >= n * n {
                    return Err("invalid number of stones".into());
                }
                pts
            }
        };
        let setup: Vec<(Color, (usize, usize))> =
            points.iter().map(|&p| (Color::Black, p)).collect();
        self.set_up(&setup, Color::White)?;
        let b = self.game.board();
        let names: Vec<String> = points
            .iter()
            .map(|&(x, y)| coord::to_gtp(b, Move::Play(b.point(x, y))))
            .collect();
        Ok(if command == "set_free_handicap" {
            String::new()
        } else {
            names.join(" ")
        })
    }

    /// Starts a game from `stones` on the empty board, `to_move` next.
    fn set_up(&mut self, stones: &[(Color, (usize, usize))], to_move: Color) -> Result<(), String> {
        let n = self.size;
        let mut cells = vec![crate::go::Cell::Empty; n * n];
        for &(c, (x, y)) in stones {
            cells[y * n + x] = c.stone();
        }
        let mut board = Board::from_cells(n, n, &cells)?;
        board.set_to_move(to_move);
        self.game = Game::from_board(board, self.komi);
        self.setup = stones.to_vec();
        self.initial = self.game.clone();
        Ok(())
    }

    /// `loadsgf FILE [MOVE]`: the game of the record, up to the position
    /// before move number MOVE (the whole game without it).
    pub(super) fn loadsgf(&mut self, args: &[&str]) -> Reply {
        let Some(path) = args.first() else {
            return Err("syntax error".into());
        };
        let upto: Option<usize> = match args.get(1) {
            Some(_) => Some(number(args.get(1))?),
            None => None,
        };
        let text = std::fs::read_to_string(path).map_err(|_| "cannot load file".to_string())?;
        let rec = read_sgf(&text).map_err(|e| format!("cannot load file: {e}"))?;
        if !(2..=crate::go::MAX_SIZE).contains(&rec.size) {
            return Err("cannot load file: unacceptable size".into());
        }
        let first = match (rec.moves.first(), rec.to_play) {
            (Some(&(c, _)), _) => c,
            (None, Some(c)) => c,
            (None, None) if rec.setup.iter().any(|&(c, _)| c == Color::Black) => Color::White,
            (None, None) => Color::Black,
        };
        self.size = rec.size;
        if let Some(k) = rec.komi {
            self.komi = k;
        }
        self.set_up(&rec.setup, first)?;
        let count = upto.map_or(rec.moves.len(), |m| {
            m.saturating_sub(1).min(rec.moves.len())
        });
        for (k, &(c, xy)) in rec.moves[..count].iter().enumerate() {
            let b = self.game.board();
            let mv = xy.map_or(Move::Pass, |(x, y)| Move::Play(b.point(x, y)));
            self.game.set_to_move(c);
            self.game
                .play(mv)
                .map_err(|e| format!("cannot load file: move {} is illegal ({e})", k + 1))?;
        }
        if let Some(&(c, _)) = rec.moves.get(count) {
            self.game.set_to_move(c);
        }
        Ok(String::new())
    }

    /// `printsgf [FILE]`: the game as an SGF record, written to FILE or
    /// given as the answer.
    pub(super) fn printsgf(&self, args: &[&str]) -> Reply {
        let b = self.game.board();
        let mut sgf = format!(
            "(;GM[1]FF[4]CA[UTF-8]AP[tengen:{}]SZ[{}]KM[{}]RU[Chinese]",
            env!("CARGO_PKG_VERSION"),
            self.size,
            self.komi
        );
        for (tag, color) in [("AB", Color::Black), ("AW", Color::White)] {
            let pts: Vec<String> = self
                .setup
                .iter()
                .filter(|&&(c, _)| c == color)
                .map(|&(_, (x, y))| format!("[{}]", sgf_point(x, y)))
                .collect();
            if !pts.is_empty() {
                sgf += &format!("{tag}{}", pts.concat());
            }
        }
        if !self.setup.is_empty() {
            let first = self.game.moves().first().map_or(b.to_move(), |&(c, _)| c);
            sgf += &format!("PL[{}]", if first == Color::Black { "B" } else { "W" });
        }
        for &(c, mv) in self.game.moves() {
            let at = match mv {
                Move::Pass => String::new(),
                Move::Play(p) => {
                    let (x, y) = b.xy(p);
                    sgf_point(x, y)
                }
            };
            sgf += &format!(";{}[{at}]", c.letter());
        }
        sgf += ")\n";
        match args.first() {
            Some(path) => std::fs::write(path, sgf)
                .map(|()| String::new())
                .map_err(|e| format!("cannot save file: {e}")),
            None => Ok(sgf),
        }
    }

    /// `kgs-time_settings none | absolute M | byoyomi M T P | canadian M T S`.
    pub(super) fn kgs_time_settings(&mut self, args: &[&str]) -> Reply {
        let secs = |i: usize| -> Result<Duration, String> {
            let s: f64 = number(args.get(i))?;
            (s.is_finite() && s >= 0.0)
                .then(|| Duration::from_secs_f64(s))
                .ok_or_else(|| "syntax error".into())
        };
        match args.first().copied() {
            Some("none") => self.clock = super::GtpClock::new(self.move_time),
            Some("absolute") => self.clock.set(secs(1)?, Duration::ZERO, 0),
            // Japanese periods: each is a period of one stone, and the
            // last is what counts for the clock
            Some("byoyomi") => {
                let _: u32 = number(args.get(3))?;
                self.clock.set(secs(1)?, secs(2)?, 1)
            }
            Some("canadian") => self.clock.set(secs(1)?, secs(2)?, number(args.get(3))?),
            _ => return Err("syntax error".into()),
        }
        Ok(String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_handicap_follows_the_specification() {
        let names = |n: usize, k: usize| -> Vec<String> {
            let g = Game::new(n, n, 0.0);
            fixed(n, k)
                .unwrap()
                .into_iter()
                .map(|(x, y)| coord::to_gtp(g.board(), Move::Play(g.board().point(x, y))))
                .collect()
        };
        assert_eq!(names(19, 2), ["D4", "Q16"]);
        assert_eq!(names(19, 4), ["D4", "Q16", "D16", "Q4"]);
        assert_eq!(names(19, 5), ["D4", "Q16", "D16", "Q4", "K10"]);
        assert_eq!(names(19, 6), ["D4", "Q16", "D16", "Q4", "D10", "Q10"]);
        assert_eq!(names(19, 9).len(), 9);
        assert_eq!(names(9, 2), ["C3", "G7"]);
        assert_eq!(names(13, 5), ["D4", "K10", "D10", "K4", "G7"]);
        assert!(fixed(18, 5).is_none() && fixed(18, 4).is_some());
        assert!(fixed(6, 2).is_none() && fixed(19, 10).is_none() && fixed(19, 1).is_none());
    }
}
