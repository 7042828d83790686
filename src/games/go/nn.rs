//! KataGo's networks: any KataGo model file, read, fed KataGo's own inputs
//! and run on the CPU. Laid out as KataGo's `cpp/neuralnet/`: the model
//! description and its reader apart from the inputs apart from the
//! backends, each part a file, none importing back up; the network reads
//! the rules (`crate::go`) and nothing above or beside it.
//!
//! - [`desc`]: what a model is made of; [`read`]: reading it from KataGo's
//!   file format, [`coded`]: tengen's entropy-coded weights within it.
//! - [`inputs`]: the V7 features of a position (22 planes, 19 globals),
//!   KataGo's ladders and pass-alive area, the legal moves, the 8
//!   symmetries ([`symmetry`]).
//! - [`forward`]: one evaluation, over a backend's [`forward::Kernels`]:
//!   [`float`] (the reference).
//! - [`outputs`]: the raw outputs turned into probabilities, values and
//!   scores as KataGo's `kata-raw-nn` gives them.
//! - [`write`]: a model back to a file, plain or coded.

pub mod coded;
pub mod desc;
pub mod float;
pub mod forward;
pub mod inputs;
pub mod outputs;
pub mod read;
pub mod symmetry;
pub mod write;

#[cfg(test)]
mod tests;

use crate::go::Game;
use desc::Model;
use inputs::Position;
pub use outputs::Eval;
use std::sync::OnceLock;

/// The network in play, set once ([`install`]).
static ACTIVE: OnceLock<Network> = OnceLock::new();

/// Puts `net` in play for this process (`--model FILE`). Only before the
/// first [`active`]: the search must not change nets mid-game.
pub fn install(net: Network) -> Result<(), String> {
    ACTIVE
        .set(net)
        .map_err(|_| "a network is already in play".to_string())
}

/// The KataGo network in play, if one was installed.
pub fn active() -> Option<&'static Network> {
    ACTIVE.get()
}

/// Where point (`x`, `y`) of an `n`-wide board goes under `symmetry`
/// (bit 4 transposes, bit 2 flips columns, bit 1 rows), or comes from
/// when `back`, as KataGo's `copyWithSymmetry`.
fn turned(symmetry: usize, n: usize, x: usize, y: usize, back: bool) -> usize {
    let transpose = symmetry & 4 != 0;
    let (mut fx, mut fy) = (symmetry & 2 != 0, symmetry & 1 != 0);
    if transpose && !back {
        std::mem::swap(&mut fx, &mut fy);
    }
    let flip = |f: bool, v: usize| if f { n - 1 - v } else { v };
    let (nx, ny) = match transpose {
        false => (flip(fx, x), flip(fy, y)),
        true => (flip(fx, y), flip(fy, x)),
    };
    ny * n + nx
}

/// `game` as its side to move sees it: its moves, its last two boards,
/// its positions for superko where its rules have it, the komi it is
/// counted with (none on Riddles.io's fields).
pub fn position(game: &Game) -> Position<'_> {
    Position {
        board: game.board(),
        pla: game.to_move(),
        moves: game.moves(),
        recent: [game.board_before(1), game.board_before(2)],
        seen: game.rules().superko().then(|| game.history()),
        komi: game.counted_komi(),
        pass_ends: game.pass_ends(),
        over: game.is_over(),
    }
}

/// A loaded network and the backend that runs it.
pub struct Network {
    model: Model,
}

impl Network {
    /// The network of an uncompressed KataGo model file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        Ok(Network::new(read::model(bytes)?))
    }

    pub fn new(model: Model) -> Network {
        Network { model }
    }

    pub fn model(&self) -> &Model {
        &self.model
    }

    /// `pos` evaluated at symmetry 0, with `optimism` of the optimistic
    /// policy mixed in.
    pub fn evaluate(&self, pos: &Position, optimism: f32) -> Eval {
        self.evaluate_at(pos, 0, optimism)
    }

    /// `pos` evaluated with the board turned by `symmetry` (0 to 7, as
    /// KataGo numbers them) before the network, its outputs turned back.
    pub fn evaluate_at(&self, pos: &Position, symmetry: usize, optimism: f32) -> Eval {
        let f = inputs::features(pos);
        let (w, h) = (f.width, f.height);
        assert!(
            symmetry == 0 || (symmetry < 8 && w == h),
            "symmetry {symmetry} of a {w}x{h} board"
        );
        let area = w * h;
        // where each point goes (KataGo's copyInputsWithSymmetry)
        let to: Vec<usize> = (0..area)
            .map(|i| turned(symmetry, w, i % w, i / w, false))
            .collect();
        let mut spatial = vec![0u8; f.spatial.len()];
        for (src, dst) in f
            .spatial
            .chunks_exact(area)
            .zip(spatial.chunks_exact_mut(area))
        {
            for (i, &v) in src.iter().enumerate() {
                dst[to[i]] = v;
            }
        }
        let raw = forward::evaluate(&self.model, &float::Float, &spatial, &f.global, w, h);
        // the net's point j is the board's turned(j) (copyOutputsWithSymmetry)
        let mut from = vec![0; area];
        for j in 0..area {
            from[turned(symmetry, w, j % w, j / w, true)] = j;
        }
        let legal = inputs::legal(pos);
        outputs::eval(&self.model, &raw, &legal, &from, pos.pla, optimism)
    }
}
