"""Facts: the constraint language every engine solves, and events -> facts.

A :class:`Problem` is what the engines see.  It knows nothing of players'
turns: only stands, a deck and two kinds of facts.

* **Slot domains** — ``domains[pos]`` is the set of sort keys slot ``pos``
  may hold (info tokens, revealed wires, failed calls, the observer's hand,
  solo cuts' "nobody else has it").
* **Counts** — :class:`CountIn`: between ``lo`` and ``hi`` of the slots in
  ``slots`` hold a key in ``keys``.  The slots may span the stands of one
  player (a hand) or a whole stand, cut wires included, so one fact type
  covers "holds at least one uncut v" (the caller of a dual cut), "holds
  none" (absent-value tokens, skips), "exactly c on this stand" (x-count
  tokens, Single Wire Label) and per-stand yes/no answers (General Radar).

Every stand is sorted by sort key.  A set-aside pool is a hidden
pseudo-stand whose slots may only hold that pool's candidates; it makes the
shuffle prior exact (see README, "Probability model").

How the rest of the game maps onto this language (not yet recorded by any
event; see docs/table-format.md): unsorted X-token slots become a one-slot
stand of the same player (a uniform deal into n-1 + 1 slots is the same
shuffle); adjacent equal/different labels and wires moved between stands
need order/equality relations between two slots, and detector choices need a
likelihood weight — each would be a new fact type with its own engine
support, the stand/deck/domain model stays as it is.
"""
from __future__ import annotations

from .record import Record
from .table import DualCut, InfoToken, RevealRed, SlotRef, SoloCut, Table, cut_by
from .wires import RED, Deck, Key

Pos = tuple[int, int]  # (stand id, slot index)


class Stand(Record):
    """A row of sorted slots.  ``player`` is None for a set-aside pool."""

    __slots__ = ("player", "index", "size")
    player: int | None
    index: int
    size: int

    def __init__(self, player: int | None, index: int, size: int):
        super().__init__(player, index, size)


class CountIn(Record):
    """``lo <= #{pos in slots : key(pos) in keys} <= hi``."""

    __slots__ = ("slots", "keys", "lo", "hi")
    slots: frozenset[Pos]
    keys: frozenset[Key]
    lo: int
    hi: int

    def __init__(self, slots: frozenset[Pos], keys: frozenset[Key], lo: int, hi: int):
        super().__init__(slots, keys, lo, hi)


class Order(Record):
    """``key(lo) <= key(hi)``: a wire moved into a stand sits between its sorted neighbours."""

    __slots__ = ("lo", "hi")
    lo: Pos
    hi: Pos

    def __init__(self, lo: Pos, hi: Pos):
        super().__init__(lo, hi)


class SameValueCount(Record):
    """The gameplay value of the wire at ``at`` occurs exactly ``count`` times among ``slots``
    (``at`` is one of them): x1/x2/x3 tokens and the Single Wire Label.  Gameplay
    values are classes of keys (:func:`~bombbuster_core.wires.value_of`): each blue
    key alone, every yellow, every red."""

    __slots__ = ("at", "slots", "count")
    at: Pos
    slots: frozenset[Pos]
    count: int

    def __init__(self, at: Pos, slots: frozenset[Pos], count: int):
        super().__init__(at, slots, count)


class SameValue(Record):
    """The wires at ``a`` and ``b`` have equal (``equal``) or different gameplay values: Labels = and !=."""

    __slots__ = ("a", "b", "equal")
    a: Pos
    b: Pos
    equal: bool

    def __init__(self, a: Pos, b: Pos, equal: bool):
        super().__init__(a, b, equal)


ValueFact = SameValueCount | SameValue


