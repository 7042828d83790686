//! KataGo's board (`cpp/game/board.cpp`) as its ladder search and its
//! pass-alive area read it: chains as circular lists with a head, liberty
//! and stone counts at the head, a simple-ko point, and play with an undo
//! record.
//!
//! Why a second board: the ladder search plays and undoes thousands of
//! moves per position, which tengen's [`Board`] cannot undo, and its
//! answers depend on KataGo's own move order (the liberties as its chain
//! lists yield them), its legality and its ko. The operations below are
//! ports of KataGo's, line for line where order matters. Locations are
//! KataGo's, `(x + 1) + (y + 1) * (width + 1)`, which are tengen's point
//! indices too.

use crate::go::{Board, Cell, MAX_POINTS};

pub(super) const EMPTY: u8 = 0;
pub(super) const WALL: u8 = 3;
const N: usize = MAX_POINTS;

/// The array index of a location; the mask proves it in range.
#[inline(always)]
pub(super) fn ix(loc: usize) -> usize {
    loc & (N - 1)
}

/// What undoes a move (KataGo's `MoveRecord`).
#[derive(Clone, Copy, Default)]
pub(super) struct Record {
    loc: u16,
    pla: u8,
    ko: u16,
    /// Bit i: the move captured the chain in direction i; 0x10: suicide.
    cap_dirs: u8,
}

/// A position as KataGo's `Board` holds it. Players are 1 (black) and 2
/// (white), as KataGo's colours and tengen's [`Cell`] values.
#[derive(Clone)]
pub(super) struct Chains {
    pub width: usize,
    pub height: usize,
    /// Offsets of the four neighbours, in KataGo's order (up, left,
    /// right, down).
    pub adj: [isize; 4],
    pub colors: [u8; N],
    pub head: [u16; N],
    pub next: [u16; N],
    /// Valid at chain heads.
    libs: [i16; N],
    locs: [i16; N],
    /// The simple-ko point, 0 for none (KataGo's `NULL_LOC`).
    pub ko: u16,
}

impl Chains {
    /// KataGo's board for tengen's: stones, chains (in the order tengen's
    /// lists give) and the ko point.
    pub fn new(b: &Board) -> Chains {
        let s = b.width() as isize + 1;
        let mut c = Chains {
            width: b.width(),
            height: b.height(),
            adj: [-s, -1, 1, s],
            colors: [WALL; N],
            head: [0; N],
            next: [0; N],
            libs: [0; N],
            locs: [0; N],
            ko: b.ko_point().map_or(0, |p| p.0),
        };
        for p in b.points() {
            let cell = b.at(p);
            c.colors[p.idx()] = cell as u8;
            if cell != Cell::Empty && b.string_id(p) == p {
                let h = p.0;
                c.libs[p.idx()] = b.liberty_count(p) as i16;
                c.locs[p.idx()] = b.string_size(p) as i16;
                let mut last = h;
                for q in b.stones(p) {
                    c.head[q.idx()] = h;
                    c.next[ix(last as usize)] = q.0;
                    last = q.0;
                }
                c.next[ix(last as usize)] = h;
            }
        }
        c
    }

    /// The location of column `x`, row `y`.
    #[inline]
    pub fn loc(&self, x: usize, y: usize) -> usize {
        (x + 1) + (y + 1) * (self.width + 1)
    }

    #[inline(always)]
    pub fn color(&self, loc: usize) -> u8 {
        self.colors[ix(loc)]
    }

    #[inline(always)]
    pub fn head_of(&self, loc: usize) -> usize {
        self.head[ix(loc)] as usize
    }

    #[inline(always)]
    pub fn next_of(&self, loc: usize) -> usize {
        self.next[ix(loc)] as usize
    }

    #[inline(always)]
    pub fn nb(&self, loc: usize, i: usize) -> usize {
        (loc as isize + self.adj[i]) as usize
    }

    #[inline(always)]
    pub fn num_libs(&self, loc: usize) -> i32 {
        self.libs[ix(self.head_of(loc))] as i32
    }

