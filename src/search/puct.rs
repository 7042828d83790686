//! The tree of a search on a value network, as AlphaZero's and KataGo's:
//! every new leaf is read by the game's network ([`Valued::evaluate`]),
//! its policy giving the leaf's children their priors and its value and
//! score backed up the path; no playout. A child is chosen by PUCT:
//! its mean utility plus an exploration term that grows with its prior
//! and the parent's visits and shrinks with its own; a child not yet
//! visited counts at its parent's utility less a reduction that grows
//! with the policy already tried (first-play urgency). The utility is
//! KataGo's: the win/loss difference plus a share of the expected score
//! ([`Utility`]), so that a lost game is lost by as little as possible
//! and a won one still takes what is there.

use super::arena::{self, Linked};
use super::tree::SearchGame;
use std::ops::Range;

/// A network's read of a position, or a finished game's result, from
/// side 0's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// The chance of winning, 0 to 1 (a draw half).
    pub win: f32,
    /// The expected score lead (0 where the game has no score), and the
    /// spread of the final score around it.
    pub score: f32,
    pub score_stdev: f32,
}

/// A game whose positions a value network reads.
pub trait Valued: SearchGame {
    /// The position's evaluation, and each legal action's prior (the
    /// network's policy, summing to about 1) in `policy`; a finished game
    /// its result with no actions. `root`: the search's root (KataGo reads
    /// it less optimistically). `None` where the game has no network for
    /// this position: the search then runs on playouts (`tree.rs`).
    fn evaluate(&self, root: bool, policy: &mut Vec<(u16, f32)>) -> Option<Evaluation>;
}

/// What the search maximises: KataGo's utility, the win/loss difference
/// (-1 to 1) plus, for the score, the expected value of
/// `2/pi atan((score - center) / scale)` twice: once around 0 (static)
/// and once around the score expected at the root (dynamic, so that the
/// search still cares for points when the game is decided).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Utility {
    pub static_factor: f32,
    pub dynamic_factor: f32,
    /// The static term's scale (KataGo: 2 times the board's side).
    pub static_scale: f32,
    /// The dynamic term's scale (KataGo: 0.75 times the board's side).
    pub dynamic_scale: f32,
    /// Side 0's score the dynamic term centres on.
    pub center: f32,
}

impl Utility {
    /// A utility on the win alone.
    pub const WIN: Utility = Utility {
        static_factor: 0.0,
        dynamic_factor: 0.0,
        static_scale: 1.0,
        dynamic_scale: 1.0,
        center: 0.0,
    };

    /// `e`'s utility for side 0.
    pub fn of(&self, e: &Evaluation) -> f32 {
        let mut u = 2.0 * e.win - 1.0;
        if self.static_factor != 0.0 {
            u += self.static_factor * expected_atan(e.score, e.score_stdev, 0.0, self.static_scale);
        }
        if self.dynamic_factor != 0.0 {
            let d = expected_atan(e.score, e.score_stdev, self.center, self.dynamic_scale);
            u += self.dynamic_factor * d;
        }
        u
    }
}

/// `E[2/pi atan((S - center) / scale)]` for S normal with `mean` and
/// `stdev` (KataGo tabulates it): Simpson's rule over 5 spreads either
/// side, in 48 steps, within 1e-4 of the integral for any spread (the
/// atan's bend is as narrow as `scale`, too narrow for a few
/// Gauss-Hermite nodes once the spread is wider).
pub fn expected_atan(mean: f32, stdev: f32, center: f32, scale: f32) -> f32 {
    let f = |s: f64| ((s - center as f64) / scale as f64).atan();
    let (m, sd) = (mean as f64, stdev as f64);
    if sd <= 0.0 {
        return (f(m) * std::f64::consts::FRAC_2_PI) as f32;
    }
    const STEPS: i32 = 48;
    let h = 10.0 / STEPS as f64;
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..=STEPS {
        let x = -5.0 + i as f64 * h;
        let k = if i == 0 || i == STEPS {
            1.0
        } else if i % 2 == 1 {
            4.0
        } else {
            2.0
        };
        let w = k * (-0.5 * x * x).exp();
        num += w * f(m + sd * x);
        den += w;
    }
    (num / den * std::f64::consts::FRAC_2_PI) as f32
}

