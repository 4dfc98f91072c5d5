"""Table file, format 1: read a game record into a :class:`~bombbuster_core.table_model.Table`.

The format is documented in ``docs/table-format.md``.  Reading is strict: an
unknown key, a wrong type or an out-of-range index raises :class:`TableError`
naming the event (index and type) and the field.  This module reads the
file's sections (the players and their stands, the wires in play, my hand,
the mission, the equipment on the board); the events are parsed and checked
against the game's history by table_events.py.  The names callers use
(``load_table``, the table's values and the events) are all importable from
here.
"""
from __future__ import annotations

from . import equipment as eq
from .board import FLIP, FLIP_HIGH, FLIP_LOW, FLIP_PAIR, PLAIN, SPECIAL_SLOTS, X_ANY, X_BLUE
from .events import (Absent, Dealt, Detector, Disintegrator, DualCut, Equipment, Event, FastPass, InfoToken, Label,
                     Move, MultiCut, Radar, RevealRed, SlotRef, SoloCut, Swap, Token, Tripwire, cut_by, exploded)
from .missions import EQUIPMENT_COVERED, MISSIONS, NUMBER_CARDS
from .table_events import EventParser
from .table_fields import FieldReader, TableError, address, quoted
from .table_model import Player, Table, Use
from .wires import MAX_NUMBER, RED, YELLOW, Deck, Key, Pool, colour, key_str, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Absent", "Dealt", "Detector", "Disintegrator", "DualCut", "Equipment", "Event", "FastPass", "InfoToken", "Label",
           "Move", "MultiCut", "Player", "Radar", "RevealRed", "SlotRef", "SoloCut", "Swap", "Table", "TableError",
           "Token", "Tripwire", "Use", "cut_by", "exploded", "load_table"]

FORMAT = 1
MAX_PLAYERS = 5
MAX_NANO = 8


def load_table(obj: Any) -> Table:
    """Validate a decoded format-1 table file; raise :class:`TableError` when malformed."""
    top = FieldReader(obj, "table", (), None, {"format", "meta", "players", "wires", "me", "events", "nano",
                                           "equipment"}, {"players", "wires"})
    if "format" in obj and (type(obj["format"]) is not int or obj["format"] != FORMAT):
        raise top.fail("format", "format_unsupported", f"unsupported format {obj['format']!r} (this is format {FORMAT})",
                       given=quoted(obj["format"]), format=FORMAT)
    players = _parse_players(top)
    deck, red_value = _parse_wires(obj["wires"])
    nano = top.int("nano", 0, MAX_NANO + 1) if "nano" in obj else 0
    dealt = sum(sum(p.stands) for p in players) + nano
    if dealt != deck.in_play:
        held = f"the stands hold {dealt - nano} wires" + (f" and Nano {nano}" if nano else "")
        raise top.fail("players", "wire_count_mismatch", f"{held} but {deck.in_play} are in play",
                       stands=dealt - nano, nano=nano, in_play=deck.in_play)
    mission = _parse_mission(top)
    cards, covers = _parse_equipment(top, mission) if "equipment" in obj else (None, ())
    table = Table(players, deck, None, (), (), nano, red_value, equipment=cards, mission=mission, covers=covers)
    me, my_stands, seen_raw = _parse_me(obj.get("me"), table)
    table = table.replace(me=me, my_stands=my_stands)
    parser = EventParser(table, seen_raw)
    events = parser.parse_all(top.list("events") if "events" in obj else [])
    return table.replace(events=tuple(events), seen=tuple(parser.seen), uses=tuple(parser.uses))


def _parse_mission(top: FieldReader) -> int | None:
    """``meta.mission``, the only part of ``meta`` the core reads (the dial's start and rules: public_state.py);
    None when the table names no mission."""
    meta = top.obj.get("meta")
    if not isinstance(meta, dict) or meta.get("mission") is None:
        return None
    number = meta["mission"]
    if not isinstance(number, int) or isinstance(number, bool) or number not in MISSIONS:
        raise top.fail("meta", "mission_unknown", f"'mission' must be a mission card's number ({MISSIONS[0]}-"
                       f"{MISSIONS[-1]}) or null, got {shown(number)}", given=quoted(number), low=MISSIONS[0],
                       high=MISSIONS[-1])
    return number


