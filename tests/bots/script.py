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
  --double          write every answer twice (the second line is stale)
  --split           with --double, hold the second line's end of line back
                    and write it with the next answer, so the stale line
                    begins before the next request and ends after it

Each answer goes out in ONE os.write: print() under PYTHONUNBUFFERED writes
its text and its end apart, and when the two lines of --double arrive split
that way is left to the scheduler.

After a sleep, a request that came meanwhile (the referee's re-ask after a
timeout) is not answered: the late answer already stands for it.
"""
import os
import select
import sys
import time


class Input:
    """Lines from stdin, with a look at what is already waiting."""

    def __init__(self):
        self.buf, self.lines, self.eof = b"", [], False

    def _read(self):
        data = os.read(0, 65536)
        if not data:
            self.eof = True
        self.buf += data
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            self.lines.append(line.decode().strip())

    def next(self):
        while not self.lines and not self.eof:
            self._read()
        return self.lines.pop(0) if self.lines else None

    def waiting(self):
        while not self.eof and select.select([0], [], [], 0)[0]:
            self._read()
        return self.lines


def main():
    args = sys.argv[1:]
    answers, sleeps, black_sleeps, walk, exit_at, log = [], {}, {}, False, None, None
    double, split = False, False
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--answers":
            answers = [x.strip() for x in args[i + 1].split(";") if x.strip()]
            i += 1
        elif a == "--walk":
            walk = True
        elif a == "--double":
            double = True
        elif a == "--split":
            split = True
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
    inp, skip, held = Input(), False, ""
    while True:
        line = inp.next()
        if line is None:
            break
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
            if skip:
                skip = False
                continue
            asked += 1
            if asked == exit_at:
                sys.exit(0)
            if asked in sleeps:
                time.sleep(sleeps[asked] / 1000.0)
            if names and me == names[0] and asked in black_sleeps:
                time.sleep(black_sleeps[asked] / 1000.0)
            if asked in sleeps or asked in black_sleeps:
                skip = any(w.startswith("action move") for w in inp.waiting())
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
            out = held + answer + "\n"
            held = ""
            if double:
                out += answer
                if split:
                    held = "\n"
                else:
                    out += "\n"
            os.write(1, out.encode())
            print("answered " + answer, file=sys.stderr, flush=True)


main()
