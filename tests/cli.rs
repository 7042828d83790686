//! The command-line tools through the real binary: `score` (seed 001),
//! `validate` (seed 003), `bench`, and the handling of bad input.

use std::io::Write;
use std::process::{Command, Stdio};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `tengen args...` with `input` on stdin.
fn tengen(args: &[&str], input: &str) -> Run {
    tengen_with_env(args, input, &[])
}

fn tengen_with_env(args: &[&str], input: &str, env: &[(&str, &str)]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(args)
        .env_remove("RUST_LOG")
        .env_remove("TENGEN_ARENA_SEED")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tengen");
    {
        let mut stdin = child.stdin.take().unwrap();
        // a tool that fails early may not read its input: ignore EPIPE
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child.wait_with_output().expect("wait for tengen");
    let run = Run {
        code: out.status.code().expect("tengen was killed by a signal"),
        stdout: String::from_utf8(out.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("utf-8 stderr"),
    };
    assert!(
        !run.stderr.contains("panicked"),
        "tengen {args:?} panicked:\n{}",
        run.stderr
    );
    run
}

/// Runs a command that must succeed and returns its stdout.
fn ok(args: &[&str], input: &str) -> String {
    let r = tengen(args, input);
    assert_eq!(r.code, 0, "tengen {args:?} failed:\n{}", r.stderr);
    r.stdout
}

/// Runs a command that must fail cleanly: non-zero exit, a message on
/// stderr, nothing on stdout. Returns stderr.
fn fails(args: &[&str], input: &str) -> String {
    let r = tengen(args, input);
    assert_ne!(r.code, 0, "tengen {args:?} succeeded: {:?}", r.stdout);
    assert_eq!(r.stdout, "", "tengen {args:?} printed on failure");
    assert!(!r.stderr.trim().is_empty(), "tengen {args:?}: no message");
    r.stderr
}

// Seed 001's test cases, verbatim.
const CASE_1: &str = include_str!("data/seed_001_example.txt");
const CASE_2: &str = "Xavier is insane -- says Oliver\n";
const CASE_3: &str = "Code-Golf\n";
/// 40 + 1 + 40 board characters: a 9x9 board.
const CASE_4: &str = "-XXXXXXX-XOOOOOOOXXO-OXXXOXXXOX--XOXXOOX
-
XOOXXOX--XOXXXOXXXO-OXXOOOOOOOX-XXXXXXX-
";
const CASE_5: &str = "- - X O O O O X X - - - - - - X O O -
- X X O X O X X O X X X X X X - X O -
- X O O X X X - O O O X O O X X X O -
- X O O O X X O O O O O O X X X O - -
- - X X O X - X X X X O O O O O O O -
- - X O O X X X - X X X O O O X X O -
- - X O - O X O X O O O O O X X X O -
- X O O - O O O X X X X X O O X O - -
- X X X O - - - O X O X X X O X O - -
X O O O O - - O - O O O O X X X O O -
X X O - - - O - - O O X X - - X X O O
X O O O - - O - O O X - - - - X O O X
- X X X O O X O O X X - - - - X X X X
X - X X X O X X O O X - - X X O X O O
X X O O X O X O X X - - - X O O O O -
X O - O X X X O X - - - - - X O - - -
O O - O X O O O O X X - X X X X O - -
O O - O O O X O X X - - X - X X O - -
- - O - - O X X X - - - - X O O O - -
";

#[test]
fn score_seed_cases() {
    assert_eq!(ok(&["score"], CASE_1), "W+6\n");
    assert_eq!(ok(&["score"], CASE_2), "Jigo\n");
    assert_eq!(ok(&["score"], CASE_3), "Jigo\n");
    assert_eq!(ok(&["score"], CASE_4), "B+21\n");
    assert_eq!(ok(&["score"], CASE_5), "B+6\n");
}

#[test]
fn score_edge_inputs() {
    // no board characters at all: a 0x0 board
    assert_eq!(ok(&["score"], ""), "Jigo\n");
    assert_eq!(ok(&["score"], "X"), "B+1\n");
    assert_eq!(ok(&["score"], "O"), "W+1\n");
    // no trailing newline, other characters ignored
    assert_eq!(ok(&["score"], "X - | - - ; abc"), "B+4\n");
}

#[test]
fn score_with_komi() {
    assert_eq!(ok(&["score", "--komi", "6.5"], CASE_1), "W+12.5\n");
    assert_eq!(ok(&["score", "--komi", "6.5"], CASE_4), "B+14.5\n");
    assert_eq!(ok(&["score", "--komi=6"], CASE_5), "Jigo\n");
    assert_eq!(ok(&["score", "--komi", "7.5"], CASE_5), "W+1.5\n");
    assert_eq!(ok(&["score", "--komi", "-6"], CASE_1), "Jigo\n");
    assert_eq!(ok(&["score", "--komi", "0"], CASE_2), "Jigo\n");
}

#[test]
fn score_rejects_a_non_square() {
    let e = fails(&["score"], "X O -");
    assert!(e.contains("square"), "{e}");
    let e = fails(&["score"], &CASE_1[..CASE_1.len() - 2]);
    assert!(e.contains("80"), "{e}");
    // one extra character after a valid board
    fails(&["score"], &format!("{CASE_4}X"));
}

#[test]
fn score_rejects_a_bad_komi() {
    for args in [
        &["score", "--komi", "abc"][..],
        &["score", "--komi"],
        &["score", "--komi", ""],
        &["score", "--komi", "nan"],
        &["score", "--komi", "inf"],
        &["score", "--komi=x"],
        &["score", "--frobnicate"],
        &["score", "extra"],
    ] {
        let e = fails(args, CASE_1);
        assert!(e.contains("tengen score"), "{args:?}: {e}");
    }
    let e = fails(&["score", "--komi", "abc"], CASE_1);
    assert!(e.contains("--komi"), "{e}");
}

const VALIDATE_EXAMPLE: &str = "5
5
.....
.....
.....
.....
.....
B 2 2
W 2 3
B 3 2
W 3 4
B 4 3
";

#[test]
fn validate_seed_example() {
    assert_eq!(
        ok(&["validate"], VALIDATE_EXAMPLE),
        ".....\n.....\n..BW.\n..B.W\n...B.\n"
    );
}

#[test]
fn validate_not_valid_moves() {
    // suicide: a white stone in black's corner
    let suicide = "3\n1\n.B.\nB..\n...\nW 0 0\n";
    assert_eq!(ok(&["validate"], suicide), "NOT_VALID\n");
    // on a stone
    let occupied = "3\n1\n.B.\nB..\n...\nW 0 1\n";
    assert_eq!(ok(&["validate"], occupied), "NOT_VALID\n");
    // off the board
    let off = "3\n1\n...\n...\n...\nB 3 0\n";
    assert_eq!(ok(&["validate"], off), "NOT_VALID\n");
    // a ko taken back at once
    let ko = "4\n2\n.BW.\nB.BW\n.BW.\n....\nW 1 1\nB 1 2\n";
    assert_eq!(ok(&["validate"], ko), "NOT_VALID\n");
    // one bad move among good ones spoils the list
    let late = "3\n3\n...\n...\n...\nB 0 0\nW 1 1\nB 1 1\n";
    assert_eq!(ok(&["validate"], late), "NOT_VALID\n");
    // but a capture that saves a stone from suicide is fine
    let capture = "3\n1\n.BW\nBW.\nW..\nW 0 0\n";
    assert_eq!(ok(&["validate"], capture), "W.W\n.W.\nW..\n");
}

#[test]
fn validate_rejects_malformed_input() {
    for input in [
        "",
        "5\n",
        "x\n0\n",
        "3\n-1\n...\n...\n...\n",
        "3\n0\n...\n..\n...\n",
        "3\n0\n...\n.Z.\n...\n",
        "3\n1\n...\n...\n...\n",
        "3\n1\n...\n...\n...\nB 0\n",
        "3\n1\n...\n...\n...\nX 0 0\n",
        "3\n1\n...\n...\n...\nB a 0\n",
        "3\n0\n...\n...\n...\nB 0 0\n",
        "99999999999999999999\n0\n",
        "26\n0\n",
    ] {
        let e = fails(&["validate"], input);
        assert!(e.contains("tengen validate"), "{input:?}: {e}");
    }
    fails(&["validate", "--what"], VALIDATE_EXAMPLE);
}

/// Every command answers `--help` with its usage on stdout, at once (the
/// ones that read stdin never wait for it).
#[test]
fn every_command_answers_help() {
    let commands = [
        "bot",
        "gtp",
        "score",
        "validate",
        "bench",
        "learn",
        "evaluate",
        "model",
        "random-bot",
        "arena",
    ];
    let games = tengen::games::entries();
    for c in commands.into_iter().chain(games.iter().map(|g| g.name)) {
        let out = ok(&[c, "--help"], "");
        assert!(out.contains(&format!("tengen {c}")), "{c}: {out}");
    }
}

#[test]
fn bench_reports_playouts_per_second() {
    let out = ok(&["bench", "--seconds", "0.2"], "");
    let last = out.lines().last().expect("some output");
    let n: f64 = last
        .strip_prefix("playouts_per_second: ")
        .unwrap_or_else(|| panic!("last line {last:?}"))
        .parse()
        .unwrap_or_else(|e| panic!("last line {last:?}: {e}"));
    assert!(n > 0.0, "{out}");
    let e = fails(&["bench", "--seconds", "-1"], "");
    assert!(e.contains("--seconds"), "{e}");
    fails(&["bench", "--seconds", "abc"], "");
    // parameters change searches only, and must be known ones
    let e = fails(&["bench", "--set", "tree.rave_equiv=100"], "");
    assert!(e.contains("--search"), "{e}");
    fails(&["bench", "--search", "--set", "tree.nothing=1"], "");
    let e = fails(&["bench", "--search", "--set", "seed=5"], "");
    assert!(e.contains("--seed"), "{e}");
    let e = fails(&["bench", "--search", "--set= seed =5"], "");
    assert!(e.contains("--seed"), "{e}");
    let args = [
        "bench",
        "--search",
        "--size",
        "9",
        "--playouts",
        "50",
        "--seconds",
        "0.01",
    ];
    let out = ok(&[&args[..], &["--set", "tree.expand_after=4"]].concat(), "");
    assert!(out.contains("search_playouts_per_second: "), "{out}");
}

/// `bench --net` times the built-in network, `--model` a KataGo file
/// without a rebuild; a bad file is refused with its name.
#[test]
fn bench_times_a_network_from_its_file() {
    let tiny = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/katago/tiny-v8.bin");
    let args = ["bench", "--playouts", "2", "--seconds", "0.01"];
    let built_in = ok(&[&args[..], &["--net"]].concat(), "");
    assert!(built_in.starts_with("g170-b6c96"), "{built_in}");
    assert!(built_in.contains("ms_per_evaluation_float: "), "{built_in}");
    let other = ok(&[&args[..], &["--model", tiny]].concat(), "");
    assert!(other.contains("ms_per_evaluation_float: "), "{other}");
    assert!(other.contains("paths, 2 evaluations each"), "{other}");
    // a count of none still times one evaluation a path, and ends
    let one = ok(&["bench", "--net", "--playouts", "0", "--model", tiny], "");
    assert!(one.contains("paths, 1 evaluations each"), "{one}");
    assert_ne!(other.lines().next(), built_in.lines().next(), "{other}");
    let e = fails(&[&args[..], &["--model", "/nonexistent.bin"]].concat(), "");
    assert!(e.contains("/nonexistent.bin"), "{e}");
    let e = fails(&[&args[..], &["--model", "Cargo.toml"]].concat(), "");
    assert!(e.contains("Cargo.toml"), "{e}");
}

/// `bench --search --model` searches with that network, and the bot
/// refuses a network file it cannot use rather than play on with the
/// built-in one.
#[test]
fn the_search_and_the_bot_take_a_network_file() {
    let tiny = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/katago/tiny-v8.bin");
    let args = [
        "bench",
        "--search",
        "--size",
        "9",
        "--playouts",
        "50",
        "--seconds",
        "0.01",
    ];
    let checksum = |out: String| {
        assert!(out.contains("net_evaluations: "), "{out}");
        out.lines()
            .find(|l| l.starts_with("checksum: "))
            .unwrap_or_else(|| panic!("{out}"))
            .to_string()
    };
    let built_in = checksum(ok(&args, ""));
    let other = checksum(ok(&[&args[..], &["--model", tiny]].concat(), ""));
    assert_ne!(built_in, other);
    let e = fails(&["bot", "--model", "/nonexistent.bin"], FIRST_MOVE_9X9);
    assert!(e.contains("/nonexistent.bin"), "{e}");
    let e = fails(&["bot", "--model", "Cargo.toml"], FIRST_MOVE_9X9);
    assert!(e.contains("Cargo.toml"), "{e}");
}

#[test]
fn unknown_subcommand_fails() {
    let e = fails(&["frobnicate"], "");
    assert!(e.contains("frobnicate"), "{e}");
    let help = ok(&["help"], "");
    assert!(
        help.contains("score") && help.contains("validate"),
        "{help}"
    );
}

const FIRST_MOVE_9X9: &str = "settings your_botid 1\nsettings field_width 9\nsettings field_height 9\n\
                 update game round 1\nupdate game move 1\n\
                 update game field 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n\
                 action move 10000\n";

/// At a fixed playout count the search decides alike each time: the
/// arena's per-game seed is what makes a tuning match's games differ (the
/// playouts' here; the network's symmetries on the value search).
#[test]
fn the_bot_takes_its_seed_from_the_arena() {
    let answer = |seed: &str| {
        let args = [
            "bot",
            "--set",
            "playouts=100",
            "--set",
            "network=false",
            "--set",
            "priors.net=0",
        ];
        let r = tengen_with_env(&args, FIRST_MOVE_9X9, &[("TENGEN_ARENA_SEED", seed)]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    let answers: std::collections::BTreeSet<String> =
        (1..=6).map(|s| answer(&s.to_string())).collect();
    assert!(answers.len() >= 2, "six seeds, one answer: {answers:?}");
    assert_eq!(answer("3"), answer("3"));
}

#[test]
fn the_tuned_bot_plays_and_refuses_unknown_parameters() {
    let input = FIRST_MOVE_9X9;
    let out = ok(
        &["bot", "--set", "playouts=200", "--set=tree.rave_equiv=500"],
        input,
    );
    let answer = out.trim();
    let xy: Vec<usize> = answer
        .strip_prefix("place_move ")
        .unwrap_or_else(|| panic!("answer {answer:?}"))
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(xy.len() == 2 && xy[0] < 9 && xy[1] < 9, "{answer}");
    let e = fails(&["bot", "--set", "tree.nonsense=1"], input);
    assert!(
        e.contains("tree.nonsense") && e.contains("tree.rave_equiv"),
        "{e}"
    );
    fails(&["bot", "--set", "tree.rave_equiv=-3"], input);
    fails(&["bot", "--set"], input);
    fails(&["gtp", "--set", "policy.capture=200"], "");
    assert!(ok(&["bot", "--help"], "").contains("priors.near_last_1"));
}

/// `tengen learn` on two records in a temporary folder: the table it
/// writes reads back as the bot's, and bad records or arguments fail with
/// a message and no table.
#[test]
fn learn_fits_a_table_and_refuses_bad_records() {
    let dir = std::env::temp_dir().join(format!("tengen-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let games = [
        "(;SZ[9]PB[me]PW[you];B[ee];W[ce];B[eg];W[gc];B[cg];W[gg];B[dd];W[dc];B[fe])",
        "(;SZ[9]PB[you]PW[me];B[cc];W[gg];B[cg];W[gc];B[ee];W[ec];B[eg])",
    ];
    for (k, g) in games.iter().enumerate() {
        std::fs::write(path(&format!("g{k}.sgf")), g).unwrap();
    }
    let (a, b, table) = (path("g0.sgf"), path("g1.sgf"), path("table.txt"));
    let out = ok(
        &[
            "learn",
            "--player",
            "me",
            "--holdout",
            "0",
            "--out",
            &table,
            &a,
            &b,
        ],
        "",
    );
    assert!(
        out.contains("2 games") && out.contains("train: 8 moves"),
        "{out}"
    );
    let text = std::fs::read_to_string(&table).unwrap();
    assert!(
        text.contains("unseen shape") && text.contains("\ndist_last "),
        "{text}"
    );
    tengen::games::go::gammas::Gammas::parse(&text).expect("the table reads back");

    // the two games as one collection: the same fit
    let both = path("both.sgf");
    std::fs::write(&both, format!("{}\n{}\n", games[0], games[1])).unwrap();
    let args = ["learn", "--player", "me", "--holdout", "0", "--out"];
    let table2 = path("table2.txt");
    let out2 = ok(&[&args[..], &[&table2, &both]].concat(), "");
    assert_eq!(out2, out);
    assert_eq!(std::fs::read_to_string(&table2).unwrap(), text);
    let broken = path("broken.sgf");
    std::fs::write(&broken, format!("{}(;SZ[9];B[ee]", games[0])).unwrap();
    let e = fails(&["learn", &broken], "");
    assert!(e.contains("broken.sgf: game 2: not closed"), "{e}");
    let bad2 = path("bad2.sgf");
    std::fs::write(&bad2, format!("{}(;SZ[9];B[ee];W[ee])", games[0])).unwrap();
    let e = fails(&["learn", &bad2], "");
    assert!(e.contains("bad2.sgf#2") && e.contains("move 2"), "{e}");

    std::fs::remove_file(&table).unwrap();
    let bad = path("bad.sgf");
    std::fs::write(&bad, "(;SZ[9];B[ee];W[ee])").unwrap();
    let e = fails(&["learn", "--out", &table, &a, &bad], "");
    assert!(e.contains("bad.sgf") && e.contains("move 2"), "{e}");
    assert!(
        !std::path::Path::new(&table).exists(),
        "a table after an error"
    );
    let e = fails(&["learn", "--player", "nobody", &a], "");
    assert!(e.contains("nobody"), "{e}");
    let e = fails(&["learn", &path("missing.sgf")], "");
    assert!(e.contains("missing.sgf"), "{e}");
    let e = fails(&["learn", "--holdout", "1", &a], "");
    assert!(e.contains("held out"), "{e}");
    fails(&["learn"], "");
    fails(&["learn", "--iterations", "x", &a], "");
    let _ = std::fs::remove_dir_all(&dir);
}
