"""Why a deduction holds: the smallest set of recorded events (and own wires) that forces it.

A deduction is a statement about one wire — "it is a 7" or "it is not a 7" — that
holds in every deal the table allows.  :func:`explain` finds a set of *reasons*
(recorded events, the observer's own wires, wires they have seen) such that the
deduction holds with those reasons alone and fails when any one of them is taken
away, by taking reasons away while the deduction still holds.

Each reason keeps the meaning it has in the real game: its facts are compiled once
from the whole table (facts.Compiler, on wire identities), so leaving out an earlier
event never changes what a later one says ("no other uncut 5" still means the 5s
uncut at that moment).  Fewer facts allow more deals, so a statement that fails
without a reason fails without it in every smaller set too: checking each reason
once against the final set proves the set minimal in that sense ("1-minimal"; a set
with fewer reasons may still exist).

:func:`conflict` does the converse for an impossible event: the fewest earlier reasons it
contradicts (the page's refusal names them).

Refusals: a wire whose value is not forced (or not ruled out) has nothing to
explain and is refused with its possible values; the engines' budgets bound every
analysis (EngineLimit), so the work is at most a few analyses per reason.
"""
from __future__ import annotations

from .beliefs import Inconsistent
from .board import Wire
from .engines import DEFAULT, ENGINES
from .events import Event, SlotRef, Token
from .facts import Compiler, CountIn, Order, Pos, Problem, SameValue, SameValueCount, compile_table
from .table import Table
from .wires import Key, Value, key_str, value_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

Fact = object  # a facts.CountIn, Order or value relation (SameValueCount, SameValue)


class ExplainError(ValueError):
    """Nothing to explain (the wire is not certain), or a slot that is not on the table."""


class Reason:
    """One recorded thing the deduction may rest on, with the facts it contributes."""

    __slots__ = ("kind", "index", "domains", "facts", "json")

    def __init__(self, kind: str, index: int, domains: dict[Pos, frozenset[Key]], facts: list[Fact],
                 json: dict[str, Any]):
        self.kind = kind  # "event", "own" (the observer's wire) or "seen" (a wire the observer saw)
        self.index = index
        self.domains = domains
        self.facts = facts
        self.json = json


class _Collector(Compiler):
    """The compiler, with each event's (or observation's) facts gathered apart."""

    def take(self) -> tuple[dict[Pos, frozenset[Key]], list[Fact]]:
        domains, facts = self.domains, [*self.counts, *self.orders, *self.values]
        self.domains, self.counts, self.orders, self.values = {}, {}, {}, {}
        return domains, facts


def reasons(table: Table) -> tuple[Problem, list[Reason]]:
    """The setup alone (stands, deck, pools) and every reason with facts of its own."""
    c = _Collector(table)
    base = c.problem
    c.take()
    found: list[Reason] = []
    me = table.me
    for s, keys in enumerate(table.my_stands):
        for j, k in enumerate(keys):
            if k is not None:
                c.only(c.dealt_layout[me][s][j], frozenset((k,)))  # type: ignore[index]
                found.append(Reason("own", len(found), *c.take(), {
                    "own": {"stand": s, "slot": j}, "value": key_str(k),
                    "text": f"your own {_stand_word(table, me, s)}slot {j + 1}, {_key_words(k)}"}))
    now = table.board()
    for wire, k in table.seen:
        c.only(wire, frozenset((k,)))
        address = now.address(wire)
        where = "a wire of Nano's" if address is None else _slot_words(table, SlotRef(*address))
        found.append(Reason("seen", len(found), *c.take(), {
            "seen": None if address is None else SlotRef(*address).json(), "value": key_str(k),
            "text": f"{where}, {_key_words(k)}, which you saw"}))
    for i, e in enumerate(table.events):
        c.event(e)
        domains, facts = c.take()
        if domains or facts:  # an event that says nothing of the wires (a Rewinder) is never a reason
            found.append(Reason("event", i, domains, facts, {
                "event": i, "type": e.type, "text": event_words(table, e)}))
    return base, found


def problem_of(base: Problem, kept: Sequence[Reason]) -> Problem:
    """The setup with the facts of ``kept`` only."""
    domains = dict(base.domains)
    counts, orders, values = list(base.counts), list(base.orders), list(base.values)
    for r in kept:
        for pos, keys in r.domains.items():
            domains[pos] = domains.get(pos, frozenset(base.copies)) & keys
        for f in r.facts:
            (counts if isinstance(f, CountIn) else orders if isinstance(f, Order) else values).append(f)
    return base.replace(domains=domains, counts=tuple(dict.fromkeys(counts)), orders=tuple(dict.fromkeys(orders)),
                        values=tuple(dict.fromkeys(values)))


