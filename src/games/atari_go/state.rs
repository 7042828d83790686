//! Atari Go as a [`SearchGame`]: the tree's moves are the exact rules'
//! ([`AtariGo::check`]); new moves get priors from [`tactics`]; playouts
//! run a capture-race policy to the turn limit, where the count is exact.

use super::rules::{AtariGo, Outcome};
use super::tactics;
use crate::go::{Board, Color, Move, Point, MAX_POINTS};
use crate::search::rng::Rng;
use crate::search::tree::{Amaf, Prior, SearchGame};

// moves are numbered as Go's: a point's index, the pass 0
pub use crate::games::go::action::{to_action, to_move, PASS};

/// Pseudo-counts of the priors, in visits: won ones for moves that take,
/// save or threaten, lost ones for moves that give stones away.
#[derive(Clone, Copy, Debug)]
pub struct Priors {
    /// Every move: this many visits at 50 %.
    pub even: f32,
    /// A capture: won visits for the first stone, and per stone after.
    pub capture: f32,
    pub capture_stone: f32,
    /// An extension that saves own stones from atari (ladders read).
    pub rescue: f32,
    /// An atari that catches for sure (ladders read), and any other atari
    /// that does not walk into one.
    pub catch: f32,
    pub atari: f32,
    /// Lost visits for a stone that can be taken at once, per stone lost.
    pub self_atari: f32,
    /// Lost visits for filling an own eye, and for a pass.
    pub fill_eye: f32,
    pub pass: f32,
}

impl Default for Priors {
    fn default() -> Self {
        Priors {
            even: 4.0,
            capture: 20.0,
            capture_stone: 4.0,
            rescue: 16.0,
            catch: 20.0,
            atari: 4.0,
            self_atari: 12.0,
            fill_eye: 20.0,
            pass: 10.0,
        }
    }
}

/// How often (per 256) the playout policy takes each kind of move when
/// one is there, before falling back to a random one.
#[derive(Clone, Copy, Debug)]
pub struct Playout {
    pub capture: u32,
    pub rescue: u32,
    pub atari: u32,
}

impl Default for Playout {
    fn default() -> Self {
        Playout {
            capture: 240,
            rescue: 220,
            atari: 96,
        }
    }
}

/// An Atari Go position inside the search.
#[derive(Clone)]
pub struct AtariState {
    pub game: AtariGo,
    pub priors: Priors,
    pub playout: Playout,
    /// Weight of the capture margin next to the win/loss result.
    pub margin_weight: f32,
}

impl AtariState {
    pub fn new(game: AtariGo) -> AtariState {
        AtariState {
            game,
            priors: Priors::default(),
            playout: Playout::default(),
            margin_weight: 0.1,
        }
    }

    /// Black's result in [0, 1] as the game stands: the win by captures
    /// and stones played, and a little for the capture margin.
    pub fn result(&self) -> f32 {
        let g = &self.game;
        let win = match g.standing() {
            Outcome::Win(Color::Black) => 1.0,
            Outcome::Win(Color::White) => 0.0,
            Outcome::Draw => 0.5,
        };
        let margin = g.captures(Color::Black) as f32 - g.captures(Color::White) as f32;
        let s = (margin / 10.0).clamp(-1.0, 1.0) * 0.5 + 0.5;
        (1.0 - self.margin_weight) * win + self.margin_weight * s
    }

    fn prior(&self, p: Point) -> Prior {
        let b = self.game.board();
        let c = b.to_move();
        let cfg = &self.priors;
        let e = tactics::effect(b, c, p);
        let (mut visits, mut wins) = (cfg.even, cfg.even * 0.5);
        let mut won = |n: f32| {
            visits += n;
            wins += n;
        };
        if e.captures > 0 {
            won(cfg.capture + cfg.capture_stone * (e.captures - 1) as f32);
        }
        if e.rescues > 0 && e.liberties > 1 && tactics::escapes(b, c, p) {
            won(cfg.rescue);
        }
        if e.ataris > 0 && !e.self_atari() {
            if tactics::catches(b, c, p) {
                won(cfg.catch);
            } else {
                won(cfg.atari);
            }
        }
        let mut lost = 0.0;
        if e.self_atari() {
            lost += cfg.self_atari * b.joined_size(c, p) as f32;
        } else if tactics::own_eye(b, c, p) {
            lost += cfg.fill_eye;
        }
        Prior {
            action: p.0,
            visits: visits + lost,
            wins,
        }
    }
}

