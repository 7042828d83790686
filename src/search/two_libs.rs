//! The playout's answer to a string left with two liberties next to the
//! last move: the fights the capture and save rules only see one move too
//! late. After Pachi's moggy playouts (its "local 2lib check").
//!
//! - An enemy string with two liberties is put in atari, on the liberty
//!   whose answer (extending at the other) leaves it short of liberties:
//!   an atari that lets the string run into open space only helps it.
//! - An own string with two liberties takes a liberty that gives it three,
//!   captures an enemy string in atari next to it, or ataris an enemy
//!   string next to it that has two liberties as well (a capturing race:
//!   the side that ataris first wins it).

use super::policy::{add, add_capture, enemy_stones_next_to, Candidates};
use crate::go::{Board, Color, Point};
use arrayvec::ArrayVec;

/// The moves for the side to move against or for the strings with two
/// liberties at `last` and next to it, each string looked at once.
pub fn moves_near(board: &Board, last: Point, out: &mut Candidates) {
    out.clear();
    let c = board.to_move();
    let mut seen: ArrayVec<Point, 5> = ArrayVec::new();
    let n = board.neighbors(last);
    for q in [last, n[0], n[1], n[2], n[3]] {
        if !board.at(q).is_stone() || board.liberty_count(q) != 2 {
            continue;
        }
        let id = board.string_id(q);
        if seen.contains(&id) {
            continue;
        }
        seen.push(id);
        if board.at(q) == c.stone() {
            defend(board, c, q, out);
        } else {
            attack(board, c, q, out);
        }
    }
}

/// Ataris by `c` on the enemy string at `s` (two liberties) that its
/// extension at the other liberty does not escape into three or more.
fn attack(board: &Board, c: Color, s: Point, out: &mut Candidates) {
    let libs = board.liberties::<2>(s);
    let owner = c.opp();
    for (a, b) in [(libs[0], libs[1]), (libs[1], libs[0])] {
        // After `c` takes `a`, extending at `b` gives the string what
        // `liberties_after` counts now, less `a` (the costly test last).
        if board.is_legal(c, a)
            && board.keeps_two_liberties(c, a)
            && board.liberties_after(owner, b, 4) <= 3
        {
            add(out, a);
        }
    }
}

/// Moves by `c` for its own string at `s` (two liberties).
fn defend(board: &Board, c: Color, s: Point, out: &mut Candidates) {
    for l in board.liberties::<2>(s) {
        if board.is_legal(c, l) && board.liberties_after(c, l, 3) >= 3 {
            add(out, l);
        }
    }
    let mut seen: ArrayVec<Point, 8> = ArrayVec::new();
    for n in enemy_stones_next_to(board, s) {
        let id = board.string_id(n);
        if seen.contains(&id) || seen.is_full() {
            continue;
        }
        seen.push(id);
        match board.liberty_count(n) {
            1 => add_capture(board, c, n, out),
            2 => attack(board, c, n, out),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Move;

    /// `diagram` with `moves` played on it, alternating from `first`.
    fn after(diagram: &str, first: Color, moves: &[(usize, usize)]) -> Board {
        let mut b = Board::from_ascii(diagram).unwrap();
        b.set_to_move(first);
        for &(x, y) in moves {
            b.play(Move::Play(b.point(x, y))).unwrap();
        }
        b
    }

    /// The candidates after the last move, as sorted (x, y).
    fn found(b: &Board) -> Vec<(usize, usize)> {
        let Move::Play(last) = b.last_moves()[0] else {
            panic!("no last move");
        };
        let mut out = Candidates::new();
        moves_near(b, last, &mut out);
        let mut xy: Vec<_> = out.iter().map(|&p| b.xy(p)).collect();
        xy.sort();
        xy
    }

    const LONE: &str = ". . . . .\n\
                        . . . . .\n\
                        . X . . X\n\
                        . . . . .\n\
                        . . . . .";

    #[test]
    fn the_atari_is_played_only_from_the_side_the_string_cannot_run_to() {
        // White's stone at (2, 2) has two liberties, (2, 1) and (3, 2).
        // Extending at (2, 1) gives it four: an atari at (3, 2) helps it.
        // Extending at (3, 2) runs into black's (4, 2) with three: the
        // atari at (2, 1) chases it.
        let b = after(LONE, Color::Black, &[(2, 3), (2, 2)]);
        assert_eq!(b.liberty_count(b.point(2, 2)), 2);
        assert_eq!(found(&b), vec![(2, 1)]);
        // without black's (4, 2) both extensions run free: no atari
        let open = LONE.replacen(". X . . X", ". X . . .", 1);
        let b = after(&open, Color::Black, &[(2, 3), (2, 2)]);
        assert_eq!(found(&b), vec![]);
    }

    #[test]
    fn an_own_string_takes_the_liberties_that_give_it_three() {
        // black's last move leaves white's stone two liberties: both
        // extensions give it three or more
        let b = after(LONE, Color::White, &[(2, 2), (2, 3)]);
        assert_eq!(b.to_move(), Color::White);
        assert_eq!(found(&b), vec![(2, 1), (3, 2)]);
    }

    #[test]
    fn in_a_race_the_short_string_ataris_its_neighbour_instead_of_crawling() {
        // White's (1, 2) leaves black's (1, 0)-(1, 1) two liberties on the
        // edge, (0, 0) and (0, 1), where no extension gains any. White's
        // string beside it has two liberties as well, (3, 0) and (3, 1):
        // black ataris it first. (1, 3) is the atari on the cutting stone
        // that drives it against black's string.
        let race = ". X O . .\n\
                    . X O . .\n\
                    . . X X .\n\
                    . . . . .\n\
                    . . . . .";
        let b = after(race, Color::White, &[(1, 2)]);
        assert_eq!(b.liberty_count(b.point(1, 0)), 2);
        assert_eq!(b.liberty_count(b.point(2, 0)), 2);
        assert_eq!(found(&b), vec![(1, 3), (3, 0), (3, 1)]);
    }

    #[test]
    fn an_atari_that_puts_the_attacker_in_atari_is_not_played() {
        // White's (2, 0) on the edge has liberties (1, 0) and (3, 0). An
        // atari at (3, 0) lets it connect to (1, 1) at (1, 0): not offered.
        // An atari at (1, 0) would do (the extension at (3, 0) gets three),
        // but the black stone there would have the one liberty (0, 0).
        let edge = ". . . . .\n\
                    . O X . .\n\
                    . . X . .\n\
                    . . . . .\n\
                    . . . . .";
        let b = after(edge, Color::White, &[(2, 0)]);
        assert_eq!(b.liberty_count(b.point(2, 0)), 2);
        assert!(b.is_legal(Color::Black, b.point(1, 0)));
        assert!(b.liberties_after(Color::White, b.point(3, 0), 4) <= 3);
        assert_eq!(found(&b), vec![]);
    }
}
