//! GTP analysis for GUIs: Leela Zero's `lz-analyze` and KataGo's
//! `kata-analyze`, each with its `genmove_analyze` (`info` lines streamed
//! until the next command),
//! GoGui's analyze commands (ownership, principal variation, the policy
//! network as a heat map), and the end of a game read from the playouts'
//! final owners: `final_status_list`, `final_score`, `kgs-genmove_cleanup`.

use super::{color, Engine, Input, Reply};
use crate::deps::log;
use crate::games::go::nn;
use crate::games::go::{Analysis, Ownership};
use crate::go::{coord, Board, Cell, Color, Game, Move, Point};
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// Playouts behind an ownership estimate.
const OWNERSHIP_PLAYOUTS: usize = 400;

/// The tags of `lz-analyze` and `kata-analyze`: whose move, how often to
/// report (none: never), and (KataGo's) whether to add the ownership.
struct Tags {
    who: Color,
    interval: Option<Duration>,
    ownership: bool,
}

/// Reads `[colour] [interval] [interval N] [minmoves N]` as Leela Zero
/// does (a bare number is the interval in centiseconds) and, for `kata`,
/// KataGo's `maxmoves N` and its switches `ownership`, `ownershipStdev`,
/// `pvVisits`, `rootInfo`, `movesOwnership` (`true` or `false`; only
/// `ownership` changes the output).
fn tags(args: &[&str], to_move: Color, kata: bool) -> Option<Tags> {
    let mut t = Tags {
        who: to_move,
        interval: None,
        ownership: false,
    };
    let centis = |s: &str| s.parse::<u64>().ok().map(|c| Duration::from_millis(10 * c));
    let switch = |s: &str| match s {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    let mut words = args.iter();
    while let Some(&w) = words.next() {
        if let Some(d) = centis(w) {
            t.interval = Some(d);
        } else if let Ok(c) = color(w) {
            t.who = c;
        } else if w == "interval" {
            t.interval = Some(centis(words.next()?)?);
        } else if w == "minmoves" || (kata && w == "maxmoves") {
            words.next()?.parse::<u32>().ok()?;
        } else if kata && w == "ownership" {
            t.ownership = switch(words.next()?)?;
        } else if kata && ["ownershipStdev", "pvVisits", "rootInfo", "movesOwnership"].contains(&w)
        {
            switch(words.next()?)?;
        } else {
            return None;
        }
    }
    // an interval of 0 asks for no output, as in Leela Zero
    t.interval = t.interval.filter(|d| !d.is_zero());
    Some(t)
}

/// What a network says of the position after a root move, for the side
/// to move at the root.
#[derive(Clone, Copy)]
struct Read {
    /// The network's winning chance (a KataGo network's; none from the
    /// built-in value head, whose win rate the search does not trust).
    winrate: Option<f32>,
    lead: f32,
    /// The spread of the final score, where the network gives one.
    stdev: f32,
}

/// The network's read of the position after each move it is asked of,
/// read once a move: the KataGo network in play, else the built-in value
/// head on 19x19 (None: neither reads the position).
struct Reads {
    game: Game,
    known: Vec<(Move, Option<Read>)>,
}

impl Reads {
    fn of(&mut self, mv: Move) -> Option<Read> {
        if let Some(&(_, read)) = self.known.iter().find(|k| k.0 == mv) {
            return read;
        }
        let me = self.game.to_move();
        let mut next = self.game.clone();
        let read = match next.play(mv) {
            Err(_) => None,
            Ok(_) => {
                let e = nn::active().evaluate(&nn::position(&next), 0.0);
                let sq = e.white_score_sq - e.white_score * e.white_score;
                Some(Read {
                    winrate: Some(e.winrate(me)),
                    lead: e.lead(me),
                    stdev: sq.max(0.0).sqrt(),
                })
            }
        };
        self.known.push((mv, read));
        read
    }
}

/// What both forms of `info` say of one root move.
struct Row {
    mv: Move,
    name: String,
    visits: u32,
    /// For the side to move, 0..1.
    winrate: f32,
    /// The search's expected lead for the side to move, where it is on a
    /// value network.
    lead: Option<f32>,
    prior: f32,
    /// The win rate less 1.96 standard errors of a visits-sized sample.
    lcb: f32,
    pv: String,
}

/// The root moves with playouts, most visited first, with the policy
/// network's prior of each (the search's own where it has one, else the
/// network's; 0 for a pass).
fn rows(game: &Game, a: &Analysis, policy: &[(Point, f32)]) -> Vec<Row> {
    let b = game.board();
    let name = |m: Move| coord::to_gtp(b, m);
    let prior = |m: &crate::games::go::MoveInfo| match (m.prior, m.mv) {
        (Some(p), _) => p,
        (None, Move::Pass) => 0.0,
        (None, Move::Play(p)) => policy.iter().find(|&&(q, _)| q == p).map_or(0.0, |x| x.1),
    };
    a.moves
        .iter()
        .map(|m| {
            let w = m.winrate.clamp(0.0, 1.0);
            let lcb = w - 1.96 * (w * (1.0 - w) / m.visits.max(1) as f32).sqrt();
            let pv: Vec<String> = m.pv.iter().map(|&x| name(x)).collect();
            Row {
                mv: m.mv,
                name: name(m.mv),
                visits: m.visits,
                winrate: w,
                lead: m.lead,
                prior: prior(m),
                lcb: lcb.clamp(0.0, 1.0),
                pv: pv.join(" "),
            }
        })
        .collect()
}

/// One `kata-analyze` line: the rows as KataGo writes them (win rate 0..1
/// for the side to move, the score lead from the value head where it
/// reads the board), then the ownership for the side to move, row by row
/// from the top, if asked.
fn kata_info_line(
    game: &Game,
    a: &Analysis,
    policy: &[(Point, f32)],
    reads: &mut Reads,
    own: Option<&Ownership>,
) -> String {
    let items: Vec<String> = rows(game, a, policy)
        .iter()
        .enumerate()
        .map(|(order, r)| {
            // the search's own values on a value network, else the
            // network's read of the position after the move; the score's
            // spread is the network's read either way (the tree keeps none)
            let net = reads.of(r.mv);
            let read = net.filter(|_| r.lead.is_none());
            let lead = r.lead.or(read.map(|x| x.lead));
            let sd = net.map_or(0.0, |x| x.stdev);
            let score = lead.map_or(String::new(), |l| {
                format!(" scoreMean {l:.2} scoreStdev {sd:.2} scoreLead {l:.2} scoreSelfplay {l:.2}")
            });
            let winrate = read.and_then(|x| x.winrate).unwrap_or(r.winrate);
            format!(
                "info move {} visits {} edgeVisits {} utility {:.4} winrate {:.6}{score} prior {:.6} lcb {:.6} utilityLcb {:.4} order {order} pv {}",
                r.name,
                r.visits,
                r.visits,
                2.0 * winrate - 1.0,
                winrate,
                r.prior,
                r.lcb,
                2.0 * r.lcb - 1.0,
                r.pv
            )
        })
        .collect();
    let mut line = items.join(" ");
    if let Some(own) = own {
        let sign = game.to_move().sign();
        let values: Vec<String> = own
            .owner
            .iter()
            .map(|&o| format!("{:.4}", o * sign))
            .collect();
        line.push_str(" ownership ");
        line.push_str(&values.join(" "));
    }
    line
}

/// One `lz-analyze` line: the rows, win rate, prior and bound in
/// hundredths of a percent.
fn info_line(game: &Game, a: &Analysis, policy: &[(Point, f32)]) -> String {
    let per_10k = |x: f32| (x * 10000.0) as u32;
    let items: Vec<String> = rows(game, a, policy)
        .iter()
        .enumerate()
        .map(|(order, r)| {
            format!(
                "info move {} visits {} winrate {} prior {} lcb {} order {order} pv {}",
                r.name,
                r.visits,
                per_10k(r.winrate),
                per_10k(r.prior),
                per_10k(r.lcb),
                r.pv
            )
        })
        .collect();
    items.join(" ")
}

/// The status of the stones on the board, read from the playouts' owners.
#[derive(Default)]
struct Statuses {
    dead: Vec<Vec<Point>>,
    alive: Vec<Vec<Point>>,
    seki: Vec<Vec<Point>>,
}

/// Each string's status: dead when the other colour owns its points at
/// the end of most playouts; in seki when alive with a liberty that mostly
/// ends owned by nobody; else alive.
fn statuses(b: &Board, own: &Ownership) -> Statuses {
    let at = |p: Point| {
        let (x, y) = b.xy(p);
        y * b.width() + x
    };
    let mut out = Statuses::default();
    let mut seen = crate::go::PointSet::new();
    for p in b.points() {
        let Some(c) = b.at(p).color() else { continue };
        if !seen.insert(b.string_id(p)) {
            continue;
        }
        let stones: Vec<Point> = b.stones(p).collect();
        let mine =
            stones.iter().map(|&s| own.owner[at(s)]).sum::<f32>() * c.sign() / stones.len() as f32;
        let shared = b
            .liberties::<64>(p)
            .iter()
            .any(|&l| own.neutral[at(l)] > 0.5);
        // dead: the other colour owns it at the end of three playouts in
        // four or more; a stone that merely might die stays on the board
        let list = if mine < -0.5 {
            &mut out.dead
        } else if shared {
            &mut out.seki
        } else {
            &mut out.alive
        };
        list.push(stones);
    }
    out
}

impl Engine {
    /// `lz-analyze`, `kata-analyze` and their `genmove_analyze`: `=` at
    /// once, then `info` lines every interval until the next command
    /// arrives (or, for the genmove, until the move's time is up: then
    /// `play VERTEX`), then the blank line that ends the answer.
    pub(super) fn stream(
        &mut self,
        id: &str,
        command: &str,
        args: &[&str],
        read_at: Instant,
        out: &mut dyn Write,
        input: &mut Input,
    ) -> io::Result<()> {
        let kata = command.starts_with("kata-");
        let Some(tags) = tags(args, self.game.to_move(), kata) else {
            write!(out, "?{id} cannot parse analyze tags\n\n")?;
            return out.flush();
        };
        writeln!(out, "={id}")?;
        out.flush()?;
        let mut game = self.game.clone();
        game.set_to_move(tags.who);
        let genmove = command.ends_with("genmove_analyze");
        let until = genmove.then(|| {
            let b = game.board();
            let plan = self
                .clock
                .plan(b.empty_points().len(), b.area(), Duration::ZERO);
            read_at + plan.soft
        });
        let policy = super::network::policy(&game);
        let mut reads = Reads {
            game: game.clone(),
            known: Vec::new(),
        };
        let own = (kata && tags.ownership).then(|| {
            let analyzer = &mut self.analyzer;
            analyzer.ownership(&game, OWNERSHIP_PLAYOUTS)
        });
        let slice = tags
            .interval
            .unwrap_or(Duration::from_millis(200))
            .max(Duration::from_millis(10));
        let mut last = Analysis::default();
        loop {
            let end = (Instant::now() + slice).min(until.unwrap_or(Instant::now() + slice));
            let analyzer = &mut self.analyzer;
            match panic::catch_unwind(AssertUnwindSafe(|| analyzer.analyze(&game, end))) {
                Ok(a) => last = a,
                Err(_) => {
                    log::error!("the analysis panicked; stopping it");
                    self.analyzer = crate::games::go::Searcher::new(self.config.clone());
                    break;
                }
            }
            if tags.interval.is_some() && !last.moves.is_empty() {
                let text = if kata {
                    kata_info_line(&game, &last, &policy, &mut reads, own.as_ref())
                } else {
                    info_line(&game, &last, &policy)
                };
                writeln!(out, "{text}")?;
                out.flush()?;
            }
            let done = until.is_some_and(|u| Instant::now() >= u);
            if done || (!genmove && input.arrived()) {
                break;
            }
        }
        if genmove {
            let legal = |m: &&crate::games::go::MoveInfo| game.is_legal(m.mv);
            let mv = last.moves.iter().find(legal).map_or(Move::Pass, |m| m.mv);
            let vertex = coord::to_gtp(game.board(), mv);
            if game.play(mv).is_ok() {
                self.game = game;
            }
            writeln!(out, "play {vertex}")?;
        }
        writeln!(out)?;
        out.flush()
    }

    fn ownership(&mut self) -> Ownership {
        self.analyzer.ownership(&self.game, OWNERSHIP_PLAYOUTS)
    }

    /// `final_status_list dead|alive|seki`: a string a line.
    pub(super) fn final_status_list(&mut self, args: &[&str]) -> Reply {
        let which = args.first().copied().unwrap_or("");
        if !["dead", "alive", "seki"].contains(&which) {
            return Err("syntax error".into());
        }
        let own = self.ownership();
        let st = statuses(self.game.board(), &own);
        let list = match which {
            "dead" => st.dead,
            "alive" => st.alive,
            _ => st.seki,
        };
        let b = self.game.board();
        let lines: Vec<String> = list
            .iter()
            .map(|s| {
                let names: Vec<String> =
                    s.iter().map(|&p| coord::to_gtp(b, Move::Play(p))).collect();
                names.join(" ")
            })
            .collect();
        Ok(lines.join("\n"))
    }

    /// `final_score`: the area count once the stones `final_status_list`
    /// calls dead are taken off.
    pub(super) fn final_score(&mut self) -> Reply {
        let own = self.ownership();
        let b = self.game.board();
        let st = statuses(b, &own);
        let mut cells = b.cells();
        for &p in st.dead.iter().flatten() {
            let (x, y) = b.xy(p);
            cells[y * b.width() + x] = Cell::Empty;
        }
        let cleared = Board::from_cells(b.width(), b.height(), &cells)?;
        let margin = cleared.area_score(self.komi).margin();
        Ok(if margin == 0.0 {
            "0".into()
        } else {
            crate::go::score::result_string(margin)
        })
    }

    /// `kgs-genmove_cleanup COLOUR`: a move as `genmove` chooses it, except
    /// that it does not pass while stones of the opponent's are dead on
    /// the board: it goes on to capture them.
    pub(super) fn genmove_cleanup(&mut self, args: &[&str], read_at: Instant) -> Reply {
        let c = color(args.first().ok_or("syntax error")?)?;
        let mut probe = self.game.clone();
        probe.set_to_move(c);
        let vertex = self.genmove(args, read_at, false)?;
        if coord::from_gtp(probe.board(), &vertex) != Some(Move::Pass) {
            return self.play_vertex(c, vertex);
        }
        let own = self.analyzer.ownership(&probe, OWNERSHIP_PLAYOUTS);
        let dead = statuses(probe.board(), &own).dead;
        let theirs: Vec<Point> = dead
            .iter()
            .flatten()
            .copied()
            .filter(|&p| probe.board().at(p) == c.opp().stone())
            .collect();
        if theirs.is_empty() {
            return self.play_vertex(c, vertex);
        }
        // the search's favourite move that is not a pass, else a liberty
        // of a dead string
        let a = self
            .analyzer
            .analyze(&probe, Instant::now() + Duration::from_millis(300));
        let b = probe.board();
        let searched = a
            .moves
            .iter()
            .map(|m| m.mv)
            .find(|&m| m != Move::Pass && probe.is_legal(m));
        let liberty = || {
            theirs
                .iter()
                .flat_map(|&p| b.liberties::<8>(p))
                .map(Move::Play)
                .find(|&m| probe.is_legal(m))
        };
        let mv = searched.or_else(liberty).unwrap_or(Move::Pass);
        self.play_vertex(c, coord::to_gtp(b, mv))
    }

    /// Plays `vertex` for `c` and answers it.
    fn play_vertex(&mut self, c: Color, vertex: String) -> Reply {
        let mut next = self.game.clone();
        next.set_to_move(c);
        let mv = coord::from_gtp(next.board(), &vertex).ok_or("own move unreadable")?;
        next.play(mv)
            .map_err(|e| format!("own move refused: {e}"))?;
        self.game = next;
        self.after_answer = Some(self.game.clone());
        Ok(vertex)
    }

    /// `tengen-ownership`: GoGui's INFLUENCE of the playouts' final owners
    /// (positive black).
    pub(super) fn gfx_ownership(&mut self) -> Reply {
        let own = self.ownership();
        let b = self.game.board();
        let items: Vec<String> = b
            .points()
            .zip(&own.owner)
            .map(|(p, o)| format!("{} {:.2}", coord::to_gtp(b, Move::Play(p)), o))
            .collect();
        Ok(format!("INFLUENCE {}", items.join(" ")))
    }

    /// `tengen-pv`: the principal variation after a search of the default
    /// move time, as GoGui's VAR.
    pub(super) fn gfx_pv(&mut self) -> Reply {
        let game = self.game.clone();
        let a = self
            .analyzer
            .analyze(&game, Instant::now() + self.move_time);
        let Some(best) = a.moves.first() else {
            return Ok(String::new());
        };
        let b = game.board();
        let mut c = game.to_move();
        let mut items = Vec::new();
        for &m in &best.pv {
            items.push(format!(
                "{} {}",
                c.letter().to_ascii_lowercase(),
                coord::to_gtp(b, m)
            ));
            c = c.opp();
        }
        Ok(format!("VAR {}", items.join(" ")))
    }

    /// `tengen-policy-map`: the policy network's probabilities as shades
    /// of red, and the five likeliest labelled with their percentages.
    pub(super) fn gfx_policy(&self) -> Reply {
        let b = self.game.board();
        let mut policy = super::network::policy(&self.game);
        policy.sort_by(|x, y| y.1.total_cmp(&x.1));
        let top = policy.first().map_or(1.0, |x| x.1).max(1e-6);
        // shades of red by the share of the likeliest move's probability
        let shades = [
            (0.6, "#ff0000"),
            (0.35, "#ff5050"),
            (0.2, "#ff9090"),
            (0.1, "#ffc8c8"),
        ];
        let mut groups: Vec<Vec<String>> = vec![Vec::new(); shades.len()];
        for &(q, p) in &policy {
            if let Some(k) = shades.iter().position(|&(r, _)| p >= r * top) {
                groups[k].push(coord::to_gtp(b, Move::Play(q)));
            }
        }
        let mut lines: Vec<String> = groups
            .iter()
            .zip(shades)
            .filter(|(g, _)| !g.is_empty())
            .map(|(g, (_, shade))| format!("COLOR {shade} {}", g.join(" ")))
            .collect();
        let labels: Vec<String> = policy
            .iter()
            .take(5)
            .map(|&(q, p)| format!("{} {:.0}%", coord::to_gtp(b, Move::Play(q)), 100.0 * p))
            .collect();
        if !labels.is_empty() {
            lines.push(format!("LABEL {}", labels.join(" ")));
        }
        Ok(lines.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analyze_tags_are_read_as_leela_zero_reads_them() {
        let t = tags(&["50"], Color::Black, false).unwrap();
        assert_eq!(
            (t.who, t.interval),
            (Color::Black, Some(Duration::from_millis(500)))
        );
        let t = tags(
            &["w", "interval", "10", "minmoves", "3"],
            Color::Black,
            false,
        )
        .unwrap();
        assert_eq!(
            (t.who, t.interval),
            (Color::White, Some(Duration::from_millis(100)))
        );
        assert_eq!(tags(&[], Color::White, false).unwrap().interval, None);
        assert_eq!(tags(&["0"], Color::White, false).unwrap().interval, None);
        assert!(tags(&["sideways"], Color::Black, false).is_none());
        assert!(tags(&["interval"], Color::Black, false).is_none());
        assert!(tags(&["avoid", "b", "D4", "1"], Color::Black, false).is_none());
        // KataGo's switches, only where it is asked
        let t = tags(
            &["b", "10", "ownership", "true", "pvVisits", "false"],
            Color::White,
            true,
        );
        let t = t.unwrap();
        assert!(t.ownership && t.who == Color::Black);
        assert!(tags(&["ownership", "true"], Color::White, false).is_none());
        assert!(tags(&["ownership", "maybe"], Color::White, true).is_none());
        assert!(
            !tags(&["maxmoves", "5"], Color::White, true)
                .unwrap()
                .ownership
        );
    }
}
