"""Cut suggestions: what the player to move can do, with exact odds and information.

``suggest(table, ...)`` lists, for one player, every legal dual cut (each
uncut teammate slot x each gameplay value the player holds), the certain and
forced moves (P(success) = 1 cuts, solo cuts, "reveal your reds"), and the
best uses of the detectors and the X-or-Y ray.  Every probability is exact: a
single-slot call reads the slot marginals of one analysis; a joint event
("the player holds v" in public view, a detector's red risk) is the ratio of
the world counts of the problem conditioned on it to the unconditioned one.
The detector searches bound candidates by marginals; with the columns engine
a candidate's exact odds then come from one pass over key v of the run that
conditioned on "holds v" (every slot set of a stand at once), with other
engines from one conditioned analysis per pair of neighbouring slots.

Two modes rank the dual cuts:

* ``exact`` (default): maximise P(success) among calls whose red risk is at
  most ``Policy.red_cap``, then expected information (bits), then a seeded
  random tie-break; calls above the cap follow, least red risk first.
* ``entropy``: the reference design's suggester.  Each call is simulated as
  success (slot is v) and failure (slot is not v), the analysis is re-run in
  both branches, and calls are ranked by the lowest
  ``E[H] = P_s*H_s + (1-P_s)*H_f``, with ``H`` the sum over uncut player slots
  of ``log2 |possible gameplay values|`` and ``P_s`` either the "seed" 1/k or
  the exact probability.  Branch analyses run through a caller-supplied
  ``map``-like executor (a process pool, say) and are memoised by problem.

docs/suggestions.md explains the information measure, the ranking policy and
the rule readings; the JSON shape is the CLI's ``suggest`` output.
"""
from __future__ import annotations

import heapq
import math
import random
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, count
from typing import Any, Callable, Iterable

from .analysis import EngineChoiceError, analyze
from .beliefs import Beliefs, EngineLimit, Inconsistent
from .engines import DEFAULT, ENGINES, columns
from .facts import CountIn, Pos, Problem, compile_table
from .table import SlotRef, Table, exploded
from .wires import RED, YELLOW, Key, Value, key_str, value_of

MODES = ("exact", "entropy")
PROBABILITIES = ("seed", "exact")
EQUIPMENT = ("xy_ray", "double_detector", "super_detector", "triple_detector")  # cheapest search first
_DETECTOR_SIZE = {"double_detector": 2, "triple_detector": 3, "super_detector": 0}  # 0 = the whole stand

Fact = tuple[Pos, frozenset[Key]] | CountIn
Condition = frozenset[Fact]
Executor = Callable[[Callable[[Any], Any], Iterable[Any]], Iterable[Any]]
Progress = Callable[[int, int], None]


class SuggestError(ValueError):
    """Bad options: unknown mode, no player to move, player out of range."""


@dataclass(frozen=True)
class Policy:
    """How suggestions are ranked and which equipment is considered.

    ``red_cap``: calls whose P(red) exceeds it rank after every call within it.
    ``seed``: seeds the tie-break among equal calls (never a fixed slot order).
    ``per_kind``: how many suggestions of each equipment kind to list.
    ``equipment``: kinds searched.  By default the Double Detector (every
    character has one) and the X-or-Y ray (free: one slot's marginals); the
    Triple and Super Detectors are equipment cards, often not in play, and
    cost one conditioned analysis per candidate stand, so they are opt-in.
    ``equipment_budget``: most engine runs spent searching each kind (joint
    events need one conditioned analysis each); a search cut short is named in
    the result's ``incomplete`` list.  None = no limit.
    ``failure_token``: False for missions where a failed cut places no token
    (M58, constraint H): the failure then reveals only "not v".
    """

    red_cap: float = 0.05
    seed: int = 0
    equipment: tuple[str, ...] = ("xy_ray", "double_detector")
    per_kind: int = 1
    equipment_budget: int | None = 8
    failure_token: bool = True


@dataclass
class Suggestion:
    """One move with its exact odds; ``outcomes`` are the distinct results it can have."""

    kind: str
    targets: tuple[SlotRef, ...]
    values: tuple[Value, ...]
    p_success: Fraction
    p_red: Fraction
    certain: bool
    outcomes: list[tuple[str, Any, Fraction]]  # (outcome, key/value/None, probability)
    p_legal: Fraction = Fraction(1)
    tiebreak: float = 0.0
    why: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def p_strike(self) -> Fraction:
        return 1 - self.p_success - self.p_red

    @property
    def bits(self) -> float:
        """Entropy of the outcome, which is a function of the deal: the expected information."""
        return _entropy(p for _, _, p in self.outcomes)

    def json(self) -> dict[str, Any]:
        row: dict[str, Any] = {"kind": self.kind}
        if self.kind in ("dual_cut", "xy_ray"):
            row["target"] = self.targets[0].json()
        else:
            row["targets"] = [t.json() for t in self.targets]
        if self.kind == "xy_ray":
            row["values"] = list(self.values)
        elif self.values:
            row["value"] = self.values[0]
        row.update({"p_success": float(self.p_success), "p_red": float(self.p_red), "p_strike": float(self.p_strike),
                    "bits": round(self.bits, 6), "certain": self.certain, "why": self.why,
                    "p_legal": float(self.p_legal),
                    "outcomes": [_outcome_json(kind, what, p) for kind, what, p in self.outcomes]})
        row.update(self.extra)
        return row


