"""The game's public state as a table's events leave it: the detonator dial, whose turn it is, the result.

One reading of these for every mission (rules.md §3, §4, §6), which the rest
of the project takes from here: ``analyze`` reports it (``"state"``), the
table parser refuses an event recorded after the game was lost, the
Rewinder's advice reads the dial, the simulator's own state is checked
against it (tests/test_public_state.py), and the page's copy for instant
display (web/js/gamestate.js) is tested equal to it after every event of
simulated games of every mission and player count.

**The dial.**  With N players it starts N spaces from the skull, so the N-th
failure explodes; M51 starts a space further back (N + 1); M41, M55, M60 and
M62 set it to a printed space, read as the space next to the skull (rules.md
§4: M41's card shows it; S5 gives all four 1 life).  Moves read from the events:

* +1 for a failed dual cut or detector (not with the Stabilizer, which keeps
  the dial still; not when it explodes: the game is over), for M41's failed
  tripwire call and for M48's failed cut of the three yellows;
* +1 more when a dual cut points at a teammate's flipped wire in M56/M64
  (rules.md §6), unless that cut ended the game;
* -1 for the Rewinder, never past the start for N players (nor M51's start:
  the S3 code's ``detonatorMax = players``); -1 for M41's tripwire success,
  up to the dial's farthest marked section (5 spaces from the skull: its
  5-player start), the reading the simulator plays.

Missions that move the dial by what the events do not record (a skipped
turn, a hidden or secret card, a challenge, Nano in place of the dial:
:data:`DIAL_UNREAD`) get no dial: the state says why rather than guess.

**The result.**  Lost at an event recorded with ``"exploded": true`` (how:
``red`` for a red wire cut -- M11's Number counts as red -- a detector whose
targets are all red, a red tripwire target or a red among M48's yellows;
``mission`` for a mission's own explosion: a failed special action, one's
own flipped wire); lost by the mission's own explosion at a failed dual cut
or detector of M14's rookie or M28's Captain Careless (missions.py
``FAILURE_EXPLODES``: the failure is recorded as it is, with no token, and
the mission's rule ends the game); lost by the ``dial`` when it reaches the
skull; won once every wire is cut (Nano's too).  Where a mission can end in a
way the events do not record (:data:`RESULT_UNREAD`), "going on" is not
claimed: the state says so.

**The turn.**  Seat order from the Captain, each turn event passing it on
(a cut, a detector, "reveal your reds", a special action, Fast Pass; the
Coffee Mug names who plays next), skipping a player who holds no uncut wire
they can see.  Missions that skip or designate players by rules the events
do not record (:data:`TURN_UNREAD`) get no turn.
"""
from __future__ import annotations

from . import equipment as eq
from .board import Board
from .events import Detector, DualCut, Equipment, FastPass, MultiCut, RevealRed, SoloCut, Tripwire
from .missions import failure_explodes
from .record import Record
from .table_model import advance
from .wires import YELLOW

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .events import Event
    from .table_model import Table

DIAL_SECTIONS = 5  # the dial's marked sections: the 5-player start is the farthest from the skull (rules.md §4)
NEXT_TO_SKULL = frozenset({41, 55, 60, 62})  # the printed start, read as the space next to the skull
# Missions whose dial moves by what a table's events do not record (sim/game.py plays each of these).
_SKIP = "a skipped turn moves the dial, and a skip is not an event"
DIAL_UNREAD: dict[int, str] = {
    29: "a hidden Number card played by a teammate moves the dial when its value is cut that turn; the cards "
        "are not in the events",
    32: "the shared Constraint card may be L (a failure costs 2 spaces); the cards are not in the events",
    34: "the weakest link's secret constraint costs 2 spaces when it stops their turn; it is not in the events",
    37: "a round nobody could play moves the dial, and the Constraint card may be L (a failure costs 2): "
        "neither is in the events",
    38: "a teammate who cannot play (only the Captain cuts the Captain's flipped wire) moves the dial; "
        + _SKIP,
    44: f"a player out of oxygen: {_SKIP}",
    45: "a volunteer or designated player without the value moves the dial, with no event of its own",
    47: f"a player without a wire of the sums: {_SKIP}",
    49: f"a player out of oxygen: {_SKIP}",
    51: "a designated player without the value moves the dial, with no event of its own",
    53: "Nano replaces the dial: its space moves by each turn's cuts",
    54: "its rules come with the audio track, which no source documents",
    55: "its challenge cards move the dial back; they are not in the events",
    57: "a round nobody could play explodes and the Constraint card may be L (a failure costs 2): neither is in "
        "the events",
    59: f"a player Nano leaves without a value: {_SKIP}",
    60: "its challenge cards move the dial back; they are not in the events",
    61: "a round nobody could play explodes and a Constraint card may be L (a failure costs 2): neither is in "
        "the events",
    62: "its Number cards move the dial back when their value is validated; they are not in the events",
    63: f"a player out of oxygen: {_SKIP}",
    65: f"a player without a value of their Number cards: {_SKIP}",
}
# Missions that may end in a way the events do not record, besides those whose dial is not read.
RESULT_UNREAD: dict[int, str] = {
    9: "the bomb explodes when a player holds only wires the Sequence card does not allow yet; that skipped "
       "turn is not an event",
    16: "the bomb explodes when a player holds only wires the Sequence cards do not allow yet; that skipped "
        "turn is not an event",
}
# Missions whose turn order is not the seat order the events leave (skips, designations, Nano's moves).
TURN_UNREAD: dict[int, str] = {
    **{m: "a player who cannot play is skipped, and a skip is not an event"
       for m in (9, 16, 26, 31, 32, 34, 35, 36, 37, 38, 41, 44, 46, 47, 49, 56, 57, 59, 61, 63, 64, 65)},
    18: "a drawn Number card designates who cuts",
    29: "a hidden Number card is played before each turn",
    43: "Nano's wires are taken at the end of a turn",
    45: "a drawn Number card is cut by a volunteer or a designated player",
    51: "a drawn Number card designates who cuts",
    53: "Nano moves each turn",
    54: "its rules come with the audio track, which no source documents",
    55: "its challenges are not in the events",
    60: "its challenges are not in the events",
}
# Events that are a player's turn action: the turn passes on after them.
_TURN_EVENTS = (DualCut, Detector, SoloCut, RevealRed, FastPass, MultiCut, Tripwire)


