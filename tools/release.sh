# Sourced by the tools scripts (they define ROOT, say and die first):
# builds the release binary and sets TARGET (the cargo target folder, which
# respects CARGO_TARGET_DIR) and BIN (the tengen binary in it).
build_release() {
    TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
    case "$TARGET" in /*) ;; *) TARGET="$ROOT/$TARGET" ;; esac
    say "building the release binary (cargo build --release)"
    (cd "$ROOT" && cargo build --release --quiet) || die "cargo build --release failed"
    BIN="$TARGET/release/tengen"
    [[ -x "$BIN" ]] || die "no binary at $BIN"
}
