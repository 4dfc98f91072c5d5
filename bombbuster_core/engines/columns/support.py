"""The columns engine's supports: which keys each slot may hold, for many variants in one boolean run.

The entropy mode needs of each branch only the *supports* of the slot
marginals (which keys a slot holds in at least one deal), not their weights.
Reachability needs no count: here a weight is a bit per variant, OR-ed where
the counting sweep adds and AND-ed where it multiplies, so hundreds of
variants ride in one integer of a bit each (the counting run packs a count's
width per variant, about 24 a run).  The plans, move tables and exclusion
masks are the counting engine's (a variant's moves keep only its bit).

A variant may also require "these slots hold a copy of key k" (:data:`Holds`,
the caller's "holds v"): with bits there is no inclusion and exclusion, so it
is checked on the move itself, at key k's layer, on states tagged with the
fills of those slots' stands before it: in the forward sweep (boundaries
after k), the mirrored one (boundaries before k) and the support pass at k.
"Holds one of several keys" is a union of events, and the support of a
union is the union of the supports: the caller gives one variant per key.

A slot's support: at every key, its copies' passes again from the forward
states before it, then backward through them from the mirrored sweep after
it (:func:`_slot_bits`); a move belongs to a deal of the variants its bits
both ways share, and its copy lands on the slot its stand's fill points to.
(Tagging each state with its whole code before the key instead, as the first
version did, made every (before, after) pair a state: 2.6x the time, bench_entropy.)

Plans with interchangeable groups, run rules or value checks are not run
(None): the caller counts instead.  The work is counted as the counting
sweeps count theirs (:class:`~.sweep.Work`) against one budget.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from ...facts import Pos, Problem
from ...wires import Key
from .plan import _Plan
from .prepare import State, Variant, _Prepared, _Zero
from .sweep import Work, _drop_unfilled, _Layer

Holds = tuple[frozenset[Pos], Key]  # these slots hold at least one copy of this key
Supports = dict[Pos, frozenset[Key]]  # per slot, the keys it holds in some deal
Filters = dict[int, list[tuple[frozenset[Pos], int]]]  # key layer -> (slots, bits of the variants holding it there)


def supports(problem: Problem, variants: Sequence[tuple[Variant, Holds | None]], budget: float
             ) -> list[Supports | None] | None:
    """Per variant (exclusions, and a key some slots must hold), the slot supports of
    the problem restricted so (None: no deal fits it); None when the plan is one this
    boolean run does not model.  Raises EngineLimit past ``budget`` states."""
    try:
        prep = _Prepared(problem, [v for v, _ in variants])
    except _Zero:
        return [None] * len(variants)
    n = len(variants) + 1  # bit 0: the problem itself
    prep.width, prep.one, prep.all_bits = 1, (1 << n) - 1, (1 << n) - 1
    layer_of = {k: t for t, k in enumerate(prep.keys)}
    filters: Filters = {}
    dead = set(prep.dead)
    for c, (_, holds) in enumerate(variants, 1):
        if holds is not None:
            slots, key = holds
            if any(s in prep.fixed and prep.keys[next(iter(prep.domains[s][j]))] == key for s, j in slots):
                continue  # a known slot holds it
            slots = frozenset((s, j) for s, j in slots if s not in prep.fixed)
            if key not in layer_of or not slots:
                dead.add(c)
                continue
            at = filters.setdefault(layer_of[key], [])
            for i, (other, bits) in enumerate(at):
                if other == slots:
                    at[i] = (slots, bits | 1 << c)
                    break
            else:
                at.append((slots, 1 << c))
    forward, mirrored = _Plan(prep, False), _Plan(prep, True)
    if prep.groups or forward.checks or any(layer.weighted or layer.runs or layer.resolves or layer.checks
                                            for plan in (forward, mirrored) for layer in plan.layers):
        return None
    work = Work(budget, budget)
    fwd, bwd = _sweep(forward, filters, work), _sweep(mirrored, filters, work)
    L = prep.n_layers
    alive = 0
    for w in fwd[L].values():
        alive |= w
    for c in dead:
        alive &= ~(1 << c)
    got = _slot_bits(forward, fwd, bwd, filters, work)
    out: list[Supports | None] = []
    for c in range(1, n):
        if not alive >> c & 1:
            out.append(None)
            continue
        sup: Supports = {}
        for s in prep.fixed:
            for j, d in enumerate(prep.domains[s]):
                sup[(s, j)] = frozenset((prep.keys[next(iter(d))],))
        for s in prep.free:
            for j in range(forward.size[s]):
                sup[(s, j)] = frozenset(prep.keys[t] for t in range(L) if got.get((s, j, t), 0) >> c & 1)
        out.append(sup)
    return out


def _sweep(plan: _Plan, filters: Filters, work: Work) -> list[State]:
    """Reachability bits at every key boundary of ``plan`` (as :meth:`~.plan._Plan.sweep`), the
    "holds" requirements checked at their keys' layers."""
    top = plan.fills_mask.bit_length()
    low = (1 << top) - 1
    cur: State = {0: plan.prep.one}
    out = [cur]
    for t, layer in enumerate(plan.layers):
        at = filters.get(plan.key_layer(t))
        if at:  # tag the held slots' stands with their fills before the key
            stands = {s for slots, _ in at for s, _ in slots}
            tag = sum(((1 << plan.size[s].bit_length()) - 1) << plan.shift[s] for s in stands)
            stepped = _holding(plan, at, top, _step(layer, _tagged(cur, tag, top), work))
            cur = {}
            for code, w in stepped.items():
                cur[code & low] = cur.get(code & low, 0) | w
        else:
            cur = _step(layer, cur, work)
        out.append(cur)
    return out


