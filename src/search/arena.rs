//! What every search tree does with its nodes' links, whatever the nodes
//! learn: nodes live in one `Vec` and name each other by index, a node's
//! children contiguous and after it. Moving the root down the moves played
//! ([`advance`]), dropping what earlier moves left behind ([`compact`]),
//! counting the reachable nodes and following the most-visited line are
//! written once here for the playout tree ([`super::tree`]) and the value
//! tree ([`super::puct`]).

use std::ops::Range;

/// A node as the arena sees it: the action that leads to it, where its
/// children lie, and how often simulations went through it.
pub trait Linked: Copy {
    fn action(&self) -> u16;
    fn children(&self) -> Range<u32>;
    /// Points the node's children at `first` (they moved in the arena).
    fn relink(&mut self, first: u32);
    /// Real simulations through the node.
    fn visits(&self) -> u32;
}

/// The child of `n` reached by `action`.
pub fn child<N: Linked>(nodes: &[N], n: u32, action: u16) -> Option<u32> {
    nodes[n as usize]
        .children()
        .find(|&i| nodes[i as usize].action() == action)
}

/// The node `actions` lead to from `root`, if every one has a node.
pub fn advance<N: Linked>(nodes: &[N], root: u32, actions: &[u16]) -> Option<u32> {
    actions.iter().try_fold(root, |n, &a| child(nodes, n, a))
}

/// Nodes reachable from `root`.
pub fn size<N: Linked>(nodes: &[N], root: u32) -> usize {
    let mut count = 0;
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        count += 1;
        stack.extend(nodes[n as usize].children());
    }
    count
}

/// `line` followed by the most-visited line below node `n`, at most
/// `max_len` actions in all.
pub fn line_below<N: Linked>(
    nodes: &[N],
    mut n: u32,
    mut line: Vec<u16>,
    max_len: usize,
) -> Vec<u16> {
    while line.len() < max_len {
        let best = nodes[n as usize]
            .children()
            .filter(|&i| nodes[i as usize].visits() > 0)
            .max_by_key(|&i| nodes[i as usize].visits());
        match best {
            Some(i) => {
                line.push(nodes[i as usize].action());
                n = i;
            }
            None => break,
        }
    }
    line
}

/// Drops the nodes not under `root`: slides the subtree to the front of
/// the arena, in place, `root` to index 0.
///
/// In place, not into a fresh arena: a full playout tree is ~100 MB, and
/// a second arena beside it could take the bot past the arena's 200 MB.
/// A node's descendants all come after it in the arena (children are
/// appended when a node is expanded), so one pass in arena order marks
/// the subtree, and the marked nodes keep their order: each moves to its
/// rank among them, never past a node not yet moved.
pub fn compact<N: Linked>(nodes: &mut Vec<N>, root: u32) {
    if root == 0 {
        return;
    }
    let (root, len) = (root as usize, nodes.len());
    let mut kept = vec![0u64; len.div_ceil(64)];
    kept[root / 64] |= 1 << (root % 64);
    for i in root..len {
        if kept[i / 64] >> (i % 64) & 1 == 1 {
            for c in nodes[i].children() {
                kept[c as usize / 64] |= 1 << (c % 64);
            }
        }
    }
    // rank of node i among the kept: the kept before its word, then those
    // before it in its word
    let mut before = Vec::with_capacity(kept.len());
    let mut count = 0u32;
    for w in &kept {
        before.push(count);
        count += w.count_ones();
    }
    let rank = |i: u32| {
        let (w, b) = ((i / 64) as usize, i % 64);
        before[w] + (kept[w] & ((1u64 << b) - 1)).count_ones()
    };
    for i in root..len {
        if kept[i / 64] >> (i % 64) & 1 == 1 {
            let mut node = nodes[i];
            let r = node.children();
            if !r.is_empty() {
                node.relink(rank(r.start));
            }
            nodes[rank(i as u32) as usize] = node;
        }
    }
    nodes.truncate(count as usize);
}
