#!/usr/bin/env bash
# tengen against GNU Go: builds tengen in release mode, plays GAMES games
# with `tengen arena` (colours alternating) and prints the summary: wins,
# score with its 95 % interval, Elo difference.
#
# usage: tools/strength.sh [GAMES] [tengen arena options...]
#   GAMES          number of games (default 20)
#   options        passed to `tengen arena`, e.g. --size 9 --jobs 2
# environment:
#   GNUGO_LEVEL    GNU Go's level, 1-10 (default 10)
#   OUT            output folder (default matches/strength-<UTC time>)
#
# tengen plays under the arena clock (10 s bank, +200 ms a move unless the
# options say otherwise); GNU Go plays without clock, since it needs more
# time per move than the arena gives. GNU Go uses area (Chinese) rules,
# positional superko and captures all dead stones before passing, because
# the arena counts the board as it stands.
set -euo pipefail

games=${1:-20}
if [ $# -gt 0 ]; then shift; fi
case $games in
'' | *[!0-9]*)
    echo "strength.sh: GAMES must be a number, not '$games'" >&2
    exit 2
    ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)

gnugo=$(command -v gnugo || true)
if [ -z "$gnugo" ] && [ -x /usr/games/gnugo ]; then
    gnugo=/usr/games/gnugo
fi
if [ -z "$gnugo" ]; then
    echo "strength.sh: GNU Go is not installed; installing the Debian package gnugo with apt-get" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
    if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq gnugo; } >&2; then
        echo "strength.sh: could not install GNU Go: install it yourself (apt-get install gnugo) and run again" >&2
        exit 1
    fi
    gnugo=$(command -v gnugo || echo /usr/games/gnugo)
fi

echo "strength.sh: building tengen (release)" >&2
(cd "$root" && cargo build --release --quiet)
target=${CARGO_TARGET_DIR:-$root/target}
tengen="$target/release/tengen"
out=${OUT:-$root/matches/strength-$(date -u +%Y%m%d-%H%M%S)}

level=${GNUGO_LEVEL:-10}
exec "$tengen" arena --games "$games" --out "$out" \
    --name-a tengen --name-b "gnugo-$level" "$@" \
    "$tengen" \
    "gtp:$gnugo --mode gtp --level $level --chinese-rules --capture-all-dead --positional-superko"
