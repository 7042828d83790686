//! The games the generic search ([`crate::search`]) plays, each with its
//! own knowledge: for Go, the priors, the playout policy, patterns, ladder
//! reading and the learnt prior.

pub mod go;
