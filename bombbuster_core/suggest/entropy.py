"""The entropy mode: the reference design's suggester, ranking dual cuts by expected entropy.

Each call is simulated as success (the slot is v) and failure (it is not),
the analysis is re-run in both branches, and the call scores
``E[H] = P_s*H_s + (1-P_s)*H_f``, with ``H`` the sum over uncut player slots
of ``log2 |possible gameplay values|`` and ``P_s`` either the "seed" 1/k or
the exact probability.  Branches that are the same problem share one run
and one entry of the caller's cache (problem key -> H).  H needs only the
supports of the slot marginals, so with the columns engine every branch is
one bit of one boolean run (:func:`support_entropies`,
``engines/columns/support.py``: one pass per key for all calls at once,
in process), held to the state budget: past it the request is refused,
since counting the branches costs many times that run.  Where that run
declines the plan (interchangeable stands, run rules, value checks), the
branches are counted as packed variants, a batch per run, the runs sharing
one state budget (:func:`branch_budgets`); those runs
go through the caller's ``map``-like executor, so :func:`entropy_job` and
:func:`entropy_batch_job` are module level (process pools, the bridge's
task "executor.call").
"""
from __future__ import annotations

import math

from ..beliefs import Beliefs, EngineLimit
from ..engines import columns
from ..engines.columns import support
from ..facts import CountIn, Pos, Problem
from ..wires import Key, value_of
from .analyses import (Condition, Executor, Progress, Terms, analysis_job, apply_condition, batches, packed_run,
                       problem_key, recipe, distinct_variants)
from .conditioning import Holding
from .position import Position
from .ranking import Suggestion

Cache = dict[tuple, float | None]  # problem key -> H of the branch (None: no deal)
Branch = tuple[Suggestion, Condition | None, Condition | None]  # a call, its success and failure conditions


def score(position: Position, holding: Holding, calls: list[Suggestion], probabilities: str,
          executor: Executor | None, progress: Progress | None, cache: Cache | None) -> int:
    """Score every dual cut by E[H] over its success / failure branches (in each call's ``extra``);
    returns how many branch analyses ran (those not found in ``cache``)."""
    cache = {} if cache is None else cache
    branches: list[Branch] = []
    complements: dict[Condition, tuple[Condition, Condition]] = {}
    for sug in calls:
        base = holding(sug.values)
        pos = position.pos(sug.targets[0])
        keys = position.deck.keys_of_value(sug.values[0])
        success = _branch(position, base, pos, keys)
        failure = _branch(position, base, pos, position.all_keys - keys)
        if success is not None and failure is not None and failure != base:
            complements.setdefault(failure, (base, success))
        branches.append((sug, success, failure))
    base_problem = position.analyses.base
    wanted: dict[tuple, tuple[Problem, Condition]] = {}
    for _, *conds in branches:
        for cond in conds:
            if cond is not None:
                problem = apply_condition(base_problem, cond)
                wanted.setdefault(problem_key(problem), (problem, cond))
    todo = [(k, p, c) for k, (p, c) in wanted.items() if k not in cache]
    _run_branches(position, todo, complements, executor, progress, cache)

    def h_of(cond: Condition | None) -> float | None:
        return None if cond is None else cache[problem_key(apply_condition(base_problem, cond))]

    for sug, success, failure in branches:
        b = position.analyses.beliefs(holding(sug.values))
        assert b is not None
        pos = position.pos(sug.targets[0])
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
    return len(todo)


def _branch(position: Position, base: Condition, pos: Pos, keys: frozenset[Key]) -> Condition | None:
    """``base`` plus "slot ``pos`` holds one of ``keys``", normalised so equal problems share a cache entry."""
    b = position.analyses.beliefs(base)
    assert b is not None
    support = frozenset(b.weights[pos])
    kept = support & keys
    if not kept:
        return None
    return base if kept == support else base | {(pos, kept)}


def _run_branches(position: Position, todo: list[tuple[tuple, Problem, Condition]],
                  complements: dict[Condition, tuple[Condition, Condition]], executor: Executor | None,
                  progress: Progress | None, cache: Cache) -> None:
    """H of each branch of ``todo`` (problem key, problem, condition) into ``cache``, reporting
    ``progress(done, total)`` as runs finish: with columns, from one boolean run in process
    (:func:`support_entropies`, held to the state budget; its refusal is the request's, the
    counting runs costing many times its work), or where that run declines the plan, from
    counting runs through ``executor`` sharing the budget (:func:`branch_budgets`); with
    other engines through ``executor``.

    A failure branch that ``complements`` maps to ``(base, success)`` is packed as the signed
    sum "base's deals minus success's": success is "base and the slot holds one of kept", the
    failure "base and the slot holds another key of its support", and base puts no deal outside
    that support, so the two partition base's deals.  Its variants are then base's (shared by
    every call of the value) and success's (packed beside it), instead of as many of its own."""
    positions = position.player_positions()
    total = len(todo)
    if progress:
        progress(0, total)
    run = executor or map
    if position.engine == "columns":  # branches as packed variants, a batch per run
        base = position.analyses.base
        hs = support_entropies(base, [cond for _, _, cond in todo], positions) if todo else None
        if hs is not None:
            for (k, _, _), h in zip(todo, hs):
                cache[k] = h
            if progress:
                progress(total, total)
            return
        recipes = []
        for _, _, cond in todo:
            if cond in complements:
                given, success = complements[cond]
                given_terms, success_terms = recipe(base, given), recipe(base, success)
                assert given_terms is not None and success_terms is not None
                terms = given_terms + [(-sign, v) for sign, v in success_terms]
            else:
                terms = recipe(base, cond)
            assert terms is not None, "a branch is slot restrictions and at most one 'holds v'"
            recipes.append((cond, terms))
        grouped = batches(recipes)
        shares = branch_budgets(base, grouped)
        jobs = [(base, batch, positions, share) for batch, share in zip(grouped, shares)]
        results = (h for hs in run(entropy_batch_job, jobs) for h in hs)
        sizes = [len(batch) for batch in grouped]
    else:
        results = run(entropy_job, [(p, position.engine, positions) for _, p, _ in todo])
        sizes = [1] * len(todo)
    done, report = 0, iter(sizes)
    next_report = next(report, 0)
    for (k, _, _), h in zip(todo, results):
        cache[k] = h
        done += 1
        if progress and done == next_report:
            progress(done, total)
            next_report += next(report, 0)


