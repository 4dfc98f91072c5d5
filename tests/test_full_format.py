"""Full-rules format: hand-worked meanings of the new events and refusals of malformed ones.

The issue that asked for the full rules named the silently wrong readings of
the base-game format (a Stabilizer failure read as "not red", a false token
read as true, a Fast Pass read as a solo cut, a detector failure losing "the
other wire is not v", an X slot treated as sorted, M13's deal ignored); each
has a case here, worked by hand.  Random games against the brute-force
oracle are in tests/test_full_rules_oracle.py.
"""
from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

from bombbuster_core.analysis import analyze, beliefs
from bombbuster_core.table import TableError, load_table


def slot(p: int, j: int, s: int = 0) -> dict[str, int]:
    return {"player": p, "stand": s, "slot": j}


def probs(table: dict[str, Any], engine: str = "columns") -> dict[tuple[int, int, int], dict[str, float]]:
    result = analyze(load_table(table), engine)
    assert result["consistent"], result
    return {(r["player"], r["stand"], r["slot"]): r["p"] for r in result["slots"]}


def agree(table: dict[str, Any]) -> dict[tuple[int, int, int], dict[str, float]]:
    """Columns and brute agree exactly (worlds) and on every probability; columns' answer."""
    t = load_table(table)
    a, b = beliefs(t, "columns"), beliefs(t, "brute")
    assert a.worlds == b.worlds
    for pos in a.weights:
        assert a.exact(pos) == b.exact(pos)
    return probs(table)


# Three players, blue 1-3 (4 each), one yellow 2.1 and one red 2.5: 14 wires.
BASE: dict[str, Any] = {"players": [{"stands": [5]}, {"stands": [5]}, {"stands": [4]}],
                        "wires": {"blue": [1, 2, 3], "yellow": [2.1], "red": [2.5]}}


def table(*events: dict[str, Any], **changes: Any) -> dict[str, Any]:
    t = copy.deepcopy(BASE)
    t.update(changes)
    t["events"] = list(events)
    return t


def test_stabilizer_failure_without_token_means_red() -> None:
    e = {"type": "dual_cut", "actor": 0, "target": slot(1, 2), "value": 1, "success": False, "token": None}
    assert probs(table({**e, "stabilizer": True}))[(1, 0, 2)] == {"2.5": 1.0}
    assert "2.5" not in probs(table(e))[(1, 0, 2)]  # without the Stabilizer: not red


def test_false_token_says_not_the_value() -> None:
    p = agree(table({"type": "info_token", "at": slot(2, 0), "value": 1, "false": True}))
    assert "1" not in p[(2, 0, 0)] and p[(2, 0, 0)]
    true = probs(table({"type": "info_token", "at": slot(2, 0), "value": 1}))
    assert true[(2, 0, 0)] == {"1": 1.0}


def test_fast_pass_says_nothing_of_other_wires() -> None:
    fast = {"type": "fast_pass", "actor": 0, "value": 1, "slots": [{"stand": 0, "slot": 0}, {"stand": 0, "slot": 1}]}
    p = agree(table(fast))
    assert p[(0, 0, 0)] == {"1": 1.0} and p[(1, 0, 0)].get("1", 0) > 0  # others may still hold a 1


def test_detector_failure_keeps_every_target_not_v() -> None:
    e = {"type": "detector", "actor": 0, "kind": "double", "targets": [slot(1, 1), slot(1, 3)], "value": 2,
         "success": False, "token_at": slot(1, 1), "token": 1}
    p = agree(table(e))
    assert p[(1, 0, 1)] == {"1": 1.0}
    assert "2" not in p[(1, 0, 3)] and p[(1, 0, 3)]


