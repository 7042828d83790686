//! A game: the board plus what the board alone cannot know, the history of
//! positions for positional superko, the moves and the passes.

use super::board::{Board, Illegal, Point};
use super::color::{Color, Move};
use fxhash::FxHashSet;

#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    komi: f32,
    /// Hash of every position that has stood on the board, the current one
    /// included.
    seen: FxHashSet<u64>,
    moves: Vec<(Color, Move)>,
    /// Passes in a row at the end of `moves`.
    passes: u32,
    /// Whether filling a point one's own stones surround is illegal.
    own_eye_fills_illegal: bool,
}

impl Game {
    /// An empty board, black to move.
    pub fn new(width: usize, height: usize, komi: f32) -> Game {
        Game::from_board(Board::new(width, height), komi)
    }

    /// A game starting from a set-up position (its only history).
    pub fn from_board(board: Board, komi: f32) -> Game {
        let mut seen = FxHashSet::default();
        seen.insert(board.hash());
        Game {
            board,
            komi,
            seen,
            moves: Vec::new(),
            passes: 0,
            own_eye_fills_illegal: false,
        }
    }

    /// Makes filling a point the mover's own stones surround (an eye, true
    /// or false) illegal, as one version of the Riddles.io referee rules.
    /// Elsewhere such a fill is legal, and sometimes the only way to save a
    /// string: connecting at a false eye.
    pub fn forbid_own_eye_fills(&mut self, on: bool) {
        self.own_eye_fills_illegal = on;
    }

    /// Whether [`Game::forbid_own_eye_fills`] is on.
    pub fn own_eye_fills_illegal(&self) -> bool {
        self.own_eye_fills_illegal
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn komi(&self) -> f32 {
        self.komi
    }
    pub fn set_komi(&mut self, komi: f32) {
        self.komi = komi;
    }
    #[inline]
    pub fn to_move(&self) -> Color {
        self.board.to_move()
    }
    /// Sets whose turn it is, as when a player's move was lost.
    pub fn set_to_move(&mut self, c: Color) {
        self.board.set_to_move(c);
    }
    /// Every move played, with its colour.
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }
    /// Consecutive passes that end the move list.
    pub fn passes(&self) -> u32 {
        self.passes
    }
    /// Two passes in a row end the game.
    pub fn is_over(&self) -> bool {
        self.passes >= 2
    }
    /// Whether this position has stood on the board before (or stands now).
    pub fn has_seen(&self, hash: u64) -> bool {
        self.seen.contains(&hash)
    }
    /// All positions seen so far, for searches that check superko.
    pub fn history(&self) -> &FxHashSet<u64> {
        &self.seen
    }

    /// Whether the side to move may play `mv`: board rules plus positional
    /// superko (and the own-eye rule, if it is on). Passing is always legal.
    pub fn check(&self, mv: Move) -> Result<(), Illegal> {
        match mv {
            Move::Pass => Ok(()),
            Move::Play(p) => self.check_point(p),
        }
    }

    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    fn check_point(&self, p: Point) -> Result<(), Illegal> {
        let c = self.to_move();
        self.board.check(c, p)?;
        if self.own_eye_fills_illegal && self.board.surrounded_by(c, p) {
            return Err(Illegal::OwnEye);
        }
        if self.seen.contains(&self.board.hash_after(c, p)) {
            return Err(Illegal::Superko);
        }
        Ok(())
    }

    /// Plays `mv` for the side to move. Returns the stones captured.
    pub fn play(&mut self, mv: Move) -> Result<u32, Illegal> {
        self.check(mv)?;
        let c = self.to_move();
        let captured = match mv {
            Move::Pass => {
                self.board.pass();
                self.passes += 1;
                0
            }
            Move::Play(p) => {
                self.passes = 0;
                self.board.play_legal(c, p)
            }
        };
        self.seen.insert(self.board.hash());
        self.moves.push((c, mv));
        Ok(captured)
    }

    /// Every legal move for the side to move, pass last.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out: Vec<Move> = self
            .board
            .points()
            .filter(|&p| self.check_point(p).is_ok())
            .map(Move::Play)
            .collect();
        out.push(Move::Pass);
        out
    }

    /// Replaces the position (a resync), keeping the history of what was
    /// known so superko stays respected. The move list is kept; passes reset.
    pub fn reset_position(&mut self, board: Board) {
        self.board = board;
        self.seen.insert(self.board.hash());
        self.passes = 0;
    }
}
