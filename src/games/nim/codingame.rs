//! Nim's CodinGame bot: reads `pile maxTake`, then each turn the stones
//! left and the opponent's last take, and answers the stones it takes.
//! The search (here the solved game) answers on the search thread; when
//! it is late, one stone goes out instead.

use super::rules::Nim;
use crate::deps::log;
use crate::games::codingame::{self, Options};
use crate::search::rng::Rng;
use std::str::FromStr;
use std::time::Instant;

/// Which player answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Search,
    Random,
}

impl FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Kind, String> {
        match s {
            "search" => Ok(Kind::Search),
            "random" => Ok(Kind::Random),
            _ => Err(format!("unknown player {s:?} (search, random)")),
        }
    }
}

pub struct NimBot {
    player: Kind,
    rng: Rng,
}

impl codingame::Bot for NimBot {
    type Player = Kind;
    type Job = Nim;
    type Found = u32;
    const SEARCH: Kind = Kind::Search;

    fn start(lines: &mut dyn Iterator<Item = String>, opts: &Options<Kind>) -> Option<NimBot> {
        // `pile maxTake`: the rules (rules.rs) fix both, so only read
        lines.next()?;
        Some(NimBot {
            player: opts.player,
            rng: Rng::new(opts.seed),
        })
    }

    fn searcher(_seed: u64) -> Box<dyn FnMut(Nim) -> u32> {
        Box::new(|pos: Nim| pos.best_take().unwrap_or(1))
    }

    fn turn(
        &mut self,
        lines: &mut dyn Iterator<Item = String>,
        _deadline: Instant,
        search: &mut dyn FnMut(Nim) -> Option<u32>,
    ) -> Option<String> {
        let left_line = lines.next()?;
        let _last = lines.next()?;
        let Ok(left) = left_line.trim().parse::<u32>() else {
            log::warn!("cannot read the pile {left_line:?}: taking one");
            return Some("1".to_string());
        };
        let pos = Nim::new(left);
        let take = match self.player {
            Kind::Random => 1 + self.rng.below(left.clamp(1, 3) as usize) as u32,
            Kind::Search => search(pos).unwrap_or(1),
        };
        Some(take.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::codingame::answers;

    fn opts(player: Kind) -> Options<Kind> {
        Options::new(player)
    }

    #[test]
    fn the_search_leaves_a_multiple_of_four() {
        let given = answers::<NimBot>(&b"21 3\n21\n0\n\n10\n2\n7\n1\n"[..], &opts(Kind::Search));
        assert_eq!(given, ["1", "2", "3"]);
        let given = answers::<NimBot>(&b"21 3\n2\n0\n"[..], &opts(Kind::Random));
        assert!(given == ["1"] || given == ["2"], "{given:?}");
        // end of input mid-turn ends the bot without an answer
        assert!(answers::<NimBot>(&b"21 3\n21\n"[..], &opts(Kind::Search)).is_empty());
    }
}