def test_double_detector_failure_without_token_is_not_all_red() -> None:
    from bombbuster_core.beliefs import Inconsistent
    from bombbuster_core.engines import brute
    from bombbuster_core.facts import compile_table

    t = table({"type": "detector", "actor": 0, "kind": "double", "targets": [slot(1, 3), slot(1, 4)], "value": 1,
               "success": False, "token": None}, wires={"blue": [1, 2], "yellow": [1.1, 2.1], "red": [1.5, 2.5]},
              players=[{"stands": [4]}, {"stands": [5]}, {"stands": [3]}])
    agree(t)
    problem = compile_table(load_table(t))
    reds = frozenset((15, 25))
    both_red = problem.restrict((1, 3), reds).restrict((1, 4), reds)
    with pytest.raises(Inconsistent):
        brute.analyze(both_red)
    brute.analyze(problem.restrict((1, 4), reds))  # one red target is possible


def test_x_slot_is_unsorted_and_dealt_last() -> None:
    # deck {1, 2, 3} x 1 on one stand of 2 + X and a stand of... keep it tiny: 2 players.
    t = {"players": [{"stands": [{"size": 3, "x_slot": "any"}]}, {"stands": [1]}],
         "wires": {"deck": {"1": 1, "2": 1, "3": 1, "4": 1}},
         "events": [{"type": "info_token", "at": slot(0, 2), "value": 1}]}
    p = agree(t)
    # The X wire is 1, so the sorted part holds two of {2, 3, 4}: uniformly.
    assert p[(0, 0, 2)] == {"1": 1.0}
    assert p[(0, 0, 0)] == pytest.approx({"2": 2 / 3, "3": 1 / 3})
    assert p[(1, 0, 0)] == pytest.approx({"2": 1 / 3, "3": 1 / 3, "4": 1 / 3})


def test_m13_dealt_reds() -> None:
    t = table({"type": "dealt", "player": 2, "value": "red", "count": 1},
              {"type": "dealt", "player": 0, "value": "red", "count": 0})
    p = agree(t)
    assert all("2.5" not in p[(0, 0, j)] for j in range(5))
    assert all("2.5" not in p[(1, 0, j)] for j in range(5))


def test_moved_wire_keeps_its_deal_weight() -> None:
    """deck {1,1,2} on stands 2|1: the 2-stand's right wire is 1 with p 1/3; moving it changes nothing implied."""
    t = {"players": [{"stands": [2]}, {"stands": [1]}], "wires": {"deck": {"1": 2, "2": 1}}, "events": []}
    assert agree(t)[(0, 0, 1)] == pytest.approx({"1": 1 / 3, "2": 2 / 3})
    # Move it to the left of player 1's wire: it must be <= that wire.
    t["events"] = [{"type": "move", "from": slot(0, 1), "to": slot(1, 0)}]
    p = agree(t)
    assert p[(1, 0, 0)] == {"1": 1.0} and p[(1, 0, 1)] == {"2": 1.0}


def test_swap_and_label_and_radar_agree_with_brute() -> None:
    t = table({"type": "swap", "a": slot(0, 1), "b": slot(2, 2), "a_to": 0, "b_to": 4},
              {"type": "label", "kind": "equal", "at": slot(1, 1)},
              {"type": "radar", "value": 3, "answers": [[True], [False], [True]]},
              {"type": "info_token", "at": slot(1, 0), "count": 3})
    p = agree(t)
    assert all("3" not in p[(1, 0, j)] for j in range(5))


def test_tripwire_and_multi_cut() -> None:
    t = table({"type": "tripwire", "actor": 0, "target": slot(1, 2), "success": False, "token": 2},
              {"type": "multi_cut", "actor": 1, "value": 1, "slots": [slot(0, 0), slot(1, 0), slot(2, 0), slot(0, 1)],
               "success": True})
    p = agree(t)
    assert p[(1, 0, 2)] == {"2": 1.0} and p[(2, 0, 0)] == {"1": 1.0}


def test_signatures_refuses_what_it_does_not_model() -> None:
    from bombbuster_core.beliefs import Unsupported

    t = load_table(table({"type": "label", "kind": "equal", "at": slot(1, 1)}))
    with pytest.raises(Unsupported, match="signatures engine does not model"):
        beliefs(t, "signatures")


# ---------------------------------------------------------------- refusals

