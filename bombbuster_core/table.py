"""Table file, format 1: parse and validate a game record into typed events.

The format is documented in ``docs/table-format.md``.  Parsing is strict: an
unknown key, a wrong type or an out-of-range index raises :class:`TableError`
naming the event (index and type) and the field.  Bookkeeping that needs the
game's history (a wire cut twice, a dual cut on one's own stand) is checked
here too, so that the engines only ever see well-formed histories.
"""
from __future__ import annotations

from functools import total_ordering

from .record import Record
from .wires import RED, YELLOW, Deck, Key, Pool, Value, WireError, colour, key_str, parse_key, parse_value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FORMAT = 1
MAX_PLAYERS = 5


class TableError(ValueError):
    """A malformed table file.  ``event`` is the event index, when one is at fault."""

    def __init__(self, message: str, *, event: int | None = None):
        super().__init__(message)
        self.event = event


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


class Player(Record):
    __slots__ = ("name", "stands")
    name: str
    stands: tuple[int, ...]  # stand sizes

    def __init__(self, name: str, stands: tuple[int, ...]):
        super().__init__(name, stands)


# Events.  ``type`` is the event's name in the table file (a class attribute).
class InfoToken(Record):
    __slots__ = ("at", "value")
    type = "info_token"
    at: SlotRef
    value: Value

    def __init__(self, at: SlotRef, value: Value):
        super().__init__(at, value)


class DualCut(Record):
    __slots__ = ("actor", "target", "value", "success", "actor_slot", "target_key", "actor_key", "token")
    type = "dual_cut"
    actor: int
    target: SlotRef
    value: Value
    success: bool
    actor_slot: SlotRef | None  # success only
    target_key: Key | None  # printed keys seen after a success
    actor_key: Key | None
    token: Value | None  # failure only: the target's true value, None = no token

    def __init__(self, actor: int, target: SlotRef, value: Value, success: bool, actor_slot: SlotRef | None = None,
                 target_key: Key | None = None, actor_key: Key | None = None, token: Value | None = None):
        super().__init__(actor, target, value, success, actor_slot, target_key, actor_key, token)


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


Event = InfoToken | DualCut | SoloCut | RevealRed


class Table(Record):
    __slots__ = ("players", "deck", "me", "my_stands", "events")
    players: tuple[Player, ...]
    deck: Deck
    me: int | None  # observer's player index; None = public view
    my_stands: tuple[tuple[Key, ...], ...]
    events: tuple[Event, ...]

    def __init__(self, players: tuple[Player, ...], deck: Deck, me: int | None,
                 my_stands: tuple[tuple[Key, ...], ...], events: tuple[Event, ...]):
        super().__init__(players, deck, me, my_stands, events)

    def slots(self) -> list[SlotRef]:
        return [SlotRef(p, s, j) for p, pl in enumerate(self.players) for s, n in enumerate(pl.stands) for j in range(n)]

    def prefix(self, n_events: int) -> Table:
        return self.replace(events=self.events[:n_events])

    def public(self) -> Table:
        return self.replace(me=None, my_stands=())

    def cut_slots(self) -> set[SlotRef]:
        """Slots cut by the recorded events."""
        cut: set[SlotRef] = set()
        for e in self.events:
            cut.update(cut_by(e))
        return cut


def cut_by(event: Event) -> tuple[SlotRef, ...]:
    """The wires an event cuts (reveals face up)."""
    if isinstance(event, DualCut):
        return (event.target, event.actor_slot) if event.success and event.actor_slot else ()
    if isinstance(event, (SoloCut, RevealRed)):
        return event.slots
    return ()


# ---------------------------------------------------------------- parsing

def _fail(message: str, where: str, event: int | None = None) -> TableError:
    return TableError(f"{where}: {message}", event=event)


