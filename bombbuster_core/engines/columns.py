"""Exact engine "columns": a dynamic program over sort keys (the default).

Walk the sort keys in ascending order.  The state after a key is how many
slots each hidden stand has filled so far; because stands are sorted, slot
``j`` of stand ``s`` holds a key ``<= k`` exactly when the fill of ``s``
after ``k`` exceeds ``j``.  The copies of a key are placed one at a time,
each on any stand whose next slot may take it, so a transition is one
integer addition on a bit-packed state code and costs no allocation.

Weights are exact integers.  The copies of a key spread over the stands in
``m! / prod(c_s!)`` ways (the shuffle prior of the README), and that is
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
(_Plan._block_table).  M24 5p public start with five tokens: 15.6 s as
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
"""
from __future__ import annotations

import os
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from math import comb, factorial, inf, prod

from ..beliefs import Beliefs, EngineLimit, Inconsistent
from ..facts import Pos, Problem, SameValue, SameValueCount
from ..wires import Key, value_of

State = dict[int, int]  # packed code -> exact weight (components packed, see _Prepared._pack)
Exclusion = tuple[frozenset[Pos], frozenset[Key]]  # these slots hold none of these keys
Variant = Sequence[Exclusion]  # the problem with all these exclusions

# Run the two sweeps in two processes (fork) when a table is big enough to pay
# for it (~15 ms of fork + pickling).  Off by default: forking a process that
# has threads is unsafe, so only the single-threaded CLI turns it on.  Where
# there is no fork (Pyodide), sweeps stay serial.
PARALLEL_SWEEPS = False
PARALLEL_MIN_STATES = 20_000  # estimated boundary states, summed over keys

# Work bound, in states weighted by their cost (:meth:`_Plan.step`): before sweeping,
# the engine estimates both sweeps' work (:func:`estimated_states`, a few ms) and
# refuses beyond this many with EngineLimit ("too large: about N states; ..."); each
# sweep then counts its work as it goes and stops past half of it ("too large: more
# than N states in one sweep"), whatever the estimate said.  Measured (CPython, one
# core, README "Work budget"): 0.5-1 us per unit, so 20 million is ~20 s at most.  The
# legal setups of every mission and player count estimate at most 1.6 million (M64 5p
# public, a value token on every stand; tests/test_engines.py checks them all against
# BUDGET / 4).
BUDGET: float = 20_000_000


class _Zero(Exception):
    """The facts admit no deal."""


def _cost(layer: _Layer) -> int:
    """What placing a copy costs per state, in plain placements (see :meth:`_Plan.step`)."""
    return 1 + len(layer.counting or ())


class Work:
    """States a sweep has visited, held to ``limit``: the guarantee behind the budget, which
    the estimate (:func:`estimated_states`) only approximates before the sweep (a few
    fact kinds multiply the states in ways it does not see).  Checked once per pass over
    the states, so a sweep stops at most one pass (a few times its states) past it."""

    __slots__ = ("visited", "limit", "budget")

    def __init__(self, limit: float, budget: float):
        self.visited, self.limit, self.budget = 0, limit, budget  # budget: the whole run's, for the message

    def add(self, states: int) -> None:
        self.visited += states
        if self.visited > self.limit:
            raise EngineLimit(f"too large: more than {_about(self.limit)} states in one sweep (budget "
                              f"{_about(self.budget)}); a larger budget may take minutes and GBs")


class _Count:
    """A count fact over free slots, in layer indices; ``hi`` may exceed len(slots): no upper bound."""

    __slots__ = ("slots", "layers", "lo", "hi")

    def __init__(self, slots: frozenset[Pos], layers: frozenset[int], lo: int, hi: int):
        self.slots, self.layers, self.lo, self.hi = slots, layers, lo, hi


class _Check:
    """A value fact for one gameplay class, in layer indices: counters over slot sets
    (``fields``: (slots, cap), each counting the slots given a key of ``layers``,
    saturating at cap) and the tuples of final counter values it accepts."""

    __slots__ = ("fields", "layers", "accept", "at")

    def __init__(self, fields: list[tuple[frozenset[Pos], int]], layers: frozenset[int],
                 accept: frozenset[tuple[int, ...]], at: Pos | None = None):
        # ``at``: (SameValueCount) the slot the first field flags; once it is
        # filled with the flag unset, the check holds whatever comes next.
        self.fields, self.layers, self.accept, self.at = fields, layers, accept, at


