//! KataGo's networks: any KataGo model file, read, fed KataGo's own inputs
//! and run on the CPU. Laid out as KataGo's `cpp/neuralnet/`: the model
//! description and its reader apart from the inputs apart from the
//! backends, each part a file, none importing back up; the network reads
//! the rules (`crate::go`) and nothing above or beside it.
//!
//! - [`inputs`]: the V7 features of a position (22 planes, 19 globals),
//!   KataGo's ladders and pass-alive area, the legal moves, the 8
//!   symmetries ([`symmetry`]).

pub mod inputs;
pub mod symmetry;
