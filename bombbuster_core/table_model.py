"""The table as typed values: the players and their stands, the deck, the observer's hand, the events
and the equipment each spent (what :func:`~bombbuster_core.table.load_table` returns), and the replay of
the events on a :class:`~bombbuster_core.board.Board` (where each wire is now, which are cut).

Below the table file's reader (table.py) and the public state (public_state.py), which both replay
events with :func:`advance`.
"""
from __future__ import annotations

from . import equipment as eq
from .board import PLAIN, Board, Segment, Wire, segments_and_layout
from .events import Event, Move, RevealRed, SlotRef, Swap, Tripwire, cut_by
from .missions import mission as mission_card
from .record import Record
from .wires import RED, YELLOW, Deck, Key, Value


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
    card's number from ``meta.mission`` (None: not given), read for the dial (public_state.py) and for
    the equipment uses the mission grants (equipment.py); ``covers`` M12's covering Number card of each
    card on the board, as (card, value) pairs in the board's order (empty in other missions)."""

    __slots__ = ("players", "deck", "me", "my_stands", "events", "nano", "red_value", "seen", "equipment", "uses",
                 "mission", "covers")
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
    covers: tuple[tuple[eq.CardId, int], ...]

    def __init__(self, players: tuple[Player, ...], deck: Deck, me: int | None,
                 my_stands: tuple[tuple[Key | None, ...], ...], events: tuple[Event, ...], nano: int = 0,
                 red_value: int | None = None, seen: tuple[tuple[Wire, Key], ...] = (),
                 equipment: tuple[eq.CardId, ...] | None = None, uses: tuple[Use, ...] = (),
                 mission: int | None = None, covers: tuple[tuple[eq.CardId, int], ...] = ()):
        super().__init__(players, deck, me, my_stands, events, nano, red_value, seen, equipment, uses, mission,
                         covers)

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
        state = eq.BoardState(self.equipment, tuple(p.character for p in self.players), cut, self.mission_rules(),
                              dict(self.covers))
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