MALFORMED = [
    ({"type": "info_token", "at": slot(0, 0), "value": 1, "parity": "odd"}, "value"),
    ({"type": "info_token", "at": slot(0, 0), "parity": "two"}, "parity"),
    ({"type": "info_token", "at": slot(0, 0), "count": 4}, "count"),
    ({"type": "info_token", "at": slot(0, 0), "parity": "odd", "false": True}, "false"),
    ({"type": "dual_cut", "actor": 0, "target": slot(1, 0), "values": [1, 1], "success": False, "token": 2}, "values"),
    ({"type": "dual_cut", "actor": 0, "target": slot(1, 0), "values": [1, 2], "success": True,
      "actor_slot": {"stand": 0, "slot": 0}}, "cut_value"),
    ({"type": "dual_cut", "actor": 0, "target": slot(1, 0), "value": 1, "success": False, "token": {"count": 0}},
     "count"),
    ({"type": "dual_cut", "actor": 0, "target": slot(1, 0), "value": 1, "success": False, "token": 2,
      "stabilizer": 1}, "stabilizer"),
    ({"type": "detector", "actor": 0, "kind": "double", "targets": [slot(1, 0)], "value": 1, "success": False,
      "token": None}, "targets"),
    ({"type": "detector", "actor": 0, "kind": "double", "targets": [slot(1, 0), slot(2, 0)], "value": 1,
      "success": False, "token": None}, "targets"),
    ({"type": "detector", "actor": 0, "kind": "double", "targets": [slot(1, 0), slot(1, 1)], "value": "yellow",
      "success": False, "token": None}, "value"),
    ({"type": "detector", "actor": 0, "kind": "super", "targets": [slot(1, 0), slot(1, 1)], "value": 1,
      "success": False, "token": None}, "targets"),
    ({"type": "detector", "actor": 0, "kind": "double", "targets": [slot(1, 0), slot(1, 1)], "value": 1,
      "success": False, "token": 2}, "token_at"),
    ({"type": "detector", "actor": 0, "kind": "double", "targets": [slot(1, 0), slot(1, 1)], "value": 1,
      "success": True, "cut": slot(1, 2), "actor_slot": {"stand": 0, "slot": 0}}, "cut"),
    ({"type": "radar", "value": 1, "answers": [[True], [False]]}, "answers"),
    ({"type": "radar", "value": "yellow", "answers": [[True], [False], [True]]}, "value"),
    ({"type": "label", "kind": "same", "at": slot(1, 0)}, "kind"),
    ({"type": "label", "kind": "equal", "at": slot(1, 4)}, "at"),
    ({"type": "fast_pass", "actor": 0, "value": 1, "slots": [{"stand": 0, "slot": 0}]}, "slots"),
    ({"type": "disintegrator", "value": 1, "slots": [slot(1, 0), slot(1, 0)]}, "slots"),
    ({"type": "move", "from": slot(0, 0), "to": slot(0, 1)}, "to"),
    ({"type": "move", "from": slot(0, 0), "to": slot(1, 7)}, "slot"),
    ({"type": "move", "from": "nano", "to": slot(1, 0)}, "from"),
    ({"type": "swap", "a": slot(0, 0), "b": slot(0, 1), "a_to": 0, "b_to": 0}, "b"),
    ({"type": "swap", "a": slot(0, 0), "b": slot(1, 1), "a_to": 5, "b_to": 0}, "a_to"),
    ({"type": "absent", "player": 0, "values": []}, "values"),
    ({"type": "absent", "player": 0, "values": [7]}, "values"),
    ({"type": "dealt", "player": 0, "value": "blue", "count": 1}, "value"),
    ({"type": "dealt", "player": 0, "value": "red", "count": 6}, "count"),
    ({"type": "multi_cut", "actor": 0, "value": 1, "slots": [slot(1, 0)], "success": False}, "tokens"),
    ({"type": "multi_cut", "actor": 0, "value": 1, "slots": [slot(1, 0)], "success": False, "tokens": [1]}, "tokens"),
    ({"type": "tripwire", "actor": 0, "target": slot(1, 0), "success": False, "token": "yellow"}, "token"),
    ({"type": "solo_cut", "actor": 0, "value": 1, "slots": [{"stand": 0, "slot": 0}, {"stand": 0, "slot": 1},
                                                             {"stand": 0, "slot": 2}]}, "slots"),
    ({"nope": 1}, "type"),
    ({"type": "equipment", "card": "stabilizer"}, "card"),
    ({"type": "equipment", "card": "coffee_mug", "actor": 0}, "next"),
    ({"type": "equipment", "card": "rewinder", "next": 1}, "next"),
]


