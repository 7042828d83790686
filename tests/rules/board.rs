//! Edges and corners, board sizes, the diagram format, hashes and copies.

use super::*;

#[test]
fn liberties_at_edges_and_corners() {
    for (w, h) in [(9, 9), (19, 19), (25, 25), (7, 3), (3, 7)] {
        let mut b = Board::new(w, h);
        let (r, bot) = (w - 1, h - 1);
        for (x, y, libs) in [
            (0, 0, 2),
            (r, 0, 2),
            (0, bot, 2),
            (r, bot, 2),
            (1, 0, 3),
            (0, 1, 3),
            (r, 1, 3),
            (1, bot, 3),
            (1, 1, 4),
            (r - 1, bot - 1, 4),
        ] {
            let p = b.point(x, y);
            assert_eq!(b.liberties_after(B, p, 8), libs, "{w}x{h} ({x},{y})");
            let mut c = b.clone();
            c.play_stone(B, p).unwrap();
            assert_eq!(c.liberty_count(p), libs, "{w}x{h} ({x},{y})");
            assert_eq!(c.liberties::<4>(p).len(), libs);
        }
        // a string along the whole top edge
        for x in 0..w {
            b.play_stone(B, b.point(x, 0)).unwrap();
        }
        assert_eq!(b.string_size(b.point(0, 0)), w);
        assert_eq!(b.liberty_count(b.point(r, 0)), w);
        b.check_consistency().unwrap();
    }
    // on a 1-wide board a stone at the end has one liberty
    let mut b = Board::new(1, 4);
    b.play_stone(B, b.point(0, 3)).unwrap();
    assert_eq!(b.liberty_count(b.point(0, 3)), 1);
    // White at (0, 2) takes its last liberty: a capture
    assert_eq!(b.play_stone(W, b.point(0, 2)), Ok(1));
    assert_eq!(b.liberty_count(b.point(0, 2)), 2);
}

#[test]
fn eyes_in_the_corner_on_the_edge_and_in_the_centre() {
    let b = board(
        ". X . X . . .
         X X X . . . .
         . . . . . . .
         . . O X . . .
         . . X . X . .
         . . . X . . .
         . . . . . . .",
    );
    let p = |x, y| at(&b, x, y);
    // corner: both neighbours black, the one diagonal black
    assert!(b.is_eye(B, p(0, 0)));
    assert!(!b.is_eye(W, p(0, 0)));
    // edge: all three neighbours black, no white diagonal
    assert!(b.is_eye(B, p(2, 0)));
    // centre: four black neighbours, one white diagonal is still an eye
    assert!(b.is_eye(B, p(3, 4)));
    assert!(!b.is_eye(W, p(3, 4)));
    // not eyes: an empty neighbour, an occupied point
    assert!(!b.is_eye(B, p(4, 0)));
    assert!(!b.is_eye(B, p(1, 1)));
    assert!(!b.is_eye(B, p(6, 6)));

    let b = board(
        ". X . X O
         X O X . .
         . . . . .
         . . O X .
         . . X . X
         . . O X .
         . X . . .",
    );
    let p = |x, y| at(&b, x, y);
    // corner with the white diagonal: false eye
    assert!(!b.is_eye(B, p(0, 0)));
    // edge with one white diagonal: false eye
    assert!(!b.is_eye(B, p(2, 0)));
    // centre with two white diagonals: false eye
    assert!(!b.is_eye(B, p(3, 4)));
    // bottom corner region: (0, 6) has an empty neighbour
    assert!(!b.is_eye(B, p(0, 6)));
}

#[test]
fn a_1x1_board_has_no_legal_stone_move() {
    let b = Board::new(1, 1);
    let p = b.point(0, 0);
    assert_eq!(b.check(B, p), Err(Illegal::Suicide));
    assert_eq!(b.check(W, p), Err(Illegal::Suicide));
    assert_eq!(b.liberties_after(B, p, 4), 0);
    let mut g = Game::new(1, 1, 0.0);
    assert_eq!(g.legal_moves(), vec![Move::Pass]);
    assert_eq!(g.play(Move::Play(p)), Err(Illegal::Suicide));
    assert_eq!(g.play(Move::Pass), Ok(0));
    assert_eq!(g.legal_moves(), vec![Move::Pass]);
    assert_eq!(g.play(Move::Pass), Ok(0));
    assert!(g.is_over());
    let s = g.board().area_score(0.0);
    assert_eq!((s.black, s.white), (0, 0));
    assert_eq!(s.result(), "Jigo");
    assert_eq!(s.owner, vec![None]);
    assert_eq!(Board::from_ascii(".").unwrap().area(), 1);
    assert!(Board::from_ascii("X").is_err());
}

