#!/usr/bin/env bash
# tools/teacher/setup.sh: sets up a CPU-only KataGo "teacher" for tools/teacher/label.py.
#
# usage: tools/teacher/setup.sh KATAGO_SRC_DIR [OUT_DIR]
#
#   KATAGO_SRC_DIR  a checkout of the GitHub repository lightvector/KataGo (the folder
#                   holding cpp/CMakeLists.txt), e.g.
#                       git clone https://github.com/lightvector/KataGo /path/to/KataGo
#                   Tested with v1.17.2.
#   OUT_DIR         where everything built goes (default: $TENGEN_TEACHER_DIR, else
#                   ~/.cache/tengen-teacher). Nothing is written to the tengen repository.
#
# Steps (each skipped when its output already exists, so re-running is cheap):
#   1. Debian packages cmake g++ libeigen3-dev libzip-dev zlib1g-dev (apt-get, needs root)
#   2. builds katago with the Eigen (CPU) backend for this machine's CPU (-march=native:
#      AVX-512 where the CPU has it: 4.43 positions a second here, against 3.61 with AVX2)
#        -> OUT_DIR/katago                       (build tree: OUT_DIR/build)
#   3. downloads the katrain wheel with pip (MIT; it ships a KataGo network) and extracts
#      katrain/models/b10c384h6nbttflrs.bin.gz  -> OUT_DIR/model.bin.gz
#   4. compiles a tiny LD_PRELOAD library that flushes denormal floats to zero (sets the
#      MXCSR FTZ and DAZ bits in a constructor); the Eigen backend is ~10x slower
#      without it, and the policy is the same  -> OUT_DIR/libftz.so
#   5. writes the analysis config              -> OUT_DIR/analysis.cfg
#      (1 analysis thread, 1 search thread, batch 1, maxVisits 1, logs to OUT_DIR/logs)
#      and OUT_DIR/teacher.json, which label.py reads (paths, rules, komi).
#   6. checks that the engine answers one query and prints how to run the labeller.
#
# The rules are sent with every query (KataGo's analysis engine takes them per query):
# area scoring, positional superko, suicide illegal, no button, komi 7.5: the rules
# tengen plays by (SGF RU "Tromp-Taylor, positional superko, no suicide").
set -euo pipefail

