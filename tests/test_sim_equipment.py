"""The simulator's equipment (issue 19 item 2): cards dealt per mission, characters, every card's
effect played on the true deal as its format-1 event with ``card``, and the policies' uses.

Every game is checked as tests/test_sim_missions.py checks one: from every seat and the public
view the core accepts the table (it follows the board: a card used before it unlocks, twice, or
not on the board is refused) and the true deal is possible; the oracle replays every event.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bombbuster_core import equipment as eq
from bombbuster_core.missions import BY_NUMBER
from bombbuster_core.sim.actions import DoubleDetector, DualCutAction, UseCard
from bombbuster_core.sim.cards import PLAYED_CARDS
from bombbuster_core.sim.deal import deal_equipment, new_game
from bombbuster_core.sim.verify import check_game

from test_sim_missions import assert_game_checks, custom, play_policy, play_sighted

SEEN_CARDS: Counter = Counter()  # (event type, card) over the module's games
DEALT: Counter = Counter()
CHARACTERS: Counter = Counter()


def _record(game: Any) -> None:
    DEALT.update(c["card"] for c in game.setup.get("equipment", []))
    CHARACTERS.update(game.characters)
    for e in game.events:
        if "card" in e:
            SEEN_CARDS[e["card"] if e["card"] != eq.CHARACTER else
                       "character:" + game.characters[e["actor"]]] += 1


POLICY_GAMES = [(4, 4), (8, 3), (9, 4), (12, 5), (21, 4), (31, 4), (33, 3), (40, 5), (56, 4), (57, 3), (62, 4), (65, 4),
                (66, 5), (64, 2)]


@pytest.mark.parametrize("mission,players", POLICY_GAMES)
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_policies_play_equipment_and_every_view_checks(mission: int, players: int, policy: str) -> None:
    game = play_policy(mission, players, policy, 7)
    assert "equipment" in game.setup and len(game.setup["equipment"]) == players
    assert_game_checks(game)
    _record(game)


SIGHTED = [(m, p) for m in range(1, 67) if m != 54 for p in sorted(BY_NUMBER[m].wires)]


@pytest.mark.parametrize("mission,players", SIGHTED[::3])
def test_sighted_games_play_every_card(mission: int, players: int) -> None:
    for seed in (11, 12):
        game = play_sighted(mission, players, seed)
        assert_game_checks(game)
        _record(game)


def test_every_card_and_character_appears() -> None:
    """Runs after the games above (pytest keeps file order); played alone, it plays its own."""
    if not DEALT:
        for mission, players in SIGHTED[::3]:
            for seed in (11, 12):
                _record(play_sighted(mission, players, seed))
    assert set(DEALT) == set(eq.CARDS), set(eq.CARDS) - set(DEALT)
    assert set(CHARACTERS) == set(eq.CHARACTERS)
    played = {c for c in SEEN_CARDS if not c.startswith("character:")}
    assert played >= PLAYED_CARDS | {"Y"}, (PLAYED_CARDS | {"Y"}) - played
    assert {c.split(":")[1] for c in SEEN_CARDS if c.startswith("character:")} >= {
        "double_detector", "general_radar", "triple_detector", "xy_ray", "walkie_talkies"}


@pytest.mark.parametrize("mission", [17, 28])
def test_the_captain_of_m17_and_m28_uses_no_card(mission: int) -> None:
    """Rhett (M17) and Captain Careless (M28), seat 1, use none of the board's cards (M28: no
    character either); their teammates do (missions.CAPTAIN_WITHOUT_CARDS)."""
    captain, others = Counter(), Counter()
    for seed in range(12):  # greedy uses a card as soon as its rule says (seeds 6, 8, 10, 11 did, by Rhett)
        for e in play_policy(mission, 4, "greedy", seed).events:
            if "card" in e:
                (captain if e.get("actor") == 0 else others)[e["card"]] += 1
    assert set(captain) <= ({eq.CHARACTER} if mission == 17 else set()) and others


def test_no_equipment_is_the_same_deal_without_a_board() -> None:
    a = new_game(random.Random(3), mission=4, players=4)
    b = new_game(random.Random(3), mission=4, players=4, equipment=False)
    assert a.deal_json() == b.deal_json()
    assert len(a.setup["equipment"]) == 4 and "equipment" not in b.setup and b.board is None
    assert new_game(random.Random(3), mission=1, players=4).setup["equipment"] == []  # M1: none


# ---------------------------------------------------------------- mechanics on chosen deals


def board(game: Any, cards: list[str], characters: list[str] | None = None) -> Any:
    deal_equipment(game, random.Random(0), cards=cards,
                   characters=characters or [eq.DEFAULT_CHARACTER] * game.players)
    if characters:
        game.tags = game.tags | {"new_characters"}
        game.characters = list(characters)
        for p, ch in enumerate(characters):
            if ch != eq.DEFAULT_CHARACTER:
                game.setup["players"][p]["character"] = ch
        game.board = eq.BoardState(tuple(cards), tuple(characters), game.card_cut)
    return game


def uses(game: Any) -> dict[str, list[Any]]:
    d = game.queue[0]
    return {u["card"]: u["options"] for u in game.card_uses(d["player"], d)}


def ok(game: Any) -> None:
    assert not check_game(game.table(), game.deal_json())


def test_a_card_unlocks_on_its_second_cut_and_is_spent_once() -> None:
    game = board(custom(4, [[4], [4]], [[[10, 60, 60, 70]], [[10, 60, 60, 70]]]), ["6", "7"])
    game.dial = 1
    assert "6" not in uses(game)
    game.play(DualCutAction((1, 0, 1), 6))  # two 6s cut: the Rewinder unlocks for the next decision
    assert "6" in uses(game) and "7" not in uses(game)
    game.play(UseCard("6"))
    assert game.dial == 2 and game.events[-1] == {"type": "equipment", "card": "6", "actor": 1}
    assert game.turn == 1 and "6" not in uses(game)  # an any-time card: the same player decides again
    assert not game.is_legal(UseCard("6"))
    ok(game)


def test_the_rewinder_never_moves_the_dial_past_its_start() -> None:
    """2 players: the dial starts 2 spaces from the skull; the Rewinder is not usable there (the page's
    detonator, web/js/gamestate.js, reads it so), and one space lower it moves the dial back to 2."""
    game = board(custom(4, [[4], [4]], [[[10, 60, 60, 70]], [[10, 60, 60, 70]]]), ["6"])
    game.play(DualCutAction((1, 0, 1), 6))  # the Rewinder unlocks
    assert game.dial == 2 and "6" not in uses(game)
    game.dial = 1
    assert "6" in uses(game)
    game.play(UseCard("6"))
    assert game.dial == 2


def test_the_stabilizer_keeps_the_dial_and_a_red_target_does_not_explode() -> None:
    game = board(custom(4, [[4], [4]], [[[10, 20, 90, 90]], [[15, 20, 30, 90]]]),
                 ["9"])
    game.play(DualCutAction((1, 0, 3), 9))
    game.play(DualCutAction((0, 0, 0), 2))  # a failure for player 1: dial 2 -> 1
    assert game.dial == 1 and "9" in uses(game)
    dial = game.dial
    game.play(UseCard("9", ((1, 0, 0), 1)))  # stabilized call of 1 on player 1's red wire
    e = game.events[-1]
    assert e["stabilizer"] and e["card"] == "9" and e["token"] is None and not e.get("exploded")
    assert game.result is None and game.dial == dial and game.strikes == 2
    ok(game)


def test_the_coffee_mug_names_the_next_player_then_the_order_goes_on() -> None:
    hands = [[[10, 20, 30, 110]], [[10, 20, 30, 110]], [[10, 20, 30, 40]]]
    game = board(custom(4, [[4], [4], [4]], hands, extra={}), ["11"])
    game.play(DualCutAction((1, 0, 3), 11))  # player 0 cuts two 11s: the mug unlocks
    assert game.turn == 1
    game.play(UseCard("11", 0))  # player 1 skips and names player 0
    assert game.events[-1] == {"type": "equipment", "card": "11", "actor": 1, "next": 0}
    assert game.turn == 0
    game.play(DualCutAction((1, 0, 0), 1))
    assert game.turn == 1  # then clockwise from the named player
    ok(game)


def test_emergency_batteries_recharge_a_used_character() -> None:
    hands = [[[10, 20, 30, 70, 70, 110]], [[10, 20, 30, 70, 70, 110]]]
    game = board(custom(55, [[6], [6]], hands, tags=("no_setup_tokens",)), ["7", "3.3", "6"])
    game.play(DoubleDetector(((1, 0, 0), (1, 0, 1)), 1))  # player 0's Double Detector: used
    assert game.events[-1]["card"] == eq.CHARACTER
    game.play(DualCutAction((0, 0, 3), 7))
    game.play(DualCutAction((1, 0, 4), 7))  # four 7s cut: the Batteries unlock
    assert game.turn == 1 and [0] in uses(game)["7"]  # player 0's used character
    game.play(UseCard("7", (0,)))
    assert game.events[-1] == {"type": "equipment", "card": "7", "actor": 1, "characters": [0]}
    assert game.turn == 1 and "7" not in uses(game)
    game.play(DualCutAction((0, 0, 2), 3))
    assert game.turn == 0 and game.queue[0]["detector"]  # the Double Detector again
    assert "3.3" not in uses(game)  # the Emergency Drop needs all four 3s
    ok(game)


def test_false_bottom_adds_two_cards_when_its_second_yellow_is_cut() -> None:
    hands = [[[10, 11, 20]], [[10, 20, 21]]]
    game = board(custom(9, [[3], [3]], hands, extra={}), ["Y"])
    game.pool = ["4", "6", "8"]
    game.play(DualCutAction((1, 0, 2), "yellow"))
    e = [e for e in game.events if e["type"] == "equipment"]
    assert e and e[0]["card"] == "Y" and len(e[0]["added"]) == 2 and set(e[0]["added"]) <= {"4", "6", "8"}
    assert len(game.board.board) == 3 and "Y" in game.board.used
    ok(game)


def test_the_disintegrator_and_the_fast_pass_cut_on_the_true_deal() -> None:
    hands = [[[10, 10, 20, 20, 90, 90, 100, 100]], [[30, 30, 40, 40, 90, 90, 100, 100]]]
    game = board(custom(56, [[8], [8]], hands, extra={}), ["9.9", "10.10"])
    game.play(DualCutAction((1, 0, 4), 9))
    game.play(DualCutAction((0, 0, 5), 9))  # all four 9s: the Fast Pass unlocks
    game.play(DualCutAction((1, 0, 6), 10))
    game.play(DualCutAction((0, 0, 7), 10))  # all four 10s: the Disintegrator
    assert game.turn == 0
    game.play(UseCard("9.9", 1))
    e = game.events[-1]
    assert e["type"] == "fast_pass" and e["slots"] == [{"stand": 0, "slot": 0}, {"stand": 0, "slot": 1}]
    game.play(UseCard("10.10"))
    e = game.events[-1]
    assert e["type"] == "disintegrator" and all(game.key((s["player"], s["stand"], s["slot"])) // 10 == e["value"]
                                                  for s in e["slots"])
    ok(game)


def test_characters_e1_e3_e4() -> None:
    hands = [[[10, 20, 30, 40, 50]], [[10, 20, 30, 40, 50]], [[10, 20, 30, 40, 50]]]
    game = board(custom(4, [[5], [5], [5]], hands), [],
                 ["double_detector", "xy_ray", "triple_detector"])
    game.play(DualCutAction((1, 0, 0), 1))
    assert game.turn == 1 and "detector" in game.queue[0] and not game.queue[0]["detector"]
    game.play(UseCard("character", ((0, 0, 1), 2, 3)))
    e = game.events[-1]
    assert e["values"] == [2, 3] and e["cut_value"] == 2 and e["card"] == "character"
    assert game.turn == 2
    option = next(o for o in uses(game)["character"] if o[1] == 3)
    game.play(UseCard("character", option))
    assert game.events[-1]["kind"] == "triple" and game.events[-1]["card"] == "character"
    ok(game)


def test_the_emergency_drop_turns_used_cards_face_up_again() -> None:
    hands = [[[10, 30, 30, 60, 60]], [[10, 30, 30, 60, 60]]]
    game = board(custom(55, [[5], [5]], hands), ["6", "3.3"])
    game.play(DualCutAction((1, 0, 1), 3))
    game.play(DualCutAction((0, 0, 2), 3))  # all four 3s: the Drop unlocks
    game.play(DualCutAction((1, 0, 3), 6))  # two 6s: the Rewinder
    assert game.turn == 1 and "3.3" not in uses(game)  # nothing used yet: nothing to turn up
    dial = game.dial
    game.play(UseCard("6"))
    assert game.dial == dial + 1 and "6" not in uses(game)
    game.play(UseCard("3.3"))
    assert game.events[-1] == {"type": "equipment", "card": "3.3", "actor": 1}
    assert "3.3" not in uses(game)
    assert "6" not in uses(game)  # face up again, but the dial is back at 2 players' start
    game.dial -= 1  # a failure's worth
    assert "6" in uses(game)
    game.play(UseCard("6"))
    assert game.dial == dial + 1
    ok(game)


def test_the_grappling_hook_and_the_walkie_talkies_move_wires_in_order() -> None:
    hands = [[[10, 20, 50, 110, 110]], [[10, 30, 40, 110, 110]]]
    game = board(custom(55, [[5], [5]], hands), ["11.11", "2"])
    game.play(DualCutAction((1, 0, 3), 11))
    game.play(DualCutAction((0, 0, 4), 11))  # all four 11s: the Hook unlocks (and two 2s? no: the Talkies stay locked)
    assert "11.11" in uses(game) and "2" not in uses(game)
    game.play(UseCard("11.11", ((1, 0, 2), 0)))  # player 0 takes player 1's 4
    e = game.events[-1]
    assert e == {"type": "move", "from": {"player": 1, "stand": 0, "slot": 2},
                 "to": {"player": 0, "stand": 0, "slot": 2}, "card": "11.11"}
    assert game.hands[0][0][:4] == [10, 20, 40, 50] and game.hands[1][0][:3] == [10, 30, 110]
    assert game.seen[0][-1] == {"at": e["to"], "value": 4, "after": len(game.events) - 1}
    ok(game)
    game.play(DualCutAction((1, 0, 0), 1))
    game.board.cut[2] = 2  # as if two 2s were cut: the Walkie-Talkies unlock
    game.play(UseCard("2", ((1, 0, 1), 0)))  # player 1 gives their 3 for player 0's pick
    e = game.events[-1]
    assert e["type"] == "swap" and e["card"] == "2" and e["a"] == {"player": 1, "stand": 0, "slot": 1}
    assert sorted(game.hands[0][0]) == game.hands[0][0] and sorted(game.hands[1][0]) == game.hands[1][0]
    assert 3 * 10 in game.hands[0][0]
