use super::*;
use crate::search::rng::Rng;
use crate::search::tree::{Amaf, Prior};

/// Nim-like race: players add 1 or 2 to a counter; whoever reaches `goal`
/// wins. The side to move loses exactly when `goal - count` is a multiple
/// of 3. `knows` says how the "network" reads a position: exactly, or not
/// at all (a coin flip); its policy is `lean` on adding 1.
#[derive(Clone)]
struct Race {
    count: u8,
    goal: u8,
    to_move: u8,
    winner: Option<u8>,
    exact: bool,
    lean: f32,
}

fn race(goal: u8, exact: bool, lean: f32) -> Race {
    Race {
        count: 0,
        goal,
        to_move: 0,
        winner: None,
        exact,
        lean,
    }
}

impl SearchGame for Race {
    fn actions(&self) -> usize {
        3
    }
    fn to_move(&self) -> u8 {
        self.to_move
    }
    fn is_over(&self) -> bool {
        self.winner.is_some()
    }
    fn expand(&self, _: &mut Vec<Prior>) {
        unreachable!("the value tree expands from the policy")
    }
    fn play(&mut self, action: u16) {
        self.count += action as u8;
        if self.count == self.goal {
            self.winner = Some(self.to_move);
        }
        self.to_move = 1 - self.to_move;
    }
    fn amaf_action(&self, _: u16) -> bool {
        false
    }
    fn playout(&mut self, _: &mut Rng, _: &mut Amaf) -> f32 {
        unreachable!("the value tree plays no playouts")
    }
}

impl Valued for Race {
    fn evaluate(&self, _root: bool, policy: &mut Vec<(u16, f32)>) -> Option<Evaluation> {
        let of = |side_wins: bool| {
            if side_wins == (self.to_move == 0) {
                1.0
            } else {
                0.0
            }
        };
        if let Some(w) = self.winner {
            let win = if w == 0 { 1.0 } else { 0.0 };
            return Some(Evaluation {
                win,
                score: 2.0 * win - 1.0,
                score_stdev: 0.0,
            });
        }
        let room = self.goal - self.count;
        policy.push((1, self.lean));
        if room >= 2 {
            policy.push((2, 1.0 - self.lean));
        }
        let win = match self.exact {
            true => of(!room.is_multiple_of(3)),
            false => 0.5,
        };
        Some(Evaluation {
            win,
            score: 0.0,
            score_stdev: 5.0,
        })
    }
}

fn search(game: &Race, sims: usize) -> Puct {
    let mut tree = Puct::new(game.to_move, PuctConfig::default(), Utility::WIN);
    for _ in 0..sims {
        tree.simulate(game, None).unwrap();
    }
    tree
}

#[test]
fn an_exact_value_finds_the_winning_move_at_once() {
    // from 4, adding 1 leaves 3: a loss for the side to move
    let tree = search(&race(4, true, 0.2), 30);
    let best = tree.best_child().unwrap();
    assert_eq!(best.action, 1, "{:?}", tree.children());
    assert!(best.winrate() > 0.9 && tree.root().visits == 30);
}

#[test]
fn the_finished_games_below_find_it_without_knowledge() {
    // no knowledge but the results: the search reads the race out
    let tree = search(&race(7, false, 0.5), 400);
    assert_eq!(
        tree.best_child().unwrap().action,
        1,
        "{:?}",
        tree.children()
    );
    assert!(tree.evaluations > 0 && tree.evaluations < 400);
}

#[test]
fn equal_values_spread_visits_by_the_policy() {
    let tree = search(&race(40, false, 0.8), 200);
    let (a, b) = (tree.children()[0], tree.children()[1]);
    assert_eq!((a.action, b.action), (1, 2), "likeliest first");
    assert!(a.visits > 2 * b.visits && b.visits > 10, "{a:?} {b:?}");
}

#[test]
fn visits_and_sums_add_up_along_the_tree() {
    let tree = search(&race(10, true, 0.6), 100);
    let root = tree.root();
    let below: u32 = tree.children().iter().map(|c| c.visits).sum();
    assert_eq!(
        root.visits,
        below + 1,
        "the root's own evaluation and its children's"
    );
    // the root's win chance is its opponent's: 10 is a win for side 0
    assert!(root.winrate() < 0.2, "{root:?}");
    sums_add_up(&tree);
    sums_add_up(&search(&race(12, false, 0.5), 400));
}