def _outcome_json(kind: str, what: Any, p: Fraction) -> dict[str, Any]:
    row: dict[str, Any] = {"outcome": kind, "p": float(p)}
    if kind == "success" and what is not None:  # the cut shows which value (X or Y ray) and a yellow's key
        row["value"] = value_of(what)
        if value_of(what) == YELLOW:
            row["key"] = key_str(what)
    elif kind == "token":
        row["value"] = what
    return row


def _entropy(probabilities: Iterable[Fraction | float]) -> float:
    return sum(-float(p) * math.log2(float(p)) for p in probabilities if p > 0) + 0.0


# ---------------------------------------------------------------- analyses under conditions


def _apply(problem: Problem, condition: Condition) -> Problem:
    for fact in condition:
        problem = problem.with_count(fact) if isinstance(fact, CountIn) else problem.restrict(*fact)
    return problem


def problem_key(problem: Problem) -> tuple:
    """A hashable identity of a problem, for caches that outlive one call."""
    return (tuple(sorted(problem.copies.items())), problem.stands, tuple(sorted(problem.domains.items())),
            frozenset(problem.counts), frozenset(problem.orders), frozenset(problem.values))


class _Analyses:
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
                        self.memo[condition] = ENGINES[self.engine](_apply(self.base, condition))
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
            terms = _terms(condition - frozenset(f for f in condition if not isinstance(f, CountIn)))
            if self.engine != "columns" or terms is None:
                b = self.beliefs(condition)
                return b.worlds if b is not None else 0
            self.runs += 1
            restricted = _apply(self.base, frozenset(f for f in condition if not isinstance(f, CountIn)))
            variants = [v for _, v in terms if v]
            worlds = columns.worlds_excluding(restricted, variants)
            numbers = count(1)
            self.counted[condition] = sum(sign * worlds[next(numbers) if v else 0] for sign, v in terms)
        return self.counted[condition]

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
        """Memoise conditions through packed columns runs (``_BATCH`` variants a run).

        A condition is a signed sum of variants (:func:`_recipe`); the variants
        of a batch are run together, each once, in one packed run.  Other
        conditions are left to :meth:`beliefs`.  ``keep``: keep the runs'
        sweeps for :meth:`run_joint` (memory: both sweeps' states).
        """
        recipes = []
        for condition in dict.fromkeys(c for c in conditions if c not in self.memo):
            terms = _recipe(self.base, condition)
            if terms is not None:
                recipes.append((condition, terms))
        for batch in _batches(recipes):
            self.runs += 1
            swept, beliefs, components = _packed_run(self.base, batch)
            for (condition, _), b, signed in zip(batch, beliefs, components):
                self.memo[condition] = b
                if keep and b is not None:
                    self.swept[condition] = (swept, signed)

    def prefetch(self, conditions: Iterable[Condition], executor: Executor, progress: Progress | None = None) -> None:
        """Run the analyses of ``conditions`` not yet memoised through ``executor``, reporting ``progress(done, total)``."""
        todo = list(dict.fromkeys(c for c in conditions if c not in self.memo))
        if not todo:
            return
        jobs = [(_apply(self.base, c), self.engine) for c in todo]
        self.runs += len(jobs)
        if progress:
            progress(0, len(todo))
        for done, (condition, beliefs) in enumerate(zip(todo, executor(_analysis_job, jobs)), 1):
            self.memo[condition] = beliefs
            if progress:
                progress(done, len(todo))


Terms = list[tuple[int, list]]  # (sign, variant): a condition as a signed sum of packed variants


def _terms(counts: Iterable[Fact]) -> Terms | None:
    """"Holds at least one of K_i on slots S_i" for each count, by inclusion and exclusion:
    the sum over subsets T of the counts of (-1)^|T| x (the variant "S_i holds none of
    K_i for i in T").  None for other counts, or more than three (eight variants)."""
    counts = list(counts)
    if len(counts) > 3 or any(not isinstance(c, CountIn) or c.lo != 1 or c.hi < len(c.slots) for c in counts):
        return None
    return [((-1) ** r, [(c.slots, c.keys) for c in subset])
            for r in range(len(counts) + 1) for subset in combinations(counts, r)]


def _recipe(problem: Problem, condition: Condition) -> Terms | None:
    """``condition`` as a signed sum of packed variants of ``problem`` (see _Analyses.packed):
    its slot restrictions are the exclusions "these slots hold none of the other keys",
    shared by every term of its counts (:func:`_terms`)."""
    terms = _terms(f for f in condition if isinstance(f, CountIn))
    if terms is None:
        return None
    excluded = [(frozenset((f[0],)), problem.domain(f[0]) - f[1]) for f in condition if not isinstance(f, CountIn)]
    return [(sign, excluded + variant) for sign, variant in terms]


# Variants per packed engine run: the packed weights grow with each, so past a
# few dozen a run costs more per variant (entropy mode on the hardest observer
# state: 8 a run 5.3 s, 24 a run 3.5 s, 64 a run 3.3 s; memory grows with it).
_BATCH = 24


def _batches(recipes: list[tuple[Condition, Terms]]) -> list[list[tuple[Condition, Terms]]]:
    """Consecutive recipes grouped so that each group packs at most ``_BATCH`` variants (one at least)."""
    out: list[list[tuple[Condition, Terms]]] = []
    size = 0
    for recipe in recipes:
        own = sum(1 for _, v in recipe[1] if v)
        if not out or size + own > _BATCH:
            out.append([])
            size = 0
        out[-1].append(recipe)
        size += own
    return out


