#!/usr/bin/env bash
# tools/profile.sh: where does tengen spend its time?
#
# Profiles two runs of the release binary:
#   light   `tengen bench --playouts M` (callgrind) or `--seconds S` (perf):
#           uniform random playouts from the empty board
#   search  `tengen bench --search --playouts N --seconds 0.001`: one search
#           of N playouts from each of the bench's start positions (empty
#           board + 8 mid-game), so a fixed amount of work (skipped, with a
#           note, for a binary without `bench --search`)
# and prints the top functions of each, plus where the full reports are
# (target/profile/, or $CARGO_TARGET_DIR/profile/).
#
# Two profilers; --tool auto (the default) takes the first that works here:
#   perf       samples the native run: fast, real timings. Uses the hardware
#              cycle counter when the machine exposes it (`perf stat -e
#              instructions true` shows a count), else perf falls back to the
#              cpu-clock timer, which still gives a good flat profile (VMs).
#              Install (Debian/Ubuntu): apt-get install linux-perf (Debian) or
#              linux-tools-common linux-tools-$(uname -r) (Ubuntu). Non-root
#              users may need: sysctl kernel.perf_event_paranoid=1
#   callgrind  valgrind's instruction counter: exact and repeatable (good to
#              compare two commits) but ~50x slower, so runs are short.
#              Install: apt-get install valgrind. Browse a report with
#              callgrind_annotate FILE, or kcachegrind FILE. Caveat: a
#              `rep movs` memcpy counts one instruction per iteration, so big
#              copies weigh more in instructions than in time (check with perf).
#
# Symbols and source lines come from the release profile's
# debug = "line-tables-only". With fat LTO most of the board code is inlined
# into a few functions; for a finer split profile a build without LTO:
#   CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
#   CARGO_TARGET_DIR=target/nolto tools/profile.sh
# (its timings differ from the shipped build; use it to locate, not to measure).
#
# usage: tools/profile.sh [--tool auto|perf|callgrind] [--seconds S]
#                         [--light-playouts M] [--playouts N] [--top K]
#                         [--call-graph] [--only light|search]
#   --seconds S          perf: light bench length (default 5)
#   --light-playouts M   light bench size, a fixed count: the default with
#                        callgrind (500, ~3 s), whose instruction counts are
#                        then exactly repeatable; with perf it replaces --seconds
#   --playouts N         playouts per search (default 4000 with perf, 200 with
#                        callgrind; 9 searches in all)
#   --call-graph   perf only: record call stacks (dwarf), for perf report -g
# Runtime (2-core VM): ~30 s with perf, ~1 min with callgrind, plus the build.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf 'profile: %s\n' "$*" >&2; }
die() { printf 'profile.sh: FAILED: %s\n' "$*" >&2; exit 1; }

TOOL=auto SECS="" LIGHT_PLAYOUTS="" PLAYOUTS="" TOP=20 CALLGRAPH=0 ONLY=""
while (($#)); do
    case "$1" in
        --tool) (($# >= 2)) || die "--tool needs a value"; TOOL="$2"; shift ;;
        --seconds) (($# >= 2)) || die "--seconds needs a value"; SECS="$2"; shift ;;
        --light-playouts) (($# >= 2)) || die "--light-playouts needs a value"; LIGHT_PLAYOUTS="$2"; shift ;;
        --playouts) (($# >= 2)) || die "--playouts needs a value"; PLAYOUTS="$2"; shift ;;
        --top) (($# >= 2)) || die "--top needs a value"; TOP="$2"; shift ;;
        --only) (($# >= 2)) || die "--only needs a value"; ONLY="$2"; shift ;;
        --call-graph|-g) CALLGRAPH=1 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see tools/profile.sh --help)" ;;
    esac
    shift
done
case "$ONLY" in ""|light|search) ;; *) die "--only takes light or search" ;; esac
[[ "$TOP" =~ ^[0-9]+$ ]] || die "--top must be a number"

perf_works() {
    command -v perf >/dev/null 2>&1 &&
        perf record -q -o /dev/null -- true >/dev/null 2>&1
}
callgrind_works() {
    command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1
}
case "$TOOL" in
    auto)
        if perf_works; then TOOL=perf
        elif callgrind_works; then TOOL=callgrind
        else die "neither perf nor valgrind works here; install one (see tools/profile.sh --help)"
        fi ;;
    perf) perf_works || die "perf cannot record here (not installed, no kernel match, or perf_event_paranoid too high; see --help)" ;;
    callgrind) callgrind_works || die "valgrind/callgrind_annotate not installed (apt-get install valgrind)" ;;
    *) die "--tool takes auto, perf or callgrind" ;;
esac
if [[ "$TOOL" == perf ]]; then
    : "${SECS:=5}" "${PLAYOUTS:=4000}"
    if perf stat -x, -e instructions -- true 2>&1 >/dev/null | grep -q '^[0-9]'; then
        EVENT="hardware cycles"
    else
        EVENT="cpu-clock timer (no hardware counters here)"
    fi
else
    : "${SECS:=2}" "${LIGHT_PLAYOUTS:=500}" "${PLAYOUTS:=200}"
fi

# shellcheck source=tools/release.sh
. "$ROOT/tools/release.sh"
build_release

OUTDIR="$TARGET/profile"
mkdir -p "$OUTDIR"
COMMIT="$(git rev-parse --short=12 HEAD 2>/dev/null || echo none)"
[[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]] && COMMIT+="-dirty"
STAMP="$(date +%Y%m%d-%H%M%S)-$COMMIT"

