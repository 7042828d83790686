//! The network the bot ships with, x133 in int8 (128 channels, 12
//! residual blocks; `data/nets/README.md` says how it was trained,
//! `docs/network.md` how well it agrees with the teacher and plays).

/// The bytes of `policy.net`. A `static`: one copy in the binary, and a
/// crate that uses it does not compile the bytes again (a `const` would).
pub static BUILTIN: &[u8] = include_bytes!("policy.net");
