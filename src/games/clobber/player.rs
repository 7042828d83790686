//! Clobber players: the search ([`Searcher`]: MCTS, and the exact solver
//! once the position is small enough to read out), and the sparring
//! partners: random, greedy (the move that leaves the opponent fewest
//! moves against ours), and alpha-beta to a fixed depth on mobility.

use super::rules::{Clobber, Move};
use super::solver::Solver;
use super::state::ClobberState;
use crate::go::Color;
use crate::search::grow::{grow, Grow};
use crate::search::rng::Rng;
use crate::search::tree::{Tree, TreeConfig};
use crate::search::Budget;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// Which player answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Search,
    Random,
    Greedy,
    /// Alpha-beta to this many plies.
    AlphaBeta(u32),
}

impl FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Kind, String> {
        match s {
            "search" => Ok(Kind::Search),
            "random" => Ok(Kind::Random),
            "greedy" => Ok(Kind::Greedy),
            _ => match s.strip_prefix("alphabeta") {
                Some("") => Ok(Kind::AlphaBeta(3)),
                Some(d) => match d.parse() {
                    Ok(d) if (1..=8).contains(&d) => Ok(Kind::AlphaBeta(d)),
                    _ => Err(format!("alphabeta depth {d:?}: 1 to 8")),
                },
                None => Err(format!(
                    "unknown player {s:?} (search, random, greedy, alphabeta[DEPTH])"
                )),
            },
        }
    }
}

/// A uniformly random legal move; `None` when there is none.
pub fn random_move(pos: &Clobber, rng: &mut Rng) -> Option<Move> {
    let n = pos.mobility(pos.to_move());
    (n > 0).then(|| pos.nth_move(rng.below(n as usize) as u32))
}

/// The mover's moves minus the opponent's: the evaluation of the greedy
/// and alpha-beta players, for the side to move.
fn mobility_margin(pos: &Clobber) -> i32 {
    let me = pos.to_move();
    pos.mobility(me) as i32 - pos.mobility(me.opp()) as i32
}

/// The moves in a random order (ties among equal moves go either way).
fn shuffled(pos: &Clobber, rng: &mut Rng) -> Vec<Move> {
    let mut moves = pos.moves();
    for i in (1..moves.len()).rev() {
        moves.swap(i, rng.below(i + 1));
    }
    moves
}

/// The greedy move: the best mobility margin after it, from the mover's
/// side (a move that leaves the opponent none wins at once).
pub fn greedy_move(pos: &Clobber, rng: &mut Rng) -> Option<Move> {
    shuffled(pos, rng).into_iter().max_by_key(|&m| {
        let mut child = *pos;
        child.play_unchecked(m);
        -mobility_margin(&child)
    })
}

const WIN: i32 = 1_000_000;

/// Alpha-beta to `depth` plies on the mobility margin; a position with no
/// move for the side to move is lost.
pub fn alphabeta_move(pos: &Clobber, depth: u32, rng: &mut Rng) -> Option<Move> {
    let mut best = None;
    let mut alpha = -WIN - 1;
    for m in shuffled(pos, rng) {
        let mut child = *pos;
        child.play_unchecked(m);
        let v = -negamax(&child, depth.saturating_sub(1), -WIN - 1, -alpha);
        if v > alpha || best.is_none() {
            alpha = v;
            best = Some(m);
        }
    }
    best
}

