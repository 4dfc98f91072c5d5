"""The Double Detector search's one-pass joints equal the per-pair analyses and brute force, exactly.

With the columns engine, P(some slot of W holds v | the player holds v)
comes from one pass over key v of the run that conditioned on "holds v"
(``Detectors.run_joint``); without it (other engines) from single and
pairwise marginals, one conditioned analysis per neighbour pair.  Both are
exact, so they must agree as Fractions on every stand, value and slot set of
random legal games (basic and full rules, observer and public view); the
suggestion lists must be identical; and against brute-force sums over deals
(tests/test_suggest.py's enumerator) on small public tables whose alike
stands are interchangeable (the engine's groups).
"""
from __future__ import annotations

import random
from itertools import combinations

import pytest

from bombbuster_core.suggest import EQUIPMENT, Policy, suggest
from bombbuster_core.suggest.conditioning import Holding
from bombbuster_core.suggest.detectors import Detectors
from bombbuster_core.suggest.position import Position
from bombbuster_core.table import load_table

from gamegen import random_full_game, random_game
from test_suggest import EVERYTHING, Truth, check_against_truth, small_game


def per_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    """Force the per-pair path: no one-pass joint is available."""
    monkeypatch.setattr(Detectors, "run_joint", lambda self, family: None)


def detectors(table, player: int) -> Detectors:
    """The detector searches of ``player`` to move at ``table`` (loaded), as suggest() makes them."""
    position = Position(table, player, "columns", EVERYTHING)
    return Detectors(position, Holding(position))


def families(search: Detectors):
    """Every (family, slot set) the detector search may score: pairs, triples, whole stands."""
    position = search.position
    root = position.analyses.beliefs()
    if root is None:
        return
    values = position.held_values(root)
    search.holding.prefetch(values, None, None)
    for q, s in position.teammate_stands():
        run = position.sorted_run(q, s)
        if run is None:
            continue
        uncut = [j for j in range(position.board.segments[run[0]].size) if (run[0], j) not in position.board.cut]
        for v in values:
            if isinstance(v, int) and search.slot_probabilities((q, s, v)) is not None:
                for size in (2, 3):
                    for w in combinations(uncut, size):
                        yield (q, s, v), w
                if len(uncut) > 3:
                    yield (q, s, v), tuple(uncut)


def table_pairs(seed: int, full: bool) -> tuple[dict, int]:
    rng = random.Random(seed)
    if full:
        table, _ = random_full_game(rng, players=rng.choice([3, 4]), turns=rng.randint(0, 6), explode=0)
    else:
        table, _ = random_game(rng, players=rng.choice([3, 4, 5]), turns=rng.randint(0, 8))
    me = table.get("me")
    player = me["player"] if me else rng.randrange(len(table["players"]))
    return table, player


@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("chunk", range(3))
def test_one_pass_equals_per_pair_on_random_games(chunk: int, full: bool, monkeypatch) -> None:
    scored = 0
    for seed in range(chunk * 20, (chunk + 1) * 20):
        table, player = table_pairs(90_000 * full + seed, full)
        t = load_table(table)
        fast = detectors(t, player)
        want = {}
        with monkeypatch.context() as m:
            per_pair(m)
            slow = detectors(t, player)
            for family, w in families(slow):
                want[(family, w)] = slow.success(family, w)
        got = {(family, w): fast.success(family, w) for family, w in families(fast)}
        assert got == want, seed
        scored += len(got)
        one_pass = suggest(t, player=player, policy=EVERYTHING)
        with monkeypatch.context() as m:
            per_pair(m)
            slow_list = suggest(t, player=player, policy=EVERYTHING)
        assert one_pass["suggestions"] == slow_list["suggestions"], seed
    assert scored > (30 if full else 100)


@pytest.mark.parametrize("chunk", range(4))
def test_public_detectors_on_interchangeable_stands_equal_brute_force(chunk: int) -> None:
    """Public view, no setup token: teammates' alike stands form groups in the holding run."""
    grouped = 0
    for seed in range(chunk * 5, (chunk + 1) * 5):
        rng = random.Random(7000 + seed)
        table = small_game(rng, me=False, players=rng.choice([3, 4]), setup_tokens=False, turns=rng.randint(0, 2))
        player = rng.randrange(len(table["players"]))
        result = suggest(load_table(table), player=player, policy=EVERYTHING)
        assert result["incomplete"] == []
        check_against_truth(table, result, Truth(table, player))
        position = Position(load_table(table), player, "columns", EVERYTHING)
        Holding(position).prefetch(position.held_values(position.analyses.beliefs()), None, None)
        grouped += any(swept.prep.groups for swept, _ in position.analyses.swept.values())
    assert grouped >= 2


def test_default_policy_search_is_complete_on_a_public_table() -> None:
    """The default budget bounds engine runs; the joints no longer spend it (a 5-player public game)."""
    rng = random.Random(3)
    table, _ = random_game(rng, players=5, me=False, setup_tokens=False, turns=0)
    result = suggest(load_table(table), player=0)
    assert "double_detector" not in result["incomplete"]
    assert any(s["kind"] == "double_detector" for s in result["suggestions"])
    assert set(EQUIPMENT) >= set(Policy().equipment)