def _parse_equipment(top: FieldReader, mission: int | None) -> tuple[tuple[eq.CardId, ...],
                                                                      tuple[tuple[eq.CardId, int], ...]]:
    """``"equipment": [{"card": ID}, ...]``: the cards on the board at the start, and in M12 the Number
    card covering each (``"cover"``: its value, missions.EQUIPMENT_COVERED; equipment.py reads the rule)."""
    cards: list[eq.CardId] = []
    covers: list[tuple[eq.CardId, int]] = []
    covered = mission in EQUIPMENT_COVERED
    for i, raw in enumerate(top.list("equipment")):
        r = top.child("equipment", raw, {"card", "cover"}, {"card"}, i)
        try:
            card = eq.card_id(raw["card"])
        except eq.EquipmentError as e:
            raise r.fail("card", e.code, str(e), **e.fields) from None
        if raw["card"] in eq.NAMED:
            raise r.fail("card", "card_by_name", f"name the card by its printed ID ({card}), not {raw['card']!r}",
                         card=card, given=quoted(raw["card"]))
        if card in cards:
            raise r.fail("card", "card_listed_twice",
                         f"card {card} ({eq.CARDS[card].name}) is listed twice: the box has one of each", card=card)
        cards.append(card)
        if covered:
            covers.append((card, _parse_cover(r, card, mission, covers)))
        elif "cover" in raw:
            raise r.fail("cover", "cover_not_mission", "only mission 12 covers its Equipment cards with Number "
                         f"cards (this table's mission: {shown(mission)})", card=card, mission=mission)
    return tuple(cards), tuple(covers)


def _parse_cover(r: FieldReader, card: eq.CardId, mission: int | None,
                 covers: list[tuple[eq.CardId, int]]) -> int:
    """The value of the Number card covering ``card`` (M12): one card of each value 1-12 in the box."""
    if "cover" not in r.obj:
        raise r.fail("cover", "cover_missing", f"mission {mission}: a Number card covers card {card} "
                     f"({eq.CARDS[card].name}) from the setup: give its value ({NUMBER_CARDS[0]}-{NUMBER_CARDS[-1]})",
                     card=card, mission=mission, low=NUMBER_CARDS[0], high=NUMBER_CARDS[-1])
    value = r.int("cover", NUMBER_CARDS[0], NUMBER_CARDS[-1] + 1)
    other = next((c for c, v in covers if v == value), None)
    if other is not None:
        raise r.fail("cover", "cover_listed_twice", f"the Number card {value} already covers card {other} "
                     f"({eq.CARDS[other].name}): the box has one of each", value=value, card=other)
    return value


_SHAPES = {("x_slot", "any"): X_ANY, ("x_slot", "blue"): X_BLUE, ("flipped", 1): FLIP, ("flipped", 2): FLIP_PAIR,
           ("flipped", "low"): FLIP_LOW, ("flipped", "high"): FLIP_HIGH}


def _parse_players(top: FieldReader) -> tuple[Player, ...]:
    raw = top.list("players")
    if not 2 <= len(raw) <= MAX_PLAYERS:
        raise top.fail("players", "player_count", f"{len(raw)} players; the game has 2 to {MAX_PLAYERS}",
                       count=len(raw), low=2, high=MAX_PLAYERS)
    players = []
    for i, p in enumerate(raw):
        r = FieldReader(p, f"players[{i}]", ("players", i), None, {"name", "stands", "character"}, {"stands"})
        name = p.get("name", f"Player {i + 1}")
        if not isinstance(name, str):
            raise r.fail("name", "expected_string", "expected a string")
        character = p.get("character", eq.DEFAULT_CHARACTER)
        if not isinstance(character, str) or character not in eq.CHARACTERS:
            raise r.fail("character", "character_unknown",
                         f"{shown(character)} is not a character ({', '.join(eq.CHARACTERS)})",
                         given=quoted(character), allowed=list(eq.CHARACTERS))
        stands = r.list("stands")
        if not 1 <= len(stands) <= 2:
            raise r.fail("stands", "stand_count", f"a player has 1 or 2 stands, not {len(stands)}",
                         player=i, count=len(stands))
        sizes, shapes = [], []
        for s, st in enumerate(stands):
            size, shape = _parse_stand(r, i, s, st)
            sizes.append(size)
            shapes.append(shape)
        paired = sorted(x for x in shapes if x in (FLIP_LOW, FLIP_HIGH))
        if paired and (paired != [FLIP_HIGH, FLIP_LOW] or shapes != [FLIP_LOW, FLIP_HIGH]):
            raise r.fail("stands", "stands_flipped_pair",
                         'a 2-stand M64 player has "flipped": "low" on stand 0 and "high" on stand 1', player=i)
        players.append(Player(name, tuple(sizes), tuple(shapes), character))
    return tuple(players)


