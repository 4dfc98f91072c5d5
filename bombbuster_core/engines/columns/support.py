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
fills of those slots' stands before it, forward and backward.  "Holds one of
several keys" is a union of events, and the support of a union is the union
of the supports: the caller gives one variant per key.

A slot's support (:func:`_backward`): one sweep forward, keeping every key's
passes, then backward from the deals through them all, as the forward-backward
algorithm does; a move belongs to a deal of the variants its bits both ways
share, and its copy lands on the slot its stand's fill points to.  Earlier
versions joined a forward and a mirrored sweep at every key (one sweep more,
and a join of partial counts), the first one with each state tagged by its
whole code before the key (every (before, after) pair a state): 0.29x and
0.51x of their CPU (bench_entropy, 5p public start).  Past ``KEEP_STATES``
kept states the passes are run again from the boundaries instead (memory).

Plans with interchangeable groups, run rules or value checks are not run
(None): the caller counts instead.  The work is counted as the counting
sweeps count theirs (:class:`~.sweep.Work`) against one budget.
"""
from __future__ import annotations

from collections.abc import Sequence

from ...facts import Pos, Problem
from ...wires import Key
from ...beliefs import EngineLimit
from .estimate import estimated_states
from .plan import Plan
from .prepare import Prepared, State, Variant, Zero
from .sweep import Layer, Work, _drop_unfilled, about

Holds = tuple[frozenset[Pos], Key]  # these slots hold at least one copy of this key
Supports = dict[Pos, frozenset[Key]]  # per slot, the keys it holds in some deal
Filters = dict[int, list[tuple[frozenset[Pos], int]]]  # key layer -> (slots, bits of the variants holding it there)

# The run's work per state of its plan's estimate (estimate.estimated_states): the forward
# sweep visits about 2x the estimate and the backward walk each of its passes once more
# (5p public start: estimate 190,481, work 705,085; the M64 5-player preset's 15.9 million
# is refused at once instead of after ~80 s and 3.7 GB).
WORK_PER_ESTIMATE = 3
# The forward passes kept for the backward one, in states: about 200 bytes each with a few
# hundred variants, so ~200 MB at most (the 5p public start's entropy run keeps ~300,000).
KEEP_STATES = 1_000_000


def supports(problem: Problem, variants: Sequence[tuple[Variant, Holds | None]], budget: float
             ) -> list[Supports | None] | None:
    """Per variant (exclusions, and a key some slots must hold), the slot supports of
    the problem restricted so (None: no deal fits it); None when the plan is one this
    boolean run does not model.  Raises EngineLimit past ``budget`` states, at once when
    its plan's estimate says so."""
    try:
        prep = Prepared(problem, [v for v, _ in variants])
    except Zero:
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
    forward = Plan(prep, False)
    if prep.groups or forward.checks or any(layer.weighted or layer.runs or layer.resolves or layer.checks
                                            for layer in forward.layers):
        return None
    estimate = estimated_states(forward, budget) * WORK_PER_ESTIMATE
    if estimate > budget:  # refused at once, as a counting analysis is (the package's check_budget)
        raise EngineLimit(f"too large: about {about(estimate)} states (budget {about(budget)})", "states_budget",
                          states=estimate, budget=budget)
    work = Work(budget, budget)
    fwd, passes = _forward(forward, filters, work)
    L = prep.n_layers
    alive = fwd[L].get(forward.full, 0)  # every slot filled, every count closed: a deal
    for c in dead:
        alive &= ~(1 << c)
    got = _backward(forward, fwd, passes, filters, work)
    held: dict[int, dict[Pos, list[Key]]] = {c: {} for c in range(1, n) if alive >> c & 1}
    for slot, entries in got.items():
        for t, bits in entries:
            key, ones = prep.keys[t], bin(bits)[:1:-1]  # ones[c] == "1": variant c
            c = ones.find("1", 1)
            while c >= 0:
                if c in held:
                    held[c].setdefault(slot, []).append(key)
                c = ones.find("1", c + 1)
    known = {(s, j): frozenset((prep.keys[next(iter(d))],)) for s in prep.fixed for j, d in enumerate(prep.domains[s])}
    free = [(s, j) for s in prep.free for j in range(forward.size[s])]
    out: list[Supports | None] = []
    for c in range(1, n):
        if c not in held:
            out.append(None)
            continue
        sup: Supports = dict(known)
        mine = held[c]
        for slot in free:
            sup[slot] = frozenset(mine.get(slot, ()))
        out.append(sup)
    return out


def _tag(plan: Plan, filters: Filters, t: int) -> int:
    """The fields of the stands whose fills before key t a "holds" filter there reads (0: none)."""
    at = filters.get(t)
    stands = {s for slots, _ in at for s, _ in slots} if at else ()
    return sum(((1 << plan.size[s].bit_length()) - 1) << plan.shift[s] for s in stands)


def _passes(plan: Plan, t: int, cur: State, tag: int, work: Work) -> list[State]:
    """The states before key t's copies (tagged, see :func:`_tagged`) and after each of them."""
    layer = plan.layers[t]
    top = plan.fills_mask.bit_length()
    out = [_tagged(cur, tag, top) if tag else cur]
    for placed in range(layer.copies):
        out.append(_place(layer, out[-1], layer.copies - placed))
        work.add(len(out[-1]) * (1 + len(layer.counting or ())))
    return out


