"""record.Record, the frozen-dataclass stand-in: every record class of the core behaves like one."""
from __future__ import annotations

import copy
import pickle

import pytest

from bombbuster_core import equipment as eq
from bombbuster_core.analysis import beliefs
from bombbuster_core.public_state import Dial
from bombbuster_core.public_state import GOING_ON, PublicState, Result
from bombbuster_core.engines.signatures import BlockSpec, Budget
from bombbuster_core.facts import CountIn, Problem, Stand, compile_table
from bombbuster_core.record import Record
from bombbuster_core.board import Segment
from bombbuster_core.facts import Order, SameValue, SameValueCount
from bombbuster_core.missions import Y, mission
from bombbuster_core.sim import actions
from bombbuster_core.sim.ismcts import Searched
from bombbuster_core.sim.lookahead import Decision
from bombbuster_core.table import (Absent, Dealt, Detector, Disintegrator, DualCut, Equipment, FastPass, Label, Move,
                                   MultiCut, Radar, RevealRed, SlotRef, SoloCut, Swap, Token, Tripwire, Use, load_table)
from bombbuster_core.wires import Deck, Pool

TABLE = {
    "players": [{"stands": [3]}, {"stands": [3, 3]}],
    "wires": {"blue": [1, 2], "uncertain": [{"candidates": [1.1, 2.1], "count": 1}]},
    "me": {"player": 0, "stands": [[1, 1, 2]]},
    "events": [
        {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 0}, "value": 1},
        {"type": "dual_cut", "actor": 1, "target": {"player": 0, "stand": 0, "slot": 2}, "value": 2,
         "success": True, "actor_slot": {"stand": 1, "slot": 2}},
        {"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 1, "slot": 0}, "value": 1,
         "success": False, "token": 2},
    ],
}


def records() -> list[Record]:
    """One instance of every record class, from a real table where possible."""
    table = load_table(TABLE)
    problem = compile_table(table)
    return [table, *table.players, *table.events, SoloCut(0, 1, (SlotRef(0, 0, 0), SlotRef(0, 0, 1))),
            RevealRed(1, (SlotRef(1, 0, 2),), (None,)), table.events[0].at, table.deck, *table.deck.pools,
            *problem.stands, *problem.counts, problem, beliefs(table), Budget(max_steps=5),
            BlockSpec(((10, 2),), (2,), ((None, (10,)),), ()), *full_rules_records()]


def full_rules_records() -> list[Record]:
    """The records of the full rules (equipment, mission events, segments, new facts)."""
    at, other = SlotRef(0, 0, 0), SlotRef(1, 0, 1)
    token = Token("count", 2)
    return [Segment(0, 0, "main", 3), token,
            Detector(0, "double", (other, SlotRef(1, 0, 2)), (3,), False, token_at=other, token=token),
            Radar(3, ((True,), (False,))), Label(at, True), FastPass(0, 3, (at, SlotRef(0, 0, 1))),
            Disintegrator(3, (at,)), Move(None, at), Swap(at, other, 0, 1), Absent(0, (3, "yellow")),
            Dealt(0, "red", 1), MultiCut(0, "red", (at, other), True), Tripwire(0, other, False, 4),
            Order((0, 1), (1, 0)), SameValueCount((0, 1), frozenset({(0, 1), (0, 2)}), 2),
            SameValue((0, 1), (0, 2), False), mission(24), Y(2, 3),
            actions.DualCutAction((1, 0, 2), 3), actions.DoubleDetector(((1, 0, 1), (1, 0, 2)), 3),
            actions.SoloCutAction(3), actions.RevealRedAction(0), actions.MultiCutAction("red", ((0, 0, 0), (1, 0, 1))),
            actions.TripwireAction((1, 0, 1)),
            actions.Choose("end", "left"), actions.SetupToken((0, 0, 1), 3), actions.AbsentTokens((3, "yellow")),
            actions.UseCard("10", ((1, 0, 1), 3, 4)),
            Equipment("11", 0, 1), Equipment("Y", added=("8", "9")), eq.CARDS["9.9"],
            eq.RADAR, Use(("8",), 0), Dial(4, 1),
            PublicState(8, Dial(4, 1), None, 2, None, GOING_ON, None), Result("lost", "dial", 3, "the dial"),
            Decision(actions.DualCutAction((1, 0, 2), 3), {"kind": "dual_cut"}, 16, [{"worth": 0.5}]),
            Searched(actions.SoloCutAction(3), [actions.SoloCutAction(3)], None, [{"kind": "solo_cut"}], "a certain move")]


