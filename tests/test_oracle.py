"""Tests of the test-side ground truth: the brute-force oracle and the game generator.

* Hand-worked tables whose answers are derived in the comments.
* A naive cross-check: for tiny tables, enumerating every permutation of the
  distinguishable tiles must give the oracle's worlds and exact marginals.
* For many seeds: every event of ``random_game`` is legal (an independent replay
  below), the true deal is consistent, and the oracle gives each true key p > 0.
"""
from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction as F
from typing import Any

import pytest

from gamegen import FULL_KINDS, SPECIALS, TOKEN_MODES, gameplay, random_full_game, random_game
from oracle import Table, _replay, enumerate_table, is_consistent


def _table(stands: list[list[int]], wires: dict[str, Any],
           events: list[dict[str, Any]] | None = None,
           me: dict[str, Any] | None = None) -> dict[str, Any]:
    table: dict[str, Any] = {"players": [{"name": f"P{p}", "stands": s} for p, s in enumerate(stands)],
                             "wires": wires, "events": events or []}
    if me is not None:
        table["me"] = me
    return table


def _p(result: dict[str, Any], player: int, stand: int, slot: int) -> dict[str, F]:
    [row] = [r for r in result["exact"]
             if (r["player"], r["stand"], r["slot"]) == (player, stand, slot)]
    return row["p"]


def _at(p: int, s: int, j: int) -> dict[str, int]:
    return {"player": p, "stand": s, "slot": j}


# ------------------------------------------------------------------ hand-worked cases


def test_two_stands_of_two_is_hypergeometric_not_uniform_over_sorted_hands() -> None:
    # Tiles 1a 1b 2a 2b on stands A, B of 2.  Sorted hands for A: 11, 12, 22.
    # Weight = 2!2! / prod c! : A=11,B=22 -> 4/(2!2!) = 1; A=12,B=12 -> 4/1 = 4;
    # A=22,B=11 -> 1.  worlds = 6 = C(4,2).  A's left slot is 1 unless A=22:
    # P = 5/6 (uniform over the 3 sorted hands would say 2/3).
    r = enumerate_table(_table([[2], [2]], {"deck": {"1": 2, "2": 2}}))
    assert r["consistent"] and r["worlds"] == 6
    assert _p(r, 0, 0, 0) == {"1": F(5, 6), "2": F(1, 6)}
    assert _p(r, 0, 0, 1) == {"1": F(1, 6), "2": F(5, 6)}
    assert _p(r, 1, 0, 0) == {"1": F(5, 6), "2": F(1, 6)}
    assert r["slots"][0] == {"player": 0, "stand": 0, "slot": 0, "cut": False,
                             "p": {"1": 5 / 6, "2": 1 / 6}}
    assert [(s["player"], s["stand"], s["slot"]) for s in r["slots"]] == \
        [(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 1)]


def test_yellow_red_without_events() -> None:
    # Tiles 1a-1d, Y=1.1, R=1.5 on two stands of 3: worlds = C(6,3) = 20.
    # P0's right slot: 1.5 if R in P0 (C(5,2) = 10), else 1.1 if Y in P0
    # (C(4,2) = 6), else 1 (C(4,3) = 4).  Middle slot is 1.1 only for P0 =
    # {1, Y, R} (4 ways).  Left slot is always 1 (only 2 non-blue tiles).
    r = enumerate_table(_table([[3], [3]], {"blue": [1], "yellow": [1.1], "red": [1.5]}))
    assert r["worlds"] == 20
    assert _p(r, 0, 0, 2) == {"1": F(4, 20), "1.1": F(6, 20), "1.5": F(10, 20)}
    assert _p(r, 0, 0, 1) == {"1": F(16, 20), "1.1": F(4, 20)}
    assert _p(r, 0, 0, 0) == {"1": F(1)}


def test_failed_cut_tells_the_actor_holds_the_called_value() -> None:
    # Same tiles.  P1 calls "yellow" on P0's left slot, token 1 (always true:
    # P0's left slot is always 1); only the "P1 holds a yellow" part informs:
    # Y in P1 in C(5,2) = 10 of the 20 splits.  Then P0 = R + two 1s (C(4,2) = 6)
    # or three 1s (4): P0's right slot is 1.5 with 6/10.
    ev = {"type": "dual_cut", "actor": 1, "target": _at(0, 0, 0), "value": "yellow",
          "success": False, "token": 1}
    r = enumerate_table(_table([[3], [3]], {"blue": [1], "yellow": [1.1], "red": [1.5]}, [ev]))
    assert r["worlds"] == 10
    assert _p(r, 0, 0, 2) == {"1": F(4, 10), "1.5": F(6, 10)}
    assert _p(r, 1, 0, 2) == {"1.1": F(6, 10), "1.5": F(4, 10)}
    assert not any(s["cut"] for s in r["slots"])


