//! The searcher: runs the MC-RAVE tree on a Go game within a budget,
//! reuses the tree from one move to the next, and decides when to pass.
//!
//! Passing is decided on the literal count, because the referee counts the
//! board as it stands: we pass only when that count wins (the opponent just
//! passed, or the search itself prefers passing), and never when it loses,
//! so dead stones get captured and open points filled first.

use super::policy::PolicyConfig;
use super::priors::{self, PriorConfig};
use super::state::{to_action, to_move, GoState, PASS};
use super::Stats;
use crate::deps::log;
use crate::go::{Board, Color, Game, Move};
use crate::search::grow::{grow, Grow};
use crate::search::rng::Rng;
use crate::search::tree::{Node, SearchGame, Tree, TreeConfig};
use crate::search::{Budget, Horizon};
use log::debug;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct Config {
    pub seed: u64,
    pub tree: TreeConfig,
    pub policy: PolicyConfig,
    pub priors: PriorConfig,
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
    /// At most this many playouts a move, however much time the clock
    /// allows: fast tuning matches at a fixed strength.
    pub playouts: Option<u64>,
    /// Search on the opponent's time too (the arena bot and GTP).
    pub ponder: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            seed: 1,
            tree: TreeConfig {
                knowledge_at: knowledge_at(super::net::Path::chosen()),
                ..TreeConfig::default()
            },
            policy: PolicyConfig::default(),
            priors: PriorConfig::default(),
            score_weight: 0.02,
            score_scale: 0.0,
            dynamic_komi: 1.64,
            reuse: true,
            playouts: None,
            ponder: true,
        }
    }
}

/// Playouts a node earns before the network reads it. The 8-bit paths
/// evaluate in about half float's time (`tengen bench --net`), so they
/// take twice the evaluations for about the same share of the clock:
/// `bench --search` made 222 evaluations and 9 931 playouts a second at
/// 200 on vnni512, 104 and 10 649 at 400 on float.
pub fn knowledge_at(path: super::net::Path) -> u32 {
    if path.is_int8() {
        200
    } else {
        400
    }
}

/// The tree kept from the last search, with the position at its root.
struct Kept {
    tree: Tree<GoState>,
    board: Board,
    /// The game's move count at the tree's root.
    moves: usize,
    /// The komi its playouts counted.
    komi: f32,
}

