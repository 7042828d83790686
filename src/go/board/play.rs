//! Playing on the board: setting a stone, merging the strings it touches,
//! taking off what it captures, and keeping the empty-point list. The
//! playouts spend most of their time here.

use super::{ix, Board, Heads, Illegal, Point, PointSet, KEYS, MAX_POINTS, NONE};
use crate::go::color::{Cell, Color, Move};

impl Board {
    /// Plays `mv` for the side to move, checking the board rules.
    pub fn play(&mut self, mv: Move) -> Result<u32, Illegal> {
        match mv {
            Move::Pass => {
                self.pass();
                Ok(0)
            }
            Move::Play(p) => self.play_stone(self.to_move, p),
        }
    }

    /// Plays a stone of `c` (who then becomes the player who moved last),
    /// checking the board rules. Returns the number of stones captured.
    pub fn play_stone(&mut self, c: Color, p: Point) -> Result<u32, Illegal> {
        if p.idx() >= MAX_POINTS {
            return Err(Illegal::OffBoard);
        }
        self.check(c, p)?;
        Ok(self.play_legal(c, p))
    }

    /// The side to move passes.
    pub fn pass(&mut self) {
        self.ko = NONE;
        self.last = [Move::Pass, self.last[0]];
        self.to_move = self.to_move.opp();
    }

    /// Plays a stone that [`Board::check`] accepted. Returns the number of
    /// stones captured.
    pub fn play_legal(&mut self, c: Color, p: Point) -> u32 {
        debug_assert!(self.check(c, p).is_ok(), "illegal {c} at {p:?}");
        let (friends, enemies) = self.put_stone(c, p);
        self.last = [Move::Play(p), self.last[0]];
        self.to_move = c.opp();
        self.ko = NONE;
        let mut captured = 0;
        let mut ko = NONE;
        for h in enemies.iter() {
            if self.libs[ix(h)] == 0 {
                ko = h;
                captured += self.remove_string(Point(h));
            }
        }
        match friends.n {
            0 => {}
            1 => self.join_single(p, friends.get(0)),
            _ => self.join_many(p, friends),
        }
        if captured > 0 {
            let h = self.head[p.idx()] as usize;
            // Only a lone stone that took a lone stone and now sits in atari
            // can be retaken at once to repeat the position: the ko point.
            if captured == 1 && self.size[h] == 1 && self.libs[h] == 1 {
                self.ko = ko;
            }
            self.captures[c.index()] += captured;
        }
        debug_assert!(
            self.libs[self.head[p.idx()] as usize] > 0,
            "suicide at {p:?}"
        );
        captured
    }

    /// Sets a lone stone of `c` on `p`, taking `p` from the liberties of the
    /// strings around it. Returns those strings: own, then enemy.
    ///
    /// Which neighbour is what is random in a playout, so this path is
    /// written without branches on it: empty and off-board cells have head
    /// 0, whose liberty count is a scratch slot that absorbs the updates.
    #[inline]
    fn put_stone(&mut self, c: Color, p: Point) -> (Heads, Heads) {
        let i = p.idx();
        self.remove_empty(p);
        self.set_cell(p, Cell::Empty, c.stone());
        self.hash ^= KEYS[c.index()][i];
        self.head[i] = p.0;
        self.next[i] = p.0;
        self.size[i] = 1;
        let heads = self.distinct_heads(p);
        for h in heads {
            self.libs[ix(h)] = self.libs[ix(h)].wrapping_sub(1);
        }
        self.libs[0] = 0;
        self.libs[i] = self.nbr[i] & 0xF;
        let (own, opp) = (c.stone(), c.opp().stone());
        let (mut friends, mut enemies) = (Heads::new(), Heads::new());
        for (n, h) in self.neighbors(p).into_iter().zip(heads) {
            let cell = self.cells[n.idx()];
            friends.push_if(h, (cell == own) & (h != NONE));
            enemies.push_if(h, (cell == opp) & (h != NONE));
        }
        (friends, enemies)
    }

