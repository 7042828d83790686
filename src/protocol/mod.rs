//! The protocols: the arena bot (both dialects) and GTP.