def _slot_bits(plan: _Plan, fwd: list[State], bwd: list[State], filters: Filters, work: Work
               ) -> dict[tuple[int, int, int], int]:
    """By (stand, slot, key layer): the bits of the variants in which that slot holds that key.

    Per key, forward and backward through its copies: the key's passes are re-run from the
    forward states before it (tagged with the held stands' fills where a "holds" filter
    sits at this key, as :func:`_sweep` does), the states after the last pass get the bits
    of their completions (the boundary checks, the filter, then the mirrored sweep), and
    every earlier pass's states the OR of their moves' (:func:`_place_back`).  A move from
    x to z at some pass then belongs to a deal of the variants ``fwd(x) & keep & back(z)``
    (bits AND along a path, OR over paths), and the copy lands on the slot its stand's
    fill in x points to."""
    top = plan.fills_mask.bit_length()
    low = (1 << top) - 1
    stand_of = {1 << plan.shift[s]: (s, plan.shift[s], (1 << plan.size[s].bit_length()) - 1) for s in plan.prep.free}
    got: dict[tuple[int, int, int], int] = {}
    for t, layer in enumerate(plan.layers):
        if not layer.copies:
            continue  # nothing lands at this key
        at = filters.get(t)
        tag = 0
        if at:
            stands = {s for slots, _ in at for s, _ in slots}
            tag = sum(((1 << plan.size[s].bit_length()) - 1) << plan.shift[s] for s in stands)
        passes = [_tagged(fwd[t], tag, top) if tag else fwd[t]]
        for placed in range(layer.copies):
            passes.append(_place(layer, passes[-1], layer.copies - placed))
            work.add(len(passes[-1]) * (1 + len(layer.counting or ())))
        last = passes[-1]
        work.add(len(last) * (2 + len(layer.orders) + len(layer.closes)))
        closed = {}
        for code in last:
            post = _closed(layer, code)
            if post is not None:
                closed[code] = post
        if at:
            kept = _holding(plan, at, top, {code: -1 for code in closed})
            closed = {code: post for code, post in closed.items() if code in kept}
        joint = _completion(plan, bwd, t + 1)
        back: State = {}
        for code, post in closed.items():
            b = joint(post & low)
            if at:
                b &= kept[code]
            if b:
                back[code] = b
        tally: dict[tuple[int, int], int] = {}  # (stand, slot) -> variants
        for placed in range(layer.copies - 1, -1, -1):
            back = _place_back(layer, passes[placed], back, layer.copies - placed, stand_of, tally, placed > 0)
            work.add(len(passes[placed]) * (1 + len(layer.counting or ())))
        for (s, j), b in tally.items():
            got[(s, j, t)] = b
    return got


