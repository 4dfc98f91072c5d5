"""Mission 12, "Wrapped in Red Tape": a Number card covers each Equipment card at setup, and the card
unlocks only once its own cuts AND 2 cuts of its Number card's value are made (equipment.py
COVER_NEEDS, a reading from third-party summaries: docs/table-format.md [U]).

The core follows it (the table's ``equipment[i].cover``; a use before both is refused, naming the
missing cuts), new tables and meta.equipment say so, bad covers are refused naming the field, and
the simulator draws the covers and never uses a card before both pairs are cut.
"""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from typing import Any

import pytest

from bombbuster_core import equipment as eq
from bombbuster_core.engines.sampling import TableSampler
from bombbuster_core.missions import BASE_MISSIONS, EQUIPMENT_COVERED, MissionError, equipment_pool, mission, new_table
from bombbuster_core.sim import POLICIES
from bombbuster_core.sim.deal import new_game
from bombbuster_core.sim.replay import Replay
from bombbuster_core.sim.view import View
from bombbuster_core.table import TableError, load_table
from bombbuster_core.table_model import cut_values

from test_equipment import TWO_ONES, at, cut
from test_sim_missions import assert_game_checks, play_policy, play_sighted

TWO_TWOS = [cut(2, 4, 3)]  # one dual cut cuts two 2s
LABEL = {"type": "label", "kind": "different", "at": at(0, 1), "card": "1"}  # uses card 1 (Label ≠)
FALSE_BOTTOM = {"type": "equipment", "card": "Y", "added": ["8", "12"]}
YELLOW = {"type": "dual_cut", "actor": 0, "target": at(1, 2), "value": "yellow", "success": True,
          "actor_slot": {"stand": 0, "slot": 2}}


def m12(board: list[dict[str, Any]], events: list[dict[str, Any]], mission_number: int | None = 12) -> dict[str, Any]:
    """test_equipment's 5 | 5 table (blue 1-2 and yellows 1.1, 2.1), naming ``mission_number``."""
    return {"meta": {"mission": mission_number}, "players": [{"stands": [5]}, {"stands": [5]}],
            "wires": {"deck": {"1": 4, "2": 4, "1.1": 1, "2.1": 1}}, "equipment": board, "events": events}


def refused(t: dict[str, Any]) -> TableError:
    with pytest.raises(TableError) as err:
        load_table(t)
    return err.value


def cards(t: dict[str, Any]) -> dict[str, dict[str, Any]]:
    b = load_table(t).equipment_board()
    assert b is not None
    return {c["card"]: c for c in b.json()["cards"]}


def test_a_covered_card_needs_its_own_pair_and_its_number_cards_pair() -> None:
    board = [{"card": "1", "cover": 2}, {"card": "8", "cover": 1}]
    assert {c: e["state"] for c, e in cards(m12(board, [])).items()} == {"1": "locked", "8": "locked"}
    # two 1s: card 1's own pair, and card 8's Number card's pair (card 8 still needs its 8s)
    after_ones = cards(m12(board, TWO_ONES))
    assert after_ones["1"] == {"card": "1", "name": "Label ≠", "state": "locked", "cover": 2, "covered": True}
    assert after_ones["8"]["state"] == "locked" and after_ones["8"]["covered"] is False
    # its own pair cut but not its Number card's: refused, naming the missing cut
    err = refused(m12(board, TWO_ONES + [LABEL]))
    assert (err.event, err.code, err.fields["path"]) == (1, "card_covered", ["events", 1, "card"])
    assert {k: err.fields[k] for k in ("card", "cover", "cover_needs", "cover_cut")} == \
        {"card": "1", "cover": 2, "cover_needs": 2, "cover_cut": 0}
    assert "card 1 (Label ≠) is still covered: it needs 2 wires of value 2 cut for the Number card 2" in str(err)
    # both pairs cut: unlocked, and used
    both = cards(m12(board, TWO_ONES + TWO_TWOS))
    assert both["1"]["state"] == "unlocked" and both["1"]["covered"] is False
    assert cards(m12(board, TWO_ONES + TWO_TWOS + [LABEL]))["1"]["state"] == "used"
    # the Number card's pair first, then the card's own: the same
    assert cards(m12(board, TWO_TWOS + TWO_ONES + [LABEL]))["1"]["state"] == "used"


