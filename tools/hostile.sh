#!/usr/bin/env bash
# Runs a command on a hostile host: every ~EVERY ms all its processes (the
# command and everything it started) are stopped for STOP ms (SIGSTOP ...
# SIGCONT, what a loaded virtual machine does to a process), while K
# busy-loop processes per core compete for the CPU. Exits with the
# command's status, after saying how many stalls it went through.
#
# usage: tools/hostile.sh [--stop-ms MS] [--every-ms MS] [--burners K] -- CMD...
#   --stop-ms MS   how long each stall lasts (default 300)
#   --every-ms MS  from one stall to the next, +-25 % jitter (default 1000)
#   --burners K    busy-loop processes per core (default 2)
# example (issue 24's check of the test suite):
#   tools/hostile.sh -- .ci/run
set -euo pipefail

me=hostile.sh
# shellcheck source=tools/lib/hostile.sh
. "$(dirname "$0")/lib/hostile.sh"

stop_ms=300 every_ms=1000 burners=2
while [ $# -gt 0 ]; do
    case $1 in
    --stop-ms | --every-ms | --burners)
        [ $# -ge 2 ] || die "$1 needs a value"
        number "$1" "$2"
        case $1 in
        --stop-ms) stop_ms=$2 ;;
        --every-ms) every_ms=$2 ;;
        --burners) burners=$2 ;;
        esac
        shift 2
        ;;
    --) shift; break ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (the command goes after --; see --help)" ;;
    esac
done
[ $# -ge 1 ] || die "no command given (see --help)"
[ "$stop_ms" -ge 1 ] || die "--stop-ms must be at least 1"
[ "$every_ms" -gt "$stop_ms" ] || die "--every-ms must be longer than --stop-ms"

# the process and all its descendants, parents first
tree() {
    local pid
    echo "$1"
    for pid in $(pgrep -P "$1" 2>/dev/null || true); do tree "$pid"; done
}

count_file=$(mktemp)
echo 0 >"$count_file"

cmd_pid="" staller="" burner_pids=()
cleanup() {
    set +e
    if [ -n "$staller" ]; then
        kill -TERM "$staller" 2>/dev/null
        wait "$staller" 2>/dev/null
    fi
    # nothing of the command's may stay stopped
    if [ -n "$cmd_pid" ] && kill -0 "$cmd_pid" 2>/dev/null; then
        # shellcheck disable=SC2046
        kill -CONT $(tree "$cmd_pid") 2>/dev/null
    fi
    stop_burners
    rm -f "$count_file"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_burners "$burners"
echo "$me: stalls of $stop_ms ms every ~$every_ms ms, ${#burner_pids[@]} burners ($burners per core): $*" >&2
start=$(date +%s)
"$@" &
cmd_pid=$!
stall_loop "$cmd_pid" $((every_ms - stop_ms)) "$stop_ms" "$count_file" tree "$cmd_pid" &
staller=$!
set +e
wait "$cmd_pid"
status=$?
set -e
kill -TERM "$staller" 2>/dev/null || true
wait "$staller" 2>/dev/null || true
staller=""
echo "$me: status $status after $(($(date +%s) - start)) s and $(cat "$count_file") stalls" >&2
exit "$status"