/// Tunable constants of the search (KataGo's GTP defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct PuctConfig {
    /// Exploration: `cpuct + cpuct_log * ln((N + cpuct_base) / cpuct_base)`
    /// times the square root of the parent's visits.
    pub cpuct: f32,
    pub cpuct_log: f32,
    pub cpuct_base: f32,
    /// First-play urgency: an unvisited child counts at the parent's
    /// utility less this times the square root of the policy already
    /// visited (at the root and below).
    pub fpu_root: f32,
    pub fpu: f32,
    /// Children kept at an expansion: the actions whose prior is at least
    /// this share of the likeliest's (a game lifts an action it must keep,
    /// as Go its pass when passing may end the game). A move the network
    /// gives less is not searched at these visit counts anyway.
    pub min_prior: f32,
    /// A timed search stops once its best move holds this share of the
    /// root's visits and half its time is spent: time goes where the
    /// search is unsure (above 1: never).
    pub sure_share: f32,
    /// Most nodes the tree may hold; past it, leaves are evaluated but
    /// stay leaves.
    pub max_nodes: usize,
}

impl Default for PuctConfig {
    fn default() -> Self {
        PuctConfig {
            cpuct: 1.0,
            cpuct_log: 0.45,
            cpuct_base: 500.0,
            fpu_root: 0.2,
            fpu: 0.2,
            min_prior: 1e-3,
            sure_share: 0.8,
            max_nodes: 2_000_000,
        }
    }
}

/// A node of the value tree: what the move leading to it learned, from
/// the side that played it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Node {
    pub action: u16,
    /// The side that played `action`.
    pub side: u8,
    expanded: bool,
    n_children: u16,
    first_child: u32,
    /// Evaluations below and at this node.
    pub visits: u32,
    /// The policy's probability of `action`.
    pub prior: f32,
    /// Sums over the evaluations: the utility, the win chance and the
    /// score lead, for `side`.
    utility: f32,
    win: f32,
    score: f32,
}

impl Node {
    /// The mean utility for `side` (0 before a visit).
    pub fn utility(&self) -> f32 {
        self.utility / self.visits.max(1) as f32
    }
    /// The mean win chance for `side` (0.5 before a visit).
    pub fn winrate(&self) -> f32 {
        match self.visits {
            0 => 0.5,
            v => self.win / v as f32,
        }
    }
    /// The mean score lead for `side`.
    pub fn score(&self) -> f32 {
        self.score / self.visits.max(1) as f32
    }
}

impl Linked for Node {
    fn action(&self) -> u16 {
        self.action
    }
    fn children(&self) -> Range<u32> {
        self.first_child..self.first_child + self.n_children as u32
    }
    fn relink(&mut self, first: u32) {
        self.first_child = first;
    }
    fn visits(&self) -> u32 {
        self.visits
    }
}

/// The value tree over a game `G`, rooted at `nodes[root]`.
pub struct Puct {
    pub nodes: Vec<Node>,
    root: u32,
    pub config: PuctConfig,
    pub utility: Utility,
    path: Vec<u32>,
    policy: Vec<(u16, f32)>,
    /// The network's evaluations so far (a finished game's result is none).
    pub evaluations: u64,
}

impl Puct {
    /// A tree with only a root for a position where `side` is to move.
    pub fn new(side: u8, config: PuctConfig, utility: Utility) -> Puct {
        Puct {
            nodes: vec![Node {
                side: 1 - side,
                action: u16::MAX,
                ..Node::default()
            }],
            root: 0,
            config,
            utility,
            path: Vec::with_capacity(64),
            policy: Vec::with_capacity(400),
            evaluations: 0,
        }
    }

    pub fn root(&self) -> &Node {
        &self.nodes[self.root as usize]
    }

    /// The root's children, likeliest first.
    pub fn children(&self) -> &[Node] {
        let r = self.root().children();
        &self.nodes[r.start as usize..r.end as usize]
    }

    /// Nodes reachable from the root.
    pub fn size(&self) -> usize {
        arena::size(&self.nodes, self.root)
    }

    /// One simulation from the root position `root_state`: descend by
    /// PUCT (through the root child `first` if given), evaluate the leaf,
    /// expand it, back its utility up. Returns the leaf's evaluation, or
    /// `None` if the game has no network for it (nothing changes then).
    pub fn simulate<G: Valued>(
        &mut self,
        root_state: &G,
        first: Option<u16>,
    ) -> Option<Evaluation> {
        let mut state = root_state.clone();
        self.path.clear();
        let mut n = self.root;
        self.path.push(n);
        if let Some(i) = first.and_then(|a| arena::child(&self.nodes, n, a)) {
            n = i;
            state.play(self.nodes[n as usize].action);
            self.path.push(n);
        }
        while self.nodes[n as usize].expanded && !state.is_over() {
            let Some(next) = self.select(n) else { break };
            n = next;
            state.play(self.nodes[n as usize].action);
            self.path.push(n);
        }
        self.policy.clear();
        let e = state.evaluate(n == self.root, &mut self.policy)?;
        if !state.is_over() {
            self.evaluations += 1;
        }
        if !self.nodes[n as usize].expanded && self.nodes.len() < self.config.max_nodes {
            self.expand(n, state.to_move());
        }
        let u = self.utility.of(&e);
        for &k in &self.path {
            let node = &mut self.nodes[k as usize];
            let mine = node.side == 0;
            node.visits += 1;
            node.utility += if mine { u } else { -u };
            node.win += if mine { e.win } else { 1.0 - e.win };
            node.score += if mine { e.score } else { -e.score };
        }
        Some(e)
    }