def test_a_use_missing_both_pairs_names_both() -> None:
    err = refused(m12([{"card": "1", "cover": 2}], [LABEL]))
    assert err.code == "card_locked_covered"
    assert {k: err.fields[k] for k in ("card", "needs", "unlock", "cut", "cover", "cover_needs", "cover_cut")} == \
        {"card": "1", "needs": 2, "unlock": 1, "cut": 0, "cover": 2, "cover_needs": 2, "cover_cut": 0}
    assert "it needs 2 wires of value 1 cut (0 are) and 2 wires of value 2 cut for the Number card 2" in str(err)
    # its own pair missing only: the base game's refusal
    assert refused(m12([{"card": "1", "cover": 2}], TWO_TWOS + [LABEL])).code == "card_locked"
    # False Bottom (unlocked by yellows): worded apart
    err = refused(m12([{"card": "Y", "cover": 2}, {"card": "1", "cover": 1}], [FALSE_BOTTOM]))
    assert err.code == "card_locked_covered_yellow" and err.fields["unlock"] == "yellow"
    assert refused(m12([{"card": "Y", "cover": 2}, {"card": "1", "cover": 1}], [YELLOW, FALSE_BOTTOM])).code == \
        "card_covered"


def test_a_number_card_of_the_cards_own_value_is_met_by_the_same_pair() -> None:
    """The reading (FAQ as both summaries quote it): one pair unlocks the card and its Number card."""
    board = [{"card": "1", "cover": 1}]
    assert cards(m12(board, TWO_ONES))["1"]["state"] == "unlocked"
    assert cards(m12(board, TWO_ONES + [LABEL]))["1"]["state"] == "used"
    state = eq.BoardState(("2.2",), (), {2: 2}, covers={"2.2": 2})  # a double-numbered card still needs its 4
    assert not state.unlocked("2.2") and state.uncovered("2.2")
    state.cut[2] = 4
    assert state.unlocked("2.2")


def test_the_cards_false_bottom_adds_are_not_covered() -> None:
    """Only the cards on the board at setup get a Number card (the reading in equipment.py)."""
    t = m12([{"card": "Y", "cover": 1}, {"card": "1", "cover": 2}], [YELLOW, *TWO_ONES, FALSE_BOTTOM])
    board = cards(t)
    assert board["Y"]["state"] == "used" and "cover" not in board["8"] and "cover" not in board["12"]


@pytest.mark.parametrize("board,mission_number,code,path,words", [
    ([{"card": "1"}], 12, "cover_missing", ["equipment", 0, "cover"],
     "mission 12: a Number card covers card 1 (Label ≠) from the setup: give its value (1-12)"),
    ([{"card": "1", "cover": 2}], 11, "cover_not_mission", ["equipment", 0, "cover"],
     "only mission 12 covers its Equipment cards with Number cards (this table's mission: 11)"),
    ([{"card": "1", "cover": 2}], None, "cover_not_mission", ["equipment", 0, "cover"], "(this table's mission: None)"),
    ([{"card": "1", "cover": 13}], 12, "out_of_range", ["equipment", 0, "cover"], "13 is out of range (1..12)"),
    ([{"card": "1", "cover": "7"}], 12, "expected_integer", ["equipment", 0, "cover"], "expected an integer"),
    ([{"card": "1", "cover": True}], 12, "expected_integer", ["equipment", 0, "cover"], "expected an integer"),
    ([{"card": "1", "cover": 7}, {"card": "8", "cover": 7}], 12, "cover_listed_twice", ["equipment", 1, "cover"],
     "the Number card 7 already covers card 1 (Label ≠): the box has one of each"),
])
def test_a_bad_cover_is_refused_naming_the_field(board: list[dict[str, Any]], mission_number: int | None, code: str,
                                                 path: list[Any], words: str) -> None:
    err = refused(m12(board, [], mission_number))
    assert (err.code, err.fields["path"], err.event) == (code, path, None)
    assert f"field 'equipment'[{path[1]}] field 'cover'" in str(err) and words in str(err)


