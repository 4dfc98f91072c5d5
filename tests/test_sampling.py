"""The exact deal sampler (engines/sampling.py): its law IS the posterior.

Three kinds of evidence:

* exact: :meth:`Sampler.distribution` walks every backward path (and every
  un-sorting choice of interchangeable stands) with its probability as a
  Fraction; on small problems of every generator of tests/test_engines.py
  and on compiled random games (gamegen), that law equals, deal by deal, the
  posterior enumerated here independently (count matrices, every fact
  checked directly; its slot marginals are checked against the brute
  engine's), and the sampler's forward states equal ``Plan.sweep()``'s at
  every key boundary;
* statistical, on :meth:`Sampler.draw` itself (fixed seeds): deal
  frequencies against the enumerated law, the joint of slot pairs against
  the brute engine on the problem restricted per pair, current-slot
  marginals of ``sample_table`` against tests/oracle.py (independent of the
  core), a 5-player benchmark state against the columns engine's marginals;
  every sampled deal is checked against the table by the oracle;
* mutations: breaking the weights (predecessor weights, group
  multiplicities, the un-sorting of groups, the run-rule block factor)
  makes both the exact and the statistical checks fail.

Multiple testing: each chi-square test (cells with expected count < 5
pooled) must give p > 1e-6; there are a few hundred tests, so a correct
sampler fails one with probability < 1e-3 for a random seed (the seeds are
fixed: the outcome is reproducible), while every mutation drives some p
below 1e-12.  Where the tests of one kind are independent (deal
frequencies: one test per problem, each on its own draws), their pooled
chi-square (sum of statistics, sum of degrees of freedom) must give p > 1e-4
as well: it sees small systematic biases that single tests miss.  (Slots of
one sample are correlated, so their statistics are not pooled.)
"""
from __future__ import annotations

import random
from fractions import Fraction
from itertools import product
from math import exp, factorial, lgamma, log, prod

import pytest
from gamegen import random_full_game, random_game
from oracle import enumerate_table, is_consistent, key_str as oracle_key_str, norm_key
from test_engines import _counted, random_problem, relation_problem, run_problem

from bombbuster_core.beliefs import EngineLimit, Inconsistent
from bombbuster_core.engines import brute, columns, sampling
from bombbuster_core.engines.brute import splits
from bombbuster_core.engines.sampling import Sampler, TableSampler, sample_problem, sample_table
from bombbuster_core.facts import Problem, SameValue, SameValueCount, compile_table
from bombbuster_core.table import load_table
from bombbuster_core.wires import value_of

P_CELL = 1e-6
P_POOLED = 1e-4


# ------------------------------------------------------------------ statistics
def chi2_sf(x: float, df: int) -> float:
    """P(chi-square with df degrees of freedom >= x): the regularized upper gamma Q(df/2, x/2)."""
    if df <= 0:
        return 1.0
    a, x = df / 2, x / 2
    if x <= 0:
        return 1.0
    front = exp(-x + a * log(x) - lgamma(a))
    if x < a + 1:  # series for the lower function
        term = s = 1 / a
        n = a
        while term > s * 1e-16:
            n += 1
            term *= x / n
            s += term
        return max(0.0, 1 - s * front)
    b, c, d = x + 1 - a, 1e300, 1 / (x + 1 - a)  # Lentz's continued fraction
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = b + an / c
        c = c if abs(c) > 1e-300 else 1e-300
        h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return front * h


def test_chi2_sf_known_values() -> None:
    assert abs(chi2_sf(3.841458820694124, 1) - 0.05) < 1e-9
    assert abs(chi2_sf(18.307038053275146, 10) - 0.05) < 1e-9
    assert abs(chi2_sf(2.0, 2) - exp(-1)) < 1e-12
    assert abs(chi2_sf(100.0, 3) - 1.5e-21) < 1e-21


