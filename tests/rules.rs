//! The rules core case by case: captures, suicide, snapback, ko, positional
//! superko, edges and corners, board sizes, Tromp-Taylor scoring and the
//! diagram format. Positions are ASCII diagrams read by `Board::from_ascii`:
//! `X` black, `O` white, `.` empty, row 0 at the top, points named (x, y).

use tengen::go::{
    Board, Cell, Color, End, Game, Illegal, Move, Point, Rules, MAX_POINTS, MAX_SIZE,
};

const B: Color = Color::Black;
const W: Color = Color::White;

fn board(diagram: &str) -> Board {
    Board::from_ascii(diagram).unwrap_or_else(|e| panic!("bad diagram: {e}\n{diagram}"))
}

fn at(b: &Board, x: usize, y: usize) -> Point {
    b.point(x, y)
}

/// Plays `c` at (x, y), first checking that `hash_after` and
/// `liberties_after` (which counts up to a limit of at most 8) predict the
/// outcome, and that the board stays consistent.
fn play(b: &mut Board, c: Color, x: usize, y: usize) -> Result<u32, Illegal> {
    let p = b.point(x, y);
    let predicted = b
        .check(c, p)
        .ok()
        .map(|()| (b.hash_after(c, p), b.liberties_after(c, p, 8)));
    let before = b.clone();
    let r = b.play_stone(c, p);
    match (r, predicted) {
        (Ok(_), Some((hash, libs))) => {
            assert_eq!(b.hash(), hash, "hash_after at ({x},{y})");
            assert_eq!(
                b.liberty_count(p).min(8),
                libs.min(8),
                "liberties_after at ({x},{y})"
            );
        }
        (Err(e), None) => {
            assert_eq!(Err(e), before.check(c, p));
            assert_eq!(*b, before, "a refused move changed the board");
        }
        (r, pred) => panic!("play_stone {r:?} disagrees with check {pred:?}"),
    }
    b.check_consistency().unwrap();
    r
}

/// The diagram as `Display` writes it, without the spaces.
fn compact(b: &Board) -> String {
    b.to_string().replace(' ', "")
}

fn diagram(rows: &[&str]) -> String {
    rows.iter().map(|r| format!("{r}\n")).collect()
}

#[test]
fn capture_of_one_stone() {
    let mut b = board(
        ". X .
         X O X
         . . .",
    );
    assert_eq!(b.liberty_count(at(&b, 1, 1)), 1);
    assert_eq!(b.atari_liberty(at(&b, 1, 1)), Some(at(&b, 1, 2)));
    assert!(b.captures_at(B, at(&b, 1, 2)));
    assert!(!b.captures_at(B, at(&b, 0, 2)));
    assert_eq!(b.captured_by(B, at(&b, 1, 2)), 1);
    assert_eq!(b.captured_by(B, at(&b, 0, 2)), 0);
    assert_eq!(play(&mut b, B, 1, 2), Ok(1));
    assert_eq!(compact(&b), diagram(&[".X.", "X.X", ".X."]));
    assert_eq!(b.captures_by(B), 1);
    assert_eq!(b.captures_by(W), 0);
    assert_eq!(b.at(at(&b, 1, 1)), Cell::Empty);
    assert!(b.empty_points().contains(&at(&b, 1, 1).0));
    assert_eq!(b.to_move(), W);
    assert_eq!(b.last_moves(), [Move::Play(at(&b, 1, 2)), Move::Pass]);
}

#[test]
fn capture_of_many_stones() {
    // a 2x2 white block in the corner with its last liberty at (1, 2)
    let mut b = board(
        "O O X .
         O O X .
         X . X .
         . X . .",
    );
    assert_eq!(b.string_size(at(&b, 0, 0)), 4);
    assert_eq!(b.liberty_count(at(&b, 1, 1)), 1);
    assert_eq!(b.captured_by(B, at(&b, 1, 2)), 4);
    assert_eq!(play(&mut b, B, 1, 2), Ok(4));
    assert_eq!(compact(&b), diagram(&["..X.", "..X.", "XXX.", ".X.."]));
    assert_eq!(b.captures_by(B), 4);
    // one black string now, with the four freed points among its liberties
    assert_eq!(b.string_size(at(&b, 0, 2)), 6);
    // (0, 0) is free but touches no black stone
    assert_eq!(b.liberty_count(at(&b, 2, 0)), 8);
    assert_eq!(b.ko_point(), None);
}