fn negamax(pos: &Clobber, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if !pos.can_move(pos.to_move()) {
        return -WIN;
    }
    if depth == 0 {
        return mobility_margin(pos);
    }
    let mut best = -WIN - 1;
    for m in pos.moves() {
        let mut child = *pos;
        child.play_unchecked(m);
        let v = -negamax(&child, depth - 1, -beta, -alpha);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// What a search did, for the log.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub playouts: u64,
    pub reused: u64,
    pub winrate: f32,
    /// The solver's verdict for the mover: won, lost, or not read out.
    pub solved: Option<bool>,
    pub solver_nodes: u64,
}

/// Moves left (both sides') under which the solver is tried first.
const SOLVE_BELOW: u32 = 48;
/// Share of the turn the solver may take.
const SOLVE_SHARE: f64 = 0.6;

/// The search player.
pub struct Searcher {
    rng: Rng,
    tree: Option<Tree<ClobberState>>,
    /// The position the tree's root stands for.
    root: Option<Clobber>,
    solver: Solver,
    pub config: TreeConfig,
}

impl Searcher {
    pub fn new(seed: u64) -> Searcher {
        Searcher {
            rng: Rng::new(seed),
            tree: None,
            root: None,
            solver: Solver::new(),
            config: TreeConfig {
                rave_equiv: 500.0,
                max_nodes: 400_000,
                ..TreeConfig::default()
            },
        }
    }

    /// The last tree moved down by the opponent's move if it leads to
    /// `pos`, else a fresh one.
    fn tree_for(&mut self, pos: &Clobber) -> Tree<ClobberState> {
        if let (Some(mut tree), Some(root)) = (self.tree.take(), self.root.take()) {
            let reply = root.moves().into_iter().find(|&m| {
                let mut after = root;
                after.play_unchecked(m);
                let colours = [Color::White, Color::Black];
                colours.iter().all(|&c| after.stones(c) == pos.stones(c))
                    && after.to_move() == pos.to_move()
            });
            if let Some(m) = reply {
                if tree.advance(&[m.action()]) {
                    tree.compact();
                    return tree;
                }
            }
        }
        Tree::new(&ClobberState::new(*pos), self.config.clone())
    }

    /// The move for `pos` by `deadline` (or after `playouts`), `None` only
    /// when there is no legal move.
    pub fn choose(&mut self, pos: &Clobber, budget: Budget) -> (Option<Move>, Report) {
        let mut report = Report::default();
        let me = pos.to_move();
        if pos.mobility(me) == 0 {
            return (None, report);
        }
        if pos.mobility(me) + pos.mobility(me.opp()) < SOLVE_BELOW {
            let until = budget.deadline.map(|d| {
                let left = d.saturating_duration_since(Instant::now());
                Instant::now() + Duration::from_secs_f64(left.as_secs_f64() * SOLVE_SHARE)
            });
            let nodes = budget.playouts.map_or(u64::MAX, |p| p * 50);
            let verdict = self.solver.solve(pos, nodes, until);
            report.solver_nodes = self.solver.nodes();
            report.solved = verdict.map(|v| v.is_some());
            if let Some(Some(m)) = verdict {
                self.keep(None, pos, m);
                return (Some(m), report);
            }
        }
        let state = ClobberState::new(*pos);
        let mut tree = self.tree_for(pos);
        report.reused = tree.root().playouts as u64;
        tree.expand_root(&state, |_| true);
        let t0 = Instant::now();
        report.playouts = grow(
            &mut tree,
            &state,
            &mut self.rng,
            &budget,
            Grow::default(),
            t0,
        );
        let best = tree
            .best_child()
            .map(|c| (Move::from_action(c.action), c.value()));
        let (m, winrate) = best.unwrap_or_else(|| (pos.nth_move(0), 0.5));
        report.winrate = winrate;
        self.keep(Some(tree), pos, m);
        (Some(m), report)
    }

    /// Keeps `tree` (moved down by our move `m`) for the next turn.
    fn keep(&mut self, tree: Option<Tree<ClobberState>>, pos: &Clobber, m: Move) {
        let mut after = *pos;
        after.play_unchecked(m);
        self.tree = tree.and_then(|mut t| t.advance(&[m.action()]).then_some(t));
        self.root = self.tree.is_some().then_some(after);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Color;

    #[test]
    fn players_parse_and_answer_legal_moves() {
        assert_eq!("alphabeta".parse(), Ok(Kind::AlphaBeta(3)));
        assert_eq!("alphabeta2".parse(), Ok(Kind::AlphaBeta(2)));
        assert!("alphabeta0".parse::<Kind>().is_err());
        assert!("minimax".parse::<Kind>().is_err());
        let pos = Clobber::new(8);
        let mut rng = Rng::new(1);
        for m in [
            random_move(&pos, &mut rng),
            greedy_move(&pos, &mut rng),
            alphabeta_move(&pos, 3, &mut rng),
        ] {
            assert!(pos.check(m.expect("a move")).is_ok());
        }
        let over = Clobber::from_rows(&["w.", ".b"], Color::White).unwrap();
        assert_eq!(random_move(&over, &mut rng), None);
        assert_eq!(greedy_move(&over, &mut rng), None);
        assert_eq!(alphabeta_move(&over, 3, &mut rng), None);
        assert_eq!(Searcher::new(1).choose(&over, Budget::playouts(10)).0, None);
    }

    #[test]
    fn the_search_and_deep_alphabeta_play_winning_moves_when_there_are() {
        let mut rng = Rng::new(9);
        let mut checked = 0;
        while checked < 20 {
            let rows: Vec<String> = (0..5)
                .map(|_| {
                    (0..5)
                        .map(|_| ['w', 'b', 'w', 'b', '.'][rng.below(5)])
                        .collect()
                })
                .collect();
            let pos = Clobber::from_rows(&rows, Color::White).unwrap();
            if !super::super::solver::brute_force(&pos) {
                continue;
            }
            checked += 1;
            let wins = |m: Option<Move>| {
                let mut child = pos;
                child.play(m.expect("a move")).unwrap();
                !super::super::solver::brute_force(&child)
            };
            let (m, report) = Searcher::new(2).choose(&pos, Budget::playouts(2_000));
            assert!(wins(m), "{rows:?} {report:?}");
            let live: u32 = super::super::solver::live_regions(&pos)
                .iter()
                .map(|(w, b)| (w | b).count_ones())
                .sum();
            if live <= 12 {
                // each move takes a stone: 12 plies see every line's end
                assert!(wins(alphabeta_move(&pos, 12, &mut rng)), "{rows:?}");
            }
        }
    }

    #[test]
    fn the_tree_follows_the_opponent_reply() {
        let mut pos = Clobber::new(8);
        let mut s = Searcher::new(4);
        let (m, _) = s.choose(&pos, Budget::playouts(3_000));
        pos.play(m.unwrap()).unwrap();
        let reply = s
            .tree
            .as_ref()
            .and_then(|t| t.best_child())
            .map(|c| c.action);
        pos.play(Move::from_action(reply.expect("a reply")))
            .unwrap();
        let (_, report) = s.choose(&pos, Budget::playouts(100));
        assert!(report.reused > 0, "{report:?}");
    }
}
