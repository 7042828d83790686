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
