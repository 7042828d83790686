//! KataGo's V7 input features (`NNInputs::fillRowV7` of KataGo's
//! `cpp/neuralnet/nninputs.cpp`, v1.17.2) for tengen's rules, as KataGo's
//! GTP command `kata-raw-nn` computes them: area scoring, positional
//! superko, suicide illegal, no button, no tax, komi as given, up to five
//! moves of history, no pass hacks. A KataGo net reads exactly these, so
//! any difference is a different input to the net.
//!
//! Planes (each `width * height` points, row by row from the top left):
//! 0 on board; 1/2 own/opponent stones; 3/4/5 stones of strings with
//! 1/2/3 liberties; 6 the simple-ko point and positional-superko bans;
//! 9 - 13 the last five moves; 14 stones a ladder captures, 15/16 the
//! same on the boards one and two moves ago; 17 the attacker's moves that
//! ladder an opponent's two-liberty string; 18/19 own/opponent area
//! (pass-alive stones and territory, other stones, regions one colour
//! surrounds). Globals: 0 - 4 which of the last five moves were passes;
//! 5 own komi / 20; 6/7 the ko rule; 14 a pass would end the game; 18 the
//! komi's parity wave.
//!
//! The board work is KataGo's own, ported: its board for the ladder
//! reading ([`chains`]), its ladder search ([`ladder`]), its pass-alive
//! area ([`area`]).

mod area;
mod chains;
#[cfg(test)]
mod fixture;
mod ladder;
#[cfg(test)]
mod tests;

use crate::deps::FxHashSet;
use crate::go::{Board, Cell, Color, Move, Point, MAX_POINTS};
use chains::Chains;

/// Spatial feature planes of the V7 inputs.
pub const SPATIAL: usize = 22;
/// Global features of the V7 inputs.
pub const GLOBAL: usize = 19;

/// What the features need of a position beyond its board.
#[derive(Clone, Copy)]
pub struct Position<'a> {
    /// The board as it stands.
    pub board: &'a Board,
    /// The side to move.
    pub pla: Color,
    /// The moves of the game so far, oldest first: the last five feed
    /// planes 9 - 13 and globals 0 - 4, alternating back from `pla`'s
    /// opponent; their count caps the history the net sees.
    pub moves: &'a [(Color, Move)],
    /// The boards one and two moves ago, where known (ladder planes 15
    /// and 16), of `board`'s size. An unknown one is taken to be the board
    /// after it, as KataGo's history holds its first board in place of
    /// the boards before its start.
    pub recent: [Option<&'a Board>; 2],
    /// Every position seen so far (positional hashes), where positional
    /// superko holds: its bans join the ko plane and leave the legal moves.
    pub seen: Option<&'a FxHashSet<u64>>,
    /// White's komi as the game is counted.
    pub komi: f32,
    /// Whether a pass by `pla` would end the game.
    pub pass_ends: bool,
    /// Whether the game has ended.
    pub over: bool,
}

/// A position's features: `spatial` plane by plane, each row by row from
/// the top left (`SPATIAL * area` values, 0 or 1), and the globals.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    pub width: usize,
    pub height: usize,
    pub spatial: Vec<u8>,
    pub global: [f32; GLOBAL],
}

/// KataGo's `NNPos::KOMI_CLIP_RADIUS`: the komi is clipped to the board's
/// area plus this.
const KOMI_CLIP_RADIUS: f32 = 20.0;

impl Features {
    /// All zero: the buffer [`fill`] writes into.
    pub fn new(width: usize, height: usize) -> Features {
        Features {
            width,
            height,
            spatial: vec![0; SPATIAL * width * height],
            global: [0.0; GLOBAL],
        }
    }

    /// Number of points of a plane.
    pub fn area(&self) -> usize {
        self.width * self.height
    }

    /// Plane `k`, row by row from the top left.
    pub fn plane(&self, k: usize) -> &[u8] {
        let a = self.area();
        &self.spatial[k * a..(k + 1) * a]
    }

    /// Plane `k` at column `x`, row `y` (row 0 at the top).
    pub fn at(&self, k: usize, x: usize, y: usize) -> u8 {
        self.spatial[(k * self.height + y) * self.width + x]
    }
}

/// The V7 features of `pos`.
pub fn features(pos: &Position) -> Features {
    let mut out = Features::new(pos.board.width(), pos.board.height());
    fill(pos, &mut out);
    out
}

