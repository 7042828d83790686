//! Tromp-Taylor scoring, and the Riddles.io referee's rulings.

use super::*;

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
