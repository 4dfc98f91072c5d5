"""The columns engine's sweep step: one key's copies placed on every state, and the work it counts.

A plan (plan.py) is a list of :class:`Layer`, one per key in sweep order;
:func:`step` maps the states before a layer's key to those after it, a copy
per pass (each move weight 1, see the package docstring), then applies the
boundary checks of that key: must-fill slots, order facts, value checks and
count facts closed there.  :class:`Work` counts the states every pass
visits, weighted by what the pass costs (:func:`_cost`), and stops a sweep
past its limit: the bound behind the engine's budget.

The layer records here are the contract between the plan, which builds
them, and the step, which runs them (the sampler reads them too).
"""
from __future__ import annotations

from math import factorial

from ...beliefs import EngineLimit
from .prepare import State


def about(n: float) -> str:
    return f"{n:,.0f}" if n < 1e6 else f"{n / 1e6:,.0f} million" if n < 1e12 else f"{n:.1e}"


class Work:
    """States a sweep has visited, held to ``limit``: the guarantee behind the budget, which
    the estimate (:func:`.estimate.estimated_states`) only approximates before the sweep (a few
    fact kinds multiply the states in ways it does not see).  Checked once per pass over
    the states, so a sweep stops at most one pass (a few times its states) past it."""

    __slots__ = ("visited", "limit", "budget")

    def __init__(self, limit: float, budget: float):
        self.visited, self.limit, self.budget = 0, limit, budget  # budget: the whole run's, for the message

    def add(self, states: int) -> None:
        self.visited += states
        if self.visited > self.limit:
            raise EngineLimit(f"too large: more than {about(self.limit)} states in one sweep (budget "
                              f"{about(self.budget)}); a larger budget may take minutes and GBs", "sweep_budget",
                              states=self.limit, budget=self.budget)


def _cost(layer: Layer) -> int:
    """What placing a copy costs per state, in plain placements (see :func:`step`)."""
    return 1 + len(layer.counting or ())


class Tracker:
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
                 counts: list[tuple[Tracker, ...]], moving: bool, keeps: tuple[int | None, ...] | None,
                 flag: int = 0, top: int = 0, runs: list | None = None):
        self.shift, self.mask, self.fills, self.put, self.need = shift, mask, fills, put, need
        self.counts, self.moving, self.keeps = counts, moving, keeps
        # ``flag``: the shift of the stand's run flag when run rules apply at this key (else 0);
        # ``top``: the bit above the stand's field (and flag); ``runs``: see Plan._block_table.
        self.flag, self.top, self.runs = flag, top, runs


class Layer:
    """Placing the copies of one key, one copy per pass.

    ``weighted`` are groups of interchangeable stands: their tables hold
    (code delta, multiplicity) pairs (see Plan._group_tables).
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
                 needs: list[_Needs], counting: list[_StandLayer] | None, trackers: set[int], closes: list[Tracker],
                 estimate: int):
        self.copies, self.movers, self.weighted, self.masked = copies, movers, weighted, masked
        self.needs, self.counting = needs, counting
        self.trackers, self.closes, self.estimate = trackers, closes, estimate
        self.orders: list[_OrderCheck] = []  # order facts checked at the boundary after this key
        self.resolves: list[_Resolve] = []  # SameValueCount checks settled early (see _resolve)
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

    def __init__(self, fields: tuple[Tracker, ...], accept: frozenset[tuple[int, ...]]):
        self.fields, self.accept = fields, accept
        # The fields are adjacent bits: the accepted tuples packed as those bits read.
        self.shift = fields[0].shift
        self.mask = sum(tr.mask << (tr.shift - self.shift) for tr in fields)
        self.packed = frozenset(sum(v << (tr.shift - self.shift) for v, tr in zip(values, fields)) for values in accept)


def step(layer: Layer, cur: State, work: Work | None = None) -> State:
    """The states after ``layer``'s key from those before it; ``work`` (None: no
    limit) counts the states of every pass, each weighted by what it costs: a
    copy placed stand by stand on n counted stands costs about 1 + n plain
    placements (measured: 1-10 us a state), every boundary check one more pass.

    Bits above the plan's fields ride along untouched (every map below
    adds deltas, masks fields or clears them): :meth:`.join.Join.run_joint`
    tags states with them.
    """
    cost = _cost(layer)
    blocks = _blocks(layer, cur) if layer.runs else None
    if blocks is not None:
        cur = blocks[0]
        if work is not None:
            work.add(sum(map(len, blocks)) * cost)
    for placed in range(layer.copies):
        left = layer.copies - placed
        if layer.counting is not None:
            cur = _place_counting(layer, cur, left)
        elif layer.masked or layer.weighted or layer.needs:
            cur = _place_general(layer, cur, left)
        else:
            cur = _place(layer.movers, cur)
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
        cur = _drop_unfilled(layer, cur)
    if layer.orders:
        cur = _check_orders(layer.orders, cur)
    if layer.resolves:
        cur = _resolve(layer.resolves, cur)
    if layer.checks:
        cur = _close_checks(layer.checks, cur)
    for tr in layer.closes:
        cur = _close(tr, cur)
    return cur


def _blocks(layer: Layer, cur: State) -> list[State]:
    """Runs placed whole at a key's start (see Plan._block_table): the states by copies
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


