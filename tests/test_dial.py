"""The dial the Rewinder's advice reads (dial.py): the simulator's own dial is the oracle.

The simulator moves its dial by its rules as it plays (sim/game.py: ``_fail``,
the Stabilizer, ``_rewind``); the core reads the dial back from the table file's
events alone.  Games are played recklessly (a third of the calls at random, the
Rewinder used whenever it may be, the Stabilizer often) so that
failures, stabilised failures and rewinds all occur.  The page's own dial
(web/js/gamestate.js, run by Node: tests/page_dial.mjs) must be the core's
after every event of those games.
"""
from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bombbuster_core.dial import Dial, dial
from bombbuster_core.missions import new_table
from bombbuster_core.sim.game import UseCard, _tupled, deal_equipment, new_game
from bombbuster_core.sim.policies import GreedyPolicy, RandomPolicy, View
from bombbuster_core.suggest import suggest
from bombbuster_core.table import TableError, load_table

ROOT = Path(__file__).resolve().parents[1]
GAMES = [(4, 4, s) for s in range(6)] + [(8, 5, s) for s in range(6)] + [(66, 3, s) for s in range(6)] + [
    (1, 2, s) for s in range(4)]


def reckless_game(mission: int, players: int, seed: int) -> Any:
    game = new_game(random.Random(seed), mission=mission, players=players, equipment=False)
    deal_equipment(game, random.Random(seed), cards=["6", "9"])  # the Rewinder, the Stabilizer
    return game


def reckless_move(game: Any, rng: random.Random, greedy: GreedyPolicy, wild: RandomPolicy) -> Any:
    p = game.turn
    view = View(game.table(p), p)
    pending = game.queue[0] if game.queue else None
    if pending is not None and pending["kind"] == "turn":
        usable = {u["card"]: u["options"] for u in game.card_uses(p, pending)}
        if "6" in usable and rng.random() < 0.8:
            return UseCard("6")
        if usable.get("9") and rng.random() < 0.5:  # a stabilised call, often a failure
            return UseCard("9", _tupled(rng.choice(usable["9"])))
        if rng.random() < 0.35:
            return wild.move(view)
    return greedy.move(view)


def core_dial(game: Any, player: int | None) -> Dial | None:
    return dial(load_table(game.table(player)))


def test_the_core_dial_is_the_simulators_at_every_decision() -> None:
    seen: Counter[str] = Counter()
    for mission, players, seed in GAMES:
        game = reckless_game(mission, players, seed)
        rng, greedy, wild = random.Random(seed), GreedyPolicy(random.Random(seed)), RandomPolicy(random.Random(seed))
        for p in game.setup_token_players():
            game.place_token(greedy.setup_token(View(game.table(p), p)))
        while True:
            for player in (None, *range(players)):
                now = core_dial(game, player)
                assert now == Dial(game.dial_start, game.dial_start - game.dial), (mission, seed, player, game.events[-2:])
                assert now.failures_left == game.dial - 1
            if game.over:
                break
            action = reckless_move(game, rng, greedy, wild)
            assert game.is_legal(action)
            game.play(action)
            e = game.events[-1]
            if e["type"] == "equipment" and e["card"] == "6":
                seen["rewinder"] += 1
            elif e["type"] == "dual_cut" and not e["success"]:
                seen["stabilised" if e.get("stabilizer") else "failure"] += 1
        seen[game.result] += 1
    # The games reach every case the dial reads (a test that cannot fail would prove nothing).
    assert seen["rewinder"] >= 10 and seen["stabilised"] >= 3 and seen["failure"] >= 30, seen
    assert seen["detonator"] >= 3, seen


