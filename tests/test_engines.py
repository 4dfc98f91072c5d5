"""Engine parity on random fact-level problems: columns == brute, exactly.

Problems are built from a random true deal, so they are consistent by
construction; the facts are random truths about that deal (slot domains
that contain the true key, count facts whose bounds hold), which exercises
every code path of the engines: fixed stands, interchangeable stands, pool
pseudo-stands, single-key and multi-key count trackers, two-stand hands.
Order, SameValueCount and SameValue facts (``relation_problem``) are mostly
truths about the deal too, with a few false ones so that inconsistent
problems are compared as well; the deck then has several yellow and red
keys, so those classes span many keys.
"""
from __future__ import annotations

import os
import pickle
import random
from fractions import Fraction

import pytest

from bombbuster_core.beliefs import Inconsistent
from bombbuster_core.engines import brute, columns
from bombbuster_core.facts import CountIn, Order, Problem, SameValue, SameValueCount, Stand
from bombbuster_core.wires import value_of

KEYS = [10, 20, 21, 30, 35, 40, 41, 50]


def random_problem(rng: random.Random, key_pool: list[int] = KEYS, n_keys: tuple[int, int] = (2, 5)
                   ) -> tuple[Problem, list[list[int]]]:
    n_keys = rng.randint(*n_keys)
    keys = sorted(rng.sample(key_pool, n_keys))
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


# ---------------------------------------------------------------- order and value facts
#
# Order(lo, hi): key(lo) <= key(hi) (wires moved between stands keep their
# deal-time slot; they sit between their new neighbours).  SameValueCount and
# SameValue speak of gameplay values: each blue key alone, every yellow (n.1)
# and every red (n.5) one class.  The deck below has several yellow and red
# keys so those classes span many layers of the columns sweep.

VALUE_KEYS = [10, 11, 20, 21, 30, 31, 35, 40, 41, 45, 50]


def gameplay(key: int):
    return value_of(key)


def true_key(deal: list[list[int]], pos: tuple[int, int]) -> int:
    return deal[pos[0]][pos[1]]


def random_orders(problem: Problem, deal: list[list[int]], rng: random.Random, lie: float = 0.08) -> list[Order]:
    """1-4 order facts true of the deal (or, with probability ``lie`` each, a random orientation)."""
    slots = [(s, j) for s, row in enumerate(deal) for j in range(len(row))]
    facts: list[Order] = []

    def oriented(a, b) -> Order:
        ka, kb = true_key(deal, a), true_key(deal, b)
        if rng.random() < lie or ka == kb:
            return Order(*rng.sample([a, b], 2))
        return Order(a, b) if ka < kb else Order(b, a)

    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        multi = [s for s, row in enumerate(deal) if len(row) >= 2]
        if r < 0.25 and multi:  # two slots of one stand, either index order
            s = rng.choice(multi)
            a, b = rng.sample(range(len(deal[s])), 2)
            facts.append(oriented((s, a), (s, b)))
        elif r < 0.6:  # a wire moved next to other wires: it lies between its new neighbours
            p = rng.choice(slots)
            t = rng.randrange(len(deal))
            row = [(t, j) for j in range(len(deal[t])) if (t, j) != p]
            k = true_key(deal, p)
            fits = [i for i in range(len(row) + 1)
                    if (i == 0 or true_key(deal, row[i - 1]) <= k) and (i == len(row) or k <= true_key(deal, row[i]))]
            i = rng.choice(fits) if fits and rng.random() >= lie else rng.randrange(len(row) + 1)
            if i > 0:
                facts.append(Order(row[i - 1], p))
            if i < len(row):
                facts.append(Order(p, row[i]))
        elif r < 0.8 and len(slots) >= 3:  # a chain over three slots, any stands
            chain = sorted(rng.sample(slots, 3), key=lambda q: (true_key(deal, q), rng.random()))
            facts += [Order(chain[0], chain[1]), Order(chain[1], chain[2])]
        else:
            facts.append(oriented(*rng.sample(slots, 2)))
    return facts


