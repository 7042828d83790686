//! A game: the board plus what the board alone cannot know, the history of
//! positions for positional superko, the moves and the passes.

use super::board::{Board, Illegal, Point};
use super::color::{Color, Move};
use super::rules::{End, Rules};
use crate::deps::FxHashSet;

/// A game: the board with its history, under its rules (positional
/// superko, the passes, the end, the komi counted).
///
/// ```
/// use tengen::go::{Game, Move};
///
/// let mut g = Game::new(9, 9, 7.5);
/// let tengen = Move::Play(g.board().point(4, 4));
/// g.play(tengen).unwrap();
/// assert!(g.play(tengen).is_err(), "occupied");
/// g.play(Move::Pass).unwrap();
/// g.play(Move::Pass).unwrap();
/// // two passes end it; black owns the whole board
/// assert!(g.is_over());
/// assert_eq!(g.board().area_score(7.5).black, 81);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    komi: f32,
    rules: Rules,
    /// Hash of every position that has stood on the board, the current one
    /// included.
    seen: FxHashSet<u64>,
    moves: Vec<(Color, Move)>,
    /// Passes in a row at the end of `moves`.
    passes: u32,
    /// Whether each colour's last turn was a pass (a lost turn is none).
    passed: [bool; 2],
    ended: Option<End>,
    /// The boards before the last move and the one before it, where known
    /// (a network reads ladders on them).
    recent: [Option<Box<Board>>; 2],
}

impl Game {
    /// An empty board, black to move, under the standard rules.
    ///
    /// ```
    /// use tengen::go::{Game, Move, Rules};
    /// let mut game = Game::new(9, 9, 7.5);
    /// let tengen = game.board().point(4, 4);
    /// game.play(Move::Play(tengen)).unwrap();
    /// assert!(game.play(Move::Play(tengen)).is_err()); // occupied
    /// game.play(Move::Pass).unwrap();
    /// game.play(Move::Pass).unwrap();
    /// assert!(game.is_over());
    /// assert_eq!(game.rules(), Rules::Standard);
    /// ```
    pub fn new(width: usize, height: usize, komi: f32) -> Game {
        Game::from_board(Board::new(width, height), komi)
    }

    /// A game starting from a set-up position (its only history).
    pub fn from_board(board: Board, komi: f32) -> Game {
        let mut seen = FxHashSet::default();
        seen.insert(board.hash());
        let mut game = Game {
            board,
            komi,
            rules: Rules::Standard,
            seen,
            moves: Vec::new(),
            passes: 0,
            passed: [false; 2],
            ended: None,
            recent: [None, None],
        };
        game.set_rules(Rules::Standard);
        game
    }

