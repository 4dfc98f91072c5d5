"""Benchmark: what the equipment advice adds to ``suggest`` on the benchmark states (not a test).

    python bench/bench_suggest_equipment.py [--states "a;b"] [--budget N|none]

States are bench/bench_analyze.py's (53 real wires, legal random games), with
every card on the board and unlocked (the board is patched, as in
tests/test_suggest_equipment.py).  For each state it prints the seconds of the
suggestion list without the advice and with it, their ratio, and each card's
engine runs and seconds.  Quote the machine load (printed) with the figures.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "bench")]

from bench_analyze import states  # noqa: E402  (the lead's state builders)

from bombbuster_core import equipment as eq  # noqa: E402
from bombbuster_core.suggest import equipment as advice  # noqa: E402
from bombbuster_core.suggest import Policy, suggest  # noqa: E402
from bombbuster_core.table import Table, load_table  # noqa: E402

CARDS = ("8", "9", "4", "12", "1", "2.2", "11.11", "2", "9.9", "10.10", "6", "11", "7", "3.3", "Y")
DEFAULT_STATES = ("5p observer, setup tokens", "5p public, setup tokens", "5p observer, late game (35 turns)")


def every_card(self: Table) -> eq.BoardState:
    return eq.BoardState(CARDS, tuple(p.character for p in self.players), {v: 4 for v in [*range(1, 13), "yellow"]})


SECONDS: dict[str, float] = {}


def timed(card):  # wraps Advisor.card: the seconds each card's advice took
    def run(self, which, incomplete):
        t0 = time.perf_counter()
        try:
            return card(self, which, incomplete)
        finally:
            SECONDS[which] = time.perf_counter() - t0
    return run


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--states", default=";".join(DEFAULT_STATES))
    ap.add_argument("--budget", default="8", help="engine runs per card ('none': no limit)")
    args = ap.parse_args()
    budget = None if args.budget == "none" else int(args.budget)
    Table.equipment_board = every_card  # type: ignore[method-assign]
    advice.Advisor.card = timed(advice.Advisor.card)  # type: ignore[method-assign]
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    built = dict(states())
    for name in args.states.split(";"):
        table = load_table(built[name])
        player = None if table.me is not None else 0
        policy = Policy(equipment_budget=budget)
        t0 = time.perf_counter()
        suggest(table, player=player, policy=policy, cards=False)
        plain = time.perf_counter() - t0
        t0 = time.perf_counter()
        result = suggest(table, player=player, policy=policy)
        advised = time.perf_counter() - t0
        print(f"{name}: list {plain:.2f} s, list + advice {advised:.2f} s (x{advised / plain:.2f})")
        for card in result["equipment"]["cards"]:
            cut = f", incomplete: {'; '.join(card['incomplete'])}" if card["incomplete"] else ""
            seconds = SECONDS.get(advice.SAME_EFFECT.get(card["card"], card["card"]), 0.0)
            print(f"  {card['card']:>15} {card['name']:<20} {card['analyses']:>2} runs {seconds:6.2f} s  "
                  f"{card['verdict']}{cut}")


if __name__ == "__main__":
    main()
