//! The arena bot through the real binary: transcripts in both dialects, with
//! a referee that replays every answer and writes the engine's lines.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};
use tengen::go::{Board, Color, Game, Move, Rules};
use tengen::protocol::field::Dialect;
use tengen::protocol::state::field_text;

/// Far more than any answer may take: only a hung bot hits it.
const PATIENCE: Duration = Duration::from_secs(20);
/// What a loaded host may add to an answer (it stops processes for
/// hundreds of ms). The bot's time logic is checked on its own plans
/// ([`plans_fit_the_banks`]); how it copes with a slow host is measured by
/// `tools/stress.sh`, not asserted here.
const HOST: Duration = Duration::from_secs(2);

struct Bot {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<String>,
    stdout: JoinHandle<()>,
    stderr: JoinHandle<String>,
}

struct Finished {
    code: Option<i32>,
    stderr: String,
    /// Anything printed after the last answer read.
    extra: Vec<String>,
}

impl Finished {
    fn warnings(&self, word: &str) -> usize {
        self.stderr.lines().filter(|l| l.contains(word)).count()
    }
}

impl Bot {
    fn start() -> Bot {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            // the plan of every turn, for `plans_fit_the_banks`
            .env("RUST_LOG", "warn,tengen::protocol::bot=info")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start tengen");
        let out = child.stdout.take().unwrap();
        let (tx, answers) = mpsc::channel();
        let stdout = thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut err = child.stderr.take().unwrap();
        let stderr = thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            s
        });
        Bot {
            stdin: child.stdin.take(),
            child,
            answers,
            stdout,
            stderr,
        }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends `action move T` and waits for the answer; returns it with the
    /// time it took.
    fn ask(&mut self, bank_ms: i64) -> (String, Duration) {
        let asked = Instant::now();
        self.send(&format!("action move {bank_ms}"));
        let answer = self
            .answers
            .recv_timeout(PATIENCE)
            .expect("the bot did not answer");
        (answer, asked.elapsed())
    }

    /// Closes stdin and waits for the exit.
    fn finish(mut self) -> Finished {
        drop(self.stdin.take());
        let end = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > end {
                let _ = self.child.kill();
                panic!("the bot did not exit at end of input");
            }
            thread::sleep(Duration::from_millis(5));
        };
        self.stdout.join().unwrap();
        let extra = self.answers.try_iter().collect();
        Finished {
            code: status.code(),
            stderr: self.stderr.join().unwrap(),
            extra,
        }
    }
}

/// A tiny deterministic generator for the opponent's choices.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// The engine's side: the true game, the lines it sends and the bank.
struct Referee {
    game: Game,
    dialect: Dialect,
    bot: Color,
    round: usize,
    plies: usize,
    bank_ms: i64,
    timebank_ms: i64,
    per_move_ms: i64,
    rng: Lcg,
}

impl Referee {
    fn new(size: usize, dialect: Dialect, bot: Color) -> Referee {
        Referee::from_board(Board::new(size, size), dialect, bot)
    }

    /// On Riddles.io the referee's rules (1.0.2's: this referee sends no
    /// `-1` marks), which the bot reads from the dialect.
    fn from_board(board: Board, dialect: Dialect, bot: Color) -> Referee {
        let rules = match dialect {
            Dialect::Riddles => Rules::Riddles102,
            Dialect::TheAiGames => Rules::Standard,
        };
        Referee {
            game: Game::from_board(board, 7.5).with_rules(rules),
            dialect,
            bot,
            round: 1,
            plies: 0,
            bank_ms: 500,
            timebank_ms: 500,
            per_move_ms: 50,
            rng: Lcg(7),
        }
    }

    fn ids(&self) -> [u8; 2] {
        match self.dialect {
            Dialect::TheAiGames => [1, 2],
            Dialect::Riddles => [0, 1],
        }
    }

    fn name(&self, c: Color) -> String {
        format!("player{}", self.ids()[c.index()])
    }

    /// The settings, in a scrambled order, with a key nobody knows.
    fn settings(&self) -> Vec<String> {
        let b = self.game.board();
        let [black, white] = [Color::Black, Color::White].map(|c| self.name(c));
        vec![
            format!("settings field_height {}", b.height()),
            format!("settings your_botid {}", self.ids()[self.bot.index()]),
            "settings max_rounds 250".into(),
            format!("settings time_per_move {}", self.per_move_ms),
            "settings favourite_colour mauve".into(),
            format!("settings player_names {black},{white}"),
            format!("settings timebank {}", self.timebank_ms),
            format!("settings your_bot {}", self.name(self.bot)),
            format!("settings field_width {}", b.width()),
        ]
    }

