//! Clobber as a [`SearchGame`]: actions are from-square and direction
//! (`from * 4 + direction`, 256 of them), so RAVE shares what it learns of
//! a move across the tree; playouts play random moves to the end, where
//! the side left without a move has lost.

use super::rules::{Clobber, Move};
use crate::search::rng::Rng;
use crate::search::tree::{Amaf, Prior, SearchGame};

/// A Clobber position inside the search.
#[derive(Clone, Copy)]
pub struct ClobberState {
    pub pos: Clobber,
    /// Pseudo-visits of every new move at 50 %, and the won visits a move
    /// gets for each enemy move it takes away, over the moves it costs us.
    pub even: f32,
    pub mobility: f32,
}

impl ClobberState {
    pub fn new(pos: Clobber) -> ClobberState {
        ClobberState {
            pos,
            even: 10.0,
            mobility: 1.0,
        }
    }
}

impl SearchGame for ClobberState {
    fn actions(&self) -> usize {
        256
    }

    fn to_move(&self) -> u8 {
        self.pos.to_move() as u8
    }

    fn is_over(&self) -> bool {
        self.pos.is_over()
    }

    fn expand(&self, out: &mut Vec<Prior>) {
        let me = self.pos.to_move();
        let (mine, theirs) = (self.pos.mobility(me), self.pos.mobility(me.opp()));
        self.pos.for_each_move(|m| {
            let mut child = self.pos;
            child.play_unchecked(m);
            // moves that take more from the opponent than from us look good
            let gain = (theirs as f32 - child.mobility(me.opp()) as f32)
                - (mine as f32 - child.mobility(me) as f32);
            let bonus = (gain * self.mobility).clamp(-self.even, self.even);
            out.push(Prior {
                action: m.action(),
                visits: self.even,
                wins: 0.5 * self.even + 0.5 * bonus,
            });
        });
    }

    fn play(&mut self, action: u16) {
        self.pos.play_unchecked(Move::from_action(action));
    }

    fn amaf_action(&self, _action: u16) -> bool {
        true
    }

    fn playout(&mut self, rng: &mut Rng, amaf: &mut Amaf) -> f32 {
        loop {
            let n = self.pos.mobility(self.pos.to_move());
            if n == 0 {
                // the side to move has lost; side 0 is black
                return self.pos.to_move() as u8 as f32;
            }
            let m = self.pos.nth_move(rng.below(n as usize) as u32);
            amaf.record(m.action(), self.pos.to_move() as u8);
            self.pos.play_unchecked(m);
        }
    }
}