die() { echo "setup.sh: error: $*" >&2; exit 1; }
say() { echo "setup.sh: $*" >&2; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $0 KATAGO_SRC_DIR [OUT_DIR]"
SRC=$(cd "$1" 2>/dev/null && pwd) || die "no such directory: $1"
[ -f "$SRC/cpp/CMakeLists.txt" ] || die "$SRC does not look like a KataGo checkout (no cpp/CMakeLists.txt); get it from the GitHub repository lightvector/KataGo"
OUT=${2:-${TENGEN_TEACHER_DIR:-$HOME/.cache/tengen-teacher}}
mkdir -p "$OUT" "$OUT/logs" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
PYTHON=${PYTHON:-python3}
command -v "$PYTHON" >/dev/null || die "python3 not found (set PYTHON=...)"
HERE=$(cd "$(dirname "$0")" && pwd)
MODEL_IN_WHEEL=katrain/models/b10c384h6nbttflrs.bin.gz
KATRAIN_VERSION=${KATRAIN_VERSION:-1.20.0}

# 1. Debian packages ---------------------------------------------------------------
PKGS="cmake g++ libeigen3-dev libzip-dev zlib1g-dev"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  say "installing Debian packages:$missing"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -q >&2 || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing >&2 || die "apt-get install$missing failed"
else
  say "Debian packages present"
fi

# 2. katago (Eigen backend) ---------------------------------------------------------
if [ -x "$OUT/katago" ]; then
  say "katago already built: $OUT/katago"
else
  AVX2=""
  if grep -qw avx2 /proc/cpuinfo; then AVX2="-DUSE_AVX2=1"; say "CPU has AVX2"; else say "CPU has no AVX2: building without it"; fi
  say "configuring katago (build tree $OUT/build)"
  # The teacher runs where it is built, so it may use every vector unit of this CPU.
  cmake -S "$SRC/cpp" -B "$OUT/build" -DUSE_BACKEND=EIGEN $AVX2 -DNO_GIT_REVISION=1 \
        -DCMAKE_CXX_FLAGS=-march=native -DCMAKE_BUILD_TYPE=Release > "$OUT/logs/cmake.log" 2>&1 \
    || { tail -20 "$OUT/logs/cmake.log" >&2; die "cmake failed (log: $OUT/logs/cmake.log)"; }
  JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
  say "building katago with make -j$JOBS (takes several minutes; log: $OUT/logs/make.log)"
  start=$(date +%s)
  make -C "$OUT/build" -j"$JOBS" katago > "$OUT/logs/make.log" 2>&1 \
    || { tail -30 "$OUT/logs/make.log" >&2; die "make failed (log: $OUT/logs/make.log)"; }
  cp "$OUT/build/katago" "$OUT/katago.tmp" && mv "$OUT/katago.tmp" "$OUT/katago"
  say "built katago in $(( $(date +%s) - start )) s"
fi

# 3. network from the katrain wheel -------------------------------------------------
if [ -s "$OUT/model.bin.gz" ]; then
  say "network present: $OUT/model.bin.gz"
else
  mkdir -p "$OUT/wheel"
  if ! ls "$OUT"/wheel/katrain-*.whl >/dev/null 2>&1; then
    say "downloading the katrain $KATRAIN_VERSION wheel with pip (~100 MB)"
    "$PYTHON" -m pip download --no-deps "katrain==$KATRAIN_VERSION" -d "$OUT/wheel" >&2 \
      || die "pip download katrain failed"
  fi
  WHEEL=$(ls "$OUT"/wheel/katrain-*.whl | head -1)
  "$PYTHON" - "$WHEEL" "$MODEL_IN_WHEEL" "$OUT/model.bin.gz" "$OUT/katrain-LICENSE.txt" <<'EOF' || die "could not extract the network from the wheel"
import sys, zipfile, os, shutil
wheel, member, dest, lic = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    with z.open(member) as src, open(dest + ".tmp", "wb") as dst:
        shutil.copyfileobj(src, dst)
    for n in z.namelist():
        if n.endswith("LICENSE") and ".dist-info/" in n:
            with open(lic, "wb") as f:
                f.write(z.read(n))
os.replace(dest + ".tmp", dest)
EOF
  rm -f "$WHEEL"
  say "network extracted: $OUT/model.bin.gz"
fi

# 4. flush-to-zero preload library --------------------------------------------------
if [ -s "$OUT/libftz.so" ]; then
  say "FTZ preload library present: $OUT/libftz.so"
else
  cat > "$OUT/ftz.c" <<'EOF'
/* LD_PRELOAD this: sets MXCSR FTZ (bit 15) and DAZ (bit 6) before main() runs,
 * so denormal floats are flushed to zero. Threads created later inherit it. */
#include <xmmintrin.h>
__attribute__((constructor)) static void tengen_teacher_ftz(void) {
    _mm_setcsr(_mm_getcsr() | 0x8040);
}
EOF
  cc -O2 -shared -fPIC -o "$OUT/libftz.so.tmp" "$OUT/ftz.c" || die "compiling $OUT/ftz.c failed"
  mv "$OUT/libftz.so.tmp" "$OUT/libftz.so"
  say "built $OUT/libftz.so"
fi

# 5. analysis config and teacher.json -----------------------------------------------
cat > "$OUT/analysis.cfg.tmp" <<EOF
# KataGo analysis config for tengen's teacher labeller (written by tools/teacher/setup.sh).
# Raw network only: one visit per query. Rules and komi are sent with each query by
# label.py: area scoring, positional superko, suicide illegal, komi 7.5.
logFile = $OUT/logs/katago.log
logToStderr = false
logAllRequests = false
logAllResponses = false
logSearchInfo = false
reportAnalysisWinratesAs = BLACK
maxVisits = 1
numAnalysisThreads = 1
numSearchThreadsPerAnalysisThread = 1
nnMaxBatchSize = 1
nnCacheSizePowerOfTwo = 16
nnMutexPoolSizePowerOfTwo = 12
numEigenThreadsPerModel = 1
EOF
mv "$OUT/analysis.cfg.tmp" "$OUT/analysis.cfg"
"$PYTHON" - "$OUT" <<'EOF'
import json, os, sys
out = sys.argv[1]
cfg = {
    "katago": os.path.join(out, "katago"),
    "model": os.path.join(out, "model.bin.gz"),
    "config": os.path.join(out, "analysis.cfg"),
    "preload": os.path.join(out, "libftz.so"),
    "network": "b10c384h6nbttflrs (from the katrain wheel)",
    "rules": {"hasButton": False, "ko": "POSITIONAL", "scoring": "AREA", "suicide": False,
              "tax": "NONE", "whiteHandicapBonus": "0", "friendlyPassOk": False},
    "komi": 7.5,
}
with open(os.path.join(out, "teacher.json.tmp"), "w") as f:
    json.dump(cfg, f, indent=1)
os.replace(os.path.join(out, "teacher.json.tmp"), os.path.join(out, "teacher.json"))
EOF
say "wrote $OUT/analysis.cfg and $OUT/teacher.json"

# 6. smoke test ---------------------------------------------------------------------
say "checking the engine answers a query"
"$PYTHON" "$HERE/label.py" --teacher-dir "$OUT" --check >&2 || die "engine check failed (log: $OUT/logs/katago.log)"

cat <<EOF

KataGo teacher ready in $OUT.
Label the GNU Go games, then KataGo raw-policy self-play games, on one thread, in the
background (resumable: re-run the same command after a kill):

  cd $(cd "$HERE/../.." && pwd)
  nohup setsid python3 tools/teacher/label.py --teacher-dir $OUT \\
      --out data/teacher --selfplay 100000 --max-bytes 30e6 data/gnugo-games/*.sgf \\
      >> $OUT/logs/label.log 2>&1 < /dev/null &

Progress: tail -f $OUT/logs/label.log
EOF
