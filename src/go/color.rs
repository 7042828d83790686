use std::fmt;

/// A player's colour. Black moves first; white receives komi.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    #[inline]
    pub fn opp(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    #[inline]
    /// +1 for black, -1 for white: turns black's margin into this side's.
    pub fn sign(self) -> f32 {
        match self {
            Color::Black => 1.0,
            Color::White => -1.0,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// The cell a stone of this colour makes.
    #[inline]
    pub fn stone(self) -> Cell {
        match self {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    /// `B` or `W`, as in SGF and GTP.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// What stands on a point. `Off` marks the frame around the board, so that
/// neighbour loops need no bounds checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Off = 3,
}

impl Cell {
    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }

    #[inline]
    pub fn is_stone(self) -> bool {
        matches!(self, Cell::Black | Cell::White)
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Pass,
    Play(super::point::Point),
}

impl Move {
    #[inline]
    pub fn point(self) -> Option<super::point::Point> {
        match self {
            Move::Pass => None,
            Move::Play(p) => Some(p),
        }
    }

    #[inline]
    pub fn is_pass(self) -> bool {
        self == Move::Pass
    }
}
