//! Perft-like consistency: thousands of seeded random games, the board's
//! incremental state checked against a rebuild after every move, the
//! predictions (`hash_after`, `liberties_after`) checked against the moves,
//! and a golden checksum over the games so that any change of behaviour of
//! the rules is noticed. Then positional superko is cross-checked against a
//! brute-force reference on small boards.
//!
//! Moves are chosen here with `Rng::below` among points listed row by row
//! (never through `search::playout`, whose policy may change for speed), and
//! the checksum hashes coordinates and cells, not internal indices or
//! Zobrist hashes: it depends only on the rules (`is_eye` included, as the
//! move filter) and on `Rng`.

use tengen::go::{Board, Cell, Color, Game, Illegal, Move, Point};
use tengen::search::rng::Rng;

/// FNV-1a, 64 bits.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn byte(&mut self, b: u8) {
        self.0 ^= b as u64;
        self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
    }
    fn num(&mut self, v: u64) {
        for b in v.to_le_bytes() {
            self.byte(b);
        }
    }
    fn cells(&mut self, b: &Board) {
        for p in b.points() {
            self.byte(match b.at(p) {
                Cell::Empty => 0,
                Cell::Black => 1,
                Cell::White => 2,
                Cell::Off => 3,
            });
        }
    }
    fn mv(&mut self, b: &Board, mv: Move) {
        match mv {
            Move::Pass => self.byte(0xFF),
            Move::Play(p) => {
                let (x, y) = b.xy(p);
                self.byte(x as u8);
                self.byte(y as u8);
            }
        }
    }
}

/// Plays `c` at `p` on `board` after checking what the board predicts about
/// the move: hash, liberties, captures, empty points.
fn play_checked(board: &mut Board, c: Color, p: Point) -> u32 {
    let hash = board.hash_after(c, p);
    // liberties_after counts up to a limit (of at most 8)
    let libs: Vec<usize> = (1..=8).map(|l| board.liberties_after(c, p, l)).collect();
    let two = board.keeps_two_liberties(c, p);
    let captures = board.captures_at(c, p);
    let empties = board.empty_points().len();
    let taken_before = board.captures_by(c);
    let captured = board.play_stone(c, p).expect("a legal move");
    assert_eq!(board.hash(), hash, "hash_after\n{board:?}");
    let real = board.liberty_count(p);
    for (l, &predicted) in (1..=8).zip(&libs) {
        assert_eq!(
            predicted.min(l),
            real.min(l),
            "liberties_after with limit {l}\n{board:?}"
        );
    }
    assert_eq!(two, real >= 2, "keeps_two_liberties\n{board:?}");
    assert_eq!(captures, captured > 0, "captures_at\n{board:?}");
    assert_eq!(board.empty_points().len() + 1, empties + captured as usize);
    assert_eq!(board.captures_by(c), taken_before + captured);
    assert_eq!(board.at(p), c.stone());
    assert_eq!(board.to_move(), c.opp());
    captured
}

/// The points (row by row) where the side to move may play by the board's
/// rules without filling one of its own eyes.
fn board_choices(b: &Board) -> Vec<Point> {
    let c = b.to_move();
    // the playout's fast filter agrees with the rules, for either colour
    for p in b.points().filter(|&p| b.at(p) == Cell::Empty) {
        for who in [Color::Black, Color::White] {
            assert_eq!(
                b.is_sensible(who, p),
                b.is_legal(who, p) && !b.is_eye(who, p),
                "is_sensible({who}, {:?})\n{b:?}",
                b.xy(p)
            );
        }
    }
    b.points()
        .filter(|&p| b.is_legal(c, p) && !b.is_eye(c, p))
        .collect()
}

/// A random game with the board alone, until two passes or `cap` moves.
/// Checks consistency after every `every`-th move. Returns the game's
/// checksum and its length.
fn board_game(w: usize, h: usize, seed: u64, cap: usize, every: usize) -> (u64, usize) {
    let mut b = Board::new(w, h);
    let mut rng = Rng::new(seed);
    let mut f = Fnv::new();
    let (mut n, mut passes) = (0, 0);
    while passes < 2 && n < cap {
        let choices = board_choices(&b);
        let mv = if choices.is_empty() {
            Move::Pass
        } else {
            Move::Play(choices[rng.below(choices.len())])
        };
        f.mv(&b, mv);
        match mv {
            Move::Pass => {
                b.pass();
                passes += 1;
            }
            Move::Play(p) => {
                let c = b.to_move();
                let captured = play_checked(&mut b, c, p);
                f.byte(captured as u8);
                passes = 0;
            }
        }
        n += 1;
        if n % every == 0 {
            if let Err(e) = b.check_consistency() {
                panic!("{w}x{h} seed {seed} move {n}: {e}\n{b:?}");
            }
            assert_eq!(b.area_margin() as f32, b.area_score(0.0).margin());
        }
    }
    b.check_consistency().unwrap();
    assert_eq!(b.area_margin() as f32, b.area_score(0.0).margin());
    f.cells(&b);
    f.num(n as u64);
    f.num(b.captures_by(Color::Black) as u64);
    f.num(b.captures_by(Color::White) as u64);
    f.num(b.area_margin() as u64);
    (f.0, n)
}