def chi2(observed: dict, law: dict, n: int) -> tuple[float, int]:
    """Pearson statistic and degrees of freedom of ``observed`` counts (n draws) against
    exact probabilities ``law``; cells with expected count < 5 are pooled.  A draw
    outside the law's support gives an infinite statistic."""
    if any(o and not law.get(c) for c, o in observed.items()):
        return float("inf"), 1
    cells = sorted(law, key=lambda c: law[c])
    bins: list[tuple[float, int]] = []
    e_acc, o_acc = 0.0, 0
    for c in cells:
        e_acc += float(law[c]) * n
        o_acc += observed.get(c, 0)
        if e_acc >= 5:
            bins.append((e_acc, o_acc))
            e_acc, o_acc = 0.0, 0
    if e_acc or o_acc:
        if bins:
            e, o = bins.pop()
            bins.append((e + e_acc, o + o_acc))
        else:
            bins.append((e_acc, o_acc))
    stat = sum((o - e) ** 2 / e for e, o in bins if e > 0)
    return stat, len(bins) - 1


class Pool:
    """Chi-square tests: each must pass P_CELL; when they are independent (each on its
    own draws), their pooled statistic must pass P_POOLED too."""

    def __init__(self, independent: bool = False) -> None:
        self.independent = independent
        self.stat, self.df, self.tests, self.worst = 0.0, 0, 0, 1.0

    def add(self, observed: dict, law: dict, n: int, what: object = "") -> float:
        stat, df = chi2(observed, law, n)
        p = chi2_sf(stat, df) if stat != float("inf") else 0.0
        assert p > P_CELL, (what, p, stat, df)
        self.stat += stat
        self.df += df
        self.tests += 1
        self.worst = min(self.worst, p)
        return p

    def check(self) -> None:
        assert self.tests
        if self.independent:
            assert chi2_sf(self.stat, self.df) > P_POOLED, (self.stat, self.df, self.tests)


# ------------------------------------------------------------------ the posterior by enumeration
def satisfies(problem: Problem, rows: list[list[int]] | tuple) -> bool:
    """Every fact of the problem holds on a deal (per stand its sorted keys)."""
    def key(pos):
        return rows[pos[0]][pos[1]]

    for s, row in enumerate(rows):
        if len(row) != problem.stands[s].size or list(row) != sorted(row):
            return False
        if any(k not in problem.domain((s, j)) for j, k in enumerate(row)):
            return False
    if sum(len(r) for r in rows) != sum(problem.copies.values()):
        return False
    held: dict[int, int] = {}
    for row in rows:
        for k in row:
            held[k] = held.get(k, 0) + 1
    if held != {k: c for k, c in problem.copies.items() if c}:
        return False
    for c in problem.counts:
        if not c.lo <= sum(key(p) in c.keys for p in c.slots) <= c.hi:
            return False
    for o in problem.orders:
        if key(o.lo) > key(o.hi):
            return False
    for v in problem.values:
        if isinstance(v, SameValueCount):
            if sum(value_of(key(p)) == value_of(key(v.at)) for p in v.slots) != v.count:
                return False
        elif isinstance(v, SameValue):
            if (value_of(key(v.a)) == value_of(key(v.b))) != v.equal:
                return False
    return True


def deal_law(problem: Problem) -> dict[tuple, Fraction]:
    """The posterior over deals: count matrices weighted prod m_k! / prod c_sk!, facts checked."""
    keys, sizes = problem.keys, [st.size for st in problem.stands]
    num = prod(factorial(problem.copies[k]) for k in keys)
    rows: list[list[int]] = [[] for _ in sizes]
    weights: dict[tuple, int] = {}

    def place(i: int, den: int) -> None:
        if i == len(keys):
            if satisfies(problem, rows):
                deal = tuple(tuple(r) for r in rows)
                weights[deal] = weights.get(deal, 0) + num // den
            return
        k = keys[i]
        for split in splits(problem.copies[k], [n - len(r) for n, r in zip(sizes, rows)]):
            for s, c in enumerate(split):
                rows[s].extend([k] * c)
            place(i + 1, den * prod(factorial(c) for c in split))
            for s, c in enumerate(split):
                del rows[s][len(rows[s]) - c:]

    place(0, 1)
    total = sum(weights.values())
    return {d: Fraction(w, total) for d, w in weights.items()}


