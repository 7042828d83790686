//! Keeping our game in step with the engine. The engine never says what the
//! opponent played: each turn we compare its field with our board after our
//! last move and find the one stone (and its captures) or the pass that
//! explains it. When nothing explains it we take the field as it is and keep
//! the history, so superko still knows every position that stood.

use super::lines::Line;
use super::settings::Settings;
use crate::go::field::{self, Dialect, FieldCell};
use crate::go::{Board, Cell, Color, Game, Move, Point};
use crate::search::Horizon;

/// A field as read, in colours: each dialect's ids mapped to black and white
/// by that field's own dialect, so a change of dialect changes nothing.
#[derive(Clone, Debug)]
pub struct Seen {
    pub dialect: Dialect,
    pub width: usize,
    pub height: usize,
    pub cells: Vec<Cell>,
    /// Points Riddles.io marks `-1`: empty, but the engine might refuse them.
    pub hints: Vec<usize>,
}

/// What the caller needs to answer this turn.
#[derive(Clone, Debug)]
pub struct Turn {
    pub us: Color,
    pub horizon: Horizon,
    /// Our moves still to play by the round limit, this one included.
    pub own_moves_to_limit: usize,
    /// Points not to answer (the engine's `-1` hints).
    pub avoid: Vec<Point>,
}

const DEFAULT_KOMI: f32 = 7.5;

#[derive(Default)]
pub struct Table {
    pub settings: Settings,
    game: Option<Game>,
    us: Option<Color>,
    /// The newest field since our last answer.
    pending: Option<Seen>,
    /// The field our game was last synced with.
    last: Option<Seen>,
    round: Option<usize>,
    points: Vec<(String, f64)>,
    komi: Option<f32>,
    turns: usize,
    resyncs: usize,
}

impl Table {
    pub fn new() -> Table {
        Table::default()
    }

    /// The game as we know it (an empty 19x19 board before the first turn).
    pub fn game(&self) -> Game {
        self.game
            .clone()
            .unwrap_or_else(|| Game::new(19, 19, DEFAULT_KOMI))
    }

    /// How often the board had to be taken from the field as it stood.
    pub fn resyncs(&self) -> usize {
        self.resyncs
    }

    /// Takes in a setting or an update. Actions, blank lines and junk are the
    /// caller's.
    pub fn apply(&mut self, line: Line) {
        match line {
            Line::Setting(s) => self.settings.apply(s),
            Line::Round(n) if n > 0 => self.round = Some(n as usize),
            Line::Round(n) => log::warn!("ignoring round {n}"),
            Line::MoveNumber(n) => log::debug!("move {n}"),
            Line::Field(text) => match self.read_field(&text) {
                Ok(seen) => {
                    self.pending = Some(seen);
                    self.points.clear();
                }
                Err(why) => log::warn!("ignoring field: {why}"),
            },
            Line::Points { player, value } => self.points.push((player, value)),
            Line::Move { .. } | Line::Blank | Line::Junk(_) => {}
        }
    }

    fn read_field(&self, text: &str) -> Result<Seen, String> {
        let f = field::parse(text, None)?;
        let n = f.cells.len();
        let (width, height) = match (self.settings.width, self.settings.height) {
            (Some(w), Some(h)) => (w, h),
            (Some(s), None) | (None, Some(s)) => (s, n / s),
            (None, None) => {
                let s = (n as f64).sqrt().round() as usize;
                (s, s)
            }
        };
        if width * height != n || !(1..=crate::go::MAX_SIZE).contains(&height) {
            return Err(format!("{n} cells do not make a {width}x{height} board"));
        }
        let black = super::settings::black_id(f.dialect);
        let cells = f
            .cells
            .iter()
            .map(|c| match c {
                FieldCell::Empty => Cell::Empty,
                FieldCell::Stone(id) if *id == black => Cell::Black,
                FieldCell::Stone(_) => Cell::White,
            })
            .collect();
        let hints = text
            .split(',')
            .enumerate()
            .filter(|(_, c)| c.trim() == "-1")
            .map(|(i, _)| i)
            .collect();
        Ok(Seen {
            dialect: f.dialect,
            width,
            height,
            cells,
            hints,
        })
    }

