#!/usr/bin/env python3
"""Summarise the games tools/riddles.sh played under the Riddles.io referee.

usage: tools/riddles_summary.py OUT_DIR

OUT_DIR is the output folder of tools/riddles.sh: run.json (the referee and
the bots) and games/*/ with meta.json, result.json (the match wrapper's
result file), p0.log and p1.log (each bot's stderr). Prints a table of the
games and one of the bots, lists the refused moves, and writes the same text
to OUT_DIR/summary.txt and the numbers to OUT_DIR/summary.json.

What is counted, and where it comes from:
- refused: states of the played game (result.json "game") whose
  "illegalMove" is not empty: the referee did not take the answer and the
  turn was lost (board unchanged, "action" still "place"). Split into
  suicide ("Invalid move: Illegal Suicide Move"), filled ("Invalid move:
  Chosen position is already filled"), off ("Invalid move: Move out of
  bounds") and invalid ("Invalid input: Move isn't valid" / "Failed to
  parse move": an unreadable answer, or the "null" the wrapper answers for
  a bot it has shut down; such states have no "action"). The referee's
  message is not reliable: on an occupied point it sets "already filled",
  places the stone anyway, and its suicide test may then replace the
  message with "Illegal Suicide Move", so suicide/filled are judged from
  the board before the move. "at -1": refused at a point the bot was sent
  as -1.
- timeouts: "Response timed out" lines in the bot's dump (result.json
  players[i].log); maxTimeouts 0 shuts the bot down at the first one.
- fallbacks / given up / resyncs / errors: lines of the bot's log
  ("falling back", "not searching any more", "resync", "[ERROR").
- answers: answers the wrapper received (its dump), passes among them.
- hidden: turns on which the bot's field showed -1 where the referee's
  board (result.json) has a stone. 1.0.3 marks points in
  updateSuicideData only while they are empty and never clears a mark when
  a stone fills the point (a capture into a marked point), so such a stone
  is shown as -1 to both bots for as long as it stands.
- end: why the game stopped, judged from the last states as the referee
  does (GoProcessor.hasGameEnded): "rounds" (round limit), "2 passes",
  "ko" (the board equals the one two moves back), "full" (no empty point
  passes the referee's suicide test); "cut" when none holds: the match
  wrapper stopped the game (for example the stray empty line of 1.0.3
  master, or a crashed engine).
"""

import json
import os
import re
import sys
from collections import Counter, defaultdict

REFUSAL_KINDS = {
    "Illegal Suicide Move": "suicide",
    "Chosen position is already filled": "filled",
    "Move out of bounds": "off",
    "Move isn't valid": "invalid",
    "Failed to parse move": "invalid",
}
KINDS = ["suicide", "filled", "off", "invalid", "other"]
COLOURS = ["black", "white"]  # player0 moves first on Riddles.io