def test_failed_cut_token_can_make_the_table_inconsistent() -> None:
    # Token "yellow" on P1's left slot needs P1's three tiles all >= 1.1, but only
    # Y and R are: no deal fits.
    ev = {"type": "dual_cut", "actor": 0, "target": _at(1, 0, 0), "value": 1,
          "success": False, "token": "yellow"}
    r = enumerate_table(_table([[3], [3]], {"blue": [1], "yellow": [1.1], "red": [1.5]}, [ev]))
    assert r == {"consistent": False}


def test_dual_success_then_reveal_red() -> None:
    # Tiles 1, 1, 2.5, 3.5 on two stands of 2.  P1 cuts P0's left wire with its
    # own left wire (both 1), so each stand is {1, red}.  P0 then reveals its last
    # uncut wire, printed 3.5: P0 = {1, 3.5}, P1 = {1, 2.5}.  Weight 2!/(1!1!) = 2.
    wires = {"deck": {"1": 2, "2.5": 1, "3.5": 1}}
    events = [{"type": "dual_cut", "actor": 1, "target": _at(0, 0, 0), "value": 1,
               "success": True, "actor_slot": {"stand": 0, "slot": 0}},
              {"type": "reveal_red", "actor": 0, "slots": [{"stand": 0, "slot": 1, "value": 3.5}]}]
    r = enumerate_table(_table([[2], [2]], wires, events))
    assert r["worlds"] == 2
    assert [s["p"] for s in r["slots"]] == [{"1": 1.0}, {"3.5": 1.0}, {"1": 1.0}, {"2.5": 1.0}]
    assert [s["cut"] for s in r["slots"]] == [True, True, True, False]
    # Before the cut P0 still has an unlisted uncut wire: revealing is not legal.
    assert enumerate_table(_table([[2], [2]], wires, events[1:])) == {"consistent": False}


def test_solo_cut_after_a_pair() -> None:
    # Blue 1, 2 on two stands of 4.  P1 cuts P0's right wire (2) with its own
    # right wire (2); P0 then solo-cuts 2 at its slots 1, 2: P0 = 1222 and
    # P1 = 1112 (no uncut 2 may remain elsewhere).  Weight 4!4!/(1!3!3!1!) = 16.
    events = [{"type": "dual_cut", "actor": 1, "target": _at(0, 0, 3), "value": 2,
               "success": True, "actor_slot": {"stand": 0, "slot": 3},
               "keys": {"target": 2, "actor": 2}},
              {"type": "solo_cut", "actor": 0, "value": 2,
               "slots": [{"stand": 0, "slot": 1}, {"stand": 0, "slot": 2}]}]
    r = enumerate_table(_table([[4], [4]], {"blue": [1, 2]}, events))
    assert r["worlds"] == 16
    assert [next(iter(s["p"])) for s in r["slots"]] == ["1", "2", "2", "2", "1", "1", "1", "2"]
    assert [s["cut"] for s in r["slots"]] == [False, True, True, True, False, False, False, True]
    # Listing only 2 of the 4 twos with none cut yet is never true.
    assert enumerate_table(_table([[4], [4]], {"blue": [1, 2]}, events[1:])) == {"consistent": False}


def test_k_of_m_pool() -> None:
    # Blue 1 (4 copies) + 1 of the yellows {1.1, 2.1}; stands of 2 and 3.
    # Each subset: C(5,2) = 10 splits, so worlds = 20.  P0's right slot is the
    # yellow when P0 holds it (4 of 10 per subset), else 1:
    # {1: 12/20, 1.1: 4/20, 2.1: 4/20}.
    wires = {"blue": [1], "uncertain": [{"candidates": [1.1, 2.1], "count": 1}]}
    r = enumerate_table(_table([[2], [3]], wires))
    assert r["worlds"] == 20
    assert _p(r, 0, 0, 1) == {"1": F(12, 20), "1.1": F(4, 20), "2.1": F(4, 20)}
    # A yellow token on P1's right slot: P1 holds the yellow (6 splits per
    # subset, P0 = two 1s, and P0 holds the called 1): worlds 12, yellow 50/50.
    ev = {"type": "dual_cut", "actor": 0, "target": _at(1, 0, 2), "value": 1,
          "success": False, "token": "yellow"}
    r = enumerate_table(_table([[2], [3]], wires, [ev]))
    assert r["worlds"] == 12
    assert _p(r, 1, 0, 2) == {"1.1": F(1, 2), "2.1": F(1, 2)}
    # Seeing 2.1 in one's own hand settles the pool: P1 = 111, weight 4!/3! = 4.
    r = enumerate_table(_table([[2], [3]], wires, me={"player": 0, "stands": [[1, 2.1]]}))
    assert r["worlds"] == 4
    assert _p(r, 1, 0, 2) == {"1": F(1)}


