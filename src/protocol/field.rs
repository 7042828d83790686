//! The arena's `update game field` value: `width * height` comma-separated
//! cells, row by row. Two dialects exist (see `docs/protocol.md`):
//! TheAIGames writes `0` for empty and the bot ids `1`/`2` for stones;
//! Riddles.io writes `.` for empty, `0`/`1` for stones and `-1` for points
//! it considers unplayable for the reader (still empty).

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    TheAiGames,
    Riddles,
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::TheAiGames => "theaigames",
            Dialect::Riddles => "riddles",
        })
    }
}

/// One cell of a field: empty or a stone of the player with that bot id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldCell {
    Empty,
    Stone(u8),
}

/// A parsed field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub dialect: Dialect,
    pub cells: Vec<FieldCell>,
}

/// Tells the dialect from the text: only Riddles.io uses `.` or `-1`.
pub fn dialect_of(text: &str) -> Dialect {
    if text.split(',').any(|c| matches!(c.trim(), "." | "-1")) {
        Dialect::Riddles
    } else {
        Dialect::TheAiGames
    }
}

/// Parses a field. `dialect` forces one; `None` guesses from the text (an
/// all-`0` field is TheAIGames' empty board).
pub fn parse(text: &str, dialect: Option<Dialect>) -> Result<Field, String> {
    let dialect = dialect.unwrap_or_else(|| dialect_of(text));
    let cells = text
        .trim()
        .split(',')
        .map(|c| {
            let c = c.trim();
            match (dialect, c) {
                (Dialect::Riddles, "." | "-1") => Ok(FieldCell::Empty),
                (Dialect::Riddles, "0") => Ok(FieldCell::Stone(0)),
                (Dialect::Riddles, "1") => Ok(FieldCell::Stone(1)),
                (Dialect::TheAiGames, "0") => Ok(FieldCell::Empty),
                (Dialect::TheAiGames, "1") => Ok(FieldCell::Stone(1)),
                (Dialect::TheAiGames, "2") => Ok(FieldCell::Stone(2)),
                _ => Err(format!("unknown field cell {c:?} in the {dialect} dialect")),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Field { dialect, cells })
}

/// Writes a field in a dialect. `ids[0]`, `ids[1]` are the bot ids of the
/// black and white players; `cells` is row-major with `None` for empty.
pub fn write(dialect: Dialect, cells: impl Iterator<Item = Option<u8>>) -> String {
    let empty = match dialect {
        Dialect::TheAiGames => "0".to_string(),
        Dialect::Riddles => ".".to_string(),
    };
    cells
        .map(|c| c.map_or_else(|| empty.clone(), |id| id.to_string()))
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialects_are_told_apart() {
        assert_eq!(dialect_of("0,0,1,2"), Dialect::TheAiGames);
        assert_eq!(dialect_of(".,.,0,1"), Dialect::Riddles);
        assert_eq!(dialect_of("-1,0,1,1"), Dialect::Riddles);
        let f = parse(".,-1,0,1", None).unwrap();
        assert_eq!(
            f.cells,
            vec![
                FieldCell::Empty,
                FieldCell::Empty,
                FieldCell::Stone(0),
                FieldCell::Stone(1)
            ]
        );
        let f = parse("0,1,2,0", None).unwrap();
        assert_eq!(f.cells[1], FieldCell::Stone(1));
        assert_eq!(f.cells[2], FieldCell::Stone(2));
        assert!(parse("0,3", None).is_err());
        assert!(parse("x", Some(Dialect::Riddles)).is_err());
    }

    #[test]
    fn write_round_trips() {
        let text = write(Dialect::Riddles, [None, Some(0), Some(1)].into_iter());
        assert_eq!(text, ".,0,1");
        assert_eq!(parse(&text, None).unwrap().cells.len(), 3);
    }
}
