"""The simulator's actions: what a player may do when the game waits for them (:meth:`.game.Game.play`).

The cut actions are named ``...Action`` to tell them from the table format's events of the same cut
(events.py): an action is a player's request, its event is what the table records of it.
"""
from __future__ import annotations

from ..record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

    from ..wires import Value

Slot = tuple[int, int, int]  # (player, stand, slot)


class SimError(ValueError):
    """A mission or setup the simulator does not play, or an illegal move."""


class DualCutAction(Record):
    """A dual cut on ``target``; ``own``: the caller's own flipped wire to cut on success (M38/M56/M64)."""

    __slots__ = ("target", "value", "own")
    target: Slot
    value: Value
    own: Slot | None

    def __init__(self, target: Slot, value: Value, own: Slot | None = None):
        super().__init__(target, value, own)


class DoubleDetector(Record):
    __slots__ = ("targets", "value")
    targets: tuple[Slot, Slot]
    value: int

    def __init__(self, targets: tuple[Slot, Slot], value: int):
        super().__init__(targets, value)


class SoloCutAction(Record):
    __slots__ = ("value",)
    value: Value

    def __init__(self, value: Value):
        super().__init__(value)


class RevealRedAction(Record):
    __slots__ = ("player",)
    player: int

    def __init__(self, player: int):
        super().__init__(player)


class MultiCutAction(Record):
    """A simultaneous special action: ``slots`` (anywhere, uncut) all claimed to be ``value``."""

    __slots__ = ("value", "slots")
    value: Value
    slots: tuple[Slot, ...]

    def __init__(self, value: Value, slots: tuple[Slot, ...]):
        super().__init__(value, tuple(slots))


class TripwireAction(Record):
    """M41: the teammate wire ``target`` is claimed to be their yellow tripwire."""

    __slots__ = ("target",)
    target: Slot

    def __init__(self, target: Slot):
        super().__init__(target)


class Choose(Record):
    """A decision that is not a cut: ``what`` (the pending decision's) and the ``option`` taken."""

    __slots__ = ("what", "option")
    what: str
    option: Any

    def __init__(self, what: str, option: Any):
        super().__init__(what, option)


class SetupToken(Record):
    """A setup token on ``slot``; ``value``: the value shown by a false token (M17/M52)."""

    __slots__ = ("slot", "value")
    slot: Slot
    value: int | None

    def __init__(self, slot: Slot, value: int | None = None):
        super().__init__(slot, value)


class AbsentTokens(Record):
    """M22's setup: values the player does not hold, beside the stand."""

    __slots__ = ("values",)
    values: tuple[Value, ...]

    def __init__(self, values: tuple[Value, ...]):
        super().__init__(tuple(values))


class UseCard(Record):
    """An equipment use: ``card`` (a printed ID, or "character": the player's own character card) and its
    ``option`` (:meth:`Game.card_uses` says what each card takes)."""

    __slots__ = ("card", "option")
    card: str
    option: Any

    def __init__(self, card: str, option: Any = None):
        super().__init__(card, option)


Action = DualCutAction | DoubleDetector | SoloCutAction | RevealRedAction | MultiCutAction | TripwireAction | Choose | UseCard


def action_json(a: Action) -> dict[str, Any]:
    """A compact JSON form of an action (the view's list of legal moves)."""
    if isinstance(a, DualCutAction):
        return {"kind": "dual_cut", "target": list(a.target), "value": a.value,
                **({"own": list(a.own)} if a.own else {})}
    if isinstance(a, DoubleDetector):
        return {"kind": "double_detector", "targets": [list(t) for t in a.targets], "value": a.value}
    if isinstance(a, SoloCutAction):
        return {"kind": "solo_cut", "value": a.value}
    if isinstance(a, RevealRedAction):
        return {"kind": "reveal_red"}
    if isinstance(a, MultiCutAction):
        return {"kind": "multi_cut", "value": a.value, "slots": [list(s) for s in a.slots]}
    if isinstance(a, TripwireAction):
        return {"kind": "tripwire", "target": list(a.target)}
    if isinstance(a, UseCard):
        return {"kind": "use_card", "card": a.card, "option": jsonable(a.option)}
    return {"kind": "choose", "what": a.what, "option": a.option}


def action_from_json(d: dict[str, Any], player: int, read_slot: Callable[[Any], Slot] = tuple) -> Action:
    """The action ``player`` does of its JSON ``d``: the inverse of :func:`action_json`, and the one
    reading of an action's kind and fields.  ``read_slot`` reads a wire's address as ``d`` writes it:
    action_json's ``[player, stand, slot]`` list (the default), or suggest's ``{"player", "stand",
    "slot"}`` object (view.action_of, which reads a suggestion of suggest through this function)."""
    kind = d["kind"]
    if kind == "dual_cut":
        return DualCutAction(read_slot(d["target"]), d["value"], read_slot(d["own"]) if d.get("own") else None)
    if kind == "double_detector":
        a, b = (read_slot(t) for t in d["targets"])
        return DoubleDetector((a, b), d["value"])
    if kind == "solo_cut":
        return SoloCutAction(d["value"])
    if kind == "reveal_red":
        return RevealRedAction(player)
    if kind == "multi_cut":
        return MultiCutAction(d["value"], tuple(read_slot(s) for s in d["slots"]))
    if kind == "tripwire":
        return TripwireAction(read_slot(d["target"]))
    if kind == "use_card":
        return UseCard(d["card"], tupled(d["option"]))
    option = d["option"]
    return Choose(d["what"], tuple(option) if isinstance(option, list) else option)


def jsonable(o: Any) -> Any:
    """An action's option as JSON: its tuples as lists."""
    return [jsonable(x) for x in o] if isinstance(o, (tuple, list)) else o


def tupled(o: Any) -> Any:
    """An action's option from JSON: its lists as tuples (hashable, comparable with the game's options)."""
    return tuple(tupled(x) for x in o) if isinstance(o, (tuple, list)) else o


def slot_json(slot: Slot) -> dict[str, int]:
    """A wire's address as the table format writes it."""
    return {"player": slot[0], "stand": slot[1], "slot": slot[2]}


def own_slot_json(slot: Slot) -> dict[str, int]:
    """One's own wire's address as the table format writes it (an ``actor_slot``)."""
    return {"stand": slot[1], "slot": slot[2]}


def value_order(v: Value) -> tuple[int, Any]:
    """A sort key of values: the numbers first, then the colours (by name)."""
    return (0, v) if isinstance(v, int) else (1, v)