def test_me_and_three_players() -> None:
    # Blue 1, 2; stands 3/3/2; I am P0 holding 1 1 2.  The other 5 tiles
    # (1, 1, 2, 2, 2) split C(5,3) = 10 ways; with my own 6 * 4 choices of which
    # 1s and 2 I hold, worlds = 240.  P2's 2 tiles: {1,1} 1 way, {1,2} 2*3 = 6,
    # {2,2} 3: left slot 1 with 7/10, right slot 1 with 1/10.
    r = enumerate_table(_table([[3], [3], [2]], {"blue": [1, 2]},
                               me={"player": 0, "stands": [[1, 1, 2]]}))
    assert r["worlds"] == 240
    assert _p(r, 2, 0, 0) == {"1": F(7, 10), "2": F(3, 10)}
    assert _p(r, 2, 0, 1) == {"1": F(1, 10), "2": F(9, 10)}
    assert _p(r, 0, 0, 2) == {"2": F(1)}


def test_info_token_and_two_stand_player() -> None:
    # Player 0 has two stands of 2, player 1 one stand of 2; tiles 1,1,2,2,3,3.
    # Player 0's setup token says stand 1, slot 0 is a 3 -> that stand is {3,3}
    # (its left slot is the smallest).  Weight = 2!2!2! / prod c!, where stand
    # (0,1) = 33 gives 2!; the other two stands split 1,1,2,2: 11|22 -> 8/8 = 1,
    # 12|12 -> 8/2 = 4, 22|11 -> 1.  worlds 6; stand (0,0)'s left slot is 1 w.p. 5/6.
    ev = {"type": "info_token", "at": _at(0, 1, 0), "value": 3}
    r = enumerate_table(_table([[2, 2], [2]], {"deck": {"1": 2, "2": 2, "3": 2}}, [ev]))
    assert r["worlds"] == 6
    assert _p(r, 0, 0, 0) == {"1": F(5, 6), "2": F(1, 6)}
    assert _p(r, 0, 1, 1) == {"3": F(1)}


# ------------------------------------------------- full rules: hand-worked cases


def _pl(*stands: Any) -> list[dict[str, Any]]:
    return [{"name": f"P{p}", "stands": list(st)} for p, st in enumerate(stands)]


def test_the_shuffle_trap_and_a_move_keeps_the_wire() -> None:
    # Deck {1,1,2} on stands of 2 and 1: {1,1}|{2} has weight 2!/2! = 1 and
    # {1,2}|{1} weight 2!/(1!1!) = 2, so the 2-stand's right wire is 1 with 1/3.
    base = {"players": _pl([2], [1]), "wires": {"deck": {"1": 2, "2": 1}}, "events": []}
    r = enumerate_table(base)
    assert r["worlds"] == 3 and _p(r, 0, 0, 1) == {"1": F(1, 3), "2": F(2, 3)}
    # A third stand that holds the two 4s (I am P2): the split of {1,1,2} is the
    # same.  Moving P0's right wire to the far left of my stand constrains
    # nothing (it is <= 4 anyway): the wire keeps its 1/3 at its new address.
    base = {"players": _pl([2], [1], [2]), "wires": {"deck": {"1": 2, "2": 1, "4": 2}},
            "me": {"player": 2, "stands": [[4, 4]]}, "events": []}
    r = enumerate_table(base)
    assert r["worlds"] == 3 and _p(r, 0, 0, 1) == {"1": F(1, 3), "2": F(2, 3)}
    move = {"type": "move", "from": _at(0, 0, 1), "to": _at(2, 0, 0)}
    r = assert_oracle_equals_naive({**base, "events": [move]})
    assert r["worlds"] == 3 and _p(r, 2, 0, 0) == {"1": F(1, 3), "2": F(2, 3)}
    assert [(x["player"], x["stand"], x["slot"]) for x in r["slots"]] == \
        [(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 0, 1), (2, 0, 2)]
    assert _p(r, 0, 0, 0) == {"1": F(1)} and _p(r, 2, 0, 2) == {"4": F(1)}
    # Into the 1-stand instead, the receiving order tells everything: to the
    # right of P1's wire -> moved >= P1's wire -> only {1,2}|{1} (weight 2).
    base = {"players": _pl([2], [1]), "wires": {"deck": {"1": 2, "2": 1}}}
    r = enumerate_table({**base, "events": [{"type": "move", "from": _at(0, 0, 1), "to": _at(1, 0, 1)}]})
    assert r["worlds"] == 2 and [x["p"] for x in r["slots"]] == [{"1": 1.0}, {"1": 1.0}, {"2": 1.0}]
    r = enumerate_table({**base, "events": [{"type": "move", "from": _at(0, 0, 1), "to": _at(1, 0, 0)}]})
    assert r["worlds"] == 1 and [x["p"] for x in r["slots"]] == [{"1": 1.0}, {"1": 1.0}, {"2": 1.0}]