/// The V7 features of `pos` into `out`, reusing its buffer. Panics if a
/// board in `pos.recent` is not the size of `pos.board`.
pub fn fill(pos: &Position, out: &mut Features) {
    let b = pos.board;
    let (w, h) = (b.width(), b.height());
    let area = w * h;
    out.width = w;
    out.height = h;
    out.spatial.clear();
    out.spatial.resize(SPATIAL * area, 0);
    out.global = [0.0; GLOBAL];
    let (pla, opp) = (pos.pla, pos.pla.opp());
    let sp = &mut out.spatial[..];

    for (i, p) in b.points().enumerate() {
        sp[i] = 1;
        if let Some(c) = b.at(p).color() {
            sp[if c == pla { area } else { 2 * area } + i] = 1;
            let libs = b.liberty_count(p);
            if (1..=3).contains(&libs) {
                sp[(2 + libs) * area + i] = 1;
            }
        }
    }

    if let Some(k) = b.ko_point() {
        sp[6 * area + index(b, k)] = 1;
    }
    if pos.seen.is_some() {
        for (i, p) in b.points().enumerate() {
            if superko_banned(pos, p) {
                sp[6 * area + i] = 1;
            }
        }
    }

    let chains = Chains::new(b);
    let mut owner = [0u8; MAX_POINTS];
    area::area(&chains, &mut owner);
    let (own, theirs) = (pla.stone() as u8, opp.stone() as u8);
    for (i, p) in b.points().enumerate() {
        match owner[p.idx()] {
            o if o == own => sp[18 * area + i] = 1,
            o if o == theirs => sp[19 * area + i] = 1,
            _ => {}
        }
    }

    // the last moves, alternating back from the opponent; a finished game
    // shows only its last move
    let max_turns = if pos.over { 1 } else { 5 };
    let mut turns = 0;
    for k in 0..max_turns.min(pos.moves.len()) {
        let (c, mv) = pos.moves[pos.moves.len() - 1 - k];
        if c != if k % 2 == 0 { opp } else { pla } {
            break;
        }
        turns = k + 1;
        match mv {
            Move::Pass => out.global[k] = 1.0,
            Move::Play(p) => sp[(9 + k) * area + index(b, p)] = 1,
        }
    }

    let mut search = ladder::Search::default();
    ladder::iter_ladders(&chains, &mut search, |loc, working| {
        sp[14 * area + pos_of(&chains, loc)] = 1;
        if chains.color(loc) == theirs && chains.num_libs(loc) > 1 {
            for &m in working {
                sp[17 * area + pos_of(&chains, m as usize)] = 1;
            }
        }
    });
    // boards before the history the net sees are the board after it
    for r in pos.recent.iter().flatten() {
        assert!(
            (r.width(), r.height()) == (w, h),
            "a board before this one is {}x{}, this one {w}x{h}",
            r.width(),
            r.height()
        );
    }
    let prev = match pos.recent[0] {
        Some(r) if turns >= 1 => r,
        _ => b,
    };
    let prev2 = match pos.recent[1] {
        Some(r) if turns >= 2 => r,
        _ => prev,
    };
    ladder_plane(prev, b, 14, 15, sp, &mut search);
    ladder_plane(prev2, prev, 15, 16, sp, &mut search);

    let mut komi = if pla == Color::White {
        pos.komi
    } else {
        -pos.komi
    };
    let bound = area as f32 + KOMI_CLIP_RADIUS;
    komi = komi.clamp(-bound, bound);
    out.global[5] = komi / 20.0;
    // positional superko
    out.global[6] = 1.0;
    out.global[7] = 0.5;
    out.global[14] = if pos.pass_ends { 1.0 } else { 0.0 };
    out.global[18] = parity_wave(komi, area % 2 == 0);
}

/// Plane `k` gets the laddered stones of `board`: a copy of plane `same`
/// when `board` is the one that plane was read on.
fn ladder_plane(
    board: &Board,
    same_as: &Board,
    same: usize,
    k: usize,
    sp: &mut [u8],
    search: &mut ladder::Search,
) {
    let area = board.area();
    if std::ptr::eq(board, same_as) {
        sp.copy_within(same * area..(same + 1) * area, k * area);
        return;
    }
    let chains = Chains::new(board);
    ladder::iter_ladders(&chains, search, |loc, _| {
        sp[k * area + pos_of(&chains, loc)] = 1;
    });
}

/// KataGo's triangle wave of the own komi: 0 at the komis that can draw,
/// peaking half a point above them (area scoring: a draw needs a komi of
/// the board area's parity).
fn parity_wave(komi: f32, even_area: bool) -> f32 {
    let floor = if even_area {
        (komi / 2.0).floor() * 2.0
    } else {
        ((komi - 1.0) / 2.0).floor() * 2.0 + 1.0
    };
    let delta = (komi - floor).clamp(0.0, 2.0);
    if delta < 0.5 {
        delta
    } else if delta < 1.5 {
        1.0 - delta
    } else {
        delta - 2.0
    }
}

/// Legal moves of `pos.pla` (KataGo's `BoardHistory::isLegal` under these
/// rules): `area + 1` entries, row by row from the top left, then the
/// pass (always legal).
pub fn legal(pos: &Position) -> Vec<bool> {
    let b = pos.board;
    let ko = b.ko_point();
    let mut out: Vec<bool> = b
        .points()
        .map(|p| {
            b.at(p) == Cell::Empty
                && ko != Some(p)
                && !is_suicide(b, pos.pla, p)
                && !superko_banned(pos, p)
        })
        .collect();
    out.push(true);
    out
}

/// KataGo's `superKoBanned` for `pos.pla` at `p`: an empty point, not the
/// simple-ko point, not suicide, whose move would repeat a position seen.
fn superko_banned(pos: &Position, p: Point) -> bool {
    let b = pos.board;
    let Some(seen) = pos.seen else {
        return false;
    };
    // the set first: it rules out nearly every point
    b.at(p) == Cell::Empty
        && seen.contains(&b.hash_after(pos.pla, p))
        && b.ko_point() != Some(p)
        && !is_suicide(b, pos.pla, p)
}

/// KataGo's `isSuicide` (multi-stone suicide illegal), whatever legality
/// the board was set up with.
fn is_suicide(b: &Board, c: Color, p: Point) -> bool {
    !b.neighbors(p).into_iter().any(|n| match b.at(n) {
        Cell::Empty => true,
        Cell::Off => false,
        s if s == c.stone() => b.liberty_count(n) > 1,
        _ => b.liberty_count(n) == 1,
    })
}

/// The plane index of a point.
fn index(b: &Board, p: Point) -> usize {
    let (x, y) = b.xy(p);
    y * b.width() + x
}

/// The plane index of a KataGo location.
fn pos_of(c: &Chains, loc: usize) -> usize {
    let s = c.width + 1;
    (loc / s - 1) * c.width + loc % s - 1
}