/// A random game through `Game`: uniform among its legal stone moves that
/// do not fill an own eye, pass when there is none. Also checks that the
/// game's legal moves are the board's minus exactly the repetitions.
fn game_game(w: usize, h: usize, seed: u64, cap: usize) -> (u64, usize, usize) {
    let mut g = Game::new(w, h, 7.5);
    let mut rng = Rng::new(seed);
    let mut f = Fnv::new();
    let mut superko = 0;
    while !g.is_over() && g.moves().len() < cap {
        let c = g.to_move();
        let legal = g.legal_moves();
        assert_eq!(legal.last(), Some(&Move::Pass));
        let b = g.board();
        for p in b.points() {
            let in_game = legal.contains(&Move::Play(p));
            assert_eq!(in_game, g.is_legal(Move::Play(p)));
            match (b.check(c, p), g.check(Move::Play(p))) {
                (Ok(()), Ok(())) => assert!(!g.has_seen(b.hash_after(c, p))),
                (Ok(()), Err(Illegal::Superko)) => {
                    assert!(g.has_seen(b.hash_after(c, p)));
                    superko += 1;
                }
                (Err(e), Err(e2)) => assert_eq!(e, e2),
                (x, y) => panic!("board says {x:?}, game says {y:?}"),
            }
        }
        let choices: Vec<Point> = legal
            .iter()
            .filter_map(|m| m.point())
            .filter(|&p| !b.is_eye(c, p))
            .collect();
        let mv = if choices.is_empty() {
            Move::Pass
        } else {
            Move::Play(choices[rng.below(choices.len())])
        };
        f.mv(b, mv);
        if let Move::Play(p) = mv {
            // predictions checked on a copy, then the game plays the move
            let mut copy = b.clone();
            play_checked(&mut copy, c, p);
            let captured = g.play(mv).unwrap();
            assert_eq!(*g.board(), copy);
            f.byte(captured as u8);
        } else {
            g.play(mv).unwrap();
        }
        assert!(g.has_seen(g.board().hash()));
        if let Err(e) = g.board().check_consistency() {
            panic!(
                "{w}x{h} seed {seed} move {}: {e}\n{:?}",
                g.moves().len(),
                g.board()
            );
        }
    }
    let b = g.board();
    f.cells(b);
    f.num(g.moves().len() as u64);
    f.num(b.captures_by(Color::Black) as u64);
    f.num(b.captures_by(Color::White) as u64);
    f.num(b.area_score(g.komi()).margin().to_bits() as u64);
    (f.0, g.moves().len(), superko)
}

fn check_golden(name: &str, got: u64, golden: u64) {
    assert_eq!(
        got, golden,
        "{name}: checksum {got:#018x}, golden {golden:#018x}. The rules (or Rng) \
         behave differently; if that is intended, update the golden value."
    );
}

#[test]
fn random_games_9x9_through_game() {
    let mut sum = Fnv::new();
    let (mut moves, mut superko) = (0, 0);
    for seed in 0..2000 {
        let (h, n, s) = game_game(9, 9, seed, 4 * 81);
        sum.num(h);
        moves += n;
        superko += s;
    }
    // the games are real games, and superko really comes up
    assert!(moves > 2000 * 80, "{moves} moves");
    assert!(superko > 0, "no superko refusal in {moves} moves");
    check_golden("9x9 games", sum.0, 0xb46a_afce_3210_4e28);
}

#[test]
fn random_games_9x9_board_alone() {
    let mut sum = Fnv::new();
    let mut moves = 0;
    for seed in 0..2000 {
        let (h, n) = board_game(9, 9, 1_000_000 + seed, 3 * 81, 1);
        sum.num(h);
        moves += n;
    }
    assert!(moves > 2000 * 80, "{moves} moves");
    check_golden("9x9 board games", sum.0, 0x3d26_7df8_d3de_e07c);
}

#[test]
fn random_games_19x19() {
    let mut sum = Fnv::new();
    let mut moves = 0;
    for seed in 0..250 {
        // every move checked in a fifth of the games, every 10th in the rest
        let every = if seed % 5 == 0 { 1 } else { 10 };
        let (h, n) = board_game(19, 19, 2_000_000 + seed, 3 * 361, every);
        sum.num(h);
        moves += n;
    }
    assert!(moves > 250 * 361, "{moves} moves");
    check_golden("19x19 board games", sum.0, 0xc7fb_6f09_49b9_3d12);
}

#[test]
fn random_games_on_every_shape() {
    // sizes from 1x1 to 25x25, square or not
    let mut rng = Rng::new(77);
    let mut sum = Fnv::new();
    for seed in 0..200 {
        let (w, h) = (1 + rng.below(25), 1 + rng.below(25));
        let (hash, _) = board_game(w, h, 3_000_000 + seed, 3 * w * h, 1);
        sum.num(hash);
    }
    for (w, h) in [(1, 1), (1, 2), (2, 1), (2, 2), (1, 25), (25, 1), (25, 25)] {
        let (hash, _) = board_game(w, h, 4_000_000, 3 * w * h, 1);
        sum.num(hash);
    }
    check_golden("games of every shape", sum.0, 0x64f8_63e6_37e0_adeb);
}

