//! `tengen learn`: fits the weights of the learnt prior (one gamma per move
//! feature, see `search::features`) to the moves of game records, by
//! Hunter's minorization-maximization for the generalized Bradley-Terry
//! model, as Coulom (2007) used it for Go: each recorded move won a
//! competition among all the legal moves of its position.

use super::{no_more_args, parse_flag, take_flag, ToolError};
use crate::deps::FxHashMap;
use crate::games::go::features::{canonical, features, Features, GROUPS};
use crate::go::sgf::{named_games, read_sgf, Record};
use crate::go::{Board, Color, Point};
use std::fmt::Write as _;

pub const USAGE: &str = "\
usage: tengen learn [--player NAME] [--teacher] [--iterations N]
                    [--min-count K] [--holdout H] [--out FILE] SGF...
  SGF              game records: a file of one game or a collection
                   (games.sgf of a match), every game of it learnt from
  --player NAME    learn only the moves of the player so named (PB/PW);
                   default: every move
  --teacher        learn the teacher's moves (TM[..] in a move's node, as
                   tools/teacher/to_sgf.py writes them) instead of the
                   moves played; positions without one are skipped
  --iterations N   rounds of updates (default 30)
  --min-count K    keep features seen in at least K candidate moves
                   (default 3); rarer shapes share one weight
  --holdout H      every H-th game is kept out of the fit and only
                   measured (default 10; 0: none)
  --out FILE       write the table there (default: stdout) and print the
                   summary instead";

/// A position: its distinct candidate feature sets with how many legal
/// moves have each, and which one was played.
struct Position {
    candidates: Vec<([u32; GROUPS.len()], u32)>,
    played: usize,
}

const ABSENT: u32 = u32::MAX;

/// One key for a group's feature, to number the features met.
fn key(group: usize, feature: u32) -> u32 {
    debug_assert!(feature < 1 << 25);
    (group as u32) << 25 | feature
}

pub fn run(mut args: Vec<String>) -> Result<String, ToolError> {
    if args.iter().any(|a| a == "--help") {
        return Ok(format!("{USAGE}\n"));
    }
    let player = take_flag(&mut args, "--player")?;
    let teacher = super::take_switch(&mut args, "--teacher");
    let iterations: usize = parse_flag(&mut args, "--iterations")?.unwrap_or(30);
    let min_count: u32 = parse_flag(&mut args, "--min-count")?.unwrap_or(3);
    let holdout: usize = parse_flag(&mut args, "--holdout")?.unwrap_or(10);
    let out = take_flag(&mut args, "--out")?;
    if let Some(a) = args.iter().find(|a| a.starts_with("--")) {
        no_more_args(std::slice::from_ref(a))?;
    }
    if args.is_empty() {
        return Err(ToolError::usage(format!("no game records\n{USAGE}")));
    }
    let mut ids: FxHashMap<u32, usize> = FxHashMap::default();
    let mut names: Vec<(usize, u32)> = Vec::new();
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let mut games = 0;
    for path in &args {
        let text =
            std::fs::read_to_string(path).map_err(|e| ToolError::input(format!("{path}: {e}")))?;
        // a file may be a collection: every game in it is learnt from
        for (name, game) in named_games(path, &text).map_err(ToolError::input)? {
            let record = read_sgf(game).map_err(|e| ToolError::input(format!("{name}: {e}")))?;
            if !record.setup.is_empty() {
                return Err(ToolError::input(format!(
                    "{name}: setup stones are not supported"
                )));
            }
            let held = holdout > 0 && games % holdout == holdout - 1;
            let into = if held { &mut test } else { &mut train };
            let positions = positions(&record, player.as_deref(), teacher, &mut ids, &mut names)
                .map_err(|e| ToolError::input(format!("{name}: {e}")))?;
            into.extend(positions);
            games += 1;
        }
    }
    if train.is_empty() {
        return Err(ToolError::input(match &player {
            _ if !test.is_empty() => {
                "every game is held out: nothing left to learn from (--holdout)".to_string()
            }
            Some(p) => format!("no move of a player named {p:?} to learn from"),
            None => "no move to learn from".to_string(),
        }));
    }
    let mut gamma = vec![1.0f64; names.len()];
    let wins = win_counts(&train, names.len());
    for _ in 0..iterations {
        for g in 0..GROUPS.len() {
            mm_update(&train, &wins, &names, g, &mut gamma);
        }
    }
    let (train_fit, test_fit) = (fit(&train, &gamma), fit(&test, &gamma));
    let mut summary = format!(
        "{games} games, {} features; iterations {iterations}\n",
        names.len()
    );
    for (what, set, f) in [("train", &train, train_fit), ("holdout", &test, test_fit)] {
        let _ = writeln!(
            summary,
            "{what}: {} moves, first choice {:.1} %, in the top 5 {:.1} %, mean log-likelihood {:.3}",
            set.len(),
            100.0 * f.top1,
            100.0 * f.top5,
            f.log_likelihood
        );
    }
    let table = table(&names, &gamma, &train, min_count, &summary);
    match out {
        None => Ok(table),
        Some(file) => {
            std::fs::write(&file, table)
                .map_err(|e| ToolError::input(format!("cannot write {file}: {e}")))?;
            Ok(summary)
        }
    }
}

