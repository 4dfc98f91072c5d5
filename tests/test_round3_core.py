"""Issue 30 (round 3), the core's parts: the mark cards' advice read as the recorded token,
the simulator's rollouts (a skip after a move, the General Radar's values), the mission's card.

The marks are checked against tests/oracle.py, which reads the rules' text on every deal: a
mark's P(fact) and bits are those of the public table with its token recorded, and a mark is
offered exactly where its token is certain in its owner's view.
"""
from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from typing import Any

import pytest
from gamegen import FULL_KINDS, random_full_game
from oracle import enumerate_table, gameplay, norm_key

from bombbuster_core import equipment as eq
from bombbuster_core.analysis import beliefs
from bombbuster_core.bridge import handle
from bombbuster_core.sim.actions import UseCard
from bombbuster_core.sim.deal import new_game
from bombbuster_core.sim.game import Game
from bombbuster_core.sim.lookahead import LookaheadPolicy
from bombbuster_core.sim.view import View
from bombbuster_core.suggest import Policy, suggest
from bombbuster_core.table import Table, TableError, load_table

OPEN = Policy(equipment_budget=None)
# wires keep their deal-time slots (no move, swap or Nano), so the special slots are the shapes' own
UNMOVED = {kind: 1.0 for kind in FULL_KINDS if kind not in ("move", "swap", "nano")}


@pytest.fixture
def every_card(monkeypatch):
    """Every card on the board and unlocked (the cut counts say 4 of everything)."""
    def board(self: Table) -> eq.BoardState:
        cut = {v: 4 for v in [*range(1, 13), "yellow"]}
        return eq.BoardState(("4", "2.2"), tuple(p.character for p in self.players), cut)
    monkeypatch.setattr(Table, "equipment_board", board)


def card_advice(table: dict[str, Any], card: str, engine: str = "columns") -> dict[str, Any]:
    result = suggest(load_table(table), policy=OPEN, engine=engine)
    return next(c for c in result["equipment"]["cards"] if c["card"] == card)


def public(table: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in table.items() if k != "me"}


def with_token(table: dict[str, Any], at: tuple[int, int, int], count: int) -> dict[str, Any]:
    player, stand, slot = at
    token = {"type": "info_token", "at": {"player": player, "stand": stand, "slot": slot}, "count": count}
    return {**table, "events": [*table.get("events", []), token]}


def support_h(result: dict[str, Any]) -> float:
    """The entropy mode's H: the sum over uncut player slots of log2 |gameplay values possible there|."""
    return sum(math.log2(len({gameplay(norm_key(k)) for k in row["p"]})) for row in result["exact"] if not row["cut"])


def oracle_mark(table: dict[str, Any], at: tuple[int, int, int], count: int) -> tuple[Fraction, float] | None:
    """The oracle's figures for an x-count token at ``at``: P(fact) and bits in public view, or None
    when the owner could not place it (it is not certain in the owner's view)."""
    view, placed = enumerate_table(table), enumerate_table(with_token(table, at, count))
    if not placed["consistent"] or placed["worlds"] != view["worlds"]:
        return None
    before, after = enumerate_table(public(table)), enumerate_table(public(with_token(table, at, count)))
    return Fraction(after["worlds"], before["worlds"]), support_h(before) - support_h(after)


def special_slots(table: dict[str, Any], player: int) -> set[tuple[int, int]]:
    """(stand, slot) of the player's X and flipped slots at the deal."""
    out = set()
    for s, shape in enumerate(table["players"][player]["stands"]):
        if isinstance(shape, dict):
            n, flipped = shape["size"], shape.get("flipped")
            if "x_slot" in shape or flipped in (1, 2, "high"):
                out.add((s, n - 1))
            if flipped in (2, "low"):
                out.add((s, 0))
    return out


def own_known(table: dict[str, Any]) -> dict[tuple[int, int, int], Any]:
    """The observer's non-special slots whose gameplay value their view knows."""
    me = table["me"]["player"]
    special = special_slots(table, me)
    out = {}
    for row in enumerate_table(table)["exact"]:
        values = {gameplay(norm_key(k)) for k in row["p"]}
        if row["player"] == me and (row["stand"], row["slot"]) not in special and len(values) == 1:
            out[(me, row["stand"], row["slot"])] = values.pop()
    return out


