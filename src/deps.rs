//! The crates tengen builds with, reached only through this module, so the
//! uploads that take no dependencies (the arena zip, the CodinGame files)
//! can swap it for a copy that carries their sources (`tools/bundle.py`).

pub use arrayvec::ArrayVec;
pub use env_logger;
pub use fxhash::{FxHashMap, FxHashSet};
pub use log;
pub use rand_xoshiro::rand_core::{RngCore, SeedableRng};
pub use rand_xoshiro::Xoshiro256PlusPlus;

#[cfg(test)]
pub mod lite;
