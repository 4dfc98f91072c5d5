"""The columns engine's one-pass joint of a stand's fill around a key (``Swept.run_joint``) against brute force.

``run_joint(stand, key)`` says, per (f0, f1), how much weight the deals have
in which the stand holds the key on exactly its slots f0 .. f1 - 1.  Brute
force gets each cell as the worlds of the problem with those slots fixed to
the key and their neighbours barred from it.  Problems are the engine
tests' random ones (count facts, fixed stands, pools), with order and value
facts and run rules, with variants (each component checked on its own
restricted problem), and with interchangeable stands (groups, where the
engine splits which member moved how: ``_member_moves``).
"""
from __future__ import annotations

import random

import pytest

from bombbuster_core.beliefs import Inconsistent
from bombbuster_core.engines import brute, columns
from bombbuster_core.facts import Problem, Stand

from test_engines import random_problem, random_variants, relation_problem, run_problem


def brute_cells(problem: Problem, stand: int, key: int) -> dict[tuple[int, int], int]:
    """(f0, f1) -> weight of the deals holding ``key`` on exactly slots f0 .. f1 - 1 of ``stand``."""
    n = problem.stands[stand].size
    out = {}
    for f0 in range(n + 1):
        for f1 in range(f0, n + 1):
            p = problem
            for j, keep in ((j, {key}) for j in range(f0, f1)):
                p = p.restrict((stand, j), p.domain((stand, j)) & keep)
            if f0:  # sorted: the slot before the run holds a lower key, the one after a higher
                p = p.restrict((stand, f0 - 1), frozenset(k for k in p.domain((stand, f0 - 1)) if k < key))
            if f1 < n:
                p = p.restrict((stand, f1), frozenset(k for k in p.domain((stand, f1)) if k > key))
            try:
                w = brute.analyze(p).worlds
            except Inconsistent:
                continue
            out[(f0, f1)] = w
    return out


def check(problem: Problem, variants: list, rng: random.Random, pairs: int = 3) -> int:
    """run_joint of a few (stand, key) pairs equals brute force in every component; returns cells checked."""
    try:
        swept = columns.Swept(problem, variants)
    except Inconsistent:
        return 0
    checked = 0
    targets = [(s, k) for s in range(len(problem.stands)) for k in problem.keys]
    for stand, key in rng.sample(targets, min(pairs, len(targets))):
        got = swept.run_joint(stand, key, range(len(variants) + 1))
        for c, table in enumerate(got):
            p = columns.restricted(problem, variants[c - 1]) if c else problem
            want = brute_cells(p, stand, key)
            have = {cell: w * swept.prep.multiplier for cell, w in table.items() if w}
            assert have == want, (stand, key, c)
            checked += len(want)
    return checked


def grouped_problem(seed: int) -> tuple[Problem, list]:
    """A random deck on 2-4 alike stands (a group) and a stand of the rest, whose domains
    and variants (when asked) name only that last stand."""
    rng = random.Random(seed)
    problem, deal = random_problem(rng, n_keys=(2, 4))
    tiles = sorted(k for row in deal for k in row)
    g = rng.randint(2, min(4, len(tiles)))
    size = rng.randint(1, len(tiles) // g)
    sizes = [size] * g + ([len(tiles) - g * size] if len(tiles) > g * size else [])
    stands = tuple(Stand(i, 0, n) for i, n in enumerate(sizes))
    domains = {}
    if len(sizes) > g:
        rest = sorted(tiles[g * size:]) if rng.random() < 0.5 else sorted(rng.sample(tiles, sizes[-1]))
        for j, k in enumerate(rest):
            if rng.random() < 0.3:
                domains[(g, j)] = frozenset({k})
    problem = Problem(problem.copies, stands, domains)
    variants = []
    if len(sizes) > g and rng.random() < 0.5:
        variants = [[(frozenset((g, j) for j in range(sizes[-1])), frozenset(rng.sample(problem.keys, 1)))]]
    return problem, variants


@pytest.mark.parametrize("chunk", range(4))
def test_run_joint_equals_brute_on_random_problems(chunk: int) -> None:
    cells = 0
    for seed in range(chunk * 100, (chunk + 1) * 100):
        rng = random.Random(seed)
        problem, _ = random_problem(rng)
        cells += check(problem, random_variants(problem, rng) if rng.random() < 0.5 else [], rng)
    assert cells > 500


@pytest.mark.parametrize("chunk", range(2))
def test_run_joint_equals_brute_with_order_value_facts_and_run_rules(chunk: int) -> None:
    cells = 0
    for seed in range(chunk * 100, (chunk + 1) * 100):
        rng = random.Random(seed)
        problem, _ = relation_problem(30_000 + seed, "ocs") if seed % 2 else run_problem(40_000 + seed)
        cells += check(problem, random_variants(problem, rng) if rng.random() < 0.3 else [], rng)
    assert cells > 300


@pytest.mark.parametrize("chunk", range(2))
def test_run_joint_of_interchangeable_stands_equals_brute(chunk: int) -> None:
    groups = 0
    for seed in range(chunk * 100, (chunk + 1) * 100):
        rng = random.Random(seed)
        problem, variants = grouped_problem(60_000 + seed)
        try:
            groups += bool(columns.Prepared(problem, variants).groups)
        except columns.Zero:
            continue
        check(problem, variants, rng, pairs=4)
    assert groups >= 90


@pytest.mark.parametrize("chunk", range(2))
def test_worlds_excluding_equals_brute(chunk: int) -> None:
    """The forward sweep's worlds of the problem and of each variant: brute's worlds, 0 where none."""
    for seed in range(chunk * 150, (chunk + 1) * 150):
        rng = random.Random(80_000 + seed)
        problem, _ = random_problem(rng) if seed % 3 else relation_problem(85_000 + seed, "ocs")
        variants = random_variants(problem, rng)
        want = []
        for p in [problem] + [columns.restricted(problem, v) for v in variants]:
            try:
                want.append(brute.analyze(p).worlds)
            except Inconsistent:
                want.append(0)
        assert columns.worlds_excluding(problem, variants) == want, seed
