"""A refused table's error reply carries a `code` and its `fields` beside the English `message`
(issue 32 item 4, docs/i18n.md): each refusal has its own code, given where it is raised (an
equipment use the board does not allow: equipment.REFUSAL_CODES; a malformed table or event:
table_fields.TABLE_CODES), and fields that are values (numbers, sort keys, 0-based slots, the JSON
path of the place at fault), never English; the page words each code in its language."""
from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

from bombbuster_core.bridge import TABLE_REFUSAL_CODES, handle
from bombbuster_core.equipment import CHARACTERS, REFUSAL_CODES, EquipmentError, card_id
from bombbuster_core.missions import MISSIONS
from bombbuster_core.table import TableError, load_table
from bombbuster_core.table_fields import TABLE_CODES

from test_equipment import TWO_ONES, at, table


def refusal(t: dict[str, Any]) -> dict[str, Any]:
    reply = json.loads(handle(json.dumps({"id": 1, "method": "analyze", "params": {"table": t}})))
    assert "result" not in reply, reply
    return reply["error"]


LABEL = {"type": "label", "kind": "different", "at": at(0, 1), "card": "1"}
DOUBLE = {"type": "detector", "actor": 0, "kind": "double", "targets": [at(1, 0), at(1, 1)], "value": 1,
          "success": True, "cut": at(1, 0), "actor_slot": {"stand": 0, "slot": 0}, "card": "character"}


def test_a_locked_card_is_refused_with_its_code_and_the_counts() -> None:
    error = refusal(table(["1", "8"], [LABEL]))
    assert error["code"] == "card_locked" and error["event"] == 0
    assert error["fields"] == {"card": "1", "needs": 2, "unlock": 1, "cut": 0, "event": 0, "path": ["events", 0, "card"]}
    assert error["message"].startswith("event 0 (label) field 'card': card 1 (Label ≠) is still locked")


def test_a_used_card_and_a_used_character_are_refused_with_their_codes() -> None:
    error = refusal(table(["1", "8"], TWO_ONES + [LABEL, LABEL]))
    assert (error["code"], error["fields"]) == ("card_used", {"card": "1", "event": 2, "path": ["events", 2, "card"]})
    again = {**DOUBLE, "targets": [at(1, 1), at(1, 2)], "cut": at(1, 1), "actor_slot": {"stand": 0, "slot": 1}}
    error = refusal(table(["7", "8"], [DOUBLE, again]))
    assert (error["code"], error["fields"]) == ("character_used", {"player": 0, "event": 1, "path": ["events", 1, "card"]})
    assert "player 0's Double Detector is already used" in error["message"]


def test_a_card_that_is_not_one_or_does_not_do_it_is_refused_with_its_code() -> None:
    error = refusal(table(["1", "8"], [{**LABEL, "card": "zz"}]))
    assert (error["code"], error["fields"]) == ("card_unknown", {"given": "'zz'", "kind": "text", "event": 0, "path": ["events", 0, "card"]})
    error = refusal(table(["1", "8"], TWO_ONES + [{**LABEL, "card": "8"}]))
    assert (error["code"], error["fields"]) == ("card_not_providing", {"entry": "8", "event": 1, "path": ["events", 1, "card"]})
    error = refusal(table(["1", "8"], TWO_ONES + [{k: v for k, v in LABEL.items() if k != "card"}]))
    assert (error["code"], error["fields"]) == ("card_not_named", {"event": 1, "path": ["events", 1, "card"]})
    # The board's own list: a card that is not one keeps the equipment code it was refused with.
    error = refusal(table(["1", "13"], []))
    assert (error["code"], error["fields"]) == ("card_unknown", {"given": "'13'", "kind": "text", "event": None, "path": ["equipment", 1, "card"]})
    assert "event" not in error


@pytest.mark.parametrize("raw, kind", [(13, "number"), (1.5, "number"), (["1"], "list"), ({"card": "1"}, "object"),
                                       (True, "boolean"), (None, "null"), ("x" * 21, "text")])
def test_a_card_that_is_no_short_text_is_named_by_its_json_kind(raw: Any, kind: str) -> None:
    """Not a Python type name ("dict", "NoneType"): a JSON kind the page words in its language."""
    error = refusal(table(["1", raw], []))
    assert (error["code"], error["fields"]) == ("card_unknown", {"given": None, "kind": kind, "event": None,
                                                                 "path": ["equipment", 1, "card"]})


def test_an_equipment_refusal_survives_pickling_whole() -> None:
    """An EquipmentError raised in a worker's task reaches its caller with its field, code and fields."""
    with pytest.raises(EquipmentError) as raised:
        card_id(["1"], "added")
    again = pickle.loads(pickle.dumps(raised.value))
    assert isinstance(again, EquipmentError)
    assert (str(again), again.field, again.code, again.fields) == \
        (str(raised.value), "added", "card_unknown", {"given": None, "kind": "list"})


def with_wires(**change: Any) -> dict[str, Any]:
    t = table(None, [])
    t["wires"] = {"blue": [1, 2], **change}
    t["players"] = [{"stands": [4]}, {"stands": [4]}]
    return t


