"""Equipment on the table (issue 19, part 1): the cards on the board, characters, and what each
event spends — unlock timing, single use, Emergency Batteries / Drop, False Bottom — with clear
refusals naming the event and the field; and the mission pools `new` prints."""
from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from bombbuster_core import equipment as eq
from bombbuster_core.analysis import analyze
from bombbuster_core.missions import MissionError, equipment_pool, mission, new_table
from bombbuster_core.table import TableError, load_table


def at(p: int, j: int) -> dict[str, int]:
    return {"player": p, "stand": 0, "slot": j}


# A 4 | 4 table of blue 1 1 1 1 2 2 2 2 plus yellows 1.1 and 2.1 (5 | 5): A holds the 1s' left end.
def table(cards: list[str] | None, events: list[dict[str, Any]], **players: Any) -> dict[str, Any]:
    t: dict[str, Any] = {"players": [{"stands": [5], **players.get("a", {})}, {"stands": [5], **players.get("b", {})}],
                         "wires": {"deck": {"1": 4, "2": 4, "1.1": 1, "2.1": 1}}, "events": events}
    if cards is not None:
        t["equipment"] = [{"card": c} for c in cards]
    return t


def cut(value: Any, target: int, mine: int, actor: int = 0) -> dict[str, Any]:
    """A successful dual cut of ``value`` by ``actor`` on the other player's slot ``target``."""
    return {"type": "dual_cut", "actor": actor, "target": at(1 - actor, target), "value": value, "success": True,
            "actor_slot": {"stand": 0, "slot": mine}}


TWO_ONES = [cut(1, 0, 0)]  # one dual cut cuts two 1s: cards of value 1 unlock
RADAR = {"type": "radar", "value": 2, "answers": [[True], [True]]}


def board(t: dict[str, Any]) -> dict[str, Any]:
    b = load_table(t).equipment_board()
    assert b is not None
    return b.json()


def refused(t: dict[str, Any]) -> TableError:
    with pytest.raises(TableError) as err:
        load_table(t)
    return err.value


def states(t: dict[str, Any]) -> dict[str, str]:
    return {c["card"]: c["state"] for c in board(t)["cards"]}


def test_a_card_unlocks_when_two_wires_of_its_value_are_cut() -> None:
    assert states(table(["1", "8"], [])) == {"1": "locked", "8": "locked"}
    assert states(table(["1", "8"], TWO_ONES)) == {"1": "unlocked", "8": "locked"}
    label = {"type": "label", "kind": "different", "at": at(0, 1), "card": "1"}
    assert states(table(["1", "8"], TWO_ONES + [label])) == {"1": "used", "8": "locked"}
    # before the cut the Label is locked: refused, naming the event and the field
    err = refused(table(["1", "8"], [label]))
    assert err.event == 0 and str(err).startswith("event 0 (label) field 'card': card 1 (Label ≠) is still locked")


def test_a_double_numbered_card_needs_all_four() -> None:
    fast = {"type": "fast_pass", "actor": 0, "value": 2, "slots": [{"stand": 0, "slot": 3}, {"stand": 0, "slot": 4}],
            "card": "9.9"}
    # 2.2 needs all four 2s cut; two are not enough
    two = [cut(2, 4, 3)]
    assert states(table(["2.2", "9"], two)) == {"2.2": "locked", "9": "locked"}
    assert "still locked: it needs 4 wires of value 9 cut, 0 are" in str(refused(table(["9.9", "9"], [fast])))
    four = [cut(2, 4, 3), cut(2, 4, 3, actor=1)]
    assert states(table(["2.2", "9"], four)) == {"2.2": "unlocked", "9": "locked"}


def test_each_card_is_used_once_and_emergency_drop_turns_them_up_again() -> None:
    # deck 1 1 3 3 3 3 4 4 4 4, 5 | 5: the 4s are cut first (unlocking the Post-it), then the 3s
    base = {"players": [{"stands": [5]}, {"stands": [5]}], "wires": {"deck": {"1": 2, "3": 4, "4": 4}},
            "equipment": [{"card": "4"}, {"card": "3.3"}]}
    cut4 = [cut(4, 4, 4), cut(4, 3, 3, actor=1)]
    cut3 = [cut(3, 2, 2), cut(3, 1, 1, actor=1)]
    mark = {"type": "info_token", "at": at(0, 0), "value": 1, "card": "4", "actor": 0}
    assert states({**base, "events": cut4 + [mark]}) == {"4": "used", "3.3": "locked"}
    err = refused({**base, "events": cut4 + [mark, mark]})
    assert err.event == 3 and "card 4 (Post-it) is already used" in str(err)
    # a setup token (no card) spends nothing, also on a listed board
    assert states({**base, "events": [{"type": "info_token", "at": at(0, 0), "value": 1}]})["4"] == "locked"
    # Emergency Drop (all four 3s cut) turns the Post-it up again, and is itself spent
    dropped = {**base, "events": cut4 + [mark] + cut3 + [{"type": "equipment", "card": "3.3"}]}
    assert states(dropped) == {"4": "unlocked", "3.3": "used"}
    assert states({**dropped, "events": dropped["events"] + [mark]}) == {"4": "used", "3.3": "used"}
    assert analyze(load_table({**dropped, "events": dropped["events"] + [mark]}))["consistent"]


