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
pub mod int8;
pub mod outputs;
pub mod read;
pub mod symmetry;
pub mod write;

#[cfg(test)]
mod tests;

use desc::Model;
use inputs::Position;
pub use outputs::Eval;

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
        let f = inputs::features(pos);
        let raw = forward::evaluate(
            &self.model,
            &float::Float,
            &f.spatial,
            &f.global,
            f.width,
            f.height,
        );
        let legal = inputs::legal(pos);
        let from: Vec<usize> = (0..f.width * f.height).collect();
        outputs::eval(&self.model, &raw, &legal, &from, pos.pla, optimism)
    }
}
