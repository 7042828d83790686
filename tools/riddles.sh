#!/usr/bin/env bash
# tengen under the public Riddles.io Go referee (github riddlesio/go-engine):
# builds the referee with plain javac from a checkout, plays tengen against
# itself and against `tengen random-bot` through the match wrapper the
# referee's repository ships, and summarises per bot: results, refused
# moves, timeouts, fallbacks (tools/riddles_summary.py).
set -euo pipefail

prog=riddles.sh
usage() {
    cat <<'EOF'
usage: tools/riddles.sh [options] GO_ENGINE_DIR [GAMES]

  GO_ENGINE_DIR   a checkout (or bare git directory) of github
                  riddlesio/go-engine; its work tree is used as it is
                  (check out the version you want), or the revision
                  --rev names. Nothing is written into it.
  GAMES           games of each pairing (default 2): tengen vs tengen and
                  tengen vs `tengen random-bot`, colours alternating

options:
  --rev REV             build go-engine's revision REV (git archive; the
                        checkout is untouched). 1.0.2 = a84b589,
                        1.0.3 = b3146a0 (branch feature/outputfix); master
                        (2e0c240) prints a stray empty line that ends games
  --javainterface DIR   a checkout of github riddlesio/javainterface
                        (default: $JAVAINTERFACE_DIR, else DIR/../javainterface)
  --ji-rev REV          its revision to build (default: the work tree if it
                        is version 1.0.7, else the tag 1.0.7)
  --out DIR             output folder (default: matches/riddles-<UTC time>)
  --pairings LIST       self,random (default both)
  --tengen BIN          play this tengen binary instead of building one
                        with `cargo build --release`
  --build-only          build the referee and stop
  -h, --help            this text

environment: JAVAINTERFACE_DIR, JAVAINTERFACE_REV, OUT, RUST_LOG (bots'
log level, default info), RIDDLES_GAME_TIMEOUT (seconds a game may take
before it is killed, default 900).

The match wrapper keeps the arena's clock: timebank 10000 ms, 200 ms per
move, maxTimeouts 0 (the first timeout shuts the bot down). Each game's
folder holds result.json (the wrapper's result file), p0.log and p1.log
(the bots' stderr; player0 is black), wrapper.out.gz, wrapper.err and
meta.json. Needs javac and jar (JDK 9+, for --release 8), java, git
(for --rev and tags), python3.
EOF
}

die() {
    echo "$prog: $*" >&2
    exit 1
}
note() { echo "$prog: $*" >&2; }

rev=""
ji_dir=${JAVAINTERFACE_DIR:-}
ji_rev=${JAVAINTERFACE_REV:-}
out=${OUT:-}
pairings="self,random"
tengen_bin=""
build_only=0
positional=()
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help)
        usage
        exit 0
        ;;
    --rev | --javainterface | --ji-rev | --out | --pairings | --tengen)
        [ $# -ge 2 ] || {
            usage >&2
            die "$1 needs a value"
        }
        case $1 in
        --rev) rev=$2 ;;
        --javainterface) ji_dir=$2 ;;
        --ji-rev) ji_rev=$2 ;;
        --out) out=$2 ;;
        --pairings) pairings=$2 ;;
        --tengen) tengen_bin=$2 ;;
        esac
        shift 2
        ;;
    --build-only)
        build_only=1
        shift
        ;;
    --)
        shift
        positional+=("$@")
        break
        ;;
    -*) die "unknown option $1 (see --help)" ;;
    *)
        positional+=("$1")
        shift
        ;;
    esac
done
if [ ${#positional[@]} -lt 1 ] || [ ${#positional[@]} -gt 2 ]; then
    usage >&2
    exit 2
fi
engine_dir=${positional[0]}
games=${positional[1]:-2}
case $games in
'' | *[!0-9]*) die "GAMES must be a number, not '$games'" ;;
esac
for p in ${pairings//,/ }; do
    case $p in
    self | random) ;;
    *) die "--pairings: unknown pairing '$p' (self, random)" ;;
    esac
done

root=$(cd "$(dirname "$0")/.." && pwd)

# --- tools -----------------------------------------------------------------
for t in java javac jar python3; do
    command -v "$t" >/dev/null || die "$t is not installed (needs a JDK 9 or later: javac, jar, java; and python3)"
done
if [ -n "$rev" ] || [ -n "$ji_rev" ]; then
    command -v git >/dev/null || die "git is needed for --rev / --ji-rev"
