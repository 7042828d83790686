//! Keeping our game in step with the engine. The engine never says what the
//! opponent played: each turn we compare its field with our board after our
//! last move and find the one stone (and its captures) or the pass that
//! explains it. When nothing explains it we take the field as it is and keep
//! the history, so superko still knows every position that stood.
//!
//! On Riddles.io the fields also tell which version of the referee runs
//! (`docs/protocol.md`): `-1` marks mean 1.0.3; a point with no empty
//! neighbour left unmarked means 1.0.2. Until one shows, we play by 1.0.3,
//! whose legal moves are legal under 1.0.2 too. A `-1` may hide a stone (one
//! set by a capture on a marked point keeps the mark), so a marked cell
//! matches a stone or an empty point with no empty neighbour.

use super::lines::Line;
use super::settings::Settings;
use crate::deps::log;
use crate::go::{Board, Cell, Color, Game, Move, Point, Rules};
use crate::protocol::field::{self, Dialect, FieldCell};
use crate::search::Horizon;

/// A field as read, in colours: each dialect's ids mapped to black and white
/// by that field's own dialect, so a change of dialect changes nothing.
#[derive(Clone, Debug)]
pub struct Seen {
    pub dialect: Dialect,
    pub width: usize,
    pub height: usize,
    /// The cells, a marked one (`-1`) read as empty.
    pub cells: Vec<Cell>,
    /// Whether each cell is marked `-1`.
    pub marked: Vec<bool>,
}

impl Seen {
    fn any_marked(&self) -> bool {
        self.marked.iter().any(|&m| m)
    }

    /// Whether some unmarked empty cell has no empty neighbour (what the
    /// 1.0.3 referee would have marked).
    fn unmarked_closed_point(&self) -> bool {
        let (w, h) = (self.width, self.height);
        let empty = |x: usize, y: usize| self.cells[y * w + x] == Cell::Empty;
        (0..w * h).any(|i| {
            let (x, y) = (i % w, i / w);
            empty(x, y)
                && !self.marked[i]
                && !(x > 0 && empty(x - 1, y)
                    || x + 1 < w && empty(x + 1, y)
                    || y > 0 && empty(x, y - 1)
                    || y + 1 < h && empty(x, y + 1))
        })
    }

    /// Whether `board` shows what this field shows: the same cells, and
    /// where the referee `marking` marks, `-1` exactly on the empty points
    /// with no empty neighbour and on the stones in `stale` ([`carry`]).
    fn fits(&self, board: &Board, stale: &[bool], marking: bool) -> bool {
        board.points().enumerate().all(|(i, p)| {
            let cell = board.at(p);
            let mark = marking
                && match cell {
                    Cell::Empty => board.nbr_count(p, Cell::Empty) == 0,
                    _ => stale.get(i).copied().unwrap_or(false),
                };
            self.marked[i] == mark && (mark || cell == self.cells[i])
        })
    }
}

/// The stones that read `-1` once `mv` is played on `before` (giving
/// `after`), from those that did (`stale`): a stone set on a point with no
/// empty neighbour keeps that point's mark, as the 1.0.3 referee updates
/// only empty points; a point emptied loses its mark.
fn carry(stale: &[bool], before: &Board, after: &Board, mv: Move) -> Vec<bool> {
    after
        .points()
        .enumerate()
        .map(|(i, p)| match after.at(p) {
            Cell::Black | Cell::White if mv.point() == Some(p) => {
                before.nbr_count(p, Cell::Empty) == 0
            }
            Cell::Black | Cell::White => stale.get(i).copied().unwrap_or(false),
            _ => false,
        })
        .collect()
}