#[test]
fn a_2x2_game() {
    let mut g = Game::new(2, 2, 0.0);
    assert_eq!(g.legal_moves().len(), 5);
    let p = |x, y| g.board().point(x, y);
    let (a, b, c, d) = (p(0, 0), p(1, 0), p(0, 1), p(1, 1));
    g.play(Move::Play(a)).unwrap();
    g.play(Move::Play(d)).unwrap();
    g.play(Move::Play(b)).unwrap();
    // white at c takes the black pair
    assert_eq!(g.board().liberties_after(W, c, 4), 2);
    assert_eq!(g.play(Move::Play(c)), Ok(2));
    assert_eq!(compact(g.board()), "..\nOO\n");
    // black at a has a liberty at b
    assert_eq!(g.board().check(B, a), Ok(()));
    g.play(Move::Play(a)).unwrap();
    // white at b takes it: a position not seen before
    assert_eq!(g.play(Move::Play(b)), Ok(1));
    assert_eq!(compact(g.board()), ".O\nOO\n");
    // white's three stones have one liberty, a, but taking them there would
    // bring back the position after the first move: positional superko
    assert_eq!(g.board().liberties_after(B, a, 4), 2);
    assert_eq!(g.board().check(B, a), Ok(()));
    assert_eq!(g.check(Move::Play(a)), Err(Illegal::Superko));
    assert_eq!(g.legal_moves(), vec![Move::Pass]);
    let mut alone = g.board().clone();
    assert_eq!(alone.play_stone(B, a), Ok(3));
    assert_eq!(compact(&alone), "X.\n..\n");
    alone.check_consistency().unwrap();
    let s = alone.area_score(0.0);
    assert_eq!((s.black, s.white), (4, 0));
    assert_eq!(s.result(), "B+4");
}

#[test]
fn big_boards_and_the_size_limit() {
    for n in [9, 19, 25] {
        let mut g = Game::new(n, n, 7.5);
        assert_eq!(g.legal_moves().len(), n * n + 1);
        let b = g.board();
        assert_eq!(b.area(), n * n);
        assert_eq!(b.points().count(), n * n);
        assert_eq!(b.empty_points().len(), n * n);
        let corners = [
            b.point(0, 0),
            b.point(n - 1, 0),
            b.point(0, n - 1),
            b.point(n - 1, n - 1),
        ];
        for p in corners {
            g.play(Move::Play(p)).unwrap();
        }
        assert_eq!(g.board().empty_points().len(), n * n - 4);
        for p in corners {
            assert_eq!(g.board().liberty_count(p), 2);
        }
        g.board().check_consistency().unwrap();
        let s = g.board().area_score(7.5);
        // two black and two white corners; the empty rest reaches both
        assert_eq!((s.black, s.white), (2, 2));
        assert_eq!(s.result(), "W+7.5");
    }
    assert_eq!(MAX_SIZE, 25);
    assert!(Board::from_ascii(&".".repeat(26)).is_err());
    assert!(Board::from_ascii(&".\n".repeat(26)).is_err());
    let full = format!("{}\n", ".".repeat(25)).repeat(25);
    assert_eq!(Board::from_ascii(&full).unwrap().area(), 625);
    assert!(Board::from_cells(26, 1, &[Cell::Empty; 26]).is_err());
    assert!(Board::from_cells(3, 3, &[Cell::Empty; 8]).is_err());
}

#[test]
#[should_panic(expected = "board size 26x26 out of range 1..=25")]
fn a_26x26_board_is_refused() {
    let _ = Board::new(26, 26);
}

#[test]
#[should_panic(expected = "board size 0x5 out of range 1..=25")]
fn a_0x5_board_is_refused() {
    let _ = Board::new(0, 5);
}

