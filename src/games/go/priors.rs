//! Priors: the pseudo-counts a new node starts with, from what is known of
//! a move before any playout (captures, ataris, ladders, shape, distance
//! to the last move, the line in open areas, the learnt prior).

use super::features::features;
use super::gammas;
use super::ladder::{self, Ladders, Run};
use super::patterns;
use super::policy;
use crate::deps::ArrayVec;
use crate::go::{Board, Cell, Color, Move, Point, MAX_SIZE};
use crate::search::tree::Prior;

/// Prior pseudo-counts, as (visits, wins) added for each feature.
#[derive(Clone, Copy, Debug)]
pub struct PriorConfig {
    /// Every move: this many visits at 50 %.
    pub even: f32,
    pub capture_one: f32,
    pub capture_many: f32,
    pub save_atari: f32,
    /// An atari after which the string cannot escape (captured at once or
    /// in a ladder): a win.
    pub ladder_atari: f32,
    /// Extending an own string in atari into a ladder that catches it: a
    /// loss (playouts rarely read the ladder to its end, so they find
    /// running out fine).
    pub ladder_escape: f32,
    /// Giving three liberties to an own string of two that an atari would
    /// catch (at once or in a ladder): a win, the answer to the threat
    /// `ladder_atari` rewards on the other side.
    pub ladder_defence: f32,
    pub pattern: f32,
    pub self_atari: f32,
    /// Bonus by distance to the last move (1, 2, 3).
    pub near_last: [f32; 3],
    /// Share of `near_last` kept in the opening (fewer stones than 1/8 of
    /// the board), where a move next to the last one is rarely urgent and
    /// answering every stone at close range starts fights instead of
    /// taking the big points.
    pub opening_near_last: f32,
    /// First line (in the opening, or with no stone within 2): a loss.
    pub first_line: f32,
    /// Second line (in the opening, or in an open area): a loss.
    pub low_line_open: f32,
    /// Third and fourth line in an open area: a win.
    pub good_line_open: f32,
    /// The learnt prior ([`gammas`]): a move with probability `p` among
    /// the legal moves gets `learned * p ^ learned_power` won visits.
    pub learned: f32,
    pub learned_power: f32,
    /// The policy network ([`super::net`]), asked at the root and at busy
    /// nodes: a move with probability `p` gets `net * p ^ net_power` won
    /// visits (0: never asked).
    pub net: f32,
    pub net_power: f32,
    /// The pass move starts with this many visits (at 10 % while the board
    /// is open, 50 % late in the game).
    pub pass: f32,
}

impl Default for PriorConfig {
    fn default() -> Self {
        PriorConfig {
            even: 10.0,
            capture_one: 15.0,
            capture_many: 30.0,
            save_atari: 20.0,
            ladder_atari: 15.0,
            ladder_escape: 20.0,
            ladder_defence: 0.0,
            pattern: 10.0,
            self_atari: 15.0,
            near_last: [20.0, 14.0, 6.0],
            opening_near_last: 1.0,
            first_line: 20.0,
            low_line_open: 10.0,
            good_line_open: 10.0,
            learned: 0.0,
            learned_power: 0.5,
            net: 1600.0,
            net_power: 1.0,
            pass: 10.0,
        }
    }
}

