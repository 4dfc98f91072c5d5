"""Exact engine "columns": a dynamic program over sort keys (the default).

Walk the sort keys in ascending order.  The state after a key is how many
slots each hidden stand has filled so far; because stands are sorted, slot
``j`` of stand ``s`` holds a key ``<= k`` exactly when the fill of ``s``
after ``k`` exceeds ``j``.  Placing the copies of one key is done stand by
stand ("sub-steps") with a counter of copies still to place, so a transition
is one integer addition on a bit-packed state code and costs no allocation.

Weights are exact integers.  The copies of a key spread over the stands in
``r! / prod(c_s!)`` ways (the shuffle prior of the README), built up as a
product of binomials ``C(rem, c)`` over the sub-steps.

What keeps the state space small:
* stands whose every slot is known (the observer's hand, fully revealed
  stands) leave the state and only scale the result;
* the last stand of a key takes the remaining copies: no branching;
* a key's allowed runs of slots and the slots that must already be filled
  prune transitions at the source (``lo``/``hi`` tables per stand and key);
* stands that are interchangeable (same size, same slot domains, no count
  fact) are kept as a sorted tuple: a symmetric state stores its orbit's
  total weight, which is exact because transitions commute with permuting
  interchangeable stands.

Count facts ride along as small counter fields in the state code while a
key of theirs is being placed on a stand of theirs; a fact about one key
(a blue value) lives for one key only, so it never multiplies the states.

Marginals: a second sweep over the mirrored problem (keys descending, stands
reversed) gives, at every key boundary, the weight of completing each state;
the product with the forward weight is the exact weight of each fill vector,
and differences of fill distributions are the slot marginals.
"""
from __future__ import annotations

import os
import pickle
from collections import Counter
from dataclasses import dataclass
from math import comb, factorial, prod

from ..beliefs import Beliefs, Inconsistent
from ..facts import Pos, Problem

State = dict[int, int]  # packed code -> exact weight

# Run the two sweeps in two processes (fork) when a table is big enough to pay
# for it (~15 ms of fork + pickling).  Off by default: forking a process that
# has threads is unsafe, so only the single-threaded CLI turns it on.  Where
# there is no fork (Pyodide), sweeps stay serial.
PARALLEL_SWEEPS = False
PARALLEL_MIN_STATES = 20_000  # estimated boundary states, summed over keys


class _Zero(Exception):
    """The facts admit no deal."""


@dataclass
class _Count:
    """A count fact over free slots, in layer indices."""

    slots: frozenset[Pos]
    layers: frozenset[int]
    lo: int
    hi: int  # may exceed len(slots): no upper bound


class _Prepared:
    """Direction-independent preprocessing of a problem."""

    def __init__(self, problem: Problem):
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
        while True:
            before = [list(row) for row in self.domains]
            self._sort_bounds()
            self.counts = self._simplify(self.counts)
            if before == self.domains:
                break
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
        counted = {s for c in self.counts for (s, _) in c.slots}
        free = [s for s in range(len(problem.stands)) if s not in fixed_set]
        # Interchangeable stands: same size and domains, no count fact.
        signature: dict[tuple, list[int]] = {}
        for s in free:
            if s not in counted:
                signature.setdefault((len(self.domains[s]), tuple(self.domains[s])), []).append(s)
        self.groups = [g for g in signature.values() if len(g) > 1]
        self.tables: dict[tuple, list] = {}
        grouped = {s for g in self.groups for s in g}
        # Code order: singles first, groups last (the forced last sub-step is then the freest stand).
        self.free = [s for s in free if s not in grouped] + [s for g in self.groups for s in g]

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


@dataclass
class _Tracker:
    shift: int
    mask: int
    cap: int  # stored value never exceeds cap
    lo: int
    hi: int
    bounded: bool  # hi is a real upper bound


@dataclass
class _Step:
    """Placing one key's copies on one stand."""

    stand: int
    shift: int
    mask: int
    lo: list[int]  # lo[f] <= fill after this key, from fill f before it
    hi: list[int]
    starts: range  # the fills a state may have before this key
    table: list[tuple[tuple[int, int], ...]]  # (fill << rem_bits | rem) -> ((code delta, multiplier), ...)
    finish: list[tuple[tuple[int, int], ...]] | None  # when set: the moves that place every remaining copy
    touches: list[tuple[_Tracker, list[int]]]  # trackers counted here, with prefix counts over fills
    closes: list[_Tracker]  # trackers whose last sub-step this is
    partner: tuple[int, int, int] | None = None  # (shift, mask, size + 1) of a last stand merged into this step