def random_values(problem: Problem, deal: list[list[int]], rng: random.Random, kinds: str = "cs", lie: float = 0.08
                  ) -> list:
    """1-3 value facts ("c": SameValueCount, "s": SameValue) true of the deal, or with probability ``lie`` perturbed."""
    slots = [(s, j) for s, row in enumerate(deal) for j in range(len(row))]
    facts: list = []
    for _ in range(rng.randint(1, 3)):
        if rng.choice(kinds) == "c":
            at = rng.choice(slots)
            if rng.random() < 0.5:  # slots of at's stand
                pool = [(at[0], j) for j in range(len(deal[at[0]]))]
            else:  # across stands
                pool = [q for q in slots if q[0] == at[0] or rng.random() < 0.5]
            chosen = frozenset([at] + [q for q in pool if q != at and rng.random() < 0.7])
            count = sum(gameplay(true_key(deal, q)) == gameplay(true_key(deal, at)) for q in chosen)
            if rng.random() < lie:
                count = max(1, count + rng.choice([-1, 1]))
            facts.append(SameValueCount(at, chosen, count))
        else:
            a = rng.choice(slots)
            if rng.random() < 0.4 and len(deal[a[0]]) >= 2:  # adjacent, as labels are
                j = a[1] + 1 if a[1] + 1 < len(deal[a[0]]) else a[1] - 1
                b = (a[0], j)
            else:
                b = rng.choice([q for q in slots if q != a] or [a])
            equal = gameplay(true_key(deal, a)) == gameplay(true_key(deal, b))
            facts.append(SameValue(a, b, equal if rng.random() >= lie else not equal))
    return facts


def relation_problem(seed: int, kinds: str) -> tuple[Problem, list[list[int]]]:
    """A random problem (yellow and red keys in the deck) with order ("o") and/or value ("c", "s") facts."""
    rng = random.Random(seed)
    problem, deal = random_problem(rng, VALUE_KEYS, (3, 6))
    orders = random_orders(problem, deal, rng) if "o" in kinds else []
    values = random_values(problem, deal, rng, kinds.replace("o", "")) if kinds.replace("o", "") else []
    return problem.replace(orders=tuple(orders), values=tuple(values)), deal


def exact_or_none(problem: Problem, engine):
    try:
        return exact_table(problem, engine)
    except Inconsistent:
        return None


@pytest.mark.parametrize("kinds", ["o", "c", "s", "ocs"])
@pytest.mark.parametrize("chunk", range(4))
def test_columns_equals_brute_with_order_and_value_facts(kinds: str, chunk: int) -> None:
    """Orders alone, SameValueCount alone, SameValue alone (400 each) and all mixed (400)."""
    consistent = 0
    for seed in range(chunk * 100, (chunk + 1) * 100):
        problem, deal = relation_problem(seed, kinds)
        want = exact_or_none(problem, brute.analyze)
        assert exact_or_none(problem, columns.analyze) == want, (seed, problem)
        consistent += want is not None
    assert consistent >= 50  # most facts are truths about the deal: the test is not vacuous


@pytest.mark.parametrize("chunk", range(3))
def test_excluding_variants_equal_brute_with_order_and_value_facts(chunk: int) -> None:
    for seed in range(chunk * 100, (chunk + 1) * 100):
        problem, _ = relation_problem(90_000 + seed, "ocs")
        variants = random_variants(problem, random.Random(seed))
        try:
            base, got = columns.analyze_excluding(problem, variants)
        except Inconsistent:
            assert exact_or_none(problem, brute.analyze) is None, seed
            continue
        assert (base.worlds, {pos: base.exact(pos) for pos in base.weights}) == exact_table(problem, brute.analyze)
        for variant, beliefs in zip(variants, got):
            want = exact_or_none(columns.restricted(problem, variant), brute.analyze)
            assert (None if beliefs is None else (beliefs.worlds, {pos: beliefs.exact(pos) for pos in beliefs.weights})) == want, seed


