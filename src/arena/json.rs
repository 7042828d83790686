//! One JSON line per game for `games.jsonl`, written by hand (no serde).

use super::record::{GameRecord, SideStats};
use super::referee::{log_name, GameConfig};
use super::sgf;
use super::spec::PlayerSpec;

/// A JSON string literal, escaped.
pub fn string(s: &str) -> String {
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

/// A JSON object of keys and values already written as JSON.
pub fn object(fields: &[(&str, String)]) -> String {
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{v}", string(k)))
        .collect();
    format!("{{{}}}", body.join(","))
}

/// A number, or `null` for none or a non-finite value. (f32's own
/// formatting, so komi 6.1 stays `6.1`.)
fn num(v: Option<f32>) -> String {
    match v {
        Some(x) if x.is_finite() => format!("{x}"),
        _ => "null".to_string(),
    }
}

/// A finite number (komi), as [`num`] writes it.
pub fn number(v: f32) -> String {
    num(Some(v))
}

fn int(v: Option<u64>) -> String {
    v.map_or_else(|| "null".to_string(), |x| x.to_string())
}

fn opt_str(v: Option<&str>) -> String {
    v.map_or_else(|| "null".to_string(), string)
}

fn side(s: &SideStats) -> String {
    format!(
        "{{\"answers\":{},\"max_ms\":{},\"median_ms\":{},\"bank_left_ms\":{},\"timeouts\":{},\"illegal\":{}}}",
        s.times.len(),
        int(s.max_ms()),
        int(s.median_ms()),
        int(s.bank_left),
        s.timeouts,
        s.illegal
    )
}

/// The line for one game (no newline).
pub fn game_line(rec: &GameRecord, cfg: &GameConfig, players: &[PlayerSpec; 2]) -> String {
    let label = |p: usize| players[p].label.to_string();
    let winner = rec.winner_player();
    let winner_color = rec.winner.map(|c| c.to_string());
    let area = match rec.area {
        Some((b, w)) => format!(
            "{{\"black\":{b},\"white\":{w},\"komi\":{}}}",
            num(Some(cfg.komi))
        ),
        None => "null".to_string(),
    };
    let logs = [0, 1].map(|p| string(&log_name(rec.index, players[p].label)));
    // player p's engine: the one in the seat p had
    let engine = |p: usize| {
        let c = if rec.seats[0] == p { 0 } else { 1 };
        rec.engines[c].json()
    };
    let fields = [
        ("game", (rec.index + 1).to_string()),
        ("seed", rec.seed.to_string()),
        ("black", string(&rec.names[0])),
        ("white", string(&rec.names[1])),
        ("black_player", string(&label(rec.seats[0]))),
        ("white_player", string(&label(rec.seats[1]))),
        ("winner", opt_str(winner.map(|p| players[p].name.as_str()))),
        ("winner_player", opt_str(winner.map(label).as_deref())),
        ("winner_color", opt_str(winner_color.as_deref())),
        ("result", string(&rec.result)),
        ("margin", num(rec.margin)),
        ("reason", string(rec.reason.key())),
        ("detail", string(&rec.detail)),
        ("moves", rec.moves.len().to_string()),
        ("start", opt_str(rec.start.as_deref())),
        ("rounds", rec.moves.len().div_ceil(2).to_string()),
        ("area", area),
        ("size", cfg.size.to_string()),
        ("komi", num(Some(cfg.komi))),
        ("dialect", string(&cfg.dialect.to_string())),
        ("rules", string(&cfg.rules.to_string())),
        ("black_stats", side(&rec.sides[0])),
        ("white_stats", side(&rec.sides[1])),
        ("sgf", string(&sgf::file_name(rec.index))),
        ("logs", format!("{{\"A\":{},\"B\":{}}}", logs[0], logs[1])),
        ("engines", object(&[("A", engine(0)), ("B", engine(1))])),
    ];
    object(&fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("a\"b\\c\nd\u{1}"), r#""a\"b\\c\nd\u0001""#);
        assert_eq!(num(Some(6.5)), "6.5");
        assert_eq!(num(Some(6.1)), "6.1");
        assert_eq!(num(Some(f32::NAN)), "null");
        assert_eq!(int(None), "null");
    }
}