def test_x_slot_is_one_more_dealt_position() -> None:
    # Deck {1,2,3}, P0 = [sorted a, X b], P1 = [c]: every permutation is a deal
    # of weight 1, so the X wire is uniform and so is the sorted one.
    table = {"players": _pl([{"size": 2, "x_slot": "any"}], [1]), "wires": {"deck": {"1": 1, "2": 1, "3": 1}}}
    r = assert_oracle_equals_naive(table)
    assert r["worlds"] == 6
    assert _p(r, 0, 0, 0) == _p(r, 0, 0, 1) == {"1": F(1, 3), "2": F(1, 3), "3": F(1, 3)}
    # x_slot "blue" with deck {1, 2, 2.5}: X in {1, 2}; the sorted wire is 2.5
    # in half of the 4 deals.
    table = {"players": _pl([{"size": 2, "x_slot": "blue"}], [1]), "wires": {"deck": {"1": 1, "2": 1, "2.5": 1}}}
    r = assert_oracle_equals_naive(table)
    assert r["worlds"] == 4
    assert _p(r, 0, 0, 1) == {"1": F(1, 2), "2": F(1, 2)}
    assert _p(r, 0, 0, 0) == {"1": F(1, 4), "2": F(1, 4), "2.5": F(1, 2)}
    # My hand as dealt: X at its place, not sorted.
    r = enumerate_table({**table, "me": {"player": 0, "stands": [[2.5, 1]]}})
    assert r["worlds"] == 1 and _p(r, 1, 0, 0) == {"2": F(1)}


def test_flipped_pair_counts_both_orders() -> None:
    # Deck {1,1,2,3}; P0 = [low, sorted, high] (M64), P1 = [1 wire].  The pair is
    # a uniform 2-subset of the 4 tiles: {1a,1b}, {1,2} x2, {1,3} x2, {2,3}.
    table = {"players": _pl([{"size": 3, "flipped": 2}], [1]), "wires": {"deck": {"1": 2, "2": 1, "3": 1}}}
    r = assert_oracle_equals_naive(table)
    assert r["worlds"] == 12
    assert _p(r, 0, 0, 0) == {"1": F(5, 6), "2": F(1, 6)}
    assert _p(r, 0, 0, 2) == {"1": F(1, 6), "2": F(2, 6), "3": F(3, 6)}
    # The 2-stand M64 player: deck 1..5 all distinct, the pair is a uniform
    # 2-subset: the low slot is the minimum of it.
    table = {"players": _pl([{"size": 2, "flipped": "low"}, {"size": 2, "flipped": "high"}], [1]),
             "wires": {"deck": {str(v): 1 for v in range(1, 6)}}}
    r = assert_oracle_equals_naive(table)
    assert _p(r, 0, 0, 0) == {"1": F(4, 10), "2": F(3, 10), "3": F(2, 10), "4": F(1, 10)}
    assert _p(r, 0, 1, 1) == {"2": F(1, 10), "3": F(2, 10), "4": F(3, 10), "5": F(4, 10)}
    # The owner sees neither flipped wire (null): the pair is 2 of {1,3,5}
    # (3 deals of weight 1, P1 gets the third).
    me = {"player": 0, "stands": [[None, 2], [4, None]]}
    r = enumerate_table({**table, "me": me})
    assert r["worlds"] == 3
    assert _p(r, 0, 0, 0) == {"1": F(2, 3), "3": F(1, 3)}


def test_nano_wires_are_taken_in_order() -> None:
    # Deck {1,1,2}: P0 [1], P1 [1], Nano 1.  Three key patterns (P0, P1, Nano),
    # weight 2 each.  Nano's wire goes to the right of P0's: Nano >= P0.
    table = {"players": _pl([1], [1]), "wires": {"deck": {"1": 2, "2": 1}}, "nano": 1,
             "events": [{"type": "move", "from": "nano", "to": _at(0, 0, 1)}]}
    r = assert_oracle_equals_naive(table)
    assert r["worlds"] == 4
    assert _p(r, 0, 0, 0) == {"1": F(1)} and _p(r, 0, 0, 1) == {"1": F(1, 2), "2": F(1, 2)}
    assert _p(r, 1, 0, 0) == {"1": F(1, 2), "2": F(1, 2)}
    # Two Nano wires: the first transfer takes the first, the second the second.
    table = {"players": _pl([1], [1]), "wires": {"deck": {"1": 1, "2": 1, "3": 1, "4": 1}}, "nano": 2,
             "me": {"player": 0, "stands": [[2]], "seen": [{"at": _at(0, 0, 1), "value": 4, "after": 0}]},
             "events": [{"type": "move", "from": "nano", "to": _at(0, 0, 1)},
                        {"type": "move", "from": "nano", "to": _at(1, 0, 0)}]}
    r = assert_oracle_equals_naive(table)
    assert _p(r, 1, 0, 0) == {"1": F(1)} and _p(r, 1, 0, 1) == {"3": F(1)}


