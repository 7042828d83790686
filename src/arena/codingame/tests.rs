//! The referee against scripted bots: small `sh` scripts that record what
//! they are sent and answer from a list. The game is the toy of
//! docs/adding-a-game.md (Nim, listed in the tests only): what is tested
//! here is the referee, whatever the game. Games that must end in play
//! get limits of 20 s, so a busy machine cannot fail them; only the tests
//! of timeouts use short ones, against bots that never answer in time.

use super::referee::{self, Reason, Record, Table};
use super::*;
use crate::games::nim::referee::NimGame;
use crate::games::nim::Nim;
use crate::games::registry::Entry;
use std::path::{Path, PathBuf};

/// The scripted bot: `sh bot.sh LOG FIRST PER_TURN DEFAULT ANSWER...`
/// appends every line it gets to LOG: FIRST lines at the start, then
/// PER_TURN lines a turn, each turn answered with the next ANSWER, then
/// DEFAULT. `@silent` never answers, `@exit` exits, `@sleep` answers
/// DEFAULT 3 s late.
const BOT: &str = r#"log=$1; first=$2; per_turn=$3; default=$4; shift 4
i=0
while [ "$i" -lt "$first" ]; do
  read -r line || exit 0
  printf '%s\n' "$line" >> "$log"
  i=$((i + 1))
done
while :; do
  i=0
  while [ "$i" -lt "$per_turn" ]; do
    read -r line || exit 0
    printf '%s\n' "$line" >> "$log"
    i=$((i + 1))
  done
  answer=$default
  if [ $# -gt 0 ]; then answer=$1; shift; fi
  case $answer in
    @silent) exec sleep 60 ;;
    @exit) exit 3 ;;
    @sleep) sleep 3; answer=$default ;;
  esac
  printf '%s\n' "$answer"
done
"#;

/// The toy game, as the list of games has it.
fn nim() -> Entry {
    crate::games::entry("nim").expect("the toy is listed in the tests")
}

/// A fresh folder with the bot script, removed when the test passes.
struct Scratch {
    dir: PathBuf,
    game: Entry,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("tengen-cg-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("bot.sh"), BOT).unwrap();
        Scratch { dir, game: nim() }
    }