def minimal(items: list[Reason], holds: Callable[[list[Reason]], bool]) -> list[Reason]:
    """A 1-minimal sublist of ``items`` (``holds(items)`` is true): holds, and fails without any one.

    Halves, then quarters, ... are taken away while the deduction still holds, so a
    long game whose deduction rests on three events costs about 3·log2(n) analyses,
    not n.  The last pass tries every single item left, which is what proves the
    result minimal (monotone facts: see the module docstring)."""
    kept = list(items)
    chunk = max(1, len(kept) // 2)
    while True:
        i = 0
        while i < len(kept):
            trial = kept[:i] + kept[i + chunk:]
            if holds(trial):
                kept = trial
            else:
                i += chunk
        if chunk == 1:
            return kept
        chunk //= 2


def explain(table: Table, at: SlotRef, value: Value | None = None, *, negated: bool = False,
            engine: str = DEFAULT) -> dict[str, Any]:
    """Why the wire now at ``at`` is ``value`` (default: the value it is certain to be),
    or, ``negated``, why it cannot be ``value``.  Raises :class:`ExplainError` when the
    table does not force that, :class:`~bombbuster_core.beliefs.Inconsistent` when no deal fits."""
    board = table.board()
    rows = board.stands
    if not (0 <= at.player < len(rows) and 0 <= at.stand < len(rows[at.player])
            and 0 <= at.slot < len(rows[at.player][at.stand])):
        raise ExplainError(f"{at} is not on the table")
    wire: Wire = board.wire(at.player, at.stand, at.slot)
    possible = sorted({value_of(k) for k in ENGINES[engine](compile_table(table)).support(wire)}, key=str)
    if value is None:
        if negated:
            raise ExplainError("name the value the wire cannot be")
        if len(possible) != 1:
            raise ExplainError(f"{at} is not certain: it may be {', '.join(map(_value_words, possible))}")
        value = possible[0]
    statement = _statement(value, negated)
    if (negated and value in possible) or (not negated and possible != [value]):
        raise ExplainError(f"the table does not show that {at} {statement}: it may be "
                           f"{', '.join(map(_value_words, possible))}")
    base, found = reasons(table)
    analyse = ENGINES[engine]
    runs = 0

    def holds(kept: list[Reason]) -> bool:
        nonlocal runs
        runs += 1
        try:
            values = {value_of(k) for k in analyse(problem_of(base, kept)).support(wire)}
        except Inconsistent:  # a subset of a consistent table's true facts always has a deal
            raise AssertionError("a subset of a consistent table's facts has no deal") from None
        return value not in values if negated else values == {value}

    # Reasons about the wire's own stand go last, so that the ones taken away first are the
    # farther ones: the answer then reads from the wire's neighbours where they suffice.
    stand = wire[0]
    near = [r for r in found if stand in {pos[0] for pos in r.domains} | _stands_of(r.facts)]
    far = [r for r in found if r not in near]
    kept = sorted(minimal(far + near, holds), key=found.index) if not holds([]) else []
    return {"slot": at.json(), "value": value, "negated": negated,
            "statement": f"{_slot_words(table, at)} {statement}",
            "because": [r.json for r in kept],
            "setup_alone": not kept,
            "analyses": runs}


def _stands_of(facts: list[Fact]) -> set[int]:
    """The problem stands a reason's facts name."""
    out: set[int] = set()
    for f in facts:
        if isinstance(f, CountIn):
            positions = set(f.slots)
        elif isinstance(f, Order):
            positions = {f.lo, f.hi}
        elif isinstance(f, SameValueCount):
            positions = {f.at, *f.slots}
        else:
            assert isinstance(f, SameValue), f
            positions = {f.a, f.b}
        out |= {pos[0] for pos in positions}
    return out


def conflict(table: Table, event: int, engine: str = DEFAULT) -> list[dict[str, Any]]:
    """What event ``event`` contradicts: a 1-minimal set of the reasons before it (earlier
    events, own wires, wires seen) that no deal fits together with it, each as :func:`reasons`
    gives it.  ``event`` must be the first impossible one (analysis.first_impossible_event)."""
    base, found = reasons(table.prefix(event + 1))
    last = [r for r in found if r.kind == "event" and r.index == event]
    before = [r for r in found if not (r.kind == "event" and r.index == event)]
    analyse = ENGINES[engine]

    def impossible(kept: list[Reason]) -> bool:
        try:
            analyse(problem_of(base, kept + last))
        except Inconsistent:
            return True
        return False

    return [r.json for r in minimal(before, impossible)] if not impossible([]) else []


# -- words


def _statement(value: Value, negated: bool) -> str:
    return f"{'is not' if negated else 'is'} {_value_words(value)}"


def _value_words(value: Value) -> str:
    return f"a {value}" if isinstance(value, int) else value


def _key_words(key: Key) -> str:
    v = value_of(key)
    return _value_words(v) if isinstance(v, int) else f"{v} ({key_str(key)})"


def _name(table: Table, p: int) -> str:
    return table.players[p].name


def _stand_word(table: Table, p: int, s: int) -> str:
    return f"stand {s + 1} " if len(table.players[p].stands) > 1 else ""


def _slot_words(table: Table, ref: SlotRef) -> str:
    return f"{_name(table, ref.player)}'s {_stand_word(table, ref.player, ref.stand)}slot {ref.slot + 1}"


def _slots_words(table: Table, refs: Sequence[SlotRef]) -> str:
    return " and ".join(_slot_words(table, r) for r in refs)


def _token_words(token: Token) -> str:
    if token.kind == "parity":
        return f"an {token.arg} token"
    return f"an x{token.arg} token" if token.kind == "count" else f"a {token.arg} token"


def _called(values: tuple[Value, ...]) -> str:
    return " or ".join(str(v) for v in values)


def event_words(table: Table, e: Event) -> str:
    """One recorded event as a player would say it (English; slots counted from 1)."""
    t = e.type

    def name(p: int) -> str:
        return _name(table, p)

    if t == "info_token":
        if e.false:
            return f"a false {e.token.arg} token on {_slot_words(table, e.at)} (it is not {e.token.arg})"
        return f"{_token_words(e.token)} on {_slot_words(table, e.at)}"
    if t in ("dual_cut", "detector"):
        targets = (e.target,) if t == "dual_cut" else e.targets
        call = f"{name(e.actor)}'s {'call' if t == 'dual_cut' else e.kind + ' detector call'} of {_called(e.values)}"
        where = f"on {_slots_words(table, targets)}"
        if e.exploded:
            return f"{call} {where}: the bomb exploded"
        if e.success:
            return f"{call} {where} succeeded"
        token = f", {_token_words(e.token)}" if e.token is not None else ", no token"
        return f"{name(e.actor)}'s failed {'call' if t == 'dual_cut' else e.kind + ' detector call'} of " \
               f"{_called(e.values)} {where}{token}"
    if t == "solo_cut":
        return f"{name(e.actor)} cut every remaining {e.value} alone ({_slots_words(table, e.slots)})"
    if t == "reveal_red":
        return f"{name(e.actor)} revealed their last wires as red ({_slots_words(table, e.slots)})"
    if t == "radar":
        yes = [name(p) for p, answers in enumerate(e.answers) if any(answers)]
        return f"the General Radar on {e.value}: {', '.join(yes) if yes else 'nobody'} answered yes"
    if t == "label":
        return f"a Label {'=' if e.equal else '≠'} on {_slot_words(table, e.at)} and its right neighbour"
    if t == "fast_pass":
        return f"{name(e.actor)}'s Fast Pass cut two {e.value}s ({_slots_words(table, e.slots)})"
    if t == "disintegrator":
        return f"the Disintegrator on {e.value} cut {_slots_words(table, e.slots) or 'nothing'}"
    if t == "move":
        return f"a wire moved {'from Nano' if e.source is None else 'from ' + _slot_words(table, e.source)} " \
               f"to {_slot_words(table, e.to)}"
    if t == "swap":
        return f"the Walkie-Talkies swapped {_slot_words(table, e.a)} and {_slot_words(table, e.b)}"
    if t == "absent":
        where = "hand" if e.stand is None else _stand_word(table, e.player, e.stand).strip() or "stand"
        return f"{name(e.player)}'s {where} holds no uncut {_called(e.values)}"
    if t == "dealt":
        return f"{name(e.player)} was dealt {e.count} {e.value} wire{'s' if e.count != 1 else ''}"
    if t == "multi_cut":
        outcome = "succeeded" if e.success else "exploded" if e.exploded else "failed"
        return f"{name(e.actor)}'s cut of every {e.value} on {_slots_words(table, e.slots)} {outcome}"
    if t == "tripwire":
        outcome = "cut a tripwire" if e.success else "exploded" if e.exploded else f"missed (a {e.token})"
        return f"{name(e.actor)}'s tripwire call on {_slot_words(table, e.target)} {outcome}"
    return t