# A fixed-count light bench (bench --playouts M), if this binary has it
LIGHT_ARGS=(bench --seconds "$SECS")
if [[ -n "$LIGHT_PLAYOUTS" ]]; then
    if "$BIN" bench --playouts 1 >/dev/null 2>&1; then
        LIGHT_ARGS=(bench --playouts "$LIGHT_PLAYOUTS")
    else
        say "this binary has no 'bench --playouts'; the light run uses --seconds $SECS"
    fi
fi

# Is there a fixed-count search bench yet?
# (--seconds tiny: one search per start position, no time-based extra ones)
HAVE_SEARCH=0
if "$BIN" bench --search --playouts 1 --seconds 0.001 >/dev/null 2>&1; then
    HAVE_SEARCH=1
    SEARCH_ARGS=(bench --search --playouts "$PLAYOUTS" --seconds 0.001)
elif "$BIN" bench --search --playouts 1 >/dev/null 2>&1; then
    HAVE_SEARCH=1
    SEARCH_ARGS=(bench --search --playouts "$PLAYOUTS")
fi

# Prints the top functions of a perf data file; the full report goes to $2.
perf_top() {
    local data="$1" txt="$2"
    perf report -i "$data" --stdio --no-children -F overhead,sym 2>/dev/null >"$txt" ||
        die "perf report failed on $data"
    grep -v '^#' "$txt" | grep -v '^[[:space:]]*$' | head -n "$TOP"
}

# Prints the top functions (instructions summed over inlined code from every
# file) of a callgrind file; the full file:function table goes to $2.
callgrind_top() {
    local out="$1" txt="$2" stdout="$3"
    callgrind_annotate --inclusive=no --threshold=100 --auto=no "$out" >"$txt" 2>/dev/null ||
        die "callgrind_annotate failed on $out"
    python3 - "$txt" "$TOP" "$stdout" <<'PY'
import re, sys
txt, top = sys.argv[1], int(sys.argv[2])
playouts = 0
for line in open(sys.argv[3], encoding="utf-8", errors="replace"):
    if line.startswith("playouts:"):
        playouts = int(line.split()[1])
total, by_fn, in_table = 0, {}, False
row = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$")
for line in open(txt, encoding="utf-8", errors="replace"):
    if "file:function" in line:
        in_table = True
        continue
    m = row.match(line)
    if not m:
        continue
    n, rest = int(m.group(1).replace(",", "")), m.group(2)
    if rest.startswith("PROGRAM TOTALS"):
        total = n
        continue
    if not in_table or ":" not in rest:
        continue
    fn = re.sub(r"\s+\[[^\]]*\]$", "", rest.split(":", 1)[1])
    by_fn[fn] = by_fn.get(fn, 0) + n
total = total or sum(by_fn.values()) or 1
per = f", {total // playouts:,} per playout (compare this across commits)" if playouts else ""
print(f"  {total:,} instructions in all{per}")
for fn, n in sorted(by_fn.items(), key=lambda kv: -kv[1])[:top]:
    print(f"  {100.0 * n / total:6.2f}%  {n:>15,}  {fn}")
PY
}

profile_run() {
    local name="$1"; shift
    local base="$OUTDIR/$STAMP-$name"
    local t0=$SECONDS
    if [[ "$TOOL" == perf ]]; then
        local cg=()
        ((CALLGRAPH)) && cg=(--call-graph dwarf)
        say "$name: perf record ${cg[*]} -- tengen $*"
        perf record -q "${cg[@]}" -o "$base.perf.data" -- "$BIN" "$@" >"$base.stdout" 2>"$base.stderr" ||
            { cat "$base.stderr" >&2; die "$name: perf record failed"; }
        echo "== $name: top $TOP functions (perf, $EVENT; $((SECONDS - t0)) s)"
        perf_top "$base.perf.data" "$base.txt"
        echo "   full report: $base.txt"
        echo "   browse:      perf report -i $base.perf.data"
    else
        say "$name: valgrind --tool=callgrind -- tengen $*"
        valgrind --tool=callgrind --callgrind-out-file="$base.callgrind.out" \
            "$BIN" "$@" >"$base.stdout" 2>"$base.stderr" ||
            { tail -n 20 "$base.stderr" >&2; die "$name: valgrind failed"; }
        echo "== $name: top $TOP functions (callgrind, instructions; $((SECONDS - t0)) s)"
        callgrind_top "$base.callgrind.out" "$base.txt" "$base.stdout"
        echo "   file:function table: $base.txt"
        echo "   browse:      callgrind_annotate $base.callgrind.out   (or kcachegrind)"
    fi
    grep -E '^(searches|playouts|moves_per_second|([a-z_]+_)?playouts_per_second):' "$base.stdout" | sed 's/^/   bench /' || true
    echo
}

echo "tengen profile: commit $COMMIT, $(date '+%Y-%m-%d %H:%M'), tool $TOOL"
echo
if [[ -z "$ONLY" || "$ONLY" == light ]]; then
    profile_run light "${LIGHT_ARGS[@]}"
fi
if [[ -z "$ONLY" || "$ONLY" == search ]]; then
    if ((HAVE_SEARCH)); then
        profile_run search "${SEARCH_ARGS[@]}"
    else
        echo "== search: skipped, this binary has no 'tengen bench --search --playouts N' yet"
        [[ "$ONLY" == search ]] && die "no search bench in this binary"
    fi
fi
echo "reports in $OUTDIR/"