#[test]
fn the_root_moves_down_and_keeps_what_it_learned() {
    let game = race(10, true, 0.6);
    let mut tree = search(&game, 200);
    let best = tree.best_child().unwrap().action;
    let before = tree
        .children()
        .iter()
        .find(|c| c.action == best)
        .unwrap()
        .visits;
    assert!(tree.advance(&[best]));
    assert_eq!(tree.root().visits, before);
    let size = tree.size();
    tree.compact();
    assert_eq!(tree.nodes.len(), size);
    assert_eq!(tree.root().visits, before);
    let mut next = game.clone();
    next.play(best);
    tree.simulate(&next, None).unwrap();
    assert_eq!(tree.root().visits, before + 1);
    assert!(!tree.advance(&[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]));
}

#[test]
fn a_forbidden_root_move_is_never_chosen() {
    let game = race(4, true, 0.9);
    let mut tree = search(&game, 5);
    tree.forbid_at_root(|a| a != 1);
    for _ in 0..50 {
        tree.simulate(&game, None).unwrap();
    }
    let best = tree.best_child().unwrap();
    assert_eq!(best.action, 2);
    let one = tree.children().iter().find(|c| c.action == 1).unwrap();
    assert!(one.visits <= 5, "{one:?}");
}

/// A tree of one node, `visits` evaluations of mean utility `mean`
/// (for the node's side), `spread` their standard deviation, the network's
/// own read `own`.
fn lone(visits: u32, mean: f32, spread: f32, own: f32) -> Puct {
    let mut tree = Puct::new(0, PuctConfig::default(), Utility::WIN);
    let v = visits as f32;
    let root = &mut tree.nodes[0];
    root.visits = visits;
    root.utility = mean * v;
    root.utility_sq = (spread * spread + mean * mean) * v;
    root.own_utility = own;
    tree
}

#[test]
fn exploration_grows_with_the_spread_of_the_utility() {
    // KataGo's formula, worked by hand: 10 visits, mean 0.2, mean square
    // 0.3, the prior 0.4 over 2 visits: variance (0.2 * 2 + 3) / 11 - 0.04
    let spread = (0.3f32 - 0.04).sqrt();
    let tree = lone(10, 0.2, spread, 0.0);
    let stdev = ((0.4f32 + 3.0) / 11.0 - 0.04).sqrt();
    let want = 1.0 + 0.85 * (stdev / 0.4 - 1.0);
    assert!((tree.spread_factor(tree.root()) - want).abs() < 1e-4);
    // settled values explore less than the prior's, wild ones more
    let calm = lone(200, 0.5, 0.02, 0.0);
    let wild = lone(200, 0.0, 0.9, 0.0);
    assert!(calm.spread_factor(calm.root()) < 0.3);
    assert!(wild.spread_factor(wild.root()) > 1.8);
    // one visit says nothing of a spread; a scale of 0 switches it off
    let one = lone(1, 0.9, 0.0, 0.9);
    assert_eq!(one.spread_factor(one.root()), 1.0);
    let mut off = lone(200, 0.0, 0.9, 0.0);
    off.config.stdev_scale = 0.0;
    assert_eq!(off.spread_factor(off.root()), 1.0);
}

#[test]
fn first_play_urgency_trusts_the_mean_as_the_policy_gets_tried() {
    // the subtree's mean says 0.6 for the node's side, its own read -0.2:
    // the side choosing there sees -0.6 and 0.2
    let tree = lone(30, 0.6, 0.1, -0.2);
    let reduction = |tried: f32| 0.1 * tried.sqrt(); // fpu_root
    let few = tree.first_play_urgency(0, 0.1);
    let want = -(0.01 * 0.6 + 0.99 * -0.2) - reduction(0.1);
    assert!((few - want).abs() < 1e-5, "{few} {want}");
    let most = tree.first_play_urgency(0, 0.9);
    let want = -(0.81 * 0.6 + 0.19 * -0.2) - reduction(0.9);
    assert!((most - want).abs() < 1e-5, "{most} {want}");
    let mut mean_only = lone(30, 0.6, 0.1, -0.2);
    mean_only.config.fpu_pow = 0.0;
    let plain = mean_only.first_play_urgency(0, 0.1);
    assert!((plain - (-0.6 - reduction(0.1))).abs() < 1e-5);
}

#[test]
fn a_leaf_keeps_the_networks_own_read() {
    // from 4 the side to move (0) wins: its children are lost for 1
    let tree = search(&race(4, true, 0.5), 20);
    assert_eq!(tree.root().own_utility, -1.0, "the root is side 1's");
    for child in tree.children().iter().filter(|c| c.visits > 0) {
        let wins = child.action == 1; // 4 - 1 = 3 left: the mover wins
        assert_eq!(child.own_utility, if wins { 1.0 } else { -1.0 });
    }
}