/// Priors of the side to move playing the legal point `p` on `b`;
/// `ladders` are the points where strings of two liberties are caught or
/// saved ([`Ladders`]).
#[inline]
pub fn prior(b: &Board, cfg: &PriorConfig, p: Point, ladders: &Ladders) -> Prior {
    let c = b.to_move();
    let (mut visits, mut wins) = (cfg.even, cfg.even * 0.5);
    let win = |n: f32, v: &mut f32, w: &mut f32| {
        *v += n;
        *w += n;
    };
    let captured = b.captured_by(c, p);
    if captured > 0 {
        let n = if captured == 1 {
            cfg.capture_one
        } else {
            cfg.capture_many
        };
        win(n, &mut visits, &mut wins);
    }
    let saves = match escape_from_atari(b, c, p) {
        Some(Run::Escapes) => true,
        Some(Run::Ladder) => {
            visits += cfg.ladder_escape;
            false
        }
        Some(Run::Caught) | None => false,
    };
    if saves {
        win(cfg.save_atari, &mut visits, &mut wins);
    }
    if ladders.ataris.contains(&p) {
        win(cfg.ladder_atari, &mut visits, &mut wins);
    }
    if ladders.defences.contains(&p) {
        win(cfg.ladder_defence, &mut visits, &mut wins);
    }
    if captured == 0 && policy::self_atari(b, c, p) {
        visits += cfg.self_atari;
    }
    if patterns::matches(b, p) {
        win(cfg.pattern, &mut visits, &mut wins);
    }
    // the opening: few stones on the board
    let opening = (b.area() - b.empty_points().len()) * 8 < b.area();
    if let Move::Play(last) = b.last_moves()[0] {
        let ((x, y), (lx, ly)) = (b.xy(p), b.xy(last));
        let d = x.abs_diff(lx) + y.abs_diff(ly);
        if (1..=3).contains(&d) {
            let share = if opening { cfg.opening_near_last } else { 1.0 };
            win(share * cfg.near_last[d - 1], &mut visits, &mut wins);
        }
    }
    let (x, y) = b.xy(p);
    let line = 1 + x.min(y).min(b.width() - 1 - x).min(b.height() - 1 - y);
    if b.width() >= 9 && captured == 0 && !saves {
        match line {
            1 if opening || open_area(b, p, 2) => visits += cfg.first_line,
            2 if opening || open_area(b, p, 3) => visits += cfg.low_line_open,
            3 | 4 if open_area(b, p, 3) => win(cfg.good_line_open, &mut visits, &mut wins),
            _ => {}
        }
    }
    Prior {
        action: p.0,
        visits,
        wins,
    }
}

/// How extending at `p` fares for an own string in atari there; `None`
/// when `p` is the last liberty of no own string.
fn escape_from_atari(b: &Board, c: Color, p: Point) -> Option<Run> {
    b.neighbors(p)
        .iter()
        .any(|&n| b.at(n) == c.stone() && b.liberty_count(n) == 1)
        .then(|| ladder::run_from_atari(b, c, p))
}

/// No stone within Manhattan distance `r` of `p`.
fn open_area(b: &Board, p: Point, r: i64) -> bool {
    !any_within(b, p, r, Cell::is_stone)
}

/// Whether a point within Manhattan distance `r` of `p` holds a cell
/// that `wanted` accepts.
fn any_within(b: &Board, p: Point, r: i64, wanted: impl Fn(Cell) -> bool) -> bool {
    let (x, y) = b.xy(p);
    for dy in -r..=r {
        for dx in -(r - dy.abs())..=(r - dy.abs()) {
            if let Some(q) = b.try_point(x as i64 + dx, y as i64 + dy) {
                if wanted(b.at(q)) {
                    return true;
                }
            }
        }
    }
    false
}

/// Adds the learnt prior to the priors of the moves `children` on `b`:
/// won visits in proportion to a power of each move's probability among
/// them, as Pachi weighs its pattern prior. A bonus and never a penalty:
/// the unlikely moves keep what the other priors give them.
pub fn add_learned(b: &Board, cfg: &PriorConfig, children: &mut [Prior]) {
    let c = b.to_move();
    let table = gammas::Gammas::builtin();
    // on the stack: one expansion in a few playouts asks for this
    let strengths: ArrayVec<f32, { MAX_SIZE * MAX_SIZE }> = children
        .iter()
        .map(|child| table.strength(&features(b, c, Point(child.action))))
        .collect();
    let total: f32 = strengths.iter().sum();
    for (child, s) in children.iter_mut().zip(strengths) {
        let bonus = cfg.learned * (s / total).powf(cfg.learned_power);
        child.visits += bonus;
        child.wins += bonus;
    }
}

