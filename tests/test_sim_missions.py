"""The simulator plays every mission rule (issue 19 item 2, part A).

* Whole games of every mission 1-66 at every allowed player count: greedy,
  random, and a test-only "sighted" player that sees the deal and almost
  always cuts right (so that the games reach every mechanic: Nano's transfers,
  the yellows' triggers, the special actions, the end).  Every table, from
  the public view and every seat, is accepted by ``load_table``, analysed
  consistent, its true deal possible as a whole (sim/verify.py), and the
  independent oracle (tests/oracle.py, never importing the core) finds every
  event true of the deal.  The seats' views rebuilt from the saved pair of
  files are the views the game showed the players.
* Unit tests of each rule's mechanics on hand-made deals: tokens placed by the
  right player, the dial's start, explosions, skips, Nano's transfers, M35's
  X-cut timing, M11's counts-as-red, M56's flipped cost, M48's tokens.
* The checker catches a corrupted deal (it can fail).
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from oracle import is_consistent

from bombbuster_core.missions import BY_NUMBER
from bombbuster_core.sim.actions import (AbsentTokens, DualCutAction, MultiCutAction, RevealRedAction, SetupToken,
                                         SimError, SoloCutAction, TripwireAction)
from bombbuster_core.sim import POLICIES
from bombbuster_core.sim.deal import REFUSED, new_game, open_mission
from bombbuster_core.sim.game import Game
from bombbuster_core.sim.view import View
from bombbuster_core.sim.sighted import succeeds
from bombbuster_core.sim.verify import check_game, views
from bombbuster_core.table import load_table
from bombbuster_core.wires import key_json

RESULTS = {"win", "red", "detonator", "explosion", "stuck"}


# ---------------------------------------------------------------- drivers


def sighted_move(game: Game, rng: random.Random, skill: float = 0.97) -> Any:
    """A test-only player who sees the deal: a right move with probability ``skill``, else any legal one
    (its slips reach the mechanics of failures; the ``sighted`` policy, sim/sighted.py, never slips)."""
    d = game.queue[0]
    moves = game.legal_moves()
    if d["kind"] == "turn":
        for sp in d["specials"]:
            if sp["kind"] != "multi_cut":
                continue
            pool = [x for q in range(game.players) for x in game.uncut(q) if not (sp.get("teammates") and q == d["player"])]
            right = [x for x in pool if game.gameplay(game.key(x)) == sp["value"]]
            if (not moves or sp.get("forced") or rng.random() < 0.3) and len(pool) >= sp["count"]:
                if len(right) >= sp["count"] and rng.random() < skill:
                    return MultiCutAction(sp["value"], tuple(rng.sample(right, sp["count"])))
                if not moves or rng.random() < 0.2:
                    return MultiCutAction(sp["value"], tuple(rng.sample(pool, sp["count"])))
    assert moves, d
    if d["kind"] == "choose" and d["what"] in ("volunteer", "designate") and rng.random() < skill:
        v = d["number"]
        holds = [m for m in moves if (m.option if d["what"] == "designate" else d["player"]) is not None and (
            any(game.gameplay(game.key(x)) == v for x in game.cuttable(m.option if d["what"] == "designate"
                                                                    else d["player"])) == bool(m.option)
            if d["what"] == "volunteer" else
            any(game.gameplay(game.key(x)) == v for x in game.cuttable(m.option)))]
        if holds:
            return rng.choice(holds)
    ok = [a for a in moves if succeeds(game, a)]
    return rng.choice(ok) if ok and rng.random() < skill else rng.choice(moves)


def random_setup(game: Game, rng: random.Random) -> None:
    while game._setup:
        d = game._setup[0]
        options = game.setup_options(d)
        if d["kind"] == "setup_absent":
            game.place_token(AbsentTokens(tuple(rng.sample(options, min(2, len(options))))))
        else:
            game.place_token(rng.choice(options) if options else None)


def play_sighted(mission: int, players: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = new_game(random.Random(f"sighted-{mission}-{players}-{seed}"), mission=mission, players=players)
    random_setup(game, rng)
    while not game.over:
        game.play(sighted_move(game, rng))
    return game


def play_policy(mission: int, players: int, name: str, seed: int) -> Game:
    """As tournament.play_game: the policy decides every setup token and move from its view."""
    game = new_game(random.Random(f"{seed}-{mission}-{players}"), mission=mission, players=players)
    policy = POLICIES[name](random.Random(f"{seed}-{name}"))
    if policy.sees_the_deal:
        policy.watch(game)
    for p in game.setup_token_players():
        game.place_token(policy.setup_token(View(game.table(p), p)))
    while not game.over:
        p = game.turn
        action = policy.move(View(game.table(p), p))
        assert game.is_legal(action), (action, game.queue[0])
        game.play(action)
    return game


def assert_game_checks(game: Game) -> None:
    """Every view accepted, consistent, the deal possible (core), every event true of the deal (oracle),
    and the views rebuilt from the saved files equal to the game's."""
    assert game.result in RESULTS
    public, deal = game.table(), game.deal_json()
    problems = check_game(public, deal)
    assert not problems, problems[:5]
    per_player = iter(deal["stands"])
    dealt = [[next(per_player) for _ in pl["stands"]] for pl in public["players"]]
    for player, view in views(public, deal):
        assert is_consistent(view, dealt, deal.get("nano", [])), (player, view["events"][-3:])
        if player is not None:
            shown = game.table(player)
            assert view["me"] == shown["me"] and view["events"] == shown["events"]
    exploded = [i for i, e in enumerate(game.events) if e.get("exploded")]
    assert exploded in ([], [len(game.events) - 1])  # an explosion is the table's last event




