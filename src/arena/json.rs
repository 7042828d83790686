//! JSON written by hand (no serde): strings, numbers and objects, for
//! the lines of `games.jsonl` (`tourney.rs`, `facts.rs`).

/// A JSON string literal, escaped (where the games' referees reach it).
pub use crate::games::referee::json_string as string;

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
pub fn num(v: Option<f32>) -> String {
    match v {
        Some(x) if x.is_finite() => format!("{x}"),
        _ => "null".to_string(),
    }
}

/// A finite number (komi), as [`num`] writes it.
pub fn number(v: f32) -> String {
    num(Some(v))
}

pub fn int(v: Option<u64>) -> String {
    v.map_or_else(|| "null".to_string(), |x| x.to_string())
}

pub fn opt_str(v: Option<&str>) -> String {
    v.map_or_else(|| "null".to_string(), string)
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
