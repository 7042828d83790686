//! The features on positions built to show one thing each: ladders, ko and
//! superko, pass-alive area, history, liberties, komi, board sizes.

use super::{features, fill, legal, Features, Position, GLOBAL, SPATIAL};
use crate::deps::FxHashSet;
use crate::go::{Board, Color, Game, Move};

/// A position on `board` with no history.
fn bare(board: &Board, pla: Color) -> Position<'_> {
    Position {
        board,
        pla,
        moves: &[],
        recent: [None, None],
        seen: None,
        komi: 7.5,
        pass_ends: false,
        over: false,
    }
}

/// The points (x, y) set in plane `k`.
fn points(f: &Features, k: usize) -> Vec<(usize, usize)> {
    let w = f.width;
    let plane = f.plane(k);
    (0..plane.len())
        .filter(|&i| plane[i] == 1)
        .map(|i| (i % w, i / w))
        .collect()
}

fn board(text: &str) -> Board {
    Board::from_ascii(text).unwrap()
}

/// A white stone in atari at (2, 3) that a ladder takes to the lower right
/// corner, unless `breaker` stands in its way.
fn ladder(breaker: bool, second_liberty: bool) -> Board {
    let mut rows = vec![
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . X X . . . . .",
        ". X O . . . . . .",
        ". . X . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    if second_liberty {
        rows[4] = ". . . . . . . . .";
    }
    if breaker {
        rows[6] = ". . . . . . O . .";
    }
    board(&rows.join("\n"))
}

#[test]
fn a_working_ladder_and_a_broken_one() {
    let b = ladder(false, false);
    let f = features(&bare(&b, Color::Black));
    assert_eq!(
        points(&f, 14),
        vec![(2, 3)],
        "the stone in atari is laddered"
    );
    assert_eq!(points(&f, 3), vec![(2, 3)]);
    // with no history the boards before are this one
    assert_eq!(points(&f, 15), vec![(2, 3)]);
    assert_eq!(points(&f, 16), vec![(2, 3)]);
    assert!(points(&f, 17).is_empty(), "no two-liberty string");
    let b = ladder(true, false);
    let f = features(&bare(&b, Color::Black));
    assert!(
        points(&f, 14).is_empty(),
        "the white stone at (6, 6) breaks it"
    );
}

#[test]
fn the_attackers_working_move_against_two_liberties() {
    let b = ladder(false, true);
    // black to move: the white string is the opponent's, atari from below works
    let f = features(&bare(&b, Color::Black));
    assert_eq!(points(&f, 14), vec![(2, 3)]);
    assert_eq!(points(&f, 17), vec![(2, 4)], "not the atari from the right");
    assert_eq!(points(&f, 4), vec![(2, 3)]);
    // white to move: its own string, laddered still, but no attacker's move shown
    let f = features(&bare(&b, Color::White));
    assert_eq!(points(&f, 14), vec![(2, 3)]);
    assert!(points(&f, 17).is_empty());
    // broken, it has no working move
    let b = ladder(true, true);
    let f = features(&bare(&b, Color::Black));
    assert!(points(&f, 14).is_empty() && points(&f, 17).is_empty());
}

#[test]
fn ladder_planes_on_the_boards_before() {
    // black ataris at (2, 4) after white played elsewhere: the board one
    // move ago shows the 2-liberty ladder, the board two ago none
    let mut g = Game::new(9, 9, 7.5);
    let setup = [(2, 2), (8, 8), (3, 2), (8, 7), (1, 3), (2, 3), (2, 4)];
    let mut boards = vec![g.board().clone()];
    for (x, y) in setup {
        g.play(Move::Play(g.board().point(x, y))).unwrap();
        boards.push(g.board().clone());
    }
    let n = boards.len();
    let mut pos = bare(g.board(), Color::White);
    pos.moves = g.moves();
    pos.recent = [Some(&boards[n - 2]), Some(&boards[n - 3])];
    let f = features(&pos);
    assert_eq!(points(&f, 14), vec![(2, 3)]);
    assert_eq!(
        points(&f, 15),
        vec![(2, 3)],
        "two liberties, attacker first"
    );
    assert!(points(&f, 16).is_empty(), "white's stone not yet played");
    assert_eq!(points(&f, 9), vec![(2, 4)]);
    assert_eq!(points(&f, 10), vec![(2, 3)]);
    // unknown boards before: the current one stands in
    pos.recent = [None, None];
    let f = features(&pos);
    assert_eq!(points(&f, 15), vec![(2, 3)]);
    assert_eq!(points(&f, 16), vec![(2, 3)]);
}

