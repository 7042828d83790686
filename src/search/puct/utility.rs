//! The value search's utility: KataGo's win/loss difference plus its
//! score terms.

/// A network's read of a position, or a finished game's result, from
/// side 0's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// The chance of winning, 0 to 1 (a draw half).
    pub win: f32,
    /// The expected score lead (0 where the game has no score), and the
    /// spread of the final score around it.
    pub score: f32,
    pub score_stdev: f32,
}

/// What the search maximises: KataGo's utility, the win/loss difference
/// (-1 to 1) plus, for the score, the expected value of
/// `2/pi atan((score - center) / scale)` twice: once around 0 (static)
/// and once around the score expected at the root (dynamic, so that the
/// search still cares for points when the game is decided).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Utility {
    pub static_factor: f32,
    pub dynamic_factor: f32,
    /// The static term's scale (KataGo: 2 times the board's side).
    pub static_scale: f32,
    /// The dynamic term's scale (KataGo: 0.75 times the board's side).
    pub dynamic_scale: f32,
    /// Side 0's score the dynamic term centres on.
    pub center: f32,
}

impl Utility {
    /// A utility on the win alone.
    pub const WIN: Utility = Utility {
        static_factor: 0.0,
        dynamic_factor: 0.0,
        static_scale: 1.0,
        dynamic_scale: 1.0,
        center: 0.0,
    };

    /// `e`'s utility for side 0.
    pub fn of(&self, e: &Evaluation) -> f32 {
        let mut u = 2.0 * e.win - 1.0;
        if self.static_factor != 0.0 {
            u += self.static_factor * expected_atan(e.score, e.score_stdev, 0.0, self.static_scale);
        }
        if self.dynamic_factor != 0.0 {
            let d = expected_atan(e.score, e.score_stdev, self.center, self.dynamic_scale);
            u += self.dynamic_factor * d;
        }
        u
    }
}

/// `E[2/pi atan((S - center) / scale)]` for S normal with `mean` and
/// `stdev` (KataGo tabulates it): Simpson's rule over 5 spreads either
/// side, in 48 steps, within 1e-4 of the integral for any spread (the
/// atan's bend is as narrow as `scale`, too narrow for a few
/// Gauss-Hermite nodes once the spread is wider).
pub fn expected_atan(mean: f32, stdev: f32, center: f32, scale: f32) -> f32 {
    let f = |s: f64| ((s - center as f64) / scale as f64).atan();
    let (m, sd) = (mean as f64, stdev as f64);
    if sd <= 0.0 {
        return (f(m) * std::f64::consts::FRAC_2_PI) as f32;
    }
    const STEPS: i32 = 48;
    let h = 10.0 / STEPS as f64;
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..=STEPS {
        let x = -5.0 + i as f64 * h;
        let k = if i == 0 || i == STEPS {
            1.0
        } else if i % 2 == 1 {
            4.0
        } else {
            2.0
        };
        let w = k * (-0.5 * x * x).exp();
        num += w * f(m + sd * x);
        den += w;
    }
    (num / den * std::f64::consts::FRAC_2_PI) as f32
}
