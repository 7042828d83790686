use super::*;
use std::io::{self, BufRead, BufReader, Write};
use std::thread;

fn options(player: Kind) -> Options<Kind> {
    Options {
        player,
        seed: 3,
        // behaviour, not speed
        first_ms: 20,
        turn_ms: 5,
    }
}

fn turn_lines(pos: &Clobber, last: Option<&str>) -> String {
    format!(
        "{}\n{}\n{}\n",
        pos.rows().join("\n"),
        last.unwrap_or("null"),
        pos.mobility(pos.to_move())
    )
}

fn answers(input: &str, player: Kind) -> Vec<String> {
    codingame::answers::<ClobberBot>(input.as_bytes(), &options(player))
}

/// The bot behind pipes against random moves, to the end of the game.
fn whole_game(player: Kind, me: Color, size: usize, seed: u64) {
    let (bot_in, mut feed) = io::pipe().unwrap();
    let (answers_in, answers_out) = io::pipe().unwrap();
    let bot = thread::spawn(move || {
        let mut out = answers_out;
        codingame::serve_here::<ClobberBot>(BufReader::new(bot_in), &mut out, &options(player))
    });
    let mut answers = BufReader::new(answers_in).lines();
    let mut pos = Clobber::new(size);
    let mut rng = Rng::new(seed);
    let mut last: Option<String> = None;
    let colour = if me == Color::White { "w" } else { "b" };
    writeln!(feed, "{size}\n{colour}").unwrap();
    while !pos.is_over() {
        let m = if pos.to_move() == me {
            feed.write_all(turn_lines(&pos, last.as_deref()).as_bytes())
                .unwrap();
            let answer = answers.next().expect("an answer").unwrap();
            let m = pos.parse_move(&answer);
            m.unwrap_or_else(|| panic!("{player:?}: unreadable {answer:?}"))
        } else {
            random_move(&pos, &mut rng).unwrap()
        };
        if let Err(e) = pos.play(m) {
            panic!("{player:?} as {me}: {e} at turn {}", pos.turns());
        }
        last = Some(pos.move_name(m));
    }
    drop(feed);
    bot.join().unwrap().unwrap();
}

#[test]
fn every_player_plays_whole_games_legally_as_either_colour() {
    let players = [Kind::Random, Kind::Greedy, Kind::AlphaBeta(2), Kind::Search];
    for (k, player) in players.into_iter().enumerate() {
        for me in [Color::White, Color::Black] {
            whole_game(player, me, if k % 2 == 0 { 8 } else { 6 }, k as u64);
        }
    }
}

#[test]
fn end_of_input_anywhere_ends_the_bot_cleanly() {
    let pos = Clobber::new(8);
    let full = format!("8\nw\n{}", turn_lines(&pos, None));
    for cut in 0..=full.len() {
        let given = answers(&full[..cut], Kind::Greedy);
        let lines = full[..cut].lines().filter(|l| !l.is_empty()).count();
        assert_eq!(
            given.len(),
            usize::from(lines == 12),
            "cut at {cut}: {given:?}"
        );
    }
}

#[test]
fn an_unreadable_colour_is_read_from_the_board() {
    let mut pos = Clobber::new(8);
    pos.play(pos.parse_move("a2a1").unwrap()).unwrap();
    let input = format!("8\n?\n{}", turn_lines(&pos, Some("a2a1")));
    let given = answers(&input, Kind::Greedy);
    let m = pos.parse_move(&given[0]).expect("a move");
    assert!(pos.check(m).is_ok(), "black's move expected, got {given:?}");
}

#[test]
fn an_unreadable_board_is_replaced_by_the_one_expected() {
    // white's first turn, then a garbled board with black's reply named:
    // the bot plays on its own board moved on by that reply
    let pos = Clobber::new(8);
    let first = turn_lines(&pos, None);
    let given = answers(&format!("8\nw\n{first}"), Kind::Greedy);
    let mut expected = pos;
    expected.play(pos.parse_move(&given[0]).unwrap()).unwrap();
    let reply = expected.moves()[0];
    let reply_name = expected.move_name(reply);
    expected.play(reply).unwrap();
    let garbled = ["????????"; 8].join("\n");
    let input = format!("8\nw\n{first}{garbled}\n{reply_name}\n0\n");
    let given = answers(&input, Kind::Greedy);
    assert_eq!(given.len(), 2);
    let m = expected.parse_move(&given[1]).expect("a move");
    assert!(expected.check(m).is_ok(), "{given:?}");
    // with no board ever read, the referee is asked to play at random
    let given = answers(&format!("8\nw\n{garbled}\nnull\n0\n"), Kind::Greedy);
    assert_eq!(given, ["random"]);
}

#[test]
fn the_search_plays_a_winning_move_in_a_solved_ending() {
    // endings in a 4x4 corner where some of white's moves win and some
    // lose, found with a fixed seed; the answer must be a winning one
    let mut rng = Rng::new(21);
    let mut found = 0;
    while found < 5 {
        let rows: Vec<String> = (0..8)
            .map(|y| {
                (0..8)
                    .map(|x| match (x < 4 && y < 4, rng.below(3)) {
                        (false, _) | (true, 0) => '.',
                        (true, 1) => 'w',
                        _ => 'b',
                    })
                    .collect()
            })
            .collect();
        let pos = Clobber::from_rows(&rows, Color::White).unwrap();
        let wins: Vec<String> = pos
            .moves()
            .into_iter()
            .filter(|&m| {
                let mut child = pos;
                child.play_unchecked(m);
                !crate::games::clobber::solver::brute_force(&child)
            })
            .map(|m| pos.move_name(m))
            .collect();
        if wins.is_empty() || wins.len() == pos.moves().len() {
            continue;
        }
        found += 1;
        let input = format!(
            "8\nw\n{}\nh8h7\n{}\n",
            rows.join("\n"),
            pos.mobility(Color::White)
        );
        let given = answers(&input, Kind::Search);
        assert!(
            wins.contains(&given[0]),
            "{rows:?}: {given:?} not in {wins:?}"
        );
    }
}
