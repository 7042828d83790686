//! What a match is made of, as the command line gives it: a player (a
//! program with its arguments, run without a shell, speaking the arena
//! protocol or, prefix `gtp:`, GTP), the rules and clock of its games,
//! and where each game's logs go.

use crate::go::Rules;
use crate::protocol::field::Dialect;
use std::path::Path;

/// The rules and clock of every game of a match.
#[derive(Clone, Debug)]
pub struct GameConfig {
    pub size: usize,
    pub komi: f32,
    /// The game stops when the round counter reaches this.
    pub max_rounds: u32,
    /// The game is cut, without a result, when the round counter reaches
    /// this (the players still play for `max_rounds`).
    pub stop_after: Option<u32>,
    /// The maximum (and initial) bank, in ms.
    pub bank_ms: u64,
    /// Added to the bank at each request, in ms.
    pub per_move_ms: u64,
    pub dialect: Dialect,
    /// Legality, endings and the winner.
    pub rules: Rules,
    /// An illegal or unreadable answer is a pass rather than a loss
    /// (standard rules; the Riddles.io referee takes the turn away).
    pub illegal_pass: bool,
    /// Timeouts in a game that lose it.
    pub max_timeouts: u32,
    /// Longest wait for an unclocked player's answer, in ms.
    pub hang_ms: u64,
}

/// The stderr log of a player in a game, inside the output folder.
pub fn log_name(index: usize, label: char) -> String {
    format!("game-{:04}-{label}.log", index + 1)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    /// `A` or `B`: the player's place on the command line.
    pub label: char,
    pub name: String,
    pub argv: Vec<String>,
    /// Driven through the GTP adapter rather than the arena protocol.
    pub gtp: bool,
    /// Whether the referee enforces the timebank on this player.
    pub clock: bool,
}

impl PlayerSpec {
    /// Parses `[gtp:]PROGRAM ARGS...`. The clock is on for arena players
    /// and off for GTP engines until an option says otherwise.
    pub fn parse(text: &str, label: char) -> Result<PlayerSpec, String> {
        let (gtp, command) = match text.trim_start().strip_prefix("gtp:") {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let argv = split_command(command)?;
        if argv.is_empty() {
            return Err(format!("player {label}: empty command"));
        }
        Ok(PlayerSpec {
            label,
            name: default_name(&argv),
            argv,
            gtp,
            clock: !gtp,
        })
    }
}

/// The program's file name; for an interpreter (`python3 bot.py`), the
/// script's.
fn default_name(argv: &[String]) -> String {
    let base = |s: &str| {
        Path::new(s)
            .file_name()
            .map_or_else(|| s.to_string(), |f| f.to_string_lossy().into_owned())
    };
    let first = base(&argv[0]);
    let interpreters = [
        "python", "python3", "sh", "bash", "node", "java", "ruby", "perl",
    ];
    match argv.get(1) {
        Some(script) if interpreters.contains(&first.as_str()) && !script.starts_with('-') => {
            base(script)
        }
        _ => first,
    }
}

/// Splits a command line on whitespace. Single quotes keep everything
/// literally; double quotes keep whitespace and honour `\"` and `\\`; a
/// backslash outside quotes escapes the next character. No variables, globs
/// or pipes: the program is run directly.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated ' in {text:?}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unterminated \" in {text:?}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated \" in {text:?}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("trailing \\ in {text:?}")),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_with_quotes() {
        let w = split_command(r#"bot --name 'two words' "a \"b\"" c\ d  ''"#).unwrap();
        assert_eq!(w, ["bot", "--name", "two words", "a \"b\"", "c d", ""]);
        assert!(split_command("bot 'open").is_err());
        assert!(split_command("").unwrap().is_empty());
    }

    #[test]
    fn gtp_prefix_names_and_clock() {
        let p = PlayerSpec::parse("gtp:/usr/games/gnugo --mode gtp", 'B').unwrap();
        assert!(p.gtp && !p.clock);
        assert_eq!(p.name, "gnugo");
        assert_eq!(p.argv, ["/usr/games/gnugo", "--mode", "gtp"]);
        let p = PlayerSpec::parse("python3 tests/bots/script.py --walk", 'A').unwrap();
        assert!(!p.gtp && p.clock);
        assert_eq!(p.name, "script.py");
        assert!(PlayerSpec::parse("gtp:  ", 'A').is_err());
    }
}
