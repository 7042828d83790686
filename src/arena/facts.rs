//! What makes a match's records checkable. Written once, as the first line
//! of its games.jsonl (`{"match":{...}}`, before any game's line): how the
//! match was run (the arena's command line, its folder, the cores it could
//! use, when), which tengen ran it (version and commit), each player's
//! command line and the settings every game follows. Each Go game's line
//! adds what its engines said of themselves ([`Engine`]). Readers of
//! games.jsonl skip the line that has a `match` key.

use super::json::{object, string};
use super::spec::PlayerSpec;
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The facts of a match that every game shares.
pub struct Match<'a> {
    /// `go`, or the name of a listed CodinGame game.
    pub game: &'a str,
    /// The arena's own command line, program name first.
    pub command: &'a [String],
    pub players: &'a [PlayerSpec; 2],
    pub games: usize,
    pub jobs: usize,
    pub seed: u64,
    pub out: &'a Path,
    /// The rules and limits of every game, as JSON values.
    pub settings: Vec<(&'a str, String)>,
}

/// A JSON array of strings.
pub fn strings(words: &[String]) -> String {
    let items: Vec<String> = words.iter().map(|w| string(w)).collect();
    format!("[{}]", items.join(","))
}

/// The first line of games.jsonl (no newline).
pub fn match_line(m: &Match, started: &str) -> String {
    let cwd = std::env::current_dir().map_or_else(|_| "null".to_string(), |d| path(&d));
    // under taskset, or a cgroup's quota, this is what the match had
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let player = |p: &PlayerSpec| {
        object(&[
            ("name", string(&p.name)),
            ("command", strings(&p.argv)),
            ("gtp", p.gtp.to_string()),
        ])
    };
    let facts = object(&[
        ("game", string(m.game)),
        ("command", strings(m.command)),
        ("cwd", cwd),
        ("cpus", cpus.to_string()),
        ("started", string(started)),
        ("tengen_version", string(env!("CARGO_PKG_VERSION"))),
        ("tengen_commit", string(crate::protocol::version::commit())),
        ("games", m.games.to_string()),
        ("jobs", m.jobs.to_string()),
        ("seed", m.seed.to_string()),
        ("out", path(m.out)),
        (
            "players",
            object(&[("A", player(&m.players[0])), ("B", player(&m.players[1]))]),
        ),
        ("settings", object(&m.settings)),
    ]);
    object(&[("match", facts)])
}

fn path(p: &Path) -> String {
    string(&p.to_string_lossy())
}

/// Whether a games.jsonl line is the match's (not a game's).
pub fn is_match_line(line: &str) -> bool {
    line.trim_start().starts_with("{\"match\":")
}

/// What an engine said of itself in a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Engine {
    /// A GTP engine's answers to `name` and `version` (`None`: refused).
    pub gtp: Option<(Option<String>, Option<String>)>,
    /// An arena bot's first line on stderr (tengen's names its build).
    pub stderr: Option<String>,
}

/// The longest text kept from an engine: enough for a name and a version.
const MAX_TEXT: usize = 200;

/// `text` cut to [`MAX_TEXT`] characters.
pub fn short(text: &str) -> String {
    text.trim().chars().take(MAX_TEXT).collect()
}

impl Engine {
    pub fn json(&self) -> String {
        let opt = |v: &Option<String>| v.as_deref().map_or_else(|| "null".to_string(), string);
        match &self.gtp {
            Some((name, version)) => object(&[("name", opt(name)), ("version", opt(version))]),
            None => object(&[("stderr", opt(&self.stderr))]),
        }
    }
}

/// The first line of a bot's stderr log, if it wrote one that is not empty.
pub fn first_line(log: &Path) -> Option<String> {
    let mut head = Vec::new();
    File::open(log)
        .ok()?
        .take(4096)
        .read_to_end(&mut head)
        .ok()?;
    let text = String::from_utf8_lossy(&head);
    let line = short(text.lines().next()?);
    (!line.is_empty()).then_some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_match_line_carries_the_commands_and_the_commit() {
        let players = [
            PlayerSpec::parse("target/release/tengen bot --set x=1", 'A').unwrap(),
            PlayerSpec::parse("gtp:gnugo --mode gtp --level 10", 'B').unwrap(),
        ];
        let command: Vec<String> = ["tengen", "arena", "--games", "2"]
            .map(String::from)
            .to_vec();
        let m = Match {
            game: "go",
            command: &command,
            players: &players,
            games: 2,
            jobs: 1,
            seed: 9,
            out: Path::new("out dir"),
            settings: vec![("komi", "7.5".to_string())],
        };
        let line = match_line(&m, "2026-01-02T03:04:05Z");
        assert!(is_match_line(&line), "{line}");
        for part in [
            r#""command":["tengen","arena","--games","2"]"#,
            r#""A":{"name":"tengen","command":["target/release/tengen","bot","--set","x=1"],"gtp":false}"#,
            r#""B":{"name":"gnugo","command":["gnugo","--mode","gtp","--level","10"],"gtp":true}"#,
            r#""started":"2026-01-02T03:04:05Z""#,
            r#""out":"out dir""#,
            r#""settings":{"komi":7.5}"#,
            r#""tengen_commit":""#,
            r#""cpus":"#,
        ] {
            assert!(line.contains(part), "{part} not in {line}");
        }
        assert!(line.ends_with("}}"), "{line}");
        assert!(!is_match_line(r#"{"game":1}"#));
    }

    #[test]
    fn engines_say_what_they_are() {
        let gtp = Engine {
            gtp: Some((Some("GNU Go".into()), None)),
            stderr: None,
        };
        assert_eq!(gtp.json(), r#"{"name":"GNU Go","version":null}"#);
        let dir = std::env::temp_dir().join(format!("tengen-facts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("a.log");
        std::fs::write(
            &log,
            format!("  tengen 0.1.0 (abc)  \nmore\n{}", "x".repeat(5000)),
        )
        .unwrap();
        assert_eq!(first_line(&log).as_deref(), Some("tengen 0.1.0 (abc)"));
        std::fs::write(&log, "y".repeat(300)).unwrap();
        assert_eq!(first_line(&log).map(|l| l.len()), Some(MAX_TEXT));
        std::fs::write(&log, "").unwrap();
        assert_eq!(first_line(&log), None);
        assert_eq!(first_line(&dir.join("none.log")), None);
        let bot = Engine {
            gtp: None,
            stderr: Some("tengen \"x\"".into()),
        };
        assert_eq!(bot.json(), r#"{"stderr":"tengen \"x\""}"#);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