class Problem(Record):
    """Stands, deck and facts: slot domains, counts, order relations and value relations.

    ``orders`` and ``values`` are empty for a base-game table; an engine that
    does not model them refuses the problem (:class:`~bombbuster_core.beliefs.Unsupported`).
    """

    __slots__ = ("copies", "stands", "domains", "counts", "orders", "values")
    copies: dict[Key, int]
    stands: tuple[Stand, ...]
    domains: dict[Pos, frozenset[Key]]
    counts: tuple[CountIn, ...]
    orders: tuple[Order, ...]
    values: tuple[ValueFact, ...]

    def __init__(self, copies: dict[Key, int], stands: tuple[Stand, ...],
                 domains: dict[Pos, frozenset[Key]] | None = None, counts: tuple[CountIn, ...] = (),
                 orders: tuple[Order, ...] = (), values: tuple[ValueFact, ...] = ()):
        super().__init__(copies, stands, {} if domains is None else domains, counts, orders, values)

    @property
    def keys(self) -> list[Key]:
        return sorted(self.copies)

    def domain(self, pos: Pos) -> frozenset[Key]:
        return self.domains.get(pos, frozenset(self.copies))

    def restrict(self, pos: Pos, keys: frozenset[Key]) -> Problem:
        """The same problem with slot ``pos`` further limited to ``keys``."""
        domains = dict(self.domains)
        domains[pos] = self.domain(pos) & keys
        return self.replace(domains=domains)

    def with_count(self, fact: CountIn) -> Problem:
        return self.replace(counts=self.counts + (fact,))


class Compiler:
    """Turns a validated :class:`Table` into a :class:`Problem`: slot domains and count facts, gathered in place."""

    def __init__(self, table: Table):
        self.table = table
        self.deck: Deck = table.deck
        stands = [Stand(p, s, n) for p, pl in enumerate(table.players) for s, n in enumerate(pl.stands)]
        self.stand_id = {(st.player, st.index): i for i, st in enumerate(stands)}
        self.domains: dict[Pos, frozenset[Key]] = {}
        for pool in self.deck.pools:
            set_aside = len(pool.candidates) - pool.count
            if set_aside:
                sid = len(stands)
                stands.append(Stand(None, len(stands), set_aside))
                for j in range(set_aside):
                    self.domains[(sid, j)] = frozenset(pool.candidates)
        self.stands = tuple(stands)
        self.counts: list[CountIn] = []
        self.slots = table.slots()
        self.cut: set[SlotRef] = set()
        self.all_keys = frozenset(self.deck.copies)

    @property
    def problem(self) -> Problem:
        """The facts gathered so far."""
        return Problem(dict(self.deck.copies), self.stands, dict(self.domains), tuple(self.counts))

    def pos(self, ref: SlotRef) -> Pos:
        return (self.stand_id[(ref.player, ref.stand)], ref.slot)

    def only(self, ref: SlotRef, keys: frozenset[Key]) -> None:
        """Limit slot ``ref`` further to ``keys`` (as :meth:`Problem.restrict`)."""
        pos = self.pos(ref)
        self.domains[pos] = self.domains.get(pos, self.all_keys) & keys

    def uncut_of(self, player: int) -> list[SlotRef]:
        return [s for s in self.slots if s.player == player and s not in self.cut]

    def observer(self) -> None:
        for s, keys in enumerate(self.table.my_stands):
            for j, k in enumerate(keys):
                self.only(SlotRef(self.table.me, s, j), frozenset((k,)))  # type: ignore[arg-type]

    def event(self, e: object) -> None:
        of = self.deck.keys_of_value
        if isinstance(e, InfoToken):
            self.only(e.at, of(e.value))
        elif isinstance(e, DualCut) and e.success:
            assert e.actor_slot is not None
            self.only(e.target, frozenset((e.target_key,)) if e.target_key else of(e.value))
            self.only(e.actor_slot, frozenset((e.actor_key,)) if e.actor_key else of(e.value))
        elif isinstance(e, DualCut):
            # Failed: the target is not the called value, and not red (a red target ends the game).
            keys = self.all_keys - of(e.value) - of(RED)
            if e.token is not None:
                keys &= of(e.token)
            self.only(e.target, keys)
            holder = frozenset(self.pos(s) for s in self.uncut_of(e.actor))
            self.counts.append(CountIn(holder, of(e.value), 1, len(holder)))
        elif isinstance(e, SoloCut):
            for s in e.slots:
                self.only(s, of(e.value))
            others = self.all_keys - of(e.value)
            for s in self.slots:
                if s not in self.cut and s not in e.slots:
                    self.only(s, others)
        elif isinstance(e, RevealRed):
            for s, k in zip(e.slots, e.keys):
                self.only(s, frozenset((k,)) if k else of(RED))
        else:  # pragma: no cover - the parser admits no other event
            raise TypeError(f"unknown event {e!r}")
        self.cut.update(cut_by(e))  # type: ignore[arg-type]


def compile_table(table: Table) -> Problem:
    c = Compiler(table)
    c.observer()
    for e in table.events:
        c.event(e)
    return c.problem