def test_own_flipped_wires_do_not_count_for_holding() -> None:
    # Deck 1..4; P0 = [a, F] (F flipped), P1 = [b, c].  P0 calls 3 on P1's
    # slot 0 and fails with token 1: P0 must hold 3 among wires it can see,
    # so a = 3 and F, c are 2 and 4 either way: 2 deals.  (Were F counted,
    # F = 3 would add 2 more.)
    ev = {"type": "dual_cut", "actor": 0, "target": _at(1, 0, 0), "value": 3, "success": False, "token": 1}
    table = {"players": _pl([{"size": 2, "flipped": 1}], [2]),
             "wires": {"deck": {str(v): 1 for v in range(1, 5)}}, "events": [ev]}
    r = assert_oracle_equals_naive(table)
    assert r["worlds"] == 2 and _p(r, 0, 0, 0) == {"3": F(1)}
    assert _p(r, 0, 0, 1) == {"2": F(1, 2), "4": F(1, 2)}


def test_radar_label_absent_dealt_and_counts() -> None:
    wires = {"deck": {"1": 2, "2": 2, "1.1": 1, "1.5": 1}}
    base = {"players": _pl([3], [3]), "wires": wires}
    # Radar 2: P0 yes, P1 no -> both 2s on P0: P0 = {x,2,2}, x from {1,1,1.1,1.5}
    # (x = 1: weight 2!2!/2! = 2; x = 1.1 or 1.5: weight 1).
    radar = {"type": "radar", "value": 2, "answers": [[True], [False]]}
    r = assert_oracle_equals_naive({**base, "events": [radar]})
    assert r["worlds"] == 4 and _p(r, 0, 0, 0) == {"1": F(1, 2), "1.1": F(1, 4), "1.5": F(1, 4)}
    assert _p(r, 1, 0, 0) == {"1": F(1)}
    # Label "equal" on P1's slots 0, 1: P1 = [1, 1.1, 1.5] (x = 1) differs, the
    # two others start 1, 1 -> x in {1.1, 1.5}.
    label = {"type": "label", "kind": "equal", "at": _at(1, 0, 0)}
    r = assert_oracle_equals_naive({**base, "events": [radar, label]})
    assert r["worlds"] == 2 and _p(r, 0, 0, 0) == {"1.1": F(1, 2), "1.5": F(1, 2)}
    # Absent: P1 holds no uncut yellow and no red -> 3 wires from {1,1,2,2}
    # without a 2 (radar): no deal.
    absent = {"type": "absent", "player": 1, "values": ["yellow", "red"]}
    assert enumerate_table({**base, "events": [radar, absent]}) == {"consistent": False}
    # Dealt: P0 got exactly 1 red; count token x2 on P0's slot 0 (not red, its
    # value twice on P0): P0 = [v, v, red] with v sorting below 1.5: v = 1.
    dealt = {"type": "dealt", "player": 0, "value": "red", "count": 1}
    count = {"type": "info_token", "at": _at(0, 0, 0), "count": 2}
    r = assert_oracle_equals_naive({**base, "events": [dealt, count]})
    assert r["worlds"] == 1 and [x["p"] for x in r["slots"][:3]] == [{"1": 1.0}, {"1": 1.0}, {"1.5": 1.0}]


# ------------------------------------------------------- naive permutation cross-check


