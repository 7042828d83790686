#!/usr/bin/env bash
# tools/bench.sh: tengen's speed figures in one run, comparable across commits.
#
# Builds the release binary, then measures (one thread each):
#   light_empty      `tengen bench`               light playouts/s from the empty 19x19 board
#   light_positions  `tengen bench --positions`   light playouts/s from fixed mid-game positions
#   search           `tengen bench --search`      search playouts/s: full searches from the
#                                                 empty board and 8 mid-game positions, at
#                                                 least one each (~15-30 s whatever S is);
#                                                 "-" for a binary without it
# prints them with the git commit (+"-dirty" for uncommitted changes to
# tracked files), date, CPU and toolchain, and appends one line to
# bench-history.tsv at the repo root (tab-separated, header on first use).
#
# bench-history.tsv is gitignored on purpose: the figures only compare runs
# on the same machine, so each machine keeps its own history. Compare with
#   column -t -s$'\t' bench-history.tsv
#
# usage: tools/bench.sh [--seconds S] [--no-history] [--history FILE]
#   --seconds S    length of each measurement (default 5; total ~2 x S + the
#                  search bench, ~1 min with the build on a 2-core VM)
# Figures move a few percent between runs on a busy or virtual machine:
# use --seconds 10 and run twice before trusting a difference under ~5%.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf 'bench: %s\n' "$*" >&2; }
die() { printf 'bench.sh: FAILED: %s\n' "$*" >&2; exit 1; }

SECS=5 HISTORY="$ROOT/bench-history.tsv"
while (($#)); do
    case "$1" in
        --seconds) (($# >= 2)) || die "--seconds needs a value"; SECS="$2"; shift ;;
        --no-history) HISTORY="" ;;
        --history) (($# >= 2)) || die "--history needs a file"; HISTORY="$2"; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see tools/bench.sh --help)" ;;
    esac
    shift
done
[[ "$SECS" =~ ^[0-9]+([.][0-9]+)?$ ]] || die "--seconds must be a positive number"

# shellcheck source=tools/release.sh
. "$ROOT/tools/release.sh"
build_release

COMMIT="$(git rev-parse --short=12 HEAD 2>/dev/null || echo none)"
DIRTY=0
[[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]] && DIRTY=1
DATE="$(date '+%Y-%m-%d %H:%M:%S')"
CPU="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: *//; s/  */ /g' || true)"
CPU="${CPU:-$(uname -m)}"
RUSTC="$(rustc --version | awk '{print $2}')"

# Runs one bench; prints its playouts_per_second, or "-" if the bench
# does not exist in this binary. The full output goes to stderr.
measure() {
    local label="$1"; shift
    local out
    if ! out="$("$BIN" bench "$@" 2>&1)"; then
        if grep -q 'unexpected argument\|unknown' <<<"$out"; then
            say "$label: not in this binary ($(head -n1 <<<"$out"))"
            echo "-"
            return
        fi
        printf '%s\n' "$out" >&2
        die "$label: tengen bench $* failed"
    fi
    local pps
    # light benches print playouts_per_second, the search bench
    # search_playouts_per_second: the last such line is the figure
    pps="$(awk -F': *' '$1 ~ /^([a-z_]+_)?playouts_per_second$/ {print $2}' <<<"$out" | tail -n1)"
    [[ -n "$pps" ]] || { printf '%s\n' "$out" >&2; die "$label: no playouts_per_second line in the output"; }
    printf '%s\n' "$out" | sed "s/^/  [$label] /" >&2
    echo "$pps"
}

say "light playouts, empty board (${SECS} s)"
LIGHT_EMPTY="$(measure light_empty --seconds "$SECS")"
say "light playouts, mid-game positions (${SECS} s)"
LIGHT_POS="$(measure light_positions --positions --seconds "$SECS")"
say "search playouts (${SECS} s)"
SEARCH="$(measure search --search --seconds "$SECS")"

DIRTY_TAG=""; ((DIRTY)) && DIRTY_TAG="-dirty"
echo
echo "tengen bench  commit $COMMIT$DIRTY_TAG  $DATE"
echo "  cpu $CPU, rustc $RUSTC, ${SECS} s per figure, one thread"
printf '  %-34s %10s\n' "light playouts/s, empty board" "$LIGHT_EMPTY"
printf '  %-34s %10s\n' "light playouts/s, mid-game" "$LIGHT_POS"
printf '  %-34s %10s\n' "search playouts/s" "$SEARCH"

if [[ -n "$HISTORY" ]]; then
    if [[ ! -s "$HISTORY" ]]; then
        printf 'date\tcommit\tdirty\tlight_empty_pps\tlight_positions_pps\tsearch_pps\tseconds\trustc\tcpu\n' >"$HISTORY"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
        "$DATE" "$COMMIT" "$DIRTY" "$LIGHT_EMPTY" "$LIGHT_POS" "$SEARCH" "$SECS" "$RUSTC" "$CPU" >>"$HISTORY"
    echo "  appended to ${HISTORY#"$ROOT/"}"
fi
