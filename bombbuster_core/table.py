"""Table file, format 1: parse and validate a game record into typed events.

The format is documented in ``docs/table-format.md``.  Parsing is strict: an
unknown key, a wrong type or an out-of-range index raises :class:`TableError`
naming the event (index and type) and the field.  Bookkeeping that needs the
game's history (a wire cut twice, a dual cut on one's own stand, addresses
after a wire moved) is checked here too, by replaying the events on a
:class:`~bombbuster_core.board.Board`, so that the engines only ever see
well-formed histories.
"""
from __future__ import annotations

from . import equipment as eq
from .board import (FLIP, FLIP_HIGH, FLIP_LOW, FLIP_PAIR, PLAIN, SPECIAL_SLOTS, X_ANY, X_BLUE, Board, Segment, Wire,
                    segments_and_layout)
from .events import (Absent, Dealt, Detector, Disintegrator, DualCut, Equipment, Event, FastPass, InfoToken, Label,
                     Move, MultiCut, Radar, RevealRed, SlotRef, SoloCut, Swap, Token, Tripwire, cut_by, exploded)
from .missions import MISSIONS, mission as mission_card
from .public_state import StateReader
from .record import Record
from .wires import (MAX_NUMBER, RED, YELLOW, Deck, Key, Pool, Value, WireError, colour, key_str, parse_key,
                    parse_value, shown, value_of)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Absent", "Dealt", "Detector", "Disintegrator", "DualCut", "Equipment", "Event", "FastPass", "InfoToken", "Label",
           "Move", "MultiCut", "Player", "Radar", "RevealRed", "SlotRef", "SoloCut", "Swap", "Table", "TableError",
           "Token", "Tripwire", "Use", "cut_by", "exploded", "load_table"]

FORMAT = 1
MAX_PLAYERS = 5
# Equipment that tells nothing about wires (the `equipment` event); recorded for the dial,
# the turn order and the board: Rewinder, Emergency Batteries, Coffee Mug, False Bottom, Emergency Drop.
EQUIPMENT_WITHOUT_FACTS = ("6", "7", "11", "Y", "3.3")
# Events with no actor of their own name the card's user in "actor" (for "card": "character").
CARD_USER_FIELD = ("info_token", "radar", "label", "disintegrator", "move", "swap")
MAX_NANO = 8


class TableError(ValueError):
    """A malformed table file.  ``event`` is the event index, when one is at fault."""

    def __init__(self, message: str, *, event: int | None = None):
        super().__init__(message)
        self.event = event


class Player(Record):
    __slots__ = ("name", "stands", "shapes", "character")
    name: str
    stands: tuple[int, ...]  # stand sizes at the deal, special slots included
    shapes: tuple[str, ...]  # per stand: board.PLAIN, X_ANY, X_BLUE, FLIP, FLIP_PAIR, FLIP_LOW, FLIP_HIGH
    character: str  # equipment.CHARACTERS

    def __init__(self, name: str, stands: tuple[int, ...], shapes: tuple[str, ...] | None = None,
                 character: str = eq.DEFAULT_CHARACTER):
        super().__init__(name, stands, shapes if shapes is not None else (PLAIN,) * len(stands), character)


class Use(Record):
    """What one event spent: its ``card`` entries (IDs, "character", "mission") and who used them."""

    __slots__ = ("cards", "user")
    cards: tuple[str, ...]
    user: int | None

    def __init__(self, cards: tuple[str, ...] = (), user: int | None = None):
        super().__init__(cards, user)


class Table(Record):
    """A validated table.  ``my_stands`` is my hand as dealt (None: my own flipped wire);
    ``seen`` the other wires I have seen, by identity; ``red_value`` M11's blue value that
    counts as red; ``nano`` M43's pool size; ``equipment`` the cards on the board at the start
    (None: not listed, so not followed); ``uses`` what each event spent; ``mission`` the mission
    card's number from ``meta.mission`` (None: not given), read for the dial (dial.py) and for
    the equipment uses the mission grants (equipment.py)."""

    __slots__ = ("players", "deck", "me", "my_stands", "events", "nano", "red_value", "seen", "equipment", "uses",
                 "mission")
    players: tuple[Player, ...]
    deck: Deck
    me: int | None  # observer's player index; None = public view
    my_stands: tuple[tuple[Key | None, ...], ...]
    events: tuple[Event, ...]
    nano: int
    red_value: int | None
    seen: tuple[tuple[Wire, Key], ...]
    equipment: tuple[eq.CardId, ...] | None
    uses: tuple[Use, ...]
    mission: int | None

    def __init__(self, players: tuple[Player, ...], deck: Deck, me: int | None,
                 my_stands: tuple[tuple[Key | None, ...], ...], events: tuple[Event, ...], nano: int = 0,
                 red_value: int | None = None, seen: tuple[tuple[Wire, Key], ...] = (),
                 equipment: tuple[eq.CardId, ...] | None = None, uses: tuple[Use, ...] = (),
                 mission: int | None = None):
        super().__init__(players, deck, me, my_stands, events, nano, red_value, seen, equipment, uses, mission)

    def deal(self) -> tuple[list[Segment], list[list[list[Wire]]]]:
        """The deal's segments and every stand's wires at the deal (board.py)."""
        return segments_and_layout([list(zip(p.stands, p.shapes)) for p in self.players], self.nano)

    def board(self, n_events: int | None = None) -> Board:
        """The board after the first ``n_events`` events (all of them by default)."""
        board = Board(*self.deal())
        for e in self.events[:n_events]:
            advance(board, e)
        return board

    def slots(self) -> list[SlotRef]:
        """Every slot now on the table, in order."""
        board = self.board()
        return [SlotRef(p, s, j) for p, rows in enumerate(board.stands) for s, row in enumerate(rows)
                for j in range(len(row))]

    def cut_slots(self) -> set[SlotRef]:
        """The cut slots, by their current address."""
        board = self.board()
        return {SlotRef(p, s, j) for p, rows in enumerate(board.stands) for s, row in enumerate(rows)
                for j, w in enumerate(row) if w in board.cut}

    def prefix(self, n_events: int) -> Table:
        return self.replace(events=self.events[:n_events], uses=self.uses[:n_events])

    def mission_rules(self) -> frozenset[str] | None:
        """The tags of the table's mission at its player count (None: it names no mission)."""
        return None if self.mission is None else frozenset(mission_card(self.mission).rule_tags(len(self.players)))

    def equipment_board(self) -> eq.BoardState | None:
        """The cards on the board and the characters after every event (None: equipment not listed)."""
        if self.equipment is None:
            return None
        cut: dict[Value, int] = {}
        state = eq.BoardState(self.equipment, tuple(p.character for p in self.players), cut, self.mission_rules())
        for event, use in zip(self.events, self.uses):
            eq.apply(state, event, use.cards, use.user)
            for v in cut_values(event):
                cut[v] = cut.get(v, 0) + 1
        return state

    def public(self) -> Table:
        return self.replace(me=None, my_stands=(), seen=())