#[test]
fn capture_of_two_strings_at_once() {
    let mut b = board(
        "X O . O X
         . X . X .",
    );
    assert_eq!(b.liberties_after(B, at(&b, 2, 0), 8), 3);
    assert_eq!(b.captured_by(B, at(&b, 2, 0)), 2);
    assert_eq!(play(&mut b, B, 2, 0), Ok(2));
    assert_eq!(compact(&b), diagram(&["X.X.X", ".X.X."]));
    assert_eq!(b.ko_point(), None, "two stones taken: no ko");
}

#[test]
fn a_string_touching_the_move_twice_is_captured_once() {
    let mut b = board(
        "O O X
         . O X
         X X .",
    );
    assert_eq!(b.captured_by(B, at(&b, 0, 1)), 3);
    assert_eq!(play(&mut b, B, 0, 1), Ok(3));
}

#[test]
fn strings_joined_by_a_move_are_counted_with_the_liberties_they_share() {
    // Black at the centre joins four strings. Two have (0, 0) as their
    // one liberty besides the move: shared, so the joined string has one
    // liberty, not two.
    let b = board(
        ". X O . .
         X . X O .
         O X O . .
         . O . . .
         . . . . .",
    );
    let p = at(&b, 1, 1);
    assert_eq!(b.liberties_after(B, p, 8), 1);
    assert!(!b.keeps_two_liberties(B, p));
    // Without the white stone on the right, the string there brings (3, 1):
    // two liberties, (0, 0) counted once.
    let b = board(
        ". X O . .
         X . X . .
         O X O . .
         . O . . .
         . . . . .",
    );
    let p = at(&b, 1, 1);
    assert_eq!(b.liberties_after(B, p, 8), 2);
    assert!(b.keeps_two_liberties(B, p));
    // Two strings beside the move, each with the move's one empty
    // neighbour as its other liberty: one liberty.
    let b = board(
        "X . X
         X . X
         O O O
         . . .",
    );
    assert_eq!(b.liberties_after(B, at(&b, 1, 1), 8), 1);
    assert_eq!(b.liberties_after(B, at(&b, 1, 1), 2), 1);
}

#[test]
fn single_stone_suicide_is_illegal() {
    let mut b = board(
        ". O .
         O . .
         . . .",
    );
    assert_eq!(b.check(B, at(&b, 0, 0)), Err(Illegal::Suicide));
    assert!(b.is_suicide(B, at(&b, 0, 0)));
    assert_eq!(b.liberties_after(B, at(&b, 0, 0), 4), 0);
    assert_eq!(play(&mut b, B, 0, 0), Err(Illegal::Suicide));
    // white may fill its own point: it joins stones with liberties
    assert_eq!(b.check(W, at(&b, 0, 0)), Ok(()));
    let mut g = Game::from_board(b.clone(), 0.0);
    assert_eq!(g.play(Move::Play(at(&b, 0, 0))), Err(Illegal::Suicide));
    assert!(!g.legal_moves().contains(&Move::Play(at(&b, 0, 0))));
    assert_eq!(g.moves().len(), 0);
}

/// A black string of five with one liberty at (0, 1), inside white.
const ONE_EYE: &str = "X X O .
                       . X O .
                       X X O .
                       O O O .";

#[test]
fn group_suicide_is_illegal() {
    let mut b = board(ONE_EYE);
    assert_eq!(b.string_size(at(&b, 1, 1)), 5);
    assert_eq!(b.liberty_count(at(&b, 0, 0)), 1);
    // filling the own last liberty would leave six stones without one
    assert_eq!(b.check(B, at(&b, 0, 1)), Err(Illegal::Suicide));
    assert!(b.is_suicide(B, at(&b, 0, 1)));
    assert_eq!(b.liberties_after(B, at(&b, 0, 1), 8), 0);
    assert_eq!(play(&mut b, B, 0, 1), Err(Illegal::Suicide));
    assert_eq!(b, board(ONE_EYE));
    let g = Game::from_board(board(ONE_EYE), 0.0);
    assert_eq!(g.check(Move::Play(at(&b, 0, 1))), Err(Illegal::Suicide));
}