def _naive(table: dict[str, Any]) -> tuple[int, int, dict[int, Counter[float]]]:
    """Deal by the physical process, every outcome counted once: each k-subset of
    each pool; for each ``x_slot: "blue"`` stand a blue tile drawn before the
    shuffle (every ordered choice of distinct blue tiles); every permutation of
    the other tiles dealt stand by stand (an X slot gets the stand's last dealt
    tile), Nano's wires last in the order they will be taken; then every choice
    of the flipped wires made without looking (one of the stand's dealt wires;
    two for M64, lower to the far left and higher to the far right; a 2-stand
    M64 player flips one wire of each stand).

    Returns (outcomes consistent with the table, all outcomes, per wire: key ->
    consistent outcomes)."""
    t = Table(table)
    per_wire: dict[int, Counter[float]] = {w: Counter() for w in range(len(t.home))}
    consistent = everything = 0
    x_blue = [i for i, kind in enumerate(t.kinds) if kind == "x_blue"]
    lows = {t.stands[i][0]: i for i, kind in enumerate(t.kinds) if kind == "low"}
    highs = {t.stands[i][0]: i for i, kind in enumerate(t.kinds) if kind == "high"}
    for chosen in itertools.product(*(itertools.combinations(c, k) for c, k in t.pools)):
        tiles = list(t.fixed.elements()) + [c for subset in chosen for c in subset]
        blue = [n for n, k in enumerate(tiles) if isinstance(k, int)]
        for pre in itertools.permutations(blue, len(x_blue)):
            rest = [n for n in range(len(tiles)) if n not in pre]
            for perm in itertools.permutations(rest):
                dealt: list[list[int]] = []  # tile indexes per stand, in dealing order
                pos = 0
                for i, (_, _, size) in enumerate(t.stands):
                    n = size - (i in x_blue)
                    dealt.append(list(perm[pos:pos + n]))
                    pos += n
                for i, tile in zip(x_blue, pre):
                    dealt[i].append(tile)
                nano = list(perm[pos:])
                # flip choices: per stand, the dealt indexes flipped
                choices = []
                for i, kind in enumerate(t.kinds):
                    size = t.stands[i][2]
                    if kind in ("flip1", "low", "high"):
                        choices.append([(c,) for c in range(size)])
                    elif kind == "flip2":
                        choices.append(list(itertools.combinations(range(size), 2)))
                    else:
                        choices.append([()])
                for choice in itertools.product(*choices):
                    keys: list[Any] = [None] * len(t.home)
                    flipped_of: dict[int, list[int]] = {}
                    for i, kind in enumerate(t.kinds):
                        ids = t.initial[i]
                        flipped = [dealt[i][c] for c in choice[i]]
                        plain = sorted((tiles[n] for n in dealt[i] if n not in flipped))
                        flipped_of[i] = flipped
                        if kind is None:
                            layout = plain
                        elif kind in ("x_any", "x_blue"):  # the last dealt tile is X
                            layout = sorted(tiles[n] for n in dealt[i][:-1]) + [tiles[dealt[i][-1]]]
                        elif kind == "flip1":
                            layout = plain + [tiles[flipped[0]]]
                        elif kind == "flip2":
                            a, b = sorted(tiles[n] for n in flipped)
                            layout = [a] + plain + [b]
                        else:
                            layout = [None] + plain if kind == "low" else plain + [None]
                        for w, k in zip(ids, layout):
                            keys[w] = k
                    for p, lo in lows.items():
                        hi = highs[p]
                        a, b = sorted([tiles[flipped_of[lo][0]], tiles[flipped_of[hi][0]]])
                        keys[t.initial[lo][0]], keys[t.initial[hi][-1]] = a, b
                    for w, n in zip(t.nano_wires, nano):
                        keys[w] = tiles[n]
                    everything += 1
                    if any(keys[w] != k for w, k in t.known.items()) or _replay(t, keys) is None:
                        continue
                    consistent += 1
                    for w, k in enumerate(keys):
                        per_wire[w][k] += 1
    return consistent, everything, per_wire


def assert_oracle_equals_naive(table: dict[str, Any]) -> dict[str, Any]:
    """The oracle's worlds (up to the process's constant) and exact marginals of every
    current slot equal naive enumeration of the physical dealing process."""
    consistent, everything, per_wire = _naive(table)
    r = enumerate_table(table)
    assert r["consistent"] == (consistent > 0)
    if not consistent:
        return r
    prior = enumerate_table({k: v for k, v in table.items() if k not in ("events", "me")})
    # both count the same outcomes, each naive one a constant number of times
    assert consistent * prior["worlds"] == r["worlds"] * everything
    t = Table(table)
    final = t.layouts[-1]
    rows = iter(r["exact"])
    for i, (p, s, _) in enumerate(t.stands):
        for j, w in enumerate(final[i]):
            row = next(rows)
            assert (row["player"], row["stand"], row["slot"]) == (p, s, j)
            counts = per_wire[w]
            assert row["p"] == {str(k): F(n, consistent) for k, n in sorted(counts.items())}, (i, j)
    assert next(rows, None) is None
    return r


POOLED_WIRES = [{"blue": [1], "uncertain": [{"candidates": [1.1, 2.1, 3.1], "count": 2}]},
                {"blue": [1], "yellow": [1.1], "uncertain": [{"candidates": [1.5, 2.5], "count": 1}]}]


@pytest.mark.parametrize("seed", range(50))
def test_oracle_matches_naive_permutations(seed: int) -> None:
    rng = random.Random(1000 + seed)
    if seed < 40:
        layout = rng.choice([[[2], [2]], [[2], [3]], [[1, 2], [3]], [[2], [2], [2]], [[3], [1], [2]]])
        table, _ = random_game(rng, stands=layout)
    else:  # uncertain pools are rare above; force them (6 tiles in play)
        layout = rng.choice([[[3], [3]], [[2, 1], [3]], [[2], [2], [2]]])
        table, _ = random_game(rng, stands=layout, wires=POOLED_WIRES[seed % 2])
    assert_oracle_equals_naive(table)


# ------------------------------------------------------------- generated games


def _in_play(wires: dict[str, Any]) -> tuple[Counter[float], list[tuple[list[float], int]]]:
    if "deck" in wires:
        return Counter({float(k): n for k, n in wires["deck"].items()}), []
    fixed = Counter({float(v): 4 for v in wires.get("blue", [])})
    fixed.update(float(k) for k in wires.get("yellow", []) + wires.get("red", []))
    return fixed, [(list(map(float, p["candidates"])), p["count"]) for p in wires.get("uncertain", [])]