    /// Adds the lone stone `p` to the string `h`, counting only the liberties
    /// of `p` the string did not already have.
    fn join_single(&mut self, p: Point, h: u16) {
        let mut extra = 0;
        for n in self.neighbors(p) {
            extra += ((self.cells[n.idx()] == Cell::Empty) & !self.touches(n.0, h)) as u16;
        }
        let (i, hi) = (p.idx(), h as usize);
        self.head[i] = h;
        self.next[i] = self.next[hi];
        self.next[hi] = p.0;
        self.size[hi] += 1;
        self.libs[hi] += extra;
    }

    /// Merges `p` and the strings `heads` into the largest. Only the smaller
    /// strings are walked: their liberties that the largest string lacks are
    /// added to its count, so merging costs the size of what is merged in.
    fn join_many(&mut self, p: Point, heads: Heads) {
        let big = heads.iter().max_by_key(|&h| self.size[ix(h)]).unwrap();
        // a point counts once: the set needs no test of what it holds, since
        // stones and liberties of `big` are never counted anyway
        let mut seen = PointSet::new();
        let mut extra = 0;
        let mut count = |b: &Board, s: u16| {
            for n in b.neighbors(Point(s)) {
                let fresh = seen.insert(n);
                extra += ((b.cells[n.idx()] == Cell::Empty) & !b.touches(n.0, big) & fresh) as u16;
            }
        };
        count(self, p.0);
        for h in heads.iter() {
            // p was taken from the counts already: 0 means nothing to add
            if h == big || self.libs[ix(h)] == 0 {
                continue;
            }
            let mut s = h;
            loop {
                count(self, s);
                s = self.next[ix(s)];
                if s == h {
                    break;
                }
            }
        }
        let (bi, pi) = (big as usize, p.idx());
        self.head[pi] = big;
        self.next[pi] = self.next[bi];
        self.next[bi] = p.0;
        self.size[bi] += 1;
        for h in heads.iter() {
            if h == big {
                continue;
            }
            let mut s = h;
            loop {
                self.head[ix(s)] = big;
                s = self.next[ix(s)];
                if s == h {
                    break;
                }
            }
            // splice the two circular lists
            let after_big = self.next[bi];
            self.next[bi] = self.next[ix(h)];
            self.next[ix(h)] = after_big;
            self.size[bi] += self.size[ix(h)];
        }
        self.libs[bi] += extra;
    }

    /// Takes a string off the board, giving its points back as liberties.
    fn remove_string(&mut self, p: Point) -> u32 {
        let color = self.cells[p.idx()].color().expect("stone");
        let key = &KEYS[color.index()];
        let start = p.0;
        let mut s = start;
        let mut count = 0;
        loop {
            let si = s as usize;
            self.set_cell(Point(s), color.stone(), Cell::Empty);
            self.hash ^= key[si];
            self.add_empty(Point(s));
            count += 1;
            // stones of this string still on the board give a liberty back
            // to a string about to vanish: harmless
            self.head[si] = NONE;
            for h in self.distinct_heads(Point(s)) {
                self.libs[ix(h)] = self.libs[ix(h)].wrapping_add(1);
            }
            s = self.next[si];
            if s == start {
                break;
            }
        }
        self.libs[0] = 0;
        count
    }

    #[inline]
    fn remove_empty(&mut self, p: Point) {
        let at = self.empty_at[p.idx()] as usize;
        self.n_empty -= 1;
        let last = self.empties[self.n_empty as usize];
        self.empties[at] = last;
        self.empty_at[ix(last)] = at as u16;
    }

    #[inline]
    fn add_empty(&mut self, p: Point) {
        self.empty_at[p.idx()] = self.n_empty;
        self.empties[self.n_empty as usize] = p.0;
        self.n_empty += 1;
    }

    /// Puts a stone down without capturing (setting up a position). A string
    /// left without liberties is caught by `from_cells`.
    pub(super) fn place_setup(&mut self, c: Color, p: Point) {
        let (friends, _) = self.put_stone(c, p);
        match friends.n {
            0 => {}
            1 => self.join_single(p, friends.get(0)),
            _ => self.join_many(p, friends),
        }
    }
}
