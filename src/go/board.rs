//! The board: stones, strings with exact liberty counts, captures, simple ko
//! and an incremental Zobrist hash.
//!
//! A `Board` is a flat value with no heap pointers, so copying it for a
//! playout is a `memcpy`. Points are indices into a frame one cell wider than
//! the board on every side (the left and right frames share a column), so
//! neighbour loops need no bounds checks.
//!
//! This file holds the state and the questions asked of it (legality,
//! liberties, eyes); playing a move is in `play`, diagrams and the
//! self-check in `text`, the small point and string sets in `sets`.

use super::color::{Cell, Color, Move};
use super::point::NONE;
pub use super::point::{Point, MAX_POINTS, MAX_SIZE};
use super::score::{self, AreaScore, Framed};
use super::zobrist;
use crate::deps::ArrayVec;
use std::fmt;

mod moves;
mod play;
mod sets;
mod text;

use sets::Heads;
pub use sets::PointSet;

const MAX_AREA: usize = MAX_SIZE * MAX_SIZE;

/// Zobrist keys, `KEYS[colour][point]`: the same in every run.
pub(super) static KEYS: [[u64; MAX_POINTS]; 2] = zobrist::keys();

/// An index into the per-point arrays; the mask proves it in range.
#[inline(always)]
fn ix(i: u16) -> usize {
    i as usize & (MAX_POINTS - 1)
}

/// Why a move is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    OffBoard,
    Occupied,
    Suicide,
    /// Retaking a single stone at once (simple ko).
    Ko,
    /// Recreating an earlier position of the game (positional superko).
    Superko,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::OffBoard => "off the board",
            Illegal::Occupied => "point occupied",
            Illegal::Suicide => "suicide",
            Illegal::Ko => "ko",
            Illegal::Superko => "positional superko",
        })
    }
}

/// What a stone needs to stand once its captures are taken off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Legality {
    /// A liberty of its string: suicide is illegal.
    #[default]
    Liberties,
    /// An empty orthogonal neighbour of its own (Riddles.io 1.0.3): joining
    /// a string on a point with no empty neighbour is refused unless the
    /// stone captures.
    EmptyNeighbour,
}

/// A position: stones with their strings and liberties kept up to date,
/// the side to move, the simple-ko point and the hash. It knows the rules
/// of one move; the history (superko, passes, the end) is [`crate::go::Game`]'s.
///
/// [`Board::play`] checks a move; [`Board::play_legal`] trusts the caller
/// (the playouts) and skips the check.
///
/// ```
/// use tengen::go::{Board, Color, Move};
///
/// let mut b = Board::from_ascii(". X .\nX O X\n. . .").unwrap();
/// b.set_to_move(Color::Black);
/// let under = b.point(1, 2);
/// assert_eq!(b.liberty_count(b.point(1, 1)), 1);
/// // the capture: one stone taken, the point empty again
/// assert_eq!(b.play(Move::Play(under)), Ok(1));
/// assert_eq!(b.at(b.point(1, 1)).color(), None);
/// // white may not fill the point at once: simple ko or not, it is occupied
/// assert!(!b.is_legal(Color::White, under));
/// ```
#[derive(Clone)]
pub struct Board {
    width: u8,
    height: u8,
    stride: u16,
    cells: [Cell; MAX_POINTS],
    /// The string a stone belongs to, named by one of its stones.
    head: [u16; MAX_POINTS],
    /// Next stone of the same string (a circular list).
    next: [u16; MAX_POINTS],
    /// Neighbour counts by cell kind, 4 bits each: see [`Board::nbr_count`].
    nbr: [u16; MAX_POINTS],
    /// The 8 surrounding cells, 2 bits each: see [`Board::ring_code`].
    ring: [u16; MAX_POINTS],
    /// Exact liberty count, valid at string heads.
    libs: [u16; MAX_POINTS],
    /// Stone count, valid at string heads.
    size: [u16; MAX_POINTS],
    /// The empty points, in no order, and where each sits in that list.
    empties: [u16; MAX_AREA],
    empty_at: [u16; MAX_POINTS],
    n_empty: u16,
    hash: u64,
    /// Point the side to move may not take because it would retake a ko.
    ko: u16,
    to_move: Color,
    last: [Move; 2],
    captures: [u32; 2],
    legality: Legality,
}

