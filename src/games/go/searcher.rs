//! The searcher: chooses a move for a Go game within a budget, reusing its
//! tree from one move to the next. Two searches: on a value network
//! (`searcher/valued.rs`: PUCT, the network read at every leaf) where one
//! reads the board, else on playouts (`searcher/playouts.rs`: RAVE, the
//! network's policy a prior at busy nodes). Which one is what the game's
//! knowledge returns: the root state carries the network's history or not
//! ([`GoState::history`]).
//!
//! Passing is decided on the literal count, because the referee counts the
//! board as it stands: we pass only when that count wins (the opponent just
//! passed, or the search itself prefers passing), and never when it loses,
//! so dead stones get captured and open points filled first.

use super::history::History;
use super::policy::PolicyConfig;
use super::priors::PriorConfig;
use super::state::{to_action, to_move, GoState, PASS};
use crate::deps::log;
use crate::go::{Board, Game, Move, Point};
use crate::search::puct::{Puct, PuctConfig};
use crate::search::rng::Rng;
use crate::search::tree::{SearchGame, Tree, TreeConfig};
use crate::search::{Budget, Horizon};
use log::debug;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Config {
    pub seed: u64,
    pub tree: TreeConfig,
    pub policy: PolicyConfig,
    pub priors: PriorConfig,
    /// Whether a value network drives the search where one reads the
    /// board (else playouts do, with its policy a prior).
    pub network: bool,
    /// The search on a value network: its exploration and first-play
    /// urgency, and its utility's share for the score.
    pub puct: PuctConfig,
    pub score_utility: ScoreUtility,
    /// Weight of the score margin in playout results (0 = win/loss only).
    pub score_weight: f32,
    /// The margin, in points, that earns the whole score term (0: the
    /// board's area, so the term grows slowly and never saturates).
    pub score_scale: f32,
    /// Where the playouts' mean margin lies this many spreads from 0, the
    /// game counts as decided and the komi moves ([`dynamic_komi`]); 0
    /// never.
    pub dynamic_komi: f32,
    /// Keep the tree between moves.
    pub reuse: bool,
    /// At most this many playouts (network evaluations, on a value network)
    /// a move, however much time the clock allows: fast tuning matches at
    /// a fixed strength.
    pub playouts: Option<u64>,
    /// Search on the opponent's time too (the arena bot and GTP).
    pub ponder: bool,
}

/// KataGo's score utility: the static term around 0 and the dynamic one
/// around the score the root expects, pulled toward 0 by `zero_weight`;
/// scales in board sides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreUtility {
    pub static_factor: f32,
    pub dynamic_factor: f32,
    pub static_scale: f32,
    pub dynamic_scale: f32,
    pub zero_weight: f32,
}

impl Default for ScoreUtility {
    /// KataGo's GTP defaults.
    fn default() -> Self {
        ScoreUtility {
            static_factor: 0.1,
            dynamic_factor: 0.3,
            static_scale: 2.0,
            dynamic_scale: 0.75,
            zero_weight: 0.2,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            seed: 1,
            tree: TreeConfig {
                knowledge_at: knowledge_at(super::nn::paths::Path::chosen()),
                ..TreeConfig::default()
            },
            policy: PolicyConfig::default(),
            priors: PriorConfig::default(),
            network: true,
            puct: PuctConfig::default(),
            score_utility: ScoreUtility::default(),
            score_weight: 0.02,
            score_scale: 0.0,
            dynamic_komi: 1.64,
            reuse: true,
            playouts: None,
            ponder: true,
        }
    }
}

/// Playouts a node earns before the network reads it in the playout
/// search: the 8-bit paths evaluate b6c96 in a seventh of float's time
/// (`tengen bench --net`), so they take more evaluations.
pub fn knowledge_at(path: super::nn::paths::Path) -> u32 {
    if path != super::nn::paths::Path::Float {
        200
    } else {
        400
    }
}