#[test]
fn ko_point_and_superko_bans() {
    // black takes the white stone at (1, 1) by playing (2, 1): a ko
    let mut g = Game::from_board(
        board(
            ". X O . .
             X O . O .
             . X O . .
             . . . . .
             . . . . .",
        ),
        7.5,
    );
    g.play(Move::Play(g.board().point(2, 1))).unwrap();
    let b = g.board();
    let ko = b.point(1, 1);
    assert_eq!(b.ko_point(), Some(ko));
    let mut pos = bare(b, Color::White);
    pos.moves = g.moves();
    let f = features(&pos);
    assert_eq!(points(&f, 6), vec![(1, 1)]);
    assert!(!legal(&pos)[5 + 1]);
    // a seen position that white's move at (4, 4) would make: banned
    let mut seen = FxHashSet::default();
    let banned = b.point(4, 4);
    seen.insert(b.hash_after(Color::White, banned));
    // the retake's position is seen too, but the ko point is no superko ban
    seen.insert(b.hash_after(Color::White, ko));
    pos.seen = Some(&seen);
    let f = features(&pos);
    assert_eq!(points(&f, 6), vec![(1, 1), (4, 4)]);
    let l = legal(&pos);
    assert_eq!(l.len(), 26);
    assert!(!l[4 * 5 + 4] && !l[5 + 1] && l[25], "banned, ko, pass");
    let legal_count = l.iter().filter(|&&v| v).count();
    // 25 points - 7 stones - the ko - the ban - the suicide in the corner + pass
    assert_eq!(legal_count, 25 - 7 - 3 + 1);
    assert!(!l[0]);
    // black to move is not banned there (another position)
    pos.pla = Color::Black;
    assert!(legal(&pos)[4 * 5 + 4]);
}

#[test]
fn suicide_is_neither_legal_nor_a_superko_ban() {
    let b = board(
        ". O . . .
         O . . . .
         . . . . .
         . . . . .
         . . . . .",
    );
    let mut seen = FxHashSet::default();
    let corner = b.point(0, 0);
    // a suicide's hash as tengen counts it, seen: still no ban (not legal anyway)
    seen.insert(b.hash_after(Color::Black, corner));
    let mut pos = bare(&b, Color::Black);
    pos.seen = Some(&seen);
    assert!(points(&features(&pos), 6).is_empty());
    assert!(!legal(&pos)[0]);
    pos.pla = Color::White;
    assert!(legal(&pos)[0], "white may fill its own eye");
}