def _small(problem: Problem) -> bool:
    """Few enough deals (and backward paths) to enumerate."""
    return sum(problem.copies.values()) <= 9


def problems(kind: str, seeds: range):
    for seed in seeds:
        if kind == "plain":
            yield random_problem(random.Random(seed))[0]
        elif kind == "runs":
            yield run_problem(seed)[0]
        elif kind == "table":
            rng = random.Random(seed)
            table, _ = random_game(rng, full={"special": rng.choice([None, "x_any", "flip1", "lowhigh"]),
                                               "nano": rng.choice([0, 0, 1])}) if seed % 2 else random_game(rng)
            yield compile_table(load_table(table))
        else:
            yield relation_problem(seed, kind)[0]


KINDS = ["plain", "o", "c", "s", "ocs", "runs", "table"]


def sampler_or_none(problem: Problem) -> Sampler | None:
    try:
        return Sampler(problem)
    except Inconsistent:
        return None


# ------------------------------------------------------------------ exact evidence
@pytest.mark.parametrize("kind", KINDS)
def test_forward_states_equal_the_columns_sweep(kind: str) -> None:
    """The sampler's state-by-state sweep reaches the engine's states and weights at every key boundary."""
    seen = 0
    for problem in problems(kind, range(300)):
        s = sampler_or_none(problem)
        try:
            prep = columns.Prepared(problem)
            ref = columns.Plan(prep, False).sweep()
        except columns.Zero:
            assert s is None
            continue
        if s is None:
            assert not ref[-1]
            continue
        assert s.boundary_states() == ref
        assert s.worlds == columns.analyze(problem).worlds
        seen += 1
    assert seen > 100


@pytest.mark.parametrize("kind", KINDS)
def test_exact_law_of_draw_is_the_posterior(kind: str) -> None:
    consistent = groups = runs = 0
    for problem in problems(kind, range(150)):
        if not _small(problem):
            continue
        s = sampler_or_none(problem)
        law = deal_law(problem)
        if s is None:
            assert not law
            with pytest.raises(Inconsistent):
                brute.analyze(problem)
            continue
        # the enumeration agrees with the reference engine
        b = brute.analyze(problem)
        for pos, row in b.weights.items():
            got: dict[int, Fraction] = {}
            for deal, p in law.items():
                k = deal[pos[0]][pos[1]]
                got[k] = got.get(k, 0) + p
            assert got == b.exact(pos)
        assert s.distribution() == law
        consistent += 1
        groups += bool(s.prep.groups)
        runs += bool(s.prep.runs)
    assert consistent > 30
    if kind == "plain":
        assert groups > 10
    if kind == "runs":
        assert runs > 10


# ------------------------------------------------------------------ statistical evidence on draw()
@pytest.mark.parametrize("kind", KINDS)
def test_deal_frequencies_match_the_posterior(kind: str) -> None:
    pool = Pool(independent=True)
    rng = random.Random(f"freq-{kind}")
    for problem in problems(kind, range(1000, 1060)):
        if not _small(problem):
            continue
        s = sampler_or_none(problem)
        if s is None:
            continue
        law = deal_law(problem)
        n = 1500
        observed: dict[tuple, int] = {}
        for deal in s.sample(n, rng):
            observed[deal] = observed.get(deal, 0) + 1
        pool.add(observed, law, n, problem)
    pool.check()


def pair_law(problem: Problem, a, b) -> dict[tuple, Fraction]:
    """The joint of slots a and b from the brute engine on the problem restricted per pair of keys."""
    worlds = brute.analyze(problem).worlds
    out = {}
    for ka, kb in product(problem.domain(a), problem.domain(b)):
        q = problem.restrict(a, frozenset((ka,))).restrict(b, frozenset((kb,)))
        try:
            w = brute.analyze(q).worlds
        except Inconsistent:
            continue
        out[(ka, kb)] = Fraction(w, worlds)
    return out


