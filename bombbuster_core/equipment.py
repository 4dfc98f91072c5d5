"""Equipment cards and characters: what is on the board, when a card unlocks, what each event spends.

A table may name the cards on the board (top-level ``"equipment"``, the
printed IDs) and each player's character (``players[i].character``); every
event that uses equipment may then say which card it spent (``"card"``).
From those and the cuts, :class:`BoardState` follows each card through
locked -> unlocked -> used (rules.md §5):

* a numbered card unlocks once 2 wires of its value are cut; a
  double-numbered card (2.2, 3.3, 9.9, 10.10, 11.11) once all 4 are; False
  Bottom (Y) once 2 yellows are;
* each card and each character is spent once; Emergency Batteries (7)
  re-enable 1-2 used characters, Emergency Drop (3.3) turns every used card
  face up again, False Bottom adds 2 cards to the board;
* in M12 ("Wrapped in Red Tape") a Number card covers each card at setup: the
  card unlocks once its own cuts are made AND 2 wires of its Number card's
  value are cut (:data:`COVER_NEEDS`, :meth:`BoardState.unlocked`).

Spending says nothing about wires, so the engines never see it: it is
bookkeeping the parser checks (a card not on the board, still locked or
already spent is refused, naming the event and the field) and the page shows.
Missions decide which cards may be drawn (:func:`pool`).
"""
from __future__ import annotations

from .events import Detector, Disintegrator, DualCut, Equipment, FastPass, InfoToken, Label, Move, Radar, Swap
from .record import Record
from .wires import YELLOW, Value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CardId = str  # a printed ID: "1".."12", "2.2", "3.3", "9.9", "10.10", "11.11", "Y"
CHARACTER = "character"  # an event's "card": the acting player's own character card
MISSION = "mission"  # an event's "card": a use the mission grants (M18's radar, M58's Double Detector)


class Card(Record):
    """One equipment card: its printed ID and name, and the cuts that unlock it."""

    __slots__ = ("id", "name", "unlock", "needs")
    id: CardId
    name: str
    unlock: Value  # the gameplay value whose cuts unlock it
    needs: int  # how many of them must be cut

    def __init__(self, id: CardId, name: str, unlock: Value, needs: int):
        super().__init__(id, name, unlock, needs)


CARDS: dict[CardId, Card] = {c.id: c for c in (
    Card("1", "Label ≠", 1, 2), Card("2", "Walkie-Talkies", 2, 2), Card("3", "Triple Detector", 3, 2),
    Card("4", "Post-it", 4, 2), Card("5", "Super Detector", 5, 2), Card("6", "Rewinder", 6, 2),
    Card("7", "Emergency Batteries", 7, 2), Card("8", "General Radar", 8, 2), Card("9", "Stabilizer", 9, 2),
    Card("10", "X or Y ray", 10, 2), Card("11", "Coffee Mug", 11, 2), Card("12", "Label =", 12, 2),
    Card("2.2", "Single Wire Label", 2, 4), Card("3.3", "Emergency Drop", 3, 4), Card("9.9", "Fast Pass", 9, 4),
    Card("10.10", "Disintegrator", 10, 4), Card("11.11", "Grappling Hook", 11, 4),
    Card("Y", "False Bottom", YELLOW, 2),
)}
BASE_CARDS = tuple(str(n) for n in range(1, 13))
DOUBLE_NUMBERED = ("2.2", "3.3", "9.9", "10.10", "11.11")
FALSE_BOTTOM = "Y"

# Characters (rules.md §5): the Double Detector for everyone; from M31 E1-E4.
CHARACTERS: dict[str, str] = {"double_detector": "Double Detector", "general_radar": "General Radar (E1)",
                              "walkie_talkies": "Walkie-Talkies (E2)", "triple_detector": "Triple Detector (E3)",
                              "xy_ray": "X or Y ray (E4)"}
DEFAULT_CHARACTER = "double_detector"

