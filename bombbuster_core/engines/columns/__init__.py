"""Exact engine "columns": a dynamic program over sort keys (the default).

Walk the sort keys in ascending order.  The state after a key is how many
slots each hidden stand has filled so far; because stands are sorted, slot
``j`` of stand ``s`` holds a key ``<= k`` exactly when the fill of ``s``
after ``k`` exceeds ``j``.  The copies of a key are placed one at a time,
each on any stand whose next slot may take it, so a transition is one
integer addition on a bit-packed state code and costs no allocation.

Weights are exact integers.  The copies of a key spread over the stands in
``m! / prod(c_s!)`` ways (the shuffle prior of docs/architecture.md), and that is
exactly how many orders of one-at-a-time placements reach the spread ``c``,
so every move has weight 1.  The states between two copies are fill vectors
too, and merge as freely as those at key boundaries: measured on the
hardest 5-player state, this halves the work of placing a key stand by
stand with a counter of copies left (0.45 s -> 0.21 s per sweep).

What keeps the state space small:
* stands whose every slot is known (the observer's hand, fully revealed
  stands) leave the state and only scale the result;
* a copy may land only on a slot whose domain holds the key, and when the
  copies left are just enough for the slots that must be filled by this key
  (their domains end here), the copy must go to one of those;
* the moves of adjacent stands are looked up together, from tables built
  only for the fills a state can have at that key;
* stands that are interchangeable (same size, same slot domains, no count
  fact) are kept as a sorted tuple: a symmetric state stores its orbit's
  total weight, which is exact because transitions commute with permuting
  interchangeable stands; a copy goes to one stand of each run of equal
  fills, with the run's length as multiplicity, so states stay sorted.

Count facts ride along as small counter fields in the state code while a
key of theirs is being placed on a stand of theirs; a fact about one key
(a blue value) lives for one key only, so it never multiplies the states.

Order facts (``key(lo) <= key(hi)``, wires moved between stands) need no
state: at every key boundary a violation shows as "hi filled, lo not"
(mirrored: the reverse), so states are filtered at the boundaries after the
keys the first of them may hold; forward and backward states still join
exactly.  Their bounds also enter the slot domains, and an order the domains
imply (a known side) is dropped.

Value facts speak of gameplay classes (a blue key, every yellow, every red).
SameValue(different) is one count fact per class; a SameValue(equal) or
SameValueCount whose class is decided becomes domains or a count fact.  For
a blue class (one key) the common shapes are *run rules*, which need no
counter: the copies of a key on a sorted stand form one run, and an x-count
token over its whole stand ("a run covering my slot has length c") or a
label on two neighbours ("not both covered" / "both or neither") only
restricts that run; single copies never land on a rule's slot, and the runs
that cover one are placed whole at the key's start, with their multinomial
share of the weight and a flag bit closing the stand for that key
(Plan._block_table).  M24 5p public start with five tokens: 15.6 s as
counters, 0.4 s as runs.  The rest are checks, per class that can matter:
counter fields like a count fact's (saturating, never rejecting on their
own) and the tuples of final values they accept, applied when the class's
last key is placed and, for classes spanning a key boundary (yellow, red),
at the join of the two sweeps.  Stands of order or value facts are not
interchangeable.

Marginals: a second sweep over the mirrored problem (keys descending, stands
reversed) gives, at every key boundary, the weight of completing each state;
the product with the forward weight is the exact weight of each fill vector,
and differences of fill distributions are the slot marginals.

Variants (:func:`analyze_excluding`): the same problem with some slots
barred from some keys, many at once.  Every variant's weight rides in its own
bit field of one integer, so one sweep carries them all; a move a variant
forbids clears that field.  Suggestions use it to condition every call on
"the caller holds v" for all v in one run, and for the entropy branches.

Joints around one key (:meth:`Swept.run_joint`): a run's sweeps are kept
(:class:`Swept`), and one more pass over key k, its states tagged with a
stand's fill before k, joined with the backward sweep after k, gives the
law of that stand's fills before and after k: which of its slots hold k.
The Double Detector search reads every slot set's odds from it.

The package, along the data flow:

* prepare.py: the problem as slot domains, facts and variants in layer
  indexes, shared by both directions (:class:`~.prepare.Prepared`);
* plan.py: one direction's state layout, layers and move tables
  (:class:`~.plan.Plan`);
* sweep.py: the layer records and the step that places one key's copies,
  with the work count behind the budget (:class:`~.sweep.Work`);
* estimate.py: the states a sweep will visit, before it runs;
* join.py: marginals and joints around one key from both sweeps
  (:class:`~.join.Join`);
* support.py: slot supports alone (which keys a slot may hold) for hundreds
  of variants in one boolean run, a bit per variant (the entropy mode);
* here: the settings below (the CLI, the bridge and tests set them on this
  module, and only the code here reads them) and the entry points:
  :func:`analyze`, :func:`analyze_excluding`, :func:`worlds_excluding`,
  :class:`Swept`, :func:`plans` and :func:`sweep_one` (a worker's share of a
  split analysis).
"""
from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Sequence
from math import inf

