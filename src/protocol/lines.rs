//! The engine's lines, read into values. Anything unexpected becomes
//! [`Line::Junk`] with the reason, for the log: the bot never stops on input.

/// One setting. Numbers are kept signed so that a negative value is seen
/// (and refused) rather than failing to parse.
#[derive(Clone, Debug, PartialEq)]
pub enum Setting {
    Timebank(i64),
    TimePerMove(i64),
    PlayerNames(Vec<String>),
    YourBot(String),
    YourBotId(i64),
    FieldWidth(i64),
    FieldHeight(i64),
    MaxRounds(i64),
    Unknown(String, String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    Setting(Setting),
    Round(i64),
    /// TheAIGames' move counter.
    MoveNumber(i64),
    /// The field's text, parsed later: its meaning depends on the dialect.
    Field(String),
    Points {
        player: String,
        value: f64,
    },
    /// `action move T`: our turn, `T` ms left in the bank (`None` when the
    /// number cannot be read).
    Move {
        bank_ms: Option<i64>,
    },
    Blank,
    Junk(String),
}

fn number(key: &str, value: &str) -> Result<i64, String> {
    value
        .parse()
        .map_err(|_| format!("{key}: cannot read {value:?} as a whole number"))
}

fn setting(key: &str, value: &str) -> Result<Setting, String> {
    Ok(match key {
        "timebank" => Setting::Timebank(number(key, value)?),
        "time_per_move" => Setting::TimePerMove(number(key, value)?),
        "player_names" => Setting::PlayerNames(
            value
                .split(',')
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty())
                .collect(),
        ),
        "your_bot" => Setting::YourBot(value.to_string()),
        "your_botid" => Setting::YourBotId(number(key, value)?),
        "field_width" => Setting::FieldWidth(number(key, value)?),
        "field_height" => Setting::FieldHeight(number(key, value)?),
        "max_rounds" => Setting::MaxRounds(number(key, value)?),
        _ => Setting::Unknown(key.to_string(), value.to_string()),
    })
}

fn update(words: &[&str]) -> Result<Line, String> {
    match words {
        ["game", "round", n] => Ok(Line::Round(number("round", n)?)),
        ["game", "move", n] => Ok(Line::MoveNumber(number("move", n)?)),
        ["game", "field", cells @ ..] if !cells.is_empty() => Ok(Line::Field(cells.concat())),
        [player, "points", v] => {
            let value: f64 = v
                .parse()
                .map_err(|_| format!("points of {player}: cannot read {v:?}"))?;
            if !value.is_finite() {
                return Err(format!("points of {player}: {v:?} is not a number"));
            }
            Ok(Line::Points {
                player: player.to_string(),
                value,
            })
        }
        _ => Err("unknown update".to_string()),
    }
}

/// Reads one line (its end of line already or not yet removed).
pub fn parse(line: &str) -> Line {
    let words: Vec<&str> = line.split_whitespace().collect();
    let parsed = match words.as_slice() {
        [] => return Line::Blank,
        ["settings", key, value @ ..] if !value.is_empty() => {
            setting(key, &value.join(" ")).map(Line::Setting)
        }
        ["update", rest @ ..] => update(rest),
        ["action", "move", rest @ ..] => Ok(Line::Move {
            bank_ms: rest.first().and_then(|t| t.parse().ok()),
        }),
        _ => Err("unknown line".to_string()),
    };
    parsed.unwrap_or_else(Line::Junk)
}

/// Reads the next line of `input` (lossy UTF-8, line end kept), retrying on
/// interruption. `Ok(None)` at end of input.
pub fn read_line(
    input: &mut impl std::io::BufRead,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<String>> {
    loop {
        buf.clear();
        match input.read_until(b'\n', buf) {
            Ok(0) => return Ok(None),
            Ok(_) => return Ok(Some(String::from_utf8_lossy(buf).into_owned())),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_read() {
        assert_eq!(
            parse("settings timebank 10000\n"),
            Line::Setting(Setting::Timebank(10000))
        );
        assert_eq!(
            parse("settings player_names player0,player1"),
            Line::Setting(Setting::PlayerNames(vec![
                "player0".into(),
                "player1".into()
            ]))
        );
        assert_eq!(
            parse("settings your_botid 2"),
            Line::Setting(Setting::YourBotId(2))
        );
        assert_eq!(
            parse("settings colour red"),
            Line::Setting(Setting::Unknown("colour".into(), "red".into()))
        );
        assert!(matches!(parse("settings timebank lots"), Line::Junk(_)));
        assert!(matches!(parse("settings timebank"), Line::Junk(_)));
    }

    #[test]
    fn updates_are_read() {
        assert_eq!(parse("update game round 7"), Line::Round(7));
        assert_eq!(parse("update game move 13"), Line::MoveNumber(13));
        assert_eq!(
            parse("update game field .,0,1,-1\r\n"),
            Line::Field(".,0,1,-1".into())
        );
        assert_eq!(
            parse("update player1 points 7.5"),
            Line::Points {
                player: "player1".into(),
                value: 7.5
            }
        );
        assert_eq!(
            parse("update player2 points 12"),
            Line::Points {
                player: "player2".into(),
                value: 12.0
            }
        );
        assert!(matches!(parse("update player2 points NaN"), Line::Junk(_)));
        assert!(matches!(parse("update game field"), Line::Junk(_)));
        assert!(matches!(parse("update game weather sunny"), Line::Junk(_)));
    }

    #[test]
    fn actions_and_junk() {
        assert_eq!(
            parse("action move 9800"),
            Line::Move {
                bank_ms: Some(9800)
            }
        );
        assert_eq!(parse("action move -3"), Line::Move { bank_ms: Some(-3) });
        assert_eq!(parse("action move"), Line::Move { bank_ms: None });
        assert_eq!(parse("action move 1e99"), Line::Move { bank_ms: None });
        assert_eq!(parse("   "), Line::Blank);
        assert!(matches!(parse("action dance 100"), Line::Junk(_)));
        assert!(matches!(parse("hello"), Line::Junk(_)));
    }
}