def test_every_record_class_is_covered() -> None:
    def subclasses(cls: type) -> set[type]:
        return {c for s in cls.__subclasses__() for c in {s} | subclasses(s)}

    assert {type(r) for r in records()} == subclasses(Record)


@pytest.mark.parametrize("record", records(), ids=lambda r: type(r).__name__)
def test_records_copy_compare_and_freeze_like_frozen_dataclasses(record: Record) -> None:
    fields = type(record).__slots__
    assert all(hasattr(record, name) for name in fields)  # __init__ filled every field
    for twin in (copy.copy(record), copy.deepcopy(record), pickle.loads(pickle.dumps(record)), record.replace()):
        assert twin == record and twin is not record and not twin != record
        assert [getattr(twin, name) for name in fields] == [getattr(record, name) for name in fields]
    assert record != tuple(getattr(record, name) for name in fields)  # same class only
    assert repr(record).startswith(f"{type(record).__name__}({fields[0]}=")
    with pytest.raises(AttributeError):
        setattr(record, fields[0], None)
    with pytest.raises(AttributeError):
        delattr(record, fields[0])
    with pytest.raises(AttributeError):
        record.extra = 1  # type: ignore[attr-defined]
    try:
        hash(tuple(getattr(record, name) for name in fields))
    except TypeError:  # it holds a dict (a Problem, a Table...): unhashable, as the dataclass was
        with pytest.raises(TypeError):
            hash(record)
    else:
        assert hash(record) == hash(copy.copy(record))


def test_record_constructors_keep_their_defaults_and_keywords() -> None:
    target = SlotRef(player=1, stand=0, slot=1)
    failed = DualCut(0, target, 3, False, token=4)
    assert (failed.actor_slot, failed.target_key, failed.actor_key, failed.token, failed.type) == (None, None, None, 4,
                                                                                                   "dual_cut")
    assert failed.replace(token=None).token is None and failed.token == 4
    with pytest.raises(TypeError):
        failed.replace(colour="blue")
    problem = Problem({10: 2}, (Stand(0, 0, 2),))
    assert (problem.domains, problem.counts) == ({}, ())
    assert problem.domains is not Problem({10: 2}, (Stand(0, 0, 2),)).domains  # a fresh dict each time
    assert Deck({10: 4}).pools == () and Budget() == Budget(100_000, 200_000, 3_000_000)
    assert CountIn(frozenset(), frozenset(), lo=0, hi=1) == CountIn(frozenset(), frozenset(), 0, 1)
    assert Pool((11, 21), 1) != Stand(None, 0, 1)


def test_slot_refs_order_by_player_stand_slot() -> None:
    refs = [SlotRef(1, 0, 0), SlotRef(0, 1, 5), SlotRef(0, 1, 2), SlotRef(0, 0, 9)]
    assert sorted(refs) == [SlotRef(0, 0, 9), SlotRef(0, 1, 2), SlotRef(0, 1, 5), SlotRef(1, 0, 0)]
    assert SlotRef(0, 1, 2) <= SlotRef(0, 1, 2) < SlotRef(0, 1, 3) and SlotRef(1, 0, 0) >= SlotRef(0, 9, 9)
    with pytest.raises(TypeError):
        SlotRef(0, 0, 0) < (0, 0, 1)  # noqa: B015