# The `equipment` event's names from before cards had IDs (still read).
NAMED: dict[str, CardId] = {"rewinder": "6", "emergency_batteries": "7", "coffee_mug": "11", "false_bottom": "Y",
                            "emergency_drop": "3.3"}


# Every refusal's ``code``: the page words each from its catalogues (``reason.CODE``, docs/i18n.md),
# with the refusal's ``fields``; the English message stays for the CLI.
REFUSAL_CODES = ("card_unknown", "card_count", "card_not_providing", "mission_not_named", "mission_grants_none",
                 "character_used", "card_not_on_board", "card_used", "card_locked", "card_on_board",
                 "character_not_used", "card_not_named", "card_covered", "card_locked_covered",
                 "card_locked_covered_yellow")

# M12 "Wrapped in Red Tape": the cuts of its covering Number card's value a card also needs.  rules.md is
# silent on M12; the reading comes from third-party summaries of the card (a Korean mission list and a
# JS implementation's "equipment_double_lock", both quoting the publisher's FAQ) and is marked [U] in
# docs/table-format.md.  Readings kept here, in one place:
# * a card unlocks when BOTH hold: its own cuts (2 of its value; 4 for a double-numbered card; 2
#   yellows for False Bottom) and COVER_NEEDS wires of its Number card's value;
# * a Number card of the card's own value is met by the same cuts (the FAQ: one pair unlocks both), so
#   such a card needs max(own, COVER_NEEDS) cuts of that value: a double-numbered card still needs 4;
# * the cards False Bottom adds during play were not on the board at setup: no Number card covers them.
COVER_NEEDS = 2


class EquipmentError(ValueError):
    """An impossible use of equipment; ``field`` is the event's field at fault, ``code`` and
    ``fields`` the refusal for the page (one of REFUSAL_CODES)."""

    def __init__(self, field: str, message: str, code: str, **fields: Any):
        super().__init__(message)
        assert code in REFUSAL_CODES, code
        self.field, self.code, self.fields = field, code, fields

    def __reduce__(self) -> tuple[Any, ...]:
        # Whole after pickling (an error from another process): the default rebuilds from the message alone.
        return _rebuilt_equipment_error, (self.field, str(self), self.code, self.fields)


def _rebuilt_equipment_error(field: str, message: str, code: str, fields: dict[str, Any]) -> EquipmentError:
    """An EquipmentError from its pickled parts (its fields are keywords, which pickling cannot pass)."""
    return EquipmentError(field, message, code, **fields)


class Need(Record):
    """One piece of equipment an event uses: the cards and characters that can provide it,
    and the mission rule (missions.py tag) that grants it instead (``mission``), if any."""

    __slots__ = ("what", "cards", "characters", "mission")
    what: str
    cards: tuple[CardId, ...]
    characters: tuple[str, ...]
    mission: str | None

    def __init__(self, what: str, cards: tuple[CardId, ...], characters: tuple[str, ...] = (),
                 mission: str | None = None):
        super().__init__(what, cards, characters, mission)

    def allowed(self) -> str:
        names = [f'"{c}" ({CARDS[c].name})' for c in self.cards]
        names += [f'"{CHARACTER}" ({CHARACTERS[c]})' for c in self.characters]
        if self.mission:
            names.append(f'"{MISSION}" ({GRANTS[self.mission]})')
        return " or ".join(names)


# The mission rules that grant a use of a piece of equipment (rules.md §6), by missions.py tag
GRANTS = {"double_detector_every_turn": "M58 grants the Double Detector every turn",
          "radar_each_turn": "M18 uses the General Radar every turn"}
GRANTS_TEXT = "; ".join(GRANTS.values())


XY_RAY = Need("the X or Y ray", ("10",), ("xy_ray",))
STABILIZER = Need("the Stabilizer", ("9",))
DETECTORS = {"double": Need("the Double Detector", (), ("double_detector",), mission="double_detector_every_turn"),
             "triple": Need("the Triple Detector", ("3",), ("triple_detector",)),
             "super": Need("the Super Detector", ("5",))}
