#!/usr/bin/env bash
# tengen against GNU Go under gomill's ringmaster (a GTP match controller,
# Python 2.7): writes a playoff control file to
# matches/ringmaster-<UTC time>/tengen-gnugo.ctl, runs GAMES games on 19x19
# with komi 7.5 and colours alternating, then prints ringmaster's report.
#
# usage: tools/ringmaster.sh [GAMES] [tengen gtp options...]
#   GAMES          number of games (default 2)
#   options        passed to `tengen gtp` after --seconds, e.g. --set NAME=V
# environment:
#   TENGEN_SECONDS seconds a move for tengen (default 1); ringmaster sends
#                  no time_settings, so this is tengen's only clock
#   GNUGO_LEVEL    GNU Go's level, 1-10 (default 10)
#   SCORER         internal (default): gomill counts the final board as it
#                  stands (area, no dead-stone removal; what the arena
#                  does; GNU Go runs with --capture-all-dead so it removes
#                  dead stones before passing); players: both engines are
#                  asked `final_score` and a game they disagree on has no
#                  winner
#   PARALLEL       games at once (default 1; the machine has 2 cores)
#   PYTHON2        a Python 2.7 interpreter with gomill (default: the first
#                  of python2.7 on PATH and pyenv's 2.7 versions that
#                  imports gomill)
#   OUT            output folder (default matches/ringmaster-<UTC time>)
#
# The folder gets the control file, ringmaster's .log (engines' stderr
# included), .hist, .report and .status, and the games as SGF under
# tengen-gnugo.games/. Running the script again with OUT set to an existing
# folder resumes that competition (ringmaster keeps its state) up to GAMES.
#
# gomill 0.8.3 has no clean-up phase of its own (no kgs-genmove_cleanup,
# no final_status_list) and its internal scorer counts every stone as
# alive, so both engines clean up as they play: tengen through
# gtp_aliases={'genmove': 'kgs-genmove_cleanup'} (it does not pass while
# dead enemy stones stand; under area scoring that costs nothing), GNU Go
# through --capture-all-dead. Ringmaster sends no time_settings either.
#
# Install (Debian 12 has no python2 package; the machine's pyenv has
# 2.7.18):
#   "$(pyenv root)/versions/2.7.18/bin/python2.7" -m pip install gomill==0.8.3
#   apt-get install -y gnugo
set -euo pipefail

games=${1:-2}
if [ $# -gt 0 ]; then shift; fi
case $games in
'' | *[!0-9]* | 0)
    echo "ringmaster.sh: GAMES must be a positive number, not '$games'" >&2
    exit 2
    ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${TENGEN_SECONDS:-1}
level=${GNUGO_LEVEL:-10}
scorer=${SCORER:-internal}
parallel=${PARALLEL:-1}
case $scorer in internal | players) ;; *)
    echo "ringmaster.sh: SCORER must be internal or players, not '$scorer'" >&2
    exit 2
    ;;
esac
case $level in [1-9] | 10) ;; *)
    echo "ringmaster.sh: GNUGO_LEVEL must be 1-10, not '$level'" >&2
    exit 2
    ;;
esac

tengen=$root/target/release/tengen
gnugo=/usr/games/gnugo
if [ ! -x "$tengen" ]; then
    echo "ringmaster.sh: $tengen is missing: cargo build --release" >&2
    exit 1
fi
if [ ! -x "$gnugo" ]; then
    echo "ringmaster.sh: $gnugo is missing: apt-get install -y gnugo" >&2
    exit 1
fi

# A Python 2.7 that has gomill.
has_gomill() { "$1" -c 'import sys, gomill; sys.exit(sys.version_info[:2] != (2, 7))' 2>/dev/null; }
py2=
candidates=()
[ -n "${PYTHON2:-}" ] && candidates+=("$PYTHON2")
command -v python2.7 >/dev/null && candidates+=("$(command -v python2.7)")
if command -v pyenv >/dev/null; then
    for p in "$(pyenv root)"/versions/2.7*/bin/python2.7; do
        [ -x "$p" ] && candidates+=("$p")
    done
fi
for p in ${candidates[@]+"${candidates[@]}"}; do
    if has_gomill "$p"; then
        py2=$p
        break
    fi
done
if [ -z "$py2" ]; then
    echo "ringmaster.sh: no Python 2.7 with gomill (tried: ${candidates[*]:-none});" \
        "install it with: \"\$(pyenv root)/versions/2.7.18/bin/python2.7\" -m pip install gomill==0.8.3" >&2
    exit 1
fi
ringmaster() { "$py2" -c 'from gomill import ringmaster_command_line as r; r.main()' "$@"; }

out=${OUT:-$root/matches/ringmaster-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$out"
ctl=$out/tengen-gnugo.ctl

# Python string literals for the control file.
pyq() { "$py2" -c 'import sys; print repr(sys.argv[1])' "$1"; }
tengen_cmd=("$tengen" gtp --seconds "$seconds" "$@")
tengen_list=
for w in "${tengen_cmd[@]}"; do tengen_list+="$(pyq "$w"), "; done

if [ "$scorer" = players ]; then
    # GNU Go's final_score guesses dead stones; tengen's counts the board.
    reliable=True
else
    reliable=False
fi

cat >"$ctl" <<EOF
# Written by tools/ringmaster.sh on $(date -u '+%Y-%m-%d %H:%M:%S') UTC.
competition_type = 'playoff'
description = """tengen (--seconds $seconds) against GNU Go level $level, 19x19, komi 7.5"""

record_games = True
stderr_to_log = True

players = {
    'tengen': Player(
        [$tengen_list],
        cwd=$(pyq "$root"),
        is_reliable_scorer=$reliable,
        sgf_player_name_from_gtp=True,
        gtp_aliases={'genmove': 'kgs-genmove_cleanup'},
        ),
    'gnugo': Player(
        [$(pyq "$gnugo"), '--mode', 'gtp', '--level', '$level',
         '--chinese-rules', '--capture-all-dead'],
        is_reliable_scorer=$reliable,
        ),
    }

board_size = 19
komi = 7.5
scorer = '$scorer'
move_limit = 1000

matchups = [
    Matchup('tengen', 'gnugo', alternating=True, number_of_games=$games),
    ]
EOF

echo "ringmaster.sh: $ctl ($games games, $py2)" >&2
status=0
ringmaster "$ctl" run --parallel "$parallel" || status=$?
echo
if [ -e "$out/tengen-gnugo.report" ]; then
    cat "$out/tengen-gnugo.report"
else
    ringmaster "$ctl" report || true
    [ -e "$out/tengen-gnugo.report" ] && cat "$out/tengen-gnugo.report"
fi
exit "$status"