impl Board {
    /// An empty board. Panics if a side is 0 or larger than [`MAX_SIZE`].
    pub fn new(width: usize, height: usize) -> Board {
        assert!(
            (1..=MAX_SIZE).contains(&width) && (1..=MAX_SIZE).contains(&height),
            "board size {width}x{height} out of range 1..={MAX_SIZE}"
        );
        let stride = width + 1;
        let mut b = Board {
            width: width as u8,
            height: height as u8,
            stride: stride as u16,
            cells: [Cell::Off; MAX_POINTS],
            head: [NONE; MAX_POINTS],
            next: [NONE; MAX_POINTS],
            nbr: [0; MAX_POINTS],
            ring: [0; MAX_POINTS],
            libs: [0; MAX_POINTS],
            size: [0; MAX_POINTS],
            empties: [0; MAX_AREA],
            empty_at: [0; MAX_POINTS],
            n_empty: 0,
            hash: 0,
            ko: NONE,
            to_move: Color::Black,
            last: [Move::Pass; 2],
            captures: [0; 2],
            legality: Legality::Liberties,
        };
        for y in 0..height {
            for x in 0..width {
                let p = b.point(x, y);
                b.cells[p.idx()] = Cell::Empty;
                b.empty_at[p.idx()] = b.n_empty;
                b.empties[b.n_empty as usize] = p.0;
                b.n_empty += 1;
            }
        }
        for p in 0..MAX_POINTS {
            if b.cells[p] != Cell::Off {
                let mut nbr = 0;
                for n in b.neighbors(Point(p as u16)) {
                    nbr += 1 << (4 * b.cells[n.idx()] as u16);
                }
                b.nbr[p] = nbr;
                b.ring[p] = b.ring_of(Point(p as u16));
            }
        }
        b
    }

    /// Makes `self` a copy of `src`. Between boards of one size only the
    /// cells in use are copied (a 19x19 board uses 441 of the 1024), which
    /// makes scratch boards for reading ladders cheap.
    pub fn copy_from(&mut self, src: &Board) {
        if (self.width, self.height) != (src.width, src.height) {
            *self = src.clone();
            return;
        }
        // points past the frame are never written: they match already
        let len = (self.height() + 2) * self.stride as usize + 1;
        self.cells[..len].copy_from_slice(&src.cells[..len]);
        self.head[..len].copy_from_slice(&src.head[..len]);
        self.next[..len].copy_from_slice(&src.next[..len]);
        self.nbr[..len].copy_from_slice(&src.nbr[..len]);
        self.ring[..len].copy_from_slice(&src.ring[..len]);
        self.libs[..len].copy_from_slice(&src.libs[..len]);
        self.size[..len].copy_from_slice(&src.size[..len]);
        self.empty_at[..len].copy_from_slice(&src.empty_at[..len]);
        let n = src.n_empty as usize;
        self.empties[..n].copy_from_slice(&src.empties[..n]);
        self.n_empty = src.n_empty;
        self.hash = src.hash;
        self.ko = src.ko;
        self.to_move = src.to_move;
        self.last = src.last;
        self.captures = src.captures;
        self.legality = src.legality;
    }

    /// The 8 points around `p` in reading order: NW N NE W E SW S SE.
    #[inline]
    pub fn ring(&self, p: Point) -> [Point; 8] {
        let (i, s) = (p.0, self.stride);
        [
            Point(i - s - 1),
            Point(i - s),
            Point(i - s + 1),
            Point(i - 1),
            Point(i + 1),
            Point(i + s - 1),
            Point(i + s),
            Point(i + s + 1),
        ]
    }

    /// The cells around `p` coded 2 bits each (the `Cell` value), the k-th
    /// point of [`Board::ring`] in bits 2k and 2k+1. Kept up to date as
    /// stones come and go, for 3x3 pattern lookups.
    #[inline]
    pub fn ring_code(&self, p: Point) -> u16 {
        self.ring[p.idx()]
    }

    fn ring_of(&self, p: Point) -> u16 {
        let mut code = 0;
        for (k, q) in self.ring(p).into_iter().enumerate() {
            code |= (self.cells[q.idx()] as u16) << (2 * k);
        }
        code
    }