def advance(board: Board, event: Event) -> None:
    """Replay one event on the board: cut what it cuts, move what it moves."""
    if isinstance(event, Move):
        wire = board.take_nano() if event.source is None else board.remove(*_at(event.source))
        board.insert(*_at(event.to), wire)
        return
    if isinstance(event, Swap):
        a, b = _at(event.a), _at(event.b)
        wa, wb = board.remove(*a), board.remove(*b)
        board.insert(a[0], a[1], event.b_to, wb)
        board.insert(b[0], b[1], event.a_to, wa)
        return
    board.cut.update(board.wire(*_at(ref)) for ref in cut_by(event))


def _at(ref: SlotRef) -> tuple[int, int, int]:
    return ref.player, ref.stand, ref.slot


def cut_values(event: Event) -> list[Value]:
    """The gameplay value of each wire the event cuts (one value per event)."""
    cut = cut_by(event)
    if not cut:
        return []
    if isinstance(event, RevealRed):
        v: Value = RED
    elif isinstance(event, Tripwire):
        v = YELLOW
    else:
        v = event.value  # type: ignore[union-attr,assignment]
    return [v] * len(cut)


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

    def int(self, name: str, lo: int, hi: int, raw: Any = None) -> int:
        v = self.obj[name] if raw is None else raw
        if not isinstance(v, int) or isinstance(v, bool):
            raise self.fail(name, f"expected an integer, got {shown(v)}")
        if not lo <= v < hi:
            raise self.fail(name, f"{shown(v)} is out of range ({lo}..{hi - 1})")
        return v

    def bool(self, name: str) -> bool:
        v = self.obj[name]
        if not isinstance(v, bool):
            raise self.fail(name, f"expected true or false, got {v!r}")
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
    top = _Reader(obj, "table", None, {"format", "meta", "players", "wires", "me", "events", "nano", "equipment"},
                  {"players", "wires"})
    if "format" in obj and (type(obj["format"]) is not int or obj["format"] != FORMAT):
        raise top.fail("format", f"unsupported format {obj['format']!r} (this is format {FORMAT})")
    players = _parse_players(top)
    deck, red_value = _parse_wires(obj["wires"])
    nano = top.int("nano", 0, MAX_NANO + 1) if "nano" in obj else 0
    dealt = sum(sum(p.stands) for p in players) + nano
    if dealt != deck.in_play:
        held = f"the stands hold {dealt - nano} wires" + (f" and Nano {nano}" if nano else "")
        raise top.fail("players", f"{held} but {deck.in_play} are in play")
    table = Table(players, deck, None, (), (), nano, red_value,
                  equipment=_parse_equipment(top) if "equipment" in obj else None, mission=_parse_mission(top))
    me, my_stands, seen_raw = _parse_me(obj.get("me"), table)
    table = table.replace(me=me, my_stands=my_stands)
    parser = _EventParser(table, seen_raw)
    events = parser.parse_all(top.list("events") if "events" in obj else [])
    return table.replace(events=tuple(events), seen=tuple(parser.seen), uses=tuple(parser.uses))


def _parse_mission(top: _Reader) -> int | None:
    """``meta.mission``, the only part of ``meta`` the core reads (the dial's start and rules: dial.py);
    None when the table names no mission."""
    meta = top.obj.get("meta")
    if not isinstance(meta, dict) or meta.get("mission") is None:
        return None
    number = meta["mission"]
    if not isinstance(number, int) or isinstance(number, bool) or number not in MISSIONS:
        raise top.fail("meta", f"'mission' must be a mission card's number ({MISSIONS[0]}-{MISSIONS[-1]}) or null, "
                               f"got {shown(number)}")
    return number


def _parse_equipment(top: _Reader) -> tuple[eq.CardId, ...]:
    """``"equipment": [{"card": ID}, ...]``: the cards on the board at the start."""
    cards: list[eq.CardId] = []
    for i, raw in enumerate(top.list("equipment")):
        r = _Reader(raw, f"table field 'equipment'[{i}]", None, {"card"}, {"card"})
        try:
            card = eq.card_id(raw["card"])
        except eq.EquipmentError as e:
            raise r.fail("card", str(e)) from None
        if raw["card"] in eq.NAMED:
            raise r.fail("card", f"name the card by its printed ID ({card}), not {raw['card']!r}")
        if card in cards:
            raise r.fail("card", f"card {card} ({eq.CARDS[card].name}) is listed twice: the box has one of each")
        cards.append(card)
    return tuple(cards)


_SHAPES = {("x_slot", "any"): X_ANY, ("x_slot", "blue"): X_BLUE, ("flipped", 1): FLIP, ("flipped", 2): FLIP_PAIR,
           ("flipped", "low"): FLIP_LOW, ("flipped", "high"): FLIP_HIGH}


def _parse_players(top: _Reader) -> tuple[Player, ...]:
    raw = top.list("players")
    if not 2 <= len(raw) <= MAX_PLAYERS:
        raise top.fail("players", f"{len(raw)} players; the game has 2 to {MAX_PLAYERS}")
    players = []
    for i, p in enumerate(raw):
        r = _Reader(p, f"players[{i}]", None, {"name", "stands", "character"}, {"stands"})
        name = p.get("name", f"Player {i + 1}")
        if not isinstance(name, str):
            raise r.fail("name", "expected a string")
        character = p.get("character", eq.DEFAULT_CHARACTER)
        if not isinstance(character, str) or character not in eq.CHARACTERS:
            raise r.fail("character", f"{shown(character)} is not a character ({', '.join(eq.CHARACTERS)})")
        stands = r.list("stands")
        if not 1 <= len(stands) <= 2:
            raise r.fail("stands", f"a player has 1 or 2 stands, not {len(stands)}")
        sizes, shapes = [], []
        for s, st in enumerate(stands):
            size, shape = _parse_stand(r, s, st)
            sizes.append(size)
            shapes.append(shape)
        paired = sorted(x for x in shapes if x in (FLIP_LOW, FLIP_HIGH))
        if paired and (paired != [FLIP_HIGH, FLIP_LOW] or shapes != [FLIP_LOW, FLIP_HIGH]):
            raise r.fail("stands", 'a 2-stand M64 player has "flipped": "low" on stand 0 and "high" on stand 1')
        players.append(Player(name, tuple(sizes), tuple(shapes), character))
    return tuple(players)


