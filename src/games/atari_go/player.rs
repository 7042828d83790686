//! Atari Go players: the search ([`Searcher`]), and two sparring partners
//! for tests and users: uniformly random, and greedy (the biggest capture,
//! else an atari on the weakest enemy string, else random).

use super::rules::AtariGo;
use super::state::{to_action, to_move, AtariState};
use super::tactics;
use crate::go::{Move, Point};
use crate::search::grow::{grow, Grow};
use crate::search::rng::Rng;
use crate::search::tree::{Tree, TreeConfig};
use crate::search::Budget;
use std::str::FromStr;
use std::time::Instant;

/// Which player answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Search,
    Random,
    Greedy,
}

impl FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Kind, String> {
        match s {
            "search" => Ok(Kind::Search),
            "random" => Ok(Kind::Random),
            "greedy" => Ok(Kind::Greedy),
            _ => Err(format!("unknown player {s:?} (search, random or greedy)")),
        }
    }
}

/// The legal stones of the side to move, with `keep` deciding which count.
fn legal_points(game: &AtariGo, keep: impl Fn(Point) -> bool) -> Vec<Point> {
    let b = game.board();
    b.empty_points()
        .iter()
        .map(|&e| Point(e))
        .filter(|&p| game.is_legal(p) && keep(p))
        .collect()
}

/// A uniformly random legal stone; a pass when there is none.
pub fn random_move(game: &AtariGo, rng: &mut Rng, keep: impl Fn(Point) -> bool) -> Move {
    let points = legal_points(game, keep);
    match points.len() {
        0 => Move::Pass,
        n => Move::Play(points[rng.below(n)]),
    }
}

/// The greedy player's move: the biggest capture; else an atari on the
/// weakest enemy string (fewest liberties, then most stones) that it
/// touches; else a random legal stone. Ties are broken at random.
pub fn greedy_move(game: &AtariGo, rng: &mut Rng, keep: impl Fn(Point) -> bool) -> Move {
    let b = game.board();
    let c = b.to_move();
    let points = legal_points(game, keep);
    // highest key wins: captures first, then pressure on the weakest string
    let key = |p: Point| {
        let e = tactics::effect(b, c, p);
        if e.captures > 0 {
            (2, e.captures, 0)
        } else if e.ataris > 0 {
            (1, e.ataris, 0)
        } else if e.weakest > 0 {
            (0, 0, 8 - e.weakest.min(8))
        } else {
            (0, 0, 0)
        }
    };
    let Some(best) = points.iter().map(|&p| key(p)).max() else {
        return Move::Pass;
    };
    let top: Vec<Point> = points.into_iter().filter(|&p| key(p) == best).collect();
    Move::Play(top[rng.below(top.len())])
}

/// What a search did, for the log.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub playouts: u64,
    /// Playouts under the root before the search (reused from the last
    /// turn).
    pub reused: u64,
    /// Win rate of the chosen move for the side to move.
    pub winrate: f32,
}

/// The search player: RAVE-MCTS over [`AtariState`], keeping its tree from
/// turn to turn when the game went on as it expected.
pub struct Searcher {
    rng: Rng,
    tree: Option<Tree<AtariState>>,
    /// The position the tree's root stands for.
    root: Option<AtariGo>,
    pub config: TreeConfig,
}

impl Searcher {
    pub fn new(seed: u64) -> Searcher {
        Searcher {
            rng: Rng::new(seed),
            tree: None,
            root: None,
            config: TreeConfig {
                rave_equiv: 1000.0,
                max_nodes: 400_000,
                ..TreeConfig::default()
            },
        }
    }

    /// The tree for `game`: the last one moved down by the opponent's
    /// move, if that leads to `game`, else a fresh one.
    fn tree_for(&mut self, game: &AtariGo) -> Tree<AtariState> {
        if let (Some(mut tree), Some(mut at)) = (self.tree.take(), self.root.take()) {
            let mut path = Vec::new();
            if let Some(mv) = replay_step(&at, game) {
                at.play_legal(mv);
                path.push(to_action(mv));
            }
            let same = at.turns() == game.turns()
                && at.board().hash() == game.board().hash()
                && at.rows() == game.rows();
            if same && tree.advance(&path) {
                tree.compact();
                return tree;
            }
        }
        Tree::new(&AtariState::new(game.clone()), self.config.clone())
    }

