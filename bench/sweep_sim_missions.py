"""Sweep the simulator over every mission and allowed player count (issue 19 item 2's acceptance run).

For each mission 1-66 and each player count it allows, runs exactly

    python -m bombbuster_core tournament --mission N --players P --games G --policy POLICY --save DIR --json

and checks that it exits 0 -- or, for a mission the simulator refuses
(sim/game.py ``REFUSED``: M54), exits 2 naming the reason -- and that every
saved table is consistent with its hidden deal from the public view and every
seat (sim/verify.py: accepted, consistent, every true key possible, the whole
deal possible, the wires where the game's ``final`` says).  Prints one line per
cell and a summary; exits 1 if any cell fails.

    .venv/bin/python bench/sweep_sim_missions.py [--games 2] [--policy greedy] [--missions 1-66] [--jobs 1]
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bombbuster_core.missions import BY_NUMBER  # noqa: E402
from bombbuster_core.sim.deal import REFUSED  # noqa: E402
from bombbuster_core.sim.verify import check_game  # noqa: E402


def cell(args: tuple[int, int, int, str, str]) -> dict:
    mission, players, games, policy, root = args
    save = os.path.join(root, f"m{mission:02d}-p{players}")
    cmd = [sys.executable, "-m", "bombbuster_core", "tournament", "--mission", str(mission), "--players",
           str(players), "--games", str(games), "--policy", policy, "--save", save, "--json"]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))
    seconds = time.perf_counter() - t0
    row = {"mission": mission, "players": players, "exit": out.returncode, "seconds": round(seconds, 1)}
    if mission in REFUSED:
        error = json.loads(out.stdout).get("error", "") if out.stdout.strip() else out.stderr[-300:]
        row["ok"] = out.returncode == 2 and "cannot play it" in error
        row["refused"] = error
        return row
    if out.returncode != 0:
        row.update(ok=False, error=(out.stdout + out.stderr)[-500:])
        return row
    summary = json.loads(out.stdout)["policies"][0]
    row.update(wins=summary["wins"], losses=summary["losses"], tables=0, problems=[])
    for path in sorted(glob.glob(os.path.join(save, "*.deal.json"))):
        deal = json.load(open(path, encoding="utf-8"))
        table = json.load(open(path.replace(".deal.json", ".json"), encoding="utf-8"))
        row["tables"] += 1
        row["problems"] += [f"{os.path.basename(path)}: {p}" for p in check_game(table, deal)]
        row.setdefault("results", []).append(deal["result"])
    row["ok"] = row["tables"] == games and not row["problems"]
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--missions", default="1-66", help="a range a-b or a comma list")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--keep", help="save the tables under this directory (default: a temporary one)")
    a = ap.parse_args()
    if "-" in a.missions:
        lo, hi = map(int, a.missions.split("-"))
        missions = list(range(lo, hi + 1))
    else:
        missions = [int(x) for x in a.missions.split(",")]
    root = a.keep or tempfile.mkdtemp(prefix="sweep-")
    tasks = [(m, p, a.games, a.policy, root) for m in missions for p in sorted(BY_NUMBER[m].wires)]
    t0 = time.perf_counter()
    rows = []
    with ProcessPoolExecutor(a.jobs) as pool:
        for row in pool.map(cell, tasks):
            rows.append(row)
            status = "ok" if row["ok"] else "FAIL"
            what = row.get("refused") or row.get("error") or f"{row['tables']} tables, results {row.get('results')}"
            print(f"M{row['mission']:<2} {row['players']}p exit {row['exit']} {status:4} {row['seconds']:6.1f}s  {what}",
                  flush=True)
            for p in row.get("problems", [])[:5]:
                print(f"      {p}", flush=True)
    passed = [r for r in rows if r["ok"] and "refused" not in r]
    refused = [r for r in rows if "refused" in r]
    failed = [r for r in rows if not r["ok"]]
    print(f"\n{len(rows)} cells: {len(passed)} played and consistent, {len(refused)} refused "
          f"({', '.join(sorted({'M' + str(r['mission']) for r in refused}))}), "
          f"{len(failed)} failed; {sum(r.get('tables', 0) for r in rows)} tables checked; "
          f"{time.perf_counter() - t0:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
