//! Which build is running: for GTP's `version`, the arena bots' first
//! stderr line and the match records.

/// The commit tengen was built from (build.rs; the arena zip's from its
/// BUILD-INFO.txt), or "unknown" when it was built without git.
pub fn commit() -> &'static str {
    option_env!("TENGEN_COMMIT").unwrap_or("unknown")
}

/// tengen's version and commit, e.g. `0.1.0 (a5651ca)`: GTP's `version`.
pub fn version() -> String {
    format!("{} ({})", env!("CARGO_PKG_VERSION"), commit())
}