def _closed(layer: _Layer, code: int) -> int | None:
    """One state through the boundary checks after its key's last copy (as :func:`_step`):
    None when an order fact drops it or a count closed here falls short."""
    for xs, xm, xj, ys, ym, yj in layer.orders:
        if (code >> xs) & xm > xj and (code >> ys) & ym <= yj:
            return None
    for tr in layer.closes:
        if (code >> tr.shift) & tr.mask < tr.lo:
            return None
        code &= ~(tr.mask << tr.shift)
    return code


def _tagged(cur: State, tag: int, top: int) -> State:
    """The states with the fields under ``tag`` copied above the plan's bits (step carries them)."""
    out: State = {}
    for code, w in cur.items():
        tagged = code | ((code & tag) << top)
        out[tagged] = out.get(tagged, 0) | w
    return out


def _holding(plan: _Plan, at: list[tuple[frozenset[Pos], int]], top: int, cur: State) -> State:
    """States tagged with their fills before a key: clear the bits of the variants whose held
    slots got no copy of it (a slot j got it when the fill went from <= j to > j)."""
    low = (1 << top) - 1
    stands = {s for slots, _ in at for s, _ in slots}
    fields = sum(((1 << plan.size[s].bit_length()) - 1) << plan.shift[s] for s in stands)
    checks = [([(plan.shift[s], (1 << plan.size[s].bit_length()) - 1, plan._local((s, j))[1]) for s, j in slots],
               bits) for slots, bits in at]
    keeps: dict[tuple[int, int], int] = {}  # the held stands' fills before and after -> bits kept
    out: State = {}
    for code, w in cur.items():
        moved = ((code >> top) & fields, code & fields)
        keep = keeps.get(moved)
        if keep is None:
            pre, post = moved
            keep = ~0
            for slots, bits in checks:
                if not any((pre >> sh) & m <= j < (post >> sh) & m for sh, m, j in slots):
                    keep &= ~bits
            keeps[moved] = keep
        w &= keep
        if w:
            out[code] = out.get(code, 0) | w
    return out


def _completion(plan: _Plan, bwd: list[State], i: int) -> Callable[[int], int]:
    """``bits(code)``: the variants in which forward state ``code`` at key boundary i has a
    completion in the mirrored sweep (partial counts of facts spanning i summed and checked,
    as :meth:`.join.Join.joiner`)."""
    prep = plan.prep
    back = bwd[prep.n_layers - i]
    full, fills_mask = plan.full, plan.fills_mask
    live = []
    for ti, (tr, _) in enumerate(plan.trackers):
        touched = [t for t, layer in enumerate(plan.layers) if ti in layer.trackers]
        if touched and touched[0] < i <= touched[-1]:
            live.append(tr)
    if not live:
        return lambda code: back.get(full - code, 0)
    by_fills: dict[int, list[tuple[int, int]]] = {}
    for code, w in back.items():
        by_fills.setdefault(code & fills_mask, []).append((code, w))

    def bits(code: int) -> int:
        b = 0
        for other, wb in by_fills.get(full - (code & fills_mask), ()):
            for tr in live:
                n = ((code >> tr.shift) & tr.mask) + ((other >> tr.shift) & tr.mask)
                if n < tr.lo or (tr.bounded and n > tr.hi):
                    break
            else:
                b |= wb
        return b

    return bits


