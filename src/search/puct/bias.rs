//! KataGo's subtree value bias: nodes whose moves make the same local
//! situation (the game's [`super::Valued::bias_key`]) share a bucket of
//! the error their network's read showed against the search below them,
//! and each such node's own read is corrected by the bucket's mean. A
//! tactic the network misjudges, once read out in one branch, is judged
//! better in the others.

use crate::deps::FxHashMap;

/// The share of a dropped node's weight its bucket forgets when the tree
/// moves on (KataGo's `subtreeValueBiasFreeProp`).
const FORGET: f64 = 0.8;

/// The buckets of one tree; a node names its bucket by index + 1 (0:
/// none yet).
#[derive(Default)]
pub struct Buckets {
    index: FxHashMap<u64, u32>,
    /// Per bucket: the weighted sum of the errors and of the weights.
    sums: Vec<(f64, f64)>,
}

impl Buckets {
    /// The bucket (index + 1) of `key`, made if new.
    pub fn slot(&mut self, key: u64) -> u32 {
        let next = self.sums.len() as u32;
        let i = *self.index.entry(key).or_insert(next);
        if i == next {
            self.sums.push((0.0, 0.0));
        }
        i + 1
    }

    /// Replaces a node's part in `bucket`, `old` (error times weight, weight)
    /// with `new`; returns the bucket's mean error.
    pub fn update(&mut self, bucket: u32, old: (f32, f32), new: (f32, f32)) -> f32 {
        let s = &mut self.sums[bucket as usize - 1];
        s.0 += new.0 as f64 - old.0 as f64;
        s.1 += new.1 as f64 - old.1 as f64;
        self.mean(bucket)
    }

    /// The mean error in `bucket` (0 while it has no weight).
    pub fn mean(&self, bucket: u32) -> f32 {
        let (delta, weight) = self.sums[bucket as usize - 1];
        if weight > 1e-3 {
            (delta / weight) as f32
        } else {
            0.0
        }
    }

    /// After the tree dropped nodes: each bucket keeps the parts of the
    /// nodes still in it (`kept`: bucket, part) and a fifth of the rest.
    pub fn forget(&mut self, kept: impl Iterator<Item = (u32, (f32, f32))>) {
        let mut held = vec![(0.0f64, 0.0f64); self.sums.len()];
        for (bucket, (d, w)) in kept {
            let h = &mut held[bucket as usize - 1];
            h.0 += d as f64;
            h.1 += w as f64;
        }
        for (s, h) in self.sums.iter_mut().zip(held) {
            s.0 = h.0 + (1.0 - FORGET) * (s.0 - h.0);
            s.1 = h.1 + (1.0 - FORGET) * (s.1 - h.1);
        }
    }
}
