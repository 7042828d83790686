//! `tengen gtp`: a GTP version 2 engine on stdin/stdout, for GoGui, Sabaki
//! and twogtp-style drivers. Scoring is the arena's: Tromp-Taylor area, the
//! position counted as it stands.

use super::gtp_clock::{seconds, GtpClock};
use super::thinker::Thinker;
use crate::games::go::net::Net;
use crate::games::go::Config;
use crate::go::{coord, score, Color, Game, Move, MAX_SIZE};
use crate::search::Horizon;
use std::io::Write;
use std::time::{Duration, Instant};

const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "tengen-policy",
];

pub struct Engine {
    size: usize,
    komi: f32,
    game: Game,
    clock: GtpClock,
    thinker: Thinker,
    /// The game after our last `genmove`, to ponder once the reply is out.
    after_answer: Option<Game>,
}

/// What a command answers: `= text` or `? text`.
pub type Reply = Result<String, String>;

fn color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err("syntax error".into()),
    }
}

fn number<T: std::str::FromStr>(text: Option<&&str>) -> Result<T, String> {
    text.and_then(|t| t.parse().ok())
        .ok_or_else(|| "syntax error".into())
}

impl Engine {
    pub fn new(default_move_time: Duration) -> Engine {
        Engine::with_config(default_move_time, Config::default())
    }

    /// An engine whose search runs with `config`.
    pub fn with_config(default_move_time: Duration, config: Config) -> Engine {
        Engine {
            size: 19,
            komi: 7.5,
            game: Game::new(19, 19, 7.5),
            clock: GtpClock::new(default_move_time),
            thinker: Thinker::new(config),
            after_answer: None,
        }
    }

    /// Called once a reply is written: after a `genmove`, searches on the
    /// opponent's time (if pondering is on) until the next command but
    /// `play` and `time_left`.
    pub fn answered(&mut self) {
        if let Some(game) = self.after_answer.take() {
            self.thinker.ponder(&game, Horizon { moves_left: None });
        }
    }

