//! tengen's float path against KataGo itself: `tests/data/katago/*.txt`
//! hold KataGo v1.17.2's `kata-raw-nn` answers (its Eigen backend) for
//! positions of real games and of its own play on 9x9 and 13x13, at
//! random symmetries and optimisms, for the g170 b6c96 net
//! (`data/nets/katago/`) and for tiny random models of model versions 8,
//! 14 (nested bottleneck, Mish), 15 (transformer, SiLU) and 17 written by
//! tengen (`nn::tests::tiny_models`). Made with `tools/kata_compare.py
//! --fixture` (the commands: `tests/data/katago/README.md`).

use tengen::cli::model;
use tengen::games::go::nn::{self, Eval, Path};
use tengen::go::{coord, Color, Game};

/// One position and KataGo's answer for it.
struct Case {
    size: usize,
    symmetry: usize,
    optimism: f32,
    moves: Vec<(Color, String)>,
    answer: Vec<String>,
}

fn cases(text: &str) -> Vec<Case> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(head) = lines.next() {
        let words: Vec<&str> = head.split_whitespace().collect();
        assert_eq!(words[0], "position", "{head}");
        let moves = words[4..]
            .chunks(2)
            .map(|m| {
                let c = if m[0] == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                (c, m[1].to_string())
            })
            .collect();
        let answer = lines
            .by_ref()
            .take_while(|l| *l != "end")
            .map(String::from)
            .collect();
        out.push(Case {
            size: words[1].parse().unwrap(),
            symmetry: words[2].parse().unwrap(),
            optimism: words[3].parse().unwrap(),
            moves,
            answer,
        });
    }
    out
}

/// KataGo's numbers by key; the policy and ownership rows as one list
/// each (NAN: an illegal move).
fn numbers(answer: &[String], size: usize) -> Vec<(String, Vec<f32>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < answer.len() {
        let words: Vec<&str> = answer[i].split_whitespace().collect();
        if words.len() == 1 {
            let rows = &answer[i + 1..i + 1 + size];
            let values = rows
                .iter()
                .flat_map(|r| r.split_whitespace())
                .map(|v| v.parse::<f32>().unwrap_or(f32::NAN))
                .collect();
            out.push((words[0].to_string(), values));
            i += 1 + size;
        } else {
            let v = words[1].parse::<f32>().unwrap_or(f32::NAN);
            out.push((words[0].to_string(), vec![v]));
            i += 1;
        }
    }
    out
}

/// Ours, in the same terms.
fn ours(e: &Eval, symmetry: usize) -> Vec<(String, Vec<f32>)> {
    let area = e.white_ownership.len();
    let nan = |p: f32| if p < 0.0 { f32::NAN } else { p };
    vec![
        ("symmetry".into(), vec![symmetry as f32]),
        ("whiteWin".into(), vec![e.white_win]),
        ("whiteLoss".into(), vec![e.white_loss]),
        ("noResult".into(), vec![e.no_result]),
        ("whiteLead".into(), vec![e.white_lead]),
        ("whiteScoreSelfplay".into(), vec![e.white_score]),
        ("whiteScoreSelfplaySq".into(), vec![e.white_score_sq]),
        ("varTimeLeft".into(), vec![e.var_time_left]),
        (
            "shorttermWinlossError".into(),
            vec![e.shortterm_winloss_error],
        ),
        ("shorttermScoreError".into(), vec![e.shortterm_score_error]),
        (
            "policy".into(),
            e.policy[..area].iter().map(|&p| nan(p)).collect(),
        ),
        ("policyPass".into(), vec![nan(e.policy[area])]),
        ("whiteOwnership".into(), e.white_ownership.clone()),
    ]
}

/// How far our number may be from KataGo's printed one: its rounding and
/// the float sums' order.
fn tolerance(key: &str) -> f32 {
    match key {
        "whiteLead" | "whiteScoreSelfplay" | "varTimeLeft" => 2e-3,
        "shorttermWinlossError" | "shorttermScoreError" => 2e-3,
        "whiteScoreSelfplaySq" => 0.05,
        "whiteOwnership" => 1e-4,
        _ => 2e-5,
    }
}

