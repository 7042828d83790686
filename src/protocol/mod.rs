//! The protocols: the arena bot (both dialects) and GTP.

use crate::tools::ToolError;

/// The arena bot on stdin/stdout. Returns the process exit code.
pub fn run_bot() -> i32 {
    eprintln!("tengen: the arena bot is not built yet");
    2
}

/// `tengen gtp`: a GTP engine on stdin/stdout.
pub fn run_gtp(_args: Vec<String>) -> Result<(), ToolError> {
    Err(ToolError::usage("gtp is not built yet"))
}