/// What the caller needs to answer this turn.
#[derive(Clone, Debug)]
pub struct Turn {
    pub us: Color,
    pub horizon: Horizon,
    /// Our moves still to play by the round limit, this one included.
    pub own_moves_to_limit: usize,
    /// Points not to answer: the referee refused them in this very
    /// position.
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
    /// The Riddles.io referee's version, once a field has shown it.
    referee: Option<Rules>,
    /// The stones of our game that the referee shows as `-1` ([`carry`]).
    stale: Vec<bool>,
    /// Our game before our last answer (with its `stale`), and that
    /// answer: if the referee refused it, the game goes on from there.
    before_ours: Option<(Game, Vec<bool>, Move)>,
    /// Answers the referee refused, with the position (hash) they were
    /// refused in.
    refused: Vec<(u64, Point)>,
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
        let marked = text.split(',').map(|c| c.trim() == "-1").collect();
        Ok(Seen {
            dialect: f.dialect,
            width,
            height,
            cells,
            marked,
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
        let rules = self.rules_shown(seen.as_ref());
        let game = self.game_sized(seen.as_ref());
        if game.rules() != rules {
            game.set_rules(rules);
        }
        self.sync(seen.as_ref(), us);
        let hash = self.game.as_ref().map(|g| g.board().hash());
        let avoid = self
            .refused
            .iter()
            .filter(|&&(h, _)| Some(h) == hash)
            .map(|&(_, p)| p)
            .collect();
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

    /// The rules the fields show: the standard ones on TheAIGames; on
    /// Riddles.io the referee's version once known, 1.0.3 until then.
    fn rules_shown(&mut self, seen: Option<&Seen>) -> Rules {
        let dialect = seen.or(self.last.as_ref()).map(|s| s.dialect);
        if dialect != Some(Dialect::Riddles) {
            return Rules::Standard;
        }
        if let Some(s) = seen {
            if s.any_marked() {
                if self.referee == Some(Rules::Riddles102) {
                    log::warn!("-1 marks after all: the referee is 1.0.3");
                }
                if self.referee != Some(Rules::Riddles103) {
                    log::info!("-1 marks: the Riddles.io referee is 1.0.3");
                }
                self.referee = Some(Rules::Riddles103);
            } else if s.unmarked_closed_point() {
                match self.referee {
                    Some(Rules::Riddles103) => log::warn!(
                        "a point with no empty neighbour is not marked, \
                         which 1.0.3 would do: keeping its rules"
                    ),
                    Some(_) => {}
                    None => {
                        log::info!("no -1 marks where 1.0.3 puts them: the referee is 1.0.2");
                        self.referee = Some(Rules::Riddles102);
                    }
                }
            }
        }
        self.referee.unwrap_or(Rules::Riddles103)
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
        let before = self.before_ours.take();
        let marking = self.referee == Some(Rules::Riddles103);
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let stale = &mut self.stale;
        let resync_from = match seen {
            Some(s) => match follow(game, stale, us, s, marking) {
                Ok(()) => None,
                Err(why) => match before.and_then(|b| refused(b, us, s, marking)) {
                    Some((g, marks, hash, p)) => {
                        log::warn!(
                            "the referee refused our move at {:?}: turn lost",
                            g.board().xy(p)
                        );
                        self.refused.push((hash, p));
                        (*game, *stale) = (g, marks);
                        None
                    }
                    None => {
                        log::warn!("resync from the field: {why}");
                        Some(s)
                    }
                },
            },
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
            *stale = resync(game, us, s);
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
            let before = g.clone();
            if let Err(why) = g.play(mv) {
                log::error!("our own answer {mv:?} is illegal here: {why}");
            }
            let stale = carry(&self.stale, before.board(), g.board(), mv);
            let old = std::mem::replace(&mut self.stale, stale);
            self.before_ours = mv.point().is_some().then_some((before, old, mv));
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
/// a pass) or one opponent stone with its captures. The stone may hide under
/// a `-1` mark if it captured. `stale` follows the game ([`carry`]).
fn follow(
    game: &mut Game,
    stale: &mut Vec<bool>,
    us: Color,
    seen: &Seen,
    marking: bool,
) -> Result<(), String> {
    let board = game.board();
    if game.to_move() == us {
        return if seen.fits(board, stale, marking) {
            Ok(())
        } else {
            Err("the field changed while it was our turn".into())
        };
    }
    if seen.fits(board, stale, marking) {
        log::debug!("the opponent passed");
        return game.play(Move::Pass).map(|_| ()).map_err(|e| e.to_string());
    }
    let them = us.opp();
    let ours = board.cells();
    let at = |i: usize| board.point(i % board.width(), i / board.width());
    let mut new: Vec<usize> = (0..ours.len())
        .filter(|&i| ours[i] == Cell::Empty && seen.cells[i] == them.stone())
        .collect();
    let mut why = format!("{} new {them} stones", new.len());
    if new.len() > 1 {
        return Err(why);
    }
    if new.is_empty() {
        // a capture on a marked point shows no new stone: any marked point
        // where a stone of theirs captures may be it
        new = (0..ours.len())
            .filter(|&i| seen.marked[i] && ours[i] == Cell::Empty)
            .filter(|&i| board.captures_at(them, at(i)))
            .collect();
        why = format!("no new {them} stone, nor a capture under a mark");
    }
    for i in new {
        let p = at(i);
        let mut next = game.clone();
        match next.play(Move::Play(p)) {
            Err(e) => why = format!("the opponent's stone at {:?} is illegal: {e}", board.xy(p)),
            Ok(_) => {
                let marks = carry(stale, board, next.board(), Move::Play(p));
                if seen.fits(next.board(), &marks, marking) {
                    log::debug!("the opponent played {:?}", board.xy(p));
                    (*game, *stale) = (next, marks);
                    return Ok(());
                }
                why = "stones changed that the opponent's move does not explain".into();
            }
        }
    }
    Err(why)
}

/// The game as it stands if the referee refused our answer and the
/// opponent then moved: `before` is our game (and its stale marks) before
/// that answer. Returns it with its marks, the position (hash) the answer
/// was refused in and the refused point, when the field shows just that.
fn refused(
    (mut game, mut stale, mv): (Game, Vec<bool>, Move),
    us: Color,
    seen: &Seen,
    marking: bool,
) -> Option<(Game, Vec<bool>, u64, Point)> {
    let p = mv.point()?;
    if game.to_move() != us {
        return None;
    }
    let hash = game.board().hash();
    game.lose_turn();
    follow(&mut game, &mut stale, us, seen, marking).ok()?;
    Some((game, stale, hash, p))
}

/// Takes the field as the position, keeping the history. A marked cell
/// keeps the stone our board has there, if any. Returns the stones left
/// under marks.
fn resync(game: &mut Game, us: Color, seen: &Seen) -> Vec<bool> {
    let ours = game.board().cells();
    let kept = |i: usize| seen.marked[i] && ours.get(i).is_some_and(|c| c.is_stone());
    let cells: Vec<Cell> = (0..seen.cells.len())
        .map(|i| if kept(i) { ours[i] } else { seen.cells[i] })
        .collect();
    match Board::from_cells(seen.width, seen.height, &cells) {
        Ok(mut b) => {
            b.set_to_move(us);
            game.reset_position(b);
            (0..cells.len()).map(kept).collect()
        }
        Err(why) => {
            log::warn!("cannot take the field as a position: {why}");
            Vec::new()
        }
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
