//! A Go move as the generic search's action number (`u16`), shared by Go
//! and the games on Go's board; apart from the rest of Go's search state
//! so a CodinGame bundle (`tools/codingame.sh`) can carry it alone.

use crate::go::{Move, Point};

/// Action number of a pass (index 0 is never a point of the board).
pub const PASS: u16 = 0;

pub fn to_action(mv: Move) -> u16 {
    match mv {
        Move::Pass => PASS,
        Move::Play(p) => p.0,
    }
}

pub fn to_move(action: u16) -> Move {
    if action == PASS {
        Move::Pass
    } else {
        Move::Play(Point(action))
    }
}