    fn field(&self) -> String {
        format!(
            "update game field {}",
            field_text(self.game.board(), self.dialect)
        )
    }

    /// The lines that come before `action move`.
    fn update(&self) -> Vec<String> {
        let score = self.game.board().area_score(7.5);
        let mut out = vec![format!("update game round {}", self.round)];
        if self.dialect == Dialect::TheAiGames {
            out.push(format!("update game move {}", self.plies + 1));
        }
        out.push(self.field());
        out.push(format!(
            "update {} points {}",
            self.name(Color::Black),
            score.black
        ));
        out.push(format!(
            "update {} points {}",
            self.name(Color::White),
            score.white as f32 + 7.5
        ));
        out
    }

    fn play(&mut self, mv: Move) {
        let c = self.game.to_move();
        self.game.play(mv).expect("legal");
        self.plies += 1;
        if c == Color::White {
            self.round += 1;
        }
    }

    /// Asks the bot for a move, checks it is legal and plays it.
    fn bot_turn(&mut self, bot: &mut Bot) -> Move {
        for l in self.update() {
            bot.send(&l);
        }
        let (answer, took) = bot.ask(self.bank_ms);
        let mv = self.read(&answer);
        let bank = Duration::from_millis(self.bank_ms as u64);
        assert!(
            took < bank + HOST,
            "{answer} took {took:?} with a bank of {bank:?}"
        );
        // a stall of the host is not charged: the next plans stay those of
        // a quiet host
        let spent = (took.as_millis() as i64).min(self.bank_ms - 1);
        self.bank_ms = (self.bank_ms - spent + self.per_move_ms).min(self.timebank_ms);
        self.play(mv);
        mv
    }

    /// Reads an answer; fails the test unless it is a legal move.
    fn read(&self, answer: &str) -> Move {
        let b = self.game.board();
        let mv = match answer.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["pass"] => Move::Pass,
            ["place_move", x, y] => {
                let (x, y): (i64, i64) = (x.parse().unwrap(), y.parse().unwrap());
                Move::Play(b.try_point(x, y).expect("on the board"))
            }
            _ => panic!("unreadable answer {answer:?}"),
        };
        assert!(
            self.game.is_legal(mv),
            "illegal answer {answer:?} on\n{:?}",
            b
        );
        mv
    }

    /// The opponent: a capture if there is one, else any sensible point.
    fn opponent_move(&mut self, pass: bool) -> Move {
        self.opponent_move_except(pass, None)
    }

    /// As `opponent_move` (a capture if there is one, else any sensible
    /// point), never playing `except`.
    fn opponent_move_except(&mut self, pass: bool, except: Option<Move>) -> Move {
        let b = self.game.board();
        let c = b.to_move();
        let moves: Vec<_> = self
            .game
            .legal_moves()
            .into_iter()
            .filter(|&m| Some(m) != except)
            .filter_map(Move::point)
            .filter(|&p| !b.is_eye(c, p))
            .collect();
        let captures: Vec<_> = moves
            .iter()
            .copied()
            .filter(|&p| b.captures_at(c, p))
            .collect();
        let mv = if pass || moves.is_empty() {
            Move::Pass
        } else if !captures.is_empty() {
            Move::Play(captures[self.rng.below(captures.len())])
        } else {
            Move::Play(moves[self.rng.below(moves.len())])
        };
        self.play(mv);
        mv
    }

    /// Plays up to `turns` turns of each, or until the game ends by its
    /// rules (under Riddles.io's, a ko retake or a second own pass); the
    /// opponent passes when `passes(turn)` says so.
    fn play_out(&mut self, bot: &mut Bot, turns: usize, passes: impl Fn(usize) -> bool) {
        for t in 0..turns {
            if self.game.to_move() != self.bot {
                self.opponent_move(passes(t));
            }
            if self.game.is_over() {
                return;
            }
            self.bot_turn(bot);
            if self.game.is_over() {
                return;
            }
        }
    }
}

fn start(referee: &Referee) -> Bot {
    let mut bot = Bot::start();
    for s in referee.settings() {
        bot.send(&s);
    }
    bot
}

fn clean_exit(bot: Bot) -> Finished {
    let f = bot.finish();
    assert_eq!(f.code, Some(0), "stderr:\n{}", f.stderr);
    assert!(f.extra.is_empty(), "unexpected output {:?}", f.extra);
    plans_fit_the_banks(&f.stderr);
    f
}

/// A duration as `{:?}` prints it: `0ns`, `500µs`, `12.5ms`, `1.2s`.
fn debug_duration(text: &str) -> Duration {
    let split = text.find(|c: char| c.is_alphabetic()).expect("a unit");
    let (n, unit) = text.split_at(split);
    let n: f64 = n.parse().unwrap_or_else(|_| panic!("a duration: {text}"));
    let scale = match unit {
        "ns" => 1e-9,
        "µs" => 1e-6,
        "ms" => 1e-3,
        "s" => 1.0,
        _ => panic!("unit of {text}"),
    };
    Duration::from_secs_f64(n * scale)
}

