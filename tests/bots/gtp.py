#!/usr/bin/env python3
"""A scripted GTP engine for tests/arena.rs.

Answers `genmove` with the next of the ';'-separated vertices given with
--moves (`resign` allowed), then `pass`. Accepts the usual set-up and time
commands. Options:
  --moves "C3;D4;pass"
  --sleep MS     sleep MS ms before each genmove answer
  --log PATH     append every command received to PATH
"""
import sys
import time


def main():
    args = sys.argv[1:]
    moves, sleep, log = [], 0, None
    i = 0
    while i < len(args):
        if args[i] == "--moves":
            moves = [m.strip() for m in args[i + 1].split(";") if m.strip()]
        elif args[i] == "--sleep":
            sleep = int(args[i + 1])
        elif args[i] == "--log":
            log = open(args[i + 1], "a")
        else:
            sys.exit("gtp.py: unknown argument " + args[i])
        i += 2
    known = ["protocol_version", "name", "version", "boardsize", "clear_board",
             "komi", "play", "genmove", "time_settings", "time_left", "quit",
             "list_commands", "known_command"]
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if log:
            log.write(line + "\n")
            log.flush()
        cmd = line.split()
        name = cmd[0]
        if name == "genmove":
            if sleep:
                time.sleep(sleep / 1000.0)
            answer = "= " + (moves.pop(0) if moves else "pass")
        elif name == "protocol_version":
            answer = "= 2"
        elif name == "name":
            answer = "= scripted"
        elif name == "version":
            answer = "= 1.2"
        elif name == "list_commands":
            answer = "= " + "\n".join(known)
        elif name in known:
            answer = "="
        else:
            answer = "? unknown command"
        sys.stdout.write(answer + "\n\n")
        sys.stdout.flush()
        if name == "quit":
            break


main()
