//! The search on a value network (`search/puct.rs`), where one reads the
//! board: every simulation a network evaluation, its value and score
//! backed up with KataGo's utility, whose dynamic score term centres on the
//! score the root expects, so that a decided game still tells moves apart
//! by points (the playout search's dynamic komi does that job there).

use super::Stats;
use super::{decide, literal_margin, pv_text, root_filter, Candidate, Grown, Searcher};
use crate::deps::log;
use crate::games::go::state::{to_action, to_move, GoState};
use crate::go::{Game, Move, Point};
use crate::search::grow::{grow_valued, Grow};
use crate::search::puct::{Puct, Utility};
use crate::search::tree::SearchGame;
use crate::search::Budget;
use log::debug;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

impl Searcher {
    /// The kept value tree for `game`, or a new one, its root evaluated
    /// and its utility centred on what the root expects; and the visits
    /// it brought.
    pub(super) fn valued_tree(&mut self, game: &Game, state: &GoState) -> (Puct, u64) {
        let mut tree = match self.kept_for(game, state.komi) {
            Some(Grown::Valued(t)) => t,
            _ => Puct::new(state.to_move(), self.config.puct.clone(), Utility::WIN),
        };
        let reused = tree.root().visits as u64;
        if reused == 0 {
            tree.simulate(state, None);
        }
        tree.utility = self.utility(&tree, state);
        (tree, reused)
    }

    /// KataGo's utility for this search: the dynamic score term centred on
    /// the root's expected score for Black, pulled toward 0 by the zero
    /// weight and kept within a scale of it.
    fn utility(&self, tree: &Puct, state: &GoState) -> Utility {
        let s = &self.config.score_utility;
        let side = (state.board.width() as f32 * state.board.height() as f32).sqrt();
        let root = tree.root();
        // the root's counts are its opponent's
        let black = if root.side == 0 {
            root.score()
        } else {
            -root.score()
        };
        let cap = side * s.dynamic_scale;
        let center = (black * (1.0 - s.zero_weight)).clamp(black - cap, black + cap);
        Utility {
            static_factor: s.static_factor,
            dynamic_factor: s.dynamic_factor,
            static_scale: s.static_scale * side,
            dynamic_scale: cap,
            center,
        }
    }

    /// [`Searcher::think`] on the value network.
    pub(super) fn think_valued(
        &mut self,
        game: &Game,
        state: GoState,
        budget: Budget,
        t0: Instant,
        avoid: &[Point],
    ) -> (Move, Stats) {
        let literal = literal_margin(game);
        let root_ok = root_filter(game, avoid);
        let (mut tree, reused) = self.valued_tree(game, &state);
        tree.compact();
        tree.forbid_at_root(&root_ok);
        let given = tree.evaluations;
        let sims = grow_valued(&mut tree, &state, &budget, Grow::default(), t0);
        late_log(budget, sims, t0);
        let mv = decide(candidates(&tree), &root_ok, game, literal);
        let stats = valued_stats(&tree, mv, sims, reused, given, t0);
        debug!(
            "{} simulations ({} reused) in {:.0} ms, win {:.1} %, lead {:+.1}, tree {} nodes, pv {}",
            stats.playouts,
            stats.reused,
            stats.elapsed.as_secs_f64() * 1000.0,
            stats.winrate * 100.0,
            mover_lead(&tree, mv),
            stats.nodes,
            pv_text(game, &stats.pv)
        );
        if log::log_enabled!(log::Level::Debug) {
            let name = |a: u16| crate::go::coord::to_gtp(game.board(), to_move(a));
            let text: Vec<String> = tree
                .children()
                .iter()
                .filter(|c| c.visits > 0)
                .take(5)
                .map(|c| {
                    format!(
                        "{} {}/{:.3}/{:.2}",
                        name(c.action),
                        c.visits,
                        c.winrate(),
                        c.prior
                    )
                })
                .collect();
            debug!("likeliest moves (visits/win/prior): {}", text.join(", "));
        }
        self.keep(Grown::Valued(tree), game, state.komi);
        (mv, stats)
    }

    /// [`Searcher::ponder`] on the value network: the tree grows where it
    /// expects the opponent to play.
    pub(super) fn ponder_valued(
        &mut self,
        game: &Game,
        state: GoState,
        budget: Budget,
        stop: &AtomicBool,
    ) -> Stats {
        let t0 = Instant::now();
        let (mut tree, reused) = self.valued_tree(game, &state);
        tree.compact();
        tree.forbid_at_root(root_filter(game, &[]));
        let given = tree.evaluations;
        let how = Grow {
            stop: Some(stop),
            ..Grow::default()
        };
        let sims = grow_valued(&mut tree, &state, &budget, how, t0);
        let pv: Vec<Move> = tree
            .principal_variation(12)
            .into_iter()
            .map(to_move)
            .collect();
        debug!(
            "pondered {sims} simulations ({reused} reused) in {:.0} ms, tree {} nodes, pv {}",
            t0.elapsed().as_secs_f64() * 1000.0,
            tree.nodes.len(),
            pv_text(game, &pv)
        );
        let stats = Stats {
            playouts: sims,
            elapsed: t0.elapsed(),
            nodes: tree.nodes.len(),
            reused,
            pv,
            net_evaluations: tree.evaluations - given,
            ..Stats::default()
        };
        self.keep(Grown::Valued(tree), game, state.komi);
        stats
    }
}

/// The value tree's root children as the passing rules see them, each
/// with its weight for the choice ([`Puct::play_weights`]) as its visits.
fn candidates(tree: &Puct) -> Vec<Candidate> {
    tree.children()
        .iter()
        .zip(tree.play_weights())
        .filter(|(c, _)| c.prior >= 0.0)
        .map(|(c, w)| Candidate {
            action: c.action,
            visits: w.ceil() as u32,
            value: c.winrate(),
        })
        .collect()
}

/// The lead the tree expects for the side that plays `mv` at the root.
fn mover_lead(tree: &Puct, mv: Move) -> f32 {
    let a = to_action(mv);
    tree.children()
        .iter()
        .find(|c| c.action == a)
        .map_or(0.0, |c| c.score())
}

fn valued_stats(tree: &Puct, mv: Move, sims: u64, reused: u64, given: u64, t0: Instant) -> Stats {
    let a = to_action(mv);
    let winrate = tree
        .children()
        .iter()
        .find(|c| c.action == a)
        .map_or(0.5, |c| c.winrate());
    let pv: Vec<Move> = [a]
        .into_iter()
        .chain(tree.line_through(a, 12).into_iter().skip(1))
        .map(to_move)
        .collect();
    Stats {
        playouts: sims,
        elapsed: t0.elapsed(),
        winrate,
        pv,
        nodes: tree.nodes.len(),
        reused,
        net_evaluations: tree.evaluations - given,
    }
}

/// Warns when a search stopped well after its deadline.
pub(super) fn late_log(budget: Budget, simulations: u64, t0: Instant) {
    let late = budget
        .deadline
        .map(|d| Instant::now().saturating_duration_since(d));
    if late.is_some_and(|l| l.as_millis() > 30) {
        log::warn!(
            "the search stopped {} ms after its deadline ({simulations} simulations in {} ms)",
            late.unwrap_or_default().as_millis(),
            t0.elapsed().as_millis()
        );
    }
}