def _variants(batch: list[tuple[Condition, Terms]]) -> tuple[list[list], dict[frozenset, int]]:
    """The distinct variants of a batch's terms, and each one's component number (0: none)."""
    number: dict[frozenset, int] = {frozenset(): 0}
    variants = []
    for _, terms in batch:
        for _, v in terms:
            if frozenset(v) not in number:
                number[frozenset(v)] = len(variants) + 1
                variants.append(v)
    return variants, number


def _packed_run(problem: Problem, batch: list[tuple[Condition, Terms]], budget: float | None = None
                ) -> tuple[columns.Swept, list[Beliefs | None], list[list[tuple[int, int]]]]:
    """One packed columns run: the beliefs under each condition of ``batch`` from its
    signed variants (each distinct variant packed once), with the run and, per
    condition, its signed components.  The empty variant is the problem itself:
    the run's own result (component 0).  ``budget``: the run's, as columns.analyze."""
    variants, number = _variants(batch)
    swept = columns.Swept(problem, variants, budget)
    base, got = swept.beliefs()
    results = [base, *got]
    out, components = [], []
    for condition, terms in batch:
        signed = [(sign, number[frozenset(v)]) for sign, v in terms]
        out.append(_combine(_apply(problem, condition), [(sign, results[c]) for sign, c in signed]))
        components.append(signed)
    return swept, out, components


def _combine(problem: Problem, terms: list[tuple[int, Beliefs | None]]) -> Beliefs | None:
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


def _analysis_job(job: tuple[Problem, str]) -> Beliefs | None:
    """One engine run (module level so process pools can pickle it); None when impossible."""
    problem, engine = job
    try:
        return ENGINES[engine](problem)
    except Inconsistent:
        return None


def _p(b: Beliefs, pos: Pos, keys: frozenset[Key]) -> Fraction:
    row = b.weights[pos]
    return Fraction(sum(w for k, w in row.items() if k in keys), b.denominators[pos[0]])


def _entropy_batch_job(job: tuple[Problem, list[tuple[Condition, list]], tuple[Pos, ...], float]
                       ) -> list[float | None]:
    """H of a batch of branches, from one packed columns run held to its share of the state
    budget (module level for process pools)."""
    problem, batch, positions, budget = job
    return [None if b is None else _h(b, positions) for b in _packed_run(problem, batch, budget)[1]]


def _branch_budgets(problem: Problem, batches: list[list[tuple[Condition, Terms]]]) -> list[float]:
    """Each packed branch run's share of the state budget (``columns.BUDGET``: one budget
    for them all, however many), in proportion to its estimated work; raises EngineLimit
    at once when their estimates together pass it (the M64 5-player preset: 857
    branches in 72 runs, about 109 million states, minutes of work)."""
    limit = columns.BUDGET
    if limit == math.inf:
        return [limit] * len(batches)
    estimates: list[int] = []
    for batch in batches:  # the root analysis ran: its problem prepares without _Zero
        prep = columns._Prepared(problem, _variants(batch)[0])
        estimates += [sum(columns.estimated_states(columns._Plan(prep, d), limit) for d in (False, True))]
        if sum(estimates) > limit:
            raise EngineLimit(f"too large for the entropy mode: its {sum(map(len, batches))} branch analyses would "
                              f"visit more than {columns._about(sum(estimates))} states (budget "
                              f"{columns._about(limit)}); use --mode exact, or a larger --state-budget")
    total = sum(estimates)
    return [limit * n / total for n in estimates]


def _h(b: Beliefs, positions: tuple[Pos, ...]) -> float:
    return sum(math.log2(len({value_of(k) for k in b.weights[pos]})) for pos in positions)


def _entropy_job(job: tuple[Problem, str, tuple[Pos, ...]]) -> float | None:
    """H of one branch (module level so process pools can pickle it); None when impossible."""
    problem, engine, positions = job
    b = _analysis_job((problem, engine))
    return None if b is None else _h(b, positions)


# ---------------------------------------------------------------- the suggester