/// Every plan the bot logged answers by its hard deadline within the bank
/// it was given, keeping back at least the margin: the time logic, whatever
/// the host's speed. Returns how many plans it read.
fn plans_fit_the_banks(stderr: &str) -> usize {
    let mut plans = 0;
    for line in stderr.lines().filter(|l| l.contains("to move, bank Some(")) {
        let field = |from: &str, to: &str| {
            let at = line.find(from).expect(from) + from.len();
            let len = line[at..].find(to).expect(to);
            line[at..at + len].to_string()
        };
        let bank: i64 = field("bank Some(", ")").parse().unwrap();
        let hard = debug_duration(&field("hard: ", " }"));
        if bank > 0 {
            let bank = Duration::from_millis(bank as u64).min(Duration::from_millis(10_000));
            assert!(
                hard + Duration::from_millis(50) <= bank || hard.is_zero(),
                "{line}"
            );
        }
        plans += 1;
    }
    plans
}

#[test]
fn riddles_game_as_black() {
    let mut r = Referee::new(19, Dialect::Riddles, Color::Black);
    let mut bot = start(&r);
    r.play_out(&mut bot, 25, |_| false);
    let f = clean_exit(bot);
    assert_eq!(f.warnings("resync"), 0, "{}", f.stderr);
    assert!(plans_fit_the_banks(&f.stderr) >= 25, "{}", f.stderr);
}

#[test]
fn theaigames_game_as_white() {
    let mut r = Referee::new(9, Dialect::TheAiGames, Color::White);
    let mut bot = start(&r);
    r.play_out(&mut bot, 30, |_| false);
    let f = clean_exit(bot);
    assert_eq!(f.warnings("resync"), 0, "{}", f.stderr);
}

#[test]
fn small_board_games_follow_passes_and_captures() {
    // on 5x5 stones get captured both ways and kos come up
    for (dialect, bot_color) in [
        (Dialect::Riddles, Color::White),
        (Dialect::TheAiGames, Color::Black),
    ] {
        let mut r = Referee::new(5, dialect, bot_color);
        let mut bot = start(&r);
        r.play_out(&mut bot, 40, |t| t % 7 == 3);
        let passes = r.game.moves().iter().filter(|(_, m)| m.is_pass()).count();
        assert!(passes >= 5 || r.game.is_over(), "{passes} passes");
        let f = clean_exit(bot);
        assert_eq!(f.warnings("resync"), 0, "{}", f.stderr);
    }
}

/// Black (the bot) has one legal move, which captures; then white takes the
/// whole black group.
#[test]
fn we_capture_then_lose_a_group() {
    let board = Board::from_ascii(
        "O O O O O
         O . O . O
         O O O O O
         X X X X X
         X X X . O",
    )
    .unwrap();
    let mut r = Referee::from_board(board, Dialect::Riddles, Color::Black);
    let mut bot = start(&r);
    let ours = r.bot_turn(&mut bot);
    assert_eq!(ours, Move::Play(r.game.board().point(3, 4)));
    assert_eq!(r.game.board().captures_by(Color::Black), 1);
    let theirs = r.opponent_move(false);
    assert_eq!(theirs, Move::Play(r.game.board().point(4, 4)));
    assert_eq!(r.game.board().captures_by(Color::White), 9);
    r.bot_turn(&mut bot);
    r.play_out(&mut bot, 5, |_| false);
    let f = clean_exit(bot);
    // the set-up position itself is taken as a resync; nothing after it
    assert_eq!(f.warnings("resync"), 1, "{}", f.stderr);
}

#[test]
fn a_refused_answer_resyncs() {
    let mut r = Referee::new(9, Dialect::Riddles, Color::Black);
    let mut bot = start(&r);
    r.play_out(&mut bot, 4, |_| false);
    // asked again out of turn: the engine throws our answer away, both
    // sides move, and the field no longer fits our board
    for l in r.update() {
        bot.send(&l);
    }
    let (answer, _) = bot.ask(r.bank_ms);
    let thrown = r.read(&answer);
    r.play(Move::Pass);
    // not on the thrown point: there the field would agree with us
    r.opponent_move_except(false, Some(thrown));
    r.play_out(&mut bot, 6, |_| false);
    let f = clean_exit(bot);
    assert_eq!(f.warnings("resync"), 1, "{}", f.stderr);
}