/// What a search did, for logs and benchmarks.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub playouts: u64,
    pub elapsed: Duration,
    /// Estimated win rate of the chosen move for the side to move, 0..1.
    pub winrate: f32,
    /// Principal variation, starting with the chosen move.
    pub pv: Vec<Move>,
    /// Nodes in the tree after the search.
    pub nodes: usize,
    /// Playouts already under the root when the search began (tree reuse).
    pub reused: u64,
    /// Network evaluations in this search.
    pub net_evaluations: u64,
}

/// A tree one search leaves for the next.
enum Grown {
    Playouts(Tree<GoState>),
    Valued(Puct),
}

/// The tree kept from the last search, with the position at its root.
struct Kept {
    tree: Grown,
    board: Board,
    /// The game's move count at the tree's root.
    moves: usize,
    /// The komi its evaluations counted.
    komi: f32,
}

/// Chooses moves for a [`Game`] with Go's knowledge, keeping the tree from
/// one move to the next.
///
/// ```
/// use tengen::games::go::{Config, Searcher};
/// use tengen::go::Game;
/// use tengen::search::{Budget, Horizon};
///
/// let game = Game::new(9, 9, 7.5);
/// let mut s = Searcher::new(Config { ponder: false, ..Config::default() });
/// let no_limit = Horizon { moves_left: None };
/// let (mv, stats) = s.think(&game, no_limit, Budget::playouts(300));
/// assert!(game.is_legal(mv) && !mv.is_pass());
/// assert!(stats.playouts <= 300);
/// ```
pub struct Searcher {
    config: Config,
    rng: Rng,
    kept: Option<Kept>,
    /// Points added to Black's komi in the playouts ([`dynamic_komi`]),
    /// and the game's move count when it was set.
    shift: f32,
    shift_at: usize,
}

impl Searcher {
    pub fn new(config: Config) -> Searcher {
        let rng = Rng::new(config.seed);
        Searcher {
            config,
            rng,
            kept: None,
            shift: 0.0,
            shift_at: 0,
        }
    }

    /// Forgets the kept tree and the moved komi (a new game).
    pub fn clear(&mut self) {
        self.kept = None;
        self.shift = 0.0;
    }

    /// The search's view of `game` as the game counts it, with the
    /// network's history where one reads the board.
    fn counted_state(&self, game: &Game, horizon: Horizon) -> GoState {
        GoState {
            board: game.board().clone(),
            komi: game.counted_komi(),
            rules: game.rules(),
            moves_left: horizon
                .moves_left
                .map_or(u32::MAX, |m| m.min(u32::MAX as usize) as u32),
            passes: game.passes().min(2) as u8,
            passed: [crate::go::Color::Black, crate::go::Color::White].map(|c| game.passed(c)),
            over: game.is_over(),
            policy: self.config.policy,
            priors: self.config.priors,
            score_weight: self.config.score_weight,
            score_scale: self.config.score_scale,
            history: History::of(game, self.config.seed).filter(|_| self.config.network),
            optimism: [0.2, 1.0],
        }
    }

    /// The kept tree, moved down along the moves played since (if
    /// replaying them on the kept root gives this very board and its
    /// evaluations counted `komi`).
    fn kept_for(&mut self, game: &Game, komi: f32) -> Option<Grown> {
        let mut kept = self.kept.take()?;
        let played = game.moves();
        if !self.config.reuse
            || kept.komi != komi
            || kept.moves > played.len()
            || played.len() - kept.moves > 4
        {
            return None;
        }
        let since = &played[kept.moves..];
        let replayed = since.iter().all(|&(_, mv)| kept.board.play(mv).is_ok());
        if !replayed || kept.board != *game.board() {
            return None;
        }
        let actions: Vec<u16> = since.iter().map(|&(_, m)| to_action(m)).collect();
        let moved = match &mut kept.tree {
            Grown::Playouts(t) => t.advance(&actions),
            Grown::Valued(t) => t.advance(&actions),
        };
        moved.then_some(kept.tree)
    }

