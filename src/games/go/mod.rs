//! Go for the search: the position as a [`crate::search::tree::SearchGame`]
//! ([`state`]), what is known of a move before any playout ([`priors`],
//! [`ladder`], [`patterns`], the learnt prior in [`features`] and
//! [`gammas`], the KataGo network in [`nn`]), the playouts ([`policy`], [`playout`]), and the searcher
//! that plays a [`crate::go::Game`] with them ([`Searcher::think`]).

pub mod action;
pub mod features;
pub mod gammas;
pub mod history;
pub mod ladder;
pub mod nn;
mod params;
pub mod patterns;
pub mod playout;
pub mod policy;
pub mod priors;
mod searcher;
pub mod state;
pub mod valued;

use crate::go::Move;
use std::time::Duration;

pub use params::PARAMS;
pub use searcher::{Analysis, Config, MoveInfo, Ownership, Searcher};

/// What a search did, for logs and benchmarks.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub playouts: u64,
    pub elapsed: Duration,
    /// Estimated win rate of the chosen move for the side to move, 0..1.
    pub winrate: f32,
    /// Principal variation, starting with the chosen move.
    pub pv: Vec<Move>,
    /// Nodes in the tree after the search.
    pub nodes: usize,
    /// Playouts already under the root when the search began (tree reuse).
    pub reused: u64,
    /// Policy network evaluations in this search.
    pub net_evaluations: u64,
}
