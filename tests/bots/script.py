#!/usr/bin/env python3
"""A scripted arena bot for tests/arena.rs.

Answers each `action move` with the next of the ';'-separated answers given
with --answers, then with `pass` (or, with --walk, the first empty cell of
the field). Options:
  --answers "place_move 2 0;pass;..."
  --walk            after the answers, play the first empty cell
  --sleep K:MS      sleep MS ms before answering the K-th action (1-based);
                    may be repeated
  --sleep-black K:MS  the same, only when playing black (the first player)
  --exit-at K       exit without answering the K-th action
  --log PATH        append every line received to PATH
"""
import sys
import time


def main():
    args = sys.argv[1:]
    answers, sleeps, black_sleeps, walk, exit_at, log = [], {}, {}, False, None, None
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--answers":
            answers = [x.strip() for x in args[i + 1].split(";") if x.strip()]
            i += 1
        elif a == "--walk":
            walk = True
        elif a == "--sleep":
            k, ms = args[i + 1].split(":")
            sleeps[int(k)] = int(ms)
            i += 1
        elif a == "--sleep-black":
            k, ms = args[i + 1].split(":")
            black_sleeps[int(k)] = int(ms)
            i += 1
        elif a == "--exit-at":
            exit_at = int(args[i + 1])
            i += 1
        elif a == "--log":
            log = open(args[i + 1], "a")
            i += 1
        else:
            sys.exit("script.py: unknown argument " + a)
        i += 1
    width, field, asked, empty = 19, [], 0, "0"
    names, me = [], None
    for line in sys.stdin:
        line = line.strip()
        if log:
            log.write(line + "\n")
            log.flush()
        parts = line.split(" ")
        if parts[:2] == ["settings", "player_names"]:
            names = parts[2].split(",")
            empty = "." if "player0" in names else "0"
        elif parts[:2] == ["settings", "your_bot"]:
            me = parts[2]
        elif parts[:2] == ["settings", "field_width"]:
            width = int(parts[2])
        elif parts[:3] == ["update", "game", "field"]:
            field = parts[3].split(",")
        elif parts[:2] == ["action", "move"]:
            asked += 1
            if asked == exit_at:
                sys.exit(0)
            if asked in sleeps:
                time.sleep(sleeps[asked] / 1000.0)
            if names and me == names[0] and asked in black_sleeps:
                time.sleep(black_sleeps[asked] / 1000.0)
            if answers:
                answer = answers.pop(0)
            elif walk:
                answer = "pass"
                for j, cell in enumerate(field):
                    if cell == empty:
                        answer = "place_move %d %d" % (j % width, j // width)
                        break
            else:
                answer = "pass"
            print(answer, flush=True)
            print("answered " + answer, file=sys.stderr, flush=True)


main()