#[test]
fn a_capture_makes_an_otherwise_suicidal_move_legal() {
    let mut b = board(ONE_EYE);
    // a white stone at (0, 1) has no empty neighbour, but it takes the five
    assert!(!b.is_suicide(W, at(&b, 0, 1)));
    assert!(b.captures_at(W, at(&b, 0, 1)));
    assert_eq!(b.liberties_after(W, at(&b, 0, 1), 8), 3);
    assert_eq!(play(&mut b, W, 0, 1), Ok(5));
    assert_eq!(compact(&b), diagram(&["..O.", "O.O.", "..O.", "OOO."]));
    assert_eq!(b.captures_by(W), 5);
    assert_eq!(b.to_move(), B);
}

#[test]
fn snapback() {
    // White has two liberties, a = (2, 3) and b = (1, 3).
    let start = "  . . . . .
                   X X X X X
                   O O O O X
                   O . . O X";
    let mut g = Game::from_board(board(start), 0.0);
    let a = at(g.board(), 2, 3);
    let bb = at(g.board(), 1, 3);
    // Black throws in at a: a stone with one liberty, b.
    assert_eq!(g.board().liberties_after(B, a, 8), 1);
    assert_eq!(g.play(Move::Play(a)), Ok(0));
    assert_eq!(g.board().liberty_count(a), 1);
    assert_eq!(g.board().liberty_count(at(g.board(), 0, 2)), 1);
    // White takes it ...
    assert_eq!(g.play(Move::Play(bb)), Ok(1));
    assert_eq!(g.board().string_size(bb), 7);
    assert_eq!(g.board().liberty_count(bb), 1);
    assert_eq!(
        g.board().ko_point(),
        None,
        "a capture by a big string is no ko"
    );
    // ... and Black takes back the whole string at once.
    assert_eq!(g.board().check(B, a), Ok(()));
    assert_eq!(g.check(Move::Play(a)), Ok(()));
    assert_eq!(g.play(Move::Play(a)), Ok(7));
    assert_eq!(
        compact(g.board()),
        diagram(&[".....", "XXXXX", "....X", "..X.X"])
    );
    assert_eq!(g.board().captures_by(B), 7);
    assert_eq!(g.board().captures_by(W), 1);
    g.board().check_consistency().unwrap();
}

/// A ko: Black captures at (2, 1), White may not retake at (1, 1) at once.
const KO: &str = ". X O .
                  X O . O
                  . X O .
                  . . . .";

#[test]
fn simple_ko_on_the_board() {
    let mut b = board(KO);
    assert_eq!(b.ko_point(), None);
    assert_eq!(play(&mut b, B, 2, 1), Ok(1));
    assert_eq!(b.ko_point(), Some(at(&b, 1, 1)));
    assert_eq!(b.check(W, at(&b, 1, 1)), Err(Illegal::Ko));
    assert!(!b.is_legal(W, at(&b, 1, 1)));
    assert_eq!(play(&mut b, W, 1, 1), Err(Illegal::Ko));
    // the ko point is only refused to the side to move
    assert!(!b.is_suicide(W, at(&b, 1, 1)));
    // an exchange elsewhere, then the retake is fine
    assert_eq!(play(&mut b, W, 0, 3), Ok(0));
    assert_eq!(b.ko_point(), None);
    assert_eq!(play(&mut b, B, 3, 3), Ok(0));
    assert_eq!(play(&mut b, W, 1, 1), Ok(1));
    assert_eq!(compact(&b), diagram(&[".XO.", "XO.O", ".XO.", "O..X"]));
    // and now Black may not retake at once either
    assert_eq!(b.ko_point(), Some(at(&b, 2, 1)));
    assert_eq!(b.check(B, at(&b, 2, 1)), Err(Illegal::Ko));
}

