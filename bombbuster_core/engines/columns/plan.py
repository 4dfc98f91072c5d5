"""The columns engine's plan: one sweep direction's layers and move tables.

:class:`Plan` lays out the state code for one direction (forward: keys
ascending; mirrored: keys descending and every stand's slots reversed):
counter fields of count facts and value checks, then each free stand's fill
(and run flag), singles first and groups of interchangeable stands last.
Per key it builds a :class:`~.sweep.Layer`: the moves of chunks of adjacent
stands looked up together (:meth:`Plan._chunk_tables`, filled only for the
fills a state can have at that key), of groups kept sorted
(:meth:`Plan._group_tables`, :class:`_GroupMoves`), run-rule blocks
(:meth:`Plan._block_table`), exclusions' masks, and the order facts, value
checks and count facts checked at the boundary after it.  Tables are shared
between keys and directions through the :class:`~.prepare.Prepared` they
come from.  :meth:`Plan.sweep` runs the layers (sweep.py).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from math import factorial, prod

from ...facts import Pos
from .prepare import Prepared, State, Zero, _Count
from .sweep import Layer, Tracker, Work, _StandLayer, _ValueCheck, step

_CHUNK_BITS = 8  # two 11-slot stands; wider tables cost more to build than they save


class _GroupMoves:
    """The moves of a group of interchangeable stands from a sorted fill combination (see Plan._group_tables)."""

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


class Plan:
    """The sweep for one direction; ``mirrored`` reverses keys and slots."""

    def __init__(self, prep: Prepared, mirrored: bool):
        self.prep = prep
        self.mirrored = mirrored
        # The work estimate's running totals, made when first asked (.estimate.estimated_states).
        self.running_estimate: tuple[list[int], bool] = ([], False)
        shift = 0
        self.trackers: list[tuple[Tracker, _Count]] = []
        for c in prep.counts:
            bounded = c.hi < len(c.slots)
            cap = c.hi if bounded else c.lo  # without an upper bound, saturate at lo
            width = max(cap.bit_length(), 1)
            self.trackers.append((Tracker(shift, (1 << width) - 1, cap, c.lo, c.hi, bounded), c))
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
                tr = Tracker(shift, (1 << width) - 1, cap, 0, cap, False)
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
            local = self.local((s, j))[1] if kind == "count" else min(self.local((s, j))[1], self.local((s, j + 1))[1])
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
        self.layers: list[Layer] = []
        last_touch: dict[int, Layer] = {}
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
                raise Zero
        for (check, indexes), at in zip(self.checks, check_at):
            if indexes[0] in last_touch:
                last_touch[indexes[0]].checks.append(check)
            elif (0,) * len(indexes) not in check.accept:
                raise Zero
            if at is None or indexes[0] not in last_touch:
                continue
            # Between the check's first and last key, after each key that moves its
            # fields or may fill ``at``: settle it early (see _resolve).
            s, j = self.local(at)
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
            (xs, xj), (ys, yj) = self.local(x), self.local(y)
            dx, dy = doms[xs][xj], doms[ys][yj]
            check = (self.shift[xs], (1 << self.size[xs].bit_length()) - 1, xj,
                     self.shift[ys], (1 << self.size[ys].bit_length()) - 1, yj)
            for t in dx:
                if t < max(dy):
                    self.layers[t].orders.append(check)

    def local(self, pos: Pos) -> Pos:
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
        counts: list[tuple[Tracker, ...]] = [()] * (n + 1)
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
        prep = self.prep
        excluded = prep.excluded_bits().get(self.key_layer(t))
        if not excluded:
            return None
        keeps: list[int | None] = [None] * (n + 1)
        for f in range(n):
            cleared = excluded.get((s, (n - 1 - f) if self.mirrored else f))
            if cleared:
                keeps[f] = prep.all_bits ^ cleared
        return tuple(keeps) if any(k is not None for k in keeps) else None

    def _layer(self, copies: int, stands: dict[int, _StandLayer], trackers: set[int]) -> Layer:
        moving = [st for st in stands.values() if st.moving]
        if copies and not moving:
            raise Zero
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
        layer = Layer(copies, movers, weighted, masked, needs, counting, trackers, [], estimate)
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


    def sweep(self, work: Work | None = None) -> list[State]:
        """Weights at every key boundary (index 0 = before the first key).

        Placing a key's m copies one at a time, each on any stand that may
        take it, reaches a spread (c_s) of the copies in m! / prod(c_s!)
        orders: exactly the shuffle prior's weight, with no binomial to carry.
        The states in between are fill vectors too, so they merge as freely
        as the states at key boundaries.

        ``work`` counts the states visited and raises EngineLimit past its
        limit (None: no limit; an analysis holds each sweep to half its
        budget, see the package's ``sweep_one``).
        """
        cur: State = {0: self.prep.one}
        out = [cur]
        for layer in self.layers:
            cur = step(layer, cur, work)
            out.append(cur)
        return out
