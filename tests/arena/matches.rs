//! Whole matches: the GTP adapter, colours and summaries, recorded starts,
//! bad arguments, Ctrl-C and tengen against itself.

use super::*;

#[test]
fn gtp_adapter_plays_against_an_arena_bot() {
    let _serial = serial();
    let dir = scratch("gtp");
    let log = dir.join("gtp.log");
    let a = bot("--answers 'place_move 0 0;place_move 1 0'");
    // The engine is slower than the bank, but GTP players have no clock.
    let b = gtp(&format!(
        "--moves 'E5;E4' --sleep 400 --log '{}'",
        log.display()
    ));
    let g = games(
        &dir,
        &opts("--size 5 --games 1 --bank 300 --per-move 100", &[&a, &b]),
    );
    assert_eq!(field(&g[0], "reason"), "two_passes");
    assert_eq!(field(&g[0], "result"), "W+7.5");
    assert_eq!(field(&g[0], "white_player"), "B");
    let white = field(&g[0], "white_stats");
    assert!(
        white.contains("\"timeouts\":0") && white.contains("\"bank_left_ms\":null"),
        "{white}"
    );
    let sgf = game_sgf(&dir.join("out"), 1);
    assert!(sgf.contains(";W[ea]") && sgf.contains(";W[eb]"), "{sgf}");
    let seen = read(&log);
    let expected = "name\nversion\nboardsize 5\nclear_board\nkomi 7.5\nplay B A5\ngenmove w\n\
        play B B5\ngenmove w\nplay B pass\ngenmove w\nquit\n";
    assert_eq!(seen, expected);
    // the records say what the engines are (the GTP engine's `name` and
    // `version`, the arena bot's first line on stderr) and how the match ran
    assert_eq!(
        field(&g[0], "engines"),
        r#"{"A":{"stderr":"answered place_move 0 0"},"B":{"name":"scripted","version":"1.2"}}"#
    );
    let facts = match_line(&dir.join("out"));
    for part in [
        format!(r#"{{"match":{{"game":"go","command":["{TENGEN}","arena","--size","5","#),
        format!(
            r#""B":{{"name":"gtp.py","command":["python3","{}","#,
            bots_dir().join("gtp.py").display()
        ),
        r#""gtp":true}"#.to_string(),
        r#""tengen_version":"0.1.0","tengen_commit":""#.to_string(),
        r#""bank_ms":300,"per_move_ms":100,"#.to_string(),
        r#""clock":{"A":true,"B":false}"#.to_string(),
    ] {
        assert!(facts.contains(&part), "{part} not in {facts}");
    }

    // A clocked engine is held to the bank: its first move is late but
    // comes within the second request; its second is late twice.
    let dir = scratch("gtp-clock");
    let b = gtp("--moves 'E5' --sleep 1300");
    let o = "--size 5 --games 1 --bank 1000 --per-move 2000 --clock-b on";
    let g = games(&dir, &opts(o, &[&a, &b]));
    assert!(field(&g[0], "white_stats").contains("\"timeouts\":2"));
    assert_eq!(field(&g[0], "reason"), "timeout");
    assert_eq!(field(&g[0], "moves"), "3");
    let sgf = game_sgf(&dir.join("out"), 1);
    assert!(
        sgf.contains(";W[ea]C[") && sgf.contains("asked again"),
        "{sgf}"
    );

    // A resigning engine loses.
    let dir = scratch("gtp-resign");
    let b = gtp("--moves 'resign'");
    let g = games(&dir, &opts("--size 5 --games 1", &[&a, &b]));
    assert_eq!(field(&g[0], "result"), "B+Resign");
    assert_eq!(field(&g[0], "reason"), "resign");
}

#[test]
fn a_match_alternates_colours_and_sums_up() {
    let _serial = serial();
    let dir = scratch("match");
    let a = bot("--walk");
    let b = bot("--walk");
    let out = arena(
        &dir,
        &opts(
            "--size 5 --max-rounds 3 --games 4 --jobs 2 --seed 7",
            &[&a, &b],
        ),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut g = game_lines(&dir.join("out"));
    g.sort_by_key(|l| field(l, "game").parse::<u32>().unwrap());
    assert_eq!(g.len(), 4);
    for (i, line) in g.iter().enumerate() {
        assert_eq!(field(line, "black_player"), ["A", "B"][i % 2]);
        assert_eq!(field(line, "seed"), (7 + i).to_string());
        assert_eq!(field(line, "sgf"), "games.sgf");
        // each game is in the collection once, under its number
        let sgf = game_sgf(&dir.join("out"), i + 1);
        assert!(sgf.contains(&format!("seed {}", 7 + i)), "{sgf}");
    }
    // walk bots fill the top row: on 5x5 after 2 moves each, white wins by komi
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("4 of 4 games"), "{stdout}");
    assert!(
        stdout.contains("script.py-A (A): 2 wins")
            && stdout.contains("Elo script.py-A - script.py-B")
    );
    assert!(
        stdout.contains("average game length: 4.0 moves"),
        "{stdout}"
    );
    assert_eq!(read(dir.join("out/summary.txt")), stdout);
    // a second match into the same folder is refused: results are never lost
    let again = arena(&dir, &[&a, &b]);
    assert_eq!(again.status.code(), Some(2));
}

/// A match's games go into one SGF collection, each appended as it ends,
/// or with --sgf-per-game into a file each; the collection is never
/// appended to by a later match.
#[test]
fn records_are_one_collection_or_a_file_a_game() {
    let _serial = serial();
    let dir = scratch("records");
    let (a, b) = (bot("--walk"), bot("--walk"));
    let o = "--size 5 --max-rounds 3 --games 3 --jobs 2 --seed 30";
    let g = games(&dir, &opts(o, &[&a, &b]));
    assert_eq!(g.len(), 3);
    let out = dir.join("out");
    let text = read(out.join("games.sgf"));
    let all = tengen::go::sgf::games(&text).unwrap();
    assert_eq!(all.len(), 3, "{text}");
    let mut numbers: Vec<String> = Vec::new();
    for game in &all {
        let rec = tengen::go::sgf::read_sgf(game).unwrap();
        assert_eq!((rec.size, rec.moves.len()), (5, 4), "{game}");
        let gn = &game[game.find("GN[game ").unwrap() + 8..];
        numbers.push(gn[..gn.find(']').unwrap()].to_string());
    }
    numbers.sort();
    assert_eq!(numbers, ["1", "2", "3"]);
    assert!(!out.join("game-0001.sgf").exists());
    // the analysis tools find each game there by its number
    let times = tool(
        "answer_times.py",
        &[out.to_str().unwrap(), "--name", "script.py-A"],
    );
    assert!(
        times.starts_with("script.py-A: 3 games, 6 answers"),
        "{times}"
    );

    // a games.sgf that holds games, with no game in games.jsonl, is
    // still an earlier match's: refused, and left as it was
    fs::write(out.join("games.jsonl"), "").unwrap();
    let again = arena(&dir, &opts(o, &[&a, &b]));
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("games.sgf already holds games"));
    assert_eq!(read(out.join("games.sgf")), text);

    let dir = scratch("records-per-game");
    let o = "--size 5 --max-rounds 3 --games 3 --jobs 2 --sgf-per-game";
    let mut g = games(&dir, &opts(o, &[&a, &b]));
    g.sort_by_key(|l| field(l, "game").parse::<u32>().unwrap());
    for (i, line) in g.iter().enumerate() {
        let name = format!("game-{:04}.sgf", i + 1);
        assert_eq!(field(line, "sgf"), name);
        let sgf = read(dir.join("out").join(&name));
        assert_eq!(tengen::go::sgf::games(&sgf).unwrap().len(), 1);
        assert!(sgf.contains(&format!("GN[game {}]", i + 1)), "{sgf}");
    }
    assert!(!dir.join("out/games.sgf").exists());
    let out = dir.join("out");
    let times = tool(
        "answer_times.py",
        &[out.to_str().unwrap(), "--name", "script.py-A"],
    );
    assert!(
        times.starts_with("script.py-A: 3 games, 6 answers"),
        "{times}"
    );

    // a collection cut short is an error, not fewer games
    let cut = dir.join("cut.sgf");
    fs::write(&cut, "(;SZ[5];B[aa])\n(;SZ[5];B[").unwrap();
    let listed = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/sgf_games.py"))
        .arg(&cut)
        .output()
        .unwrap();
    assert_eq!(listed.status.code(), Some(2));
    let err = String::from_utf8_lossy(&listed.stderr);
    assert!(
        err.contains("cut.sgf: game 2: a property value is not closed"),
        "{err}"
    );
}

