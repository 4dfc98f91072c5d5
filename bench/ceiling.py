"""The ceiling: greedy against the sighted policy (which sees the true deal) on the same deals (issue 20).

    python bench/ceiling.py bench/tournaments/m8-greedy-sighted.log

The log holds both policies' games of one mission, player count and seed
(``tournament --policy greedy --policy sighted --log LOG``; greedy's games may
be copied in from its own log first and the run ``--resume``d: only sighted's
are then played).  Game i of each is the same deal.  Prints each side's win
rate with its 95 % Wilson interval and its games by result (every kind: win,
red, detonator, explosion, stuck), the paired difference sighted − greedy
with Newcombe's interval (the headroom: what perfect information is worth to
greedy), and what sighted made of the deals greedy lost, by greedy's result.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections import Counter

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

from paired import report  # noqa: E402  (first: it puts the repository on sys.path)

from bombbuster_core.sim.tournament import LogError, read_records  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("log", help="greedy's and sighted's games of the same deals")
    args = parser.parse_args(argv)
    try:
        records = read_records(args.log)
    except LogError as e:
        print(f"ceiling: {e}", file=sys.stderr)
        return 2
    by = {name: {r["game"]: r for r in records if r["policy"] == name} for name in ("greedy", "sighted")}
    base = [{k: v for k, v in r["settings"].items() if k != "sees_the_deal"} for r in records]
    if not all(by.values()) or any(s != base[0] for s in base) or not all(
            r["settings"].get("sees_the_deal") for r in by["sighted"].values()):
        print(f"ceiling: {args.log}: not greedy's and sighted's games of one setting", file=sys.stderr)
        return 2
    games = sorted(set(by["greedy"]) & set(by["sighted"]))
    s = base[0]
    print(f"M{s['mission']} {s['players']}p, seed {s['seed']}, equipment {s['equipment']}, simulator v{s['sim']}: "
          f"{len(games)} paired games")
    report(("sighted", [by["sighted"][g] for g in games]), ("greedy", [by["greedy"][g] for g in games]))
    lost = Counter((by["greedy"][g]["result"], by["sighted"][g]["result"]) for g in games
                   if by["greedy"][g]["result"] != "win")
    for (g, t), n in sorted(lost.items()):
        print(f"  greedy {g:9} -> sighted {t:9} {n:5d} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