/// Adds the network's prior for the moves of `b` to `out`, from its
/// `policy` (a probability a point of `b`, row by row, then pass;
/// negative where illegal): won visits in proportion to a power of each
/// move's probability, a bonus as [`add_learned`] gives; only sensible
/// moves, their probabilities made to sum to 1.
pub fn add_policy(b: &Board, policy: &[f32], cfg: &PriorConfig, out: &mut Vec<Prior>) {
    let c = b.to_move();
    let w = b.width();
    let sensible: ArrayVec<(Point, f32), { MAX_SIZE * MAX_SIZE }> = policy[..b.area()]
        .iter()
        .enumerate()
        .map(|(i, &prob)| (b.point(i % w, i / w), prob))
        .filter(|&(p, prob)| prob > 0.0 && b.is_sensible(c, p))
        .collect();
    let total: f32 = sensible.iter().map(|m| m.1).sum();
    for (p, prob) in sensible {
        let bonus = cfg.net * (prob / total).powf(cfg.net_power);
        out.push(Prior {
            action: p.0,
            visits: bonus,
            wins: bonus,
        });
    }
}

/// The move the learnt prior finds likeliest for the side to move on `b`
/// (a legal one that fills no own eye): the opponent's expected reply when
/// we ponder. `None` when there is none.
pub fn likeliest(b: &Board) -> Option<Point> {
    let c = b.to_move();
    let table = gammas::Gammas::builtin();
    b.empty_points()
        .iter()
        .map(|&e| Point(e))
        .filter(|&p| b.is_sensible(c, p))
        .map(|p| (table.strength(&features(b, c, p)), p))
        .max_by(|x, y| x.0.total_cmp(&y.0).then(y.1.cmp(&x.1)))
        .map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::super::ladder::ladders;
    use super::super::policy::PolicyConfig;
    use super::*;
    use crate::search::rng::Rng;

    /// A position and the prior settings, as a search node sees them.
    struct Node {
        board: Board,
        priors: PriorConfig,
    }

    fn state(board: Board, priors: PriorConfig) -> Node {
        Node { board, priors }
    }

    /// The priors of `p` with no ladder read.
    fn plain(s: &Node, p: Point) -> Prior {
        prior(&s.board, &s.priors, p, &Ladders::default())
    }

    /// The priors of every sensible move, ladders read as the search reads
    /// them, and the learnt prior added.
    fn expand(s: &Node) -> Vec<Prior> {
        let (b, cfg) = (&s.board, &s.priors);
        let read = ladders(b, cfg.ladder_atari != 0.0, cfg.ladder_defence != 0.0);
        let mut out: Vec<Prior> = b
            .empty_points()
            .iter()
            .map(|&e| Point(e))
            .filter(|&p| b.is_sensible(b.to_move(), p))
            .map(|p| prior(b, cfg, p, &read))
            .collect();
        if cfg.learned > 0.0 {
            add_learned(b, cfg, &mut out);
        }
        out
    }

    #[test]
    fn the_opening_share_scales_only_the_opening_s_near_last_bonus() {
        let mut b = Board::new(19, 19);
        b.play_legal(Color::Black, b.point(15, 3));
        let (next, far) = (b.point(15, 4), b.point(9, 9));
        let full = state(b.clone(), PriorConfig::default());
        let none = state(
            b.clone(),
            PriorConfig {
                opening_near_last: 0.0,
                ..PriorConfig::default()
            },
        );
        let near = PriorConfig::default().near_last[0];
        assert_eq!(plain(&full, next).wins - plain(&none, next).wins, near);
        assert_eq!(plain(&full, far).wins, plain(&none, far).wins);
        // later in the game the whole bonus counts again
        let mut rng = Rng::new(1);
        let mut late = b;
        while late.empty_points().len() * 8 > late.area() * 7 {
            if let Move::Play(p) = policy::random_move(&late, &mut rng, &PolicyConfig::default()) {
                late.play_legal(late.to_move(), p);
            }
        }
        let Move::Play(last) = late.last_moves()[0] else {
            panic!("a stone was played last")
        };
        let next = late
            .neighbors(last)
            .into_iter()
            .find(|&n| late.at(n) == Cell::Empty && late.is_legal(late.to_move(), n))
            .expect("an empty neighbour");
        let (full, none) = (state(late.clone(), full.priors), state(late, none.priors));
        assert_eq!(plain(&full, next).wins, plain(&none, next).wins);
    }

    #[test]
    fn the_learnt_prior_adds_won_visits_by_the_table_s_probabilities() {
        let mut b = Board::new(19, 19);
        for (x, y) in [(3, 3), (15, 15), (15, 3), (3, 15), (16, 5)] {
            b.play_legal(b.to_move(), b.point(x, y));
        }
        let learned = PriorConfig {
            learned: 50.0,
            learned_power: 1.0,
            ..PriorConfig::default()
        };
        let (with, without) = (
            state(b.clone(), learned),
            state(b.clone(), PriorConfig::default()),
        );
        let (a, z) = (expand(&with), expand(&without));
        assert_eq!(a.len(), z.len());
        let table = gammas::Gammas::builtin();
        let c = b.to_move();
        let strength = |action| table.strength(&features(&b, c, Point(action)));
        let total: f32 = a.iter().map(|p| strength(p.action)).sum();
        let mut added = 0.0;
        for (x, y) in a.iter().zip(&z) {
            let bonus = x.visits - y.visits;
            // all won
            assert!((x.wins - y.wins - bonus).abs() < 1e-3);
            assert!((bonus - 50.0 * strength(x.action) / total).abs() < 1e-3);
            added += bonus;
        }
        // at power 1 the bonuses share out exactly the 50 visits
        assert!((added - 50.0).abs() < 0.01, "{added}");
    }

    #[test]
    fn running_into_a_ladder_is_no_save() {
        let mut b = Board::from_ascii(ladder::LADDER).unwrap();
        b.set_to_move(Color::White);
        let run = b.point(4, 3);
        assert_eq!(escape_from_atari(&b, Color::White, run), Some(Run::Ladder));
        let mut free = Board::from_ascii(&ladder::LADDER.replacen("O . X", "O . .", 1)).unwrap();
        free.set_to_move(Color::White);
        assert_eq!(
            escape_from_atari(&free, Color::White, run),
            Some(Run::Escapes)
        );
        // a point next to no string in atari saves nothing
        let corner = free.point(0, 0);
        assert_eq!(escape_from_atari(&free, Color::White, corner), None);

        // the priors: running out of the ladder loses visits, and an atari
        // that catches a stone of two liberties in a ladder wins some
        let mut go = state(b.clone(), PriorConfig::default());
        go.priors.ladder_escape = 25.0;
        let prior = |s: &Node, p: Point| *expand(s).iter().find(|x| x.action == p.0).unwrap();
        let (ran, other) = (prior(&go, run), prior(&go, b.point(5, 5)));
        assert!(
            ran.wins / ran.visits < other.wins / other.visits,
            "{ran:?} {other:?}"
        );
        go.priors.ladder_escape = 0.0;
        assert!(prior(&go, run).visits + 24.0 < ran.visits);

        let two = Board::from_ascii(
            ". . . . . . .\n\
             . . . . . . .\n\
             . . . X . . .\n\
             . . X O . . .\n\
             . . . . X . .\n\
             . . . . . . .\n\
             . . . . . . .",
        )
        .unwrap();
        let ataris = ladders(&two, true, false).ataris;
        let both = [two.point(4, 3), two.point(3, 4)];
        assert!(ataris.len() == 1 && both.contains(&ataris[0]), "{ataris:?}");
        go.board = two.clone();
        go.priors.ladder_atari = 30.0;
        let (a, other) = (prior(&go, ataris[0]), prior(&go, two.point(0, 6)));
        assert!(a.wins - other.wins >= 30.0, "{a:?} {other:?}");

        // white to move: either liberty gives the stone three, out of reach
        // of the ladder; black's stones have liberties to spare
        let mut two_w = two.clone();
        two_w.set_to_move(Color::White);
        let read = ladders(&two_w, true, true);
        assert!(read.ataris.is_empty(), "{:?}", read.ataris);
        let mut defences = read.defences.to_vec();
        defences.sort();
        let mut expected = both.to_vec();
        expected.sort();
        assert_eq!(defences, expected);
        go.board = two_w;
        go.priors.ladder_defence = 0.0;
        let before = prior(&go, both[0]);
        go.priors.ladder_defence = 12.0;
        let after = prior(&go, both[0]);
        assert!(
            (after.wins - before.wins - 12.0).abs() < 1e-3,
            "{before:?} {after:?}"
        );
        // with a third liberty the stone is in no danger: nothing to defend
        let three = two.to_string().replacen("X . .", ". . .", 1);
        let mut free = Board::from_ascii(&three).unwrap();
        free.set_to_move(Color::White);
        assert!(ladders(&free, true, true).defences.is_empty(), "{free}");
    }
}