/// Runs `python3 tools/NAME ARGS`, which must succeed; returns its stdout.
fn tool(name: &str, args: &[&str]) -> String {
    let out = Command::new("python3")
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tools")
                .join(name),
        )
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `--from`: games begin with the first moves of an earlier match's games,
/// each start played twice with the colours swapped; the bots are asked
/// from the move after them on, and the records say where they came from.
#[test]
fn games_begin_from_recorded_positions() {
    let _serial = serial();
    let dir = scratch("from");
    let walk = bot("--walk");
    games(
        &dir,
        &opts(
            "--size 5 --max-rounds 9 --games 2 --jobs 1",
            &[&walk, &walk],
        ),
    );
    // one game at a time: game 1 is the collection's first
    let source = format!("{}#1", dir.join("out/games.sgf").display());
    let first = game_sgf(&dir.join("out"), 1);
    let recorded = tengen::go::sgf::read_sgf(&first).unwrap().moves;
    assert!(recorded.len() > 4, "{recorded:?}");

    let second = dir.join("second");
    let log = dir.join("a.log");
    let a = bot(&format!("--walk --log '{}'", log.display()));
    let from = dir.join("out");
    let out = Command::new(TENGEN)
        .args(["arena", "--size", "5", "--max-rounds", "9", "--games", "2"])
        .args(["--from", from.to_str().unwrap(), "--from-move", "4"])
        .args(["--out", second.to_str().unwrap(), &a, &walk])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut g = game_lines(&second);
    g.sort_by_key(|l| field(l, "game").parse::<u32>().unwrap());
    assert_eq!(g.len(), 2);
    for (i, line) in g.iter().enumerate() {
        assert_eq!(field(line, "start"), source);
        assert_eq!(field(line, "black_player"), ["A", "B"][i]);
        let sgf = game_sgf(&second, i + 1);
        let moves = tengen::go::sgf::read_sgf(&sgf).unwrap().moves;
        assert_eq!(moves[..4], recorded[..4], "game {}", i + 1);
        assert!(moves.len() > 4, "nothing played after the start: {sgf}");
        let note = format!("C[0 ms; moves 1-4 replayed from {source}]");
        assert!(sgf.contains(&note), "{sgf}");
    }
    // A's first request is the fifth move (as black: round 3, four stones
    // on the field), never an earlier one
    let seen = read(&log);
    assert!(!seen.contains("update game move 1\n"));
    let first = seen.find("update game move ").map(|i| &seen[i..i + 19]);
    assert_eq!(first, Some("update game move 5\n"), "{seen}");
    assert!(seen.contains("update game round 3"), "{seen}");

    // a start past every game, or half the option, fails clearly
    for (args, code, needle) in [
        (
            vec!["--from-move", "400", "--max-rounds", "250"],
            1,
            "goes on past move 400",
        ),
        (
            vec!["--from-move", "4", "--max-rounds", "2"],
            2,
            "past the round limit",
        ),
        (vec![], 2, "--from and --from-move go together"),
    ] {
        let out = Command::new(TENGEN)
            .args(["arena", "--size", "5", "--from", from.to_str().unwrap()])
            .args(args.iter().copied())
            .args(["--out", dir.join("bad").to_str().unwrap(), &a, &walk])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }

    // under --rules riddles a start is checked as the referee will replay
    // it: black's fifth move sets a stone with no empty neighbour at the
    // corner, which 1.0.3 refuses
    let eye_fill = dir.join("eye-fill");
    std::fs::create_dir_all(&eye_fill).unwrap();
    std::fs::write(
        eye_fill.join("game-0001.sgf"),
        "(;GM[1]SZ[5];B[ba];W[ee];B[ab];W[ed];B[aa];W[dd];B[cc])",
    )
    .unwrap();
    let refused = dir.join("refused");
    // a match begun from `from`'s starts at move 5: refused, with why
    let refusal = |from: &std::path::Path| {
        let out = Command::new(TENGEN)
            .args(["arena", "--size", "5", "--rules", "riddles"])
            .args(["--from", from.to_str().unwrap(), "--from-move", "5"])
            .args(["--out", refused.to_str().unwrap(), &a, &walk])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = refusal(&eye_fill);
    assert!(err.contains("game-0001.sgf: move 5: suicide"), "{err}");
    assert!(
        !refused.exists(),
        "a match began from a start it cannot replay"
    );
    // --from a collection file: its games are named by their place in it
    let two = dir.join("two.sgf");
    std::fs::write(
        &two,
        "(;GM[1]SZ[5];B[cc];W[dd];B[bb];W[ee];B[aa];W[ed])\n\
         (;GM[1]SZ[5];B[ba];W[ee];B[ab];W[ed];B[aa];W[dd];B[cc])\n",
    )
    .unwrap();
    let err = refusal(&two);
    assert!(err.contains("two.sgf#2: move 5: suicide"), "{err}");
}

#[test]
fn no_legal_move_ends_the_game() {
    let _serial = serial();
    let dir = scratch("one-point");
    let g = games(&dir, &["--size", "1", "--games", "1", &bot(""), &bot("")]);
    assert_eq!(field(&g[0], "reason"), "no_legal_move");
    assert_eq!(field(&g[0], "result"), "W+7.5");
}

#[test]
fn bad_arguments_fail_clearly() {
    let _serial = serial();
    let dir = scratch("bad-args");
    for (args, needle) in [
        (&["--size", "0", "a", "b"][..], "--size"),
        (&["only-one"], "two players"),
        (&["a", "b", "--bogus"], "unknown option"),
        (&["a", "b", "--illegal", "maybe"], "--illegal"),
        (&["a", "b", "--stop-after", "1"], "--stop-after"),
        (&["a", "b", "--stop-after", "x"], "--stop-after"),
    ] {
        let out = arena(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let out = arena(&dir, &["/nonexistent/bot", &bot("")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start"));

    let help = Command::new(TENGEN)
        .args(["arena", "--help"])
        .output()
        .unwrap();
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    for opt in [
        "--games",
        "--jobs",
        "--seed",
        "--out",
        "--name-a",
        "--clock-b",
        "--size",
        "--komi",
        "--max-rounds",
        "--stop-after",
        "--from",
        "--from-move",
        "--dialect",
        "--bank",
        "--per-move",
        "--timeouts",
        "--illegal",
        "--hang-limit",
        "--rules",
        "--sgf-per-game",
        "games.sgf",
    ] {
        assert!(text.contains(opt), "help lacks {opt}");
    }
}

#[test]
fn ctrl_c_prints_the_summary_so_far() {
    let _serial = serial();
    let dir = scratch("ctrl-c");
    let out = dir.join("out");
    // Game 1 is quick; in game 2, B is black and sleeps for a minute.
    let child = Command::new(TENGEN)
        .args([
            "arena",
            "--size",
            "5",
            "--games",
            "3",
            "--jobs",
            "1",
            "--max-rounds",
            "2",
        ])
        .args(["--out", out.to_str().unwrap()])
        .arg(bot("--walk"))
        .arg(bot("--walk --sleep-black 1:60000"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let jsonl = out.join("games.jsonl");
    let start = Instant::now();
    // the match's line, then game 1's
    while fs::read_to_string(&jsonl).map_or(true, |t| t.lines().count() < 2) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "game 1 never finished"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("1 of 3 games"), "{stdout}");
    assert!(start.elapsed() < Duration::from_secs(20));
    assert_eq!(read(&jsonl).lines().count(), 2);
    // the finished game is in the collection, whole; the cut one is not
    let kept = read(out.join("games.sgf"));
    assert_eq!(tengen::go::sgf::games(&kept).unwrap().len(), 1, "{kept}");
    assert!(kept.contains("GN[game 1]"), "{kept}");
}

/// Two tengen bots on 9x9 on a real clock: no timeout, no illegal move. The
/// bank is large enough that the reserve it keeps (a tenth of it) outlasts
/// the stalls of a loaded CI host: with a 1 s bank, one answer came after a
/// 470 ms stall and missed.
#[test]
fn tengen_plays_tengen() {
    let _serial = serial();
    let dir = scratch("tengen");
    let g = games(
        &dir,
        &opts(
            "--size 9 --games 1 --bank 5000 --per-move 100 --max-rounds 60",
            &[TENGEN, TENGEN],
        ),
    );
    let reason = field(&g[0], "reason");
    assert!(
        ["two_passes", "round_limit", "no_legal_move"].contains(&reason.as_str()),
        "{}",
        g[0]
    );
    assert!(field(&g[0], "margin").parse::<f32>().is_ok());
    for side in ["black_stats", "white_stats"] {
        let s = field(&g[0], side);
        assert!(
            s.contains("\"timeouts\":0") && s.contains("\"illegal\":0"),
            "{s}"
        );
    }
    // each bot's first line on stderr names its build
    let engines = field(&g[0], "engines");
    assert!(
        engines.starts_with(r#"{"A":{"stderr":"tengen 0.1.0 ("#)
            && engines.contains(r#") arena bot"},"B":{"stderr":"tengen 0.1.0 ("#),
        "{engines}"
    );
    let moves: usize = field(&g[0], "moves").parse().unwrap();
    let sgf = game_sgf(&dir.join("out"), 1);
    assert!(sgf.starts_with("(;GM[1]FF[4]") && sgf.trim_end().ends_with(')'));
    assert!(sgf.contains("PB[tengen-A]") && sgf.contains("PW[tengen-B]") && sgf.contains("SZ[9]"));
    assert_eq!(
        sgf.matches(";B[").count() + sgf.matches(";W[").count(),
        moves
    );
}
