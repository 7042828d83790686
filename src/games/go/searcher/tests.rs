//! The passing rules and the dynamic komi.

use super::*;
use crate::go::Point;

fn child(action: u16, visits: u32, value: f32) -> Candidate {
    Candidate {
        action,
        visits,
        value,
    }
}

#[test]
fn forced_playouts_through_the_pass_do_not_make_it_the_choice() {
    // counts from a game against GNU Go: the pass led on playouts (a
    // share of them forced) at 46 %, the moves split the rest at 60-75 %
    let (pass, p2, s5) = (
        child(PASS, 330, 0.463),
        child(40, 135, 0.686),
        child(50, 125, 0.605),
    );
    let ranked = [pass, p2, s5];
    assert_eq!(choose(&ranked, 3.5, || false), Move::Play(Point(40)));
    assert_eq!(choose(&ranked, -3.5, || false), Move::Play(Point(40)));
    // as good as the moves (within the tolerance): pass on a won count,
    // play on a lost one
    let close = child(PASS, 330, 0.66);
    let ranked = [close, p2, s5];
    assert_eq!(choose(&ranked, 3.5, || false), Move::Pass);
    assert_eq!(choose(&ranked, -3.5, || false), Move::Play(Point(40)));
    // nothing but the pass
    assert_eq!(choose(&[close], -3.5, || false), Move::Pass);
}

#[test]
fn the_komi_moves_only_once_the_game_is_decided() {
    // within 1.64 spreads of 0: the game's own komi
    assert_eq!(dynamic_komi(30.0, 20.0, 1.64), 0.0);
    assert_eq!(dynamic_komi(-30.0, 20.0, 1.64), 0.0);
    // winning by 40 ± 20: a win is now more than 20
    assert_eq!(dynamic_komi(40.0, 20.0, 1.64), 20.0);
    // losing by 40: a win is now losing by less than 40
    assert_eq!(dynamic_komi(-40.0, 20.0, 1.64), -40.0);
    // sure, but close: fought for the win
    assert_eq!(dynamic_komi(-4.0, 1.0, 1.64), 0.0);
    assert_eq!(dynamic_komi(9.0, 1.0, 1.64), 0.0);
    assert_eq!(dynamic_komi(11.0, 1.0, 1.64), 10.0);
    // off, or nothing measured
    assert_eq!(dynamic_komi(40.0, 20.0, 0.0), 0.0);
    assert_eq!(dynamic_komi(40.0, 0.0, 1.64), 0.0);
    assert_eq!(dynamic_komi(f32::NAN, f32::NAN, 1.64), 0.0);
}

/// 9x9, Black some 47 points ahead on the board: with komi -40.5 the
/// game is decided, with 40.5 not. The search after a decided one
/// counts with the komi moved (a new tree: the kept one counted the
/// old), and a close game or `dynamic_komi=0` leaves it.
#[test]
fn a_decided_search_moves_the_komi_of_the_next() {
    use crate::go::{Board, Color};
    let board = Board::from_ascii(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         X X X X X X X X X
         X X X O O O X X X
         O O O X . X O O O
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    )
    .unwrap();
    let no_limit = Horizon { moves_left: None };
    for (komi, setting, moves) in [
        (-40.5, 1.64, true),
        (40.5, 1.64, false),
        (-40.5, 0.0, false),
    ] {
        let game = Game::from_board(board.clone(), komi);
        assert_eq!(game.to_move(), Color::Black);
        // dynamic komi is the playout search's
        let config = Config {
            ponder: false,
            network: false,
            dynamic_komi: setting,
            ..Config::default()
        };
        let mut s = Searcher::new(config);
        s.think(&game, no_limit, Budget::playouts(3000));
        assert_eq!(
            s.shift > 0.0,
            moves,
            "komi {komi}, setting {setting}: {}",
            s.shift
        );
        let (_, stats) = s.think(&game, no_limit, Budget::playouts(1000));
        assert_eq!(
            stats.reused == 0,
            moves,
            "a tree of another komi is not reused"
        );
        if moves {
            // a win in about 5 playouts of 6 at the moved komi
            assert!((0.6..0.95).contains(&stats.winrate), "{}", stats.winrate);
        }
    }
}

#[test]
fn a_move_leading_on_playouts_is_played_unless_passing_settles_a_won_count() {
    let (m, pass) = (child(40, 500, 0.70), child(PASS, 100, 0.68));
    let ranked = [m, pass];
    assert_eq!(choose(&ranked, 3.5, || false), Move::Play(Point(40)));
    assert_eq!(choose(&ranked, 3.5, || true), Move::Pass);
    assert_eq!(choose(&ranked, -3.5, || true), Move::Play(Point(40)));
    let worse = child(PASS, 100, 0.60);
    assert_eq!(choose(&[m, worse], 3.5, || true), Move::Play(Point(40)));
}