/// Chooses moves for a [`Game`] by RAVE-MCTS with Go's knowledge, keeping
/// the tree from one move to the next.
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

    /// What `n` playouts of the search's policy say of `game`'s position,
    /// from the side to move's view: the share won (a draw half) and the
    /// mean margin in points, komi counted. The search's only read of a
    /// position without a tree; `tengen evaluate` compares it with a
    /// teacher's.
    pub fn rollouts(&mut self, game: &Game, n: u32) -> (f32, f32) {
        let root = self.counted_state(game, Horizon { moves_left: None });
        let mut state = root.clone();
        let mut amaf = crate::search::tree::Amaf::new(root.actions());
        let (mut won, mut margin) = (0.0f64, 0.0f64);
        for _ in 0..n.max(1) {
            state.clone_from(&root);
            state.score_weight = 0.0;
            let black = state.playout(&mut self.rng, &mut amaf);
            won += f64::from(black);
            margin += f64::from(state.board.area_margin() as f32 - state.komi);
        }
        let n = f64::from(n.max(1));
        let (won, margin) = ((won / n) as f32, (margin / n) as f32);
        match game.to_move() {
            Color::Black => (won, margin),
            Color::White => (1.0 - won, -margin),
        }
    }

    /// Forgets the kept tree and the moved komi (a new game).
    pub fn clear(&mut self) {
        self.kept = None;
        self.shift = 0.0;
    }

    /// The search's view of `game`, its playouts counted with the moved
    /// komi.
    fn state(&self, game: &Game, horizon: Horizon) -> GoState {
        let mut state = self.counted_state(game, horizon);
        state.komi += self.shift;
        state
    }

    /// The search's view of `game`, its playouts counted as the game
    /// counts: for the readings GUIs and tools show.
    fn counted_state(&self, game: &Game, horizon: Horizon) -> GoState {
        GoState {
            board: game.board().clone(),
            komi: game.counted_komi(),
            rules: game.rules(),
            moves_left: horizon
                .moves_left
                .map_or(u32::MAX, |m| m.min(u32::MAX as usize) as u32),
            passes: game.passes().min(2) as u8,
            passed: [Color::Black, Color::White].map(|c| game.passed(c)),
            over: game.is_over(),
            policy: self.config.policy,
            priors: self.config.priors,
            score_weight: self.config.score_weight,
            score_scale: self.config.score_scale,
        }
    }

    /// The tree for `game`: the kept one moved down along the moves played
    /// since (if replaying them on the kept root gives this very board), or
    /// a new one.
    fn tree_for(&mut self, game: &Game, state: &GoState) -> Tree<GoState> {
        if let Some(mut kept) = self.kept.take() {
            let played = game.moves();
            let same_count = kept.komi == state.komi;
            if self.config.reuse
                && same_count
                && kept.moves <= played.len()
                && played.len() - kept.moves <= 4
            {
                let since = &played[kept.moves..];
                let replayed = since.iter().all(|&(_, mv)| kept.board.play(mv).is_ok());
                if replayed && kept.board == *game.board() {
                    let actions: Vec<u16> = since.iter().map(|&(_, m)| to_action(m)).collect();
                    if kept.tree.advance(&actions) {
                        return kept.tree;
                    }
                }
            }
        }
        Tree::new(state, self.config.tree.clone())
    }

    /// Chooses a move for the side to move in `game`.
    pub fn think(&mut self, game: &Game, horizon: Horizon, budget: Budget) -> (Move, Stats) {
        let t0 = Instant::now();
        let budget = Budget {
            playouts: match (budget.playouts, self.config.playouts) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            ..budget
        };
        let me = game.to_move();
        if game.moves().len() < self.shift_at {
            self.shift = 0.0; // an undo, or another game
        }
        let state = self.state(game, horizon);
        let literal = literal_margin(game, me);
        let opponent_passed = other_side_passed(game);
        if game.pass_ends() && literal > 0.0 {
            debug!("passing ends the game and the count wins by {literal}: pass");
            return (
                Move::Pass,
                Stats {
                    elapsed: t0.elapsed(),
                    winrate: 1.0,
                    pv: vec![Move::Pass],
                    ..Stats::default()
                },
            );
        }

        let root_ok = root_filter(game);
        let mut tree = self.tree_for(game, &state);
        if tree.crowded() {
            tree.compact();
        }
        tree.expand_root(&state, &root_ok);
        let reused = tree.root().playouts as u64;
        // moving or compacting the kept tree: logged apart, and left out of
        // the rate the early stop measures
        let setup = t0.elapsed();

        // Late in the game passing must be measured, not left to the
        // selection, which never tries it while other moves look as good.
        // (Not merely when settled: a board of one colour is settled too.)
        let measure_pass = opponent_passed || state.is_late();
        let given = tree.knowledge_given;
        let how = Grow {
            forced: measure_pass.then_some((PASS, PASS_SHARE)),
            ..Grow::default()
        };
        let playouts = grow(
            &mut tree,
            &state,
            &mut self.rng,
            &budget,
            how,
            Instant::now(),
        );

        if let Some(late) = budget
            .deadline
            .map(|d| Instant::now().saturating_duration_since(d))
        {
            if late.as_millis() > 30 {
                log::warn!(
                    "the search stopped {} ms after its deadline ({playouts} playouts in {} ms)",
                    late.as_millis(),
                    t0.elapsed().as_millis()
                );
            }
        }
        let mv = self.decide(&tree, game, literal, &root_ok);
        self.move_komi(&tree, game);
        let mut stats = self.stats(&tree, mv, playouts, t0);
        stats.reused = reused;
        stats.net_evaluations = tree.knowledge_given - given;
        debug!(
            "{} playouts ({} reused, {} network evaluations) in {:.0} ms (setup {:.0} ms, {:.0}/s), win {:.1} %, tree {} nodes, pv {}",
            stats.playouts,
            stats.reused,
            stats.net_evaluations,
            stats.elapsed.as_secs_f64() * 1000.0,
            setup.as_secs_f64() * 1000.0,
            stats.playouts as f64 / stats.elapsed.as_secs_f64().max(1e-9),
            stats.winrate * 100.0,
            stats.nodes,
            pv_text(game, &stats.pv)
        );
        if log::log_enabled!(log::Level::Debug) {
            let mut ranked: Vec<_> = tree.children().iter().collect();
            ranked.sort_by_key(|c| std::cmp::Reverse(c.playouts));
            let name = |c: &Node| crate::go::coord::to_gtp(game.board(), to_move(c.action));
            let text: Vec<String> = ranked
                .iter()
                .take(5)
                .map(|c| format!("{} {}/{:.3}", name(c), c.playouts, c.value()))
                .collect();
            debug!("top moves (playouts/value): {}", text.join(", "));
            // every root move, for asking why a move went unexplored
            let traced = if log::log_enabled!(log::Level::Trace) {
                &ranked[..]
            } else {
                &[]
            };
            for c in traced {
                log::trace!(
                    "{} playouts {} value {:.3} (visits {:.0} with the prior) amaf {:.3} of {:.0}",
                    name(c),
                    c.playouts,
                    c.value(),
                    c.visits,
                    c.amaf_wins / c.amaf_visits.max(1e-3),
                    c.amaf_visits
                );
            }
        }
        self.keep(tree, game, state.komi);
        (mv, stats)
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
        let t0 = Instant::now();
        let state = self.state(game, horizon);
        if state.is_over() {
            return Stats::default();
        }
        let mut tree = self.tree_for(game, &state);
        // on the opponent's time: drop what the last two moves left behind
        tree.compact();
        tree.expand_root(&state, root_filter(game));
        let reused = tree.root().playouts as u64;
        let given = tree.knowledge_given;
        let measure_pass = other_side_passed(game) || state.is_late();
        // the tree alone spreads its playouts over the replies it likes for
        // the opponent; half of them go to the reply the learnt prior (fitted
        // to GNU Go's moves) expects instead
        let focus = priors::likeliest(&state.board).map(|p| p.0);
        let how = Grow {
            forced: measure_pass.then_some((PASS, PASS_SHARE)),
            focus,
            stop: Some(stop),
        };
        let playouts = grow(&mut tree, &state, &mut self.rng, &budget, how, t0);
        let pv: Vec<Move> = tree
            .principal_variation(12)
            .into_iter()
            .map(to_move)
            .collect();
        debug!(
            "pondered {playouts} playouts ({reused} reused, {} network evaluations) in {:.0} ms, tree {} nodes, pv {}, expected {}",
            tree.knowledge_given - given,
            t0.elapsed().as_secs_f64() * 1000.0,
            tree.nodes.len(),
            pv_text(game, &pv),
            pv_text(game, &[focus.map_or(Move::Pass, to_move)])
        );
        let stats = Stats {
            playouts,
            elapsed: t0.elapsed(),
            nodes: tree.nodes.len(),
            reused,
            pv,
            ..Stats::default()
        };
        self.keep(tree, game, state.komi);
        stats
    }

    /// Keeps `tree`, whose root is `game`'s position, for the next search.
    /// `komi`: the one its playouts counted.
    fn keep(&mut self, tree: Tree<GoState>, game: &Game, komi: f32) {
        self.kept = Some(Kept {
            tree,
            board: game.board().clone(),
            moves: game.moves().len(),
            komi,
        });
    }

    /// Sets the komi the next searches count with from what this search's
    /// playouts said of `game`'s margin ([`dynamic_komi`]). A change drops
    /// the kept tree (its values counted the old komi), so small changes
    /// wait.
    fn move_komi(&mut self, tree: &Tree<GoState>, game: &Game) {
        let margins = tree.root_margin();
        if self.config.dynamic_komi <= 0.0 || margins.playouts < MARGIN_PLAYOUTS {
            return;
        }
        let me = game.to_move().sign();
        // the playouts counted `shift` more komi against Black than the game
        let mean = (margins.mean() + self.shift) * me;
        let spread = margins.spread();
        let target = dynamic_komi(mean, spread, self.config.dynamic_komi) * me;
        if (target - self.shift).abs() >= (spread / 4.0).max(1.0) || target == 0.0 {
            if target != self.shift {
                debug!(
                    "playouts' margin {mean:+.1} ± {spread:.1} for us over {} playouts: komi moved by {target:+.1} for Black",
                    margins.playouts
                );
            }
            self.shift = target;
            self.shift_at = game.moves().len();
        }
    }

    /// The most-visited legal move, under the passing rules ([`choose`]).
    fn decide(
        &self,
        tree: &Tree<GoState>,
        game: &Game,
        literal: f32,
        ok: &dyn Fn(u16) -> bool,
    ) -> Move {
        let mut ranked: Vec<_> = tree.children().iter().filter(|c| ok(c.action)).collect();
        ranked.sort_by(|a, b| {
            b.playouts
                .cmp(&a.playouts)
                .then(b.value().total_cmp(&a.value()))
        });
        choose(&ranked, literal, || settled(game))
    }

    fn stats(&self, tree: &Tree<GoState>, mv: Move, playouts: u64, t0: Instant) -> Stats {
        let a = to_action(mv);
        let winrate = tree
            .children()
            .iter()
            .find(|c| c.action == a)
            .map_or(0.5, |c| c.value());
        let mut pv = vec![mv];
        if let Some(child_line) = tree.principal_variation(12).split_first() {
            if *child_line.0 == a {
                pv.extend(child_line.1.iter().map(|&x| to_move(x)));
            }
        }
        Stats {
            playouts,
            elapsed: t0.elapsed(),
            winrate,
            pv,
            nodes: tree.nodes.len(),
            ..Stats::default()
        }
    }
}