def test_new_tables_and_the_pool_carry_the_covers() -> None:
    assert EQUIPMENT_COVERED == {12} and equipment_pool(mission(12), 4)["covers"] == {"range": [1, 12]}
    assert all("covers" not in equipment_pool(mission(n), p) for n in range(1, 67) if n != 12
               for p in mission(n).wires)
    t = new_table(12, 3, equipment=["3", "5", "Y"], covers=[7, 3, 12])
    assert t["equipment"] == [{"card": "3", "cover": 7}, {"card": "5", "cover": 3}, {"card": "Y", "cover": 12}]
    assert load_table(t).covers == (("3", 7), ("5", 3), ("Y", 12))
    placeholder = new_table(12, 3, equipment=["3", "5", "Y"])  # the lowest values stand in, and it says so
    assert [e["cover"] for e in placeholder["equipment"]] == [1, 2, 3] and "covers" in placeholder["meta"]["placeholders"]
    assert "the Number cards covering the equipment" in placeholder["meta"]["notes"][0]
    load_table(placeholder)
    for kw, words in [({"covers": [1, 2, 3]}, "mission 12 covers: name the Equipment cards they cover"),
                      ({"equipment": ["3", "5", "Y"], "covers": [1, 2, 3, 4]}, "each of the 3 Equipment cards, got 4"),
                      ({"equipment": ["3", "5", "Y"], "covers": 4}, "expected a list of Number card values")]:
        with pytest.raises(MissionError, match=re.escape(words)):
            new_table(12, 3, **kw)
    with pytest.raises(MissionError, match="mission 4 covers: only mission 12 covers its equipment"):
        new_table(4, 3, covers=[1, 2, 3])


@pytest.mark.parametrize("number,covers,code,index,words", [
    (12, [1, 1, 2], "cover_listed_twice", 1, "the Number card 1 already covers card 3 (Triple Detector)"),
    (12, [0, 1, 2], "out_of_range", 0, "0 is out of range (1..12)"),
    (12, ["x", 1, 2], "expected_integer", 0, "expected an integer"),
    (12, [1, 2], "cover_missing", 2, "mission 12: a Number card covers card Y (False Bottom) from the setup"),
    (4, [1, 2, 3], "cover_not_mission", 0, "only mission 12 covers its Equipment cards with Number cards"),
])
def test_new_tables_bad_covers_get_the_loaders_refusal(number: int, covers: list[Any], code: str, index: int,
                                                       words: str) -> None:
    """One reading of the covers: new_table writes them as given and the table loader refuses a bad one
    (table._parse_cover), coded and naming the field."""
    table = new_table(number, 3, equipment=["3", "5", "Y" if number == 12 else "8"], covers=covers)
    with pytest.raises(TableError) as err:
        load_table(table)
    assert (err.value.code, err.value.fields["path"]) == (code, ["equipment", index, "cover"])
    assert f"table field 'equipment'[{index}] field 'cover': " in str(err.value) and words in str(err.value)