from ...beliefs import Beliefs, EngineLimit, Inconsistent
from ...facts import Problem
from .estimate import _estimated_states, estimated_states
from .join import Join
from .plan import Plan
from .prepare import Exclusion, Prepared, State, Variant, Zero, restricted
from .sweep import Work, about

# The engine's public names.  Those of its internals other modules use (the sampler, the bridge,
# the entropy search, benchmarks) are public in their modules; the few this module uses itself
# are reached here too (Plan, Prepared, Zero, about: the same objects, not copies).
__all__ = ["BUDGET", "PARALLEL_MIN_STATES", "PARALLEL_SWEEPS", "SWEEPS_ELSEWHERE", "Exclusion", "Plan", "Prepared",
           "State", "Swept", "Variant", "Work", "Zero", "about", "analyze", "analyze_excluding", "check_budget",
           "estimated_states", "forget_plans", "kept_plans", "plans", "restricted", "sweep_one", "worlds_excluding"]

# Run the two sweeps in two processes (fork) when a table is big enough to pay
# for it (~15 ms of fork + pickling).  Off by default: forking a process that
# has threads is unsafe, so only the single-threaded CLI turns it on.  Where
# there is no fork (Pyodide), sweeps stay serial.
PARALLEL_SWEEPS = False
PARALLEL_MIN_STATES = 20_000  # estimated boundary states, summed over keys

# Work bound, in states weighted by their cost (:func:`.sweep.step`): before sweeping,
# the engine estimates both sweeps' work (:func:`.estimate.estimated_states`, a few ms) and
# refuses beyond this many with EngineLimit ("too large: about N states; ..."); each
# sweep then counts its work as it goes and stops past half of it ("too large: more
# than N states in one sweep"), whatever the estimate said.  Measured (CPython, one
# core, docs/architecture.md "The work budget"): 0.5-1 us per unit, so 20 million is ~20 s at most.  The
# legal setups of every mission and player count estimate at most 1.6 million (M64 5p
# public, a value token on every stand; tests/test_engines.py checks them all against
# BUDGET / 4).
BUDGET: float = 20_000_000


# The page's two workers sweep one direction each (bridge.py, "split"; Pyodide has no
# fork): while set, this hook gets both plans and returns both sweeps, or None to sweep here.
SWEEPS_ELSEWHERE: Callable[[Plan, Plan], tuple[list[State], list[State]] | None] | None = None


# The plans of the last problems planned, by the problem's value: the page's worker plans one
# table up to three times per split analysis (the request, its home sweep, the request again
# with the answers), ~3 ms each on a 5-player table plus the estimates kept on the plans.
# A plan is not changed by sweeping it (its move tables are filled as asked, the same
# whoever asks), so a kept one answers as a new one would.
KEPT_PLANS = 4
_PLANS: OrderedDict[tuple[object, ...], tuple[Plan, Plan]] = OrderedDict()


def kept_plans() -> int:
    """How many problems' plans are kept (:func:`plans`)."""
    return len(_PLANS)


def forget_plans() -> None:
    """Drop the kept plans: the next :func:`plans` of any problem makes them anew."""
    _PLANS.clear()


def plans(problem: Problem, variants: Sequence[Variant] = ()) -> tuple[Plan, Plan]:
    """The forward and mirrored plans :func:`analyze_excluding` sweeps for ``problem`` and
    ``variants``; a worker given the same problem sweeps one of them (``sweep_one(plans(p)[1])``)
    and gets exactly analyze's sweep.  Raises :class:`~.prepare.Zero` when no deal can fit."""
    key = (problem.stands, tuple(sorted(problem.copies.items())), tuple(sorted(problem.domains.items())),
           problem.counts, problem.orders, problem.values,
           tuple(map(tuple, variants)))
    kept = _PLANS.get(key)
    if kept is None:
        prep = Prepared(problem, variants)
        kept = _PLANS[key] = (Plan(prep, False), Plan(prep, True))
        while len(_PLANS) > KEPT_PLANS:
            _PLANS.popitem(last=False)
    else:
        _PLANS.move_to_end(key)
    return kept


def sweep_one(plan: Plan, budget: float | None = None) -> list[State]:
    """One of an analysis's two sweeps, held to half of ``budget`` (None: :data:`BUDGET`;
    ``math.inf``: no limit) wherever it runs, so the answer does not depend on where the
    sweeps ran (here, a forked child, or a worker of the page's pool)."""
    limit = BUDGET if budget is None else budget
    return plan.sweep(Work(limit / 2, limit))


