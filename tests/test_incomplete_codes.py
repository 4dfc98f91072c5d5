"""What a suggestion list or a card's advice left out, and why a player may use no card, each
with a code and its fields beside the core's English (issue 32 item 4, docs/i18n.md): the
``incomplete_why`` parallel to ``incomplete`` (suggest/notes.py INCOMPLETE_CODES) and
``barred_why`` beside ``barred`` (suggest/advice.py BARRED_CODES), on a table that gives each."""
from __future__ import annotations

import json
from typing import Any

import pytest

from bombbuster_core.beliefs import EngineLimit
from bombbuster_core.suggest import Policy, suggest
from bombbuster_core.suggest import equipment as advisor
from bombbuster_core.suggest.notes import INCOMPLETE_CODES
from bombbuster_core.table import load_table

from test_suggest_equipment import OPEN, advice, every_card, game  # noqa: F401 (a fixture)
from test_suggest_recorded import RECORDS, answer


def notes(row: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(English note, code, fields) of a result's or a card's ``incomplete``: the two lists parallel."""
    why = row.get("incomplete_why", [])
    assert len(why) == len(row["incomplete"]) and all(w["code"] in INCOMPLETE_CODES for w in why)
    return [(note, w["code"], w["fields"]) for note, w in zip(row["incomplete"], why)]


def recorded(name: str) -> dict[str, Any]:
    record = next(r for r in RECORDS if r["name"] == name)
    return json.loads(answer(record["table"], record["request"]))


def test_a_detector_search_cut_short_by_the_budget() -> None:
    assert notes(recorded("mid-15")) == [("double_detector", "search_budget", {"kind": "double_detector"}),
                                         ("super_detector", "search_budget", {"kind": "super_detector"})]


def test_a_detector_not_searched_on_a_stand_whose_wires_moved() -> None:
    assert notes(recorded("full-4")) == [("double_detector: not searched on player 1 stand 1 (moved wires)",
                                          "moved_wires", {"kind": "double_detector", "player": 1, "stand": 1})]


def test_a_complete_list_has_no_notes() -> None:
    assert "incomplete_why" not in suggest(load_table(game(5003)))


def test_cards_not_computed_and_marks_not_scored_within_the_budget(every_card) -> None:
    result = suggest(load_table(game(5003)), policy=Policy(equipment_budget=0))
    assert notes(advice(result, "8")) == [("general radar: not computed (budget)", "card_budget", {"card": "8"})]
    assert notes(advice(result, "2")) == [("walkie-talkies: not computed (budget)", "card_budget", {"card": "2"})]
    assert notes(advice(result, "4")) == [("Post-it: 4 of 4 marks not scored (budget)", "marks_budget",
                                           {"card": "4", "left": 4, "total": 4})]
    assert notes(advice(result, "12"))[0][1:] == ("marks_budget", {"card": "12", "left": 2, "total": 2})
    assert notes(advice(result, "2.2"))[0][1:] == ("marks_budget", {"card": "2.2", "left": 1, "total": 1})
    assert notes(advice(result, "9")) == []


def test_the_radar_answers_joint_law_left_out(every_card) -> None:
    radar = advice(suggest(load_table(game(5003)), policy=Policy(equipment_budget=3)), "8")
    assert notes(radar) == [(f"general radar: the joint law of value {v} (budget)", "radar_law_budget",
                             {"card": "8", "value": v}) for v in (2, 1)]


def test_marks_an_engine_cannot_score(every_card) -> None:
    """M24's x-count tokens under the signatures engine (no count facts): the engine's limit as its code
    and fields (the page words them), its English in the note only."""
    table = {"format": 1, "wires": {"blue": [1, 2, 3]}, "meta": {"mission": 24},
             "players": [{"name": "A", "stands": [6]}, {"name": "B", "stands": [6]}],
             "me": {"player": 0, "stands": [[1, 1, 1, 1, 2, 3]]}, "events": []}
    [(note, code, fields)] = notes(advice(suggest(load_table(table), policy=OPEN, engine="signatures"), "4"))
    assert code == "marks_unsupported" and note.startswith(f"Post-it: {fields['left']} of {fields['total']} marks")
    assert fields["card"] == "4" and 0 < fields["left"] <= fields["total"] and "value relations" in note
    assert fields["limit"] == {"code": "signatures_values", "fields": {"kinds": ["SameValueCount"]}}


def test_count_tokens_not_offered_on_a_stand_with_a_wire_the_view_does_not_know(every_card) -> None:
    """B's first wire moved between my 1s and 2s: a 1 or a 2, so no x-count on my stand."""
    table = {"format": 1, "wires": {"blue": [1, 2, 3, 4, 5, 6]}, "meta": {"mission": 24},
             "players": [{"name": "A", "stands": [8]}, {"name": "B", "stands": [8]}, {"name": "C", "stands": [8]}],
             "me": {"player": 0, "stands": [[1, 1, 2, 2, 3, 3, 4, 4]]},
             "events": [{"type": "move", "from": {"player": 1, "stand": 0, "slot": 0},
                         "to": {"player": 0, "stand": 0, "slot": 2}}]}
    post_it = advice(suggest(load_table(table), policy=OPEN), "4")
    assert notes(post_it) == [("Post-it: stand 1 holds a wire this view does not know, so its x-count tokens are "
                               "not offered", "count_unknown", {"card": "4", "player": 0, "stand": 0})]


def test_an_engine_limit_in_a_card(every_card, monkeypatch) -> None:
    def too_big(ctx: Any, incomplete: Any) -> Any:
        raise EngineLimit("too many states", "states_budget", states=10**9, budget=10**8)
    monkeypatch.setitem(advisor.VIEW_CARDS, "4", too_big)
    post_it = advice(suggest(load_table(game(5003)), policy=OPEN), "4")
    limit = {"code": "states_budget", "fields": {"states": 10**9, "budget": 10**8}}
    assert (post_it["code"], post_it["fields"]) == ("not_computed", {"limit": limit})
    assert notes(post_it) == [("too many states", "engine_limit", {"limit": limit})]


@pytest.mark.parametrize("mission, code", [(17, "captain_no_cards"), (28, "captain_no_equipment")])
def test_the_captain_barred_from_the_cards(mission: int, code: str, every_card) -> None:
    table = {**game(2), "meta": {"mission": mission}}
    captain = suggest(load_table(table), player=0)["equipment"]
    assert captain["barred"] and captain["barred_why"] == {"code": code, "fields": {"mission": mission, "player": 0}}
    teammate = suggest(load_table(table), player=1)["equipment"]
    assert "barred" not in teammate and "barred_why" not in teammate


def test_the_disintegrators_assumption_has_its_code(every_card) -> None:
    """The Disintegrator's assumption (a uniform draw): its English for the CLI, a code and fields the page words."""
    disintegrator = advice(suggest(load_table(game(5003)), policy=OPEN), "10.10")
    assert disintegrator["assumption"].startswith("the drawn token is uniform over the numbers 1-12")
    assert disintegrator["assumption_why"] == {"code": "uniform_draw", "fields": {"low": 1, "high": 12}}