@pytest.mark.parametrize("kind", ["plain", "ocs", "runs", "table"])
def test_pair_joints_match_brute(kind: str) -> None:
    pool = Pool()
    rng = random.Random(f"pairs-{kind}")
    for problem in problems(kind, range(2000, 2040)):
        if not _small(problem):
            continue
        s = sampler_or_none(problem)
        if s is None:
            continue
        slots = [(sid, j) for sid, st in enumerate(problem.stands) for j in range(st.size)]
        if len(slots) < 2:
            continue
        deals = s.sample(1000, rng)
        for _ in range(3):
            a, b = rng.sample(slots, 2)
            observed: dict[tuple, int] = {}
            for d in deals:
                cell = (d[a[0]][a[1]], d[b[0]][b[1]])
                observed[cell] = observed.get(cell, 0) + 1
            pool.add(observed, pair_law(problem, a, b), len(deals), (problem, a, b))
    pool.check()


def _table(seed: int) -> tuple[dict, object]:
    rng = random.Random(seed)
    if seed % 2:
        return random_full_game(rng, players=rng.choice([2, 3]), nano=rng.choice([0, 0, 1, 2]),
                                special=rng.choice([None, "x_any", "x_blue", "flip1", "flip2", "lowhigh", "mixed"]))
    return random_game(rng, players=rng.choice([2, 3]))


def test_table_samples_match_the_oracle_and_fit_the_table() -> None:
    """sample_table's current-slot frequencies equal tests/oracle.py's exact marginals, and the
    oracle finds every sampled deal consistent with the table."""
    pool = Pool()
    nano_seen = moved = 0
    for seed in range(60):
        table, _ = _table(3000 + seed)
        truth = enumerate_table(table)
        assert truth["consistent"]
        t = load_table(table)
        ts = TableSampler(t)
        rng = random.Random(seed)
        n = 600
        deals = [ts.sampler.draw(rng) for _ in range(n)]
        out = [ts.convert(d) for d in deals]
        # the oracle checks each distinct deal at its deal-time positions
        _, layout = t.deal()
        board = t.board(0)
        for d in set(deals):
            dealt = [[[d[seg][j] for seg, j in row] for row in rows] for rows in layout]
            nano = [d[seg][j] for seg, j in board.nano]
            as_json = [[[norm_key(ts_key(k)) for k in row] for row in rows] for rows in dealt]
            assert is_consistent(table, as_json, [norm_key(ts_key(k)) for k in nano]), (seed, d)
        rows = iter(truth["exact"])
        flat = [(p, s, j) for p, pl in enumerate(t.players) for s in range(len(pl.stands))
                for j in range(t.board().size(p, s))]
        assert len(out[0]["stands"]) == sum(len(pl.stands) for pl in t.players)
        for p, s, j in flat:
            row = next(rows)
            assert (row["player"], row["stand"], row["slot"]) == (p, s, j)
            stand_index = sum(len(pl.stands) for pl in t.players[:p]) + s
            observed: dict[str, int] = {}
            for deal in out:
                k = oracle_key_str(norm_key(deal["stands"][stand_index][j]))
                observed[k] = observed.get(k, 0) + 1
            pool.add(observed, row["p"], n, (seed, p, s, j))
        assert next(rows, None) is None
        nano_seen += bool(t.nano)
        moved += any(e["type"] in ("move", "swap") for e in table["events"])
        for deal in out:
            assert set(deal) == ({"stands", "set_aside", "nano"} if t.nano else {"stands", "set_aside"})
            assert deal["set_aside"] == sorted(deal["set_aside"])
    assert nano_seen >= 3 and moved >= 3
    pool.check()


def ts_key(k: int) -> int | float:
    from bombbuster_core.wires import key_json
    return key_json(k)