#[test]
fn every_size_has_a_sound_frame() {
    // Every point's neighbours and diagonals are on the board exactly when
    // their coordinates are, for every width and height.
    for w in 1..=MAX_SIZE {
        for h in 1..=MAX_SIZE {
            let b = Board::new(w, h);
            let mut seen = vec![false; MAX_POINTS];
            for p in b.points() {
                assert!(p.idx() > 0 && p.idx() < MAX_POINTS);
                assert!(!seen[p.idx()]);
                seen[p.idx()] = true;
                let (x, y) = b.xy(p);
                assert_eq!(b.point(x, y), p);
                assert_eq!(b.try_point(x as i64, y as i64), Some(p));
                let (x, y) = (x as i64, y as i64);
                let ns = [(x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)];
                for (n, (nx, ny)) in b.neighbors(p).into_iter().zip(ns) {
                    assert!(n.idx() < MAX_POINTS);
                    match b.try_point(nx, ny) {
                        Some(q) => assert_eq!(q, n),
                        None => assert_eq!(b.at(n), Cell::Off, "{w}x{h} {p:?}"),
                    }
                }
                let ds = [
                    (x - 1, y - 1),
                    (x + 1, y - 1),
                    (x - 1, y + 1),
                    (x + 1, y + 1),
                ];
                for (d, (dx, dy)) in b.diagonals(p).into_iter().zip(ds) {
                    assert!(d.idx() < MAX_POINTS);
                    match b.try_point(dx, dy) {
                        Some(q) => assert_eq!(q, d),
                        None => assert_eq!(b.at(d), Cell::Off, "{w}x{h} {p:?}"),
                    }
                }
            }
            assert_eq!(b.try_point(-1, 0), None);
            assert_eq!(b.try_point(w as i64, 0), None);
            assert_eq!(b.try_point(0, h as i64), None);
        }
    }
}

#[test]
fn non_square_boards() {
    let mut b = board(
        ". . . . . . .
         . X O . . . .
         . . . . . . O",
    );
    assert_eq!((b.width(), b.height(), b.area()), (7, 3, 21));
    // the right edge is an edge, not a wrap to the next row
    let corner = at(&b, 6, 2);
    assert_eq!(b.liberty_count(corner), 2);
    assert_eq!(play(&mut b, B, 6, 1), Ok(0));
    assert_eq!(play(&mut b, W, 0, 2), Ok(0));
    assert_eq!(play(&mut b, B, 5, 2), Ok(1));
    assert_eq!(b.at(corner), Cell::Empty);
    assert_eq!(b.at(at(&b, 0, 2)), Cell::White, "no wrap-around capture");
    let tall = board(
        "X .
         . .
         . .
         . .
         . O",
    );
    assert_eq!((tall.width(), tall.height()), (2, 5));
    assert_eq!(tall.liberty_count(at(&tall, 0, 0)), 2);
    assert_eq!(tall.liberty_count(at(&tall, 1, 4)), 2);
    let s = tall.area_score(0.0);
    assert_eq!((s.black, s.white), (1, 1));
    assert_eq!(Board::from_ascii(&tall.to_string()).unwrap(), tall);
}

#[test]
fn hash_after_and_liberties_after_predict_the_move() {
    let b = board(
        ". X O . . X O
         X O . O X O .
         . X O . O X O
         O . X O X . .
         X O X . . X O
         . . . O X O .
         X O . X . O .",
    );
    let mut checked = 0;
    for c in [B, W] {
        for p in b.points() {
            if b.check(c, p).is_err() {
                continue;
            }
            let mut after = b.clone();
            after.play_stone(c, p).unwrap();
            assert_eq!(b.hash_after(c, p), after.hash(), "{c} {:?}", b.xy(p));
            let libs = after.liberty_count(p);
            for limit in 1..=8 {
                assert_eq!(b.liberties_after(c, p, limit).min(limit), libs.min(limit));
            }
            after.check_consistency().unwrap();
            checked += 1;
        }
    }
    assert!(checked > 20);
    // the hash is positional: the same stones give the same hash however
    // they came, whoever is to move
    let mut x = Board::new(5, 5);
    x.play_stone(B, x.point(1, 1)).unwrap();
    x.play_stone(W, x.point(3, 3)).unwrap();
    let mut y = Board::new(5, 5);
    y.play_stone(W, y.point(3, 3)).unwrap();
    y.play_stone(B, y.point(1, 1)).unwrap();
    assert_eq!(x.hash(), y.hash());
    assert_ne!(x.to_move(), y.to_move());
    assert_eq!(Board::new(5, 5).hash(), Board::new(5, 5).hash());
}