fi

# --- sources ---------------------------------------------------------------
[ -d "$engine_dir" ] || die "GO_ENGINE_DIR '$engine_dir' is not a directory"
engine_dir=$(cd "$engine_dir" && pwd -P)

# the git directory of DIR when DIR is a bare repository, a .git folder or
# the top of a work tree; empty otherwise
git_dir_of() {
    local d=$1 top
    command -v git >/dev/null || return 0
    if [ "$(git -C "$d" rev-parse --is-inside-git-dir 2>/dev/null)" = true ]; then
        git -C "$d" rev-parse --absolute-git-dir 2>/dev/null || true
        return 0
    fi
    top=$(git -C "$d" rev-parse --show-toplevel 2>/dev/null) || return 0
    if [ "$top" = "$d" ]; then
        git -C "$d" rev-parse --absolute-git-dir 2>/dev/null || true
    fi
}

# stage SRC_DIR REV DEST: the files of SRC_DIR (work tree) or of its git
# revision REV into DEST
stage() {
    local src=$1 r=$2 dest=$3 gd
    mkdir -p "$dest"
    if [ -n "$r" ]; then
        gd=$(git_dir_of "$src")
        [ -n "$gd" ] || die "$src is not a git repository (top level or git directory): cannot use revision $r"
        git --git-dir="$gd" rev-parse --verify -q "$r^{commit}" >/dev/null ||
            die "$src has no revision '$r'"
        git --git-dir="$gd" archive "$r" | tar -x -C "$dest"
    else
        # the work tree as it is: the sources, the build file, the jars
        cp -R "$src/src" "$dest/"
        find "$src" -maxdepth 1 -type f \( -name build.gradle -o -name '*.jar' \) -exec cp {} "$dest/" \;
    fi
}

engine_git=$(git_dir_of "$engine_dir")
if [ -z "$rev" ] && [ ! -e "$engine_dir/src/java/io/riddles/go/Go.java" ] && [ "$engine_git" = "$engine_dir" ]; then
    rev=HEAD
    note "$engine_dir is a git directory without work tree: building its HEAD (--rev to choose)"
fi
if [ -z "$rev" ]; then
    [ -e "$engine_dir/src/java/io/riddles/go/Go.java" ] ||
        die "$engine_dir does not look like a go-engine checkout (no src/java/io/riddles/go/Go.java); get it from github riddlesio/go-engine"
fi

if [ -z "$ji_dir" ]; then
    for d in "$(dirname "$engine_dir")/javainterface" "$(dirname "$engine_dir")/javainterface-1.0.7" \
        "$(dirname "$(dirname "$engine_dir")")/javainterface"; do
        if [ -d "$d" ]; then
            ji_dir=$d
            break
        fi
    done
    [ -n "$ji_dir" ] || die "no javainterface: give a checkout of github riddlesio/javainterface (tag 1.0.7) with --javainterface DIR or JAVAINTERFACE_DIR, or put it beside $engine_dir as javainterface/"
fi
[ -d "$ji_dir" ] || die "javainterface '$ji_dir' is not a directory"
ji_dir=$(cd "$ji_dir" && pwd -P)
if [ -z "$ji_rev" ]; then
    ji_version=$(sed -n "s/^version[ =]*'\([^']*\)'.*/\1/p" "$ji_dir/build.gradle" 2>/dev/null | head -n1 || true)
    if [ -e "$ji_dir/src/java/io/riddles/javainterface/engine/AbstractEngine.java" ] && [ "$ji_version" = 1.0.7 ]; then
        : # the work tree is 1.0.7
    else
        ji_git=$(git_dir_of "$ji_dir")
        if [ -n "$ji_git" ] && git --git-dir="$ji_git" rev-parse --verify -q "1.0.7^{commit}" >/dev/null; then
            ji_rev=1.0.7
            note "javainterface: building its tag 1.0.7 (the work tree is ${ji_version:+version }${ji_version:-not a 1.0.7 checkout})"
        elif [ -e "$ji_dir/src/java/io/riddles/javainterface/engine/AbstractEngine.java" ]; then
            note "warning: javainterface in $ji_dir is version ${ji_version:-unknown}, not the 1.0.7 go-engine was built with; trying it"
        else
            die "$ji_dir is not a javainterface checkout (no src/java/io/riddles/javainterface) and has no tag 1.0.7"
        fi
    fi