    /// Makes the children of `n`, `side` to move there, from the policy
    /// just read: the likeliest first, those too unlikely to matter left
    /// out.
    fn expand(&mut self, n: u32, side: u8) {
        let policy = &mut self.policy;
        policy.sort_by(|a, b| b.1.total_cmp(&a.1));
        let top = policy.first().map_or(0.0, |p| p.1);
        let floor = top * self.config.min_prior;
        let first = self.nodes.len() as u32;
        for &(action, prior) in policy.iter() {
            if prior >= floor {
                self.nodes.push(Node {
                    action,
                    side,
                    prior,
                    ..Node::default()
                });
            }
        }
        let count = (self.nodes.len() as u32 - first) as u16;
        let node = &mut self.nodes[n as usize];
        node.first_child = first;
        node.n_children = count;
        node.expanded = true;
    }

    /// The child of `n` to descend into, by PUCT with first-play urgency;
    /// `None` if `n` has none it may choose.
    fn select(&self, n: u32) -> Option<u32> {
        let parent = &self.nodes[n as usize];
        let r = parent.children();
        if r.is_empty() {
            return None;
        }
        let children = &self.nodes[r.start as usize..r.end as usize];
        let c = &self.config;
        let total: u32 = children.iter().map(|c| c.visits).sum();
        let total = total as f32;
        let cpuct = c.cpuct + c.cpuct_log * ((total + c.cpuct_base) / c.cpuct_base).ln();
        let scaling = cpuct * (total + 0.01).sqrt();
        // the parent's utility for the side choosing here (its own is the
        // other side's)
        let parent_utility = -parent.utility();
        let tried: f32 = children
            .iter()
            .filter(|c| c.visits > 0 && c.prior > 0.0)
            .map(|c| c.prior)
            .sum();
        let reduction = if n == self.root { c.fpu_root } else { c.fpu };
        let fpu = parent_utility - reduction * tried.sqrt();
        let mut best: Option<(f32, u32)> = None;
        let mut unvisited_seen = false;
        for (i, child) in children.iter().enumerate() {
            let q = if child.prior < 0.0 {
                continue; // forbidden at the root
            } else if child.visits > 0 {
                child.utility()
            } else if unvisited_seen {
                // likeliest first: a later unvisited child cannot beat one seen
                continue;
            } else {
                unvisited_seen = true;
                fpu
            };
            let value = q + scaling * child.prior / (1.0 + child.visits as f32);
            if best.is_none_or(|b| value > b.0) {
                best = Some((value, r.start + i as u32));
            }
        }
        best.map(|b| b.1)
    }

    /// The root child with the most visits (the better utility breaks a
    /// tie): the move to play.
    pub fn best_child(&self) -> Option<&Node> {
        self.children()
            .iter()
            .filter(|c| c.prior >= 0.0)
            .max_by(|a, b| {
                a.visits
                    .cmp(&b.visits)
                    .then(a.utility().total_cmp(&b.utility()))
            })
    }

    /// Most-visited line from the root.
    pub fn principal_variation(&self, max_len: usize) -> Vec<u16> {
        arena::line_below(&self.nodes, self.root, Vec::new(), max_len)
    }

    /// The most-visited line through the root child `action`.
    pub fn line_through(&self, action: u16, max_len: usize) -> Vec<u16> {
        arena::child(&self.nodes, self.root, action).map_or_else(Vec::new, |n| {
            arena::line_below(&self.nodes, n, vec![action], max_len)
        })
    }

    /// Moves the root down along `actions`; false (the tree unchanged) if
    /// a move has no node.
    pub fn advance(&mut self, actions: &[u16]) -> bool {
        match arena::advance(&self.nodes, self.root, actions) {
            Some(n) => {
                self.root = n;
                true
            }
            None => false,
        }
    }

    /// Drops the nodes earlier moves left behind.
    pub fn compact(&mut self) {
        arena::compact(&mut self.nodes, self.root);
        self.root = 0;
    }

    /// Makes the root children that `allowed` refuses never chosen (a
    /// superko or a field's refusal at the root): a negative prior marks
    /// them.
    pub fn forbid_at_root(&mut self, allowed: impl Fn(u16) -> bool) {
        let r = self.root().children();
        for node in &mut self.nodes[r.start as usize..r.end as usize] {
            if !allowed(node.action) {
                node.prior = -1.0;
            }
        }
    }
}

#[cfg(test)]
#[path = "puct/tests.rs"]
mod tests;
