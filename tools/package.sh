#!/usr/bin/env bash
# tools/package.sh: build the arena upload, dist/tengen-arena.zip, and prove it.
#
# The arena unpacks the zip and compiles it with `cargo build --release`
# WITHOUT network, then runs target/release/tengen as one long-lived process.
# So the zip holds, at its root (no enclosing folder, as the upload rules ask):
#
#   Cargo.toml  Cargo.lock  src/            the crate (lib + bin)
#   build.rs                                only if the crate has one
#   vendor/                                 every dependency, `cargo vendor`
#   .cargo/config.toml                      source replacement to vendor/
#   BUILD-INFO.txt                          commit, date, toolchain it was proven with
#
# and nothing else: no target/, tests/, tools/, .git/.
#
# The proof: unpack the zip into an empty temporary folder, build it there
# with `cargo build --release --offline --locked`, an EMPTY CARGO_HOME (no
# registry cache, no user config) and no CARGO_*/RUSTFLAGS from the caller,
# then play a two-turn protocol transcript (TheAIGames dialect, empty 19x19
# board, then one stone each) against the built binary: each `action move`
# must get exactly one line `place_move X Y` (on an empty point) or `pass`,
# flushed while stdin stays open, and the bot must exit 0 at end of input.
#
# usage:
#   tools/package.sh                  build dist/tengen-arena.zip and prove it
#   tools/package.sh --check          CI mode: build and prove in a temporary
#                                     folder, leave no dist/ behind
#   tools/package.sh --no-proof       only build the zip (a few seconds)
#   tools/package.sh --keep           keep the proof folder (printed) for a look
#   tools/package.sh --from-head      package the last commit (git archive HEAD)
#                                     instead of the files on disk, which by
#                                     default include uncommitted edits and new
#                                     untracked (not ignored) files under src/
#   tools/package.sh -o FILE          write the zip to FILE instead
#   tools/package.sh --transcript BIN only play the protocol transcript
#                                     against an already built bot binary
#
# Needs: cargo, python3 (zip/unzip are not needed: python3's zipfile is
# used). Vendoring works offline from the local cargo cache when the crates
# are there (any earlier `cargo build`), and otherwise downloads them once.
# Runtime: ~1-2 min, almost all of it the proof's release build (fat LTO).
set -euo pipefail

CALLER_PWD="$PWD"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf 'package: %s\n' "$*" >&2; }
die() { printf 'package.sh: FAILED: %s\n' "$*" >&2; exit 1; }

