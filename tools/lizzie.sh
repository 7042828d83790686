#!/usr/bin/env bash
# Lizzie (the Leela Zero analysis GUI) driving a GTP engine under Xvfb, with
# a screenshot: starts Xvfb on a free display, writes a Lizzie config in a
# fresh temporary home pointing at ENGINE (through a logging shim that
# records every line Lizzie sends and every line the engine answers),
# starts Lizzie, waits, takes a PNG screenshot of the whole screen, then
# kills Lizzie, the engine and Xvfb.
#
# usage: tools/lizzie.sh [options] [ENGINE COMMAND...]
#   ENGINE COMMAND   the engine's command line, run by bash from the
#                    repository root (default: target/release/tengen gtp);
#                    one quoted string or several words
# options:
#   -w SECONDS       wait this long after Lizzie starts before the
#                    screenshot (default 20)
#   -o FILE.png      screenshot path (default matches/lizzie-<UTC time>.png)
#   -l FILE          GTP transcript path (default: the screenshot's path
#                    with .gtp.log instead of .png); lines are
#                    "<seconds since start> > <command>" (Lizzie to engine)
#                    and "<seconds> < <answer>" (engine to Lizzie)
#   -s WxH           screen size (default 1600x1000)
#   -d SECONDS       from this many seconds after start until the
#                    screenshot, click OK on Lizzie's message boxes (windows
#                    named "Message") every 2 s, e.g. its "Lizzie requires
#                    version 0.15 or later of Leela Zero" box for an engine
#                    whose `version` has a minor number below 15, which
#                    holds back everything after `version` until it is
#                    closed; needs xdotool (key presses do not reach the
#                    box: Xvfb has no window manager to give it the focus)
#   -c KEY=JSON      extra setting in the config's "leelaz" object, e.g.
#                    -c analyze-update-interval-centisec=50; repeatable
#   -k               keep the temporary home (config, Lizzie's output)
#   -h               this help
#
# Lizzie is Debian's liblizzie-java 0.7.4 (/usr/share/java/lizzie.jar).
# Debian's build reads $user.home/.config/leela-zero/lizzie-config.txt
# (JSON; the engine is "leelaz" -> "engine-command") and writes
# $user.home/.local/share/leela-zero/lizzie-persist, so the script runs
# java with -Duser.home=<temp dir>. Lizzie runs the engine command with
# the engine's stderr merged into stdout and splits it on spaces (quoting
# words that contain spaces), so the command it is given is a shim script
# in the temp dir that discards the engine's stderr.
#
# Needs: java, Xvfb (xvfb), xwd (x11-apps), xwdtopnm and pnmtopng (netpbm)
# or ImageMagick's /usr/bin/convert, Lizzie (liblizzie-java), and xdotool
# for -d:
#   apt-get install -y liblizzie-java xvfb x11-apps netpbm xdotool
set -euo pipefail

die() {
    echo "lizzie.sh: $*" >&2
    exit 1
}
usage() {
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
}

root=$(cd "$(dirname "$0")/.." && pwd)
wait_s=20
out=
log=
screen=1600x1000
dismiss=
extra=()
keep=0
while getopts 'w:o:l:s:d:c:kh' opt; do
    case $opt in
    w) wait_s=$OPTARG ;;
    o) out=$OPTARG ;;
    l) log=$OPTARG ;;
    s) screen=$OPTARG ;;
    d) dismiss=$OPTARG ;;
    c) extra+=("$OPTARG") ;;
    k) keep=1 ;;
    h)
        usage
        exit 0
        ;;
    *)
        usage >&2
        exit 2
        ;;
    esac
done
shift $((OPTIND - 1))
engine=${*:-target/release/tengen gtp}

case $wait_s in '' | *[!0-9.]*) die "-w needs a number of seconds, not '$wait_s'" ;; esac
case $screen in *[0-9]x[0-9]*) ;; *) die "-s needs WIDTHxHEIGHT, not '$screen'" ;; esac

jar=/usr/share/java/lizzie.jar
[ -r "$jar" ] || die "Lizzie is missing ($jar): apt-get install -y liblizzie-java"
for tool in java Xvfb xwd; do
    command -v "$tool" >/dev/null ||
        die "$tool is missing: apt-get install -y liblizzie-java xvfb x11-apps"
done
if command -v xwdtopnm >/dev/null && command -v pnmtopng >/dev/null; then
    to_png() { xwdtopnm 2>/dev/null | pnmtopng; }
elif [ -x /usr/bin/convert ] && /usr/bin/convert -version 2>/dev/null | grep -q ImageMagick; then
    to_png() { /usr/bin/convert xwd:- png:-; }
else
    die "no XWD to PNG converter: apt-get install -y netpbm (or imagemagick)"
fi
if [ -n "$dismiss" ]; then
    command -v xdotool >/dev/null || die "-d needs xdotool: apt-get install -y xdotool"
    case $dismiss in *[!0-9.]*) die "-d needs a number of seconds, not '$dismiss'" ;; esac
