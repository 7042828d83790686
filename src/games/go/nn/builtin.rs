//! The network the arena bot carries: KataGo's g170 b6c96 (MIT, notice in
//! `data/nets/katago/LICENSE`, copied into every upload), in tengen's
//! coded form at 2047 steps (`tengen model FILE --code builtin.net
//! --steps 2047`): 1.4 MB, read without gzip.

/// The bytes of `builtin.net`. A `static`: one copy in the binary, and a
/// crate that uses it does not compile the bytes again (a `const` would).
pub static BUILTIN: &[u8] = include_bytes!("builtin.net");