class _Prepared:
    """Direction-independent preprocessing of a problem."""

    def __init__(self, problem: Problem, variants: Sequence[Variant] = ()):
        self.problem = problem
        self.keys = problem.keys
        layer_of = {k: i for i, k in enumerate(self.keys)}
        self.n_layers = len(self.keys)
        # Slot domains as sets of layer indices.
        self.domains: list[list[frozenset[int]]] = [
            [frozenset(layer_of[k] for k in problem.domain((s, j))) for j in range(st.size)]
            for s, st in enumerate(problem.stands)
        ]
        self.counts = [_Count(c.slots, frozenset(layer_of[k] for k in c.keys if k in layer_of), c.lo, c.hi)
                       for c in problem.counts]
        # Gameplay classes as sets of layers: each blue key alone, every yellow, every red.
        classes: dict[object, set[int]] = {}
        for i, k in enumerate(self.keys):
            classes.setdefault(value_of(k), set()).add(i)
        self.classes = [frozenset(c) for c in classes.values()]
        self.orders = [(o.lo, o.hi) for o in problem.orders]
        values = list(problem.values)
        while True:
            before = [list(row) for row in self.domains]
            self._sort_bounds()
            if self.orders:
                self._order_bounds()
            if values:
                values = self._simplify_values(values)
            self.counts = self._simplify(self.counts)
            if before == self.domains:
                break
        self.checks = self._checks(values)
        self.fixed = [s for s, row in enumerate(self.domains) if all(len(d) == 1 for d in row)]
        copies = [problem.copies[k] for k in self.keys]
        # Known stands leave the state; their rows only scale the weights:
        # multiplier = prod_k m_k! / (r_k! * prod_fixed c_sk!), r_k = copies left for the free stands.
        fixed_counts = [0] * self.n_layers
        den = 1
        for s in self.fixed:
            row = [next(iter(d)) for d in self.domains[s]]
            if row != sorted(row):
                raise _Zero
            for i, c in Counter(row).items():
                fixed_counts[i] += c
                den *= factorial(c)
        self.copies = [m - f for m, f in zip(copies, fixed_counts)]
        if min(self.copies, default=0) < 0:
            raise _Zero
        num = 1
        for m, r in zip(copies, self.copies):
            num *= factorial(m)
            den *= factorial(r)
        self.multiplier = num // den
        fixed_set = set(self.fixed)
        # Stands an exclusion names are not interchangeable with others in every component,
        # nor are stands of count, order and value facts.
        counted = {s for c in self.counts for (s, _) in c.slots}
        counted |= {pos[0] for lo_hi in self.orders for pos in lo_hi}
        counted |= {s for ch in self.checks for slots, _ in ch.fields for (s, _) in slots}
        counted |= {r[0] for r in self.runs}
        counted |= {s for variant in variants for slots, _ in variant for (s, _) in slots}
        free = [s for s in range(len(problem.stands)) if s not in fixed_set]
        # Interchangeable stands: same size and domains, no count fact.
        signature: dict[tuple, list[int]] = {}
        for s in free:
            if s not in counted:
                signature.setdefault((len(self.domains[s]), tuple(self.domains[s])), []).append(s)
        self.groups = [g for g in signature.values() if len(g) > 1]
        self.tables: dict[tuple, list] = {}
        grouped = {s for g in self.groups for s in g}
        # Code order: singles first, groups last (a group's fields must be adjacent bits).
        self.free = [s for s in free if s not in grouped] + [s for g in self.groups for s in g]
        self._pack(variants, layer_of)

    def _pack(self, variants: Sequence[Variant], layer_of: dict[Key, int]) -> None:
        """Components: weight 0 is the problem's, weight c the problem's with exclusion c.

        They travel packed in one integer, ``width`` bits each, so one pass
        over the states runs them all; a move an exclusion forbids clears that
        component's bits with a mask.  No component of a weight can exceed
        S^n * prod(g!) (n copies placed on S stands, orbit totals of groups),
        so the width makes carries between components impossible.
        """
        # Per variant, its exclusions as (slots, layer indexes).
        self.exclusions = [[(frozenset(slots), frozenset(layer_of[k] for k in keys if k in layer_of))
                            for slots, keys in variant] for variant in variants]
        self.width = 0
        if self.exclusions:
            n = sum(len(self.domains[s]) for s in self.free)
            bound = max(len(self.free), 1) ** n * prod(factorial(len(g)) for g in self.groups)
            self.width = bound.bit_length() + 1
        self.one = sum(1 << (c * self.width) for c in range(len(self.exclusions) + 1))
        self.all_bits = (1 << (self.width * (len(self.exclusions) + 1))) - 1
        # A slot of a known stand holding an excluded key leaves nothing of its component.
        self.dead = {c for c, variant in enumerate(self.exclusions, 1)
                     if any(s in self.fixed and self.domains[s][j] <= layers for slots, layers in variant for s, j in slots)}

    def component_bits(self, c: int) -> int:
        return ((1 << self.width) - 1) << (c * self.width)

    def _sort_bounds(self) -> None:
        """A sorted stand's slot holds at least its left neighbour's least key and at most its right one's greatest."""
        for row in self.domains:
            bound = -1
            for j, d in enumerate(row):
                row[j] = d = frozenset(i for i in d if i >= bound)
                if not d:
                    raise _Zero
                bound = min(d)
            bound = self.n_layers
            for j in range(len(row) - 1, -1, -1):
                row[j] = d = frozenset(i for i in row[j] if i <= bound)
                if not d:
                    raise _Zero
                bound = max(d)

    def _order_bounds(self) -> None:
        """key(lo) <= key(hi) bounds hi's domain from below and lo's from above; an order
        the domains imply (lo's greatest key <= hi's least, e.g. a known side) is dropped."""
        kept = []
        for lo, hi in self.orders:
            if lo == hi or (lo[0] == hi[0] and lo[1] <= hi[1]):
                continue  # a sorted stand keeps it
            (ls, lj), (hs, hj) = lo, hi
            d_lo, d_hi = self.domains[ls][lj], self.domains[hs][hj]
            d_hi = self.domains[hs][hj] = frozenset(i for i in d_hi if i >= min(d_lo))
            if not d_hi:
                raise _Zero
            d_lo = self.domains[ls][lj] = frozenset(i for i in d_lo if i <= max(d_hi))
            if not d_lo:
                raise _Zero
            if max(d_lo) > min(d_hi):
                kept.append((lo, hi))
        self.orders = kept

    def _classes_meeting(self, d: frozenset[int]) -> list[frozenset[int]]:
        return [c for c in self.classes if c & d]

    def _simplify_values(self, values: list) -> list:
        """Value facts the domains decide become domains or count facts; returns the rest.

        SameValue(a, b, different) is, per class meeting both slots, "at most one of
        a, b in it": count facts.  SameValue(a, b, equal) limits each slot to the
        classes the other may hold, and once a slot's class is known, the other's
        domain.  SameValueCount drops from ``at`` every class the count rules out;
        once ``at``'s class is known, it is a count fact on that class.
        """
        dom = self.domains
        kept = []
        for v in values:
            if isinstance(v, SameValue):
                (as_, aj), (bs, bj) = v.a, v.b
                if v.a == v.b:
                    if v.equal:
                        continue
                    raise _Zero
                if not v.equal:
                    for c in self._classes_meeting(dom[as_][aj]):
                        if c & dom[bs][bj]:
                            self.counts.append(_Count(frozenset((v.a, v.b)), c, 0, 1))
                    continue
                da = dom[as_][aj] & frozenset().union(*self._classes_meeting(dom[bs][bj]))
                db = dom[bs][bj] & frozenset().union(*self._classes_meeting(da))
                if not da or not db:
                    raise _Zero
                dom[as_][aj], dom[bs][bj] = da, db
                ca, cb = self._classes_meeting(da), self._classes_meeting(db)
                if len(ca) == 1 or len(cb) == 1:  # one class each (they meet the same classes)
                    continue
                kept.append(v)
            elif isinstance(v, SameValueCount):
                s, j = v.at
                d = dom[s][j]
                for c in self._classes_meeting(d):
                    sure = sum(dom[t][i] <= c for t, i in v.slots)
                    maybe = sum(bool(dom[t][i] & c) for t, i in v.slots)
                    if not sure <= v.count <= maybe:
                        d -= c
                if not d:
                    raise _Zero
                dom[s][j] = d
                cs = self._classes_meeting(d)
                if len(cs) == 1:
                    self.counts.append(_Count(v.slots, cs[0], v.count, v.count))
                    continue
                kept.append(v)
            else:  # pragma: no cover - Problem admits no other value fact
                raise TypeError(f"unknown value fact {v!r}")
        return kept

    def _checks(self, values: list) -> list[_Check]:
        """The value facts left after simplification, per class that can matter.

        For a blue class (one key t), a SameValueCount over one whole stand and a
        label (SameValue, or the "not both" count fact of a different label) on two
        neighbours become *run rules* (``self.runs``: stand, slot, kind, count,
        layer) instead of checks: the copies of t on a sorted stand form one run
        starting at the stand's fill before t, and the fact only says which runs
        may cover its slots (see _Plan._block_table).  Where a count fact or
        another check is tracked on that stand at that key, it stays a check.
        """
        dom = self.domains
        checks = []
        runs: list[tuple[int, int, str, int, int]] = []  # (stand, slot, kind, count, layer), see _Plan._block_table

        def adjacent(a: Pos, b: Pos) -> int | None:
            """The left slot of two neighbours on one stand, else None."""
            return min(a[1], b[1]) if a[0] == b[0] and abs(a[1] - b[1]) == 1 else None

        for v in values:
            if isinstance(v, SameValue):
                a, b = v.a, v.b
                cs = self._classes_meeting(dom[a[0]][a[1]])
                # Both slots hold one class each and meet the same classes: equal in
                # all classes but one is equal in that one too.  Skip the widest.
                cs.remove(max(cs, key=lambda c: (max(c) - min(c), len(c))))
                left = adjacent(a, b)
                for c in cs:
                    if left is not None and len(c) == 1:
                        runs.append((a[0], left, "equal", 0, next(iter(c))))
                    else:
                        checks.append(_Check([(frozenset((a,)), 1), (frozenset((b,)), 1)], c,
                                             frozenset(((0, 0), (1, 1)))))
            else:
                s, j = at = v.at
                whole = v.slots == frozenset((s, i) for i in range(len(dom[s])))
                for c in self._classes_meeting(dom[s][j]):
                    if whole and len(c) == 1:
                        runs.append((s, j, "count", v.count, next(iter(c))))
                    else:
                        checks.append(self._count_check(at, v.slots, v.count, c))
        # "Not both t" on two neighbours (a different label, one blue class): a run rule too.
        kept = []
        for c in self.counts:
            pair = sorted(c.slots)
            if len(pair) == 2 and len(c.layers) == 1 and c.lo == 0 and c.hi == 1 and adjacent(*pair) is not None:
                runs.append((pair[0][0], pair[0][1], "different", 0, next(iter(c.layers))))
            else:
                kept.append(c)
        self.counts = kept
        while runs:  # stands where the counting path runs at a rule's key keep checks
            busy = set()
            for slots, layers in [(c.slots, c.layers) for c in self.counts] + \
                    [(frozenset().union(*(f for f, _ in ch.fields)), ch.layers) for ch in checks]:
                live = {i for i in layers if any(i in dom[s][j] for s, j in slots)}
                busy |= {(s, i) for s, _ in slots for i in live}
            moved = [r for r in runs if (r[0], r[4]) in busy]
            if not moved:
                break
            for r in moved:
                runs.remove(r)
                s, j, kind, count, t = r
                if kind == "count":
                    checks.append(self._count_check((s, j), frozenset((s, i) for i in range(len(dom[s]))), count,
                                                    frozenset((t,))))
                elif kind == "equal":
                    checks.append(_Check([(frozenset(((s, j),)), 1), (frozenset(((s, j + 1),)), 1)], frozenset((t,)),
                                         frozenset(((0, 0), (1, 1)))))
                else:
                    self.counts.append(_Count(frozenset(((s, j), (s, j + 1))), frozenset((t,)), 0, 1))
        self.runs = runs
        return checks

    def _count_check(self, at: Pos, slots: frozenset[Pos], count: int, c: frozenset[int]) -> _Check:
        """SameValueCount(at, slots, count) for class c: at is not of c, or count slots are."""
        dom = self.domains
        sure = sum(dom[t][i] <= c for t, i in slots)
        maybe = frozenset((t, i) for t, i in slots if dom[t][i] & c and not dom[t][i] <= c)
        need = count - sure
        accept = frozenset([(0, n) for n in range(need + 2)] + [(1, need)])
        return _Check([(frozenset((at,)), 1), (maybe, need + 1)], c, accept, at)

    def _simplify(self, counts: list[_Count]) -> list[_Count]:
        """Fold known slots into count bounds; turn decided counts into domains."""
        changed = True
        while changed:
            changed = False
            kept = []
            for c in counts:
                slots, lo, hi = set(), c.lo, c.hi
                for (s, j) in c.slots:
                    d = self.domains[s][j]
                    if d <= c.layers:
                        lo, hi = lo - 1, hi - 1
                    elif d & c.layers:
                        slots.add((s, j))
                if hi < 0 or lo > len(slots):
                    raise _Zero
                if hi == 0 or lo == len(slots):
                    for (s, j) in slots:
                        d = self.domains[s][j]
                        self.domains[s][j] = d - c.layers if hi == 0 else d & c.layers
                    changed = changed or bool(slots)
                elif lo > 0 or hi < len(slots):
                    kept.append(_Count(frozenset(slots), c.layers, max(lo, 0), hi))
                changed = changed or len(slots) != len(c.slots)
            counts = kept
        return counts


