//! The MC-RAVE tree, generic over a two-player game.
//!
//! Nodes live in one `Vec` and refer to each other by index; the children of
//! a node are contiguous. A node stores what was learned about the move that
//! leads to it, from the side of the player who made that move: real visits
//! and wins, AMAF (all-moves-as-first) visits and wins, both seeded with
//! prior pseudo-counts when the node is created.
//!
//! The game supplies positions, legal actions with priors, and playouts
//! through [`SearchGame`]; the tree is monomorphized for it, so Go pays
//! nothing for the genericity.

use super::arena;
use super::rng::Rng;

/// An action's prior knowledge: `visits` pseudo-visits of which `wins` won.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prior {
    pub action: u16,
    pub visits: f32,
    pub wins: f32,
}

/// Which side first played each action in a simulation, for AMAF.
pub struct Amaf {
    first: Vec<u8>,
    touched: Vec<u16>,
}

impl Amaf {
    pub fn new(actions: usize) -> Amaf {
        Amaf {
            first: vec![0; actions],
            touched: Vec::with_capacity(actions),
        }
    }

    /// Notes that `side` played `action`, unless someone played it earlier.
    #[inline]
    pub fn record(&mut self, action: u16, side: u8) {
        let slot = &mut self.first[action as usize];
        if *slot == 0 {
            *slot = side + 1;
            self.touched.push(action);
        }
    }

    /// Notes an earlier move (walking back up the tree): it overrides.
    #[inline]
    fn record_earlier(&mut self, action: u16, side: u8) {
        let slot = &mut self.first[action as usize];
        if *slot == 0 {
            self.touched.push(action);
        }
        *slot = side + 1;
    }

    /// 1.0 if `side` played `action` first, else 0.0. Looked up: a bool
    /// cast compiles to a branch, and which moves were played first is
    /// random, so it was mispredicted half the time.
    #[inline]
    fn hit(&self, action: u16, side: u8) -> f32 {
        const HIT: [[f32; 4]; 2] = [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]];
        HIT[side as usize & 1][self.first[action as usize] as usize & 3]
    }

    fn clear(&mut self) {
        for &a in &self.touched {
            self.first[a as usize] = 0;
        }
        self.touched.clear();
    }
}

/// What the tree needs from a game. Sides are 0 (first player) and 1.
pub trait SearchGame: Clone {
    /// Actions are numbered `0..actions()`.
    fn actions(&self) -> usize;
    fn to_move(&self) -> u8;
    fn is_over(&self) -> bool;
    /// The legal actions here with their priors (appended to `out`).
    fn expand(&self, out: &mut Vec<Prior>);
    fn play(&mut self, action: u16);
    /// Whether an action counts for AMAF (a pass does not).
    fn amaf_action(&self, action: u16) -> bool;
    /// Plays to the end, recording moves in `amaf`. Returns the result for
    /// side 0 in [0, 1].
    fn playout(&mut self, rng: &mut Rng, amaf: &mut Amaf) -> f32;
    /// Knowledge too slow for every new node (a network's policy), asked
    /// once of the root and of each node that earns
    /// [`TreeConfig::knowledge_at`] playouts: pseudo-counts appended to
    /// `out`, added to those of the children with the same actions.
    fn knowledge(&self, _out: &mut Vec<Prior>) {}
    /// The finished playout's margin for side 0 in the game's own units
    /// (points in Go), or `None` where only winning counts. The tree keeps
    /// its moments over the root's playouts ([`Tree::root_margin`]).
    fn margin(&self) -> Option<f32> {
        None
    }
}

/// The mean and spread of the margins of the playouts under the root.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Margins {
    pub playouts: u64,
    sum: f64,
    squares: f64,
}

impl Margins {
    fn add(&mut self, m: f32) {
        let m = f64::from(m);
        self.playouts += 1;
        self.sum += m;
        self.squares += m * m;
    }

    pub fn mean(&self) -> f32 {
        (self.sum / self.playouts.max(1) as f64) as f32
    }

    /// The standard deviation of one playout's margin.
    pub fn spread(&self) -> f32 {
        let n = self.playouts.max(1) as f64;
        let mean = self.sum / n;
        (self.squares / n - mean * mean).max(0.0).sqrt() as f32
    }
}

