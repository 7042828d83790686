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

pub use params::PARAMS;
pub use searcher::analysis::{Analysis, MoveInfo, Ownership};
pub use searcher::{Config, Searcher, Stats};