class _Reader:
    """Typed access to one JSON object, with errors that say where."""

    def __init__(self, obj: Any, where: str, event: int | None, allowed: set[str], required: set[str]):
        if not isinstance(obj, dict):
            raise _fail(f"expected an object, got {type(obj).__name__}", where, event)
        unknown = sorted(set(obj) - allowed)
        if unknown:
            raise _fail(f"unknown field {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})", where, event)
        missing = sorted(required - set(obj))
        if missing:
            raise _fail(f"missing field {missing[0]!r}", where, event)
        self.obj, self.where, self.event = obj, where, event

    def fail(self, name: str, message: str) -> TableError:
        return _fail(message, f"{self.where} field {name!r}", self.event)

    def int(self, name: str, lo: int, hi: int) -> int:
        v = self.obj[name]
        if not isinstance(v, int) or isinstance(v, bool):
            raise self.fail(name, f"expected an integer, got {v!r}")
        if not lo <= v < hi:
            raise self.fail(name, f"{v} is out of range (0..{hi - 1})" if lo == 0 else f"{v} is out of range ({lo}..{hi - 1})")
        return v

    def list(self, name: str) -> list[Any]:
        v = self.obj[name]
        if not isinstance(v, list):
            raise self.fail(name, f"expected a list, got {type(v).__name__}")
        return v

    def key(self, name: str, raw: Any) -> Key:
        try:
            return parse_key(raw)
        except WireError as e:
            raise self.fail(name, str(e)) from None


def load_table(obj: Any) -> Table:
    """Validate a decoded format-1 table file; raise :class:`TableError` when malformed."""
    top = _Reader(obj, "table", None, {"format", "meta", "players", "wires", "me", "events"}, {"players", "wires"})
    if "format" in obj and obj["format"] != FORMAT:
        raise top.fail("format", f"unsupported format {obj['format']!r} (this is format {FORMAT})")
    players = _parse_players(top)
    deck = _parse_wires(obj["wires"])
    dealt = sum(sum(p.stands) for p in players)
    if dealt != deck.in_play:
        raise top.fail("players", f"the stands hold {dealt} wires but {deck.in_play} are in play")
    me, my_stands = _parse_me(obj.get("me"), players, deck)
    table = Table(players, deck, me, my_stands, ())
    raw_events = top.list("events") if "events" in obj else []
    return table.replace(events=tuple(_EventParser(table).parse_all(raw_events)))


def _parse_players(top: _Reader) -> tuple[Player, ...]:
    raw = top.list("players")
    if not 2 <= len(raw) <= MAX_PLAYERS:
        raise top.fail("players", f"{len(raw)} players; the game has 2 to {MAX_PLAYERS}")
    players = []
    for i, p in enumerate(raw):
        r = _Reader(p, f"players[{i}]", None, {"name", "stands"}, {"stands"})
        name = p.get("name", f"Player {i + 1}")
        if not isinstance(name, str):
            raise r.fail("name", "expected a string")
        sizes = r.list("stands")
        if not 1 <= len(sizes) <= 2:
            raise r.fail("stands", f"a player has 1 or 2 stands, not {len(sizes)}")
        for n in sizes:
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 60:
                raise r.fail("stands", f"stand size {n!r} must be an integer 1..60")
        players.append(Player(name, tuple(sizes)))
    return tuple(players)


def _parse_wires(raw: Any) -> Deck:
    if isinstance(raw, dict) and "deck" in raw:
        r = _Reader(raw, "wires", None, {"deck"}, {"deck"})
        spec = raw["deck"]
        if not isinstance(spec, dict) or not spec:
            raise r.fail("deck", "expected a non-empty object {sort key: copies}")
        copies: dict[Key, int] = {}
        for k, n in spec.items():
            key = r.key("deck", k)
            if key in copies:
                raise r.fail("deck", f"sort key {k!r} is listed twice")
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 8:
                raise r.fail("deck", f"copies of {k!r} must be an integer 1..8, got {n!r}")
            copies[key] = n
        return Deck(copies)
    r = _Reader(raw, "wires", None, {"blue", "yellow", "red", "uncertain"}, {"blue"})
    copies = {}

    def add(name: str, raw_key: Any, want: str, n: int) -> Key:
        key = r.key(name, raw_key)
        if colour(key) != want:
            raise r.fail(name, f"{key_str(key)} is not a {want} sort key")
        if key in copies:
            raise r.fail(name, f"{key_str(key)} is listed twice")
        copies[key] = n
        return key

    for v in r.list("blue"):
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 99:
            raise r.fail("blue", f"blue value {v!r} must be an integer 1..99")
        add("blue", v, "blue", 4)
    for name, want in (("yellow", YELLOW), ("red", RED)):
        for k in r.list(name) if name in raw else []:
            add(name, k, want, 1)
    pools = []
    for i, pool in enumerate(r.list("uncertain") if "uncertain" in raw else []):
        pr = _Reader(pool, f"wires field 'uncertain'[{i}]", None, {"candidates", "count"}, {"candidates", "count"})
        cands = pr.list("candidates")
        if not cands:
            raise pr.fail("candidates", "expected at least one candidate")
        keys = []
        for k in cands:
            key = pr.key("candidates", k)
            if colour(key) == "blue":
                raise pr.fail("candidates", f"{key_str(key)} is blue; pools hold yellow or red wires")
            if key in copies:
                raise pr.fail("candidates", f"{key_str(key)} is already in play or in another pool")
            copies[key] = 1
            keys.append(key)
        pools.append(Pool(tuple(sorted(keys)), pr.int("count", 0, len(keys) + 1)))
    if not copies:
        raise r.fail("blue", "no wires in play")
    return Deck(copies, tuple(pools))


