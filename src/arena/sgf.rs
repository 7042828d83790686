//! A game as SGF (FF[4]): players, komi, rules, result, and each move with
//! its answer time (and any miss or refusal) in a comment.

use super::record::{GameRecord, Reason};
use super::spec::GameConfig;
use crate::go::Rules;
use crate::go::{coord, Color};

/// SGF text: `\` and `]` escaped.
fn text(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// The file name of a game's SGF inside the output folder.
pub fn file_name(index: usize) -> String {
    format!("game-{:04}.sgf", index + 1)
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
