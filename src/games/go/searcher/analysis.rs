//! Analysis for GUIs: the search grown slice by slice on the kept tree,
//! reporting after each slice every root move's playouts, win rate and
//! line (`lz-analyze`); and the final owner of each point over playouts of
//! the playout policy, or by the network in play (ownership maps, dead
//! stones, seki).

use super::{root_filter, Grown, Searcher};
use crate::games::go::nn;
use crate::games::go::state::to_move;
use crate::go::{score, Color, Game, Move};
use crate::search::grow::{grow, grow_valued, Grow};
use crate::search::rng::Rng;
use crate::search::tree::{Amaf, SearchGame};
use crate::search::{Budget, Horizon};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// One root move of an analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    pub mv: Move,
    /// Real playouts through it.
    pub visits: u32,
    /// Its win rate for the side to move, 0..1.
    pub winrate: f32,
    /// Its expected lead for the side to move and its prior, where the
    /// search is on a value network.
    pub lead: Option<f32>,
    pub prior: Option<f32>,
    /// The most-visited line through it, starting with it.
    pub pv: Vec<Move>,
}

/// What the search thinks of a position so far.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// The root moves with playouts, most visited first.
    pub moves: Vec<MoveInfo>,
    /// Playouts under the root in all (reused ones included).
    pub playouts: u64,
}

/// Where the points of a position end up over playouts.
#[derive(Clone, Debug)]
pub struct Ownership {
    /// Per point, row-major from the top: black's share of the ends minus
    /// white's, in [-1, 1].
    pub owner: Vec<f32>,
    /// Per point, the share of the ends where it belonged to nobody (an
    /// empty point between both colours, as in seki).
    pub neutral: Vec<f32>,
}

/// Actions as moves.
fn line(actions: Vec<u16>) -> Vec<Move> {
    actions.into_iter().map(to_move).collect()
}

/// Most visits first, the better win rate breaking ties.
fn sort(moves: &mut [MoveInfo]) {
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
}

impl Searcher {
    /// Grows the kept tree for `game` (a fresh one if none fits) until
    /// `until`, and reports its root. The tree is kept, so calling again
    /// goes on where this left off.
    pub fn analyze(&mut self, game: &Game, until: Instant) -> Analysis {
        self.analyze_within(game, &Budget::until(until))
    }

    /// [`Searcher::analyze`] until `budget` runs out: a number of playouts
    /// reads the same on any host (`tengen evaluate --children`).
    pub fn analyze_within(&mut self, game: &Game, budget: &Budget) -> Analysis {
        let state = self.counted_state(game, Horizon { moves_left: None });
        // a stop flag that never rises: run to the budget, no early stop
        let never = AtomicBool::new(false);
        let how = Grow {
            stop: Some(&never),
            ..Grow::default()
        };
        if state.history.is_some() {
            let (mut tree, _) = self.valued_tree(game, &state);
            tree.forbid_at_root(root_filter(game, &[]));
            if !state.is_over() {
                grow_valued(&mut tree, &state, budget, how, Instant::now());
            }
            let mut moves: Vec<MoveInfo> = tree
                .children()
                .iter()
                .filter(|c| c.visits > 0 && c.prior >= 0.0)
                .map(|c| MoveInfo {
                    mv: to_move(c.action),
                    visits: c.visits,
                    winrate: c.winrate(),
                    lead: Some(c.score()),
                    prior: Some(c.prior),
                    pv: line(tree.line_through(c.action, 16)),
                })
                .collect();
            sort(&mut moves);
            let playouts = tree.root().visits as u64;
            self.keep(Grown::Valued(tree), game, state.komi);
            return Analysis { moves, playouts };
        }
        let state = self.playout_state(game, Horizon { moves_left: None });
        let mut tree = self.playout_tree(game, &state);
        if tree.crowded() {
            tree.compact();
        }
        tree.expand_root(&state, root_filter(game, &[]));
        if !state.is_over() {
            grow(
                &mut tree,
                &state,
                &mut self.rng,
                budget,
                how,
                Instant::now(),
            );
        }
        let mut moves: Vec<MoveInfo> = tree
            .children()
            .iter()
            .filter(|c| c.playouts > 0)
            .map(|c| MoveInfo {
                mv: to_move(c.action),
                visits: c.playouts,
                winrate: c.value(),
                lead: None,
                prior: None,
                pv: line(tree.line_through(c.action, 16)),
            })
            .collect();
        sort(&mut moves);
        let playouts = tree.root().playouts as u64;
        self.keep(Grown::Playouts(tree), game, state.komi);
        Analysis { moves, playouts }
    }

