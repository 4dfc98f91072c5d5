"""The honest ceiling (issue 34 item 3): the full-information solver against sighted and greedy on the same deals.

    python bench/fullinfo_ceiling.py            # reprints the table from the logs
    nice -n 10 python bench/fullinfo_ceiling.py --solve   # solves the deals the logs miss first

Each cell is a mission and player count of the ceiling logs (seed 2026, the equipment dealt, simulator
v2): ``bench/tournaments/m{M}-greedy-sighted.log`` holds greedy's and sighted's games, and
``bench/tournaments/fullinfo-m{M}-p{P}-s2026.log`` the solver's verdict on each deal (one JSON line a
game: ``win`` with the winning line's length and its replayed result, ``loss``, or ``unresolved``
when the node budget ran out).  Game ``i`` is dealt as tournament.play_game deals it,
``new_game(Random(f"{seed}-{i}"), mission, players, equipment=True)``, so the three meet the same deals.

Per cell: the solver's wins, proven losses and unresolved deals; its win rate with the 95 % Wilson
interval counting the unresolved deals as losses (low) and as wins (high: the bound takes both ends);
sighted's and greedy's rates with their intervals (greedy 1, of the ceiling logs, and greedy 3, the
ranking of issue 34, from ``m{4,8}-greedy3-equipment.log`` or its difficulty cell
``difficulty-greedy3/mNN-pP.log`` once that cell is played); the paired differences solver − greedy 3,
solver − sighted and solver − greedy 1 (Newcombe, unresolved counted as losses); and any deal a policy won that the solver
calls a loss (a contradiction: the solver's lines include every policy's).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path[:0] = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]

from bombbuster_core.sim.deal import new_game  # noqa: E402
from bombbuster_core.sim.fullinfo import play_line, solve  # noqa: E402
from bombbuster_core.sim.tournament import paired_difference, read_records, wilson  # noqa: E402

SEED = 2026
CELLS = ((4, 4), (8, 5), (20, 4), (24, 4), (38, 4), (43, 4))  # the ceiling logs' player counts
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tournaments")


def policy_log(mission: int) -> str:
    return os.path.join(HERE, f"m{mission}-greedy-sighted.log")


def greedy3_log(mission: int, players: int) -> str:
    """Greedy 3's games of the same deals (issue 34 item 4): M4/M8's 1,000-game logs, else its difficulty cell."""
    if mission in (4, 8):
        return os.path.join(HERE, f"m{mission}-greedy3-equipment.log")
    return os.path.join(HERE, "difficulty-greedy3", f"m{mission:02d}-p{players}.log")


def solver_log(mission: int, players: int) -> str:
    return os.path.join(HERE, f"fullinfo-m{mission}-p{players}-s{SEED}.log")


def solved(path: str) -> dict[int, dict]:
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return {r["game"]: r for r in map(json.loads, f)}


def solve_cell(mission: int, players: int, games: list[int], nodes: int) -> None:
    """Solve the deals of ``games`` the solver's log misses, appending one line each."""
    path = solver_log(mission, players)
    have = solved(path)
    with open(path, "a", encoding="utf-8") as out:
        for i in games:
            if i in have:
                continue
            game = new_game(random.Random(f"{SEED}-{i}"), mission=mission, players=players, equipment=True)
            t0 = time.perf_counter()
            s = solve(game, nodes=nodes)
            record = {"game": i, "verdict": s.verdict, "nodes": s.nodes, "seconds": round(time.perf_counter() - t0, 3),
                      "budget": nodes, "settings": {"mission": mission, "players": players, "seed": SEED,
                                                    "equipment": True}}
            if s.verdict == "win":
                record.update(line=len(s.line), replayed=play_line(game, s.line))
            out.write(json.dumps(record) + "\n")
            out.flush()
            print(f"M{mission} {players}p game {i}: {s.verdict} ({s.nodes} nodes, {record['seconds']} s)",
                  file=sys.stderr, flush=True)


def rate(wins: int, n: int) -> str:
    lo, hi = wilson(wins, n)
    return f"{wins / n:.3f} [{lo:.3f}, {hi:.3f}]" if n else "-"


def row(mission: int, players: int) -> str | None:
    records = read_records(policy_log(mission))
    by = {name: {r["game"]: r["result"] == "win" for r in records if r["policy"] == name}
          for name in ("greedy", "sighted")}
    verdicts = solved(solver_log(mission, players))
    games = sorted(set(by["greedy"]) & set(by["sighted"]) & set(verdicts))
    if not games:
        return None
    n = len(games)
    v = [verdicts[g]["verdict"] for g in games]
    wins, losses, open_ = v.count("win"), v.count("loss"), v.count("unresolved")
    bad = [g for g in games if verdicts[g]["verdict"] == "win" and verdicts[g].get("replayed") != "win"]
    low, _ = wilson(wins, n)
    _, high = wilson(wins + open_, n)
    solver = [int(verdicts[g]["verdict"] == "win") for g in games]
    diffs = []
    for name in ("sighted", "greedy"):
        d, lo, hi = paired_difference(solver, [int(by[name][g]) for g in games])
        diffs.append(f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]")
    # Greedy 3 (the ranking of issue 34) where it has played these deals: every deal of the row, or not shown.
    path = greedy3_log(mission, players)
    greedy3 = {r["game"]: r["result"] == "win" for r in (read_records(path) if os.path.exists(path) else [])
               if r["policy"] == "greedy"}
    if set(games) <= set(greedy3):
        d, lo, hi = paired_difference(solver, [int(greedy3[g]) for g in games])
        third = f"{rate(sum(greedy3[g] for g in games), n)} | {d:+.3f} [{lo:+.3f}, {hi:+.3f}]"
    else:
        third = "not played | -"
    contradictions = [g for g in games if verdicts[g]["verdict"] == "loss"
                      and (by["sighted"][g] or by["greedy"][g] or greedy3.get(g, False))]
    return (f"| M{mission} {players}p | {n} | {wins}/{losses}/{open_} | {wins / n:.3f} [{low:.3f}, {high:.3f}] | "
            f"{rate(sum(by['sighted'][g] for g in games), n)} | {rate(sum(by['greedy'][g] for g in games), n)} | "
            f"{third} | {diffs[0]} | {diffs[1]} | {len(contradictions)} | {len(bad)} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--solve", action="store_true", help="solve the deals the solver's logs miss first")
    parser.add_argument("--nodes", type=int, default=20_000, help="the solver's budget per deal (positions)")
    parser.add_argument("--missions", default=",".join(str(m) for m, _ in CELLS), help="e.g. 38,43")
    args = parser.parse_args(argv)
    wanted = {int(m) for m in args.missions.split(",")}
    cells = [(m, p) for m, p in CELLS if m in wanted]
    if args.solve:
        for m, p in cells:
            games = sorted({r["game"] for r in read_records(policy_log(m))})
            solve_cell(m, p, games, args.nodes)
    print(f"seed {SEED}, equipment, simulator v2; solver: wins/proven losses/unresolved; its rate's interval "
          "runs from the unresolved counted as losses to them counted as wins; differences count them as losses")
    print("| cell | deals | solver W/L/U | solver (ceiling) | sighted | greedy 1 | greedy 3 | solver − greedy 3 | "
          "solver − sighted | solver − greedy 1 | policy won, solver 'loss' | win not replayed |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for m, p in cells:
        line = row(m, p)
        if line:
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
