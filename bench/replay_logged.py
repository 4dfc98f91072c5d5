"""Re-play logged greedy games and count the records (and final tables) that come out the same (not a test).

    python bench/replay_logged.py [--missions 1-20] [--games 10] [--baseline DIR]

Games 0 .. GAMES-1 of each mission's 4-player difficulty log
(bench/tournaments/difficulty/mNN-p4.log, seed and settings as logged) are
played again by this checkout (``play_game``, tests/data/make_greedy_logged.py's
``replay``): per mission, how many records equal the logged ones (decision
times aside).  With ``--baseline``, that checkout plays them too and the final
public tables (every event) are compared as well.  Each checkout plays in a
child process (``PYTHONPATH``), one after the other; CPU seconds are printed.
The difficulty logs are greedy 1's: greedy 3's records carry ``"version": 3`` in
their settings, so none equals a logged one; a refactoring is checked by the
final tables with ``--baseline``.  A mission without a log (M54, refused by the
simulator) is named and left out.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOGS = os.path.join(HERE, "bench", "tournaments", "difficulty")
# Run with the checkout to measure first on sys.path; the replay helper comes from this checkout.
PLAY = f"""
import json, sys, time
sys.path.insert(0, {os.path.join(HERE, "tests", "data")!r})
from make_greedy_logged import replay
for cell in sys.argv[1:]:
    mission, index = (int(n) for n in cell.split(":"))
    t0 = time.process_time()
    record, digest = replay(mission, index)
    record.pop("seconds")
    print(json.dumps({{"mission": mission, "game": index, "record": record, "table": digest,
                      "cpu": time.process_time() - t0}}), flush=True)
"""


def played(root: str, cells: list[str]) -> dict[tuple[int, int], dict]:
    out = subprocess.run([sys.executable, "-c", PLAY, *cells], cwd=root, check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": root}).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    return {(r["mission"], r["game"]): r for r in rows}


def logged(mission: int, games: int) -> dict[int, dict]:
    with open(os.path.join(LOGS, f"m{mission:02d}-p4.log"), encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    return {r["game"]: {k: v for k, v in r.items() if k != "seconds"} for r in records
            if r.get("policy") == "greedy" and r.get("game", games) < games}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--missions", default="1-20", help="FIRST-LAST")
    ap.add_argument("--games", type=int, default=10, help="games 0 .. GAMES-1 of each mission")
    ap.add_argument("--baseline", help="another checkout whose final tables to compare")
    args = ap.parse_args()
    first, last = (int(n) for n in args.missions.split("-"))
    # A mission the simulator refuses (M54) has no logged games: said, not replayed.
    missions = [m for m in range(first, last + 1) if os.path.exists(os.path.join(LOGS, f"m{m:02d}-p4.log"))]
    for m in sorted(set(range(first, last + 1)) - set(missions)):
        print(f"M{m:<3} no logged 4-player games (bench/tournaments/difficulty/m{m:02d}-p4.log): not replayed")
    cells = [f"{m}:{i}" for m in missions for i in range(args.games)]
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}", flush=True)
    t0 = time.time()
    this = played(HERE, cells)
    base = played(os.path.abspath(args.baseline), cells) if args.baseline else None
    same_records = same_tables = 0
    for m in missions:
        log = logged(m, args.games)
        records = sum(this[(m, i)]["record"] == log.get(i) for i in range(args.games))
        tables = sum(this[(m, i)]["table"] == base[(m, i)]["table"] for i in range(args.games)) if base else None
        cpu = sum(this[(m, i)]["cpu"] for i in range(args.games))
        same_records, same_tables = same_records + records, same_tables + (tables or 0)
        print(f"M{m:<3} records as logged {records:3d}/{args.games}"
              + (f", final tables as the baseline's {tables:3d}/{args.games}" if base else "")
              + f", {cpu / args.games:.2f} CPU s/game", flush=True)
    n = len(cells)
    print(f"all: records as logged {same_records}/{n}"
          + (f", final tables as the baseline's {same_tables}/{n}" if base else "")
          + f"; {time.time() - t0:.0f} s wall, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