    #[inline(always)]
    fn num_locs(&self, loc: usize) -> i32 {
        self.locs[ix(self.head_of(loc))] as i32
    }

    /// `isSuicide` (multi-stone suicide illegal, so `isIllegalSuicide` too).
    pub fn is_suicide(&self, loc: usize, pla: u8) -> bool {
        let opp = 3 - pla;
        for i in 0..4 {
            let a = self.nb(loc, i);
            let c = self.color(a);
            if c == EMPTY
                || (c == pla && self.num_libs(a) > 1)
                || (c == opp && self.num_libs(a) == 1)
            {
                return false;
            }
        }
        true
    }

    /// `isLegal` with multi-stone suicide illegal (never a pass here).
    pub fn is_legal(&self, loc: usize, pla: u8) -> bool {
        self.color(loc) == EMPTY && loc != self.ko as usize && !self.is_suicide(loc, pla)
    }

    pub fn immediate_libs(&self, loc: usize) -> i32 {
        (0..4)
            .filter(|&i| self.color(self.nb(loc, i)) == EMPTY)
            .count() as i32
    }

    /// `getBoundNumLibertiesAfterPlay`: (lower, upper) bounds.
    pub fn bound_libs_after(&self, loc: usize, pla: u8) -> (i32, i32) {
        let opp = 3 - pla;
        let (mut imm, mut caps, mut cap_stones, mut conn, mut max_conn) = (0, 0, 0, 0, 0);
        for i in 0..4 {
            let a = self.nb(loc, i);
            let c = self.color(a);
            if c == EMPTY {
                imm += 1;
            } else if c == opp {
                if self.num_libs(a) == 1 {
                    caps += 1;
                    cap_stones += self.num_locs(a);
                }
            } else if c == pla {
                let k = self.num_libs(a) - 1;
                conn += k;
                max_conn = max_conn.max(k);
            }
        }
        (caps + max_conn.max(imm), imm + cap_stones + conn)
    }

    /// `getNumLibertiesAfterPlay`: the liberties a stone of `pla` at `loc`
    /// would have, or `max` if at least that many.
    pub fn libs_after(&self, loc: usize, pla: u8, max: usize) -> i32 {
        assert!(max <= 8, "liberties counted up to 8 at most");
        let opp = 3 - pla;
        let mut libs = [0usize; 8];
        let mut n = 0;
        let mut captured = [0usize; 4];
        let mut nc = 0;
        for i in 0..4 {
            let a = self.nb(loc, i);
            let c = self.color(a);
            if c == EMPTY || (c == opp && self.num_libs(a) == 1) {
                libs[n] = a;
                n += 1;
                if n >= max {
                    return max as i32;
                }
                let h = self.head_of(a);
                if c == opp && !captured[..nc].contains(&h) {
                    captured[nc] = h;
                    nc += 1;
                }
            }
        }
        let would_be_empty = |l: usize| {
            let c = self.color(l);
            c == EMPTY || (c == opp && captured[..nc].contains(&self.head_of(l)))
        };
        let mut joined = [0usize; 4];
        let mut nj = 0;
        for i in 0..4 {
            let a = self.nb(loc, i);
            if self.color(a) != pla || joined[..nj].contains(&self.head_of(a)) {
                continue;
            }
            joined[nj] = self.head_of(a);
            nj += 1;
            let mut cur = a;
            loop {
                for k in 0..4 {
                    let l = self.nb(cur, k);
                    if l != loc && would_be_empty(l) && !libs[..n].contains(&l) {
                        libs[n] = l;
                        n += 1;
                        if n >= max {
                            return max as i32;
                        }
                    }
                }
                cur = self.next_of(cur);
                if cur == a {
                    break;
                }
            }
        }
        n as i32
    }