    /// Searches `game` until `deadline` (or `playouts`), with `allowed`
    /// deciding which root moves may be chosen. Returns the move and what
    /// the search did.
    pub fn choose(
        &mut self,
        game: &AtariGo,
        budget: Budget,
        allowed: impl Fn(Move) -> bool,
    ) -> (Move, Report) {
        let state = AtariState::new(game.clone());
        let mut tree = self.tree_for(game);
        let reused = tree.root().playouts as u64;
        tree.expand_root(&state, |a| allowed(to_move(a)));
        let t0 = Instant::now();
        let playouts = grow(
            &mut tree,
            &state,
            &mut self.rng,
            &budget,
            Grow::default(),
            t0,
        );
        let best = tree
            .best_child()
            .filter(|c| allowed(to_move(c.action)))
            .map(|c| (to_move(c.action), c.value()));
        let (mv, winrate) = best.unwrap_or((Move::Pass, 0.5));
        let report = Report {
            playouts,
            reused,
            winrate,
        };
        let mut after = game.clone();
        after.play_legal(mv);
        if tree.advance(&[to_action(mv)]) {
            self.tree = Some(tree);
            self.root = Some(after);
        }
        (mv, report)
    }
}

/// The move that leads from `at` one turn toward `target`, read from the
/// target's last move when `at` is one turn short of it; `None` when the
/// two are further apart.
fn replay_step(at: &AtariGo, target: &AtariGo) -> Option<Move> {
    if at.turns() + 1 != target.turns() {
        return None;
    }
    let mv = target.last_move()?;
    match mv {
        Move::Pass => Some(mv),
        Move::Play(p) => at.is_legal(p).then_some(mv),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Color;

    fn position(text: &str, to_move: Color) -> AtariGo {
        let board = crate::go::Board::from_ascii(text).unwrap();
        AtariGo::resume(board, to_move, 10, [0, 0])
    }

    /// White's three stones have one liberty, (3,1); extending there
    /// gives them three.
    const RACE: &str = ". . . . . . . . .
                        . . . . . . . . .
                        . . X O X . . . .
                        . . X O X . . . .
                        . . X O X . . . .
                        . . . X . . . . .
                        . . . . . . . . .
                        . . . . . . . . .
                        . . . . . . . . .";

    #[test]
    fn greedy_takes_the_biggest_capture_and_random_plays_legal_stones() {
        let g = position(RACE, Color::Black);
        let mut rng = Rng::new(1);
        assert_eq!(
            greedy_move(&g, &mut rng, |_| true),
            Move::Play(g.board().point(3, 1))
        );
        for _ in 0..50 {
            let Move::Play(p) = random_move(&g, &mut rng, |_| true) else {
                panic!("a pass with legal moves left");
            };
            assert!(g.is_legal(p));
        }
        // nothing allowed: both pass
        assert_eq!(greedy_move(&g, &mut rng, |_| false), Move::Pass);
        assert_eq!(random_move(&g, &mut rng, |_| false), Move::Pass);
    }

    #[test]
    fn the_search_captures_and_saves() {
        let g = position(RACE, Color::Black);
        let run = g.board().point(3, 1);
        for seed in 1..=3 {
            // black takes them now, or nets them: extending does not save
            let mut s = Searcher::new(seed);
            let (mv, report) = s.choose(&g, Budget::playouts(2_000), |_| true);
            let mut after = g.clone();
            after.play(mv).unwrap();
            let caught = after.captures(Color::Black) == 3
                || !tactics::escapes(after.board(), Color::White, run);
            assert!(caught, "seed {seed}: {mv:?} lets them go, {report:?}");
        }
        // white to move saves its three stones by extending
        let g = position(RACE, Color::White);
        let mut s = Searcher::new(3);
        let (mv, report) = s.choose(&g, Budget::playouts(2_000), |_| true);
        assert_eq!(mv, Move::Play(g.board().point(3, 1)), "{report:?}");
    }

    #[test]
    fn the_tree_is_kept_when_the_game_went_on_as_played() {
        let mut g = AtariGo::new(9);
        let mut s = Searcher::new(5);
        let (mv, _) = s.choose(&g, Budget::playouts(3_000), |_| true);
        g.play(mv).unwrap();
        // the opponent answers with the move the tree explored most
        let reply = s
            .tree
            .as_ref()
            .and_then(|t| t.best_child())
            .map(|c| c.action);
        let reply = to_move(reply.expect("a reply in the tree"));
        g.play(reply).unwrap();
        let (_, report) = s.choose(&g, Budget::playouts(100), |_| true);
        assert!(report.reused > 0, "{report:?}");
        // a position it never saw starts afresh
        let mut other = AtariGo::new(9);
        other.play(Move::Play(other.board().point(0, 0))).unwrap();
        other.play(Move::Play(other.board().point(8, 8))).unwrap();
        let (_, report) = s.choose(&other, Budget::playouts(100), |_| true);
        assert_eq!(report.reused, 0);
    }

    #[test]
    fn the_search_keeps_to_the_moves_allowed() {
        let g = position(RACE, Color::Black);
        let capture = Move::Play(g.board().point(3, 1));
        let mut s = Searcher::new(3);
        let (mv, _) = s.choose(&g, Budget::playouts(500), |m| m != capture);
        assert_ne!(mv, capture);
        assert!(matches!(mv, Move::Pass) || g.is_legal(mv.point().unwrap()));
    }
}