MODE=full      # full | check | noproof | transcript
KEEP=0
FROM_HEAD=0
OUT="$ROOT/dist/tengen-arena.zip"
BIN=""
while (($#)); do
    case "$1" in
        --check) MODE=check ;;
        --no-proof) MODE=noproof ;;
        --keep) KEEP=1 ;;
        --from-head) FROM_HEAD=1 ;;
        -o|--output)
            (($# >= 2)) || die "$1 needs a file name"
            OUT="$2"; shift ;;
        --transcript)
            (($# >= 2)) || die "$1 needs the path of a tengen binary"
            MODE=transcript; BIN="$2"; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see tools/package.sh --help)" ;;
    esac
    shift
done
abspath() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s' "$CALLER_PWD/$1" ;; esac; }
OUT="$(abspath "$OUT")"
[[ -n "$BIN" ]] && BIN="$(abspath "$BIN")"

command -v python3 >/dev/null || die "python3 is needed (it writes and reads the zip)"

# ---------------------------------------------------------------- transcript
# Plays two turns of the TheAIGames dialect against the bot binary "$1".
transcript() {
    local bin="$1"
    [[ -x "$bin" ]] || die "no executable bot at $bin"
    python3 - "$bin" <<'PY'
import os, re, select, subprocess, sys, tempfile, time

BIN = sys.argv[1]
W = H = 19
BANK_MS = 10000
MOVE_RE = re.compile(r"^(?:place_move (\d+) (\d+)|pass)$")

def fail(msg):
    sys.stdout.flush()
    print(f"package.sh: FAILED: transcript: {msg}", file=sys.stderr)
    try:
        proc.kill()
    except Exception:
        pass
    err.seek(0)
    tail = err.read().decode("utf-8", "replace").strip().splitlines()[-15:]
    if tail:
        print("  bot stderr (last lines):", file=sys.stderr)
        for line in tail:
            print("    " + line, file=sys.stderr)
    sys.exit(1)

err = tempfile.TemporaryFile()
proc = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=err)
buf = b""

def send(lines):
    try:
        proc.stdin.write(("\n".join(lines) + "\n").encode())
        proc.stdin.flush()
    except BrokenPipeError:
        proc.wait()
        fail(f"bot closed its input early (exit code {proc.returncode})")

def read_line(timeout):
    """One line from the bot's stdout within `timeout` s, stdin kept open."""
    global buf
    end = time.monotonic() + timeout
    fd = proc.stdout.fileno()
    while b"\n" not in buf:
        left = end - time.monotonic()
        if left <= 0:
            fail(f"no answer within {timeout:.0f} s (bank {BANK_MS} ms); "
                 "is stdout flushed after each answer?")
        r, _, _ = select.select([fd], [], [], left)
        if r:
            chunk = os.read(fd, 4096)
            if not chunk:
                proc.wait()
                fail(f"bot exited (code {proc.returncode}) without answering"
                     + (f"; partial output {buf!r}" if buf else ""))
            buf += chunk
    line, buf = buf.split(b"\n", 1)
    return line.decode("utf-8", "replace").rstrip("\r")

def turn(n, rnd, move_no, cells, points, bank):
    send([f"update game round {rnd}",
          f"update game move {move_no}",
          "update game field " + ",".join(map(str, cells)),
          f"update player1 points {points[0]}",
          f"update player2 points {points[1]}",
          f"action move {bank}"])
    t0 = time.monotonic()
    line = read_line(bank / 1000.0)
    ms = (time.monotonic() - t0) * 1000
    m = MOVE_RE.match(line)
    if not m:
        fail(f"turn {n}: answer {line!r} is neither 'place_move X Y' nor 'pass'")
    if m.group(1) is not None:
        x, y = int(m.group(1)), int(m.group(2))
        if not (x < W and y < H):
            fail(f"turn {n}: {line!r} is off the {W}x{H} board")
        if cells[y * W + x] != 0:
            fail(f"turn {n}: {line!r} is on an occupied point")
        print(f"  turn {n}: {line}  ({ms:.0f} ms)")
        return y * W + x
    print(f"  turn {n}: {line}  ({ms:.0f} ms)")
    return None

send(["settings timebank 10000",
      "settings time_per_move 500",
      "settings player_names player1,player2",
      "settings your_bot player1",
      "settings your_botid 1",
      "settings field_width 19",
      "settings field_height 19",
      "settings max_rounds 250"])
cells = [0] * (W * H)
mine = turn(1, 1, 1, cells, ("0", "7.5"), BANK_MS)
# the bot's stone, then the opponent's (player2) answer
if mine is not None:
    cells[mine] = 1
theirs = next(i for i in (3 * W + 3, 15 * W + 15) if cells[i] == 0)
cells[theirs] = 2
mine_n = 1 if mine is not None else 0
turn(2, 2, 3, cells, (str(mine_n), "8.5"), 9800)

# end of the game: the bot gets end of input and must exit cleanly
proc.stdin.close()
try:
    proc.wait(timeout=10)
except subprocess.TimeoutExpired:
    fail("bot did not exit within 10 s of end of input")
rest = (buf + proc.stdout.read()).decode("utf-8", "replace").strip()
if rest:
    fail(f"unexpected extra output on stdout: {rest[:200]!r}")
if proc.returncode != 0:
    fail(f"bot exited with code {proc.returncode} at end of input")
print("  transcript ok: 2 answers, clean exit at end of input")
PY
}

if [[ "$MODE" == transcript ]]; then
    say "protocol transcript against $BIN"
    transcript "$BIN"
    exit 0
fi

command -v cargo >/dev/null || die "cargo is not on PATH"
[[ -f Cargo.toml && -f Cargo.lock && -d src ]] || die "Cargo.toml, Cargo.lock or src/ missing in $ROOT"
if grep -Eq '^\[\[(test|bench|example)\]\]' Cargo.toml; then
    die "Cargo.toml declares [[test]]/[[bench]]/[[example]] targets; the zip carries no tests/, benches/ or examples/, so the arena's cargo would fail on them. Move them out or add autotests/autobenches=false instead of explicit entries."
fi

TMP="$(mktemp -d "${TMPDIR:-/tmp}/tengen-package.XXXXXX")"
cleanup() {
    if ((KEEP)); then say "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
T_START=$SECONDS

# ---------------------------------------------------------------- stage
STAGE="$TMP/stage"
mkdir -p "$STAGE"
say "staging the crate"
if ((FROM_HEAD)); then
    COMMIT="$(git rev-parse --short=12 HEAD 2>/dev/null)" || die "--from-head needs a git checkout with a commit"
    DIRTY=""
    mapfile -t PATHS < <(git ls-tree --name-only HEAD -- Cargo.toml Cargo.lock build.rs src)
    git archive --format=tar HEAD -- "${PATHS[@]}" | tar -x -C "$STAGE" || die "git archive HEAD failed"
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # tracked and untracked-but-not-ignored files: what is on disk, minus junk
    COMMIT="$(git rev-parse --short=12 HEAD 2>/dev/null || echo none)"
    DIRTY=""
    [[ -n "$(git status --porcelain -- Cargo.toml Cargo.lock src build.rs 2>/dev/null)" ]] && DIRTY="-dirty"
    git ls-files -z --cached --others --exclude-standard -- Cargo.toml Cargo.lock build.rs src |
        while IFS= read -r -d '' f; do
            [[ -f "$f" ]] || continue   # deleted but not yet committed
            mkdir -p "$STAGE/$(dirname "$f")"
            cp -p "$f" "$STAGE/$f"
        done
else
    COMMIT="none"; DIRTY=""
    cp -pR Cargo.toml Cargo.lock src "$STAGE/"
    [[ -f build.rs ]] && cp -p build.rs "$STAGE/"
fi
[[ -f "$STAGE/src/main.rs" ]] || die "src/main.rs was not staged"

# ---------------------------------------------------------------- vendor
say "vendoring the dependencies (cargo vendor --locked)"
vendor() { (cd "$STAGE" && cargo vendor --locked "$@" vendor >"$TMP/vendor.out" 2>"$TMP/vendor.err"); }
if ! vendor --offline; then
    say "  not all crates are in the local cache; fetching them"
    vendor || { sed 's/^/  /' "$TMP/vendor.err" >&2; die "cargo vendor failed (network needed once, or Cargo.lock out of date: run cargo build)"; }
fi
mkdir -p "$STAGE/.cargo"
cat >"$STAGE/.cargo/config.toml" <<'EOF'
# Written by tools/package.sh: build from the vendored crates only, no network.
[source.crates-io]
replace-with = "vendored-sources"

[source.vendored-sources]
directory = "vendor"

[net]
offline = true
EOF
NCRATES=$(find "$STAGE/vendor" -mindepth 1 -maxdepth 1 -type d | wc -l)

cat >"$STAGE/BUILD-INFO.txt" <<EOF
tengen arena package
commit:    $COMMIT$DIRTY
packaged:  $(date -u +%Y-%m-%dT%H:%M:%SZ)
toolchain: $(cargo --version), $(rustc --version)
build:     cargo build --release   (vendored crates, no network needed)
binary:    target/release/tengen   (no arguments: the arena bot)
EOF

# ---------------------------------------------------------------- zip
if [[ "$MODE" == check ]]; then ZIP="$TMP/tengen-arena.zip"; else ZIP="$OUT"; fi
mkdir -p "$(dirname "$ZIP")"
say "writing $ZIP"
python3 - "$STAGE" "$ZIP.part" <<'PY' || die "writing the zip failed"
import os, stat, sys, zipfile
stage, out = sys.argv[1], sys.argv[2]
files = []
for d, dirs, names in os.walk(stage):
    dirs.sort()
    for n in sorted(names):
        full = os.path.join(d, n)
        files.append((os.path.relpath(full, stage).replace(os.sep, "/"), full))
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    for rel, full in files:
        info = zipfile.ZipInfo(rel, date_time=(2000, 1, 1, 0, 0, 0))
        mode = stat.S_IMODE(os.stat(full).st_mode) | 0o644
        info.external_attr = (stat.S_IFREG | mode) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        with open(full, "rb") as f:
            z.writestr(info, f.read())
PY
mv -f "$ZIP.part" "$ZIP"

# layout check: what the upload rules and the arena need at the root
python3 - "$ZIP" <<'PY' || die "the zip's layout is wrong (see above)"
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
bad = []
for need in ("Cargo.toml", "Cargo.lock", "src/main.rs", "src/lib.rs", ".cargo/config.toml"):
    if need not in names:
        bad.append(f"missing at the root: {need}")
if not any(n.startswith("vendor/") for n in names):
    bad.append("no vendor/ folder")
for n in names:
    top = n.split("/", 1)[0]
    if top in ("target", "tests", "tools", "dist", ".git", ".ci", "benches", "examples"):
        bad.append(f"should not be in the zip: {n}")
        break
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
if command -v unzip >/dev/null; then
    unzip -tqq "$ZIP" >/dev/null || die "unzip -t reports a damaged zip"
fi
SIZE_KB=$(( $(stat -c %s "$ZIP") / 1024 ))
say "zip ok: ${SIZE_KB} KiB, $NCRATES vendored crates, commit $COMMIT$DIRTY ($((SECONDS - T_START)) s)"

if [[ "$MODE" == noproof ]]; then
    echo "$ZIP"
    exit 0
fi

# ---------------------------------------------------------------- proof
PROOF="$TMP/proof"
mkdir -p "$PROOF/unpacked" "$PROOF/cargo-home"
say "proof: unpacking into an empty folder"
python3 - "$ZIP" "$PROOF/unpacked" <<'PY' || die "unpacking the zip failed"
import sys, zipfile
zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])
PY

