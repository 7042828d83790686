//! What a move would do, asked without playing it: eyes, legality under
//! the board's rules, captures, the liberties it leaves, its hash.

use super::{ix, Board, Heads, Illegal, Legality, Point, KEYS, NONE};
use crate::deps::ArrayVec;
use crate::go::color::{Cell, Color};

impl Board {
    /// Whether `p` is an eye of `c` in the cheap playout sense: every neighbour
    /// is `c` (or the edge) and the opponent holds at most one diagonal (none
    /// on the edge). Such an eye is never filled by a sensible player.
    #[inline]
    pub fn is_eye(&self, c: Color, p: Point) -> bool {
        // no empty and no enemy neighbour
        let mask = 0xF | (0xF << (4 * c.opp().stone() as u16));
        if self.cells[p.idx()] != Cell::Empty || self.nbr[p.idx()] & mask != 0 {
            return false;
        }
        let (mut enemy, mut off) = (0, 0);
        let opp = c.opp().stone();
        for d in self.diagonals(p) {
            match self.cells[d.idx()] {
                Cell::Off => off = 1,
                x if x == opp => enemy += 1,
                _ => {}
            }
        }
        enemy + off < 2
    }

    /// Whether `c` may play on the empty point `p` (board rules: no suicide,
    /// no ko retake) without filling one of its own eyes: the same as
    /// `!is_eye(c, p) && is_legal(c, p)`, from the neighbour counts and the
    /// 3x3 code first, the playout's candidate filter.
    #[inline]
    pub fn is_sensible(&self, c: Color, p: Point) -> bool {
        debug_assert_eq!(self.cells[p.idx()], Cell::Empty);
        let nbr = self.nbr[p.idx()];
        if nbr & 0xF != 0 {
            return true; // an empty neighbour: legal, and no eye
        }
        let (own, opp) = (c.stone(), c.opp().stone());
        if (nbr >> (4 * opp as u16)) & 0xF == 0 {
            // only own stones and the edge around: an eye unless the
            // opponent holds two diagonals, or one on the edge
            const DIAGONALS: u16 = 0b11 | 0b11 << 4 | 0b11 << 10 | 0b11 << 14;
            let code = self.ring[p.idx()] & DIAGONALS;
            let (lo, hi) = (code & 0x5555, (code >> 1) & 0x5555);
            let off = (lo & hi != 0) as u32;
            let enemy = if opp == Cell::White {
                hi & !lo
            } else {
                lo & !hi
            };
            if enemy.count_ones() + off < 2 {
                return false;
            }
        }
        // no empty neighbour: legal if an own string keeps a liberty (where
        // the rules let that count) or an enemy string is captured, and it
        // does not retake a ko (a short-circuit: as a fold over all four the
        // compiler built a vector of them through the stack, 3.5 % of the
        // light playouts)
        let joins = self.legality == Legality::Liberties;
        let lives = self.neighbors(p).into_iter().any(|n| {
            let cell = self.cells[n.idx()];
            let libs = self.libs[ix(self.head[n.idx()])];
            ((cell == own) & (libs > 1) & joins) | ((cell == opp) & (libs == 1))
        });
        lives & !((p.0 == self.ko) & (c == self.to_move))
    }

    /// Stones in the string a stone of `c` at `p` would form, captures aside.
    #[inline]
    pub fn joined_size(&self, c: Color, p: Point) -> usize {
        let own = c.stone();
        let sizes = self.neighbors(p).into_iter().zip(self.distinct_heads(p));
        1 + sizes.fold(0, |total, (n, h)| {
            total + ((self.cells[n.idx()] == own) as usize) * self.size[ix(h)] as usize
        })
    }

    /// Whether the empty point `p` has only stones of `c` (or the edge) as
    /// neighbours: an eye of `c`, true or false, diagonals not considered.
    /// Filling one is never our move.
    #[inline]
    pub fn surrounded_by(&self, c: Color, p: Point) -> bool {
        self.cells[p.idx()] == Cell::Empty
            && self.nbr_count(p, c.stone()) + self.nbr_count(p, Cell::Off) == 4
    }