    /// How many neighbours of `p` are `kind` (the frame counts as `Off`).
    #[inline]
    pub fn nbr_count(&self, p: Point, kind: Cell) -> usize {
        ((self.nbr[p.idx()] >> (4 * kind as u16)) & 0xF) as usize
    }

    /// Records that the cell at `p` changes from `from` to `to`.
    #[inline]
    fn set_cell(&mut self, p: Point, from: Cell, to: Cell) {
        self.cells[p.idx()] = to;
        let delta = (1u16 << (4 * to as u16)).wrapping_sub(1 << (4 * from as u16));
        for n in self.neighbors(p) {
            self.nbr[n.idx()] = self.nbr[n.idx()].wrapping_add(delta);
        }
        // p is the (7 - k)-th point around the k-th point around p
        let flip = from as u16 ^ to as u16;
        for (k, q) in self.ring(p).into_iter().enumerate() {
            self.ring[q.idx()] ^= flip << (2 * (7 - k));
        }
    }

    #[inline]
    pub fn width(&self) -> usize {
        self.width as usize
    }
    #[inline]
    pub fn height(&self) -> usize {
        self.height as usize
    }
    /// Number of points on the board.
    #[inline]
    pub fn area(&self) -> usize {
        self.width() * self.height()
    }

    /// The point at column `x`, row `y` (0-based, row 0 at the top).
    #[inline]
    pub fn point(&self, x: usize, y: usize) -> Point {
        debug_assert!(x < self.width() && y < self.height());
        Point(((y + 1) * self.stride as usize + x + 1) as u16)
    }

    /// The point at (x, y) if it is on the board.
    pub fn try_point(&self, x: i64, y: i64) -> Option<Point> {
        (x >= 0 && y >= 0 && (x as usize) < self.width() && (y as usize) < self.height())
            .then(|| self.point(x as usize, y as usize))
    }

    /// Column and row of a point.
    #[inline]
    pub fn xy(&self, p: Point) -> (usize, usize) {
        let s = self.stride as usize;
        (p.idx() % s - 1, p.idx() / s - 1)
    }