class _Suggester:
    def __init__(self, table: Table, player: int, engine: str, policy: Policy):
        self.table, self.player, self.engine, self.policy = table, player, engine, policy
        self.deck = table.deck
        self.board = table.board()
        self._runs: dict[tuple[int, int], tuple[int, int] | None] = {}
        self.analyses = _Analyses(compile_table(table), engine)
        self.rng = random.Random(policy.seed)
        # M11's Number wires count as red: calling them explodes like a red.
        self.red_keys = self.deck.keys_of_value(RED) | (
            self.deck.keys_of_value(table.red_value) if table.red_value is not None else frozenset())
        self.all_keys = frozenset(self.deck.copies)
        self._holding: dict[tuple[Value, ...], Condition] = {}
        self.runs_before_kind = 0
        self.incomplete: list[str] = []
        self.branch_runs = 0  # entropy mode: branch analyses run (not found in the cache)

    # -- table geometry
    def pos(self, ref: SlotRef) -> Pos:
        return self.board.wire(ref.player, ref.stand, ref.slot)

    def uncut(self, player: int) -> list[SlotRef]:
        return [ref for s in range(len(self.table.players[player].stands)) for ref in self.uncut_on(player, s)]

    def visible(self, player: int) -> list[SlotRef]:
        """The player's uncut slots they can see (not their own flipped wires): what "holds v" counts."""
        return [ref for ref in self.uncut(player) if not self.board.owner_flipped(self.pos(ref), player)]

    def teammate_stands(self) -> list[tuple[int, int]]:
        return [(q, s) for q, pl in enumerate(self.table.players) if q != self.player for s in range(len(pl.stands))]

    def player_positions(self) -> tuple[Pos, ...]:
        return tuple(self.pos(s) for q in range(len(self.table.players)) for s in self.uncut(q))

    # -- what the player holds
    def held_values(self, root: Beliefs) -> list[Value]:
        """Values the player holds with probability > 0 (certainly, when the player is the observer)."""
        mine = [self.pos(s) for s in self.visible(self.player)]
        return [v for v in self.deck.values() if v != RED and v != self.table.red_value
                and any(_p(root, pos, self.deck.keys_of_value(v)) > 0 for pos in mine)]

    def holding(self, values: Iterable[Value]) -> Condition:
        """The condition "the player holds an uncut wire of each value", empty when already certain.

        A call is legal only if the caller holds the value, so in public view
        (or for another player) the odds of a call are conditioned on it.
        """
        values = tuple(values)
        if values not in self._holding:
            root = self.analyses.beliefs()
            assert root is not None
            mine = frozenset(self.pos(s) for s in self.visible(self.player))
            facts: set[Fact] = set()
            for v in values:
                keys = self.deck.keys_of_value(v)
                if not any(_p(root, pos, keys) == 1 for pos in mine):
                    facts.add(CountIn(mine, keys, 1, len(mine)))
            self._holding[values] = frozenset(facts)
        return self._holding[values]

    def holding_analyses(self, values: list[Value], executor: Executor | None, progress: Progress | None,
                         pairs: Iterable[tuple[Value, Value]] = ()) -> None:
        """Public view (or another player): the beliefs given "holds v" for every uncertain value v,
        and given "holds v and w" for the ``pairs`` the X-or-Y ray will call.

        With the columns engine they come from one run (all "holds no v" at
        once, and "holds neither v nor w" for each pair: inclusion and
        exclusion); other engines run one analysis per condition, side by
        side with an executor, reporting ``progress``.
        """
        conditions = [self.holding((v,)) for v in values] + [self.holding(pair) for pair in pairs]
        if self.engine == "columns":
            self.analyses.packed((c for c in conditions if c), keep=True)
        else:
            self.analyses.prefetch(conditions, executor or map, progress)

    def p_condition(self, condition: Condition, given: Condition = frozenset()) -> Fraction:
        whole = self.analyses.worlds(given)
        return Fraction(self.analyses.worlds(condition | given), whole) if whole else Fraction(0)

    # -- single-slot calls (dual cut, X-or-Y ray): one analysis gives every one of them
    def call(self, kind: str, target: SlotRef, values: tuple[Value, ...]) -> Suggestion | None:
        condition = self.holding(values)
        b = self.analyses.beliefs(condition)
        if b is None:  # the player cannot hold these values
            return None
        called = frozenset().union(*(self.deck.keys_of_value(v) for v in values))
        outcomes: list[tuple[str, Any, Fraction]] = []
        failures: dict[Value, Fraction] = {}
        p_red = Fraction(0)
        for key, p in b.exact(self.pos(target)).items():
            if key in called:
                # A yellow tile shows its printed n.1.
                # A blue success shows nothing beyond the value (named when two were called).
                shown = value_of(key) == YELLOW or len(values) > 1
                outcomes.append(("success", key if shown else None, p))
            elif key in self.red_keys:
                p_red += p
            else:
                failures[value_of(key)] = failures.get(value_of(key), Fraction(0)) + p
        p_success = sum((p for _, _, p in outcomes), Fraction(0))
        if self.policy.failure_token:
            outcomes += [("token", v, p) for v, p in failures.items()]
        elif failures:
            outcomes.append(("failure", None, sum(failures.values(), Fraction(0))))
        if p_red:
            outcomes.append(("red", None, p_red))
        return Suggestion(kind, (target,), values, p_success, p_red, p_success == 1, outcomes,
                          p_legal=self.p_condition(condition), tiebreak=self.rng.random())

    def dual_cuts(self, values: list[Value]) -> list[Suggestion]:
        out = []
        for q, s in self.teammate_stands():
            for ref in self.uncut_on(q, s):
                for v in values:
                    sug = self.call("dual_cut", ref, (v,))
                    if sug is not None:
                        out.append(sug)
        return out

    def uncut_on(self, q: int, s: int) -> list[SlotRef]:
        return [SlotRef(q, s, j) for j, w in enumerate(self.board.stands[q][s]) if w not in self.board.cut]

    def sorted_run(self, q: int, s: int) -> tuple[int, int] | None:
        """(segment, offset) when the stand is its dealt sorted part in order, X/flipped wires aside
        (slot offset + j holds segment position j); None once wires have moved in or out."""
        if (q, s) not in self._runs:
            self._runs[(q, s)] = self._sorted_run(q, s)
        return self._runs[(q, s)]

    def _sorted_run(self, q: int, s: int) -> tuple[int, int] | None:
        row = self.board.stands[q][s]
        inner = [w for w in row if not self.board.special(w)]
        if not inner:
            return None
        sid = inner[0][0]
        if inner != [(sid, j) for j in range(self.board.segments[sid].size)]:
            return None
        return sid, row.index(inner[0])

    # -- forced moves
    def solo_cuts(self, root: Beliefs, values: list[Value]) -> list[Suggestion]:
        """Solo cuts available with certainty: every remaining copy of v is known to be the player's."""
        out = []
        seen = set(self.visible(self.player))
        others = [self.pos(s) for q in range(len(self.table.players)) for s in self.uncut(q) if s not in seen]
        others += self.board.nano
        for v in values:
            keys = self.deck.keys_of_value(v)
            if any(_p(root, pos, keys) > 0 for pos in others):
                continue
            mine = [(s, _p(root, self.pos(s), keys)) for s in self.visible(self.player)]
            if any(0 < p < 1 for _, p in mine):
                continue  # the player surely holds them all, but where is not known in this view
            slots = tuple(s for s, p in mine if p == 1)
            if slots:
                out.append(Suggestion("solo_cut", slots, (v,), Fraction(1), Fraction(0), True, [("success", None, Fraction(1))],
                                      tiebreak=self.rng.random(),
                                      why=f"solo cut: every remaining {_name(v)} ({len(slots)}) is in this hand"))
        return out

    def reveal_red(self, root: Beliefs) -> list[Suggestion]:
        mine = self.uncut(self.player)
        if mine and all(_p(root, self.pos(s), self.red_keys) == 1 for s in mine):
            return [Suggestion("reveal_red", tuple(mine), (), Fraction(1), Fraction(0), True,
                               [("success", None, Fraction(1))], tiebreak=self.rng.random(),
                               why="every wire left in this hand is red: reveal them")]
        return []

    # -- detectors (blue values only; two, three or all uncut slots of one teammate stand)
    def detector_suggestions(self, kind: str, values: list[Value]) -> list[Suggestion]:
        """The best ``per_kind`` uses of a detector, at most one per (stand, value), by branch and bound.

        Every candidate set W enters the heap with an upper bound on P(success)
        from marginals alone (exact when no two slots of W can both hold v); a
        popped bound is replaced by the exact value, which needs joint analyses,
        so an exact candidate on top of the heap beats every bound below it.
        """
        size = _DETECTOR_SIZE[kind]
        cap = Fraction(self.policy.red_cap)
        self.runs_before_kind = self.analyses.runs
        heap: list[tuple[Fraction, float, int, Any]] = []
        order = count()  # keeps heap entries comparable without comparing their payloads

        def push(value: Fraction, exact: bool, family: tuple[int, int, int], w: tuple[int, ...]) -> None:
            heapq.heappush(heap, (-value, self.rng.random(), next(order), (exact, family, w)))

        for q, s in self.teammate_stands():
            run = self.sorted_run(q, s)
            if run is None:
                # Wires moved in or out: the v-wires need not be contiguous, which the bounds and
                # joints below rely on.  Say so rather than rank on a wrong model.
                # Addressed as every engine message is (0-based): the page names the stand its own way.
                note = f"{kind}: not searched on player {q} stand {s} (moved wires)"
                if note not in self.incomplete:
                    self.incomplete.append(note)
                continue
            sid = run[0]
            uncut = [j for j in range(self.board.segments[sid].size) if (sid, j) not in self.board.cut]
            for v in values:
                if not isinstance(v, int):
                    continue  # detectors call blue values only
                family = (q, s, v)
                pv = self.slot_probabilities(family)
                if pv is None or len(uncut) < max(size, 1):
                    continue
                at_most, below = self.key_bounds(family)
                for w in [tuple(uncut)] if size == 0 else combinations(uncut, size):
                    chances = [pv[j] for j in w]
                    # A wire that cannot be v adds nothing (a smaller detector does as well), and a
                    # wire that surely is v makes a plain dual cut certain.
                    if max(chances) == 1 or (size and min(chances) == 0) or sum(p > 0 for p in chances) < 2:
                        continue
                    # Exactly, P(success) = sum of P(w = v) - sum over neighbours a < b in W of P(a = v = b)
                    # (see detector_success), and P(a = v = b) = P(key a >= v, key b <= v) is at least
                    # P(key b <= v) - P(key a < v).  Also some w is v only if first key <= v <= last key,
                    # which has probability P(first <= v) - P(last < v).
                    # Finally, success = sum over i of P(w_i = v, key of w_i-1 < v) (w_i starts the hit),
                    # and each term is at most min(P(w_i = v), P(key of w_i-1 < v)).
                    joints = sum((max(Fraction(0), at_most[b] - below[a]) for a, b in zip(w, w[1:])), Fraction(0))
                    starts = pv[w[0]] + sum((min(pv[b], below[a]) for a, b in zip(w, w[1:])), Fraction(0))
                    bound = min(sum(chances, Fraction(0)) - joints, at_most[w[0]] - below[w[-1]], starts)
                    if bound <= max(chances):
                        continue  # cannot beat a plain dual cut on its likeliest wire
                    push(bound, self.exclusive(family, w, pv), family, w)
        accepted: list[Suggestion] = []
        over_cap: list[Suggestion] = []
        done: set[tuple[int, int, int]] = set()
        while heap and len(accepted) < self.policy.per_kind:
            if self.over_budget():
                self.incomplete.append(kind)
                break
            _, _, _, (exact, family, w) = heapq.heappop(heap)
            if family in done:
                continue
            if not exact:
                push(self.detector_success(family, w), True, family, w)
                continue
            sug = self.detector(kind, family, w)
            if sug.p_success <= max(self.p_slot(family, j) for j in w):
                continue  # no better than a plain dual cut on its likeliest wire
            if sug.p_red <= cap:
                accepted.append(sug)
                done.add(family)  # one suggestion per (stand, value): its best set within the cap
            elif len(over_cap) < self.policy.per_kind:
                over_cap.append(sug)
        return accepted + over_cap[: self.policy.per_kind - len(accepted)]

    def over_budget(self) -> bool:
        budget = self.policy.equipment_budget
        return budget is not None and self.analyses.runs - self.runs_before_kind >= budget

    def slot_probabilities(self, family: tuple[int, int, int]) -> list[Fraction] | None:
        """P(slot = v) for every slot of the family's stand, given that the player holds v."""
        q, s, v = family
        b = self.analyses.beliefs(self.holding((v,)))
        if b is None:
            return None
        keys = self.deck.keys_of_value(v)
        sid = self.run_of(q, s)
        return [_p(b, (sid, j), keys) for j in range(self.board.segments[sid].size)]

    def run_of(self, q: int, s: int) -> int:
        run = self.sorted_run(q, s)
        assert run is not None
        return run[0]

    def p_slot(self, family: tuple[int, int, int], slot: int) -> Fraction:
        pv = self.slot_probabilities(family)
        return pv[slot] if pv is not None else Fraction(0)

    def key_bounds(self, family: tuple[int, int, int]) -> tuple[list[Fraction], list[Fraction]]:
        """Per slot of the stand: P(key <= v) and P(key < v), given that the player holds v."""
        q, s, v = family
        b = self.analyses.beliefs(self.holding((v,)))
        assert b is not None
        sid, key = self.run_of(q, s), 10 * v
        n = self.board.segments[sid].size
        at_most = [_p(b, (sid, j), frozenset(k for k in b.weights[(sid, j)] if k <= key)) for j in range(n)]
        below = [_p(b, (sid, j), frozenset(k for k in b.weights[(sid, j)] if k < key)) for j in range(n)]
        return at_most, below

    def exclusive(self, family: tuple[int, int, int], w: tuple[int, ...], pv: list[Fraction]) -> bool:
        """No two slots of ``w`` can both be v (the v-wires of a sorted stand are contiguous)."""
        return all(self.pair_exclusive(family, a, b, pv) for a, b in combinations(sorted(w), 2))

    def pair_exclusive(self, family: tuple[int, int, int], a: int, b: int, pv: list[Fraction]) -> bool:
        return b - a + 1 > self.deck.copies[10 * family[2]] or any(pv[j] == 0 for j in range(a, b + 1))

    def run_joint(self, family: tuple[int, int, int]) -> tuple[dict[tuple[int, int], Fraction], int] | None:
        """Given that the player holds v: the weight of the deals in which the stand's
        v-wires are exactly its slots f0 .. f1 - 1, by (f0, f1), and the total weight.

        "Holds v" and "slots a, b are v" both depend only on the fills before and
        after key v, so the columns run that gave the beliefs under "holds v"
        answers every set of slots of the stand from one pass over that key.
        None with other engines: the joints then take one conditioned analysis each.
        """
        q, s, v = family
        return self.analyses.run_joint(self.holding((v,)), self.run_of(q, s), 10 * v)

    def both(self, family: tuple[int, int, int], a: int, b: int) -> Fraction:
        """P(slots a < b of the stand both hold v) = P(a holds v) * P(b holds v | a holds v)."""
        pv = self.slot_probabilities(family)
        assert pv is not None
        if self.pair_exclusive(family, a, b, pv):
            return Fraction(0)
        q, s, v = family
        sid, keys = self.run_of(q, s), self.deck.keys_of_value(v)
        given = self.analyses.beliefs(self.holding((v,)) | {((sid, a), keys)})
        return pv[a] * _p(given, (sid, b), keys) if given is not None else Fraction(0)

    def detector_success(self, family: tuple[int, int, int], w: tuple[int, ...]) -> Fraction:
        """P(some slot of ``w`` holds v), exactly.

        The v-wires of a sorted stand form one run I.  With the columns engine,
        :meth:`run_joint` gives the law of I's ends: sum it over the runs that
        meet W.  Otherwise, for sorted w_1 < ... < w_m,
        ``|W & I| - #{i : w_i, w_i+1 both in I} = [W meets I]``; taking
        expectations needs only single marginals and the joints of neighbouring
        slots of W, one conditioned analysis each (this path stays for the
        engines that keep no sweeps).
        """
        joint = self.run_joint(family)
        if joint is not None:  # the v-wires are slots f0 .. f1 - 1: success if one of w is among them
            cells, total = joint
            return Fraction(sum((x for (f0, f1), x in cells.items() if any(f0 <= j < f1 for j in w)), Fraction(0)), total)
        pv = self.slot_probabilities(family)
        assert pv is not None
        q, s, v = family
        if len(w) > 3:  # a whole stand: one analysis "no slot of w holds v" beats a joint per neighbour pair
            keys, sid = self.deck.keys_of_value(v), self.run_of(q, s)
            return 1 - self.p_condition(frozenset(((sid, j), self.all_keys - keys) for j in w), self.holding((v,)))
        ordered = sorted(w)
        return sum((pv[j] for j in ordered), Fraction(0)) - sum(
            (self.both(family, a, b) for a, b in zip(ordered, ordered[1:])), Fraction(0))

    def detector(self, kind: str, family: tuple[int, int, int], w: tuple[int, ...]) -> Suggestion:
        q, s, v = family
        run = self.sorted_run(q, s)
        assert run is not None
        targets = tuple(SlotRef(q, s, run[1] + j) for j in w)
        holding = self.holding((v,))
        p_success = self.detector_success(family, w)
        p_red = self.all_red(targets, holding)
        outcomes = [(outcome, None, p) for outcome, p in
                    (("success", p_success), ("failure", 1 - p_success - p_red), ("red", p_red)) if p]
        return Suggestion(kind, targets, (v,), p_success, p_red, p_success == 1, outcomes,
                          p_legal=self.p_condition(holding), tiebreak=self.rng.random())

    def all_red(self, targets: tuple[SlotRef, ...], given: Condition) -> Fraction:
        """P(every target is red): a detector explodes only then (rules §5; [U] for triple and super)."""
        if not self.red_keys:
            return Fraction(0)
        b = self.analyses.beliefs(given)
        assert b is not None
        if any(_p(b, self.pos(t), self.red_keys) == 0 for t in targets):
            return Fraction(0)
        return self.p_condition(frozenset((self.pos(t), self.red_keys) for t in targets), given)

    def xy_rays(self, root: Beliefs, values: list[Value]) -> list[Suggestion]:
        """X-or-Y ray: per teammate slot the two held values most likely there; the best ``per_kind``.

        Which pair a slot gets is chosen on the observer's marginals; the odds
        listed are exact (conditioned on holding both values when not certain).
        """
        out = []
        for ref, pair in self.xy_picks(root, values):
            sug = self.call("xy_ray", ref, pair)
            if sug is not None:
                out.append(sug)
        return out

    def xy_picks(self, root: Beliefs, values: list[Value]) -> list[tuple[SlotRef, tuple[Value, Value]]]:
        """The ``per_kind`` slots and value pairs :meth:`xy_rays` lists, from the observer's marginals."""
        if len(values) < 2:
            return []
        picks = []
        for q, s in self.teammate_stands():
            for ref in self.uncut_on(q, s):
                probs = {v: _p(root, self.pos(ref), self.deck.keys_of_value(v)) for v in values}
                best = sorted(values, key=lambda v: -probs[v])[:2]
                if probs[best[0]] == 1 or probs[best[1]] == 0:
                    continue  # a plain dual cut does as well
                picks.append((-(probs[best[0]] + probs[best[1]]), _p(root, self.pos(ref), self.red_keys), ref, tuple(best)))
        cap = Fraction(self.policy.red_cap)
        picks.sort(key=lambda t: (t[1] > cap, t[0], t[1]))
        return [(ref, pair) for _, _, ref, pair in picks[: self.policy.per_kind]]

    # -- entropy mode
    def entropy_scores(self, calls: list[Suggestion], probabilities: str, executor: Executor | None,
                       progress: Progress | None, cache: dict[tuple, float | None] | None) -> None:
        """Score every dual cut by E[H] over its success / failure branches (the reference suggester)."""
        positions = self.player_positions()
        cache = {} if cache is None else cache
        branches: list[tuple[Suggestion, Condition, Condition]] = []
        for sug in calls:
            base = self.holding(sug.values)
            pos = self.pos(sug.targets[0])
            keys = self.deck.keys_of_value(sug.values[0])
            branches.append((sug, self.branch(base, pos, keys), self.branch(base, pos, self.all_keys - keys)))
        wanted: dict[tuple, tuple[Problem, Condition]] = {}
        for _, *conds in branches:
            for cond in conds:
                if cond is not None:
                    problem = _apply(self.analyses.base, cond)
                    wanted.setdefault(problem_key(problem), (problem, cond))
        todo = [(k, p, c) for k, (p, c) in wanted.items() if k not in cache]
        total = self.branch_runs = len(todo)
        if progress:
            progress(0, total)
        run = executor or map
        if self.engine == "columns":  # branches as packed variants, a batch per run
            base = self.analyses.base
            recipes = []
            for _, _, cond in todo:
                terms = _recipe(base, cond)
                assert terms is not None, "a branch is slot restrictions and at most one 'holds v'"
                recipes.append((cond, terms))
            batches = _batches(recipes)
            jobs = [(base, batch, positions, share) for batch, share in zip(batches, _branch_budgets(base, batches))]
            results = (h for hs in run(_entropy_batch_job, jobs) for h in hs)
            sizes = [len(batch) for batch in batches]
        else:
            results = run(_entropy_job, [(p, self.engine, positions) for _, p, _ in todo])
            sizes = [1] * len(todo)
        done, report = 0, iter(sizes)
        next_report = next(report, 0)
        for (k, _, _), h in zip(todo, results):
            cache[k] = h
            done += 1
            if progress and done == next_report:
                progress(done, total)
                next_report += next(report, 0)

        def h_of(cond: Condition | None) -> float | None:
            return None if cond is None else cache[problem_key(_apply(self.analyses.base, cond))]

        for sug, success, failure in branches:
            b = self.analyses.beliefs(self.holding(sug.values))
            assert b is not None
            pos = self.pos(sug.targets[0])
            if probabilities == "seed":
                possible = {value_of(k) for k in b.weights[pos]}
                p_s = 1 / len(possible) if sug.values[0] in possible else 0.0
            else:
                p_s = float(sug.p_success)
            h_s, h_f = h_of(success), h_of(failure)
            expected = (p_s * h_s if p_s and h_s is not None else 0.0) + ((1 - p_s) * h_f if p_s < 1 and h_f is not None else 0.0)
            sug.extra.update({"expected_entropy": round(expected, 6), "p_branch_success": round(p_s, 6),
                              "entropy_success": None if h_s is None else round(h_s, 6),
                              "entropy_failure": None if h_f is None else round(h_f, 6)})

    def branch(self, base: Condition, pos: Pos, keys: frozenset[Key]) -> Condition | None:
        """``base`` plus "slot ``pos`` holds one of ``keys``", normalised so equal problems share a cache entry."""
        b = self.analyses.beliefs(base)
        assert b is not None
        support = frozenset(b.weights[pos])
        kept = support & keys
        if not kept:
            return None
        return base if kept == support else base | {(pos, kept)}