def test_characters_are_used_once_and_emergency_batteries_re_enable_them() -> None:
    dd = {"type": "detector", "actor": 0, "kind": "double", "targets": [at(1, 0), at(1, 1)], "value": 1,
          "success": True, "cut": at(1, 0), "actor_slot": {"stand": 0, "slot": 0}, "card": "character"}
    again = {**dd, "targets": [at(1, 1), at(1, 2)], "cut": at(1, 1), "actor_slot": {"stand": 0, "slot": 1}}
    t = table(["7", "8"], [dd])
    assert [c["used"] for c in board(t)["characters"]] == [True, False]
    assert "player 0's Double Detector is already used" in str(refused(table(["7", "8"], [dd, again])))
    # M58 grants the Double Detector every turn: "mission" spends nothing
    m58 = {**table(["7"], [{**dd, "card": "mission"}, {**again, "card": "mission"}]), "meta": {"mission": 58}}
    assert board(m58)["characters"][0]["used"] is False
    # Emergency Batteries (two 7s cut) re-enable it
    sevens = {"deck": {"1": 4, "7": 4, "1.1": 1, "2.1": 1}}
    cut7 = {"type": "dual_cut", "actor": 1, "target": at(0, 4), "value": 7, "success": True,
            "actor_slot": {"stand": 0, "slot": 4}}
    batteries = {"type": "equipment", "card": "7", "characters": [0]}
    t = {**table(["7"], [dd, cut7, batteries, again]), "wires": sevens}
    assert board(t)["characters"][0]["used"] is True and states(t) == {"7": "used"}
    err = refused({**table(["7"], [cut7, batteries]), "wires": sevens})
    assert err.event == 1 and "field 'characters'" in str(err) and "not used" in str(err)
    # a character does only what it is: a General Radar character is no detector
    err = refused(table(["7"], [dd], a={"character": "general_radar"}))
    assert "'character' does not provide" in str(err)
    # ...but is a radar, named with the user
    radar = {**RADAR, "card": "character", "actor": 0}
    assert board(table(["7"], [radar], a={"character": "general_radar"}))["characters"][0]["used"] is True
    assert "field 'actor'" in str(refused(table(["7"], [{**RADAR, "card": "character"}],
                                                a={"character": "general_radar"})))


def test_false_bottom_adds_two_cards_after_two_yellows() -> None:
    yellow = {"type": "dual_cut", "actor": 0, "target": at(1, 2), "value": "yellow", "success": True,
              "actor_slot": {"stand": 0, "slot": 2}}
    fb = {"type": "equipment", "card": "Y", "added": ["8", "12"]}
    assert states(table(["Y", "1"], [yellow, fb])) == {"Y": "used", "1": "locked", "8": "locked", "12": "locked"}
    err = refused(table(["Y", "1"], [fb]))
    assert err.event == 0 and "it needs 2 yellow wires cut, 0 are" in str(err)
    assert "already on the board" in str(refused(table(["Y", "1"], [yellow, {**fb, "added": ["1", "8"]}])))
    assert "field 'added'" in str(refused(table(["Y", "1"], [yellow, {"type": "equipment", "card": "Y"}])))


@pytest.mark.parametrize("event,message", [
    ({**RADAR, "card": "8"}, "card 8 (General Radar) is not on the board (1, 4)"),
    ({**RADAR, "card": "9"}, "'9' does not provide what the event uses"),
    ({**RADAR, "card": "rewinder"}, "name the card by its printed ID (6)"),
    ({**RADAR, "card": "13"}, "'13' is not an equipment card"),
    (RADAR, "the table lists its equipment: name what the event used"),
    ({**RADAR, "card": ["8", "8"]}, "name 1 card(s), not 2"),
    ({"type": "equipment", "card": "6"}, "card 6 (Rewinder) is not on the board"),
    ({"type": "equipment", "card": "8"}, "cards that reveal something have their own events"),
])
def test_impossible_uses_are_refused_naming_the_event_and_field(event: dict[str, Any], message: str) -> None:
    err = refused(table(["1", "4"], TWO_ONES + [event]))
    assert err.event == 1 and str(err).startswith(f"event 1 ({event['type']}) field 'card'") and message in str(err)