#[test]
fn simple_ko_in_a_game() {
    let mut g = Game::from_board(board(KO), 0.0);
    let take = Move::Play(at(g.board(), 2, 1));
    let retake = Move::Play(at(g.board(), 1, 1));
    assert_eq!(g.play(take), Ok(1));
    assert_eq!(g.check(retake), Err(Illegal::Ko));
    assert!(!g.is_legal(retake));
    assert!(!g.legal_moves().contains(&retake));
    assert_eq!(g.play(retake), Err(Illegal::Ko));
    assert_eq!(g.moves().len(), 1, "a refused move is not recorded");
    // a ko threat and its answer, then the retake
    assert_eq!(g.play(Move::Play(at(g.board(), 0, 3))), Ok(0));
    assert_eq!(g.play(Move::Play(at(g.board(), 3, 3))), Ok(0));
    assert!(g.legal_moves().contains(&retake));
    assert_eq!(g.play(retake), Ok(1));
    assert_eq!(g.moves().len(), 4);
}

#[test]
fn retaking_a_ko_after_two_passes_is_positional_superko() {
    // Passing clears the board's simple ko, but the retake would recreate
    // the position before Black's capture: the game refuses it.
    let mut g = Game::from_board(board(KO), 0.0);
    let retake = Move::Play(at(g.board(), 1, 1));
    g.play(Move::Play(at(g.board(), 2, 1))).unwrap();
    g.play(Move::Pass).unwrap();
    g.play(Move::Pass).unwrap();
    assert!(g.is_over());
    assert_eq!(g.board().ko_point(), None);
    assert_eq!(g.board().check(W, at(g.board(), 1, 1)), Ok(()));
    assert_eq!(g.check(retake), Err(Illegal::Superko));
    assert!(!g.is_legal(retake));
    assert!(!g.legal_moves().contains(&retake));
    assert_eq!(g.play(retake), Err(Illegal::Superko));
    // the board alone allows it
    let mut b = g.board().clone();
    assert_eq!(b.play_stone(W, at(&b, 1, 1)), Ok(1));
    assert_eq!(compact(&b), compact(&board(KO)));
}

/// Three kos side by side; the first and third are White's (a white stone
/// Black can take), the middle one Black's.
const TRIPLE_KO: &str = "
    . X O .  .  . X O .  .  . X O .
    X O . O  .  X . X O  .  X O . O
    . X O .  .  . X O .  .  . X O .";

#[test]
fn triple_ko_cycle_is_refused_by_positional_superko() {
    let start = board(TRIPLE_KO);
    let mut g = Game::from_board(start.clone(), 0.0);
    let mut alone = start.clone();
    // Each move takes one ko; the sixth would bring back the start.
    let cycle = [
        (B, 2, 1),  // ko 1
        (W, 6, 1),  // ko 2
        (B, 12, 1), // ko 3
        (W, 1, 1),  // ko 1
        (B, 7, 1),  // ko 2
    ];
    let mut seen = vec![start.cells()];
    for &(c, x, y) in &cycle {
        assert_eq!(g.to_move(), c);
        let p = at(&alone, x, y);
        assert_eq!(g.check(Move::Play(p)), Ok(()), "{c} at ({x},{y})");
        assert_eq!(g.play(Move::Play(p)), Ok(1));
        assert_eq!(play(&mut alone, c, x, y), Ok(1));
        assert_eq!(g.board().cells(), alone.cells());
        assert!(!seen.contains(&alone.cells()), "five distinct positions");
        seen.push(alone.cells());
    }
    let last = at(&alone, 11, 1);
    // Board: ko 3 is not the ko just taken, so the board allows the capture
    assert_eq!(alone.ko_point(), Some(at(&alone, 6, 1)));
    assert_eq!(alone.check(W, last), Ok(()));
    // the game does not: it would repeat the starting position
    assert_eq!(g.check(Move::Play(last)), Err(Illegal::Superko));
    assert!(!g.legal_moves().contains(&Move::Play(last)));
    assert_eq!(g.play(Move::Play(last)), Err(Illegal::Superko));
    assert!(g.has_seen(start.hash()));
    assert_eq!(play(&mut alone, W, 11, 1), Ok(1));
    assert_eq!(alone.cells(), start.cells());
    assert_eq!(alone.hash(), start.hash());
    assert_eq!(g.history().len(), 6);
}