/// Tunable constants of the tree.
#[derive(Clone, Debug)]
pub struct TreeConfig {
    /// Real visits a node needs before its children are created.
    pub expand_after: u32,
    /// RAVE equivalence: visits at which AMAF and real values weigh the same.
    pub rave_equiv: f32,
    /// UCB exploration constant (0 = none; priors and AMAF explore).
    pub explore: f32,
    /// Most nodes the tree may hold; past it, leaves stay leaves.
    pub max_nodes: usize,
    /// Real playouts after which a node (the root at once) gets the game's
    /// [`SearchGame::knowledge`].
    pub knowledge_at: u32,
}

impl Default for TreeConfig {
    fn default() -> Self {
        TreeConfig {
            expand_after: 2,
            rave_equiv: 3000.0,
            explore: 0.0,
            max_nodes: 3_000_000,
            knowledge_at: 400,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub action: u16,
    /// The side that played `action`.
    pub side: u8,
    first_child: u32,
    n_children: u16,
    expanded: bool,
    /// Whether the children have had the game's slow knowledge.
    informed: bool,
    /// Real playouts through this node.
    pub playouts: u32,
    /// Visits and wins including the prior's pseudo-counts.
    pub visits: f32,
    pub wins: f32,
    pub amaf_visits: f32,
    pub amaf_wins: f32,
}

impl Node {
    fn new(action: u16, side: u8, prior: (f32, f32)) -> Node {
        Node {
            action,
            side,
            first_child: 0,
            n_children: 0,
            expanded: false,
            informed: false,
            playouts: 0,
            visits: prior.0,
            wins: prior.1,
            amaf_visits: prior.0,
            amaf_wins: prior.1,
        }
    }

    /// Win rate for the side that played this node's action.
    pub fn value(&self) -> f32 {
        if self.visits > 0.0 {
            self.wins / self.visits
        } else {
            0.5
        }
    }
}

impl Node {
    /// Where this node's children lie in the arena.
    fn child_range(&self) -> std::ops::Range<u32> {
        self.first_child..self.first_child + self.n_children as u32
    }
}

impl arena::Linked for Node {
    fn action(&self) -> u16 {
        self.action
    }
    fn children(&self) -> std::ops::Range<u32> {
        self.child_range()
    }
    fn relink(&mut self, first: u32) {
        self.first_child = first;
    }
    fn visits(&self) -> u32 {
        self.playouts
    }
}

/// The search tree over a game `G`, rooted at `nodes[root]`.
pub struct Tree<G: SearchGame> {
    pub nodes: Vec<Node>,
    root: u32,
    pub config: TreeConfig,
    amaf: Amaf,
    path: Vec<u32>,
    priors: Vec<Prior>,
    /// Times the game's slow knowledge had something to say
    /// ([`SearchGame::knowledge`]).
    pub knowledge_given: u64,
    /// The margins of the playouts since the root became the root.
    root_margins: Margins,
    /// The position a simulation plays on, kept between simulations so
    /// that `clone_from` can reuse it (a Go board copies only the part in
    /// use).
    scratch: Option<Box<G>>,
}

impl<G: SearchGame> Tree<G> {
    /// A tree with only a root for the position `state`.
    pub fn new(state: &G, config: TreeConfig) -> Tree<G> {
        let side = 1 - state.to_move();
        Tree {
            nodes: vec![Node::new(u16::MAX, side, (0.0, 0.0))],
            root: 0,
            config,
            amaf: Amaf::new(state.actions()),
            path: Vec::with_capacity(64),
            priors: Vec::with_capacity(state.actions()),
            knowledge_given: 0,
            root_margins: Margins::default(),
            scratch: None,
        }
    }

    pub fn root(&self) -> &Node {
        &self.nodes[self.root as usize]
    }

    /// Nodes reachable from the root.
    pub fn size(&self) -> usize {
        arena::size(&self.nodes, self.root)
    }

    fn child_indices(&self, n: u32) -> std::ops::Range<u32> {
        self.nodes[n as usize].child_range()
    }

    /// The root's children.
    pub fn children(&self) -> &[Node] {
        self.children_of(self.root)
    }

    fn children_of(&self, n: u32) -> &[Node] {
        let r = self.child_indices(n);
        &self.nodes[r.start as usize..r.end as usize]
    }

    /// Creates the root's children now (with `filter` deciding which legal
    /// actions are allowed at the root, e.g. superko), if not done yet.
    pub fn expand_root(&mut self, state: &G, filter: impl Fn(u16) -> bool) {
        if self.nodes[self.root as usize].expanded {
            // drop children the filter now forbids by making them unattractive
            let r = self.child_indices(self.root);
            for i in r {
                let node = &mut self.nodes[i as usize];
                if !filter(node.action) {
                    *node = Node::new(node.action, node.side, (1e6, 0.0));
                    node.amaf_visits = 1e6;
                }
            }
            return;
        }
        self.expand(self.root, state, Some(&filter));
    }

    fn expand(&mut self, n: u32, state: &G, filter: Option<&dyn Fn(u16) -> bool>) {
        self.priors.clear();
        state.expand(&mut self.priors);
        if let Some(f) = filter {
            self.priors.retain(|p| f(p.action));
        }
        let side = state.to_move();
        let first = self.nodes.len() as u32;
        let (len, need) = (self.nodes.len(), self.priors.len());
        if self.nodes.capacity() - len < need {
            // double, but never past what the budget can hold: a doubling
            // past it would keep up to twice the memory the budget means
            let most = self.config.max_nodes + state.actions();
            let target = (2 * self.nodes.capacity()).min(most).max(len + need);
            self.nodes.reserve_exact(target - len);
        }
        for p in &self.priors {
            self.nodes
                .push(Node::new(p.action, side, (p.visits, p.wins)));
        }
        let node = &mut self.nodes[n as usize];
        node.first_child = first;
        node.n_children = self.priors.len() as u16;
        node.expanded = true;
    }

    /// Adds the game's slow knowledge of the position `state` at node `n`
    /// to its children's counts, real and AMAF alike, as a prior is.
    fn inform(&mut self, n: u32, state: &G) {
        self.priors.clear();
        state.knowledge(&mut self.priors);
        self.nodes[n as usize].informed = true;
        if self.priors.is_empty() {
            return;
        }
        self.knowledge_given += 1;
        let r = self.child_indices(n);
        let children = &mut self.nodes[r.start as usize..r.end as usize];
        // the game lists its actions in the order it expanded them: the
        // search for each starts where the last one was found
        let mut at = 0;
        for p in &self.priors {
            let len = children.len();
            let Some(k) = (0..len)
                .map(|k| (at + k) % len)
                .find(|&k| children[k].action == p.action)
            else {
                continue;
            };
            let c = &mut children[k];
            c.visits += p.visits;
            c.wins += p.wins;
            c.amaf_visits += p.visits;
            c.amaf_wins += p.wins;
            at = k + 1;
        }
    }

    /// The child of `n` to descend into: highest blend of real and AMAF
    /// value, the AMAF weight shrinking as real visits grow.
    ///
    /// The weight assumes AMAF is nearly unbiased (a bias b weighs like
    /// an equivalence of 1 / 4b², Gelly and Silver 2011). A move that works
    /// only when played now is the exception; per-move bias estimates did
    /// not help (docs/measurements.md, experiments removed).
    fn select(&self, n: u32) -> u32 {
        let r = self.child_indices(n);
        let parent_visits = self.nodes[n as usize].playouts.max(1) as f32;
        let log_n = parent_visits.ln();
        let (equiv, explore) = (self.config.rave_equiv, self.config.explore);
        let mut best = r.start;
        let mut best_value = f32::NEG_INFINITY;
        let inv_equiv = 1.0 / equiv;
        for i in r {
            let c = &self.nodes[i as usize];
            let (nv, na) = (c.visits, c.amaf_visits);
            // (1 - b) q + b qa with b = na / (na + nv + nv na / equiv), over
            // one denominator: one division and no test for empty counts
            // (every child of every node on every path is scored here)
            let k = 1.0 + na * inv_equiv;
            let mut value = (c.wins * k + c.amaf_wins + 0.5e-3) / (nv * k + na + 1e-3);
            if explore > 0.0 {
                value += explore * (log_n / (c.playouts as f32 + 1.0)).sqrt();
            }
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
    }

    /// One simulation from the root position `root_state`: descend, expand,
    /// play out, and back the result up. Returns the result for side 0.
    pub fn simulate(&mut self, root_state: &G, rng: &mut Rng) -> f32 {
        self.simulate_through(root_state, rng, None)
    }

    /// A simulation that starts with the root child `first` (if the root
    /// has it), so that a move selection would neglect still gets measured.
    pub fn simulate_through(&mut self, root_state: &G, rng: &mut Rng, first: Option<u16>) -> f32 {
        let mut state = match self.scratch.take() {
            Some(mut s) => {
                G::clone_from(&mut s, root_state);
                s
            }
            None => Box::new(root_state.clone()),
        };
        self.path.clear();
        let mut n = self.root;
        self.path.push(n);
        if let Some(a) = first {
            if let Some(i) = self
                .child_indices(n)
                .find(|&i| self.nodes[i as usize].action == a)
            {
                n = i;
                state.play(a);
                self.path.push(n);
            }
        }
        loop {
            let node = &self.nodes[n as usize];
            if state.is_over() {
                break;
            }
            if !node.expanded {
                let may_grow = self.nodes.len() < self.config.max_nodes;
                if (node.playouts >= self.config.expand_after || n == self.root) && may_grow {
                    self.expand(n, &state, None);
                } else {
                    break;
                }
            }
            let node = &self.nodes[n as usize];
            if node.n_children == 0 {
                break;
            }
            if !node.informed && (n == self.root || node.playouts >= self.config.knowledge_at) {
                self.inform(n, &state);
            }
            n = self.select(n);
            state.play(self.nodes[n as usize].action);
            self.path.push(n);
        }
        self.amaf.clear();
        let result = state.playout(rng, &mut self.amaf);
        if let Some(m) = state.margin() {
            self.root_margins.add(m);
        }
        self.backup(result, &state);
        self.scratch = Some(state);
        result
    }

    /// Adds a result along the path, and to the AMAF counts of the children
    /// of each node on it whose action its side played first afterwards.
    fn backup(&mut self, result: f32, state: &G) {
        for k in (0..self.path.len()).rev() {
            let n = self.path[k];
            // the children's moves are all of one side; whether each was
            // played first is random: no branch on it
            let r = self.child_indices(n);
            if let Some(side) = self.nodes.get(r.start as usize).map(|c| c.side) {
                let won = if side == 0 { result } else { 1.0 - result };
                for c in &mut self.nodes[r.start as usize..r.end as usize] {
                    let hit = self.amaf.hit(c.action, side);
                    c.amaf_visits += hit;
                    c.amaf_wins += hit * won;
                }
            }
            let node = &mut self.nodes[n as usize];
            node.playouts += 1;
            node.visits += 1.0;
            node.wins += if node.side == 0 { result } else { 1.0 - result };
            if k > 0 && state.amaf_action(node.action) {
                let (a, s) = (node.action, node.side);
                self.amaf.record_earlier(a, s);
            }
        }
    }

    /// The margins of the playouts run since the root became the root
    /// (none of those a kept tree brings: their margin was not kept).
    pub fn root_margin(&self) -> Margins {
        self.root_margins
    }

    /// The root child with the most real playouts.
    pub fn best_child(&self) -> Option<&Node> {
        self.children().iter().max_by(|a, b| {
            a.playouts
                .cmp(&b.playouts)
                .then(a.value().total_cmp(&b.value()))
        })
    }

    /// Most-visited line from the root.
    pub fn principal_variation(&self, max_len: usize) -> Vec<u16> {
        arena::line_below(&self.nodes, self.root, Vec::new(), max_len)
    }

    /// The most-visited line through the root child `action`, starting
    /// with it (empty if the root has no such child).
    pub fn line_through(&self, action: u16, max_len: usize) -> Vec<u16> {
        arena::child(&self.nodes, self.root, action).map_or_else(Vec::new, |n| {
            arena::line_below(&self.nodes, n, vec![action], max_len)
        })
    }

    /// Moves the root down along `actions` (moves played since this tree's
    /// root). Returns false (and leaves the tree unchanged) if a move has no
    /// node. The nodes left behind stay in the arena until [`Tree::compact`].
    pub fn advance(&mut self, actions: &[u16]) -> bool {
        let Some(n) = arena::advance(&self.nodes, self.root, actions) else {
            return false;
        };
        if n != self.root {
            self.root_margins = Margins::default();
        }
        self.root = n;
        true
    }

    /// Drops the nodes earlier moves left behind ([`arena::compact`]).
    /// After a long ponder that is a million nodes and tens of
    /// milliseconds, so the search on our clock leaves it to the ponder
    /// that follows (see [`Tree::crowded`]).
    pub fn compact(&mut self) {
        arena::compact(&mut self.nodes, self.root);
        self.root = 0;
    }

    /// Whether what earlier moves left behind fills so much of the node
    /// budget that a search would soon stop growing the tree: then it is
    /// worth compacting on our clock too.
    pub fn crowded(&self) -> bool {
        self.root != 0 && self.nodes.len() >= self.config.max_nodes / 4 * 3
    }
}

#[cfg(test)]
mod tests;