def with_me(stand: list[Any]) -> dict[str, Any]:
    return {**table(None, []), "me": {"player": 0, "stands": [stand]}}


DUAL = {"type": "dual_cut", "actor": 0, "target": at(1, 0), "value": 1, "success": True, "actor_slot": {"stand": 0, "slot": 0}}
FAILED = {"type": "dual_cut", "actor": 0, "target": at(1, 4), "value": 1, "success": False}
SUPER = {"type": "detector", "actor": 0, "kind": "super", "targets": [at(1, 0), at(1, 1)], "value": 1, "success": False,
         "token": None}

# (what is wrong, the table, the code, its fields without the event, the event at fault)
CASES = [
    ("the table: a player too few", {**table(None, []), "players": [{"stands": [10]}]},
     "player_count", {"path": ["players"], "count": 1, "low": 2, "high": 5}, None),
    ("the table: the stands hold more wires than are in play", table(None, [], b={"stands": [6]}),
     "wire_count_mismatch", {"path": ["players"], "stands": 11, "nano": 0, "in_play": 10}, None),
    ("a stand too small for its X slot", {**table(None, []), "players": [{"stands": [{"size": 1, "x_slot": "any"}]},
                                                                         {"stands": [9]}]},
     "stand_too_small", {"path": ["players", 0, "stands"], "player": 0, "stand": 0, "size": 1, "special": 1}, None),
    ("a stand object with an unknown shape", {**table(None, []), "players": [{"stands": [{"size": 5, "x_slot": "red"}]},
                                                                             {"stands": [5]}]},
     "stand_shape_unknown", {"path": ["players", 0, "stands", 0, "x_slot"], "given": "'red'", "allowed": ["any", "blue"]},
     None),
    ("a mission number past any integer the page reads", {**table(None, []), "meta": {"mission": 10**30}},
     "mission_unknown", {"path": ["meta"], "given": "2^64…", "low": MISSIONS[0], "high": MISSIONS[-1]}, None),
    ("a long character name, quoted short", {**table(None, []), "players": [{"stands": [5], "character": "x" * 100},
                                                                            {"stands": [5]}]},
     "character_unknown", {"path": ["players", 0, "character"], "given": repr("x" * 100)[:30] + "…",
                           "allowed": list(CHARACTERS)}, None),
    ("a yellow listed as blue", with_wires(yellow=[2]),
     "key_colour", {"path": ["wires", "yellow"], "key": "2", "colour": "yellow"}, None),
    ("my own wire that is not in play", with_me([1, 1, 1, 1, 2.5]),
     "key_not_in_play", {"path": ["me", "stands"], "key": "2.5", "nearest": "2.1"}, None),
    ("my stand out of order", with_me([2, 1, 1, 1, 1]),
     "my_stand_unsorted", {"path": ["me", "stands"], "player": 0, "stand": 0, "keys": ["2", "1", "1", "1", "1"]}, None),
    ("a FieldReader shape error: an unknown field", table(None, [{**DUAL, "colour": "blue"}]),
     "unknown_field", {"path": ["events", 0], "field": "colour",
                       "allowed": sorted(["type", "actor", "target", "value", "values", "success", "actor_slot", "keys",
                                          "token", "cut_value", "stabilizer", "exploded"])}, 0),
    ("a FieldReader shape error: a slot out of range", table(["1", "8"], [{**LABEL, "at": at(0, 9)}]),
     "out_of_range", {"path": ["events", 0, "at", "slot"], "value": 9, "low": 0, "high": 4, "index": True}, 0),
    ("a count out of range is no index", table(None, [{"type": "info_token", "at": at(0, 0), "count": 9}]),
     "out_of_range", {"path": ["events", 0, "count", "count"], "value": 9, "low": 1, "high": 3, "index": False}, 0),
    ("a player out of range is an index", table(None, [{**DUAL, "actor": 5}]),
     "out_of_range", {"path": ["events", 0, "actor"], "value": 5, "low": 0, "high": 1, "index": True}, 0),
    ("a FieldReader shape error: a missing field", table(None, [{k: v for k, v in DUAL.items() if k != "success"}]),
     "missing_field", {"path": ["events", 0], "field": "success"}, 0),
    ("a FieldReader shape error: not a list", table(None, [{**SUPER, "targets": 3}]),
     "expected_list", {"path": ["events", 0, "targets"]}, 0),
    ("an unknown event type", table(None, [{"type": "cut"}]),
     "event_type_unknown", {"path": ["events", 0, "type"], "given": "'cut'",
                            "allowed": ["info_token", "dual_cut", "detector", "solo_cut", "reveal_red", "radar", "label",
                                        "fast_pass", "disintegrator", "move", "swap", "absent", "dealt", "multi_cut",
                                        "tripwire", "equipment"]}, 0),
    ("a dual cut on a wire already cut", table(None, [DUAL, {**DUAL, "actor_slot": {"stand": 0, "slot": 1}}]),
     "slot_cut", {"path": ["events", 1, "target"], "slot": {"player": 1, "stand": 0, "slot": 0}}, 1),
    ("a dual cut on the actor's own stand", table(None, [{**DUAL, "target": at(0, 2)}]),
     "target_own", {"path": ["events", 0, "target"], "slot": {"player": 0, "stand": 0, "slot": 2}}, 0),
    ("a failed dual cut whose token is the called value", table(None, [{**FAILED, "token": 1}]),
     "token_equals_call", {"path": ["events", 0, "token"], "value": 1}, 0),
    ("a value not in play", table(None, [{**DUAL, "value": 7}]),
     "value_not_in_play", {"path": ["events", 0, "value"], "value": 7}, 0),
    ("a super detector that misses a wire", table(None, [SUPER]),
     "super_detector_targets", {"path": ["events", 0, "targets"], "player": 1, "stand": 0, "count": 5}, 0),
    ("a solo cut of too few wires", table(None, [{"type": "solo_cut", "actor": 0, "value": "yellow",
                                                   "slots": [{"stand": 0, "slot": 4}]}]),
     "solo_cut_count", {"path": ["events", 0, "slots"], "value": "yellow", "left": 2, "count": 1}, 0),
    ("a reveal of red wires that leaves one out", {**table(None, [{"type": "reveal_red", "actor": 0, "slots": [
        {"stand": 0, "slot": 0}]}]), "wires": {"deck": {"1": 4, "2": 4, "1.5": 1, "2.5": 1}}},
     "reveal_red_missing", {"path": ["events", 0, "slots"], "slot": {"player": 0, "stand": 0, "slot": 1}}, 0),
    ("a radar answer missing", table(None, [{"type": "radar", "value": 2, "answers": [[True], []]}]),
     "radar_answers_row", {"path": ["events", 0, "answers"], "player": 1, "stands": 1}, 0),
    ("a label on the stand's last wire", table(None, [{"type": "label", "kind": "equal", "at": at(1, 4)}]),
     "label_no_neighbour", {"path": ["events", 0, "at"], "slot": {"player": 1, "stand": 0, "slot": 4}}, 0),
    ("a move from Nano where there is none", table(None, [{"type": "move", "from": "nano", "to": at(1, 0)}]),
     "no_nano", {"path": ["events", 0, "from"]}, 0),
    ("a simultaneous cut whose tokens all say the value", table(None, [
        {"type": "multi_cut", "actor": 0, "value": 2, "slots": [at(1, 0)], "success": False, "tokens": [2]}]),
     "multi_cut_tokens_all_called", {"path": ["events", 0, "tokens"], "value": 2}, 0),
    ("an equipment event of a card that reveals something", table(None, [{"type": "equipment", "card": "4"}]),
     "equipment_event_card", {"path": ["events", 0, "card"], "card": "4", "allowed": ["6", "7", "11", "Y", "3.3"]}, 0),
    ("an event after the bomb exploded", table(None, [{**FAILED, "exploded": True}, DUAL]),
     "game_over", {"path": ["events", 1], "cause": "red", "at": 0}, 1),
    ("a wire seen after an event that is not there", {**with_me([1, 1, 1, 1, 1.1]), "me": {
        "player": 0, "stands": [[1, 1, 1, 1, 1.1]], "seen": [{"at": at(1, 0), "value": 2, "after": 3}]}},
     "seen_after_end", {"path": ["me", "seen", 0, "after"], "after": 3, "events": 0}, None),
]


