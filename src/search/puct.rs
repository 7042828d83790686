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
mod utility;
pub use utility::{expected_atan, Evaluation, Utility};

/// A game whose positions a value network reads.
pub trait Valued: SearchGame {
    /// The position's evaluation, and each legal action's prior (the
    /// network's policy, summing to about 1) in `policy`; a finished game
    /// its result with no actions. `root`: the search's root (KataGo reads
    /// it less optimistically). `None` where the game has no network for
    /// this position: the search then runs on playouts (`tree.rs`).
    fn evaluate(&self, root: bool, policy: &mut Vec<(u16, f32)>) -> Option<Evaluation>;
}

/// Tunable constants of the search (KataGo's GTP defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct PuctConfig {
    /// Exploration: `cpuct + cpuct_log * ln((N + cpuct_base) / cpuct_base)`
    /// times the square root of the parent's visits.
    pub cpuct: f32,
    pub cpuct_log: f32,
    pub cpuct_base: f32,
    /// Exploration scaled by the spread of the utility below the parent
    /// (KataGo's `cpuctUtilityStdevScale`): times `1 + scale * (stdev /
    /// prior - 1)`, the stdev estimated with `stdev_prior_weight` visits
    /// at `stdev_prior`; a wild position explores more, a settled one
    /// weighs fine differences (0: a constant cpuct).
    pub stdev_scale: f32,
    pub stdev_prior: f32,
    pub stdev_prior_weight: f32,
    /// First-play urgency: an unvisited child counts at the parent's
    /// utility less this times the square root of the policy already
    /// visited (at the root and below).
    pub fpu_root: f32,
    pub fpu: f32,
    /// The parent's utility in that is its mean over the subtree weighted
    /// `w = visited policy ^ fpu_pow` and its network's own read `1 - w`
    /// (KataGo's `fpuParentWeightByVisitedPolicyPow`): few tried moves
    /// say little of the untried ones (0: the mean alone).
    pub fpu_pow: f32,
    /// Children kept at an expansion: the actions whose prior is at least
    /// this share of the likeliest's (a game lifts an action it must keep,
    /// as Go its pass when passing may end the game). A move the network
    /// gives less is not searched at these visit counts anyway.
    pub min_prior: f32,
    /// The move to play is the most visited unless another with at least
    /// `lcb_share` of its visits has a better lower confidence bound, its
    /// mean utility less `lcb` standard errors (KataGo's `lcbStdevs`,
    /// `minVisitPropForLCB`; 0: the visits alone).
    pub lcb: f32,
    pub lcb_share: f32,
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
            stdev_scale: 0.85,
            stdev_prior: 0.4,
            stdev_prior_weight: 2.0,
            fpu_root: 0.1,
            fpu: 0.2,
            fpu_pow: 2.0,
            min_prior: 1e-3,
            lcb: 5.0,
            lcb_share: 0.15,
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
    /// Sums over the evaluations: the utility, its square, the win chance
    /// and the score lead, for `side`.
    utility: f32,
    utility_sq: f32,
    win: f32,
    score: f32,
    /// The network's utility of this position alone, for `side`.
    own_utility: f32,
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
        let leaf = &mut self.nodes[n as usize];
        leaf.own_utility = if leaf.side == 0 { u } else { -u };
        for &k in &self.path {
            let node = &mut self.nodes[k as usize];
            let mine = node.side == 0;
            node.visits += 1;
            node.utility += if mine { u } else { -u };
            node.utility_sq += u * u;
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
        let scaling = cpuct * (total + 0.01).sqrt() * self.spread_factor(parent);
        let tried: f32 = children
            .iter()
            .filter(|c| c.visits > 0 && c.prior > 0.0)
            .map(|c| c.prior)
            .sum();
        let fpu = self.first_play_urgency(n, tried);
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

    /// The utility an unvisited child of `n` counts at, for the side
    /// choosing there, once children holding `tried` of the policy have
    /// been visited.
    fn first_play_urgency(&self, n: u32, tried: f32) -> f32 {
        let (parent, c) = (&self.nodes[n as usize], &self.config);
        let w = tried.powf(c.fpu_pow).min(1.0);
        // the parent's own values are the other side's
        let parent_utility = -(w * parent.utility() + (1.0 - w) * parent.own_utility);
        let reduction = if n == self.root { c.fpu_root } else { c.fpu };
        parent_utility - reduction * tried.sqrt()
    }

    /// The exploration's factor for the spread of `parent`'s utility
    /// ([`PuctConfig::stdev_scale`]; KataGo's formula, the prior counted
    /// as `stdev_prior_weight` visits around the mean).
    fn spread_factor(&self, parent: &Node) -> f32 {
        let c = &self.config;
        if c.stdev_scale == 0.0 {
            return 1.0;
        }
        let v = parent.visits as f32;
        let stdev = if v <= 1.0 {
            c.stdev_prior
        } else {
            let mean = parent.utility();
            let sq = (parent.utility_sq / v).max(mean * mean);
            let w = c.stdev_prior_weight;
            let var = ((mean * mean + c.stdev_prior * c.stdev_prior) * w + sq * v) / (w + v - 1.0)
                - mean * mean;
            var.max(0.0).sqrt()
        };
        1.0 + c.stdev_scale * (stdev / c.stdev_prior - 1.0)
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

    /// The root children's weights for the choice of the move to play,
    /// in [`Self::children`]'s order: their visits, the one with the best
    /// lower confidence bound among those with `lcb_share` of the most
    /// visits raised to lead each child its bound beats, by as many
    /// visits as the others would need for their bounds to catch up
    /// (KataGo's).
    pub fn play_weights(&self) -> Vec<f32> {
        let children = self.children();
        let mut weights: Vec<f32> = children.iter().map(|c| c.visits as f32).collect();
        let most = weights.iter().fold(0f32, |m, &w| m.max(w));
        if self.config.lcb <= 0.0 || most == 0.0 {
            return weights;
        }
        let bounds: Vec<(f32, f32)> = children.iter().map(|c| self.lower_bound(c)).collect();
        let eligible = |i: usize| {
            children[i].prior >= 0.0
                && weights[i] > 0.0
                && weights[i] >= self.config.lcb_share * most
        };
        let Some(best) = (0..children.len())
            .filter(|&i| eligible(i))
            .max_by(|&a, &b| bounds[a].0.total_cmp(&bounds[b].0))
        else {
            return weights;
        };
        let mut lead = weights[best];
        for (i, &(bound, radius)) in bounds.iter().enumerate() {
            let excess = bounds[best].0 - bound;
            if i != best && excess >= 0.0 {
                // how many times wider the radius must be to fall behind,
                // squared: the visits that would take (at most 25 times)
                let f = (radius + excess) / (radius + 0.2 * excess);
                lead = lead.max(f * f * weights[i]);
            }
        }
        weights[best] = lead;
        weights
    }

    /// A root child's lower confidence bound on its utility for the side
    /// choosing it, and the radius below its mean: the variance of its
    /// evaluations with a small prior at the widest the utility allows, so
    /// that a few visits are not trusted.
    fn lower_bound(&self, c: &Node) -> (f32, f32) {
        let range = 1.0 + self.utility.static_factor + self.utility.dynamic_factor;
        let widest = 2.0 * range * self.config.lcb;
        if c.visits == 0 {
            return (-widest, widest);
        }
        let v = c.visits as f32;
        let mean = c.utility();
        let sq = (c.utility_sq / v).max(mean * mean + 1e-8);
        let prior = 1.0 / (v * v);
        let sq = (sq * v + (sq + range * range) * prior) / (v + prior);
        let ess = (v + prior) * (v + prior) / (v + prior * prior);
        let radius = self.config.lcb * ((sq - mean * mean).max(0.0) / ess).sqrt();
        (mean - radius, radius)
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
