#!/usr/bin/env python3
"""How steady `kosumi analysis` scores are: two seeds, the same positions.

    python3 lab/stability.py --engine "KOSUMI analysis ..." [--set tune|report]
        [--visits 500] [--turns 60:161:1] [--out DIR] [--games N] [--parallel]

Games: the held-out 19x19 even games (no handicap, at least 170 moves) of
../shared/data/kgs-6d's 2015 archive, held out of the pattern training by
the same file-name hash as `kosumi patterns` (FNV-1a 64, 0 modulo 50),
sorted by name and shuffled with seed 74; the first 10 are the tune set, the
next 20 the report set. Each game goes to the engine twice, with `--seed 1`
and `--seed 2` appended to its command, one query per game asking for the
given turns at the given visits. Answers (the root's score, spread and
visits, and every candidate's visits and score) are kept in --out, one file
per seed named by a hash of the settings, so a rerun only prints and other
readings of the root's score can be tried on the same searches.

The engine must report scores from Black's side (`--report-winrates-as
BLACK`), as the points lost below assume.

Printed: the share of positions whose root `scoreLead` the two runs give
within 2 points (and the sd of the difference), and the same for KaTrain's
points lost of the played move (the mover's root score before it minus
after it; both turns must be asked), and for the first five candidates of
the first run that the second lists too (the root's score minus theirs).
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import statistics
import subprocess
import tarfile

LETTERS = "ABCDEFGHJKLMNOPQRST"
ARCHIVE = "../shared/data/kgs-6d/KGS-2015-19-8133-.tar.gz"


def held_out(name):
    h = 0xCBF29CE484222325
    for b in os.path.basename(name).encode():
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h % 50 == 0


def games(archive):
    """(name, komi, moves) of the held-out even 19x19 games, by name."""
    out = []
    with tarfile.open(archive) as tar:
        for m in tar:
            if not m.isfile() or not m.name.endswith(".sgf") or not held_out(m.name):
                continue
            text = tar.extractfile(m).read().decode("utf-8", "replace")
            if not re.search(r"SZ\[19\]", text) or re.search(r"HA\[[1-9]|AB\[|AW\[", text):
                continue
            km = re.search(r"KM\[([-\d.]+)\]", text)
            moves = re.findall(r";\s*([BW])\[([a-s]{2}|)\]", text)
            if len(moves) < 170 or any(p == "" for _, p in moves):
                continue
            out.append((os.path.basename(m.name), float(km.group(1)) if km else 6.5, moves))
    return sorted(out)


def gtp(p):
    return f"{LETTERS[ord(p[0]) - 97]}{19 - (ord(p[1]) - 97)}"


def run(engine, seed, chosen, turns, visits, path):
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    proc = subprocess.Popen(
        engine.split() + ["--seed", str(seed)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for name, komi, moves in chosen:
        q = {"id": name, "rules": "japanese", "komi": komi, "boardXSize": 19,
             "boardYSize": 19, "moves": [[c, gtp(p)] for c, p in moves],
             "analyzeTurns": [t for t in turns if t <= len(moves)], "maxVisits": visits}
        proc.stdin.write(json.dumps(q) + "\n")
    proc.stdin.close()
    roots = {}
    for line in proc.stdout:
        r = json.loads(line)
        if "error" in r or "warning" in r:
            print("engine:", line.strip())
            continue
        if r.get("isDuringSearch"):
            continue
        roots[f"{r['id']}:{r['turnNumber']}"] = {
            "root": r["rootInfo"]["scoreLead"],
            "stdev": r["rootInfo"]["scoreStdev"],
            "visits": r["rootInfo"]["visits"],
            "moves": [[m["move"], m["visits"], m["scoreLead"]] for m in r["moveInfos"]],
        }
    proc.wait()
    with open(path, "w") as f:
        json.dump(roots, f)
    return roots


def share(diffs):
    within = sum(abs(d) <= 2 for d in diffs) / len(diffs)
    return f"{100 * within:.1f}% within 2 points (sd {statistics.pstdev(diffs):.2f}, n {len(diffs)})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--set", choices=["tune", "report"], default="tune")
    ap.add_argument("--visits", type=int, default=500)
    ap.add_argument("--turns", default="60:161:1")
    ap.add_argument("--games", type=int, default=0, help="only the first N of the set")
    ap.add_argument("--out", default="stability-out")
    ap.add_argument("--parallel", action="store_true", help="run the two seeds at once")
    a = ap.parse_args()
    all_games = games(ARCHIVE)
    random.Random(74).shuffle(all_games)
    chosen = all_games[:10] if a.set == "tune" else all_games[10:30]
    if a.games:
        chosen = chosen[: a.games]
    lo, hi, step = (int(x) for x in a.turns.split(":"))
    turns = list(range(lo, hi, step))
    os.makedirs(a.out, exist_ok=True)
    tag = hashlib.sha1(f"{a.engine}|{a.set}|{a.visits}|{a.turns}|{a.games}".encode()).hexdigest()[:10]
    with concurrent.futures.ThreadPoolExecutor(2 if a.parallel else 1) as pool:
        runs = list(pool.map(
            lambda s: run(a.engine, s, chosen, turns, a.visits, f"{a.out}/{tag}-seed{s}.json"), (1, 2)))
    print(f"{a.set}: {len(chosen)} games ({', '.join(n for n, _, _ in chosen[:3])}, ...), "
          f"turns {a.turns}, {a.visits} visits, answers in {a.out}/{tag}-*")
    # The first run's first five candidates that the second run lists too:
    # the root's score minus theirs, in both runs.
    first_five = []
    for k in (k for k in runs[0] if k in runs[1]):
        other = {m[0]: m[2] for m in runs[1][k]["moves"]}
        for mv, _, score in runs[0][k]["moves"][:5]:
            if mv in other:
                first_five.append((runs[0][k]["root"] - score) - (runs[1][k]["root"] - other[mv]))
    runs = [{k: v["root"] for k, v in r.items()} for r in runs]
    keys = [k for k in runs[0] if k in runs[1]]
    print("root scoreLead:", share([runs[0][k] - runs[1][k] for k in keys]))
    lost = []
    for k in keys:
        name, t = k.rsplit(":", 1)
        nxt = f"{name}:{int(t) + 1}"
        if nxt in runs[0] and nxt in runs[1]:
            # Black's view in both (see the header): the mover's loss is before minus after for Black, after
            # minus before for White; the sign does not change agreement.
            lost.append((runs[0][k] - runs[0][nxt]) - (runs[1][k] - runs[1][nxt]))
    if lost:
        print("points lost of the played move:", share(lost))
    if first_five:
        print("points lost of the first five candidates:", share(first_five))


if __name__ == "__main__":
    main()