#[test]
fn pass_alive_area_by_bensons_algorithm() {
    // black's string with two eyes, one holding a white stone: pass-alive,
    // so the white stone is black's; white's wall is alive only as stones
    // and the empty region it alone borders
    let rows = [
        ". X O . X O . . .",
        "X X X X X O . . .",
        "O O O O O O . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    let b = board(&rows.join("\n"));
    let f = features(&bare(&b, Color::Black));
    let black: Vec<(usize, usize)> = (0..2).flat_map(|y| (0..5).map(move |x| (x, y))).collect();
    let mut own = points(&f, 18);
    own.sort_by_key(|&(x, y)| (y, x));
    assert_eq!(own, black);
    assert_eq!(points(&f, 19).len(), 81 - 10);
    // white to move: the same, seen from the other side
    let g = features(&bare(&b, Color::White));
    assert_eq!(g.plane(18), f.plane(19));
    assert_eq!(g.plane(19), f.plane(18));
    // one eye only (the corner filled): nothing is pass-alive; the white
    // stone is white's, the point beside it no one's, and a black stone
    // in white's region keeps that region from white
    let mut rows2 = rows;
    rows2[0] = "X X O . X O . . .";
    rows2[6] = ". . . . . . X . .";
    let b = board(&rows2.join("\n"));
    let f = features(&bare(&b, Color::Black));
    let mut own = points(&f, 18);
    own.sort_by_key(|&(x, y)| (y, x));
    let mut want = vec![(0, 0), (1, 0), (4, 0)];
    want.extend((0..5).map(|x| (x, 1)));
    want.push((6, 6));
    assert_eq!(own, want);
    let theirs = points(&f, 19);
    assert!(theirs.contains(&(2, 0)) && !theirs.contains(&(3, 0)));
    assert_eq!(theirs.len(), 1 + 2 + 6, "white's stones only");
}

#[test]
fn history_with_a_pass_and_a_broken_alternation() {
    let mut g = Game::new(9, 9, 7.5);
    let p = |x, y| Move::Play(Board::new(9, 9).point(x, y));
    for mv in [p(2, 2), p(6, 6), p(2, 6), Move::Pass, p(6, 2), p(4, 4)] {
        g.play(mv).unwrap();
    }
    let mut pos = bare(g.board(), Color::Black);
    pos.moves = g.moves();
    let f = features(&pos);
    assert_eq!(points(&f, 9), vec![(4, 4)]);
    assert_eq!(points(&f, 10), vec![(6, 2)]);
    assert!(points(&f, 11).is_empty());
    assert_eq!(points(&f, 12), vec![(2, 6)]);
    assert_eq!(points(&f, 13), vec![(6, 6)]);
    assert_eq!(f.global[..5], [0.0, 0.0, 1.0, 0.0, 0.0]);
    // the same moves seen by white: the last move is its own, no history
    pos.pla = Color::White;
    let f = features(&pos);
    assert!((9..14).all(|k| points(&f, k).is_empty()));
    assert_eq!(f.global[..5], [0.0; 5]);
    // a game over shows its last move only
    pos.pla = Color::Black;
    pos.over = true;
    let f = features(&pos);
    assert_eq!(points(&f, 9), vec![(4, 4)]);
    assert!((10..14).all(|k| points(&f, k).is_empty()));
    // a pass last, and a pass would end the game
    g.play(Move::Pass).unwrap();
    let mut pos = bare(g.board(), Color::White);
    pos.moves = g.moves();
    pos.pass_ends = g.pass_ends();
    let f = features(&pos);
    // black's pass, white's (4, 4), black's (6, 2), white's pass, black's (2, 6)
    assert_eq!(f.global[..5], [1.0, 0.0, 0.0, 1.0, 0.0]);
    assert_eq!(points(&f, 10), vec![(4, 4)]);
    assert_eq!(f.global[14], 1.0);
}

#[test]
fn liberty_planes() {
    let b = board(
        "X O . . .
         X O . . .
         . . X X .
         . . O . .
         . . . . O",
    );
    let f = features(&bare(&b, Color::White));
    assert_eq!(points(&f, 1), vec![(1, 0), (1, 1), (2, 3), (4, 4)]);
    assert_eq!(points(&f, 2), vec![(0, 0), (0, 1), (2, 2), (3, 2)]);
    assert_eq!(points(&f, 3), vec![(0, 0), (0, 1)], "one liberty");
    assert_eq!(points(&f, 4), vec![(4, 4)], "two liberties");
    assert_eq!(
        points(&f, 5),
        vec![(1, 0), (1, 1), (2, 3)],
        "three liberties"
    );
    // the black pair has five: in no plane
    assert_eq!(points(&f, 0).len(), 25);
    for k in [7, 8, 20, 21] {
        assert!(points(&f, k).is_empty(), "plane {k}");
    }
}

#[test]
fn komi_and_its_parity_for_each_side_and_board() {
    let globals = |size: usize, pla: Color, komi: f32| {
        let b = Board::new(size, size);
        let mut pos = bare(&b, pla);
        pos.komi = komi;
        features(&pos).global
    };
    // 19x19: 361 points, odd, so drawable komis are odd
    let g = globals(19, Color::White, 7.5);
    assert_eq!((g[5], g[6], g[7], g[18]), (0.375, 1.0, 0.5, 0.5));
    let g = globals(19, Color::Black, 7.5);
    assert_eq!((g[5], g[18]), (-0.375, -0.5));
    assert_eq!(globals(19, Color::White, 7.0)[18], 0.0, "7 draws");
    assert_eq!(globals(19, Color::White, 7.25)[18], 0.25);
    assert_eq!(globals(19, Color::White, 8.0)[18], 0.0);
    assert_eq!(globals(19, Color::White, 8.5)[18], -0.5);
    // 10x10: even, so even komis draw
    let g = globals(10, Color::White, 7.5);
    assert_eq!((g[5], g[18]), (0.375, -0.5));
    assert_eq!(globals(10, Color::Black, 7.5)[18], 0.5);
    assert_eq!(globals(10, Color::White, 6.0)[18], 0.0);
    // clipped to the area plus 20
    assert_eq!(globals(9, Color::White, 150.0)[5], 101.0 / 20.0);
    assert_eq!(globals(9, Color::Black, 150.0)[5], -101.0 / 20.0);
    let g = globals(13, Color::White, 7.5);
    let unused = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17];
    assert!(unused.iter().all(|&k| g[k] == 0.0), "{g:?}");
    assert_eq!(g.len(), GLOBAL);
}