def support_entropies(problem: Problem, conditions: list[Condition], positions: tuple[Pos, ...]
                      ) -> list[float | None] | None:
    """H of every branch from one boolean columns run (H needs only the supports of the
    slot marginals: :mod:`..engines.columns.support`), or None when that run does not model
    them (a branch with more than one "holds" fact, or a plan it leaves to the counting
    runs).  "Holds one of K" is one variant per key of K, their supports united.  Raises
    EngineLimit past ``columns.BUDGET`` states."""
    variants: list[tuple[list, support.Holds | None]] = []
    owners: list[list[int]] = []  # per branch, its variants
    for cond in conditions:
        counts = [f for f in cond if isinstance(f, CountIn)]
        if len(counts) > 1 or any(c.lo != 1 or c.hi < len(c.slots) for c in counts):
            return None
        excluded = [(frozenset((f[0],)), problem.domain(f[0]) - f[1]) for f in cond if not isinstance(f, CountIn)]
        holds = [(counts[0].slots, k) for k in sorted(counts[0].keys)] if counts else [None]
        owners.append(list(range(len(variants), len(variants) + len(holds))))
        variants += [(excluded, h) for h in holds]
    try:
        got = support.supports(problem, variants, columns.BUDGET)
    except EngineLimit:  # the counting runs cost many times this one: they would not fit either
        raise EngineLimit(f"too large for the entropy mode: the boolean run of its {len(conditions)} branch "
                          f"analyses goes past the budget of {columns.about(columns.BUDGET)} states; use --mode "
                          f"exact, or a larger --state-budget", "entropy_boolean_budget",
                          branches=len(conditions), budget=columns.BUDGET) from None
    if got is None:
        return None
    out: list[float | None] = []
    for mine in owners:
        present = [got[i] for i in mine if got[i] is not None]
        if not present:
            out.append(None)
            continue
        out.append(sum(math.log2(len({value_of(k) for sup in present for k in sup[pos]})) for pos in positions))
    return out


def entropy_batch_job(job: tuple[Problem, list[tuple[Condition, list]], tuple[Pos, ...], float]
                       ) -> list[float | None]:
    """H of a batch of branches, from one packed columns run held to its share of the state
    budget (module level for process pools)."""
    problem, batch, positions, budget = job
    return [None if b is None else branch_entropy(b, positions) for b in packed_run(problem, batch, budget)[1]]


def branch_budgets(problem: Problem, grouped: list[list[tuple[Condition, Terms]]]) -> list[float]:
    """Each packed branch run's share of the state budget (``columns.BUDGET``: one budget
    for them all, however many), in proportion to its estimated work; raises EngineLimit
    at once when their estimates together pass it (the M64 5-player preset: 857
    branches in 72 runs, about 109 million states, minutes of work)."""
    limit = columns.BUDGET
    if limit == math.inf:
        return [limit] * len(grouped)
    estimates: list[int] = []
    for batch in grouped:  # the root analysis ran: its problem prepares without Zero
        prep = columns.Prepared(problem, distinct_variants(batch)[0])
        estimates += [sum(columns.estimated_states(columns.Plan(prep, d), limit) for d in (False, True))]
        if sum(estimates) > limit:
            raise EngineLimit(f"too large for the entropy mode: its {sum(map(len, grouped))} branch analyses would "
                              f"visit more than {columns.about(sum(estimates))} states (budget "
                              f"{columns.about(limit)}); use --mode exact, or a larger --state-budget",
                              "entropy_branches_budget", branches=sum(map(len, grouped)), states=sum(estimates),
                              budget=limit)
    total = sum(estimates)
    return [limit * n / total for n in estimates]


def branch_entropy(b: Beliefs, positions: tuple[Pos, ...]) -> float:
    """H: the sum over ``positions`` of log2 |gameplay values possible there|."""
    return sum(math.log2(len({value_of(k) for k in b.weights[pos]})) for pos in positions)


def entropy_job(job: tuple[Problem, str, tuple[Pos, ...]]) -> float | None:
    """H of one branch (module level so process pools can pickle it); None when impossible."""
    problem, engine, positions = job
    b = analysis_job((problem, engine))
    return None if b is None else branch_entropy(b, positions)
