"""Explosions (docs/table-format.md, "Explosions"): a lost mission recorded as ``"exploded": true``.

Hand-worked posteriors on tiny tables (a dual cut on red, a failed special
action, M11's counts-as-red wire, M38's own flipped wire, a detector on two
reds, a tripwire on red), the refusals (an explosion carries no token, no
Stabilizer, nothing may follow), and random legal games
that end by an explosion: the core equals the independent oracle.
"""
from __future__ import annotations

import random
from fractions import Fraction as F
from typing import Any

import pytest
from gamegen import random_full_game, random_game
from oracle import enumerate_table

from bombbuster_core.analysis import analyze, beliefs
from bombbuster_core.suggest import SuggestError, suggest
from bombbuster_core.table import TableError, load_table
from bombbuster_core.wires import key_str


def at(p: int, j: int, s: int = 0) -> dict[str, int]:
    return {"player": p, "stand": s, "slot": j}


def exact(table: dict[str, Any]) -> tuple[int, list[dict[str, F]]]:
    """Worlds and exact per-slot probabilities (columns == brute == oracle, asserted)."""
    truth = enumerate_table(table)
    t = load_table(table)
    board = t.board()
    wires = [w for rows in board.stands for row in rows for w in row]
    answers = []
    for engine in ("columns", "brute"):
        b = beliefs(t, engine)
        answers.append((b.worlds, [{key_str(k): v for k, v in b.exact(w).items()} for w in wires]))
    assert answers[0] == answers[1]
    assert answers[0] == (truth["worlds"], [dict(r["p"]) for r in truth["exact"]])
    return answers[0]


def cut(actor: int, target: dict[str, int], value: Any) -> dict[str, Any]:
    return {"type": "dual_cut", "actor": actor, "target": target, "value": value, "success": False,
            "exploded": True}


# A holds 2 wires, B 3; deck 1 1 2 2 and the red 2.5 (the highest key).
SMALL = {"players": [{"stands": [2]}, {"stands": [3]}], "wires": {"deck": {"1": 2, "2": 2, "2.5": 1}}}


def test_a_dual_cut_on_red_by_hand() -> None:
    # Before: the red is in B's hand (so at B's right end) with 3/5.
    worlds, p = exact(SMALL)
    assert p[4] == {"2": F(2, 5), "2.5": F(3, 5)}
    # A calls 1 on B's right wire and the bomb explodes: it is red, and A holds a 1.
    # The other 4 tiles split 2 | 2 (6 ways by tile), A = {2, 2} is out (A holds a 1): 5 ways.
    # A = {1, 1} in 1, {1, 2} in 4: A's right wire is 1 with 1/5, B's left 2 with 1/5.
    worlds_after, p = exact({**SMALL, "events": [cut(0, at(1, 2), 1)]})
    assert F(worlds_after, worlds) == F(5, 10)  # 10 = C(5, 3) hands for B before
    assert p == [{"1": 1}, {"1": F(1, 5), "2": F(4, 5)}, {"1": F(4, 5), "2": F(1, 5)}, {"2": 1}, {"2.5": 1}]
    assert not analyze(load_table({**SMALL, "events": [cut(0, at(1, 2), 1)]}))["slots"][4]["cut"]


def test_a_failed_special_action_says_not_every_wire_is_the_value() -> None:
    # M13: A points at B's two wires claiming both red; deck 1 1 1.5 2.5, 2 | 2.
    # B's pair is one of 6 by tile; "both red" ({1.5, 2.5}) is out: 5 left.
    # B = {1, 1}: 1 way; {1, 1.5}: 2; {1, 2.5}: 2.  B's right wire: 1 1/5, 1.5 2/5, 2.5 2/5.
    t = {"players": [{"stands": [2]}, {"stands": [2]}], "wires": {"deck": {"1": 2, "1.5": 1, "2.5": 1}},
         "events": [{"type": "multi_cut", "actor": 0, "value": "red", "slots": [at(1, 0), at(1, 1)],
                     "success": False, "exploded": True}]}
    _, p = exact(t)
    assert p == [{"1": F(4, 5), "1.5": F(1, 5)}, {"1.5": F(2, 5), "2.5": F(3, 5)},
                 {"1": 1}, {"1": F(1, 5), "1.5": F(2, 5), "2.5": F(2, 5)}]


def test_m11_the_number_value_explodes() -> None:
    # 3s count as red: the exploded target is a 3 (there is no red wire at all).
    t = {"players": [{"stands": [3]}, {"stands": [3]}], "wires": {"deck": {"1": 2, "2": 2, "3": 2},
                                                                 "counts_as_red": 3},
         "events": [cut(0, at(1, 2), 1)]}
    _, p = exact(t)
    assert p[5] == {"3": 1}


