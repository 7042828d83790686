use super::*;

/// Plays `moves` (`(x, y)`, or `None` for a pass) from the empty board.
fn game(size: usize, moves: &[Option<(usize, usize)>]) -> AtariGo {
    let mut g = AtariGo::new(size);
    for (k, &m) in moves.iter().enumerate() {
        let mv = at(&g, m);
        g.play(mv)
            .unwrap_or_else(|e| panic!("move {k} {m:?}: {e}\n{:?}", g.board()));
    }
    g
}

fn at(g: &AtariGo, m: Option<(usize, usize)>) -> Move {
    m.map_or(Move::Pass, |(x, y)| Move::Play(g.board().point(x, y)))
}

/// A ko in the top left: black (1,0) (0,1) (2,1) (1,2); white (2,0)
/// (3,1) (2,2), then white takes at (1,1)... set up so that black's stone
/// at (1,1)... is taken by white at (2,1)'s place. The moves alternate
/// black, white; `None` passes.
fn ko_moves() -> Vec<Option<(usize, usize)>> {
    vec![
        Some((1, 0)), // B
        Some((2, 0)), // W
        Some((0, 1)), // B
        Some((3, 1)), // W
        Some((1, 2)), // B
        Some((2, 2)), // W
        Some((2, 1)), // B: sits in atari between white stones
        Some((1, 1)), // W: takes it; the white stone is in atari in turn
    ]
}

#[test]
fn captures_score_and_stones_played_break_ties() {
    // black takes white's corner stone
    let g = game(9, &[Some((0, 1)), Some((0, 0)), Some((1, 0))]);
    assert_eq!(g.captures(Color::Black), 1);
    assert_eq!(g.captures(Color::White), 0);
    assert_eq!(g.stones(Color::White), 1);
    assert_eq!(g.standing(), Outcome::Win(Color::Black));
    // no captures: more stones played wins, a pass counts as a turn
    let g = game(9, &[Some((4, 4)), None]).with_turns(2);
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::Black)));
    let g = game(9, &[None, Some((4, 4))]).with_turns(2);
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::White)));
    // equal captures and stones: a draw
    let g = game(9, &[Some((4, 4)), Some((5, 5))]).with_turns(2);
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

#[test]
fn the_game_ends_after_its_turns_passes_included() {
    let mut g = AtariGo::new(9);
    assert_eq!(g.max_turns(), 80);
    for k in 0..79 {
        assert!(!g.is_over(), "over after {k} turns");
        g.play(Move::Pass).unwrap();
    }
    assert!(!g.is_over());
    assert_eq!(g.turns_left(), 1);
    assert_eq!(g.to_move(), Color::White);
    g.play(Move::Pass).unwrap();
    assert!(g.is_over());
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

#[test]
fn suicide_is_illegal_unless_the_stone_captures() {
    // white at (0,0) with black at (1,0) and (0,1): a white stone there
    // would have no liberty
    let g = game(9, &[Some((1, 0)), Some((8, 8)), Some((0, 1))]);
    let corner = g.board().point(0, 0);
    assert_eq!(g.check(corner), Err(Illegal::Suicide));
    // but when it captures, it stands: black (1,0) in atari from white
    // (2,0) and (1,1)
    let g = game(
        9,
        &[
            Some((1, 0)),
            Some((2, 0)),
            Some((0, 1)),
            Some((1, 1)),
            Some((8, 8)),
        ],
    );
    let mut g2 = g.clone();
    assert_eq!(g2.play(at(&g, Some((0, 0)))), Ok(1));
    assert_eq!(g2.captures(Color::White), 1);
    // filling one's own last liberty is suicide too
    let g = game(9, &[Some((1, 0)), Some((0, 1)), Some((8, 8))]);
    let mut g3 = g.clone();
    // white (0,1) and black (1,0) around the corner; white to move, the
    // corner has white's own stone with liberties: legal
    assert!(g3.play(at(&g, Some((0, 0)))).is_ok());
}

#[test]
fn the_ko_forbids_only_the_board_after_ones_own_last_stone() {
    let g = game(9, &ko_moves());
    let retake = g.board().point(2, 1);
    assert_eq!(g.captures(Color::White), 1);
    // black may not take back at once: that is the board after its stone
    assert_eq!(g.check(retake), Err(Illegal::Ko));
    // after black plays elsewhere and white answers, the retake is legal
    let mut g2 = g.clone();
    g2.play(at(&g, Some((8, 8)))).unwrap();
    g2.play(at(&g, Some((8, 7)))).unwrap();
    assert_eq!(g2.play(Move::Play(retake)), Ok(1));
    // but passes do not lift it: black passes, white passes, and black's
    // retake would still recreate the board after its own last stone
    let mut g3 = g.clone();
    g3.play(Move::Pass).unwrap();
    g3.play(Move::Pass).unwrap();
    assert_eq!(g3.check(retake), Err(Illegal::Ko));
    // white's retake of the ko after black's retake is white's own board
    // again: refused the same way
    let white_retake = g2.board().point(1, 1);
    assert_eq!(g2.check(white_retake), Err(Illegal::Ko));
}

#[test]
fn a_retake_go_would_call_ko_is_legal_when_it_recreates_no_own_board() {
    // black's last stone was long ago; since then black passed. White
    // takes in a ko shape; black's retake recreates the board before
    // white's capture, not the one after black's last stone (white played
    // a stone in between): legal here, though Go's simple ko forbids it
    let mut moves = ko_moves();
    let take = moves.pop().unwrap(); // white's capture comes last
    moves.push(Some((8, 8))); // W elsewhere
    moves.push(None); // B passes
    moves.push(take); // W takes
    let g = game(9, &moves);
    let retake = g.board().point(2, 1);
    assert_eq!(g.board().ko_point(), Some(retake));
    assert!(g.is_legal(retake));
    let mut g = g;
    assert_eq!(g.play(Move::Play(retake)), Ok(1));
}

#[test]
fn occupied_and_off_board_points_are_refused() {
    let g = game(9, &[Some((4, 4))]);
    assert_eq!(g.check(g.board().point(4, 4)), Err(Illegal::Occupied));
    assert_eq!(g.clone().play(Move::Play(Point(0))), Err(Illegal::OffBoard));
    assert_eq!(
        g.clone().play(Move::Play(Point(60_000))),
        Err(Illegal::OffBoard)
    );
}

#[test]
fn a_resumed_game_counts_stones_and_guards_the_ko() {
    let g = game(9, &ko_moves());
    let r = AtariGo::resume(g.board().clone(), Color::Black, 8, [0, 1]);
    assert_eq!(r.stones(Color::Black), g.stones(Color::Black));
    assert_eq!(r.stones(Color::White), g.stones(Color::White));
    assert_eq!(r.turns_left(), 72);
    assert!(r.ko_unknown(Color::Black));
    let (retake, last) = (g.board().point(2, 1), g.board().point(1, 1));
    assert!(r.resumed_ko(retake, last));
    assert!(!r.resumed_ko(g.board().point(5, 5), last));
    assert_eq!(r.rows()[1], "BW.W.....");
}