class Dial(Record):
    """The dial: ``start`` spaces from the skull at the start, ``moved`` spaces on from there now
    (negative: behind its start, moved back by a mission's rule)."""

    __slots__ = ("start", "moved")
    start: int
    moved: int

    def __init__(self, start: int, moved: int):
        super().__init__(start, moved)

    @property
    def spaces_left(self) -> int:
        """Spaces from the dial to the skull (0: it reached it)."""
        return self.start - self.moved

    @property
    def failures_left(self) -> int:
        """Failures the team survives from here (0: the next one explodes, or it has)."""
        return max(self.spaces_left - 1, 0)


class Result(Record):
    """How the game stands: ``outcome`` "won", "lost" or None (going on); a loss's ``cause``
    ("red", "dial" or "mission"); ``at`` the event that ended it; ``why`` in words."""

    __slots__ = ("outcome", "cause", "at", "why")
    outcome: str | None
    cause: str | None
    at: int | None
    why: str

    def __init__(self, outcome: str | None, cause: str | None = None, at: int | None = None, why: str = ""):
        super().__init__(outcome, cause, at, why)

    @property
    def headline(self) -> str:
        """The result in a few words, with the event that decided it."""
        if self.outcome is None:
            return "the game is going on"
        if self.outcome == "won":
            return f"the mission was won at event {self.at}"
        return f"the {'detonator dial reached the skull' if self.cause == 'dial' else 'bomb exploded'} at event {self.at}"


GOING_ON = Result(None, why="the game is going on")


class PublicState(Record):
    """The dial (None: not read, ``dial_unread`` says why), the player to move (None: the game is
    over, nobody holds a wire, or not read: ``turn_unread``), the result (``result_unread``: a
    way the mission may end that the events do not record)."""

    __slots__ = ("mission", "dial", "dial_unread", "turn", "turn_unread", "result", "result_unread")
    mission: int | None
    dial: Dial | None
    dial_unread: str | None
    turn: int | None
    turn_unread: str | None
    result: Result
    result_unread: str | None

    def __init__(self, mission: int | None, dial: Dial | None, dial_unread: str | None, turn: int | None,
                 turn_unread: str | None, result: Result, result_unread: str | None):
        super().__init__(mission, dial, dial_unread, turn, turn_unread, result, result_unread)

    @property
    def closed(self) -> bool:
        """Nothing may be recorded or advised any more (:func:`closes`)."""
        return closes(self.result, self.mission)

    def json(self) -> dict[str, Any]:
        d = self.dial
        r = self.result
        return {
            "mission": self.mission,
            "dial": None if d is None else {"start": d.start, "moved": d.moved, "spaces_left": d.spaces_left,
                                            "failures_left": d.failures_left},
            "dial_unread": self.dial_unread,
            "turn": self.turn, "turn_unread": self.turn_unread,
            "result": r.outcome or "going on", "lost_by": r.cause, "ended_at": r.at, "why": r.why,
            "headline": r.headline,
            "result_unread": self.result_unread,
        }


def closes(result: Result, mission: int | None) -> bool:
    """Whether the game's result ends the record: nothing may be recorded or advised after it.
    Every loss closes a table that names its mission; a table that names none (a wire set)
    closes at an explosion only: its dial's start is the standard one by assumption (the table
    does not say which mission places it), so a loss by that dial is reported but the record
    stays open."""
    return result.outcome == "lost" and not (result.cause == "dial" and mission is None)


def _mission_says(mission: int | None, table: dict[int, str]) -> str | None:
    return None if mission is None or mission not in table else f"mission {mission}: {table[mission]}"