    /// Whether a stone of `c` at `p` would capture something.
    #[inline]
    pub fn captures_at(&self, c: Color, p: Point) -> bool {
        let opp = c.opp().stone();
        self.neighbors(p)
            .iter()
            .any(|n| self.cells[n.idx()] == opp && self.libs[self.head[n.idx()] as usize] == 1)
    }

    /// How many stones a stone of `c` at `p` would capture, each string
    /// counted once however many of its stones touch `p`.
    #[inline]
    pub fn captured_by(&self, c: Color, p: Point) -> usize {
        let opp = c.opp().stone();
        let strings = self.neighbors(p).into_iter().zip(self.distinct_heads(p));
        strings.fold(0, |total, (n, h)| {
            let taken = (self.cells[n.idx()] == opp) & (h != NONE) & (self.libs[ix(h)] == 1);
            total + taken as usize * self.size[ix(h)] as usize
        })
    }

    /// Legality of `c` playing at `p` by the board alone: the point is empty,
    /// the move is not suicide and does not retake a ko at once. Positional
    /// superko needs the game history: see [`super::Game`].
    #[inline]
    pub fn check(&self, c: Color, p: Point) -> Result<(), Illegal> {
        match self.cells[p.idx()] {
            Cell::Empty => {}
            Cell::Off => return Err(Illegal::OffBoard),
            _ => return Err(Illegal::Occupied),
        }
        if p.0 == self.ko && c == self.to_move {
            return Err(Illegal::Ko);
        }
        if self.is_suicide(c, p) {
            return Err(Illegal::Suicide);
        }
        Ok(())
    }

    #[inline]
    pub fn is_legal(&self, c: Color, p: Point) -> bool {
        self.check(c, p).is_ok()
    }

    /// Whether a stone of `c` on the empty point `p` could not stand after
    /// its captures: its string would have no liberty or, under
    /// [`Legality::EmptyNeighbour`], the stone no empty neighbour.
    #[inline]
    pub fn is_suicide(&self, c: Color, p: Point) -> bool {
        if self.nbr[p.idx()] & 0xF != 0 {
            return false; // an empty neighbour is a liberty
        }
        let own = c.stone();
        let joins = self.legality == Legality::Liberties;
        for n in self.neighbors(p) {
            let cell = self.cells[n.idx()];
            if cell.is_stone() {
                let libs = self.libs[self.head[n.idx()] as usize];
                if cell == own && libs > 1 && joins {
                    return false; // an own string keeps a liberty
                }
                if cell != own && libs == 1 {
                    return false; // we capture
                }
            }
        }
        true
    }

    /// Whether a stone of `c` at `p` would have two liberties or more
    /// (captures included): `liberties_after(c, p, 2) == 2`, answered first
    /// from the neighbours alone. The playout asks this of most moves it
    /// considers, and an own string with three liberties next to `p`
    /// settles it in most cases.
    #[inline]
    pub fn keeps_two_liberties(&self, c: Color, p: Point) -> bool {
        let nbr = self.nbr[p.idx()];
        if nbr & 0xF >= 2 {
            return true;
        }
        let own = c.stone();
        let roomy = self.neighbors(p).into_iter().fold(false, |any, n| {
            any | ((self.cells[n.idx()] == own) & (self.libs[ix(self.head[n.idx()])] > 2))
        });
        roomy || self.liberties_after(c, p, 2) >= 2
    }

