"""The events of a table file, parsed and checked in order (docs/table-format.md): each field's type and
range, and what needs the game's history -- a wire cut twice, a dual cut on one's own stand, addresses
after a wire moved, an event after the game was lost (public_state.py), the equipment each event spends
(equipment.py) -- by replaying the events on a :class:`~bombbuster_core.board.Board` as they are read,
so that the engines only ever see well-formed histories.  The wires I have seen (``me.seen``) are
placed on that board after the event each names.
"""
from __future__ import annotations

from . import equipment as eq
from .board import Wire
from .events import (Absent, Dealt, Detector, Disintegrator, DualCut, Equipment, Event, FastPass, InfoToken, Label,
                     Move, MultiCut, Radar, RevealRed, SlotRef, SoloCut, Swap, Token, Tripwire)
from .public_state import StateReader
from .table_fields import FieldReader, address, error_at, quoted
from .table_model import Table, Use, advance, cut_values
from .wires import RED, YELLOW, Key, Value, WireError, colour, key_str, parse_value, value_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Equipment that tells nothing about wires (the `equipment` event); recorded for the dial,
# the turn order and the board: Rewinder, Emergency Batteries, Coffee Mug, False Bottom, Emergency Drop.
EQUIPMENT_WITHOUT_FACTS = ("6", "7", "11", "Y", "3.3")
# Events with no actor of their own name the card's user in "actor" (for "card": "character").
CARD_USER_FIELD = ("info_token", "radar", "label", "disintegrator", "move", "swap")


def seen_reader(entry: Any, i: int) -> FieldReader:
    """The reader of ``me.seen[i]``: a wire I have seen, and after which event."""
    return FieldReader(entry, f"me field 'seen'[{i}]", ("me", "seen", i), None, {"at", "value", "after"}, {"at", "value"})


def slot_fields(ref: SlotRef) -> dict[str, int]:
    """A slot as a refusal's fields give it."""
    return address(ref.player, ref.stand, ref.slot)