def check_single_wire_label(table: dict[str, Any], engine: str = "columns") -> list[dict[str, Any]]:
    """The 2.2 advice offers exactly the x1 tokens certain in the owner's view, with the recorded
    token's P(fact) and bits (the oracle's)."""
    rows = card_advice(table, "2.2", engine)["candidates"]
    got = {(r["target"]["player"], r["target"]["stand"], r["target"]["slot"]): r for r in rows}
    expected = {}
    for at, v in own_known(table).items():
        if isinstance(v, int):
            figures = oracle_mark(table, at, 1)
            if figures is not None:
                expected[at] = figures
    assert set(got) == set(expected)
    for at, (p, bits) in expected.items():
        assert Fraction(got[at]["p_fact_public_exact"]) == p, at
        assert got[at]["information"] == pytest.approx(-math.log2(p), abs=1e-6)
        assert got[at]["bits"] == pytest.approx(bits, abs=1e-6), at
    return rows


# M56-like: each player a flipped wire at the far right; mine unseen (null in me.stands)
M56_LIKE = {"format": 1, "wires": {"deck": {"4": 2, "5": 2, "6": 2}},
            "players": [{"name": "A", "stands": [{"size": 3, "flipped": 1}]},
                        {"name": "B", "stands": [{"size": 3, "flipped": 1}]}],
            "me": {"player": 0, "stands": [[4, 5, None]]}, "events": []}


def test_single_wire_label_on_m56_by_hand(every_card) -> None:
    """By hand: A's two sorted wires a0 <= a1 are two of the six tiles; my x1 token on either says
    they differ (my own flipped wire is not counted: I cannot see it): P = 1 - 1/5 = 4/5. The
    old reading also asked that my flipped wire differ: 4/5 * 3/4 = 3/5 -- and dropped both marks,
    as my flipped wire may be a 4 or a 5.  H falls from 6 log2 3 to 2 + 4 log2 3 (a0 is 4 or 5,
    a1 is 5 or 6)."""
    rows = card_advice(M56_LIKE, "2.2")["candidates"]
    assert sorted((r["target"]["slot"], r["value"]) for r in rows) == [(0, 4), (1, 5)]
    for row in rows:
        assert Fraction(row["p_fact_public_exact"]) == Fraction(4, 5)
        assert row["bits"] == pytest.approx(2 * (math.log2(3) - 1), abs=1e-6)
        # what recording that very token and analysing says
        recorded = with_token(public(M56_LIKE), (0, 0, row["target"]["slot"]), 1)
        ratio = Fraction(beliefs(load_table(recorded), "brute").worlds,
                         beliefs(load_table(public(M56_LIKE)), "brute").worlds)
        assert ratio == Fraction(4, 5)
    check_single_wire_label(M56_LIKE)


FLIPPED_CASES = [(special, seed) for special in ("flip1", "flip2", "lowhigh", "mixed") for seed in range(6)]


@pytest.mark.parametrize("special, seed", FLIPPED_CASES)
def test_single_wire_label_equals_the_oracle_with_flipped_wires(special: str, seed: int, every_card) -> None:
    """M56/M64 stands: the advice equals the recorded token's truth on random small tables."""
    rng = random.Random(30_100 + 97 * seed + len(special))
    options: dict[str, Any] = {"players": 2} if special == "lowhigh" else {}
    table, _ = random_full_game(rng, special=special, me=True, kinds=UNMOVED, turns=rng.randint(0, 3),
                                explode=0.0, **options)
    check_single_wire_label(table, "columns" if seed % 3 else "signatures")


def test_a_flipped_table_where_the_old_reading_differed_is_among_the_random_ones(every_card) -> None:
    """The random cases are not vacuous: some offer a mark beside an own flipped wire."""
    offered = 0
    for special, seed in FLIPPED_CASES:
        rng = random.Random(30_100 + 97 * seed + len(special))
        options: dict[str, Any] = {"players": 2} if special == "lowhigh" else {}
        table, _ = random_full_game(rng, special=special, me=True, kinds=UNMOVED, turns=rng.randint(0, 3),
                                    explode=0.0, **options)
        me = table["me"]["player"]
        flipped_stands = {s for s, _ in special_slots(table, me)}
        rows = card_advice(table, "2.2")["candidates"]
        offered += sum(r["target"]["stand"] in flipped_stands for r in rows)
    assert offered >= 3