def assert_legal(table: dict[str, Any], deal: list[list[list[float]]]) -> set[tuple[int, int, int]]:
    """Independent check that ``deal`` fits the table and every event is a legal
    move on it (rules.md §2, §3); returns the cut slots."""
    players = table["players"]
    assert [[len(s) for s in hand] for hand in deal] == [p["stands"] for p in players]
    assert all(stand == sorted(stand) for hand in deal for stand in hand)
    dealt = Counter(float(k) for hand in deal for stand in hand for k in stand)
    fixed, pools = _in_play(table["wires"])
    extra = dealt - fixed
    assert not fixed - dealt and all(n == 1 for n in extra.values())
    for cands, count in pools:
        assert sum(extra.pop(c, 0) for c in cands) == count
    assert not extra
    if "me" in table:
        assert table["me"]["stands"] == deal[table["me"]["player"]]

    def g(at: tuple[int, int, int]) -> int | str:
        return gameplay(deal[at[0]][at[1]][at[2]])

    def uncut(p: int) -> set[tuple[int, int, int]]:
        return {(p, s, j) for s, stand in enumerate(deal[p]) for j in range(len(stand))} - cut

    cut: set[tuple[int, int, int]] = set()
    setup_done, tokens_placed = False, set()
    for ev in table["events"]:
        if ev["type"] == "info_token":  # setup: one per player, own blue wire
            at = ev["at"]
            assert not setup_done and at["player"] not in tokens_placed
            tokens_placed.add(at["player"])
            slot = (at["player"], at["stand"], at["slot"])
            assert isinstance(g(slot), int) and g(slot) == ev["value"]
            continue
        setup_done = True
        actor, mine = ev["actor"], uncut(ev["actor"])
        if ev["type"] == "dual_cut":
            target = (ev["target"]["player"], ev["target"]["stand"], ev["target"]["slot"])
            v = ev["value"]
            assert target[0] != actor and target not in cut and v != "red"
            assert any(g(s) == v for s in mine)
            if ev["success"]:
                own = (actor, ev["actor_slot"]["stand"], ev["actor_slot"]["slot"])
                assert own in mine and g(target) == v == g(own)
                if "keys" in ev:
                    assert ev["keys"] == {"target": deal[target[0]][target[1]][target[2]],
                                          "actor": deal[own[0]][own[1]][own[2]]}
                cut |= {target, own}
            else:
                assert g(target) not in (v, "red")
                assert ev["token"] in (None, g(target))
        elif ev["type"] == "solo_cut":
            v = ev["value"]
            slots = {(actor, w["stand"], w["slot"]) for w in ev["slots"]}
            everywhere = set().union(*(uncut(p) for p in range(len(players))))
            assert slots <= mine and slots == {s for s in everywhere if g(s) == v}
            if isinstance(v, int) and fixed[float(v)] == 4:
                assert len(slots) in (2, 4)
            cut |= slots
        elif ev["type"] == "reveal_red":
            slots = {(actor, w["stand"], w["slot"]) for w in ev["slots"]}
            assert slots == mine and mine and all(g(s) == "red" for s in mine)
            assert all(w["value"] == deal[actor][w["stand"]][w["slot"]] for w in ev["slots"])
            cut |= slots
        else:
            raise AssertionError(f"unknown event {ev!r}")
    return cut


@pytest.mark.parametrize("seed", range(400))
def test_generated_events_are_legal(seed: int) -> None:
    table, deal = random_game(random.Random(seed))
    assert_legal(table, deal)
    assert is_consistent(table, deal)


@pytest.mark.parametrize("seed", range(150))
def test_true_deal_is_a_world_of_the_oracle(seed: int) -> None:
    table, deal = random_game(random.Random(seed))
    r = enumerate_table(table)
    assert r["consistent"] and r["worlds"] > 0
    cut = assert_legal(table, deal)
    for row in r["exact"]:
        true_key = deal[row["player"]][row["stand"]][row["slot"]]
        assert row["p"][str(true_key)] > 0
        assert sum(row["p"].values()) == 1
        assert row["cut"] == ((row["player"], row["stand"], row["slot"]) in cut)


