//! The crates tengen builds with, reached only through this module, so the
//! uploads that take no dependencies (the arena zip, the CodinGame files)
//! can swap it for a copy that carries their sources (`tools/bundle.py`).

pub use arrayvec::ArrayVec;
pub use env_logger;
pub use flate2;
pub use fxhash::{FxHashMap, FxHashSet};
pub use log;
pub use rand_xoshiro::rand_core::{RngCore, SeedableRng};
pub use rand_xoshiro::Xoshiro256PlusPlus;

/// Logs to stderr through `log`'s macros, at `warn` unless `RUST_LOG`
/// says otherwise.
pub fn init_logger() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
}

#[cfg(test)]
pub mod lite;
