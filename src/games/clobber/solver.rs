//! The exact endgame solver: whether the side to move wins with perfect
//! play, by negamax with a table of solved positions.
//!
//! A Clobber position falls apart into regions, the groups of stones that
//! touch (a stone moves only onto a neighbour, so groups only split). A
//! region of one colour is dead: nobody ever moves in it. The table key
//! is built from the live regions alone, each moved to the board's corner
//! before it is hashed, and added up: positions that differ only in dead
//! stones or in where their regions lie share an entry.

use super::rules::{Clobber, Move};
use crate::deps::FxHashMap;
use crate::go::Color;
use std::time::Instant;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// The squares of `set` and their neighbours inside `within`.
#[inline]
fn grow(set: u64, within: u64) -> u64 {
    (set | set << 8 | set >> 8 | (set << 1 & !FILE_A) | (set >> 1 & !FILE_H)) & within
}

/// The live regions of `pos`: touching groups of stones with both colours
/// in them, as (white, black) bitboards.
pub fn live_regions(pos: &Clobber) -> Vec<(u64, u64)> {
    let (w, b) = (pos.stones(Color::White), pos.stones(Color::Black));
    let mut left = w | b;
    let mut out = Vec::new();
    while left != 0 {
        let mut region = left & left.wrapping_neg();
        loop {
            let next = grow(region, w | b);
            if next == region {
                break;
            }
            region = next;
        }
        left &= !region;
        if region & w != 0 && region & b != 0 {
            out.push((region & w, region & b));
        }
    }
    out
}

/// A 64-bit mix (splitmix64's finaliser).
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The table key of `pos`: the sum of its live regions' hashes, each
/// region shifted to the corner, and the side to move.
pub fn key(pos: &Clobber) -> u64 {
    let mut k: u64 = match pos.to_move() {
        Color::White => 0,
        Color::Black => 0x9e37_79b9_7f4a_7c15,
    };
    for (w, b) in live_regions(pos) {
        let all = w | b;
        let top = all.trailing_zeros() / 8;
        let left = (0..8).find(|x| all & (FILE_A << x) != 0).unwrap_or(0);
        let shift = top * 8 + left;
        k = k.wrapping_add(mix(mix(w >> shift) ^ (b >> shift).rotate_left(17)));
    }
    k
}

/// Solves positions within a budget, keeping what it solved.
#[derive(Default)]
pub struct Solver {
    table: FxHashMap<u64, bool>,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    out_of_time: bool,
}

impl Solver {
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Positions visited by the last solve.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The side to move's verdict with perfect play: `Some(Some(m))` it
    /// wins by `m`, `Some(None)` it loses whatever it plays, `None` unknown
    /// within `nodes` positions or by `deadline`.
    pub fn solve(
        &mut self,
        pos: &Clobber,
        nodes: u64,
        deadline: Option<Instant>,
    ) -> Option<Option<Move>> {
        self.nodes = 0;
        self.limit = nodes;
        self.deadline = deadline;
        self.out_of_time = false;
        if self.table.len() > 4_000_000 {
            self.table.clear();
        }
        let mut unknown = false;
        for m in ordered_moves(pos) {
            let mut child = *pos;
            child.play_unchecked(m);
            match self.wins(&child) {
                Some(false) => return Some(Some(m)),
                Some(true) => {}
                None => unknown = true,
            }
        }
        (!unknown).then_some(None)
    }

    /// Whether the side to move wins `pos`; `None` when the budget ran out.
    fn wins(&mut self, pos: &Clobber) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.limit || self.out_of_time {
            return None;
        }
        if self.nodes.is_multiple_of(1024) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.out_of_time = true;
            return None;
        }
        let k = key(pos);
        if let Some(&v) = self.table.get(&k) {
            return Some(v);
        }
        let mut unknown = false;
        for m in ordered_moves(pos) {
            let mut child = *pos;
            child.play_unchecked(m);
            match self.wins(&child) {
                Some(false) => {
                    self.table.insert(k, true);
                    return Some(true);
                }
                Some(true) => {}
                None => unknown = true,
            }
        }
        if unknown {
            return None;
        }
        self.table.insert(k, false);
        Some(false)
    }
}