    /// Our colour: from the settings when they tell it; otherwise the guess
    /// made at the first turn (the side to move by the stone count).
    fn our_color(&mut self, seen: Option<&Seen>) -> Color {
        let dialect = seen.or(self.last.as_ref()).map(|s| s.dialect);
        if let Some(c) = self.settings.our_color(dialect) {
            if self.us.is_some_and(|u| u != c) {
                log::warn!("the settings make us {c} after all");
            }
            self.us = Some(c);
            return c;
        }
        *self.us.get_or_insert_with(|| {
            let count = |k: Cell| seen.map_or(0, |s| s.cells.iter().filter(|&&c| c == k).count());
            let c = if count(Cell::Black) > count(Cell::White) {
                Color::White
            } else {
                Color::Black
            };
            log::warn!("no settings tell our colour; guessing {c} from the stones");
            c
        })
    }

    /// Brings the game up to date for our turn: infers the opponent's move
    /// from the newest field, or resyncs from it.
    pub fn begin_turn(&mut self) -> Turn {
        let seen = self.pending.take();
        let us = self.our_color(seen.as_ref());
        if self.turns == 0 && self.komi.is_none() {
            if let Some(s) = &seen {
                self.read_komi(s);
            }
        }
        let dialect = seen.as_ref().or(self.last.as_ref()).map(|s| s.dialect);
        let game = self.game_sized(seen.as_ref());
        // one version of the Riddles.io referee refuses these fills; other
        // referees allow them, and connecting at a false eye needs one
        game.forbid_own_eye_fills(dialect == Some(Dialect::Riddles));
        let avoid = seen.as_ref().map_or_else(Vec::new, |s| {
            let b = game.board();
            s.hints
                .iter()
                .map(|&i| b.point(i % s.width, i / s.width))
                .collect()
        });
        self.sync(seen.as_ref(), us);
        if seen.is_some() {
            self.last = seen;
        }
        let round = self.round.unwrap_or(self.turns + 1);
        let own = self.settings.max_rounds.saturating_sub(round).max(1);
        let plies = match us {
            Color::Black => 2 * own,
            Color::White => 2 * own - 1,
        };
        Turn {
            us,
            horizon: Horizon {
                moves_left: Some(plies),
            },
            own_moves_to_limit: own,
            avoid,
        }
    }

    /// Our game, on a board the size of the field (a new game if the size
    /// changed), with the komi as known now.
    fn game_sized(&mut self, seen: Option<&Seen>) -> &mut Game {
        let komi = self.komi.unwrap_or(DEFAULT_KOMI);
        let (w, h) = match (seen, &self.game) {
            (Some(s), _) => (s.width, s.height),
            (None, Some(g)) => (g.board().width(), g.board().height()),
            (None, None) => (
                self.settings.width.unwrap_or(19),
                self.settings.height.unwrap_or(19),
            ),
        };
        let size = |g: &Game| (g.board().width(), g.board().height());
        if self.game.as_ref().is_some_and(|g| size(g) != (w, h)) {
            log::warn!("the board is now {w}x{h}: starting a new game");
            self.game = None;
        }
        let game = self.game.get_or_insert_with(|| Game::new(w, h, komi));
        game.set_komi(komi);
        game
    }