@pytest.mark.parametrize("mission", sorted(BY_NUMBER))
def test_every_mission_plays_consistent_tables(mission: int) -> None:
    counts = sorted(BY_NUMBER[mission].wires)
    if mission in REFUSED:
        for players in counts:
            with pytest.raises(SimError, match="audio track"):
                new_game(random.Random(0), mission=mission, players=players)
        return
    kinds: Counter = Counter()
    # The sighted player at every player count; greedy and random each at one count, turn about
    # (bench/sweep_sim_missions.py plays greedy at every count).
    games = [(players, lambda p: play_sighted(mission, p, 0)) for players in counts]
    games += [(counts[mission % len(counts)], lambda p: play_policy(mission, p, "greedy", 1)),
              (counts[(mission + 1) % len(counts)], lambda p: play_policy(mission, p, "random", 2))]
    for players, play in games:
        game = play(players)
        assert_game_checks(game)
        kinds.update(e["type"] for e in game.events)
    for kind in HALLMARKS.get(mission, ()):
        assert kinds[kind], (mission, kind, kinds)


# The events a mission's rules produce, which its games (fixed seeds) must show.
HALLMARKS = {
    11: ("reveal_red",), 13: ("dealt", "multi_cut"), 17: ("info_token",), 18: ("radar",), 21: ("info_token",),
    22: ("absent",), 23: ("multi_cut",), 24: ("info_token",), 26: ("absent",), 39: ("multi_cut", "absent"),
    41: ("tripwire", "dealt"), 43: ("move",), 45: ("solo_cut",), 46: ("multi_cut",), 48: ("dealt", "multi_cut"),
    51: ("dual_cut",), 58: ("detector",), 59: ("absent",), 65: ("absent",),
}