class _Tracker:
    """The state field counting one count fact; the stored value never exceeds ``cap``
    and ``bounded`` says whether ``hi`` is a real upper bound."""

    __slots__ = ("shift", "mask", "cap", "lo", "hi", "bounded")

    def __init__(self, shift: int, mask: int, cap: int, lo: int, hi: int, bounded: bool):
        self.shift, self.mask, self.cap, self.lo, self.hi, self.bounded = shift, mask, cap, lo, hi, bounded


# Moves of one pass for a chunk of stands whose fields are adjacent bits of the
# code: (shift, mask, moves[fields], urgent[fields]), where moves are the code
# deltas of one copy landing on a stand and urgent keeps those that fill a
# slot which must be filled by this key.
_Movers = tuple[int, int, list[tuple[int, ...]], list[tuple[int, ...]]]
_Needs = tuple[int, int, list[int]]  # (shift, mask, unfilled must-fill slots[fields])
_CHUNK_BITS = 8  # two 11-slot stands; wider tables cost more to build than they save


class _StandLayer:
    """One stand at one key: where a copy may land and what must be filled.

    ``fills``: the fills this stand may have while the key is placed;
    ``put[f]``: code delta of a copy landing on slot f, 0 if it may not;
    ``need``: the fill this stand must reach by the end of the key;
    ``counts[f]``: trackers counting slot f at this key;
    ``moving``: a copy may land on this stand at this key;
    ``keeps[f]``: the weight bits a copy landing on slot f keeps (None: all),
    when an exclusion forbids it in some component.
    """

    __slots__ = ("shift", "mask", "fills", "put", "need", "counts", "moving", "keeps", "flag", "top", "runs")

    def __init__(self, shift: int, mask: int, fills: range, put: tuple[int, ...], need: int,
                 counts: list[tuple[_Tracker, ...]], moving: bool, keeps: tuple[int | None, ...] | None,
                 flag: int = 0, top: int = 0, runs: list | None = None):
        self.shift, self.mask, self.fills, self.put, self.need = shift, mask, fills, put, need
        self.counts, self.moving, self.keeps = counts, moving, keeps
        # ``flag``: the shift of the stand's run flag when run rules apply at this key (else 0);
        # ``top``: the bit above the stand's field (and flag); ``runs``: see _Plan._block_table.
        self.flag, self.top, self.runs = flag, top, runs


class _Layer:
    """Placing the copies of one key, one copy per pass.

    ``weighted`` are groups of interchangeable stands: their tables hold
    (code delta, multiplicity) pairs (see _Plan._group_tables).
    ``masked`` are the chunks whose moves an exclusion forbids in some
    component: their tables hold (code delta, weight bits kept) pairs.
    ``counting`` is set when a count fact or value check is tracked at this
    key: the stands of the chunks holding its slots, placed stand by stand
    (the other chunks keep their tables); ``trackers`` are the indexes of those facts,
    ``closes`` the trackers whose last key this is, and ``estimate`` the
    product of the stands' fill ranges, a bound on the states.
    """

    __slots__ = ("copies", "movers", "weighted", "masked", "needs", "counting", "trackers", "closes", "estimate",
                 "orders", "checks", "resolves", "runs", "unflag")

    def __init__(self, copies: int, movers: list[_Movers], weighted: list[_Movers], masked: list[_Movers],
                 needs: list[_Needs], counting: list[_StandLayer] | None, trackers: set[int], closes: list[_Tracker],
                 estimate: int):
        self.copies, self.movers, self.weighted, self.masked = copies, movers, weighted, masked
        self.needs, self.counting = needs, counting
        self.trackers, self.closes, self.estimate = trackers, closes, estimate
        self.orders: list[_OrderCheck] = []  # order facts checked at the boundary after this key
        self.resolves: list[_Resolve] = []  # SameValueCount checks settled early (see _Plan._resolve)
        self.checks: list[_ValueCheck] = []  # value checks whose last key this is


# An order fact at a key boundary, in a plan's slot order: the states where slot x
# is filled (its stand's fill exceeds x's index) and slot y is not are dropped.
# Forward, x is the order's hi and y its lo; mirrored, the reverse.
_OrderCheck = tuple[int, int, int, int, int, int]  # (x shift, x mask, x index, y shift, y mask, y index)


# A SameValueCount check while it is live: (at's stand shift, mask, at's index, flag
# shift, count shift, count mask, count cap, mask clearing the check's fields).
_Resolve = tuple[int, int, int, int, int, int, int, int]


class _ValueCheck:
    """A value check's counter fields in a plan (trackers with no bound of their own)
    and the tuples of their values it accepts."""

    __slots__ = ("fields", "accept", "shift", "mask", "packed")

    def __init__(self, fields: tuple[_Tracker, ...], accept: frozenset[tuple[int, ...]]):
        self.fields, self.accept = fields, accept
        # The fields are adjacent bits: the accepted tuples packed as those bits read.
        self.shift = fields[0].shift
        self.mask = sum(tr.mask << (tr.shift - self.shift) for tr in fields)
        self.packed = frozenset(sum(v << (tr.shift - self.shift) for v, tr in zip(values, fields)) for values in accept)


class _GroupMoves:
    """The moves of a group of interchangeable stands from a sorted fill combination (see _Plan._group_tables)."""

    __slots__ = ("members", "pattern", "need", "mirrored", "tables")

    def __init__(self, members: list[tuple[int, int, int]], pattern: tuple[bool, ...], need: int, mirrored: bool):
        self.members, self.pattern, self.need, self.mirrored = members, pattern, need, mirrored  # (offset, mask, step)
        # moves, urgent moves, unfilled must-fill slots: filled together on a first lookup
        self.tables = (_LazyTable(self), _LazyTable(self), _LazyTable(self))

    def fill(self, idx: int) -> None:
        """Enter the group fields ``idx`` in all three tables."""
        fills = [(idx >> off) & mask for off, mask, _ in self.members]
        moves, urgent = [], []
        i, n = 0, len(fills)
        while i < n:
            j = i
            while j + 1 < n and fills[j + 1] == fills[i]:
                j += 1
            f = fills[i]
            if self.pattern[f]:
                move = (self.members[i if self.mirrored else j][2], j - i + 1)
                moves.append(move)
                if f < self.need:
                    urgent.append(move)
            i = j + 1
        entry = (tuple(moves), tuple(urgent), sum(max(self.need - f, 0) for f in fills))
        for table, value in zip(self.tables, entry):
            table[idx] = value


class _LazyTable(dict):
    """One of a group's tables, filled (with its siblings) on first lookup of each index."""

    __slots__ = ("group",)

    def __init__(self, group: _GroupMoves):
        super().__init__()
        self.group = group

    def __missing__(self, idx: int):
        self.group.fill(idx)
        return self[idx]


