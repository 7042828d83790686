//! What the CodinGame referee (`tengen arena --game NAME`) needs of a
//! game: the lines each player is sent, the judging of an answer, the end
//! and its result. A seat is 0 for the player who moves first, 1 for the
//! other; the match loop decides which player sits where. Here, below the
//! arena, so that a game's folder can implement it.

/// A two-player game refereed the CodinGame way: one line of input at
/// game start and a few each turn to the player to move, one line back.
pub trait Refereed {
    /// What each seat is called in records, seat 0 first (`black`, `white`).
    fn seat_names(&self) -> [&'static str; 2];

    /// The lines a player gets once, just before its first turn's lines.
    fn initial_lines(&self, seat: usize) -> Vec<String>;

    /// The seat to move.
    fn to_move(&self) -> usize;

    /// The lines sent to the seat to move at the start of its turn.
    fn turn_lines(&self) -> Vec<String>;

    /// Plays the answer of the seat to move. `Ok`: the move as the record
    /// writes it (the move actually played, when the answer lets the
    /// referee choose); `Err`: why it is refused (the answer loses the
    /// game).
    fn apply(&mut self, answer: &str) -> Result<String, String>;

    /// Turns played so far.
    fn turns(&self) -> u32;

    /// Over: played to its end, or stopped at the referee's limit. The
    /// referee asks no answer of a game over, so a game whose player to
    /// move has no move (and has lost) says so here.
    fn is_over(&self) -> bool;

    /// Whether the game was stopped by a limit of the referee's own rather
    /// than by the game's rules (recorded as reason `limit`).
    fn at_limit(&self) -> bool {
        false
    }

    /// The result once the game is over: `Some(Some(seat))` a win,
    /// `Some(None)` a draw.
    fn outcome(&self) -> Option<Option<usize>>;

    /// The final state in one line, for the record and the summary.
    fn describe(&self) -> String;

    /// Game-specific fields of the game's JSON line: each key with its
    /// value already written as JSON.
    fn json_fields(&self) -> Vec<(String, String)>;
}

/// A JSON string literal, escaped: the records' fields are JSON
/// ([`Refereed::json_fields`]), written by hand (no serde).
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// JSON's list of strings.
pub fn json_strings(items: &[String]) -> String {
    let items: Vec<String> = items.iter().map(|s| json_string(s)).collect();
    format!("[{}]", items.join(","))
}
