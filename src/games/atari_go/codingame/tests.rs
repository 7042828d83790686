use super::*;
use std::io::{self, BufRead, BufReader, Write};
use std::thread;

fn options(player: Kind) -> Options<Kind> {
    Options {
        player,
        seed: 7,
        // behaviour, not speed: any answer the search gives in time will do
        first_ms: 20,
        turn_ms: 5,
    }
}

/// The lines a turn shows `me`.
fn turn_lines(g: &AtariGo, me: Color) -> String {
    let last = match g.last_move() {
        Some(Move::Play(p)) => {
            let (x, y) = g.board().xy(p);
            format!("{x} {y}")
        }
        _ => "-1 -1".to_string(),
    };
    let rows = g.rows().join("\n");
    format!(
        "{last}\n{} {}\n{rows}\n",
        g.captures(me),
        g.captures(me.opp())
    )
}

/// Runs `serve` on `input` (all at once) and returns its answers.
fn answers(input: &str, player: Kind) -> Vec<String> {
    codingame::answers::<AtariGoBot>(input.as_bytes(), &options(player))
}

fn read_move(g: &AtariGo, answer: &str) -> Move {
    if answer == "PASS" {
        return Move::Pass;
    }
    let (x, y) = parse_pair(answer).unwrap_or_else(|| panic!("unreadable answer {answer:?}"));
    Move::Play(g.board().try_point(x, y).expect("on the board"))
}

/// A referee in the test: the bot runs on a thread behind pipes; the
/// opponent plays random legal stones and some passes.
fn whole_game(player: Kind, me: Color, seed: u64) {
    let (bot_in, mut feed) = io::pipe().unwrap();
    let (answers_in, answers_out) = io::pipe().unwrap();
    let bot = thread::spawn(move || {
        let mut out = answers_out;
        codingame::serve_here::<AtariGoBot>(BufReader::new(bot_in), &mut out, &options(player))
    });
    let mut answers = BufReader::new(answers_in).lines();
    let mut g = AtariGo::new(9);
    let mut rng = Rng::new(seed);
    writeln!(feed, "{}\n9", me.letter()).unwrap();
    while !g.is_over() {
        let mv = if g.to_move() == me {
            feed.write_all(turn_lines(&g, me).as_bytes()).unwrap();
            let answer = answers.next().expect("an answer").unwrap();
            read_move(&g, &answer)
        } else if rng.chance(1, 10) {
            Move::Pass
        } else {
            random_move(&g, &mut rng, |_| true)
        };
        if let Err(e) = g.play(mv) {
            panic!(
                "{player:?} as {me}: illegal {mv:?} ({e}) at turn {}",
                g.turns()
            );
        }
    }
    drop(feed);
    bot.join().unwrap().unwrap();
    assert!(answers.next().is_none(), "nothing more after the end");
}

#[test]
fn every_player_plays_whole_games_legally_as_either_colour() {
    for player in [Kind::Random, Kind::Greedy, Kind::Search] {
        for (k, me) in [Color::Black, Color::White].into_iter().enumerate() {
            whole_game(player, me, 11 + k as u64);
        }
    }
}

#[test]
fn end_of_input_anywhere_ends_the_bot_cleanly() {
    let g = AtariGo::new(9);
    let full = format!("B\n9\n{}", turn_lines(&g, Color::Black));
    for cut in 0..=full.len() {
        let given = answers(&full[..cut], Kind::Greedy);
        // a turn is answered once all its lines have begun (a cut row is
        // read as a garbled one)
        let lines = full[..cut].lines().filter(|l| !l.is_empty()).count();
        let want = usize::from(lines == 2 + 2 + 9);
        assert_eq!(given.len(), want, "cut at {cut}: {given:?}");
    }
}

#[test]
fn unreadable_lines_are_logged_and_a_legal_move_answered() {
    // colour, size and last move unreadable, a row garbled: the bot guesses
    // black on an empty board of 9 and answers on its own game
    let mut g = AtariGo::new(9);
    let input = format!(
        "black?\nnine\nsomewhere\n0 0\n{}\n",
        ["?????????"; 9].join("\n")
    );
    let given = answers(&input, Kind::Greedy);
    assert_eq!(given.len(), 1);
    let mv = read_move(&g, &given[0]);
    assert!(g.play(mv).is_ok(), "{given:?}");
    // a line that is not UTF-8 counts as unreadable
    let mut bytes = b"W\n9\n".to_vec();
    bytes.extend_from_slice(b"\xff\xfe\n0 0\n");
    let mut g = AtariGo::new(9);
    g.play(Move::Play(g.board().point(4, 4))).unwrap();
    bytes.extend_from_slice(g.rows().join("\n").as_bytes());
    bytes.push(b'\n');
    let answer = codingame::answers::<AtariGoBot>(&bytes[..], &options(Kind::Greedy));
    assert!(g.play(read_move(&g, &answer[0])).is_ok(), "{answer:?}");
}

#[test]
fn a_board_that_contradicts_the_game_is_taken_as_shown() {
    // turn 1 as black, then a second turn whose board has a stone the
    // opponent's move does not explain: the answer must fit that board
    let g = AtariGo::new(9);
    let first = turn_lines(&g, Color::Black);
    let shown = "..B......\n".to_string() + &["........."; 8].join("\n");
    let input = format!("B\n9\n{first}8 8\n0 0\n{shown}\n");
    let given = answers(&input, Kind::Random);
    assert_eq!(given.len(), 2);
    let board = Board::from_ascii(&shown).unwrap();
    let (x, y) = parse_pair(&given[1]).expect("a stone");
    assert_eq!(board.at(board.point(x as usize, y as usize)), Cell::Empty);
}

#[test]
fn a_resumed_game_does_not_retake_the_ko_it_cannot_see() {
    // white has just taken black's stone at (2,1) with (1,1), shown to a
    // bot that has no history: taking back at (2,1) would be the only
    // capture, and it may be the ko
    let shown = ".BW......\nBW.W.....\n.BW......\n.........\n.........\n\
                 .........\n.........\n.........\n.........";
    let input = format!("B\n9\n1 1\n0 1\n{shown}\n");
    for player in [Kind::Greedy, Kind::Search] {
        let given = answers(&input, player);
        assert_eq!(given.len(), 1);
        assert_ne!(given[0], "2 1", "{player:?} retook the ko");
    }
}