fi

out=${out:-$root/matches/riddles-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# the match wrapper starts every process with Runtime.exec(String): the
# command is split at white space, with no quoting
case $out in
*[[:space:]\"\\]*) die "the output folder '$out' must not contain white space, quotes or backslashes (the match wrapper splits commands at spaces)" ;;
esac
if [ -e "$out/games" ] && [ -n "$(ls -A "$out/games")" ]; then
    die "$out already holds games: give another --out"
fi

# --- the referee -------------------------------------------------------------
ref=$out/referee
rm -rf "$ref"
mkdir -p "$ref"
note "staging go-engine ${rev:+$rev }from $engine_dir"
stage "$engine_dir" "$rev" "$ref/go-engine"
note "staging javainterface ${ji_rev:+$ji_rev }from $ji_dir"
stage "$ji_dir" "$ji_rev" "$ref/javainterface"

[ -e "$ref/go-engine/src/java/io/riddles/go/Go.java" ] ||
    die "go-engine ${rev:-work tree}: no src/java/io/riddles/go/Go.java"
[ -d "$ref/javainterface/src/java/io/riddles/javainterface" ] ||
    die "javainterface ${ji_rev:-work tree}: no src/java/io/riddles/javainterface"
wrapper_jar=$(find "$ref/go-engine" -maxdepth 1 -name 'match-wrapper*.jar' | sort -V | tail -n1)
[ -n "$wrapper_jar" ] || die "go-engine ${rev:-work tree} has no match-wrapper*.jar at its top"
cp "$wrapper_jar" "$ref/match-wrapper.jar"

engine_version=$(sed -n "s/^version[ =]*'\([^']*\)'.*/\1/p" "$ref/go-engine/build.gradle" 2>/dev/null | head -n1 || true)
engine_version=${engine_version:-unknown}
logic=$ref/go-engine/src/java/io/riddles/go/game/processor/GoLogic.java
rules=1.0.2
if grep -q updateSuicideData "$logic" 2>/dev/null; then rules=1.0.3; fi
stray=false
if grep -qF 'System.out.print("\n");' "$logic" 2>/dev/null; then
    stray=true
    note "WARNING: this go-engine prints an empty line on stdout in updateSuicideData (master 2e0c240): the match wrapper ends every game at the first move. Use branch feature/outputfix (b3146a0) for 1.0.3"
fi

classes=$ref/classes
mkdir -p "$classes"
# org.json 20160212 is inside the match wrapper's jar; the engine needs it too
(cd "$classes" && jar xf "$ref/match-wrapper.jar" org/json)
[ -e "$classes/org/json/JSONObject.class" ] || die "no org/json classes in $wrapper_jar"
find "$ref/javainterface/src/java" "$ref/go-engine/src/java" -name '*.java' >"$ref/sources.txt"
note "compiling go-engine $engine_version (rules $rules) with javac --release 8"
if ! javac --release 8 -nowarn -encoding UTF-8 -cp "$classes" -d "$classes" @"$ref/sources.txt" >"$ref/javac.log" 2>&1; then
    tail -n 30 "$ref/javac.log" >&2
    die "javac failed (log: $ref/javac.log)"
fi
printf 'Main-Class: io.riddles.go.Go\nImplementation-Title: Riddles.io Go Engine\nImplementation-Version: %s\n' \
    "$engine_version" >"$ref/manifest.txt"
engine_jar=$ref/go-engine-$engine_version.jar
(cd "$classes" && jar cfm "$engine_jar" "$ref/manifest.txt" io org)
note "referee: $engine_jar"

engine_commit=""
if [ -n "$rev" ]; then
    engine_commit=$(git --git-dir="$(git_dir_of "$engine_dir")" rev-parse --short "$rev^{commit}")
elif [ -n "$engine_git" ]; then
    engine_commit=$(git -C "$engine_dir" describe --always --dirty 2>/dev/null || true)
fi

if [ "$build_only" = 1 ]; then
    echo "$engine_jar"
    exit 0
fi

# --- tengen -------------------------------------------------------------------
mkdir -p "$out/bin"
if [ -z "$tengen_bin" ]; then
    command -v cargo >/dev/null || die "cargo is not installed (or give --tengen BIN)"
    note "building tengen (cargo build --release)"
    (cd "$root" && cargo build --release --quiet)
    tengen_bin=${CARGO_TARGET_DIR:-$root/target}/release/tengen
fi
[ -x "$tengen_bin" ] || die "tengen binary '$tengen_bin' is missing or not executable"
# a copy, so that a rebuild during the run does not change the bot
cp "$tengen_bin" "$out/bin/tengen"
tengen=$out/bin/tengen
tengen_rev=$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)
tengen_sha=$(sha256sum "$tengen" | cut -d' ' -f1)

# the bot launcher: its stderr to a log file of its own, a seed for each seat
cat >"$out/bin/bot.sh" <<'EOF'
#!/bin/sh
# bot.sh LOG SEED COMMAND...: COMMAND's stderr to LOG, TENGEN_ARENA_SEED=SEED
log=$1
TENGEN_ARENA_SEED=$2
export TENGEN_ARENA_SEED
shift 2
exec "$@" 2>"$log"
EOF
chmod +x "$out/bin/bot.sh"

json_str() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }
cat >"$out/run.json" <<EOF
{"engine_version": $(json_str "$engine_version"), "rules": "$rules", "stray_output": $stray,
 "engine_source": $(json_str "$engine_dir"), "engine_rev": $(json_str "$engine_commit"),
 "javainterface_source": $(json_str "$ji_dir"), "javainterface_rev": $(json_str "${ji_rev:-work tree}"),
 "wrapper_jar": $(json_str "$(basename "$wrapper_jar")"),
 "tengen_rev": $(json_str "$tengen_rev"), "tengen_sha256": "$tengen_sha",
 "games_per_pairing": $games, "pairings": $(json_str "$pairings")}
