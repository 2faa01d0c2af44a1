#!/usr/bin/env python3
"""Judge a match's games with KataGo: where each game turned, move by move.

    python3 lab/judge-games.py RESULTS.jsonl --engine NAME --katago KATAGO-ANALYSIS
        [--visits 100] [--cache DIR] [--all] [--cached]

RESULTS.jsonl is a `kosumi match` results file whose SGFs are where its `sgf`
fields say (relative to the results file). For each game NAME lost (every
game with --all), KataGo's analysis engine (`../shared/peers/katago.sh`
builds one, `OUT/katago-analysis`, whose config reports win rates as Black's,
as this script reads them) judges every position; the table gives
NAME's win rate by the judge after move 20, and the move of NAME's that cost
the most win rate while the game was still open (the judge giving NAME at
least 20% before it), with the judge's own choice, the win rate and points it
cost, and its phase: opening up to a sixth of the board's points in moves,
middle game up to two thirds, endgame after. Below the table, each side's
points lost a move by phase (the judge's score lead before the move minus
after, from the mover's side; moves made while the judge gives Black 10% to
90%), over the games read. The judge's answers are kept
per game in --cache, so a run stopped half way resumes.
"""
import argparse
import json
import os
import re
import subprocess
import sys

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def sgf_props(text):
    """(size, komi, setup stones, moves) of a match's SGF main line."""
    size = int(re.search(r"SZ\[(\d+)\]", text).group(1))
    km = re.search(r"KM\[([-\d.]+)\]", text)
    komi = float(km.group(1)) if km else 0.0
    setup = []
    for colour, block in re.findall(r"A([BW])((?:\[[a-z]{2}\]\s*)+)", text):
        setup += [(colour, p) for p in re.findall(r"\[([a-z]{2})\]", block)]
    moves = re.findall(r";\s*([BW])\[([a-z]{0,2})\]", text)
    return size, komi, setup, moves


def gtp_point(sgf, size):
    if sgf in ("", "tt") and size <= 19:
        return "pass"
    x, y = ord(sgf[0]) - 97, ord(sgf[1]) - 97
    return f"{LETTERS[x]}{size - y}"


def phase_of(n, size):
    """Move n's phase: opening up to a sixth of the points, middle game to two thirds."""
    points = size * size
    return "opening" if n <= points // 6 else "middle" if n <= 2 * points // 3 else "endgame"