def test_equipment_without_information_changes_nothing() -> None:
    t = table({"type": "info_token", "at": slot(2, 0), "value": 1})
    used = table({"type": "info_token", "at": slot(2, 0), "value": 1}, {"type": "equipment", "card": "rewinder"},
                 {"type": "equipment", "card": "coffee_mug", "actor": 1, "next": 0})
    assert analyze(load_table(used)) == analyze(load_table(t))


@pytest.mark.parametrize("event,field", MALFORMED, ids=[f"{e.get('type')}-{f}" for e, f in MALFORMED])
def test_malformed_events_name_the_event_and_field(event: dict[str, Any], field: str) -> None:
    good = {"type": "info_token", "at": slot(2, 0), "value": 1}
    with pytest.raises(TableError) as err:
        load_table(table(good, event))
    assert err.value.event == 1
    assert str(err.value).startswith("event 1")
    assert repr(field) in str(err.value) or f"field '{field}'" in str(err.value) or field in str(err.value)


def test_stand_shapes_are_checked() -> None:
    for stand, where in (({"size": 3, "x_slot": "red"}, "x_slot"), ({"size": 3, "flipped": 3}, "flipped"),
                         ({"size": 2, "flipped": 2}, "stands"), ({"size": 3}, "size"),
                         ({"size": 3, "x_slot": "any", "flipped": 1}, "size")):
        t = {"players": [{"stands": [stand]}, {"stands": [1]}], "wires": {"deck": {"1": 2, "2": 2}}}
        with pytest.raises(TableError, match=where):
            load_table(t)
    lone = {"players": [{"stands": [{"size": 2, "flipped": "low"}]}, {"stands": [2]}],
            "wires": {"deck": {"1": 2, "2": 2}}}
    with pytest.raises(TableError, match="low"):
        load_table(lone)


def test_my_flipped_wires_are_null_and_seen_is_private() -> None:
    t = {"players": [{"stands": [{"size": 3, "flipped": 1}]}, {"stands": [{"size": 3, "flipped": 1}]}],
         "wires": {"deck": {"1": 2, "2": 2, "3": 2}},
         "me": {"player": 0, "stands": [[1, 2, None]], "seen": [{"at": slot(1, 2), "value": 3}]}}
    p = agree(t)
    assert p[(1, 0, 2)] == {"3": 1.0}
    bad = copy.deepcopy(t)
    bad["me"]["stands"] = [[1, 2, 3]]
    with pytest.raises(TableError, match="flipped"):
        load_table(bad)
    bad = copy.deepcopy(t)
    bad["me"]["seen"] = [{"at": slot(0, 2), "value": 3}]
    with pytest.raises(TableError, match="my own flipped"):
        load_table(bad)
    assert load_table(t).public().seen == ()


def test_nothing_recorded_is_lost_by_an_impossible_event() -> None:
    t = table({"type": "info_token", "at": slot(2, 0), "value": 1},
              {"type": "radar", "value": 1, "answers": [[False], [False], [False]]})
    result = analyze(load_table(t))
    # no uncut 1 anywhere, with four in play and none cut: impossible whatever came before
    assert result == {"consistent": False, "event": 1, "contradicts": [],
                      "error": "event 1 (radar) is impossible: no deal of the wires fits it, whatever came before",
                      "code": "impossible_alone", "fields": {"event": 1, "type": "radar"}}
