//! The network's own GTP commands: `kata-raw-nn` prints a position's raw
//! network outputs in KataGo's format, so that the two programs can be put
//! side by side on the same net and moves; and the policy the analysis
//! commands show.

use super::{color, number, Engine, Reply};
use crate::games::go::nn::{self, Eval};
use crate::go::{coord, Color, Game, Move, Point};

/// KataGo's GTP default policy optimism at the root (`rootPolicyOptimism`:
/// the lesser of `policyOptimism`, 1, and 0.2).
const ROOT_OPTIMISM: f32 = 0.2;

/// What `kata-raw-nn` asks: for whom, at which symmetries, how optimistic.
struct Ask {
    pla: Option<Color>,
    symmetries: Vec<usize>,
    optimism: f32,
}

/// `[COLOUR] SYMMETRY|all [OPTIMISM]`, each error worded as KataGo's.
fn parse(args: &[&str]) -> Result<Ask, String> {
    const USAGE: &str = " for kata-raw-nn (expected an optional color, a symmetry 'all' or index [0-7], and an optional optimism [0-1])";
    let mut rest = args;
    let pla = rest.first().and_then(|a| color(a).ok());
    if pla.is_some() {
        rest = &rest[1..];
    }
    let Some((sym, rest)) = rest.split_first() else {
        return Err(format!(
            "Expected a symmetry argument 'all' or index [0-7]{USAGE}"
        ));
    };
    let symmetries = match sym.to_ascii_lowercase().as_str() {
        "all" => (0..8).collect(),
        s => match s.parse::<usize>() {
            Ok(n) if n < 8 => vec![n],
            _ => {
                return Err(format!(
                    "Expected a symmetry argument 'all' or index [0-7] but got '{sym}'{USAGE}"
                ))
            }
        },
    };
    let (optimism, rest) = match rest.split_first() {
        None => (ROOT_OPTIMISM, rest),
        Some((o, rest)) => match o.parse::<f32>() {
            Ok(v) if (0.0..=1.0).contains(&v) => (v, rest),
            _ => {
                return Err(format!(
                    "Expected an optimism value in [0,1] but got '{o}'{USAGE}"
                ))
            }
        },
    };
    if let Some(extra) = rest.first() {
        return Err(format!("Unexpected extra argument '{extra}'{USAGE}"));
    }
    Ok(Ask {
        pla,
        symmetries,
        optimism,
    })
}

/// The network's policy for the side to move in `game`, a probability a
/// legal point.
pub fn policy(game: &Game) -> Vec<(Point, f32)> {
    let e = nn::active().evaluate(&nn::position(game), 0.0);
    let b = game.board();
    let w = b.width();
    e.policy[..b.area()]
        .iter()
        .enumerate()
        .filter(|(_, &p)| p >= 0.0)
        .map(|(i, &p)| (b.point(i % w, i / w), p))
        .collect()
}

impl Engine {
    /// `kata-raw-nn [COLOUR] SYMMETRY|all [OPTIMISM]`.
    pub(super) fn raw_nn(&self, args: &[&str]) -> Reply {
        let ask = parse(args)?;
        let net = nn::active();
        // for the other side, KataGo starts the history afresh
        let fresh;
        let game = match ask.pla {
            Some(c) if c != self.game.to_move() => {
                let mut board = self.game.board().clone();
                board.forget_ko();
                board.set_to_move(c);
                fresh = Game::from_board(board, self.game.komi()).with_rules(self.game.rules());
                &fresh
            }
            _ => &self.game,
        };
        let pos = nn::position(game);
        let blocks: Vec<String> = ask
            .symmetries
            .iter()
            .map(|&s| {
                let e = net.evaluate_at(&pos, s, ask.optimism);
                raw_text(&e, s, game.board().width(), game.board().height())
            })
            .collect();
        // GTP ends a reply at a blank line: the blocks follow each other
        Ok(blocks.join("\n"))
    }

    /// `tengen-policy [COLOUR] [N]`: the policy network's N likeliest moves
    /// (default 10) for COLOUR (default the side to move), one a line as
    /// `VERTEX PERCENT`, likeliest first.
    pub(super) fn policy(&self, args: &[&str]) -> Reply {
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
        let mut policy = policy(&game);
        policy.sort_by(|x, y| y.1.total_cmp(&x.1));
        policy.truncate(n);
        let lines: Vec<String> = policy
            .iter()
            .map(|&(p, prob)| format!("{} {:.1}", coord::to_gtp(b, Move::Play(p)), 100.0 * prob))
            .collect();
        Ok(lines.join("\n"))
    }
}

/// One symmetry's outputs as KataGo's `kata-raw-nn` prints them.
pub fn raw_text(e: &Eval, symmetry: usize, w: usize, h: usize) -> String {
    let mut out = format!("symmetry {symmetry}\n");
    out += &format!(
        "whiteWin {:.6}\nwhiteLoss {:.6}\n",
        e.white_win, e.white_loss
    );
    out += &format!(
        "noResult {:.6}\nwhiteLead {:.3}\n",
        e.no_result, e.white_lead
    );
    out += &format!("whiteScoreSelfplay {:.3}\n", e.white_score);
    out += &format!("whiteScoreSelfplaySq {:.3}\n", e.white_score_sq);
    out += &format!("varTimeLeft {:.3}\n", e.var_time_left);
    out += &format!("shorttermWinlossError {:.3}\n", e.shortterm_winloss_error);
    out += &format!("shorttermScoreError {:.3}\n", e.shortterm_score_error);
    let prob = |p: f32| match p < 0.0 {
        true => "    NAN ".to_string(),
        false => format!("{p:8.6} "),
    };
    out += "policy\n";
    for row in e.policy[..w * h].chunks(w) {
        out += &row.iter().map(|&p| prob(p)).collect::<String>();
        out += "\n";
    }
    out += &format!("policyPass {}\n", prob(e.policy[w * h]));
    out += "whiteOwnership\n";
    for row in e.white_ownership.chunks(w) {
        out += &row.iter().map(|o| format!("{o:9.7} ")).collect::<String>();
        out += "\n";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_parse_as_katago_parses_them() {
        let a = parse(&["3"]).unwrap();
        assert_eq!(
            (a.pla, a.symmetries, a.optimism),
            (None, vec![3], ROOT_OPTIMISM)
        );
        let a = parse(&["w", "all", "0"]).unwrap();
        assert_eq!(
            (a.pla, a.symmetries.len(), a.optimism),
            (Some(Color::White), 8, 0.0)
        );
        for bad in [
            &[][..],
            &["8"],
            &["b"],
            &["0", "1.5"],
            &["0", "0.5", "x"],
            &["-1"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
