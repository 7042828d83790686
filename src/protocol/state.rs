//! Keeping our game in step with the engine. The engine never says what the
//! opponent played: each turn we compare its field with our board after our
//! last answer and find the story that explains it ([`story`]): our answer
//! taken or refused, then the opponent's pass or one stone with its
//! captures. When nothing explains it we take the field as it is and keep
//! the history, so superko still knows every position that stood.
//!
//! On Riddles.io the fields also tell which version of the referee runs
//! (`docs/protocol.md`): `-1` marks mean 1.0.3; a point with no empty
//! neighbour left unmarked, or an opponent's stone only 1.0.2 accepts,
//! means 1.0.2. Until one shows, we play by 1.0.3, whose legal moves are
//! legal under 1.0.2 too. A `-1` may hide a stone (one set by a capture on
//! a marked point keeps the mark), so a marked cell matches a stone or an
//! empty point with no empty neighbour. Then two stories can show the same
//! field: the points lines tell most apart; the games they still cannot
//! tell apart are all kept, and we answer only what each of them accepts.

use super::lines::Line;
use super::settings::Settings;
use crate::deps::log;
use crate::go::{Board, Cell, Color, Game, Move, Point, Rules};
use crate::protocol::field::{self, Dialect, FieldCell};
use crate::search::Horizon;
use seen::Seen;
use story::{answer, choose, follow, refused, resync};

mod seen;
mod story;

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
    /// Other games the fields and points so far fit as well as ours: a
    /// stone under a `-1` can hide which of two captures was played. We
    /// answer only what all of them accept, and any of them takes over
    /// when a field rules ours out.
    alts: Vec<Alt>,
}

/// A game the fields fit besides ours, with its stale marks and its state
/// before our last answer.
#[derive(Clone)]
struct Alt {
    game: Game,
    stale: Vec<bool>,
    before: Option<(Game, Vec<bool>, Move)>,
}

/// At most this many other games are kept (a capture hidden under a mark
/// is rare; several at once rarer still).
const MAX_ALTS: usize = 8;

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
    /// The other games the fields so far allow beside [`Table::game`]
    /// (told apart when a field or a refusal rules them out).
    pub fn kept_games(&self) -> impl Iterator<Item = &Game> {
        self.alts.iter().map(|a| &a.game)
    }

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
        let avoid = self.avoid();
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

    /// Points not to answer: those the referee refused in this very
    /// position, and those another game the fields fit would refuse.
    fn avoid(&self) -> Vec<Point> {
        let Some(game) = &self.game else {
            return Vec::new();
        };
        let hash = game.board().hash();
        let mut avoid: Vec<Point> = self
            .refused
            .iter()
            .filter(|&&(h, _)| h == hash)
            .map(|&(_, p)| p)
            .collect();
        if !self.alts.is_empty() {
            avoid.extend(game.board().points().filter(|&p| {
                let mv = Move::Play(p);
                game.is_legal(mv) && self.alts.iter().any(|a| !a.game.is_legal(mv))
            }));
        }
        avoid
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
            self.alts.clear();
        }
        let game = self.game.get_or_insert_with(|| Game::new(w, h, komi));
        game.set_komi(komi);
        game
    }

    fn sync(&mut self, seen: Option<&Seen>, us: Color) {
        let before = self.before_ours.take();
        let marking = self.referee == Some(Rules::Riddles103);
        let shown = seen.and_then(|s| self.shown_points(s));
        let loosen = self.referee.is_none();
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let stale = &mut self.stale;
        let alts = std::mem::take(&mut self.alts);
        let resync_from = match seen {
            Some(s) => {
                let (mut stories, why) = follow(game, stale, us, s, marking, loosen);
                if let Some(b) = before {
                    stories.extend(refused(b, game.rules(), us, s, marking, loosen));
                }
                for alt in alts {
                    stories.extend(follow(&alt.game, &alt.stale, us, s, marking, loosen).0);
                    if let Some(b) = alt.before {
                        stories.extend(refused(b, game.rules(), us, s, marking, loosen));
                    }
                }
                let mut stories = choose(stories, shown).into_iter();
                match stories.next() {
                    Some(story) => {
                        if let Some((hash, p)) = story.refused {
                            let xy = story.game.board().xy(p);
                            log::warn!("the referee refused our move at {xy:?}: turn lost");
                            self.refused.push((hash, p));
                        }
                        if story.game.rules() != game.rules() {
                            log::info!(
                                "the opponent's stone is legal under 1.0.2 only: \
                                 the referee is 1.0.2"
                            );
                            self.referee = Some(story.game.rules());
                        }
                        (*game, *stale) = (story.game, story.stale);
                        self.alts = stories
                            .take(MAX_ALTS)
                            .map(|st| Alt {
                                game: st.game,
                                stale: st.stale,
                                before: None,
                            })
                            .collect();
                        if !self.alts.is_empty() {
                            log::info!(
                                "{} other games fit the field: answering what all accept",
                                self.alts.len()
                            );
                        }
                        None
                    }
                    None => {
                        log::warn!("resync from the field: {why}");
                        Some(s)
                    }
                }
            }
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
        for alt in &mut self.alts {
            alt.game.set_to_move(us);
        }
    }

    /// Black's and white's points as the engine showed them with `seen`.
    fn shown_points(&self, seen: &Seen) -> Option<[f64; 2]> {
        let names = self.settings.names(seen.dialect);
        let points = |name: &str| {
            self.points
                .iter()
                .rev()
                .find(|(p, _)| p == name)
                .map(|&(_, v)| v)
        };
        Some([points(&names[0])?, points(&names[1])?])
    }

    /// Plays our answer on our board (and on the other games that fit).
    pub fn play_ours(&mut self, mv: Move) {
        self.turns += 1;
        if let Some(g) = &mut self.game {
            if let Err(why) = g.check(mv) {
                log::error!("our own answer {mv:?} is illegal here: {why}");
            }
            self.before_ours = answer(g, &mut self.stale, mv);
        }
        for alt in &mut self.alts {
            alt.before = answer(&mut alt.game, &mut alt.stale, mv);
        }
    }

    /// The komi, when the points are Tromp-Taylor areas: black's points are
    /// its area and white's are its area plus komi.
    fn read_komi(&mut self, seen: &Seen) {
        let Some([b, w]) = self.shown_points(seen) else {
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
