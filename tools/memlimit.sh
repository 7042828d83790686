#!/usr/bin/env bash
# tools/memlimit.sh MB -- CMD...: runs CMD in a memory cgroup of its own
# limited to MB megabytes, as `docker run -m MBM` limits the arena's
# compile and run sandbox (github riddlesio/docker-sandbox), and reports
# the cgroup's peak usage and whether the kernel killed a process for
# memory. Page cache counts toward the limit, as in docker, and is
# reclaimed under it: a build fits when it succeeds here.
#
# Needs root and a writable memory cgroup (v1 memory controller, or v2
# with the memory controller on in the parent). Exit: CMD's status, or
# 3 if no cgroup can be made. Prints one line on stderr:
#   memlimit: limit 200 MB, peak 187 MB, oom kills 0, exit 0
set -euo pipefail
die() { echo "memlimit: $*" >&2; exit 3; }
[ $# -ge 3 ] && [ "$2" = "--" ] || die "usage: $0 MB -- CMD..."
mb=$1; shift 2
[[ $mb =~ ^[0-9]+$ ]] && [ "$mb" -gt 0 ] || die "MB must be a positive number"
own=$(awk -F: '$2 == "memory" {print $3}' /proc/self/cgroup)
if [ -n "$own" ] && [ -d "/sys/fs/cgroup/memory$own" ]; then
    cg="/sys/fs/cgroup/memory$own/tengen-memlimit-$$"
    mkdir "$cg" 2>/dev/null || die "cannot make a cgroup under /sys/fs/cgroup/memory$own"
    echo $((mb * 1024 * 1024)) > "$cg/memory.limit_in_bytes"
    peak_file=memory.max_usage_in_bytes
    kills() { awk '$1 == "oom_kill" {print $2}' "$cg/memory.oom_control"; }
else
    own=$(awk -F: '$1 == "0" {print $3}' /proc/self/cgroup)
    base="/sys/fs/cgroup${own%/}"
    [ -f "$base/cgroup.controllers" ] && grep -qw memory "$base/cgroup.controllers" \
        || die "no writable memory cgroup here"
    cg="$base/tengen-memlimit-$$"
    mkdir "$cg" 2>/dev/null || die "cannot make a cgroup under $base"
    echo $((mb * 1024 * 1024)) > "$cg/memory.max"
    peak_file=memory.peak
    kills() { awk '$1 == "oom_kill" {print $2}' "$cg/memory.events"; }
fi
cleanup() { rmdir "$cg" 2>/dev/null || true; }
trap cleanup EXIT
set +e
(echo "$BASHPID" > "$cg/cgroup.procs" && exec "$@")
status=$?
set -e
peak=$(( $(cat "$cg/$peak_file" 2>/dev/null || echo 0) / 1024 / 1024 ))
echo "memlimit: limit $mb MB, peak $peak MB, oom kills $(kills), exit $status" >&2
exit "$status"
