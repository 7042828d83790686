//! Runs any game's CodinGame bot ([`crate::games::codingame::Bot`]) on
//! stdin/stdout, its search on the [`Deadline`] thread that must answer
//! by the turn's deadline: the game's turn loop with the deadline added.

use super::deadline::Deadline;
use crate::deps::log;
use crate::games::codingame::{self, Bot, Options};
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

/// How long past its own deadline the search may answer before the
/// fallback goes out: it stops within a playout of the deadline.
pub const GRACE: Duration = Duration::from_millis(12);

/// Runs bot `B` on stdin/stdout until end of input. Returns the exit
/// code: 1 only when the answer could not be written.
pub fn run<B: Bot + 'static>(opts: Options<B::Player>) -> i32 {
    let mut out = io::stdout().lock();
    match serve::<B>(io::stdin().lock(), &mut out, &opts) {
        Ok(()) => 0,
        Err(e) => {
            log::error!("cannot write the answer: {e}");
            1
        }
    }
}

/// Plays bot `B` from `input` to `out` until end of input; fails only
/// when `out` cannot be written.
pub fn serve<B: Bot + 'static>(
    input: impl BufRead,
    out: &mut impl Write,
    opts: &Options<B::Player>,
) -> io::Result<()> {
    let seed = opts.seed;
    let mut search = Deadline::new(Arc::new(move || B::searcher(seed)), None);
    codingame::serve::<B>(input, out, opts, |job, deadline| {
        let asked = search.ask(move |s| s(job), deadline + GRACE);
        asked.map_err(|e| log::warn!("{e}")).ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::registry::{Game, Visit};
    use std::io::{BufRead, BufReader};
    use std::thread;

    /// A whole game under the game's own referee between two bots run by
    /// [`serve`] on threads behind pipes, the players named; returns the
    /// turns played and the outcome, or the first answer refused.
    struct Match<'a>([&'a str; 2]);

    impl Visit for Match<'_> {
        type Out = Result<(u32, Option<Option<usize>>), String>;

        fn visit<G: Game>(self) -> Self::Out {
            let mut game = G::referee(3);
            let mut seats = Vec::new();
            for (seat, name) in self.0.into_iter().enumerate() {
                let player = name.parse().map_err(|e| format!("{name}: {e}"))?;
                let opts = Options {
                    seed: seat as u64,
                    // behaviour, not speed
                    first_ms: 20,
                    turn_ms: 5,
                    ..Options::new(player)
                };
                let (bot_in, feed) = io::pipe().unwrap();
                let (answers_in, mut answers_out) = io::pipe().unwrap();
                let bot = thread::spawn(move || {
                    serve::<G::Bot>(BufReader::new(bot_in), &mut answers_out, &opts)
                });
                let answers = BufReader::new(answers_in).lines();
                seats.push((Some(feed), answers, bot, false));
            }
            while !game.is_over() {
                let seat = game.to_move();
                let (feed, answers, _, started) = &mut seats[seat];
                let feed = feed.as_mut().unwrap();
                let mut lines = if *started {
                    Vec::new()
                } else {
                    game.initial_lines(seat)
                };
                *started = true;
                lines.extend(game.turn_lines());
                for line in lines {
                    writeln!(feed, "{line}").unwrap();
                }
                let answer = answers.next().expect("an answer").unwrap();
                let turn = game.turns() + 1;
                game.apply(&answer)
                    .map_err(|e| format!("{} at turn {turn}: {e}", self.0[seat]))?;
            }
            for (feed, _, bot, _) in seats {
                drop(feed);
                bot.join().unwrap().unwrap();
            }
            Ok((game.turns(), game.outcome()))
        }
    }

    /// Every game listed (the toy of docs/adding-a-game.md too), each of
    /// its players against the next: every answer the bots give through
    /// this driver is legal under the game's referee, to the game's end.
    #[test]
    fn every_game_s_bots_play_whole_games_legally() {
        let games = crate::games::entries();
        assert!(games.iter().any(|g| g.name == "nim"), "the toy is listed");
        for g in games {
            for pair in g.players.windows(2) {
                let players = [pair[0], pair[1]];
                let played = crate::games::visit(g.name, Match(players)).expect("listed");
                let (turns, outcome) = played.unwrap_or_else(|e| panic!("{}: {e}", g.name));
                assert!(turns > 0 && outcome.is_some(), "{}: {players:?}", g.name);
            }
        }
    }
}