def _parse_me(raw: Any, players: tuple[Player, ...], deck: Deck) -> tuple[int | None, tuple[tuple[Key, ...], ...]]:
    if raw is None:
        return None, ()
    r = _Reader(raw, "me", None, {"player", "stands"}, {"player", "stands"})
    p = r.int("player", 0, len(players))
    stands = r.list("stands")
    sizes = players[p].stands
    if len(stands) != len(sizes):
        raise r.fail("stands", f"player {p} has {len(sizes)} stand(s), got {len(stands)}")
    mine: list[tuple[Key, ...]] = []
    used: dict[Key, int] = {}
    for s, (wires, n) in enumerate(zip(stands, sizes)):
        if not isinstance(wires, list) or len(wires) != n:
            raise r.fail("stands", f"stand {s} must list its {n} wires")
        keys = tuple(r.key("stands", k) for k in wires)
        if list(keys) != sorted(keys):
            raise r.fail("stands", f"stand {s} is not sorted ({', '.join(map(key_str, keys))})")
        for k in keys:
            if k not in deck.copies:
                raise r.fail("stands", f"{key_str(k)} is not in play")
            used[k] = used.get(k, 0) + 1
            if used[k] > deck.copies[k]:
                raise r.fail("stands", f"more {key_str(k)} than the {deck.copies[k]} in play")
        mine.append(keys)
    return p, tuple(mine)


