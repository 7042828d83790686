//! Tromp-Taylor area scoring: a player's stones plus the empty points that
//! reach only that player's stones. The board is counted as it stands: no
//! stone is ever taken off as dead.

use super::color::{Cell, Color};

/// Cells laid out with a frame of `Cell::Off` around the board: point
/// (x, y) is at `(y + 1) * stride + x + 1`, with `stride = width + 1`.
pub struct Framed<'a> {
    pub cells: &'a [Cell],
    pub stride: usize,
    pub width: usize,
    pub height: usize,
}

impl Framed<'_> {
    #[inline]
    fn index(&self, x: usize, y: usize) -> usize {
        (y + 1) * self.stride + x + 1
    }
}

/// Frames row-major cells (any size, for the scoring tool).
pub fn frame(width: usize, height: usize, rows: &[Cell]) -> Vec<Cell> {
    assert_eq!(rows.len(), width * height);
    let stride = width + 1;
    let mut cells = vec![Cell::Off; (height + 2) * stride + 1];
    for (i, &c) in rows.iter().enumerate() {
        cells[(i / width + 1) * stride + i % width + 1] = c;
    }
    cells
}

/// The result of counting a position.
#[derive(Clone, Debug, PartialEq)]
pub struct AreaScore {
    pub black: u32,
    pub white: u32,
    pub komi: f32,
    /// Who each point counts for, row-major (`y * width + x`).
    pub owner: Vec<Option<Color>>,
}

impl AreaScore {
    /// Black's area minus white's area and komi.
    pub fn margin(&self) -> f32 {
        self.black as f32 - self.white as f32 - self.komi
    }

    pub fn winner(&self) -> Option<Color> {
        let m = self.margin();
        if m > 0.0 {
            Some(Color::Black)
        } else if m < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// `B+n`, `W+n` or `Jigo`, as a referee prints it.
    pub fn result(&self) -> String {
        result_string(self.margin())
    }
}

/// `B+n`, `W+n` or `Jigo` for a margin seen from black.
pub fn result_string(margin: f32) -> String {
    if margin > 0.0 {
        format!("B+{margin}")
    } else if margin < 0.0 {
        format!("W+{}", -margin)
    } else {
        "Jigo".to_string()
    }
}

/// Counts a framed position, komi to white.
pub fn area(f: &Framed, komi: f32) -> AreaScore {
    let mut owner = vec![None; f.width * f.height];
    let (black, white) = count(f, Some(&mut owner));
    AreaScore {
        black,
        white,
        komi,
        owner,
    }
}

const REACH_BLACK: u8 = 1;
const REACH_WHITE: u8 = 2;

#[inline]
fn reach(c: Cell) -> u8 {
    match c {
        Cell::Black => REACH_BLACK,
        Cell::White => REACH_WHITE,
        _ => 0,
    }
}

/// Black's and white's area. Fills `owner` (row-major) when given.
pub fn count(f: &Framed, mut owner: Option<&mut [Option<Color>]>) -> (u32, u32) {
    let (mut black, mut white) = (0u32, 0u32);
    // per framed cell: 0 unvisited, else the region's reach | 4
    let mut region = vec![0u8; f.cells.len()];
    let mut stack: Vec<usize> = Vec::new();
    let mut members: Vec<usize> = Vec::new();
    let s = f.stride;
    for y in 0..f.height {
        for x in 0..f.width {
            let i = f.index(x, y);
            let who = match f.cells[i] {
                Cell::Black => REACH_BLACK,
                Cell::White => REACH_WHITE,
                _ => {
                    if region[i] == 0 {
                        // flood the empty region, noting which colours it reaches
                        let mut reached = 0;
                        members.clear();
                        stack.push(i);
                        region[i] = 4;
                        while let Some(j) = stack.pop() {
                            members.push(j);
                            for n in [j - s, j - 1, j + 1, j + s] {
                                match f.cells[n] {
                                    Cell::Empty if region[n] == 0 => {
                                        region[n] = 4;
                                        stack.push(n);
                                    }
                                    c => reached |= reach(c),
                                }
                            }
                        }
                        for &j in &members {
                            region[j] = 4 | reached;
                        }
                    }
                    region[i] & 3
                }
            };
            match who {
                REACH_BLACK => black += 1,
                REACH_WHITE => white += 1,
                _ => {}
            }
            if let Some(o) = owner.as_deref_mut() {
                o[y * f.width + x] = match who {
                    REACH_BLACK => Some(Color::Black),
                    REACH_WHITE => Some(Color::White),
                    _ => None,
                };
            }
        }
    }
    (black, white)
}