    /// Keeps `tree`, whose root is `game`'s position, for the next search.
    fn keep(&mut self, tree: Grown, game: &Game, komi: f32) {
        self.kept = Some(Kept {
            tree,
            board: game.board().clone(),
            moves: game.moves().len(),
            komi,
        });
    }

    /// Chooses a move for the side to move in `game`.
    pub fn think(&mut self, game: &Game, horizon: Horizon, budget: Budget) -> (Move, Stats) {
        self.think_avoiding(game, horizon, budget, &[])
    }

    /// [`Searcher::think`], never choosing a point of `avoid` (one a game
    /// the field tracker keeps would refuse): the next best move instead.
    pub fn think_avoiding(
        &mut self,
        game: &Game,
        horizon: Horizon,
        budget: Budget,
        avoid: &[Point],
    ) -> (Move, Stats) {
        let t0 = Instant::now();
        let budget = self.capped(budget);
        let literal = literal_margin(game);
        if game.pass_ends() && literal > 0.0 {
            debug!("passing ends the game and the count wins by {literal}: pass");
            let stats = Stats {
                elapsed: t0.elapsed(),
                winrate: 1.0,
                pv: vec![Move::Pass],
                ..Stats::default()
            };
            return (Move::Pass, stats);
        }
        let state = self.counted_state(game, horizon);
        if state.history.is_some() {
            return self.think_valued(game, state, budget, t0, avoid);
        }
        self.think_playouts(game, horizon, budget, t0, avoid)
    }

    /// Searches `game`, where the opponent is to move after our answer, on
    /// the opponent's time: until `stop` is raised or `budget` runs out.
    /// Chooses nothing; the tree is kept, so that the next [`think`], once
    /// the opponent's move is known, starts from that move's subtree.
    ///
    /// [`think`]: Searcher::think
    pub fn ponder(
        &mut self,
        game: &Game,
        horizon: Horizon,
        budget: Budget,
        stop: &AtomicBool,
    ) -> Stats {
        let state = self.counted_state(game, horizon);
        if state.is_over() {
            return Stats::default();
        }
        if state.history.is_some() {
            return self.ponder_valued(game, state, budget, stop);
        }
        self.ponder_playouts(game, horizon, budget, stop)
    }

    /// The budget with the configured cap on playouts.
    fn capped(&self, budget: Budget) -> Budget {
        Budget {
            playouts: match (budget.playouts, self.config.playouts) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            ..budget
        }
    }
}

/// A root move as the passing rules see it: its visits and its win rate
/// for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Candidate {
    action: u16,
    visits: u32,
    value: f32,
}

/// The move among the root's `ranked` candidates (most visits first): the
/// most-visited one, under the passing rules. Pass when the search prefers
/// it, or when the board is `settled` and no move does better than
/// passing, but only if the `literal` count (our margin) wins.
///
/// Late in the game a share of the playouts is forced through the pass
/// ([`PASS_SHARE`]), so that it may lead on playouts while the moves split
/// the rest: then the most-visited move is chosen if it looks clearly
/// better. (Passing on such a count gave GNU Go free moves in won games.)
fn choose(ranked: &[Candidate], literal: f32, settled: impl FnOnce() -> bool) -> Move {
    let Some(best) = ranked.first() else {
        return Move::Pass;
    };
    if best.action != PASS {
        let pass_as_good = ranked
            .iter()
            .find(|c| c.action == PASS)
            .is_some_and(|p| p.value >= best.value - SETTLED_TOLERANCE);
        if literal > 0.0 && pass_as_good && settled() {
            debug!("settled and won by {literal}: pass");
            return Move::Pass;
        }
        return to_move(best.action);
    }
    let play = ranked.iter().find(|c| c.action != PASS);
    if let Some(c) = play.filter(|c| c.value > best.value + SETTLED_TOLERANCE) {
        debug!(
            "pass leads at {:.3}, a move is better at {:.3}: no pass",
            best.value, c.value
        );
        return to_move(c.action);
    }
    if literal > 0.0 {
        return Move::Pass;
    }
    // passing would lose as the board stands: play on if anything is left
    match play {
        Some(c) => {
            debug!(
                "the count loses by {}: playing on instead of passing",
                -literal
            );
            to_move(c.action)
        }
        None => Move::Pass,
    }
}