def _name(v: Value) -> str:
    return "yellow" if v == YELLOW else str(v)


def _rank_key(sug: Suggestion, cap: float) -> tuple:
    """Within the red cap: most likely first, then most informative, then a seeded random order."""
    if float(sug.p_red) <= cap:
        return (0, -sug.p_success, -sug.bits, sug.tiebreak)
    return (1, sug.p_red, -sug.p_success, -sug.bits, sug.tiebreak)


def _why(sug: Suggestion, cap: float) -> str:
    if sug.why:
        return sug.why
    if sug.certain:
        what = "this wire can only be" if sug.kind in ("dual_cut", "xy_ray") else "one of these wires is"
        # Certain only under the call's condition when the player may not hold the value(s) at all.
        held = " and ".join(_name(v) for v in sug.values)
        condition = "" if sug.p_legal >= 1 else f" if the player holds {held} (P {float(sug.p_legal):.0%})"
        return f"certain{condition}: {what} {' or '.join(_name(v) for v in sug.values)}"
    text = f"P(success) {float(sug.p_success):.0%}, red risk {float(sug.p_red):.1%}, {sug.bits:.2f} bits"
    if "expected_entropy" in sug.extra:
        text += f", E[H] {sug.extra['expected_entropy']:.2f}"
    if float(sug.p_red) > cap:
        text += f" (red risk above the {cap:.0%} cap)"
    if sug.p_legal < 1:
        text += f"; legal only if the player holds it (P {float(sug.p_legal):.0%})"
    return text