#[test]
fn sending_two_returning_one_is_refused_by_positional_superko() {
    // Black has t = (1, 0); s = (2, 0) and u = (0, 0) are empty.
    let start = board(
        ". X . O .
         X O O O .
         . . . . .
         . . . . .",
    );
    let mut g = Game::from_board(start.clone(), 0.0);
    let mut alone = start.clone();
    let (s, u, t) = ((2, 0), (0, 0), (1, 0));
    // Black sends two: the pair t-s has one liberty left, u.
    assert_eq!(play(&mut alone, B, s.0, s.1), Ok(0));
    assert_eq!(alone.string_size(at(&alone, 1, 0)), 2);
    assert_eq!(
        alone.atari_liberty(at(&alone, 1, 0)),
        Some(at(&alone, 0, 0))
    );
    // White takes the two at u; its stone there has one liberty, t.
    assert_eq!(play(&mut alone, W, u.0, u.1), Ok(2));
    assert_eq!(alone.liberty_count(at(&alone, 0, 0)), 1);
    assert_eq!(
        alone.ko_point(),
        None,
        "two stones were taken: no simple ko"
    );
    // Black returning one at t would bring back the start: the board alone
    // allows it ...
    assert_eq!(alone.check(B, at(&alone, t.0, t.1)), Ok(()));
    // ... the game does not.
    assert_eq!(g.play(Move::Play(at(&start, s.0, s.1))), Ok(0));
    assert_eq!(g.play(Move::Play(at(&start, u.0, u.1))), Ok(2));
    assert_eq!(g.board().cells(), alone.cells());
    let back = Move::Play(at(&start, t.0, t.1));
    assert_eq!(g.check(back), Err(Illegal::Superko));
    assert!(!g.legal_moves().contains(&back));
    assert_eq!(g.play(back), Err(Illegal::Superko));
    assert_eq!(play(&mut alone, B, t.0, t.1), Ok(1));
    assert_eq!(alone.cells(), start.cells());
    assert_eq!(alone.hash(), start.hash());
    // other moves stay legal, and after one the return is new and fine
    assert_eq!(g.play(Move::Play(at(&start, 4, 3))), Ok(0));
    assert_eq!(g.play(Move::Play(at(&start, 0, 3))), Ok(0));
    assert_eq!(g.check(back), Ok(()));
    assert_eq!(g.play(back), Ok(1));
}

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

/// Seed 001's example, scored in the seed as black 23, white 29.
const SEED_001: &str = include_str!("data/seed_001_example.txt");

#[test]
fn tromp_taylor_area_score() {
    let b = board(SEED_001);
    let s = b.area_score(0.0);
    assert_eq!((s.black, s.white), (23, 29));
    assert_eq!(s.margin(), -6.0);
    assert_eq!(s.winner(), Some(W));
    assert_eq!(s.result(), "W+6");
    assert_eq!(b.area_margin(), -6);
    // the seed's map of who owns what: x/o empty points counted for
    // black/white, X/O stones, - neutral
    let expected = "
        x x x X - O o o o
        x x x X - O o o o
        x x x X - O o o o
        x x x X O o o O o
        X X X O o O O o o
        - - - X O - - O O
        - - - X - O - - -
        - - - X - O - X -
        - - - - - O - - -";
    let want: Vec<Option<Color>> = expected
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            'x' | 'X' => Some(B),
            'o' | 'O' => Some(W),
            _ => None,
        })
        .collect();
    assert_eq!(s.owner, want);
    assert_eq!(b.area_score(6.5).result(), "W+12.5");
    assert_eq!(b.area_score(-6.0).result(), "Jigo");
    assert_eq!(b.area_score(-7.5).result(), "B+1.5");
    assert_eq!(b.area_score(-7.5).winner(), Some(B));
    assert_eq!(b.area_score(-6.0).winner(), None);
}