    /// `wouldBeKoCapture`.
    pub fn would_be_ko_capture(&self, loc: usize, pla: u8) -> bool {
        if self.color(loc) != EMPTY {
            return false;
        }
        let opp = 3 - pla;
        let mut capt = 0;
        for i in 0..4 {
            let a = self.nb(loc, i);
            let c = self.color(a);
            if c != WALL && c != opp {
                return false;
            }
            if c == opp && self.num_libs(a) == 1 {
                if capt != 0 {
                    return false;
                }
                capt = a;
            }
        }
        capt != 0 && self.num_locs(capt) == 1
    }

    /// `countHeuristicConnectionLibertiesX2`.
    pub fn conn_libs_x2(&self, loc: usize, pla: u8) -> i32 {
        let mut n = 0;
        for i in 0..4 {
            let a = self.nb(loc, i);
            if self.color(a) == pla {
                let libs = self.num_libs(a);
                if libs > 1 {
                    n += libs * 2 - 3;
                }
            }
        }
        n
    }

    /// `findLiberties`: appends the liberties of the chain at `loc` to
    /// `buf` from `idx`, skipping those already in `buf[start..]`.
    pub fn find_liberties(
        &self,
        loc: usize,
        buf: &mut Vec<u16>,
        start: usize,
        idx: usize,
    ) -> usize {
        let mut found = 0;
        let mut cur = loc;
        loop {
            for i in 0..4 {
                let l = self.nb(cur, i);
                if self.color(l) == EMPTY && !buf[start..idx + found].contains(&(l as u16)) {
                    if idx + found >= buf.len() {
                        buf.resize(buf.len() * 3 / 2 + 64, 0);
                    }
                    buf[idx + found] = l as u16;
                    found += 1;
                }
            }
            cur = self.next_of(cur);
            if cur == loc {
                return found;
            }
        }
    }

    /// `findLibertyGainingCaptures`: the liberties of the opposing chains
    /// in atari around the chain at `loc`.
    pub fn find_captures(&self, loc: usize, buf: &mut Vec<u16>, start: usize, idx: usize) -> usize {
        let opp = 3 - self.color(loc);
        // chains already walked; past 16 a chain may be walked twice, which
        // adds nothing: its liberties are in `buf` already
        let mut checked = [0usize; 16];
        let mut n = 0;
        let mut found = 0;
        let mut cur = loc;
        loop {
            for i in 0..4 {
                let a = self.nb(cur, i);
                if self.color(a) == opp {
                    let h = self.head_of(a);
                    if self.libs[ix(h)] == 1 && !checked[..n].contains(&h) {
                        found += self.find_liberties(a, buf, start, idx + found);
                        if n < checked.len() {
                            checked[n] = h;
                            n += 1;
                        }
                    }
                }
            }
            cur = self.next_of(cur);
            if cur == loc {
                return found;
            }
        }
    }

    /// `hasLibertyGainingCaptures`.
    pub fn has_captures(&self, loc: usize) -> bool {
        let opp = 3 - self.color(loc);
        let mut cur = loc;
        loop {
            for i in 0..4 {
                let a = self.nb(cur, i);
                if self.color(a) == opp && self.num_libs(a) == 1 {
                    return true;
                }
            }
            cur = self.next_of(cur);
            if cur == loc {
                return false;
            }
        }
    }

    /// `playMoveRecorded`.
    pub fn play_recorded(&mut self, loc: usize, pla: u8) -> Record {
        let opp = 3 - pla;
        let mut cap_dirs = 0u8;
        for i in 0..4 {
            let a = self.nb(loc, i);
            if self.color(a) == opp && self.num_libs(a) == 1 {
                cap_dirs |= 1 << i;
            }
        }
        if cap_dirs == 0 && self.is_suicide(loc, pla) {
            cap_dirs = 0x10;
        }
        let rec = Record {
            loc: loc as u16,
            pla,
            ko: self.ko,
            cap_dirs,
        };
        self.play(loc, pla);
        rec
    }

