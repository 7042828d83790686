#!/usr/bin/env bash
# tools/net_speed.sh: ms an evaluation, KataGo's Eigen backend beside each
# of tengen's paths, one thread, on one core, in one run.
#
# usage: tools/net_speed.sh [--core N] [--rounds R] KATAGO NET[:EVALS]...
#   KATAGO   the katago binary (run with the FTZ preload if LIBFTZ is set:
#            LIBFTZ=path/libftz.so, as ../shared/opponents/ builds it)
#   NET      a KataGo model file; EVALS tengen's evaluations a path and
#            KataGo's visits a position (default 200; 20 for nets of
#            several G multiply-adds)
#   --core   the core both run on, one after the other (default 1)
#   --rounds the two in turn R times a net (default 1): a drifting host's
#            speed moves between minutes, a median of ratios less
# Prints per net and round: KataGo's nnEvals/s (`katago benchmark -t 1
# -n 2`) as ms, then `tengen bench --net --model NET` (release build at
# target/release), then KataGo's ms over tengen's fastest path's; after
# the rounds, the median of those ratios.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CORE=1
ROUNDS=1
while [[ "${1:-}" == --core || "${1:-}" == --rounds ]]; do
    case "$1" in
        --core) CORE="$2" ;;
        --rounds) ROUNDS="$2" ;;
    esac
    shift 2
done
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "net_speed.sh: --rounds takes a count" >&2; exit 2; }
[[ $# -ge 2 ]] || { sed -n 5,17p "$0" >&2; exit 2; }
KATAGO="$1"; shift
TENGEN="$ROOT/target/release/tengen"
[[ -x "$TENGEN" ]] || { echo "net_speed.sh: build first: cargo build --release" >&2; exit 1; }
CFG="$ROOT/tools/katago-raw.cfg"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
for spec in "$@"; do
    net="${spec%%:*}"; n=200; [[ "$spec" == *:* ]] && n="${spec##*:}"
    [[ -f "$net" ]] || { echo "net_speed.sh: $net: no such file" >&2; exit 1; }
    echo "== $net"
    ratios=()
    for ((round = 1; round <= ROUNDS; round++)); do
        rate=$(cd "$TMP" && env ${LIBFTZ:+LD_PRELOAD=$LIBFTZ} taskset -c "$CORE" "$KATAGO" benchmark \
            -model "$net" -config "$CFG" -t 1 -v "$n" -n 2 2>&1 |
            grep -o 'nnEvals/s = [0-9.]*' | tail -1 | awk '{print $3}')
        [[ -n "$rate" ]] || { echo "net_speed.sh: katago benchmark gave no rate" >&2; exit 1; }
        awk -v r="$rate" 'BEGIN { printf "katago_eigen_ms: %.2f\n", 1000 / r }'
        taskset -c "$CORE" "$TENGEN" bench --net --model "$net" --playouts "$n" | grep -E '^ms_per' |
            tee "$TMP/paths"
        ratio=$(awk -v r="$rate" -F': ' 'NR == 1 || $2 < best { best = $2 }
            END { if (best > 0) printf "%.2f", 1000 / r / best }' "$TMP/paths")
        [[ -n "$ratio" ]] || { echo "net_speed.sh: tengen bench gave no time" >&2; exit 1; }
        echo "katago_over_fastest: $ratio"
        ratios+=("$ratio")
    done
    if ((ROUNDS > 1)); then
        printf '%s\n' "${ratios[@]}" | sort -g |
            awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                printf "katago_over_fastest_median: %.2f of %d rounds\n", m, NR }'
    fi
done
