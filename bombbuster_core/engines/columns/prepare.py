"""The columns engine's preprocessing: a problem as slot domains, facts and variants in layer indexes.

:class:`Prepared` is what both sweep directions share: slot domains as
sets of layer indexes (keys in ascending order), narrowed by sorting, order
facts and decided value facts; count facts; the value facts left as checks
or run rules; the known stands (left out of the state, they only scale the
weights) and the groups of interchangeable stands; and the packing of every
variant's weight into one integer.  It raises :class:`Zero` when the facts
admit no deal.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from math import factorial, prod

from ...facts import Pos, Problem, SameValue, SameValueCount
from ...wires import Key, value_of

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs the CLI's start-up (tests/test_cli.py)
    from typing import Any

State = dict[int, int]  # packed code -> exact weight (components packed, see Prepared._pack)
Exclusion = tuple[frozenset[Pos], frozenset[Key]]  # these slots hold none of these keys
Variant = Sequence[Exclusion]  # the problem with all these exclusions


class Zero(Exception):
    """The facts admit no deal."""


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


class Prepared:
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
                raise Zero
            for i, c in Counter(row).items():
                fixed_counts[i] += c
                den *= factorial(c)
        self.copies = [m - f for m, f in zip(copies, fixed_counts)]
        if min(self.copies, default=0) < 0:
            raise Zero
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
        self.tables: dict[tuple, Any] = {}  # move tables, and excluded_bits
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

    def excluded_bits(self) -> dict[int, dict[Pos, int]]:
        """Per key layer, per slot: the components whose exclusions forbid that key there (one
        pass over the variants for every stand and key of both plans, which ask per slot;
        kept per ``width``, which the boolean run resets after packing)."""
        kept = self.tables.get(("excluded", self.width))
        if kept is None:
            kept = {}
            for c, variant in enumerate(self.exclusions, 1):
                bits = self.component_bits(c)
                for slots, layers in variant:
                    for t in layers:
                        at = kept.setdefault(t, {})
                        for slot in slots:
                            at[slot] = at.get(slot, 0) | bits
            self.tables[("excluded", self.width)] = kept
        return kept

    def _sort_bounds(self) -> None:
        """A sorted stand's slot holds at least its left neighbour's least key and at most its right one's greatest."""
        for row in self.domains:
            bound = -1
            for j, d in enumerate(row):
                row[j] = d = frozenset(i for i in d if i >= bound)
                if not d:
                    raise Zero
                bound = min(d)
            bound = self.n_layers
            for j in range(len(row) - 1, -1, -1):
                row[j] = d = frozenset(i for i in row[j] if i <= bound)
                if not d:
                    raise Zero
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
                raise Zero
            d_lo = self.domains[ls][lj] = frozenset(i for i in d_lo if i <= max(d_hi))
            if not d_lo:
                raise Zero
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
                    raise Zero
                if not v.equal:
                    for c in self._classes_meeting(dom[as_][aj]):
                        if c & dom[bs][bj]:
                            self.counts.append(_Count(frozenset((v.a, v.b)), c, 0, 1))
                    continue
                da = dom[as_][aj] & frozenset().union(*self._classes_meeting(dom[bs][bj]))
                db = dom[bs][bj] & frozenset().union(*self._classes_meeting(da))
                if not da or not db:
                    raise Zero
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
                    raise Zero
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
        may cover its slots (see Plan._block_table).  Where a count fact or
        another check is tracked on that stand at that key, it stays a check.
        """
        dom = self.domains
        checks = []
        runs: list[tuple[int, int, str, int, int]] = []  # (stand, slot, kind, count, layer), see Plan._block_table

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
                    raise Zero
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


def restricted(problem: Problem, variant: Variant) -> Problem:
    """The problem with a variant's exclusions as slot domains."""
    for slots, keys in variant:
        for pos in slots:
            problem = problem.restrict(pos, problem.domain(pos) - keys)
    return problem

