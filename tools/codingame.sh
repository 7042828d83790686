#!/usr/bin/env bash
# tools/codingame.sh: the CodinGame uploads, dist/GAME.rs for each game
# with a spec in its folder (src/games/*/GAME.spec), and their proof.
#
# CodinGame takes one source file of at most 100 000 characters, compiled
# alone with the standard library. Each file is bundled by
# `tools/bundle.py single src/games/*/GAME.spec` from the crate's own
# modules (those `tengen GAME` runs on, tests left out, comments dropped),
# with src/deps/lite.rs standing in for the crates and the entry point of
# `tengen GAME` with its defaults.
#
# The proof, for each file: at most 100 000 characters; copied alone into
# an empty folder and compiled there with `rustc --edition 2021 -O FILE`;
# then a match through `tengen arena --game GAME` against the weak player
# the spec names (`proof: greedy`, as `tengen GAME --player greedy`): no game lost to an illegal answer or a crash, and at least half
# of those not lost to a late answer won (lateness depends on the host:
# the full matches below measure it).
#
# usage:
#   tools/codingame.sh               write them all into dist/ and prove them
#   tools/codingame.sh --check       CI mode: in a temporary folder, no dist/
#   tools/codingame.sh --games N     games of each proof match (default 4)
#   tools/codingame.sh --match N     instead of the proof's match, two of N
#                                    games each, `--jobs 1`: against the
#                                    weak player and against `tengen GAME`
#                                    (the in-tree bot); their summaries, with
#                                    a 95 % interval, go to stdout
#
# Needs: cargo, rustc, python3. Runtime: ~1 min with the default games.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf 'codingame: %s\n' "$*" >&2; }
die() { printf 'codingame.sh: FAILED: %s\n' "$*" >&2; exit 1; }

CHECK=0
GAMES=4
MATCH=0
while (($#)); do
    case "$1" in
        --check) CHECK=1 ;;
        --games|--match)
            (($# >= 2)) && [[ "$2" =~ ^[1-9][0-9]*$ ]] || die "$1 needs a number of games"
            if [[ "$1" == --games ]]; then GAMES="$2"; else MATCH="$2"; fi
            shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see tools/codingame.sh --help)" ;;
    esac
    shift
done
command -v rustc >/dev/null || die "rustc is not on PATH"
command -v python3 >/dev/null || die "python3 is needed (tools/bundle.py)"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/tengen-codingame.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
if ((CHECK)); then OUTDIR="$TMP/dist"; else OUTDIR="$ROOT/dist"; fi
mkdir -p "$OUTDIR"

say "building tengen (the referee and the in-tree bots)"
cargo build --release --quiet || die "cargo build --release failed"
TENGEN="$ROOT/target/release/tengen"

WRITTEN=()
shopt -s nullglob
for SPEC in src/games/*/*.spec; do
    GAME="$(basename "$SPEC" .spec)"
    # the weak player the file must beat: the spec's `proof:`
    WEAK="$(sed -n 's/^proof: *//p' "$SPEC")"
    [[ -n "$WEAK" ]] || die "$SPEC names no proof: player"
    FILE="$OUTDIR/$GAME.rs"
    WRITTEN+=("$FILE")
    python3 tools/bundle.py single "$SPEC" "$FILE" 2>"$TMP/bundle.err" ||
        { cat "$TMP/bundle.err" >&2; die "tools/bundle.py failed for $GAME"; }
    CHARS=$(python3 -c 'import sys; print(len(open(sys.argv[1], encoding="utf-8").read()))' "$FILE")
    say "$GAME: $FILE, $CHARS characters"
    ((CHARS <= 100000)) || die "$GAME.rs has $CHARS characters; CodinGame takes at most 100 000"

    ALONE="$TMP/alone-$GAME"
    mkdir -p "$ALONE"
    cp "$FILE" "$ALONE/"
    if ! (cd "$ALONE" && rustc --edition 2021 -O "$GAME.rs" >"$TMP/rustc.log" 2>&1); then
        head -n 40 "$TMP/rustc.log" | sed 's/^/  /' >&2
        die "$GAME.rs does not compile alone"
    fi
    [[ -s "$TMP/rustc.log" ]] && { say "$GAME: rustc warns:"; head -n 20 "$TMP/rustc.log" | sed 's/^/  /' >&2; }
    BOT="$ALONE/$GAME"
    say "$GAME: compiles alone with $(rustc --version)"

    if ((MATCH)); then
        for OPP in "$WEAK" tengen; do
            if [[ "$OPP" == "$WEAK" ]]; then CMD="$TENGEN $GAME --player $WEAK"; else CMD="$TENGEN $GAME"; fi
            say "$GAME: $MATCH games against $OPP (--jobs 1)"
            T0=$SECONDS
            "$TENGEN" arena --game "$GAME" --games "$MATCH" --jobs 1 --seed 59 \
                --out "$TMP/match-$GAME-$OPP" --name-a "$GAME.rs" --name-b "$OPP" "$BOT" "$CMD" \
                2>/dev/null || die "the arena failed ($GAME against $OPP)"
            echo "wall time: $((SECONDS - T0)) s"
            echo
        done
        continue
    fi

    say "$GAME: $GAMES games against the $WEAK player"
    "$TENGEN" arena --game "$GAME" --games "$GAMES" --jobs 1 --seed 59 \
        --out "$TMP/proof-$GAME" --name-a file --name-b "$WEAK" "$BOT" "$TENGEN $GAME --player $WEAK" \
        >"$TMP/proof-$GAME.txt" 2>&1 || { cat "$TMP/proof-$GAME.txt" >&2; die "the arena failed for $GAME"; }
    python3 - "$TMP/proof-$GAME/games.jsonl" <<'PY' || { cat "$TMP/proof-$GAME.txt" >&2; die "$GAME.rs failed its match (above)"; }
import json, sys
games = [g for g in (json.loads(l) for l in open(sys.argv[1]) if l.strip()) if "match" not in g]
lost = lambda g, why: g.get("reason") == why and g.get("winner_player") != "A"
broken = [g for g in games if lost(g, "illegal") or lost(g, "crash")]
late = [g for g in games if lost(g, "timeout")]
played = len(games) - len(late)
wins = sum(g.get("winner_player") == "A" for g in games)
print(f"  {wins} wins of {len(games)}; lost to an illegal answer or a crash: {len(broken)}; "
      f"to a late answer: {len(late)} (a loaded host can cause these)")
sys.exit(1 if broken or played == 0 or 2 * wins < played else 0)
PY
done
((${#WRITTEN[@]})) || die "no spec in src/games/*/"
((CHECK)) || say "written: ${WRITTEN[*]}"
say "all good"