def load_json(path, default=None):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def read_text(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def neighbours(i, w, h):
    x, y = i % w, i // w
    if x > 0:
        yield i - 1
    if x < w - 1:
        yield i + 1
    if y > 0:
        yield i - w
    if y < h - 1:
        yield i + w


def areas(cells, w, h):
    """Tromp-Taylor area of player 0 and player 1: stones plus empty regions
    reaching only that colour (the referee's winner, without komi)."""
    score = [cells.count("0"), cells.count("1")]
    seen = set()
    for i, c in enumerate(cells):
        if c != "." or i in seen:
            continue
        region, reach, todo = 0, set(), [i]
        seen.add(i)
        while todo:
            j = todo.pop()
            region += 1
            for n in neighbours(j, w, h):
                if cells[n] == ".":
                    if n not in seen:
                        seen.add(n)
                        todo.append(n)
                else:
                    reach.add(cells[n])
        if len(reach) == 1:
            score[int(reach.pop())] += region
    return score


def board_full(cells, w, h, rules):
    """GoLogic.isBoardFull: no empty point passes the suicide test. Under
    1.0.3 the test is an empty orthogonal neighbour; under 1.0.2 it holds
    for every empty point."""
    for i, c in enumerate(cells):
        if c != ".":
            continue
        if rules == "1.0.2":
            return False
        if any(cells[n] == "." for n in neighbours(i, w, h)):
            return False
    return True


def dump_answers(dump):
    """The answers in the wrapper's dump of one bot, in the order asked:
    the text answered ("" on a timeout), None when the wrapper answered
    "null" for a bot it had shut down."""
    answers = []
    for line in dump.splitlines():
        if line.startswith('Output from your bot: "'):
            answers.append(line[len('Output from your bot: "'):-1])
        elif line.startswith("Maximum number ("):
            answers.append(None)
    return answers


def sent_fields(dump):
    prefix = "update game field "
    return [line[len(prefix):].split(",") for line in dump.splitlines()
            if line.startswith(prefix)]


def log_counts(text):
    return {
        "fallbacks": len(re.findall(r"falling back", text)),
        "given_up": len(re.findall(r"not searching any more", text)),
        "resyncs": len(re.findall(r"resync", text)),
        "errors": len(re.findall(r"^\[ERROR", text, re.M)),
        "log_answers": len(re.findall(r"\banswered ", text)),
        "panics": len(re.findall(r"panicked", text)),
    }


def game_summary(gdir, rules):
    meta = load_json(os.path.join(gdir, "meta.json"), {}) or {}
    result = load_json(os.path.join(gdir, "result.json"))
    names = meta.get("names", ["player0", "player1"])
    g = {
        "dir": os.path.basename(gdir),
        "pairing": meta.get("pairing", "?"),
        "names": names,
        "seconds": meta.get("seconds"),
        "wrapper_exit": meta.get("wrapper_exit"),
        "ok": False,
        "players": [],
    }
    if not result:
        g["end"] = "no result"
        g["winner"] = None
        return g
    if not result.get("game"):
        # the wrapper stopped early and the engine did not answer "details"
        # and "game" (the stray empty line of 1.0.3 master does this)
        answered = [sum(1 for a in dump_answers(p.get("log", "")) if a)
                    for p in result.get("players", [])]
        g["end"] = "cut, no game data (answers %s)" % "/".join(map(str, answered))
        g["winner"] = None
        return g
    try:
        game = json.loads(result["game"])
    except ValueError:
        g["end"] = "bad result"
        g["winner"] = None
        return g
    g["ok"] = True
    details = json.loads(result.get("details") or "{}")
    winner = details.get("winner", "null")
    g["winner"] = None if winner in (None, "null") else int(winner)
    g["wrapper_ms"] = result.get("timeElapsed")
    w = game["settings"]["field"]["width"]
    h = game["settings"]["field"]["height"]
    states = game["states"]
    fields = [s["field"].split(",") for s in states]
    last = fields[-1]
    g["area"] = areas(last, w, h)
    g["moves"] = len(states) - 1
    rounds = details.get("score")
    g["rounds"] = rounds

    dumps = [p.get("log", "") for p in result.get("players", [])]
    max_rounds = 200
    for d in dumps:
        m = re.search(r"^settings max_rounds (\d+)$", d, re.M)
        if m:
            max_rounds = int(m.group(1))
            break

    # why the game stopped (GoProcessor.hasGameEnded)
    reasons = []
    if rounds is not None and rounds >= max_rounds:
        reasons.append("rounds")
    final = states[-1]
    if len(states) > 1 and final.get("action") == "pass" and not final.get("illegalMove"):
        p = final["player"]
        earlier = [s for s in states[1:-1] if s["player"] == p]
        if earlier and earlier[-1].get("action") == "pass":
            reasons.append("2 passes")
    if len(fields) >= 3 and fields[-1] == fields[-3] and fields[-1] != fields[-2]:
        reasons.append("ko")
    if board_full(last, w, h, rules):
        reasons.append("full")
    g["end"] = "+".join(reasons) if reasons else "cut"
    # the referee's winner is the larger raw area; check it agrees
    a0, a1 = g["area"]
    expect = 0 if a0 > a1 else 1 if a1 > a0 else None
    g["winner_agrees"] = expect == g["winner"]

    for p in (0, 1):
        dump = dumps[p] if p < len(dumps) else ""
        pres = result["players"][p] if p < len(result.get("players", [])) else {}
        own = [i for i, s in enumerate(states) if i > 0 and s["player"] == p]
        answers = dump_answers(dump)
        sent = sent_fields(dump)
        kinds = Counter()
        refused = []
        for k, i in enumerate(own):
            why = states[i].get("illegalMove") or ""
            if not why:
                continue
            # "Invalid move: ..." / "Invalid input: ..." (javainterface's exceptions)
            kind = REFUSAL_KINDS.get(re.sub(r"^Invalid (move|input): ", "", why), "other")
            answer = answers[k] if k < len(answers) else "?"
            board_cell = sent_cell = None
            m = re.match(r"place_move[ ,]+(\d+)[ ,]+(\d+)\s*$", answer or "")
            if m and int(m.group(1)) < w and int(m.group(2)) < h:
                j = int(m.group(2)) * w + int(m.group(1))
                board_cell = fields[i - 1][j]
                if k < len(sent) and j < len(sent[k]):
                    sent_cell = sent[k][j]
                # GoLogic.transformPlaceMove sets "already filled", puts the
                # stone there all the same, and the suicide test that follows
                # may replace the message: judge by the board
                if kind in ("suicide", "filled"):
                    kind = "filled" if board_cell != "." else "suicide"
            kinds[kind] += 1
            if sent_cell == "-1":
                kinds["at -1"] += 1
            refused.append({
                "move": k + 1,
                "state": i,
                "answer": "null" if answer is None else answer,
                "why": why,
                "kind": kind,
                "board": board_cell,
                "sent": sent_cell,
            })
        hidden = 0
        mismatched = 0
        for k, i in enumerate(own):
            if k >= len(sent):
                break
            truth = fields[i - 1]
            hid = False
            for a, b in zip(sent[k], truth):
                if a == "-1":
                    hid = hid or b != "."
                elif a != b:
                    mismatched += 1
            hidden += hid
        times = pres.get("responseTimes", [])
        logtext = read_text(os.path.join(gdir, "p%d.log" % p))
        # the bot's stderr goes to p<i>.log; the wrapper's copy is a fallback
        if not logtext:
            logtext = pres.get("errors", "") or ""
        player = {
            "name": names[p] if p < len(names) else "player%d" % p,
            "colour": COLOURS[p],
            "result": ("draw" if g["winner"] is None
                       else "win" if g["winner"] == p else "loss"),
            "moves": len(own),
            "refused": sum(n for kind, n in kinds.items() if kind in KINDS),
            "kinds": dict(kinds),
            "refused_list": refused,
            "timeouts": dump.count("Response timed out"),
            "shut_down": dump.count("Maximum number ("),
            "write_failed": dump.count("Write to bot failed"),
            "memory_warnings": dump.count("Warning: Your bot is using a lot of memory"),
            "answers": sum(1 for a in answers if a),
            "passes": sum(1 for a in answers if a in ("pass", "no_moves")),
            "max_ms": max(times) if times else 0,
            "total_ms": sum(times),
            "hidden": hidden,
            "mismatched": mismatched,
            "area": g["area"][p],
        }
        player.update(log_counts(logtext))
        g["players"].append(player)
    return g


def bot_key(g, p):
    player = g["players"][p]
    name = player["name"]
    other = g["players"][1 - p]["name"]
    if name == other:
        return "%s (%s, self-play)" % (name, player["colour"])
    return "%s (vs %s)" % (name, other)


def table(rows, header):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    lines = []
    for r in [header] + rows:
        cells = []
        for i, c in enumerate(r):
            c = str(c)
            cells.append(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]))
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def summarise(out):
    run = load_json(os.path.join(out, "run.json"), {}) or {}
    rules = run.get("rules", "1.0.3")
    gdirs = sorted(d for d in (os.path.join(out, "games", n)
                               for n in os.listdir(os.path.join(out, "games")))
                   if os.path.isdir(d)) if os.path.isdir(os.path.join(out, "games")) else []
    games = [game_summary(d, rules) for d in gdirs]

    text = []
    if run:
        text.append("referee: go-engine %s (rules %s) from %s%s; match wrapper %s" % (
            run.get("engine_version", "?"), rules, run.get("engine_source", "?"),
            " @ " + run["engine_rev"] if run.get("engine_rev") else "",
            run.get("wrapper_jar", "?")))
        text.append("tengen: %s (%s)" % (run.get("tengen_rev", "?"), run.get("tengen_sha256", "?")[:12]))
        if run.get("stray_output"):
            text.append("WARNING: this referee prints an empty line on stdout in "
                        "updateSuicideData: the match wrapper ends the game there ('cut').")
    text.append("")

    rows = []
    for g in games:
        if not g["ok"]:
            rows.append([g["dir"], g["names"][0], g["names"][1], "-", g["end"],
                         "-", "-", "-", "-", "-", g["seconds"] or "-"])
            continue
        b, w = g["players"]
        winner = {None: "draw", 0: "black", 1: "white"}[g["winner"]]
        if not g["winner_agrees"]:
            winner += "?"
        rows.append([g["dir"], b["name"], w["name"], winner, g["end"], g["moves"],
                     "%d-%d" % tuple(g["area"]),
                     "%d/%d" % (b["refused"], w["refused"]),
                     "%d/%d" % (b["timeouts"], w["timeouts"]),
                     "%d/%d" % (b["fallbacks"], w["fallbacks"]),
                     g["seconds"] if g["seconds"] is not None else "-"])
    text.append("games (black = player0, moves first; winner by raw area, no komi):")
    text.append(table(rows, ["game", "black", "white", "winner", "end", "moves",
                             "area B-W", "refused B/W", "timeouts B/W",
                             "fallbacks B/W", "secs"]))
    text.append("")

    bots = defaultdict(Counter)
    order = []
    for g in games:
        if not g["ok"]:
            continue
        for p in (0, 1):
            k = bot_key(g, p)
            if k not in bots:
                order.append(k)
            pl = g["players"][p]
            c = bots[k]
            c["games"] += 1
            c[pl["result"]] += 1
            for f in ("refused", "timeouts", "fallbacks", "given_up", "resyncs", "errors",
                      "answers", "passes", "hidden", "moves", "panics", "memory_warnings"):
                c[f] += pl[f]
            for kind, n in pl["kinds"].items():
                c["k_" + kind] += n
            c["max_ms"] = max(c["max_ms"], pl["max_ms"])
    rows = []
    for k in order:
        c = bots[k]
        split = "/".join(str(c["k_" + kind]) for kind in KINDS[:4])
        rows.append([k, c["games"], c["win"], c["loss"], c["draw"], c["refused"], split,
                     c["k_at -1"],
                     c["timeouts"], c["fallbacks"], c["given_up"], c["resyncs"], c["errors"],
                     c["answers"], c["passes"], c["hidden"], c["max_ms"]])
    text.append("bots:")
    text.append(table(rows, ["bot", "games", "W", "L", "D", "refused",
                             "suic/fill/off/inv", "at -1", "timeouts", "fallbacks", "gave up",
                             "resyncs", "errors", "answers", "passes", "-1 on stone",
                             "max ms"]))
    text.append("")

    shown = 0
    lines = []
    for g in games:
        for pl in g["players"]:
            for r in pl["refused_list"]:
                if shown < 30:
                    where = ""
                    if r["board"] is not None:
                        where = " (board %s, sent %s)" % (r["board"], r["sent"])
                    lines.append("  %s %s (%s) move %d: %s%s -> %s" % (
                        g["dir"], pl["name"], pl["colour"], r["move"], r["answer"], where,
                        r["why"]))
                shown += 1
    if lines:
        text.append("refused moves (move = the bot's n-th answer; the point on the "
                    "referee's board and in the field the bot was sent):")
        text.extend(lines)
        if shown > len(lines):
            text.append("  ... %d more (summary.json)" % (shown - len(lines)))
        text.append("")
    notes = []
    for g in games:
        if g["ok"] and not g["winner_agrees"]:
            notes.append("%s: the referee's winner differs from the raw area count" % g["dir"])
        if g.get("end") == "cut":
            notes.append("%s: no rule ended the game: the wrapper stopped it (see wrapper.err)" % g["dir"])
        for pl in g["players"]:
            if pl.get("mismatched"):
                notes.append("%s: %s was sent %d cells that differ from the referee's board" % (
                    g["dir"], pl["name"], pl["mismatched"]))
            if pl.get("write_failed") or pl.get("panics"):
                notes.append("%s: %s crashed or stopped reading" % (g["dir"], pl["name"]))
    if notes:
        text.append("notes:")
        text.extend("  " + n for n in notes)
        text.append("")

    body = "\n".join(text)
    with open(os.path.join(out, "summary.txt"), "w", encoding="utf-8") as f:
        f.write(body + "\n")
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump({"run": run, "games": games,
                   "bots": {k: dict(bots[k]) for k in order}}, f, indent=1)
    print(body)
    return 0 if games and all(g["ok"] for g in games) else 1


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    out = argv[1]
    if not os.path.isdir(out):
        print("riddles_summary.py: no such folder: %s" % out, file=sys.stderr)
        return 2
    return summarise(out)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
