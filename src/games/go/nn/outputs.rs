//! From the network's raw outputs to what a player reads, as KataGo's
//! `NNEvaluator::evaluate` (`cpp/neuralnet/nneval.cpp`) turns them: the
//! policy a softmax over the legal moves (the optimistic policy mixed in),
//! the value a softmax, the scores scaled by the model's multipliers, the
//! ownership through tanh, all from White's view as `kata-raw-nn` prints
//! them.

use super::desc::Model;
use super::forward::Raw;
use crate::go::Color;

/// A position's evaluation in KataGo's terms, from White's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Eval {
    /// The probability of each point, row by row from the top left, then
    /// of passing; -1 where the move is illegal.
    pub policy: Vec<f32>,
    pub white_win: f32,
    pub white_loss: f32,
    pub no_result: f32,
    /// White's expected lead in points.
    pub white_lead: f32,
    /// White's expected score as self-play counts it, and its square's
    /// expectation.
    pub white_score: f32,
    pub white_score_sq: f32,
    /// The expected remaining game length's spread, and the short-term
    /// errors the net expects of its value and score (-1: the model
    /// version has none).
    pub var_time_left: f32,
    pub shortterm_winloss_error: f32,
    pub shortterm_score_error: f32,
    /// Each point's expected owner, -1 (Black) to 1 (White).
    pub white_ownership: Vec<f32>,
}

impl Eval {
    /// The side to move's winning chance, 0 to 1 (no result counts half).
    pub fn winrate(&self, pla: Color) -> f32 {
        let white = self.white_win + 0.5 * self.no_result;
        match pla {
            Color::White => white,
            Color::Black => 1.0 - white,
        }
    }

    /// The side to move's expected lead in points.
    pub fn lead(&self, pla: Color) -> f32 {
        self.white_lead * -pla.sign()
    }
}

fn softplus(x: f64) -> f64 {
    if x > 40.0 {
        x
    } else {
        x.exp().ln_1p()
    }
}

/// `raw`'s evaluation for `pla` to move: `legal` says which points (then
/// pass) are legal, `from[i]` where point i's outputs are in `raw` (the
/// symmetry the net saw), `optimism` how much of the optimistic policy to
/// mix in (0 to 1).
pub fn eval(
    model: &Model,
    raw: &Raw,
    legal: &[bool],
    from: &[usize],
    pla: Color,
    optimism: f32,
) -> Eval {
    let area = from.len();
    assert_eq!(legal.len(), area + 1, "legality of every point and pass");
    let ch = model.policy_channels();
    // KataGo mixes in the optimistic channel where it has one
    let optimistic = ch == 2 || (ch == 4 && model.version >= 16);
    let logit = |v: &[f32]| match optimistic {
        true => v[0] + (v[1] - v[0]) * optimism,
        false => v[0],
    };
    let mut policy: Vec<f32> = from
        .iter()
        .map(|&j| logit(&raw.policy[j * ch..(j + 1) * ch]))
        .chain([logit(&raw.pass)])
        .collect();
    let top = policy
        .iter()
        .zip(legal)
        .filter(|(_, &l)| l)
        .map(|(&p, _)| p)
        .fold(-1e25f32, f32::max);
    let mut total = 0.0f32;
    for (p, &l) in policy.iter_mut().zip(legal) {
        *p = if l { (*p - top).exp() } else { 0.0 };
        total += *p;
    }
    let legal_count = legal.iter().filter(|&&l| l).count().max(1);
    for (p, &l) in policy.iter_mut().zip(legal) {
        *p = match (l, total > 0.0) {
            (false, _) => -1.0,
            (true, true) => *p / total,
            // every legal move rounded to nothing: KataGo spreads evenly
            (true, false) => 1.0 / legal_count as f32,
        };
    }

    let mult = &model.multipliers;
    let v = raw.value.map(|x| x as f64);
    // positional superko and area scoring: no result is impossible
    let top = v[0].max(v[1]);
    let (win, loss) = ((v[0] - top).exp(), (v[1] - top).exp());
    let (win, loss) = (win / (win + loss), loss / (win + loss));
    let s = |i: usize| raw.score[i] as f64;
    let score = s(0) * mult.score_mean as f64;
    let stdev = softplus(s(1)) * mult.score_stdev as f64;
    let score_sq = score * score + stdev * stdev;
    let lead = s(2) * mult.lead as f64;
    let var_time = softplus(s(3)) * mult.variance_time as f64;
    let errors = match model.version {
        14.. => {
            let e = |x: f64, m: f32| {
                let sp = softplus(x * 0.5);
                (sp * sp * m as f64).sqrt()
            };
            (
                e(s(4), mult.shortterm_value_error),
                e(s(5), mult.shortterm_score_error),
            )
        }
        10..=13 => (
            (softplus(s(4)) * mult.shortterm_value_error as f64).sqrt(),
            (softplus(s(5)) * mult.shortterm_score_error as f64).sqrt(),
        ),
        9 => (softplus(s(4)), softplus(s(5)) * 10.0),
        _ => (-1.0, -1.0),
    };
    let (var_time, errors) = match model.version >= 9 {
        true => (var_time, errors),
        false => (-1.0, (-1.0, -1.0)),
    };
    // the net speaks for the side to move
    let white = pla == Color::White;
    let sign = if white { 1.0 } else { -1.0 };
    let own = from
        .iter()
        .map(|&j| sign * raw.ownership[j].tanh())
        .collect();
    Eval {
        policy,
        white_win: if white { win } else { loss } as f32,
        white_loss: if white { loss } else { win } as f32,
        no_result: 0.0,
        white_lead: (sign as f64 * lead) as f32,
        white_score: (sign as f64 * score) as f32,
        white_score_sq: score_sq as f32,
        var_time_left: var_time as f32,
        shortterm_winloss_error: errors.0 as f32,
        shortterm_score_error: errors.1 as f32,
        white_ownership: own,
    }
}