def test_five_player_benchmark_state_matches_the_engine() -> None:
    """A real-size state with two groups of interchangeable stands (5p public, no token):
    every slot's frequencies against the columns engine's exact marginals."""
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))
    from bench_analyze import states

    table = load_table(states()["5p public, no token"])
    problem = compile_table(table)
    s = Sampler(problem)
    assert len(s.prep.groups) == 2
    beliefs = columns.analyze(problem)
    n = 4000
    deals = s.sample(n, random.Random(5))
    pool = Pool()
    for (sid, j), row in beliefs.weights.items():
        observed: dict[int, int] = {}
        for d in deals:
            observed[d[sid][j]] = observed.get(d[sid][j], 0) + 1
        pool.add(observed, beliefs.exact((sid, j)), n, (sid, j))
    pool.check()
    # interchangeable stands: each member gets its share (the group is not left sorted)
    g = s.prep.groups[0]
    firsts = [sum(d[x][0] < d[g[0]][0] for d in deals) for x in g[1:]]
    assert all(f > n / 10 for f in firsts)


# ------------------------------------------------------------------ API
def test_same_seed_same_deals() -> None:
    table, _ = _table(4001)
    t = load_table(table)
    assert sample_table(t, 50, random.Random(9)) == sample_table(t, 50, random.Random(9))
    problem = compile_table(t)
    assert sample_problem(problem, 30, random.Random(3)) == sample_problem(problem, 30, random.Random(3))
    assert sample_problem(problem, 30, random.Random(3)) != sample_problem(problem, 30, random.Random(4))


def test_inconsistent_and_budget() -> None:
    p = Problem({10: 2, 20: 2}, (_stand(0, 2), _stand(1, 2)),
                {(0, 0): frozenset({20}), (1, 0): frozenset({20}), (0, 1): frozenset({20})})
    with pytest.raises(Inconsistent):
        Sampler(p)
    big, _ = random_problem(random.Random(7))
    with pytest.raises(sampling.EngineLimit) as refused:
        Sampler(big, budget=0)
    assert refused.value.code == "sample_budget" and refused.value.fields["budget"] == 0


def _stand(player: int, size: int):
    from bombbuster_core.facts import Stand
    return Stand(player, 0, size)


def test_the_preparation_counts_its_states() -> None:
    """A graph that passes the sampler's budget though its estimate is under it (count facts,
    whose counters the estimate leaves out: 12,964 estimated, 39,098 made) is stopped by the
    count made while building it."""
    problem = _counted(range(3, 8))
    assert columns.estimated_states(columns.Plan(columns.Prepared(problem), False)) < 20_000
    with pytest.raises(EngineLimit, match="too large: more than 20,000 states") as refused:
        Sampler(problem, budget=20_000)
    assert refused.value.code == "sweep_budget" and refused.value.fields["budget"] == 20_000
    assert Sampler(problem, budget=40_000).worlds == columns.analyze(problem).worlds


def test_cli_prints_each_deal_as_it_is_drawn(tmp_path, monkeypatch) -> None:
    """``sample --n N`` prints each deal as it is drawn, so its memory does not grow with N
    (it held all 2.5 million before printing: 3.0 GB): when the first line is written,
    one deal has been drawn."""
    import json
    import sys

    from bombbuster_core.cli import main

    path = tmp_path / "t.json"
    path.write_text(json.dumps({"players": [{"stands": [4]}] * 3, "wires": {"blue": [1, 2, 3]}}))
    drawn, at_write = [0], []
    draw = Sampler.draw

    def counted(self, rng):
        drawn[0] += 1
        return draw(self, rng)

    class Out:
        def write(self, text: str) -> None:
            at_write.append(drawn[0])

    monkeypatch.setattr(Sampler, "draw", counted)
    monkeypatch.setattr(columns, "PARALLEL_SWEEPS", columns.PARALLEL_SWEEPS)  # cli.main turns it on
    monkeypatch.setattr(sys, "stdout", Out())
    assert main(["sample", str(path), "--n", "50"]) == 0
    assert at_write == list(range(1, 51))


