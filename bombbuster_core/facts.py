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
shuffle prior exact (see docs/architecture.md, "Probability model").

* **Orders** — :class:`Order`: key(lo) <= key(hi), for wires moved into a
  stand (they sit between their sorted neighbours).
* **Value relations** — :class:`SameValueCount` (x1/x2/x3 tokens, Single
  Wire Label) and :class:`SameValue` (Labels = and !=).

The problem's stands are the deal's *segments* (board.py): a stand's sorted
part, X and flipped wires, Nano's wires; a wire keeps its segment position
(its identity) when it moves, so a move only adds order facts.
"""
from __future__ import annotations

from .record import Record
from . import rules
from .board import Board, Wire
from .events import (Absent, Dealt, Detector, Disintegrator, DualCut, Equipment, FastPass, InfoToken, Label, Move,
                     MultiCut, Radar, RevealRed, SlotRef, SoloCut, Swap, Token, Tripwire)
from .table_model import Table, advance
from .wires import RED, YELLOW, Deck, Key, Value, colour

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


def parity_keys(keys: frozenset[Key], odd: bool) -> frozenset[Key]:
    """The blue keys among ``keys`` of one parity: what an even/odd token says (M21, M33)."""
    return frozenset(k for k in keys if colour(k) == "blue" and (k // 10) % 2 == odd)


def counted_wires(board: Board, pos: Pos) -> frozenset[Pos]:
    """The wires an x-count token on ``pos`` counts (the Single Wire Label's x1 too): those of its
    stand, cut ones included, that the stand's owner can see (rules.COUNT_TOKEN_SEES_OWN_FLIPPED).
    The Single Wire Label's advice (suggest/marks.py) reads the token through this too."""
    address = board.address(pos)
    assert address is not None
    p, s, _ = address
    return frozenset(w for w in board.hand(p, s) if rules.COUNT_TOKEN_SEES_OWN_FLIPPED or not board.owner_flipped(w, p))


class Compiler:
    """Turns a validated :class:`Table` into a :class:`Problem`, replaying its events on a board.

    Rule readings come from :mod:`bombbuster_core.rules`.
    """

    def __init__(self, table: Table):
        self.table = table
        self.deck: Deck = table.deck
        segments, layout = table.deal()
        self.board = Board(segments, layout)
        self.dealt_layout = layout
        stands = [Stand(seg.player, seg.stand, seg.size) for seg in segments]
        self.domains: dict[Pos, frozenset[Key]] = {}
        for pool in self.deck.pools:
            set_aside = len(pool.candidates) - pool.count
            if set_aside:
                sid = len(stands)
                stands.append(Stand(None, len(stands), set_aside))
                for j in range(set_aside):
                    self.domains[(sid, j)] = frozenset(pool.candidates)
        self.stands = tuple(stands)
        # Ordered sets: a fact repeated (40,000 identical failed calls) is kept once,
        # so the engines' cost stays linear in the number of events.
        self.counts: dict[CountIn, None] = {}
        self.orders: dict[Order, None] = {}
        self.values: dict[ValueFact, None] = {}
        self.all_keys = frozenset(self.deck.copies)
        of = self.deck.keys_of_value
        self.red = of(RED) | (of(table.red_value) if table.red_value and rules.COUNTS_AS_RED_EXPLODES else frozenset())
        for p, pl in enumerate(table.players):
            for s, shape in enumerate(pl.shapes):
                if shape == "x_blue":
                    self.only(layout[p][s][-1], frozenset(k for k in self.all_keys if colour(k) == "blue"))

    @property
    def problem(self) -> Problem:
        """The facts gathered so far."""
        return Problem(dict(self.deck.copies), self.stands, dict(self.domains), tuple(self.counts),
                       tuple(self.orders), tuple(self.values))

    def add(self, fact: CountIn | Order | ValueFact) -> None:
        facts: dict = self.counts if isinstance(fact, CountIn) else self.orders if isinstance(fact, Order) else self.values
        facts[fact] = None

    def pos(self, ref: SlotRef) -> Pos:
        """The identity (problem position) of the wire now at ``ref``."""
        return self.board.wire(ref.player, ref.stand, ref.slot)

    def only(self, pos: Pos, keys: frozenset[Key]) -> None:
        """Limit slot ``pos`` further to ``keys`` (as :meth:`Problem.restrict`)."""
        self.domains[pos] = self.domains.get(pos, self.all_keys) & keys

    def observer(self) -> None:
        me = self.table.me
        for s, keys in enumerate(self.table.my_stands):
            for j, k in enumerate(keys):
                if k is not None:
                    self.only(self.dealt_layout[me][s][j], frozenset((k,)))  # type: ignore[index]
        for wire, k in self.table.seen:
            self.only(wire, frozenset((k,)))

    # -- what events mean
    def holds(self, actor: int, values: tuple[Value, ...]) -> None:
        """The actor holds an uncut wire of each value (of those they can see)."""
        hand = frozenset(self.board.visible_uncut(actor))
        for v in values:
            self.add(CountIn(hand, self.deck.keys_of_value(v), 1, len(hand)))

    def unwitnessed(self, actor: int, own: Pos, values: tuple[Value, ...], cut: Value) -> tuple[Value, ...]:
        """The called values whose "the actor holds an uncut v" a successful call does not already say.

        The actor's cut wire ``own`` is ``cut`` and was uncut when called, so it is itself a
        wire of the cut value in the actor's visible hand, which makes that value's "holds"
        fact redundant — but only if the actor can see it: their own flipped wire (M38/M56)
        does not count for "holds" (docs, Rule readings), so then every value is asserted.
        """
        if self.board.owner_flipped(own, actor):
            return values
        return tuple(v for v in values if v != cut)

    def not_called(self, pos: Pos, values: tuple[Value, ...]) -> None:
        self.only(pos, self.all_keys - frozenset().union(*(self.deck.keys_of_value(v) for v in values)))

    def token(self, pos: Pos, token: Token) -> None:
        """What a true token says of its wire."""
        if token.kind == "value":
            self.only(pos, self.deck.keys_of_value(token.arg))
        elif token.kind == "parity":
            odd = token.arg == "odd"
            self.only(pos, parity_keys(self.all_keys, odd))
        else:
            self.only(pos, self.all_keys - self.deck.keys_of_value(RED))
            self.add(SameValueCount(pos, counted_wires(self.board, pos), int(token.arg)))

    def failed(self, pos: Pos, values: tuple[Value, ...], token: Token | None, stabilizer: bool) -> None:
        """A failed cut on ``pos``: not a called value; the token's meaning, or red with the Stabilizer."""
        self.not_called(pos, values)
        if token is None and stabilizer and rules.STABILIZER_NO_TOKEN_MEANS_RED:
            self.only(pos, self.red)
            return
        if rules.FAILED_CUT_NOT_RED:
            self.only(pos, self.all_keys - self.red)
        if token is not None:
            self.token(pos, token)

    def event(self, e: object) -> None:
        of = self.deck.keys_of_value
        if isinstance(e, InfoToken):
            pos = self.pos(e.at)
            if e.false:
                self.only(pos, self.all_keys - of(e.token.arg))
            else:
                self.token(pos, e.token)
        elif isinstance(e, DualCut):
            target = self.pos(e.target)
            if e.success:
                assert e.actor_slot is not None and e.value is not None
                self.only(target, frozenset((e.target_key,)) if e.target_key else of(e.value))
                own = self.pos(e.actor_slot)
                mine = self.all_keys - of(e.value) if e.exploded else of(e.value)  # M38/M56: own flipped wire
                self.only(own, frozenset((e.actor_key,)) if e.actor_key else mine)
                self.holds(e.actor, self.unwitnessed(e.actor, own, e.values, e.value))
            elif e.exploded:
                self.holds(e.actor, e.values)
                self.only(target, self.red)
            else:
                self.holds(e.actor, e.values)
                self.failed(target, e.values, e.token, e.stabilizer)
        elif isinstance(e, Detector):
            targets = [self.pos(t) for t in e.targets]
            if e.success:
                assert e.cut is not None and e.actor_slot is not None and e.value is not None
                self.only(self.pos(e.cut), of(e.value))
                own = self.pos(e.actor_slot)
                self.only(own, of(e.value))
                self.holds(e.actor, self.unwitnessed(e.actor, own, e.values, e.value))
            else:
                self.holds(e.actor, e.values)
                for pos in targets:
                    self.not_called(pos, e.values)
                if e.exploded:
                    for pos in targets:
                        self.only(pos, self.red)
                elif e.token is not None:
                    assert e.token_at is not None
                    self.failed(self.pos(e.token_at), e.values, e.token, e.stabilizer)
                    # "not every target is red" follows from FAILED_CUT_NOT_RED: the token
                    # wire is a target, and failed() made it not red (M11's value included)
                    if rules.DETECTOR_NOT_ALL_RED and not rules.FAILED_CUT_NOT_RED:
                        self.add(CountIn(frozenset(targets), self.red, 0, len(targets) - 1))
                elif e.stabilizer and rules.STABILIZER_NO_TOKEN_MEANS_RED:
                    for pos in targets:
                        self.only(pos, self.red)
                elif rules.DETECTOR_NOT_ALL_RED:
                    self.add(CountIn(frozenset(targets), self.red, 0, len(targets) - 1))
        elif isinstance(e, SoloCut):
            mine = {self.pos(s) for s in e.slots}
            for pos in mine:
                self.only(pos, of(e.value))
            others = self.all_keys - of(e.value)
            everywhere = [w for p in range(len(self.table.players)) for w in self.board.uncut(p)]
            if rules.SOLO_CUT_COVERS_EVERY_WIRE:
                everywhere += self.board.nano
            for pos in everywhere:
                if pos not in mine and (rules.SOLO_CUT_COVERS_EVERY_WIRE or not self.board.special(pos)):
                    self.only(pos, others)
        elif isinstance(e, RevealRed):
            for s, k in zip(e.slots, e.keys):
                self.only(self.pos(s), frozenset((k,)) if k else self.red)
        elif isinstance(e, Radar):
            keys = of(e.value)
            for p, row in enumerate(e.answers):
                for s, yes in enumerate(row):
                    slots = frozenset(w for w in self.board.uncut(p, s) if not self.board.special(w))
                    self.add(CountIn(slots, keys, 1, len(slots)) if yes else CountIn(slots, keys, 0, 0))
        elif isinstance(e, Label):
            a = self.pos(e.at)
            b = self.board.wire(e.at.player, e.at.stand, e.at.slot + 1)
            self.add(SameValue(a, b, e.equal))
        elif isinstance(e, FastPass):
            for s in e.slots:
                self.only(self.pos(s), of(e.value))
        elif isinstance(e, Disintegrator):
            listed = {self.pos(s) for s in e.slots}
            for pos in listed:
                self.only(pos, of(e.value))
            for p in range(len(self.table.players)):
                for pos in self.board.uncut(p):
                    if pos not in listed and not self.board.special(pos):
                        self.only(pos, self.all_keys - of(e.value))
        elif isinstance(e, (Move, Swap)):
            pass  # order facts once the wires are in place (below)
        elif isinstance(e, Equipment):
            pass  # Rewinder, Coffee Mug, ...: nothing about wires
        elif isinstance(e, Absent):
            hand = frozenset(self.board.visible_uncut(e.player, e.stand))
            keys = frozenset().union(*(of(v) for v in e.values))
            self.add(CountIn(hand, keys, 0, 0))
        elif isinstance(e, Dealt):
            rows = self.dealt_layout[e.player] if e.stand is None else [self.dealt_layout[e.player][e.stand]]
            hand = frozenset(w for row in rows for w in row)
            self.add(CountIn(hand, of(e.value), e.count, e.count))
        elif isinstance(e, MultiCut):
            if e.success:
                for s in e.slots:
                    self.only(self.pos(s), of(e.value))
            elif e.exploded:  # not every listed wire is the value
                self.add(CountIn(frozenset(self.pos(s) for s in e.slots), of(e.value), 0, len(e.slots) - 1))
            else:
                for s, w in zip(e.slots, e.tokens):
                    self.failed(self.pos(s), (), Token("value", w), False)
        elif isinstance(e, Tripwire):
            target = self.pos(e.target)
            if e.success:
                self.only(target, of(YELLOW))
            elif e.exploded:
                self.only(target, self.red)
            else:
                assert e.token is not None
                self.failed(target, (YELLOW,), Token("value", e.token), False)
        else:  # pragma: no cover - the parser admits no other event
            raise TypeError(f"unknown event {e!r}")
        advance(self.board, e)  # type: ignore[arg-type]
        if isinstance(e, Move):
            self.placed(e.to.player, e.to.stand, e.to.slot)
        elif isinstance(e, Swap):
            self.placed(e.b.player, e.b.stand, e.a_to)
            self.placed(e.a.player, e.a.stand, e.b_to)

    def placed(self, player: int, stand: int, slot: int) -> None:
        """A wire inserted at ``slot`` lies between its nearest uncut sorted neighbours."""
        wire = self.board.wire(player, stand, slot)
        left, right = self.board.neighbours(player, stand, slot)
        if left is not None:
            self.add(Order(left, wire))
        if right is not None:
            self.add(Order(wire, right))


def compile_table(table: Table) -> Problem:
    c = Compiler(table)
    c.observer()
    for e in table.events:
        c.event(e)
    return c.problem
