"""Benchmark: self-play decisions per second per policy, and sampler deals per second (not a test).

    python bench/bench_sim.py [--deals N] [--policies random,greedy,...] [--budgets 8x3,16x4]

Decisions: on simulated positions (mission, players, turns): a game dealt
from ``Random(f"bench-{mission}-{players}")``, setup tokens and greedy turns
until the first decision at or after that many turns where greedy has no
certain move (so the lookahead draws its deals): seconds per decision of
each policy for the player to move, from their own view; the lookahead at
each budget DEALSxDEPTH (the page's 8x3, the tournament's default 16x4) with
the deals it drew, and the page's request (8x3 bounded by work 60: fewer
deals where analyses cost more, sim/advice.py).  Sampler: the exact sampler's deals per second on the
5-player benchmark states of bench/bench_analyze.py (one preparation, then
``--deals`` deals).
Timings are wall clock on whatever else the machine is running: quote the
load average with them.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

from bench_analyze import states  # noqa: E402  (also puts the repository and tests/ on sys.path)

from bombbuster_core.sim.advice import lookahead  # noqa: E402
from bombbuster_core.sim.game import new_game  # noqa: E402
from bombbuster_core.sim.policies import POLICIES, GreedyPolicy, LookaheadPolicy, View  # noqa: E402
from bombbuster_core.engines.sampling import sample_table as sample  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402

PAGE = {"deals": 8, "depth": 3, "work": 60, "seed": 0}  # web/js/suggestions.js: LOOKAHEAD
DECISION_STATES = [(4, 4, 0), (8, 5, 0), (4, 4, 12), (8, 5, 12), (8, 5, 24)]  # (mission, players, turns)
SAMPLER_STATES = ["5p observer, no token", "5p observer, setup tokens", "5p public, setup tokens",
                  "5p observer, mid-game (15 turns)", "5p public, mid-game (15 turns)",
                  "5p observer, late game (35 turns)", "5p public, late game (35 turns)"]


def position(mission: int, players: int, turns: int) -> View | None:
    """The first open decision (greedy not certain) at or after ``turns`` greedy turns, or None."""
    game = new_game(random.Random(f"bench-{mission}-{players}"), mission=mission, players=players)
    greedy = GreedyPolicy(random.Random(0))
    for p in game.setup_token_players():
        game.place_token(greedy.setup_token(View(game.table(p), p)))
    while not game.over:
        view = View(game.table(game.turn), game.turn)
        if game.turns >= turns and not greedy.ranking(view, ())[0]["certain"]:
            return view
        game.play(greedy.move(view))
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200, help="deals drawn per sampler state (after its one preparation)")
    ap.add_argument("--policies", default=",".join(POLICIES))
    ap.add_argument("--budgets", default="8x3,16x4", help="lookahead budgets, DEALSxDEPTH, comma-separated")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}, wall clock")
    print(f"{'decision (mission, players, turn)':36} {'policy':18} {'s/decision':>10} {'decisions/s':>11} {'deals':>5}")
    budgets = [tuple(int(n) for n in b.split("x")) for b in args.budgets.split(",")]
    for mission, players, turns in DECISION_STATES:
        view = position(mission, players, turns)
        if view is None:
            continue
        name = f"M{mission} {players}p, turn {len(view.raw['events'])} events in"
        for policy in args.policies.split(","):
            if policy == "lookahead":
                deciders = [(f"{policy} {d}x{t}", LookaheadPolicy(random.Random(0), d, t)) for d, t in budgets]
            else:
                deciders = [(policy, POLICIES[policy](random.Random(0)))]
            for label, decider in deciders:
                t0 = time.perf_counter()
                if isinstance(decider, LookaheadPolicy):
                    drawn = str(decider.decide(view).deals)
                else:
                    decider.move(view)
                    drawn = ""
                dt = time.perf_counter() - t0
                print(f"{name:36} {label:18} {dt:10.3f} {1 / dt:11.1f} {drawn:>5}", flush=True)
            if policy == "lookahead":  # the page's request (web/js/suggestions.js: LOOKAHEAD)
                t0 = time.perf_counter()
                drawn = str(lookahead({"table": view.raw, **PAGE})["deals"])
                dt = time.perf_counter() - t0
                print(f"{name:36} {'page (work 60)':18} {dt:10.3f} {1 / dt:11.1f} {drawn:>5}", flush=True)
    tables = states()
    print()
    print(f"{'sampler state':36} {'deals':>5} {'seconds':>8} {'deals/s':>8}")
    for name in SAMPLER_STATES:
        table = load_table(tables[name])
        t0 = time.perf_counter()
        sample(table, args.deals, random.Random(0))
        dt = time.perf_counter() - t0
        print(f"{name:36} {args.deals:5d} {dt:8.2f} {args.deals / dt:8.2f}", flush=True)


if __name__ == "__main__":
    main()