@dataclass
class _Layer:
    copies: int
    steps: list[_Step]


class _Plan:
    """The sweep for one direction; ``mirrored`` reverses keys and slots."""

    def __init__(self, prep: _Prepared, mirrored: bool):
        self.prep = prep
        self.mirrored = mirrored
        self.rem_bits = max(max(prep.copies, default=0), 1).bit_length()
        self.rem_mask = (1 << self.rem_bits) - 1
        shift = self.rem_bits
        self.trackers: list[tuple[_Tracker, _Count]] = []
        for c in prep.counts:
            bounded = c.hi < len(c.slots)
            cap = c.hi if bounded else c.lo  # without an upper bound, saturate at lo
            width = max(cap.bit_length(), 1)
            self.trackers.append((_Tracker(shift, (1 << width) - 1, cap, c.lo, c.hi, bounded), c))
            shift += width
        self.size = {s: len(prep.domains[s]) for s in prep.free}
        self.shift: dict[int, int] = {}
        for s in prep.free:
            self.shift[s] = shift
            shift += self.size[s].bit_length()
        self.full = sum(self.size[s] << self.shift[s] for s in prep.free)
        self.sorted_fields: dict[int, dict[int, int]] = {}  # group base shift -> field value -> sorted value
        self.fills_mask = ((1 << shift) - 1) ^ ((1 << self.tracker_end()) - 1)
        self.layers: list[_Layer] = []
        last_touch: dict[int, _Step] = {}
        doms = {s: self._domains(s) for s in prep.free}
        bounds = {s: [(min(d), max(d)) for d in doms[s]] for s in prep.free}
        for t in range(prep.n_layers):
            steps = [st for st in (self._step(s, t, doms[s], bounds[s]) for s in prep.free) if st is not None]
            # Stands that must fill a slot with this key go first, so that states which
            # have placed every copy can skip the unconstrained stands after them.
            steps.sort(key=lambda st: all(st.lo[f] == f for f in st.starts))
            for st in steps:
                for ti, (tr, _) in enumerate(self.trackers):
                    if any(tr is tt for tt, _ in st.touches):
                        last_touch[ti] = st
            copies = prep.copies[self.key_layer(t)]
            if copies and not steps:
                raise _Zero
            # A state with no copy left may skip the later stands of the layer when
            # none of them must fill a slot now and no count fact is being tracked.
            merge = len(steps) >= 2 and not (steps[-1].touches or steps[-2].touches)
            quiet = True
            for q in range(len(steps) - 2, -1, -1):
                later = steps[q + 1]
                quiet = quiet and not later.touches and all(later.lo[f] == f for f in later.starts)
                if quiet and not steps[q].touches and q < len(steps) - 1 - merge:
                    self._split_finishing(steps[q])
            if merge:
                self._merge_last_two(steps)
            elif steps:
                self._force_last(steps[-1])
            self.layers.append(_Layer(copies, steps))
        for ti, (tr, c) in enumerate(self.trackers):
            if ti in last_touch:
                last_touch[ti].closes.append(tr)
            elif c.lo > 0:
                raise _Zero

    def tracker_end(self) -> int:
        return self.rem_bits + sum(max(tr.cap.bit_length(), 1) for tr, _ in self.trackers)

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

    def _step(self, s: int, t: int, doms: list[frozenset[int]], bounds: list[tuple[int, int]]) -> _Step | None:
        """The sub-step of stand s for sweep position t; ``bounds`` = (min, max) of each domain."""
        n = self.size[s]
        hi = list(range(n + 1))
        for f in range(n - 1, -1, -1):
            if t in doms[f]:
                hi[f] = hi[f + 1]
        # Slots that no later key may fill must be filled now.
        lo = list(range(n + 1))
        must = -1
        for f in range(n - 1, -1, -1):
            if must < 0 and bounds[f][1] <= t:
                must = f
            lo[f] = max(f, must + 1)
        # Fills a state can have when this key starts: slots whose keys all come
        # earlier are filled, slots whose keys all come later are not.
        first = next((j for j in range(n) if bounds[j][1] >= t), n)
        last = next((j for j in range(n) if bounds[j][0] >= t), n)
        if all(hi[f] == f for f in range(first, last + 1)):
            return None  # never takes this key
        sh = self.shift[s]
        table = self._table(lo, hi, sh, forced=False)
        key = self.key_layer(t)
        touches = []
        for tr, c in self.trackers:
            if key in c.layers:
                marks = [(s, (n - 1 - j) if self.mirrored else j) in c.slots for j in range(n)]
                if any(marks):
                    pref = [0]
                    for m in marks:
                        pref.append(pref[-1] + m)
                    touches.append((tr, pref))
        return _Step(s, sh, (1 << n.bit_length()) - 1, lo, hi, range(first, last + 1), table, None, touches, [])

    def _table(self, lo: list[int], hi: list[int], sh: int, forced: bool, finishing: bool | None = None):
        """Moves from every (fill, copies left), as ((code delta, multiplier), ...).

        ``finishing`` keeps only the moves that place every remaining copy
        (True) or only the others (False).  Tables repeat across keys and
        directions, so they are cached on the prepared problem.
        """
        cache_key = (tuple(lo), tuple(hi), sh, self.rem_bits, forced, finishing)
        table = self.prep.tables.get(cache_key)
        if table is None:
            table = []
            for f in range(len(lo)):
                for rem in range(1 << self.rem_bits):
                    if forced:
                        counts = [rem] if lo[f] <= f + rem <= hi[f] else []
                    else:
                        counts = range(lo[f] - f, min(hi[f], f + rem) - f + 1)
                    if finishing is not None:
                        counts = [c for c in counts if (c == rem) == finishing]
                    table.append(tuple(((c << sh) - c, comb(rem, c)) for c in counts))
            self.prep.tables[cache_key] = table
        return table

    def _merge_last_two(self, steps: list[_Step]) -> None:
        """Fold the forced last stand into the one before: one pass over the states instead of two."""
        a, b = steps[-2], steps.pop()
        nb1 = len(b.lo)
        cache_key = ("pair", tuple(a.lo), tuple(a.hi), tuple(b.lo), tuple(b.hi), a.starts, b.starts, a.shift, b.shift,
                     self.rem_bits)
        table = self.prep.tables.get(cache_key)
        if table is None:
            rems = 1 << self.rem_bits
            table = [()] * (len(a.lo) * nb1 * rems)
            for fa in a.starts:  # other fills never occur
                for fb in b.starts:
                    base = (fa * nb1 + fb) * rems
                    for rem in range(rems):
                        table[base + rem] = tuple(
                            ((c << a.shift) + ((rem - c) << b.shift) - rem, comb(rem, c))
                            for c in range(a.lo[fa] - fa, min(a.hi[fa], fa + rem) - fa + 1)
                            if b.lo[fb] <= fb + rem - c <= b.hi[fb])
            self.prep.tables[cache_key] = table
        a.table, a.partner = table, (b.shift, b.mask, nb1)

    def _split_finishing(self, step: _Step) -> None:
        """States that place their last copy here skip the layer's later stands."""
        step.table = self._table(step.lo, step.hi, step.shift, False, finishing=False)
        step.finish = self._table(step.lo, step.hi, step.shift, False, finishing=True)

    def _force_last(self, step: _Step) -> None:
        """The last sub-step of a layer takes every remaining copy: no branching."""
        step.table = self._table(step.lo, step.hi, step.shift, forced=True)

    # ------------------------------------------------------------ sweep
    def sweep(self) -> list[State]:
        """Weights at every key boundary (index 0 = before the first key)."""
        cur: State = {0: 1}
        out = [cur]
        for layer in self.layers:
            if layer.copies:
                cur = {code + layer.copies: w for code, w in cur.items()}
            done: State = {}
            for step in layer.steps:
                cur = self._apply(step, cur, done)
            if done:
                get = done.get
                for code, w in cur.items():
                    done[code] = get(code, 0) + w
                cur = done
            if self.prep.groups:
                cur = self._canonical(cur)
            out.append(cur)
        return out

    def _apply(self, step: _Step, cur: State, done: State) -> State:
        new: State = {}
        get = new.get
        rem_bits, rem_mask = self.rem_bits, self.rem_mask
        sh, mask, table = step.shift, step.mask, step.table
        if step.partner is not None:
            sh_b, mask_b, nb1 = step.partner
            for code, w in cur.items():
                idx = ((((code >> sh) & mask) * nb1 + ((code >> sh_b) & mask_b)) << rem_bits) | (code & rem_mask)
                for delta, mult in table[idx]:
                    nc = code + delta
                    new[nc] = get(nc, 0) + w * mult
            return new
        if step.finish is not None:
            finish, get_done = step.finish, done.get
            for code, w in cur.items():
                idx = (((code >> sh) & mask) << rem_bits) | (code & rem_mask)
                for delta, mult in table[idx]:
                    nc = code + delta
                    new[nc] = get(nc, 0) + w * mult
                for delta, mult in finish[idx]:
                    nc = code + delta
                    done[nc] = get_done(nc, 0) + w * mult
            return new
        if not step.touches and not step.closes:
            for code, w in cur.items():
                for delta, mult in table[(((code >> sh) & mask) << rem_bits) | (code & rem_mask)]:
                    nc = code + delta
                    new[nc] = get(nc, 0) + w * mult
            return new
        for code, w in cur.items():
            f = (code >> sh) & mask
            for delta, mult in table[(f << rem_bits) | (code & rem_mask)]:
                nc = code + delta
                f2 = (nc >> sh) & mask
                for tr, pref in step.touches:
                    v = ((nc >> tr.shift) & tr.mask) + pref[f2] - pref[f]
                    if v > tr.cap:
                        if tr.bounded:
                            break
                        v = tr.cap
                    nc = (nc & ~(tr.mask << tr.shift)) | (v << tr.shift)
                else:
                    for tr in step.closes:
                        if (nc >> tr.shift) & tr.mask < tr.lo:
                            break
                        nc &= ~(tr.mask << tr.shift)
                    else:
                        new[nc] = get(nc, 0) + w * mult
        return new

    def _canonical(self, cur: State) -> State:
        """Sort each group of interchangeable stands (descending when mirrored).

        A group's fields are adjacent bits of the code, so the sorted form of
        each distinct group field value is computed once and looked up after.
        """
        for g in self.prep.groups:
            width = self.size[g[0]].bit_length()
            base, span = self.shift[g[0]], (1 << (width * len(g))) - 1
            memo = self.sorted_fields.setdefault(base, {})
            new: State = {}
            get = new.get
            keep = ~(span << base)
            for code, w in cur.items():
                sub = (code >> base) & span
                canon = memo.get(sub)
                if canon is None:
                    vals = sorted(((sub >> (i * width)) & ((1 << width) - 1) for i in range(len(g))),
                                  reverse=self.mirrored)
                    canon = memo[sub] = sum(v << (i * width) for i, v in enumerate(vals))
                c = (code & keep) | (canon << base)
                new[c] = get(c, 0) + w
            cur = new
        return cur


