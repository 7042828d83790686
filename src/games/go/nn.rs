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
//!   [`float`] (the reference), [`int8`] (8- and 16-bit integers, a
//!   kernel an instruction set) or [`amx`] (bf16 on AMX tiles, the rest
//!   on `int8`), chosen by [`paths`].
//! - [`outputs`]: the raw outputs turned into probabilities, values and
//!   scores as KataGo's `kata-raw-nn` gives them.
//! - [`write`]: a model back to a file, plain or coded.

pub mod amx;
pub mod builtin;
pub mod coded;
pub mod desc;
pub mod float;
pub mod forward;
pub mod inputs;
pub mod int8;
pub mod outputs;
pub mod paths;
pub mod read;
pub mod symmetry;
pub mod write;

#[cfg(test)]
mod tests;

use crate::go::Game;
use desc::Model;
use forward::Kernels;
use inputs::Position;
pub use outputs::Eval;
pub use paths::Path;
use std::sync::OnceLock;

/// The network in play: one installed ([`install`]) or the built-in one.
static ACTIVE: OnceLock<Network> = OnceLock::new();

/// Puts `net` in play for this process (`--model FILE`). Only before the
/// first [`active`]: the search must not change nets mid-game.
pub fn install(net: Network) -> Result<(), String> {
    ACTIVE
        .set(net)
        .map_err(|_| "a network is already in play".to_string())
}

/// The network in play: the one installed, else the built-in one
/// ([`builtin`]), read on first use.
pub fn active() -> &'static Network {
    ACTIVE.get_or_init(|| {
        Network::from_bytes(builtin::BUILTIN).expect("the built-in network reads (tests check it)")
    })
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
    path: Path,
    backend: Box<dyn Kernels + Send + Sync>,
}

impl Network {
    /// The network of an uncompressed KataGo model file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        Ok(Network::new(read::model(bytes)?))
    }

    /// `model` on the path this CPU runs fastest ([`Path::chosen`]).
    pub fn new(model: Model) -> Network {
        Network::on(model, Path::chosen())
    }

    /// `model` computed by `path` (one this CPU runs).
    pub fn on(model: Model, path: Path) -> Network {
        assert!(path.runs_here(), "this CPU cannot run the {path} path");
        let backend: Box<dyn Kernels + Send + Sync> = match path {
            Path::Amx => Box::new(amx::Amx::new(&model)),
            Path::Float => Box::new(float::Float),
            Path::Int8(k) => Box::new(int8::Int8::new(&model, k)),
        };
        Network {
            model,
            path,
            backend,
        }
    }

    /// The same network on another path.
    pub fn with_path(self, path: Path) -> Network {
        Network::on(self.model, path)
    }

    pub fn model(&self) -> &Model {
        &self.model
    }

    pub fn path(&self) -> Path {
        self.path
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
        let turned = symmetry::apply(symmetry, &f);
        let (tw, th) = (turned.width, turned.height);
        let raw = forward::evaluate(
            &self.model,
            &*self.backend,
            &turned.spatial,
            &turned.global,
            tw,
            th,
        );
        // where each point's outputs are on the turned board
        let from: Vec<usize> = (0..w * h)
            .map(|i| {
                let (x, y) = symmetry::sym_point(symmetry, w, h, i % w, i / w);
                y * tw + x
            })
            .collect();
        let legal = inputs::legal(pos);
        outputs::eval(&self.model, &raw, &legal, &from, pos.pla, optimism)
    }
}
