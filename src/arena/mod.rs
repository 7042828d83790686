//! `tengen arena`: the local engine simulator.

use crate::tools::ToolError;

/// `tengen arena ARGS`: runs a match, prints the summary on stdout.
pub fn run(_args: Vec<String>) -> Result<(), ToolError> {
    Err(ToolError::usage("arena is not built yet"))
}
