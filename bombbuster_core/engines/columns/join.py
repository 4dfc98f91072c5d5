"""The columns engine's join: slot marginals and joints around one key, from both sweeps.

At key boundary i the forward sweep's weight of a state times the mirrored
sweep's weight of completing it (its complement, partial counts of facts
spanning the boundary summed and checked) is the exact weight of the deals
through that fill vector; differences of fill distributions are the slot
marginals (:meth:`Join.beliefs`).  Packed variants' weights are multiplied
component by component (:func:`_joiner`); interchangeable stands' orbit
totals are divided by the orbit's size (:func:`orbit_of`).  One more pass
over one key on states tagged with a stand's fill gives which of its slots
hold that key (:meth:`Join.run_joint`; groups split by :func:`_member_moves`).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from math import factorial, prod

from ...beliefs import Beliefs, Inconsistent
from ...facts import Pos, Problem
from ...wires import Key
from .plan import Plan
from .prepare import Prepared, State, Variant, restricted
from .sweep import Tracker, step


class Join:
    """Both sweeps of one run (a problem with variants), kept whole, and what joining them gives.

    :meth:`beliefs` joins the sweeps into slot marginals (what
    :func:`analyze_excluding` returns); :meth:`run_joint` reuses them for
    the joint law of one stand's fill before and after one key, from one
    more pass over that key.  ``fwd``: the forward plan's sweep; ``bwd``: the
    mirrored plan's (of the same :class:`~.prepare.Prepared`).  Raises
    :class:`Inconsistent` when the problem itself admits no deal.  The
    package's ``Swept`` makes one by running both sweeps under the budget.
    """

    def __init__(self, problem: Problem, variants: Sequence[Variant], forward: Plan,
                 fwd: list[State], bwd: list[State]):
        self.problem, self.variants = problem, variants
        prep = self.prep = forward.prep
        self.forward, self.fwd, self.bwd = forward, fwd, bwd
        self.components = len(prep.exclusions) + 1
        self.total = sum(self.fwd[prep.n_layers].values())  # packed, before the multiplier
        if not self.component(self.total, 0):
            raise Inconsistent
        # Trackers whose count spans a key boundary: their partial counts are joined there.
        self.span: list[tuple[Tracker, int, int]] = []
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
            size *= orbit_of(g, width, (code >> shift) & ((1 << (g * width)) - 1))
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

    def joints(self, i: int) -> list[tuple[int, int]]:
        """(code, joint weight) of every forward state at key boundary i that some deal passes
        through (:meth:`joiner`).  A run with no count or check spanning the boundary, one
        component and no interchangeable stands joins by one lookup per state: the plain
        case (most analyses) as one comprehension, without a call per state."""
        fwd = self.fwd[i]
        if self.span or self.check_span or self.components > 1 or self.group_fields:
            joint = self.joiner(i)
            return [(code, j) for code, w in fwd.items() if (j := joint(code, w))]
        get, full = self.bwd[self.prep.n_layers - i].get, self.forward.full
        return [(code, w * b) for code, w in fwd.items() if (b := get(full - code))]

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
            joints = self.joints(i)
            hist = {o: [0] * (forward.size[o] + 1) for o in owners}
            for base, mask, members in chunks:
                chunk_sums = [0] * (mask + 1)
                for code, j in joints:
                    chunk_sums[(code >> base) & mask] += j
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
        (:func:`.sweep.step`) and the states after it are joined with the
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
        for code, w in step(plan.layers[t], tagged).items():
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


def _joiner(prep: Prepared, i: int):
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
def orbit_of(g: int, width: int, fields: int) -> int:
    """How many fill vectors of g interchangeable stands (``width`` bits each, packed in
    ``fields``) permuting them gives: g! / prod(m!) over runs of m equal fills."""
    seen = Counter((fields >> (x * width)) & ((1 << width) - 1) for x in range(g))
    return factorial(g) // prod(factorial(m) for m in seen.values())
