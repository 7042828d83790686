//! Which rules a game is played under: the seed's (Tromp-Taylor with komi,
//! positional superko) or one of the two versions of the public Riddles.io
//! referee, which differ in what a stone needs to stand, how a game ends
//! and who wins (`docs/protocol.md`).

use super::board::{Board, Legality};
use super::color::Cell;
use std::fmt;
use std::str::FromStr;

/// A rule set. Every referee ends the game at its round limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rules {
    /// The seed's: suicide illegal, positional superko, two passes in a
    /// row end the game, area with komi decides.
    #[default]
    Standard,
    /// Riddles.io 1.0.2: suicide illegal, no superko; an immediate ko
    /// retake, a player's second pass in a row of its own and a board with
    /// no empty point end the game; raw area (no komi) decides, equal
    /// areas draw.
    Riddles102,
    /// Riddles.io 1.0.3: as 1.0.2, but a stone needs an empty neighbour
    /// ([`Legality::EmptyNeighbour`]) and the board is full once no empty
    /// point has an empty neighbour.
    Riddles103,
}

impl Rules {
    /// Every rule set, for listings and tests.
    pub const ALL: [Rules; 3] = [Rules::Standard, Rules::Riddles102, Rules::Riddles103];

    pub fn legality(self) -> Legality {
        match self {
            Rules::Riddles103 => Legality::EmptyNeighbour,
            _ => Legality::Liberties,
        }
    }

    /// One of the Riddles.io referee's versions.
    pub fn is_riddles(self) -> bool {
        self != Rules::Standard
    }

    /// Whether recreating an earlier position is illegal. The Riddles.io
    /// referee forbids no repetition; it ends the game at an immediate
    /// ko retake instead ([`Rules::ko_retake_ends`]).
    pub fn superko(self) -> bool {
        self == Rules::Standard
    }

    /// Whether retaking a ko at once is legal and ends the game.
    pub fn ko_retake_ends(self) -> bool {
        self.is_riddles()
    }

    /// The komi the winner is decided with, `komi` being the one the game
    /// shows (Riddles.io shows it in the points and ignores it).
    pub fn counted_komi(self, komi: f32) -> f32 {
        if self.is_riddles() {
            0.0
        } else {
            komi
        }
    }

    /// Whether the board as it stands ends the game: no empty point left
    /// (1.0.2), no empty point with an empty neighbour (1.0.3). The
    /// standard rules end a game without moves through its passes.
    #[inline]
    pub fn board_full(self, board: &Board) -> bool {
        match self {
            Rules::Standard => false,
            Rules::Riddles102 => board.empty_points().is_empty(),
            Rules::Riddles103 => !board.has_open_point(),
        }
    }

    /// The points the engine shows black and white for `board`: area,
    /// plus `komi` for white. The Riddles.io referee counts its own way: a
    /// side with no stone has 0, a side facing no stone the whole board
    /// (or 1 for a lone stone). A field that two stories explain is told
    /// apart by these.
    pub fn shown_points(self, board: &Board, komi: f32) -> [f32; 2] {
        let s = board.area_score(0.0);
        let mut area = [s.black, s.white];
        if self.is_riddles() {
            let stones = |c: Cell| board.points().filter(|&p| board.at(p) == c).count() as u32;
            let n = [stones(Cell::Black), stones(Cell::White)];
            for k in 0..2 {
                area[k] = match (n[k], n[1 - k]) {
                    (0, _) => 0,
                    (own, 0) if own <= 1 => own,
                    (_, 0) => board.area() as u32,
                    _ => area[k],
                };
            }
        }
        [area[0] as f32, area[1] as f32 + komi]
    }

    /// Whether a pass by the side to move ends the game, given whether the
    /// opponent's last move and the mover's own last move were passes.
    #[inline]
    pub fn pass_ends(self, opponent_passed: bool, own_passed: bool) -> bool {
        if self.is_riddles() {
            own_passed
        } else {
            opponent_passed
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rules::Standard => "standard",
            Rules::Riddles102 => "riddles-1.0.2",
            Rules::Riddles103 => "riddles-1.0.3",
        })
    }
}

impl FromStr for Rules {
    type Err = String;

    /// The names [`Rules`] displays; `riddles` is 1.0.3, the referee's
    /// newest version.
    fn from_str(s: &str) -> Result<Rules, String> {
        match s {
            "standard" => Ok(Rules::Standard),
            "riddles-1.0.2" => Ok(Rules::Riddles102),
            "riddles" | "riddles-1.0.3" => Ok(Rules::Riddles103),
            _ => Err(format!(
                "unknown rules {s:?} (standard, riddles-1.0.2, riddles-1.0.3 or riddles)"
            )),
        }
    }
}

/// Why a game ended, as far as the rules go (the round limit and faults
/// are the referee's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Two passes in a row (standard).
    TwoPasses,
    /// A player passed on two of its own turns in a row (Riddles.io).
    OwnPasses,
    /// A ko retaken at once (Riddles.io).
    KoRetake,
    /// [`Rules::board_full`].
    BoardFull,
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            End::TwoPasses => "two passes in a row",
            End::OwnPasses => "a player passed on two of its turns in a row",
            End::KoRetake => "a ko was retaken at once",
            End::BoardFull => "no playable point is left",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_riddles_is_the_newest() {
        for r in Rules::ALL {
            assert_eq!(r.to_string().parse::<Rules>(), Ok(r));
        }
        assert_eq!("riddles".parse::<Rules>(), Ok(Rules::Riddles103));
        assert!("chinese".parse::<Rules>().is_err());
    }

    #[test]
    fn passes_end_by_each_rule() {
        // standard: the opponent's pass, then ours
        assert!(Rules::Standard.pass_ends(true, false));
        assert!(!Rules::Standard.pass_ends(false, true));
        // Riddles.io: our own pass last turn, whatever the opponent did
        for r in [Rules::Riddles102, Rules::Riddles103] {
            assert!(r.pass_ends(false, true));
            assert!(!r.pass_ends(true, false));
        }
    }
}