def both_engines(problem: Problem) -> tuple[int, dict]:
    """The exact answer, asserted equal in brute and columns."""
    want = exact_table(problem, brute.analyze)
    assert exact_table(problem, columns.analyze) == want
    return want


def test_moved_wire_by_hand() -> None:
    """The modelling trap of moved wires: a moved wire keeps its deal-time slot.

    Keys 1, 1, 2 on stands of 2 and 1.  Deals: 11|2 weight 2!/2! = 1 and 12|1
    weight 2!/(1!1!) = 2, so the right wire of the 2-stand, (0, 1), is 1 with
    probability 1/3.  Move it next to (1, 0): it stays slot (0, 1) of the
    deal and the stands stay of sizes 2 and 1 (re-dealing a 1-stand and a
    2-stand would be another prior); only its order relative to its new
    neighbour is new.  An order the deal already implies leaves 1/3 (its
    old neighbour (0, 0) is <= it; (0, 0) is a 1 in both deals, so <= (1, 0)
    too); landing left of (1, 0) says key(0,1) <= key(1,0): only 11|2 is
    left; landing right says the converse: only 12|1.
    """
    base = Problem({10: 2, 20: 1}, (Stand(0, 0, 2), Stand(1, 0, 1)))
    worlds, marg = both_engines(base)
    assert worlds == 3 and marg[(0, 1)] == {10: Fraction(1, 3), 20: Fraction(2, 3)}
    for implied in ([Order((0, 0), (0, 1))], [Order((0, 0), (1, 0))], [Order((0, 0), (0, 1)), Order((0, 0), (1, 0))]):
        assert both_engines(base.replace(orders=tuple(implied))) == (worlds, marg)
    worlds, marg = both_engines(base.replace(orders=(Order((0, 1), (1, 0)),)))  # landed left of (1, 0)
    assert worlds == 1 and marg[(0, 1)] == {10: 1} and marg[(1, 0)] == {20: 1}
    worlds, marg = both_engines(base.replace(orders=(Order((1, 0), (0, 1)),)))  # landed right of (1, 0)
    assert worlds == 2 and marg[(0, 1)] == {20: 1} and marg[(1, 0)] == {10: 1}
    # An order against a sorted stand forces equality: key(0,1) <= key(0,0) means both are 1.
    worlds, marg = both_engines(base.replace(orders=(Order((0, 1), (0, 0)),)))
    assert worlds == 1 and marg[(0, 0)] == marg[(0, 1)] == {10: 1}


def test_yellow_value_facts_by_hand() -> None:
    """Yellow 1.1 and 2.1 are one gameplay value.  Keys 1, 1.1, 2.1 (one copy
    each) on stands of 2 and 1: three deals of weight 1, 1 1.1|2.1, 1 2.1|1.1,
    1.1 2.1|1."""
    base = Problem({10: 1, 11: 1, 21: 1}, (Stand(0, 0, 2), Stand(1, 0, 1)))
    assert both_engines(base)[0] == 3
    # (0,1) and (1,0) have equal values: both yellow (two deals), never 2.1 with 1.
    worlds, marg = both_engines(base.replace(values=(SameValue((0, 1), (1, 0), True),)))
    assert worlds == 2 and marg[(0, 0)] == {10: 1} and marg[(1, 0)] == {11: Fraction(1, 2), 21: Fraction(1, 2)}
    # Different values: the third deal only.
    worlds, marg = both_engines(base.replace(values=(SameValue((0, 1), (1, 0), False),)))
    assert worlds == 1 and marg[(1, 0)] == {10: 1}
    # Both wires of stand 0 equal: yellow 1.1 and 2.1.
    assert both_engines(base.replace(values=(SameValue((0, 0), (0, 1), True),)))[1][(1, 0)] == {10: 1}
    every = frozenset({(0, 0), (0, 1), (1, 0)})
    # "(0,0)'s value occurs twice on the table": it is yellow (the blue 1 is alone).
    worlds, marg = both_engines(base.replace(values=(SameValueCount((0, 0), every, 2),)))
    assert worlds == 1 and marg[(0, 0)] == {11: 1}
    # "... once": (0,0) is the blue 1, (0,1) either yellow.
    worlds, marg = both_engines(base.replace(values=(SameValueCount((0, 0), every, 1),)))
    assert worlds == 2 and marg[(0, 1)] == {11: Fraction(1, 2), 21: Fraction(1, 2)}
    # Within its own stand: (0,1)'s value twice on stand 0 only in 1.1 2.1|1.
    worlds, marg = both_engines(base.replace(values=(SameValueCount((0, 1), frozenset({(0, 0), (0, 1)}), 2),)))
    assert worlds == 1 and marg[(1, 0)] == {10: 1}
    with pytest.raises(Inconsistent):
        columns.analyze(base.replace(values=(SameValueCount((0, 0), every, 3),)))
    with pytest.raises(Inconsistent):
        brute.analyze(base.replace(values=(SameValueCount((0, 0), every, 3),)))