def test_setup_tokens_of_every_kind_are_placed_by_the_right_player() -> None:
    for mission, players, kind, per_player in ((17, 4, "false", {0: 2, 1: 1, 2: 1, 3: 1}),
                                               (52, 3, "false", {0: 2, 1: 2, 2: 2}),
                                               (21, 4, "parity", {0: 1, 1: 1, 2: 1, 3: 1}),
                                               (24, 2, "count", {0: 1, 1: 1}), (40, 2, "count", {1: 1}),
                                               (22, 5, "absent", {p: 1 for p in range(5)}),
                                               (4, 3, "value", {0: 1, 1: 1, 2: 1}), (18, 4, None, {}), (58, 4, None, {})):
        game = new_game(random.Random(mission), mission=mission, players=players)
        policy = POLICIES["greedy"](random.Random(0))
        assert Counter(game.setup_token_players()) == Counter(per_player)
        for p in game.setup_token_players():
            view = View(game.table(p), p)
            assert view.pending()["player"] == p  # the decision is shown to its player only
            assert all("pending" not in game.table(q)["meta"]["sim"] for q in range(players) if q != p)
            game.place_token(policy.setup_token(view))
        placed = [e for e in game.events if e["type"] in ("info_token", "absent")]
        owner = Counter(e["at"]["player"] if e["type"] == "info_token" else e["player"] for e in placed)
        assert owner == Counter(per_player), (mission, placed)
        for e in placed:
            if e["type"] == "absent":
                assert len(e["values"]) == 2
                continue
            key = game.key((e["at"]["player"], e["at"]["stand"], e["at"]["slot"]))
            if kind == "false" and (mission == 52 or e["at"]["player"] == 0):
                assert e["false"] and e["value"] != key // 10 or key % 10
                assert key % 10 != (5 if mission == 17 else 1)  # M17: never red; M52: never yellow
            elif kind == "parity":
                assert key % 10 == 0 and e["parity"] == ("even" if key // 10 % 2 == 0 else "odd")
            elif kind == "count":
                assert key % 10 != 5 and 1 <= e["count"] <= 3
            else:
                assert e["value"] == key // 10 and key % 10 == 0 and "false" not in e
        assert_game_checks_prefix(game)


def assert_game_checks_prefix(game: Game) -> None:
    assert not check_game(game.table(), game.deal_json())


def test_random_setup_tokens_and_predealt_colours() -> None:
    for mission, players in ((13, 2), (13, 4), (39, 3), (41, 5), (41, 2), (48, 2), (48, 5), (43, 2), (43, 4)):
        game = new_game(random.Random(mission * players), mission=mission, players=players)
        tokens = [e for e in game.events if e["type"] in ("info_token", "absent")]
        who = Counter(e["at"]["player"] if e["type"] == "info_token" else e["player"] for e in tokens)
        if mission in (43, 48):  # M48's tokens are chosen; M43's 2-player Captain draws theirs
            assert who == (Counter({0: 1}) if (mission, players) == (43, 2) else Counter())
        else:
            captain_none = players == 2 and mission == 13
            assert who == Counter({p: 1 for p in range(players) if not (captain_none and p == 0)})
        for e in tokens:
            if e["type"] == "info_token":
                assert game.key((e["at"]["player"], e["at"]["stand"], e["at"]["slot"])) // 10 == e["value"] or (
                    e["value"] == "yellow" and mission == 41)
            else:
                assert not any(game.gameplay(game.key(x)) == e["values"][0] for x in game.uncut(e["player"]))
        dealt = [e for e in game.events if e["type"] == "dealt"]
        if mission in (13, 41, 48):
            colour = "red" if mission == 13 else "yellow"
            for p in range(players):
                rows = game.hands[p]
                mine = [e for e in dealt if e["player"] == p]
                for e in mine:
                    stands = rows if "stand" not in e else [rows[e["stand"]]]
                    assert sum(game.gameplay(k) == colour for row in stands for k in row) == e["count"]
                assert sum(e["count"] for e in mine) == sum(game.gameplay(k) == colour for row in rows for k in row)
            if mission == 41 and players == 5:
                assert next(e for e in dealt if e["player"] == 0)["count"] == 0
            if players == 2 and mission in (13, 48):
                assert [e.get("stand") for e in dealt if e["player"] == 0] == [0, 1]
        assert_game_checks_prefix(game)


@pytest.mark.parametrize("mission, players, dial", [(4, 2, 2), (4, 5, 5), (8, 3, 3), (41, 4, 1), (55, 3, 1),
                                                    (60, 5, 1), (62, 2, 1), (51, 4, 5), (51, 2, 3)])