def _parse_stand(r: FieldReader, player: int, s: int, raw: Any) -> tuple[int, str]:
    if isinstance(raw, dict):
        sr = r.child("stands", raw, {"size", "x_slot", "flipped"}, {"size"}, s)
        options = [name for name in ("x_slot", "flipped") if name in raw]
        if len(options) != 1:
            raise sr.fail("size", "stand_shape_missing", 'a stand object has "size" and exactly one of "x_slot", "flipped"')
        name = options[0]
        value = raw[name]
        shape = _SHAPES.get((name, value)) if isinstance(value, (str, int)) and not isinstance(value, bool) else None
        if shape is None:
            allowed = '"any" or "blue"' if name == "x_slot" else '1, 2, "low" or "high"'
            raise sr.fail(name, "stand_shape_unknown", f"{value!r} is not one of {allowed}", given=quoted(value),
                          allowed=[v for (option, v) in _SHAPES if option == name])
        size = raw["size"]
    else:
        size, shape = raw, PLAIN
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= 60:
        raise r.fail("stands", "stand_size", f"stand size {size!r} must be an integer 1..60", player=player, stand=s,
                     given=quoted(size), low=1, high=60)
    if size <= SPECIAL_SLOTS[shape]:
        raise r.fail("stands", "stand_too_small",
                     f"stand {s} of size {size} must hold more than its {SPECIAL_SLOTS[shape]} special slot(s)",
                     player=player, stand=s, size=size, special=SPECIAL_SLOTS[shape])
    return size, shape


def _parse_wires(raw: Any) -> tuple[Deck, int | None]:
    if isinstance(raw, dict) and "deck" in raw:
        r = FieldReader(raw, "wires", ("wires",), None, {"deck", "counts_as_red"}, {"deck"})
        spec = raw["deck"]
        if not isinstance(spec, dict) or not spec:
            raise r.fail("deck", "deck_empty", "expected a non-empty object {sort key: copies}")
        copies: dict[Key, int] = {}
        for k, n in spec.items():
            key = r.key("deck", k)
            if key in copies:
                raise r.fail("deck", "key_listed_twice", f"sort key {k!r} is listed twice", key=key_str(key))
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 8:
                raise r.fail("deck", "deck_copies", f"copies of {k!r} must be an integer 1..8, got {n!r}",
                             key=key_str(key), given=quoted(n), low=1, high=8)
            copies[key] = n
        deck = Deck(copies)
        return deck, _counts_as_red(r, deck)
    r = FieldReader(raw, "wires", ("wires",), None, {"blue", "yellow", "red", "uncertain", "counts_as_red"}, {"blue"})
    copies = {}

    def add(name: str, raw_key: Any, want: str, n: int) -> Key:
        key = r.key(name, raw_key)
        if colour(key) != want:
            raise r.fail(name, "key_colour", f"{key_str(key)} is not a {want} sort key", key=key_str(key), colour=want)
        if key in copies:
            raise r.fail(name, "key_listed_twice", f"{key_str(key)} is listed twice", key=key_str(key))
        copies[key] = n
        return key

    for v in r.list("blue"):
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= MAX_NUMBER:
            raise r.fail("blue", "blue_value", f"blue value {shown(v)} must be an integer 1..{MAX_NUMBER}",
                         given=quoted(v), low=1, high=MAX_NUMBER)
        add("blue", v, "blue", 4)
    for name, want in (("yellow", YELLOW), ("red", RED)):
        for k in r.list(name) if name in raw else []:
            add(name, k, want, 1)
    pools = []
    for i, pool in enumerate(r.list("uncertain") if "uncertain" in raw else []):
        pr = r.child("uncertain", pool, {"candidates", "count"}, {"candidates", "count"}, i)
        cands = pr.list("candidates")
        if not cands:
            raise pr.fail("candidates", "pool_empty", "expected at least one candidate")
        keys = []
        for k in cands:
            key = pr.key("candidates", k)
            if colour(key) == "blue":
                raise pr.fail("candidates", "pool_key_blue", f"{key_str(key)} is blue; pools hold yellow or red wires",
                              key=key_str(key))
            if key in copies:
                raise pr.fail("candidates", "pool_key_in_play", f"{key_str(key)} is already in play or in another pool",
                              key=key_str(key))
            copies[key] = 1
            keys.append(key)
        pools.append(Pool(tuple(sorted(keys)), pr.int("count", 0, len(keys) + 1)))
    if not copies:
        raise r.fail("blue", "no_wires", "no wires in play")
    deck = Deck(copies, tuple(pools))
    return deck, _counts_as_red(r, deck)