# ---------------------------------------------------------------- run rules
#
# A SameValueCount over one whole stand (an x-count token) and a label on two
# neighbours are, for each blue class their slots may hold, rules on the run of
# that key's copies on the stand (columns.Plan._block_table): these problems
# put such tokens everywhere — counts 1-3, at the stand's ends, several per
# stand and on several stands — and equal/different labels, mixed with count
# facts on the same stands (which send the rule back to the general check),
# other value facts, fixed stands, pools and groups.

RUN_KEYS = [10, 20, 30, 40, 50, 60, 11, 31, 15, 45]


def run_problem(seed: int) -> tuple[Problem, list[list[int]]]:
    rng = random.Random(seed)
    keys = sorted(rng.sample(RUN_KEYS, rng.randint(2, 6)))
    copies = {k: (rng.randint(1, 4) if k % 10 == 0 else 1) for k in keys}
    tiles = [k for k, c in copies.items() for _ in range(c)]
    rng.shuffle(tiles)
    n_stands = rng.randint(1, 4)
    cuts = sorted(rng.sample(range(1, len(tiles)), min(n_stands - 1, len(tiles) - 1)))
    sizes = [b - a for a, b in zip([0] + cuts, cuts + [len(tiles)])]
    if rng.random() < 0.2 and len(tiles) >= 4:  # two stands alike: a group, when no fact names them
        sizes = [2, 2, len(tiles) - 4] if len(tiles) > 4 else [2, 2]
    stands = tuple(Stand(i if i < len(sizes) - 1 or rng.random() < 0.7 else None, 0, n) for i, n in enumerate(sizes))
    deal, at = [], 0
    for n in sizes:
        deal.append(sorted(tiles[at:at + n]))
        at += n
    domains = {}
    for s, row in enumerate(deal):
        fixed = rng.random() < 0.15
        for j, k in enumerate(row):
            r = rng.random()
            if fixed or r < 0.1:
                domains[(s, j)] = frozenset((k,))
            elif r < 0.25:
                domains[(s, j)] = frozenset(rng.sample(keys, rng.randint(1, len(keys)))) | {k}
    values: list = []
    for _ in range(rng.randint(1, 4)):
        s = rng.randrange(len(deal))
        n = len(deal[s])
        j = rng.choice([0, n - 1]) if rng.random() < 0.3 else rng.randrange(n)
        count = sum(gameplay(k) == gameplay(deal[s][j]) for k in deal[s])
        r = rng.random()
        if r < 0.08:
            count = max(1, count + rng.choice([-1, 1]))
        elif r < 0.12:
            count = rng.randint(1, 3)
        values.append(SameValueCount((s, j), frozenset((s, i) for i in range(n)), count))
        if deal[s][j] % 10 != 5 and rng.random() < 0.5:  # as the compiler: a token's wire is not red
            domains[(s, j)] = frozenset(k for k in domains.get((s, j), keys) if k % 10 != 5)
    counts = []
    for _ in range(rng.choice([0, 0, 1, 2])):  # count facts, often on a token's stand (the rule stays a check)
        s = values[0].at[0] if rng.random() < 0.6 else rng.randrange(len(deal))
        slots = frozenset((s, j) for j in range(sizes[s]) if rng.random() < 0.8)
        if not slots:
            continue
        fact_keys = frozenset(rng.sample(keys, rng.randint(1, min(2, len(keys)))))
        true = sum(deal[t][j] in fact_keys for t, j in slots)
        counts.append(CountIn(slots, fact_keys, *((true, true) if rng.random() < 0.4 else (min(true, 1), len(slots)))))
    for _ in range(rng.choice([0, 0, 1, 2, 3])):  # labels on two neighbours: run rules for blue classes
        s = rng.randrange(len(deal))
        if len(deal[s]) >= 2:
            j = rng.randrange(len(deal[s]) - 1)
            equal = gameplay(deal[s][j]) == gameplay(deal[s][j + 1])
            a, b = rng.sample([(s, j), (s, j + 1)], 2)
            values.append(SameValue(a, b, equal if rng.random() >= 0.08 else not equal))
    if rng.random() < 0.3:
        values = values[len(values) // 2:]  # sometimes labels without tokens
    problem = Problem(copies, stands, domains, tuple(counts))
    if rng.random() < 0.2:
        values += random_values(problem, deal, rng, "s")
    return problem.replace(values=tuple(values)), deal


@pytest.mark.parametrize("chunk", range(6))
def test_columns_equals_brute_with_run_rules(chunk: int) -> None:
    consistent = runs = 0
    for seed in range(chunk * 150, (chunk + 1) * 150):
        problem, _ = run_problem(700_000 + seed)
        want = exact_or_none(problem, brute.analyze)
        assert exact_or_none(problem, columns.analyze) == want, (seed, problem)
        consistent += want is not None
        try:
            runs += bool(columns.Prepared(problem).runs)
        except columns.Zero:
            pass
    assert consistent >= 75 and runs >= 75, (consistent, runs)


@pytest.mark.parametrize("chunk", range(2))
def test_excluding_variants_equal_brute_with_run_rules(chunk: int) -> None:
    for seed in range(chunk * 150, (chunk + 1) * 150):
        problem, _ = run_problem(800_000 + seed)
        variants = random_variants(problem, random.Random(seed))
        try:
            base, got = columns.analyze_excluding(problem, variants)
        except Inconsistent:
            assert exact_or_none(problem, brute.analyze) is None, seed
            continue
        assert (base.worlds, {pos: base.exact(pos) for pos in base.weights}) == exact_table(problem, brute.analyze)
        for variant, beliefs in zip(variants, got):
            want = exact_or_none(columns.restricted(problem, variant), brute.analyze)
            assert (None if beliefs is None else (beliefs.worlds, {pos: beliefs.exact(pos) for pos in beliefs.weights})) == want, seed


# ---------------------------------------------------------------- work budget

def _setup_tables():
    """Every mission and player count at its public start, with a true token on a blue wire
    of every stand (value tokens; x-count tokens where the mission has them): what breaks
    the symmetry between stands, the hardest legal case for the columns engine."""
    from bombbuster_core.missions import MISSIONS, new_table
    from bombbuster_core.wires import parse_key

    for m in MISSIONS:
        for players in (2, 3, 4, 5):
            try:
                table = new_table(m, players)
            except Exception:
                continue
            rng = random.Random(m * 10 + players)
            w = table["wires"]
            keys = [v for v in w["blue"] for _ in range(4)] + list(w.get("yellow", [])) + list(w.get("red", []))
            for pool in w.get("uncertain", []):
                keys += rng.sample(pool["candidates"], pool["count"])
            rng.shuffle(keys)
            kinds = ["value"] + (["count"] if "count_tokens" in table["meta"].get("rules", []) else [])
            for kind in kinds:
                events, at = [], 0
                for p, pl in enumerate(table["players"]):
                    for s, n in enumerate(pl["stands"]):
                        n = n if isinstance(n, int) else n["size"]
                        stand = sorted(keys[at:at + n], key=parse_key)
                        at += n
                        blue = [j for j, k in enumerate(stand) if isinstance(k, int)]
                        if blue:
                            j = rng.choice(blue)
                            arg = {"count": stand.count(stand[j])} if kind == "count" else {"value": stand[j]}
                            events.append({"type": "info_token", "at": {"player": p, "stand": s, "slot": j}, **arg})
                yield f"M{m} {players}p {kind}", dict(table, events=events)


def _estimate(problem: Problem) -> int:
    prep = columns.Prepared(problem)
    return columns.estimated_states(columns.Plan(prep, False)) + columns.estimated_states(columns.Plan(prep, True))


def test_default_budget_admits_every_legal_setup() -> None:
    from bombbuster_core.facts import compile_table
    from bombbuster_core.table import load_table

    worst = max((_estimate(compile_table(load_table(t))), name) for name, t in _setup_tables())
    assert worst[0] < columns.BUDGET / 4, worst
    assert worst[0] > 100_000  # the scan reaches the big tables (M64 5p: about 1.6 million)


def test_estimate_kept_on_the_plan_answers_any_limit_as_a_new_run() -> None:
    """estimated_states keeps its running totals on the plan: asked again with another limit
    (higher, lower, none), it gives what a run held to that limit on a new plan gives."""
    from bombbuster_core.facts import compile_table
    from bombbuster_core.table import load_table

    rng = random.Random("estimate-kept")
    tables = [t for _, t in _setup_tables()]
    for table in rng.sample(tables, 16):
        problem = compile_table(load_table(table))
        full = columns.estimated_states(columns.Plan(columns.Prepared(problem), True))
        kept = columns.Plan(columns.Prepared(problem), True)
        for limit in rng.sample([0, 1, full // 7, full // 2, full - 1, full, full + 1, float("inf")], 8):
            new = columns.Plan(columns.Prepared(problem), True)
            assert columns.estimated_states(kept, limit) == columns.estimated_states(new, limit), limit


def test_estimate_is_close_to_the_states_visited() -> None:
    """On a 5-player public start with x-count tokens: the estimate is within 2x of the true count."""
    from bombbuster_core.facts import compile_table
    from bombbuster_core.table import load_table

    name, raw = next((n, t) for n, t in _setup_tables() if n == "M24 5p count")
    problem = compile_table(load_table(raw))
    prep = columns.Prepared(problem)
    visited = sum(len(s) for d in (False, True) for s in columns.Plan(prep, d).sweep())  # boundary states
    assert visited / 2 < _estimate(problem) < 20 * visited


def test_budget_refuses_oversized_tables_quickly() -> None:
    """Tables the format accepts but no rule deals: 600 wires on 5 players x 2 stands."""
    import time

    from bombbuster_core.beliefs import EngineLimit
    from bombbuster_core.facts import compile_table
    from bombbuster_core.missions import new_table
    from bombbuster_core.table import load_table

    table = new_table(1, 2)
    table["wires"] = {"deck": {str(v): 8 for v in range(1, 76)}}
    table["players"] = [{"name": f"P{p}", "stands": [60, 60]} for p in range(5)]
    problem = compile_table(load_table(table))
    t0 = time.process_time()
    with pytest.raises(EngineLimit, match=r"too large: about [\d,.]+ million states") as refused:
        columns.analyze(problem)
    # its code and fields for the page (beliefs.LIMIT_CODES), numbers not words
    assert refused.value.code == "states_budget" and refused.value.fields["budget"] == columns.BUDGET
    assert refused.value.fields["states"] > columns.BUDGET
    assert time.process_time() - t0 < 5
    # the same with a token on every stand (no interchangeable stands left): refused at once
    tokens = tuple(SameValueCount((s, 0), frozenset((s, j) for j in range(60)), 8) for s in range(10))
    with pytest.raises(EngineLimit):
        columns.analyze(problem.replace(values=tokens))


def test_budget_argument() -> None:
    from bombbuster_core.beliefs import EngineLimit

    problem, _ = random_problem(random.Random(3))
    n = _estimate(problem)
    assert n > 1
    with pytest.raises(EngineLimit, match="too large") as refused:
        columns.analyze(problem, budget=n - 1)
    assert refused.value.json() == {"code": "states_budget", "fields": {"states": n, "budget": n - 1}}
    with pytest.raises(EngineLimit):
        columns.analyze_excluding(problem, [], budget=n - 1)
    assert exact_table(problem, lambda p: columns.analyze(p, budget=n)) == exact_table(problem, brute.analyze)
    assert exact_table(problem, lambda p: columns.analyze(p, budget=float("inf"))) == exact_table(problem, brute.analyze)


def test_brute_refuses_before_searching(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mission 8's 4-player preset: refused from the count of the search's steps before the
    search makes a single split (it used to find out after 43-94 s of search)."""
    from bombbuster_core.facts import compile_table
    from bombbuster_core.missions import new_table
    from bombbuster_core.table import load_table

    def no_search(copies: int, room: list[int]):
        raise AssertionError("the search started")

    problem = compile_table(load_table(new_table(8, 4)))
    monkeypatch.setattr(brute, "splits", no_search)
    with pytest.raises(brute.TooLarge, match="too large for the brute engine: more than 10,000,000 steps") as refused:
        brute.analyze(problem)
    assert refused.value.json() == {"code": "brute_steps", "fields": {"limit": 10_000_000}}


@pytest.mark.parametrize("seed", range(60))
def test_brute_counts_its_search_before_making_it(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The count that decides is exact: with the step limit at the search's own steps it
    runs, one below it refuses (the deals are the last key's partial deals, counted alike)."""
    problem, _ = random_problem(random.Random(seed), n_keys=(3, 6))
    steps = 0
    splits = brute.splits

    def counted(copies: int, room: list[int]):
        nonlocal steps
        for split in splits(copies, room):
            steps += len(room) == len(problem.stands)  # a split of the search, not of its recursion
            yield split

    monkeypatch.setattr(brute, "splits", counted)
    try:
        brute.analyze(problem)
    except Inconsistent:
        pass
    monkeypatch.setattr(brute, "splits", splits)
    monkeypatch.setattr(brute, "MAX_STEPS", steps)
    assert brute.too_large(problem) is None
    monkeypatch.setattr(brute, "MAX_STEPS", steps - 1)
    assert brute.too_large(problem) == ("brute_steps", f"more than {steps - 1:,} steps of its search")


def _work(problem: Problem) -> tuple[int, list[int]]:
    """The estimate of both sweeps and the work each sweep counts (:class:`columns.Work`)."""
    prep = columns.Prepared(problem)
    estimate, done = 0, []
    for mirrored in (False, True):
        plan = columns.Plan(prep, mirrored)
        estimate += columns.estimated_states(plan)
        work = columns.Work(float("inf"), float("inf"))
        plan.sweep(work)
        done.append(work.visited)
    return estimate, done


def test_estimate_tracks_the_work_on_every_fact_kind() -> None:
    """Random legal full-rules games, each event kind made frequent, with every token mode and
    special stand: the estimate lies within 4x of the work the sweeps count (it once multiplied
    by the counters' values: 300x over on x-count tables).  Full-size figures:
    bench/bench_budget.py."""
    from gamegen import FULL_KINDS, SPECIALS, TOKEN_MODES, random_full_game

    from bombbuster_core.facts import compile_table
    from bombbuster_core.table import load_table

    checked = 0
    for i, kind in enumerate(FULL_KINDS):
        for j, mode in enumerate(TOKEN_MODES):
            rng = random.Random(f"estimate-{kind}-{mode}")
            weights = dict.fromkeys(FULL_KINDS, 1.0) | {kind: 10.0}
            table, _ = random_full_game(rng, token_mode=mode, special=([None] + list(SPECIALS))[(i + j) % 6],
                                        kinds=weights, setup_tokens=True, explode=0)
            try:
                estimate, done = _work(compile_table(load_table(table)))
            except columns.Zero:
                continue
            assert estimate / 4 <= sum(done) <= 4 * estimate, (kind, mode, estimate, done)
            checked += 1
    assert checked > 80


def _counted(fact_keys: range) -> Problem:
    """Two count facts whose counters the estimate leaves out: they multiply the states of
    the sweep that meets them first by about 20 (``fact_keys`` 0-5: the mirrored one)."""
    keys = [10, 20, 30, 40, 50, 60, 70, 80]
    return Problem(dict.fromkeys(keys, 3), tuple(Stand(i, 0, 6) for i in range(4)), {},
                   tuple(CountIn(frozenset((s, j) for s in (a, a + 1) for j in range(6)),
                                 frozenset(keys[k] for k in fact_keys), 0, 11) for a in range(2)))


def test_the_budget_bounds_work_the_estimate_did_not_see() -> None:
    """One count fact per key over four stands: each copy is placed stand by stand on all
    four, five times the work of a plain placement.  The estimate before this fix (12,800
    states, counters multiplied in, cost not) let a 36,000 budget through to ~45,000 units
    of work; the sweep's count stops it."""
    from bombbuster_core.beliefs import EngineLimit

    keys = [10, 20, 30, 40, 50, 60, 70, 80]
    problem = Problem(dict.fromkeys(keys, 3), tuple(Stand(i, 0, 6) for i in range(4)), {},
                      tuple(CountIn(frozenset((s, i % 6) for s in range(4)), frozenset((k,)), 0, 1)
                            for i, k in enumerate(keys)))
    estimate, done = _work(problem)
    assert estimate <= 36_000 and min(done) > 36_000 / 2
    with pytest.raises(EngineLimit, match=r"too large: more than 18,000 states in one sweep \(budget 36,000\)") as refused:
        columns.analyze(problem, budget=36_000)
    assert refused.value.json() == {"code": "sweep_budget", "fields": {"states": 18_000, "budget": 36_000}}
    again = pickle.loads(pickle.dumps(refused.value))  # a sweep's refusal crosses the fork's pipe pickled
    assert (type(again), str(again), again.json()) == (EngineLimit, str(refused.value), refused.value.json())


def _children() -> set[int]:
    """This process's child processes, zombies included (from /proc: field 4 of stat is the parent)."""
    me, found = os.getpid(), set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == me:
                found.add(int(entry))
    return found


@pytest.mark.parametrize("fork", [False, True])
@pytest.mark.parametrize("fact_keys", [range(0, 5), range(3, 8)])
def test_the_sweep_enforces_the_budget(fact_keys: range, fork: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table whose work passes the budget though its estimate is under it is refused by the
    sweep's own count, in either direction, serial or with the CLI's forked mirrored sweep
    (whose child is gone after the refusal)."""
    from bombbuster_core.beliefs import EngineLimit

    problem = _counted(fact_keys)
    estimate, done = _work(problem)
    assert max(done) > 100_000 / 2 > min(done) and estimate < 100_000 / 2
    monkeypatch.setattr(columns, "PARALLEL_SWEEPS", fork)
    monkeypatch.setattr(columns, "PARALLEL_MIN_STATES", 0)
    before = _children()
    with pytest.raises(EngineLimit, match=r"too large: more than 50,000 states in one sweep \(budget 100,000\)"):
        columns.analyze(problem, budget=100_000)
    # the forked child is gone and reaped (no zombie); other children of this test run
    # (a session's cluster workers) are no business of this test
    assert _children() == before
    expected = exact_table(problem, lambda p: columns.analyze(p, budget=float("inf")))
    assert exact_table(problem, lambda p: columns.analyze(p, budget=2 * max(done) + 1)) == expected
    # half an analysis (the forward sweep alone) has the whole budget
    if done[0] < 100_000:
        assert columns.worlds_excluding(problem, [], budget=100_000)[0] == columns.analyze(problem).worlds
    else:
        with pytest.raises(EngineLimit, match="too large: more than 100,000 states"):
            columns.worlds_excluding(problem, [], budget=100_000)