    /// What `n` playouts of the search's policy say of `game`'s position,
    /// from the side to move's view: the share won (a draw half) and the
    /// mean margin in points, komi counted. The search's only read of a
    /// position without a tree; `tengen evaluate` compares it with a
    /// teacher's.
    pub fn rollouts(&mut self, game: &Game, n: u32) -> (f32, f32) {
        let mut root = self.counted_state(game, Horizon { moves_left: None });
        root.history = None;
        let mut state = root.clone();
        let mut amaf = Amaf::new(root.actions());
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

    /// Plays `playouts` playouts of the playout policy from `game` and
    /// counts who owns each point at their ends (Tromp-Taylor). The
    /// playouts are seeded from the position, so that `final_score` and
    /// `final_status_list` agree, whichever engine or call asks.
    pub fn ownership(&self, game: &Game, playouts: usize) -> Ownership {
        let mut root = self.counted_state(game, Horizon { moves_left: None });
        root.history = None;
        let side = (game.to_move() == Color::White) as u64;
        let mut rng = Rng::new(self.config.seed ^ game.board().hash() ^ side);
        let b = game.board();
        let n = b.width() * b.height();
        let (mut owner, mut neutral) = (vec![0f32; n], vec![0f32; n]);
        let mut ends = vec![None; n];
        let mut s = root.clone();
        let runs = playouts.max(1);
        for _ in 0..runs {
            s.clone_from(&root);
            s.playout(&mut rng, &mut Amaf::new(root.actions()));
            score::count(&s.board.framed(), Some(&mut ends));
            for ((o, z), end) in owner.iter_mut().zip(neutral.iter_mut()).zip(&ends) {
                match end {
                    Some(Color::Black) => *o += 1.0,
                    Some(Color::White) => *o -= 1.0,
                    None => *z += 1.0,
                }
            }
        }
        let scale = 1.0 / runs as f32;
        owner
            .iter_mut()
            .chain(neutral.iter_mut())
            .for_each(|v| *v *= scale);
        // the network's ownership is the better read of who owns what;
        // seki still shows in the playouts' empty points
        let e = nn::active().evaluate(&nn::position(game), 0.0);
        owner = e.white_ownership.iter().map(|o| -o).collect();
        Ownership { owner, neutral }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::go::Config;
    use crate::go::Board;
    use std::time::Duration;

    #[test]
    fn analysis_goes_on_where_it_left_off_and_lists_moves_by_visits() {
        let game = Game::new(9, 9, 7.0);
        let mut s = Searcher::new(Config::default());
        let soon = || Instant::now() + Duration::from_millis(30);
        let first = s.analyze(&game, soon());
        let second = s.analyze(&game, soon());
        assert!(
            second.playouts > first.playouts,
            "{} then {}",
            first.playouts,
            second.playouts
        );
        assert!(!second.moves.is_empty());
        for w in second.moves.windows(2) {
            assert!(w[0].visits >= w[1].visits);
        }
        for m in &second.moves {
            assert_eq!(m.pv.first(), Some(&m.mv));
            assert!((0.0..=1.0).contains(&m.winrate));
        }
    }

    #[test]
    fn a_string_without_hope_is_owned_by_the_other_side() {
        // black's lone stone inside white's wall has no room to live
        let b = Board::from_ascii(
            ". . . . . . .
             . O O O O O .
             . O . . . O .
             . O . X . O .
             . O . . . O .
             . O O O O O .
             . . . . . . .",
        )
        .unwrap();
        let game = Game::from_board(b, 0.5);
        let own = Searcher::new(Config::default()).ownership(&game, 200);
        let at = |x: usize, y: usize| own.owner[y * 7 + x];
        assert!(at(3, 3) < -0.5, "black stone owned {:.2}", at(3, 3));
        assert!(at(1, 1) < -0.9, "white wall owned {:.2}", at(1, 1));
        assert!(own.neutral.iter().all(|&z| (0.0..=1.0).contains(&z)));
    }
}
