//! `tengen arena`: the local engine simulator.