class _EventParser:
    """Parses events in order, tracking which wires are cut so far."""

    def __init__(self, table: Table):
        self.table = table
        self.cut: set[SlotRef] = set()

    def parse_all(self, raw_events: list[Any]) -> list[Event]:
        events = []
        for i, raw in enumerate(raw_events):
            kind = raw.get("type") if isinstance(raw, dict) else None
            where = f"event {i} ({kind})" if isinstance(kind, str) else f"event {i}"
            parsers = {"info_token": self.info_token, "dual_cut": self.dual_cut,
                       "solo_cut": self.solo_cut, "reveal_red": self.reveal_red}
            parse = parsers.get(kind) if isinstance(kind, str) else None  # a list or object is unhashable
            if parse is None:
                if not isinstance(raw, dict):
                    raise _fail("expected an object", where, i)
                raise _fail(f"unknown type {kind!r} (info_token, dual_cut, solo_cut, reveal_red)", where + " field 'type'", i)
            event = parse(raw, where, i)
            self.cut.update(cut_by(event))
            events.append(event)
        return events

    # -- field helpers
    def slot(self, r: _Reader, name: str, raw: Any, player: int | None = None) -> SlotRef:
        """A full address, or a {stand, slot} address of ``player``."""
        fields = {"stand", "slot"} if player is not None else {"player", "stand", "slot"}
        sr = _Reader(raw, f"{r.where} field {name!r}", r.event, fields | ({"value"} if name == "slots" else set()), fields)
        p = player if player is not None else sr.int("player", 0, len(self.table.players))
        stands = self.table.players[p].stands
        s = sr.int("stand", 0, len(stands))
        return SlotRef(p, s, sr.int("slot", 0, stands[s]))

    def uncut(self, r: _Reader, name: str, slot: SlotRef) -> SlotRef:
        if slot in self.cut:
            raise r.fail(name, f"{slot} is already cut")
        return slot

    def value(self, r: _Reader, name: str, raw: Any) -> Value:
        try:
            v = parse_value(raw)
        except WireError as e:
            raise r.fail(name, str(e)) from None
        if not self.table.deck.keys_of_value(v):
            raise r.fail(name, f"{v!r} is not in play")
        return v

    # -- events
    def info_token(self, raw: Any, where: str, i: int) -> InfoToken:
        r = _Reader(raw, where, i, {"type", "at", "value"}, {"at", "value"})
        return InfoToken(self.slot(r, "at", raw["at"]), self.value(r, "value", raw["value"]))

    def dual_cut(self, raw: Any, where: str, i: int) -> DualCut:
        r = _Reader(raw, where, i, {"type", "actor", "target", "value", "success", "actor_slot", "keys", "token"},
                    {"actor", "target", "value", "success"})
        actor = r.int("actor", 0, len(self.table.players))
        target = self.uncut(r, "target", self.slot(r, "target", raw["target"]))
        if target.player == actor:
            raise r.fail("target", "a dual cut points at a teammate's wire, not the actor's own")
        value = self.value(r, "value", raw["value"])
        success = raw["success"]
        if not isinstance(success, bool):
            raise r.fail("success", f"expected true or false, got {success!r}")
        if success:
            if "token" in raw:
                raise r.fail("token", "only a failed dual cut places a token")
            if "actor_slot" not in raw:
                raise r.fail("actor_slot", "a successful dual cut names the actor's cut wire")
            actor_slot = self.uncut(r, "actor_slot", self.slot(r, "actor_slot", raw["actor_slot"], player=actor))
            target_key = actor_key = None
            if "keys" in raw:
                kr = _Reader(raw["keys"], f"{where} field 'keys'", i, {"target", "actor"}, set())
                keys = {}
                for side in ("target", "actor"):
                    if side in raw["keys"]:
                        k = kr.key(side, raw["keys"][side])
                        if k not in self.table.deck.keys_of_value(value):
                            raise kr.fail(side, f"{key_str(k)} does not have the called value {value!r}")
                        keys[side] = k
                target_key, actor_key = keys.get("target"), keys.get("actor")
            return DualCut(actor, target, value, True, actor_slot, target_key, actor_key)
        for name in ("actor_slot", "keys"):
            if name in raw:
                raise r.fail(name, "only a successful dual cut cuts the actor's wire")
        if "token" not in raw:
            raise r.fail("token", "a failed dual cut gives the token placed (the target's value) or null")
        token = None if raw["token"] is None else self.value(r, "token", raw["token"])
        if token == value:
            raise r.fail("token", f"the token equals the called value {value!r}, so the cut succeeded")
        return DualCut(actor, target, value, False, token=token)

    def solo_cut(self, raw: Any, where: str, i: int) -> SoloCut:
        r = _Reader(raw, where, i, {"type", "actor", "value", "slots"}, {"actor", "value", "slots"})
        actor = r.int("actor", 0, len(self.table.players))
        value = self.value(r, "value", raw["value"])
        slots = tuple(self.uncut(r, "slots", self.slot(r, "slots", s, player=actor)) for s in r.list("slots"))
        if not slots:
            raise r.fail("slots", "a solo cut cuts at least one wire")
        if len(set(slots)) != len(slots):
            raise r.fail("slots", "a wire is listed twice")
        return SoloCut(actor, value, slots)

    def reveal_red(self, raw: Any, where: str, i: int) -> RevealRed:
        r = _Reader(raw, where, i, {"type", "actor", "slots"}, {"actor", "slots"})
        actor = r.int("actor", 0, len(self.table.players))
        if not self.table.deck.keys_of_value(RED):
            raise r.fail("type", "no red wire is in play")
        slots, keys = [], []
        for s in r.list("slots"):
            slots.append(self.uncut(r, "slots", self.slot(r, "slots", s, player=actor)))
            key = r.key("slots", s["value"]) if "value" in s else None
            if key is not None and (colour(key) != RED or key not in self.table.deck.copies):
                raise r.fail("slots", f"{key_str(key)} is not a red wire in play")
            keys.append(key)
        if len(set(slots)) != len(slots):
            raise r.fail("slots", "a wire is listed twice")
        left = [s for s in self.table.slots() if s.player == actor and s not in self.cut and s not in slots]
        if left:
            raise r.fail("slots", f"revealing reds shows every uncut wire of the actor; {left[0]} is missing")
        return RevealRed(actor, tuple(slots), tuple(keys))
