use super::*;
use crate::protocol::lines::parse;

fn feed(t: &mut Table, lines: &[String]) {
    for l in lines {
        t.apply(parse(l));
    }
}

/// A table for a 5x5 Riddles.io game in which we are `player{id}`.
fn riddles(id: u8) -> Table {
    let mut t = Table::new();
    feed(
        &mut t,
        &[
            format!("settings your_botid {id}"),
            "settings field_height 5".into(),
            "settings player_names player0,player1".into(),
            "settings field_width 5".into(),
            "settings max_rounds 30".into(),
        ],
    );
    t
}

fn field(board: &Board, dialect: Dialect) -> String {
    format!("update game field {}", field_text(board, dialect))
}

fn at(g: &Game, x: usize, y: usize) -> Move {
    Move::Play(g.board().point(x, y))
}

/// The referee's view: our game plus the opponent's move.
fn after(t: &Table, mv: Move) -> Board {
    let mut g = t.game();
    g.play(mv).unwrap();
    g.board().clone()
}

#[test]
fn the_opponents_stone_is_inferred() {
    let mut t = riddles(1);
    let mut black = Board::new(5, 5);
    black.play_stone(Color::Black, black.point(2, 2)).unwrap();
    feed(
        &mut t,
        &[
            "update game round 1".into(),
            field(&black, Dialect::Riddles),
        ],
    );
    let turn = t.begin_turn();
    assert_eq!(turn.us, Color::White);
    assert_eq!(turn.horizon.moves_left, Some(2 * 29 - 1));
    let g = t.game();
    assert_eq!(g.moves(), &[(Color::Black, at(&g, 2, 2))]);
    assert_eq!(t.resyncs(), 0);
}

#[test]
fn a_pass_and_a_capture_are_inferred() {
    let mut t = riddles(0);
    feed(&mut t, &[field(&Board::new(5, 5), Dialect::Riddles)]);
    assert_eq!(t.begin_turn().us, Color::Black);
    let g = t.game();
    t.play_ours(at(&g, 0, 0));
    // white passes: the field shows our stone only
    let b = t.game().board().clone();
    feed(&mut t, &[field(&b, Dialect::Riddles)]);
    t.begin_turn();
    assert_eq!(t.game().moves().last(), Some(&(Color::White, Move::Pass)));
    t.play_ours(at(&g, 4, 4));
    // white plays at (1,0), then we pass, then white captures at (0,1)
    let b = after(&t, at(&g, 1, 0));
    feed(&mut t, &[field(&b, Dialect::Riddles)]);
    t.begin_turn();
    t.play_ours(Move::Pass);
    let b = after(&t, at(&g, 0, 1));
    assert_eq!(b.at(g.board().point(0, 0)), Cell::Empty);
    feed(&mut t, &[field(&b, Dialect::Riddles)]);
    t.begin_turn();
    assert_eq!(t.game().board().cells(), b.cells());
    assert_eq!(t.game().to_move(), Color::Black);
    assert_eq!(t.resyncs(), 0);
}

#[test]
fn a_lost_answer_resyncs_and_keeps_history() {
    let mut t = riddles(0);
    feed(&mut t, &[field(&Board::new(5, 5), Dialect::Riddles)]);
    t.begin_turn();
    let g = t.game();
    t.play_ours(at(&g, 2, 2));
    // the engine refused our stone: white's stone alone appears
    let mut b = Board::new(5, 5);
    b.play_stone(Color::White, b.point(1, 1)).unwrap();
    feed(&mut t, &[field(&b, Dialect::Riddles)]);
    let turn = t.begin_turn();
    assert_eq!(t.resyncs(), 1);
    assert_eq!(turn.us, Color::Black);
    let g = t.game();
    assert_eq!(g.board().cells(), b.cells());
    assert_eq!(g.to_move(), Color::Black);
    // the position after our refused move stays forbidden
    let mut ours = Board::new(5, 5);
    ours.play_stone(Color::Black, ours.point(2, 2)).unwrap();
    assert!(g.has_seen(ours.hash()));
}

#[test]
fn a_field_in_the_other_dialect_changes_nothing() {
    let mut t = riddles(1);
    let g = Game::new(5, 5, 7.5);
    let mut b = g.board().clone();
    b.play(at(&g, 2, 2)).unwrap();
    feed(&mut t, &[field(&b, Dialect::Riddles)]);
    t.begin_turn();
    t.play_ours(at(&g, 3, 3));
    let b = after(&t, at(&g, 1, 1));
    feed(&mut t, &[field(&b, Dialect::TheAiGames)]);
    t.begin_turn();
    assert_eq!(t.resyncs(), 0);
    assert_eq!(t.game().moves().len(), 3);
}

#[test]
fn own_eye_fills_are_illegal_in_the_riddles_dialect_only() {
    for (dialect, forbidden) in [(Dialect::Riddles, true), (Dialect::TheAiGames, false)] {
        let mut t = riddles(0);
        // black to move with an eye at the corner, false (white holds the
        // diagonal and the edge makes one enough)
        let mut b = Board::new(5, 5);
        for (c, x, y) in [
            (Color::Black, 1, 0),
            (Color::Black, 0, 1),
            (Color::White, 1, 1),
        ] {
            b.play_stone(c, b.point(x, y)).unwrap();
        }
        feed(&mut t, &[field(&b, dialect)]);
        t.begin_turn();
        let g = t.game();
        assert_eq!(g.own_eye_fills_illegal(), forbidden, "{dialect:?}");
        assert_eq!(g.is_legal(at(&g, 0, 0)), !forbidden, "{dialect:?}");
    }
}

#[test]
fn a_field_of_the_wrong_length_is_ignored() {
    let mut t = riddles(0);
    feed(&mut t, &["update game field .,.,.,.".into()]);
    t.begin_turn();
    assert_eq!(t.game().board().width(), 5);
    assert_eq!(t.resyncs(), 0);
}

#[test]
fn without_settings_the_field_gives_size_and_colour() {
    let mut t = Table::new();
    let g = Game::new(9, 9, 7.5);
    let mut b = g.board().clone();
    b.play(at(&g, 4, 4)).unwrap();
    feed(&mut t, &[field(&b, Dialect::TheAiGames)]);
    let turn = t.begin_turn();
    assert_eq!(turn.us, Color::White);
    assert_eq!(t.game().board().width(), 9);
}

#[test]
fn komi_is_read_from_area_points() {
    let mut t = riddles(0);
    feed(
        &mut t,
        &[
            field(&Board::new(5, 5), Dialect::Riddles),
            "update player0 points 0".into(),
            "update player1 points 6.5".into(),
        ],
    );
    t.begin_turn();
    assert_eq!(t.game().komi(), 6.5);
    // points that are not area counts leave 7.5
    let mut t = riddles(0);
    feed(
        &mut t,
        &[
            field(&Board::new(5, 5), Dialect::Riddles),
            "update player0 points 3".into(),
            "update player1 points 6.5".into(),
        ],
    );
    t.begin_turn();
    assert_eq!(t.game().komi(), 7.5);
}

#[test]
fn the_horizon_follows_the_round_limit() {
    let mut t = riddles(0);
    feed(&mut t, &["update game round 29".into()]);
    let turn = t.begin_turn();
    assert_eq!(turn.horizon.moves_left, Some(2));
    assert_eq!(turn.own_moves_to_limit, 1);
    let mut t = riddles(1);
    feed(&mut t, &["update game round 40".into()]);
    assert_eq!(t.begin_turn().horizon.moves_left, Some(1));
}