/// `candidates` allowed by `ok`, most visits first (the better value breaks
/// a tie), then the move [`choose`] plays.
fn decide(
    mut candidates: Vec<Candidate>,
    ok: &dyn Fn(u16) -> bool,
    game: &Game,
    literal: f32,
) -> Move {
    candidates.retain(|c| ok(c.action));
    candidates.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.value.total_cmp(&a.value)));
    choose(&candidates, literal, || settled(game))
}

/// The playouts a search needs before its margins move the komi.
const MARGIN_PLAYOUTS: u64 = 500;

/// Where the next searches should count the game's end as a win for us,
/// as a margin over the game's komi, when this search's playouts ended
/// `mean` points ahead of us on average, `spread` their standard
/// deviation. Once every move wins or every move loses (the mean `decided`
/// spreads or more from 0), win/loss playouts no longer tell the moves
/// apart: winning, we aim one spread below the mean (a win then about 5 in
/// 6 playouts), so that a move that gives points away shows, while the
/// game stays won; losing, at the mean itself, so that what keeps points
/// and what loses them show (a lost game lost by as little as the board
/// allows). Never within [`CLOSE`] points of 0. Otherwise 0: the game's
/// own count.
pub fn dynamic_komi(mean: f32, spread: f32, decided: f32) -> f32 {
    if spread.is_nan() || spread <= 0.0 || decided <= 0.0 {
        0.0
    } else if mean >= (decided * spread).max(CLOSE) {
        mean - spread
    } else if mean <= -(decided * spread).max(CLOSE) {
        mean
    } else {
        0.0
    }
}

/// A margin the komi never moves for, however sure the playouts are:
/// their mean misjudges an endgame by a few points (a seki, a group they
/// kill that lives), and a game that close is fought for its win.
const CLOSE: f32 = 10.0;

/// Late in the game, at least one simulation in this many goes through the
/// pass.
const PASS_SHARE: u64 = 8;

/// How much worse than the best move passing may look in a settled
/// position and still be chosen (playout noise).
const SETTLED_TOLERANCE: f32 = 0.05;

/// The moves the root may hold: the pass and the legal ones (superko
/// included), but those of `avoid`. Filling an own false eye stays
/// possible: it is how a string in atari connects (docs/measurements.md,
/// own false eyes). True eyes are never among the playout tree's children
/// (`is_sensible`).
fn root_filter<'a>(game: &'a Game, avoid: &'a [Point]) -> impl Fn(u16) -> bool + 'a {
    move |a| {
        a == PASS
            || (game.is_legal(to_move(a)) && !avoid.iter().any(|p| to_action(Move::Play(*p)) == a))
    }
}

/// Whether the last move was a pass by the side not to move now.
fn other_side_passed(game: &Game) -> bool {
    let side = game.to_move();
    matches!(game.moves().last(), Some(&(c, Move::Pass)) if c != side)
}

/// Every empty region borders only one colour: nothing is left to claim.
fn settled(game: &Game) -> bool {
    let b = game.board();
    let score = b.area_score(game.komi());
    b.points()
        .zip(score.owner.iter())
        .all(|(p, owner)| !matches!(b.at(p), crate::go::Cell::Empty) || owner.is_some())
}

/// The literal count that decides the game (the counted komi included)
/// from the side to move's view; passing with it positive wins.
fn literal_margin(game: &Game) -> f32 {
    game.margin() * game.to_move().sign()
}

fn pv_text(game: &Game, pv: &[Move]) -> String {
    pv.iter()
        .map(|&m| crate::go::coord::to_gtp(game.board(), m))
        .collect::<Vec<_>>()
        .join(" ")
}

pub mod analysis;
mod playouts;
mod valued;

#[cfg(test)]
mod tests;