fi
first=${engine%% *}
case $first in
*/*) [ -x "$root/$first" ] || [ -x "$first" ] || die "engine '$first' is not an executable file (from $root)" ;;
*) command -v "$first" >/dev/null || die "engine '$first' is not on PATH" ;;
esac

stamp=$(date -u +%Y%m%d-%H%M%S)
[ -n "$out" ] || out=$root/matches/lizzie-$stamp.png
[ -n "$log" ] || log=${out%.png}.gtp.log
mkdir -p "$(dirname "$out")" "$(dirname "$log")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
log=$(cd "$(dirname "$log")" && pwd)/$(basename "$log")
: >"$log"

tmp=$(mktemp -d /tmp/lizzie.XXXXXX)
xvfb_pid=
lizzie_pid=
helpers=()
cleanup() {
    for h in ${helpers[@]+"${helpers[@]}"}; do kill "$h" 2>/dev/null || true; done
    # Lizzie runs in its own session (setsid), so its process group holds
    # Lizzie, the shim and the engine.
    if [ -n "$lizzie_pid" ]; then
        kill -TERM -- "-$lizzie_pid" 2>/dev/null || true
        sleep 1
        kill -KILL -- "-$lizzie_pid" 2>/dev/null || true
    fi
    if [ -n "$xvfb_pid" ]; then
        kill "$xvfb_pid" 2>/dev/null || true
        wait "$xvfb_pid" 2>/dev/null || true
    fi
    if [ "$keep" = 1 ]; then
        echo "lizzie.sh: kept $tmp" >&2
    else
        rm -rf "$tmp"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A free display: no lock file and no socket.
display=
for n in $(seq 90 199); do
    if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then
        display=$n
        break
    fi
done
[ -n "$display" ] || die "no free X display in :90-:199"
Xvfb ":$display" -screen 0 "${screen}x24" -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 50); do
    [ -e "/tmp/.X11-unix/X$display" ] && break
    kill -0 "$xvfb_pid" 2>/dev/null || die "Xvfb :$display did not start: $(cat "$tmp/xvfb.log")"
    sleep 0.1
done
[ -e "/tmp/.X11-unix/X$display" ] || die "Xvfb :$display did not start in 5 s"
export DISPLAY=:$display

# The shim: Lizzie's only engine word. It runs ENGINE from the repository
# root, drops its stderr, and logs both directions with a time stamp.
shim=$tmp/engine-shim.sh
cat >"$shim" <<EOF
#!/usr/bin/env bash
log=$(printf %q "$log")
start=\${EPOCHREALTIME//[!0-9]/}
stamp() {
    local line us
    while IFS= read -r line || [ -n "\$line" ]; do
        us=\$(( \${EPOCHREALTIME//[!0-9]/} - start ))
        printf '%d.%03d %s %s\n' \$((us / 1000000)) \$((us / 1000 % 1000)) "\$1" "\${line%\$'\r'}" >>"\$log"
        printf '%s\n' "\$line"
    done
}
cd $(printf %q "$root")
stamp '>' | { $engine; } 2>/dev/null | stamp '<'
EOF
chmod +x "$shim"

# Config: Lizzie merges its defaults into whatever keys are missing.
home=$tmp/home
mkdir -p "$home/.config/leela-zero" "$home/.local/share/leela-zero"
leelaz_extra=
for kv in ${extra[@]+"${extra[@]}"}; do
    case $kv in *=*) ;; *) die "-c needs KEY=JSON, not '$kv'" ;; esac
    leelaz_extra+=",
    \"${kv%%=*}\": ${kv#*=}"
done
cat >"$home/.config/leela-zero/lizzie-config.txt" <<EOF
{
  "leelaz": {
    "engine-command": "$shim",
    "engine-start-location": ".",
    "print-comms": false,
    "analyze-update-interval-centisec": 10,
    "max-analyze-time-minutes": 99999$leelaz_extra
  },
  "ui": {
    "confirm-exit": false,
    "resume-previous-game": false,
    "autosave-interval-seconds": -1,
    "board-size": 19
  }
}
EOF

# Lizzie runs the engine in its own working directory; the shim cds.
(cd "$tmp" && exec setsid java -Duser.home="$home" -jar "$jar" \
    >"$tmp/lizzie.out" 2>&1) &
lizzie_pid=$!
echo "lizzie.sh: Lizzie pid $lizzie_pid on :$display, engine: $engine" >&2

# A JOptionPane message box: its OK button is centred, 27 px above its
# bottom edge. A box may be mapped before it is painted and clickable,
# hence the retries.
message_boxes() {
    local w X Y WIDTH HEIGHT SCREEN WINDOW
    for w in $(xdotool search --name '^Message$' 2>/dev/null); do
        eval "$(xdotool getwindowgeometry --shell "$w" 2>/dev/null)" || continue
        [ "${WIDTH:-0}" -gt 50 ] && echo "$w $X $Y $WIDTH $HEIGHT"
    done
}
click_ok() {
    local w x y width height
    message_boxes | while read -r w x y width height; do
        echo "lizzie.sh: clicking OK on message box $w" >&2
        xdotool mousemove $((x + width / 2)) $((y + height - 27)) click 1 || true
    done
}
if [ -n "$dismiss" ]; then
    (
        sleep "$dismiss"
        while :; do
            click_ok
            sleep 2
        done
    ) &
    helpers+=($!)
fi
sleep "$wait_s"
kill -0 "$lizzie_pid" 2>/dev/null ||
    echo "lizzie.sh: Lizzie exited early; its output:" "$(cat "$tmp/lizzie.out")" >&2

for h in ${helpers[@]+"${helpers[@]}"}; do kill "$h" 2>/dev/null || true; done
xwd -root -silent -display ":$display" | to_png >"$out.tmp"
mv "$out.tmp" "$out"
if command -v xdotool >/dev/null && [ -n "$(message_boxes)" ]; then
    echo "lizzie.sh: a message box is open in the screenshot (-d closes them)" >&2
fi
echo "lizzie.sh: Lizzie's output:" >&2
sed 's/^/  /' "$tmp/lizzie.out" >&2
echo "lizzie.sh: screenshot $out" >&2
echo "lizzie.sh: transcript $log ($(wc -l <"$log") lines)" >&2
