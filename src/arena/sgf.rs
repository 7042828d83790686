//! A game as SGF (FF[4]): players, komi, rules, result, and each move with
//! its answer time (and any miss or refusal) in a comment; and where a
//! match's games go: one collection, `games.sgf`, or a file a game.

use super::record::{GameRecord, Reason};
use super::spec::GameConfig;
use crate::go::Rules;
use crate::go::{coord, Color};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// SGF text: `\` and `]` escaped.
fn text(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// The collection of a match's games in its output folder: one file that
/// SGF editors open as a list of games (each named `game N`, its number).
pub const COLLECTION: &str = "games.sgf";

/// The file name of a game's SGF inside the output folder (`--sgf-per-game`).
pub fn file_name(index: usize) -> String {
    format!("game-{:04}.sgf", index + 1)
}

/// Where a match's records go.
pub enum Records {
    /// Each game appended to `games.sgf` as it ends, so that a stopped
    /// match keeps every finished game and the file is whole between
    /// games; opened at the first game.
    Collection(PathBuf, Option<File>),
    /// `game-NNNN.sgf` a game, in this folder.
    PerGame(PathBuf),
}

impl Records {
    /// The records of a match in `out`; a `games.sgf` there that already
    /// holds text is an earlier match's, never appended to: the error
    /// says so.
    pub fn new(out: &Path, per_game: bool) -> Result<Records, String> {
        if per_game {
            return Ok(Records::PerGame(out.to_path_buf()));
        }
        let path = out.join(COLLECTION);
        if fs::read(&path).is_ok_and(|t| t.iter().any(|b| !b.is_ascii_whitespace())) {
            return Err(format!(
                "{} already holds games: choose another --out",
                path.display()
            ));
        }
        Ok(Records::Collection(path, None))
    }

    /// Saves a finished game's SGF `text`; returns the file's name in the
    /// output folder, for games.jsonl.
    pub fn save(&mut self, index: usize, text: &str) -> Result<String, String> {
        match self {
            Records::PerGame(out) => {
                let name = file_name(index);
                let path = out.join(&name);
                fs::write(&path, text)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                Ok(name)
            }
            Records::Collection(path, file) => {
                let cannot = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
                if file.is_none() {
                    let f = OpenOptions::new().create(true).append(true).open(&*path);
                    *file = Some(f.map_err(cannot)?);
                }
                let f = file.as_mut().expect("opened above");
                // one write a game, flushed: a kill between games leaves whole games
                f.write_all(text.as_bytes())
                    .and_then(|()| f.flush())
                    .map_err(cannot)?;
                Ok(COLLECTION.to_string())
            }
        }
    }
}

pub fn write(rec: &GameRecord, cfg: &GameConfig, date: &str) -> String {
    let rules = match cfg.rules {
        Rules::Standard => "Tromp-Taylor, positional superko, no suicide",
        Rules::Riddles102 => "Riddles.io 1.0.2: no suicide, ko retake ends, area without komi",
        Rules::Riddles103 => {
            "Riddles.io 1.0.3: a stone needs an empty neighbour, ko retake ends, area without komi"
        }
    };
    // SGF writes a draw as `0`, a game without a result as `Void`
    let result = match rec.winner {
        None if rec.reason == Reason::Stopped => "Void",
        None => "0",
        Some(_) => rec.result.as_str(),
    };
    let mut out = format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[tengen arena]SZ[{}]KM[{}]RU[{}]DT[{date}]GN[game {}]\n\
         PB[{}]PW[{}]RE[{}]\nC[{}]\n",
        cfg.size,
        cfg.komi,
        text(rules),
        rec.index + 1,
        text(&rec.names[0]),
        text(&rec.names[1]),
        text(result),
        text(&format!(
            "{} dialect, seed {}; ended: {} ({})",
            cfg.dialect,
            rec.seed,
            rec.reason.key(),
            rec.detail
        )),
    );
    for m in &rec.moves {
        // a pass is the empty point, as in FF[4]
        let point =
            m.xy.map(|(x, y)| coord::sgf_point(x, y))
                .unwrap_or_default();
        let mut comment = format!("{} ms", m.ms);
        if !m.note.is_empty() {
            comment = format!("{comment}; {}", m.note);
        }
        let letter = match m.color {
            Color::Black => 'B',
            Color::White => 'W',
        };
        out.push_str(&format!(";{letter}[{point}]C[{}]\n", text(&comment)));
    }
    out.push_str(")\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(text(r"a]b\c"), r"a\]b\\c");
    }
}
