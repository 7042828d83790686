#!/usr/bin/env python3
"""Would the value head choose better among the search's own candidates?
A teacher (KataGo's raw network) judges the moves of NAME's games.

usage: tools/rerank_check.py --tengen BIN --katago CMD [--rival CMD] [--name NAME]
                             [--from A] [--upto B] [--every N] [--playouts P]
                             [--children C] [--net-file FILE] [--limit L]
                             [--worst W] [--dump FILE] [--set NAME=VALUE]...
                             GAME.sgf...

For each position of the games where NAME (default tengen) is to move,
after A, A + N, ... up to B moves (defaults 20, 10, 150):
  1. `BIN evaluate --children C --playouts P --net` (with each --set)
     searches it and gives its C most visited root moves (default 6,
     3000 playouts): each move's playouts and win rate, and the value
     head's win rate and lead after it;
  2. KataGo (CMD, a GTP command line, see ../shared/opponents/README.md)
     reads the position after each candidate with `kata-raw-nn 0`.
Each reader then picks one candidate: the search its most visited
(what the bot plays), the head its best win rate or lead, and mixes
that add ALPHA times the head's win rate, centred on the candidates'
mean, to the search's win rate (among the candidates with at least a
third of the most visited one's playouts); the row "teacher" is
KataGo's own raw policy's move, candidate or not, and the row "rival"
that of --rival (another KataGo, the opponent's net, say). The teacher
prices each pick: its win rate and lead after the pick, below those
after the best of all the moves it read. Printed per reader: the mean
cost in win rate and points, the share of picks costing more than
0.10, how often it picks the best, and the points its picks lose
against the teacher's own move with a 95 % interval (a yardstick that
does not depend on the candidates: runs with other --set or --children
on the same positions compare by it, tools/rerank_pair.py pairs their
dumps, and a --children 2 run reads the fewest moves); --worst W lists the W
positions where the search's pick cost the most points; --dump FILE writes every
reading, a JSON line a position. Standard library only.

Exit status: 2 on bad input, 1 when an engine fails.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lost_strings import COLUMNS, read_sgf  # noqa: E402
from trajectory import KataGo  # noqa: E402

MIXES = (0.25, 0.5, 1.0, 2.0)


def gtp_vertex(sgf, size=19):
    if sgf == "..":
        return "pass"
    x, y = ord(sgf[0]) - 97, ord(sgf[1]) - 97
    return f"{COLUMNS[x]}{size - y}"


def positions(paths, who, first, last, every):
    """(sgf, moves played as two SGF letters each, '..' a pass, colour to
    move) where `who` is to move."""
    out = []
    for path in paths:
        text = open(path, encoding="utf-8", errors="replace").read()
        name = lambda tag: (re.search(tag + r"\[([^\]]*)\]", text) or [None, ""])[1]
        pb, pw = name("PB"), name("PW")
        if who not in (pb, pw):
            continue
        try:
            size, played = read_sgf(path)
        except ValueError as e:
            print(f"rerank_check.py: {path}: {e}", file=sys.stderr)
            sys.exit(2)
        if size != 19:
            continue
        moves = [".." if p is None else chr(97 + p % size) + chr(97 + p // size)
                 for _, p in played]
        mine = 0 if pb == who else 1
        for k in range(first, min(last, len(moves) - 1) + 1):
            if k % 2 == mine and (k - first) % every < 2:
                out.append((path, moves[:k], "BW"[k % 2]))
    return out


def load(kata, sgf, k):
    """Sets `kata`'s board to the position after k moves of `sgf`."""
    if kata.ask(f"loadsgf {sgf} {k + 1}") is None:
        kata.dead("refused loadsgf")


def raw(kata):
    """KataGo's `kata-raw-nn 0` answer, or it stops."""
    answer = kata.ask("kata-raw-nn 0")
    if answer is None:
        kata.dead("answered no kata-raw-nn")
    return answer


