//! The move we answer when the search cannot be used: legal under superko,
//! never into our own eye (true or false), a capture if there is one, not a
//! self-atari if it can be helped, away from the edge. Pass only when
//! nothing else is left.

use crate::go::{Game, Move, Point};

/// Legal moves other than pass, minus the points to avoid and the moves
/// that would end the game without winning it (a ko retake under the
/// Riddles.io rules, say).
pub fn candidates(game: &Game, avoid: &[Point]) -> Vec<Point> {
    game.legal_moves()
        .into_iter()
        .filter_map(Move::point)
        .filter(|p| !avoid.contains(p) && !ends_unwon(game, Move::Play(*p)))
        .collect()
}

/// Whether `mv` ends the game without a win for the side playing it.
pub fn ends_unwon(game: &Game, mv: Move) -> bool {
    if game.ending(mv).is_none() {
        return false;
    }
    let me = game.to_move();
    let mut after = game.clone();
    after.play(mv).is_err() || after.margin() * me.sign() <= 0.0
}

/// A quick, safe move for the side to move.
pub fn fallback(game: &Game, avoid: &[Point]) -> Move {
    let b = game.board();
    let c = b.to_move();
    let (w, h) = (b.width(), b.height());
    candidates(game, avoid)
        .into_iter()
        .filter(|&p| !b.surrounded_by(c, p))
        .max_by_key(|&p| {
            let (x, y) = b.xy(p);
            let line = x.min(y).min(w - 1 - x).min(h - 1 - y).min(3);
            (
                b.captures_at(c, p),
                b.keeps_two_liberties(c, p),
                line,
                std::cmp::Reverse(p),
            )
        })
        .map_or(Move::Pass, Move::Play)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Board;

    #[test]
    fn takes_a_capture_and_keeps_out_of_its_eyes() {
        let b = Board::from_ascii(
            ". X O .
             X X O .
             O O . .
             . . . .",
        )
        .unwrap();
        let g = Game::from_board(b, 7.5);
        // black to move: nothing to capture, the eye at the corner is kept
        let mv = fallback(&g, &[]);
        assert_ne!(mv, Move::Play(g.board().point(0, 0)));
        assert!(g.is_legal(mv));
    }

    #[test]
    fn passes_when_only_eyes_are_left() {
        let b = Board::from_ascii(
            ". X
             X X",
        )
        .unwrap();
        let g = Game::from_board(b, 7.5);
        assert_eq!(fallback(&g, &[]), Move::Pass);
    }

    #[test]
    fn captures_first() {
        let b = Board::from_ascii(
            ". . . . .
             . X O . .
             . . X . .
             . . . . .
             . . . . .",
        )
        .unwrap();
        let g = Game::from_board(b, 7.5);
        // white at (2,1) has liberties (3,1) and (2,0): no capture yet
        assert!(g.is_legal(fallback(&g, &[])));
        let b = Board::from_ascii(
            ". . X . .
             . X O . .
             . . X . .
             . . . . .
             . . . . .",
        )
        .unwrap();
        let g = Game::from_board(b, 7.5);
        assert_eq!(fallback(&g, &[]), Move::Play(g.board().point(3, 1)));
        // unless the engine marked that point
        let p = g.board().point(3, 1);
        assert_ne!(fallback(&g, &[p]), Move::Play(p));
    }
}