RADAR = Need("the General Radar", ("8",), ("general_radar",), mission="radar_each_turn")
LABELS = {"equal": Need("the Label =", ("12",)), "different": Need("the Label ≠", ("1",))}
POST_IT = Need("the Post-it", ("4",))
SINGLE_WIRE_LABEL = Need("the Single Wire Label", ("2.2",))
FAST_PASS = Need("the Fast Pass", ("9.9",))
DISINTEGRATOR = Need("the Disintegrator", ("10.10",))
GRAPPLING_HOOK = Need("the Grappling Hook", ("11.11",))
WALKIE_TALKIES = Need("the Walkie-Talkies", ("2",), ("walkie_talkies",))


def card_id(raw: Any, field: str = "card") -> CardId:
    """A printed card ID (or a pre-ID name of the ``equipment`` event)."""
    if isinstance(raw, str) and raw in CARDS:
        return raw
    if isinstance(raw, str) and raw in NAMED:
        return NAMED[raw]
    given = repr(raw) if isinstance(raw, str) and len(raw) <= 20 else None
    shown = given or type(raw).__name__
    # Another value than a short text is named by its JSON kind, which the page words in its language.
    raise EquipmentError(field, f"{shown} is not an equipment card ({', '.join(CARDS)})", "card_unknown",
                         given=given, kind=json_kind(raw))


def json_kind(raw: Any) -> str:
    """The kind of a JSON value, as the page words it: text, number, list, object, boolean or null."""
    if raw is None:
        return "null"
    if isinstance(raw, bool):
        return "boolean"
    if isinstance(raw, (int, float)):
        return "number"
    if isinstance(raw, str):
        return "text"
    return "list" if isinstance(raw, list) else "object"


