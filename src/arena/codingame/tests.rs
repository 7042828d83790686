//! The referee against scripted bots: small `sh` scripts that record what
//! they are sent and answer from a list. Games that must end in play get
//! limits of 20 s, so a busy machine cannot fail them; only the tests of
//! timeouts use short ones, against bots that never answer in time. The
//! scratch folder and its bots serve `clobber`'s tests too.

use super::referee::{self, Reason, Record, Table};
use super::*;
use std::path::{Path, PathBuf};

mod clobber;

/// The scripted Atari Go bot: `sh bot.sh LOG ANSWER...` appends every line
/// it gets to LOG and answers each turn with the next ANSWER, then `PASS`.
/// `@silent` never answers, `@exit` exits, `@sleep` answers `PASS` 3 s
/// late.
const BOT: &str = r#"log=$1; shift
read -r color || exit 0
read -r size || exit 0
printf '%s\n%s\n' "$color" "$size" >> "$log"
while read -r last; do
  read -r scores
  printf '%s\n%s\n' "$last" "$scores" >> "$log"
  i=0
  while [ "$i" -lt "$size" ]; do
    read -r row
    printf '%s\n' "$row" >> "$log"
    i=$((i + 1))
  done
  answer=PASS
  if [ $# -gt 0 ]; then answer=$1; shift; fi
  case $answer in
    @silent) exec sleep 60 ;;
    @exit) exit 3 ;;
    @sleep) sleep 3; answer=PASS ;;
  esac
  printf '%s\n' "$answer"
done
"#;

/// The scripted Clobber bot, as [`BOT`] but reading Clobber's lines
/// (`boardSize`, `color`; each turn the rows, `lastAction`,
/// `actionsCount`) and answering `random` once its answers run out.
const CLOBBER_BOT: &str = r#"log=$1; shift
read -r size || exit 0
read -r color || exit 0
printf '%s\n%s\n' "$size" "$color" >> "$log"
while :; do
  i=0
  while [ "$i" -lt "$size" ]; do
    read -r row || exit 0
    printf '%s\n' "$row" >> "$log"
    i=$((i + 1))
  done
  read -r last || exit 0
  read -r count || exit 0
  printf '%s\n%s\n' "$last" "$count" >> "$log"
  answer=random
  if [ $# -gt 0 ]; then answer=$1; shift; fi
  case $answer in
    @silent) exec sleep 60 ;;
    @exit) exit 3 ;;
    @sleep) sleep 3; answer=random ;;
  esac
  printf '%s\n' "$answer"
done
"#;

/// A fresh folder with the bot script of a game, removed when the test
/// passes.
pub(super) struct Scratch {
    dir: PathBuf,
    kind: Kind,
}

impl Scratch {
    /// For Atari Go.
    pub(super) fn new(name: &str) -> Scratch {
        Scratch::for_game(name, Kind::AtariGo)
    }