/// The move among the root's children `ranked` (most playouts first):
/// the most-visited one, under the passing rules. Pass when the search
/// prefers it, or when the board is `settled` and no move does better
/// than passing, but only if the `literal` count (our margin) wins.
///
/// Late in the game a share of the playouts is forced through the pass
/// ([`PASS_SHARE`]), so that it may lead on playouts while the moves split
/// the rest: then the most-visited move is chosen if it looks clearly
/// better. (Passing on such a count gave GNU Go free moves in won games.)
fn choose(ranked: &[&Node], literal: f32, settled: impl FnOnce() -> bool) -> Move {
    let Some(best) = ranked.first() else {
        return Move::Pass;
    };
    if best.action != PASS {
        let pass_as_good = ranked
            .iter()
            .find(|c| c.action == PASS)
            .is_some_and(|p| p.value() >= best.value() - SETTLED_TOLERANCE);
        if literal > 0.0 && pass_as_good && settled() {
            debug!("settled and won by {literal}: pass");
            return Move::Pass;
        }
        return to_move(best.action);
    }
    let play = ranked.iter().find(|c| c.action != PASS);
    if let Some(c) = play.filter(|c| c.value() > best.value() + SETTLED_TOLERANCE) {
        debug!(
            "pass leads on playouts at {:.3}, a move is better at {:.3}: no pass",
            best.value(),
            c.value()
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
/// included). Filling an own false eye stays possible: it is how a string
/// in atari connects (docs/measurements.md, own false eyes). True eyes are
/// never among the children (`is_sensible`).
fn root_filter(game: &Game) -> impl Fn(u16) -> bool + '_ {
    move |a| a == PASS || game.is_legal(to_move(a))
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
/// from `me`'s side.
fn literal_margin(game: &Game, me: Color) -> f32 {
    game.margin() * me.sign()
}

fn pv_text(game: &Game, pv: &[Move]) -> String {
    pv.iter()
        .map(|&m| crate::go::coord::to_gtp(game.board(), m))
        .collect::<Vec<_>>()
        .join(" ")
}

mod analysis;
pub use analysis::{Analysis, MoveInfo, Ownership};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Point;

    fn child(action: u16, playouts: u32, value: f32) -> Node {
        Node::with_counts(action, playouts, value)
    }

    #[test]
    fn forced_playouts_through_the_pass_do_not_make_it_the_choice() {
        // counts from a game against GNU Go: the pass led on playouts (a
        // share of them forced) at 46 %, the moves split the rest at 60-75 %
        let (pass, p2, s5) = (
            child(PASS, 330, 0.463),
            child(40, 135, 0.686),
            child(50, 125, 0.605),
        );
        let ranked = [&pass, &p2, &s5];
        assert_eq!(choose(&ranked, 3.5, || false), Move::Play(Point(40)));
        assert_eq!(choose(&ranked, -3.5, || false), Move::Play(Point(40)));
        // as good as the moves (within the tolerance): pass on a won count,
        // play on a lost one
        let close = child(PASS, 330, 0.66);
        let ranked = [&close, &p2, &s5];
        assert_eq!(choose(&ranked, 3.5, || false), Move::Pass);
        assert_eq!(choose(&ranked, -3.5, || false), Move::Play(Point(40)));
        // nothing but the pass
        assert_eq!(choose(&[&close], -3.5, || false), Move::Pass);
    }

    #[test]
    fn the_komi_moves_only_once_the_game_is_decided() {
        // within 1.64 spreads of 0: the game's own komi
        assert_eq!(dynamic_komi(30.0, 20.0, 1.64), 0.0);
        assert_eq!(dynamic_komi(-30.0, 20.0, 1.64), 0.0);
        // winning by 40 ± 20: a win is now more than 20
        assert_eq!(dynamic_komi(40.0, 20.0, 1.64), 20.0);
        // losing by 40: a win is now losing by less than 40
        assert_eq!(dynamic_komi(-40.0, 20.0, 1.64), -40.0);
        // sure, but close: fought for the win
        assert_eq!(dynamic_komi(-4.0, 1.0, 1.64), 0.0);
        assert_eq!(dynamic_komi(9.0, 1.0, 1.64), 0.0);
        assert_eq!(dynamic_komi(11.0, 1.0, 1.64), 10.0);
        // off, or nothing measured
        assert_eq!(dynamic_komi(40.0, 20.0, 0.0), 0.0);
        assert_eq!(dynamic_komi(40.0, 0.0, 1.64), 0.0);
        assert_eq!(dynamic_komi(f32::NAN, f32::NAN, 1.64), 0.0);
    }

    /// 9x9, Black some 47 points ahead on the board: with komi -40.5 the
    /// game is decided, with 40.5 not. The search after a decided one
    /// counts with the komi moved (a new tree: the kept one counted the
    /// old), and a close game or `dynamic_komi=0` leaves it.
    #[test]
    fn a_decided_search_moves_the_komi_of_the_next() {
        use crate::go::{Board, Color};
        let board = Board::from_ascii(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             X X X X X X X X X
             X X X O O O X X X
             O O O X . X O O O
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        )
        .unwrap();
        let no_limit = Horizon { moves_left: None };
        for (komi, setting, moves) in [
            (-40.5, 1.64, true),
            (40.5, 1.64, false),
            (-40.5, 0.0, false),
        ] {
            let game = Game::from_board(board.clone(), komi);
            assert_eq!(game.to_move(), Color::Black);
            let config = Config {
                ponder: false,
                dynamic_komi: setting,
                ..Config::default()
            };
            let mut s = Searcher::new(config);
            s.think(&game, no_limit, Budget::playouts(3000));
            assert_eq!(
                s.shift > 0.0,
                moves,
                "komi {komi}, setting {setting}: {}",
                s.shift
            );
            let (_, stats) = s.think(&game, no_limit, Budget::playouts(1000));
            assert_eq!(
                stats.reused == 0,
                moves,
                "a tree of another komi is not reused"
            );
            if moves {
                // a win in about 5 playouts of 6 at the moved komi
                assert!((0.6..0.95).contains(&stats.winrate), "{}", stats.winrate);
            }
        }
    }

    #[test]
    fn a_move_leading_on_playouts_is_played_unless_passing_settles_a_won_count() {
        let (m, pass) = (child(40, 500, 0.70), child(PASS, 100, 0.68));
        let ranked = [&m, &pass];
        assert_eq!(choose(&ranked, 3.5, || false), Move::Play(Point(40)));
        assert_eq!(choose(&ranked, 3.5, || true), Move::Pass);
        assert_eq!(choose(&ranked, -3.5, || true), Move::Play(Point(40)));
        let worse = child(PASS, 100, 0.60);
        assert_eq!(choose(&[&m, &worse], 3.5, || true), Move::Play(Point(40)));
    }
}