@pytest.mark.parametrize("what, t, code, fields, event", CASES, ids=[case[0] for case in CASES])
def test_each_refusal_has_its_code_and_fields(what: str, t: dict[str, Any], code: str, fields: dict[str, Any],
                                              event: int | None) -> None:
    error = refusal(t)
    assert (error["code"], error["fields"]) == (code, {**fields, "event": event}), error["message"]
    assert error.get("event") == event


def words_in(value: Any) -> list[str]:
    """The sentences a field's value holds: any string with a space (field names, event types, card
    IDs, sort keys and quoted values have none)."""
    if isinstance(value, dict):
        return [w for v in value.values() for w in words_in(v)]
    if isinstance(value, list):
        return [w for v in value for w in words_in(v)]
    return [value] if isinstance(value, str) and " " in value else []


def test_no_refusal_carries_english_in_its_fields() -> None:
    for what, t, *_ in CASES:
        error = refusal(t)
        assert words_in(error["fields"]) == [], (what, error)
        assert " " in error["message"]  # the CLI's English stays


def test_every_code_is_listed() -> None:
    assert set(TABLE_REFUSAL_CODES) == {*TABLE_CODES, *REFUSAL_CODES}
    assert len(set(TABLE_REFUSAL_CODES)) == len(TABLE_REFUSAL_CODES)
    assert "table_invalid" not in TABLE_REFUSAL_CODES


def test_a_refusal_survives_pickling_whole() -> None:
    """An error raised in another process (a worker's task) reaches its caller with its code and fields."""
    with pytest.raises(TableError) as raised:
        load_table(table(None, [{**FAILED, "token": 1}]))
    again = pickle.loads(pickle.dumps(raised.value))
    assert (str(again), again.code, again.fields, again.event) == \
        (str(raised.value), "token_equals_call", {"path": ["events", 0, "token"], "value": 1}, 0)