    pub(super) fn for_game(name: &str, kind: Kind) -> Scratch {
        let dir = std::env::temp_dir().join(format!("tengen-cg-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let script = match kind {
            Kind::AtariGo => BOT,
            Kind::Clobber => CLOBBER_BOT,
        };
        fs::write(dir.join("bot.sh"), script).unwrap();
        Scratch { dir, kind }
    }

    /// Player `label` answering `answers`, its input logged to `LABEL.in`.
    pub(super) fn bot(&self, label: char, answers: &[&str]) -> PlayerSpec {
        let mut argv = vec![
            "sh".to_string(),
            self.dir.join("bot.sh").display().to_string(),
            self.input(label).display().to_string(),
        ];
        argv.extend(answers.iter().map(|a| a.to_string()));
        PlayerSpec {
            label,
            name: label.to_ascii_lowercase().to_string(),
            argv,
            gtp: false,
            clock: true,
        }
    }

    pub(super) fn input(&self, label: char) -> PathBuf {
        self.dir.join(format!("{label}.in"))
    }

    /// The lines player `label` was sent (none if it never started).
    pub(super) fn lines(&self, label: char) -> Vec<String> {
        fs::read_to_string(self.input(label))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// Plays game `index` between `players` with the limits in ms.
    pub(super) fn play(
        &self,
        players: [PlayerSpec; 2],
        index: usize,
        limits: (u64, u64),
    ) -> Record {
        self.play_game(self.kind.new_game(7), players, index, limits)
    }

    /// Plays `game` (set up by the test) as game `index`.
    pub(super) fn play_game(
        &self,
        game: Box<dyn Refereed>,
        players: [PlayerSpec; 2],
        index: usize,
        limits: (u64, u64),
    ) -> Record {
        let table = Table {
            kind: self.kind,
            players: &players,
            first: Duration::from_millis(limits.0),
            turn: Duration::from_millis(limits.1),
            out: &self.dir,
        };
        referee::play_game(&table, game, index, 7, &Stop::new())
            .expect("the bots start")
            .expect("not stopped")
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("files kept in {}", self.dir.display());
        } else {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

pub(super) const SLOW: (u64, u64) = (20_000, 20_000);

#[test]
fn an_illegal_move_loses() {
    let dir = Scratch::new("illegal");
    let r = dir.play([dir.bot('A', &["4 4"]), dir.bot('B', &["4 4"])], 0, SLOW);
    assert_eq!(
        (r.reason, r.fault, r.winner),
        (Reason::Illegal, Some(1), Some(0))
    );
    assert!(r.detail.contains("occupied"), "{}", r.detail);
    assert_eq!((r.turns, r.moves.clone()), (1, vec!["4 4".to_string()]));
    // the refused answer was timed too
    assert_eq!(r.times[1].answers(), 1);
}

#[test]
fn garbage_loses() {
    let dir = Scratch::new("garbage");
    // game 2: A is white
    let r = dir.play([dir.bot('A', &["hello"]), dir.bot('B', &[])], 1, SLOW);
    assert_eq!(r.seats, [1, 0]);
    assert_eq!((r.reason, r.fault_player()), (Reason::Illegal, Some(0)));
    assert_eq!(r.winner_player(), Some(1));
    assert!(r.detail.contains("unreadable"), "{}", r.detail);
}

#[test]
fn a_silent_bot_loses_by_timeout() {
    let dir = Scratch::new("silent");
    let r = dir.play(
        [dir.bot('A', &["@silent"]), dir.bot('B', &[])],
        0,
        (300, 300),
    );
    assert_eq!(
        (r.reason, r.fault, r.winner),
        (Reason::Timeout, Some(0), Some(1))
    );
    assert!(r.detail.contains("within 300 ms"), "{}", r.detail);
    assert!(r.moves.is_empty());
}

#[test]
fn a_late_later_answer_loses_by_timeout() {
    let dir = Scratch::new("late");
    let a = dir.bot('A', &["4 4", "@sleep"]);
    let r = dir.play([a, dir.bot('B', &[])], 0, (20_000, 300));
    assert_eq!((r.reason, r.fault), (Reason::Timeout, Some(0)));
    assert_eq!(r.turns, 2);
    assert!(r.detail.contains("turn 3"), "{}", r.detail);
}

#[test]
fn a_crash_loses() {
    let dir = Scratch::new("crash");
    let r = dir.play([dir.bot('A', &[]), dir.bot('B', &["@exit"])], 0, SLOW);
    assert_eq!(
        (r.reason, r.fault, r.winner),
        (Reason::Crash, Some(1), Some(0))
    );
    assert!(r.detail.contains("turn 2"), "{}", r.detail);
}

/// The turn's lines: the last stone, the scores, the rows (`marks` put on
/// an empty board: (x, y, letter)).
fn turn(last: &str, scores: &str, marks: &[(usize, usize, char)]) -> Vec<String> {
    let mut rows = vec![vec!['.'; 9]; 9];
    for &(x, y, c) in marks {
        rows[y][x] = c;
    }
    let mut lines = vec![last.to_string(), scores.to_string()];
    lines.extend(rows.into_iter().map(|r| r.into_iter().collect::<String>()));
    lines
}

#[test]
fn the_lines_sent_follow_the_protocol() {
    let dir = Scratch::new("protocol");
    // black plays the corner (whitespace around it) then passes; white
    // surrounds and takes it, and wins 80 turns later on captures
    let a = dir.bot('A', &[" 0 0 ", "PASS"]);
    let b = dir.bot('B', &["1 0", "0 1"]);
    let r = dir.play([a, b], 0, SLOW);
    assert_eq!((r.reason, r.winner, r.turns), (Reason::End, Some(1), 80));
    assert_eq!(r.moves.len(), 80);
    assert_eq!(r.moves[..5], ["0 0", "1 0", "PASS", "0 1", "PASS"]);
    assert_eq!(
        r.state,
        "black 0 captures 1 stones, white 1 captures 2 stones, 80 turns"
    );
    assert_eq!((r.times[0].answers(), r.times[1].answers()), (40, 40));

    let black: Vec<String> = fs::read_to_string(dir.input('A'))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let mut want = vec!["B".to_string(), "9".to_string()];
    want.extend(turn("-1 -1", "0 0", &[]));
    want.extend(turn("1 0", "0 0", &[(0, 0, 'B'), (1, 0, 'W')]));
    want.extend(turn("0 1", "0 1", &[(1, 0, 'W'), (0, 1, 'W')]));
    // white passes from its 3rd turn on
    want.extend(turn("-1 -1", "0 1", &[(1, 0, 'W'), (0, 1, 'W')]));
    assert_eq!(black.len(), 2 + 40 * 11);
    assert_eq!(black[..want.len()], want[..]);

    let white: Vec<String> = fs::read_to_string(dir.input('B'))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let mut want = vec!["W".to_string(), "9".to_string()];
    want.extend(turn("0 0", "0 0", &[(0, 0, 'B')]));
    want.extend(turn("-1 -1", "0 0", &[(0, 0, 'B'), (1, 0, 'W')]));
    want.extend(turn("-1 -1", "1 0", &[(1, 0, 'W'), (0, 1, 'W')]));
    assert_eq!(white.len(), 2 + 40 * 11);
    assert_eq!(white[..want.len()], want[..]);
}

#[test]
fn passing_bots_draw() {
    let dir = Scratch::new("draw");
    let r = dir.play([dir.bot('A', &[]), dir.bot('B', &[])], 0, SLOW);
    assert_eq!((r.reason, r.winner, r.turns), (Reason::End, None, 80));
    assert!(r.moves.iter().all(|m| m == "PASS"));
}

#[test]
fn a_match_writes_its_games_and_summary() {
    let dir = Scratch::new("match");
    let out = dir.join("out");
    // A plays one stone and passes: it wins both games on stones played
    let cfg = Config {
        kind: Kind::AtariGo,
        command: ["tengen", "arena", "--game", "atari-go"]
            .map(String::from)
            .to_vec(),
        players: [dir.bot('A', &["4 4"]), dir.bot('B', &[])],
        games: 2,
        jobs: 2,
        seed: 100,
        out: out.clone(),
        first_ms: 20_000,
        turn_ms: 20_000,
    };
    run(&cfg).unwrap();
    let games = fs::read_to_string(out.join("games.jsonl")).unwrap();
    let mut lines: Vec<&str> = games.lines().collect();
    // the match's line first, then the games
    let facts = lines.remove(0);
    for part in [
        "{\"match\":{\"game\":\"atari-go\",\"command\":[\"tengen\",\"arena\",\"--game\",\"atari-go\"],",
        "\"seed\":100,",
        "\"settings\":{\"first_ms\":20000,\"turn_ms\":20000}",
    ] {
        assert!(facts.contains(part), "{part} not in {facts}");
    }
    lines.sort_by_key(|l| l.starts_with("{\"game\":2,"));
    assert_eq!(lines.len(), 2);
    for (i, line) in lines.iter().enumerate() {
        for part in [
            format!(
                "{{\"game\":{},\"kind\":\"atari-go\",\"seed\":{},",
                i + 1,
                100 + i
            ),
            "\"winner\":\"a\",\"winner_player\":\"A\"".to_string(),
            "\"reason\":\"end\",\"fault\":null".to_string(),
            "\"turns\":80".to_string(),
            "\"stones\":{\"black\":".to_string(),
            "\"answers\":40,\"first_ms\":".to_string(),
        ] {
            assert!(line.contains(&part), "{part} not in {line}");
        }
    }
    assert!(lines[0].contains("\"black\":\"a\",\"white\":\"b\""));
    assert!(lines[0].contains("\"moves\":[\"4 4\",\"PASS\","));
    assert!(lines[1].contains("\"black\":\"b\",\"white\":\"a\""));
    assert!(lines[1].contains("\"moves\":[\"PASS\",\"4 4\","));
    let summary = fs::read_to_string(out.join("summary.txt")).unwrap();
    for part in [
        "a (A): 2 wins (1 as black, 1 as white)",
        "b (B): 0 wins",
        "draws: 0",
        "score of a: 100.0 % over 2 games (95 % CI 34.2 % - 100.0 %, Wilson)",
        "faults: a timeout 0, illegal 0, crash 0; b timeout 0, illegal 0, crash 0",
        "slowest first answer",
    ] {
        assert!(summary.contains(part), "{part} not in {summary}");
    }
    assert!(out.join("game-0002-B.log").exists());
    // the folder is taken now
    assert!(matches!(run(&cfg), Err(Failure::Taken(_))));
}

#[test]
fn a_gtp_player_is_refused() {
    let dir = Scratch::new("gtp");
    let mut gtp = dir.bot('B', &[]);
    gtp.gtp = true;
    let cfg = Config {
        kind: Kind::AtariGo,
        command: Vec::new(),
        players: [dir.bot('A', &[]), gtp],
        games: 1,
        jobs: 1,
        seed: 1,
        out: dir.join("out"),
        first_ms: 1000,
        turn_ms: 100,
    };
    match run(&cfg) {
        Err(Failure::Io(m)) => assert!(m.contains("gtp"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_silent_clobber_bot_loses_by_timeout() {
    let dir = Scratch::for_game("clobber-silent", Kind::Clobber);
    // game 2: A is black, B (white) moves first and is silent
    let r = dir.play(
        [dir.bot('A', &[]), dir.bot('B', &["@silent"])],
        1,
        (300, 300),
    );
    assert_eq!(r.seat_names, ["white", "black"]);
    assert_eq!(
        (r.reason, r.fault_player(), r.winner_player()),
        (Reason::Timeout, Some(1), Some(0))
    );
    assert!(
        r.detail
            .starts_with("white (b) gave no answer at turn 1 within 300 ms"),
        "{}",
        r.detail
    );
    // black never had a turn: its bot was never started
    assert!(!dir.input('A').exists());
}

#[test]
fn a_late_later_clobber_answer_loses_by_timeout() {
    let dir = Scratch::for_game("clobber-late", Kind::Clobber);
    let r = dir.play(
        [dir.bot('A', &["random", "@sleep"]), dir.bot('B', &[])],
        0,
        (20_000, 300),
    );
    assert_eq!(
        (r.reason, r.fault, r.winner),
        (Reason::Timeout, Some(0), Some(1))
    );
    assert_eq!(r.turns, 2);
    assert!(r.detail.contains("turn 3"), "{}", r.detail);
}

#[test]
fn a_clobber_match_writes_its_games_and_summary() {
    let dir = Scratch::for_game("clobber-match", Kind::Clobber);
    let out = dir.join("out");
    // both bots answer `random`: the referee picks every move
    let cfg = Config {
        kind: Kind::Clobber,
        command: Vec::new(),
        players: [dir.bot('A', &[]), dir.bot('B', &[])],
        games: 2,
        jobs: 2,
        seed: 40,
        out: out.clone(),
        first_ms: 20_000,
        turn_ms: 20_000,
    };
    run(&cfg).unwrap();
    let games = fs::read_to_string(out.join("games.jsonl")).unwrap();
    let mut lines: Vec<&str> = games.lines().collect();
    assert!(lines
        .remove(0)
        .starts_with("{\"match\":{\"game\":\"clobber\","));
    lines.sort_by_key(|l| l.starts_with("{\"game\":2,"));
    assert_eq!(lines.len(), 2);
    for (i, line) in lines.iter().enumerate() {
        for part in [
            format!(
                "{{\"game\":{},\"kind\":\"clobber\",\"seed\":{},",
                i + 1,
                40 + i
            ),
            "\"reason\":\"end\",\"fault\":null".to_string(),
            "\"stones\":{\"white\":".to_string(),
            "\"board\":[\"".to_string(),
            "\"white_times\":{\"answers\":".to_string(),
        ] {
            assert!(line.contains(&part), "{part} not in {line}");
        }
    }
    assert!(lines[0].contains("\"white\":\"a\",\"black\":\"b\",\"white_player\":\"A\""));
    assert!(lines[1].contains("\"white\":\"b\",\"black\":\"a\",\"white_player\":\"B\""));
    let summary = fs::read_to_string(out.join("summary.txt")).unwrap();
    for part in [
        "match: clobber, a (A) vs b (B), 2 of 2 games, first answer 20000 ms",
        " as white, ",
        "draws: 0",
        "ended by: end 2",
        "faults: a timeout 0, illegal 0, crash 0; b timeout 0, illegal 0, crash 0",
    ] {
        assert!(summary.contains(part), "{part} not in {summary}");
    }
}
