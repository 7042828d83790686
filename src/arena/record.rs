//! What a game leaves behind: its moves with their answer times, how it
//! ended, and each side's clock and fault counts. SGF and JSON are written
//! from it; the match summary adds it up.

use super::facts::Engine;
use crate::go::Color;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    TwoPasses,
    RoundLimit,
    NoLegalMove,
    /// Riddles.io quirk: a player passed on two of its own turns in a row.
    OwnPasses,
    /// Riddles.io quirk: an immediate ko retake ends the game.
    KoRetake,
    /// Riddles.io: no playable point left.
    BoardFull,
    Timeout,
    Illegal,
    Crash,
    Resign,
    /// Cut by `--stop-after` before the game ended: a study of the first
    /// moves, with no result.
    Stopped,
}

impl Reason {
    /// The key used in `games.jsonl` and the summary.
    pub fn key(self) -> &'static str {
        match self {
            Reason::TwoPasses => "two_passes",
            Reason::RoundLimit => "round_limit",
            Reason::NoLegalMove => "no_legal_move",
            Reason::OwnPasses => "own_passes",
            Reason::KoRetake => "ko_retake",
            Reason::BoardFull => "board_full",
            Reason::Timeout => "timeout",
            Reason::Illegal => "illegal",
            Reason::Crash => "crash",
            Reason::Resign => "resign",
            Reason::Stopped => "stopped",
        }
    }

    /// Whether a side lost by a fault (no answer, an illegal answer, a
    /// crash) rather than in play.
    pub fn is_fault(self) -> bool {
        matches!(self, Reason::Timeout | Reason::Illegal | Reason::Crash)
    }

    /// Whether the board is counted (otherwise one side lost by a fault).
    pub fn counted(self) -> bool {
        matches!(
            self,
            Reason::TwoPasses
                | Reason::RoundLimit
                | Reason::NoLegalMove
                | Reason::OwnPasses
                | Reason::KoRetake
                | Reason::BoardFull
        )
    }
}

/// One turn as played (a refused move counted as a pass is a pass here).
#[derive(Clone, Debug)]
pub struct MoveRec {
    pub color: Color,
    /// Column and row of a stone; `None` for a pass.
    pub xy: Option<(usize, usize)>,
    /// Answer time of the accepted answer.
    pub ms: u64,
    /// Misses, refusals: anything the SGF comment should tell.
    pub note: String,
}

/// One side's clock and faults.
#[derive(Clone, Debug, Default)]
pub struct SideStats {
    /// Time of every accepted answer, in ms.
    pub times: Vec<u64>,
    /// Requests not answered within the limit.
    pub timeouts: u32,
    /// Illegal or unreadable answers.
    pub illegal: u32,
    /// The bank at the end; `None` for a player without clock.
    pub bank_left: Option<u64>,
}

impl SideStats {
    pub fn max_ms(&self) -> Option<u64> {
        self.times.iter().copied().max()
    }
    pub fn median_ms(&self) -> Option<u64> {
        let mut t = self.times.clone();
        t.sort_unstable();
        match t.len() {
            0 => None,
            n if n % 2 == 1 => Some(t[n / 2]),
            n => Some((t[n / 2 - 1] + t[n / 2]) / 2),
        }
    }
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 0-based game number in the match.
    pub index: usize,
    pub seed: u64,
    /// Which player (0 = A, 1 = B) had black and white.
    pub seats: [usize; 2],
    /// Names of black and white.
    pub names: [String; 2],
    pub moves: Vec<MoveRec>,
    /// The record its first moves were replayed from (`--from`).
    pub start: Option<String>,
    pub reason: Reason,
    /// What happened, in words (the fault, for a forfeit).
    pub detail: String,
    pub winner: Option<Color>,
    /// `B+6.5`, `W+Time`, `B+Forfeit`, `W+Resign`, `Jigo`.
    pub result: String,
    /// Black's area minus white's and komi, when counted.
    pub margin: Option<f32>,
    /// Black's and white's area (komi not included), when counted.
    pub area: Option<(u32, u32)>,
    /// Stats of black and white.
    pub sides: [SideStats; 2],
    /// What black's and white's engines said of themselves.
    pub engines: [Engine; 2],
}

impl GameRecord {
    /// The player (0 = A, 1 = B) who won, if anyone did.
    pub fn winner_player(&self) -> Option<usize> {
        self.winner.map(|c| self.seats[c.index()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        let mut s = SideStats::default();
        assert_eq!(s.median_ms(), None);
        s.times = vec![30, 10, 20];
        assert_eq!((s.median_ms(), s.max_ms()), (Some(20), Some(30)));
        s.times.push(40);
        assert_eq!(s.median_ms(), Some(25));
    }
}
