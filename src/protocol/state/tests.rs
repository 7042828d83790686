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
fn an_unexplained_field_resyncs_and_keeps_history() {
    let mut t = riddles(0);
    feed(&mut t, &[field(&Board::new(5, 5), Dialect::Riddles)]);
    t.begin_turn();
    let g = t.game();
    t.play_ours(at(&g, 2, 2));
    let mut ours = Board::new(5, 5);
    ours.play_stone(Color::Black, ours.point(2, 2)).unwrap();
    // two white stones and no black one: no move explains it
    let mut b = Board::new(5, 5);
    b.play_stone(Color::White, b.point(1, 1)).unwrap();
    b.play_stone(Color::White, b.point(3, 3)).unwrap();
    feed(&mut t, &[field(&b, Dialect::Riddles)]);
    let turn = t.begin_turn();
    assert_eq!(t.resyncs(), 1);
    assert_eq!(turn.us, Color::Black);
    let g = t.game();
    assert_eq!(g.board().cells(), b.cells());
    assert_eq!(g.to_move(), Color::Black);
    // the position after our move stays known to superko
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

/// The field of `board` with the cells at `marked` (row-major indices)
/// written `-1`, as the 1.0.3 referee writes them.
fn marked_field(board: &Board, marked: &[usize]) -> String {
    let cells: Vec<String> = field_text(board, Dialect::Riddles)
        .split(',')
        .enumerate()
        .map(|(i, c)| {
            if marked.contains(&i) {
                "-1".into()
            } else {
                c.to_string()
            }
        })
        .collect();
    format!("update game field {}", cells.join(","))
}

/// Black to move with a corner point (0, 0) that has no empty neighbour:
/// white at (1, 0), black at (0, 1) and (1, 1).
fn closed_corner() -> Board {
    let mut b = Board::new(5, 5);
    for (c, x, y) in [
        (Color::White, 1, 0),
        (Color::Black, 0, 1),
        (Color::Black, 1, 1),
    ] {
        b.play_stone(c, b.point(x, y)).unwrap();
    }
    b.set_to_move(Color::Black);
    b
}

#[test]
fn the_fields_tell_the_referee_s_version() {
    // TheAIGames: the standard rules
    let mut t = riddles(0);
    feed(&mut t, &[field(&Board::new(5, 5), Dialect::TheAiGames)]);
    t.begin_turn();
    assert_eq!(t.game().rules(), Rules::Standard);
    // Riddles.io with nothing to tell yet: 1.0.3, the stricter
    let mut t = riddles(0);
    feed(&mut t, &[field(&Board::new(5, 5), Dialect::Riddles)]);
    t.begin_turn();
    assert_eq!(t.game().rules(), Rules::Riddles103);
    // the closed corner unmarked: 1.0.2, where black may join there
    let b = closed_corner();
    let mut t = riddles(0);
    feed(&mut t, &[field(&b, Dialect::Riddles)]);
    t.begin_turn();
    let g = t.game();
    assert_eq!(g.rules(), Rules::Riddles102);
    assert!(g.is_legal(at(&g, 0, 0)));
    // marked: 1.0.3, where the stone would have no empty neighbour
    let mut t = riddles(0);
    feed(&mut t, &[marked_field(&b, &[0])]);
    t.begin_turn();
    let g = t.game();
    assert_eq!(g.rules(), Rules::Riddles103);
    assert!(!g.is_legal(at(&g, 0, 0)));
    // marks after a field that made it 1.0.2: 1.0.3 after all
    let mut t = riddles(0);
    feed(&mut t, &[field(&b, Dialect::Riddles)]);
    t.begin_turn();
    t.play_ours(Move::Pass);
    feed(&mut t, &[marked_field(&b, &[0])]);
    t.begin_turn();
    assert_eq!(t.game().rules(), Rules::Riddles103);
    // and a field without the marks 1.0.3 sends keeps 1.0.3
    t.play_ours(Move::Pass);
    feed(&mut t, &[field(&b, Dialect::Riddles)]);
    t.begin_turn();
    assert_eq!(t.game().rules(), Rules::Riddles103);
}

/// Our answer refused: the field comes back without our stone and with
/// the opponent's move. The turn is lost, the game goes on from the field
/// without a resync, and the point is not answered again here.
#[test]
fn a_refused_answer_is_recognised_and_not_repeated() {
    let mut t = riddles(0);
    let b = Board::new(5, 5);
    feed(&mut t, &[field(&b, Dialect::Riddles)]);
    t.begin_turn();
    let g = t.game();
    let ours = at(&g, 2, 2);
    t.play_ours(ours);
    // the referee kept the board and white played (0, 0)
    let mut seen = b.clone();
    seen.play_stone(Color::White, seen.point(0, 0)).unwrap();
    feed(&mut t, &[field(&seen, Dialect::Riddles)]);
    let turn = t.begin_turn();
    assert_eq!(t.resyncs(), 0);
    let g = t.game();
    assert_eq!(g.board().cells(), seen.cells());
    assert_eq!(g.moves(), &[(Color::White, at(&g, 0, 0))]);
    // white's stone changed the position: (2, 2) may be tried again
    assert!(turn.avoid.is_empty());
    // refused again in a position where white then passed: avoided now
    t.play_ours(ours);
    feed(&mut t, &[field(&seen, Dialect::Riddles)]);
    let turn = t.begin_turn();
    assert_eq!(t.resyncs(), 0);
    assert_eq!(turn.avoid, vec![g.board().point(2, 2)]);
}

/// The `-1` cells a 1.0.3 referee sends for `board`: its empty points with
/// no empty neighbour, and the stones at `stale`.
fn marks_of(board: &Board, stale: &[(usize, usize)]) -> Vec<usize> {
    board
        .points()
        .enumerate()
        .filter(|&(_, p)| {
            let (x, y) = board.xy(p);
            match board.at(p) {
                Cell::Empty => board.nbr_count(p, Cell::Empty) == 0,
                _ => stale.contains(&(x, y)),
            }
        })
        .map(|(i, _)| i)
        .collect()
}

/// White captures on a marked point: the new stone reads `-1`, yet the
/// move is found among the three marked points where white captures; later
/// fields keep the mark on it and still fit.
#[test]
fn a_capture_under_a_mark_is_inferred() {
    let mut b = Board::from_ascii(
        ". X O O X
         X O . O .
         O . . . O
         . . . O X
         . . . O .",
    )
    .unwrap();
    b.set_to_move(Color::Black);
    let mut t = riddles(0);
    feed(&mut t, &[marked_field(&b, &marks_of(&b, &[]))]);
    t.begin_turn(); // a resync: the game starts mid-way
    let resyncs = t.resyncs();
    t.play_ours(Move::Play(b.point(2, 3)));
    let mut after = t.game().board().clone();
    after.play_stone(Color::White, after.point(0, 0)).unwrap();
    feed(
        &mut t,
        &[marked_field(&after, &marks_of(&after, &[(0, 0)]))],
    );
    t.begin_turn();
    assert_eq!(t.resyncs(), resyncs);
    let g = t.game();
    assert_eq!(g.moves().last(), Some(&(Color::White, at(&g, 0, 0))));
    assert_eq!(g.board().at(g.board().point(0, 0)), Cell::White);
    // white passes: the same field fits, the hidden stone stays
    t.play_ours(Move::Play(b.point(2, 4)));
    let mut next = t.game().board().clone();
    next.pass();
    feed(&mut t, &[marked_field(&next, &marks_of(&next, &[(0, 0)]))]);
    t.begin_turn();
    assert_eq!(t.resyncs(), resyncs);
    assert_eq!(t.game().board().at(g.board().point(0, 0)), Cell::White);
    assert_eq!(t.game().moves().last().map(|m| m.1), Some(Move::Pass));
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
