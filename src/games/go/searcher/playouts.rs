//! The search on playouts (RAVE-MCTS), where no value network reads the
//! board: the tree's priors, the network's policy at busy nodes, and the
//! dynamic komi that keeps the playouts' win/loss telling moves apart once
//! the game is decided.

use super::Stats;
use super::{
    decide, dynamic_komi, literal_margin, other_side_passed, pv_text, root_filter, Candidate,
    Grown, Searcher, MARGIN_PLAYOUTS, PASS_SHARE,
};
use crate::deps::log;
use crate::games::go::priors;
use crate::games::go::state::{to_action, to_move, GoState, PASS};
use crate::go::{Game, Move, Point};
use crate::search::grow::{grow, Grow};
use crate::search::tree::{Node, Tree};
use crate::search::{Budget, Horizon};
use log::debug;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

impl Searcher {
    /// The search's view of `game` for playouts: no network history, the
    /// komi moved by the dynamic komi.
    pub(super) fn playout_state(&self, game: &Game, horizon: Horizon) -> GoState {
        let mut state = self.counted_state(game, horizon);
        state.history = None;
        state.komi += self.shift;
        state
    }

    /// The kept playout tree for `game`, or a new one.
    pub(super) fn playout_tree(&mut self, game: &Game, state: &GoState) -> Tree<GoState> {
        match self.kept_for(game, state.komi) {
            Some(Grown::Playouts(t)) => t,
            _ => Tree::new(state, self.config.tree.clone()),
        }
    }

    /// [`Searcher::think`] on playouts.
    pub(super) fn think_playouts(
        &mut self,
        game: &Game,
        horizon: Horizon,
        budget: Budget,
        t0: Instant,
        avoid: &[Point],
    ) -> (Move, Stats) {
        if game.moves().len() < self.shift_at {
            self.shift = 0.0; // an undo, or another game
        }
        let state = self.playout_state(game, horizon);
        let literal = literal_margin(game);
        let root_ok = root_filter(game, avoid);
        let mut tree = self.playout_tree(game, &state);
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
        let measure_pass = other_side_passed(game) || state.is_late();
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
        super::valued::late_log(budget, playouts, t0);
        let mv = decide(candidates(tree.children()), &root_ok, game, literal);
        self.move_komi(&tree, game);
        let mut stats = playout_stats(&tree, mv, playouts, t0);
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
            log_top(&tree, game);
        }
        self.keep(Grown::Playouts(tree), game, state.komi);
        (mv, stats)
    }

    /// [`Searcher::ponder`] on playouts.
    pub(super) fn ponder_playouts(
        &mut self,
        game: &Game,
        horizon: Horizon,
        budget: Budget,
        stop: &AtomicBool,
    ) -> Stats {
        let t0 = Instant::now();
        let state = self.playout_state(game, horizon);
        let mut tree = self.playout_tree(game, &state);
        // on the opponent's time: drop what the last two moves left behind
        tree.compact();
        tree.expand_root(&state, root_filter(game, &[]));
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
        self.keep(Grown::Playouts(tree), game, state.komi);
        stats
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
}

/// The playout tree's root children as the passing rules see them.
pub(super) fn candidates(children: &[Node]) -> Vec<Candidate> {
    children
        .iter()
        .map(|c| Candidate {
            action: c.action,
            visits: c.playouts,
            value: c.value(),
        })
        .collect()
}

fn playout_stats(tree: &Tree<GoState>, mv: Move, playouts: u64, t0: Instant) -> Stats {
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

/// The five most visited root moves (and, at trace level, every one).
fn log_top(tree: &Tree<GoState>, game: &Game) {
    let mut ranked: Vec<_> = tree.children().iter().collect();
    ranked.sort_by_key(|c| std::cmp::Reverse(c.playouts));
    let name = |c: &Node| crate::go::coord::to_gtp(game.board(), to_move(c.action));
    let text: Vec<String> = ranked
        .iter()
        .take(5)
        .map(|c| format!("{} {}/{:.3}", name(c), c.playouts, c.value()))
        .collect();
    debug!("top moves (playouts/value): {}", text.join(", "));
    if log::log_enabled!(log::Level::Trace) {
        for c in ranked {
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
}