def _counts_as_red(r: FieldReader, deck: Deck) -> int | None:
    if "counts_as_red" not in r.obj:
        return None
    v = r.obj["counts_as_red"]
    if not isinstance(v, int) or isinstance(v, bool) or 10 * v not in deck.copies:
        raise r.fail("counts_as_red", "counts_as_red", f"{shown(v)} is not a blue value in play", given=quoted(v))
    return v


def _parse_me(raw: Any, table: Table) -> tuple[int | None, tuple[tuple[Key | None, ...], ...], list[Any]]:
    if raw is None:
        return None, (), []
    players, deck = table.players, table.deck
    r = FieldReader(raw, "me", ("me",), None, {"player", "stands", "seen"}, {"player", "stands"})
    p = r.index("player", len(players))
    stands = r.list("stands")
    sizes, shapes = players[p].stands, players[p].shapes
    if len(stands) != len(sizes):
        raise r.fail("stands", "my_stand_count", f"player {p} has {len(sizes)} stand(s), got {len(stands)}",
                     player=p, stands=len(sizes), count=len(stands))
    segments, layout = table.deal()
    mine: list[tuple[Key | None, ...]] = []
    used: dict[Key, int] = {}
    for s, (wires, n) in enumerate(zip(stands, sizes)):
        if not isinstance(wires, list) or len(wires) != n:
            raise r.fail("stands", "my_stand_size", f"stand {s} must list its {n} wires", player=p, stand=s, size=n)
        keys: list[Key | None] = []
        for j, k in enumerate(wires):
            seg = segments[layout[p][s][j][0]]
            if seg.flipped:
                if k is not None:
                    raise r.fail("stands", "my_flipped_not_null",
                                 f"stand {s} slot {j} is my own flipped wire: I cannot see it, write null",
                                 slot=address(p, s, j))
                keys.append(None)
                continue
            key = r.key("stands", k)
            if key not in deck.copies:
                raise r.fail("stands", "key_not_in_play", f"{key_str(key)} is not in play (nearest: {deck.nearest(key)})",
                             key=key_str(key), nearest=deck.nearest(key))
            if seg.kind == "x" and shapes[s] == X_BLUE and colour(key) != "blue":
                raise r.fail("stands", "my_x_slot_blue",
                             f"stand {s} slot {j} is an X slot of blue wires; {key_str(key)} is not blue",
                             slot=address(p, s, j), key=key_str(key))
            used[key] = used.get(key, 0) + 1
            if used[key] > deck.copies[key]:
                raise r.fail("stands", "key_too_many", f"more {key_str(key)} than the {deck.copies[key]} in play",
                             key=key_str(key), copies=deck.copies[key])
            keys.append(key)
        ordered = [k for j, k in enumerate(keys) if segments[layout[p][s][j][0]].kind == "main"]
        if ordered != sorted(ordered):  # type: ignore[type-var]
            raise r.fail("stands", "my_stand_unsorted",
                         f"stand {s} is not sorted ({', '.join(key_str(k) for k in ordered if k)})",
                         player=p, stand=s, keys=[key_str(k) for k in ordered if k])
        mine.append(tuple(keys))
    seen = r.list("seen") if "seen" in raw else []
    return p, tuple(mine), seen
