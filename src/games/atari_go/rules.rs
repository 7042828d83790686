//! Atari Go's rules, as CodinGame referees them (seed 000): Go's placement
//! and captures, suicide illegal unless the stone captures; points only for
//! captured stones; the game stops after a fixed number of turns, a pass
//! being a turn; more captures win, then more stones played. The ko: a
//! stone may not recreate the board as it stood after the mover's own
//! previous stone (with no pass between, that is Go's simple ko; after
//! passes it can forbid more, so it is judged on hashes).

use crate::go::{Board, Cell, Color, Illegal, Move, Point};

/// The board's side in the seed.
pub const SIZE: usize = 9;
/// Turns (both players', passes included) before the game stops.
pub const TURNS: u32 = 80;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Color),
    Draw,
}

/// A game of Atari Go: the board and what the rules count besides it.
///
/// ```
/// use tengen::games::atari_go::{AtariGo, Outcome};
/// use tengen::go::{Color, Move};
///
/// let mut g = AtariGo::new(9).with_turns(4);
/// let p = |g: &AtariGo, x, y| Move::Play(g.board().point(x, y));
/// for (x, y) in [(0, 1), (0, 0), (1, 0)] {
///     g.play(p(&g, x, y)).unwrap();
/// }
/// assert_eq!(g.captures(Color::Black), 1); // the corner stone is taken
/// g.play(Move::Pass).unwrap();
/// assert_eq!(g.outcome(), Some(Outcome::Win(Color::Black)));
/// ```
#[derive(Clone)]
pub struct AtariGo {
    board: Board,
    turns: u32,
    max_turns: u32,
    captures: [u32; 2],
    stones: [u32; 2],
    /// The board's hash after each colour's last stone: the ko forbids
    /// recreating it.
    after_stone: [Option<u64>; 2],
}

impl AtariGo {
    /// An empty `size` x `size` board, black to move, [`TURNS`] turns.
    pub fn new(size: usize) -> AtariGo {
        AtariGo {
            board: Board::new(size, size),
            turns: 0,
            max_turns: TURNS,
            captures: [0; 2],
            stones: [0; 2],
            after_stone: [None; 2],
        }
    }

    /// The same game stopping after `max_turns` turns.
    pub fn with_turns(mut self, max_turns: u32) -> AtariGo {
        self.max_turns = max_turns;
        self
    }

    /// A game resumed from a position alone: `turns` played, `to_move` next,
    /// `captures` by black and white. The stones each side played are those
    /// on the board plus those the other captured; what stood after each
    /// side's last stone is unknown, so the ko is judged by
    /// [`AtariGo::resumed_ko`] instead until both have played again.
    pub fn resume(mut board: Board, to_move: Color, turns: u32, captures: [u32; 2]) -> AtariGo {
        board.set_to_move(to_move);
        board.forget_ko();
        let on_board =
            |c: Color| board.points().filter(|&p| board.at(p) == c.stone()).count() as u32;
        let stones = [
            on_board(Color::Black) + captures[Color::White.index()],
            on_board(Color::White) + captures[Color::Black.index()],
        ];
        AtariGo {
            board,
            turns,
            max_turns: TURNS,
            captures,
            stones,
            after_stone: [None; 2],
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn to_move(&self) -> Color {
        self.board.to_move()
    }
    /// Turns played so far.
    pub fn turns(&self) -> u32 {
        self.turns
    }
    pub fn max_turns(&self) -> u32 {
        self.max_turns
    }
    pub fn turns_left(&self) -> u32 {
        self.max_turns.saturating_sub(self.turns)
    }
    /// Stones `c` has captured: its score.
    pub fn captures(&self, c: Color) -> u32 {
        self.captures[c.index()]
    }
    /// Stones `c` has played: the tiebreak.
    pub fn stones(&self, c: Color) -> u32 {
        self.stones[c.index()]
    }
    /// The last turn's move, if a turn was played.
    pub fn last_move(&self) -> Option<Move> {
        (self.turns > 0).then(|| self.board.last_moves()[0])
    }

    /// Whether the side to move may play at `p`.
    pub fn check(&self, p: Point) -> Result<(), Illegal> {
        let c = self.to_move();
        match self.board.at(p) {
            Cell::Empty => {}
            Cell::Off => return Err(Illegal::OffBoard),
            _ => return Err(Illegal::Occupied),
        }
        if self.board.is_suicide(c, p) {
            return Err(Illegal::Suicide);
        }
        if self.after_stone[c.index()].is_some_and(|h| h == self.board.hash_after(c, p)) {
            return Err(Illegal::Ko);
        }
        Ok(())
    }

    pub fn is_legal(&self, p: Point) -> bool {
        self.check(p).is_ok()
    }

    /// Plays `mv` for the side to move (a pass is always legal). Returns
    /// the stones captured.
    pub fn play(&mut self, mv: Move) -> Result<u32, Illegal> {
        if let Move::Play(p) = mv {
            if p.idx() >= crate::go::MAX_POINTS {
                return Err(Illegal::OffBoard);
            }
            self.check(p)?;
        }
        Ok(self.play_legal(mv))
    }

    /// Plays a move [`AtariGo::check`] accepted.
    #[inline]
    pub fn play_legal(&mut self, mv: Move) -> u32 {
        let c = self.to_move();
        self.turns += 1;
        match mv {
            Move::Pass => {
                self.board.pass();
                0
            }
            Move::Play(p) => {
                if self.board.ko_point() == Some(p) {
                    // the board's simple ko, lifted by passes since
                    self.board.forget_ko();
                }
                let taken = self.board.play_legal(c, p);
                self.captures[c.index()] += taken;
                self.stones[c.index()] += 1;
                self.after_stone[c.index()] = Some(self.board.hash());
                taken
            }
        }
    }

    /// Whether a resumed game's ko history is unknown for `c`: then
    /// [`AtariGo::resumed_ko`] stands in for it.
    pub fn ko_unknown(&self, c: Color) -> bool {
        self.after_stone[c.index()].is_none() && self.stones[c.index()] > 0
    }

    /// For a game resumed without its history: whether `p` would take back
    /// at once the lone stone just played at `last` in a ko shape (the one
    /// way a stone recreates the board after the mover's previous stone
    /// when no pass came between).
    pub fn resumed_ko(&self, p: Point, last: Point) -> bool {
        let b = &self.board;
        let c = self.to_move();
        b.at(last) == c.opp().stone()
            && b.string_size(last) == 1
            && b.liberty_count(last) == 1
            && b.atari_liberty(last) == Some(p)
            && b.captured_by(c, p) == 1
            && b.neighbors(p).iter().all(|&n| b.at(n) != Cell::Empty)
    }

    pub fn is_over(&self) -> bool {
        self.turns >= self.max_turns
    }

    /// Who leads by the final count: captures, then stones played.
    pub fn standing(&self) -> Outcome {
        let key = |c: Color| (self.captures(c), self.stones(c));
        match key(Color::Black).cmp(&key(Color::White)) {
            std::cmp::Ordering::Greater => Outcome::Win(Color::Black),
            std::cmp::Ordering::Less => Outcome::Win(Color::White),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| self.standing())
    }

    /// The board as CodinGame shows it: rows top to bottom of `B`, `W`, `.`.
    pub fn rows(&self) -> Vec<String> {
        let b = &self.board;
        (0..b.height())
            .map(|y| {
                (0..b.width())
                    .map(|x| match b.at(b.point(x, y)) {
                        Cell::Black => 'B',
                        Cell::White => 'W',
                        _ => '.',
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
