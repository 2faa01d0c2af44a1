#!/usr/bin/env python3
"""A fake GTP engine for testing `kosumi match`.

It plays a scripted list of moves (then passes) and misbehaves on demand.
Genmove counts start at 1 and restart with every clear_board.

Options:
  --name NAME            answer to `name` (default "fake")
  --moves D4,E5,...      moves to play in order; pass once they run out
  --resign-at N          resign at the N-th genmove
  --crash-after N        exit without answering the (N+1)-th genmove
  --illegal-at N         answer an occupied point at the N-th genmove
  --offboard-at N        answer Z99 at the N-th genmove
  --sleep-at N           never answer the N-th genmove (sleeps an hour)
  --garbage-at N         answer a line that is not GTP at the N-th genmove
  --nonsense-at N        answer "= banana" at the N-th genmove
  --reject-play          answer "? illegal move" to every play command
  --no-gtp               answer every line with chatter, never GTP
  --exit-at-start        exit with status 3 before reading anything
  --final-score TEXT     answer to final_score (default: "? cannot score")
  --log FILE             append every command received to FILE
"""

import sys
import time


def main():
    args = sys.argv[1:]
    opts = {}
    flags = set()
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--reject-play", "--no-gtp", "--exit-at-start"):
            flags.add(a)
            i += 1
        else:
            opts[a] = args[i + 1]
            i += 2

    def num(key):
        return int(opts[key]) if key in opts else None

    if "--exit-at-start" in flags:
        sys.exit(3)

    name = opts.get("--name", "fake")
    script = [m for m in opts.get("--moves", "").split(",") if m]
    log = open(opts["--log"], "a") if "--log" in opts else None
    occupied = []
    genmoves = 0
    position = 0

    def reply(text):
        sys.stdout.write(text + "\n\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        line = raw.split("#")[0].strip()
        if not line:
            continue
        if log:
            log.write(line + "\n")
            log.flush()
        if "--no-gtp" in flags:
            sys.stdout.write("Welcome to FakeChess 1.0! Type 'help'.\n")
            sys.stdout.flush()
            continue
        words = line.split()
        cmd = words[0]
        if cmd == "quit":
            reply("=")
            return
        if cmd == "protocol_version":
            reply("= 2")
        elif cmd == "name":
            reply("= " + name)
        elif cmd == "version":
            reply("= 1.0")
        elif cmd == "clear_board":
            genmoves = 0
            position = 0
            occupied = []
            reply("=")
        elif cmd == "play":
            if "--reject-play" in flags:
                reply("? illegal move")
                continue
            if len(words) >= 3 and words[2].lower() != "pass":
                occupied.append(words[2].upper())
            reply("=")
        elif cmd == "fixed_handicap":
            reply("? not supported")
        elif cmd == "set_free_handicap":
            occupied.extend(w.upper() for w in words[1:])
            reply("=")
        elif cmd == "genmove":
            genmoves += 1
            n = genmoves
            if num("--crash-after") is not None and n > num("--crash-after"):
                sys.exit(7)
            if num("--sleep-at") == n:
                time.sleep(3600)
            if num("--garbage-at") == n:
                sys.stdout.write("I like turtles\n\n")
                sys.stdout.flush()
                continue
            if num("--nonsense-at") == n:
                reply("= banana")
                continue
            if num("--resign-at") == n:
                reply("= resign")
                continue
            if num("--offboard-at") == n:
                reply("= Z99")
                continue
            if num("--illegal-at") == n and occupied:
                reply("= " + occupied[0])
                continue
            move = "pass"
            if position < len(script):
                move = script[position]
                position += 1
                occupied.append(move.upper())
            reply("= " + move)
        elif cmd == "final_score":
            if "--final-score" in opts:
                reply("= " + opts["--final-score"])
            else:
                reply("? cannot score")
        elif cmd == "known_command":
            known = ("boardsize", "komi", "time_settings", "time_left", "kgs-rules")
            reply("= " + ("true" if words[1:2] and words[1] in known else "false"))
        elif cmd in ("boardsize", "komi", "time_settings", "time_left", "kgs-rules"):
            reply("=")
        else:
            reply("? unknown command")


if __name__ == "__main__":
    main()