/// Replays `rec` and describes the position before each move of `player`
/// (every move when `None`) that was a legal, non-eye-filling stone; with
/// `teacher`, the move learnt is the teacher's, where it is such a stone.
fn positions(
    rec: &Record,
    player: Option<&str>,
    teacher: bool,
    ids: &mut FxHashMap<u32, usize>,
    names: &mut Vec<(usize, u32)>,
) -> Result<Vec<Position>, String> {
    let mut board = Board::new(rec.size, rec.size);
    let mut out = Vec::new();
    for (n, &(color, point)) in rec.moves.iter().enumerate() {
        let name = if color == Color::Black {
            &rec.black
        } else {
            &rec.white
        };
        let learn = player.is_none_or(|p| p == name);
        let Some((x, y)) = point else {
            board.set_to_move(color);
            board.pass();
            continue;
        };
        let p = board.point(x, y); // read_sgf kept it on the board
        board.set_to_move(color);
        board
            .check(color, p)
            .map_err(|e| format!("move {}: {e}", n + 1))?;
        let target = match rec.teacher.get(n).copied().flatten() {
            _ if !teacher => Some(p),
            Some((x, y)) => Some(board.point(x, y)),
            None => None,
        };
        if let Some(t) = target.filter(|&t| learn && board.is_sensible(color, t)) {
            out.push(position(&board, color, t, ids, names));
        }
        board.play_legal(color, p);
    }
    Ok(out)
}

fn position(
    b: &Board,
    c: Color,
    played: Point,
    ids: &mut FxHashMap<u32, usize>,
    names: &mut Vec<(usize, u32)>,
) -> Position {
    let mut index: FxHashMap<Features, usize> = FxHashMap::default();
    let mut candidates = Vec::new();
    let mut played_at = 0;
    for &e in b.empty_points() {
        let p = Point(e);
        // the moves the search expands
        if !b.is_sensible(c, p) {
            continue;
        }
        let mut f = features(b, c, p);
        f[0] = canonical(f[0]);
        let at = *index.entry(f).or_insert_with(|| {
            let mut dense = [ABSENT; GROUPS.len()];
            for (g, &feature) in f.iter().enumerate() {
                if feature != 0 {
                    dense[g] = *ids.entry(key(g, feature)).or_insert_with(|| {
                        names.push((g, feature));
                        names.len() - 1
                    }) as u32;
                }
            }
            candidates.push((dense, 0));
            candidates.len() - 1
        });
        candidates[at].1 += 1;
        if p == played {
            played_at = at;
        }
    }
    Position {
        candidates,
        played: played_at,
    }
}