EOF

# --- games ------------------------------------------------------------------
export RUST_LOG=${RUST_LOG:-info}
game_timeout=${RIDDLES_GAME_TIMEOUT:-900}
mkdir -p "$out/games"
n=0
failed=0
for pairing in ${pairings//,/ }; do
    for ((i = 1; i <= games; i++)); do
        n=$((n + 1))
        case $pairing in
        self)
            names=(tengen tengen)
            cmds=("$tengen" "$tengen")
            ;;
        random)
            if ((i % 2 == 1)); then
                names=(tengen random)
                cmds=("$tengen" "$tengen random-bot")
            else
                names=(random tengen)
                cmds=("$tengen random-bot" "$tengen")
            fi
            ;;
        esac
        gdir=$out/games/$(printf '%02d' "$n")-$pairing
        mkdir -p "$gdir"
        seed0=$((1000 * n + 1))
        seed1=$((1000 * n + 2))
        cat >"$gdir/wrapper-commands.json" <<EOF
{
  "wrapper": {
    "timebankMax": 10000,
    "timePerMove": 200,
    "maxTimeouts": 0,
    "resultFile": "$gdir/result.json",
    "debug": false
  },
  "match": {
    "bots": [{
      "command": "$out/bin/bot.sh $gdir/p0.log $seed0 ${cmds[0]}"
    },{
      "command": "$out/bin/bot.sh $gdir/p1.log $seed1 ${cmds[1]}"
    }],
    "engine": {
      "command": "java -jar $engine_jar"
    }
  }
}
EOF
        note "game $n: ${names[0]} (black) vs ${names[1]} (white) -> $gdir"
        start=$(date +%s.%N)
        status=0
        (cd "$gdir" && timeout -k 10 "$game_timeout" java -jar "$ref/match-wrapper.jar" \
            "$(cat wrapper-commands.json)" >wrapper.out 2>wrapper.err) || status=$?
        end=$(date +%s.%N)
        secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
        if command -v gzip >/dev/null; then gzip -f "$gdir/wrapper.out"; fi
        cat >"$gdir/meta.json" <<EOF
{"game": $n, "pairing": "$pairing", "names": ["${names[0]}", "${names[1]}"],
 "seeds": [$seed0, $seed1], "seconds": $secs, "wrapper_exit": $status}
EOF
        if [ ! -s "$gdir/result.json" ]; then
            failed=$((failed + 1))
            note "game $n: no result file (wrapper exit $status; see $gdir/wrapper.err)"
        fi
    done
done

echo
summary=0
python3 "$root/tools/riddles_summary.py" "$out" || summary=$?
echo
echo "output: $out"
if [ "$failed" -gt 0 ] || [ "$summary" -ne 0 ]; then
    exit 1
fi