/// The moves of `pos`, those that leave the opponent fewest moves first:
/// a winning move is often one that leaves little.
fn ordered_moves(pos: &Clobber) -> Vec<Move> {
    let mut scored: Vec<(u32, Move)> = pos
        .moves()
        .into_iter()
        .map(|m| {
            let mut child = *pos;
            child.play_unchecked(m);
            (child.mobility(child.to_move()), m)
        })
        .collect();
    scored.sort_by_key(|&(n, _)| n);
    scored.into_iter().map(|(_, m)| m).collect()
}

/// Whether the side to move wins, by plain negamax over every move: the
/// solver's reference in tests.
pub fn brute_force(pos: &Clobber) -> bool {
    pos.moves().into_iter().any(|m| {
        let mut child = *pos;
        child.play_unchecked(m);
        !brute_force(&child)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::rng::Rng;

    /// A random position on an `n` x `n` board with about `fill` of
    /// every 8 squares full.
    fn random_position(rng: &mut Rng, n: usize, fill: u32) -> Clobber {
        let rows: Vec<String> = (0..n)
            .map(|_| {
                (0..n)
                    .map(|_| match rng.below(8) as u32 {
                        k if k >= fill => '.',
                        k if k % 2 == 0 => 'w',
                        _ => 'b',
                    })
                    .collect()
            })
            .collect();
        let side = if rng.chance(1, 2) {
            Color::White
        } else {
            Color::Black
        };
        Clobber::from_rows(&rows, side).unwrap()
    }

    #[test]
    fn the_solver_agrees_with_brute_force_on_small_boards() {
        let mut rng = Rng::new(17);
        let mut solver = Solver::new();
        let (mut wins, mut losses) = (0, 0);
        for k in 0..300 {
            let n = 3 + k % 3;
            let pos = random_position(&mut rng, n, 6);
            let truth = brute_force(&pos);
            let verdict = solver.solve(&pos, u64::MAX, None).expect("solved");
            assert_eq!(verdict.is_some(), truth, "{:?}", pos.rows());
            if let Some(m) = verdict {
                // the winning move leaves a lost position
                let mut child = pos;
                child.play(m).unwrap();
                assert!(!brute_force(&child), "{:?} {m:?}", pos.rows());
                wins += 1;
            } else {
                losses += 1;
            }
        }
        assert!(wins > 50 && losses > 50, "{wins} wins, {losses} losses");
    }

    #[test]
    fn regions_split_dead_stones_drop_and_translated_regions_share_a_key() {
        let pos = Clobber::from_rows(&["wb..", "....", "..w.", "..bw"], Color::White).unwrap();
        assert_eq!(live_regions(&pos).len(), 2);
        let dead = Clobber::from_rows(&["wb..", "....", "w..b", "...."], Color::White).unwrap();
        assert_eq!(live_regions(&dead).len(), 1);
        let a = Clobber::from_rows(&["wb..", "....", "....", "...."], Color::White).unwrap();
        let b = Clobber::from_rows(&["....", "....", "....", "..wb"], Color::White).unwrap();
        assert_eq!(key(&a), key(&b));
        assert_eq!(key(&a), key(&dead));
        let c = Clobber::from_rows(&["bw..", "....", "....", "...."], Color::White).unwrap();
        assert_ne!(key(&a), key(&c));
        let mut a_black = a;
        a_black.play(a.moves()[0]).unwrap();
        assert_ne!(key(&a_black), key(&a));
    }

    #[test]
    fn an_unfinished_solve_says_so() {
        let pos = Clobber::new(8);
        let mut solver = Solver::new();
        assert_eq!(solver.solve(&pos, 1_000, None), None);
        assert!(solver.nodes() > 1_000);
    }
}