def test_an_own_flipped_wire_that_is_not_the_value_explodes() -> None:
    # M38: A's right wire is flipped (A cannot see it).  A calls 1 on B's left wire, which IS 1,
    # and cuts the flipped wire as A's 1: it is not 1, so the bomb explodes.  Nothing is cut.
    t = {"players": [{"stands": [{"size": 3, "flipped": 1}]}, {"stands": [3]}],
         "wires": {"deck": {"1": 2, "2": 2, "3": 2}},
         "events": [{"type": "dual_cut", "actor": 0, "target": at(1, 0), "value": 1, "success": True,
                     "actor_slot": {"stand": 0, "slot": 2}, "exploded": True}]}
    _, p = exact(t)
    assert p[3] == {"1": 1} and "1" not in p[2]
    assert load_table(t).cut_slots() == set()


# Issue 18: "holds v" counts the wires the caller can see, never their own flipped wire —
# also when that flipped wire is the one they cut.  A's right wire is flipped; deck 1 1 2 2.
OWN_FLIP = {"players": [{"stands": [{"size": 2, "flipped": 1}]}, {"stands": [2]}],
            "wires": {"deck": {"1": 2, "2": 2}}}


def own_flipped_call(**fields: Any) -> dict[str, Any]:
    return {"type": "dual_cut", "actor": 0, "target": at(1, 0), "value": 1, "success": True,
            "actor_slot": {"stand": 0, "slot": 1}, **fields}


def test_an_exploding_own_flipped_wire_still_says_the_caller_holds_a_visible_v() -> None:
    # B's left wire is 1; A's flipped wire is not 1, so it is a 2; A called 1, so A's one
    # visible wire is a 1: A = {1, flipped 2}, B = {1, 2}.  By tile: 2 ones x 2 twos for A = 4.
    # (Dropping "A holds a visible 1" gave A's left wire 1 with 2/3 only: 6 worlds.)
    worlds, p = exact({**OWN_FLIP, "events": [own_flipped_call(exploded=True)]})
    assert worlds == 4
    assert p == [{"1": 1}, {"2": 1}, {"1": 1}, {"2": 1}]


def test_an_own_flipped_cut_needs_a_visible_v() -> None:
    # A cuts the flipped wire as a 1 and B's left wire is a 1: both 1s are taken, so A's
    # visible wire is a 2 and A could not have called 1.  No deal fits (it was accepted, with
    # A = {2, flipped 1}), in the public view and in A's own (A sees the 2).
    for view in ({}, {"me": {"player": 0, "stands": [[2, None]]}}):
        t = {**OWN_FLIP, **view, "events": [own_flipped_call()]}
        assert not enumerate_table(t)["consistent"]
        got = analyze(load_table(t))
        assert not got["consistent"] and got["event"] == 0
    # With a third 1 in play the call is possible, and says A's visible wire is that 1.
    _, p = exact({**OWN_FLIP, "wires": {"deck": {"1": 3, "2": 1}}, "events": [own_flipped_call()]})
    assert p == [{"1": 1}, {"1": 1}, {"1": 1}, {"2": 1}]


@pytest.mark.parametrize("event,field", [
    ({"type": "detector", "actor": 0, "kind": "double", "targets": [at(1, 0), at(1, 1)], "value": 1,
      "success": True, "cut": at(1, 0), "actor_slot": {"stand": 0, "slot": 1}}, "actor_slot"),
    (own_flipped_call(stabilizer=True), "stabilizer"),
    ({**own_flipped_call(), "value": None, "values": [1, 2], "cut_value": 1}, "values"),
], ids=["detector", "stabilizer", "xy"])
def test_equipment_never_cuts_an_own_flipped_wire(event: dict[str, Any], field: str) -> None:
    event = {k: v for k, v in event.items() if v is not None}
    with pytest.raises(TableError) as err:
        load_table({**OWN_FLIP, "events": [event]})
    assert str(err.value).startswith(f"event 0 ({event['type']}) field '{field}'")


def test_a_detector_on_two_reds_and_a_tripwire_on_red() -> None:
    det = {"players": [{"stands": [3]}, {"stands": [3]}], "wires": {"deck": {"1": 2, "2": 2, "1.5": 1, "2.5": 1}},
           "events": [{"type": "detector", "actor": 0, "kind": "double", "targets": [at(1, 1), at(1, 2)],
                       "value": 1, "success": False, "exploded": True}]}
    _, p = exact(det)
    assert p[4:] == [{"1.5": 1}, {"2.5": 1}]
    trip = {"players": [{"stands": [3]}, {"stands": [3]}], "wires": {"deck": {"1": 2, "2": 2, "1.1": 1, "2.5": 1}},
            "events": [{"type": "tripwire", "actor": 0, "target": at(1, 2), "success": False, "exploded": True}]}
    _, p = exact(trip)
    assert p[5] == {"2.5": 1}


