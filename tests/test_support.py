"""The boolean run's slot supports (engines/columns/support.py) against counting analyses.

Every variant's supports (which keys each slot holds in some deal), with its
exclusions and "these slots hold key k", must be those of a counting columns
analysis of the problem so restricted; the boolean run may decline a plan
(None), never answer one differently.
"""
from __future__ import annotations

import random

import pytest

from bombbuster_core.beliefs import Inconsistent
from bombbuster_core.engines import columns
from bombbuster_core.engines.columns import support
from bombbuster_core.facts import CountIn, compile_table
from bombbuster_core.table import load_table
from gamegen import random_full_game, random_game


def counted_supports(problem, variant, holds):
    """The supports by a counting analysis of ``problem`` with the variant's exclusions and count."""
    problem = columns.restricted(problem, variant)
    if holds is not None:
        slots, key = holds
        problem = problem.with_count(CountIn(slots, frozenset((key,)), 1, len(slots)))
    try:
        b = columns.analyze(problem)
    except Inconsistent:
        return None
    return {pos: frozenset(row) for pos, row in b.weights.items()}


def random_variants(rng, problem, n):
    """Exclusions of a few slots' keys and, mostly, "one stand's slots hold key k"."""
    slots = [(s, j) for s, stand in enumerate(problem.stands) for j in range(stand.size)]
    keys = sorted(problem.copies)
    out = []
    for _ in range(n):
        variant = []
        for pos in rng.sample(slots, rng.randint(0, min(2, len(slots)))):
            variant.append((frozenset((pos,)), frozenset(rng.sample(sorted(problem.domain(pos)),
                                                                    rng.randint(0, len(problem.domain(pos)))))))
        holds = None
        if rng.random() < 0.7:
            stand = rng.choice(slots)[0]
            mine = [p for p in slots if p[0] == stand]
            holds = (frozenset(rng.sample(mine, rng.randint(1, len(mine)))), rng.choice(keys))
        out.append((variant, holds))
    return out


def check(problem, rng, n=12) -> bool:
    variants = random_variants(rng, problem, n)
    got = support.supports(problem, variants, float("inf"))
    if got is None:
        return False
    for (variant, holds), sup in zip(variants, got):
        assert sup == counted_supports(problem, variant, holds), (variant, holds)
    return True


def test_supports_equal_counting_analyses() -> None:
    """Random small games, some with a count fact over two keys; a plan with interchangeable
    stands no variant names is declined."""
    rng = random.Random(7100)
    ran = 0
    for _ in range(40):
        table, _ = random_game(rng, players=rng.choice([3, 4]), me=rng.random() < 0.5, turns=rng.randint(0, 6),
                               setup_tokens=rng.random() < 0.5)
        problem = compile_table(load_table(table))
        if rng.random() < 0.6:  # a count over several keys: its trackers span key boundaries at the join
            slots = [(s, j) for s, stand in enumerate(problem.stands) for j in range(stand.size)]
            at = frozenset(rng.sample(slots, rng.randint(2, min(6, len(slots)))))
            problem = problem.with_count(CountIn(at, frozenset(rng.sample(sorted(problem.copies), 2)), 1,
                                                 rng.randint(1, len(at))))
            try:
                columns.analyze(problem)
            except Inconsistent:
                continue
        ran += check(problem, rng)
    assert ran >= 25


def test_supports_equal_counting_analyses_under_the_full_rules() -> None:
    """Count facts spanning key boundaries (joined as the counting join does), orders, and
    the plans the boolean run declines (groups, run rules, value checks)."""
    rng = random.Random(7200)
    ran = 0
    for _ in range(40):
        table, _ = random_full_game(rng, players=rng.choice([3, 4]), turns=rng.randint(2, 8))
        problem = compile_table(load_table(table))
        try:
            columns.analyze(problem)
        except Inconsistent:
            continue
        ran += check(problem, rng, 6)
    assert ran >= 10