    fn sync(&mut self, seen: Option<&Seen>, us: Color) {
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let resync_from = match seen {
            Some(s) => follow(game, us, &s.cells).err().map(|why| {
                log::warn!("resync from the field: {why}");
                s
            }),
            // asked again with no news: our answer was not taken
            None if self.turns > 0 && game.to_move() != us => match &self.last {
                Some(last) => {
                    log::warn!("resync: asked again without a new field");
                    Some(last)
                }
                None => {
                    log::info!("no field: taking the opponent's turn as a pass");
                    let _ = game.play(Move::Pass);
                    None
                }
            },
            None => None,
        };
        if let Some(s) = resync_from {
            self.resyncs += 1;
            resync(game, us, s);
        }
        if game.to_move() != us {
            log::warn!("asked to move as {us} with {} to move", game.to_move());
            game.set_to_move(us);
        }
    }

    /// Plays our answer on our board.
    pub fn play_ours(&mut self, mv: Move) {
        self.turns += 1;
        if let Some(g) = &mut self.game {
            if let Err(why) = g.play(mv) {
                log::error!("our own answer {mv:?} is illegal here: {why}");
            }
        }
    }

    /// The komi, when the points are Tromp-Taylor areas: black's points are
    /// its area and white's are its area plus komi.
    fn read_komi(&mut self, seen: &Seen) {
        let names = self.settings.names(seen.dialect);
        let points = |name: &str| {
            self.points
                .iter()
                .rev()
                .find(|(p, _)| p == name)
                .map(|&(_, v)| v)
        };
        let (Some(b), Some(w)) = (points(&names[0]), points(&names[1])) else {
            return;
        };
        let Ok(board) = Board::from_cells(seen.width, seen.height, &seen.cells) else {
            return;
        };
        let area = board.area_score(0.0);
        let komi = w - f64::from(area.white);
        if (b - f64::from(area.black)).abs() < 1e-6 && komi.abs() <= 100.0 {
            log::info!("komi {komi}, read from the points");
            self.komi = Some(komi as f32);
        } else {
            log::info!("points {b}/{w} do not show the komi; using {DEFAULT_KOMI}");
        }
    }
}

/// Explains the field from our board: no change (if the opponent is to move,
/// a pass) or one opponent stone with its captures.
fn follow(game: &mut Game, us: Color, cells: &[Cell]) -> Result<(), String> {
    let board = game.board();
    let ours = board.cells();
    if game.to_move() == us {
        return if ours == cells {
            Ok(())
        } else {
            Err("the field changed while it was our turn".into())
        };
    }
    if ours == cells {
        log::debug!("the opponent passed");
        return game.play(Move::Pass).map(|_| ()).map_err(|e| e.to_string());
    }
    let new: Vec<usize> = (0..cells.len())
        .filter(|&i| ours[i] == Cell::Empty && cells[i] == us.opp().stone())
        .collect();
    let &[i] = new.as_slice() else {
        return Err(format!("{} new {} stones", new.len(), us.opp()));
    };
    let p = board.point(i % board.width(), i / board.width());
    let mut next = game.clone();
    next.play(Move::Play(p))
        .map_err(|e| format!("the opponent's stone at {:?} is illegal: {e}", board.xy(p)))?;
    if next.board().cells() != cells {
        return Err("stones changed that the opponent's move does not explain".into());
    }
    log::debug!("the opponent played {:?}", board.xy(p));
    *game = next;
    Ok(())
}

/// Takes the field as the position, keeping the history.
fn resync(game: &mut Game, us: Color, seen: &Seen) {
    match Board::from_cells(seen.width, seen.height, &seen.cells) {
        Ok(mut b) => {
            b.set_to_move(us);
            game.reset_position(b);
        }
        Err(why) => log::warn!("cannot take the field as a position: {why}"),
    }
}

/// The field text of a position in a dialect, for tests and tools.
pub fn field_text(board: &Board, dialect: Dialect) -> String {
    let black = super::settings::black_id(dialect);
    let white = if dialect == Dialect::Riddles { 1 } else { 2 };
    field::write(
        dialect,
        board.points().map(|p| match board.at(p) {
            Cell::Black => Some(black),
            Cell::White => Some(white),
            _ => None,
        }),
    )
}

#[cfg(test)]
mod tests;
