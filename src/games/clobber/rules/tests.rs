use super::*;

/// Every move by looking at each square and each neighbour: the
/// reference for the bitboard generation.
fn moves_by_hand(pos: &Clobber) -> Vec<Move> {
    let n = pos.size() as i32;
    let (own, opp) = (pos.stones(pos.to_move()), pos.stones(pos.to_move().opp()));
    let mut out = Vec::new();
    for y in 0..n {
        for x in 0..n {
            let from = (y * 8 + x) as u8;
            if own & (1 << from) == 0 {
                continue;
            }
            for (dx, dy) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
                let (tx, ty) = (x + dx, y + dy);
                if (0..n).contains(&tx) && (0..n).contains(&ty) {
                    let to = (ty * 8 + tx) as u8;
                    if opp & (1 << to) != 0 {
                        out.push(Move { from, to });
                    }
                }
            }
        }
    }
    out
}

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort_by_key(|m| (m.from, m.to));
    v
}

#[test]
fn the_start_is_a_checkerboard_with_a1_black_and_white_to_move() {
    let g = Clobber::new(8);
    assert_eq!(g.rows()[0], "wbwbwbwb");
    assert_eq!(g.rows()[7], "bwbwbwbw");
    assert_eq!(g.to_move(), Color::White);
    // every stone touches enemies: 2 * 8 * 7 moves of each colour
    assert_eq!(g.mobility(Color::White), 112);
    assert_eq!(g.mobility(Color::Black), 112);
    let g5 = Clobber::new(5);
    assert_eq!(g5.rows()[4], "bwbwb");
    assert_eq!(g5.rows()[0], "bwbwb");
}

#[test]
fn bitboard_moves_match_a_square_by_square_count_in_random_games() {
    let mut rng = crate::search::rng::Rng::new(5);
    for game in 0..60 {
        let mut g = Clobber::new(1 + game % 8);
        while !g.is_over() {
            let moves = g.moves();
            assert_eq!(sorted(moves.clone()), sorted(moves_by_hand(&g)));
            assert_eq!(moves.len() as u32, g.mobility(g.to_move()));
            for (k, &m) in moves.iter().enumerate() {
                assert_eq!(g.nth_move(k as u32), m);
                assert_eq!(Move::from_action(m.action()), m);
                assert!(g.check(m).is_ok());
            }
            let m = moves[rng.below(moves.len())];
            g.play(m).unwrap();
        }
        assert!(moves_by_hand(&g).is_empty());
        assert_eq!(g.winner(), Some(g.to_move().opp()));
    }
}

#[test]
fn the_player_without_a_move_loses() {
    // black to move has stones but none touches white: white won
    let g = Clobber::from_rows(&["w.b", "...", "b.w"], Color::Black).unwrap();
    assert!(g.is_over());
    assert_eq!(g.winner(), Some(Color::White));
    let g = Clobber::from_rows(&["wb.", "...", "..."], Color::Black).unwrap();
    assert!(!g.is_over());
    assert_eq!(g.winner(), None);
}

#[test]
fn notation_reads_files_from_the_left_and_ranks_from_the_bottom() {
    let g = Clobber::new(8);
    let m = g.parse_move("e2e3").unwrap();
    assert_eq!((m.from % 8, m.from / 8), (4, 6));
    assert_eq!((m.to % 8, m.to / 8), (4, 5));
    assert_eq!(g.move_name(m), "e2e3");
    assert_eq!(g.parse_move("b1a1 a comment"), g.parse_move("b1a1"));
    for bad in [
        "", "e2", "e2e", "i1a1", "a0a1", "a9a8", "e2-e3", "éé", "22e3",
    ] {
        assert_eq!(g.parse_move(bad), None, "{bad:?}");
    }
    // on a 5x5 board rank 5 is the top row
    let g5 = Clobber::new(5);
    assert_eq!(g5.parse_move("a5a4").unwrap().from, 0);
    assert_eq!(g5.parse_move("a6a5"), None);
}

#[test]
fn refused_moves_say_why() {
    let g = Clobber::new(8);
    let mv = |t: &str| g.parse_move(t).unwrap();
    // a1 is black, so e1 is black and e2 white
    assert!(g.check(mv("e2e3")).is_ok());
    assert!(g
        .check(mv("e1e2"))
        .unwrap_err()
        .0
        .contains("no stone of the mover"));
    assert!(g.check(mv("e2e4")).unwrap_err().0.contains("enemy"));
    assert!(g.check(mv("e2f3")).is_err(), "a diagonal");
    assert!(g.check(mv("h2a3")).is_err());
    let mut after = g;
    after.play(mv("e2e3")).unwrap();
    assert!(after
        .check(mv("e4e3"))
        .unwrap_err()
        .0
        .contains("of the mover"));
    assert!(after.check(mv("d2e2")).unwrap_err().0.contains("enemy"));
    assert_eq!(after.rows()[6], "wbwb.bwb");
    assert_eq!(after.rows()[5], "bwbwwwbw");
    assert!(Clobber::from_rows(&["wb", "bx"], Color::White).is_err());
    assert!(Clobber::from_rows(&["wb", "b"], Color::White).is_err());
}
