"""Bad input never escapes as a traceback.

Legal random games (tests/gamegen.py) are broken at one random place — a value
swapped for another JSON value, a key dropped or added, an event duplicated or
moved — and fed to the two doors of the core: the CLI's path (load the table,
analyse it) and the worker bridge.  Whatever happens, the answer is a
TableError naming an event or the table, a consistent analysis, or an
inconsistent one naming the first impossible event; never another exception.
"""
from __future__ import annotations

import copy
import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from gamegen import random_full_game, random_game

from bombbuster_core import analysis, bridge
from bombbuster_core.table import TableError, load_table

JUNK: list[Any] = [None, True, False, 0, -1, 1, 2, 3.1, 5.5, 99, 1e9, 0.25, "", "x", "yellow", "red", "blue",
                   [], [0], {}, {"player": 0, "stand": 0, "slot": 0}, {"stand": 0, "slot": 99}]


def places(node: Any, path: tuple = ()) -> list[tuple]:
    """Every path to a value inside a JSON tree."""
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += places(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += places(v, path + (i,))
    return out


def break_table(table: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    table = copy.deepcopy(table)
    path = rng.choice(places(table)[1:])
    parent = table
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    how = rng.random()
    if how < 0.55:
        parent[last] = copy.deepcopy(rng.choice(JUNK))
    elif how < 0.7:
        del parent[last]
    elif how < 0.8 and isinstance(parent, dict):
        parent[rng.choice(["extra", "Type", "value ", "at"])] = copy.deepcopy(rng.choice(JUNK))
    elif table.get("events"):
        events = table["events"]
        event = events.pop(rng.randrange(len(events)))
        events.insert(rng.randrange(len(events) + 1), event)
        if rng.random() < 0.5:
            events.insert(rng.randrange(len(events) + 1), copy.deepcopy(event))
    return table


@pytest.mark.parametrize("seed", range(600))
def test_broken_tables_get_a_clear_answer(seed: int) -> None:
    rng = random.Random(seed)
    table, _ = random_game(rng)
    check_clear_answer(break_table(table, rng), seed)


@pytest.mark.parametrize("seed", range(600))
def test_broken_full_rules_tables_get_a_clear_answer(seed: int) -> None:
    """The same with every equipment and mission event, X/flipped stands and Nano."""
    rng = random.Random(10_000 + seed)
    table, _ = random_full_game(rng)
    check_clear_answer(break_table(table, rng), seed)


def check_clear_answer(broken: dict[str, Any], seed: int) -> None:
    try:
        loaded = load_table(broken)
    except TableError as e:
        assert str(e) and (e.event is None or 0 <= e.event < len(broken.get("events", [])))
        loaded = None
    if loaded is not None:
        result = analysis.analyze(loaded)
        if result["consistent"]:
            assert len(result["slots"]) == len(loaded.slots())
        else:
            assert result["error"] and (result["event"] is None or 0 <= result["event"] < len(loaded.events))
    answer = json.loads(bridge.handle(json.dumps({"id": seed, "method": "analyze", "params": {"table": broken}})))
    assert answer["id"] == seed and ("result" in answer) != ("error" in answer)
    assert ("error" in answer) == (loaded is None)
    assert "internal error" not in answer.get("error", {}).get("message", "")


# Any JSON value at any place: Hypothesis draws the replacement from every JSON
# shape (non-finite floats included, which reach the bridge as NaN/Infinity text)
# and the field names of format 1, so unknown combinations of known fields occur.
FIELDS = ["type", "at", "value", "values", "parity", "count", "false", "actor", "target", "success", "actor_slot",
          "token", "stabilizer", "cut_value", "kind", "targets", "cut", "token_at", "answers", "slots", "from", "to",
          "a", "b", "a_to", "b_to", "player", "stand", "slot", "size", "x_slot", "flipped", "candidates", "keys",
          "seen", "after", "nano", "counts_as_red", "tokens", "deck", "blue", "yellow", "red", "uncertain"]
WORDS = ["yellow", "red", "nano", "even", "odd", "any", "blue", "low", "high", "double", "super", "equal",
         "info_token", "dual_cut", "detector", "radar", "label", "move", "swap", "absent", "dealt", "multi_cut"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.integers() | st.floats() | st.sampled_from(WORDS)
    | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=3), inner,
                                                                max_size=4),
    max_leaves=12)
def non_finite(node: Any) -> bool:
    if isinstance(node, float):
        return node != node or node in (float("inf"), float("-inf"))
    if isinstance(node, dict):
        return any(non_finite(v) for v in node.values())
    return isinstance(node, list) and any(non_finite(v) for v in node)


FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "1000"))


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**6), st.booleans(), st.data())
def test_any_json_value_anywhere_gets_a_clear_answer(seed: int, full: bool, data: st.DataObject) -> None:
    rng = random.Random(seed)
    table, _ = (random_full_game if full else random_game)(rng)
    paths = places(table)
    path = paths[data.draw(st.integers(0, len(paths) - 1))]
    value = data.draw(json_values)
    if not path:
        broken = value
    else:
        broken = copy.deepcopy(table)
        parent = broken
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = value
    try:
        loaded = load_table(broken)
    except TableError as e:
        assert str(e)
        loaded = None
    if loaded is not None:
        result = analysis.analyze(loaded)
        assert "consistent" in result
    request = json.dumps({"id": seed, "method": "analyze", "params": {"table": broken}})
    answer = json.loads(bridge.handle(request))
    assert ("result" in answer) != ("error" in answer)
    # A request that is not standard JSON (NaN, Infinity) is refused before its id is read.
    assert answer["id"] == (None if non_finite(broken) else seed)
    assert "internal error" not in answer.get("error", {}).get("message", "")
