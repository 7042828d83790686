#!/usr/bin/env bash
# A tuning match: tengen with some search parameters changed against tengen
# with the defaults, both at a fixed playout count, so that the machine's
# load cannot decide games and each takes well under a minute. Colours
# alternate; every game has its own seed. Prints the arena's summary.
#
# usage: tools/tune.sh GAMES NAME=VALUE... [-- tengen arena options...]
#   GAMES          number of games (an even number keeps colours fair)
#   NAME=VALUE     parameters of the changed side (tengen bot --help)
#   options        passed to `tengen arena`, e.g. --jobs 2 --seed 7
# environment:
#   PLAYOUTS       playouts a move for both sides (default 1000)
#   OUT            output folder (default matches/tune-<UTC time>)
#
# Self-play measures against ourselves only: a change that wins here still
# has to show against another engine (tools/strength.sh).
set -euo pipefail

games=${1:-}
case $games in
'' | *[!0-9]*)
    echo "tune.sh: usage: tools/tune.sh GAMES NAME=VALUE... [-- arena options]" >&2
    exit 2
    ;;
esac
shift
sets=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case $1 in
    *=*) sets+=(--set "$1") ;;
    *)
        echo "tune.sh: expected NAME=VALUE, not '$1'" >&2
        exit 2
        ;;
    esac
    shift
done
if [ $# -gt 0 ]; then shift; fi
if [ ${#sets[@]} -eq 0 ]; then
    echo "tune.sh: no parameter to change (tengen bot --help lists them)" >&2
    exit 2
fi
playouts=${PLAYOUTS:-1000}

root=$(cd "$(dirname "$0")/.." && pwd)
echo "tune.sh: building tengen (release)" >&2
(cd "$root" && cargo build --release --quiet)
target=${CARGO_TARGET_DIR:-$root/target}
tengen="$target/release/tengen"
# refuse unknown names or values before starting any game
"$tengen" bot "${sets[@]}" --set "playouts=$playouts" < /dev/null

out=${OUT:-$root/matches/tune-$(date -u +%Y%m%d-%H%M%S)}
changed="$tengen bot --set playouts=$playouts ${sets[*]}"
exec "$tengen" arena --games "$games" --out "$out" \
    --clock-a off --clock-b off --name-a changed --name-b default "$@" \
    "$changed" "$tengen bot --set playouts=$playouts"