    /// `playMoveAssumeLegal` for a stone.
    fn play(&mut self, loc: usize, pla: u8) {
        let opp = 3 - pla;
        let l = ix(loc);
        self.colors[l] = pla;
        self.locs[l] = 1;
        self.libs[l] = self.immediate_libs(loc) as i16;
        self.head[l] = loc as u16;
        self.next[l] = loc as u16;
        let mut captured = 0;
        let mut possible_ko = 0;
        let mut opp_seen = [0usize; 4];
        let mut n_opp = 0;
        for i in 0..4 {
            let a = self.nb(loc, i);
            let c = self.color(a);
            if c == pla {
                if self.head[ix(a)] == self.head[l] {
                    continue;
                }
                self.libs[ix(self.head_of(a))] -= 1;
                self.merge(a, loc);
            } else if c == opp {
                let h = self.head_of(a);
                if opp_seen[..n_opp].contains(&h) {
                    continue;
                }
                self.libs[ix(h)] -= 1;
                opp_seen[n_opp] = h;
                n_opp += 1;
                if self.num_libs(a) == 0 {
                    captured += self.remove_chain(a);
                    possible_ko = a;
                }
            }
        }
        self.ko = if captured == 1 && self.num_locs(loc) == 1 && self.num_libs(loc) == 1 {
            possible_ko as u16
        } else {
            0
        };
        if self.num_libs(loc) == 0 {
            self.remove_chain(loc);
        }
    }

    /// `mergeChains`: the smaller chain joins the larger (the first on a tie).
    fn merge(&mut self, loc1: usize, loc2: usize) {
        let (mut h1, mut h2) = (self.head_of(loc1), self.head_of(loc2));
        if self.locs[ix(h1)] < self.locs[ix(h2)] {
            std::mem::swap(&mut h1, &mut h2);
        }
        self.locs[ix(h1)] += self.locs[ix(h2)];
        let mut new_libs = 0;
        let mut loc = h2;
        loop {
            for i in 0..4 {
                let a = self.nb(loc, i);
                if self.color(a) == EMPTY && !self.is_liberty_of(a, h1) {
                    new_libs += 1;
                }
            }
            self.head[ix(loc)] = h1 as u16;
            if self.next_of(loc) != h2 {
                loc = self.next_of(loc);
            } else {
                break;
            }
        }
        self.libs[ix(h1)] += new_libs;
        self.next[ix(loc)] = self.next[ix(h1)];
        self.next[ix(h1)] = h2 as u16;
    }

    /// `isLibertyOf`: whether the empty `loc` touches the chain `head`.
    fn is_liberty_of(&self, loc: usize, head: usize) -> bool {
        let c = self.color(head);
        (0..4).any(|i| {
            let a = self.nb(loc, i);
            self.color(a) == c && self.head_of(a) == head
        })
    }

    /// `removeChain`: returns the stones removed.
    fn remove_chain(&mut self, loc: usize) -> i32 {
        let opp = 3 - self.color(loc);
        let mut n = 0;
        let mut cur = loc;
        loop {
            self.colors[ix(cur)] = EMPTY;
            n += 1;
            self.change_surrounding_libs(cur, opp, 1);
            cur = self.next_of(cur);
            if cur == loc {
                return n;
            }
        }
    }

    /// `changeSurroundingLiberties`: `delta` to each distinct chain of
    /// `pla` around `loc`.
    fn change_surrounding_libs(&mut self, loc: usize, pla: u8, delta: i16) {
        let mut seen = [usize::MAX; 4];
        for i in 0..4 {
            let a = self.nb(loc, i);
            if self.color(a) == pla {
                let h = self.head_of(a);
                if !seen.contains(&h) {
                    seen[i] = h;
                    self.libs[ix(h)] += delta;
                }
            }
        }
    }