def test_the_dial_starts_where_the_mission_says(mission: int, players: int, dial: int) -> None:
    game = new_game(random.Random(0), mission=mission, players=players)
    assert game.dial == dial
    assert game.table()["meta"]["sim"]["dial"] == dial


# ---------------------------------------------------------------- hand-made deals


def custom(mission: int | None, stands: list[list[Any]], hands: list[list[list[int]]], *,
           special: dict | None = None, tags: tuple[str, ...] = ("no_setup_tokens",), nano: list[int] | None = None,
           seed: int = 0, state: dict | None = None, extra: dict | None = None, begin: bool = True) -> Game:
    """A game on a chosen deal (keys in tenths): the deck is the hands' wires."""
    keys = Counter(k for rows in hands for row in rows for k in row) + Counter(nano or [])
    wires = {"deck": {str(key_json(k)): n for k, n in sorted(keys.items())}, **(extra or {})}
    setup: dict[str, Any] = {"format": 1, "meta": {"mission": mission, "rules": list(tags)},
                             "players": [{"stands": st} for st in stands], "wires": wires}
    if nano:
        setup["nano"] = len(nano)
    game = Game(setup, [[list(r) for r in rows] for rows in hands], [], random.Random(seed), frozenset(tags),
                mission=mission, special=special, nano=nano)
    open_mission(game)
    if state:
        game.state.update(state)
    if begin:
        game.begin_play()
    return game


def test_an_explosion_ends_the_table_on_its_event() -> None:
    # M38: the Captain cuts their own flipped wire on a successful call; it was not the value.
    game = custom(38, [[{"size": 3, "flipped": 1}], [3]], [[[10, 20, 30]], [[10, 20, 30]]],
                  special={(0, 0, 2): "flip"}, tags=("no_setup_tokens", "flipped"))
    assert game.queue[0]["own_flipped"] == [[0, 0, 2]] and [0, 0, 2] not in game.queue[0]["targets"]
    game.play(DualCutAction((1, 0, 0), 1, own=(0, 0, 2)))  # the target is a 1, the flipped wire a 3
    e = game.events[-1]
    assert e["success"] and e["exploded"] and e["actor_slot"] == {"stand": 0, "slot": 2}
    assert game.result == "explosion" and not check_game(game.table(), game.deal_json())
    # ... and when it is the value, both are cut (the call needs a 3 the Captain can see).
    game = custom(38, [[{"size": 3, "flipped": 1}], [3]], [[[10, 30, 30]], [[10, 20, 30]]],
                  special={(0, 0, 2): "flip"}, tags=("no_setup_tokens", "flipped"))
    game.play(DualCutAction((1, 0, 2), 3, own=(0, 0, 2)))
    assert game.result is None and game.cut == {(0, 0, 2), (1, 0, 2)}
    assert not check_game(game.table(), game.deal_json())
    # M14: the rookie (the Captain) fails a dual cut: the failure with no token, and the game is over.
    game = custom(14, [[3], [3]], [[[10, 20, 30]], [[10, 20, 30]]])
    game.play(DualCutAction((1, 0, 0), 2))
    assert game.events[-1] == {"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 0},
                               "value": 2, "success": False, "token": None}
    assert game.result == "explosion"
    # ... another player's failure is an ordinary one.
    game = custom(14, [[3], [3]], [[[10, 20, 30]], [[10, 20, 30]]])
    game.play(DualCutAction((1, 0, 0), 1))
    game.play(DualCutAction((0, 0, 1), 3))
    assert game.result is None and game.events[-1]["token"] == 2 and game.dial == 1
    # M23: a failed special action explodes.
    game = custom(23, [[4], [4]], [[[10, 10, 20, 25]], [[10, 10, 20, 30]]], state={"number": 1})
    game.play(MultiCutAction(1, ((0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 3))))
    assert game.events[-1]["exploded"] and game.result == "explosion"
    # M41: a tripwire call on a red wire explodes; on a blue it places the true token.
    game = custom(41, [[3], [3]], [[[10, 11, 20]], [[15, 21, 20]]], tags=("no_setup_tokens", "tripwire"))
    assert game.dial == 1
    game.play(TripwireAction((1, 0, 1)))  # the yellow: cut, the dial moves back
    assert game.events[-1]["success"] and game.dial == 2
    game.play(TripwireAction((0, 0, 0)))
    assert game.events[-1] == {"type": "tripwire", "actor": 1, "target": {"player": 0, "stand": 0, "slot": 0},
                               "success": False, "token": 1}
    assert game.dial == 1
    game.play(TripwireAction((1, 0, 0)))
    assert game.events[-1]["exploded"] and game.result == "red"