#[test]
fn a_field_in_the_other_dialect_is_followed() {
    let mut r = Referee::new(9, Dialect::Riddles, Color::White);
    let mut bot = start(&r);
    r.play_out(&mut bot, 3, |_| false);
    r.dialect = Dialect::TheAiGames;
    // the names in the points lines change too; nothing else must
    r.play_out(&mut bot, 3, |_| false);
    let f = clean_exit(bot);
    assert_eq!(f.warnings("resync"), 0, "{}", f.stderr);
}

#[test]
fn junk_is_logged_and_ignored() {
    let mut r = Referee::new(9, Dialect::Riddles, Color::Black);
    let mut bot = start(&r);
    for junk in [
        "hello there",
        "",
        "   \t ",
        "update game field",
        "update game field 0,1,2,x",
        "update game field .,.,.",
        "update game weather sunny",
        "update player0 points lots",
        "settings timebank soon",
        "settings field_width 400",
        "action dance 100",
        "place_move 3 3",
    ] {
        bot.send(junk);
    }
    bot.send_bytes(b"\xff\xfe garbage \x00\x01\n");
    bot.send(&"x".repeat(100_000));
    r.play_out(&mut bot, 3, |_| false);
    let f = clean_exit(bot);
    assert!(f.warnings("WARN") >= 10, "{}", f.stderr);
    assert_eq!(f.warnings("resync"), 0, "{}", f.stderr);
}

#[test]
fn a_field_of_the_wrong_length_is_ignored() {
    let mut r = Referee::new(9, Dialect::Riddles, Color::Black);
    let mut bot = start(&r);
    r.play_out(&mut bot, 2, |_| false);
    r.opponent_move(false);
    let mut lines = r.update();
    lines.push(format!("update game field {}", vec!["."; 80].join(",")));
    for l in lines {
        bot.send(&l);
    }
    let (answer, _) = bot.ask(r.bank_ms);
    let mv = r.read(&answer);
    r.play(mv);
    let f = clean_exit(bot);
    assert!(f.warnings("ignoring field") >= 1, "{}", f.stderr);
}

#[test]
fn asked_before_anything_it_answers_on_an_empty_board() {
    let mut bot = Bot::start();
    let (answer, _) = bot.ask(1000);
    let r = Referee::new(19, Dialect::Riddles, Color::Black);
    r.read(&answer);
    clean_exit(bot);
}

#[test]
fn tiny_and_absurd_banks_are_answered_at_once() {
    let mut r = Referee::new(19, Dialect::Riddles, Color::Black);
    let mut bot = start(&r);
    for bank in [30, 0, -500, 99_999_999_999_999] {
        for l in r.update() {
            bot.send(&l);
        }
        let (answer, took) = bot.ask(bank);
        let mv = r.read(&answer);
        if bank < 100 {
            assert!(took < Duration::from_secs(2), "{took:?} with {bank} ms");
        }
        r.play(mv);
        r.opponent_move(false);
    }
    for l in r.update() {
        bot.send(&l);
    }
    bot.send("action move banana");
    let answer = bot.answers.recv_timeout(PATIENCE).unwrap();
    r.read(&answer);
    clean_exit(bot);
}

#[test]
fn end_of_input_anywhere_exits_cleanly() {
    // before anything
    clean_exit(Bot::start());
    // after the settings
    let r = Referee::new(19, Dialect::TheAiGames, Color::White);
    clean_exit(start(&r));
    // in the middle of a line
    let mut bot = start(&r);
    bot.send_bytes(b"update game fi");
    clean_exit(bot);
    // right after a request, the answer not read yet
    let mut bot = start(&r);
    bot.send("action move 200");
    let f = bot.finish();
    assert_eq!(f.code, Some(0));
    assert_eq!(f.extra.len(), 1);
}

/// Marks are the 1.0.3 referee's rule, not hints: a field marking empty
/// points that have empty neighbours contradicts it. The bot logs the
/// resync and still answers a legal move on the board as it reads it.
#[test]
fn marks_that_contradict_the_board_are_logged_and_survived() {
    let r = Referee::new(5, Dialect::Riddles, Color::Black);
    let mut bot = start(&r);
    let cells: Vec<&str> = (0..25)
        .map(|i| if i == 3 * 5 + 2 { "." } else { "-1" })
        .collect();
    bot.send("update game round 1");
    bot.send(&format!("update game field {}", cells.join(",")));
    let (answer, _) = bot.ask(500);
    let xy: Vec<usize> = answer
        .strip_prefix("place_move ")
        .unwrap_or_else(|| panic!("{answer}"))
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(xy[0] < 5 && xy[1] < 5, "{answer}");
    let f = clean_exit(bot);
    assert_eq!(f.warnings("resync"), 1, "{}", f.stderr);
}