def _place(movers: list[_Movers], cur: State) -> State:
    """One copy, anywhere it may land.  (:func:`_place_general` spells the same
    inner loop out again: a call per state would cost more than its work.)"""
    new: State = {}
    get = new.get
    items = cur.items()
    # Chunk by chunk, each over every state: a mover's fields are unpacked once, not once per
    # state (7 % of the sweep in CPython and in Pyodide on a 5-player public start).
    for sh, mask, moves, _ in movers:
        for code, w in items:
            for d in moves[(code >> sh) & mask]:
                nc = code + d
                new[nc] = get(nc, 0) + w
    return new


def _place_general(layer: Layer, cur: State, left: int) -> State:
    """One copy, where slots must be filled by this key (``left`` copies remain for
    them; when they are just enough the copy must go to one), or with groups of
    interchangeable stands (moves with multiplicities), or exclusions (masked
    moves keep only some components' bits)."""
    new: State = {}
    get = new.get
    movers, weighted, masked, needs = layer.movers, layer.weighted, layer.masked, layer.needs
    # Each state with the moves it may take: every move (2), or only those filling a must-fill
    # slot (3) when the copies left are just enough for them; then mover by mover, as _place.
    if needs:
        todo = []
        for code, w in cur.items():
            spare = left
            for sh, mask, short in needs:
                spare -= short[(code >> sh) & mask]
            if spare >= 0:
                todo.append((code, w, 2 if spare else 3))
    else:
        todo = [(code, w, 2) for code, w in cur.items()]
    for mover in movers:
        sh, mask = mover[0], mover[1]
        for code, w, pick in todo:
            for d in mover[pick][(code >> sh) & mask]:
                nc = code + d
                new[nc] = get(nc, 0) + w
    for mover in weighted:
        sh, mask = mover[0], mover[1]
        for code, w, pick in todo:
            for d, times in mover[pick][(code >> sh) & mask]:
                nc = code + d
                new[nc] = get(nc, 0) + w * times
    for mover in masked:
        sh, mask = mover[0], mover[1]
        for code, w, pick in todo:
            for d, keep in mover[pick][(code >> sh) & mask]:
                nc = code + d
                new[nc] = get(nc, 0) + (w & keep)
    return new


def _place_counting(layer: Layer, cur: State, left: int) -> State:
    """One copy: on the counted stands stand by stand, counting the slots of count
    facts as it lands (and keeping only the weight bits an exclusion leaves a
    move); on the other chunks as :func:`_place_general` does, its loop spelled out
    again for the same reason as there (a call per state would cost more than its work)."""
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


def _drop_unfilled(layer: Layer, cur: State) -> State:
    """A key with no copy to place: keep the states that need none."""
    if layer.counting is not None:
        return {code: w for code, w in cur.items()
                if all((code >> st.shift) & st.mask >= st.need for st in layer.counting)
                and not any(short[(code >> sh) & mask] for sh, mask, short in layer.needs)}
    return {code: w for code, w in cur.items()
            if not any(short[(code >> sh) & mask] for sh, mask, short in layer.needs)}


def _close(tr: Tracker, cur: State) -> State:
    """Check a count fact after its last key and free its field."""
    new: State = {}
    get = new.get
    clear = ~(tr.mask << tr.shift)
    for code, w in cur.items():
        if (code >> tr.shift) & tr.mask >= tr.lo:
            nc = code & clear
            new[nc] = get(nc, 0) + w
    return new


def _check_orders(orders: list[_OrderCheck], cur: State) -> State:
    """Drop the states some order fact forbids at this boundary (see _OrderCheck)."""
    return {code: w for code, w in cur.items()
            if not any((code >> xs) & xm > xj and (code >> ys) & ym <= yj for xs, xm, xj, ys, ym, yj in orders)}


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