fn check(net_file: &str, fixture: &str) {
    let root = env!("CARGO_MANIFEST_DIR");
    let net = model::load(&format!("{root}/{net_file}"))
        .unwrap()
        .with_path(Path::Float);
    let text = std::fs::read_to_string(format!("{root}/tests/data/katago/{fixture}")).unwrap();
    let cases = cases(&text);
    assert!(cases.len() >= 6, "{fixture}: {} positions", cases.len());
    for (n, case) in cases.iter().enumerate() {
        let mut game = Game::new(case.size, case.size, 7.5);
        for (c, v) in &case.moves {
            game.set_to_move(*c);
            let mv = coord::from_gtp(game.board(), v).unwrap();
            game.play(mv).unwrap();
        }
        let e = net.evaluate_at(&nn::position(&game), case.symmetry, case.optimism);
        let want = numbers(&case.answer, case.size);
        let got = ours(&e, case.symmetry);
        assert_eq!(
            want.iter().map(|w| &w.0).collect::<Vec<_>>(),
            got.iter().map(|g| &g.0).collect::<Vec<_>>(),
            "{fixture} position {n}: KataGo's keys"
        );
        for ((key, w), (_, g)) in want.iter().zip(&got) {
            assert_eq!(w.len(), g.len(), "{fixture} position {n}: {key}");
            for (i, (a, b)) in w.iter().zip(g).enumerate() {
                let same = (a.is_nan() && b.is_nan()) || (a - b).abs() <= tolerance(key);
                assert!(
                    same,
                    "{fixture} position {n}: {key}[{i}] KataGo {a}, tengen {b}"
                );
            }
        }
    }
}

#[test]
fn g170_b6c96_as_katago_computes_it() {
    check(
        "data/nets/katago/g170-b6c96-s175395328-d26788732.bin.gz",
        "g170-b6c96.txt",
    );
}

#[test]
fn every_block_kind_as_katago_computes_it() {
    for m in ["tiny-v8", "tiny-v14", "tiny-v15", "tiny-v17"] {
        check(&format!("tests/data/katago/{m}.bin"), &format!("{m}.txt"));
    }
}

#[test]
fn the_gtp_answer_has_katagos_form() {
    // one real answer of KataGo's, held against our text line by line
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/tests/data/katago/g170-b6c96.txt")).unwrap();
    let case = &cases(&text)[0];
    let mut game = Game::new(case.size, case.size, 7.5);
    for (c, v) in &case.moves {
        game.set_to_move(*c);
        game.play(coord::from_gtp(game.board(), v).unwrap())
            .unwrap();
    }
    let net = model::load(&format!(
        "{root}/data/nets/katago/g170-b6c96-s175395328-d26788732.bin.gz"
    ))
    .unwrap()
    .with_path(Path::Float);
    let e = net.evaluate_at(&nn::position(&game), case.symmetry, case.optimism);
    let ours = tengen::protocol::gtp::network::raw_text(&e, case.symmetry, case.size, case.size);
    // a GTP reply ends trimmed, KataGo's as ours
    let ours: Vec<&str> = ours.trim_end().lines().collect();
    assert_eq!(ours.len(), case.answer.len());
    for (o, k) in ours.iter().zip(&case.answer) {
        // the same words in the same widths; the last digit may differ
        let (ow, kw): (Vec<&str>, Vec<&str>) = (o.split(' ').collect(), k.split(' ').collect());
        assert_eq!(ow.len(), kw.len(), "{o:?} against {k:?}");
        for (a, b) in ow.iter().zip(&kw) {
            assert_eq!(a.len(), b.len(), "{o:?} against {k:?}");
        }
    }
}

/// The likeliest move of a `kata-raw-nn` answer's numbers (a point, or
/// the pass as one past them), and its white win rate.
fn top_and_win(numbers: &[(String, Vec<f32>)]) -> (usize, f32) {
    let get = |k: &str| &numbers.iter().find(|(key, _)| key == k).expect(k).1;
    let mut moves = get("policy").clone();
    moves.push(get("policyPass")[0]);
    let top = (0..moves.len())
        .filter(|&i| !moves[i].is_nan())
        .max_by(|&a, &b| moves[a].total_cmp(&moves[b]))
        .expect("a legal move");
    (top, get("whiteWin")[0])
}

#[test]
fn every_fast_path_keeps_katagos_top_moves() {
    // the integer and AMX paths round (8- and 16-bit codes, bf16): on
    // KataGo's own positions they keep its likeliest move and win rate
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/tests/data/katago/g170-b6c96.txt")).unwrap();
    let cases = cases(&text);
    let file = format!("{root}/data/nets/katago/g170-b6c96-s175395328-d26788732.bin.gz");
    for path in Path::ALL {
        if path == Path::Float || !path.runs_here() {
            continue;
        }
        let net = model::load(&file).unwrap().with_path(path);
        let mut agree = 0;
        for case in &cases {
            let mut game = Game::new(case.size, case.size, 7.5);
            for (c, v) in &case.moves {
                game.set_to_move(*c);
                game.play(coord::from_gtp(game.board(), v).unwrap())
                    .unwrap();
            }
            let e = net.evaluate_at(&nn::position(&game), case.symmetry, case.optimism);
            let (want, win) = top_and_win(&numbers(&case.answer, case.size));
            let (got, ours) = top_and_win(&ours(&e, case.symmetry));
            agree += (want == got) as usize;
            assert!(
                (win - ours).abs() < 0.03,
                "{path}: win rate {ours} against KataGo's {win}"
            );
        }
        println!("{path}: {agree} of {} top moves", cases.len());
        assert!(
            agree + 1 >= cases.len(),
            "{path}: {agree} of {} top moves",
            cases.len()
        );
    }
}
