//! Nakade: the vital point of a small eye space. A group whose only eye
//! space is three to five points in a row or a bunch lives or dies by one
//! point inside it; uniform playouts rarely find that point, and then
//! count dead groups as alive (or the reverse).

use crate::go::{Board, Cell, Point};
use arrayvec::ArrayVec;

/// Largest eye space read.
const MAX_SPACE: usize = 5;

/// The vital point of a small eye space next to `last`, if there is one.
pub fn vital_point_near(board: &Board, last: Point) -> Option<Point> {
    board
        .neighbors(last)
        .into_iter()
        .filter(|&n| board.at(n) == Cell::Empty)
        .find_map(|n| vital_point(board, n))
}

/// The vital point of the empty region around `start`, if that region has
/// 3 to [`MAX_SPACE`] points and stones of one colour only around it: the
/// point next to the most others of the region, when no other point is
/// next to as many (a square or a straight four has none: they need none).
pub fn vital_point(board: &Board, start: Point) -> Option<Point> {
    let mut region: ArrayVec<Point, MAX_SPACE> = ArrayVec::new();
    region.push(start);
    // the colour of the stones around; Off until the first one is met
    let mut wall = Cell::Off;
    let mut i = 0;
    while i < region.len() {
        for q in board.neighbors(region[i]) {
            match board.at(q) {
                Cell::Off => {}
                Cell::Empty if region.contains(&q) => {}
                Cell::Empty => region.try_push(q).ok()?,
                stone if wall == Cell::Off => wall = stone,
                stone if stone != wall => return None,
                _ => {}
            }
        }
        i += 1;
    }
    if region.len() < 3 || wall == Cell::Off {
        return None;
    }
    let inside = |p: Point| {
        board
            .neighbors(p)
            .iter()
            .filter(|q| region.contains(q))
            .count()
    };
    let (mut best, mut most, mut unique) = (start, 0, false);
    for &p in &region {
        let n = inside(p);
        if n > most {
            (best, most, unique) = (p, n, true);
        } else if n == most {
            unique = false;
        }
    }
    unique.then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(b: &Board, x: usize, y: usize) -> Point {
        b.point(x, y)
    }

    #[test]
    fn the_middle_of_three_in_a_row_is_vital() {
        // black's eye space: the three points of the top row's middle
        let b = Board::from_ascii(
            "X . . . X O .\n\
             X X X X X O .\n\
             O O O O O O .\n\
             . . . . . . .",
        )
        .unwrap();
        assert_eq!(vital_point(&b, at(&b, 1, 0)), Some(at(&b, 2, 0)));
        assert_eq!(vital_point(&b, at(&b, 3, 0)), Some(at(&b, 2, 0)));
        // the move that closed it was black's at the top left
        assert_eq!(vital_point_near(&b, at(&b, 0, 0)), Some(at(&b, 2, 0)));
    }

    #[test]
    fn bent_three_and_the_plus_shape_have_one_vital_point() {
        let b = Board::from_ascii(
            "O . . O . X\n\
             O . O O X X\n\
             O O O X . X\n\
             X X X . . .\n\
             . . X X . X\n\
             . . . X X X",
        )
        .unwrap();
        assert_eq!(vital_point(&b, at(&b, 1, 0)), Some(at(&b, 1, 0)));
        // the plus: five points around (4, 3)
        assert_eq!(vital_point(&b, at(&b, 3, 3)), Some(at(&b, 4, 3)));
    }

    #[test]
    fn no_vital_point_in_open_mixed_or_tiny_spaces() {
        let b = Board::from_ascii(
            ". . . . . . .\n\
             . . . . . . .\n\
             X X X X . . .\n\
             . . O X . . .\n\
             X X X X . . .",
        )
        .unwrap();
        assert_eq!(vital_point(&b, at(&b, 0, 0)), None, "open area");
        assert_eq!(vital_point(&b, at(&b, 0, 3)), None, "two colours around");
        let b = Board::from_ascii(". . X\nX X X\n. X .").unwrap();
        assert_eq!(vital_point(&b, at(&b, 0, 0)), None, "two points");
        // a square four has no single vital point
        let b = Board::from_ascii(". . X\n. . X\nX X X").unwrap();
        assert_eq!(vital_point(&b, at(&b, 0, 0)), None, "square four");
    }
}
