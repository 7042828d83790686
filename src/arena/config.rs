//! A match's whole setting, as the command line gives it: apart from the
//! player specs, since it also names the positions games begin from.

use super::spec::{GameConfig, PlayerSpec};
use super::start::Start;
use std::path::PathBuf;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The arena's command line, for the records (empty: not known).
    pub command: Vec<String>,
    pub players: [PlayerSpec; 2],
    pub games: usize,
    pub jobs: usize,
    pub seed: u64,
    pub out: PathBuf,
    pub game: GameConfig,
    /// Recorded moves the games begin from (`--from`); empty: none.
    pub starts: Vec<Start>,
    /// A file a game (`game-NNNN.sgf`) instead of one collection, games.sgf.
    pub sgf_per_game: bool,
}