    /// The same game under `rules`: legality from now on, the endings and
    /// the winner.
    pub fn with_rules(mut self, rules: Rules) -> Game {
        self.set_rules(rules);
        self
    }

    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        self.board.set_legality(rules.legality());
    }

    pub fn rules(&self) -> Rules {
        self.rules
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
    /// Whether the game has ended by its rules (the round limit is the
    /// referee's).
    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }
    /// How the game ended, if it has.
    pub fn end(&self) -> Option<End> {
        self.ended
    }
    /// Whether a pass by the side to move would end the game.
    pub fn pass_ends(&self) -> bool {
        let c = self.to_move();
        self.rules
            .pass_ends(self.passed[c.opp().index()], self.passed[c.index()])
    }
    /// How a pass by the side to move would end the game, if it would.
    fn pass_ending(&self) -> Option<End> {
        match self.pass_ends() {
            false => None,
            true if self.rules.is_riddles() => Some(End::OwnPasses),
            true => Some(End::TwoPasses),
        }
    }
    /// Whether `c`'s last turn was a pass.
    pub fn passed(&self, c: Color) -> bool {
        self.passed[c.index()]
    }
    /// The komi the winner is decided with ([`Rules::counted_komi`]).
    pub fn counted_komi(&self) -> f32 {
        self.rules.counted_komi(self.komi)
    }
    /// The count that decides the game as the board stands: black's area
    /// less white's and the counted komi (positive: black wins; 0: a draw).
    pub fn margin(&self) -> f32 {
        self.board.area_score(self.counted_komi()).margin()
    }
    /// Whether this position has stood on the board before (or stands now).
    pub fn has_seen(&self, hash: u64) -> bool {
        self.seen.contains(&hash)
    }
    /// All positions seen so far, for searches that check superko.
    pub fn history(&self) -> &FxHashSet<u64> {
        &self.seen
    }
    /// The board `n` moves ago (1 or 2), if this game knows it.
    pub fn board_before(&self, n: usize) -> Option<&Board> {
        self.recent.get(n.wrapping_sub(1))?.as_deref()
    }

    /// Whether the side to move may play `mv`: board rules plus positional
    /// superko where the rules have it. Under the Riddles.io rules an
    /// immediate ko retake is legal (it ends the game). Passing is always
    /// legal.
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
        match self.board.check(c, p) {
            Err(Illegal::Ko) if self.rules.ko_retake_ends() => return Ok(()),
            Err(e) => return Err(e),
            Ok(()) => {}
        }
        if self.rules.superko() && self.seen.contains(&self.board.hash_after(c, p)) {
            return Err(Illegal::Superko);
        }
        Ok(())
    }

    /// Plays `mv` for the side to move. Returns the stones captured.
    pub fn play(&mut self, mv: Move) -> Result<u32, Illegal> {
        self.check(mv)?;
        let c = self.to_move();
        // the oldest known board's box is reused for the one before this move
        let mut before = self.recent[1]
            .take()
            .unwrap_or_else(|| Box::new(self.board.clone()));
        before.copy_from(&self.board);
        self.recent[1] = self.recent[0].replace(before);
        let captured = match mv {
            Move::Pass => {
                self.ended = self.pass_ending();
                self.board.pass();
                self.passes += 1;
                0
            }
            Move::Play(p) => {
                let retake = self.board.ko_point() == Some(p);
                self.passes = 0;
                let captured = self.board.play_legal(c, p);
                if retake {
                    self.ended = Some(End::KoRetake);
                } else if self.rules.board_full(&self.board) {
                    self.ended = Some(End::BoardFull);
                }
                captured
            }
        };
        self.passed[c.index()] = mv.is_pass();
        self.seen.insert(self.board.hash());
        self.moves.push((c, mv));
        Ok(captured)
    }

    /// How the game would end if the side to move played `mv` (`None`:
    /// it goes on), without playing it unless the board could fill up.
    pub fn ending(&self, mv: Move) -> Option<End> {
        let b = &self.board;
        match mv {
            Move::Pass => self.pass_ending(),
            Move::Play(p) if self.rules.ko_retake_ends() && b.ko_point() == Some(p) => {
                Some(End::KoRetake)
            }
            Move::Play(p) => {
                let may_fill = match self.rules {
                    Rules::Standard => false,
                    Rules::Riddles102 => b.empty_points().len() == 1,
                    Rules::Riddles103 => !b.stays_open_after(p),
                };
                if !may_fill {
                    return None;
                }
                let mut after = b.clone();
                after.play_stone(b.to_move(), p).ok()?;
                self.rules.board_full(&after).then_some(End::BoardFull)
            }
        }
    }

    /// The side to move loses its turn (a refused answer): the board stays,
    /// the opponent moves next, and the turn counts as no pass.
    pub fn lose_turn(&mut self) {
        let c = self.to_move();
        self.passed[c.index()] = false;
        self.passes = 0;
        self.board.set_to_move(c.opp());
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
    pub fn reset_position(&mut self, mut board: Board) {
        board.set_legality(self.rules.legality());
        self.board = board;
        self.seen.insert(self.board.hash());
        self.passes = 0;
        self.passed = [false; 2];
        self.recent = [None, None];
    }
}
