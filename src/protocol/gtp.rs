//! `tengen gtp`: a GTP version 2 engine on stdin/stdout, for GoGui, Sabaki,
//! Lizzie and match controllers. Play is scored as the arena scores it:
//! Tromp-Taylor area, the position counted as it stands; `final_score`
//! and `final_status_list` take off the stones the playouts call dead.
//!
//! This file holds the engine's state, the basic commands and the input
//! loop; [`analyze`] the analysis for GUIs and the end of a game,
//! [`setup`] the handicap, SGF records and KGS's time settings.

mod analyze;
pub mod network;
mod setup;

use super::gtp_clock::{seconds, GtpClock};
use super::thinker::Thinker;
use crate::deps::log;
use crate::games::go::{Config, Searcher};
use crate::go::{coord, Color, Game, Move, MAX_SIZE};
use crate::search::Horizon;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, TryRecvError};
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
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "loadsgf",
    "printsgf",
    "final_status_list",
    "kgs-genmove_cleanup",
    "kgs-time_settings",
    "lz-analyze",
    "lz-genmove_analyze",
    "kata-analyze",
    "kata-genmove_analyze",
    "gogui-analyze_commands",
    "tengen-ownership",
    "tengen-pv",
    "tengen-policy-map",
    "tengen-policy",
    "kata-raw-nn",
];

/// The commands whose answers stream until the next command arrives
/// ([`serve`] runs them; `analyze.rs`).
/// What `gogui-analyze_commands` lists.
const GOGUI_COMMANDS: &str = "\
gfx/Ownership/tengen-ownership
gfx/Principal variation/tengen-pv
gfx/Policy network/tengen-policy-map
plist/Dead stones/final_status_list dead
plist/Seki/final_status_list seki";

const STREAMED: [&str; 4] = [
    "lz-analyze",
    "lz-genmove_analyze",
    "kata-analyze",
    "kata-genmove_analyze",
];

pub struct Engine {
    size: usize,
    komi: f32,
    game: Game,
    /// The game as it began (handicap or set-up stones), for `undo`.
    initial: Game,
    /// The stones set up before the first move, for `printsgf`.
    setup: Vec<(Color, (usize, usize))>,
    clock: GtpClock,
    /// A move's time while the controller sets none.
    move_time: Duration,
    thinker: Thinker,
    /// The search behind analysis (`lz-analyze`, ownership), apart from
    /// the thinker's, which plays.
    analyzer: Searcher,
    config: Config,
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
        let game = Game::new(19, 19, 7.5);
        Engine {
            size: 19,
            komi: 7.5,
            initial: game.clone(),
            game,
            setup: Vec::new(),
            clock: GtpClock::new(default_move_time),
            move_time: default_move_time,
            analyzer: Searcher::new(config.clone()),
            thinker: Thinker::new(config.clone()),
            config,
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
            "version" => Ok(super::version::version()),
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
            "kata-raw-nn" => self.raw_nn(args),
            "final_score" => self.final_score(),
            "final_status_list" => self.final_status_list(args),
            "kgs-genmove_cleanup" => self.genmove_cleanup(args, read_at),
            "fixed_handicap" | "place_free_handicap" | "set_free_handicap" => {
                self.handicap(command, args)
            }
            "loadsgf" => self.loadsgf(args),
            "printsgf" => self.printsgf(args),
            "kgs-time_settings" => self.kgs_time_settings(args),
            "gogui-analyze_commands" => Ok(GOGUI_COMMANDS.into()),
            "tengen-ownership" => self.gfx_ownership(),
            "tengen-pv" => self.gfx_pv(),
            "tengen-policy-map" => self.gfx_policy(),
            // streamed answers need the input: `run` handles them
            c if STREAMED.contains(&c) => Err("streamed by the input loop only".into()),
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
        self.initial = self.game.clone();
        self.setup.clear();
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

    /// Replays every move but the last from the game's start.
    fn undo(&mut self) -> Reply {
        let moves = self.game.moves();
        let Some((_, rest)) = moves.split_last() else {
            return Err("cannot undo".into());
        };
        let mut g = self.initial.clone();
        g.set_komi(self.komi);
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

/// The controller's lines, read on a thread of their own, so that a
/// streamed analysis can see the next command come without taking it.
pub struct Input {
    lines: Receiver<(String, Instant)>,
    /// A line seen while streaming, not yet run.
    held: Option<(String, Instant)>,
}

impl Input {
    /// Reads `source` until its end; a read error is logged and ends it.
    pub fn spawn(mut source: impl BufRead + Send + 'static) -> Input {
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            loop {
                match super::lines::read_line(&mut source, &mut buf) {
                    Ok(Some(raw)) => {
                        if tx.send((raw, Instant::now())).is_err() {
                            return;
                        }
                    }
                    Ok(None) => return,
                    Err(e) => {
                        log::error!("cannot read stdin: {e}");
                        return;
                    }
                }
            }
        });
        Input { lines, held: None }
    }

    /// Whether a line (or the end of input) has come, without taking it.
    pub fn arrived(&mut self) -> bool {
        if self.held.is_some() {
            return true;
        }
        match self.lines.try_recv() {
            Ok(line) => {
                self.held = Some(line);
                true
            }
            Err(TryRecvError::Empty) => false,
            Err(TryRecvError::Disconnected) => true,
        }
    }

    /// The next line and when it was read; `None` at the end of input.
    fn next(&mut self) -> Option<(String, Instant)> {
        self.held.take().or_else(|| self.lines.recv().ok())
    }
}

/// A GTP engine on stdin/stdout until end of input: `move_time` a move
/// while the controller sends no time settings, the search set up by
/// `config`.
pub fn run(move_time: Duration, config: Config) -> Result<(), String> {
    let mut input = Input::spawn(std::io::BufReader::new(std::io::stdin()));
    let mut out = std::io::stdout().lock();
    serve(Engine::with_config(move_time, config), &mut input, &mut out);
    Ok(())
}

/// Answers the commands of `input` on `out` until the end of input or
/// `quit` (or until `out` cannot be written).
pub fn serve(mut engine: Engine, input: &mut Input, out: &mut dyn Write) {
    while let Some((raw, read_at)) = input.next() {
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
        let written = if STREAMED.contains(&command) {
            engine.thinker.stop_pondering();
            engine.stream(&id, command, args, read_at, out, input)
        } else {
            let reply = engine.execute(command, args, read_at);
            // no blank line may appear inside a reply: it ends the reply
            let text = match &reply {
                Ok(t) => format!("={id} {}", t.trim_end()),
                Err(t) => format!("?{id} {}", t.trim_end()),
            };
            write!(out, "{text}\n\n").and_then(|()| out.flush())
        };
        if let Err(e) = written {
            log::warn!("cannot write: {e}");
            return;
        }
        if command == "quit" {
            return;
        }
        engine.answered();
    }
}
