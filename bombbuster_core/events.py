"""Events: the typed records of what happened at the table (format 1, docs/table-format.md).

Each class's ``type`` is the event's name in the table file.  Addresses are
:class:`SlotRef` — CURRENT positions at the event's moment; a
:class:`~bombbuster_core.board.Board` replayed in order turns them into wire
identities.  The parser (table.py) builds these; facts.py says what each
one means.
"""
from __future__ import annotations

from functools import total_ordering

from .record import Record
from .wires import Key, Value


@total_ordering
class SlotRef(Record):
    """A slot address: player, that player's stand (0 or 1), slot index from the left.  Ordered by its fields."""

    __slots__ = ("player", "stand", "slot")
    player: int
    stand: int
    slot: int

    def __init__(self, player: int, stand: int, slot: int):
        super().__init__(player, stand, slot)

    def __lt__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values(self) < self._values(other)

    def json(self) -> dict[str, int]:
        return {"player": self.player, "stand": self.stand, "slot": self.slot}

    def __str__(self) -> str:
        return f"player {self.player} stand {self.stand} slot {self.slot}"


class Token(Record):
    """What an info token says of its wire: ``kind`` "value" (a true gameplay value),
    "parity" ("even"/"odd": a blue wire of that parity) or "count" (1-3: not red, and its
    stand holds exactly that many wires of its value, cut ones included)."""

    __slots__ = ("kind", "arg")
    kind: str
    arg: Value

    def __init__(self, kind: str, arg: Value):
        super().__init__(kind, arg)


class InfoToken(Record):
    """An info token on a wire (setup, Post-it, mission tokens); ``false``: the wire is NOT the value (M17/M52)."""

    __slots__ = ("at", "token", "false")
    type = "info_token"
    at: SlotRef
    token: Token
    false: bool

    def __init__(self, at: SlotRef, token: Token, false: bool = False):
        super().__init__(at, token, false)


class DualCut(Record):
    """A dual cut; ``values`` holds two values for the X or Y ray, ``value`` is the one cut on success.
    ``exploded``: the bomb exploded and the game is over (a failure: the target is red; a success:
    the actor's own flipped wire, cut as ``actor_slot``, was not the value); nothing is cut."""

    __slots__ = ("actor", "target", "values", "success", "actor_slot", "target_key", "actor_key", "value", "token",
                 "stabilizer", "exploded")
    type = "dual_cut"
    actor: int
    target: SlotRef
    values: tuple[Value, ...]  # called
    success: bool
    actor_slot: SlotRef | None  # success only
    target_key: Key | None  # printed keys seen after a success
    actor_key: Key | None
    value: Value | None  # success: the value cut (the called one, or the X-or-Y ray's cut_value)
    token: Token | None  # failure only; None = no token
    stabilizer: bool
    exploded: bool

    def __init__(self, actor: int, target: SlotRef, values: tuple[Value, ...], success: bool,
                 actor_slot: SlotRef | None = None, target_key: Key | None = None, actor_key: Key | None = None,
                 value: Value | None = None, token: Token | None = None, stabilizer: bool = False,
                 exploded: bool = False):
        super().__init__(actor, target, values, success, actor_slot, target_key, actor_key, value, token, stabilizer,
                         exploded)


class Detector(Record):
    """Double, Triple or Super Detector (optionally with the X or Y ray) on one teammate stand;
    ``exploded``: a failure where every target is red (the game is over)."""

    __slots__ = ("actor", "kind", "targets", "values", "success", "cut", "actor_slot", "value", "token_at", "token",
                 "stabilizer", "exploded")
    type = "detector"
    actor: int
    kind: str
    targets: tuple[SlotRef, ...]
    values: tuple[Value, ...]
    success: bool
    cut: SlotRef | None
    actor_slot: SlotRef | None
    value: Value | None  # success: the value cut
    token_at: SlotRef | None
    token: Token | None
    stabilizer: bool
    exploded: bool

    def __init__(self, actor: int, kind: str, targets: tuple[SlotRef, ...], values: tuple[Value, ...], success: bool,
                 cut: SlotRef | None = None, actor_slot: SlotRef | None = None, value: Value | None = None,
                 token_at: SlotRef | None = None, token: Token | None = None, stabilizer: bool = False,
                 exploded: bool = False):
        super().__init__(actor, kind, targets, values, success, cut, actor_slot, value, token_at, token, stabilizer,
                         exploded)


class SoloCut(Record):
    __slots__ = ("actor", "value", "slots")
    type = "solo_cut"
    actor: int
    value: Value
    slots: tuple[SlotRef, ...]

    def __init__(self, actor: int, value: Value, slots: tuple[SlotRef, ...]):
        super().__init__(actor, value, slots)


class RevealRed(Record):
    __slots__ = ("actor", "slots", "keys")
    type = "reveal_red"
    actor: int
    slots: tuple[SlotRef, ...]
    keys: tuple[Key | None, ...]  # printed key per slot, when given

    def __init__(self, actor: int, slots: tuple[SlotRef, ...], keys: tuple[Key | None, ...]):
        super().__init__(actor, slots, keys)


class Radar(Record):
    """General Radar: ``answers[p][s]`` is stand s of player p's yes/no to "an uncut blue v?"."""

    __slots__ = ("value", "answers")
    type = "radar"
    value: int
    answers: tuple[tuple[bool, ...], ...]

    def __init__(self, value: int, answers: tuple[tuple[bool, ...], ...]):
        super().__init__(value, answers)