class _Plan:
    """The sweep for one direction; ``mirrored`` reverses keys and slots."""

    def __init__(self, prep: _Prepared, mirrored: bool):
        self.prep = prep
        self.mirrored = mirrored
        shift = 0
        self.trackers: list[tuple[_Tracker, _Count]] = []
        for c in prep.counts:
            bounded = c.hi < len(c.slots)
            cap = c.hi if bounded else c.lo  # without an upper bound, saturate at lo
            width = max(cap.bit_length(), 1)
            self.trackers.append((_Tracker(shift, (1 << width) - 1, cap, c.lo, c.hi, bounded), c))
            shift += width
        # Value checks: each field is a tracker that never rejects (lo 0, no bound) and
        # saturates at its cap; the check's predicate is applied when its last key is placed.
        self.checks: list[tuple[_ValueCheck, list[int]]] = []
        check_at: list[Pos | None] = []
        for ch in prep.checks:
            check_at.append(ch.at)
            fields, indexes = [], []
            for slots, cap in ch.fields:
                width = max(cap.bit_length(), 1)
                tr = _Tracker(shift, (1 << width) - 1, cap, 0, cap, False)
                indexes.append(len(self.trackers))
                self.trackers.append((tr, _Count(slots, ch.layers, 0, cap)))
                fields.append(tr)
                shift += width
            self.checks.append((_ValueCheck(tuple(fields), ch.accept), indexes))
        fills_start = shift
        self.size = {s: len(prep.domains[s]) for s in prep.free}
        self.shift: dict[int, int] = {}
        # A stand with run rules (SameValueCount over the whole stand, see _block_table)
        # has a flag bit above its fill: set while a key's run lies on it, cleared after.
        run_stands = {r[0] for r in prep.runs}
        self.flag: dict[int, int] = {}
        for s in prep.free:
            self.shift[s] = shift
            shift += self.size[s].bit_length()
            if s in run_stands:
                self.flag[s] = shift
                shift += 1
        self.run_tokens: dict[tuple[int, int], list[tuple[str, int, int]]] = {}
        for s, j, kind, count, t in prep.runs:
            local = self._local((s, j))[1] if kind == "count" else min(self._local((s, j))[1], self._local((s, j + 1))[1])
            self.run_tokens.setdefault((s, t), []).append((kind, local, count))
        self.full = sum(self.size[s] << self.shift[s] for s in prep.free)
        self.fills_mask = ((1 << shift) - 1) ^ ((1 << fills_start) - 1)
        self.chunks: list[list[int]] = []
        for s in prep.free:
            width = self.size[s].bit_length()
            if self.chunks and sum(self.size[x].bit_length() for x in self.chunks[-1]) + width <= _CHUNK_BITS:
                self.chunks[-1].append(s)
            else:
                self.chunks.append([s])
        # Chunks whose moves are looked up together: the same for single stands,
        # and each group of interchangeable stands whole (its moves keep it sorted).
        grouped = {s for g in prep.groups for s in g}
        self.move_chunks: list[list[int]] = []
        for chunk in self.chunks:
            singles = [s for s in chunk if s not in grouped]
            if singles:
                self.move_chunks.append(singles)
        self.move_chunks += [list(g) for g in prep.groups]
        doms = {s: self._domains(s) for s in prep.free}
        # Least and greatest key of each slot: both rise along a sorted stand.
        lows = {s: [min(d) for d in doms[s]] for s in prep.free}
        highs = {s: [max(d) for d in doms[s]] for s in prep.free}
        self.lows, self.highs = lows, highs
        takes = {s: frozenset().union(*doms[s]) for s in prep.free}
        # A count is tracked at a key one of its slots' domains holds: the same
        # keys in both directions, so partial counts meet at key boundaries.
        tracked_at = [{i for i in c.layers if any(i in prep.domains[s][j] for s, j in c.slots)}
                      for _, c in self.trackers]
        for _, indexes in self.checks:  # a check's fields live over the same keys
            union = set().union(*(tracked_at[ti] for ti in indexes))
            for ti in indexes:
                tracked_at[ti] = union
        checked = {ti for _, indexes in self.checks for ti in indexes}
        self.layers: list[_Layer] = []
        last_touch: dict[int, _Layer] = {}
        for t in range(prep.n_layers):
            key = self.key_layer(t)
            copies = prep.copies[key]
            # Stands this key may land on or must fill, with their chunk partners.
            involved = {s for s in prep.free if t in takes[s] or bisect_right(highs[s], t) > bisect_left(highs[s], t)}
            trackers = {ti for ti, keys in enumerate(tracked_at) if key in keys}
            stands = {s: self._stand_layer(s, t, copies, doms[s], lows[s], highs[s], trackers, key)
                      for chunk in self.move_chunks if involved.intersection(chunk) for s in chunk}
            layer = self._layer(copies, stands, trackers)
            for ti in layer.trackers:
                last_touch[ti] = layer
            self.layers.append(layer)
        for ti, (tr, c) in enumerate(self.trackers):
            if ti in checked:
                continue
            if ti in last_touch:
                last_touch[ti].closes.append(tr)
            elif c.lo > 0:
                raise _Zero
        for (check, indexes), at in zip(self.checks, check_at):
            if indexes[0] in last_touch:
                last_touch[indexes[0]].checks.append(check)
            elif (0,) * len(indexes) not in check.accept:
                raise _Zero
            if at is None or indexes[0] not in last_touch:
                continue
            # Between the check's first and last key, after each key that moves its
            # fields or may fill ``at``: settle it early (see _resolve).
            s, j = self._local(at)
            flag, count = check.fields
            resolve = (self.shift[s], (1 << self.size[s].bit_length()) - 1, j, flag.shift,
                       count.shift, count.mask, count.cap, ~(check.mask << check.shift))
            first = min(tracked_at[indexes[0]], key=lambda i: self.sweep_index(i))
            last = self.sweep_index(max(tracked_at[indexes[0]], key=lambda i: self.sweep_index(i)))
            for t in range(self.sweep_index(first), last):
                if t in doms[s][j] or self.key_layer(t) in tracked_at[indexes[0]]:
                    self.layers[t].resolves.append(resolve)
        # Order facts: slot x filled and y not at a boundary means key(x) < key(y) (forward,
        # x = hi); the first such boundary follows a key x may hold, so only those are checked.
        for lo, hi in prep.orders:
            x, y = (lo, hi) if mirrored else (hi, lo)
            (xs, xj), (ys, yj) = self._local(x), self._local(y)
            dx, dy = doms[xs][xj], doms[ys][yj]
            check = (self.shift[xs], (1 << self.size[xs].bit_length()) - 1, xj,
                     self.shift[ys], (1 << self.size[ys].bit_length()) - 1, yj)
            for t in dx:
                if t < max(dy):
                    self.layers[t].orders.append(check)

    def _local(self, pos: Pos) -> Pos:
        """A slot in this direction's slot order."""
        s, j = pos
        return (s, self.size[s] - 1 - j) if self.mirrored else pos

    def sweep_index(self, i: int) -> int:
        """The sweep position of key (layer index) i: key_layer's inverse."""
        return self.prep.n_layers - 1 - i if self.mirrored else i

    def key_layer(self, t: int) -> int:
        """The key (layer index) placed at sweep position t."""
        return self.prep.n_layers - 1 - t if self.mirrored else t

    def _domains(self, s: int) -> list[frozenset[int]]:
        """Slot domains of stand s in this direction's slot and sweep order."""
        doms = self.prep.domains[s]
        if not self.mirrored:
            return doms
        last = self.prep.n_layers - 1
        return [frozenset(last - i for i in d) for d in reversed(doms)]

    def _stand_layer(self, s: int, t: int, copies: int, doms: list[frozenset[int]],
                     lows: list[int], highs: list[int], trackers: set[int], key: int) -> _StandLayer:
        n = self.size[s]
        # When the key starts, slots whose keys all come earlier are filled and
        # slots whose keys all come later are not; by its end, slots whose keys
        # all come earlier or now must be filled.
        first, last, need = bisect_left(highs, t), bisect_left(lows, t), bisect_right(highs, t)
        step = 1 << self.shift[s]
        put = tuple([step if t in d else 0 for d in doms]) + (0,)
        counts: list[tuple[_Tracker, ...]] = [()] * (n + 1)
        for ti in trackers:
            tr, c = self.trackers[ti]
            for f in range(n):
                if (s, (n - 1 - f) if self.mirrored else f) in c.slots:
                    counts[f] += (tr,)
        fills = range(first, min(n, last + copies) + 1)
        keeps = self._keeps(s, t, n)
        runs = None
        tokens = self.run_tokens.get((s, key))
        if tokens:
            # single copies never land on a rule's slots: runs covering them are blocks
            ruled = {j for kind, j, _ in tokens} | {j + 1 for kind, j, _ in tokens if kind == "equal"}
            put = tuple(0 if f in ruled else d for f, d in enumerate(put))
            runs = self._block_table(s, t, copies, doms, tokens, ruled, range(first, last + 1), need, keeps)
        top = self.flag[s] + 1 if s in self.flag else self.shift[s] + n.bit_length()
        return _StandLayer(self.shift[s], (1 << n.bit_length()) - 1, fills, put, need, counts,
                           any(put[first:fills.stop]) or runs is not None, keeps,
                           self.flag[s] if runs is not None else 0, top, runs)

    def _block_table(self, s: int, t: int, copies: int, doms: list[frozenset[int]], rules: list[tuple[str, int, int]],
                     ruled: set[int], starts: range, need: int, keeps: tuple[int | None, ...] | None) -> list | None:
        """Run rules of stand s at key t: per fill a before the key, the runs that cover
        a rule's slot, or None.

        The copies of key t on a sorted stand fill slots a .. a+k-1: one run.  The
        rules speak of the slots the run covers: ("count", j, c) a SameValueCount
        over the whole stand: covering j, k == c; ("different", j) a label on j and
        j+1: not both covered; ("equal", j): both or neither.  A run covering no
        rule slot is always allowed, so single copies place those (``put`` is 0 on
        rule slots), and every allowed run that covers one is a block placed whole
        at the key's start: the stand's flag bit is set so that no further copy
        lands there this key, and the weight is multiplied by the multinomial
        m! / ((m - B)! prod k!) of the blocks B taken (the other m - B copies are
        placed one at a time, in (m - B)! / prod c! orders).
        Entries: lists of (k, code delta incl. the flag bit, weight bits kept or None, k!).
        """
        n = self.size[s]
        table: list = [None] * (n + 1)
        flag = 1 << self.flag[s]
        for a in starts:
            first = min((j for j in ruled if j >= a), default=None)
            if first is None:
                continue
            if any(t not in doms[f] for f in range(a, first)):
                continue
            options = []
            for k in range(first - a + 1, min(n - a, copies) + 1):
                if t not in doms[a + k - 1]:
                    break  # a run is contiguous
                if a + k < need:
                    continue
                for kind, j, count in rules:
                    covers = a <= j < a + k
                    if kind == "count" and covers and k != count \
                            or kind == "different" and covers and j + 1 < a + k \
                            or kind == "equal" and covers != (a <= j + 1 < a + k):
                        break
                else:
                    keep = None
                    if keeps is not None:
                        for f in range(a, a + k):
                            if keeps[f] is not None:
                                keep = keeps[f] if keep is None else keep & keeps[f]
                    options.append((k, (k << self.shift[s]) | flag, keep, factorial(k)))
            if options:
                table[a] = options
        return table if any(e is not None for e in table) else None

    def _keeps(self, s: int, t: int, n: int) -> tuple[int | None, ...] | None:
        """Per slot of stand s, the weight bits a copy of key t landing there keeps."""
        prep, key = self.prep, self.key_layer(t)
        hits = [(c, [slots for slots, layers in variant if key in layers])
                for c, variant in enumerate(prep.exclusions, 1)]
        hits = [(c, slot_sets) for c, slot_sets in hits if slot_sets]
        if not hits:
            return None
        keeps: list[int | None] = [None] * (n + 1)
        for f in range(n):
            slot = (s, (n - 1 - f) if self.mirrored else f)
            cleared = sum(prep.component_bits(c) for c, slot_sets in hits if any(slot in ss for ss in slot_sets))
            if cleared:
                keeps[f] = prep.all_bits ^ cleared
        return tuple(keeps) if any(k is not None for k in keeps) else None

    def _layer(self, copies: int, stands: dict[int, _StandLayer], trackers: set[int]) -> _Layer:
        moving = [st for st in stands.values() if st.moving]
        if copies and not moving:
            raise _Zero
        estimate = prod(len(st.fills) for st in moving)
        movers, weighted, masked, needs = [], [], [], []
        # With trackers at this key, the chunks holding a counted slot go stand by stand
        # (counting as copies land); the others keep their tables.  A group is never
        # counted (stands of facts are not interchangeable), so groups stay sorted.
        counting: list[_StandLayer] | None = [] if trackers else None
        groups = {g[0] for g in self.prep.groups}
        for chunk in self.move_chunks:
            if not any(s in stands for s in chunk):
                continue
            if counting is not None and any(any(stands[s].counts) for s in chunk):
                counting += [stands[s] for s in chunk]
                continue
            members = [stands[s] for s in chunk]
            is_moving = any(st.moving for st in members)
            is_needy = any(st.need > st.fills.start for st in members)
            if is_moving or is_needy:
                base = members[0].shift
                mask = (1 << (members[-1].top - base)) - 1
                group = chunk[0] in groups
                moves, urgent, short = self._group_tables(members) if group else self._chunk_tables(members, mask)
                if is_moving:
                    keeping = any(st.keeps is not None for st in members)
                    (weighted if group else masked if keeping else movers).append((base, mask, moves, urgent))
                if is_needy:
                    needs.append((base, mask, short))
        layer = _Layer(copies, movers, weighted, masked, needs, counting, trackers, [], estimate)
        layer.runs = [(st.shift, st.mask, st.runs) for st in stands.values() if st.runs is not None]
        layer.unflag = ~sum(1 << st.flag for st in stands.values() if st.runs is not None)
        return layer

    def _group_tables(self, members: list[_StandLayer]):
        """Moves, urgent moves and unfilled must-fill slots of a group of interchangeable stands.

        States hold each group sorted (ascending; descending when mirrored)
        with their orbit's total weight.  A copy landing on any of r stands
        of equal fill gives one orbit, r times: the move goes to the last of
        them (the first when mirrored), which keeps the group sorted, with
        multiplicity r.  The tables fill themselves for the fills that occur
        (a group of 3 stands has hundreds of sorted fill combinations per key).
        """
        first = members[0]
        pattern = tuple(d != 0 for d in first.put)  # the members share their domains
        cache_key = ("group", self.mirrored, pattern, first.need) + tuple(st.shift for st in members)
        tables = self.prep.tables.get(cache_key)
        if tables is None:
            group = _GroupMoves([(st.shift - first.shift, st.mask, 1 << st.shift) for st in members], pattern,
                                first.need, self.mirrored)
            tables = self.prep.tables[cache_key] = group.tables
        return tables

    def _chunk_tables(self, members: list[_StandLayer], mask: int):
        """Per combination of a chunk's fills: its moves, its urgent moves, its unfilled must-fill slots.

        Only the fills a state can have at this key are filled in; tables are
        shared between keys and directions with the same stand patterns.
        Where an exclusion forbids a move in some component, every move of
        the chunk is a (code delta, weight bits kept) pair.
        """
        cache_key = tuple((st.shift, st.fills.start, st.fills.stop, st.put, st.need, st.keeps, st.flag) for st in members)
        tables = self.prep.tables.get(cache_key)
        if tables is None:
            base = members[0].shift
            pairs = any(st.keeps is not None for st in members)
            entries = [(0, (), (), 0)]  # (index, moves, urgent, short) over the members so far
            for st in members:
                grown = []
                for f in st.fills:
                    d: int | tuple[int, int] = st.put[f]
                    if d and pairs:
                        keep = st.keeps[f] if st.keeps is not None else None
                        d = (d, self.prep.all_bits if keep is None else keep)
                    move, must = (d,) if d else (), (d,) if d and f < st.need else ()
                    at, short = f << (st.shift - base), max(st.need - f, 0)
                    grown += [(i + at, m + move, u + must, n + short) for i, m, u, n in entries]
                    if st.flag:  # the key's run lies on this stand: no more copies
                        at |= 1 << (st.flag - base)
                        grown += [(i + at, m, u, n + short) for i, m, u, n in entries]
                entries = grown
            moves: list[tuple[int, ...]] = [()] * (mask + 1)
            urgent: list[tuple[int, ...]] = [()] * (mask + 1)
            shorts = [0] * (mask + 1)
            for i, m, u, n in entries:
                moves[i], urgent[i], shorts[i] = m, u, n
            tables = self.prep.tables[cache_key] = (moves, urgent, shorts)
        return tables

    # ------------------------------------------------------------ sweep
    def sweep(self, work: Work | None = None) -> list[State]:
        """Weights at every key boundary (index 0 = before the first key).

        Placing a key's m copies one at a time, each on any stand that may
        take it, reaches a spread (c_s) of the copies in m! / prod(c_s!)
        orders: exactly the shuffle prior's weight, with no binomial to carry.
        The states in between are fill vectors too, so they merge as freely
        as the states at key boundaries.

        ``work`` counts the states visited and raises EngineLimit past its
        limit (None: half of :data:`BUDGET`, this sweep's share of an analysis).
        """
        work = Work(BUDGET / 2, BUDGET) if work is None else work
        cur: State = {0: self.prep.one}
        out = [cur]
        for layer in self.layers:
            cur = self.step(layer, cur, work)
            out.append(cur)
        return out

    def step(self, layer: _Layer, cur: State, work: Work | None = None) -> State:
        """The states after ``layer``'s key from those before it; ``work`` (None: no
        limit) counts the states of every pass, each weighted by what it costs: a
        copy placed stand by stand on n counted stands costs about 1 + n plain
        placements (measured: 1-10 us a state), every boundary check one more pass.

        Bits above the plan's fields ride along untouched (every map below
        adds deltas, masks fields or clears them): :meth:`Swept.run_joint`
        tags states with them.
        """
        cost = _cost(layer)
        blocks = self._blocks(layer, cur) if layer.runs else None
        if blocks is not None:
            cur = blocks[0]
            if work is not None:
                work.add(sum(map(len, blocks)) * cost)
        for placed in range(layer.copies):
            left = layer.copies - placed
            if layer.counting is not None:
                cur = self._place_counting(layer, cur, left)
            elif layer.masked or layer.weighted or layer.needs:
                cur = self._place_general(layer, cur, left)
            else:
                cur = self._place(layer.movers, cur)
            if work is not None:
                work.add(len(cur) * cost)
            if blocks is not None and blocks[placed + 1]:
                get = cur.get
                for code, w in blocks[placed + 1].items():
                    cur[code] = get(code, 0) + w
        if blocks is not None:
            unflag = layer.unflag
            new: State = {}
            get = new.get
            for code, w in cur.items():
                code &= unflag
                new[code] = get(code, 0) + w
            cur = new
        if work is not None:  # the boundary, and a pass per check on it
            work.add(len(cur) * (1 + len(layer.orders) + len(layer.resolves) + len(layer.checks) + len(layer.closes)))
        if not layer.copies and (layer.needs or layer.counting):
            cur = self._drop_unfilled(layer, cur)
        if layer.orders:
            cur = self._check_orders(layer.orders, cur)
        if layer.resolves:
            cur = self._resolve(layer.resolves, cur)
        if layer.checks:
            cur = self._close_checks(layer.checks, cur)
        for tr in layer.closes:
            cur = self._close(tr, cur)
        return cur

    @staticmethod
    def _blocks(layer: _Layer, cur: State) -> list[State]:
        """Runs placed whole at a key's start (see _block_table): the states by copies
        placed so far (index 0: ``cur`` itself, no run taken)."""
        m = layer.copies
        out: list[State] = [cur] + [{} for _ in range(m)]
        needs, counting = layer.needs, layer.counting or ()
        factors: dict[tuple[int, int], int] = {}
        for code, w in cur.items():
            opts = [(code, w, 0, 1)]
            for sh, mask, table in layer.runs:
                runs = table[(code >> sh) & mask]
                if runs is not None:
                    opts += [(c + d, x if keep is None else x & keep, b + k, den * fk)
                             for k, d, keep, fk in runs for c, x, b, den in opts if b + k <= m]
            for c, x, b, den in opts[1:]:
                spare = m - b
                for sh, mask, short in needs:
                    spare -= short[(c >> sh) & mask]
                for st in counting:
                    spare -= max(st.need - ((c >> st.shift) & st.mask), 0)
                if spare < 0 or not x:
                    continue
                f = factors.get((b, den))
                if f is None:
                    f = factors[(b, den)] = factorial(m) // (factorial(m - b) * den)
                bucket = out[b]
                bucket[c] = bucket.get(c, 0) + x * f
        return out

    @staticmethod
    def _place(movers: list[_Movers], cur: State) -> State:
        """One copy, anywhere it may land.  (:meth:`_place_general` spells the same
        inner loop out again: a call per state would cost more than its work.)"""
        new: State = {}
        get = new.get
        for code, w in cur.items():
            for sh, mask, moves, _ in movers:
                for d in moves[(code >> sh) & mask]:
                    nc = code + d
                    new[nc] = get(nc, 0) + w
        return new

    @staticmethod
    def _place_general(layer: _Layer, cur: State, left: int) -> State:
        """One copy, where slots must be filled by this key (``left`` copies remain for
        them; when they are just enough the copy must go to one), or with groups of
        interchangeable stands (moves with multiplicities), or exclusions (masked
        moves keep only some components' bits)."""
        new: State = {}
        get = new.get
        movers, weighted, masked, needs = layer.movers, layer.weighted, layer.masked, layer.needs
        for code, w in cur.items():
            spare = left
            for sh, mask, short in needs:
                spare -= short[(code >> sh) & mask]
            if spare < 0:
                continue
            pick = 2 if spare else 3  # every move, or only those filling a must-fill slot
            for mover in movers:
                for d in mover[pick][(code >> mover[0]) & mover[1]]:
                    nc = code + d
                    new[nc] = get(nc, 0) + w
            for mover in weighted:
                for d, times in mover[pick][(code >> mover[0]) & mover[1]]:
                    nc = code + d
                    new[nc] = get(nc, 0) + w * times
            for mover in masked:
                for d, keep in mover[pick][(code >> mover[0]) & mover[1]]:
                    nc = code + d
                    new[nc] = get(nc, 0) + (w & keep)
        return new

    @staticmethod
    def _place_counting(layer: _Layer, cur: State, left: int) -> State:
        """One copy: on the counted stands stand by stand, counting the slots of count
        facts as it lands (and keeping only the weight bits an exclusion leaves a
        move); on the other chunks as :meth:`_place_general` does."""
        new: State = {}
        get = new.get
        stands, movers, weighted, masked, needs = layer.counting, layer.movers, layer.weighted, layer.masked, layer.needs
        for code, w in cur.items():
            spare = left
            for sh, mask, short in needs:
                spare -= short[(code >> sh) & mask]
            for st in stands:
                spare -= max(st.need - ((code >> st.shift) & st.mask), 0)
            if spare < 0:
                continue
            pick = 2 if spare else 3  # every move, or only those filling a must-fill slot
            for mover in movers:
                for d in mover[pick][(code >> mover[0]) & mover[1]]:
                    nc = code + d
                    new[nc] = get(nc, 0) + w
            for mover in weighted:
                for d, times in mover[pick][(code >> mover[0]) & mover[1]]:
                    nc = code + d
                    new[nc] = get(nc, 0) + w * times
            for mover in masked:
                for d, keep in mover[pick][(code >> mover[0]) & mover[1]]:
                    nc = code + d
                    new[nc] = get(nc, 0) + (w & keep)
            for st in stands:
                f = (code >> st.shift) & st.mask
                d = st.put[f]
                if not d or (spare == 0 and f >= st.need) or (st.flag and (code >> st.flag) & 1):
                    continue
                nc = code + d
                for tr in st.counts[f]:
                    if (nc >> tr.shift) & tr.mask < tr.cap:
                        nc += 1 << tr.shift
                    elif tr.bounded:
                        break
                else:
                    keep = st.keeps[f] if st.keeps is not None else None
                    new[nc] = get(nc, 0) + (w if keep is None else w & keep)
        return new

    @staticmethod
    def _drop_unfilled(layer: _Layer, cur: State) -> State:
        """A key with no copy to place: keep the states that need none."""
        if layer.counting is not None:
            return {code: w for code, w in cur.items()
                    if all((code >> st.shift) & st.mask >= st.need for st in layer.counting)
                    and not any(short[(code >> sh) & mask] for sh, mask, short in layer.needs)}
        return {code: w for code, w in cur.items()
                if not any(short[(code >> sh) & mask] for sh, mask, short in layer.needs)}

    @staticmethod
    def _close(tr: _Tracker, cur: State) -> State:
        """Check a count fact after its last key and free its field."""
        new: State = {}
        get = new.get
        clear = ~(tr.mask << tr.shift)
        for code, w in cur.items():
            if (code >> tr.shift) & tr.mask >= tr.lo:
                nc = code & clear
                new[nc] = get(nc, 0) + w
        return new

    @staticmethod
    def _check_orders(orders: list[_OrderCheck], cur: State) -> State:
        """Drop the states some order fact forbids at this boundary (see _OrderCheck)."""
        return {code: w for code, w in cur.items()
                if not any((code >> xs) & xm > xj and (code >> ys) & ym <= yj for xs, xm, xj, ys, ym, yj in orders)}

    @staticmethod
    def _resolve(resolves: list[_Resolve], cur: State) -> State:
        """Settle SameValueCount checks early, so states merge: once ``at`` is filled
        with its flag unset, its key is not of the class and the check holds
        whatever comes (its fields are cleared; at the join the other side's
        ``at`` is unfilled, so its flag is unset too); with the flag set and the
        count past its cap, nothing can satisfy it (the state is dropped)."""
        new: State = {}
        get = new.get
        for code, w in cur.items():
            for ss, sm, j, fsh, csh, cm, cap, clear in resolves:
                if (code >> fsh) & 1:
                    if (code >> csh) & cm == cap:
                        break
                elif (code >> ss) & sm > j:
                    code &= clear
            else:
                new[code] = get(code, 0) + w
        return new

    @staticmethod
    def _close_checks(checks: list[_ValueCheck], cur: State) -> State:
        """Apply the value checks whose last key this is and free their fields (one pass:
        a check's fields are adjacent bits, tested as one packed value)."""
        new: State = {}
        get = new.get
        clear = ~sum(ch.mask << ch.shift for ch in checks)
        tests = [(ch.shift, ch.mask, ch.packed) for ch in checks]
        for code, w in cur.items():
            for sh, m, packed in tests:
                if (code >> sh) & m not in packed:
                    break
            else:
                nc = code & clear
                new[nc] = get(nc, 0) + w
        return new


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