fn win_counts(set: &[Position], n: usize) -> Vec<f64> {
    let mut wins = vec![0.0; n];
    for pos in set {
        for &id in &pos.candidates[pos.played].0 {
            if id != ABSENT {
                wins[id as usize] += 1.0;
            }
        }
    }
    wins
}

fn strength(dense: &[u32; GROUPS.len()], gamma: &[f64]) -> f64 {
    dense
        .iter()
        .filter(|&&id| id != ABSENT)
        .map(|&id| gamma[id as usize])
        .product()
}

/// One minorization-maximization step for the features of group `g`, with
/// a virtual win and a virtual loss against a feature of weight 1 so that
/// rare features stay near 1.
fn mm_update(set: &[Position], wins: &[f64], names: &[(usize, u32)], g: usize, gamma: &mut [f64]) {
    let mut denom = vec![0.0; gamma.len()];
    for pos in set {
        let total: f64 = pos
            .candidates
            .iter()
            .map(|(d, n)| *n as f64 * strength(d, gamma))
            .sum();
        for (d, n) in &pos.candidates {
            let id = d[g];
            if id != ABSENT {
                denom[id as usize] += *n as f64 * strength(d, gamma) / gamma[id as usize] / total;
            }
        }
    }
    for (id, &(group, _)) in names.iter().enumerate() {
        if group == g {
            gamma[id] = (wins[id] + 1.0) / (denom[id] + 2.0 / (gamma[id] + 1.0));
        }
    }
}

struct Fit {
    top1: f64,
    top5: f64,
    log_likelihood: f64,
}

/// How well the weights predict the moves of `set`: how often the move
/// played is the strongest candidate (ties shared), among the 5 strongest,
/// and the mean log-probability of the move played.
fn fit(set: &[Position], gamma: &[f64]) -> Fit {
    let (mut top1, mut top5, mut ll) = (0.0, 0.0, 0.0);
    for pos in set {
        let strengths: Vec<f64> = pos
            .candidates
            .iter()
            .map(|(d, _)| strength(d, gamma))
            .collect();
        let s = strengths[pos.played];
        let total: f64 = strengths
            .iter()
            .zip(&pos.candidates)
            .map(|(x, (_, n))| x * *n as f64)
            .sum();
        let (mut above, mut equal) = (0.0, 0.0);
        for (x, (_, n)) in strengths.iter().zip(&pos.candidates) {
            if *x > s {
                above += *n as f64;
            } else if *x == s {
                equal += *n as f64;
            }
        }
        // the played move ranks among its equals uniformly
        top1 += if above == 0.0 { 1.0 / equal } else { 0.0 };
        top5 += ((5.0 - above) / equal).clamp(0.0, 1.0);
        ll += (s / total).ln();
    }
    let n = set.len().max(1) as f64;
    Fit {
        top1: top1 / n,
        top5: top5 / n,
        log_likelihood: ll / n,
    }
}