class EventParser:
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
                                         table.mission_rules(), dict(table.covers))
        self.seen_raw: dict[int | None, list[tuple[int, Any]]] = {}
        for i, entry in enumerate(seen_raw):
            r = seen_reader(entry, i)
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
                    raise error_at(where, ("events", i), i, "expected_object", "expected an object")
                if "type" not in raw:
                    raise error_at(where, ("events", i), i, "missing_field",
                                   f"missing field 'type' ({', '.join(parsers)})", field="type", allowed=list(parsers))
                raise error_at(where + " field 'type'", ("events", i, "type"), i, "event_type_unknown",
                               f"unknown type {kind!r} ({', '.join(parsers)})", given=quoted(kind), allowed=list(parsers))
            over = self.state.refusal()
            if over is not None:
                result = self.state.result
                raise error_at(where, ("events", i), i, "game_over", over, cause=result.cause, at=result.at)
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
            raise error_at(f"me field 'seen'[{i}] field 'after'", ("me", "seen", i, "after"), None, "seen_after_end",
                           f"after {late[0]}: there are only {len(raw_events)} events", after=late[0],
                           events=len(raw_events))
        return events

    def spend(self, event: Event, spent: dict[str, Any], where: str, i: int) -> Use:
        """Check and record the equipment ``event`` uses (equipment.py); ``spent`` holds its
        ``card`` field (and, for events without an actor, ``actor``: who used the card)."""
        r = FieldReader(spent, where, ("events", i), i, {"card", "actor"}, set())
        entries: list[str] = []
        raw = spent.get("card")
        for entry in raw if isinstance(raw, list) else [] if raw is None else [raw]:
            if entry in (eq.CHARACTER, eq.MISSION):
                entries.append(entry)
                continue
            if isinstance(entry, str) and entry in eq.NAMED:
                raise r.fail("card", "card_by_name", f"name the card by its printed ID ({eq.NAMED[entry]}), not {entry!r}",
                             card=eq.NAMED[entry], given=quoted(entry))
            try:
                entries.append(eq.card_id(entry))
            except eq.EquipmentError as e:
                raise r.fail("card", e.code, f"{e}, {eq.CHARACTER!r} or {eq.MISSION!r}", **e.fields) from None
        if "card" in spent and not entries:
            raise r.fail("card", "card_none", "name at least one card")
        user = getattr(event, "actor", None)
        if "actor" in spent:
            user = r.index("actor", len(self.table.players))
        if eq.CHARACTER in entries and user is None:
            raise r.fail("actor", "character_user_missing", 'a "character" use names the player whose character it is')
        try:
            eq.apply(self.board_cards, event, tuple(entries), user)
        except eq.EquipmentError as e:
            raise r.fail(e.field, e.code, str(e), **e.fields) from None
        return Use(tuple(entries), user)

    def _resolve_seen(self, after: int | None) -> None:
        for i, entry in self.seen_raw.pop(after, []):
            r = seen_reader(entry, i)
            ref = self.slot(r, "at", entry["at"])
            key = r.key("value", entry["value"])
            if key not in self.deck.copies:
                raise r.fail("value", "key_not_in_play", f"{key_str(key)} is not in play (nearest: {self.deck.nearest(key)})",
                             key=key_str(key), nearest=self.deck.nearest(key))
            wire = self.board.wire(ref.player, ref.stand, ref.slot)
            if self.table.me is not None and self.board.owner_flipped(wire, self.table.me):
                raise r.fail("at", "seen_own_flipped", f"{ref} is my own flipped wire: I cannot have seen it", slot=slot_fields(ref))
            self.seen.append((wire, key))

    # -- field helpers
    def slot(self, r: FieldReader, name: str, raw: Any, player: int | None = None, *, extra: set[str] = frozenset(),
             insert: bool = False) -> SlotRef:
        """A full address, or a {stand, slot} address of ``player``, in the stands as they are now
        (``insert``: a place to insert at, one past the end allowed)."""
        fields = {"stand", "slot"} if player is not None else {"player", "stand", "slot"}
        sr = r.child(name, raw, fields | set(extra), fields)
        p = player if player is not None else sr.index("player", len(self.table.players))
        s = sr.index("stand", len(self.table.players[p].stands))
        n = self.board.size(p, s)
        if not n and not insert:
            raise sr.fail("slot", "stand_empty", f"player {p} stand {s} holds no wire now", player=p, stand=s)
        return SlotRef(p, s, sr.index("slot", n + (1 if insert else 0)))

    def wire(self, ref: SlotRef) -> Wire:
        return self.board.wire(ref.player, ref.stand, ref.slot)

    def uncut(self, r: FieldReader, name: str, slot: SlotRef) -> SlotRef:
        if self.wire(slot) in self.board.cut:
            raise r.fail(name, "slot_cut", f"{slot} is already cut", slot=slot_fields(slot))
        return slot

    def reachable(self, r: FieldReader, name: str, slot: SlotRef) -> SlotRef:
        """Equipment never reaches an X or flipped wire."""
        if self.board.special(self.wire(slot)):
            raise r.fail(name, "slot_special", f"{slot} is an X or flipped wire, which equipment cannot reach",
                         slot=slot_fields(slot))
        return slot

    def value(self, r: FieldReader, name: str, raw: Any, *, red: bool = False, blue: bool = False) -> Value:
        try:
            v = parse_value(raw, allow_red=red)
        except WireError as e:
            raise r.fail(name, "not_a_value", str(e), given=quoted(raw), red=red) from None
        if blue and not isinstance(v, int):
            raise r.fail(name, "not_blue_value", f"{v!r} is not a blue value", value=v)
        if not self.deck.keys_of_value(v):
            raise r.fail(name, "value_not_in_play", f"{v!r} is not in play", value=v)
        return v

    def called(self, r: FieldReader, raw: Any, *, blue: bool = False) -> tuple[Value, ...]:
        """``value`` or the X or Y ray's ``values`` (two different values)."""
        if ("value" in raw) == ("values" in raw):
            raise r.fail("value", "value_or_values", 'give exactly one of "value" and "values" (X or Y ray)')
        if "value" in raw:
            values = (self.value(r, "value", raw["value"], blue=blue),)
        else:
            listed = r.list("values")
            if len(listed) != 2:
                raise r.fail("values", "xy_two_values", "the X or Y ray calls exactly two values")
            values = tuple(self.value(r, "values", v) for v in listed)
            if values[0] == values[1]:
                raise r.fail("values", "xy_different_values", "the X or Y ray calls two different values")
        for v in values:
            if v == self.table.red_value:
                raise r.fail("value" if len(values) == 1 else "values", "value_counts_as_red",
                             f"{v} counts as red in this mission: nobody calls it", value=v)
        return values

    def token(self, r: FieldReader, name: str, raw: Any, *, null: bool = True) -> Token | None:
        """A failure token: a true value, null, {"parity": ...} or {"count": ...}."""
        if raw is None:
            if not null:
                raise r.fail(name, "token_missing", "expected a token")
            return None
        if isinstance(raw, dict):
            tr = r.child(name, raw, {"parity", "count"}, set())
            if len(raw) != 1:
                raise tr.fail("parity", "token_object", 'a token object has exactly one of "parity", "count"')
            if "parity" in raw:
                if raw["parity"] not in ("even", "odd"):
                    raise tr.fail("parity", "token_parity", f'{raw["parity"]!r} is not "even" or "odd"',
                                  given=quoted(raw["parity"]))
                return Token("parity", raw["parity"])
            return Token("count", tr.int("count", 1, 4))
        return Token("value", self.value(r, name, raw))

    def actor(self, r: FieldReader) -> int:
        return r.index("actor", len(self.table.players))

    def explosion(self, r: FieldReader, raw: Any, success: bool, *, forbidden: tuple[str, ...] = ()) -> bool:
        """The optional ``exploded`` flag; an explosion places no token and has no Stabilizer
        (which stops it).  A success explodes only where the caller says so (dual_cut)."""
        if "exploded" not in raw or not r.bool("exploded"):
            return False
        if success:
            raise r.fail("exploded", "success_exploded", "a successful call does not explode (a red target is a "
                         'failure with "exploded": true)')
        for name in forbidden:
            if name in raw:
                if name == "stabilizer":
                    raise r.fail(name, "explosion_stabilizer",
                                 "with the Stabilizer a red target does not explode: record the token as null")
                raise r.fail(name, "explosion_token", "an explosion places no token")
        return True

    def own_slots(self, r: FieldReader, name: str, actor: int, *, equipment: bool = False) -> tuple[SlotRef, ...]:
        slots = []
        for raw in r.list(name):
            ref = self.uncut(r, name, self.slot(r, name, raw, player=actor))
            slots.append(self.reachable(r, name, ref) if equipment else ref)
        if len(set(slots)) != len(slots):
            raise r.fail(name, "slot_listed_twice", "a wire is listed twice")
        return tuple(slots)

    # -- events
    def info_token(self, raw: Any, where: str, i: int) -> InfoToken:
        r = FieldReader(raw, where, ("events", i), i, {"type", "at", "value", "parity", "count", "false"}, {"at"})
        at = self.slot(r, "at", raw["at"])
        given = [name for name in ("value", "parity", "count") if name in raw]
        if len(given) != 1:
            raise r.fail("value", "info_token_kind", 'an info token has exactly one of "value", "parity", "count"')
        false = r.bool("false") if "false" in raw else False
        if false and given[0] != "value":
            raise r.fail("false", "info_token_false", 'only a value token can be false ("value": v, "false": true)')
        name = given[0]
        token = self.token(r, name, raw[name] if name == "value" else {name: raw[name]}, null=False)
        assert token is not None
        if token.kind == "count" and self.board.special(self.wire(at)):
            raise r.fail("count", "count_token_special", f"{at} is an X or flipped wire, outside its stand's counts",
                         slot=slot_fields(at))
        return InfoToken(at, token, false)

    def dual_cut(self, raw: Any, where: str, i: int) -> DualCut:
        r = FieldReader(raw, where, ("events", i), i, {"type", "actor", "target", "value", "values", "success", "actor_slot", "keys",
                                        "token", "cut_value", "stabilizer", "exploded"},
                        {"actor", "target", "success"})
        actor = self.actor(r)
        target = self.uncut(r, "target", self.slot(r, "target", raw["target"]))
        if target.player == actor:
            raise r.fail("target", "target_own", "a dual cut points at a teammate's wire, not the actor's own",
                         slot=slot_fields(target))
        values = self.called(r, raw)
        success = r.bool("success")
        stabilizer = r.bool("stabilizer") if "stabilizer" in raw else False
        if success:
            if "token" in raw:
                raise r.fail("token", "token_on_success", "only a failed dual cut places a token")
            if "actor_slot" not in raw:
                raise r.fail("actor_slot", "cut_missing", "a successful dual cut names the actor's cut wire")
            actor_slot = self.uncut(r, "actor_slot", self.slot(r, "actor_slot", raw["actor_slot"], player=actor))
            value = self.cut_value(r, raw, values)
            own_flipped = self.board.owner_flipped(self.wire(actor_slot), actor)
            if own_flipped and (stabilizer or len(values) > 1):
                raise r.fail("stabilizer" if stabilizer else "values", "own_flipped_equipment",
                             "one's own flipped wire is cut by a normal cut with no equipment (M38)")
            if "exploded" in raw and r.bool("exploded"):
                # M38/M56: the target was the value, the actor's own flipped wire was not
                if not own_flipped:
                    raise r.fail("exploded", "exploded_not_own_flipped", "on a successful call only the actor's own "
                                 "flipped wire (M38, M56), cut as actor_slot, can explode; a red target is a failure")
                if "keys" in raw:
                    raise r.fail("keys", "keys_on_explosion", "an explosion cuts nothing: no printed keys are shown")
                return DualCut(actor, target, values, True, actor_slot, value=value, exploded=True)
            target_key, actor_key = self.printed_keys(r, raw, value)
            return DualCut(actor, target, values, True, actor_slot, target_key, actor_key, value,
                           stabilizer=stabilizer)
        for name in ("actor_slot", "keys", "cut_value"):
            if name in raw:
                raise r.fail(name, "cut_on_failure", "only a successful dual cut cuts wires")
        if self.explosion(r, raw, False, forbidden=("token", "stabilizer")):
            return DualCut(actor, target, values, False, exploded=True)
        if "token" not in raw:
            raise r.fail("token", "failure_token_missing", "a failed dual cut gives the token placed (the target's "
                         'value) or null, or "exploded": true (a red target)')
        token = self.token(r, "token", raw["token"])
        if token is not None and token.kind == "value" and token.arg in values:
            raise r.fail("token", "token_equals_call",
                         f"the token equals the called value {token.arg!r}, so the cut succeeded", value=token.arg)
        return DualCut(actor, target, values, False, token=token, stabilizer=stabilizer)

    def cut_value(self, r: FieldReader, raw: Any, values: tuple[Value, ...]) -> Value:
        if len(values) == 1:
            if "cut_value" in raw:
                raise r.fail("cut_value", "cut_value_single", 'only the X or Y ray ("values") names the value cut')
            return values[0]
        if "cut_value" not in raw:
            raise r.fail("cut_value", "cut_value_missing", "a successful X or Y ray names which of the two values was cut")
        v = self.value(r, "cut_value", raw["cut_value"])
        if v not in values:
            raise r.fail("cut_value", "cut_value_not_called", f"{v!r} is not one of the called values", value=v,
                         called=list(values))
        return v

    def printed_keys(self, r: FieldReader, raw: Any, value: Value) -> tuple[Key | None, Key | None]:
        if "keys" not in raw:
            return None, None
        kr = r.child("keys", raw["keys"], {"target", "actor"}, set())
        keys = {}
        for side in ("target", "actor"):
            if side in raw["keys"]:
                k = kr.key(side, raw["keys"][side])
                if k not in self.deck.keys_of_value(value):
                    raise kr.fail(side, "key_not_cut_value", f"{key_str(k)} does not have the cut value {value!r}",
                                  key=key_str(k), value=value)
                keys[side] = k
        return keys.get("target"), keys.get("actor")

    def detector(self, raw: Any, where: str, i: int) -> Detector:
        r = FieldReader(raw, where, ("events", i), i, {"type", "actor", "kind", "targets", "value", "values", "success", "cut",
                                        "actor_slot", "cut_value", "token_at", "token", "stabilizer", "exploded"},
                        {"actor", "kind", "targets", "success"})
        actor = self.actor(r)
        kind = raw["kind"]
        if kind not in ("double", "triple", "super"):
            raise r.fail("kind", "detector_kind", f'{kind!r} is not "double", "triple" or "super"', given=quoted(kind))
        targets = []
        for t in r.list("targets"):
            targets.append(self.reachable(r, "targets", self.uncut(r, "targets", self.slot(r, "targets", t))))
        if not targets:
            raise r.fail("targets", "targets_empty", "a detector points at wires")
        if len(set(targets)) != len(targets):
            raise r.fail("targets", "slot_listed_twice", "a wire is listed twice")
        q, s = targets[0].player, targets[0].stand
        if any((t.player, t.stand) != (q, s) for t in targets):
            raise r.fail("targets", "targets_one_stand", "a detector's targets are all on one stand")
        if q == actor:
            raise r.fail("targets", "detector_own_stand", "a detector points at a teammate's stand, not the actor's own")
        if kind == "super":
            every = sorted(SlotRef(q, s, j) for j, w in enumerate(self.board.stands[q][s])
                           if w not in self.board.cut and not self.board.special(w))
            if sorted(targets) != every:
                raise r.fail("targets", "super_detector_targets", f"the Super Detector points at every uncut wire of "
                             f"player {q} stand {s} ({len(every)}, X/flipped ones excepted)", player=q, stand=s,
                             count=len(every))
        elif len(targets) != {"double": 2, "triple": 3}[kind]:
            raise r.fail("targets", "detector_target_count",
                         f"a {kind} detector points at {2 if kind == 'double' else 3} wires", kind=kind,
                         count=2 if kind == "double" else 3)
        values = self.called(r, raw, blue="values" not in raw)
        success = r.bool("success")
        stabilizer = r.bool("stabilizer") if "stabilizer" in raw else False
        boom = self.explosion(r, raw, success, forbidden=("token", "token_at", "stabilizer"))
        if success:
            for name in ("token", "token_at"):
                if name in raw:
                    raise r.fail(name, "token_on_success", "only a failed detector places a token")
            for name in ("cut", "actor_slot"):
                if name not in raw:
                    raise r.fail(name, "cut_missing", "a successful detector names the target cut and the actor's cut wire")
            cut = self.slot(r, "cut", raw["cut"])
            if cut not in targets:
                raise r.fail("cut", "cut_not_target", f"{cut} is not one of the targets", slot=slot_fields(cut))
            actor_slot = self.uncut(r, "actor_slot", self.slot(r, "actor_slot", raw["actor_slot"], player=actor))
            if self.board.owner_flipped(self.wire(actor_slot), actor):
                raise r.fail("actor_slot", "own_flipped_equipment",
                             "one's own flipped wire is cut by a normal cut with no equipment (M38)")
            return Detector(actor, kind, tuple(targets), values, True, cut, actor_slot, self.cut_value(r, raw, values),
                            stabilizer=stabilizer)
        for name in ("cut", "actor_slot", "cut_value"):
            if name in raw:
                raise r.fail(name, "cut_on_failure", "only a successful detector cuts wires")
        if boom:
            return Detector(actor, kind, tuple(targets), values, False, exploded=True)
        if "token" not in raw:
            raise r.fail("token", "failure_token_missing", 'a failed detector gives the token placed or null, or '
                         '"exploded": true (every target red)')
        token = self.token(r, "token", raw["token"])
        token_at = None
        if token is None:
            if "token_at" in raw:
                raise r.fail("token_at", "token_at_without_token", "no token was placed (token null)")
        else:
            if "token_at" not in raw:
                raise r.fail("token_at", "token_at_missing", "a failed detector names the wire that carries the token")
            token_at = self.slot(r, "token_at", raw["token_at"])
            if token_at not in targets:
                raise r.fail("token_at", "token_at_not_target", f"{token_at} is not one of the targets", slot=slot_fields(token_at))
            if token.kind == "value" and token.arg in values:
                raise r.fail("token", "token_equals_call",
                             f"the token equals the called value {token.arg!r}, so the detector succeeded", value=token.arg)
        return Detector(actor, kind, tuple(targets), values, False, token_at=token_at, token=token,
                        stabilizer=stabilizer)

    def solo_cut(self, raw: Any, where: str, i: int) -> SoloCut:
        r = FieldReader(raw, where, ("events", i), i, {"type", "actor", "value", "slots"}, {"actor", "value", "slots"})
        actor = self.actor(r)
        value = self.value(r, "value", raw["value"])
        slots = self.own_slots(r, "slots", actor)
        if not slots:
            raise r.fail("slots", "solo_cut_empty", "a solo cut cuts at least one wire")
        if value == RED or value == self.table.red_value:
            raise r.fail("value", "red_not_cut", "red wires are revealed (reveal_red), not cut", value=value)
        left = self.remaining(value)
        if left is not None and len(slots) != left:
            raise r.fail("slots", "solo_cut_count",
                         f"a solo cut cuts every remaining {value} wire: {left} are left, not {len(slots)}",
                         value=value, left=left, count=len(slots))
        if isinstance(value, int) and self.deck.copies[10 * value] == 4 and len(slots) not in (2, 4):
            raise r.fail("slots", "solo_cut_blue_count", "a solo cut of a blue value cuts 2 or 4 wires", count=len(slots))
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
        r = FieldReader(raw, where, ("events", i), i, {"type", "actor", "slots"}, {"actor", "slots"})
        actor = self.actor(r)
        if not self.deck.keys_of_value(RED) and self.table.red_value is None:
            raise r.fail("type", "no_red_in_play", "no red wire is in play")
        slots, keys = [], []
        for s in r.list("slots"):
            slots.append(self.uncut(r, "slots", self.slot(r, "slots", s, player=actor, extra={"value"})))
            key = r.key("slots", s["value"]) if "value" in s else None
            if key is not None and key not in self.deck.copies:
                raise r.fail("slots", "key_not_in_play", f"{key_str(key)} is not in play (nearest: {self.deck.nearest(key)})",
                             key=key_str(key), nearest=self.deck.nearest(key))
            if key is not None and colour(key) != RED and value_of(key) != self.table.red_value:
                raise r.fail("slots", "not_red", f"{key_str(key)} is not a red wire", key=key_str(key))
            keys.append(key)
        if len(set(slots)) != len(slots):
            raise r.fail("slots", "slot_listed_twice", "a wire is listed twice")
        wires = {self.wire(s) for s in slots}
        left = [w for w in self.board.uncut(actor) if w not in wires]
        if left:
            p, s, j = self.board.address(left[0])  # type: ignore[misc]
            raise r.fail("slots", "reveal_red_missing",
                         f"revealing reds shows every uncut wire of the actor; {SlotRef(p, s, j)} is missing",
                         slot=address(p, s, j))
        return RevealRed(actor, tuple(slots), tuple(keys))

    def radar(self, raw: Any, where: str, i: int) -> Radar:
        r = FieldReader(raw, where, ("events", i), i, {"type", "value", "answers"}, {"value", "answers"})
        value = self.value(r, "value", raw["value"], blue=True)
        answers = r.list("answers")
        if len(answers) != len(self.table.players):
            raise r.fail("answers", "radar_answers_count", f"one list of answers per player ({len(self.table.players)})",
                         players=len(self.table.players))
        out = []
        for p, row in enumerate(answers):
            n = len(self.table.players[p].stands)
            if not isinstance(row, list) or len(row) != n or not all(isinstance(a, bool) for a in row):
                raise r.fail("answers", "radar_answers_row", f"player {p}: expected {n} answer(s), true or false per stand",
                             player=p, stands=n)
            out.append(tuple(row))
        return Radar(value, tuple(out))  # type: ignore[arg-type]

    def label(self, raw: Any, where: str, i: int) -> Label:
        r = FieldReader(raw, where, ("events", i), i, {"type", "kind", "at"}, {"kind", "at"})
        if raw["kind"] not in ("equal", "different"):
            raise r.fail("kind", "label_kind", f'{raw["kind"]!r} is not "equal" or "different"', given=quoted(raw["kind"]))
        at = self.reachable(r, "at", self.slot(r, "at", raw["at"]))
        if at.slot + 1 >= self.board.size(at.player, at.stand):
            raise r.fail("at", "label_no_neighbour", f"{at} has no right neighbour",
                         slot=slot_fields(at))
        self.reachable(r, "at", SlotRef(at.player, at.stand, at.slot + 1))
        return Label(at, raw["kind"] == "equal")

    def fast_pass(self, raw: Any, where: str, i: int) -> FastPass:
        r = FieldReader(raw, where, ("events", i), i, {"type", "actor", "value", "slots"}, {"actor", "value", "slots"})
        actor = self.actor(r)
        value = self.value(r, "value", raw["value"])
        if value == self.table.red_value:
            raise r.fail("value", "value_counts_as_red", f"{value} counts as red in this mission", value=value)
        slots = self.own_slots(r, "slots", actor, equipment=True)
        if len(slots) != 2:
            raise r.fail("slots", "fast_pass_count", "the Fast Pass cuts exactly 2 wires")
        return FastPass(actor, value, slots)

    def disintegrator(self, raw: Any, where: str, i: int) -> Disintegrator:
        r = FieldReader(raw, where, ("events", i), i, {"type", "value", "slots"}, {"value", "slots"})
        value = self.value(r, "value", raw["value"])
        slots = []
        for s in r.list("slots"):
            slots.append(self.reachable(r, "slots", self.uncut(r, "slots", self.slot(r, "slots", s))))
        if len(set(slots)) != len(slots):
            raise r.fail("slots", "slot_listed_twice", "a wire is listed twice")
        return Disintegrator(value, tuple(slots))

    def move(self, raw: Any, where: str, i: int) -> Move:
        r = FieldReader(raw, where, ("events", i), i, {"type", "from", "to"}, {"from", "to"})
        if raw["from"] == "nano":
            if not self.table.nano:
                raise r.fail("from", "no_nano", "this table has no Nano")
            if not self.board.nano:
                raise r.fail("from", "nano_empty", "Nano has no wire left")
            source = None
        else:
            source = self.reachable(r, "from", self.uncut(r, "from", self.slot(r, "from", raw["from"])))
        tr = r.child("to", raw["to"], {"player", "stand", "slot"}, {"player", "stand", "slot"})
        p = tr.index("player", len(self.table.players))
        s = tr.index("stand", len(self.table.players[p].stands))
        if source is not None and source.player == p:
            raise r.fail("to", "move_same_player", "a wire moves to another player's stand")
        room = self.board.size(p, s) + 1
        return Move(source, SlotRef(p, s, tr.index("slot", room)))

    def swap(self, raw: Any, where: str, i: int) -> Swap:
        r = FieldReader(raw, where, ("events", i), i, {"type", "a", "b", "a_to", "b_to"}, {"a", "b", "a_to", "b_to"})
        a = self.reachable(r, "a", self.uncut(r, "a", self.slot(r, "a", raw["a"])))
        b = self.reachable(r, "b", self.uncut(r, "b", self.slot(r, "b", raw["b"])))
        if a.player == b.player:
            raise r.fail("b", "swap_same_player", "Walkie-Talkies swap wires between two players")
        # After the swap each stand holds as many wires as before.
        a_to = r.index("a_to", self.board.size(b.player, b.stand))
        b_to = r.index("b_to", self.board.size(a.player, a.stand))
        return Swap(a, b, a_to, b_to)

    def absent(self, raw: Any, where: str, i: int) -> Absent:
        r = FieldReader(raw, where, ("events", i), i, {"type", "player", "values", "stand"}, {"player", "values"})
        p = r.index("player", len(self.table.players))
        stand = r.index("stand", len(self.table.players[p].stands)) if "stand" in raw else None
        values = tuple(self.value(r, "values", v, red=True) for v in r.list("values"))
        if not values:
            raise r.fail("values", "values_empty", "name at least one value")
        if len(set(values)) != len(values):
            raise r.fail("values", "value_listed_twice", "a value is listed twice")
        return Absent(p, values, stand)

    def dealt(self, raw: Any, where: str, i: int) -> Dealt:
        r = FieldReader(raw, where, ("events", i), i, {"type", "player", "stand", "value", "count"}, {"player", "value", "count"})
        p = r.index("player", len(self.table.players))
        stand = r.index("stand", len(self.table.players[p].stands)) if "stand" in raw else None
        if raw["value"] not in (RED, YELLOW):
            raise r.fail("value", "dealt_colour", f'{raw["value"]!r} is not "red" or "yellow"', given=quoted(raw["value"]))
        size = sum(self.table.players[p].stands) if stand is None else self.table.players[p].stands[stand]
        return Dealt(p, raw["value"], r.int("count", 0, size + 1), stand)

    def multi_cut(self, raw: Any, where: str, i: int) -> MultiCut:
        r = FieldReader(raw, where, ("events", i), i, {"type", "actor", "value", "slots", "success", "tokens", "exploded"},
                        {"actor", "value", "slots", "success"})
        actor = self.actor(r)
        value = self.value(r, "value", raw["value"], red=True)
        slots = []
        for s in r.list("slots"):
            slots.append(self.uncut(r, "slots", self.slot(r, "slots", s)))
        if not slots:
            raise r.fail("slots", "multi_cut_empty", "a simultaneous cut points at wires")
        if len(set(slots)) != len(slots):
            raise r.fail("slots", "slot_listed_twice", "a wire is listed twice")
        success = r.bool("success")
        if self.explosion(r, raw, success, forbidden=("tokens",)):  # M48's yellows: a red among them
            return MultiCut(actor, value, tuple(slots), False, exploded=True)
        if success:
            if "tokens" in raw:
                raise r.fail("tokens", "token_on_success", "only a failed simultaneous cut (M48) places tokens")
            return MultiCut(actor, value, tuple(slots), True)
        if "tokens" not in raw:
            raise r.fail("tokens", "failure_token_missing", 'a failed simultaneous cut places a true token on every '
                         'wire (M48) or explodes ("exploded": true: M13, M23, M39, M46)')
        tokens = tuple(self.value(r, "tokens", t) for t in r.list("tokens"))
        if len(tokens) != len(slots):
            raise r.fail("tokens", "multi_cut_tokens_count", f"one token per wire ({len(slots)})", count=len(slots))
        if all(t == value for t in tokens):
            raise r.fail("tokens", "multi_cut_tokens_all_called", f"every token says {value!r}, so the cut succeeded",
                         value=value)
        return MultiCut(actor, value, tuple(slots), False, tokens)

    def tripwire(self, raw: Any, where: str, i: int) -> Tripwire:
        r = FieldReader(raw, where, ("events", i), i, {"type", "actor", "target", "success", "token", "exploded"},
                        {"actor", "target", "success"})
        actor = self.actor(r)
        target = self.uncut(r, "target", self.slot(r, "target", raw["target"]))
        if target.player == actor:
            raise r.fail("target", "target_own", "a tripwire call points at a teammate's wire", slot=slot_fields(target))
        if not self.deck.keys_of_value(YELLOW):
            raise r.fail("type", "no_yellow_in_play", "no yellow wire is in play")
        success = r.bool("success")
        if self.explosion(r, raw, success, forbidden=("token",)):
            return Tripwire(actor, target, False, exploded=True)
        if success:
            if "token" in raw:
                raise r.fail("token", "token_on_success", "only a failed call places a token")
            return Tripwire(actor, target, True)
        if "token" not in raw:
            raise r.fail("token", "failure_token_missing", "a failed tripwire call places the target's true blue "
                         'value, or "exploded": true (a red target)')
        return Tripwire(actor, target, False, self.value(r, "token", raw["token"], blue=True))

    def equipment(self, raw: Any, where: str, i: int) -> Equipment:
        r = FieldReader(raw, where, ("events", i), i, {"type", "card", "actor", "next", "added", "characters"}, {"card"})
        try:
            card = eq.card_id(raw["card"])
        except eq.EquipmentError as e:
            raise r.fail("card", e.code, str(e), **e.fields) from None
        if card not in EQUIPMENT_WITHOUT_FACTS:
            names = ", ".join(f"{c} ({eq.CARDS[c].name})" for c in EQUIPMENT_WITHOUT_FACTS)
            raise r.fail("card", "equipment_event_card", f"card {card} ({eq.CARDS[card].name}) is not one of {names}: "
                         "cards that reveal something have their own events", card=card,
                         allowed=list(EQUIPMENT_WITHOUT_FACTS))
        actor = self.actor(r) if "actor" in raw else None
        listed = self.table.equipment is not None  # the board is followed: say what changed on it
        fields = {"11": "next", eq.FALSE_BOTTOM: "added", "7": "characters"}
        for name in ("next", "added", "characters"):
            if name in raw and fields.get(card) != name:
                owner = next(c for c, f in fields.items() if f == name)
                raise r.fail(name, "equipment_field_owner", f"only card {owner} ({eq.CARDS[owner].name}) has {name!r}",
                             card=owner, field=name)
        if card == "11":
            if "next" not in raw:
                raise r.fail("next", "coffee_mug_next", "the Coffee Mug names the next player")
            return Equipment(card, actor, r.index("next", len(self.table.players)))
        if card == eq.FALSE_BOTTOM and ("added" in raw or listed):
            if "added" not in raw:
                raise r.fail("added", "false_bottom_added_missing", "False Bottom adds 2 cards to the board: name them")
            added = []
            for entry in r.list("added"):
                try:
                    added.append(eq.card_id(entry, "added"))
                except eq.EquipmentError as e:
                    raise r.fail("added", e.code, str(e), **e.fields) from None
            if len(added) != 2 or len(set(added)) != 2:
                raise r.fail("added", "false_bottom_two", "False Bottom adds 2 different cards")
            return Equipment(card, actor, added=tuple(added))
        if card == "7" and ("characters" in raw or listed):
            if "characters" not in raw:
                raise r.fail("characters", "batteries_characters_missing", "Emergency Batteries name the 1 or 2 "
                             "players whose character they re-enable")
            players = [r.index("characters", len(self.table.players), p) for p in r.list("characters")]
            if not 1 <= len(players) <= 2 or len(set(players)) != len(players):
                raise r.fail("characters", "batteries_characters_count",
                             "Emergency Batteries re-enable 1 or 2 different players' characters")
            return Equipment(card, actor, recharged=tuple(players))
        return Equipment(card, actor)