#[test]
fn dead_stones_are_not_removed() {
    // a lone white stone deep in black's area: Tromp-Taylor counts it for
    // white and makes the region around it neutral
    let b = board(
        "O . X . .
         . . X . .
         . . X . .
         . . X . .
         . . X . .",
    );
    let s = b.area_score(0.5);
    assert_eq!((s.black, s.white), (15, 1));
    assert_eq!(s.margin(), 13.5);
    assert_eq!(s.result(), "B+13.5");
    assert_eq!(s.owner[0], Some(W));
    assert_eq!(s.owner[1], None);
    assert_eq!(s.owner[3], Some(B));
    assert_eq!(s.owner[2], Some(B));
    // and the stone stays on the board
    assert_eq!(b.at(at(&b, 0, 0)), Cell::White);
    let empty = Board::new(5, 5);
    assert_eq!(empty.area_score(0.0).result(), "Jigo");
    assert_eq!(empty.area_score(7.5).result(), "W+7.5");
    assert_eq!(empty.area_score(0.0).owner, vec![None; 25]);
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

/// The Riddles.io referee 1.0.3 refuses a stone that has no empty
/// neighbour after its captures, even where its string keeps liberties;
/// 1.0.2 and the standard rules let it join. A stone that captures stands.
#[test]
fn riddles_1_0_3_wants_an_empty_neighbour_for_the_stone() {
    // (0, 0): black's false eye; (4, 1): a true eye; (1, 2): white's point,
    // where black captures the white stone at (1, 1)
    let b = board(
        ". X . . X .
         X O X X . X
         O . O . X .
         . O . . . .",
    );
    let (false_eye, true_eye) = (Move::Play(at(&b, 0, 0)), Move::Play(at(&b, 4, 1)));
    let capture = Move::Play(at(&b, 1, 2));
    for rules in Rules::ALL {
        let g = Game::from_board(b.clone(), 0.0).with_rules(rules);
        let strict = rules == Rules::Riddles103;
        for mv in [false_eye, true_eye] {
            let expected = if strict {
                Err(Illegal::Suicide)
            } else {
                Ok(())
            };
            assert_eq!(g.check(mv), expected, "{rules} {mv:?}");
            assert_eq!(g.legal_moves().contains(&mv), !strict, "{rules}");
        }
        assert_eq!(g.check(capture), Ok(()), "{rules}: a capture stands");
        let mut after = g.clone();
        assert_eq!(after.play(capture), Ok(1));
    }
}

/// `is_sensible` is `is_legal` less own eyes under either legality, over
/// random positions (1.0.3's playouts must never try a refused stone).
#[test]
fn sensible_moves_are_legal_under_both_legalities() {
    use tengen::search::rng::Rng;
    let mut rng = Rng::new(7);
    for k in 0..300u64 {
        let size = 5 + (k as usize % 5);
        let mut g = Game::new(size, size, 0.0).with_rules(Rules::ALL[k as usize % 3]);
        for _ in 0..rng.below(size * size * 2) {
            let moves = g.legal_moves();
            let mv = moves[rng.below(moves.len())];
            g.play(mv).unwrap();
            if g.is_over() {
                break;
            }
        }
        let b = g.board();
        let c = b.to_move();
        for p in b.points().filter(|&p| b.at(p) == Cell::Empty) {
            let retake = b.ko_point() == Some(p);
            assert_eq!(
                b.is_sensible(c, p),
                !b.is_eye(c, p) && b.is_legal(c, p),
                "position {k} ({}), {:?}\n{b}",
                g.rules(),
                b.xy(p)
            );
            // the game adds superko (standard) or lets a retake end it
            if !retake && g.rules().is_riddles() {
                assert_eq!(g.is_legal(Move::Play(p)), b.is_legal(c, p));
            }
        }
    }
}

/// Under the Riddles.io rules an immediate ko retake is legal and ends the
/// game, counted with it; under the standard rules it is refused.
#[test]
fn a_ko_retake_ends_a_riddles_game() {
    let b = board(
        ". X O .
         X O . O
         . X O .
         . . . .",
    );
    for rules in Rules::ALL {
        let mut g = Game::from_board(b.clone(), 7.5).with_rules(rules);
        g.play(Move::Play(at(&b, 2, 1))).unwrap(); // black takes the ko
        let retake = Move::Play(at(&b, 1, 1));
        if !rules.is_riddles() {
            assert_eq!(g.check(retake), Err(Illegal::Ko));
            continue;
        }
        assert_eq!(g.ending(retake), Some(End::KoRetake));
        assert_eq!(g.play(retake), Ok(1));
        assert_eq!(g.end(), Some(End::KoRetake), "{rules}");
        assert_eq!(g.board().at(at(&b, 1, 1)), Cell::White);
    }
}

/// Riddles.io: only a player's second pass in a row of its own ends the
/// game; a pass by each in turn does not, and a lost turn breaks the run.
/// Standard: two passes in a row.
#[test]
fn passes_end_the_game_by_each_rule() {
    let mut std = Game::new(5, 5, 7.5);
    std.play(Move::Pass).unwrap();
    assert_eq!(std.ending(Move::Pass), Some(End::TwoPasses));
    std.play(Move::Pass).unwrap();
    assert_eq!(std.end(), Some(End::TwoPasses));

    let mut g = Game::new(5, 5, 7.5).with_rules(Rules::Riddles102);
    g.play(Move::Pass).unwrap(); // black
    g.play(Move::Pass).unwrap(); // white
    assert!(!g.is_over());
    g.lose_turn(); // black's answer refused
    g.play(Move::Pass).unwrap(); // white's second pass in a row: over
    assert_eq!(g.end(), Some(End::OwnPasses));

    let mut g = Game::new(5, 5, 7.5).with_rules(Rules::Riddles103);
    g.play(Move::Pass).unwrap(); // black
    g.play(Move::Play(at(g.board(), 2, 2))).unwrap(); // white
    g.lose_turn(); // black loses a turn: no pass
    g.play(Move::Pass).unwrap(); // white
    g.play(Move::Pass).unwrap(); // black: its last turn was no pass
    assert!(!g.is_over());
    g.play(Move::Play(at(g.board(), 0, 0))).unwrap(); // white
    assert_eq!(g.ending(Move::Pass), Some(End::OwnPasses));
    g.play(Move::Pass).unwrap();
    assert_eq!(g.end(), Some(End::OwnPasses));
}

/// The board is full once no empty point has an empty neighbour (1.0.3)
/// or no empty point is left (1.0.2); the standard rules go on.
#[test]
fn a_full_board_ends_a_riddles_game() {
    // (2, 0) and (3, 0) are the only neighbouring empty points
    let b = board(
        "X X . . X
         X O O O X
         X O . O X
         X O O O X
         . X X X X",
    );
    let fill = Move::Play(at(&b, 3, 0));
    for rules in Rules::ALL {
        let mut g = Game::from_board(b.clone(), 0.0).with_rules(rules);
        let expected = (rules == Rules::Riddles103).then_some(End::BoardFull);
        assert_eq!(g.ending(fill), expected, "{rules}");
        g.play(fill).unwrap();
        assert_eq!(g.end(), expected, "{rules}");
    }
    // 1.0.2 wants no empty point at all, which no legal stone leaves (the
    // last one captures or is suicide): one isolated point keeps it going
    let lone = board("X X O\nX . O\nX X O");
    assert!(!Rules::Riddles102.board_full(&lone));
    assert!(Rules::Riddles103.board_full(&lone));
}

/// Raw area decides a Riddles.io game and equal areas draw; the standard
/// rules count komi for white.
#[test]
fn the_winner_is_the_raw_area_under_riddles_rules() {
    let b = board(
        ". X O .
         . X O .
         . X O .
         . X O .",
    );
    let std = Game::from_board(b.clone(), 7.5);
    assert_eq!(std.margin(), -7.5);
    for rules in [Rules::Riddles102, Rules::Riddles103] {
        let g = Game::from_board(b.clone(), 7.5).with_rules(rules);
        assert_eq!(g.counted_komi(), 0.0);
        assert_eq!(g.margin(), 0.0, "{rules}: a draw");
    }
}
