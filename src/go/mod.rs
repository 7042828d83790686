//! The rules of Go and nothing else: stones, strings, liberties, captures,
//! legality (suicide, ko, positional superko, the Riddles.io variants),
//! Tromp-Taylor area scoring, coordinates and SGF game records. No search,
//! no I/O.

mod board;
mod color;
pub mod coord;
mod game;
mod point;
pub mod rules;
pub mod score;
pub mod sgf;
mod zobrist;

pub use board::{Board, Illegal, Legality, Point, PointSet, MAX_POINTS, MAX_SIZE};
pub use color::{Cell, Color, Move};
pub use game::Game;
pub use rules::{End, Rules};
pub use score::AreaScore;