def test_without_a_listed_board_a_card_is_only_checked_for_what_it_does() -> None:
    # old tables (no equipment, no card fields) stay valid; a named card must fit its event
    assert load_table(table(None, [RADAR, {"type": "equipment", "card": "rewinder"}])).equipment_board() is None
    assert load_table(table(None, [{**RADAR, "card": "8"}, {**RADAR, "card": "8"}])).events
    assert "does not provide" in str(refused(table(None, [{**RADAR, "card": "3"}])))
    stabilized = {"type": "dual_cut", "actor": 0, "target": at(1, 0), "values": [1, 2], "cut_value": 1,
                  "success": True, "actor_slot": {"stand": 0, "slot": 0}, "stabilizer": True}
    assert load_table(table(None, [{**stabilized, "card": ["9", "10"]}])).events
    assert "name 2 card(s), not 1" in str(refused(table(None, [{**stabilized, "card": "9"}])))


def test_equipment_says_nothing_about_wires() -> None:
    events = TWO_ONES + [{**RADAR, "card": "character", "actor": 0}]
    with_cards = analyze(load_table(table(["1"], events, a={"character": "general_radar"})))
    plain = analyze(load_table(table(None, [e for e in events if e is not events[-1]] + [RADAR])))
    assert with_cards.pop("equipment")["characters"][0]["used"] is True
    assert with_cards == plain and "equipment" not in plain


def test_mission_pools() -> None:
    def pool(n: int, p: int = 4) -> dict[str, Any]:
        return equipment_pool(mission(n), p)

    for n in (1, 2, 39):
        assert pool(n)["count"] == 0 and pool(n)["pool"] == []
    assert pool(3) == {"count": 4, "pool": list(eq.BASE_CARDS), "removed": [], "added": [],
                       "characters": ["double_detector"]}
    assert "10" not in pool(26)["pool"] and "7" not in pool(27)["pool"] and pool(27)["characters"] == []
    assert {"1", "12"} & set(pool(52)["pool"]) == set()
    assert "2" not in pool(20)["pool"] and "2" not in pool(35)["pool"]
    assert "Y" in pool(9)["added"] and "Y" not in pool(8, 4)["pool"]  # M8 has no yellow wire
    assert all(c in pool(55)["pool"] for c in eq.DOUBLE_NUMBERED) and "9.9" not in pool(54)["pool"]
    assert pool(31)["characters"] == list(eq.CHARACTERS) and pool(30)["characters"] == ["double_detector"]
    assert pool(4, 5)["count"] == 5


def test_new_names_the_cards_drawn() -> None:
    t = new_table(55, 4, equipment=["1", "9.9", "2.2", "3"])
    assert t["equipment"] == [{"card": c} for c in ("1", "9.9", "2.2", "3")]
    assert t["meta"]["equipment"]["count"] == 4
    assert load_table(t).equipment_board() is not None
    for cards, message in ((["1", "2", "3"], "4 cards are drawn with 4 players, got 3"),
                           (["1", "2", "3", "Y"], "card Y (False Bottom) is not in this mission's pool"),
                           (["1", "1", "2", "3"], "listed twice"), (["1", "2", "3", "0"], "not an equipment card")):
        with pytest.raises(MissionError) as err:
            new_table(55, 4, equipment=cards)
        assert message in str(err.value)
    out = subprocess.run([sys.executable, "-m", "bombbuster_core", "new", "--mission", "20", "--players", "4",
                          "--equipment", "2,3,4,5"], capture_output=True, text=True)
    assert out.returncode == 2 and "card 2 (Walkie-Talkies) is not in this mission's pool" in json.loads(out.stdout)["error"]
    out = subprocess.run([sys.executable, "-m", "bombbuster_core", "new", "--mission", "20", "--players", "4",
                          "--equipment", "1,3,4,Y"], capture_output=True, text=True)
    assert out.returncode == 0 and json.loads(out.stdout)["equipment"][3] == {"card": "Y"}


def test_every_mission_preset_with_equipment_drawn_loads() -> None:
    for n in range(1, 67):
        m = mission(n)
        for p in sorted(m.wires):
            pool = equipment_pool(m, p)
            t = new_table(n, p, equipment=pool["pool"][:pool["count"]])
            assert load_table(t).equipment_board() is not None