// ---------------------------------------------------------------------------
// Brute-force reference for positional superko.

/// A position as plain cells, row by row, with the rules written out the
/// slow way.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Plain {
    w: usize,
    h: usize,
    cells: Vec<Cell>,
}

impl Plain {
    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (x, y) = (i % self.w, i / self.w);
        let mut out = Vec::new();
        if x > 0 {
            out.push(i - 1);
        }
        if x + 1 < self.w {
            out.push(i + 1);
        }
        if y > 0 {
            out.push(i - self.w);
        }
        if y + 1 < self.h {
            out.push(i + self.w);
        }
        out
    }

    /// The string through `i` and whether it has a liberty.
    fn string(&self, i: usize) -> (Vec<usize>, bool) {
        let colour = self.cells[i];
        let mut stones = vec![i];
        let mut free = false;
        let mut k = 0;
        while k < stones.len() {
            for n in self.neighbours(stones[k]) {
                if self.cells[n] == Cell::Empty {
                    free = true;
                } else if self.cells[n] == colour && !stones.contains(&n) {
                    stones.push(n);
                }
            }
            k += 1;
        }
        (stones, free)
    }

    /// The position after `c` plays at `i`, or None if the point is taken
    /// or the move is suicide. Repetition is the caller's business.
    fn play(&self, c: Color, i: usize) -> Option<Plain> {
        if self.cells[i] != Cell::Empty {
            return None;
        }
        let mut next = self.clone();
        next.cells[i] = c.stone();
        for n in self.neighbours(i) {
            if next.cells[n] == c.opp().stone() {
                let (stones, free) = next.string(n);
                if !free {
                    for s in stones {
                        next.cells[s] = Cell::Empty;
                    }
                }
            }
        }
        if !next.string(i).1 {
            return None;
        }
        Some(next)
    }
}

/// Random games on a small board where every point's legality in `Game` is
/// compared with the reference: empty, not suicide, and not a position in
/// the list of every earlier position (compared cell by cell).
fn superko_cross_check(size: usize, games: u64, cap: usize, seed: u64) -> (usize, usize) {
    let (mut superko, mut ko) = (0, 0);
    for k in 0..games {
        let mut rng = Rng::new(seed + k);
        let mut g = Game::new(size, size, 0.0);
        let mut plain = Plain {
            w: size,
            h: size,
            cells: g.board().cells(),
        };
        let mut history: Vec<Plain> = vec![plain.clone()];
        let mut passes = 0;
        while g.moves().len() < cap && passes < 6 {
            let c = g.to_move();
            for (i, p) in g.board().points().enumerate() {
                let verdict = g.check(Move::Play(p));
                let reference = plain.play(c, i);
                match (&reference, verdict) {
                    (None, Err(Illegal::Occupied)) => assert_ne!(plain.cells[i], Cell::Empty),
                    (None, Err(Illegal::Suicide)) => assert_eq!(plain.cells[i], Cell::Empty),
                    (Some(next), Ok(())) => {
                        assert!(!history.contains(next), "game allows a repetition")
                    }
                    (Some(next), Err(e @ (Illegal::Ko | Illegal::Superko))) => {
                        assert!(history.contains(next), "game refuses a new position: {e}");
                        if e == Illegal::Superko {
                            superko += 1;
                        } else {
                            ko += 1;
                            // a simple-ko retake repeats the position before the last move
                            assert_eq!(Some(next), history.iter().rev().nth(1));
                        }
                    }
                    (r, v) => panic!(
                        "{size}x{size} game {k} move {}: reference {r:?}, game {v:?} at {i}\n{:?}",
                        g.moves().len(),
                        g.board()
                    ),
                }
            }
            let legal = g.legal_moves();
            let mv = legal[rng.below(legal.len())];
            g.play(mv).unwrap();
            match mv {
                Move::Pass => passes += 1,
                Move::Play(p) => {
                    passes = 0;
                    let (x, y) = g.board().xy(p);
                    plain = plain.play(c, y * size + x).unwrap();
                }
            }
            assert_eq!(g.board().cells(), plain.cells);
            history.push(plain.clone());
        }
        g.board().check_consistency().unwrap();
    }
    (superko, ko)
}

#[test]
fn superko_matches_brute_force_3x3() {
    let (superko, ko) = superko_cross_check(3, 400, 150, 10_000);
    assert!(superko > 500 && ko > 100, "superko {superko}, ko {ko}");
}

#[test]
fn superko_matches_brute_force_4x4() {
    let (superko, ko) = superko_cross_check(4, 200, 300, 20_000);
    assert!(superko > 100 && ko > 100, "superko {superko}, ko {ko}");
}

#[test]
fn superko_matches_brute_force_5x5() {
    let (superko, ko) = superko_cross_check(5, 300, 400, 30_000);
    assert!(superko > 100 && ko > 200, "superko {superko}, ko {ko}");
}
