//! Go as a [`SearchGame`]: the position with komi, rules and the horizon
//! of the round limit; new nodes get the priors ([`super::priors`]), and
//! playouts follow the playout policy ([`super::policy`]).

pub use super::action::{to_action, to_move, PASS};
use super::history::History;
use super::ladder::ladders;
use super::nn::{self, inputs::Position};
use super::policy::{self, PolicyConfig};
use super::priors::{self, PriorConfig};
use crate::deps::ArrayVec;
use crate::go::{Board, Color, Move, Point, Rules, MAX_POINTS};
use crate::search::rng::Rng;
use crate::search::tree::{Amaf, Prior, SearchGame};

/// A Go position inside the search.
pub struct GoState {
    pub board: Board,
    /// The komi the winner is decided with.
    pub komi: f32,
    /// The game's rules (the board knows their legality).
    pub rules: Rules,
    /// Moves (plies) left before the game stops at the round limit.
    pub moves_left: u32,
    /// Passes in a row so far.
    pub passes: u8,
    /// Whether each colour's last turn was a pass.
    pub passed: [bool; 2],
    /// Whether the game has ended by its rules.
    pub over: bool,
    pub policy: PolicyConfig,
    pub priors: PriorConfig,
    /// Weight of the score margin next to the win/loss result.
    pub score_weight: f32,
    /// The margin, in points, at which the score term is full (0: the
    /// board's area).
    pub score_scale: f32,
    /// What a value network reads of the game's past, where one reads
    /// this board ([`History`]); with it the search is on the network
    /// (`search/puct.rs`), without it on playouts.
    pub history: Option<Box<History>>,
    /// How much of the network's optimistic policy to mix in at the
    /// search's root and below it (KataGo's 0.2 and 1).
    pub optimism: [f32; 2],
}

impl Clone for GoState {
    fn clone(&self) -> Self {
        GoState {
            board: self.board.clone(),
            history: self.history.clone(),
            ..*self
        }
    }

    /// Every simulation starts with this: the board copies only the
    /// points in use. (Listing every field makes a new one a compile
    /// error here rather than a value silently kept from the last game.)
    fn clone_from(&mut self, src: &Self) {
        let GoState {
            board,
            komi,
            rules,
            moves_left,
            passes,
            passed,
            over,
            policy,
            priors,
            score_weight,
            score_scale,
            history,
            optimism,
        } = src;
        self.board.copy_from(board);
        self.history.clone_from(history);
        self.optimism = *optimism;
        (self.komi, self.rules, self.moves_left) = (*komi, *rules, *moves_left);
        (self.passes, self.passed, self.over) = (*passes, *passed, *over);
        (self.policy, self.priors) = (*policy, *priors);
        (self.score_weight, self.score_scale) = (*score_weight, *score_scale);
    }
}

impl GoState {
    /// Black's result in [0, 1] for the board as it stands, counted
    /// literally (Tromp-Taylor, no dead-stone removal), as the referee does.
    pub fn result(&self) -> f32 {
        let margin = self.board.area_margin() as f32 - self.komi;
        let win = if margin > 0.0 {
            1.0
        } else if margin < 0.0 {
            0.0
        } else {
            0.5
        };
        if self.score_weight > 0.0 {
            let full = match self.score_scale {
                x if x > 0.0 => x,
                _ => self.board.area() as f32,
            };
            let s = (margin / full).clamp(-1.0, 1.0) * 0.5 + 0.5;
            (1.0 - self.score_weight) * win + self.score_weight * s
        } else {
            win
        }
    }

    /// Plays `mv`, noting when it ends the game (as
    /// [`crate::go::Game::play`] rules it). The standard rules' path is the
    /// playouts' hot one: it keeps to the pass count.
    #[inline]
    fn play_move(&mut self, mv: Move) {
        let c = self.board.to_move();
        if self.rules.is_riddles() {
            self.play_riddles(c, mv);
        } else {
            match mv {
                Move::Pass => {
                    self.over |= self.passes > 0;
                    self.board.pass();
                    self.passes += 1;
                }
                Move::Play(p) => {
                    self.board.play_legal(c, p);
                    self.passes = 0;
                }
            }
        }
        self.moves_left = self.moves_left.saturating_sub(1);
    }

    /// [`GoState::play_move`] under the Riddles.io rules: a second own
    /// pass, a ko retake (in the tree only) and a full board end the game.
    fn play_riddles(&mut self, c: Color, mv: Move) {
        match mv {
            Move::Pass => {
                let (own, opp) = (self.passed[c.index()], self.passed[c.opp().index()]);
                self.over |= self.rules.pass_ends(opp, own);
                self.board.pass();
                self.passes += 1;
            }
            Move::Play(p) => {
                self.over |= self.board.ko_point() == Some(p);
                self.board.play_legal(c, p);
                self.passes = 0;
                self.over |= self.rules.board_full(&self.board);
            }
        }
        self.passed[c.index()] = mv.is_pass();
    }
}

impl SearchGame for GoState {
    fn actions(&self) -> usize {
        MAX_POINTS
    }

    #[inline]
    fn to_move(&self) -> u8 {
        self.board.to_move() as u8
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.over || self.moves_left == 0
    }