def judge(katago, game_id, size, komi, rules, setup, moves, visits):
    query = {
        "id": str(game_id),
        "rules": rules,
        "komi": komi,
        "boardXSize": size,
        "boardYSize": size,
        "initialStones": [[c, gtp_point(p, size)] for c, p in setup],
        "moves": [[c, gtp_point(p, size)] for c, p in moves],
        "analyzeTurns": list(range(len(moves) + 1)),
        "maxVisits": visits,
    }
    katago.stdin.write(json.dumps(query) + "\n")
    katago.stdin.flush()
    turns = {}
    while len(turns) < len(moves) + 1:
        line = katago.stdout.readline()
        if not line:
            sys.exit("judge-games: KataGo stopped")
        answer = json.loads(line)
        if "error" in answer:
            sys.exit(f"judge-games: KataGo: {answer['error']}")
        if "warning" in answer:
            continue
        best = answer["moveInfos"][0]["move"] if answer.get("moveInfos") else "pass"
        root = answer["rootInfo"]
        turns[answer["turnNumber"]] = {
            "black_winrate": root["winrate"],
            "black_lead": root["scoreLead"],
            "best": best,
        }
    return [turns[t] for t in range(len(moves) + 1)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results")
    ap.add_argument("--engine", required=True, help="the engine whose games are read")
    ap.add_argument("--katago", required=True, help="KataGo analysis command")
    ap.add_argument("--visits", type=int, default=100)
    ap.add_argument("--cache", default=None, help="folder for the judge's answers")
    ap.add_argument("--all", action="store_true", help="won games too")
    ap.add_argument("--cached", action="store_true",
                    help="only the games whose answers are already in the cache")
    args = ap.parse_args()

    base = os.path.dirname(os.path.abspath(args.results))
    lines = [json.loads(l) for l in open(args.results) if l.strip()]
    header = next(l for l in lines if l["type"] == "header")
    rules = header["rules"].replace("_", " ")
    games = [l for l in lines if l["type"] == "game"]
    cache = args.cache or os.path.join(base, "judged")
    os.makedirs(cache, exist_ok=True)
    katago = None
    # (engine's side?, phase) -> [moves, points lost, mistakes of 5 points or more]
    tally = {}

    print("| game | colour | moves | result | win rate after move 20 "
          "| costliest move (judge's choice) | win rate / points lost | phase |")
    print("|---|---|---|---|---|---|---|---|")
    for g in games:
        if args.engine not in (g["black"], g["white"]):
            sys.exit(f"judge-games: no engine named {args.engine} in game {g['game']}")
        colour = "B" if g["black"] == args.engine else "W"
        won = g["winner"] == colour
        if won and not args.all:
            continue
        path = os.path.join(cache, f"game-{g['game']:04}.json")
        if args.cached and not os.path.exists(path):
            continue
        text = open(os.path.join(base, g["sgf"])).read()
        size, komi, setup, moves = sgf_props(text)
        if os.path.exists(path):
            turns = json.load(open(path))
        else:
            if katago is None:
                katago = subprocess.Popen(args.katago, shell=True, text=True,
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            turns = judge(katago, g["game"], size, komi, rules, setup, moves, args.visits)
            json.dump(turns, open(path, "w"))
        sign = 1 if colour == "B" else -1

        def winrate(t):
            w = turns[t]["black_winrate"]
            return w if colour == "B" else 1 - w

        after20 = winrate(min(20, len(moves)))
        for t, (c, _) in enumerate(moves):
            if not 0.1 <= turns[t]["black_winrate"] <= 0.9:
                continue
            mover = 1 if c == "B" else -1
            lost = mover * (turns[t]["black_lead"] - turns[t + 1]["black_lead"])
            cell = tally.setdefault((c == colour, phase_of(t + 1, size)), [0, 0.0, 0])
            cell[0] += 1
            cell[1] += lost
            cell[2] += lost >= 5
        worst = None
        for t, (c, p) in enumerate(moves):
            if c != colour or winrate(t) < 0.2:
                continue
            lost = winrate(t) - winrate(t + 1)
            points = sign * (turns[t]["black_lead"] - turns[t + 1]["black_lead"])
            if worst is None or lost > worst[1]:
                worst = (t, lost, points, gtp_point(p, size), turns[t]["best"])
        if worst is None:
            costliest, cost, phase = "none while open", "", ""
        else:
            t, lost, points, played, best = worst
            n = t + 1
            costliest = f"{n} {played} ({best})"
            cost = f"{100 * lost:.0f} / {points:.1f}"
            phase = phase_of(n, size)
        print(f"| {g['game']} | {colour} | {g['moves']} | {g['result']} | {100 * after20:.0f}% "
              f"| {costliest} | {cost} | {phase} |", flush=True)
    print(f"\nPoints lost a move by the judge while the game was open (Black at 10% to 90%), "
          f"games read: {'all' if args.all else 'lost by ' + args.engine}")
    print("| phase | engine | moves | points lost a move | moves losing 5 points or more |")
    print("|---|---|---|---|---|")
    for phase in ("opening", "middle", "endgame"):
        for mine in (True, False):
            n, lost, big = tally.get((mine, phase), [0, 0.0, 0])
            if n:
                who = args.engine if mine else "opponent"
                print(f"| {phase} | {who} | {n} | {lost / n:.2f} | {big} ({100 * big / n:.1f}%) |")
    if katago:
        katago.stdin.close()
        katago.wait()


if __name__ == "__main__":
    main()