def test_the_cli_writes_the_covers() -> None:
    out = subprocess.run([sys.executable, "-m", "bombbuster_core", "new", "--mission", "12", "--players", "3",
                          "--equipment", "3,5,Y", "--covers", "7,3,12"], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["equipment"] == [{"card": "3", "cover": 7}, {"card": "5", "cover": 3},
                                                   {"card": "Y", "cover": 12}]
    bad = subprocess.run([sys.executable, "-m", "bombbuster_core", "new", "--mission", "12", "--players", "3",
                          "--equipment", "3,5,Y", "--covers", "7,x,12"], capture_output=True, text=True)
    assert bad.returncode == 2 and json.loads(bad.stdout) == \
        {"error": "table field 'equipment'[1] field 'cover': expected an integer, got 'x'"}
    twice = subprocess.run([sys.executable, "-m", "bombbuster_core", "new", "--mission", "12", "--players", "3",
                            "--equipment", "3,5,Y", "--covers", "7,7,12"], capture_output=True, text=True)
    assert twice.returncode == 2 and json.loads(twice.stdout) == {
        "error": "table field 'equipment'[1] field 'cover': the Number card 7 already covers card 3 "
                 "(Triple Detector): the box has one of each"}


def test_m12_stays_a_base_game_mission() -> None:
    """Its rule lives in the table (the covers) and the board the base game's replay takes from it."""
    assert 12 in BASE_MISSIONS


def _uses_after_both_pairs(game: Any) -> tuple[int, int]:
    """Every card use of the game's table checked against M12's rule, counted independently of the core:
    the uses, and the times a card's own pair was cut while its Number card's was not (the rule held it)."""
    table = game.table()
    covers = {e["card"]: e["cover"] for e in table["equipment"]}
    assert len(covers) == game.players and len(set(covers.values())) == game.players
    assert set(covers.values()) <= set(range(1, 13))
    parsed = load_table(table)
    cut: dict[Any, int] = {}
    uses = held = 0
    for event, use, raw in zip(parsed.events, parsed.uses, table["events"]):
        used = set(use.cards) | ({raw["card"]} if raw["type"] == "equipment" else set())
        for card in used & set(covers):
            own = eq.CARDS[card]
            assert cut.get(own.unlock, 0) >= own.needs and cut.get(covers[card], 0) >= 2, (card, covers[card], cut)
            uses += 1
        held += sum(1 for card, cover in covers.items()
                    if cut.get(eq.CARDS[card].unlock, 0) >= eq.CARDS[card].needs and cut.get(cover, 0) < 2)
        for v in cut_values(event):
            cut[v] = cut.get(v, 0) + 1
    return uses, held


def test_the_simulator_uses_no_card_before_both_pairs_are_cut() -> None:
    uses = held = 0
    for seed in range(6):
        for players in (2, 3, 4, 5):
            for game in (play_policy(12, players, "greedy", seed), play_policy(12, players, "random", seed),
                         play_sighted(12, players, seed)):
                u, h = _uses_after_both_pairs(game)
                uses, held = uses + u, held + h
    assert uses >= 50 and held >= 50, (uses, held)  # cards were used, and the rule held some back


def test_the_simulators_m12_games_check_and_other_missions_draw_no_cover() -> None:
    game = play_policy(12, 4, "greedy", 3)
    assert_game_checks(game)
    assert game.board is not None and game.board.covers == {e["card"]: e["cover"] for e in game.setup["equipment"]}
    other = play_policy(9, 4, "greedy", 3)
    assert all("cover" not in e for e in other.setup["equipment"]) and not other.board.covers


def test_a_replay_of_a_pages_m12_table_keeps_the_covers() -> None:
    """The search's and lookahead's replay (sim/replay.py, M12 a base-game mission) rebuilds the board
    with its Number cards from the table alone, so their rollouts hold a covered card locked too."""
    game = new_game(random.Random("m12-replay"), mission=12, players=4)
    policy = POLICIES["greedy"](random.Random(1))
    for p in game.setup_token_players():
        game.place_token(policy.setup_token(View(game.table(p), p)))
    for _ in range(12):
        game.play(policy.move(View(game.table(game.turn), game.turn)))
    player = game.turn
    raw = game.table(player)
    page = {**raw, "meta": {k: v for k, v in raw["meta"].items() if k != "sim"}}  # a page's table: no meta.sim
    table = load_table(page)
    replayed = Replay(page, table, player).game(TableSampler(table).sampler.draw(random.Random(0)), random.Random(0))
    assert game.board is not None and replayed.board is not None and replayed.board.covers == game.board.covers
    assert [replayed.board.unlocked(c) for c in replayed.board.board] == [game.board.unlocked(c) for c in game.board.board]
    assert any(game.board.own_unlocked(c) and not game.board.unlocked(c) for c in game.board.board)