def _step(layer: _Layer, cur: State, work: Work) -> State:
    """:func:`.sweep.step` on reachability bits (no groups, run rules or value checks: see
    :func:`supports`); bits above the plan's fields ride along."""
    for placed in range(layer.copies):
        cur = _place(layer, cur, layer.copies - placed)
        work.add(len(cur) * (1 + len(layer.counting or ())))
    work.add(len(cur) * (1 + len(layer.orders) + len(layer.closes)))
    if not layer.copies and (layer.needs or layer.counting):
        cur = _drop_unfilled(layer, cur)
    if layer.orders or layer.closes:
        closed: State = {}
        for code, w in cur.items():
            post = _closed(layer, code)
            if post is not None:
                closed[post] = closed.get(post, 0) | w
        cur = closed
    return cur


def _place(layer: _Layer, cur: State, left: int) -> State:
    """One copy, as :func:`.sweep._place_counting` places it (counted stands stand by stand),
    with OR for its sums."""
    new: State = {}
    get = new.get
    stands, movers, masked, needs = layer.counting or (), layer.movers, layer.masked, layer.needs
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
                new[nc] = get(nc, 0) | w
        for mover in masked:
            for d, keep in mover[pick][(code >> mover[0]) & mover[1]]:
                if w & keep:
                    nc = code + d
                    new[nc] = get(nc, 0) | (w & keep)
        for st in stands:
            f = (code >> st.shift) & st.mask
            d = st.put[f]
            if not d or (spare == 0 and f >= st.need):
                continue
            nc = code + d
            for tr in st.counts[f]:
                if (nc >> tr.shift) & tr.mask < tr.cap:
                    nc += 1 << tr.shift
                elif tr.bounded:
                    break
            else:
                x = w if st.keeps is None or st.keeps[f] is None else w & st.keeps[f]
                if x:
                    new[nc] = get(nc, 0) | x
    return new


def _place_back(layer: _Layer, cur: State, after: State, left: int, stand_of: dict[int, tuple[int, int, int]],
                tally: dict[tuple[int, int], int], carry: bool) -> State:
    """:func:`_place` read backward: per state of ``cur`` (a pass's input, its bits the forward
    ones), the OR over its moves of the bits the move keeps and ``after`` gives where it lands
    (returned when ``carry``); each move's forward bits & those into ``tally`` at the slot the
    copy lands on (``stand_of``: a move's fill step -> its stand, shift and mask).  The moves
    are :func:`_place`'s, spelled out again: a call per move would cost more than its work."""
    out: State = {}
    get = after.get
    stands, movers, masked, needs = layer.counting or (), layer.movers, layer.masked, layer.needs
    for code, w in cur.items():
        spare = left
        for sh, mask, short in needs:
            spare -= short[(code >> sh) & mask]
        for st in stands:
            spare -= max(st.need - ((code >> st.shift) & st.mask), 0)
        if spare < 0:
            continue
        pick = 2 if spare else 3
        acc = 0
        for mover in movers:
            for d in mover[pick][(code >> mover[0]) & mover[1]]:
                b = get(code + d)
                if b:
                    acc |= b
                    if w & b:
                        s, sh, m = stand_of[d]
                        slot = (s, (code >> sh) & m)
                        tally[slot] = tally.get(slot, 0) | (w & b)
        for mover in masked:
            for d, keep in mover[pick][(code >> mover[0]) & mover[1]]:
                b = get(code + d, 0) & keep
                if b:
                    acc |= b
                    if w & b:
                        s, sh, m = stand_of[d]
                        slot = (s, (code >> sh) & m)
                        tally[slot] = tally.get(slot, 0) | (w & b)
        for st in stands:
            f = (code >> st.shift) & st.mask
            d = st.put[f]
            if not d or (spare == 0 and f >= st.need):
                continue
            nc = code + d
            for tr in st.counts[f]:
                if (nc >> tr.shift) & tr.mask < tr.cap:
                    nc += 1 << tr.shift
                elif tr.bounded:
                    break
            else:
                b = get(nc, 0)
                if b and st.keeps is not None and st.keeps[f] is not None:
                    b &= st.keeps[f]
                if b:
                    acc |= b
                    if w & b:
                        slot = (stand_of[d][0], f)
                        tally[slot] = tally.get(slot, 0) | (w & b)
        if carry and acc:
            out[code] = acc
    return out
