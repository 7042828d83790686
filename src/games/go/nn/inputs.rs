//! KataGo's V7 input features (`fillRowV7` of KataGo's
//! `cpp/neuralnet/nninputs.cpp`) for tengen's rules.

use crate::deps::FxHashSet;
use crate::go::{Board, Color, Move};

/// Spatial feature planes of the V7 inputs.
pub const SPATIAL: usize = 22;
/// Global features of the V7 inputs.
pub const GLOBAL: usize = 19;

/// What the features need of a position beyond its board.
#[derive(Clone, Copy)]
pub struct Position<'a> {
    /// The board as it stands.
    pub board: &'a Board,
    /// The side to move.
    pub pla: Color,
    /// The moves of the game so far, oldest first: the last five feed
    /// planes 9 - 13 and globals 0 - 4, alternating back from `pla`'s
    /// opponent; their count caps the history the net sees.
    pub moves: &'a [(Color, Move)],
    /// The boards one and two moves ago, where known (ladder planes 15
    /// and 16; the current board stands in for one unknown).
    pub recent: [Option<&'a Board>; 2],
    /// Every position seen so far (positional hashes), where positional
    /// superko holds: its bans join the ko plane and leave the legal moves.
    pub seen: Option<&'a FxHashSet<u64>>,
    /// White's komi as the game is counted.
    pub komi: f32,
    /// Whether a pass by `pla` would end the game.
    pub pass_ends: bool,
    /// Whether the game has ended.
    pub over: bool,
}

/// A position's features: `spatial` plane by plane, each row by row from
/// the top left (`SPATIAL * area` values, 0 or 1), and the globals.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    pub width: usize,
    pub height: usize,
    pub spatial: Vec<u8>,
    pub global: [f32; GLOBAL],
}

/// Placeholder until the features land (empty-board planes only).
pub fn features(pos: &Position) -> Features {
    let (w, h) = (pos.board.width(), pos.board.height());
    let mut spatial = vec![0u8; SPATIAL * w * h];
    spatial[..w * h].fill(1);
    let mut global = [0f32; GLOBAL];
    let self_komi = if pos.pla == Color::White {
        pos.komi
    } else {
        -pos.komi
    };
    global[5] = self_komi / 20.0;
    global[6] = 1.0;
    global[7] = 0.5;
    global[18] = -0.5;
    Features {
        width: w,
        height: h,
        spatial,
        global,
    }
}

/// Placeholder: every empty point.
pub fn legal(pos: &Position) -> Vec<bool> {
    let b = pos.board;
    b.points()
        .map(|p| b.at(p) == crate::go::Cell::Empty)
        .chain([true])
        .collect()
}
