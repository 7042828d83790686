#!/usr/bin/env python3
"""Where a bot loses: GNU Go's score estimate (or KataGo's raw network's
lead) along each game of `tengen arena` match folders.

usage: tools/trajectory.py MATCH_DIR [MATCH_DIR ...] [--name NAME] [--every N]
                           [--upto M] [--games LIST] [--gnugo PATH | --katago CMD]
                           [--jobs J]

For each game of MATCH_DIR/games.jsonl played by NAME (default tengen) and
not ended by a crash (or the games in LIST, a comma list of game numbers,
with one folder only), in every folder given (the halves of a match run on
two cores, say; each game is then named FOLDER:NUMBER),
asks GNU Go for its score estimate around move k, for k = N, 2N, ... up to
min(M, moves in the game) (defaults N = 20, M = 200): the mean of its
estimates of the positions after k - 1 and after k moves, each from

    gnugo --chinese-rules --score estimate -l GAME.sgf -L k+1

(GAME.sgf: the game alone, copied out of the folder's games.sgf, found
there by its number; or the file its games.jsonl line names.)

GNU Go's -L (--until) means "stop loading just before move L is played", so
-L k+1 is the position after k moves (passes count as moves; checked with
--printsgf: -L 1 is the empty board, -L 2 holds the first stone). Each call
has a 60 s timeout; a call that hangs, crashes or prints no score gives a
missing value (shown as ?) and a note on stderr.

Why two positions: GNU Go's estimate favours the side that has just moved
by roughly 10-20 points (game 1 of a sample match: after 39 moves B+11.1,
after 40 W+7.2, after 41 B+8.0). One position per sample would make every
value lean toward one colour; the mean of two consecutive ones cancels it.

Prints one line per game with NAME's estimated margin (positive = NAME
ahead, whichever colour NAME played), e.g.
    game 7 (tengen black, lost W+234.5 round_limit): 20:+3.5 40:-10.1 ...
then, for each move number, the games with a value and the mean and median
margin with NAME as black, as white and in all, and the first move number
at which the estimate falls below -20 in each game (median over games):
"games are lost by about move X".

GNU Go: PATH, else `gnugo` on PATH, else /usr/games/gnugo. Each estimate
takes about 2 s (two GNU Go calls); --jobs J (default 1) runs J estimates
at a time. Progress goes to stderr.

--katago CMD instead asks a KataGo GTP engine (CMD, a command line: see
../shared/opponents/README.md) for its raw network's lead after k moves
(`loadsgf SGF k+1`, then `kata-raw-nn 0`, its `whiteLead`): one position,
as the network's lead does not lean toward the side that has just moved.
One engine answers, one position at a time (--jobs is ignored); it needs
no more than a few ms a position with a small net.

Exit status: 2 on bad input (no folder or games.jsonl, unknown game number,
--every < 1, ...), 1 when GNU Go is not found.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import sgf_games

PROG = "trajectory.py"
TIMEOUT_S = 60
LOST_BELOW = -20.0
SCORE_RE = re.compile(r"^(Black|White) wins by ([0-9]+(?:\.[0-9]+)?) points?\b", re.I)
JIGO_RE = re.compile(r"^(jigo|draw)\b|^(Black|White) wins by 0(\.0+)? points?\b", re.I)


def note(msg):
    print(f"{PROG}: {msg}", file=sys.stderr, flush=True)


def bad_input(msg):
    note(msg)
    sys.exit(2)


def find_gnugo(path):
    if path:
        found = shutil.which(path) if os.sep not in path else (
            path if os.path.isfile(path) and os.access(path, os.X_OK) else None)
        if not found:
            sys.exit(f"{PROG}: GNU Go not found at {path!r}")
        return found
    found = shutil.which("gnugo")
    if found:
        return found
    if os.path.isfile("/usr/games/gnugo") and os.access("/usr/games/gnugo", os.X_OK):
        return "/usr/games/gnugo"
    sys.exit(f"{PROG}: GNU Go not found (no gnugo on PATH, no /usr/games/gnugo); give --gnugo PATH")


def estimate(gnugo, sgf, k):
    """Black's margin around move k: the mean of GNU Go's estimates after
    k - 1 and after k moves, since each leans toward the side that has just
    moved; or (None, why)."""
    before, why = estimate_one(gnugo, sgf, k - 1)
    if before is None:
        return None, why
    after, why = estimate_one(gnugo, sgf, k)
    if after is None:
        return None, why
    return (before + after) / 2, None


def estimate_one(gnugo, sgf, k):
    """Black's margin after k moves by GNU Go's estimate, or (None, why)."""
    cmd = [gnugo, "--chinese-rules", "--score", "estimate", "-l", sgf, "-L", str(k + 1)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {TIMEOUT_S} s"
    except OSError as e:
        return None, f"could not run: {e}"
    if p.returncode < 0:
        return None, f"killed by signal {-p.returncode}"
    if p.returncode != 0:
        return None, f"exit status {p.returncode}"
    lines = [l.strip() for l in p.stdout.splitlines() if l.strip()]
    last = lines[-1] if lines else ""
    m = SCORE_RE.match(last)
    if m:
        v = float(m.group(2))
        return (v if m.group(1).lower() == "black" else -v), None
    if JIGO_RE.match(last):
        return 0.0, None
    return None, f"no score in the output (last line {last!r})"


class KataGo:
    """One KataGo GTP process, asked for its raw network's lead."""

    def __init__(self, cmd):
        import shlex
        try:
            self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                      text=True)
        except OSError as e:
            sys.exit(f"{PROG}: could not run KataGo ({cmd!r}): {e}")
        self.cmd = cmd
        if self.ask("kata-raw-nn 0") is None:
            self.dead("answers no kata-raw-nn")

    def dead(self, why):
        code = self.p.poll()
        sys.exit(f"{PROG}: KataGo ({self.cmd!r}) {why}"
                 + (f" (exit status {code})" if code is not None else ""))

    def ask(self, command):
        """The answer's lines (the first without its '= '), or None on an
        error answer or a dead engine."""
        try:
            self.p.stdin.write(command + "\n")
            self.p.stdin.flush()
        except OSError:
            return None
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                return None
            line = line.rstrip("\n")
            if not lines and not line.strip():
                continue
            if not line.strip():
                break
            lines.append(line)
        if not lines or not lines[0].startswith("="):
            return None
        lines[0] = lines[0][1:].strip()
        return lines

    def estimate(self, sgf, k):
        """Black's lead after k moves by the raw network, or (None, why)."""
        if self.ask(f"loadsgf {sgf} {k + 1}") is None:
            if self.p.poll() is not None:
                self.dead("stopped")
            return None, "refused loadsgf"
        answer = self.ask("kata-raw-nn 0")
        if answer is None:
            if self.p.poll() is not None:
                self.dead("stopped")
            return None, "no answer to kata-raw-nn"
        for line in answer:
            f = line.split()
            if len(f) == 2 and f[0] == "whiteLead":
                return -float(f[1]), None
        return None, "no whiteLead in kata-raw-nn's answer"

    def close(self):
        try:
            self.ask("quit")
            self.p.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()