def test_table_format_is_the_issue_shape() -> None:
    """Issue 11's deal JSON: every current stand in order, every slot at its place, set-aside and Nano wires."""
    for seed in (5001, 5003, 5004):
        table, _ = _table(seed)
        t = load_table(table)
        board = t.board()
        set_aside = sum(len(p.candidates) - p.count for p in t.deck.pools)
        for deal in sample_table(t, 3, random.Random(1)):
            assert set(deal) == {"stands", "set_aside"} | ({"nano"} if t.nano else set())
            assert [len(r) for r in deal["stands"]] == [len(row) for rows in board.stands for row in rows]
            assert len(deal["set_aside"]) == set_aside and len(deal.get("nano", [])) == len(board.nano)


# ------------------------------------------------------------------ mutations
def _mutant_problems(feature: str) -> list[Problem]:
    """Small consistent problems exercising a feature: groups, blocks (run rules), or any."""
    out = []
    for kind in ("plain", "runs", "ocs"):
        for problem in problems(kind, range(400)):
            if not _small(problem) or sum(problem.copies.values()) < 4:
                continue
            s = sampler_or_none(problem)
            if s is None:
                continue
            if feature == "groups" and not s.prep.groups:
                continue
            if feature == "runs" and not any(layer.runs for layer in s.plan.layers):
                continue
            out.append(problem)
            if len(out) >= 25:
                return out
    return out


def _mutant_detected(problems_: list[Problem]) -> tuple[bool, bool]:
    """(the exact law differs somewhere, some chi-square test fails)"""
    exact = stat = False
    rng = random.Random(77)
    for problem in problems_:
        s = Sampler(problem)
        law = deal_law(problem)
        exact = exact or s.distribution() != law
        observed: dict[tuple, int] = {}
        n = 3000
        for d in s.sample(n, rng):
            observed[d] = observed.get(d, 0) + 1
        st, df = chi2(observed, law, n)
        stat = stat or st == float("inf") or chi2_sf(st, df) < P_CELL
    return exact, stat


def test_mutations_are_caught(monkeypatch) -> None:
    any_problems, group_problems, run_problems = (_mutant_problems(f) for f in ("any", "groups", "runs"))
    assert len(group_problems) >= 10 and len(run_problems) >= 5
    assert _mutant_detected(any_problems + group_problems + run_problems) == (False, False)  # the real sampler

    # 1. predecessors drawn uniformly, ignoring the forward weights
    real_push = Sampler._push

    def uniform_push(self, layer, edges, key, final):
        real_push(self, layer, edges, key, final)
        table = self.steps[-1]
        for code, (cum, e) in list(table.items()):
            table[code] = (list(range(1, len(e) + 1)) if cum else None, e)
    with monkeypatch.context() as m:
        m.setattr(Sampler, "_push", uniform_push)
        assert _mutant_detected(any_problems) == (True, True)

    # 2. group multiplicities dropped (every edge weight 1)
    real_succ = Sampler._successors
    with monkeypatch.context() as m:
        m.setattr(Sampler, "_successors", lambda self, layer, code, left:
                  [(nc, 1, a) for nc, _, a in real_succ(self, layer, code, left)])
        assert _mutant_detected(group_problems) == (True, True)

    # 3. groups left sorted: a copy always goes to the last stand of its run
    real_group = Sampler._group_action
    with monkeypatch.context() as m:
        m.setattr(Sampler, "_group_action", lambda self, code, s: (lambda a: (a[0], a[1], a[3], a[3]))(
            real_group(self, code, s)))
        assert _mutant_detected(group_problems) == (True, True)

    # 4. run-rule blocks without their multinomial share
    with monkeypatch.context() as m:
        m.setattr(sampling, "_share", lambda m, b, den: 1)
        assert _mutant_detected(run_problems) == (True, True)
