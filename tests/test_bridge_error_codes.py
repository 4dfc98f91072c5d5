"""Error replies that are no refusal of a table's facts still carry a code the page words (issue 32
item 4): a simulator error that is no refusal of the table (an illegal move in a rollout, a malformed
search or lookahead request) is ``simulator_error`` with its English as ``detail``, in the bridge's
reply and in a review's search note; a table nested too deeply or too long for the JSON reader is
``too_deep`` / ``too_long``; a bug caught at the bridge's boundary is ``internal_error``."""
from __future__ import annotations

import json
from typing import Any

from bombbuster_core import bridge, review
from bombbuster_core.bridge import handle
from bombbuster_core.jsonio import MAX_DEPTH
from bombbuster_core.sim.actions import DualCutAction
from bombbuster_core.sim.game import Game
from tests.test_lookahead import open_game

TABLE = {"format": 1, "wires": {"blue": [1, 2]},
         "players": [{"name": name, "stands": [4]} for name in ("Ann", "Bob")],
         "me": {"player": 0, "stands": [[1, 1, 2, 2]]}, "events": []}


def searched_table() -> dict[str, Any]:
    """A Mission 4 decision the search plays out (no certain move, several calls), as the page has it."""
    game = open_game(8)
    raw = game.table(game.turn)
    return {**raw, "meta": {k: v for k, v in raw["meta"].items() if k != "sim"}}


def error_of(method: str, params: Any) -> dict[str, Any]:
    reply = json.loads(handle(json.dumps({"id": 1, "method": method, "params": params})))
    assert "result" not in reply, reply
    return reply["error"]


def an_illegal_move(monkeypatch) -> None:
    """Every move the simulator is asked to play becomes a call of a value nobody holds: the rules'
    own check (Game._check) refuses it, as it would a policy's bug."""
    play = Game.play
    monkeypatch.setattr(Game, "play", lambda game, action: play(game, DualCutAction((1, 0, 0), 99)))


def test_a_malformed_lookahead_request_is_a_coded_simulator_error() -> None:
    error = error_of("lookahead", {"table": TABLE, "deals": 0})
    assert error["code"] == "simulator_error"
    assert error["fields"] == {"detail": error["message"]}
    assert "'deals'" in error["message"]


def test_an_illegal_move_in_a_search_is_a_coded_simulator_error(monkeypatch) -> None:
    table = searched_table()
    an_illegal_move(monkeypatch)
    error = error_of("search", {"table": table, "iterations": 4, "seed": 0})
    assert (error["code"], error["fields"]) == ("simulator_error", {"detail": error["message"]}), error
    assert "cannot call 99" in error["message"]


def test_a_reviews_search_note_codes_a_simulator_error(monkeypatch) -> None:
    """Before, the note kept only the English ``reason``: the page showed it in every language."""
    raw = searched_table()
    an_illegal_move(monkeypatch)
    note = review.searched(raw, len(raw["events"]), None, iterations=4, seed=0)
    assert note["searched"] is False
    assert note["reason_why"] == {"code": "simulator_error", "fields": {"detail": note["reason"]}}, note
    assert "cannot call 99" in note["reason"]


def test_a_table_nested_too_deeply_is_coded() -> None:
    deep: Any = []
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    error = error_of("analyze", {"table": {**TABLE, "players": deep}})
    assert (error["code"], error["fields"]) == ("too_deep", {"limit": MAX_DEPTH}), error


def test_a_table_too_long_is_coded() -> None:
    long_table = {**TABLE, "meta": {"note": "x" * bridge.MAX_CHARS}}
    error = error_of("analyze", {"table": long_table})
    assert error["code"] == "too_long", error
    assert error["fields"]["limit"] == bridge.MAX_CHARS and error["fields"]["size"] > bridge.MAX_CHARS


def test_a_bug_at_the_boundary_is_an_internal_error_with_its_detail(monkeypatch) -> None:
    def broken(params: Any, progress: Any) -> dict[str, Any]:
        raise TypeError("a bug")
    monkeypatch.setitem(bridge.METHODS, "ping", broken)
    error = error_of("ping", {})
    assert error == {"message": "internal error: TypeError: a bug", "code": "internal_error",
                     "fields": {"detail": "TypeError: a bug"}}
