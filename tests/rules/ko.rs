//! Ko and positional superko.

use super::*;

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
