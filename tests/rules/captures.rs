//! Captures, suicide and snapback.

use super::*;

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
