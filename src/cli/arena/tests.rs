use super::*;

fn args(s: &[&str]) -> Vec<String> {
    s.iter().map(|a| a.to_string()).collect()
}

#[test]
fn defaults_and_players() {
    let c = parse(args(&["./bot", "gtp:gnugo --mode gtp", "--games", "4"]))
        .unwrap()
        .unwrap();
    assert_eq!(c.games, 4);
    assert_eq!(c.game.size, 19);
    assert_eq!(c.game.max_rounds, 250);
    assert_eq!((c.game.bank_ms, c.game.per_move_ms), (10_000, 200));
    assert_eq!(c.game.max_timeouts, 2);
    assert!(c.players[0].clock && !c.players[1].clock);
    assert_eq!(c.players[1].argv, ["gnugo", "--mode", "gtp"]);
    let c = parse(args(&[
        "bot",
        "bot",
        "--rules",
        "riddles",
        "--clock-b",
        "on",
    ]))
    .unwrap()
    .unwrap();
    assert_eq!(c.game.max_timeouts, 1);
    assert_eq!(c.game.dialect, Dialect::Riddles);
    assert_eq!([&c.players[0].name, &c.players[1].name], ["bot-A", "bot-B"]);
    // each of dialect and rules defaults to the other's
    let c = parse(args(&["bot", "bot", "--dialect", "riddles"]))
        .unwrap()
        .unwrap();
    assert_eq!(c.game.rules, Rules::Riddles103);
    let c = parse(args(&["bot", "bot", "--rules", "riddles-1.0.2"]))
        .unwrap()
        .unwrap();
    assert_eq!(
        (c.game.dialect, c.game.rules),
        (Dialect::Riddles, Rules::Riddles102)
    );
    let c = parse(args(&["bot", "bot"])).unwrap().unwrap();
    assert_eq!(
        (c.game.dialect, c.game.rules),
        (Dialect::TheAiGames, Rules::Standard)
    );
}

#[test]
fn bad_arguments() {
    for bad in [
        &["a"][..],
        &["a", "b", "c"],
        &["a", "b", "--size", "0"],
        &["a", "b", "--size", "26"],
        &["a", "b", "--frobnicate"],
        &["a", "b", "--dialect", "x"],
        &["a", "b", "--games"],
        &["a", "b", "--bank", "-5"],
        &["a", "b", "--clock-a", "maybe"],
        &["a", "'b"],
    ] {
        assert!(parse(args(bad)).is_err(), "{bad:?}");
    }
    assert!(parse(args(&["--help"])).unwrap().is_none());
}

/// Every CodinGame game listed takes the same match options.
#[test]
fn codingame_options() {
    let games = crate::games::entries();
    assert!(games.len() >= 2);
    for g in games {
        let c = parse_codingame(args(&["a", "b", "--games", "3"]), g).unwrap();
        assert_eq!((c.game, c.games), (g, 3));
        assert_eq!((c.first_ms, c.turn_ms), g.limits);
        assert_eq!([&c.players[0].name, &c.players[1].name], ["a", "b"]);
        let o = "--first-ms 20000 --turn-ms=500 --jobs 8 --seed 5 --name-a x --out d a a";
        let c = parse_codingame(args(&o.split(' ').collect::<Vec<_>>()), g).unwrap();
        assert_eq!((c.first_ms, c.turn_ms, c.seed), (20_000, 500, 5));
        assert_eq!((c.jobs, c.out.to_str()), (2, Some("d")));
        assert_eq!([&c.players[0].name, &c.players[1].name], ["x", "a"]);
        let name = g.name;
        for (bad, why) in [
            (
                &["a", "b", "--size", "9"][..],
                format!("--size is an option of Go only, not of --game {name}"),
            ),
            (
                &["a", "b", "--komi=0"],
                "--komi is an option of Go only".into(),
            ),
            (
                &["a", "b", "--clock-a", "off"],
                "--clock-a is an option of Go only".into(),
            ),
            (
                &["a", "gtp:b"],
                format!("--game {name} plays no GTP engine"),
            ),
            (
                &["a", "b", "--turn-ms", "0"],
                "--turn-ms must be at least 1".into(),
            ),
            (&["a", "b", "--frobnicate"], "unknown option".into()),
            (&["a"], "expected two players".into()),
        ] {
            let e = parse_codingame(args(bad), g).unwrap_err();
            assert!(e.message.contains(&why), "{bad:?}: {}", e.message);
        }
        // through the entry point
        let e = run(args(&["--game", name, "a", "b", "--first-ms", "0"])).unwrap_err();
        assert!(
            e.message.contains("--first-ms must be at least 1"),
            "{}",
            e.message
        );
        assert!(help().contains(&format!("\n--game {name}: ")), "{name}");
        // one entry in `tengen help`: no built-in command has its name
        let head = format!("  tengen {name} ");
        let help = crate::cli::help();
        assert_eq!(help.lines().filter(|l| l.starts_with(&head)).count(), 1);
    }
    // the game is chosen, the other's options refused
    let names: Vec<&str> = crate::games::entries().iter().map(|g| g.name).collect();
    let choose = format!("--game={}", names[0]);
    for (bad, why) in [
        (
            &["--game", "chess", "a", "b"][..],
            format!("--game: go, {}", names[..names.len() - 1].join(", ")),
        ),
        (
            &["a", "b", "--first-ms", "5"],
            format!("--first-ms is an option of --game {}, ", names[0]),
        ),
        (
            &[&choose, "a", "b", "--bank", "5"],
            "--bank is an option of Go only".into(),
        ),
    ] {
        let e = run(args(bad)).unwrap_err();
        assert!(e.message.contains(&why), "{bad:?}: {}", e.message);
        assert_eq!(e.code, 2);
    }
    assert!(run(args(&["--game", names[0], "--help"]))
        .unwrap()
        .contains("--turn-ms"));
}