def test_m48_failure_places_true_tokens_and_costs_one_space() -> None:
    game = custom(48, [[3], [3], [3], [3]], [[[11, 20, 30]], [[20, 21, 30]], [[31, 40, 40]], [[10, 10, 40]]],
                  tags=("no_setup_tokens", "multi_cut"))
    assert game.dial == 4
    game.play(MultiCutAction("yellow", ((0, 0, 0), (1, 0, 1), (3, 0, 0))))
    e = game.events[-1]
    assert e["success"] is False and e["tokens"] == ["yellow", "yellow", 1] and game.dial == 3
    assert game.result is None
    game.play(MultiCutAction("yellow", ((0, 0, 0), (1, 0, 1), (2, 0, 0))))
    assert game.events[-1]["success"] and game.yellows_cut == 3
    assert not check_game(game.table(), game.deal_json())


def test_m35_x_wires_are_cut_only_after_the_four_yellows() -> None:
    stands = [[{"size": 4, "x_slot": "blue"}], [{"size": 4, "x_slot": "blue"}]]
    hands = [[[11, 21, 30, 10]], [[30, 31, 41, 10]]]  # the X wires (far right) are 1s
    game = custom(35, stands, hands, special={(0, 0, 3): "x", (1, 0, 3): "x"}, tags=("no_setup_tokens", "x_slots"))
    d = game.queue[0]
    assert [1, 0, 3] not in d["targets"] and 1 not in d["values"] and 1 not in d["solo"]
    assert not game.is_legal(DualCutAction((1, 0, 3), 1))
    game.play(DualCutAction((1, 0, 1), "yellow"))
    game.play(DualCutAction((0, 0, 1), "yellow"))  # all 4 yellows are cut
    d = game.queue[0]
    assert d["player"] == 0 and [1, 0, 3] in d["targets"] and 1 in d["values"]
    game.play(DualCutAction((1, 0, 3), 1))
    assert game.events[-1]["success"] and game.events[-1]["actor_slot"] == {"stand": 0, "slot": 3}
    assert not check_game(game.table(), game.deal_json())


def test_m11_the_number_counts_as_red() -> None:
    extra = {"counts_as_red": 2}
    game = custom(11, [[3], [3]], [[[10, 20, 30]], [[10, 20, 30]]], extra=extra)
    assert 2 not in game.queue[0]["values"]
    with pytest.raises(SimError):
        game.play(DualCutAction((1, 0, 1), 2))
    game.play(DualCutAction((1, 0, 0), 1))
    game.play(DualCutAction((0, 0, 2), 3))
    assert game.queue[0]["reveal"] and game.legal_moves() == [RevealRedAction(0)]  # only the 2 is left: "red"
    game.play(RevealRedAction(0))
    assert game.events[-1]["slots"] == [{"stand": 0, "slot": 1, "value": 2}]
    assert not check_game(game.table(), game.deal_json())
    game = custom(11, [[3], [3]], [[[10, 20, 30]], [[10, 20, 30]]], extra=extra)
    game.play(DualCutAction((1, 0, 1), 1))  # a failed call on a wire of the Number explodes
    assert game.events[-1]["exploded"] and game.result == "red"