    /// The liberty count the string of a stone of `c` at `p` would have,
    /// counting up to `limit` (at most 8; captures included). Used to spot
    /// self-atari and ladders.
    pub fn liberties_after(&self, c: Color, p: Point, limit: usize) -> usize {
        let limit = limit.min(8);
        let nbr = self.nbr[p.idx()];
        if (nbr & 0xF) as usize >= limit {
            return limit;
        }
        let own = c.stone();
        let opp = c.opp().stone();
        let mut captured = Heads::new();
        let mut friends = Heads::new();
        for n in self.neighbors(p) {
            let (cell, h) = (self.cells[n.idx()], self.head[n.idx()]);
            if cell == opp && self.libs[ix(h)] == 1 {
                captured.insert(h);
            } else if cell == own {
                // the joined string keeps all of this one's liberties but `p`
                if self.libs[ix(h)] as usize > limit {
                    return limit;
                }
                friends.insert(h);
            }
        }
        if captured.n == 0 {
            if let Some(n) = self.liberties_after_without_captures(p, &friends, limit) {
                return n.min(limit);
            }
        }
        // a point is a liberty afterwards if it is empty or a captured stone
        let freed = |q: Point| {
            let cell = self.cells[q.idx()];
            cell == Cell::Empty || (cell == opp && captured.contains(self.head[q.idx()]))
        };
        let mut found: ArrayVec<u16, 8> = ArrayVec::new();
        let add = |q: Point, found: &mut ArrayVec<u16, 8>| {
            if q != p && freed(q) && !found.contains(&q.0) {
                found.push(q.0);
            }
        };
        for n in self.neighbors(p) {
            add(n, &mut found);
        }
        for h in friends.iter() {
            for s in self.stones(Point(h)) {
                if found.len() >= limit {
                    return limit;
                }
                for q in self.neighbors(s) {
                    add(q, &mut found);
                    if found.len() >= limit {
                        return limit;
                    }
                }
            }
        }
        found.len().min(limit)
    }

    /// [`Board::liberties_after`] without captures, without walking a
    /// string. A friend's liberties besides `p` that are not empty
    /// neighbours of `p` are new; an empty neighbour of `p` is one of the
    /// friend's liberties exactly when it touches the friend. So with one
    /// friend bringing new liberties the count is exact. With more, they
    /// may share some: the largest share alone may reach `limit`, else
    /// `None`.
    #[inline]
    fn liberties_after_without_captures(
        &self,
        p: Point,
        friends: &Heads,
        limit: usize,
    ) -> Option<usize> {
        let empty = self
            .neighbors(p)
            .map(|n| (self.cells[n.idx()] == Cell::Empty, n.0));
        let empties = self.nbr_count(p, Cell::Empty);
        let (mut total, mut most, mut bringing) = (0, 0, 0);
        for h in friends.iter() {
            let known = empty
                .iter()
                .filter(|&&(e, n)| e && self.touches(n, h))
                .count();
            let new = self.libs[ix(h)] as usize - 1 - known;
            total += new;
            most = most.max(new);
            bringing += (new > 0) as usize;
        }
        if bringing <= 1 {
            Some(empties + total)
        } else if empties + most >= limit {
            Some(limit)
        } else {
            None
        }
    }

    /// The Zobrist hash the board would have after `c` plays the legal move `p`.
    pub fn hash_after(&self, c: Color, p: Point) -> u64 {
        let mut h = self.hash ^ KEYS[c.index()][p.idx()];
        let opp = c.opp();
        let mut done: ArrayVec<u16, 4> = ArrayVec::new();
        for n in self.neighbors(p) {
            if self.cells[n.idx()] == opp.stone() {
                let head = self.head[n.idx()];
                if self.libs[ix(head)] == 1 && !done.contains(&head) {
                    done.push(head);
                    for s in self.stones(n) {
                        h ^= KEYS[opp.index()][s.idx()];
                    }
                }
            }
        }
        h
    }

    /// The heads of the strings around `p`, each named once; [`NONE`] for an
    /// empty or off-board neighbour and for a repeat.
    #[inline(always)]
    pub(super) fn distinct_heads(&self, p: Point) -> [u16; 4] {
        let [a, b, c, d] = self.neighbors(p).map(|n| self.head[n.idx()]);
        let keep = |x: u16, fresh: bool| x & (fresh as u16).wrapping_neg();
        [
            a,
            keep(b, b != a),
            keep(c, (c != a) & (c != b)),
            keep(d, (d != a) & (d != b) & (d != c)),
        ]
    }

    /// Whether a stone of the string `h` is next to `n`. Needs no colour test:
    /// only stones have a head other than [`NONE`].
    #[inline(always)]
    pub(super) fn touches(&self, n: u16, h: u16) -> bool {
        let s = self.stride;
        (self.head[ix(n.wrapping_sub(s))] == h)
            | (self.head[ix(n.wrapping_sub(1))] == h)
            | (self.head[ix(n.wrapping_add(1))] == h)
            | (self.head[ix(n.wrapping_add(s))] == h)
    }
}
