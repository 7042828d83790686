//! Clobber's rules, as CodinGame referees them (seed 002): a square board
//! full of stones in a checkerboard (a1 black), white first; a move takes
//! an own stone onto an orthogonally adjacent enemy stone, which is
//! removed; the player who cannot move on their turn loses (no draws).
//!
//! The position is two bitboards on an 8-wide layout, square `y * 8 + x`
//! with `x` the file from the left and `y` the row from the top, so moves
//! are generated a direction at a time with shifts.

use crate::go::Color;
use std::fmt;

/// The board's side in the seed, and the largest supported.
pub const SIZE: usize = 8;

/// The four directions a stone takes in, as square offsets on the 8-wide
/// layout: up, down, left, right.
pub const DIRECTIONS: [i8; 4] = [-8, 8, -1, 1];

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// A move: the stone on `from` takes the enemy stone on `to`, a neighbour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
}

impl Move {
    /// The move's number for the search: `from * 4 + direction`.
    pub fn action(self) -> u16 {
        let d = (self.to as i16 - self.from as i16) as i8;
        let dir = DIRECTIONS.iter().position(|&o| o == d).unwrap_or(0);
        self.from as u16 * 4 + dir as u16
    }

    pub fn from_action(action: u16) -> Move {
        let from = (action / 4) as u8;
        let to = (from as i16 + DIRECTIONS[(action % 4) as usize] as i16) as u8;
        Move { from, to }
    }
}

/// A Clobber position.
///
/// ```
/// use tengen::games::clobber::Clobber;
/// use tengen::go::Color;
///
/// let mut g = Clobber::new(8);
/// assert_eq!(g.rows()[0], "wbwbwbwb");
/// assert_eq!(g.to_move(), Color::White);
/// let mv = g.parse_move("a2a1").unwrap(); // white's a2 takes black's a1
/// g.play(mv).unwrap();
/// assert_eq!(g.rows()[6], ".bwbwbwb");
/// assert_eq!(g.rows()[7], "wwbwbwbw");
/// assert_eq!(g.to_move(), Color::Black);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clobber {
    size: u8,
    /// Stones by [`Color::index`].
    stones: [u64; 2],
    to_move: Color,
    turns: u32,
}

