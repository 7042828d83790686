#!/usr/bin/env bash
# tengen on a hostile host: plays a match of tengen (arena clock) against
# `tengen random-bot` on 19x19 with `tengen arena`, while its bot processes
# are stopped now and then (SIGSTOP ... SIGCONT) and, optionally, busy loops
# compete for the cores; then tells what the bot suffered (timeouts, illegal
# moves, worst answer, smallest bank, fallbacks, given-up searches, late
# searches, answers past the planned hard deadline).
#
# usage: tools/stress.sh [--games N] [--stop-ms MS] [--every-ms MS]
#                        [--burners K] [--out DIR] [-- EXTRA_ARENA_ARGS...]
#   --games N      games to play (default 4), one at a time
#   --stop-ms MS   how long each stall lasts (default 450)
#   --every-ms MS  pause between stalls, +-25 % jitter (default 3000)
#   --burners K    busy-loop processes per core for the match (default 0)
#   --out DIR      output folder (default matches/stress-<UTC time>)
#   EXTRA...       passed to `tengen arena`, e.g. --bank 5000 --seed 7
# environment:
#   STRESS_RUST_LOG  tengen's log filter (default info: the plans and answer
#                    times the report needs)
#
# The report is printed and written to DIR/stress.txt
# (tools/stress_summary.py).
set -euo pipefail

me=stress.sh
# shellcheck source=tools/lib/hostile.sh
. "$(dirname "$0")/lib/hostile.sh"

games=4 stop_ms=450 every_ms=3000 burners=0 out=""
while [ $# -gt 0 ]; do
    case $1 in
    --games | --stop-ms | --every-ms | --burners | --out)
        [ $# -ge 2 ] || die "$1 needs a value"
        case $1 in
        --games) games=$2 ;;
        --stop-ms) stop_ms=$2 ;;
        --every-ms) every_ms=$2 ;;
        --burners) burners=$2 ;;
        --out) out=$2 ;;
        esac
        shift 2
        ;;
    --) shift; break ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (options for the arena go after --; see --help)" ;;
    esac
done
number --games "$games"
number --stop-ms "$stop_ms"
number --every-ms "$every_ms"
number --burners "$burners"
[ "$games" -ge 1 ] || die "--games must be at least 1"
[ "$stop_ms" -ge 1 ] || die "--stop-ms must be at least 1"

root=$(cd "$(dirname "$0")/.." && pwd)
echo "$me: building tengen (release)" >&2
if ! (cd "$root" && cargo build --release --quiet); then
    echo "$me: cargo build --release failed; nothing played" >&2
    exit 1
fi
target=${CARGO_TARGET_DIR:-$root/target}
tengen="$target/release/tengen"
[ -x "$tengen" ] || { echo "$me: no binary at $tengen after the build" >&2; exit 1; }

out=${out:-$root/matches/stress-$(date -u +%Y%m%d-%H%M%S)}
[ -e "$out/games.jsonl" ] && die "$out already holds a games.jsonl; choose another --out"
mkdir -p "$out"
stalls_file=$out/stalls.count
echo 0 >"$stalls_file"

# side A's bots: children of the arena whose command line is exactly the
# tengen binary (no subcommand, so never the random bot nor the arena)
bots_of() {
    local pid
    for pid in $(pgrep -P "$1" 2>/dev/null || true); do
        [ "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" = "$tengen " ] && echo "$pid"
    done
    return 0
}

arena_pid="" staller="" burner_pids=()
cleanup() {
    set +e
    if [ -n "$staller" ]; then
        kill -TERM "$staller" 2>/dev/null
        wait "$staller" 2>/dev/null
    fi
    if [ -n "$arena_pid" ]; then
        # nothing of ours may stay stopped
        for pid in $(bots_of "$arena_pid"); do kill -CONT "$pid" 2>/dev/null; done
    fi
    stop_burners
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cores=$(nproc)
start_burners "$burners"
nburn=${#burner_pids[@]}

echo "$me: $games games into $out; stalls of $stop_ms ms every ~$every_ms ms; $nburn burners ($burners per core, $cores cores)" >&2
start=$(date +%s.%N)
RUST_LOG=${STRESS_RUST_LOG:-info} "$tengen" arena --games "$games" --jobs 1 --size 19 \
    --out "$out" --name-a tengen --name-b random-bot "$@" \
    "$tengen" "$tengen random-bot" &
arena_pid=$!
stall_loop "$arena_pid" "$every_ms" "$stop_ms" "$stalls_file" bots_of "$arena_pid" &
staller=$!
set +e
wait "$arena_pid"
status=$?
set -e
end=$(date +%s.%N)
kill -TERM "$staller" 2>/dev/null || true
wait "$staller" 2>/dev/null || true
staller=""
stop_burners
[ "$status" -eq 0 ] || echo "$me: the arena exited with status $status" >&2

python3 "$root/tools/stress_summary.py" "$out" \
    --stalls "$(cat "$stalls_file")" --stop-ms "$stop_ms" --every-ms "$every_ms" \
    --burners "$burners" --cores "$cores" \
    --seconds "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')" |
    tee "$out/stress.txt"
exit "$status"
