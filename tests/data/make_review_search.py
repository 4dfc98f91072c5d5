"""Writes tests/data/review_search.json for tests/e2e/test_review_page.py: a simulated Mission 4 game
(4 players, no equipment, seed 8) at its first open decision (no certain move, more than two calls),
after the acting player made the ranking's third move, as that player's own table without meta.sim
(as the page holds it).  There the search runs (review --search), unlike the recorded game of
review_m4.json, whose decisions all had a certain move.

    PYTHONPATH=. python tests/data/make_review_search.py
"""
from __future__ import annotations

import json
import random
from pathlib import Path

from bombbuster_core.sim.greedy import GreedyPolicy
from bombbuster_core.sim.view import View, action_of
from tests.test_lookahead import open_game

OUT = Path(__file__).with_name("review_search.json")


def main() -> None:
    game = open_game(8)
    actor = game.turn
    ranked = GreedyPolicy(random.Random(0)).ranking(View(game.table(actor), actor), ())
    index = len(game.table(actor)["events"])
    game.play(action_of(ranked[2], actor))
    table = game.table(actor)
    table["meta"] = {k: v for k, v in table["meta"].items() if k != "sim"}
    OUT.write_text(json.dumps({"table": table, "event": index}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
