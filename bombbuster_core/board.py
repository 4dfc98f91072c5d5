"""Board: where every wire is, by its deal-time identity.

A wire's *identity* is its place in the deal: a (segment, index) pair.  A
segment is one sorted group of the shuffle — the sorted part of a stand, an
unsorted X slot (one wire), a flipped wire (one), M64's flipped pair (two,
sorted: the lower shown at the far left, the higher at the far right), one
of Nano's wires (M43: one each, taken in order) — so that a deal is each
segment's sorted tiles, and the segments are exactly the problem's stands
(see facts.py).  Dealing a uniform shuffle into these groups is the same
shuffle as the table's deal: which positions end up in a group never
depends on the values (X: the last wire dealt; flipped: chosen without
looking).

Events address wires by their CURRENT position (player, stand, slot).  Moves
(Grappling Hook, Walkie-Talkies, Nano) renumber a stand, so a :class:`Board`
replays them: :meth:`Board.wire` turns an address into an identity.  A
moved wire keeps its identity; its new place only adds order relations.
"""
from __future__ import annotations

from .record import Record

Wire = tuple[int, int]  # (segment, index in the segment's sorted order)

# Stand shapes (format 1: a stand object's "x_slot" / "flipped").
PLAIN, X_ANY, X_BLUE, FLIP, FLIP_PAIR, FLIP_LOW, FLIP_HIGH = "plain", "x_any", "x_blue", "flip", "flip2", "low", "high"
SPECIAL_SLOTS = {PLAIN: 0, X_ANY: 1, X_BLUE: 1, FLIP: 1, FLIP_PAIR: 2, FLIP_LOW: 1, FLIP_HIGH: 1}


class Segment(Record):
    """One sorted group of the deal.  ``kind``: "main" (a stand's sorted part), "x", "flip",
    "pair" (M64's two flipped wires of a player) or "nano"; ``player``/``stand`` say whose
    (None for Nano)."""

    __slots__ = ("player", "stand", "kind", "size")
    player: int | None
    stand: int
    kind: str
    size: int

    def __init__(self, player: int | None, stand: int, kind: str, size: int):
        super().__init__(player, stand, kind, size)

    @property
    def special(self) -> bool:
        """Outside every stand's order: X and flipped wires (equipment never reaches them)."""
        return self.kind in ("x", "flip", "pair")

    @property
    def flipped(self) -> bool:
        return self.kind in ("flip", "pair")


def segments_and_layout(shapes: list[list[tuple[int, str]]], nano: int) -> tuple[list[Segment], list[list[list[Wire]]]]:
    """The deal's segments and each stand's wires at the deal, left to right.

    ``shapes[p][s]`` is (size, shape) of player p's stand s.  Main segments
    come first in seat order (their ids are the stand's order in the file, as
    for a base-game table), then X/flipped ones, then Nano's.
    """
    segments: list[Segment] = []
    main: dict[tuple[int, int], int] = {}
    for p, stands in enumerate(shapes):
        for s, (size, shape) in enumerate(stands):
            main[(p, s)] = len(segments)
            segments.append(Segment(p, s, "main", size - SPECIAL_SLOTS[shape]))
    layout: list[list[list[Wire]]] = []
    for p, stands in enumerate(shapes):
        pair = None
        if any(shape in (FLIP_LOW, FLIP_HIGH) for _, shape in stands):
            pair = len(segments)
            segments.append(Segment(p, 0, "pair", 2))
        rows = []
        for s, (size, shape) in enumerate(stands):
            m = main[(p, s)]
            body = [(m, j) for j in range(segments[m].size)]
            if shape in (X_ANY, X_BLUE, FLIP):
                extra = len(segments)
                segments.append(Segment(p, s, "x" if shape != FLIP else "flip", 1))
                rows.append(body + [(extra, 0)])
            elif shape == FLIP_PAIR:
                extra = len(segments)
                segments.append(Segment(p, s, "pair", 2))
                rows.append([(extra, 0)] + body + [(extra, 1)])
            elif shape == FLIP_LOW:
                rows.append([(pair, 0)] + body)  # type: ignore[list-item]
            elif shape == FLIP_HIGH:
                rows.append(body + [(pair, 1)])  # type: ignore[list-item]
            else:
                rows.append(body)
        layout.append(rows)
    for _ in range(nano):
        segments.append(Segment(None, 0, "nano", 1))
    return segments, layout


class Board:
    """The stands as they are now: current order of wire identities, and which are cut."""

    def __init__(self, segments: list[Segment], layout: list[list[list[Wire]]]):
        self.segments = segments
        self.stands = [[list(row) for row in rows] for rows in layout]
        self.cut: set[Wire] = set()
        self.nano = [(i, 0) for i, seg in enumerate(segments) if seg.kind == "nano"]  # left in Nano, in draw order

    def size(self, player: int, stand: int) -> int:
        return len(self.stands[player][stand])

    def wire(self, player: int, stand: int, slot: int) -> Wire:
        return self.stands[player][stand][slot]

    def special(self, wire: Wire) -> bool:
        return self.segments[wire[0]].special

    def owner_flipped(self, wire: Wire, player: int) -> bool:
        """A flipped wire of ``player`` (they cannot see it)."""
        seg = self.segments[wire[0]]
        return seg.flipped and seg.player == player

    def hand(self, player: int, stand: int | None = None) -> list[Wire]:
        """Every wire now on the player's stands (or one stand), cut ones included."""
        rows = self.stands[player] if stand is None else [self.stands[player][stand]]
        return [w for row in rows for w in row]

    def uncut(self, player: int, stand: int | None = None) -> list[Wire]:
        return [w for w in self.hand(player, stand) if w not in self.cut]

    def visible_uncut(self, player: int, stand: int | None = None) -> list[Wire]:
        """The player's uncut wires they can see: all but their own flipped wires."""
        return [w for w in self.uncut(player, stand) if not self.owner_flipped(w, player)]

    def neighbours(self, player: int, stand: int, slot: int) -> tuple[Wire | None, Wire | None]:
        """Nearest uncut sorted (not X/flipped) wires left and right of ``slot``."""
        row = self.stands[player][stand]
        ok = [w if w not in self.cut and not self.special(w) else None for w in row]
        left = next((w for w in reversed(ok[:slot]) if w is not None), None)
        right = next((w for w in ok[slot + 1:] if w is not None), None)
        return left, right

    def remove(self, player: int, stand: int, slot: int) -> Wire:
        return self.stands[player][stand].pop(slot)

    def insert(self, player: int, stand: int, slot: int, wire: Wire) -> None:
        self.stands[player][stand].insert(slot, wire)

    def take_nano(self) -> Wire:
        return self.nano.pop(0)

    def address(self, wire: Wire) -> tuple[int, int, int] | None:
        """Current (player, stand, slot) of a wire; None while it is in Nano's pool."""
        for p, rows in enumerate(self.stands):
            for s, row in enumerate(rows):
                if wire in row:
                    return p, s, row.index(wire)
        return None
