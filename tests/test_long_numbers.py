"""Sort keys, values and numbers hundreds or thousands of digits long (issue 18, item 4).

Each place a key or value is read — the deck, the colour lists, the pools, my
stands, what I saw, the events' printed keys, called values and tokens, the
`new` command's drawn keys — gives exit 2 (or the bridge's error) naming the
field, never a traceback; a key beyond n = 99 is refused as wires.blue's values are.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bombbuster_core import bridge, jsonio
from bombbuster_core.cli import main

LONG = "1" * 400  # a float cannot hold it
LONGER = "1" * 5000  # int() cannot read it
BASE = {"players": [{"stands": [3]}, {"stands": [3]}], "wires": {"deck": {"1": 2, "2": 2, "3": 1, "3.1": 1}}}
SLOT = {"player": 1, "stand": 0, "slot": 0}
DUAL_CUT = {"type": "dual_cut", "actor": 0, "target": SLOT, "value": 1, "success": True,
            "actor_slot": {"stand": 0, "slot": 0}}


def table(**fields: object) -> dict[str, object]:
    return {**BASE, **fields}


def deck(extra: str) -> dict[str, object]:
    return table(wires={"deck": {"1": 2, "2": 2, "3": 1, "3.1": 1, extra: 1}},
                 players=[{"stands": [4]}, {"stands": [3]}])


def colours(**lists: object) -> dict[str, object]:
    return table(wires={"blue": [1], **lists}, players=[{"stands": [3]}, {"stands": [2]}])


# (table, the field the error must name)
TABLES = {
    "deck yellow 400": (deck(LONG + ".1"), "wires field 'deck'"),
    "deck yellow 5000": (deck(LONGER + ".1"), "wires field 'deck'"),
    "deck blue 400": (deck(LONG), "wires field 'deck'"),
    "deck blue 100": (deck("100"), "wires field 'deck'"),
    "deck leading zero": (deck("04.1"), "wires field 'deck'"),
    "yellow 400": (colours(yellow=[LONG + ".1"]), "wires field 'yellow'"),
    "yellow 5000": (colours(yellow=[LONGER + ".1"]), "wires field 'yellow'"),
    "red 99.5+1": (colours(red=["100.5"]), "wires field 'red'"),
    "pool 400": (colours(uncertain=[{"candidates": [LONG + ".5", "2.5"], "count": 1}]),
                 "wires field 'uncertain'[0] field 'candidates'"),
    "me 400": (table(me={"player": 0, "stands": [[1, 2, LONG + ".1"]]}), "me field 'stands'"),
    "me 5000": (table(me={"player": 0, "stands": [[1, 2, LONGER + ".1"]]}), "me field 'stands'"),
    "seen 400": (table(me={"player": 0, "stands": [[1, 2, 3]], "seen": [{"at": SLOT, "value": LONG + ".5"}]}),
                 "me field 'seen'[0] field 'value'"),
    "target key 400": (table(events=[{**DUAL_CUT, "keys": {"target": LONG + ".1"}}]), "field 'keys' field 'target'"),
    "actor key 5000": (table(events=[{**DUAL_CUT, "keys": {"actor": LONGER}}]), "field 'keys' field 'actor'"),
    "red value 400": (table(events=[{"type": "reveal_red", "actor": 0, "slots": [
        {"stand": 0, "slot": 0, "value": LONG + ".5"}]}], wires={"deck": {"1": 2, "2": 2, "3": 1, "3.5": 1}}),
        "event 0 (reveal_red) field 'slots'"),
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_long_keys_are_refused_naming_the_field(tmp_path: Path, capsys: pytest.CaptureFixture, name: str) -> None:
    raw, field = TABLES[name]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(raw))
    assert main(["analyze", str(path)]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert field in error and "sort key" in error and len(error) < 200, error
    answer = json.loads(bridge.handle(json.dumps({"id": 1, "method": "analyze", "params": {"table": raw}})))
    assert answer["error"]["message"] == error


@pytest.mark.parametrize("number", ["100", LONG], ids=["100", "400 digits"])
def test_long_called_values_are_refused_as_values(number: str) -> None:
    # A blue value of 400 digits came back as "not in play" with all its digits: now bounded like the keys.
    raw = table(events=[{"type": "info_token", "at": SLOT, "value": int(number)}])
    message = json.loads(bridge.handle(json.dumps({"id": 1, "method": "analyze", "params": {"table": raw}})))
    assert message["error"]["message"].startswith("event 0 (info_token) field 'value': ")
    assert "a blue number 1..99" in message["error"]["message"] and len(message["error"]["message"]) < 200


def test_json_integers_int_cannot_read_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    text = json.dumps(table(me={"player": 0, "stands": [[1, 2, 3]]})).replace("[[1, 2, 3]]", f"[[1, 2, {LONGER}]]")
    with pytest.raises(jsonio.StrictJSONError, match="too large") as err:
        jsonio.loads_strict(text)
    assert str(err.value).startswith("character ")  # a list item: where it is, as no key names it
    with pytest.raises(jsonio.StrictJSONError, match="^field 'nano': the number 1111"):
        jsonio.loads_strict('{"nano": %s}' % LONGER)
    path = tmp_path / "t.json"
    path.write_text(text)
    assert main(["analyze", str(path)]) == 2
    assert "too large" in json.loads(capsys.readouterr().out)["error"]
    answer = json.loads(bridge.handle('{"id": 1, "method": "analyze", "params": {"table": %s}}' % text))
    assert "too large" in answer["error"]["message"] and "internal error" not in answer["error"]["message"]


@pytest.mark.parametrize("key", [LONG + ".1", LONGER + ".1", "100.1"], ids=["400 digits", "5000 digits", "100.1"])
def test_new_refuses_long_drawn_keys(capsys: pytest.CaptureFixture, key: str) -> None:
    assert main(["new", "--mission", "2", "--players", "2", "--yellow", f"{key},2.1"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error.startswith("mission 2 yellow: ") and "sort key" in error and len(error) < 200, error
    answer = json.loads(bridge.handle(json.dumps({"id": 1, "method": "new",
                                                  "params": {"mission": 2, "players": 2, "yellow": [key, 2.1]}})))
    assert answer["error"]["message"] == error


def test_the_largest_keys_are_still_read(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    raw = table(wires={"deck": {"1": 2, "2": 2, "99": 1, "99.1": 1, "99.5": 1}}, players=[{"stands": [4]}, {"stands": [3]}])
    path = tmp_path / "t.json"
    path.write_text(json.dumps(raw))
    assert main(["analyze", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["consistent"]


def test_a_too_large_number_is_placed_by_its_own_token() -> None:
    # the same digits earlier in a string (or inside a longer number) are not the number refused
    with pytest.raises(jsonio.StrictJSONError, match="^field 'nano': the number 1111"):
        jsonio.loads_strict('{"meta": "%s", "x": 9%s, "nano": %s}' % (LONGER, "0" * 10, LONGER))