def _estimated_states(plan: _Plan) -> int:
    """A cheap upper estimate of the states a sweep visits: product of fill ranges per key."""
    total = 0
    for layer in plan.layers:
        total += prod(len(st.starts) for st in layer.steps) if layer.steps else 1
    return total


def _sweep_both(forward: _Plan, mirrored: _Plan) -> tuple[list[State], list[State]]:
    if not (PARALLEL_SWEEPS and hasattr(os, "fork") and _estimated_states(forward) >= PARALLEL_MIN_STATES):
        return forward.sweep(), mirrored.sweep()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: the mirrored sweep, pickled into the pipe
        try:
            with os.fdopen(write_end, "wb") as out:
                out.write(pickle.dumps(mirrored.sweep(), protocol=pickle.HIGHEST_PROTOCOL))
        finally:
            os._exit(0)
    os.close(write_end)
    fwd = forward.sweep()
    with os.fdopen(read_end, "rb") as inp:
        data = inp.read()
    os.waitpid(pid, 0)
    try:
        return fwd, pickle.loads(data)
    except Exception:  # the child died (e.g. out of memory): do its share here
        return fwd, mirrored.sweep()


def analyze(problem: Problem) -> Beliefs:
    """Exact worlds and slot marginals; raises :class:`Inconsistent` when no deal fits."""
    try:
        prep = _Prepared(problem)
        forward, mirrored = _Plan(prep, False), _Plan(prep, True)
        fwd, bwd = _sweep_both(forward, mirrored)
    except _Zero:
        raise Inconsistent from None
    L = prep.n_layers
    total = sum(fwd[L].values())
    if not total:
        raise Inconsistent
    # Trackers whose count spans a key boundary: join forward and backward partial counts there.
    span: list[tuple[_Tracker, int, int]] = []
    for tr, _ in forward.trackers:
        touched = [t for t, layer in enumerate(forward.layers) if any(any(tr is x for x, _ in st.touches) for st in layer.steps)]
        if touched:
            span.append((tr, touched[0], touched[-1]))
    hist_of = {s: s for s in prep.free}
    share = {s: 1 for s in prep.free}
    for g in prep.groups:
        for s in g:
            hist_of[s], share[s] = g[0], len(g)
    owners = sorted(set(hist_of.values()))
    shifts = {o: [forward.shift[s] for s in prep.free if hist_of[s] == o] for o in owners}
    masks = {o: (1 << forward.size[o].bit_length()) - 1 for o in owners}
    full, fills_mask = forward.full, forward.fills_mask
    group_fields = [([forward.shift[s] for s in g], masks[g[0]]) for g in prep.groups]
    group_bits = sum(mask << sh for shifts, mask in group_fields for sh in shifts)
    orbit_sizes: dict[int, int] = {}  # group fields -> orbit size; few distinct values
    cumulative: dict[int, list[list[int]]] = {o: [] for o in owners}  # [boundary][j] = weight of fill > j
    for i in range(L + 1):
        hist = {o: [0] * (forward.size[o] + 1) for o in owners}
        live = [tr for tr, first, last in span if first < i <= last]
        back = bwd[L - i]
        if live:
            by_fills: dict[int, list[tuple[int, int]]] = {}
            for code, w in back.items():
                by_fills.setdefault(code & fills_mask, []).append((code, w))
        for code, w in fwd[i].items():
            if live:
                b = 0
                for other, wb in by_fills.get(full - (code & fills_mask), ()):
                    for tr in live:
                        n = ((code >> tr.shift) & tr.mask) + ((other >> tr.shift) & tr.mask)
                        if n < tr.lo or (tr.bounded and n > tr.hi):
                            break
                    else:
                        b += wb
            else:
                b = back.get(full - code, 0)
            if b:
                # Both sweeps store orbit totals of interchangeable stands; the
                # completion weight of one state is the backward total / orbit size.
                if group_fields:
                    orbit = orbit_sizes.get(code & group_bits)
                    if orbit is None:
                        orbit = orbit_sizes[code & group_bits] = _orbit_size(code, group_fields)
                    joint = w * b // orbit
                else:
                    joint = w * b
                for o in owners:
                    h, m = hist[o], masks[o]
                    for sh in shifts[o]:
                        h[(code >> sh) & m] += joint
        for o in owners:
            h = hist[o]
            cum = [0] * forward.size[o]
            acc = 0
            for j in range(forward.size[o] - 1, -1, -1):
                acc += h[j + 1]
                cum[j] = acc
            cumulative[o].append(cum)
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
                w = cum[t + 1][j] - cum[t][j]
                if w:
                    row[keys[t]] = w
            weights[(s, j)] = row
    return Beliefs(problem, total * prep.multiplier, weights, denominators)


def _orbit_size(code: int, group_fields: list[tuple[list[int], int]]) -> int:
    """How many fill vectors permuting interchangeable stands give this one."""
    size = 1
    for shifts, mask in group_fields:
        seen: dict[int, int] = {}
        for sh in shifts:
            v = (code >> sh) & mask
            seen[v] = seen.get(v, 0) + 1
        size *= factorial(len(shifts))
        for m in seen.values():
            size //= factorial(m)
    return size