/// Whether every expanded node's utility sum is its own read plus its
/// children's (theirs are the other side's).
fn sums_add_up(tree: &Puct) {
    for n in &tree.nodes {
        if !n.expanded || n.n_children == 0 || n.visits == 0 {
            continue;
        }
        let children: f32 = n.children().map(|c| tree.nodes[c as usize].utility).sum();
        let own = n.utility + children;
        let want = n.own_utility;
        assert!((own - want).abs() < 1e-3, "{n:?}: {own} against {want}");
    }
}

/// A root with children of (visits, mean utility, spread) for the side
/// choosing among them.
fn root_with(children: &[(u32, f32, f32)]) -> Puct {
    let mut tree = Puct::new(0, PuctConfig::default(), Utility::WIN);
    let first = tree.nodes.len() as u32;
    for (i, &(visits, mean, spread)) in children.iter().enumerate() {
        let v = visits as f32;
        tree.nodes.push(Node {
            action: i as u16,
            side: 0,
            visits,
            prior: 0.1,
            utility: mean * v,
            utility_sq: (spread * spread + mean * mean) * v,
            ..Node::default()
        });
    }
    let root = &mut tree.nodes[0];
    root.first_child = first;
    root.n_children = children.len() as u16;
    root.expanded = true;
    tree
}

/// The move the weights choose.
fn chosen(tree: &Puct) -> usize {
    let w = tree.play_weights();
    (0..w.len()).max_by(|&a, &b| w[a].total_cmp(&w[b])).unwrap()
}

#[test]
fn the_move_played_has_the_best_lower_bound_among_the_well_visited() {
    // the most visited wavers around 0.1; the other, at 40 % of its
    // visits, holds 0.3 steadily: its bound is the better
    let tree = root_with(&[(100, 0.1, 0.5), (40, 0.3, 0.05)]);
    assert_eq!(chosen(&tree), 1, "{:?}", tree.play_weights());
    let mut plain = root_with(&[(100, 0.1, 0.5), (40, 0.3, 0.05)]);
    plain.config.lcb = 0.0;
    assert_eq!(plain.play_weights(), vec![100.0, 40.0]);
    // under 15 % of the most visits, however good, it is not trusted
    let few = root_with(&[(100, 0.1, 0.5), (14, 0.6, 0.01)]);
    assert_eq!(chosen(&few), 0);
    // a better mean that wavers as much is no better bound at fewer visits
    let noisy = root_with(&[(100, 0.1, 0.3), (30, 0.15, 0.6)]);
    assert_eq!(chosen(&noisy), 0);
    // a forbidden child never leads
    let mut forbidden = root_with(&[(100, 0.1, 0.5), (40, 0.3, 0.05)]);
    forbidden.forbid_at_root(|a| a != 1);
    assert_eq!(chosen(&forbidden), 0);
}

#[test]
fn the_score_term_prefers_more_points_and_saturates() {
    let u = Utility {
        static_factor: 0.1,
        dynamic_factor: 0.3,
        static_scale: 38.0,
        dynamic_scale: 14.25,
        center: 20.0,
    };
    let at = |score, stdev| {
        u.of(&Evaluation {
            win: 0.9,
            score,
            score_stdev: stdev,
        })
    };
    assert!(at(10.0, 5.0) < at(20.0, 5.0) && at(20.0, 5.0) < at(30.0, 5.0));
    // far from every centre the term flattens
    assert!(at(400.0, 5.0) - at(300.0, 5.0) < 0.01);
    // a sure score is the atan itself; a spread pulls it toward the centre
    let plain = std::f32::consts::FRAC_2_PI * (10.0f32 / 4.0).atan();
    assert!((expected_atan(10.0, 0.0, 0.0, 4.0) - plain).abs() < 1e-6);
    assert!(expected_atan(10.0, 8.0, 0.0, 4.0) < plain);
    assert!(expected_atan(0.0, 8.0, 0.0, 4.0).abs() < 1e-6);
    // against a fine numeric integral
    let (m, sd, c, s) = (3.0f64, 10.0f64, 1.0f64, 5.0f64);
    let mut num = 0.0;
    let mut den = 0.0;
    for i in -6000..=6000 {
        let x = i as f64 / 600.0;
        let w = (-0.5 * x * x).exp();
        num += w * ((m + sd * x - c) / s).atan() * std::f64::consts::FRAC_2_PI;
        den += w;
    }
    let quad = expected_atan(m as f32, sd as f32, c as f32, s as f32) as f64;
    assert!(
        (num / den - quad).abs() < 1e-4,
        "{} against {quad}",
        num / den
    );
}
