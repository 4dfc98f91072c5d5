"""Where a search policy's games leave greedy's: the decisions behind its wins and losses (issue 20 item 4).

    python bench/search_departures.py bench/tournaments/m4-greedy-ismcts-equipment.log [--games 12,40] [--all]

The log holds greedy's and ismcts's games of the same deals (search_gain.py).
With common random numbers an ismcts game is greedy's move for move until the
search keeps another move than greedy's (tournament.py), so replaying the
discordant games (won by one side only; ``--all``: every game whose record
differs from greedy's; ``--games``: these) shows what the search changed.
Each game is replayed exactly as the tournament played it (its record must
come out the same, or the script stops) and every decision where the search
played another move than greedy's is printed: how many wires were uncut, greedy's move and
the search's, with the root's visits and mean value of each.  The summary
counts those departures by what the search played instead (a card, another
call, a Double Detector) in the games ismcts won alone and in those it lost
alone.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections import Counter

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

from paired import by_policy, wins  # noqa: E402  (first: it puts the repository on sys.path)

from bombbuster_core import equipment as eq  # noqa: E402
from bombbuster_core.sim.actions import UseCard  # noqa: E402
from bombbuster_core.sim.ismcts import IsmctsPolicy  # noqa: E402
from bombbuster_core.sim.tournament import play_game  # noqa: E402


def described(action: object) -> str:
    if isinstance(action, UseCard):
        return f"{eq.CARDS[action.card].name if action.card in eq.CARDS else action.card} {action.option or ''}".strip()
    return repr(action)


def kind(action: object) -> str:
    if isinstance(action, UseCard):
        return f"card {eq.CARDS[action.card].name if action.card in eq.CARDS else action.card}"
    return type(action).__name__


def replay(record: dict, departures: list[tuple[int, object, object, tuple, tuple]]) -> dict:
    """The tournament's game of ``record`` played again, each departure from greedy's move noted."""
    s = record["settings"]
    options = s.get("budget", {})
    decide = IsmctsPolicy.decide

    def traced(self: IsmctsPolicy, view, pending):
        d = decide(self, view, pending)
        if d.root is not None and d.action != d.moves[0]:
            def stats(a: object) -> tuple[int, float]:
                child = d.root.children.get(a)
                return (child.visits, child.mean()) if child is not None else (0, 0.0)
            uncut = len(view.my_uncut()) + len(view.teammates_uncut())
            departures.append((uncut, d.moves[0], d.action, stats(d.moves[0]), stats(d.action)))
        return d

    IsmctsPolicy.decide = traced
    try:
        return play_game((s["mission"], s["players"], s["seed"], record["policy"], record["game"], None, options,
                          s.get("equipment", True)))
    finally:
        IsmctsPolicy.decide = decide


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("log", help="greedy's and ismcts's games of the same deals")
    parser.add_argument("--games", help="these game indices (comma-separated) instead of the discordant ones")
    parser.add_argument("--all", action="store_true", help="every game whose record differs from greedy's")
    args = parser.parse_args(argv)
    by = by_policy(args.log, ("greedy", "ismcts"), "search_departures")
    if by is None:
        return 2
    paired = sorted(set(by["greedy"]) & set(by["ismcts"]))
    if args.games:
        chosen = [int(g) for g in args.games.split(",")]
    elif args.all:
        chosen = [g for g in paired if any(by["greedy"][g][k] != by["ismcts"][g][k]
                                           for k in ("result", "failed_cuts", "turns", "decisions"))]
    else:
        chosen = [g for g in paired if wins([by["greedy"][g]]) != wins([by["ismcts"][g]])]
    tally: dict[str, Counter[str]] = {"won alone": Counter(), "lost alone": Counter(), "same result": Counter()}
    left: list[int] = []  # wires uncut at each departure
    for g in chosen:
        departures: list[tuple[int, object, object, tuple, tuple]] = []
        again = replay(by["ismcts"][g], departures)
        logged = by["ismcts"][g]
        if any(again[k] != logged[k] for k in ("result", "failed_cuts", "turns", "decisions")):
            print(f"search_departures: game {g} did not replay as logged: {again} against {logged}", file=sys.stderr)
            return 2
        greedy, ismcts = by["greedy"][g]["result"], logged["result"]
        side = ("won alone" if ismcts == "win" else "lost alone") if (greedy == "win") != (ismcts == "win") \
            else "same result"
        print(f"game {g}: greedy {greedy}, ismcts {ismcts} ({len(departures)} departures)")
        for uncut, mine, theirs, a, b in departures:
            print(f"  {uncut} wires uncut: greedy {described(mine)} ({a[0]} visits, mean {a[1]:.3f}) -> "
                  f"{described(theirs)} ({b[0]} visits, mean {b[1]:.3f})")
            tally[side][kind(theirs)] += 1
            left.append(uncut)
    for side, counts in tally.items():
        if counts:
            print(f"{side}: " + ", ".join(f"{k} {n}" for k, n in counts.most_common()))
    if left:
        print(f"wires uncut at the departures: median {statistics.median(left)}, range {min(left)}-{max(left)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
