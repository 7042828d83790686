//! The network's read of a search position ([`GoState`]'s [`Valued`]
//! side): its evaluation from Black's view and the policy over the moves
//! the rules allow, from the past [`super::history`] keeps.

use super::nn;
use super::state::{to_action, GoState, PASS};
use crate::go::{Color, Move};
use crate::search::puct::{Evaluation, Valued};
use crate::search::tree::SearchGame;

/// The share of the likeliest move's prior that the moves the tree must
/// keep get at least (the tree keeps what has its `min_prior`, 1e-3).
const KEEP: f32 = 1e-2;

/// Black's view of the finished game `s`: its literal count.
fn result(s: &GoState) -> Evaluation {
    let margin = s.board.area_margin() as f32 - s.komi;
    let win = match margin {
        m if m > 0.0 => 1.0,
        m if m < 0.0 => 0.0,
        _ => 0.5,
    };
    Evaluation {
        win,
        score: margin,
        score_stdev: 0.0,
    }
}

impl Valued for GoState {
    fn evaluate(&self, root: bool, policy: &mut Vec<(u16, f32)>) -> Option<Evaluation> {
        if self.is_over() {
            return Some(result(self));
        }
        let h = self.history.as_deref()?;
        let net = nn::active();
        let b = &self.board;
        let pla = b.to_move();
        let (own, opp) = (self.passed[pla.index()], self.passed[pla.opp().index()]);
        let pos = h.position(b, pla, self.komi, self.rules.pass_ends(opp, own));
        let symmetry = h.symmetry(b);
        let optimism = self.optimism[(!root) as usize];
        let e = net.evaluate_at(&pos, symmetry, optimism);
        let w = b.width();
        let top = e.policy.iter().fold(0f32, |m, &p| m.max(p));
        for (i, &p) in e.policy[..b.area()].iter().enumerate() {
            let q = b.point(i % w, i / w);
            // the network's legality and the game's (the referees' rules),
            // and never an own true eye: the referee counts the board as it
            // stands, so filling one only gives the eye away
            if p >= 0.0 && b.is_sensible(pla, q) {
                policy.push((to_action(Move::Play(q)), p));
            }
        }
        // where retaking a ko ends the game (Riddles.io), the tree weighs
        // it as the likeliest move, so that its exact result is read: the
        // network knows no such move
        if let Some(k) = b.ko_point().filter(|_| self.rules.ko_retake_ends()) {
            policy.push((to_action(Move::Play(k)), top));
        }
        // passing may end the game: always a child, however unlikely
        policy.push((PASS, e.policy[b.area()].max(KEEP * top)));
        let stdev = (e.white_score_sq - e.white_score * e.white_score)
            .max(0.0)
            .sqrt();
        Some(Evaluation {
            win: e.winrate(Color::Black),
            score: e.lead(Color::Black),
            score_stdev: stdev,
        })
    }
}