/// The table `games::go::gammas` reads: features seen in `min_count`
/// candidates or more, and one weight for the rarer shapes.
fn table(
    names: &[(usize, u32)],
    gamma: &[f64],
    train: &[Position],
    min_count: u32,
    summary: &str,
) -> String {
    let mut seen = vec![0u32; names.len()];
    for pos in train {
        for (d, n) in &pos.candidates {
            for &id in d.iter().filter(|&&id| id != ABSENT) {
                seen[id as usize] += n;
            }
        }
    }
    // rare shapes: their weights' geometric mean
    let (mut log_sum, mut rare) = (0.0, 0);
    for (id, &(g, _)) in names.iter().enumerate() {
        if g == 0 && seen[id] < min_count.max(1) {
            log_sum += gamma[id].ln();
            rare += 1;
        }
    }
    let unseen = if rare > 0 {
        (log_sum / rare as f64).exp()
    } else {
        1.0
    };
    let mut out =
        String::from("# tengen learnt move weights (tengen learn): GROUP FEATURE GAMMA\n");
    for line in summary.lines() {
        let _ = writeln!(out, "# {line}");
    }
    let _ = writeln!(out, "unseen shape {unseen:.4e}");
    let mut rows: Vec<usize> = (0..names.len())
        .filter(|&id| seen[id] >= min_count)
        .collect();
    rows.sort_by_key(|&id| names[id]);
    for id in rows {
        let (g, f) = names[id];
        let _ = writeln!(out, "{} {f} {:.4e}", GROUPS[g], gamma[id]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Move;

    #[test]
    fn the_fit_learns_that_the_played_feature_wins() {
        // a 9x9 game where one player always answers at distance 2 of the
        // last move (a knight's move away along the edge of the last)
        let mut board = Board::new(9, 9);
        let mut sgf = String::from("(;SZ[9]PB[b]PW[w]");
        let mut rng = crate::search::rng::Rng::new(7);
        for n in 0..40 {
            let c = board.to_move();
            let near = match board.last_moves()[0] {
                Move::Play(q) if n % 2 == 1 => board
                    .neighbors(q)
                    .into_iter()
                    .find(|&p| board.at(p) == crate::go::Cell::Empty && board.is_legal(c, p)),
                _ => None,
            };
            let p = match near {
                Some(p) => p,
                None => match crate::games::go::playout::uniform_move(&board, &mut rng) {
                    Move::Play(p) => p,
                    Move::Pass => break,
                },
            };
            let (x, y) = board.xy(p);
            let _ = write!(
                sgf,
                ";{}[{}]",
                c.letter(),
                crate::go::coord::sgf_point(x, y)
            );
            board.play_legal(c, p);
        }
        sgf.push(')');
        let rec = read_sgf(&sgf).unwrap();
        let (mut ids, mut names) = (FxHashMap::default(), Vec::new());
        let train = positions(&rec, Some("w"), false, &mut ids, &mut names).unwrap();
        assert!(train.len() >= 15, "{} positions", train.len());
        let mut gamma = vec![1.0; names.len()];
        let wins = win_counts(&train, names.len());
        let before = fit(&train, &gamma).log_likelihood;
        for _ in 0..10 {
            for g in 0..GROUPS.len() {
                mm_update(&train, &wins, &names, g, &mut gamma);
            }
        }
        let after = fit(&train, &gamma);
        assert!(
            after.log_likelihood > before + 1.0,
            "{before} -> {}",
            after.log_likelihood
        );
        // distance 2 (next to the last move) is by far the strongest
        let near = ids[&key(1, 2)];
        let far = ids[&key(1, 17)];
        assert!(
            gamma[near] > 10.0 * gamma[far],
            "{} vs {}",
            gamma[near],
            gamma[far]
        );
    }

    #[test]
    fn with_teacher_the_teacher_s_move_is_learnt_and_others_skipped() {
        // black plays (2, 2) where the teacher prefers (4, 4); white's
        // move has no teacher move; black's second agrees with it
        let sgf = "(;SZ[9];B[cc]TM[ee];W[gg];B[cg]TM[cg])";
        let rec = read_sgf(sgf).unwrap();
        let (mut ids, mut names) = (FxHashMap::default(), Vec::new());
        let played = positions(&rec, None, false, &mut ids, &mut names).unwrap();
        let taught = positions(&rec, None, true, &mut ids, &mut names).unwrap();
        assert_eq!((played.len(), taught.len()), (3, 2));
        // on the empty board the played corner point and the teacher's
        // centre point have different features
        assert_ne!(
            played[0].candidates[played[0].played].0,
            taught[0].candidates[taught[0].played].0
        );
        assert_eq!(
            played[2].candidates[played[2].played].0,
            taught[1].candidates[taught[1].played].0
        );
    }
}