def estimated_states(plan: _Plan, limit: float = float("inf")) -> int:
    """The states one sweep visits, estimated before it runs, weighted by their cost as
    :meth:`_Plan.step` counts them: per key and copy placed, the fill vectors (group
    members as multisets) whose stands' fills lie in the ranges the domains allow during
    that key and whose sum is the copies placed so far, and at most the spreads of the
    copies so far over the stands.  Counters live at a key are left out: multiplying by
    their values put random legal games up to 5,000x over (refusing them); without them
    the work lands within 0.4-11x of this on random 4-5-player full-rules games
    (bench/bench_budget.py), so it serves as the early refusal, and the sweep's own
    count (:class:`Work`) is the bound.  Stops early once past ``limit``."""
    prep = plan.prep
    grouped = {s for g in prep.groups for s in g}
    singles = [s for s in prep.free if s not in grouped]
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
        placed = top
        if total > limit:
            break
    return total


def _estimated_states(plan: _Plan) -> int:
    """A cheap upper estimate of the states a sweep visits: product of fill ranges per key."""
    return sum(layer.estimate for layer in plan.layers)


# The page's two workers sweep one direction each (bridge.py, "split"; Pyodide has no
# fork): while set, this hook gets both plans and returns both sweeps, or None to sweep here.
SWEEPS_ELSEWHERE: Callable[[_Plan, _Plan], tuple[list[State], list[State]] | None] | None = None