# an x-count mission's table (M24's tokens) whose stand has an X wire its owner sees
X_COUNT = {"format": 1, "wires": {"deck": {"3": 3, "5": 2, "6": 2}},
           "players": [{"name": "A", "stands": [{"size": 4, "x_slot": "any"}]}, {"name": "B", "stands": [3]}],
           "me": {"player": 0, "stands": [[3, 3, 5, 3]]},
           "events": [{"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 0}, "count": 1}]}


def test_post_it_counts_the_owners_x_wire(every_card) -> None:
    """The owner sees their X wire: a Post-it x-count on stand 1 counts it (the 3s: x3) instead of
    skipping the stand as not known; figures as the oracle's for the recorded token."""
    advice = card_advice(X_COUNT, "4")
    assert not any("does not know" in note for note in advice["incomplete"])
    marks = {(r["target"]["slot"], r["count"]) for r in advice["candidates"]}
    assert marks == {(0, 3), (1, 3), (2, 1)}
    for row in advice["candidates"]:
        figures = oracle_mark(X_COUNT, (0, 0, row["target"]["slot"]), row["count"])
        assert figures is not None
        p, bits = figures
        assert Fraction(row["p_fact_public_exact"]) == p
        assert row["bits"] == pytest.approx(bits, abs=1e-6)


def test_post_it_counts_beside_an_own_flipped_wire(every_card) -> None:
    """An own flipped wire is not counted (the owner cannot see it), so it hides nothing either."""
    table = {**M56_LIKE, "events": [{"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 0}, "count": 1}]}
    advice = card_advice(table, "4")
    assert not any("does not know" in note for note in advice["incomplete"])
    assert {(r["target"]["slot"], r["count"]) for r in advice["candidates"]} == {(0, 1), (1, 1)}


def test_lookahead_rollouts_read_the_actions_own_event_when_a_skip_follows(monkeypatch) -> None:
    """Item 5: in M26 a cut flips the Number card and the next player may then skip (an ``absent``
    event after the cut): the rollouts read the outcome of the action's own event, not the last."""
    skipped = []
    play = Game.play

    def watched(game: Game, action: Any) -> None:
        first = len(game.events)
        play(game, action)
        if len(game.events) > first + 1 and game.events[-1]["type"] == "absent" and game.events[first]["type"] in (
                "dual_cut", "detector"):
            skipped.append(first)
    monkeypatch.setattr(Game, "play", watched)
    game = new_game(random.Random("s3"), mission=26, players=3, equipment=True)
    policy = LookaheadPolicy(random.Random(3), deals=1, depth=2, search_rng=random.Random(4))
    for p in game.setup_token_players():
        game.place_token(policy.setup_token(View(game.table(p), p)))
    for _ in range(12):  # the 11th decision's rollouts met a skip after their cut (KeyError: 'success')
        game.play(policy.move(View(game.table(game.turn), game.turn)))
    assert skipped, "no rollout met a skip: the case is not exercised"


# a page's table whose blue values are 2-6 (not 1, nor 7-12), every player the General Radar character
RADAR_TABLE = {"format": 1, "wires": {"blue": [2, 3, 4, 5, 6]}, "equipment": [{"card": "12"}],
               "players": [{"name": name, "stands": [n], "character": "general_radar"}
                           for name, n in (("A", 7), ("B", 7), ("C", 6))],
               "me": {"player": 0, "stands": [[2, 2, 3, 4, 5, 6, 6]]}, "events": []}


def test_the_simulator_offers_the_general_radar_only_on_values_in_play() -> None:
    """Item 6: a radar on a number not in play is a table the core refuses ("1 is not in play")."""
    table = load_table(RADAR_TABLE)
    deal = [[20, 20, 30, 40, 50, 60, 60], [20, 20, 30, 30, 40, 50, 60], [30, 40, 40, 50, 50, 60]]
    game = Game.restore(RADAR_TABLE, deal, 0, random.Random(0), frozenset(), table.equipment_board())
    radar = sorted(a.option for a in game.legal_moves() if isinstance(a, UseCard) and a.card == "character")
    assert radar == [2, 3, 4, 5, 6]


def test_a_table_the_search_builds_and_the_core_refuses_is_an_internal_error(monkeypatch) -> None:
    """Item 6: a rollout's refusal is the simulator's bug, never reported as the user's table's
    (no "event" pointing into a table analyze accepts)."""
    tables = Game.table

    def broken(game: Game, player: int | None = None) -> dict[str, Any]:
        out = tables(game, player)
        return {**out, "events": [*out["events"], {"type": "radar", "value": 1, "answers": [[False]] * 3}]}
    monkeypatch.setattr(Game, "table", broken)
    for method, params in (("search", {"iterations": 5}), ("lookahead", {"deals": 2})):
        answer = json.loads(handle(json.dumps({"id": 1, "method": method,
                                               "params": {"table": RADAR_TABLE, "seed": 0, **params}})))
        assert "event" not in answer["error"], method
        message = answer["error"]["message"]
        assert message.startswith("internal error: SimulatorBug: the simulator built a table the core refuses"), message
        assert "'value': 1 is not in play" in message


def at(p: int, slot: int) -> dict[str, int]:
    return {"player": p, "stand": 0, "slot": slot}


# deck 1 1 1 1 2 2 2 2 1.1 2.1, 5 | 5; the Double Detector's 1 on B's slots 0-1, then 1-2
DETECTOR = {"type": "detector", "actor": 0, "kind": "double", "targets": [at(1, 0), at(1, 1)], "value": 1,
            "success": True, "cut": at(1, 0), "actor_slot": {"stand": 0, "slot": 0}, "card": "mission"}
AGAIN = {**DETECTOR, "targets": [at(1, 1), at(1, 2)], "cut": at(1, 1), "actor_slot": {"stand": 0, "slot": 1}}
RADAR = {"type": "radar", "value": 2, "answers": [[True], [True]], "card": "mission"}


def mission_table(number: int | None, events: list[dict[str, Any]], board: bool = True) -> dict[str, Any]:
    t: dict[str, Any] = {"format": 1, "players": [{"stands": [5]}, {"stands": [5]}],
                         "wires": {"deck": {"1": 4, "2": 4, "1.1": 1, "2.1": 1}}, "events": events}
    if board:
        t["equipment"] = [{"card": "7"}]
    if number is not None:
        t["meta"] = {"mission": number}
    return t


def refusal(table: dict[str, Any]) -> TableError:
    with pytest.raises(TableError) as refused:
        load_table(table)
    return refused.value


def test_mission_uses_only_where_the_mission_grants_them() -> None:
    """Item 7: "card": "mission" spends nothing, so where the mission grants no such use it would let
    the Double Detector (a character used once) be used again and again: refused, naming the field."""
    err = refusal(mission_table(4, [DETECTOR]))
    assert err.event == 0 and str(err).startswith(
        """event 0 (detector) field 'card': "mission": this mission grants no use of the Double Detector""")
    err = refusal(mission_table(58, [RADAR]))
    assert err.event == 0 and "grants no use of the General Radar" in str(err)
    # a listed board with no mission named: no use is known to be granted
    assert "names no mission (meta.mission)" in str(refusal(mission_table(None, [DETECTOR])))
    # named once by the character, the second use must name another provider: the character is spent
    err = refusal(mission_table(4, [{**DETECTOR, "card": "character"}, {**AGAIN, "card": "character"}]))
    assert err.event == 1 and "already used" in str(err)
    # M58: the Double Detector every turn, each its turn's action; M18: the radar every turn
    board = load_table(mission_table(58, [DETECTOR, AGAIN])).equipment_board()
    assert board is not None and board.character_used == [False, False]
    load_table(mission_table(18, [RADAR, RADAR]))
    # no board and no mission named: a card is only checked to do what its event does (as before)
    load_table(mission_table(None, [DETECTOR, AGAIN], board=False))
    # no board, but a mission that grants no such use: refused all the same
    assert "grants no use of the Double Detector" in str(refusal(mission_table(4, [DETECTOR], board=False)))