def _parse_stand(r: _Reader, s: int, raw: Any) -> tuple[int, str]:
    if isinstance(raw, dict):
        sr = _Reader(raw, f"{r.where} field 'stands'[{s}]", None, {"size", "x_slot", "flipped"}, {"size"})
        options = [name for name in ("x_slot", "flipped") if name in raw]
        if len(options) != 1:
            raise sr.fail("size", 'a stand object has "size" and exactly one of "x_slot", "flipped"')
        name = options[0]
        value = raw[name]
        shape = _SHAPES.get((name, value)) if isinstance(value, (str, int)) and not isinstance(value, bool) else None
        if shape is None:
            allowed = '"any" or "blue"' if name == "x_slot" else '1, 2, "low" or "high"'
            raise sr.fail(name, f"{value!r} is not one of {allowed}")
        size = raw["size"]
    else:
        size, shape = raw, PLAIN
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= 60:
        raise r.fail("stands", f"stand size {size!r} must be an integer 1..60")
    if size <= SPECIAL_SLOTS[shape]:
        raise r.fail("stands", f"stand {s} of size {size} must hold more than its {SPECIAL_SLOTS[shape]} special slot(s)")
    return size, shape


def _parse_wires(raw: Any) -> tuple[Deck, int | None]:
    if isinstance(raw, dict) and "deck" in raw:
        r = _Reader(raw, "wires", None, {"deck", "counts_as_red"}, {"deck"})
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
        deck = Deck(copies)
        return deck, _counts_as_red(r, deck)
    r = _Reader(raw, "wires", None, {"blue", "yellow", "red", "uncertain", "counts_as_red"}, {"blue"})
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
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= MAX_NUMBER:
            raise r.fail("blue", f"blue value {shown(v)} must be an integer 1..{MAX_NUMBER}")
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
    deck = Deck(copies, tuple(pools))
    return deck, _counts_as_red(r, deck)


def _counts_as_red(r: _Reader, deck: Deck) -> int | None:
    if "counts_as_red" not in r.obj:
        return None
    v = r.obj["counts_as_red"]
    if not isinstance(v, int) or isinstance(v, bool) or 10 * v not in deck.copies:
        raise r.fail("counts_as_red", f"{shown(v)} is not a blue value in play")
    return v


def _parse_me(raw: Any, table: Table) -> tuple[int | None, tuple[tuple[Key | None, ...], ...], list[Any]]:
    if raw is None:
        return None, (), []
    players, deck = table.players, table.deck
    r = _Reader(raw, "me", None, {"player", "stands", "seen"}, {"player", "stands"})
    p = r.int("player", 0, len(players))
    stands = r.list("stands")
    sizes, shapes = players[p].stands, players[p].shapes
    if len(stands) != len(sizes):
        raise r.fail("stands", f"player {p} has {len(sizes)} stand(s), got {len(stands)}")
    segments, layout = table.deal()
    mine: list[tuple[Key | None, ...]] = []
    used: dict[Key, int] = {}
    for s, (wires, n) in enumerate(zip(stands, sizes)):
        if not isinstance(wires, list) or len(wires) != n:
            raise r.fail("stands", f"stand {s} must list its {n} wires")
        keys: list[Key | None] = []
        for j, k in enumerate(wires):
            seg = segments[layout[p][s][j][0]]
            if seg.flipped:
                if k is not None:
                    raise r.fail("stands", f"stand {s} slot {j} is my own flipped wire: I cannot see it, write null")
                keys.append(None)
                continue
            key = r.key("stands", k)
            if key not in deck.copies:
                raise r.fail("stands", f"{key_str(key)} is not in play (nearest: {deck.nearest(key)})")
            if seg.kind == "x" and shapes[s] == X_BLUE and colour(key) != "blue":
                raise r.fail("stands", f"stand {s} slot {j} is an X slot of blue wires; {key_str(key)} is not blue")
            used[key] = used.get(key, 0) + 1
            if used[key] > deck.copies[key]:
                raise r.fail("stands", f"more {key_str(key)} than the {deck.copies[key]} in play")
            keys.append(key)
        ordered = [k for j, k in enumerate(keys) if segments[layout[p][s][j][0]].kind == "main"]
        if ordered != sorted(ordered):  # type: ignore[type-var]
            raise r.fail("stands", f"stand {s} is not sorted ({', '.join(key_str(k) for k in ordered if k)})")
        mine.append(tuple(keys))
    seen = r.list("seen") if "seen" in raw else []
    return p, tuple(mine), seen