#[test]
fn display_round_trips_through_from_ascii() {
    let cases = [
        SEED_001,
        TRIPLE_KO,
        KO,
        ONE_EYE,
        ".",
        "X O\n. .",
        ". . . . . . .\n. X O . . . .\n. . . . . . O",
    ];
    for case in cases {
        let b = board(case);
        let shown = b.to_string();
        let again = Board::from_ascii(&shown).unwrap();
        assert_eq!(again, b, "{shown}");
        assert_eq!(again.hash(), b.hash());
        assert_eq!(again.to_string(), shown);
        assert_eq!(shown.lines().count(), b.height());
        for line in shown.lines() {
            assert_eq!(line.len(), 2 * b.width() - 1);
        }
    }
    // after play, too
    let mut b = board(KO);
    b.play_stone(B, at(&b, 2, 1)).unwrap();
    b.play_stone(W, at(&b, 3, 3)).unwrap();
    let again = Board::from_ascii(&b.to_string()).unwrap();
    assert_eq!(again.cells(), b.cells());
    assert_eq!(again.hash(), b.hash());
    // other accepted spellings
    assert_eq!(
        Board::from_ascii("B W +\n + o -\n\n").unwrap().cells(),
        board("X O .\n. O .").cells()
    );
}

#[test]
fn from_ascii_errors() {
    for bad in [
        "",           // no rows
        "\n \n",      // blank lines only
        "X .\n.",     // ragged
        ". .\n. . .", // ragged
        "X ? .",      // unknown character
        "X O 1",
        "X O\nO .",            // black stone without liberty
        "O X\nX X",            // white stone without liberty (and black's fine)
        "X X X\nO O O\nX X X", // both kinds: no liberty anywhere
    ] {
        let r = Board::from_ascii(bad);
        assert!(r.is_err(), "{bad:?} was accepted:\n{}", r.unwrap());
        assert!(!r.unwrap_err().is_empty());
    }
    let e = Board::from_ascii("X ? .").unwrap_err();
    assert!(e.contains('?'), "{e}");
    let e = Board::from_ascii(". .\n. . .").unwrap_err();
    assert!(e.contains("row 2"), "{e}");
    let e = Board::from_ascii("X O\nO .").unwrap_err();
    assert!(e.contains("no liberty"), "{e}");
}

#[test]
fn occupied_and_off_board_moves() {
    let mut b = board("X .\n. .");
    assert_eq!(b.check(W, at(&b, 0, 0)), Err(Illegal::Occupied));
    assert_eq!(b.play_stone(W, at(&b, 0, 0)), Err(Illegal::Occupied));
    assert_eq!(b.check(W, Point(0)), Err(Illegal::OffBoard));
    assert_eq!(b.play_stone(W, Point(0)), Err(Illegal::OffBoard));
    assert_eq!(b.play_stone(W, Point(u16::MAX)), Err(Illegal::OffBoard));
    let g = Game::from_board(b.clone(), 0.0);
    assert_eq!(g.check(Move::Play(at(&b, 0, 0))), Err(Illegal::Occupied));
    assert_eq!(g.check(Move::Pass), Ok(()));
    assert_eq!(Illegal::Superko.to_string(), "positional superko");
}

/// `copy_from` gives the source board exactly, from a board of the same
/// size holding another position (the fast path) and from another size.
#[test]
fn copy_from_reproduces_the_board() {
    use tengen::games::go::playout::uniform_move;
    use tengen::search::rng::Rng;
    let mut rng = Rng::new(5);
    let mut game = Board::new(19, 19);
    let mut scratch = Board::new(19, 19);
    let mut other_size = Board::new(9, 13);
    for k in 0..600 {
        match uniform_move(&game, &mut rng) {
            Move::Pass => game.pass(),
            Move::Play(p) => {
                game.play_legal(game.to_move(), p);
            }
        }
        if k % 23 != 0 {
            continue;
        }
        for copy in [&mut scratch, &mut other_size] {
            copy.copy_from(&game);
            assert_eq!(*copy, game, "move {k}");
            copy.check_consistency()
                .unwrap_or_else(|e| panic!("move {k}: {e}"));
            // the copy plays on exactly like the original
            let mut original = game.clone();
            let mut r1 = Rng::new(k);
            let mut r2 = Rng::new(k);
            for _ in 0..40 {
                let (m1, m2) = (
                    uniform_move(&original, &mut r1),
                    uniform_move(copy, &mut r2),
                );
                assert_eq!(m1, m2, "move {k}");
                original.play(m1).unwrap();
                copy.play(m2).unwrap();
            }
            assert_eq!(*copy, original, "move {k}");
            copy.check_consistency().unwrap();
        }
        // the scratch board now holds another position: copy over it next time
    }
}