class BoardState:
    """The cards on the board and the characters, followed event by event.

    ``cut`` is the parser's live count of cut wires by gameplay value, read at
    each use: a card unlocked by the very cuts of an event is usable from the next.
    ``cards`` None: the table does not list its board, so nothing is followed and a
    ``card`` entry is only checked to do what its event does.  ``rules``: the tags of the
    table's mission (None: it names none), which say what a ``"mission"`` entry may provide.
    ``covers``: M12's covering Number card of each card on the board at setup (card -> value; empty
    in every other mission).
    """

    def __init__(self, cards: tuple[CardId, ...] | None, characters: tuple[str, ...], cut: dict[Value, int],
                 rules: frozenset[str] | None = None, covers: dict[CardId, int] | None = None):
        self.followed = cards is not None
        self.rules = rules
        self.board: list[CardId] = list(cards or ())
        self.used: set[CardId] = set()
        self.characters = characters
        self.character_used = [False] * len(characters)
        self.cut = cut
        self.covers: dict[CardId, int] = dict(covers or {})

    def own_unlocked(self, card: CardId) -> bool:
        """The card's own cuts are made (rules.md §5)."""
        c = CARDS[card]
        return self.cut.get(c.unlock, 0) >= c.needs

    def uncovered(self, card: CardId) -> bool:
        """No Number card covers the card any more (M12: COVER_NEEDS of its value cut), or none ever did."""
        cover = self.covers.get(card)
        return cover is None or self.cut.get(cover, 0) >= COVER_NEEDS

    def unlocked(self, card: CardId) -> bool:
        return self.own_unlocked(card) and self.uncovered(card)

    def spend(self, needs: list[Need], given: list[str], actor: int | None) -> None:
        """Spend one provider per need: ``given`` lists the event's ``card`` entries."""
        if len(given) != len(needs):
            what = ", ".join(n.what for n in needs) or "no equipment"
            raise EquipmentError("card", f"the event uses {what}: name {len(needs)} card(s), not {len(given)}",
                                 "card_count", needs=len(needs), given=len(given))
        left = list(needs)
        for entry in given:
            if entry == MISSION:
                self._granted(left)
            need = next((n for n in left if self._provides(n, entry, actor)), None)
            if need is None:
                wanted = "; ".join(f"{n.what}: {n.allowed()}" for n in left)
                raise EquipmentError("card", f"{entry!r} does not provide what the event uses ({wanted})",
                                     "card_not_providing", entry=entry)
            left.remove(need)
            self._use(entry, actor)

    def _granted(self, left: list[Need]) -> None:
        """Refuse a "mission" entry where the table's mission grants none of ``left``: it would
        spend nothing, so any card or character could be used again and again under its name."""
        granted = [n for n in left if n.mission]
        if not granted:
            return  # the generic refusal says what the event uses
        if self.rules is None:
            if self.followed:
                raise EquipmentError("card", f'"{MISSION}": the table lists its equipment but names no mission '
                                             f"(meta.mission), so no use is known to be granted ({GRANTS_TEXT})",
                                     "mission_not_named")
            return  # neither board nor mission: a card is only checked to do what its event does
        if not any(n.mission in self.rules for n in granted):
            what = " or ".join(n.what for n in granted)
            raise EquipmentError("card", f'"{MISSION}": this mission grants no use of {what} ({GRANTS_TEXT}); '
                                         f"name the card or character spent", "mission_grants_none")

    def _provides(self, need: Need, entry: str, actor: int | None) -> bool:
        if entry == MISSION:
            return need.mission is not None and (self.rules is None or need.mission in self.rules)
        if entry == CHARACTER:
            return actor is not None and self.characters[actor] in need.characters
        return entry in need.cards

    def _use(self, entry: str, actor: int | None) -> None:
        if entry == MISSION or not self.followed:
            return
        if entry == CHARACTER:
            assert actor is not None
            self.use_character(actor)
            return
        self.use_card(entry)

    def use_character(self, player: int) -> None:
        if self.character_used[player]:
            raise EquipmentError("card", f"player {player}'s {CHARACTERS[self.characters[player]]} is already "
                                         "used (Emergency Batteries re-enable it)", "character_used", player=player)
        self.character_used[player] = True

    def use_card(self, card: CardId) -> None:
        if not self.followed:
            return
        name = f"card {card} ({CARDS[card].name})"
        if card not in self.board:
            raise EquipmentError("card", f"{name} is not on the board ({', '.join(self.board) or 'none'})",
                                 "card_not_on_board", card=card)
        if card in self.used:
            raise EquipmentError("card", f"{name} is already used", "card_used", card=card)
        if not self.unlocked(card):
            self._refuse_locked(card, name)
        self.used.add(card)

    def _refuse_locked(self, card: CardId, name: str) -> None:
        """Why ``card`` cannot be used yet: the cuts it still misses (its own, its Number card's, or both)."""
        c = CARDS[card]
        what = "yellow wires" if c.unlock == YELLOW else f"wires of value {c.unlock}"
        own = dict(needs=c.needs, unlock=c.unlock, cut=self.cut.get(c.unlock, 0))
        if self.uncovered(card):
            raise EquipmentError("card", f"{name} is still locked: it needs {c.needs} {what} cut, {own['cut']} are",
                                 "card_locked", card=card, **own)
        cover = self.covers[card]
        covered = dict(cover=cover, cover_needs=COVER_NEEDS, cover_cut=self.cut.get(cover, 0))
        needed = (f"{COVER_NEEDS} wires of value {cover} cut for the Number card {cover} covering it (M12), "
                  f"{covered['cover_cut']} are")
        if self.own_unlocked(card):
            raise EquipmentError("card", f"{name} is still covered: it needs {needed}", "card_covered",
                                 card=card, **covered)
        code = "card_locked_covered_yellow" if c.unlock == YELLOW else "card_locked_covered"
        raise EquipmentError("card", f"{name} is still locked: it needs {c.needs} {what} cut ({own['cut']} are) "
                                     f"and {needed}", code, card=card, **own, **covered)

    def add_cards(self, added: list[CardId]) -> None:
        """False Bottom: two more cards join the board."""
        if not self.followed:
            return
        for card in added:
            if card in self.board:
                raise EquipmentError("added", f"card {card} ({CARDS[card].name}) is already on the board",
                                     "card_on_board", card=card)
            self.board.append(card)

    def recharge(self, players: list[int]) -> None:
        """Emergency Batteries: re-enable 1-2 used characters."""
        if not self.followed:
            return
        for p in players:
            if not self.character_used[p]:
                raise EquipmentError("characters", f"player {p}'s character is not used: nothing to re-enable",
                                     "character_not_used", player=p)
            self.character_used[p] = False

    def drop(self) -> None:
        """Emergency Drop: every used card face up again (the Drop itself is spent now)."""
        self.used = {"3.3"} & self.used

    def json(self) -> dict[str, Any]:
        """The board for the page: every card's state, and every player's character."""
        def state(card: CardId) -> str:
            return "used" if card in self.used else "unlocked" if self.unlocked(card) else "locked"

        def entry(card: CardId) -> dict[str, Any]:
            out: dict[str, Any] = {"card": card, "name": CARDS[card].name, "state": state(card)}
            if card in self.covers:  # M12: its Number card, and whether its cuts are made (the card is removed)
                out.update(cover=self.covers[card], covered=not self.uncovered(card))
            return out

        return {"cards": [entry(c) for c in self.board],
                "characters": [{"character": ch, "name": CHARACTERS[ch], "used": used}
                               for ch, used in zip(self.characters, self.character_used)]}