def test_the_pages_dial_is_the_cores(tmp_path: Path, missing_piece) -> None:
    """The page shows its own dial (web/js/gamestate.js, in every mission); in the missions the core
    follows, it must be the core's after every event of the reckless games (the page reads no
    meta.sim: a page's table)."""
    if not shutil.which("node"):
        missing_piece("Node is not installed: it runs the page's dial here")
    tables = []
    for mission, players, seed in GAMES:
        game = reckless_game(mission, players, seed)
        rng, greedy, wild = random.Random(seed), GreedyPolicy(random.Random(seed)), RandomPolicy(random.Random(seed))
        for p in game.setup_token_players():
            game.place_token(greedy.setup_token(View(game.table(p), p)))
        while not game.over:
            game.play(reckless_move(game, rng, greedy, wild))
        raw = game.table()
        tables.append({**raw, "meta": {k: v for k, v in raw["meta"].items() if k != "sim"}})
    (tmp_path / "tables.json").write_text(json.dumps(tables))
    subprocess.run(["node", str(ROOT / "tests" / "page_dial.mjs"), str(tmp_path / "tables.json"),
                    str(tmp_path / "dials.json")], check=True, timeout=120)
    moves = 0
    for table, page in zip(tables, json.loads((tmp_path / "dials.json").read_text())):
        for upto, (failures, limit) in enumerate(page):
            core = dial(load_table({**table, "events": table["events"][:upto]}))
            assert (failures, limit) == (core.moved, core.start), (table["meta"]["mission"], upto)
        moves += sum(1 for a, b in zip(page, page[1:]) if a != b)
    assert moves >= 40  # the dial moved both ways in these games (test above: rewinds and failures)


def test_missions_with_rules_of_their_own_are_not_followed() -> None:
    assert dial(load_table(new_table(41, 4))) is None  # starts next to the skull; tripwires move it back
    assert dial(load_table(new_table(51, 4))) is None  # starts a space further back
    assert dial(load_table(new_table(37, 4))) is None  # a round nobody could play moves it
    assert dial(load_table(new_table(8, 5))) == Dial(5, 0)
    named_none = new_table(8, 5)
    named_none["meta"] = {"title": "no mission named"}
    assert dial(load_table(named_none)) == Dial(5, 0)


@pytest.mark.parametrize("bad", ["8", 0, 67, True, 4.0])
def test_a_bad_mission_number_is_refused_by_name(bad: Any) -> None:
    table = new_table(8, 5)
    table["meta"]["mission"] = bad
    with pytest.raises(TableError, match="meta.*mission"):
        load_table(table)


def rewinder_advice(table: dict[str, Any], player: int) -> dict[str, Any]:
    out = suggest(load_table(table), player=player, top=1)
    return next(c for c in out["equipment"]["cards"] if c["card"] == "6")


def test_the_rewinder_verdict_follows_the_dial() -> None:
    """Use it once the dial has moved (never worse than later), keep it at the start, and say so where
    the mission's dial is not followed."""
    checked: Counter[str] = Counter()
    for mission, players, seed in GAMES[:12]:
        game = reckless_game(mission, players, seed)
        rng, greedy, wild = random.Random(seed), GreedyPolicy(random.Random(seed)), RandomPolicy(random.Random(seed))
        for p in game.setup_token_players():
            game.place_token(greedy.setup_token(View(game.table(p), p)))
        while not game.over:
            pending = game.queue[0]
            if pending["kind"] == "turn" and "6" in {u["card"] for u in game.card_uses(game.turn, pending)}:
                table = game.table(game.turn)
                verdict = rewinder_advice(table, game.turn)["verdict"]
                assert verdict == "use now", (mission, seed, game.dial)  # the simulator allows it past the start only
                checked["use now"] += 1
                if mission != 41:  # the same table as another mission's: its dial is not followed
                    row = rewinder_advice({**table, "meta": {**table["meta"], "mission": 41}}, game.turn)
                    assert row["verdict"] == "keep" and "does not follow" in row["why"]
            elif pending["kind"] == "turn" and game.board.unlocked("6") and "6" not in game.board.used:
                table = game.table(game.turn)
                row = rewinder_advice(table, game.turn)
                assert row["verdict"] == "keep" and "at its start" in row["why"], (mission, seed, game.dial)
                checked["keep"] += 1
                # used anyway (the page records it), it moves nothing: never past the start
                used = {**table, "events": [*table["events"], {"type": "equipment", "card": "6", "actor": game.turn}]}
                assert dial(load_table(used)) == Dial(players, 0)
            game.play(reckless_move(game, rng, greedy, wild))
    assert checked["use now"] >= 5 and checked["keep"] >= 5, checked