say "proof: cargo build --release --offline --locked (empty CARGO_HOME, own target dir)"
T_BUILD=$SECONDS
# a clean environment for cargo: nothing of the caller's cargo setup
CLEAN_ENV=(-u RUSTFLAGS -u RUSTDOCFLAGS -u RUSTC_WRAPPER -u RUSTC_WORKSPACE_WRAPPER -u RUSTC)
while IFS= read -r v; do CLEAN_ENV+=(-u "$v"); done < <(compgen -e | grep '^CARGO_' || true)
if ! (cd "$PROOF/unpacked" &&
      env "${CLEAN_ENV[@]}" CARGO_HOME="$PROOF/cargo-home" \
          cargo build --release --offline --locked >"$PROOF/build.log" 2>&1); then
    tail -n 30 "$PROOF/build.log" | sed 's/^/  /' >&2
    die "the unpacked zip does not build offline (log above; --keep keeps $PROOF)"
fi
if [[ -n "$(find "$PROOF/cargo-home" -mindepth 1 -maxdepth 1 -name registry 2>/dev/null)" ]]; then
    die "the build used a registry, not the vendored crates"
fi
BIN_OUT="$PROOF/unpacked/target/release/tengen"
[[ -x "$BIN_OUT" ]] || die "the build did not produce target/release/tengen"
say "proof: built in $((SECONDS - T_BUILD)) s"

say "proof: protocol transcript (TheAIGames dialect, 19x19)"
transcript "$BIN_OUT"

say "all good in $((SECONDS - T_START)) s"
if [[ "$MODE" == full ]]; then
    echo "$ZIP"
fi
