//! The rules core case by case: captures, suicide, snapback, ko, positional
//! superko, edges and corners, board sizes, Tromp-Taylor scoring and the
//! diagram format. Positions are ASCII diagrams read by `Board::from_ascii`:
//! `X` black, `O` white, `.` empty, row 0 at the top, points named (x, y).

mod board;
mod captures;
mod ko;
mod scoring;

use tengen::go::{
    Board, Cell, Color, End, Game, Illegal, Move, Point, Rules, MAX_POINTS, MAX_SIZE,
};

const B: Color = Color::Black;
const W: Color = Color::White;

fn board(diagram: &str) -> Board {
    Board::from_ascii(diagram).unwrap_or_else(|e| panic!("bad diagram: {e}\n{diagram}"))
}

fn at(b: &Board, x: usize, y: usize) -> Point {
    b.point(x, y)
}

/// Plays `c` at (x, y), first checking that `hash_after` and
/// `liberties_after` (which counts up to a limit of at most 8) predict the
/// outcome, and that the board stays consistent.
fn play(b: &mut Board, c: Color, x: usize, y: usize) -> Result<u32, Illegal> {
    let p = b.point(x, y);
    let predicted = b
        .check(c, p)
        .ok()
        .map(|()| (b.hash_after(c, p), b.liberties_after(c, p, 8)));
    let before = b.clone();
    let r = b.play_stone(c, p);
    match (r, predicted) {
        (Ok(_), Some((hash, libs))) => {
            assert_eq!(b.hash(), hash, "hash_after at ({x},{y})");
            assert_eq!(
                b.liberty_count(p).min(8),
                libs.min(8),
                "liberties_after at ({x},{y})"
            );
        }
        (Err(e), None) => {
            assert_eq!(Err(e), before.check(c, p));
            assert_eq!(*b, before, "a refused move changed the board");
        }
        (r, pred) => panic!("play_stone {r:?} disagrees with check {pred:?}"),
    }
    b.check_consistency().unwrap();
    r
}

/// The diagram as `Display` writes it, without the spaces.
fn compact(b: &Board) -> String {
    b.to_string().replace(' ', "")
}

fn diagram(rows: &[&str]) -> String {
    rows.iter().map(|r| format!("{r}\n")).collect()
}

/// A black string of five with one liberty at (0, 1), inside white.
const ONE_EYE: &str = "X X O .
                       . X O .
                       X X O .
                       O O O .";

/// A ko: Black captures at (2, 1), White may not retake at (1, 1) at once.
const KO: &str = ". X O .
                  X O . O
                  . X O .
                  . . . .";

/// Three kos side by side; the first and third are White's (a white stone
/// Black can take), the middle one Black's.
const TRIPLE_KO: &str = "
    . X O .  .  . X O .  .  . X O .
    X O . O  .  X . X O  .  X O . O
    . X O .  .  . X O .  .  . X O .";

/// Seed 001's example, scored in the seed as black 23, white 29.
const SEED_001: &str = include_str!("../data/seed_001_example.txt");