def _placed(layer: Layer, last: State, work: Work) -> State:
    """The states after a key's last copy that its must-fill slots allow (a key with no copy)."""
    work.add(len(last) * (1 + len(layer.orders) + len(layer.closes)))
    if not layer.copies and (layer.needs or layer.counting):
        return _drop_unfilled(layer, last)
    return last


def _forward(plan: Plan, filters: Filters, work: Work) -> tuple[list[State], list[list[State]] | None]:
    """Reachability bits at every key boundary (as :meth:`~.plan.Plan.sweep`), the "holds"
    filters checked at their keys, and every key's passes (None past ``KEEP_STATES`` of them:
    :func:`_backward` then runs them again from the boundaries)."""
    top = plan.fills_mask.bit_length()
    low = (1 << top) - 1
    cur: State = {0: plan.prep.one}
    out = [cur]
    kept: list[list[State]] | None = []
    held = 0
    for t, layer in enumerate(plan.layers):
        tag = _tag(plan, filters, t)
        passes = _passes(plan, t, cur, tag, work)
        stepped = _placed(layer, passes[-1], work)
        if layer.orders or layer.closes:
            closed: State = {}
            for code, w in stepped.items():
                post = _closed(layer, code)
                if post is not None:
                    closed[post] = closed.get(post, 0) | w
            stepped = closed
        if tag:
            cur = {}
            for code, w in _holding(plan, filters[t], top, stepped).items():
                cur[code & low] = cur.get(code & low, 0) | w
        else:
            cur = stepped
        out.append(cur)
        if kept is not None:
            held += sum(map(len, passes))
            if held <= KEEP_STATES:
                kept.append(passes)
            else:
                kept = None
    return out, kept


def _backward(plan: Plan, fwd: list[State], passes: list[list[State]] | None, filters: Filters, work: Work
              ) -> dict[Pos, list[tuple[int, int]]]:
    """By slot: (key layer, the bits of the variants in which that slot holds that key).

    Backward from the deals (every slot filled, every count closed) through every key's
    passes: a state's backward bits are the variants in which it completes to a deal,
    the OR over its moves of what each keeps and gives where it lands (:func:`_place_back`;
    after a key's last copy: its boundary checks and its "holds" filter, then the state's
    bits at the next boundary).  A move from x to z then belongs to a deal of the variants
    ``fwd(x) & keep & back(z)`` (bits AND along a path, OR over paths), and its copy lands
    on the slot its stand's fill in x points to.  Counts need no join: the forward codes
    carry their partial counts to the end."""
    top = plan.fills_mask.bit_length()
    low = (1 << top) - 1
    stand_of = {1 << plan.shift[s]: (s, plan.shift[s], (1 << plan.size[s].bit_length()) - 1) for s in plan.prep.free}
    got: dict[Pos, list[tuple[int, int]]] = {}
    after: State = {plan.full: plan.prep.all_bits}
    for t in range(plan.prep.n_layers - 1, -1, -1):
        layer = plan.layers[t]
        tag = _tag(plan, filters, t)
        mine = passes[t] if passes is not None else _passes(plan, t, fwd[t], tag, work)
        back: State = {}
        last = _placed(layer, mine[-1], work)
        keeps = _holding(plan, filters[t], top, {code: -1 for code in last}) if tag else None
        checked = bool(layer.orders or layer.closes)
        for code in last:
            post = _closed(layer, code) if checked else code
            if post is None:
                continue
            b = after.get(post & low, 0)
            if keeps is not None:
                b &= keeps.get(code, 0)
            if b:
                back[code] = b
        tally: dict[tuple[int, int], int] = {}  # (stand, slot) -> variants
        for placed in range(layer.copies - 1, -1, -1):
            back = _place_back(layer, mine[placed], back, layer.copies - placed, stand_of, tally)
            work.add(len(mine[placed]) * (1 + len(layer.counting or ())))
        for slot, b in tally.items():
            got.setdefault(slot, []).append((t, b))
        if tag:  # the states before the key, untagged
            untagged: State = {}
            for code in fwd[t]:
                b = back.get(code | ((code & tag) << top))
                if b:
                    untagged[code] = b
            back = untagged
        after = back
    return got


def _closed(layer: Layer, code: int) -> int | None:
    """One state through the boundary checks after its key's last copy:
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


def _holding(plan: Plan, at: list[tuple[frozenset[Pos], int]], top: int, cur: State) -> State:
    """States tagged with their fills before a key: clear the bits of the variants whose held
    slots got no copy of it (a slot j got it when the fill went from <= j to > j)."""
    low = (1 << top) - 1
    stands = {s for slots, _ in at for s, _ in slots}
    fields = sum(((1 << plan.size[s].bit_length()) - 1) << plan.shift[s] for s in stands)
    checks = [([(plan.shift[s], (1 << plan.size[s].bit_length()) - 1, plan.local((s, j))[1]) for s, j in slots],
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


def _place(layer: Layer, cur: State, left: int) -> State:
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


def _place_back(layer: Layer, cur: State, after: State, left: int, stand_of: dict[int, tuple[int, int, int]],
                tally: dict[tuple[int, int], int]) -> State:
    """:func:`_place` read backward: per state of ``cur`` (a pass's input, its bits the forward
    ones), the OR over its moves of the bits the move keeps and ``after`` gives where it lands
    ; each move's forward bits & those into ``tally`` at the slot the
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
        if acc:
            out[code] = acc
    return out
