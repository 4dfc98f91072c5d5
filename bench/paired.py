"""Two sides' games of the same deals, paired: the report the log-reading benches print.

ceiling.py (greedy and sighted), equipment_gain.py (with and without the cards)
and search_gain.py (greedy and a search policy) each pair game i of one side
with game i of the other.  :func:`report` prints each side's win rate with its
95 % Wilson interval and its losses by kind, then the paired difference with
Newcombe's interval.
"""
from __future__ import annotations

import os
import sys

sys.path[:0] = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]

from bombbuster_core.sim.tournament import LogError, paired_difference, read_records, wilson  # noqa: E402

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Sequence

LOSSES = ("red", "detonator", "explosion", "stuck")


def by_policy(path: str, names: Sequence[str], prog: str) -> dict[str, dict[int, dict[str, Any]]] | None:
    """The log's records of each of ``names`` by game index; None, said on stderr as ``prog``, when the
    log cannot be read."""
    try:
        records = read_records(path)
    except LogError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return None
    return {name: {r["game"]: r for r in records if r["policy"] == name} for name in names}


def wins(records: list[dict[str, Any]]) -> list[int]:
    return [int(r["result"] == "win") for r in records]


def report(first: tuple[str, list[dict[str, Any]]], second: tuple[str, list[dict[str, Any]]]) -> None:
    """Print both sides (name, records in pair order) and ``first - second``."""
    width = max(len(first[0]), len(second[0]))
    for name, records in (first, second):
        w = wins(records)
        lo, hi = wilson(sum(w), len(w))
        lost = ", ".join(f"{k} {sum(r['result'] == k for r in records)}" for k in LOSSES)
        print(f"  {name:{width}} {sum(w):5d}/{len(w)}  {sum(w) / max(1, len(w)):.3f} [{lo:.3f}, {hi:.3f}]  lost: {lost}")
    if first[1]:
        mean, lo, hi = paired_difference(wins(first[1]), wins(second[1]))
        print(f"  {first[0]} - {second[0]} {mean:+.3f} [{lo:+.3f}, {hi:+.3f}] (Newcombe, paired)")
