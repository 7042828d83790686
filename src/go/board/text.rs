//! The board as text and as a check on itself: diagrams in and out for tests
//! and logs, setting up a position without move rules, and the recount of
//! the incremental state from scratch.

use super::{ix, Board, Point, MAX_AREA, MAX_SIZE, NONE};
use crate::go::color::Cell;
use std::fmt;

impl Board {
    /// Rebuilds strings, liberties, hash and the empty list from the cells and
    /// compares them with the incremental state. Returns what differs.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut fresh = Board::new(self.width(), self.height());
        for p in self.points() {
            if let Some(c) = self.at(p).color() {
                fresh.place_setup(c, p);
            }
        }
        if fresh.hash != self.hash {
            return Err(format!(
                "hash {:x} != recomputed {:x}",
                self.hash, fresh.hash
            ));
        }
        if fresh.n_empty != self.n_empty {
            return Err(format!(
                "{} empties, recomputed {}",
                self.n_empty, fresh.n_empty
            ));
        }
        if self.libs[0] != 0 {
            return Err("the scratch liberty slot is not 0".into());
        }
        for &e in self.empty_points() {
            if self.cells[ix(e)] != Cell::Empty || self.empties[self.empty_at[ix(e)] as usize] != e
            {
                return Err(format!("empty list broken at {}", e));
            }
        }
        for p in self.points() {
            if self.nbr[p.idx()] != fresh.nbr[p.idx()] {
                return Err(format!("neighbour counts at {:?} are stale", self.xy(p)));
            }
            if self.ring[p.idx()] != self.ring_of(p) {
                return Err(format!("3x3 code at {:?} is stale", self.xy(p)));
            }
            if !self.at(p).is_stone() {
                if self.head[p.idx()] != NONE {
                    return Err(format!("the empty point {:?} has a head", self.xy(p)));
                }
                continue;
            }
            let (mine, theirs) = (self.string_id(p), fresh.string_id(p));
            let mine_set: Vec<Point> = {
                let mut v: Vec<Point> = self.stones(mine).collect();
                v.sort();
                v
            };
            let theirs_set: Vec<Point> = {
                let mut v: Vec<Point> = fresh.stones(theirs).collect();
                v.sort();
                v
            };
            if mine_set != theirs_set {
                return Err(format!(
                    "string at {:?}: {:?} != {:?}",
                    self.xy(p),
                    mine_set,
                    theirs_set
                ));
            }
            if self.size[mine.idx()] as usize != mine_set.len() {
                return Err(format!(
                    "string at {:?}: size {}",
                    self.xy(p),
                    self.size[mine.idx()]
                ));
            }
            let exact = fresh.liberties::<MAX_AREA>(p).len();
            if self.liberty_count(p) != exact {
                return Err(format!(
                    "string at {:?}: {} liberties, really {}",
                    self.xy(p),
                    self.liberty_count(p),
                    exact
                ));
            }
        }
        Ok(())
    }

    /// Builds a position from a diagram: rows top to bottom, `X`/`B`/`x` for
    /// black, `O`/`W`/`o` for white, `.`/`-`/`+` for empty; spaces ignored,
    /// blank lines skipped. Black to move. Fails on ragged rows, unknown
    /// characters, sizes out of range or strings without liberties.
    pub fn from_ascii(text: &str) -> Result<Board, String> {
        let rows: Vec<Vec<Cell>> = text
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
            .filter(|l| !l.is_empty())
            .map(|l| {
                l.chars()
                    .map(|ch| match ch {
                        'X' | 'B' | 'x' => Ok(Cell::Black),
                        'O' | 'W' | 'o' => Ok(Cell::White),
                        '.' | '-' | '+' => Ok(Cell::Empty),
                        other => Err(format!("unexpected character {other:?} in diagram")),
                    })
                    .collect()
            })
            .collect::<Result<_, _>>()?;
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.len());
        if !(1..=MAX_SIZE).contains(&height) || !(1..=MAX_SIZE).contains(&width) {
            return Err(format!(
                "diagram of {width}x{height} is out of range 1..={MAX_SIZE}"
            ));
        }
        if let Some(r) = rows.iter().position(|r| r.len() != width) {
            return Err(format!(
                "row {} has {} points, expected {width}",
                r + 1,
                rows[r].len()
            ));
        }
        let cells: Vec<Cell> = rows.into_iter().flatten().collect();
        Board::from_cells(width, height, &cells)
    }

    /// Builds a position from row-major cells (index `y * width + x`). Black
    /// to move. Fails if a string has no liberty.
    pub fn from_cells(width: usize, height: usize, cells: &[Cell]) -> Result<Board, String> {
        if cells.len() != width * height
            || !(1..=MAX_SIZE).contains(&width)
            || !(1..=MAX_SIZE).contains(&height)
        {
            return Err(format!(
                "{} cells do not make a {width}x{height} board",
                cells.len()
            ));
        }
        let mut b = Board::new(width, height);
        for (i, &cell) in cells.iter().enumerate() {
            if let Some(c) = cell.color() {
                b.place_setup(c, b.point(i % width, i / width));
            }
        }
        if let Some(p) = b
            .points()
            .find(|&p| b.at(p).is_stone() && b.liberty_count(p) == 0)
        {
            let (x, y) = b.xy(p);
            return Err(format!("the string at column {x}, row {y} has no liberty"));
        }
        Ok(b)
    }

    /// Row-major cells (index `y * width + x`).
    pub fn cells(&self) -> Vec<Cell> {
        self.points().map(|p| self.at(p)).collect()
    }
}

impl fmt::Display for Board {
    /// The diagram `from_ascii` reads: `X` black, `O` white, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.height() {
            for x in 0..self.width() {
                f.write_str(match self.at(self.point(x, y)) {
                    Cell::Black => "X",
                    Cell::White => "O",
                    _ => ".",
                })?;
                if x + 1 < self.width() {
                    f.write_str(" ")?;
                }
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} to move, ko {:?}\n{}",
            self.to_move,
            self.ko_point(),
            self
        )
    }
}
