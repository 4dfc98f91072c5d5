"""Engine parity on random fact-level problems: columns == brute, exactly.

Problems are built from a random true deal, so they are consistent by
construction; the facts are random truths about that deal (slot domains
that contain the true key, count facts whose bounds hold), which exercises
every code path of the engines: fixed stands, interchangeable stands, pool
pseudo-stands, single-key and multi-key count trackers, two-stand hands.
"""
from __future__ import annotations

import os
import random
from fractions import Fraction

import pytest

from bombbuster_core.beliefs import Inconsistent
from bombbuster_core.engines import brute, columns
from bombbuster_core.facts import CountIn, Problem, Stand

KEYS = [10, 20, 21, 30, 35, 40, 41, 50]


def random_problem(rng: random.Random) -> tuple[Problem, list[list[int]]]:
    n_keys = rng.randint(2, 5)
    keys = sorted(rng.sample(KEYS, n_keys))
    copies = {k: (rng.randint(1, 3) if k % 10 == 0 else 1) for k in keys}
    tiles = [k for k, c in copies.items() for _ in range(c)]
    rng.shuffle(tiles)
    n_stands = rng.randint(2, 4)
    cuts = sorted(rng.sample(range(1, len(tiles)), min(n_stands - 1, len(tiles) - 1)))
    sizes = [b - a for a, b in zip([0] + cuts, cuts + [len(tiles)])]
    stands = tuple(Stand(i if i < len(sizes) - 1 or rng.random() < 0.7 else None, 0, n) for i, n in enumerate(sizes))
    deal, at = [], 0
    for n in sizes:
        deal.append(sorted(tiles[at:at + n]))
        at += n
    domains = {}
    all_keys = frozenset(keys)
    for s, row in enumerate(deal):
        fixed = rng.random() < 0.2
        for j, k in enumerate(row):
            r = rng.random()
            if fixed or r < 0.15:
                domains[(s, j)] = frozenset((k,))
            elif r < 0.4:
                domains[(s, j)] = frozenset(rng.sample(keys, rng.randint(1, len(keys)))) | {k}
            elif r < 0.5:
                domains[(s, j)] = all_keys - frozenset(rng.sample([x for x in keys if x != k], min(1, len(keys) - 1)))
    counts = []
    for _ in range(rng.randint(0, 3)):
        owner = rng.sample(range(len(sizes)), rng.randint(1, min(2, len(sizes))))
        slots = frozenset((s, j) for s in owner for j in range(sizes[s]) if rng.random() < 0.8)
        if not slots:
            continue
        fact_keys = frozenset(rng.sample(keys, rng.randint(1, min(3, len(keys)))))
        true = sum(deal[s][j] in fact_keys for s, j in slots)
        kind = rng.random()
        lo, hi = (true, true) if kind < 0.3 else (min(true, 1), len(slots)) if kind < 0.7 else (0, true)
        counts.append(CountIn(slots, fact_keys, lo, hi))
    return Problem(copies, stands, domains, tuple(counts)), deal


def exact_table(problem: Problem, engine) -> tuple[int, dict]:
    b = engine(problem)
    return b.worlds, {pos: b.exact(pos) for pos in b.weights}


@pytest.mark.parametrize("seed", range(1500))
def test_columns_equals_brute_on_random_problems(seed: int) -> None:
    rng = random.Random(seed)
    problem, deal = random_problem(rng)
    worlds, marg = exact_table(problem, brute.analyze)
    assert exact_table(problem, columns.analyze) == (worlds, marg)
    # The true deal is possible, so every true key has positive probability.
    for s, row in enumerate(deal):
        for j, k in enumerate(row):
            assert marg[(s, j)][k] > 0
            assert sum(marg[(s, j)].values()) == 1


def test_inconsistent_problem_is_refused_by_both() -> None:
    p = Problem({10: 2, 20: 2}, (Stand(0, 0, 2), Stand(1, 0, 2)),
                {(0, 0): frozenset({20}), (1, 0): frozenset({20}), (0, 1): frozenset({20})})
    for engine in (brute.analyze, columns.analyze):
        with pytest.raises(Inconsistent):
            engine(p)


def test_two_by_two_by_hand() -> None:
    # Tiles {1,1,2,2} on two stands of 2.  Count matrices (stand 0 row):
    # [2,0] -> 11|22 weight 2!2!/(2!0!0!2!) = 1; [1,1] -> 12|12 weight 2!2!/(1!1!1!1!) = 4;
    # [0,2] -> 22|11 weight 1.  Total 6 = C(4,2).  P(stand 0 slot 0 is 1) = (1+4)/6.
    p = Problem({10: 2, 20: 2}, (Stand(0, 0, 2), Stand(1, 0, 2)))
    for engine in (brute.analyze, columns.analyze):
        b = engine(p)
        assert b.worlds == 6
        assert b.exact((0, 0)) == {10: Fraction(5, 6), 20: Fraction(1, 6)}
        assert b.exact((0, 1)) == {10: Fraction(1, 6), 20: Fraction(5, 6)}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the forked sweep needs fork")
def test_forked_sweeps_give_the_serial_answer(monkeypatch) -> None:
    """The CLI runs the mirrored sweep in a forked child: same exact answer, on small tables too."""
    problems = [random_problem(random.Random(seed))[0] for seed in range(40)]
    serial = [exact_table(p, columns.analyze) for p in problems]
    monkeypatch.setattr(columns, "PARALLEL_SWEEPS", True)
    monkeypatch.setattr(columns, "PARALLEL_MIN_STATES", 0)
    forks = []
    fork = os.fork
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or fork())
    assert [exact_table(p, columns.analyze) for p in problems] == serial
    assert len(forks) == len(problems)


def random_variants(problem: Problem, rng: random.Random) -> list[list[tuple[frozenset, frozenset]]]:
    """1-4 random variants, each 1-2 exclusions "these slots of one stand hold none of these keys"."""
    keys = list(problem.copies)
    variants = []
    for _ in range(rng.randint(1, 4)):
        variant = []
        for _ in range(rng.choice([1, 1, 2])):
            s = rng.randrange(len(problem.stands))
            slots = frozenset((s, j) for j in range(problem.stands[s].size) if rng.random() < 0.8)
            variant.append((slots, frozenset(rng.sample(keys, rng.randint(1, min(2, len(keys)))))))
        variants.append(variant)
    return variants


@pytest.mark.parametrize("seed", range(800))
def test_excluding_variants_equal_brute_on_each_variant(seed: int) -> None:
    """analyze_excluding runs every variant packed in one sweep: each must be exactly brute's answer."""
    rng = random.Random(50_000 + seed)
    problem, _ = random_problem(rng)
    variants = random_variants(problem, rng)
    base, got = columns.analyze_excluding(problem, variants)
    assert (base.worlds, {pos: base.exact(pos) for pos in base.weights}) == exact_table(problem, brute.analyze)
    for variant, beliefs in zip(variants, got):
        try:
            want = exact_table(columns.restricted(problem, variant), brute.analyze)
        except Inconsistent:
            want = None
        assert (None if beliefs is None else (beliefs.worlds, {pos: beliefs.exact(pos) for pos in beliefs.weights})) == want
