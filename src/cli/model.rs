//! `--model FILE`: a KataGo network from a file, put in play for this
//! process. Files are KataGo's models (`.bin.gz`, `.bin`, `.txt.gz`,
//! `.txt`, told apart by their bytes, not their names) or tengen's coded
//! ones; the gzip is undone here, in the full binary only (the arena build
//! carries no gzip and runs its built-in network).

use super::{take_flag, ToolError};
use crate::deps::flate2::read::GzDecoder;
use crate::deps::log;
use crate::games::go::nn::{self, Network};
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
usage: tengen model FILE [--code OUT [--steps N]]
  FILE's network: its name, model version, kind, size and blocks, as
  tengen reads it (any KataGo model: .bin.gz, .bin, .txt.gz, .txt; or a
  coded file). --code: writes it to OUT in tengen's coded form, its
  convolutions' and matrices' weights quantised to N steps either side
  of zero (default 127: the 8-bit paths' own quantisation, so they run
  the coded file exactly as the original) with a scale an output
  channel and entropy-coded; OUT is what the arena build carries
  (src/games/go/nn/builtin.net). Above 127 steps the integers' low
  bits are stored raw: --steps 2047 keeps b6c96's top move on 99.4 % of
  positions where 127 keeps 95.4 %, at 1.4 MB rather than 0.9.";

/// `tengen model FILE [--code OUT [--steps N]]`.
pub fn run(mut args: Vec<String>) -> Result<String, ToolError> {
    use crate::games::go::nn::{desc::Block, write};
    if args.iter().any(|a| a == "--help") {
        return Ok(format!("{USAGE}\n"));
    }
    let out: Option<String> = take_flag(&mut args, "--code")?;
    let steps: i32 = super::parse_flag(&mut args, "--steps")?.unwrap_or(127);
    if !(1..=16383).contains(&steps) || (out.is_none() && args.iter().any(|a| a == "--steps")) {
        return Err(ToolError::usage("--steps: 1 to 16383, with --code"));
    }
    let [file] = &args[..] else {
        return Err(ToolError::usage(format!("one model file\n\n{USAGE}")));
    };
    let net = load(file)?;
    let m = net.model();
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
