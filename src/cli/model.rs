//! `--model FILE`: a KataGo network from a file, put in play for this
//! process. Files are KataGo's models (`.bin.gz`, `.bin`, `.txt.gz`,
//! `.txt`, told apart by their bytes, not their names) or tengen's coded
//! ones; the gzip is undone here, in the full binary only (the arena build
//! carries no gzip and runs its built-in network).

use super::{take_flag, ToolError};
use crate::deps::flate2::read::GzDecoder;
use crate::deps::log;
use crate::games::go::nn::{self, Network};
use crate::go::sgf::read_sgf;
use crate::go::{Game, Move};
use std::io::Read;

/// The network in the file at `path`, with the path in any error.
pub fn load(path: &str) -> Result<Network, ToolError> {
    let fail = |e: String| ToolError::input(format!("{path}: {e}"));
    let raw = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
    let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::with_capacity(raw.len() * 5 / 4);
        GzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .map_err(|e| fail(format!("not a whole gzip file: {e}")))?;
        out
    } else {
        raw
    };
    Network::from_bytes(&bytes).map_err(fail)
}

/// Takes `--model FILE` out of `args` and puts that network in play for
/// this process; true if there was one. A file that cannot be read is an
/// error, never a silent fall back to the built-in network.
pub fn install(args: &mut Vec<String>) -> Result<bool, ToolError> {
    let Some(path) = take_flag(args, "--model")? else {
        return Ok(false);
    };
    let net = load(&path)?;
    log::info!("network from {path}: {}", net.model());
    nn::install(net).map_err(ToolError::input)?;
    Ok(true)
}

pub const USAGE: &str = "\
usage: tengen model FILE [--code OUT [--steps N] [--calibrate DIR [--positions N]]]
  FILE's network: its name, model version, kind, size and blocks, as
  tengen reads it (any KataGo model: .bin.gz, .bin, .txt.gz, .txt; or a
  coded file). --code: writes it to OUT in tengen's coded form, its
  convolutions' and matrices' weights quantised to N steps either side
  of zero (default 127: the 8-bit paths' own quantisation, so they run
  the coded file exactly as the original) with a scale an output
  channel and entropy-coded; OUT is what the arena build carries
  (src/games/go/nn/builtin.net). --calibrate: the layers the 8-bit
  paths run in 8 bits are rounded against what they see on N (default
  32) positions of the 19x19 games in DIR's SGF files (GPTQ:
  src/games/go/nn/gptq.rs), not to their nearest codes: b6c96's top
  move agrees with float 98 % rather than 97 %; about a second a
  position for b10c384.";

/// `tengen model FILE [--code OUT [--steps N]]`.
pub fn run(mut args: Vec<String>) -> Result<String, ToolError> {
    use crate::games::go::nn::{desc::Block, write};
    if args.iter().any(|a| a == "--help") {
        return Ok(format!("{USAGE}\n"));
    }
    let plain = args.iter().any(|a| a == "--steps" || a == "--calibrate");
    let out: Option<String> = take_flag(&mut args, "--code")?;
    let steps: i32 = super::parse_flag(&mut args, "--steps")?.unwrap_or(127);
    if !(1..=127).contains(&steps) || (out.is_none() && plain) {
        return Err(ToolError::usage(
            "--steps: 1 to 127; --steps and --calibrate with --code",
        ));
    }
    let games: Option<String> = take_flag(&mut args, "--calibrate")?;
    let count: usize = super::parse_flag(&mut args, "--positions")?.unwrap_or(32);
    if games.is_none() && args.iter().any(|a| a.starts_with("--positions")) {
        return Err(ToolError::usage("--positions with --calibrate"));
    }
    let [file] = &args[..] else {
        return Err(ToolError::usage(format!("one model file\n\n{USAGE}")));
    };
    let net = load(file)?;
    let mut m = net.model();
    let rounded;
    if let Some(dir) = &games {
        let found = positions(dir, count)?;
        let feats: Vec<_> = found
            .iter()
            .map(|g| nn::inputs::features(&nn::position(g)))
            .collect();
        let grams = nn::calibrate::grams(m, &feats);
        rounded = nn::gptq::model(m, &grams, steps);
        m = &rounded;
    }
    if let Some(path) = out {
        let bytes = write::model(m, write::Weights::Coded { top: steps });
        std::fs::write(&path, &bytes).map_err(|e| ToolError::input(format!("{path}: {e}")))?;
        return Ok(format!("{path}: {} bytes, {m}\n", bytes.len()));
    }
    fn blocks(bs: &[Block], depth: usize, out: &mut String) {
        for b in bs {
            out.push_str(&format!(
                "{}{} {}\n",
                "  ".repeat(depth),
                b.kind(),
                b.name()
            ));
            if let Block::Nested { blocks: inner, .. } = b {
                blocks(inner, depth + 1, out);
            }
        }
    }
    let mut text = format!("{m}\n");
    blocks(&m.trunk.blocks, 1, &mut text);
    Ok(text)
}

/// `n` positions of the 19x19 games in `dir`'s SGF files (without set-up
/// stones), spread over the games and over moves 20 to 240.
fn positions(dir: &str, n: usize) -> Result<Vec<Game>, ToolError> {
    let fail = |e: String| ToolError::input(format!("{dir}: {e}"));
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| fail(e.to_string()))?
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    let mut games = Vec::new();
    for (i, f) in files.iter().enumerate() {
        if games.len() >= n {
            break;
        }
        let text = std::fs::read_to_string(f).map_err(|e| fail(e.to_string()))?;
        let Ok(rec) = read_sgf(&text) else { continue };
        let stop = 20 + (i * 37) % 221;
        if rec.size != 19 || !rec.setup.is_empty() || rec.moves.len() <= stop {
            continue;
        }
        let mut g = Game::new(19, 19, rec.komi.unwrap_or(7.5));
        let legal = rec.moves[..stop].iter().all(|&(c, mv)| {
            g.set_to_move(c);
            let mv = match mv {
                None => Move::Pass,
                Some((x, y)) => Move::Play(g.board().point(x, y)),
            };
            g.play(mv).is_ok()
        });
        if legal {
            g.set_to_move(rec.moves[stop].0);
            games.push(g);
        }
    }
    if games.is_empty() {
        return Err(fail("no 19x19 games to calibrate on".into()));
    }
    Ok(games)
}