#[test]
fn small_boards_have_their_own_size() {
    for (w, h) in [(9, 9), (13, 13), (19, 19), (7, 5)] {
        let mut b = Board::new(w, h);
        b.play(Move::Play(b.point(2, 2))).unwrap();
        let f = features(&bare(&b, Color::White));
        assert_eq!(
            (f.width, f.height, f.spatial.len()),
            (w, h, SPATIAL * w * h)
        );
        assert_eq!(points(&f, 0).len(), w * h);
        assert_eq!(points(&f, 2), vec![(2, 2)]);
        // one lone stone owns nothing but itself: every empty point is
        // in a region only black borders, so all of it is black's
        assert_eq!(points(&f, 19).len(), w * h);
        assert_eq!(legal(&bare(&b, Color::White)).len(), w * h + 1);
    }
}

#[test]
fn fill_reuses_a_buffer_of_another_size() {
    let big = ladder(false, true);
    let mut small = Board::new(5, 5);
    small.play(Move::Play(small.point(1, 1))).unwrap();
    let mut out = Features::new(19, 19);
    out.spatial.fill(1);
    out.global = [9.0; GLOBAL];
    for b in [&small, &big, &small] {
        fill(&bare(b, Color::White), &mut out);
        assert_eq!(out, features(&bare(b, Color::White)));
    }
}

#[test]
#[should_panic(expected = "a board before this one is 5x5")]
fn boards_before_of_another_size_are_refused() {
    let (b, other) = (Board::new(9, 9), Board::new(5, 5));
    let mut pos = bare(&b, Color::Black);
    pos.recent = [Some(&other), None];
    features(&pos);
}

#[test]
fn a_ladder_on_13x13_runs_to_the_edge() {
    // the 9x9 ladder's stones, shifted into a 13x13 board's lower right
    let mut b = Board::new(13, 13);
    for (x, y, c) in [
        (6, 6, Color::Black),
        (7, 6, Color::Black),
        (5, 7, Color::Black),
    ] {
        b.set_to_move(c);
        b.play(Move::Play(b.point(x, y))).unwrap();
    }
    for (x, y, c) in [(6, 8, Color::Black), (6, 7, Color::White)] {
        b.set_to_move(c);
        b.play(Move::Play(b.point(x, y))).unwrap();
    }
    let f = features(&bare(&b, Color::Black));
    assert_eq!(points(&f, 14), vec![(6, 7)]);
}