def needs(event: Any) -> tuple[list[Need], bool]:
    """The equipment an event uses, and whether naming it is optional (an info token may be a
    setup token, which uses no card, or a Post-it / Single Wire Label, which does)."""
    if isinstance(event, (DualCut, Detector)):
        used = [DETECTORS[event.kind]] if isinstance(event, Detector) else []
        if len(event.values) > 1:
            used.append(XY_RAY)
        if event.stabilizer:
            used.append(STABILIZER)
        return used, False
    if isinstance(event, InfoToken):
        single = event.token.kind == "count" and event.token.arg == 1 and not event.false
        return [Need("a Post-it or the Single Wire Label", ("4", "2.2")) if single else POST_IT], True
    if isinstance(event, Radar):
        return [RADAR], False
    if isinstance(event, Label):
        return [LABELS["equal" if event.equal else "different"]], False
    if isinstance(event, FastPass):
        return [FAST_PASS], False
    if isinstance(event, Disintegrator):
        return [DISINTEGRATOR], False
    if isinstance(event, Move):
        return ([GRAPPLING_HOOK] if event.source is not None else []), False  # Nano's transfers use no card
    if isinstance(event, Swap):
        return [WALKIE_TALKIES], False
    return [], False


def apply(state: BoardState, event: Any, given: tuple[str, ...], user: int | None) -> None:
    """Spend what ``event`` uses (``given``: its ``card`` entries, ``user``: who used them) and
    play the cards that change the board.  Raises :class:`EquipmentError` when impossible."""
    if isinstance(event, Equipment):
        state.use_card(event.card)
        if event.card == FALSE_BOTTOM:
            state.add_cards(list(event.added))
        elif event.card == "7":
            state.recharge(list(event.recharged))
        elif event.card == "3.3":
            state.drop()
        return
    wanted, optional = needs(event)
    if given or (wanted and not optional and state.followed):
        if not given:
            raise EquipmentError("card", f"the table lists its equipment: name what the event used ("
                                         + "; ".join(f"{n.what}: {n.allowed()}" for n in wanted) + ")", "card_not_named")
        state.spend(wanted, list(given), user)

