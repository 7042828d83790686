//! Games that begin from recorded positions (`--from PATH --from-move K`):
//! the first K moves of the games of an earlier match, replayed, so that
//! the play after them can be measured alone. Games 2j and 2j+1 of a match
//! share a start with the colours swapped, so each position is played from
//! both sides and its own lean cancels out.

use crate::go::sgf::{named_games, read_sgf};
use crate::go::Rules;
use crate::go::{Color, Game, Move};
use std::path::Path;

/// The moves a game begins with, and where they come from.
#[derive(Clone, Debug)]
pub struct Start {
    /// The game they were taken from, e.g. `m/games.sgf#3` (the third game
    /// of that file) or `m/game-0003.sgf` (a file of one game).
    pub source: String,
    /// Each move's colour, and its column and row (`None`: a pass).
    pub moves: Vec<(Color, Option<(usize, usize)>)>,
}

impl Start {
    /// The start game `index` of a match uses.
    pub fn for_game(starts: &[Start], index: usize) -> Option<&Start> {
        (!starts.is_empty()).then(|| &starts[(index / 2) % starts.len()])
    }

    /// Plays the moves on `game` (a new game); an error names the first
    /// move the rules refuse.
    pub fn replay(&self, game: &mut Game) -> Result<(), String> {
        for (i, &(color, xy)) in self.moves.iter().enumerate() {
            let n = i + 1;
            if color != game.to_move() {
                return Err(format!(
                    "move {n} is {color}'s, but {} is to move",
                    game.to_move()
                ));
            }
            let mv = match xy {
                None => Move::Pass,
                Some((x, y)) => match game.board().try_point(x as i64, y as i64) {
                    Some(p) => Move::Play(p),
                    None => return Err(format!("move {n} ({x}, {y}) is off the board")),
                },
            };
            game.play(mv).map_err(|e| format!("move {n}: {e}"))?;
        }
        Ok(())
    }
}

/// The first `k` moves of each game recorded at `from` (see `records`)
/// that went on past them, checked by replaying them on a `size` board
/// under the match's `rules`, as the referee will replay them. Games that
/// ended by move `k` are skipped; none left, an unreadable record or a
/// move the rules refuse is an error.
pub fn load(from: &Path, k: usize, size: usize, rules: Rules) -> Result<Vec<Start>, String> {
    let mut starts = Vec::new();
    for (path, text) in records(from)? {
        for (name, game) in named_games(&path, &text)? {
            if let Some(start) = start(&name, game, k, size, rules)? {
                starts.push(start);
            }
        }
    }
    if starts.is_empty() {
        return Err(format!(
            "--from {}: no game there goes on past move {k}",
            from.display()
        ));
    }
    Ok(starts)
}

/// The SGF files `--from` names, with their text: the file itself; in a
/// match folder, its collection (games.sgf), else its `game-*.sgf` (the
/// layout of `--sgf-per-game` and of matches before the collection) in
/// name order.
fn records(from: &Path) -> Result<Vec<(String, String)>, String> {
    let read = |p: &Path| {
        let name = p.display().to_string();
        std::fs::read_to_string(p)
            .map(|t| (name.clone(), t))
            .map_err(|e| format!("{name}: {e}"))
    };
    if !from.is_dir() {
        return Ok(vec![read(from).map_err(|e| format!("--from {e}"))?]);
    }
    let collection = from.join(super::sgf::COLLECTION);
    if collection.is_file() {
        return Ok(vec![read(&collection)?]);
    }
    let entries = std::fs::read_dir(from).map_err(|e| format!("--from {}: {e}", from.display()))?;
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("game-") && n.ends_with(".sgf"))
        })
        .collect();
    files.sort();
    files.iter().map(|p| read(p)).collect()
}

/// The start game `name` (SGF text `text`) gives, `None` if it ended by
/// move `k`.
fn start(
    name: &str,
    text: &str,
    k: usize,
    size: usize,
    rules: Rules,
) -> Result<Option<Start>, String> {
    let rec = read_sgf(text).map_err(|e| format!("{name}: {e}"))?;
    if !rec.setup.is_empty() {
        return Err(format!("{name}: setup stones are not supported"));
    }
    if rec.size != size {
        return Err(format!(
            "{name}: a {0}x{0} game, the match is {size}x{size}",
            rec.size
        ));
    }
    if rec.moves.len() <= k {
        return Ok(None); // over by then: nothing to play from it
    }
    let start = Start {
        source: name.to_string(),
        moves: rec.moves[..k].to_vec(),
    };
    let mut game = super::rules::new_game(size, 0.0, rules); // komi: no part in legality
    start
        .replay(&mut game)
        .map_err(|e| format!("{name}: {e}"))?;
    Ok((!game.is_over()).then_some(start))
}