    fn expand(&self, out: &mut Vec<Prior>) {
        let b = &self.board;
        let c = b.to_move();
        let first = out.len();
        let cfg = &self.priors;
        let ladders = ladders(b, cfg.ladder_atari != 0.0, cfg.ladder_defence != 0.0);
        // where retaking a ko ends the game, the tree weighs it (the
        // playouts never take it); one call of `prior`, kept inline
        let retake = b.ko_point().filter(|_| self.rules.ko_retake_ends());
        for &e in b.empty_points() {
            let p = Point(e);
            if b.is_sensible(c, p) || retake == Some(p) {
                out.push(priors::prior(b, cfg, p, &ladders));
            }
        }
        if self.priors.learned > 0.0 {
            priors::add_learned(b, cfg, &mut out[first..]);
        }
        // Passing gets no AMAF updates, so its prior alone decides whether it
        // is ever tried: low while the board is open, even once it is mostly
        // full or the opponent has just passed (then it may end the game).
        let pass = self.priors.pass;
        let late = self.passes > 0 || self.is_late();
        out.push(Prior {
            action: PASS,
            visits: pass,
            wins: pass * if late { 0.5 } else { 0.1 },
        });
    }

    fn knowledge(&self, out: &mut Vec<Prior>) {
        if self.priors.net <= 0.0 {
            return;
        }
        {
            let net = nn::active();
            let moves = self.net_moves();
            let pos = Position {
                board: &self.board,
                pla: self.board.to_move(),
                moves: &moves,
                recent: [None, None],
                seen: None,
                komi: self.komi,
                pass_ends: self.passes > 0,
                over: false,
            };
            priors::add_policy(
                &self.board,
                &net.evaluate(&pos, 0.0).policy,
                &self.priors,
                out,
            );
        }
    }

    #[inline]
    fn play(&mut self, action: u16) {
        let mv = to_move(action);
        if let Some(h) = &mut self.history {
            h.record(&self.board, self.board.to_move(), mv);
        }
        self.play_move(mv);
    }

    #[inline]
    fn amaf_action(&self, action: u16) -> bool {
        action != PASS
    }

    fn playout(&mut self, rng: &mut Rng, amaf: &mut Amaf) -> f32 {
        // a cycle of captures could go on for ever without superko checks
        let cap = (3 * self.board.area()) as u32;
        let mut moves = 0;
        while !self.is_over() && moves < cap {
            let mv = policy::choose(&self.board, rng, &self.policy);
            if let Move::Play(p) = mv {
                amaf.record(p.0, self.to_move());
            }
            self.play_move(mv);
            moves += 1;
        }
        self.result()
    }

    fn margin(&self) -> Option<f32> {
        Some(self.board.area_margin() as f32 - self.komi)
    }
}

impl GoState {
    /// The last two moves as a network reads them, oldest first: the
    /// board keeps them, passes only as many as were played in a row.
    fn net_moves(&self) -> ArrayVec<(Color, Move), 2> {
        let [last, before] = self.board.last_moves();
        let c = self.board.to_move();
        let real = |mv: Move, passes: u8| !mv.is_pass() || self.passes >= passes;
        let mut out = ArrayVec::new();
        if real(last, 1) {
            if real(before, 2) {
                out.push((c, before));
            }
            out.push((c.opp(), last));
        }
        out
    }

    /// Late in the game: less than 40 % of the board is empty. Passing is
    /// then a real candidate and gets measured.
    pub fn is_late(&self) -> bool {
        self.board.empty_points().len() * 5 < self.board.area() * 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(board: Board, priors: PriorConfig) -> GoState {
        GoState {
            board,
            komi: 7.5,
            rules: Rules::Standard,
            moves_left: u32::MAX,
            passes: 0,
            passed: [false; 2],
            over: false,
            policy: PolicyConfig::default(),
            priors,
            score_weight: 0.0,
            score_scale: 0.0,
            history: None,
            optimism: [0.2, 1.0],
        }
    }

    /// The score term: linear in the margin up to `score_scale` points (the
    /// board's area when 0), then full; the win/loss part unchanged.
    #[test]
    fn the_score_term_saturates_at_its_scale() {
        // 5x5: black owns three columns (15 points), white two (10)
        let b = Board::from_ascii(
            ". . X O .
             . . X O .
             . . X O .
             . . X O .
             . . X O .",
        )
        .unwrap();
        let mut s = state(b, PriorConfig::default());
        s.komi = 0.5; // black wins by 4.5
        assert_eq!(s.result(), 1.0);
        s.score_weight = 0.5;
        let close = |a: f32, b: f32| (a - b).abs() < 1e-6;
        // over the area (25): 0.5 + 0.5 * (0.5 + 0.5 * 4.5 / 25)
        assert!(
            close(s.result(), 0.5 + 0.5 * (0.5 + 0.5 * 4.5 / 25.0)),
            "{}",
            s.result()
        );
        s.score_scale = 9.0;
        assert!(close(s.result(), 0.5 + 0.5 * 0.75), "{}", s.result());
        s.score_scale = 3.0; // past the scale: the whole term
        assert!(close(s.result(), 1.0), "{}", s.result());
        s.komi = 10.5; // white wins by 5.5: the term saturates the other way
        assert!(close(s.result(), 0.0), "{}", s.result());
    }

    /// The network's prior comes on any board, for every sensible move,
    /// and not at all when its weight is 0.
    #[test]
    fn the_network_is_asked_on_any_board() {
        let priors = PriorConfig {
            net: 100.0,
            ..PriorConfig::default()
        };
        let mut out = Vec::new();
        state(Board::new(9, 9), priors).knowledge(&mut out);
        assert_eq!(out.len(), 81);
        out.clear();
        state(Board::new(19, 19), priors).knowledge(&mut out);
        assert_eq!(out.len(), 361);
        assert!(out.iter().all(|p| p.visits > 0.0 && p.wins == p.visits));
        out.clear();
        let off = PriorConfig { net: 0.0, ..priors };
        state(Board::new(19, 19), off).knowledge(&mut out);
        assert!(out.is_empty());
    }
}