def test_m56_a_teammate_flipped_wire_costs_a_space_and_only_its_owner_cannot_see_it() -> None:
    stands = [[{"size": 3, "flipped": 1}], [{"size": 3, "flipped": 1}], [{"size": 3, "flipped": 1}]]
    hands = [[[10, 20, 30]], [[10, 30, 20]], [[20, 30, 10]]]
    special = {(p, 0, 2): "flip" for p in range(3)}
    game = custom(56, stands, hands, special=special, tags=("no_setup_tokens", "flipped"))
    me = game.table(0)["me"]
    assert me["stands"] == [[1, 2, None]]
    assert {(s["at"]["player"], s["value"]) for s in me["seen"]} == {(1, 2), (2, 1)}
    d = game.queue[0]
    assert [1, 0, 2] in d["costly"] and [0, 0, 2] not in d["targets"]
    game.play(DualCutAction((1, 0, 2), 2))
    assert game.events[-1]["success"] and game.dial == 2  # a success, and still one space
    assert not check_game(game.table(), game.deal_json())


def test_m38_teammates_skip_and_pay_when_only_the_captains_flipped_wire_is_left() -> None:
    stands = [[{"size": 2, "flipped": 1}], [1], [1]]
    hands = [[[20, 10]], [[20]], [[10]]]
    game = custom(38, stands, hands, special={(0, 0, 1): "flip"}, tags=("no_setup_tokens", "flipped"))
    game.play(DualCutAction((1, 0, 0), 2))  # the Captain and player 1 cut their 2s
    # Player 1 has no wire left; player 2's only target is the Captain's flipped wire: they skip and the dial
    # advances; the Captain sees no wire of theirs and skips for nothing; 3 players: the 3rd skip explodes.
    assert game.result == "detonator" and game.dial == 0 and len(game.events) == 1 and game.turns == 1 + 5


def test_skips_say_what_the_hand_lacks() -> None:
    # M26: only the 3 is visible; player 0 holds none: they skip, "absent 3".
    game = custom(26, [[2], [2]], [[[10, 20]], [[30, 30]]], state={"cards": [1, 2, 3], "visible": [3]}, begin=False)
    game.begin_play()
    assert game.events[0] == {"type": "absent", "player": 0, "values": [3]} and game.turn == 1
    # M41: player 0 holds only their tripwire (and a red): a skip, "absent" every blue value.
    game = custom(41, [[2], [2]], [[[11, 15]], [[10, 21]]], extra={}, tags=("no_setup_tokens", "tripwire"), begin=False)
    game.begin_play()
    assert game.events[0]["type"] == "absent" and game.events[0]["values"] == [1] and game.turn == 1
    # M44: 2 players, 4 oxygen a round; a 9 costs 3: after player 0's cut, player 1 cannot afford one: a skip
    # that costs a space and says nothing; the reserve is full again at the Captain's turn.
    game = custom(44, [[2], [2]], [[[90, 90]], [[90, 90]]])
    assert game.state["oxygen"] == 4
    game.play(DualCutAction((1, 0, 0), 9))
    assert game.dial == 1 and len(game.events) == 1 and game.turn == 0 and game.state["oxygen"] == 4
    assert not check_game(game.table(), game.deal_json())


def test_nano_transfers_a_wire_in_order_and_its_receiver_sees_it() -> None:
    game = custom(43, [[3], [3]], [[[10, 20, 30]], [[10, 20, 40]]], nano=[25, 30], tags=("no_setup_tokens", "nano"))
    assert game.state["nano_space"] == 1
    game.play(DualCutAction((1, 0, 0), 1))  # a 1 is cut on Nano's space 1: the cutter takes Nano's first wire
    move = game.events[-1]
    assert move == {"type": "move", "from": "nano", "to": {"player": 0, "stand": 0, "slot": 2}}
    assert game.hands[0][0] == [10, 20, 25, 30] and game.state["nano_space"] == 2 and len(game.nano) == 1
    assert game.table(0)["me"]["seen"] == [{"at": move["to"], "value": 2.5, "after": 1}]
    assert (0, 0, 0) in game.cut and (0, 0, 2) not in game.cut
    deal = game.deal_json()
    assert deal["stands"][0] == [1, 2, 3] and deal["final"][0] == [1, 2, 2.5, 3] and deal["nano"] == [2.5, 3]
    assert not check_game(game.table(), deal)
    game.play(DualCutAction((0, 0, 1), 2))  # space 2: player 1 takes the 3
    assert game.events[-1]["to"] == {"player": 1, "stand": 0, "slot": 2} and not game.nano
    game.state["nano_space"], game.state["nano_dir"] = 12, 1
    game.rules.end_turn(game, 0, None)
    assert game.state["nano_space"] == 11  # it turns round at 12
    assert not check_game(game.table(), game.deal_json())