impl SearchGame for AtariState {
    fn actions(&self) -> usize {
        MAX_POINTS
    }

    fn to_move(&self) -> u8 {
        self.game.to_move() as u8
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn expand(&self, out: &mut Vec<Prior>) {
        let b = self.game.board();
        for &e in b.empty_points() {
            let p = Point(e);
            if self.game.is_legal(p) {
                out.push(self.prior(p));
            }
        }
        let pass = self.priors.pass;
        out.push(Prior {
            action: PASS,
            visits: pass,
            wins: pass * 0.1,
        });
    }

    fn play(&mut self, action: u16) {
        self.game.play_legal(to_move(action));
    }

    fn amaf_action(&self, action: u16) -> bool {
        action != PASS
    }

    fn playout(&mut self, rng: &mut Rng, amaf: &mut Amaf) -> f32 {
        while !self.game.is_over() {
            let c = self.game.to_move();
            let mv = policy_move(self.game.board(), &self.playout, rng);
            if let Move::Play(p) = mv {
                amaf.record(p.0, c as u8);
            }
            self.game.play_legal(mv);
        }
        self.result()
    }
}

/// The playout policy's move for the side to move: the biggest capture,
/// else a rescue that escapes, else an atari that does not walk into one,
/// each with its chance; else a random stone that cannot be taken at once,
/// never filling an own eye; else any legal stone that is no own eye; else
/// a pass. (The board's simple ko stands in for the game's: they differ
/// only after passes.)
pub fn policy_move(b: &Board, cfg: &Playout, rng: &mut Rng) -> Move {
    let c = b.to_move();
    let (mut capture, mut best_taken) = (None, 0);
    let mut rescues: [Point; 8] = [Point(0); 8];
    let mut ataris: [Point; 8] = [Point(0); 8];
    let (mut n_rescue, mut n_atari) = (0, 0);
    for &e in b.empty_points() {
        let p = Point(e);
        let (taken, saves, threatens) = glance(b, c, p);
        if taken > best_taken && b.is_legal(c, p) {
            (capture, best_taken) = (Some(p), taken);
        }
        if saves && n_rescue < rescues.len() {
            rescues[n_rescue] = p;
            n_rescue += 1;
        }
        if threatens && n_atari < ataris.len() {
            ataris[n_atari] = p;
            n_atari += 1;
        }
    }
    if let Some(p) = capture {
        if rng.chance(cfg.capture, 256) {
            return Move::Play(p);
        }
    }
    let safe = |p: Point| b.is_legal(c, p) && b.liberties_after(c, p, 2) >= 2;
    if n_rescue > 0 && rng.chance(cfg.rescue, 256) {
        let p = rescues[rng.below(n_rescue)];
        if safe(p) {
            return Move::Play(p);
        }
    }
    if n_atari > 0 && rng.chance(cfg.atari, 256) {
        let p = ataris[rng.below(n_atari)];
        if safe(p) {
            return Move::Play(p);
        }
    }
    let empties = b.empty_points();
    let n = empties.len();
    if n == 0 {
        return Move::Pass;
    }
    let start = rng.below(n);
    let mut fallback = None;
    for k in 0..n {
        let p = Point(empties[(start + k) % n]);
        if !b.is_sensible(c, p) {
            continue;
        }
        if b.liberties_after(c, p, 2) >= 2 || b.captures_at(c, p) {
            return Move::Play(p);
        }
        fallback.get_or_insert(p);
    }
    fallback.map_or(Move::Pass, Move::Play)
}

/// A quick look at the strings around `p`, from their liberty counts: the
/// stones a stone there would take, whether it touches an own string in
/// atari, and whether it touches an enemy string of two liberties.
#[inline]
fn glance(b: &Board, c: Color, p: Point) -> (usize, bool, bool) {
    let (own, opp) = (c.stone(), c.opp().stone());
    let (mut saves, mut threatens) = (false, false);
    let mut taken = 0;
    for n in b.neighbors(p) {
        let cell = b.at(n);
        let libs = b.liberty_count(n);
        if cell == opp {
            if libs == 1 {
                taken = taken.max(b.string_size(n));
            }
            threatens |= libs == 2;
        } else if cell == own {
            saves |= libs == 1;
        }
    }
    (taken, saves, threatens)
}