    /// All points on the board, row by row.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.height()).flat_map(move |y| (0..self.width()).map(move |x| self.point(x, y)))
    }

    #[inline]
    pub fn at(&self, p: Point) -> Cell {
        self.cells[p.idx()]
    }

    #[inline]
    pub fn neighbors(&self, p: Point) -> [Point; 4] {
        let (i, s) = (p.0, self.stride);
        [Point(i - s), Point(i - 1), Point(i + 1), Point(i + s)]
    }

    #[inline]
    pub fn diagonals(&self, p: Point) -> [Point; 4] {
        let (i, s) = (p.0, self.stride);
        [
            Point(i - s - 1),
            Point(i - s + 1),
            Point(i + s - 1),
            Point(i + s + 1),
        ]
    }

    /// Zobrist hash of the stones (positional: side to move and ko excluded).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    /// Sets whose turn it is (a setup operation; clears the ko).
    pub fn set_to_move(&mut self, c: Color) {
        if c != self.to_move {
            self.ko = NONE;
        }
        self.to_move = c;
    }
    /// The last move, and the one before it.
    #[inline]
    pub fn last_moves(&self) -> [Move; 2] {
        self.last
    }
    /// The point the side to move may not play because of simple ko.
    #[inline]
    pub fn ko_point(&self) -> Option<Point> {
        (self.ko != NONE).then_some(Point(self.ko))
    }
    /// Lifts the simple-ko ban, for rules that judge repetition
    /// themselves (a variant's ko may compare with the mover's own last stone).
    pub fn forget_ko(&mut self) {
        self.ko = NONE;
    }
    /// Stones captured by `c` so far.
    pub fn captures_by(&self, c: Color) -> u32 {
        self.captures[c.index()]
    }

    /// What a stone needs to stand (the game's rules set it).
    #[inline]
    pub fn legality(&self) -> Legality {
        self.legality
    }
    pub fn set_legality(&mut self, legality: Legality) {
        self.legality = legality;
    }

    /// Whether some empty point has an empty neighbour (under
    /// [`Legality::EmptyNeighbour`], where a game ends without one).
    #[inline]
    pub fn has_open_point(&self) -> bool {
        self.empty_points()
            .iter()
            .any(|&e| self.nbr[ix(e)] & 0xF != 0)
    }

    /// Whether some empty point other than `p` has an empty neighbour other
    /// than `p`: then one stays open whatever a stone on `p` does.
    pub fn stays_open_after(&self, p: Point) -> bool {
        self.empty_points().iter().any(|&e| {
            let q = Point(e);
            q != p
                && self
                    .neighbors(q)
                    .into_iter()
                    .any(|n| n != p && self.cells[n.idx()] == Cell::Empty)
        })
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empty_points(&self) -> &[u16] {
        &self.empties[..self.n_empty as usize]
    }

    /// Number of stones of the string through `p` (0 for an empty point).
    #[inline]
    pub fn string_size(&self, p: Point) -> usize {
        if self.cells[p.idx()].is_stone() {
            self.size[self.head[p.idx()] as usize] as usize
        } else {
            0
        }
    }

    /// Exact liberty count of the string through `p` (0 for an empty point).
    #[inline]
    pub fn liberty_count(&self, p: Point) -> usize {
        // empty and off-board points have head 0, whose count stays 0
        self.libs[ix(self.head[p.idx()])] as usize
    }

    /// The string through `p`, named by a stone that is the same for all its
    /// stones (changes when strings merge).
    #[inline]
    pub fn string_id(&self, p: Point) -> Point {
        Point(self.head[p.idx()])
    }

    /// The stones of the string through `p`.
    pub fn stones(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let start = p.0;
        let mut cur = Some(start);
        std::iter::from_fn(move || {
            let here = cur?;
            let n = self.next[ix(here)];
            cur = (n != start).then_some(n);
            Some(Point(here))
        })
    }

    /// Up to `N` distinct liberties of the string through `p`.
    pub fn liberties<const N: usize>(&self, p: Point) -> ArrayVec<Point, N> {
        let mut out = ArrayVec::new();
        let mut seen = PointSet::new();
        for s in self.stones(p) {
            for n in self.neighbors(s) {
                if self.cells[n.idx()] == Cell::Empty && seen.insert(n) {
                    out.push(n);
                    if out.is_full() {
                        return out;
                    }
                }
            }
        }
        out
    }

    /// The last liberty of a string in atari.
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        if self.liberty_count(p) != 1 {
            return None;
        }
        // the first empty neighbour found is the one liberty: no set needed
        self.stones(p).find_map(|s| {
            self.neighbors(s)
                .into_iter()
                .find(|n| self.cells[n.idx()] == Cell::Empty)
        })
    }

    /// Tromp-Taylor area count as the board stands (no dead-stone removal);
    /// komi goes to white.
    pub fn area_score(&self, komi: f32) -> AreaScore {
        score::area(&self.framed(), komi)
    }

    /// Black's area minus white's, without komi and without building the
    /// ownership map: the playout scorer.
    pub fn area_margin(&self) -> i32 {
        // Fast path, the usual end of a playout: no empty point touches
        // another, so each is a region of its own, owned by the one colour
        // around it (if only one).
        let mut empties = 0i32;
        for &e in self.empty_points() {
            let nbr = self.nbr[ix(e)];
            if nbr & 0xF != 0 {
                return self.area_margin_flood();
            }
            let (black, white) = ((nbr >> 4) & 0xF, (nbr >> 8) & 0xF);
            empties += (white == 0) as i32 - (black == 0) as i32;
        }
        let len = (self.height() + 2) * self.stride as usize + 1;
        let stones: i32 = self.cells[..len]
            .iter()
            .map(|&c| (c == Cell::Black) as i32 - (c == Cell::White) as i32)
            .sum();
        stones + empties
    }

    fn area_margin_flood(&self) -> i32 {
        let (black, white) = score::count(&self.framed(), None);
        black as i32 - white as i32
    }

    /// The cells in their framed layout, for the scorer.
    pub fn framed(&self) -> Framed<'_> {
        Framed {
            cells: &self.cells,
            stride: self.stride as usize,
            width: self.width(),
            height: self.height(),
        }
    }
}

impl PartialEq for Board {
    /// Same size, same stones, same side to move and same ko.
    fn eq(&self, other: &Board) -> bool {
        self.width == other.width
            && self.height == other.height
            && self.hash == other.hash
            && self.to_move == other.to_move
            && self.ko == other.ko
            && self.cells[..] == other.cells[..]
    }
}

impl Eq for Board {}

#[cfg(test)]
mod tests;
