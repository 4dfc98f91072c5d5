"""The columns engine's work estimate: the states a sweep will visit, before it runs.

:func:`estimated_states` is the early refusal behind the engine's budget
(the package's ``check_budget``) and what the bridge and the simulator read
to decide a table's cost; the sweep's own count (:class:`~.sweep.Work`) is
the bound.  :func:`_estimated_states` is the cheap product bound that
decides whether forking the mirrored sweep pays.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache
from math import comb

from .plan import Plan
from .sweep import _cost


@lru_cache(maxsize=256)
def _multisets(g: int, r: int) -> list[int]:
    """Coefficients by sum of the multisets of g values in 0..r (sorted fills of g interchangeable stands)."""
    ways = [[1] + [0] * (g * r)] + [[0] * (g * r + 1) for _ in range(g)]
    for v in range(r + 1):
        for k in range(1, g + 1):
            row, prev = ways[k], ways[k - 1]
            for s in range(v, g * r + 1):
                row[s] += prev[s - v]
    return ways[g]


def estimated_states(plan: Plan, limit: float = float("inf")) -> int:
    """The states one sweep visits, estimated before it runs, weighted by their cost as
    :func:`.sweep.step` counts them: per key and copy placed, the fill vectors (group
    members as multisets) whose stands' fills lie in the ranges the domains allow during
    that key and whose sum is the copies placed so far, and at most the spreads of the
    copies so far over the stands.  Counters live at a key are left out: multiplying by
    their values put random legal games up to 5,000x over (refusing them); without them
    the work lands within 0.4-11x of this on random 4-5-player full-rules games
    (bench/bench_budget.py), so it serves as the early refusal, and the sweep's own
    count (:class:`~.sweep.Work`) is the bound.  Stops early once past ``limit``: the
    running total at the first key that passes it.

    The running totals are kept on the plan (the page's worker estimates one plan up to
    three times per split analysis, ~1.6 ms each on a 5-player table): any limit is
    answered from them as a run held to it would, or they are made again further."""
    totals, complete = plan.running_estimate
    if not complete and (not totals or totals[-1] <= limit):
        totals, complete = plan.running_estimate = _running_totals(plan, limit)
    return next((t for t in totals if t > limit), totals[-1] if totals else 0)


def _running_totals(plan: Plan, limit: float) -> tuple[list[int], bool]:
    """The estimate's total after each key, up to the first past ``limit``; and whether all keys were
    taken."""
    prep = plan.prep
    grouped = {s for g in prep.groups for s in g}
    singles = [s for s in prep.free if s not in grouped]
    totals: list[int] = []
    total = placed = 0
    deals = 1
    for t, layer in enumerate(plan.layers):
        top = placed + layer.copies
        poly = [1]
        units = [(s, 1) for s in singles] + [(g[0], len(g)) for g in prep.groups]
        for s, g in units:
            lo, hi = bisect_left(plan.highs[s], t), bisect_right(plan.lows[s], t)
            unit = [1] * (hi - lo + 1) if g == 1 else _multisets(g, hi - lo)
            shift = lo * g
            new = [0] * min(len(poly) + shift + len(unit) - 1, top + 1)
            for i, a in enumerate(poly):
                if a:
                    for j, b in enumerate(unit[:max(top + 1 - i - shift, 0)]):
                        new[i + shift + j] += a * b
            poly = new
        n = sum(poly[placed:top + 1])
        # A state is a function of the copies per stand of each key so far (counters
        # included): never more than those spreads.
        if prep.free:
            deals = min(deals * comb(layer.copies + len(prep.free) - 1, len(prep.free) - 1), 1 << 64)
        total += min(n, deals * (layer.copies + 1)) * _cost(layer)
        totals.append(total)
        placed = top
        if total > limit:
            return totals, False
    return totals, True


def _estimated_states(plan: Plan) -> int:
    """A cheap upper estimate of the states a sweep visits: product of fill ranges per key."""
    return sum(layer.estimate for layer in plan.layers)