def fmt(v):
    return "?" if v is None else f"{v:+.1f}"


def stats_cells(values):
    if not values:
        return f"{0:>3} {'-':>7} {'-':>7}"
    return f"{len(values):>3} {statistics.mean(values):>+7.1f} {statistics.median(values):>+7.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("match_dirs", nargs="+", metavar="MATCH_DIR")
    ap.add_argument("--name", default="tengen")
    ap.add_argument("--every", type=int, default=20, metavar="N")
    ap.add_argument("--upto", type=int, default=200, metavar="M")
    ap.add_argument("--games", metavar="LIST")
    ap.add_argument("--gnugo", metavar="PATH")
    ap.add_argument("--katago", metavar="CMD")
    ap.add_argument("--jobs", type=int, default=1, metavar="J")
    a = ap.parse_args()

    if a.every < 1:
        bad_input(f"--every must be at least 1 (got {a.every})")
    if a.upto < 1:
        bad_input(f"--upto must be at least 1 (got {a.upto})")
    if a.jobs < 1:
        bad_input(f"--jobs must be at least 1 (got {a.jobs})")
    if a.games and len(a.match_dirs) > 1:
        bad_input("--games picks games of one folder: give one MATCH_DIR with it")
    if len(set(map(os.path.realpath, a.match_dirs))) < len(a.match_dirs):
        bad_input("a folder is given twice")

    # game key -> record; a key is the game number, or FOLDER:NUMBER when
    # there are several folders (FOLDER the last part of the path, or the
    # whole path when two folders end alike). where[key] = (folder, number)
    labels = [os.path.basename(os.path.normpath(d)) for d in a.match_dirs]
    if len(set(labels)) < len(labels):
        labels = [os.path.normpath(d) for d in a.match_dirs]
    records, where = {}, {}
    for d, label in zip(a.match_dirs, labels):
        if not os.path.isdir(d):
            bad_input(f"no folder {d}")
        jsonl = os.path.join(d, "games.jsonl")
        if not os.path.isfile(jsonl):
            bad_input(f"no games.jsonl in {d}")
        with open(jsonl) as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    g = json.loads(line)
                    if "match" in g:  # the match's facts, not a game
                        continue
                    num = int(g["game"])
                except (ValueError, KeyError, TypeError) as e:
                    bad_input(f"{jsonl}:{n}: not a game record ({e})")
                key = num if len(a.match_dirs) == 1 else f"{label}:{num}"
                records[key] = g
                where[key] = (d, num)

    if a.games:
        wanted = []
        for tok in a.games.split(","):
            tok = tok.strip()
            if not tok:
                continue
            try:
                num = int(tok)
            except ValueError:
                bad_input(f"--games: {tok!r} is not a game number")
            if num not in records:
                bad_input(f"game {num} is not in {os.path.join(a.match_dirs[0], 'games.jsonl')}")
            if a.name not in (records[num].get("black"), records[num].get("white")):
                bad_input(f"{a.name!r} did not play game {num}")
            if num not in wanted:
                wanted.append(num)
        if not wanted:
            bad_input("--games lists no game")
    else:
        wanted = [key for key in sorted(records, key=lambda k: where[k])
                  if a.name in (records[key].get("black"), records[key].get("white"))
                  and records[key].get("reason") != "crash"]
        if not wanted:
            bad_input(f"no game of {a.name!r} not ended by a crash in {', '.join(a.match_dirs)}")

    if a.gnugo and a.katago:
        bad_input("--gnugo and --katago: one estimator")
    if a.katago:
        katago = KataGo(a.katago)
        a.jobs = 1
        judge, judge_name = katago.estimate, "KataGo's raw network"
    else:
        gnugo = find_gnugo(a.gnugo)
        judge, judge_name = (lambda sgf, k: estimate(gnugo, sgf, k)), "GNU Go"

    # Plan: (game, [k...]) with the SGF checked up front. GNU Go and
    # KataGo load the first game of a file, so a game of a collection is
    # copied alone into a scratch folder (removed at exit).
    plan = []
    scratch = tempfile.TemporaryDirectory(prefix="trajectory-")
    for num in wanted:
        g = records[num]
        folder, number = where[num]
        try:
            sgf, text = sgf_games.match_game(folder, g)
        except OSError as e:
            note(f"game {num}: no SGF record ({e.strerror}: {e.filename}), skipped")
            continue
        except ValueError as e:
            bad_input(f"game {num}: {e}")
        if "#" in sgf:
            sgf = os.path.join(scratch.name, f"{len(plan) + 1:04d}-game-{number:04d}.sgf")
            with open(sgf, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        moves = int(g.get("moves") or 0)
        ks = list(range(a.every, min(a.upto, moves) + 1, a.every))
        plan.append((num, os.path.abspath(sgf), ks))
    if not plan:
        bad_input("no game left to look at")

    total = sum(len(ks) for _, _, ks in plan)
    note(f"{len(plan)} games, {total} estimates by {judge_name} ({a.jobs} at a time)")

    results = {}  # game -> {k: NAME's margin or None}
    colour_of = {}  # game -> NAME's colour
    t_all = time.monotonic()
    ex = concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs)
    try:
        futures = {num: [(k, ex.submit(judge, sgf, k)) for k in ks] for num, sgf, ks in plan}
        for i, (num, sgf, ks) in enumerate(plan, 1):
            g = records[num]
            colour = "black" if g.get("black") == a.name else "white"
            colour_of[num] = colour
            sign = 1 if colour == "black" else -1
            t0 = time.monotonic()
            vals = {}
            for k, fut in futures[num]:
                v, why = fut.result()
                if v is None:
                    note(f"game {num} move {k}: {judge_name}: {why}; value missing")
                    vals[k] = None
                else:
                    vals[k] = sign * v + 0.0  # no -0.0
            results[num] = vals
            missing = sum(v is None for v in vals.values())
            note(f"game {num} done ({i}/{len(plan)}): {len(ks)} estimates"
                 + (f", {missing} missing" if missing else "")
                 + f", {time.monotonic() - t0:.1f} s")
            winner = g.get("winner")
            if winner == a.name:
                outcome = "won"
            elif winner:
                outcome = "lost"
            else:
                outcome = "no winner"
            head = f"game {num} ({a.name} {colour}, {outcome} {g.get('result', '?')} {g.get('reason', '?')})"
            body = " ".join(f"{k}:{fmt(vals[k])}" for k in ks)
            print(f"{head}: {body}" if body else f"{head}: (no move number to look at, {g.get('moves')} moves)",
                  flush=True)
    except KeyboardInterrupt:
        ex.shutdown(wait=False, cancel_futures=True)
        note("interrupted")
        sys.exit(130)
    ex.shutdown()
    if a.katago:
        katago.close()
    note(f"all done in {time.monotonic() - t_all:.1f} s")

    # Summary per move number.
    all_ks = sorted({k for vals in results.values() for k in vals})
    print()
    print(f"{a.name}'s estimated margin by {judge_name} (positive = {a.name} ahead)")
    print(f"{'move':>5} | {'as black':^19} | {'as white':^19} | {'all':^19}")
    print(f"{'':>5} | {'n':>3} {'mean':>7} {'median':>7} | {'n':>3} {'mean':>7} {'median':>7}"
          f" | {'n':>3} {'mean':>7} {'median':>7}")
    for k in all_ks:
        cells = []
        for want in ("black", "white", None):
            vs = [vals[k] for num, vals in results.items()
                  if vals.get(k) is not None and (want is None or colour_of[num] == want)]
            cells.append(stats_cells(vs))
        print(f"{k:>5} | " + " | ".join(cells))

    # First move number below LOST_BELOW, per game.
    print()
    firsts = {}
    for num, vals in results.items():
        for k in sorted(vals):
            if vals[k] is not None and vals[k] < LOST_BELOW:
                firsts[num] = k
                break
    never = [num for num in results if num not in firsts]
    if firsts:
        print(f"first move at which {a.name}'s estimate falls below {LOST_BELOW:g}: "
              + " ".join(f"game {num}:{k}" for num, k in sorted(firsts.items(), key=lambda kv: where[kv[0]])))
        for want in ("black", "white"):
            ks = [k for num, k in firsts.items() if colour_of[num] == want]
            if ks:
                print(f"  as {want}: median move {statistics.median(ks):g} over {len(ks)} games")
        print(f"games are lost by about move {statistics.median(firsts.values()):g}"
              f" (median over the {len(firsts)} of {len(results)} games that fell below {LOST_BELOW:g};"
              f" {len(never)} never did up to move {max(all_ks) if all_ks else 0})")
    else:
        print(f"no game's estimate fell below {LOST_BELOW:g} up to move {max(all_ks) if all_ks else 0}")


if __name__ == "__main__":
    main()