def test_the_boolean_run_is_held_to_its_budget(monkeypatch) -> None:
    """Past its budget the run stops (EngineLimit), and the entropy mode is refused with it
    (the counting runs would cost many times the boolean run's work)."""
    from bombbuster_core.beliefs import EngineLimit
    from bombbuster_core.suggest import entropy

    table, _ = random_game(random.Random(7300), players=4, me=False, turns=0)
    problem = compile_table(load_table(table))
    variants = random_variants(random.Random(7301), problem, 4)
    with pytest.raises(EngineLimit):
        support.supports(problem, variants, 50)
    assert support.supports(problem, variants, float("inf")) is not None
    slots = frozenset((0, j) for j in range(problem.stands[0].size))
    # a restriction to its whole domain on each stand: no stand is interchangeable, so the run is not declined
    whole = {((s, 0), problem.domain((s, 0))) for s in range(len(problem.stands))}
    condition = frozenset({CountIn(slots, frozenset((min(problem.copies),)), 1, len(slots)), *whole})
    monkeypatch.setattr(columns, "BUDGET", 50)
    with pytest.raises(EngineLimit, match="too large for the entropy mode: the boolean run of its 1 branch analyses goes past"):
        entropy.support_entropies(problem, [condition], ((1, 0),))
    monkeypatch.setattr(columns, "BUDGET", float("inf"))
    assert entropy.support_entropies(problem, [condition], ((1, 0),)) is not None



def test_a_count_at_its_upper_bound_takes_no_more_copies() -> None:
    """Exactly one 3 among five slots: the backward pass must drop a copy landing on a counted
    slot once the count is full, as the forward one does, though the state it would reach is
    also reached legally (a case found by search: without that check in the backward pass,
    P0's first stand's three first slots were said to hold a 3)."""
    table = {"players": [{"stands": [4, 4]}, {"stands": [4]}, {"stands": [3]}],
             "wires": {"blue": [1, 2, 3], "yellow": [1.1, 2.1], "red": [2.5]}}
    problem = compile_table(load_table(table))
    counted = frozenset({(0, 0), (0, 2), (0, 3), (1, 1), (3, 0)})
    problem = problem.with_count(CountIn(counted, frozenset((30,)), 1, 1))
    [sup] = support.supports(problem, [([], None)], float("inf"))
    assert sup == counted_supports(problem, [], None)
    assert 30 not in sup[(0, 0)] | sup[(0, 1)] | sup[(0, 2)]


def test_past_the_kept_states_the_passes_run_again(monkeypatch) -> None:
    """With no forward pass kept (KEEP_STATES 0), the backward pass runs every key's passes
    again from the boundaries: the same supports, also under the full rules."""
    rng = random.Random(7400)
    compared = 0
    for i in range(12):
        if i % 2:
            table, _ = random_full_game(rng, players=rng.choice([3, 4]), turns=rng.randint(2, 8))
        else:
            table, _ = random_game(rng, players=rng.choice([3, 4]), me=False, turns=rng.randint(0, 6),
                                   setup_tokens=True)
        problem = compile_table(load_table(table))
        try:
            columns.analyze(problem)
        except Inconsistent:
            continue
        variants = random_variants(rng, problem, 10)
        kept = support.supports(problem, variants, float("inf"))
        monkeypatch.setattr(support, "KEEP_STATES", 0)
        again = support.supports(problem, variants, float("inf"))
        monkeypatch.undo()
        assert kept == again
        compared += kept is not None
    assert compared >= 6


def test_a_run_its_estimate_puts_past_the_budget_is_refused_at_once(monkeypatch) -> None:
    """The M64 5-player preset's entropy ranking (857 branches): the plan's estimate, 15.9
    million states, times WORK_PER_ESTIMATE passes the 20 million budget, so the run is
    refused before any sweep (it ran ~80 s and took 3.7 GB before its count stopped it)."""
    from bombbuster_core.beliefs import EngineLimit
    from bombbuster_core.missions import new_table
    from bombbuster_core.suggest import suggest

    def no_sweep(*args):
        raise AssertionError("swept")

    monkeypatch.setattr(support, "_forward", no_sweep)
    with pytest.raises(EngineLimit, match="too large for the entropy mode: the boolean run of its 857 branch"):
        suggest(load_table(new_table(64, 5)), mode="entropy", player=0)