def _sweep_both(forward: Plan, mirrored: Plan, budget: float) -> tuple[list[State], list[State]]:
    """Both sweeps, each held to half of ``budget`` (wherever it runs, so the answer does not
    depend on where the sweeps ran)."""
    if SWEEPS_ELSEWHERE is not None:
        swept = SWEEPS_ELSEWHERE(forward, mirrored)
        if swept is not None:
            return swept
    if not (PARALLEL_SWEEPS and hasattr(os, "fork") and _estimated_states(forward) >= PARALLEL_MIN_STATES):
        return sweep_one(forward, budget), sweep_one(mirrored, budget)
    import pickle  # only the CLI's forked sweep needs it; not worth its import time elsewhere
    import signal

    read_end, write_end = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # child: the mirrored sweep (or its refusal), pickled into the pipe
        try:
            from ...children import bind_to_parent  # dies with the CLI, even on SIGKILL

            bind_to_parent(parent)
            try:
                result: object = sweep_one(mirrored, budget)
            except EngineLimit as e:
                result = e
            with os.fdopen(write_end, "wb") as out:
                out.write(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
        finally:
            os._exit(0)
    os.close(write_end)
    try:
        fwd = sweep_one(forward, budget)
    except BaseException:  # refused (or Ctrl-C): the child's half is not wanted
        os.close(read_end)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    with os.fdopen(read_end, "rb") as inp:
        data = inp.read()
    os.waitpid(pid, 0)
    try:
        back = pickle.loads(data)
    except Exception:  # the child died (e.g. out of memory): do its share here
        return fwd, sweep_one(mirrored, budget)
    if isinstance(back, EngineLimit):
        raise back
    return fwd, back


def analyze(problem: Problem, budget: float | None = None) -> Beliefs:
    """Exact worlds and slot marginals; raises :class:`Inconsistent` when no deal fits
    and :class:`EngineLimit` when the sweeps would visit more than ``budget`` states
    (None: the module's :data:`BUDGET`; ``math.inf``: no limit)."""
    return analyze_excluding(problem, (), budget)[0]


def check_budget(forward: Plan, mirrored: Plan | None, budget: float | None = None) -> float:
    """The budget in force (``budget``; None: BUDGET; ``math.inf``: no limit, and nothing to
    estimate); raises EngineLimit at once when the estimated states of both sweeps (or the
    forward one alone) pass it."""
    limit = BUDGET if budget is None else budget
    if limit == inf:
        return limit
    n = estimated_states(forward, limit)
    if n <= limit and mirrored is not None:
        n += estimated_states(mirrored, limit - n)
    if n > limit:
        raise EngineLimit(f"too large: about {about(n)} states (budget {about(limit)}); no legal deal comes "
                          "near this; a larger budget may take minutes and GBs", "states_budget", states=n, budget=limit)
    return limit


def worlds_excluding(problem: Problem, variants: Sequence[Variant], budget: float | None = None) -> list[int]:
    """The worlds of the problem and of each variant (0: no deal fits), from the
    forward sweep alone: half an analysis, for callers that need a ratio of
    worlds and no marginal.  ``budget``: as :func:`analyze`."""
    try:
        prep = Prepared(problem, variants)
        forward = Plan(prep, False)
        limit = check_budget(forward, None, budget)
        total = sum(forward.sweep(Work(limit, limit))[prep.n_layers].values())
    except Zero:
        return [0] * (len(variants) + 1)
    width = prep.width
    return [0 if c in prep.dead else ((total >> (c * width)) & ((1 << width) - 1) if variants else total) * prep.multiplier
            for c in range(len(variants) + 1)]


def analyze_excluding(problem: Problem, variants: Sequence[Variant], budget: float | None = None
                      ) -> tuple[Beliefs, list[Beliefs | None]]:
    """The problem's beliefs and, for each variant — exclusions (slots, keys): these
    slots hold none of these keys — the beliefs of the problem with all its
    exclusions (None: no deal fits it).

    ``budget``: as :func:`analyze`.

    One run for all: the weights of every variant travel packed in one
    integer (see :meth:`.prepare.Prepared._pack`).  Suggestions in public view use it
    for "the player holds no v" for every value v at once.  Raises
    :class:`Inconsistent` when the problem itself admits no deal.
    """
    return Swept(problem, variants, budget).beliefs()


class Swept(Join):
    """One engine run kept whole: a problem (with variants), its plans and both sweeps, run
    under ``budget`` (as :func:`analyze`) where the settings say (:func:`_sweep_both`); what
    is read from them is :class:`~.join.Join`'s.  Raises :class:`Inconsistent` when the
    problem itself admits no deal, :class:`EngineLimit` past the budget."""

    def __init__(self, problem: Problem, variants: Sequence[Variant] = (), budget: float | None = None):
        try:
            forward, mirrored = plans(problem, variants)
            fwd, bwd = _sweep_both(forward, mirrored, check_budget(forward, mirrored, budget))
        except Zero:
            raise Inconsistent from None
        super().__init__(problem, variants, forward, fwd, bwd)