def policy_move(kata):
    """The raw policy's likeliest point on the board as it stands (two SGF
    letters)."""
    answer = raw(kata)
    if "policy" not in answer:
        kata.dead("gave no policy")
    rows = answer[answer.index("policy") + 1:][:19]
    best = max(((float(v), x, y) for y, row in enumerate(rows)
                for x, v in enumerate(row.split()) if v != "NAN"), default=None)
    return None if best is None else chr(97 + best[1]) + chr(97 + best[2])


def after(kata, colour, move):
    """KataGo's (win rate, lead) for `colour` once it plays `move` on the
    board as it stands, which is left as it was."""
    if kata.ask(f"play {colour} {gtp_vertex(move)}") is None:
        return None
    fields = dict(line.split()[:2] for line in raw(kata) if len(line.split()) == 2)
    if kata.ask("undo") is None:
        kata.dead("refused undo")
    if "whiteWin" not in fields or "whiteLead" not in fields:
        kata.dead("gave no whiteWin and whiteLead")
    win, lead = float(fields["whiteWin"]), float(fields["whiteLead"])
    return (win, lead) if colour == "W" else (1.0 - win, -lead)


def search(tengen, lines, args):
    cmd = [tengen, "evaluate", "--children", str(args.children),
           "--playouts", str(args.playouts), "--net"]
    if args.net_file:
        cmd += ["--net-file", args.net_file]
    for assignment in args.set:
        cmd += ["--set", assignment]
    try:
        done = subprocess.run(cmd, input="".join(lines), capture_output=True,
                              text=True, check=False)
    except OSError as e:
        sys.exit(f"rerank_check.py: could not run {tengen}: {e}")
    if done.returncode != 0:
        sys.stderr.write(done.stderr[-2000:])
        sys.exit(f"rerank_check.py: {' '.join(cmd)} failed ({done.returncode})")
    out = []
    for line in done.stdout.splitlines():
        cands = []
        for tok in line.split():
            f = tok.split(":")
            if len(f) == 5:
                cands.append((f[0], int(f[1]), float(f[2]), float(f[3]), float(f[4])))
        out.append(cands)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tengen", required=True)
    ap.add_argument("--katago", required=True)
    ap.add_argument("--rival", metavar="CMD",
                    help="another KataGo GTP command line whose raw move is priced too")
    ap.add_argument("--name", default="tengen")
    ap.add_argument("--from", dest="first", type=int, default=20)
    ap.add_argument("--upto", type=int, default=150)
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--playouts", type=int, default=3000)
    ap.add_argument("--children", type=int, default=6)
    ap.add_argument("--net-file")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a search parameter for the search, as for tengen bot")
    ap.add_argument("--limit", type=int, default=0, help="at most this many positions")
    ap.add_argument("--dump", help="write each position's readings here, a JSON line each")
    ap.add_argument("--worst", type=int, default=0,
                    help="list the search's N costliest picks, in points")
    ap.add_argument("games", nargs="+")
    a = ap.parse_args()
    if a.every < 2 or a.children < 2 or a.playouts < 1:
        ap.error("--every and --children at least 2, --playouts at least 1")
    for g in a.games:
        if not os.path.isfile(g):
            ap.error(f"no such file: {g}")
    pos = positions(a.games, a.name, a.first, a.upto, a.every)
    if a.limit:
        pos = pos[:a.limit]
    if not pos:
        ap.error(f"no positions with {a.name} to move")
    print(f"{len(pos)} positions, searching ...", file=sys.stderr)
    cands = search(a.tengen, ["".join(m) + "\n" for _, m, _ in pos], a)
    kata = KataGo(a.katago)
    dump = open(a.dump, "w", encoding="utf-8") if a.dump else None
    readers = ["search", "head win", "head lead"] + [f"mix {x}" for x in MIXES]
    readers.append("teacher")
    rival = KataGo(a.rival) if a.rival else None
    if rival:
        readers.append("rival")
    cost = {r: [] for r in readers}
    among = []
    worst = []
    for n, ((sgf, moves, colour), cs) in enumerate(zip(pos, cands)):
        if not cs:  # the search's moves all have playouts
            continue
        path, k = os.path.abspath(sgf), len(moves)
        judge = {}  # move -> the teacher's (win rate, lead) after it

        def price(mv):
            if mv is not None and mv not in judge:
                judge[mv] = after(kata, colour, mv)
            return judge.get(mv)

        load(kata, path, k)
        own = policy_move(kata)
        other = None
        if rival:
            load(rival, path, k)
            other = policy_move(rival)
        judged = [price(c[0]) for c in cs]
        mine, theirs = price(own), price(other)
        if mine is None or (rival and theirs is None) or None in judged:
            continue
        best_w = max(j[0] for j in judge.values())
        best_l = max(j[1] for j in judge.values())
        among.append(own in [c[0] for c in cs])
        # mixes choose among the well-read candidates only: a win rate of
        # a few playouts says little
        read = [i for i, c in enumerate(cs) if 3 * c[1] >= cs[0][1]]
        mean_h = sum(cs[i][3] for i in read) / len(read)
        picks = {
            "search": 0,
            "head win": max(range(len(cs)), key=lambda i: cs[i][3]),
            "head lead": max(range(len(cs)), key=lambda i: cs[i][4]),
        }
        for x in MIXES:
            picks[f"mix {x}"] = max(read,
                                    key=lambda i: cs[i][2] + x * (cs[i][3] - mean_h))
        for r, i in picks.items():
            cost[r].append((best_w - judged[i][0], best_l - judged[i][1],
                            judged[i][0] == best_w, mine[1] - judged[i][1]))
        cost["teacher"].append((best_w - mine[0], best_l - mine[1], mine[0] == best_w, 0.0))
        if rival:
            cost["rival"].append((best_w - theirs[0], best_l - theirs[1], theirs[0] == best_w,
                                  mine[1] - theirs[1]))
        worst.append((best_l - judged[0][1], sgf, k, cs[0][0], own))
        if dump:
            dump.write(json.dumps({"sgf": sgf, "moves": k, "teacher_move": own,
                                   "teacher_after_it": mine, "rival_move": other,
                                   "teacher_after_rival": theirs, "candidates": [
                                       {"move": c[0], "playouts": c[1], "winrate": c[2],
                                        "head_win": c[3], "head_lead": c[4],
                                        "teacher_win": j[0], "teacher_lead": j[1]}
                                       for c, j in zip(cs, judged)]}) + "\n")
        if (n + 1) % 20 == 0:
            print(f"{n + 1} of {len(pos)}", file=sys.stderr)
    kata.close()
    if rival:
        rival.close()
    if dump:
        dump.close()
    n = len(cost["search"])
    print(f"{n} positions of {len(a.games)} games, {a.children} candidates, "
          f"{a.playouts} playouts; cost against the best move the teacher read "
          f"(its own move is a candidate in {sum(among)})")
    print(f"{'reader':<10} {'win rate':>9} {'points':>7} {'> 0.10':>7} {'best':>6} "
          f"{'vs teacher':>10} {'±':>5}")
    for r in readers:
        c = cost[r]
        w = sum(x[0] for x in c) / max(1, n)
        p = sum(x[1] for x in c) / max(1, n)
        big = sum(x[0] > 0.10 for x in c) / max(1, n)
        best = sum(x[2] for x in c) / max(1, n)
        # points below the teacher's own move: the same yardstick for any
        # candidates, so runs on the same positions compare
        below = [x[3] for x in c]
        mean = sum(below) / max(1, n)
        half = 1.96 * statistics.pstdev(below) / max(1, n) ** 0.5 if n > 1 else 0.0
        print(f"{r:<10} {w:9.4f} {p:7.2f} {big:7.1%} {best:6.1%} {mean:10.2f} {half:5.2f}")
    if a.worst:
        print(f"the search's {a.worst} costliest picks (points, game, moves before, "
              "its move, the teacher's):")
        for pts, sgf, k, mv, own in sorted(worst, reverse=True)[:a.worst]:
            print(f"  {pts:6.1f}  {sgf} {k}  {gtp_vertex(mv)}  {gtp_vertex(own)}")


if __name__ == "__main__":
    main()