def suggest(table: Table, *, player: int | None = None, mode: str = "exact", probabilities: str = "exact",
            top: int | None = None, engine: str = DEFAULT, policy: Policy = Policy(),
            executor: Executor | None = None, progress: Progress | None = None,
            cache: dict[tuple, float | None] | None = None) -> dict[str, Any]:
    """The CLI's ``suggest`` JSON for a validated table (``{"consistent": false, ...}`` if impossible).

    ``executor`` maps the entropy mode's branch analyses (with the columns
    engine: batches of packed branches) and, with other engines in public
    view, the per-value "player holds v" analyses (default: built-in ``map``;
    e.g. ``ProcessPoolExecutor().map``); ``progress(done, total)`` is called
    as those finish; ``cache`` (problem key -> H) may be kept across calls.
    """
    if engine not in ENGINES:
        raise EngineChoiceError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
    if mode not in MODES:
        raise SuggestError(f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
    if probabilities not in PROBABILITIES:
        raise SuggestError(f"unknown probabilities {probabilities!r} (choose from {', '.join(PROBABILITIES)})")
    unknown = sorted(set(policy.equipment) - set(EQUIPMENT))
    if unknown:
        raise SuggestError(f"unknown equipment {unknown[0]!r} (choose from {', '.join(EQUIPMENT)})")
    if top is not None and top < 0:
        raise SuggestError("top must be >= 0")
    # NaN compares false both ways, so "not 0 <= cap <= 1" also refuses it (and inf).
    if isinstance(policy.red_cap, bool) or not 0 <= policy.red_cap <= 1:
        raise SuggestError(f"red_cap must be a probability between 0 and 1, not {policy.red_cap!r}")
    if policy.per_kind < 0:
        raise SuggestError(f"per_kind must be >= 0, not {policy.per_kind}")
    if policy.equipment_budget is not None and policy.equipment_budget < 0:
        raise SuggestError(f"budget must be >= 0 or none, not {policy.equipment_budget}")
    if player is None:
        if table.me is None:
            raise SuggestError("no player to move: the table has no 'me'; name the player")
        player = table.me
    if not 0 <= player < len(table.players):
        raise SuggestError(f"player {player} is out of range (0..{len(table.players) - 1})")
    if table.events and exploded(table.events[-1]):  # nothing may follow an explosion
        raise SuggestError(f"the bomb exploded at event {len(table.events) - 1}: the game is over, there is no next move")

    sg = _Suggester(table, player, engine, policy)
    root = sg.analyses.beliefs()
    if root is None:
        return analyze(table, engine)
    values = sg.held_values(root)
    if any(sg.uncut_on(q, s) for q, s in sg.teammate_stands()):
        xy = sg.xy_picks(root, values) if "xy_ray" in policy.equipment else []
        sg.holding_analyses(values, executor, progress, [pair for _, pair in xy])
    calls = sg.dual_cuts(values)
    if mode == "entropy":
        sg.entropy_scores(calls, probabilities, executor, progress, cache)
    equipment = []
    for kind in policy.equipment:
        equipment += sg.xy_rays(root, values) if kind == "xy_ray" else sg.detector_suggestions(kind, values)

    cap = policy.red_cap
    forced = sg.reveal_red(root) + sg.solo_cuts(root, values) + [c for c in calls if c.certain]
    ranked = [c for c in calls if not c.certain]
    if mode == "entropy":
        # The reference ranking, except that calls above the red cap come last (red_cap=1 turns that off).
        ranked.sort(key=lambda c: (float(c.p_red) > cap, c.extra["expected_entropy"], c.tiebreak))
    else:
        ranked.sort(key=lambda c: _rank_key(c, cap))
    forced.sort(key=lambda c: _rank_key(c, cap))
    equipment.sort(key=lambda c: _rank_key(c, cap))
    ordered = forced + ranked + equipment
    total = len(ordered)
    if top is not None:
        ordered = ordered[:top]
    for sug in ordered:
        sug.why = _why(sug, cap)
    result: dict[str, Any] = {"consistent": True, "player": player, "mode": mode, "worlds": root.worlds,
                              "red_cap": cap, "analyses": sg.analyses.runs, "incomplete": sg.incomplete}
    if mode == "entropy":
        result["branch_analyses"] = sg.branch_runs
    result["suggestions"] = [s.json() for s in ordered]
    result["total"] = total  # before `top`: how many a longer list would show
    return result
