# Shared by tools/stress.sh and tools/hostile.sh (sourced, not run): how a
# hostile host is made. The caller sets `me` (its name for messages).

die() {
    echo "$me: $*" >&2
    exit 2
}

number() { # NAME VALUE: VALUE must be a non-negative integer
    case $2 in
    '' | *[!0-9]*) die "$1 must be a non-negative integer, not '$2'" ;;
    esac
}

secs() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }

# stall_loop ALIVE_PID PAUSE_MS STOP_MS COUNT_FILE TARGETS_FN [ARG]: while
# ALIVE_PID lives, waits ~PAUSE_MS (+-25 %), stops the processes
# `TARGETS_FN ARG` prints for STOP_MS (SIGSTOP ... SIGCONT), and writes the
# number of stalls so far to COUNT_FILE. Run it in the background; TERM
# resumes whatever it holds stopped.
stall_loop() {
    local alive=$1 pause_ms=$2 stop_ms=$3 count_file=$4 targets=$5 arg=${6:-} stopped="" n=0 wait_ms
    trap '[ -n "$stopped" ] && kill -CONT $stopped 2>/dev/null; exit 0' TERM INT
    while kill -0 "$alive" 2>/dev/null; do
        wait_ms=$((pause_ms * 3 / 4 + RANDOM % (pause_ms / 2 + 1)))
        sleep "$(secs "$wait_ms")"
        stopped=$("$targets" "$arg" | tr '\n' ' ')
        [ -n "${stopped// /}" ] || continue
        # shellcheck disable=SC2086
        kill -STOP $stopped 2>/dev/null || true
        sleep "$(secs "$stop_ms")"
        # shellcheck disable=SC2086
        kill -CONT $stopped 2>/dev/null || true
        stopped=""
        n=$((n + 1))
        echo "$n" >"$count_file"
    done
}

# start_burners K: K busy loops per core; their pids in `burner_pids`.
start_burners() {
    local i
    burner_pids=()
    for ((i = 0; i < $1 * $(nproc); i++)); do
        sh -c 'while :; do :; done' &
        burner_pids+=($!)
    done
}

stop_burners() {
    if [ ${#burner_pids[@]} -gt 0 ]; then
        kill "${burner_pids[@]}" 2>/dev/null || true
        wait "${burner_pids[@]}" 2>/dev/null || true
    fi
    burner_pids=()
}