class Label(Record):
    """Label = / Label !=: the wire at ``at`` and its right neighbour have equal / different values."""

    __slots__ = ("at", "equal")
    type = "label"
    at: SlotRef
    equal: bool

    def __init__(self, at: SlotRef, equal: bool):
        super().__init__(at, equal)


class FastPass(Record):
    __slots__ = ("actor", "value", "slots")
    type = "fast_pass"
    actor: int
    value: Value
    slots: tuple[SlotRef, ...]

    def __init__(self, actor: int, value: Value, slots: tuple[SlotRef, ...]):
        super().__init__(actor, value, slots)


class Disintegrator(Record):
    __slots__ = ("value", "slots")
    type = "disintegrator"
    value: Value
    slots: tuple[SlotRef, ...]

    def __init__(self, value: Value, slots: tuple[SlotRef, ...]):
        super().__init__(value, slots)


class Move(Record):
    """A wire taken from ``source`` (None: the next of Nano's wires) and inserted at ``to``."""

    __slots__ = ("source", "to")
    type = "move"
    source: SlotRef | None
    to: SlotRef

    def __init__(self, source: SlotRef | None, to: SlotRef):
        super().__init__(source, to)


class Swap(Record):
    """Walkie-Talkies: a's wire goes to index ``a_to`` of b's stand, b's to index ``b_to`` of a's."""

    __slots__ = ("a", "b", "a_to", "b_to")
    type = "swap"
    a: SlotRef
    b: SlotRef
    a_to: int
    b_to: int

    def __init__(self, a: SlotRef, b: SlotRef, a_to: int, b_to: int):
        super().__init__(a, b, a_to, b_to)


class Absent(Record):
    """The player's hand (or one stand) holds no uncut wire of these values."""

    __slots__ = ("player", "values", "stand")
    type = "absent"
    player: int
    values: tuple[Value, ...]
    stand: int | None

    def __init__(self, player: int, values: tuple[Value, ...], stand: int | None = None):
        super().__init__(player, values, stand)


class Dealt(Record):
    """Exactly ``count`` wires of a colour were dealt to the player's hand (or one stand)."""

    __slots__ = ("player", "value", "count", "stand")
    type = "dealt"
    player: int
    value: str
    count: int
    stand: int | None

    def __init__(self, player: int, value: str, count: int, stand: int | None = None):
        super().__init__(player, value, count, stand)


class MultiCut(Record):
    """A simultaneous special action (M13, M23, M39, M46, M48); a failure puts true tokens (M48)
    or, ``exploded``, ends the game (the others): not every listed wire is the value."""

    __slots__ = ("actor", "value", "slots", "success", "tokens", "exploded")
    type = "multi_cut"
    actor: int
    value: Value
    slots: tuple[SlotRef, ...]
    success: bool
    tokens: tuple[Value, ...]
    exploded: bool

    def __init__(self, actor: int, value: Value, slots: tuple[SlotRef, ...], success: bool,
                 tokens: tuple[Value, ...] = (), exploded: bool = False):
        super().__init__(actor, value, slots, success, tokens, exploded)


class Tripwire(Record):
    """M41: a call on a teammate's yellow tripwire; a failure shows the target's true blue value,
    or, ``exploded``, the target is red (the game is over)."""

    __slots__ = ("actor", "target", "success", "token", "exploded")
    type = "tripwire"
    actor: int
    target: SlotRef
    success: bool
    token: Value | None
    exploded: bool

    def __init__(self, actor: int, target: SlotRef, success: bool, token: Value | None = None,
                 exploded: bool = False):
        super().__init__(actor, target, success, token, exploded)


class Equipment(Record):
    """An equipment card used that tells nothing about wires (Rewinder, Coffee Mug, ...): the
    page's dial and turn order need it.  ``card`` is its printed ID (equipment.py); ``next``:
    the Coffee Mug's chosen next player; ``added``: False Bottom's two new cards;
    ``recharged``: the players whose character Emergency Batteries re-enable."""

    __slots__ = ("card", "actor", "next", "added", "recharged")
    type = "equipment"
    card: str
    actor: int | None
    next: int | None
    added: tuple[str, ...]
    recharged: tuple[int, ...]

    def __init__(self, card: str, actor: int | None = None, next: int | None = None, added: tuple[str, ...] = (),
                 recharged: tuple[int, ...] = ()):
        super().__init__(card, actor, next, added, recharged)


Event = (InfoToken | DualCut | Detector | SoloCut | RevealRed | Radar | Label | FastPass | Disintegrator | Move | Swap
         | Absent | Dealt | MultiCut | Tripwire | Equipment)


def exploded(event: Event) -> bool:
    """The bomb exploded at this event: the mission is lost and the game is over."""
    return isinstance(event, (DualCut, Detector, MultiCut, Tripwire)) and event.exploded


def cut_by(event: Event) -> tuple[SlotRef, ...]:
    """The wires an event cuts (reveals face up), by their address at its moment; an explosion cuts nothing."""
    if exploded(event):
        return ()
    if isinstance(event, (DualCut, Detector)):
        if not event.success:
            return ()
        target = event.target if isinstance(event, DualCut) else event.cut
        return tuple(s for s in (target, event.actor_slot) if s is not None)
    if isinstance(event, (SoloCut, RevealRed, FastPass, Disintegrator)):
        return event.slots
    if isinstance(event, MultiCut):
        return event.slots if event.success else ()
    if isinstance(event, Tripwire):
        return (event.target,) if event.success else ()
    return ()
