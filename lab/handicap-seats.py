#!/usr/bin/env python3
"""Handicap seats: engines as White giving GNU Go stones, game by game.

    python3 lab/handicap-seats.py --out DIR [--stones 3,4] [--games 40]
        [--arm NAME=CMD ...] [--kosumi KOSUMI] [--pachi PACHI] [--gnugo GNUGO]
        [--concurrency 2]
    python3 lab/handicap-seats.py --out DIR --table

Each game is its own `kosumi match --games 1` (13x13, komi 0.5, Japanese
rules, GNU Go 3.8 level 10 as Black and first engine, the arm as White,
`--fixed-colors --set-handicap`, so every engine gets the standard stones
by set_free_handicap), because a fixed-playout engine against GNU Go plays
the same game every time: game i gives GNU Go `--seed i` and kosumi arms
`--seed i` (Pachi seeds itself). Results go to DIR/ARM-hSTONES/game-NNN.jsonl
with the SGF beside; a game already there is not played again, so a stopped
run resumes. --table prints each arm's wins per stone count.

Default arms (about 1 s a move each on 13x13): kosumi (21,000 playouts, its
defaults), kosumi-off (the same with the lopsided rule off,
`--param komi.lopsided=0`), pachi (`-t =8000`).
"""
import argparse
import concurrent.futures
import glob
import json
import os
import subprocess


def arms(a):
    if a.arm:
        return [tuple(x.split("=", 1)) for x in a.arm]
    k = f"{a.kosumi} gtp --quiet --playouts 21000 --threads 1"
    return [("kosumi", k), ("kosumi-off", k + " --param komi.lopsided=0"),
            ("pachi", f"{a.pachi} -t =8000")]


def play(a, name, cmd, stones, i):
    folder = os.path.join(a.out, f"{name}-h{stones}")
    results = os.path.join(folder, f"game-{i:03}.jsonl")
    if os.path.exists(results) and '"type":"game"' in open(results).read():
        return
    os.makedirs(folder, exist_ok=True)
    white = f"{cmd} --seed {i}" if "kosumi" in cmd.split()[0] else cmd
    sgf = os.path.join(folder, f"sgf-{i:03}")
    subprocess.run(
        [a.kosumi, "match", "--engine", f"{a.gnugo} --mode gtp --level 10 --seed {i}",
         "--engine", white, "--name", "gnugo", "--name", name, "--games", "1",
         "--size", "13", "--komi", "0.5", "--rules", "japanese", "--handicap", str(stones),
         "--fixed-colors", "--set-handicap", "--move-timeout", "900",
         "--referee", f"{a.gnugo} --mode gtp", "--sgf-dir", sgf, "--results", results,
         "--quiet"],
        stdout=subprocess.DEVNULL, check=False)


def table(a):
    print("| arm | stones | games | White won | mean moves |")
    print("|---|---|---|---|---|")
    for folder in sorted(glob.glob(os.path.join(a.out, "*-h*"))):
        name, stones = os.path.basename(folder).rsplit("-h", 1)
        games = []
        for f in glob.glob(os.path.join(folder, "game-*.jsonl")):
            games += [g for g in map(json.loads, open(f)) if g["type"] == "game"]
        if games:
            won = sum(g["winner"] == "W" for g in games)
            moves = sum(g["moves"] for g in games) / len(games)
            print(f"| {name} | {stones} | {len(games)} | {won} ({100 * won / len(games):.0f}%) "
                  f"| {moves:.0f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--stones", default="3,4")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--arm", action="append", help="NAME=CMD (repeatable; default: three arms)")
    ap.add_argument("--kosumi", default="kosumi")
    ap.add_argument("--pachi", default="pachi-gtp")
    ap.add_argument("--gnugo", default="gnugo")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--table", action="store_true")
    a = ap.parse_args()
    if a.table:
        return table(a)
    # Game by game across the arms, so a stopped run leaves them even.
    jobs = [(name, cmd, int(s), i) for i in range(1, a.games + 1)
            for s in a.stones.split(",") for name, cmd in arms(a)]
    with concurrent.futures.ThreadPoolExecutor(a.concurrency) as pool:
        for f in [pool.submit(play, a, *j) for j in jobs]:
            f.result()
    table(a)


if __name__ == "__main__":
    main()
