#!/usr/bin/env bash
# tools/package.sh: build the Riddles.io / TheAIGames upload,
# dist/tengen-arena.zip, and prove it the way the arena takes it.
#
# The arena's compiler (github riddlesio/docker-sandbox,
# images/sandbox-compiler-rust/compile_rust.sh) finds `Cargo.toml` with
# `find`, copies the folder, runs `cargo build --release` without network
# (its only crates: libc 0.2.26 and rand 0.3.15, in an offline registry),
# takes the binary's name from `grep "name =" Cargo.toml | cut -d " " -f3`,
# moves the one file of that name into an empty folder and runs it from
# there, read-only, all within `docker run -m 200M`. So the zip holds, at
# its root:
#
#   Cargo.toml      one `name =` line, no dependencies, the release
#                   profile of the project's [profile.arena] (memory)
#   build.rs        tools/arena-build.rs: compiles crates/ one rustc at a
#                   time, in the order of crates/PLAN
#   crates/         one file a crate (tools/bundle.py split tools/arena.spec):
#                   the crates the bot uses, their own code (Cargo.lock's
#                   versions), and the bot's modules in eight parts (go,
#                   search, the network's bytes, ..., the protocol's state),
#                   so that no rustc holds much of the bot
#   src/main.rs     the protocol's top and `main`: the modules `tengen` runs on
#                   without arguments; the tools (arena, GTP, CodinGame
#                   bots...) stay out, so the build needs less memory
#   crates/games/   the files the parts include (network, gammas)
#   BUILD-INFO.txt  commit, date, toolchain it was proven with
#   LICENSE-KataGo.txt  the license of the built-in network (KataGo's
#                   b6c96, data/nets/katago/LICENSE), which the zip carries
#
# The proof replays compile_rust.sh step by step in a temporary folder:
# exactly one Cargo.toml; copy; `cargo build --release --offline` with an
# EMPTY CARGO_HOME (no registry at all) and none of the caller's CARGO_*/
# RUSTFLAGS; the name the script's way; exactly one file of that name, moved
# alone into an empty folder; source and build deleted; then, run from an
# empty folder: a two-turn protocol transcript (each `action move` gets one
# `place_move X Y` or `pass`, flushed, exit 0 at end of input) and a whole
# game against `tengen random-bot` through `tengen arena` (the project's
# build), which the bot must win without a timeout or an illegal move.
#
# usage:
#   tools/package.sh                  build dist/tengen-arena.zip and prove it
#   tools/package.sh --check          CI mode: build and prove in a temporary
#                                     folder, leave no dist/ behind
#   tools/package.sh --no-proof       only build the zip (a few seconds)
#   tools/package.sh --keep           keep the proof folder (printed)
#   tools/package.sh --from-head      package the last commit (git archive HEAD)
#                                     instead of the files on disk
#   tools/package.sh -o FILE          write the zip to FILE instead
#   tools/package.sh --memory         measure peak memory (tools/peakmem.py):
#                                     the build's, and the bot's through a game
#                                     at the arena clock (10 s bank, +200 ms)
#   tools/package.sh --toolchain DIR  build the proof with DIR/cargo and
#                                     DIR/rustc (e.g. /usr/bin: Debian's)
#   tools/package.sh --transcript BIN only play the protocol transcript
#                                     against an already built bot binary
#
# Needs: cargo, python3 (its zipfile writes and reads the zip). Runtime:
# ~1-2 min, almost all of it the proof's release build.
set -euo pipefail

CALLER_PWD="$PWD"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf 'package: %s\n' "$*" >&2; }
die() { printf 'package.sh: FAILED: %s\n' "$*" >&2; exit 1; }

