"""Benchmark: self-play decisions per second per policy, and sampler deals per second (not a test).

    python bench/bench_sim.py [--deals N] [--policies random,greedy,...] [--budgets 8x3,16x4]

Decisions: on simulated positions (mission, players, turns): a game dealt
from ``Random(f"bench-{mission}-{players}")``, setup tokens and greedy turns
until the first decision at or after that many turns where greedy has no
certain move (so the lookahead draws its deals): seconds per decision of
each policy for the player to move, from their own view; the lookahead at
each budget DEALSxDEPTH (the page's 8x3, the tournament's default 16x4) with
the deals it drew, and the page's request (8x3 bounded by work 60: fewer
deals where analyses cost more, sim/lookahead_advice.py).  Sampler: the exact sampler's deals per second on the
5-player benchmark states of bench/bench_analyze.py (one preparation, then
``--deals`` deals).
Timings are wall clock on whatever else the machine is running: quote the
load average with them.

    python bench/bench_sim.py --games 4:2,8:2 --baseline /path/to/other/checkout [--players 4]

Greedy games instead: each MISSION:GAMES game of the tournament's seed 7
(``play_game``, with equipment), played in a child process by this checkout
and by the ``--baseline`` checkout, missions alternating between the two:
CPU seconds per game and per decision (the game's CPU, its mechanics
included, over its decisions), each checkout's total and the ratio, and
whether the two gave the same records (decision times aside).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

from bench_analyze import states  # noqa: E402  (also puts the repository and tests/ on sys.path)

from bombbuster_core.sim import POLICIES  # noqa: E402
from bombbuster_core.sim.lookahead_advice import lookahead  # noqa: E402
from bombbuster_core.sim.deal import new_game  # noqa: E402
from bombbuster_core.sim.greedy import GreedyPolicy  # noqa: E402
from bombbuster_core.sim.lookahead import LookaheadPolicy  # noqa: E402
from bombbuster_core.sim.view import View  # noqa: E402
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


# Run in a child whose working directory is the checkout to measure (``-c`` puts it first on sys.path).
PLAY = """
import json, sys, time
from bombbuster_core.sim.tournament import play_game
mission, players, games = (int(a) for a in sys.argv[1:4])
for i in range(games):
    t0 = time.process_time()
    record = play_game((mission, players, 7, "greedy", i, None, {}, True))
    record.pop("seconds")
    print(json.dumps({"cpu": time.process_time() - t0, "record": record}), flush=True)
"""


def greedy_games(root: str, mission: int, players: int, games: int) -> list[dict]:
    """``games`` greedy games of ``mission`` played by the checkout at ``root``: CPU seconds and record each."""
    out = subprocess.run([sys.executable, "-c", PLAY, str(mission), str(players), str(games)], cwd=root, check=True,
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": root}).stdout
    return [json.loads(line) for line in out.splitlines()]


def compare_games(cells: list[tuple[int, int]], players: int, baseline: str) -> None:
    """Greedy games' CPU per game and per decision, this checkout against ``baseline`` (module docstring)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    roots = {"baseline": os.path.abspath(baseline), "this": here}
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}, CPU seconds (process_time)")
    print(f"baseline {roots['baseline']}, this {here}")
    print(f"{'mission':8} {'checkout':9} {'games':>5} {'decisions':>9} {'s/game':>8} {'ms/decision':>11}")
    totals = {name: [0.0, 0, 0] for name in roots}  # cpu, decisions, games
    same = 0
    for n, (mission, games) in enumerate(cells):
        order = list(roots) if n % 2 == 0 else list(roots)[::-1]  # alternate who runs first
        played = {name: greedy_games(roots[name], mission, players, games) for name in order}
        for name in roots:
            cpu, decisions = sum(g["cpu"] for g in played[name]), sum(g["record"]["decisions"] for g in played[name])
            totals[name] = [totals[name][0] + cpu, totals[name][1] + decisions, totals[name][2] + games]
            print(f"M{mission:<7} {name:9} {games:5d} {decisions:9d} {cpu / games:8.3f} {1000 * cpu / decisions:11.1f}",
                  flush=True)
        same += sum(a["record"] == b["record"] for a, b in zip(played["baseline"], played["this"]))
    (cb, db, gb), (ct, dt, gt) = totals["baseline"], totals["this"]
    print(f"{'all':8} {'baseline':9} {gb:5d} {db:9d} {cb / gb:8.3f} {1000 * cb / db:11.1f}")
    print(f"{'all':8} {'this':9} {gt:5d} {dt:9d} {ct / gt:8.3f} {1000 * ct / dt:11.1f}")
    print(f"baseline / this: {cb / ct:.2f}x CPU per game, {(cb / db) / (ct / dt):.2f}x per decision; "
          f"same records {same} of {gb}; load average {os.getloadavg()[0]:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200, help="deals drawn per sampler state (after its one preparation)")
    ap.add_argument("--policies", default=",".join(p for p, cls in POLICIES.items() if not cls.sees_the_deal))
    ap.add_argument("--budgets", default="8x3,16x4", help="lookahead budgets, DEALSxDEPTH, comma-separated")
    ap.add_argument("--games", help="greedy games instead, MISSION:GAMES comma-separated (needs --baseline)")
    ap.add_argument("--baseline", help="the checkout --games compares this one with")
    ap.add_argument("--players", type=int, default=4, help="--games: players per game")
    args = ap.parse_args()
    if args.games:
        if not args.baseline:
            ap.error("--games needs --baseline")
        cells = [tuple(int(n) for n in cell.split(":")) for cell in args.games.split(",")]
        compare_games(cells, args.players, args.baseline)  # type: ignore[arg-type]
        return
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