BAD = [
    ({**cut(0, at(1, 0), 1), "token": 2}, "token"),
    ({**cut(0, at(1, 0), 1), "token": None, "stabilizer": True}, "token"),
    ({**cut(0, at(1, 0), 1), "stabilizer": True}, "stabilizer"),
    ({**cut(0, at(1, 0), 1), "exploded": "yes"}, "exploded"),
    ({"type": "dual_cut", "actor": 0, "target": at(1, 0), "value": 1, "success": True,
      "actor_slot": {"stand": 0, "slot": 0}, "exploded": True}, "exploded"),
    ({"type": "multi_cut", "actor": 0, "value": 1, "slots": [at(1, 0)], "success": False, "exploded": True,
      "tokens": [2]}, "tokens"),
    ({"type": "multi_cut", "actor": 0, "value": 1, "slots": [at(1, 0)], "success": True, "exploded": True},
     "exploded"),
    ({"type": "detector", "actor": 0, "kind": "double", "targets": [at(1, 0), at(1, 1)], "value": 1,
      "success": False, "exploded": True, "token": 2, "token_at": at(1, 0)}, "token"),
    ({"type": "tripwire", "actor": 0, "target": at(1, 0), "success": False, "exploded": True, "token": 2}, "token"),
]


@pytest.mark.parametrize("event,field", BAD, ids=[f"{e['type']}-{f}" for e, f in BAD])
def test_malformed_explosions_name_the_event_and_field(event: dict[str, Any], field: str) -> None:
    t = {"players": [{"stands": [3]}, {"stands": [3]}],
         "wires": {"deck": {"1": 2, "2": 1, "1.1": 1, "2.5": 1, "3": 1}},
         "events": [{"type": "info_token", "at": at(0, 0), "value": 1}, event]}
    with pytest.raises(TableError) as err:
        load_table(t)
    assert err.value.event == 1 and str(err.value).startswith(f"event 1 ({event['type']}) field '{field}'")


def test_nothing_may_follow_an_explosion() -> None:
    t = {**SMALL, "events": [cut(0, at(1, 2), 1), {"type": "info_token", "at": at(0, 0), "value": 1}]}
    with pytest.raises(TableError) as err:
        load_table(t)
    assert err.value.event == 1
    assert str(err.value) == ("event 1 (info_token): the bomb exploded at event 0: the game is over (a restarted "
                              "mission is a new game)")
    with pytest.raises(ValueError, match="after the bomb exploded"):
        enumerate_table(t)


def test_no_suggestion_after_an_explosion() -> None:
    t = load_table({**SMALL, "events": [cut(0, at(1, 2), 1)]})
    with pytest.raises(SuggestError, match="^the bomb exploded at event 0: the game is over, there is no next move$"):
        suggest(t, player=1)
    assert suggest(load_table(SMALL), player=1)["suggestions"]  # before it: moves


def _rows(table: dict[str, Any], engine: str) -> tuple[int, list[tuple]]:
    t = load_table(table)
    b = beliefs(t, engine)
    board = t.board()
    return b.worlds, [(p, s, j, w in board.cut, {key_str(k): v for k, v in b.exact(w).items()})
                      for p, rows in enumerate(board.stands) for s, row in enumerate(rows) for j, w in enumerate(row)]


def _exploded_game(seed: int) -> dict[str, Any] | None:
    rng = random.Random(seed)
    if seed % 2:
        table, _ = random_full_game(rng, explode=1.0, special=rng.choice([None, "flip1", "flip2", "mixed"]),
                                    counts_as_red=rng.random() < 0.3, total=rng.randint(6, 10))
    else:
        table, _ = random_game(rng, explode=1.0)
    return table if table["events"] and table["events"][-1].get("exploded") else None


@pytest.mark.parametrize("chunk", range(4))
def test_random_games_ending_by_an_explosion_equal_the_oracle(chunk: int) -> None:
    kinds = set()
    for seed in range(chunk * 60, (chunk + 1) * 60):
        table = _exploded_game(seed)
        if table is None:
            continue
        last = table["events"][-1]
        kinds.add((last["type"], last["success"]))
        truth = enumerate_table(table)
        assert truth["consistent"], seed
        expected = [(r["player"], r["stand"], r["slot"], r["cut"], dict(r["p"])) for r in truth["exact"]]
        for engine in ("columns", "brute"):
            assert _rows(table, engine) == (truth["worlds"], expected), (seed, engine)
    # every kind of explosion the generators make is met in each chunk
    assert kinds >= {("dual_cut", False), ("dual_cut", True), ("multi_cut", False)}, kinds