    /// Runs one command (its name and arguments), read at `read_at`.
    pub fn execute(&mut self, command: &str, args: &[&str], read_at: Instant) -> Reply {
        if !matches!(command, "play" | "time_left") {
            self.thinker.stop_pondering();
        }
        match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("tengen".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(args
                .first()
                .is_some_and(|c| COMMANDS.contains(c))
                .to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => Ok(String::new()),
            "boardsize" => {
                let n: usize = number(args.first())?;
                if !(2..=MAX_SIZE).contains(&n) {
                    return Err("unacceptable size".into());
                }
                self.size = n;
                self.clear();
                Ok(String::new())
            }
            "clear_board" => {
                self.clear();
                Ok(String::new())
            }
            "komi" => {
                let k: f32 = number(args.first())?;
                if !k.is_finite() {
                    return Err("syntax error".into());
                }
                self.komi = k;
                self.game.set_komi(k);
                Ok(String::new())
            }
            "play" => self.play(args),
            "genmove" => self.genmove(args, read_at, true),
            "reg_genmove" => self.genmove(args, read_at, false),
            "undo" => self.undo(),
            "showboard" => Ok(format!("\n{}", self.diagram())),
            "tengen-policy" => self.policy(args),
            "final_score" => {
                let margin = self.game.board().area_score(self.komi).margin();
                Ok(if margin == 0.0 {
                    "0".into()
                } else {
                    score::result_string(margin)
                })
            }
            "time_settings" => {
                let t = |i: usize| args.get(i).and_then(|a| seconds(a));
                let (Some(main), Some(byo)) = (t(0), t(1)) else {
                    return Err("syntax error".into());
                };
                self.clock.set(main, byo, number(args.get(2))?);
                Ok(String::new())
            }
            "time_left" => {
                color(args.first().unwrap_or(&""))?;
                let time = args.get(1).and_then(|a| seconds(a));
                let time = time.ok_or_else(|| "syntax error".to_string())?;
                self.clock.set_left(time, number(args.get(2))?);
                Ok(String::new())
            }
            _ => Err("unknown command".into()),
        }
    }

    fn clear(&mut self) {
        self.game = Game::new(self.size, self.size, self.komi);
    }

    fn play(&mut self, args: &[&str]) -> Reply {
        let [c, v] = args else {
            return Err("syntax error".into());
        };
        let c = color(c)?;
        let mv = coord::from_gtp(self.game.board(), v).ok_or("invalid coordinate")?;
        let mut next = self.game.clone();
        next.set_to_move(c);
        next.play(mv).map_err(|_| "illegal move".to_string())?;
        self.game = next;
        Ok(String::new())
    }

    fn genmove(&mut self, args: &[&str], read_at: Instant, commit: bool) -> Reply {
        let c = color(args.first().ok_or("syntax error")?)?;
        let mut game = self.game.clone();
        game.set_to_move(c);
        let b = game.board();
        let plan = self
            .clock
            .plan(b.empty_points().len(), b.area(), self.thinker.slack());
        log::info!("genmove {c}: {plan:?}");
        let horizon = Horizon { moves_left: None };
        let mv = self.thinker.choose(
            &game,
            horizon,
            read_at + plan.soft,
            read_at + plan.hard,
            &[],
        );
        let vertex = coord::to_gtp(game.board(), mv);
        if commit {
            game.play(mv)
                .map_err(|e| format!("own move refused: {e}"))?;
            self.game = game;
            self.clock.spent(read_at.elapsed());
            self.after_answer = Some(self.game.clone());
        }
        Ok(vertex)
    }

    /// `tengen-policy [COLOUR] [N]`: the policy network's N likeliest moves
    /// (default 10) for COLOUR (default the side to move), one a line as
    /// `VERTEX PERCENT`, likeliest first.
    fn policy(&self, args: &[&str]) -> Reply {
        let mut game = self.game.clone();
        let mut rest = args;
        if let Some(c) = rest.first().and_then(|a| color(a).ok()) {
            game.set_to_move(c);
            rest = &rest[1..];
        }
        let n: usize = match rest {
            [] => 10,
            [n] => number(Some(n))?,
            _ => return Err("syntax error".into()),
        };
        let b = game.board();
        let lines: Vec<String> = Net::builtin()
            .likeliest(b, n)
            .iter()
            .map(|&(p, prob)| format!("{} {:.1}", coord::to_gtp(b, Move::Play(p)), 100.0 * prob))
            .collect();
        Ok(lines.join("\n"))
    }

    /// Replays every move but the last on a fresh board.
    fn undo(&mut self) -> Reply {
        let moves = self.game.moves();
        let Some((_, rest)) = moves.split_last() else {
            return Err("cannot undo".into());
        };
        let mut g = Game::new(self.size, self.size, self.komi);
        for &(c, mv) in rest {
            g.set_to_move(c);
            g.play(mv).map_err(|_| "cannot undo".to_string())?;
        }
        self.game = g;
        Ok(String::new())
    }

    /// The board with GTP coordinates, black `X`, white `O`.
    fn diagram(&self) -> String {
        let b = self.game.board();
        let letters: String = (0..b.width())
            .map(|x| {
                let v = coord::to_gtp(b, Move::Play(b.point(x, 0)));
                format!(" {}", &v[..1])
            })
            .collect();
        let mut out = format!("  {letters}\n");
        for (y, row) in b.to_string().lines().enumerate() {
            out += &format!("{:>2} {row}\n", b.height() - y);
        }
        out + &format!("{} to move, komi {}", b.to_move(), self.komi)
    }
}

/// A GTP line made ready to split: control characters dropped, tabs made
/// spaces, comments cut.
fn clean(line: &str) -> String {
    let line = line.split('#').next().unwrap_or("");
    line.chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect()
}

/// A GTP engine on stdin/stdout until end of input: `move_time` a move
/// while the controller sends no time settings, the search set up by
/// `config`. Fails only when stdin cannot be read.
pub fn run(move_time: Duration, config: Config) -> Result<(), String> {
    let mut engine = Engine::with_config(move_time, config);
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let mut buf = Vec::new();
    loop {
        let raw = match super::lines::read_line(&mut input, &mut buf) {
            Ok(Some(raw)) => raw,
            Ok(None) => return Ok(()),
            Err(e) => return Err(format!("cannot read stdin: {e}")),
        };
        let read_at = Instant::now();
        let line = clean(&raw);
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let id = match words[0].parse::<u64>() {
            Ok(n) => {
                words.remove(0);
                n.to_string()
            }
            Err(_) => String::new(),
        };
        let Some((&command, args)) = words.split_first() else {
            continue;
        };
        let reply = engine.execute(command, args, read_at);
        // no blank line may appear inside a reply: it ends the reply
        let text = match &reply {
            Ok(t) => format!("={id} {}", t.trim_end()),
            Err(t) => format!("?{id} {}", t.trim_end()),
        };
        let written = write!(out, "{text}\n\n").and_then(|()| out.flush());
        if let Err(e) = written {
            log::warn!("cannot write: {e}");
            return Ok(());
        }
        if command == "quit" {
            return Ok(());
        }
        engine.answered();
    }
}