MODE=full      # full | check | noproof | transcript
KEEP=0
FROM_HEAD=0
MEMORY=0
TOOLCHAIN=""
OUT="$ROOT/dist/tengen-arena.zip"
BIN=""
while (($#)); do
    case "$1" in
        --check) MODE=check ;;
        --no-proof) MODE=noproof ;;
        --keep) KEEP=1 ;;
        --from-head) FROM_HEAD=1 ;;
        --memory) MEMORY=1 ;;
        --toolchain)
            (($# >= 2)) || die "$1 needs a folder holding cargo and rustc"
            TOOLCHAIN="$2"; shift ;;
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
if [[ -n "$TOOLCHAIN" ]]; then
    TOOLCHAIN="$(abspath "$TOOLCHAIN")"
    [[ -x "$TOOLCHAIN/cargo" && -x "$TOOLCHAIN/rustc" ]] || die "no cargo and rustc in $TOOLCHAIN"
fi

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
[[ -f Cargo.toml && -d src ]] || die "Cargo.toml or src/ missing in $ROOT"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/tengen-package.XXXXXX")"
cleanup() {
    if ((KEEP)); then say "kept $TMP"; else chmod -R u+w "$TMP" 2>/dev/null; rm -rf "$TMP"; fi
}
trap cleanup EXIT
T_START=$SECONDS

# ---------------------------------------------------------------- stage
PROJECT="$TMP/project"
STAGE="$TMP/stage"
mkdir -p "$PROJECT" "$STAGE/src"
say "staging the crate"
if ((FROM_HEAD)); then
    COMMIT="$(git rev-parse --short=12 HEAD 2>/dev/null)" || die "--from-head needs a git checkout with a commit"
    DIRTY=""
    git archive --format=tar HEAD -- Cargo.toml src | tar -x -C "$PROJECT" || die "git archive HEAD failed"
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # tracked and untracked-but-not-ignored files: what is on disk
    COMMIT="$(git rev-parse --short=12 HEAD 2>/dev/null || echo none)"
    DIRTY=""
    [[ -n "$(git status --porcelain -- Cargo.toml src 2>/dev/null)" ]] && DIRTY="-dirty"
    git ls-files -z --cached --others --exclude-standard -- Cargo.toml src |
        while IFS= read -r -d '' f; do
            [[ -f "$f" ]] || continue   # deleted but not yet committed
            mkdir -p "$PROJECT/$(dirname "$f")"
            cp -p "$f" "$PROJECT/$f"
        done
else
    COMMIT="none"; DIRTY=""
    cp -pR Cargo.toml src "$PROJECT/"
fi
[[ -f "$PROJECT/src/lib.rs" && -f "$PROJECT/src/deps.rs" ]] || die "src/lib.rs or src/deps.rs was not staged"

# the crates' sources and the bot's modules (tools/arena.spec), each crate
# one file, compiled one by one by build.rs; the crates are those Cargo.lock
# pins, read from cargo's cache
say "bundling the bot into crates/ and src/main.rs (tools/bundle.py split tools/arena.spec)"
python3 tools/bundle.py split tools/arena.spec "$STAGE" --from "$PROJECT" \
    >"$TMP/includes.txt" 2>"$TMP/bundle.err" ||
    { cat "$TMP/bundle.err" >&2; die "tools/bundle.py failed"; }
sed 's/^bundle.py: /  /' "$TMP/bundle.err" >&2
while read -r from to; do
    mkdir -p "$STAGE/$(dirname "$to")"
    cp -p "$PROJECT/src/$from" "$STAGE/$to"
done <"$TMP/includes.txt"
cp tools/arena-build.rs "$STAGE/build.rs"

# the zip's Cargo.toml: one `name =` line, no dependencies, the arena profile
python3 - "$PROJECT/Cargo.toml" "$STAGE/Cargo.toml" <<'PY' || die "writing the zip's Cargo.toml failed"
import sys, tomllib
src = tomllib.load(open(sys.argv[1], "rb"))
pkg, prof = src["package"], src.get("profile", {}).get("arena")
if prof is None:
    sys.exit("Cargo.toml has no [profile.arena] (the zip's release profile)")
def val(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'
lines = ["# Written by tools/package.sh from tengen's Cargo.toml: the bot alone;",
         "# build.rs compiles the crates it uses (crates/), so no dependencies.",
         "[package]", f'name = "{pkg["name"]}"', 'build = "build.rs"']
for k in ("version", "edition", "rust-version", "description", "license"):
    if k in pkg:
        lines.append(f"{k} = {val(pkg[k])}")
lines += ["", "[profile.release]"]
lines += [f"{k} = {val(v)}" for k, v in prof.items() if k != "inherits"]
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
PY

# the built-in network is KataGo's: its license travels with it
cp "$ROOT/data/nets/katago/LICENSE" "$STAGE/LICENSE-KataGo.txt" ||
    die "data/nets/katago/LICENSE: the built-in network's license must ship with it"

cat >"$STAGE/BUILD-INFO.txt" <<EOF2
tengen arena package
commit:    $COMMIT$DIRTY
packaged:  $(date -u +%Y-%m-%dT%H:%M:%SZ)
proven:    $(${TOOLCHAIN:+$TOOLCHAIN/}cargo --version), $(${TOOLCHAIN:+$TOOLCHAIN/}rustc --version)
build:     cargo build --release   (no dependencies: build.rs compiles crates/)
binary:    target/release/tengen   (no arguments: the arena bot)
EOF2

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

# what the compile script relies on, checked on the zip itself
python3 - "$ZIP" <<'PY' || die "the zip breaks the arena's intake rules (see above)"
import sys, tomllib, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = z.namelist()
bad = []
tomls = [n for n in names if n.split("/")[-1] == "Cargo.toml"]
if tomls != ["Cargo.toml"]:
    bad.append(f"Cargo.toml files: {tomls} (the script's find wants exactly one, at the root)")
else:
    text = z.read("Cargo.toml").decode()
    named = [l for l in text.splitlines() if "name =" in l]
    if len(named) != 1:
        bad.append(f"{len(named)} lines hold 'name =' (the script takes the binary's name from them): {named}")
    manifest = tomllib.loads(text)
    for table in ("dependencies", "build-dependencies", "dev-dependencies"):
        extra = set(manifest.get(table, {})) - {"libc", "rand"}
        if extra:
            bad.append(f"[{table}] needs {sorted(extra)}: the arena's registry has only libc 0.2.26 and rand 0.3.15")
    if manifest.get("target"):
        bad.append("target-specific tables: keep the manifest plain")
for need in ("src/main.rs", "build.rs", "crates/PLAN", "LICENSE-KataGo.txt"):
    if need not in names:
        bad.append(f"missing: {need}")
for n in names:
    parts = n.split("/")
    if parts[0] in ("target", "tests", "tools", "dist", "vendor", ".cargo", ".git", ".ci"):
        bad.append(f"should not be in the zip: {n}")
        break
    if "tengen" in parts:
        bad.append(f"{n}: the script's find for the binary would find this too")
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
if command -v unzip >/dev/null; then
    unzip -tqq "$ZIP" >/dev/null || die "unzip -t reports a damaged zip"
fi
SIZE=$(stat -c %s "$ZIP")
say "zip ok: $SIZE bytes ($((SIZE / 1024)) KiB), commit $COMMIT$DIRTY ($((SECONDS - T_START)) s)"
((SIZE <= 5000000)) || say "WARNING: over 5 000 000 bytes; Riddles.io takes uploads of at most 5 MB"

if [[ "$MODE" == noproof ]]; then
    echo "$ZIP"
    exit 0
fi

# ---------------------------------------------------------------- proof
# compile_rust.sh, step by step, with the arena's folders under $PROOF
PROOF="$TMP/proof"
SOURCE_DIR="$PROOF/source"
BUILD_DIR="$PROOF/build"
BIN_DIR="$PROOF/bin"
mkdir -p "$SOURCE_DIR" "$BIN_DIR" "$PROOF/cargo-home" "$PROOF/run"
say "proof: unpacking into an empty folder"
python3 - "$ZIP" "$SOURCE_DIR" <<'PY' || die "unpacking the zip failed"
import sys, zipfile
zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])
PY

CARGO="$(find "$SOURCE_DIR" -name "Cargo.toml")"
[[ "$CARGO" == "$SOURCE_DIR/Cargo.toml" ]] || die "find -name Cargo.toml gives '$CARGO', not the one at the root"
cp -R "$SOURCE_DIR" "$BUILD_DIR"

CLEAN_ENV=(-u RUSTFLAGS -u RUSTDOCFLAGS -u RUSTC_WRAPPER -u RUSTC_WORKSPACE_WRAPPER -u RUSTC -u RUSTUP_TOOLCHAIN)
while IFS= read -r v; do CLEAN_ENV+=(-u "$v"); done < <(compgen -e | grep '^CARGO_' || true)
BUILD_PATH="$PATH"
[[ -n "$TOOLCHAIN" ]] && BUILD_PATH="$TOOLCHAIN:$PATH"
MEASURE=()
((MEMORY)) && MEASURE=(python3 "$ROOT/tools/peakmem.py" -o "$PROOF/build-memory.txt" --)
say "proof: cargo build --release --offline (empty CARGO_HOME, no registry) with $(PATH="$BUILD_PATH" rustc --version)"
T_BUILD=$SECONDS
if ! (cd "$BUILD_DIR" &&
      env "${CLEAN_ENV[@]}" PATH="$BUILD_PATH" CARGO_HOME="$PROOF/cargo-home" \
          "${MEASURE[@]}" cargo build --release --offline >"$PROOF/build.log" 2>&1); then
    tail -n 30 "$PROOF/build.log" | sed 's/^/  /' >&2
    die "the unpacked zip does not build offline (log above; --keep keeps $PROOF)"
fi
if [[ -n "$(find "$PROOF/cargo-home" -mindepth 1 -maxdepth 1 -name registry 2>/dev/null)" ]]; then
    die "the build reached for a registry"
fi
say "proof: built in $((SECONDS - T_BUILD)) s"
((MEMORY)) && say "proof: build $(cat "$PROOF/build-memory.txt")"

EXE=$(grep "name =" "$CARGO" | cut -d " " -f3)
EXE=$(echo ${EXE} | sed 's/^"\(.*\)"$/\1/')
FULLPATH=$(find "$BUILD_DIR" -name "$EXE")
[[ -n "$FULLPATH" && "$FULLPATH" != *$'\n'* && -f "$FULLPATH" ]] ||
    die "find -name '$EXE' in the build gives '${FULLPATH//$'\n'/ }', not one file"
mv "$FULLPATH" "$BIN_DIR"
chmod -R +rx "$BIN_DIR"
echo "$EXE" >"$BIN_DIR/manifest"
say "proof: the script's binary is '$EXE' ($(stat -c %s "$BIN_DIR/$EXE") bytes); source and build deleted"
rm -rf "$SOURCE_DIR" "$BUILD_DIR"
chmod a-w "$BIN_DIR" "$BIN_DIR/$EXE"
BOT="$BIN_DIR/$EXE"

# a whole game: short clock for CI, the arena's own with --memory; the
# referee and the random bot are the project's own build
say "proof: building tengen (the referee)"
cargo build --release --quiet || die "cargo build --release failed"
TENGEN="$ROOT/target/release/tengen"

say "proof: protocol transcript (TheAIGames dialect, 19x19)"
(cd "$PROOF/run" && transcript "$BOT")

# a whole game: short clock for CI, the arena's own with --memory
CLOCK=(--bank 2000 --per-move 60)
PLAYER="$BOT"
if ((MEMORY)); then
    CLOCK=()
    PLAYER="python3 $ROOT/tools/peakmem.py -o $PROOF/bot-memory.txt -- $BOT"
fi
say "proof: a whole game against tengen random-bot (tengen arena ${CLOCK[*]:-at the arena clock})"
T_GAME=$SECONDS
if ! (cd "$PROOF/run" && "$TENGEN" arena --games 1 --jobs 1 --seed 59 "${CLOCK[@]}" \
        --out "$PROOF/game" --name-a zip --name-b random "$PLAYER" "$TENGEN random-bot" \
        >"$PROOF/game.txt" 2>&1); then
    sed 's/^/  /' "$PROOF/game.txt" >&2
    die "the arena could not play the game"
fi
python3 - "$PROOF/game/games.jsonl" "$COMMIT$DIRTY" <<'PY' || { sed 's/^/  /' "$PROOF/game.txt" >&2; die "the game shows a fault of the bot (above)"; }
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
games = [g for g in lines if "match" not in g]  # after the match's facts
if len(games) != 1:
    sys.exit(f"  {len(games)} games recorded, not 1")
g = games[0]
mine = g["black_stats"] if g.get("black_player") == "A" else g["white_stats"]
print(f"  game: {g.get('result')} after {g.get('moves')} moves ({g.get('reason')}); the bot: "
      f"{mine['answers']} answers, median {mine['median_ms']} ms, max {mine['max_ms']} ms")
if mine["timeouts"] or mine["illegal"]:
    sys.exit(f"  the bot had {mine['timeouts']} timeouts and {mine['illegal']} illegal moves")
if g.get("winner_player") != "A":
    sys.exit("  the bot did not beat the random player")
# the zip's build.rs handed the bot BUILD-INFO.txt's commit: its banner says it
says = (g.get("engines", {}).get("A") or {}).get("stderr") or ""
print(f"  the bot's first line on stderr: {says}")
if f"({sys.argv[2]})" not in says:
    sys.exit(f"  the bot does not name its commit {sys.argv[2]}")
PY
say "proof: game over in $((SECONDS - T_GAME)) s"
((MEMORY)) && say "proof: bot $(cat "$PROOF/bot-memory.txt")"

say "all good in $((SECONDS - T_START)) s"
if [[ "$MODE" == full ]]; then
    echo "$ZIP"
fi
