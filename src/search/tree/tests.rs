use super::*;

/// Nim-like race: players add 1 or 2 to a counter; whoever reaches
/// `goal` wins. From 0 with goal 4 the first player wins by taking 1.
#[derive(Clone)]
struct Race {
    count: u8,
    goal: u8,
    to_move: u8,
    winner: Option<u8>,
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
    fn expand(&self, out: &mut Vec<Prior>) {
        for a in 1..=2u16 {
            if self.count + a as u8 <= self.goal {
                out.push(Prior {
                    action: a,
                    visits: 0.0,
                    wins: 0.0,
                });
            }
        }
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
    fn playout(&mut self, rng: &mut Rng, _amaf: &mut Amaf) -> f32 {
        while self.winner.is_none() {
            let room = self.goal - self.count;
            let a = if room == 1 {
                1
            } else {
                1 + rng.below(2) as u16
            };
            self.play(a);
        }
        if self.winner == Some(0) {
            1.0
        } else {
            0.0
        }
    }
    fn margin(&self) -> Option<f32> {
        Some(if self.winner == Some(0) { 1.0 } else { -1.0 })
    }
}

#[test]
fn finds_the_winning_move_of_a_small_race() {
    let game = Race {
        count: 0,
        goal: 7,
        to_move: 0,
        winner: None,
    };
    let mut tree = Tree::new(
        &game,
        TreeConfig {
            explore: 0.3,
            ..TreeConfig::default()
        },
    );
    let mut rng = Rng::new(3);
    for _ in 0..3000 {
        tree.simulate(&game, &mut rng);
    }
    // 7 = 1 + 3k: taking 1 leaves a multiple of 3 to the opponent
    assert_eq!(tree.best_child().unwrap().action, 1);
    assert!(tree.best_child().unwrap().value() > 0.6);
    assert!(tree.advance(&[1, 2]));
    assert_eq!(tree.root().action, 2);
    tree.compact();
    assert_eq!(tree.root().action, 2);
    assert!(tree.size() > 1);
}

#[test]
fn a_new_root_keeps_its_whole_subtree_and_nothing_else() {
    let game = Race {
        count: 0,
        goal: 20,
        to_move: 0,
        winner: None,
    };
    let config = TreeConfig {
        expand_after: 1,
        explore: 0.3,
        ..TreeConfig::default()
    };
    let mut tree = Tree::new(&game, config);
    let mut rng = Rng::new(9);
    for _ in 0..4000 {
        tree.simulate(&game, &mut rng);
    }
    let before = tree.nodes.clone();
    let old_root = tree.root;
    let first = tree.best_child().unwrap().action;
    let under = tree
        .child_indices(old_root)
        .find(|&i| before[i as usize].action == first)
        .unwrap();
    let second = tree
        .child_indices(under)
        .max_by_key(|&i| before[i as usize].playouts)
        .unwrap();
    let second_action = before[second as usize].action;
    let kept = before[second as usize];
    assert!(tree.advance(&[first, second_action]));
    // the root moved: nothing copied yet
    assert_eq!(tree.nodes.len(), before.len());
    assert_eq!(tree.root().playouts, kept.playouts);
    tree.compact();
    // the same nodes, in the same shape, with the same counts
    fn same(old: &[Node], o: u32, new: &[Node], n: u32) -> usize {
        let (a, b) = (old[o as usize], new[n as usize]);
        assert_eq!(
            (a.action, a.side, a.n_children, a.expanded, a.playouts),
            (b.action, b.side, b.n_children, b.expanded, b.playouts)
        );
        assert_eq!(
            (a.visits, a.wins, a.amaf_visits),
            (b.visits, b.wins, b.amaf_visits)
        );
        (0..a.n_children as u32)
            .map(|k| same(old, a.first_child + k, new, b.first_child + k))
            .sum::<usize>()
            + 1
    }
    let count = same(&before, second, &tree.nodes, 0);
    assert!(count > 100, "a deep enough subtree: {count}");
    assert_eq!(count, tree.nodes.len());
    assert_eq!(tree.root().playouts, kept.playouts);
}

#[test]
fn memory_stays_within_the_node_budget() {
    let game = Race {
        count: 0,
        goal: 60,
        to_move: 0,
        winner: None,
    };
    let budget = 1000;
    let mut tree = Tree::new(
        &game,
        TreeConfig {
            max_nodes: budget,
            expand_after: 1,
            ..TreeConfig::default()
        },
    );
    let mut rng = Rng::new(5);
    for _ in 0..5000 {
        tree.simulate(&game, &mut rng);
    }
    assert!(tree.nodes.len() >= budget, "the budget is reached");
    // no doubling past the budget and one expansion
    assert!(tree.nodes.capacity() <= budget + game.actions());
    // a new root's arena has room for the budget and no more
    let first = tree.best_child().unwrap().action;
    assert!(tree.advance(&[first]));
    assert!(tree.crowded());
    // in place: no second arena beside the first, even for a moment
    let arena = tree.nodes.as_ptr();
    tree.compact();
    assert_eq!(tree.nodes.as_ptr(), arena);
    assert!(!tree.crowded());
    assert!(tree.nodes.len() < budget);
    assert!(tree.nodes.capacity() <= budget + game.actions());
}

/// The race with slow knowledge: adding 2 is worth `bonus` won visits,
/// and every call is counted.
#[derive(Clone)]
struct Hinted {
    race: Race,
    bonus: f32,
    calls: std::rc::Rc<std::cell::Cell<u32>>,
}

impl SearchGame for Hinted {
    fn actions(&self) -> usize {
        self.race.actions()
    }
    fn to_move(&self) -> u8 {
        self.race.to_move()
    }
    fn is_over(&self) -> bool {
        self.race.is_over()
    }
    fn expand(&self, out: &mut Vec<Prior>) {
        self.race.expand(out)
    }
    fn play(&mut self, action: u16) {
        self.race.play(action)
    }
    fn amaf_action(&self, action: u16) -> bool {
        self.race.amaf_action(action)
    }
    fn playout(&mut self, rng: &mut Rng, amaf: &mut Amaf) -> f32 {
        self.race.playout(rng, amaf)
    }
    fn knowledge(&self, out: &mut Vec<Prior>) {
        self.calls.set(self.calls.get() + 1);
        // action 3 is never legal: knowledge of it must be dropped
        for action in [2, 3] {
            out.push(Prior {
                action,
                visits: self.bonus,
                wins: self.bonus,
            });
        }
    }
}

#[test]
fn slow_knowledge_reaches_the_root_at_once_and_busy_nodes_once() {
    let game = Hinted {
        race: Race {
            count: 0,
            goal: 30,
            to_move: 0,
            winner: None,
        },
        bonus: 100.0,
        calls: Default::default(),
    };
    let at = 50;
    let config = TreeConfig {
        knowledge_at: at,
        ..TreeConfig::default()
    };
    let mut tree = Tree::new(&game, config);
    let mut rng = Rng::new(5);
    tree.simulate(&game, &mut rng);
    assert_eq!(game.calls.get(), 1);
    let two = |t: &Tree<Hinted>| *t.children().iter().find(|c| c.action == 2).unwrap();
    let one = tree.children().iter().find(|c| c.action == 1).unwrap();
    assert!(two(&tree).visits >= game.bonus && two(&tree).amaf_visits >= game.bonus);
    assert!(one.visits < 2.0, "{one:?}");
    for _ in 0..3000 {
        tree.simulate(&game, &mut rng);
    }
    // every node past the threshold with children was told, once; none
    // below it (a node at exactly `at` may not have been walked since)
    let calls = game.calls.get() as usize;
    let informed = tree.nodes.iter().filter(|n| n.informed).count();
    let busy = |above: u32| {
        tree.nodes[1..]
            .iter()
            .filter(|n| n.playouts >= above && n.n_children > 0)
            .count()
    };
    assert_eq!(calls, informed);
    assert_eq!(tree.knowledge_given as usize, calls);
    assert!(
        (1 + busy(at + 1)..=1 + busy(at)).contains(&calls),
        "{calls} calls, {} nodes past {at} playouts",
        busy(at + 1)
    );
    assert!(calls > 5, "{calls}");
    // the knowledge decided the root: adding 2 has all but its share
    assert!(two(&tree).playouts > 2000, "{:?}", two(&tree));
}

#[test]
fn the_root_keeps_the_mean_and_spread_of_its_playouts_margins() {
    let game = Race {
        count: 0,
        goal: 9,
        to_move: 0,
        winner: None,
    };
    let mut tree = Tree::new(&game, TreeConfig::default());
    let mut rng = Rng::new(5);
    let mut won = 0.0;
    for _ in 0..2000 {
        won += tree.simulate(&game, &mut rng);
    }
    // margins of +1 (side 0 won) and -1: mean 2p - 1, spread 2 sqrt(p(1 - p))
    let m = tree.root_margin();
    let p = won / 2000.0;
    assert_eq!(m.playouts, 2000);
    assert!((m.mean() - (2.0 * p - 1.0)).abs() < 1e-4, "{m:?} at {p}");
    assert!((m.spread() - 2.0 * (p * (1.0 - p)).sqrt()).abs() < 1e-3);
    // a new root: its margins were not kept, so none
    let first = tree.best_child().unwrap().action;
    assert!(tree.advance(&[first]));
    assert_eq!(tree.root_margin().playouts, 0);
    tree.simulate(&game_after(&game, first), &mut rng);
    assert_eq!(tree.root_margin().playouts, 1);
    // staying at the root keeps them
    assert!(tree.advance(&[]));
    assert_eq!(tree.root_margin().playouts, 1);
}

fn game_after(game: &Race, action: u16) -> Race {
    let mut g = game.clone();
    g.play(action);
    g
}
