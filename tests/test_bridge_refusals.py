"""A refused table's error reply carries a `code` and its `fields` beside the English `message`
(issue 32 item 4, docs/i18n.md): an equipment use the board does not allow has its own code
(equipment.REFUSAL_CODES), any other malformed table is "table_invalid" with the event and the
field at fault; the page words each code in its language."""
from __future__ import annotations

import json
from typing import Any

from bombbuster_core.bridge import TABLE_REFUSAL_CODES, handle
from bombbuster_core.equipment import REFUSAL_CODES

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
    assert error["fields"] == {"card": "1", "needs": 2, "unlock": 1, "cut": 0, "event": 0}
    assert error["message"].startswith("event 0 (label) field 'card': card 1 (Label ≠) is still locked")


def test_a_used_card_and_a_used_character_are_refused_with_their_codes() -> None:
    error = refusal(table(["1", "8"], TWO_ONES + [LABEL, LABEL]))
    assert (error["code"], error["fields"]) == ("card_used", {"card": "1", "event": 2})
    again = {**DOUBLE, "targets": [at(1, 1), at(1, 2)], "cut": at(1, 1), "actor_slot": {"stand": 0, "slot": 1}}
    error = refusal(table(["7", "8"], [DOUBLE, again]))
    assert (error["code"], error["fields"]) == ("character_used", {"player": 0, "event": 1})
    assert "player 0's Double Detector is already used" in error["message"]


def test_a_card_that_is_not_one_or_does_not_do_it_is_refused_with_its_code() -> None:
    error = refusal(table(["1", "8"], [{**LABEL, "card": "zz"}]))
    assert (error["code"], error["fields"]) == ("card_unknown", {"given": "'zz'", "event": 0})
    error = refusal(table(["1", "8"], TWO_ONES + [{**LABEL, "card": "8"}]))
    assert (error["code"], error["fields"]) == ("card_not_providing", {"entry": "8", "event": 1})
    error = refusal(table(["1", "8"], TWO_ONES + [{k: v for k, v in LABEL.items() if k != "card"}]))
    assert (error["code"], error["fields"]) == ("card_not_named", {"event": 1})


def test_any_other_malformed_table_is_table_invalid_with_the_event_and_field() -> None:
    error = refusal(table(["1", "8"], [{**LABEL, "at": at(0, 9)}]))
    assert error["code"] == "table_invalid" and error["event"] == 0
    assert error["fields"] == {"field": "slot", "detail": "9 is out of range (0..4)", "event": 0}
    t = table(None, [])
    t["players"] = []
    error = refusal(t)
    assert error["code"] == "table_invalid" and "event" not in error
    assert error["fields"] == {"field": "players", "detail": "0 players; the game has 2 to 5", "event": None}


def test_every_code_is_listed() -> None:
    assert set(TABLE_REFUSAL_CODES) == {"table_invalid", *REFUSAL_CODES}
    assert len(set(TABLE_REFUSAL_CODES)) == len(TABLE_REFUSAL_CODES)