/// Why a move is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused(pub String);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Clobber {
    /// The start: every square full, a1 (bottom left) black, white to move.
    pub fn new(size: usize) -> Clobber {
        assert!((1..=SIZE).contains(&size), "board size {size} out of 1..=8");
        let mut stones = [0u64; 2];
        for y in 0..size {
            for x in 0..size {
                // a1 is (0, size - 1): black where x + y has its parity
                let black = (x + y) % 2 == (size - 1) % 2;
                let c = if black { Color::Black } else { Color::White };
                stones[c.index()] |= 1 << (y * 8 + x);
            }
        }
        Clobber {
            size: size as u8,
            stones,
            to_move: Color::White,
            turns: 0,
        }
    }

    /// A position from rows top to bottom of `.`, `w`, `b` (case aside).
    pub fn from_rows<S: AsRef<str>>(rows: &[S], to_move: Color) -> Result<Clobber, String> {
        let size = rows.len();
        if !(1..=SIZE).contains(&size) {
            return Err(format!("{size} rows: the board is 1 to 8 squares wide"));
        }
        let mut stones = [0u64; 2];
        for (y, row) in rows.iter().enumerate() {
            let row = row.as_ref().trim();
            if row.chars().count() != size {
                return Err(format!("row {y} {row:?} is not {size} squares"));
            }
            for (x, ch) in row.chars().enumerate() {
                let bit = 1u64 << (y * 8 + x);
                match ch.to_ascii_lowercase() {
                    'w' => stones[Color::White.index()] |= bit,
                    'b' => stones[Color::Black.index()] |= bit,
                    '.' => {}
                    other => return Err(format!("row {y}: unknown square {other:?}")),
                }
            }
        }
        Ok(Clobber {
            size: size as u8,
            stones,
            to_move,
            turns: 0,
        })
    }

    pub fn size(&self) -> usize {
        self.size as usize
    }
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    /// Moves played since the start (or since the position was read).
    pub fn turns(&self) -> u32 {
        self.turns
    }
    pub fn stones(&self, c: Color) -> u64 {
        self.stones[c.index()]
    }

    /// The squares from which `c` can take in each direction.
    #[inline]
    pub fn sources(&self, c: Color) -> [u64; 4] {
        let (own, opp) = (self.stones[c.index()], self.stones[c.opp().index()]);
        [
            own & (opp << 8),
            own & (opp >> 8),
            own & (opp << 1) & !FILE_A,
            own & (opp >> 1) & !FILE_H,
        ]
    }

    /// How many moves `c` has.
    #[inline]
    pub fn mobility(&self, c: Color) -> u32 {
        self.sources(c).iter().map(|s| s.count_ones()).sum()
    }

    /// Whether `c` has a move: some stone of it touches an enemy stone.
    #[inline]
    pub fn can_move(&self, c: Color) -> bool {
        self.sources(c).iter().any(|&s| s != 0)
    }

    /// Every legal move of the side to move, direction by direction.
    pub fn moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(64);
        self.for_each_move(|m| out.push(m));
        out
    }

    #[inline]
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        for (dir, mut bits) in self.sources(self.to_move).into_iter().enumerate() {
            while bits != 0 {
                let from = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                let to = (from as i8 + DIRECTIONS[dir]) as u8;
                f(Move { from, to });
            }
        }
    }

    /// The `k`-th legal move in [`Clobber::for_each_move`]'s order
    /// (`k` below the mobility), found without listing them.
    #[inline]
    pub fn nth_move(&self, mut k: u32) -> Move {
        for (dir, bits) in self.sources(self.to_move).into_iter().enumerate() {
            let n = bits.count_ones();
            if k < n {
                let mut b = bits;
                for _ in 0..k {
                    b &= b - 1;
                }
                let from = b.trailing_zeros() as u8;
                let to = (from as i8 + DIRECTIONS[dir]) as u8;
                return Move { from, to };
            }
            k -= n;
        }
        panic!("nth_move past the moves")
    }

    pub fn check(&self, m: Move) -> Result<(), Refused> {
        let n = self.size as u32;
        let on = |sq: u8| (sq as u32) < 64 && (sq as u32 % 8) < n && (sq as u32 / 8) < n;
        if !on(m.from) || !on(m.to) {
            return Err(Refused("off the board".into()));
        }
        let (own, opp) = (
            self.stones[self.to_move.index()],
            self.stones[self.to_move.opp().index()],
        );
        if own & (1 << m.from) == 0 {
            return Err(Refused(format!(
                "{} holds no stone of the mover",
                self.square_name(m.from)
            )));
        }
        if opp & (1 << m.to) == 0 {
            return Err(Refused(format!(
                "{} holds no enemy stone",
                self.square_name(m.to)
            )));
        }
        let d = m.to as i16 - m.from as i16;
        let beside = matches!(d, 8 | -8) || (d.abs() == 1 && m.from / 8 == m.to / 8);
        if !beside {
            return Err(Refused("the squares are not neighbours".into()));
        }
        Ok(())
    }

    pub fn play(&mut self, m: Move) -> Result<(), Refused> {
        self.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move [`Clobber::check`] accepted.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let (me, them) = (self.to_move.index(), self.to_move.opp().index());
        self.stones[me] ^= (1 << m.from) | (1 << m.to);
        self.stones[them] ^= 1 << m.to;
        self.to_move = self.to_move.opp();
        self.turns += 1;
    }

    /// Over when the side to move has no move; it has lost.
    pub fn is_over(&self) -> bool {
        !self.can_move(self.to_move)
    }

    pub fn winner(&self) -> Option<Color> {
        self.is_over().then(|| self.to_move.opp())
    }

    /// Rows top to bottom of `.`, `w`, `b`, as CodinGame prints them.
    pub fn rows(&self) -> Vec<String> {
        let n = self.size();
        (0..n)
            .map(|y| {
                (0..n)
                    .map(|x| {
                        let bit = 1u64 << (y * 8 + x);
                        if self.stones[Color::White.index()] & bit != 0 {
                            'w'
                        } else if self.stones[Color::Black.index()] & bit != 0 {
                            'b'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// A square in chess notation: file `a` from the left, rank 1 the
    /// bottom row.
    pub fn square_name(&self, sq: u8) -> String {
        let (x, y) = (sq % 8, sq / 8);
        format!("{}{}", (b'a' + x) as char, self.size - y)
    }

    fn parse_square(&self, text: &str) -> Option<u8> {
        let mut chars = text.chars();
        let file = chars.next()?.to_ascii_lowercase();
        let rank: u8 = chars.as_str().parse().ok()?;
        let x = (file as u32).checked_sub('a' as u32)? as u8;
        if x >= self.size || rank == 0 || rank > self.size {
            return None;
        }
        Some((self.size - rank) * 8 + x)
    }

    /// Reads `e2e3` (trailing words ignored, as a comment may follow).
    pub fn parse_move(&self, text: &str) -> Option<Move> {
        let word = text.split_whitespace().next()?;
        if !word.is_ascii() {
            return None;
        }
        // the rank may have two digits on no board here, but split on the
        // second letter rather than at a fixed place
        let second = word
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_alphabetic())?
            .0;
        Some(Move {
            from: self.parse_square(&word[..second])?,
            to: self.parse_square(&word[second..])?,
        })
    }

    /// A move in chess notation.
    pub fn move_name(&self, m: Move) -> String {
        format!("{}{}", self.square_name(m.from), self.square_name(m.to))
    }
}

#[cfg(test)]
mod tests;