    /// Player `label` answering `answers`, then 1; its input logged to
    /// `LABEL.in`.
    fn bot(&self, label: char, answers: &[&str]) -> PlayerSpec {
        let game = self.game.new_game(0);
        let mut argv = vec![
            "sh".to_string(),
            self.dir.join("bot.sh").display().to_string(),
            self.input(label).display().to_string(),
            game.initial_lines(0).len().to_string(),
            game.turn_lines().len().to_string(),
            "1".to_string(),
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

    fn input(&self, label: char) -> PathBuf {
        self.dir.join(format!("{label}.in"))
    }

    /// The lines player `label` was sent (none if it never started).
    fn lines(&self, label: char) -> Vec<String> {
        fs::read_to_string(self.input(label))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// Plays game `index` between `players` with the limits in ms.
    fn play(&self, players: [PlayerSpec; 2], index: usize, limits: (u64, u64)) -> Record {
        self.play_game(self.game.new_game(7), players, index, limits)
    }

    /// Plays `game` (set up by the test) as game `index`.
    fn play_game(
        &self,
        game: Box<dyn Refereed>,
        players: [PlayerSpec; 2],
        index: usize,
        limits: (u64, u64),
    ) -> Record {
        let table = Table {
            game: self.game,
            players: &players,
            first: Duration::from_millis(limits.0),
            turn: Duration::from_millis(limits.1),
            out: &self.dir,
        };
        referee::play_game(&table, game, index, 7, &Stop::new())
            .expect("the bots start")
            .expect("not stopped")
    }

    /// A match of `games` between A and B into `out`.
    fn config(&self, players: [PlayerSpec; 2], games: usize) -> Config {
        Config {
            game: self.game,
            command: ["tengen", "arena", "--game", self.game.name]
                .map(String::from)
                .to_vec(),
            players,
            games,
            jobs: 2,
            seed: 100,
            out: self.join("out"),
            first_ms: 20_000,
            turn_ms: 20_000,
        }
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

const SLOW: (u64, u64) = (20_000, 20_000);

#[test]
fn an_illegal_move_loses() {
    let dir = Scratch::new("illegal");
    let r = dir.play([dir.bot('A', &["1"]), dir.bot('B', &["4"])], 0, SLOW);
    assert_eq!(
        (r.reason, r.fault, r.winner),
        (Reason::Illegal, Some(1), Some(0))
    );
    assert!(
        r.detail.starts_with("second (b) at turn 2: 4: take 1 to 3"),
        "{}",
        r.detail
    );
    assert_eq!((r.turns, r.moves.clone()), (1, vec!["1".to_string()]));
    // the refused answer was timed too
    assert_eq!(r.times[1].answers(), 1);
}

#[test]
fn garbage_loses() {
    let dir = Scratch::new("garbage");
    // game 2: A moves second
    let r = dir.play([dir.bot('A', &["hello"]), dir.bot('B', &[])], 1, SLOW);
    assert_eq!(r.seats, [1, 0]);
    assert_eq!((r.reason, r.fault_player()), (Reason::Illegal, Some(0)));
    assert_eq!(r.winner_player(), Some(1));
    assert!(r.detail.contains("unreadable"), "{}", r.detail);
}

#[test]
fn a_silent_bot_loses_by_timeout() {
    let dir = Scratch::new("silent");
    // game 2: B moves first and is silent
    let r = dir.play(
        [dir.bot('A', &[]), dir.bot('B', &["@silent"])],
        1,
        (300, 300),
    );
    assert_eq!(r.seat_names, ["first", "second"]);
    assert_eq!(
        (r.reason, r.fault_player(), r.winner_player()),
        (Reason::Timeout, Some(1), Some(0))
    );
    assert!(
        r.detail
            .starts_with("first (b) gave no answer at turn 1 within 300 ms"),
        "{}",
        r.detail
    );
    assert!(r.moves.is_empty());
    // A never had a turn: its bot was never started
    assert!(!dir.input('A').exists());
}

#[test]
fn a_late_later_answer_loses_by_timeout() {
    let dir = Scratch::new("late");
    let a = dir.bot('A', &["1", "@sleep"]);
    let r = dir.play([a, dir.bot('B', &[])], 0, (20_000, 300));
    assert_eq!(
        (r.reason, r.fault, r.winner),
        (Reason::Timeout, Some(0), Some(1))
    );
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

#[test]
fn the_lines_sent_follow_the_protocol() {
    let dir = Scratch::new("protocol");
    // whitespace around an answer is no fault; then both take one a turn
    let a = dir.bot('A', &["3", " 2 "]);
    let b = dir.bot('B', &["1"]);
    let r = dir.play([a, b], 0, SLOW);
    assert_eq!((r.reason, r.fault), (Reason::End, None));
    assert_eq!(r.moves[..4], ["3", "1", "2", "1"]);
    // every move recorded was legal, and the game ended as recorded
    let mut replay = Nim::new(21);
    for m in &r.moves {
        replay.play(m.parse().unwrap()).unwrap();
    }
    assert!(replay.is_over());
    assert_eq!(r.winner, Some(1 - replay.to_move()));
    assert_eq!(r.turns as usize, r.moves.len());
    assert_eq!(r.state, format!("0 stones left, {} turns", r.turns));
    // the loser was not asked on the turn it had no move
    let answers = [r.times[0].answers(), r.times[1].answers()];
    assert_eq!(answers[0] + answers[1], r.moves.len());

    // the first lines once, then each turn's
    let first = dir.lines('A');
    assert_eq!(first.len(), 1 + 2 * answers[0]);
    assert_eq!(first[..7], ["21 3", "21", "0", "17", "1", "14", "1"]);
    let second = dir.lines('B');
    assert_eq!(second.len(), 1 + 2 * answers[1]);
    assert_eq!(second[..5], ["21 3", "18", "3", "15", "2"]);
}

#[test]
fn the_referee_ends_the_game_of_a_player_without_a_move() {
    let dir = Scratch::new("nomove");
    let game = Box::new(NimGame::from_pile(1));
    let r = dir.play_game(game, [dir.bot('A', &[]), dir.bot('B', &[])], 0, SLOW);
    assert_eq!((r.reason, r.winner, r.turns), (Reason::End, Some(0), 1));
    assert_eq!(r.detail, "first (a) won");
    assert_eq!(r.moves, ["1"]);
    // B, without a move from its first turn, was never started
    assert_eq!(r.times[1].answers(), 0);
    assert!(dir.lines('B').is_empty());
}

#[test]
fn the_referee_draws_at_the_turn_limit() {
    let dir = Scratch::new("limit");
    let game = Box::new(NimGame::new().with_limit(5));
    let r = dir.play_game(game, [dir.bot('A', &[]), dir.bot('B', &[])], 0, SLOW);
    assert_eq!((r.reason, r.winner, r.fault), (Reason::Limit, None, None));
    assert_eq!(r.turns, 5);
    assert_eq!(r.detail, "draw at the turn limit (5 turns)");
}

#[test]
fn a_match_writes_its_games_and_summary() {
    let dir = Scratch::new("match");
    // both take one stone a turn: the first to move takes the 21st
    let cfg = dir.config([dir.bot('A', &[]), dir.bot('B', &[])], 2);
    run(&cfg).unwrap();
    let out = &cfg.out;
    let games = fs::read_to_string(out.join("games.jsonl")).unwrap();
    let mut lines: Vec<&str> = games.lines().collect();
    // the match's line first, then the games
    let facts = lines.remove(0);
    for part in [
        "{\"match\":{\"game\":\"nim\",\"command\":[\"tengen\",\"arena\",\"--game\",\"nim\"],",
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
                "{{\"game\":{},\"kind\":\"nim\",\"seed\":{},",
                i + 1,
                100 + i
            ),
            "\"winner_seat\":\"first\",\"reason\":\"end\",\"fault\":null".to_string(),
            "\"turns\":21,\"left\":0,\"moves\":[\"1\",".to_string(),
            "\"first_times\":{\"answers\":11,\"first_ms\":".to_string(),
        ] {
            assert!(line.contains(&part), "{part} not in {line}");
        }
    }
    assert!(lines[0].contains("\"first\":\"a\",\"second\":\"b\""));
    assert!(lines[0].contains("\"winner\":\"a\",\"winner_player\":\"A\""));
    assert!(lines[1].contains("\"first\":\"b\",\"second\":\"a\""));
    assert!(lines[1].contains("\"winner\":\"b\",\"winner_player\":\"B\""));
    let summary = fs::read_to_string(out.join("summary.txt")).unwrap();
    for part in [
        "match: nim, a (A) vs b (B), 2 of 2 games, first answer 20000 ms",
        "a (A): 1 wins (1 as first, 0 as second)",
        "b (B): 1 wins (1 as first, 0 as second)",
        "draws: 0",
        "score of a: 50.0 % over 2 games",
        "ended by: end 2",
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
    let cfg = dir.config([dir.bot('A', &[]), gtp], 1);
    match run(&cfg) {
        Err(Failure::Io(m)) => assert!(m.contains("gtp"), "{m}"),
        other => panic!("{other:?}"),
    }
}