def plans(problem: Problem) -> tuple[_Plan, _Plan]:
    """The forward and mirrored plans :func:`analyze` sweeps for ``problem``; a worker given the
    same problem sweeps one of them (``plans(p)[1].sweep()``) and gets exactly analyze's sweep."""
    prep = _Prepared(problem, ())
    return _Plan(prep, False), _Plan(prep, True)


def _sweep_both(forward: _Plan, mirrored: _Plan, budget: float) -> tuple[list[State], list[State]]:
    """Both sweeps, each held to half of ``budget`` (wherever it runs, so the answer does not
    depend on where the sweeps ran)."""
    if SWEEPS_ELSEWHERE is not None:
        swept = SWEEPS_ELSEWHERE(forward, mirrored)
        if swept is not None:
            return swept
    if not (PARALLEL_SWEEPS and hasattr(os, "fork") and _estimated_states(forward) >= PARALLEL_MIN_STATES):
        return forward.sweep(Work(budget / 2, budget)), mirrored.sweep(Work(budget / 2, budget))
    import pickle  # only the CLI's forked sweep needs it; not worth its import time elsewhere
    import signal

    read_end, write_end = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # child: the mirrored sweep (or its refusal), pickled into the pipe
        try:
            from ..children import bind_to_parent  # dies with the CLI, even on SIGKILL

            bind_to_parent(parent)
            try:
                result: object = mirrored.sweep(Work(budget / 2, budget))
            except EngineLimit as e:
                result = e
            with os.fdopen(write_end, "wb") as out:
                out.write(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
        finally:
            os._exit(0)
    os.close(write_end)
    try:
        fwd = forward.sweep(Work(budget / 2, budget))
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
        return fwd, mirrored.sweep(Work(budget / 2, budget))
    if isinstance(back, EngineLimit):
        raise back
    return fwd, back


def analyze(problem: Problem, budget: float | None = None) -> Beliefs:
    """Exact worlds and slot marginals; raises :class:`Inconsistent` when no deal fits
    and :class:`EngineLimit` when the sweeps would visit more than ``budget`` states
    (None: the module's :data:`BUDGET`; ``math.inf``: no limit)."""
    return analyze_excluding(problem, (), budget)[0]


def _about(n: float) -> str:
    return f"{n:,.0f}" if n < 1e6 else f"{n / 1e6:,.0f} million" if n < 1e12 else f"{n:.1e}"


def check_budget(forward: _Plan, mirrored: _Plan | None, budget: float | None = None) -> float:
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
        raise EngineLimit(f"too large: about {_about(n)} states (budget {_about(limit)}); no legal deal comes "
                          "near this; a larger budget may take minutes and GBs")
    return limit


def worlds_excluding(problem: Problem, variants: Sequence[Variant], budget: float | None = None) -> list[int]:
    """The worlds of the problem and of each variant (0: no deal fits), from the
    forward sweep alone: half an analysis, for callers that need a ratio of
    worlds and no marginal.  ``budget``: as :func:`analyze`."""
    try:
        prep = _Prepared(problem, variants)
        forward = _Plan(prep, False)
        limit = check_budget(forward, None, budget)
        total = sum(forward.sweep(Work(limit, limit))[prep.n_layers].values())
    except _Zero:
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
    integer (see :meth:`_Prepared._pack`).  Suggestions in public view use it
    for "the player holds no v" for every value v at once.  Raises
    :class:`Inconsistent` when the problem itself admits no deal.
    """
    return Swept(problem, variants, budget).beliefs()


class Swept:
    """One engine run kept whole: a problem (with variants), its plans and both sweeps.

    :meth:`beliefs` joins the sweeps into slot marginals (what
    :func:`analyze_excluding` returns); :meth:`run_joint` reuses them for
    the joint law of one stand's fill before and after one key, from one
    more pass over that key.  Raises :class:`Inconsistent` when the problem
    itself admits no deal, :class:`EngineLimit` past ``budget`` (as :func:`analyze`).
    """

    def __init__(self, problem: Problem, variants: Sequence[Variant] = (), budget: float | None = None):
        self.problem, self.variants = problem, variants
        try:
            prep = self.prep = _Prepared(problem, variants)
            forward, mirrored = self.forward, _ = _Plan(prep, False), _Plan(prep, True)
            self.fwd, self.bwd = _sweep_both(forward, mirrored, check_budget(forward, mirrored, budget))
        except _Zero:
            raise Inconsistent from None
        self.components = len(prep.exclusions) + 1
        self.total = sum(self.fwd[prep.n_layers].values())  # packed, before the multiplier
        if not self.component(self.total, 0):
            raise Inconsistent
        # Trackers whose count spans a key boundary: their partial counts are joined there.
        self.span: list[tuple[_Tracker, int, int]] = []
        first_last: dict[int, tuple[int, int]] = {}
        for ti, (tr, _) in enumerate(forward.trackers):
            touched = [t for t, layer in enumerate(forward.layers) if ti in layer.trackers]
            if touched:
                self.span.append((tr, touched[0], touched[-1]))
                first_last[ti] = (touched[0], touched[-1])
        # Value checks spanning a boundary: their summed fields (saturated) must be accepted there.
        self.check_span = [(check, *first_last[indexes[0]]) for check, indexes in forward.checks
                           if indexes[0] in first_last]
        # A group's fields are adjacent bits of one width (its members carry no run flag).
        self.group_fields = [(forward.shift[g[0]], len(g), self._width(g[0])) for g in prep.groups]
        self.orbits: dict[int, int] = {}  # group bits of a code -> its orbit size

    def _width(self, s: int) -> int:
        return self.forward.size[s].bit_length()

    def component(self, x: int, c: int) -> int:
        """Component c of a packed weight (0: the problem's, c: with variant c's exclusions)."""
        if self.components == 1:
            return x
        width = self.prep.width
        return (x >> (c * width)) & ((1 << width) - 1)

    def orbit(self, code: int) -> int:
        """How many fill vectors permuting interchangeable stands give this state's (1 without groups)."""
        size = 1
        for shift, g, width in self.group_fields:
            size *= _orbit_of(g, width, (code >> shift) & ((1 << (g * width)) - 1))
        return size

    def joiner(self, i: int) -> Callable[[int, int], int]:
        """``joint(code, w)``: the weight of the deals through forward state ``code`` (weight
        ``w``) at key boundary i, packed like the weights, with every state of the
        backward sweep that completes it (0: none).

        Both sweeps store orbit totals of interchangeable stands: the completion
        weight of one state is the backward total / orbit size.
        """
        prep, forward = self.prep, self.forward
        full, fills_mask = forward.full, forward.fills_mask
        back = self.bwd[prep.n_layers - i]
        live = [tr for tr, first, last in self.span if first < i <= last]
        live_checks = [(tuple((tr.shift, tr.mask, tr.cap) for tr in check.fields), check.accept)
                       for check, first, last in self.check_span if first < i <= last]
        pack = _joiner(prep, i) if self.components > 1 else None
        group_bits = sum(((1 << (g * width)) - 1) << shift for shift, g, width in self.group_fields)
        orbits = self.orbits
        by_fills: dict[int, list[tuple[int, int]]] = {}
        if live:
            for code, w in back.items():
                by_fills.setdefault(code & fills_mask, []).append((code, w))

        def joint(code: int, w: int) -> int:
            if live:
                b = 0
                for other, wb in by_fills.get(full - (code & fills_mask), ()):
                    for tr in live:
                        n = ((code >> tr.shift) & tr.mask) + ((other >> tr.shift) & tr.mask)
                        if n < tr.lo or (tr.bounded and n > tr.hi):
                            break
                    else:
                        for fields, accept in live_checks:
                            if tuple([min(((code >> sh) & m) + ((other >> sh) & m), cap)
                                      for sh, m, cap in fields]) not in accept:
                                break
                        else:
                            b += wb
            else:
                b = back.get(full - code, 0)
            if not b:
                return 0
            j = w * b if pack is None else pack(w, b)
            if group_bits:
                orbit = orbits.get(code & group_bits)
                if orbit is None:
                    orbit = orbits[code & group_bits] = self.orbit(code)
                j //= orbit
            return j

        return joint

    def beliefs(self) -> tuple[Beliefs, list[Beliefs | None]]:
        """The problem's beliefs and each variant's (None: no deal fits it), as :func:`analyze_excluding`."""
        prep, forward, problem, variants = self.prep, self.forward, self.problem, self.variants
        L = prep.n_layers
        hist_of = {s: s for s in prep.free}
        share = {s: 1 for s in prep.free}
        for g in prep.groups:
            for s in g:
                hist_of[s], share[s] = g[0], len(g)
        owners = sorted(set(hist_of.values()))
        masks = {o: (1 << forward.size[o].bit_length()) - 1 for o in owners}
        # Joint weights are summed per chunk of adjacent stands (one addition per
        # chunk, not per stand), then split into each stand's fill histogram.
        chunks = []
        for chunk in forward.chunks:
            base = forward.shift[chunk[0]]
            width_bits = forward.shift[chunk[-1]] + masks[hist_of[chunk[-1]]].bit_length() - base
            chunks.append((base, (1 << width_bits) - 1,
                           [(hist_of[s], forward.shift[s] - base, masks[hist_of[s]]) for s in chunk]))
        cumulative: dict[int, list[list[int]]] = {o: [] for o in owners}  # [boundary][j] = weight of fill > j
        for i in range(L + 1):
            sums = [[0] * (mask + 1) for _, mask, _ in chunks]
            joint = self.joiner(i)
            for code, w in self.fwd[i].items():
                j = joint(code, w)
                if j:
                    for (base, mask, _), chunk_sums in zip(chunks, sums):
                        chunk_sums[(code >> base) & mask] += j
            hist = {o: [0] * (forward.size[o] + 1) for o in owners}
            for (_, _, members), chunk_sums in zip(chunks, sums):
                for idx, h in enumerate(chunk_sums):
                    if h:
                        for o, off, m in members:
                            hist[o][(idx >> off) & m] += h
            for o in owners:
                h = hist[o]
                cum = [0] * forward.size[o]
                acc = 0
                for j in range(forward.size[o] - 1, -1, -1):
                    acc += h[j + 1]
                    cum[j] = acc
                cumulative[o].append(cum)
        results: list[Beliefs | None] = []
        for c in range(self.components):
            total = self.component(self.total, c)
            if not total or c in prep.dead:
                results.append(None)
                continue
            weights: dict[Pos, dict[int, int]] = {}
            denominators: dict[int, int] = {}
            keys = prep.keys
            for s in prep.fixed:
                denominators[s] = total
                for j, d in enumerate(prep.domains[s]):
                    weights[(s, j)] = {keys[next(iter(d))]: total}
            for s in prep.free:
                o = hist_of[s]
                denominators[s] = total * share[s]
                cum = cumulative[o]
                for j in range(forward.size[s]):
                    row = {}
                    for t in range(L):
                        w = self.component(cum[t + 1][j] - cum[t][j], c)  # no component borrows: each rises with t
                        if w:
                            row[keys[t]] = w
                    weights[(s, j)] = row
            results.append(Beliefs(restricted(problem, variants[c - 1]) if c else problem, total * prep.multiplier,
                                   weights, denominators))
        base = results.pop(0)
        assert base is not None
        return base, results

    def run_joint(self, stand: int, key: Key, components: Sequence[int] = (0,)) -> list[dict[tuple[int, int], int]]:
        """Per component asked: by (f0, f1), the weight of the deals (before the
        multiplier, as :attr:`total`) in which stand ``stand`` has f0 slots
        filled before ``key`` and f1 after it, i.e. holds ``key`` on exactly its
        slots f0 .. f1 - 1 (a key's copies on a sorted stand are one run).

        The forward states before the key are tagged with the stand's fill (bits
        above the plan's fields), the key's own layer is run on them
        (:meth:`_Plan.step`) and the states after it are joined with the
        backward sweep, so every pair of slots' joint ("a and b both hold the
        key") costs one pass over one key in all, not one analysis per pair.

        A stand of an interchangeable group is stored sorted with its group, so
        the tag is the group's fields; which member went from which fill to
        which is then split exactly (:func:`_member_moves`), and the weights
        are the group's mean per member: Fractions, not ints.
        """
        prep, plan = self.prep, self.forward
        if stand in prep.fixed:
            row = [prep.keys[next(iter(d))] for d in prep.domains[stand]]
            cell = (sum(k < key for k in row), sum(k <= key for k in row))
            return [{} if c in prep.dead else {cell: self.component(self.total, c)} for c in components]
        if key not in prep.keys:
            raise ValueError(f"key {key} is not dealt in this problem")
        t = prep.keys.index(key)
        group = next((g for g in prep.groups if stand in g), [stand])
        shift, width = plan.shift[group[0]], self._width(stand)
        bits = (1 << (len(group) * width)) - 1
        top = plan.fills_mask.bit_length()
        tagged = {code | (((code >> shift) & bits) << top): w for code, w in self.fwd[t].items()}
        low = (1 << top) - 1
        joint = self.joiner(t + 1)
        moves: dict[tuple[int, int], int] = {}  # (unit fields before, after) -> packed joint weight
        for code, w in plan.step(plan.layers[t], tagged).items():
            j = joint(code & low, w)
            if j:
                k = (code >> top, (code >> shift) & bits)
                moves[k] = moves.get(k, 0) + j
        out: list[dict[tuple[int, int], int]] = [{} for _ in components]
        mask = (1 << width) - 1
        domain = prep.domains[stand]
        for (before, after), j in moves.items():
            weights = [0 if c in prep.dead else self.component(j, c) for c in components]  # dead: see _pack
            if len(group) == 1:
                cells = {(before, after): 1}
            else:
                cells = _member_moves(tuple((before >> (x * width)) & mask for x in range(len(group))),
                                      tuple((after >> (x * width)) & mask for x in range(len(group))),
                                      t, domain, prep.copies[t])
            for table, w in zip(out, weights):
                if w:
                    for cell, share in cells.items():
                        table[cell] = table.get(cell, 0) + w * share
        if len(group) > 1:
            for table in out:
                for cell in table:
                    table[cell] /= len(group)
        return out


def restricted(problem: Problem, variant: Variant) -> Problem:
    """The problem with a variant's exclusions as slot domains."""
    for slots, keys in variant:
        for pos in slots:
            problem = problem.restrict(pos, problem.domain(pos) - keys)
    return problem


def _joiner(prep: _Prepared, i: int):
    """Joint weight of forward and backward packed weights at key boundary i.

    A variant differs from the problem only at its excluded keys, so at a
    boundary with all of them on one side one factor is the problem's own
    (component 0): forward-packed x backward-plain covers the variants whose
    keys are all placed, forward-plain x backward-packed those whose keys are
    all to come, with no carry (each product is at most the total).  A
    variant with keys on both sides is multiplied component by component.
    """
    width = prep.width
    low = (1 << width) - 1
    after, across = prep.component_bits(0), []
    for c, variant in enumerate(prep.exclusions, 1):
        layers = frozenset().union(*(ls for _, ls in variant))
        if layers and min(layers) < i <= max(layers):
            across.append(c)
        elif layers and max(layers) < i:
            after |= prep.component_bits(c)
    before = prep.all_bits ^ after
    for c in across:
        before ^= prep.component_bits(c)

    def join(w: int, b: int) -> int:
        joint = ((w * (b & low)) & after) | (((w & low) * b) & before)
        for c in across:
            sh = c * width
            joint |= (((w >> sh) & low) * ((b >> sh) & low)) << sh
        return joint

    return join


def _member_moves(before: tuple[int, ...], after: tuple[int, ...], t: int, domain: list[frozenset[int]],
                  copies: int) -> dict[tuple[int, int], object]:
    """Interchangeable stands with fills ``before`` a key and ``after`` it (as multisets):
    the expected number of them going from fill f0 to f1, by (f0, f1), as Fractions.

    Every labelled way to hand the fills ``after`` to the stands (distinct
    arrangements) has the weight its copies get in the sweep, which is
    prod 1 / c! over the stands (c = f1 - f0 copies each; the rest of
    m! / prod c! is common to all ways), and 0 when a stand's new slots
    f0 .. f1 - 1 may not hold the key.  Summed by dynamic programming over the
    fills not yet handed out, forwards and backwards.
    """
    from fractions import Fraction  # only groups need it; the CLI's analyze path never imports it

    values = sorted(set(after))
    start = tuple(after.count(v) for v in values)

    def weight(f0: int, f1: int) -> int:  # copies! / c!, an integer proportional to 1 / c!
        return factorial(copies) // factorial(f1 - f0) if f0 <= f1 and all(t in domain[f] for f in range(f0, f1)) else 0

    g = len(before)
    fwd: list[dict[tuple[int, ...], int]] = [{start: 1}]
    for x in range(g):
        nxt: dict[tuple[int, ...], int] = {}
        for left, w in fwd[x].items():
            for i, v in enumerate(values):
                if left[i]:
                    f = weight(before[x], v)
                    if f:
                        rest = left[:i] + (left[i] - 1,) + left[i + 1:]
                        nxt[rest] = nxt.get(rest, 0) + w * f
        fwd.append(nxt)
    done = (0,) * len(values)
    total = fwd[g].get(done, 0)
    assert total, "a move the sweep made has a way to hand out its fills"
    bwd: dict[tuple[int, ...], int] = {done: 1}
    cells: dict[tuple[int, int], int] = {}
    for x in range(g - 1, -1, -1):
        prev: dict[tuple[int, ...], int] = {}
        for left, w in fwd[x].items():
            for i, v in enumerate(values):
                if left[i]:
                    f = weight(before[x], v)
                    rest = left[:i] + (left[i] - 1,) + left[i + 1:]
                    if f and rest in bwd:
                        through = f * bwd[rest]
                        prev[left] = prev.get(left, 0) + through
                        cells[(before[x], v)] = cells.get((before[x], v), 0) + w * through
        bwd = prev
    return {cell: Fraction(n, total) for cell, n in cells.items()}


@lru_cache(maxsize=4096)
def _orbit_of(g: int, width: int, fields: int) -> int:
    """How many fill vectors of g interchangeable stands (``width`` bits each, packed in
    ``fields``) permuting them gives: g! / prod(m!) over runs of m equal fills."""
    seen = Counter((fields >> (x * width)) & ((1 << width) - 1) for x in range(g))
    return factorial(g) // prod(factorial(m) for m in seen.values())
