"""What the equipment changes: greedy with and without the cards on the same deals, paired (issue 19).

    python bench/equipment_gain.py bench/tournaments/m4-greedy-equipment.log bench/tournaments/m4-greedy-no-equipment.log

The two logs are one policy's games of one mission, player count and seed,
played by ``tournament ... --log A`` and ``tournament ... --no-equipment
--log B``: the same deals (the cards' draws have a generator of their own),
so game i of each log is a pair.  Prints each side's win rate with its 95 %
Wilson interval and the paired difference (with − without) with Newcombe's
interval, over the games both logs hold.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

from paired import report  # noqa: E402  (first: it puts the repository on sys.path)

from bombbuster_core.sim.tournament import read_records  # noqa: E402

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def games(path: str, equipment: bool) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
    """The log's records by game, and its one setting (the other side's must match but for equipment)."""
    records = read_records(path)
    settings = [r["settings"] for r in records]
    if not records or any(s != settings[0] for s in settings) or len({r["policy"] for r in records}) != 1:
        raise ValueError(f"{path}: not one policy's games with one setting")
    if settings[0].get("equipment") is not equipment:
        raise ValueError(f"{path}: games {'without' if equipment else 'with'} equipment, expected the other")
    return {r["game"]: r for r in records}, {**settings[0], "policy": records[0]["policy"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("with_log", help="the games with equipment")
    parser.add_argument("without_log", help="the same games with --no-equipment")
    args = parser.parse_args(argv)
    try:
        with_games, a = games(args.with_log, True)
        without_games, b = games(args.without_log, False)
    except ValueError as e:
        print(f"equipment_gain: {e}", file=sys.stderr)
        return 2
    if {**a, "equipment": None} != {**b, "equipment": None}:
        print(f"equipment_gain: the logs are not the same games: {a} vs {b}", file=sys.stderr)
        return 2
    paired = sorted(set(with_games) & set(without_games))
    print(f"M{a['mission']} {a['players']}p, {a['policy']}, seed {a['seed']}, simulator v{a['sim']}: "
          f"{len(paired)} paired games")
    report(("with equipment", [with_games[g] for g in paired]), ("without", [without_games[g] for g in paired]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