class _EventParser:
    """Parses events in order on a board of current positions and cuts."""

    def __init__(self, table: Table, seen_raw: list[Any]):
        self.table = table
        self.deck = table.deck
        self.board = table.board(0)
        self.cut_count: dict[Value, int] = {}  # wires cut so far, by gameplay value
        self.state = StateReader(table.mission, len(table.players))  # the public state: no event after a loss
        self.seen: list[tuple[Wire, Key]] = []
        self.uses: list[Use] = []
        self.board_cards = eq.BoardState(table.equipment, tuple(p.character for p in table.players), self.cut_count,
                                         table.mission_rules())
        self.seen_raw: dict[int | None, list[tuple[int, Any]]] = {}
        for i, entry in enumerate(seen_raw):
            r = _Reader(entry, f"me field 'seen'[{i}]", None, {"at", "value", "after"}, {"at", "value"})
            after = r.int("after", 0, 10**9) if "after" in entry else None
            self.seen_raw.setdefault(after, []).append((i, entry))

    def parse_all(self, raw_events: list[Any]) -> list[Event]:
        events = []
        self._resolve_seen(None)
        parsers = {"info_token": self.info_token, "dual_cut": self.dual_cut, "detector": self.detector,
                   "solo_cut": self.solo_cut, "reveal_red": self.reveal_red, "radar": self.radar, "label": self.label,
                   "fast_pass": self.fast_pass, "disintegrator": self.disintegrator, "move": self.move,
                   "swap": self.swap, "absent": self.absent, "dealt": self.dealt, "multi_cut": self.multi_cut,
                   "tripwire": self.tripwire, "equipment": self.equipment}
        for i, raw in enumerate(raw_events):
            kind = raw.get("type") if isinstance(raw, dict) else None
            where = f"event {i} ({kind})" if isinstance(kind, str) else f"event {i}"
            parse = parsers.get(kind) if isinstance(kind, str) else None  # a list or object is unhashable
            if parse is None:
                if not isinstance(raw, dict):
                    raise _fail("expected an object", where, i)
                if "type" not in raw:
                    raise _fail(f"missing field 'type' ({', '.join(parsers)})", where, i)
                raise _fail(f"unknown type {kind!r} ({', '.join(parsers)})", where + " field 'type'", i)
            over = self.state.refusal()
            if over is not None:
                raise _fail(over, where, i)
            spent: dict[str, Any] = {}
            if kind != "equipment" and "card" in raw:  # the equipment event's card is the card itself
                raw = dict(raw)
                spent["card"] = raw.pop("card")
                if kind in CARD_USER_FIELD and "actor" in raw:
                    spent["actor"] = raw.pop("actor")
            event = parse(raw, where, i)
            self.uses.append(self.spend(event, spent, where, i))
            for v in cut_values(event):
                self.cut_count[v] = self.cut_count.get(v, 0) + 1
            advance(self.board, event)
            self.state.step(i, event, self.board)
            events.append(event)
            self._resolve_seen(i)
        late = [after for after in self.seen_raw if after is not None and after >= len(raw_events)]
        if late:
            i, entry = self.seen_raw[late[0]][0]
            raise _fail(f"after {late[0]}: there are only {len(raw_events)} events", f"me field 'seen'[{i}] field 'after'")
        return events

    def spend(self, event: Event, spent: dict[str, Any], where: str, i: int) -> Use:
        """Check and record the equipment ``event`` uses (equipment.py); ``spent`` holds its
        ``card`` field (and, for events without an actor, ``actor``: who used the card)."""
        r = _Reader(spent, where, i, {"card", "actor"}, set())
        entries: list[str] = []
        raw = spent.get("card")
        for entry in raw if isinstance(raw, list) else [] if raw is None else [raw]:
            if entry in (eq.CHARACTER, eq.MISSION):
                entries.append(entry)
                continue
            if isinstance(entry, str) and entry in eq.NAMED:
                raise r.fail("card", f"name the card by its printed ID ({eq.NAMED[entry]}), not {entry!r}")
            try:
                entries.append(eq.card_id(entry))
            except eq.EquipmentError as e:
                raise r.fail("card", f"{e}, {eq.CHARACTER!r} or {eq.MISSION!r}") from None
        if "card" in spent and not entries:
            raise r.fail("card", "name at least one card")
        user = getattr(event, "actor", None)
        if "actor" in spent:
            user = r.int("actor", 0, len(self.table.players))
        if eq.CHARACTER in entries and user is None:
            raise r.fail("actor", 'a "character" use names the player whose character it is')
        try:
            eq.apply(self.board_cards, event, tuple(entries), user)
        except eq.EquipmentError as e:
            raise r.fail(e.field, str(e)) from None
        return Use(tuple(entries), user)

    def _resolve_seen(self, after: int | None) -> None:
        for i, entry in self.seen_raw.pop(after, []):
            r = _Reader(entry, f"me field 'seen'[{i}]", None, {"at", "value", "after"}, {"at", "value"})
            ref = self.slot(r, "at", entry["at"])
            key = r.key("value", entry["value"])
            if key not in self.deck.copies:
                raise r.fail("value", f"{key_str(key)} is not in play (nearest: {self.deck.nearest(key)})")
            wire = self.board.wire(ref.player, ref.stand, ref.slot)
            if self.table.me is not None and self.board.owner_flipped(wire, self.table.me):
                raise r.fail("at", f"{ref} is my own flipped wire: I cannot have seen it")
            self.seen.append((wire, key))

    # -- field helpers
    def slot(self, r: _Reader, name: str, raw: Any, player: int | None = None, *, extra: set[str] = frozenset(),
             insert: bool = False) -> SlotRef:
        """A full address, or a {stand, slot} address of ``player``, in the stands as they are now
        (``insert``: a place to insert at, one past the end allowed)."""
        fields = {"stand", "slot"} if player is not None else {"player", "stand", "slot"}
        sr = _Reader(raw, f"{r.where} field {name!r}", r.event, fields | set(extra), fields)
        p = player if player is not None else sr.int("player", 0, len(self.table.players))
        s = sr.int("stand", 0, len(self.table.players[p].stands))
        n = self.board.size(p, s)
        if not n and not insert:
            raise sr.fail("slot", f"player {p} stand {s} holds no wire now")
        return SlotRef(p, s, sr.int("slot", 0, n + (1 if insert else 0)))

    def wire(self, ref: SlotRef) -> Wire:
        return self.board.wire(ref.player, ref.stand, ref.slot)

    def uncut(self, r: _Reader, name: str, slot: SlotRef) -> SlotRef:
        if self.wire(slot) in self.board.cut:
            raise r.fail(name, f"{slot} is already cut")
        return slot

    def reachable(self, r: _Reader, name: str, slot: SlotRef) -> SlotRef:
        """Equipment never reaches an X or flipped wire."""
        if self.board.special(self.wire(slot)):
            raise r.fail(name, f"{slot} is an X or flipped wire, which equipment cannot reach")
        return slot

    def value(self, r: _Reader, name: str, raw: Any, *, red: bool = False, blue: bool = False) -> Value:
        try:
            v = parse_value(raw, allow_red=red)
        except WireError as e:
            raise r.fail(name, str(e)) from None
        if blue and not isinstance(v, int):
            raise r.fail(name, f"{v!r} is not a blue value")
        if not self.deck.keys_of_value(v):
            raise r.fail(name, f"{v!r} is not in play")
        return v

    def called(self, r: _Reader, raw: Any, *, blue: bool = False) -> tuple[Value, ...]:
        """``value`` or the X or Y ray's ``values`` (two different values)."""
        if ("value" in raw) == ("values" in raw):
            raise r.fail("value", 'give exactly one of "value" and "values" (X or Y ray)')
        if "value" in raw:
            values = (self.value(r, "value", raw["value"], blue=blue),)
        else:
            listed = r.list("values")
            if len(listed) != 2:
                raise r.fail("values", "the X or Y ray calls exactly two values")
            values = tuple(self.value(r, "values", v) for v in listed)
            if values[0] == values[1]:
                raise r.fail("values", "the X or Y ray calls two different values")
        for v in values:
            if v == self.table.red_value:
                raise r.fail("value" if len(values) == 1 else "values", f"{v} counts as red in this mission: nobody calls it")
        return values

    def token(self, r: _Reader, name: str, raw: Any, *, null: bool = True) -> Token | None:
        """A failure token: a true value, null, {"parity": ...} or {"count": ...}."""
        if raw is None:
            if not null:
                raise r.fail(name, "expected a token")
            return None
        if isinstance(raw, dict):
            tr = _Reader(raw, f"{r.where} field {name!r}", r.event, {"parity", "count"}, set())
            if len(raw) != 1:
                raise tr.fail("parity", 'a token object has exactly one of "parity", "count"')
            if "parity" in raw:
                if raw["parity"] not in ("even", "odd"):
                    raise tr.fail("parity", f'{raw["parity"]!r} is not "even" or "odd"')
                return Token("parity", raw["parity"])
            return Token("count", tr.int("count", 1, 4))
        return Token("value", self.value(r, name, raw))

    def actor(self, r: _Reader) -> int:
        return r.int("actor", 0, len(self.table.players))

    def explosion(self, r: _Reader, raw: Any, success: bool, *, forbidden: tuple[str, ...] = ()) -> bool:
        """The optional ``exploded`` flag; an explosion places no token and has no Stabilizer
        (which stops it).  A success explodes only where the caller says so (dual_cut)."""
        if "exploded" not in raw or not r.bool("exploded"):
            return False
        if success:
            raise r.fail("exploded", "a successful call does not explode (a red target is a failure with "
                                     '"exploded": true)')
        for name in forbidden:
            if name in raw:
                raise r.fail(name, "an explosion places no token" if name != "stabilizer" else
                             "with the Stabilizer a red target does not explode: record the token as null")
        return True

    def own_slots(self, r: _Reader, name: str, actor: int, *, equipment: bool = False) -> tuple[SlotRef, ...]:
        slots = []
        for raw in r.list(name):
            ref = self.uncut(r, name, self.slot(r, name, raw, player=actor))
            slots.append(self.reachable(r, name, ref) if equipment else ref)
        if len(set(slots)) != len(slots):
            raise r.fail(name, "a wire is listed twice")
        return tuple(slots)

    # -- events
    def info_token(self, raw: Any, where: str, i: int) -> InfoToken:
        r = _Reader(raw, where, i, {"type", "at", "value", "parity", "count", "false"}, {"at"})
        at = self.slot(r, "at", raw["at"])
        given = [name for name in ("value", "parity", "count") if name in raw]
        if len(given) != 1:
            raise r.fail("value", 'an info token has exactly one of "value", "parity", "count"')
        false = r.bool("false") if "false" in raw else False
        if false and given[0] != "value":
            raise r.fail("false", 'only a value token can be false ("value": v, "false": true)')
        name = given[0]
        token = self.token(r, name, raw[name] if name == "value" else {name: raw[name]}, null=False)
        assert token is not None
        if token.kind == "count" and self.board.special(self.wire(at)):
            raise r.fail("count", f"{at} is an X or flipped wire, outside its stand's counts")
        return InfoToken(at, token, false)

    def dual_cut(self, raw: Any, where: str, i: int) -> DualCut:
        r = _Reader(raw, where, i, {"type", "actor", "target", "value", "values", "success", "actor_slot", "keys",
                                    "token", "cut_value", "stabilizer", "exploded"}, {"actor", "target", "success"})
        actor = self.actor(r)
        target = self.uncut(r, "target", self.slot(r, "target", raw["target"]))
        if target.player == actor:
            raise r.fail("target", "a dual cut points at a teammate's wire, not the actor's own")
        values = self.called(r, raw)
        success = r.bool("success")
        stabilizer = r.bool("stabilizer") if "stabilizer" in raw else False
        if success:
            if "token" in raw:
                raise r.fail("token", "only a failed dual cut places a token")
            if "actor_slot" not in raw:
                raise r.fail("actor_slot", "a successful dual cut names the actor's cut wire")
            actor_slot = self.uncut(r, "actor_slot", self.slot(r, "actor_slot", raw["actor_slot"], player=actor))
            value = self.cut_value(r, raw, values)
            own_flipped = self.board.owner_flipped(self.wire(actor_slot), actor)
            if own_flipped and (stabilizer or len(values) > 1):
                raise r.fail("stabilizer" if stabilizer else "values",
                             "one's own flipped wire is cut by a normal cut with no equipment (M38)")
            if "exploded" in raw and r.bool("exploded"):
                # M38/M56: the target was the value, the actor's own flipped wire was not
                if not own_flipped:
                    raise r.fail("exploded", "on a successful call only the actor's own flipped wire (M38, M56), "
                                             "cut as actor_slot, can explode; a red target is a failure")
                if "keys" in raw:
                    raise r.fail("keys", "an explosion cuts nothing: no printed keys are shown")
                return DualCut(actor, target, values, True, actor_slot, value=value, exploded=True)
            target_key, actor_key = self.printed_keys(r, raw, value)
            return DualCut(actor, target, values, True, actor_slot, target_key, actor_key, value,
                           stabilizer=stabilizer)
        for name in ("actor_slot", "keys", "cut_value"):
            if name in raw:
                raise r.fail(name, "only a successful dual cut cuts wires")
        if self.explosion(r, raw, False, forbidden=("token", "stabilizer")):
            return DualCut(actor, target, values, False, exploded=True)
        if "token" not in raw:
            raise r.fail("token", "a failed dual cut gives the token placed (the target's value) or null, or "
                                  '"exploded": true (a red target)')
        token = self.token(r, "token", raw["token"])
        if token is not None and token.kind == "value" and token.arg in values:
            raise r.fail("token", f"the token equals the called value {token.arg!r}, so the cut succeeded")
        return DualCut(actor, target, values, False, token=token, stabilizer=stabilizer)

    def cut_value(self, r: _Reader, raw: Any, values: tuple[Value, ...]) -> Value:
        if len(values) == 1:
            if "cut_value" in raw:
                raise r.fail("cut_value", 'only the X or Y ray ("values") names the value cut')
            return values[0]
        if "cut_value" not in raw:
            raise r.fail("cut_value", "a successful X or Y ray names which of the two values was cut")
        v = self.value(r, "cut_value", raw["cut_value"])
        if v not in values:
            raise r.fail("cut_value", f"{v!r} is not one of the called values")
        return v

    def printed_keys(self, r: _Reader, raw: Any, value: Value) -> tuple[Key | None, Key | None]:
        if "keys" not in raw:
            return None, None
        kr = _Reader(raw["keys"], f"{r.where} field 'keys'", r.event, {"target", "actor"}, set())
        keys = {}
        for side in ("target", "actor"):
            if side in raw["keys"]:
                k = kr.key(side, raw["keys"][side])
                if k not in self.deck.keys_of_value(value):
                    raise kr.fail(side, f"{key_str(k)} does not have the cut value {value!r}")
                keys[side] = k
        return keys.get("target"), keys.get("actor")

    def detector(self, raw: Any, where: str, i: int) -> Detector:
        r = _Reader(raw, where, i, {"type", "actor", "kind", "targets", "value", "values", "success", "cut",
                                    "actor_slot", "cut_value", "token_at", "token", "stabilizer", "exploded"},
                    {"actor", "kind", "targets", "success"})
        actor = self.actor(r)
        kind = raw["kind"]
        if kind not in ("double", "triple", "super"):
            raise r.fail("kind", f'{kind!r} is not "double", "triple" or "super"')
        targets = []
        for t in r.list("targets"):
            targets.append(self.reachable(r, "targets", self.uncut(r, "targets", self.slot(r, "targets", t))))
        if not targets:
            raise r.fail("targets", "a detector points at wires")
        if len(set(targets)) != len(targets):
            raise r.fail("targets", "a wire is listed twice")
        q, s = targets[0].player, targets[0].stand
        if any((t.player, t.stand) != (q, s) for t in targets):
            raise r.fail("targets", "a detector's targets are all on one stand")
        if q == actor:
            raise r.fail("targets", "a detector points at a teammate's stand, not the actor's own")
        if kind == "super":
            every = sorted(SlotRef(q, s, j) for j, w in enumerate(self.board.stands[q][s])
                           if w not in self.board.cut and not self.board.special(w))
            if sorted(targets) != every:
                raise r.fail("targets", f"the Super Detector points at every uncut wire of player {q} stand {s} "
                                        f"({len(every)}, X/flipped ones excepted)")
        elif len(targets) != {"double": 2, "triple": 3}[kind]:
            raise r.fail("targets", f"a {kind} detector points at {2 if kind == 'double' else 3} wires")
        values = self.called(r, raw, blue="values" not in raw)
        success = r.bool("success")
        stabilizer = r.bool("stabilizer") if "stabilizer" in raw else False
        boom = self.explosion(r, raw, success, forbidden=("token", "token_at", "stabilizer"))
        if success:
            for name in ("token", "token_at"):
                if name in raw:
                    raise r.fail(name, "only a failed detector places a token")
            for name in ("cut", "actor_slot"):
                if name not in raw:
                    raise r.fail(name, "a successful detector names the target cut and the actor's cut wire")
            cut = self.slot(r, "cut", raw["cut"])
            if cut not in targets:
                raise r.fail("cut", f"{cut} is not one of the targets")
            actor_slot = self.uncut(r, "actor_slot", self.slot(r, "actor_slot", raw["actor_slot"], player=actor))
            if self.board.owner_flipped(self.wire(actor_slot), actor):
                raise r.fail("actor_slot", "one's own flipped wire is cut by a normal cut with no equipment (M38)")
            return Detector(actor, kind, tuple(targets), values, True, cut, actor_slot, self.cut_value(r, raw, values),
                            stabilizer=stabilizer)
        for name in ("cut", "actor_slot", "cut_value"):
            if name in raw:
                raise r.fail(name, "only a successful detector cuts wires")
        if boom:
            return Detector(actor, kind, tuple(targets), values, False, exploded=True)
        if "token" not in raw:
            raise r.fail("token", 'a failed detector gives the token placed or null, or "exploded": true (every '
                                  "target red)")
        token = self.token(r, "token", raw["token"])
        token_at = None
        if token is None:
            if "token_at" in raw:
                raise r.fail("token_at", "no token was placed (token null)")
        else:
            if "token_at" not in raw:
                raise r.fail("token_at", "a failed detector names the wire that carries the token")
            token_at = self.slot(r, "token_at", raw["token_at"])
            if token_at not in targets:
                raise r.fail("token_at", f"{token_at} is not one of the targets")
            if token.kind == "value" and token.arg in values:
                raise r.fail("token", f"the token equals the called value {token.arg!r}, so the detector succeeded")
        return Detector(actor, kind, tuple(targets), values, False, token_at=token_at, token=token,
                        stabilizer=stabilizer)

    def solo_cut(self, raw: Any, where: str, i: int) -> SoloCut:
        r = _Reader(raw, where, i, {"type", "actor", "value", "slots"}, {"actor", "value", "slots"})
        actor = self.actor(r)
        value = self.value(r, "value", raw["value"])
        slots = self.own_slots(r, "slots", actor)
        if not slots:
            raise r.fail("slots", "a solo cut cuts at least one wire")
        if value == RED or value == self.table.red_value:
            raise r.fail("value", "red wires are revealed (reveal_red), not cut")
        left = self.remaining(value)
        if left is not None and len(slots) != left:
            raise r.fail("slots", f"a solo cut cuts every remaining {value} wire: {left} are left, not {len(slots)}")
        if isinstance(value, int) and self.deck.copies[10 * value] == 4 and len(slots) not in (2, 4):
            raise r.fail("slots", "a solo cut of a blue value cuts 2 or 4 wires")
        return SoloCut(actor, value, slots)

    def remaining(self, value: Value) -> int | None:
        """Wires of this gameplay value in play and not yet cut (None: unknown, a pool mixes colours)."""
        pooled = {k for pool in self.deck.pools for k in pool.candidates}
        in_play = sum(self.deck.copies[k] for k in self.deck.keys_of_value(value) if k not in pooled)
        for pool in self.deck.pools:
            mine = [k for k in pool.candidates if value_of(k) == value]
            if mine and len(mine) < len(pool.candidates):
                return None
            in_play += pool.count if mine else 0
        return in_play - self.cut_count.get(value, 0)

    def reveal_red(self, raw: Any, where: str, i: int) -> RevealRed:
        r = _Reader(raw, where, i, {"type", "actor", "slots"}, {"actor", "slots"})
        actor = self.actor(r)
        if not self.deck.keys_of_value(RED) and self.table.red_value is None:
            raise r.fail("type", "no red wire is in play")
        slots, keys = [], []
        for s in r.list("slots"):
            slots.append(self.uncut(r, "slots", self.slot(r, "slots", s, player=actor, extra={"value"})))
            key = r.key("slots", s["value"]) if "value" in s else None
            if key is not None and key not in self.deck.copies:
                raise r.fail("slots", f"{key_str(key)} is not in play (nearest: {self.deck.nearest(key)})")
            if key is not None and colour(key) != RED and value_of(key) != self.table.red_value:
                raise r.fail("slots", f"{key_str(key)} is not a red wire")
            keys.append(key)
        if len(set(slots)) != len(slots):
            raise r.fail("slots", "a wire is listed twice")
        wires = {self.wire(s) for s in slots}
        left = [w for w in self.board.uncut(actor) if w not in wires]
        if left:
            p, s, j = self.board.address(left[0])  # type: ignore[misc]
            raise r.fail("slots", f"revealing reds shows every uncut wire of the actor; {SlotRef(p, s, j)} is missing")
        return RevealRed(actor, tuple(slots), tuple(keys))

    def radar(self, raw: Any, where: str, i: int) -> Radar:
        r = _Reader(raw, where, i, {"type", "value", "answers"}, {"value", "answers"})
        value = self.value(r, "value", raw["value"], blue=True)
        answers = r.list("answers")
        if len(answers) != len(self.table.players):
            raise r.fail("answers", f"one list of answers per player ({len(self.table.players)})")
        out = []
        for p, row in enumerate(answers):
            n = len(self.table.players[p].stands)
            if not isinstance(row, list) or len(row) != n or not all(isinstance(a, bool) for a in row):
                raise r.fail("answers", f"player {p}: expected {n} answer(s), true or false per stand")
            out.append(tuple(row))
        return Radar(value, tuple(out))  # type: ignore[arg-type]

    def label(self, raw: Any, where: str, i: int) -> Label:
        r = _Reader(raw, where, i, {"type", "kind", "at"}, {"kind", "at"})
        if raw["kind"] not in ("equal", "different"):
            raise r.fail("kind", f'{raw["kind"]!r} is not "equal" or "different"')
        at = self.reachable(r, "at", self.slot(r, "at", raw["at"]))
        if at.slot + 1 >= self.board.size(at.player, at.stand):
            raise r.fail("at", f"{at} has no right neighbour")
        self.reachable(r, "at", SlotRef(at.player, at.stand, at.slot + 1))
        return Label(at, raw["kind"] == "equal")

    def fast_pass(self, raw: Any, where: str, i: int) -> FastPass:
        r = _Reader(raw, where, i, {"type", "actor", "value", "slots"}, {"actor", "value", "slots"})
        actor = self.actor(r)
        value = self.value(r, "value", raw["value"])
        if value == self.table.red_value:
            raise r.fail("value", f"{value} counts as red in this mission")
        slots = self.own_slots(r, "slots", actor, equipment=True)
        if len(slots) != 2:
            raise r.fail("slots", "the Fast Pass cuts exactly 2 wires")
        return FastPass(actor, value, slots)

    def disintegrator(self, raw: Any, where: str, i: int) -> Disintegrator:
        r = _Reader(raw, where, i, {"type", "value", "slots"}, {"value", "slots"})
        value = self.value(r, "value", raw["value"])
        slots = []
        for s in r.list("slots"):
            slots.append(self.reachable(r, "slots", self.uncut(r, "slots", self.slot(r, "slots", s))))
        if len(set(slots)) != len(slots):
            raise r.fail("slots", "a wire is listed twice")
        return Disintegrator(value, tuple(slots))

    def move(self, raw: Any, where: str, i: int) -> Move:
        r = _Reader(raw, where, i, {"type", "from", "to"}, {"from", "to"})
        if raw["from"] == "nano":
            if not self.board.nano:
                raise r.fail("from", "Nano has no wire left" if self.table.nano else "this table has no Nano")
            source = None
        else:
            source = self.reachable(r, "from", self.uncut(r, "from", self.slot(r, "from", raw["from"])))
        tr = _Reader(raw["to"], f"{where} field 'to'", i, {"player", "stand", "slot"}, {"player", "stand", "slot"})
        p = tr.int("player", 0, len(self.table.players))
        s = tr.int("stand", 0, len(self.table.players[p].stands))
        if source is not None and source.player == p:
            raise r.fail("to", "a wire moves to another player's stand")
        room = self.board.size(p, s) + 1
        return Move(source, SlotRef(p, s, tr.int("slot", 0, room)))

    def swap(self, raw: Any, where: str, i: int) -> Swap:
        r = _Reader(raw, where, i, {"type", "a", "b", "a_to", "b_to"}, {"a", "b", "a_to", "b_to"})
        a = self.reachable(r, "a", self.uncut(r, "a", self.slot(r, "a", raw["a"])))
        b = self.reachable(r, "b", self.uncut(r, "b", self.slot(r, "b", raw["b"])))
        if a.player == b.player:
            raise r.fail("b", "Walkie-Talkies swap wires between two players")
        # After the swap each stand holds as many wires as before.
        a_to = r.int("a_to", 0, self.board.size(b.player, b.stand))
        b_to = r.int("b_to", 0, self.board.size(a.player, a.stand))
        return Swap(a, b, a_to, b_to)

    def absent(self, raw: Any, where: str, i: int) -> Absent:
        r = _Reader(raw, where, i, {"type", "player", "values", "stand"}, {"player", "values"})
        p = r.int("player", 0, len(self.table.players))
        stand = r.int("stand", 0, len(self.table.players[p].stands)) if "stand" in raw else None
        values = tuple(self.value(r, "values", v, red=True) for v in r.list("values"))
        if not values:
            raise r.fail("values", "name at least one value")
        if len(set(values)) != len(values):
            raise r.fail("values", "a value is listed twice")
        return Absent(p, values, stand)

    def dealt(self, raw: Any, where: str, i: int) -> Dealt:
        r = _Reader(raw, where, i, {"type", "player", "stand", "value", "count"}, {"player", "value", "count"})
        p = r.int("player", 0, len(self.table.players))
        stand = r.int("stand", 0, len(self.table.players[p].stands)) if "stand" in raw else None
        if raw["value"] not in (RED, YELLOW):
            raise r.fail("value", f'{raw["value"]!r} is not "red" or "yellow"')
        size = sum(self.table.players[p].stands) if stand is None else self.table.players[p].stands[stand]
        return Dealt(p, raw["value"], r.int("count", 0, size + 1), stand)

    def multi_cut(self, raw: Any, where: str, i: int) -> MultiCut:
        r = _Reader(raw, where, i, {"type", "actor", "value", "slots", "success", "tokens", "exploded"},
                    {"actor", "value", "slots", "success"})
        actor = self.actor(r)
        value = self.value(r, "value", raw["value"], red=True)
        slots = []
        for s in r.list("slots"):
            slots.append(self.uncut(r, "slots", self.slot(r, "slots", s)))
        if not slots:
            raise r.fail("slots", "a simultaneous cut points at wires")
        if len(set(slots)) != len(slots):
            raise r.fail("slots", "a wire is listed twice")
        success = r.bool("success")
        if self.explosion(r, raw, success, forbidden=("tokens",)):  # M48's yellows: a red among them
            return MultiCut(actor, value, tuple(slots), False, exploded=True)
        if success:
            if "tokens" in raw:
                raise r.fail("tokens", "only a failed simultaneous cut (M48) places tokens")
            return MultiCut(actor, value, tuple(slots), True)
        if "tokens" not in raw:
            raise r.fail("tokens", 'a failed simultaneous cut places a true token on every wire (M48) or explodes '
                                   '("exploded": true: M13, M23, M39, M46)')
        tokens = tuple(self.value(r, "tokens", t) for t in r.list("tokens"))
        if len(tokens) != len(slots):
            raise r.fail("tokens", f"one token per wire ({len(slots)})")
        if all(t == value for t in tokens):
            raise r.fail("tokens", f"every token says {value!r}, so the cut succeeded")
        return MultiCut(actor, value, tuple(slots), False, tokens)

    def tripwire(self, raw: Any, where: str, i: int) -> Tripwire:
        r = _Reader(raw, where, i, {"type", "actor", "target", "success", "token", "exploded"},
                    {"actor", "target", "success"})
        actor = self.actor(r)
        target = self.uncut(r, "target", self.slot(r, "target", raw["target"]))
        if target.player == actor:
            raise r.fail("target", "a tripwire call points at a teammate's wire")
        if not self.deck.keys_of_value(YELLOW):
            raise r.fail("type", "no yellow wire is in play")
        success = r.bool("success")
        if self.explosion(r, raw, success, forbidden=("token",)):
            return Tripwire(actor, target, False, exploded=True)
        if success:
            if "token" in raw:
                raise r.fail("token", "only a failed call places a token")
            return Tripwire(actor, target, True)
        if "token" not in raw:
            raise r.fail("token", 'a failed tripwire call places the target\'s true blue value, or "exploded": true '
                                  "(a red target)")
        return Tripwire(actor, target, False, self.value(r, "token", raw["token"], blue=True))

    def equipment(self, raw: Any, where: str, i: int) -> Equipment:
        r = _Reader(raw, where, i, {"type", "card", "actor", "next", "added", "characters"}, {"card"})
        try:
            card = eq.card_id(raw["card"])
        except eq.EquipmentError as e:
            raise r.fail("card", str(e)) from None
        if card not in EQUIPMENT_WITHOUT_FACTS:
            names = ", ".join(f"{c} ({eq.CARDS[c].name})" for c in EQUIPMENT_WITHOUT_FACTS)
            raise r.fail("card", f"card {card} ({eq.CARDS[card].name}) is not one of {names}: cards that reveal "
                                 "something have their own events")
        actor = self.actor(r) if "actor" in raw else None
        listed = self.table.equipment is not None  # the board is followed: say what changed on it
        fields = {"11": "next", eq.FALSE_BOTTOM: "added", "7": "characters"}
        for name in ("next", "added", "characters"):
            if name in raw and fields.get(card) != name:
                owner = next(c for c, f in fields.items() if f == name)
                raise r.fail(name, f"only card {owner} ({eq.CARDS[owner].name}) has {name!r}")
        if card == "11":
            if "next" not in raw:
                raise r.fail("next", "the Coffee Mug names the next player")
            return Equipment(card, actor, r.int("next", 0, len(self.table.players)))
        if card == eq.FALSE_BOTTOM and ("added" in raw or listed):
            if "added" not in raw:
                raise r.fail("added", "False Bottom adds 2 cards to the board: name them")
            added = []
            for entry in r.list("added"):
                try:
                    added.append(eq.card_id(entry, "added"))
                except eq.EquipmentError as e:
                    raise r.fail("added", str(e)) from None
            if len(added) != 2 or len(set(added)) != 2:
                raise r.fail("added", "False Bottom adds 2 different cards")
            return Equipment(card, actor, added=tuple(added))
        if card == "7" and ("characters" in raw or listed):
            if "characters" not in raw:
                raise r.fail("characters", "Emergency Batteries name the 1 or 2 players whose character they "
                                           "re-enable")
            players = [r.int("characters", 0, len(self.table.players), p) for p in r.list("characters")]
            if not 1 <= len(players) <= 2 or len(set(players)) != len(players):
                raise r.fail("characters", "Emergency Batteries re-enable 1 or 2 different players' characters")
            return Equipment(card, actor, recharged=tuple(players))
        return Equipment(card, actor)
