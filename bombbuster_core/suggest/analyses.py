"""Engine runs on a table's problem under extra conditions, and the jobs sent to executors.

A condition is a set of facts: slot restrictions ("this slot holds one of
these keys") and counts ("these slots hold at least one of these keys").
:class:`Analyses` memoises the beliefs under each condition a suggestion list
asks about.  With the columns engine, conditions made of exclusions and at
most three "holds one of K" counts are run *packed*: each is a signed sum of
variants "these slots hold none of K" (inclusion and exclusion), and the
variants of a batch share one run (:func:`packed_run`); the run's sweeps may
be kept to read joint events of one key in one more pass (:meth:`Analyses.run_joint`).

:func:`analysis_job` is module level so that process pools and the bridge's
workers (task "executor.call") can run it.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations, count
from typing import Any, Callable, Iterable

from ..beliefs import Beliefs, Inconsistent
from ..engines import ENGINES, columns
from ..facts import CountIn, Pos, Problem
from ..wires import Key

Fact = tuple[Pos, frozenset[Key]] | CountIn
Condition = frozenset[Fact]
Executor = Callable[[Callable[[Any], Any], Iterable[Any]], Iterable[Any]]
Progress = Callable[[int, int], None]


def apply_condition(problem: Problem, condition: Condition) -> Problem:
    """``problem`` with the facts of ``condition`` added."""
    for fact in condition:
        problem = problem.with_count(fact) if isinstance(fact, CountIn) else problem.restrict(*fact)
    return problem


def problem_key(problem: Problem) -> tuple:
    """A hashable identity of a problem, for caches that outlive one call."""
    return (tuple(sorted(problem.copies.items())), problem.stands, tuple(sorted(problem.domains.items())),
            frozenset(problem.counts), frozenset(problem.orders), frozenset(problem.values))


class Analyses:
    """Engine runs on the table's problem under extra conditions, memoised by condition.

    Columns runs of the problem itself and of packed conditions keep their
    sweeps (``swept``: condition -> the run and the signed components whose
    sum it is), so that joints local to one key come from one more pass over
    that key (:meth:`run_joint`) instead of a conditioned analysis each.
    """

    def __init__(self, base: Problem, engine: str):
        self.base, self.engine = base, engine
        self.memo: dict[Condition, Beliefs | None] = {}
        self.counted: dict[Condition, int] = {}  # worlds of conditions run for their worlds alone
        self.runs = 0  # engine runs made
        self.swept: dict[Condition, tuple[columns.Swept, list[tuple[int, int]]]] = {}
        self.joints: dict[tuple[Condition, int, Key], tuple[dict[tuple[int, int], Fraction], int] | None] = {}

    def beliefs(self, condition: Condition = frozenset()) -> Beliefs | None:
        """Beliefs under ``condition``, or None when no deal satisfies it."""
        if condition not in self.memo:
            if self.engine == "columns" and condition:
                self.packed([condition])  # exclusions packed in one run cost less than count facts
            if condition not in self.memo:
                self.runs += 1
                try:
                    if self.engine == "columns" and not condition:  # the root's sweeps serve the detector joints
                        swept = columns.Swept(self.base)
                        self.swept[condition] = (swept, [(1, 0)])
                        self.memo[condition] = swept.beliefs()[0]
                    else:
                        self.memo[condition] = ENGINES[self.engine](apply_condition(self.base, condition))
                except Inconsistent:
                    self.memo[condition] = None
        return self.memo[condition]

    def worlds(self, condition: Condition) -> int:
        """The weight of the deals satisfying ``condition`` (0: none).

        With columns, a condition not yet analysed takes one forward sweep of
        the problem restricted to its slot facts, its "holds one of K" counts
        by inclusion and exclusion (variants "holds none"): no marginal is made.
        """
        if condition in self.memo:
            b = self.memo[condition]
            return b.worlds if b is not None else 0
        if condition not in self.counted:
            terms = terms_of(condition - frozenset(f for f in condition if not isinstance(f, CountIn)))
            if self.engine != "columns" or terms is None:
                b = self.beliefs(condition)
                return b.worlds if b is not None else 0
            self.runs += 1
            restricted = apply_condition(self.base, frozenset(f for f in condition if not isinstance(f, CountIn)))
            variants = [v for _, v in terms if v]
            worlds = columns.worlds_excluding(restricted, variants)
            numbers = count(1)
            self.counted[condition] = sum(sign * worlds[next(numbers) if v else 0] for sign, v in terms)
        return self.counted[condition]

    def p_condition(self, condition: Condition, given: Condition = frozenset()) -> Fraction:
        """P(``condition`` | ``given``), from world counts (0 when no deal satisfies ``given``)."""
        whole = self.worlds(given)
        return Fraction(self.worlds(condition | given), whole) if whole else Fraction(0)

    def run_joint(self, condition: Condition, stand: int, key: Key) -> tuple[dict[tuple[int, int], Fraction], int] | None:
        """Under ``condition``: by (f0, f1), the weight of the deals in which ``stand`` holds
        ``key`` on exactly its slots f0 .. f1 - 1, and the total weight; None with other
        engines, or when no deal satisfies ``condition``."""
        memo_key = (condition, stand, key)
        if memo_key not in self.joints:
            self.beliefs(condition)
            kept = self.swept.get(condition)
            if kept is None:
                self.joints[memo_key] = None
            else:
                swept, signed = kept
                tables = swept.run_joint(stand, key, [c for _, c in signed])
                cells: dict[tuple[int, int], Fraction] = {}
                for (sign, _), table in zip(signed, tables):
                    for cell, w in table.items():
                        cells[cell] = cells.get(cell, 0) + sign * w
                total = sum(sign * swept.component(swept.total, c) for sign, c in signed)
                self.joints[memo_key] = (cells, total)
        return self.joints[memo_key]

    def packed(self, conditions: Iterable[Condition], keep: bool = False) -> None:
        """Memoise conditions through packed columns runs (``BATCH`` variants a run).

        A condition is a signed sum of variants (:func:`recipe`); the variants
        of a batch are run together, each once, in one packed run.  Other
        conditions are left to :meth:`beliefs`.  ``keep``: keep the runs'
        sweeps for :meth:`run_joint` (memory: both sweeps' states).
        """
        recipes = []
        for condition in dict.fromkeys(c for c in conditions if c not in self.memo):
            terms = recipe(self.base, condition)
            if terms is not None:
                recipes.append((condition, terms))
        for batch in batches(recipes):
            self.runs += 1
            swept, beliefs, components = packed_run(self.base, batch)
            for (condition, _), b, signed in zip(batch, beliefs, components):
                self.memo[condition] = b
                if keep and b is not None:
                    self.swept[condition] = (swept, signed)

    def prefetch(self, conditions: Iterable[Condition], executor: Executor, progress: Progress | None = None) -> None:
        """Run the analyses of ``conditions`` not yet memoised through ``executor``, reporting ``progress(done, total)``."""
        todo = list(dict.fromkeys(c for c in conditions if c not in self.memo))
        if not todo:
            return
        jobs = [(apply_condition(self.base, c), self.engine) for c in todo]
        self.runs += len(jobs)
        if progress:
            progress(0, len(todo))
        for done, (condition, beliefs) in enumerate(zip(todo, executor(analysis_job, jobs)), 1):
            self.memo[condition] = beliefs
            if progress:
                progress(done, len(todo))


Terms = list[tuple[int, list]]  # (sign, variant): a condition as a signed sum of packed variants


def terms_of(counts: Iterable[Fact]) -> Terms | None:
    """"Holds at least one of K_i on slots S_i" for each count, by inclusion and exclusion:
    the sum over subsets T of the counts of (-1)^|T| x (the variant "S_i holds none of
    K_i for i in T").  None for other counts, or more than three (eight variants)."""
    counts = list(counts)
    if len(counts) > 3 or any(not isinstance(c, CountIn) or c.lo != 1 or c.hi < len(c.slots) for c in counts):
        return None
    return [((-1) ** r, [(c.slots, c.keys) for c in subset])
            for r in range(len(counts) + 1) for subset in combinations(counts, r)]


def recipe(problem: Problem, condition: Condition) -> Terms | None:
    """``condition`` as a signed sum of packed variants of ``problem`` (see Analyses.packed):
    its slot restrictions are the exclusions "these slots hold none of the other keys",
    shared by every term of its counts (:func:`terms_of`)."""
    terms = terms_of(f for f in condition if isinstance(f, CountIn))
    if terms is None:
        return None
    excluded = [(frozenset((f[0],)), problem.domain(f[0]) - f[1]) for f in condition if not isinstance(f, CountIn)]
    return [(sign, excluded + variant) for sign, variant in terms]


# Variants per packed engine run: the packed weights grow with each, so past a
# few dozen a run costs more per variant (entropy mode on the hardest observer
# state: 8 a run 5.3 s, 24 a run 3.5 s, 64 a run 3.3 s; memory grows with it).
BATCH = 24


def batches(recipes: list[tuple[Condition, Terms]]) -> list[list[tuple[Condition, Terms]]]:
    """Consecutive recipes grouped so that each group packs at most ``BATCH`` distinct variants
    (one recipe at least): a variant two recipes share is packed once."""
    out: list[list[tuple[Condition, Terms]]] = []
    packed: set[frozenset] = set()
    for recipe in recipes:
        own = {frozenset(v) for _, v in recipe[1] if v}
        if not out or len(packed | own) > BATCH:
            out.append([])
            packed = set()
        out[-1].append(recipe)
        packed |= own
    return out


def distinct_variants(batch: list[tuple[Condition, Terms]]) -> tuple[list[list], dict[frozenset, int]]:
    """The distinct variants of a batch's terms, and each one's component number (0: none)."""
    number: dict[frozenset, int] = {frozenset(): 0}
    variants = []
    for _, terms in batch:
        for _, v in terms:
            if frozenset(v) not in number:
                number[frozenset(v)] = len(variants) + 1
                variants.append(v)
    return variants, number


def packed_run(problem: Problem, batch: list[tuple[Condition, Terms]], budget: float | None = None
                ) -> tuple[columns.Swept, list[Beliefs | None], list[list[tuple[int, int]]]]:
    """One packed columns run: the beliefs under each condition of ``batch`` from its
    signed variants (each distinct variant packed once), with the run and, per
    condition, its signed components.  The empty variant is the problem itself:
    the run's own result (component 0).  ``budget``: the run's, as columns.analyze."""
    variants, number = distinct_variants(batch)
    swept = columns.Swept(problem, variants, budget)
    base, got = swept.beliefs()
    results = [base, *got]
    out, components = [], []
    for condition, terms in batch:
        signed = [(sign, number[frozenset(v)]) for sign, v in terms]
        out.append(combine(apply_condition(problem, condition), [(sign, results[c]) for sign, c in signed]))
        components.append(signed)
    return swept, out, components


def combine(problem: Problem, terms: list[tuple[int, Beliefs | None]]) -> Beliefs | None:
    """Beliefs of the signed sum of the deals counted in each term (None: no deal left).

    Each term is turned into absolute counts of deals (probability x worlds,
    integers), summed with its sign, and given the one denominator ``worlds``.
    """
    if len(terms) == 1 and terms[0][0] == 1:
        b = terms[0][1]
        return None if b is None else Beliefs(problem, b.worlds, b.weights, b.denominators)
    present = [(sign, b) for sign, b in terms if b is not None]
    worlds = sum(sign * b.worlds for sign, b in present)
    if not worlds:
        return None
    weights: dict[Pos, dict[Key, int]] = {}
    for pos in present[0][1].weights:
        row: dict[Key, int] = {}
        for sign, b in present:
            den = b.denominators[pos[0]]
            for k, w in b.weights[pos].items():
                n, rest = divmod(w * b.worlds, den)
                assert not rest, "a probability times the worlds counts deals"
                row[k] = row.get(k, 0) + sign * n
        weights[pos] = {k: n for k, n in row.items() if n}
    return Beliefs(problem, worlds, weights, {stand: worlds for stand, _ in present[0][1].weights})


def analysis_job(job: tuple[Problem, str]) -> Beliefs | None:
    """One engine run (module level so process pools can pickle it); None when impossible."""
    problem, engine = job
    try:
        return ENGINES[engine](problem)
    except Inconsistent:
        return None


def probability(b: Beliefs, pos: Pos, keys: frozenset[Key]) -> Fraction:
    """P(slot ``pos`` holds one of ``keys``) under ``b``."""
    row = b.weights[pos]
    return Fraction(sum(w for k, w in row.items() if k in keys), b.denominators[pos[0]])


def possible(b: Beliefs, pos: Pos, keys: frozenset[Key]) -> bool:
    """P(slot ``pos`` holds one of ``keys``) > 0 under ``b`` (deal weights are never negative)."""
    return any(w for k, w in b.weights[pos].items() if k in keys)