def test_generator_options() -> None:
    rng = random.Random(7)
    table, deal = random_game(rng, stands=[[3, 3], [4], [3]], me=1, turns=0, setup_tokens=False)
    assert [p["stands"] for p in table["players"]] == [[3, 3], [4], [3]]
    assert table["me"] == {"player": 1, "stands": deal[1]} and table["events"] == []
    for players, shape in [(2, [2, 2]), (3, [2, 1, 1]), (4, [1] * 4), (5, [1] * 5)]:
        table, _ = random_game(rng, players=players, me=False)
        assert [len(p["stands"]) for p in table["players"]] == shape and "me" not in table
        sizes = [n for p in table["players"] for n in p["stands"]]
        assert sizes == sorted(sizes, reverse=True) and sizes[0] - sizes[-1] <= 1
    wires = {"blue": [1, 2], "uncertain": [{"candidates": [1.5, 2.5, 3.5], "count": 2}]}
    table, deal = random_game(rng, players=2, wires=wires, setup_tokens=True, turns=30)
    assert table["wires"] == wires
    assert [e["type"] for e in table["events"][:2]] == ["info_token"] * 2
    assert_legal(table, deal)
    table, deal = random_game(rng, players=4, sizes="random", wires={"blue": [1, 2, 3]})
    assert sum(n for p in table["players"] for n in p["stands"]) == 12
    assert all(n >= 1 for p in table["players"] for n in p["stands"])
    assert_legal(table, deal)
    with pytest.raises(TypeError):
        random_game(rng, colour="blue")


# ------------------------------------------------------------- full-rules games


def _full_options(rng: random.Random) -> dict[str, Any]:
    return {"special": rng.choice([None, *SPECIALS, "mixed"]), "nano": rng.choice([0, 0, 1, 2]),
            "token_mode": rng.choice(TOKEN_MODES), "counts_as_red": rng.random() < 0.15}


@pytest.mark.parametrize("seed", range(200))
def test_full_game_true_deal_is_a_world_of_the_oracle(seed: int) -> None:
    rng = random.Random(50_000 + seed)
    table, deal = random_game(rng, full=_full_options(rng))
    assert is_consistent(table, deal)
    r = enumerate_table(table)
    assert r["consistent"]
    rows = iter(r["exact"])
    for p, hand in enumerate(deal.final):
        for s, stand in enumerate(hand):
            for j, key in enumerate(stand):
                row = next(rows)
                assert (row["player"], row["stand"], row["slot"]) == (p, s, j)
                assert row["p"][str(key)] > 0 and sum(row["p"].values()) == 1
                assert row["cut"] == ((p, s, j) in deal.final_cut)
    assert next(rows, None) is None


def test_full_games_use_every_event_and_stand_kind() -> None:
    seen_events: Counter[str] = Counter()
    seen_stands: Counter[str] = Counter()
    for seed in range(120):
        rng = random.Random(60_000 + seed)
        if seed % 3 == 0:  # plain stands, detector-heavy: triples need 3 free sorted wires
            table, _ = random_full_game(rng, kinds={"detector": 3.0, "success": 1.0}, turns=8)
        else:
            table, _ = random_full_game(rng, **_full_options(rng), turns=8)
        for ev in table["events"]:
            seen_events[ev["type"]] += 1
            seen_events.update(f"{ev['type']}:{k}" for k in ("values", "stabilizer", "parity", "count", "false")
                               if k in ev)
            if ev["type"] == "detector":
                seen_events[f"detector:{ev['kind']}:{ev['success']}"] += 1
                seen_events[f"detector:{ev['kind']}"] += 1
            if ev["type"] == "move" and ev["from"] == "nano":
                seen_events["move:nano"] += 1
        for player in table["players"]:
            for st in player["stands"]:
                seen_stands[str(st.get("x_slot") or st.get("flipped")) if isinstance(st, dict) else "plain"] += 1
    for kind in ("info_token", "dual_cut", "solo_cut", "reveal_red", "detector", "radar", "label",
                 "fast_pass", "disintegrator", "move", "swap", "absent", "dealt", "multi_cut", "tripwire",
                 "dual_cut:values", "dual_cut:stabilizer", "detector:values", "info_token:parity",
                 "info_token:count", "info_token:false", "move:nano", "detector:double:True",
                 "detector:double:False", "detector:triple", "detector:super:False"):
        assert seen_events[kind] > 0, kind
    assert set(seen_stands) == {"plain", "any", "blue", "1", "2", "low", "high"}


@pytest.mark.parametrize("seed", range(40))
def test_oracle_matches_naive_on_full_games(seed: int) -> None:
    rng = random.Random(70_000 + seed)
    special = [None, "x_any", "x_blue", "flip1", "flip2", "lowhigh", "mixed"][seed % 7]
    nano = 1 if seed % 5 == 0 else 0
    stands = [[3], [2]] if special != "lowhigh" else [[2, 2], [1]]
    if special == "flip2":
        stands = [[3], [3]] if nano == 0 else [[3], [2]]
    wires = {"deck": {"1": 2, "2": 2, "1.1": 1, "1.5": 1}} if seed % 2 else {"deck": {"1": 2, "2": 2, "3": 2}}
    while sum(map(sum, stands)) + nano < 6:
        stands[-1][-1] += 1
    while sum(map(sum, stands)) + nano > 6:
        stands[-1][-1] -= 1
    table, deal = random_full_game(rng, stands=stands, wires=wires, special=special, nano=nano,
                                   token_mode=rng.choice(TOKEN_MODES), turns=rng.randint(1, 5))
    assert is_consistent(table, deal)
    assert_oracle_equals_naive(table)