    /// `undo`: moves must be undone in the reverse order of play.
    pub fn undo(&mut self, rec: Record) {
        self.ko = rec.ko;
        let (loc, pla) = (rec.loc as usize, rec.pla);
        for i in 0..4 {
            let a = self.nb(loc, i);
            if rec.cap_dirs & (1 << i) != 0 && self.color(a) == EMPTY {
                self.add_chain(a, 3 - pla);
            }
        }
        if rec.cap_dirs == 0x10 {
            self.add_chain(loc, pla);
        }
        self.colors[ix(loc)] = EMPTY;
        self.change_surrounding_libs(loc, 3 - pla, 1);
        if self.num_locs(loc) <= 1 {
            return;
        }
        let friends = (0..4)
            .filter(|&i| self.color(self.nb(loc, i)) == pla)
            .count();
        if friends <= 1 {
            // still one chain: take the stone out of its list
            let mut head = self.head_of(loc);
            if head == loc {
                let new_head = self.next_of(loc);
                let mut cur = loc;
                loop {
                    self.head[ix(cur)] = new_head as u16;
                    cur = self.next_of(cur);
                    if cur == loc {
                        break;
                    }
                }
                self.libs[ix(new_head)] = self.libs[ix(head)];
                self.locs[ix(new_head)] = self.locs[ix(head)];
                head = new_head;
            }
            let mut cur = head;
            while self.next_of(cur) != loc {
                cur = self.next_of(cur);
            }
            self.next[ix(cur)] = self.next[ix(loc)];
            let mut delta = 1;
            for i in 0..4 {
                let a = self.nb(loc, i);
                if self.color(a) == EMPTY && !self.is_liberty_of(a, head) {
                    delta -= 1;
                }
            }
            self.libs[ix(head)] += delta;
            self.locs[ix(head)] -= 1;
        } else {
            // the chain may fall apart: rebuild what is left of it
            let mut cur = loc;
            loop {
                self.head[ix(cur)] = 0;
                cur = self.next_of(cur);
                if cur == loc {
                    break;
                }
            }
            for i in 0..4 {
                let a = self.nb(loc, i);
                if self.color(a) == pla && self.head[ix(a)] == 0 {
                    self.rebuild_chain(a, pla);
                }
            }
        }
    }

    /// `addChain`: fills the empty region at `loc` with a chain of `pla`.
    fn add_chain(&mut self, loc: usize, pla: u8) {
        self.libs[ix(loc)] = 0;
        self.locs[ix(loc)] = 0;
        let front = self.add_chain_helper(loc, loc, loc, pla);
        self.next[ix(loc)] = front as u16;
    }

    fn add_chain_helper(&mut self, head: usize, tail: usize, loc: usize, pla: u8) -> usize {
        self.colors[ix(loc)] = pla;
        self.head[ix(loc)] = head as u16;
        self.locs[ix(head)] += 1;
        self.next[ix(loc)] = tail as u16;
        self.change_surrounding_libs(loc, 3 - pla, -1);
        let mut next_tail = loc;
        for i in 0..4 {
            let a = self.nb(loc, i);
            if self.color(a) == EMPTY {
                next_tail = self.add_chain_helper(head, next_tail, a, pla);
            }
        }
        next_tail
    }

    /// `rebuildChain`: relinks and recounts the chain of `pla` at `loc`,
    /// whose heads point nowhere.
    fn rebuild_chain(&mut self, loc: usize, pla: u8) {
        self.libs[ix(loc)] = 0;
        self.locs[ix(loc)] = 0;
        let front = self.rebuild_chain_helper(loc, loc, loc, pla);
        self.next[ix(loc)] = front as u16;
    }

    fn rebuild_chain_helper(&mut self, head: usize, tail: usize, loc: usize, pla: u8) -> usize {
        let mut new_libs = 0;
        for i in 0..4 {
            let a = self.nb(loc, i);
            if self.color(a) == EMPTY && !self.is_liberty_of(a, head) {
                new_libs += 1;
            }
        }
        self.libs[ix(head)] += new_libs;
        self.head[ix(loc)] = head as u16;
        self.locs[ix(head)] += 1;
        self.next[ix(loc)] = tail as u16;
        let mut next_tail = loc;
        for i in 0..4 {
            let a = self.nb(loc, i);
            if self.color(a) == pla && self.head_of(a) != head {
                next_tail = self.rebuild_chain_helper(head, next_tail, a, pla);
            }
        }
        next_tail
    }
}