def dial_start(mission: int | None, players: int) -> int:
    """Spaces from the dial's start to the skull (module docstring)."""
    if mission in NEXT_TO_SKULL:
        return 1
    return players + 1 if mission == 51 else players


class StateReader:
    """Reads the public state event by event (the table parser feeds it as it parses)."""

    def __init__(self, mission: int | None, players: int):
        self.mission = mission
        self.players = players
        self.start = dial_start(mission, players)
        self.moved = 0
        self.dial_unread = _mission_says(mission, DIAL_UNREAD)
        self.result = GOING_ON
        self.last_actor: int | None = None
        self.next_player: int | None = None  # the Coffee Mug's choice
        self.board: Board | None = None

    @property
    def lost(self) -> bool:
        return self.result.outcome == "lost"

    def step(self, i: int, e: Event, board: Board) -> None:
        """Event ``i``, already played on ``board`` (table_model.advance)."""
        self.board = board
        self._dial_and_result(i, e, board)
        if isinstance(e, _TURN_EVENTS):
            self.last_actor, self.next_player = e.actor, None
        elif isinstance(e, Equipment) and e.card == eq.NAMED["coffee_mug"] and e.next is not None:
            self.next_player = e.next
        if self.result.outcome is None and all(w in board.cut for rows in board.stands for row in rows
                                               for w in row) and not board.nano:
            self.result = Result("won", at=i, why="every wire is cut")

    def _lose(self, i: int, cause: str, why: str) -> None:
        self.result = Result("lost", cause, i, why)

    def _move(self, i: int, spaces: int) -> None:
        self.moved += spaces
        if self.moved >= self.start and not self.lost and not self.dial_unread:
            self._lose(i, "dial", "the detonator dial reached the skull")

    def _dial_and_result(self, i: int, e: Event, board: Board) -> None:
        if isinstance(e, (DualCut, Detector)):
            if e.exploded:
                if e.success:
                    self._lose(i, "mission", "one's own flipped wire was not the value called")
                else:
                    self._lose(i, "red", "a red wire was cut" if isinstance(e, DualCut) else
                               "every wire the detector pointed at was red")
                return
            if not e.success and not e.stabilizer:
                rookie = failure_explodes(self.mission, e.actor)
                if rookie is not None:
                    self._lose(i, "mission", rookie)
                    return
                self._move(i, 1)
            if isinstance(e, DualCut) and self.mission in (56, 64) and not self.lost:
                seg = board.segments[board.wire(e.target.player, e.target.stand, e.target.slot)[0]]
                if seg.flipped:  # a teammate's flipped wire costs a space (rules.md §6)
                    self._move(i, 1)
        elif isinstance(e, MultiCut):
            if e.exploded:
                if e.value == YELLOW:
                    self._lose(i, "red", "a red wire was among the yellows cut together")
                else:
                    self._lose(i, "mission", "the special action failed")
            elif not e.success:
                self._move(i, 1)  # M48: true tokens on the yellows called, the dial advances
        elif isinstance(e, Tripwire):
            if e.exploded:
                self._lose(i, "red", "the tripwire call hit a red wire")
            elif e.success:
                self.moved = max(self.moved - 1, self.start - max(DIAL_SECTIONS, self.start))
            else:
                self._move(i, 1)
        elif isinstance(e, Equipment) and e.card == eq.NAMED["rewinder"]:
            self.moved = max(self.moved - 1, self.start - max(self.players, self.start))

    def refusal(self) -> str | None:
        """Why no event may follow (None: one may): :func:`closes`."""
        if not closes(self.result, self.mission):
            return None
        return f"{self.result.headline}: the game is over (a restarted mission is a new game)"

    def state(self) -> PublicState:
        m, dial_unread, result = self.mission, self.dial_unread, self.result
        turn_unread = _mission_says(m, TURN_UNREAD)
        result_unread = dial_unread or _mission_says(m, RESULT_UNREAD)
        dial = None if dial_unread else Dial(self.start, self.moved)
        turn = None
        if result.outcome is None and not turn_unread and self.board is not None:
            turn = self._turn(self.board)
        return PublicState(m, dial, dial_unread, turn, turn_unread, result,
                           None if result.outcome is not None else result_unread)

    def _turn(self, board: Board) -> int | None:
        n = self.players
        first = self.next_player if self.next_player is not None and self.next_player < n else \
            0 if self.last_actor is None else (self.last_actor + 1) % n
        for k in range(n):
            p = (first + k) % n
            if board.visible_uncut(p):
                return p
        return None


def public_state(table: Table) -> PublicState:
    """The public state after the table's events (module docstring)."""
    board = Board(*table.deal())
    reader = StateReader(table.mission, len(table.players))
    reader.board = board
    for i, e in enumerate(table.events):
        advance(board, e)
        reader.step(i, e, board)
    return reader.state()


def dial(table: Table) -> Dial | None:
    """The dial after the table's events, for the readers that need only it (the ranking's stakes,
    the Rewinder's advice); None where the mission moves it by rules the events do not record
    (DIAL_UNREAD says why)."""
    return public_state(table).dial