def test_the_checker_catches_a_deal_that_does_not_fit() -> None:
    game = play_sighted(13, 4, 0)
    public, deal = game.table(), game.deal_json()
    assert not check_game(public, deal)
    wrong = dict(deal)
    stands = [list(row) for row in deal["stands"]]
    a, b = next((i, j) for i, row in enumerate(stands) for j, k in enumerate(row) if k == 1.5 or k == 2.5
                or isinstance(k, float) and k % 1 == 0.5)
    c, d = next((i, j) for i, row in enumerate(stands) for j, k in enumerate(row) if i != a and isinstance(k, int))
    stands[a][b], stands[c][d] = stands[c][d], stands[a][b]  # a red moved to another player: dealt says otherwise
    wrong["stands"], wrong["final"] = stands, stands
    assert check_game(public, wrong)
    per_player = iter(stands)
    dealt = [[next(per_player) for _ in pl["stands"]] for pl in public["players"]]
    assert not is_consistent(public, dealt)


def test_policies_keep_to_the_legal_moves_where_suggest_ranks_illegal_ones() -> None:
    # M26: greedy's ranking would call anything; the game allows only the visible numbers.
    for seed in range(3):
        game = new_game(random.Random(seed), mission=26, players=3)
        policy = POLICIES["greedy"](random.Random(seed))
        for p in game.setup_token_players():
            game.place_token(policy.setup_token(View(game.table(p), p)))
        for _ in range(6):
            if game.over:
                break
            p = game.turn
            action = policy.move(View(game.table(p), p))
            if isinstance(action, (DualCutAction, SoloCutAction)):
                assert action.value in game.state["visible"]
            game.play(action)


def test_a_false_token_policy_names_its_value() -> None:
    game = new_game(random.Random(3), mission=17, players=3)
    for cls in ("greedy", "random"):
        view = View(game.table(0), 0)
        choice = POLICIES[cls](random.Random(0)).setup_token(view)
        assert isinstance(choice, SetupToken) and choice.value != game.key(choice.slot) // 10
    with pytest.raises(SimError):
        game.place_token(SetupToken(game.setup_options(game._setup[0])[0], game.key(game.setup_options(game._setup[0])[0]) // 10))


@pytest.mark.parametrize("mission", [18, 29, 32, 37, 39, 45, 51, 61])
def test_no_table_file_shows_a_card_nobody_has_seen(mission: int) -> None:
    """A deck's order and contents, M61's cards left on the table: every view shows how many, not which
    (greedy plays a few turns, so decks have been drawn from)."""
    game = new_game(random.Random(mission), mission=mission, players=4)
    greedy = POLICIES["greedy"](random.Random(mission))
    for p in game.setup_token_players():
        game.place_token(greedy.setup_token(View(game.table(p), p)))
    for _ in range(6):
        if game.over:
            break
        game.play(greedy.move(View(game.table(game.turn), game.turn)))
    hidden = {"deck": "deck_size", "table_cards": "table_cards_count"}
    assert hidden.keys() & game.state.keys()
    for player in (None, *range(4)):
        shown = game.table(player)["meta"]["sim"]["state"]
        for k, count in hidden.items():
            assert k not in shown
            if k in game.state:
                assert shown[count] == len(game.state[k])
