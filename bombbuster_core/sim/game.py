"""A rules-accurate game engine for self-play: the base game and every mission rule (rules.md §1-§7).

:func:`new_game` deals a mission preset (missions.py; the drawn yellow/red
values, M11's Number card and the mission's cards are drawn at random) or
any wire set, and :class:`Game` plays it.  Every public event is a format-1
event (docs/table-format.md), so :meth:`Game.table` is a valid table file from
any player's view (or the public one), which the analyzer reads exactly.

**The deal** is a uniform shuffle of the tiles in play into the deal's
segments (board.py: each stand's sorted part, X and flipped wires, M64's
flipped pair, Nano's wires) -- the analyzer's model of the physical deal: X
is the last wire dealt (any tile of the stand), a flipped wire is taken
without looking, M35's X wires are blue tiles drawn first, pre-dealt colours
(M13 reds, M41/M48 yellows) go one per player clockwise from the Captain
(M41 with 5 players: not the Captain; a 2-player Captain's two: one per
stand; a 2-stand player's one: on a stand drawn in proportion to its size)
and are announced as ``dealt`` events.

**Setup.** Each player from the Captain clockwise places their token(s),
chosen by the policy (:meth:`Game.setup_token_players` / :meth:`Game.place_token`):
a true token on a blue wire; M21/M33 even/odd; M24/M40 x1/x2/x3 (not red, the
value at most 3 times on the stand); M17 the Captain (Rhett) 2 false tokens
on non-red wires, M52 everyone 2 false tokens on blue or red wires; M22 two
values absent from the hand (``absent``).  None in M18/M58, none for the
2-player Captain where the card says so.  Random tokens (M13, M39, M41, the
2-player Captain of M43) are drawn by the game from the token supply (a
yellow draw replaced in M13/M39) and placed on a matching wire or beside the
stand (``absent``).  Then the mission's opening choices: M31 each player's
Constraint card, M36 the Sequence card's end.

**Turns**, clockwise from the Captain, a player with no uncut wire skipped.
The player to move does one legal action (:meth:`Game.legal_moves`; the view's
``meta.sim.pending`` says what is allowed -- the hook a later step extends with
equipment): a dual cut (success: both cut, the caller's own wire their
leftmost cuttable one of the value unless the action names their own flipped
wire; failure: the dial advances and the target gets the mission's token),
the Double Detector (once per character; every turn in M58; none in M27, M34,
for M28's Captain or under constraint G), a solo cut (every remaining wire of
the value -- X, flipped and Nano's included -- is the caller's and cuttable),
"reveal your reds", and the special actions: ``multi_cut`` (M13 three reds,
M23/M39 the four of the Number card, M46 the four 7s, M48 the three yellows,
M55/M60 challenge 1 "it is red" on one teammate wire) and ``tripwire`` (M41).
A call needs an uncut wire of the value the caller can see and may cut now.
A turn with no legal action is skipped, with the mission's consequence
(``absent`` event when the skip says the hand holds none of the allowed
values; dial costs; explosions).

**Mission rules played** (rules.md §6; S3's card texts): counts-as-red (M11),
Number/sequence cards (M9, M16, M36), forced-value turns (M18 radar and
designation, M45 volunteers and the Captain's pick, M51 Sir/Ma'am with the
refusal token), visible Number cards (M26), hidden Number cards (M29: the
right neighbour's card drawn at random), Constraint cards (M31 chosen and
flipped, M32 shared with the Captain replacing it after a skip, M34 the
secret weakest link, M37 replaced at each validation, M57 paired with the
numbers, M61 personal, never rotated nor exchanged), the sums of M47, oxygen
(M44 shared reserve, M49 given to the teammate holding the fewest, M63
passed on), Nano (M43 transfers as ``move`` from "nano", M53 as the dial,
M59 on the number line), challenge cards (M55, M60), M62's Number cards,
X stands (M20 any colour, M35 blue, cut only after all 4 yellows), flipped
wires (M38 only the Captain cuts theirs; M56/M64 a teammate's costs +1 on
the dial; one's own flipped wire is cut by a normal cut that must succeed or
explodes), token passes and drafts after the first 2 yellows (M22, M27),
M39's Number deck and post-action tokens, the rookie (M14) and Captain
Careless (M28) whose failed cut explodes (missions.FAILURE_EXPLODES: recorded
as the failure with no token, which public_state.py reads as the game's end;
a red target as any red), M17/M52's false tokens (failures in their hands
give a null token), M58's no-information failures, the dial's start
(N players: N spaces; M51 N+1; M41/M55/M60/M62 the space next to the skull;
M53 none: Nano).  Rules about talking or real time (M10, M19, M25, M30, M42,
M44/M49/M63's silence, M66's audio and bunker) are played as their
information game: clockwise turns, the events they produce.  Refused:
:data:`REFUSED` (M54, whose reds enter by an audio track no source documents).

**The end**: every wire cut (Nano's too) wins; a red (or M11's number) cut
loses ("red"); the dial at the skull ("detonator"; M53 Nano at 12); a
mission's own explosion ("explosion": a failed special action, an own
flipped wire that was not the value, the rookie, the Captain Careless,
sequence-blocked wires, a round nobody could play in M57/M61); no player
able to make progress ("stuck").  ``strikes`` counts the failed cuts.

**Equipment** (rules.md §5; :func:`deal_equipment`, :meth:`Game.card_uses`): one card per player drawn
from the mission's pool, characters (E1-E4 drawn at random for the non-Captains from M31).  A card
unlocks by the cuts of its value (counted as the core counts them: each cutting event's value), is
spent once and its effect is played on the true deal as its format-1 event with ``"card"``.  The
turn decision lists the uses (``meta.sim.pending.equipment``: card, effect, options); a use is a
:class:`UseCard`.  "Any time" cards are played in one's own turn before its action and the player
decides again: Label ≠/= (1/12, on one's own adjacent pair: the owner places it [U]), Post-it (4: a
true token of the mission's kind on one's own uncut blue wire), Single Wire Label (2.2), Rewinder
(6), Emergency Batteries (7: 1-2 used characters), General Radar (8 / E1), Emergency Drop (3.3),
Disintegrator (10.10: a random blue value in play drawn, never yellow [U]), Grappling Hook (11.11: a
teammate's uncut wire into one's own stand, in order; a 2-stand player's stand is the option),
Walkie-Talkies (2 / E2: one's own uncut wire for a teammate's, the teammate's pick at random; each
goes in order into the stand the other left); the moving cards only on wires with no token, and not
where stands hold X / flipped wires or Nano moves wires.  The turn's action:
Triple / Super Detector (3 / E3, 5), X or Y ray (10 / E4, on a dual cut), Stabilizer (9, on a dual
cut: a failure does not move the dial; a red target: no explosion, no token; offered only where
every failure gives a true token and does not explode), Fast Pass (9.9, the caller's two leftmost
wires of the value), Coffee Mug (11: the turn is skipped and the player names the next active
player).  False Bottom (Y) plays itself when its 2nd yellow is cut (2 cards of the pool join the
board).  The cut cards are not offered where a cut costs or moves something first (M26, M44, M47,
M49, M55, M59, M60, M63).  Equipment never targets X or flipped wires.
"""
from __future__ import annotations

import copy
import random
from itertools import combinations

from .. import equipment as eq
from ..board import segments_and_layout
from ..missions import (BASE_MISSIONS, cards_barred, equipment_pool, even_deal, failure_explodes,
                        mission as mission_entry, new_table, stands_per_player)
from ..record import Record
from ..table import _SHAPES as STAND_SHAPES
from ..wires import RED, YELLOW, Key, Value, key_json, parse_key, value_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from ..table import Table

Slot = tuple[int, int, int]  # (player, stand, slot)

# Tags the base-game replay (Game.restore, the lookahead's rollouts, advice.py) plays.
SUPPORTED_TAGS = frozenset({"no_equipment", "no_setup_tokens", "captain_no_setup_token", "no_double_detector",
                            "memory_mode", "new_characters", "double_numbered_equipment"})
# Missions whose rules cannot be simulated, and why.
REFUSED = {54: "its 11 red wires lie on the card and enter play by the mission's audio track, which no source "
               "documents (rules.md §1.2 [U])"}
# Rules about talking, time or audio: played as their information game.
NOTES = {
    10: "timed, turns in any order: played clockwise (no information)",
    19: "audio file: played as the base game (no information)",
    25: "no numbers spoken: the same information events",
    30: "audio file, timed: played as the base game",
    42: "audio file: played as the base game",
    44: "silence underwater: the same information events",
    49: "silence underwater: the same information events",
    63: "silence underwater: the same information events",
    66: "the Bunker card and audio file guide the cuts (undocumented): played as the base game",
}
# Mission cards nobody has seen (a deck's order and which cards it holds: M18, M29, M32, M37, M39, M45,
# M51; M61's cards left on the table): kept out of every table file, which shows how many there are.
HIDDEN_STATE = {"deck": "deck_size", "table_cards": "table_cards_count"}
MAX_TURNS = 2000  # far above any legal game: every turn cuts a wire, moves the dial or is one of a bounded run of skips
# Missions whose skipped turn (no value the player may cut: oxygen, M47's sums, M59's Nano, M65's
# cards) moves the dial one space toward the skull.  Our reading of their cards, which rules.md
# (§6) states only as "a skip carries no wire information"; it decides most of these missions'
# games (docs/results/difficulty.md): take a mission out to play its skips free.
SKIP_MOVES_THE_DIAL = frozenset({44, 47, 49, 59, 63, 65})
NUMBERS = tuple(range(1, 13))
CONSTRAINTS = "ABCDEFGHIJKL"
_VALUE_RULES = {"A": lambda v: v % 2 == 0, "B": lambda v: v % 2 == 1, "C": lambda v: 1 <= v <= 6,
                "D": lambda v: 7 <= v <= 12, "E": lambda v: 4 <= v <= 9, "F": lambda v: not 4 <= v <= 9}


DIAL_SECTIONS = 5  # the dial's marked sections: 5 players' start is the farthest from the skull (rules.md §4)

# Equipment the engine plays (rules.md §5); False Bottom (Y) plays itself when it unlocks.
_PLAYED_CARDS = frozenset({"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "2.2", "3.3", "9.9", "10.10",
                           "11.11"})
_TURN_CARDS = frozenset({"3", "5", "9", "10", "11", "9.9"})  # a use that is the turn's action
_CHARACTER_CARD = {"general_radar": "8", "walkie_talkies": "2", "triple_detector": "3", "xy_ray": "10"}
# Missions where a cut costs or moves something first (Game._before_cut, M55/M60's challenges): the cut
# cards (detectors, ray, Stabilizer, Fast Pass) are not played there.
_CUT_COST_MISSIONS = frozenset({26, 44, 47, 49, 55, 59, 60, 63})


class SimError(ValueError):
    """A mission or setup the simulator does not play, or an illegal move."""


# ---------------------------------------------------------------- actions


class DualCut(Record):
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


class SoloCut(Record):
    __slots__ = ("value",)
    value: Value

    def __init__(self, value: Value):
        super().__init__(value)


class RevealRed(Record):
    __slots__ = ("player",)
    player: int

    def __init__(self, player: int):
        super().__init__(player)


class MultiCut(Record):
    """A simultaneous special action: ``slots`` (anywhere, uncut) all claimed to be ``value``."""

    __slots__ = ("value", "slots")
    value: Value
    slots: tuple[Slot, ...]

    def __init__(self, value: Value, slots: tuple[Slot, ...]):
        super().__init__(value, tuple(slots))


class Tripwire(Record):
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


Action = DualCut | DoubleDetector | SoloCut | RevealRed | MultiCut | Tripwire | Choose | UseCard


def action_json(a: Action) -> dict[str, Any]:
    """A compact JSON form of an action (the view's list of legal moves)."""
    if isinstance(a, DualCut):
        return {"kind": "dual_cut", "target": list(a.target), "value": a.value,
                **({"own": list(a.own)} if a.own else {})}
    if isinstance(a, DoubleDetector):
        return {"kind": "double_detector", "targets": [list(t) for t in a.targets], "value": a.value}
    if isinstance(a, SoloCut):
        return {"kind": "solo_cut", "value": a.value}
    if isinstance(a, RevealRed):
        return {"kind": "reveal_red"}
    if isinstance(a, MultiCut):
        return {"kind": "multi_cut", "value": a.value, "slots": [list(s) for s in a.slots]}
    if isinstance(a, Tripwire):
        return {"kind": "tripwire", "target": list(a.target)}
    if isinstance(a, UseCard):
        return {"kind": "use_card", "card": a.card, "option": _jsonable(a.option)}
    return {"kind": "choose", "what": a.what, "option": a.option}


def action_from_json(d: dict[str, Any], player: int) -> Action:
    kind = d["kind"]
    if kind == "dual_cut":
        return DualCut(tuple(d["target"]), d["value"], tuple(d["own"]) if d.get("own") else None)
    if kind == "double_detector":
        a, b = (tuple(t) for t in d["targets"])
        return DoubleDetector((a, b), d["value"])
    if kind == "solo_cut":
        return SoloCut(d["value"])
    if kind == "reveal_red":
        return RevealRed(player)
    if kind == "multi_cut":
        return MultiCut(d["value"], tuple(tuple(s) for s in d["slots"]))
    if kind == "tripwire":
        return Tripwire(tuple(d["target"]))
    if kind == "use_card":
        return UseCard(d["card"], _tupled(d["option"]))
    option = d["option"]
    return Choose(d["what"], tuple(option) if isinstance(option, list) else option)


def _jsonable(o: Any) -> Any:
    return [_jsonable(x) for x in o] if isinstance(o, (tuple, list)) else o


def _tupled(o: Any) -> Any:
    return tuple(_tupled(x) for x in o) if isinstance(o, (tuple, list)) else o


def _ref(slot: Slot) -> dict[str, int]:
    return {"player": slot[0], "stand": slot[1], "slot": slot[2]}


def _own(slot: Slot) -> dict[str, int]:
    return {"stand": slot[1], "slot": slot[2]}


def _vkey(v: Value) -> tuple[int, Any]:
    return (0, v) if isinstance(v, int) else (1, v)


# ---------------------------------------------------------------- the game


class Game:
    """The true state of one game: the deal, what is cut, the dial, the mission's cards and the public events.

    ``hands[p][s]`` holds the keys at the stands' current positions; ``cut``,
    ``special`` ("x" / "flip") and ``tokened`` are current addresses (a Nano
    transfer renumbers a stand and shifts them).  ``queue`` holds the pending
    decisions; ``turn`` is the player who decides next.
    """

    def __init__(self, setup: dict[str, Any], hands: list[list[list[Key]]], set_aside: list[Key],
                 rng: random.Random, tags: frozenset[str] = frozenset(), *, mission: int | None = None,
                 special: dict[Slot, str] | None = None, nano: list[Key] | None = None):
        self.setup = setup  # the format-1 table without "me" and "events"
        self.hands = hands
        self.dealt = [[list(row) for row in rows] for rows in hands]  # deal-time positions
        self.set_aside = set_aside
        self.rng = rng  # every free choice the game makes for a player (documented where it is made)
        self.tags = tags
        self.mission = mission
        self.players = len(hands)
        self.special: dict[Slot, str] = dict(special or {})
        self.dealt_special = dict(self.special)
        self.nano: list[Key] = list(nano or [])
        self.nano_dealt = list(self.nano)
        self.cut: set[Slot] = set()
        self.tokened: set[Slot] = set()
        self.events: list[dict[str, Any]] = []
        self.strikes = 0
        self.detectors_used: set[int] = set()
        self._turn = 0
        self.turns = 0
        self.result: str | None = None  # "win", "red", "detonator", "explosion" or "stuck"
        self.state: dict[str, Any] = {}  # the mission's public state (cards on the table...)
        self.private: dict[int, dict[str, Any]] = {p: {} for p in range(self.players)}
        self.seen: dict[int, list[dict[str, Any]]] = {p: [] for p in range(self.players)}
        for (p, s, j), kind in sorted(self.special.items()):  # teammates see every flipped wire at the deal
            if kind == "flip":
                for q in range(self.players):
                    if q != p:
                        self.seen[q].append({"at": _ref((p, s, j)), "value": key_json(hands[p][s][j])})
        self.queue: list[dict[str, Any]] = []
        self.notes: list[str] = [NOTES[mission]] if mission in NOTES else []
        self.counts_as_red: int | None = setup["wires"].get("counts_as_red")
        self._gameplay: dict[Key, Value] = {}
        self.dial_start = self._dial_start()
        self.dial = self.dial_start
        self.nano_dial = 0  # M53: Nano's space, the dial of that mission
        self._setup: list[dict[str, Any]] = []
        self._begun = False
        self._last: int | None = None  # the last turn's active player (seat order)
        self._idle = 0  # turns skipped in a row
        self._round_played = False
        self._yellows_cut = 0
        self._turn_cuts: list[Value] = []  # values cut by successful cuts this turn (challenges, M29, M43)
        self._turn_solo = False
        self._actor = 0
        # equipment (deal_equipment): None when the table does not list its board
        self.board: eq.BoardState | None = None
        self.card_cut: dict[Value, int] = {}  # cut wires by the cutting event's value: what unlocks cards
        self.pool: list[str] = []  # the mission's cards not on the board (False Bottom draws from them)
        self.characters: list[str] = [eq.DEFAULT_CHARACTER] * self.players
        self._next: int | None = None  # the Coffee Mug's choice of the next player

    # ------------------------------------------------------------ state
    def key(self, slot: Slot) -> Key:
        p, s, j = slot
        return self.hands[p][s][j]

    def slots(self, player: int) -> list[Slot]:
        return [(player, s, j) for s, row in enumerate(self.hands[player]) for j in range(len(row))]

    def uncut(self, player: int) -> list[Slot]:
        return [x for x in self.slots(player) if x not in self.cut]

    def visible(self, player: int) -> list[Slot]:
        """The player's uncut wires they can see (not their own flipped wires)."""
        return [x for x in self.uncut(player) if self.special.get(x) != "flip"]

    def cuttable(self, player: int) -> list[Slot]:
        """The player's visible uncut wires they may cut now (M35: not the X wire before the 4 yellows)."""
        return [x for x in self.visible(player) if not self._x_locked(x)]

    def holds(self, player: int, value: Value) -> list[Slot]:
        return [x for x in self.cuttable(player) if self.gameplay(self.key(x)) == value]

    def gameplay(self, key: Key) -> Value:
        """The value a wire plays as: M11's Number counts as red."""
        v = self._gameplay.get(key)
        if v is None:
            v = value_of(key)
            v = self._gameplay[key] = RED if v == self.counts_as_red else v
        return v

    def is_red(self, key: Key) -> bool:
        return self.gameplay(key) == RED

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def turn(self) -> int:
        """The player who decides next (a setup token, a turn, a choice)."""
        if not self._begun and not self._setup:
            self._begin()
        if self.queue:
            return self.queue[0]["player"]
        if self._setup and not self._begun:
            return self._setup[0]["player"]
        return self._turn

    @turn.setter
    def turn(self, player: int) -> None:
        self._turn = player

    def _x_locked(self, slot: Slot) -> bool:
        return self.mission == 35 and self.special.get(slot) == "x" and self._yellows_cut < 4

    def _in_play(self) -> list[Value]:
        """Gameplay values in play (for absent events)."""
        wires = self.setup["wires"]
        keys = [parse_key(k) for k in wires.get("deck", {})] or (
            [10 * v for v in wires["blue"]] + [parse_key(k) for k in wires.get("yellow", []) + wires.get("red", [])]
            + [parse_key(k) for pool in wires.get("uncertain", []) for k in pool["candidates"]])
        return sorted({value_of(k) for k in keys}, key=_vkey)

    def _remaining(self, value: Value) -> list[Slot | None]:
        """Every uncut wire of this value in the game (None for one in Nano's pool)."""
        return self._by_value().get(value, [])

    def _by_value(self) -> dict[Value, list[Slot | None]]:
        """Every uncut wire by gameplay value (None for one in Nano's pool), in one pass."""
        out: dict[Value, list[Slot | None]] = {}
        cut, gameplay = self.cut, self.gameplay
        for p, rows in enumerate(self.hands):
            for s, row in enumerate(rows):
                for j, k in enumerate(row):
                    if (p, s, j) not in cut:
                        out.setdefault(gameplay(k), []).append((p, s, j))
        for k in self.nano:
            out.setdefault(gameplay(k), []).append(None)
        return out

    def _cut_count(self, value: Value) -> int:
        return sum(1 for x in self.cut if value_of(self.key(x)) == value)

    # ------------------------------------------------------------ views
    def table(self, player: int | None = None) -> dict[str, Any]:
        """The table file of the game so far, from ``player``'s view (None: the public view).

        ``meta.sim`` carries what the table shows that the format does not record
        (the mission's cards, the dial), in a player's view the round's counters
        (``turns``, ``idle``, ``round_played``: what :class:`Position` needs to
        replay the mission's round rules) and, in the view of the player who decides next,
        the pending decision: what is allowed now.
        """
        out = dict(self.setup)
        meta = dict(out.get("meta", {}))
        sim: dict[str, Any] = {"mission": self.mission, "dial": self.dial if self.mission != 53 else None,
                               "strikes": self.strikes, "state": self._public_state()}
        if self.mission == 53:
            sim["nano_space"] = self.nano_dial
        if self.notes:
            sim["notes"] = self.notes
        if player is not None:
            # the turns so far and the round's, public but not in the events (a skipped turn may leave
            # none): what a player's replay of the game needs (Position) to know when the mission's round
            # rules fire; the public file records the game
            sim.update(turns=self.turns, idle=self._idle, round_played=self._round_played)
            if self.private[player]:
                sim["private"] = self.private[player]
            pending = self._pending_for(player)
            if pending is not None:
                sim["pending"] = pending
        meta["sim"] = sim
        out["meta"] = meta
        if player is not None:
            stands = [[None if self.dealt_special.get((player, s, j)) == "flip" else key_json(k)
                       for j, k in enumerate(row)] for s, row in enumerate(self.dealt[player])]
            me: dict[str, Any] = {"player": player, "stands": stands}
            if self.seen[player]:
                me["seen"] = list(self.seen[player])
            out["me"] = me
        out["events"] = list(self.events)
        return out

    def _public_state(self) -> dict[str, Any]:
        """The mission's state as the table shows it: :data:`HIDDEN_STATE`'s cards by their number."""
        st = self.state
        if not HIDDEN_STATE.keys() & st.keys():
            return st
        out = {k: v for k, v in st.items() if k not in HIDDEN_STATE}
        out.update({shown: len(st[k]) for k, shown in HIDDEN_STATE.items() if k in st})
        return out

    def deal_json(self) -> dict[str, Any]:
        """The hidden deal: ``stands`` the keys as dealt (deal-time positions, stands in table order),
        ``final`` the keys at the stands' positions now (after Nano's transfers), ``nano`` Nano's wires
        as dealt (taken in this order), ``set_aside`` the k-of-m pools' tiles left out."""
        out = {"stands": [[key_json(k) for k in row] for rows in self.dealt for row in rows],
               "final": [[key_json(k) for k in row] for rows in self.hands for row in rows],
               "set_aside": [key_json(k) for k in sorted(self.set_aside)]}
        if self.nano_dealt:
            out["nano"] = [key_json(k) for k in self.nano_dealt]
        return out

    def _pending_for(self, player: int) -> dict[str, Any] | None:
        """The decision ``player`` must take now, as JSON, with its options (None: not theirs)."""
        if self._setup and not self._begun:
            d = self._setup[0]
            if d["player"] != player:
                return None
            return {**d, "options": [list(o) if isinstance(o, tuple) else o for o in self.setup_options(d)]}
        if not self.over:
            self._ensure()
        if not self.queue or self.queue[0]["player"] != player:
            return None
        d = self.queue[0]
        if d["kind"] == "choose":
            return {**d, "options": [list(o) if isinstance(o, tuple) else o for o in self._choose_options(d)]}
        uses = self.card_uses(player, d) if self.board is not None else []
        return {**d, "equipment": uses} if uses else d

    # ------------------------------------------------------------ restore (the base game, for rollouts)
    @classmethod
    def restore(cls, table: dict[str, Any], stands: list[list[Key]], turn: int, rng: random.Random,
                tags: frozenset[str] = frozenset(), board: eq.BoardState | None = None) -> Game:
        """A base-game game at the state of a table file's events, played on the deal ``stands`` (players/stands
        order, keys in tenths): what a player who imagines that deal would simulate.  A finished
        table gives a finished game (``result`` as the game that made it).  The dial and the failed
        cuts as the events leave them (a failure under the Stabilizer counts but holds the dial; the
        Rewinder moves it back).  ``board``: the table's equipment as its events leave it
        (:meth:`take_board`; None: the game plays no card)."""
        it = iter(stands)
        setup = {k: v for k, v in table.items() if k not in ("me", "events")}
        mission = table.get("meta", {}).get("mission")
        game = cls(setup, [[list(next(it)) for _ in pl["stands"]] for pl in table["players"]], [], rng, tags,
                   mission=mission if mission in BASE_MISSIONS else None)
        game.detectors_used = _detectors_used(table["events"])
        for e in table["events"]:
            kind, actor = e["type"], e.get("actor")
            if kind in ("dual_cut", "detector"):
                if e["success"]:
                    target = e["target"] if kind == "dual_cut" else e["cut"]
                    game.cut.update(((target["player"], target["stand"], target["slot"]),
                                     (actor, e["actor_slot"]["stand"], e["actor_slot"]["slot"])))
                elif e.get("exploded"):  # a red cut: the game ended on it, the dial did not move
                    game.result = "red"
                elif e.get("stabilizer"):  # the Stabilizer: a failed cut that leaves the dial where it is
                    game.strikes += 1
                else:
                    game._fail(actor)
            elif kind == "equipment" and "6" in _cards(e):  # the Rewinder
                game._rewind(card=True)
            elif kind in ("solo_cut", "reveal_red", "fast_pass"):
                game.cut.update((actor, x["stand"], x["slot"]) for x in e["slots"])
            elif kind == "disintegrator":
                game.cut.update((x["player"], x["stand"], x["slot"]) for x in e["slots"])
        if board is not None:
            game.take_board(board)
        game._win_if_all_cut()
        game.events, game.turn, game._begun = list(table["events"]), turn, True
        game._last = turn  # the next turn is the next player's after ``turn``, not the Captain's
        game._round_counters(table)
        if not game.over:
            game.queue = [game._turn_decision(turn)]
        return game

    def _round_counters(self, table: dict[str, Any]) -> None:
        """The turns played, the turns skipped in a row and whether anyone played this round, from
        ``meta.sim`` (a player's view in the simulator; a page's table does not record them: its turn
        events are its turns -- the base game skips none -- and nobody played this round)."""
        sim = table.get("meta", {}).get("sim") or {}
        self.turns = sim.get("turns", sum(e["type"] != "info_token" for e in table["events"]))
        self._idle, self._round_played = sim.get("idle", 0), sim.get("round_played", False)

    def take_board(self, b: eq.BoardState) -> None:
        """The equipment board as a table file's events leave it (Table.equipment_board): the cards
        used, the characters spent, the cuts that unlock, and the mission's cards not on the board
        (what False Bottom draws from).  Restored games play their cards from it."""
        # the game counts no revealed red (no card unlocks by red)
        self.card_cut = {v: n for v, n in b.cut.items() if v != RED}
        self.characters = list(b.characters)
        self.board = eq.BoardState(tuple(b.board), b.characters, self.card_cut)
        self.board.used, self.board.character_used = set(b.used), list(b.character_used)
        self.detectors_used = {p for p, (ch, used) in enumerate(zip(b.characters, b.character_used))
                               if used and ch == eq.DEFAULT_CHARACTER}
        pool = equipment_pool(mission_entry(self.mission), self.players)["pool"] if self.mission else []
        self.pool = [c for c in pool if c not in b.board]

    # ------------------------------------------------------------ setup
    def _dial_start(self) -> int:
        if self.mission in (41, 55, 60, 62):
            return 1  # the printed space next to the skull (rules.md §4; S5: 1 life)
        if self.mission == 51:
            return self.players + 1
        if self.mission == 53:
            return 10**6  # no dial: Nano is the dial
        return self.players

    def _token_kind(self, player: int) -> str:
        if "parity_tokens" in self.tags:
            return "parity"
        if "count_tokens" in self.tags:
            return "count"
        if self.mission == 52 or (self.mission == 17 and player == 0):
            return "false"
        return "value"

    def _plan_setup(self) -> None:
        """The chosen setup tokens, in order (random ones are placed at once)."""
        if "no_setup_tokens" in self.tags:
            return
        for p in range(self.players):
            if p == 0 and "captain_no_setup_token" in self.tags:
                continue
            if "random_setup_tokens" in self.tags or (p == 0 and "captain_random_setup_token" in self.tags):
                continue
            if self.mission == 22:
                self._setup.append({"player": p, "kind": "setup_absent", "count": 2})
                continue
            kind = self._token_kind(p)
            decision = {"player": p, "kind": "setup_token", "token": kind}
            if self.setup_options(decision):  # a player with no wire the token may go on places none
                self._setup += [decision] * (2 if kind == "false" else 1)

    def _random_setup_tokens(self) -> None:
        """M13/M39/M41 (and M43's 2-player Captain): tokens drawn at random, placed or beside the stand."""
        who = [p for p in range(self.players) if not (p == 0 and "captain_no_setup_token" in self.tags)]
        if "random_setup_tokens" not in self.tags:
            who = [0] if "captain_random_setup_token" in self.tags else []
        if not who:
            return
        yellow = self.mission == 41  # M13/M39 replace a yellow draw; M41's card does not
        supply: list[Value] = [v for v in NUMBERS for _ in range(2)] + ([YELLOW, YELLOW] if yellow else [])
        self.rng.shuffle(supply)
        for p in who:
            v = supply.pop()
            self._place_true_or_absent(p, v)

    def _place_true_or_absent(self, p: int, v: Value) -> None:
        """A token of value ``v`` put correctly on one of ``p``'s matching wires (the game's pick at
        random), or beside the stand: ``absent``."""
        mine = [x for x in self.visible(p) if value_of(self.key(x)) == v]
        if mine:
            at = self.rng.choice(mine)
            self.events.append({"type": "info_token", "at": _ref(at), "value": v})
            self.tokened.add(at)
        elif v in self._in_play():
            self.events.append({"type": "absent", "player": p, "values": [v]})

    def setup_token_players(self) -> list[int]:
        """The players who place a chosen setup token, in order (a player twice for 2 false tokens)."""
        return [d["player"] for d in self._setup]

    def setup_options(self, decision: dict[str, Any]) -> list[Slot] | list[Value]:
        """The slots a setup token may go on (or, M22, the values a player may name as absent)."""
        p = decision["player"]
        if decision["kind"] == "setup_absent":
            held = {value_of(self.key(x)) for x in self.uncut(p)}
            return [v for v in self._in_play() if v != RED and v not in held]
        kind, out = decision["token"], []
        taken = {(e["at"]["player"], e["at"]["stand"], e["at"]["slot"]) for e in self.events
                 if e["type"] == "info_token"}
        for x in self.visible(p):
            k = self.key(x)
            if x in taken:
                continue
            if kind in ("value", "parity") and k % 10 == 0:
                out.append(x)
            elif kind == "count" and not self.is_red(k) and self._stand_count(x) <= 3:
                out.append(x)
            elif kind == "false" and (value_of(k) != RED if self.mission == 17 else value_of(k) != YELLOW):
                out.append(x)
        return out

    def place_token(self, choice: Slot | SetupToken | AbsentTokens | None) -> None:
        """The next setup decision (:meth:`setup_token_players` order): a slot for the mission's token,
        a :class:`SetupToken` (a false token's value), :class:`AbsentTokens` (M22), None to place none."""
        if not self._setup:
            raise SimError("no setup token is due")
        decision = self._setup[0]
        p = decision["player"]
        if choice is not None:
            options = self.setup_options(decision)
            if decision["kind"] == "setup_absent":
                if not isinstance(choice, AbsentTokens):
                    raise SimError("M22: the setup names absent values (AbsentTokens)")
                values = list(dict.fromkeys(choice.values))
                if not all(v in options for v in values) or len(values) > min(decision["count"], len(options)):
                    raise SimError(f"player {p} cannot name {values} as absent")
                if values:
                    self.events.append({"type": "absent", "player": p, "values": values})
            else:
                slot, value = (choice.slot, choice.value) if isinstance(choice, SetupToken) else (tuple(choice), None)
                if slot not in options:
                    raise SimError(f"a {decision['token']} setup token cannot go on {slot}")
                self.events.append(self._setup_event(decision["token"], slot, value))
                self.tokened.add(slot)
        self._setup.pop(0)
        if not self._setup:
            self._begin()

    def _setup_event(self, kind: str, slot: Slot, value: int | None) -> dict[str, Any]:
        k = self.key(slot)
        at = {"type": "info_token", "at": _ref(slot)}
        if kind == "value":
            return {**at, "value": k // 10}
        if kind == "parity":
            return {**at, "parity": "even" if (k // 10) % 2 == 0 else "odd"}
        if kind == "count":
            return {**at, "count": self._stand_count(slot)}
        wrong = [v for v in self._blue_values() if v != value_of(k)]
        if value is None:
            value = self.rng.choice(wrong)  # a policy that names only the slot: the game picks the false value
        if value not in wrong:
            raise SimError(f"a false token shows a blue value in play other than the wire's, not {value!r}")
        return {**at, "value": value, "false": True}

    def _blue_values(self) -> list[int]:
        return [v for v in self._in_play() if isinstance(v, int)]

    def _stand_count(self, slot: Slot) -> int:
        """Wires of this wire's gameplay value on its stand, cut ones included, the owner's own flipped
        wires aside (rules.COUNT_TOKEN_SEES_OWN_FLIPPED)."""
        p, s, _ = slot
        v = value_of(self.key(slot))
        return sum(1 for j, k in enumerate(self.hands[p][s])
                   if value_of(k) == v and self.special.get((p, s, j)) != "flip")

    # ------------------------------------------------------------ the mission's opening
    def _begin(self) -> None:
        if self._begun:
            return
        self._begun = True
        self._setup = []
        m = self.mission
        if m == 31:
            for p in range(self.players):
                self.queue.append({"player": p, "kind": "choose", "what": "constraint"})
        if m == 36:
            self.queue.append({"player": 0, "kind": "choose", "what": "end"})
        self._advance()

    def _ensure(self) -> None:
        if not self._begun:
            self._begin()

    # ------------------------------------------------------------ the loop
    def _active_players(self) -> list[int]:
        return [q for q in range(self.players) if self.uncut(q)]

    def _advance(self) -> None:
        """Play the game forward until a decision waits for a player or the game ends."""
        while not self.over and not self.queue:
            self._win_if_all_cut()
            if self.over:
                return
            active = self._active_players()
            if not active:
                self.result = "stuck"  # Nano still holds wires nobody can take
                return
            if self.turns >= MAX_TURNS:
                raise SimError("too many turns")
            if self._idle >= 2 * self.players + 2:
                self.result = "stuck"  # nobody could play for two whole rounds: no progress is possible
                return
            last = -1 if self._last is None else self._last
            p = next(q % self.players for q in range(last + 1, last + 1 + self.players)
                     if q % self.players in active)
            if self._next is not None:
                if self._next in active:
                    p = self._next  # the Coffee Mug's choice
                self._next = None
            new_round = self._last is None or p <= self._last
            self._last = p
            if new_round:
                self._round_start()
                if self.over:
                    return
            self._open_turn(p)

    def _round_start(self) -> None:
        """Before the Captain's turn (the first turn of a round)."""
        m, st = self.mission, self.state
        if self._last is not None and self.turns:
            if m in (37, 57, 61) and not self._round_played and self._idle:
                if m == 37:  # nobody could play a whole round: the dial advances, the constraint is replaced
                    self._advance_dial(1)
                    self._next_constraint()
                else:
                    self.result = "explosion"  # M57, M61: nobody could play for a whole round
                    return
            if m in (23, 39) and not st.get("special_done") and st.get("deck"):
                st["deck"] = st["deck"][:-1]  # the top card of the deck is discarded
        self._round_played = False
        if m == 44:
            st["oxygen"] = 2 * self.players
        if m == 63:
            st["oxygen"] += st["reserve"]
            st["reserve"] = 0

    def _open_turn(self, p: int) -> None:
        m, st = self.mission, self.state
        self._turn_cuts, self._turn_solo = [], False
        if m == 32 and st.get("skipped") and st.get("deck") is not None:
            st["skipped"] = False
            self._next_constraint()
        if m == 29:
            self._m29_play_card(p)
        if m == 26 and not st["visible"]:
            st["visible"] = sorted(st["cards"])
        if m in (18, 51) and not self._only_red(p):
            v = self._draw_number()
            if v is not None:
                st["number"] = v
                if m == 18:
                    self._radar(v)
                    options = [q for q in range(self.players) if any(self.gameplay(self.key(x)) == v
                                                                      for x in self.visible(q))]
                else:
                    options = self._active_players()
                self.queue.append({"player": p, "kind": "choose", "what": "designate", "number": v,
                                   "options": options})
                return
        if m == 45:
            self._m45_open()
            return
        if m == 31:
            card = st["constraints"].get(str(p))
            if card and not self._can_apply(p, card):  # the card is flipped: the player plays freely
                self._absent_for(p, self._allowed_values([card]))
                st["constraints"][str(p)] = None
        decision = self._turn_decision(p)
        if m == 34 and not self._has_move(decision) and self.private[p].get("constraint"):
            card = self.private[p].pop("constraint")
            if self._has_move(self._turn_decision(p)):  # the weakest link cannot play because of it
                self._advance_dial(2)
                for q in range(self.players):
                    self.private[q].pop("constraint", None)
                st["weakest"] = p
                if self.over:
                    return
            else:
                self.private[p]["constraint"] = card
            decision = self._turn_decision(p)
        if self._has_move(decision):
            self.queue.append(decision)
            return
        self._skip(p, decision)

    def _only_red(self, p: int) -> bool:
        mine = self.uncut(p)
        return bool(mine) and all(self.is_red(self.key(x)) for x in mine)

    # ------------------------------------------------------------ what a turn allows
    def _constraints_for(self, p: int) -> list[str]:
        m, st = self.mission, self.state
        if m in (31, 61):
            card = st["constraints"].get(str(p))
            return [card] if card else []
        if m in (32, 37, 57):
            return [st["constraint"]] if st.get("constraint") else []
        if m == 34 and self.private[p].get("weakest") and self.private[p].get("constraint"):
            return [self.private[p]["constraint"]]
        return []

    def _allowed_values(self, cards: list[str]) -> list[Value]:
        out = []
        for v in self._in_play():
            if v == RED:
                continue
            ok = True
            for c in cards:
                if c in _VALUE_RULES:
                    ok = ok and (_VALUE_RULES[c](v) if isinstance(v, int) else c == "F")
            if ok:
                out.append(v)
        return out

    def _can_apply(self, p: int, card: str) -> bool:
        if card not in _VALUE_RULES:
            return True
        allowed = set(self._allowed_values([card]))
        return any(self.gameplay(self.key(x)) in allowed for x in self.cuttable(p))

    def _allowed_now(self, p: int, restrict: list[Value] | None) -> set[Value] | None:
        """The values the mission lets ``p`` cut now (None: any), before holding them."""
        m, st = self.mission, self.state
        allowed: set[Value] | None = None if restrict is None else set(restrict)

        def meet(values: Any) -> None:
            nonlocal allowed
            allowed = set(values) if allowed is None else allowed & set(values)

        cards = self._constraints_for(p)
        if any(c in _VALUE_RULES for c in cards):
            meet(self._allowed_values(cards))
        if m in (9, 16):
            seq, at = st["sequence"], st["sequence_at"]
            meet(v for v in self._in_play() if v not in seq[at + 1:])
        if m == 36 and st["line"]:
            end = st["line"][0] if st["end"] == "left" else st["line"][-1]
            meet(v for v in self._in_play() if v not in st["line"] or v == end)
        if m == 26:
            meet(st["visible"])
        if m == 65:
            meet(st["cards"][str(p)])
        if m == 59:
            meet(self._m59_reachable())
        if m == 47:
            meet(self._m47_values())
        if m == 44:
            meet(v for v in self._in_play() if isinstance(v, int) and _depth(v) <= st["oxygen"])
        if m == 49:
            meet(v for v in self._in_play() if isinstance(v, int) and v <= st["oxygen"][p])
        if m == 63:
            meet(v for v in self._in_play() if isinstance(v, int) and v <= st["oxygen"])
        return allowed

    def _forbidden_values(self) -> set[Value]:
        m, st = self.mission, self.state
        out: set[Value] = {RED}
        if m in (23, 39):
            out.add(st["number"])
        if m == 46:
            out.add(7)
        if m in (41, 48):
            out.add(YELLOW)
        return out

    def _turn_decision(self, p: int, restrict: list[Value] | None = None) -> dict[str, Any]:
        """What ``p`` may do now (a format of its own: meta.sim.pending)."""
        m, st = self.mission, self.state
        cards = self._constraints_for(p)
        allowed = self._allowed_now(p, restrict)
        forbidden = self._forbidden_values()
        held = sorted({self.gameplay(self.key(x)) for x in self.cuttable(p)} - forbidden, key=_vkey)
        values = [v for v in held if allowed is None or v in allowed]
        targets, costly = [], []
        for q in range(self.players):
            if q == p:
                continue
            for s, row in enumerate(self.hands[q]):
                uncut = [(q, s, j) for j in range(len(row)) if (q, s, j) not in self.cut]
                edge = set()
                if "I" in cards and uncut:
                    edge.add(uncut[-1])
                if "J" in cards and uncut:
                    edge.add(uncut[0])
                for x in uncut:
                    if x in edge or self._x_locked(x) or ("H" in cards and x in self.tokened):
                        continue
                    if self.special.get(x) == "flip":
                        if m == 38:
                            continue  # only the Captain cuts their flipped wire
                        if m in (56, 64):
                            costly.append(list(x))
                    targets.append(list(x))
        if not targets:
            values_for_calls: list[Value] = []
        else:
            values_for_calls = values
        by_value = self._by_value()
        solo = [] if "K" in cards else [v for v in values if self._solo_slots(p, v, by_value) is not None]
        reveal = m != 13 and self._only_red(p)
        detector = bool(values_for_calls) and self._has_detector(p) and "G" not in cards
        specials: list[dict[str, Any]] = []
        if m == 13 and self._remaining(RED) and (self.players >= 4 or any(self.is_red(self.key(x)) for x in self.visible(p))):
            specials.append({"kind": "multi_cut", "value": RED, "count": 3})
        if m in (23, 39) and not st.get("special_done"):
            specials.append({"kind": "multi_cut", "value": st["number"], "count": 4})
        if m == 46 and self._remaining(7):
            mine = self.uncut(p)
            if mine and all(value_of(self.key(x)) == 7 for x in mine):
                specials.append({"kind": "multi_cut", "value": 7, "count": 4, "forced": True})
        if m == 48 and self._remaining(YELLOW) and (
                self.players >= 4 or any(value_of(self.key(x)) == YELLOW for x in self.visible(p))):
            specials.append({"kind": "multi_cut", "value": YELLOW, "count": 3})
        if m in (55, 60) and 1 in st["challenges"]:
            specials.append({"kind": "multi_cut", "value": RED, "count": 1, "teammates": True})
        if m == 41 and self._remaining(YELLOW):
            specials.append({"kind": "tripwire"})
        own_flipped = [list(x) for x in self.uncut(p) if self.special.get(x) == "flip"]
        if m == 41:
            mine = [self.gameplay(self.key(x)) for x in self.visible(p)]
            if YELLOW in mine and set(mine) <= {YELLOW, RED}:
                values_for_calls, solo, reveal, detector, specials = [], [], False, False, []  # skip: own tripwire
        if any(s.get("forced") for s in specials):
            values_for_calls, solo, reveal, detector = [], [], False, False
        return {"player": p, "kind": "turn", "values": values_for_calls, "targets": targets if values_for_calls else [],
                "costly": costly if values_for_calls else [], "detector": detector, "solo": solo, "reveal": reveal,
                "specials": specials, "own_flipped": own_flipped if values_for_calls else [],
                "constraints": cards}

    def _has_detector(self, p: int) -> bool:
        if "no_double_detector" in self.tags or self.mission == 34 or (self.mission == 28 and p == 0):
            return False
        if "double_detector_every_turn" in self.tags:
            return True
        return self.characters[p] == eq.DEFAULT_CHARACTER and p not in self.detectors_used

    def _solo_slots(self, p: int, value: Value, by_value: dict[Value, list[Slot | None]] | None = None
                    ) -> list[Slot] | None:
        """The wires a solo cut of ``value`` by ``p`` cuts, when it is legal now."""
        rest = (by_value or self._by_value()).get(value, [])
        if not rest or any(x is None or x[0] != p for x in rest):
            return None
        if any(self._x_locked(x) for x in rest if x is not None):
            return None
        if not any(self.special.get(x) != "flip" for x in rest if x is not None):
            return None  # the caller cannot see any of them
        return sorted(x for x in rest if x is not None)

    def _has_move(self, d: dict[str, Any]) -> bool:
        return bool(d["values"] or d["solo"] or d["reveal"] or d["specials"] or d["detector"])

    def legal_moves(self) -> list[Action]:
        """Every legal action of the player who decides now, but the special actions' slot sets
        (``MultiCut``: any uncut wires; :meth:`is_legal` checks one)."""
        self._ensure()
        if self.over or not self.queue:
            return []
        d = self.queue[0]
        if d["kind"] == "choose":
            return [Choose(d["what"], o) for o in self._choose_options(d)]
        p = d["player"]
        out: list[Action] = []
        if d["reveal"]:
            out.append(RevealRed(p))
        targets = [tuple(t) for t in d["targets"]]
        out += [DualCut(t, v) for t in targets for v in d["values"]]
        for own in d["own_flipped"]:
            out += [DualCut(t, v, tuple(own)) for t in targets for v in d["values"]]
        out += [SoloCut(v) for v in d["solo"]]
        if d["detector"]:
            for q in range(self.players):
                for s in range(len(self.hands[q]) if q != p else 0):
                    row = [x for x in self.uncut(q) if x[1] == s and not self.special.get(x)
                           and list(x) in d["targets"]]
                    out += [DoubleDetector((a, b), v) for i, a in enumerate(row) for b in row[i + 1:]
                            for v in d["values"] if isinstance(v, int)]
        for sp in d["specials"]:
            if sp["kind"] == "tripwire":
                out += [Tripwire(x) for q in range(self.players) if q != p for x in self.uncut(q)]
        if self.board is not None:
            out += [UseCard(u["card"], _tupled(o)) for u in self.card_uses(p, d) for o in u["options"]]
        return out

    def is_legal(self, action: Action) -> bool:
        try:
            self._check(action)
            return True
        except SimError:
            return False

    # ------------------------------------------------------------ playing
    def play(self, action: Action) -> None:
        """The player who decides now does ``action``; then the game goes on to the next decision."""
        if self.over:
            raise SimError("the game is over")
        self._ensure()
        if not self.queue:
            raise SimError("no decision is pending")
        d = self._check(action)
        self.queue.pop(0)
        if isinstance(action, UseCard) and action.card not in _TURN_CARDS and self._card_kind(d["player"], action.card) \
                not in _TURN_CARDS:
            self._use_any_time(d, action)
        elif d["kind"] == "choose":
            self._resolve_choice(d, action)  # type: ignore[arg-type]
        else:
            self._play_turn(d, action)
        self._advance()

    def _check(self, action: Action) -> dict[str, Any]:
        if not self.queue:
            raise SimError("no decision is pending")
        d = self.queue[0]
        p = d["player"]
        if d["kind"] == "choose":
            option = tuple(action.option) if isinstance(action, Choose) and isinstance(action.option, list) else (
                action.option if isinstance(action, Choose) else None)
            if not isinstance(action, Choose) or action.what != d["what"] or option not in self._choose_options(d):
                raise SimError(f"player {p} must choose {d['what']} among {self._choose_options(d)}, not {action!r}")
            return d
        if isinstance(action, DualCut):
            if list(action.target) not in d["targets"] or action.value not in d["values"]:
                raise SimError(f"player {p} cannot call {action.value!r} on {action.target}")
            if action.own is not None and list(action.own) not in d["own_flipped"]:
                raise SimError(f"{action.own} is not an uncut flipped wire of player {p}")
        elif isinstance(action, DoubleDetector):
            x, y = action.targets
            if (not d["detector"] or not isinstance(action.value, int) or action.value not in d["values"] or x == y
                    or x[:2] != y[:2] or any(list(t) not in d["targets"] or self.special.get(t) for t in (x, y))):
                raise SimError("a Double Detector calls a held blue value on 2 wires of one teammate stand")
        elif isinstance(action, SoloCut):
            if action.value not in d["solo"]:
                raise SimError(f"player {p} cannot solo cut {action.value!r}")
        elif isinstance(action, RevealRed):
            if not d["reveal"]:
                raise SimError(f"player {p} holds a wire that is not red (or cannot reveal now)")
        elif isinstance(action, MultiCut):
            spec = next((s for s in d["specials"] if s["kind"] == "multi_cut" and s["value"] == action.value), None)
            slots = action.slots
            if spec is None or len(slots) != spec["count"] or len(set(slots)) != len(slots):
                raise SimError(f"player {p} cannot cut {len(slots)} wires as {action.value!r} now")
            for x in slots:
                if x[0] not in range(self.players) or x not in set(self.uncut(x[0])):
                    raise SimError(f"{x} is not an uncut wire")
                if spec.get("teammates") and x[0] == p:
                    raise SimError("challenge 1 points at a teammate's wire")
        elif isinstance(action, Tripwire):
            t = action.target
            if not any(s["kind"] == "tripwire" for s in d["specials"]) or t[0] == p or t not in set(self.uncut(t[0])):
                raise SimError(f"player {p} cannot call a tripwire on {t}")
        elif isinstance(action, UseCard):
            self._check_card(p, d, action)
        else:
            raise SimError(f"unknown action {action!r}")
        if any(s.get("forced") for s in d["specials"]) and not isinstance(action, MultiCut):
            raise SimError("the mission forces its special action")
        return d

    def _play_turn(self, d: dict[str, Any], action: Action) -> None:
        p = d["player"]
        self._idle = 0
        self._round_played = True
        self._actor = p
        if isinstance(action, (DualCut, DoubleDetector, SoloCut)):
            self._before_cut(p, action.value)
        if isinstance(action, DualCut):
            self._dual_cut(p, action)
        elif isinstance(action, DoubleDetector):
            self._detector(p, action)
        elif isinstance(action, SoloCut):
            self._solo_cut(p, action.value)
        elif isinstance(action, RevealRed):
            self._reveal_red(p)
        elif isinstance(action, MultiCut):
            self._multi_cut(p, action)
        elif isinstance(action, Tripwire):
            self._tripwire(p, action.target)
        elif isinstance(action, UseCard):
            self._use_turn_card(p, d, action)
        self.turns += 1
        if not self.over:
            self._end_turn(p, action)
        self._win_if_all_cut()

    def _win_if_all_cut(self) -> None:
        if self.result is None and not self.nano and all(not self.uncut(q) for q in range(self.players)):
            self.result = "win"

    def _advance_dial(self, n: int) -> None:
        self.dial -= n
        if self.dial <= 0:
            self.result = "detonator"

    def _rewind(self, card: bool = False) -> None:
        """The dial one space back: by the Rewinder (``card``) never past the start for this many
        players, nor M51's start a space further back (rules.md §4 gives no cap; the S3 code's
        ``detonatorMax = players`` reads so, and the page's detonator, web/js/gamestate.js, agrees).
        A mission's own moves back (M41's tripwire, M55/M60's challenges, M62's numbers) may reach the
        dial's 5 marked sections: the reading their difficulty figures were played with (the page
        stops M41's at the standard start: a disagreement the cards should settle)."""
        self.dial = min(self.dial + 1, self._rewinder_limit() if card else max(DIAL_SECTIONS, self.dial_start))

    def _rewinder_limit(self) -> int:
        return max(self.players, self.dial_start)

    def _fail(self, actor: int) -> None:
        """A failed cut: the dial advances (2 under constraint L; M53 moves Nano instead)."""
        self.strikes += 1
        if self.mission == 53:
            return
        self._advance_dial(2 if "L" in self._constraints_for(actor) else 1)

    def _failure_token(self, actor: int, target: Slot) -> Any:
        """The token a failed cut places on ``target`` (None: no token)."""
        owner = target[0]
        if "no_failure_info" in self.tags or self.mission == 52 or (self.mission == 17 and owner == 0):
            return None
        if "H" in self._constraints_for(actor) or "H" in self._constraints_for(owner):
            return None
        k = self.key(target)
        v = value_of(k)
        if "parity_tokens" in self.tags:
            return {"parity": "even" if v % 2 == 0 else "odd"} if isinstance(v, int) else None
        if "count_tokens" in self.tags:
            c = self._stand_count(target)
            return {"count": c} if c <= 3 else None  # an x4 does not exist: no token (rules.md §6 [U])
        return v

    def _explodes_on_failure(self, actor: int) -> bool:
        return failure_explodes(self.mission, actor) is not None  # the rookie (M14), Captain Careless (M28)

    def _cuts(self, slots: list[Slot], value: Value, solo: bool = False) -> None:
        self.cut.update(slots)
        self.card_cut[value] = self.card_cut.get(value, 0) + len(slots)
        self._false_bottom()
        self._turn_cuts += [value] * (len(slots) // 2 or 1)
        self._turn_solo = self._turn_solo or solo
        if value == YELLOW:
            self._yellows_cut += len(slots)
        self._after_cut(value, len(slots))

    def _dual_cut(self, p: int, a: DualCut, values: tuple[Value, Value] | None = None, stabilizer: bool = False,
                  card: str | None = None) -> None:
        key = self.key(a.target)
        event: dict[str, Any] = {"type": "dual_cut", "actor": p, "target": _ref(a.target)}
        if values:
            event["values"] = list(values)
        else:
            event["value"] = a.value
        if stabilizer:
            event["stabilizer"] = True
        if card is not None:
            self._by(event, p, card)
        costly = self.mission in (56, 64) and self.special.get(a.target) == "flip"
        g = self.gameplay(key)
        if g in (values or (a.value,)):
            if values:
                a = DualCut(a.target, g, a.own)
                event["cut_value"] = g
            mine = a.own if a.own is not None else self.holds(p, a.value)[0]
            event.update(success=True, actor_slot=_own(mine))
            if a.own is not None and self.gameplay(self.key(mine)) != a.value:
                event["exploded"] = True  # one's own flipped wire was not the value
                self.events.append(event)
                self.result = "explosion"
                return
            if a.value == YELLOW:
                event["keys"] = {"target": key_json(key), "actor": key_json(self.key(mine))}
            self.events.append(event)
            self._cuts([a.target, mine], a.value)
        elif self.is_red(key) and stabilizer:
            event.update(success=False, token=None)  # the Stabilizer: no explosion, no token, no dial
            self.events.append(event)
            self.strikes += 1
        elif self.is_red(key):
            event.update(success=False, exploded=True)
            self.events.append(event)
            self.result = "red"
            return
        elif self._explodes_on_failure(p):
            event.update(success=False, token=None)
            self.events.append(event)
            self.result = "explosion"
            return
        else:
            token = self._failure_token(p, a.target)
            event.update(success=False, token=token)
            self.events.append(event)
            if token is not None:
                self.tokened.add(a.target)
            if stabilizer:
                self.strikes += 1  # the Stabilizer: the dial does not move
            else:
                self._fail(p)
        if costly and not self.over:
            self._advance_dial(1)  # M56/M64: a teammate's flipped wire costs a space

    def _detector(self, p: int, a: DoubleDetector) -> None:
        if "double_detector_every_turn" in self.tags:
            self._detect(p, "double", a.targets, a.value, "mission")  # the mission's: no character is spent
            return
        self.detectors_used.add(p)
        card = None
        if self.board is not None or "equipment" in self.setup:  # (a restored game lists a board it does not play)
            card = eq.CHARACTER
            if self.board is not None:
                self.board.character_used[p] = True
        self._detect(p, "double", a.targets, a.value, card)

    def _detect(self, p: int, kind: str, targets: tuple[Slot, ...], value: int, card: str | None) -> None:
        """A detector of ``kind`` (double, triple, super) on ``targets`` (one teammate stand)."""
        a = DoubleDetector(targets, value)  # type: ignore[arg-type]
        event: dict[str, Any] = {"type": "detector", "actor": p, "kind": kind, "targets": [_ref(t) for t in targets],
                                 "value": a.value}
        if card is not None:
            event["card"] = card
        hits = [t for t in a.targets if self.gameplay(self.key(t)) == a.value]
        if hits:
            cut, mine = self.rng.choice(hits), self.holds(p, a.value)[0]  # the teammate's pick
            event.update(success=True, cut=_ref(cut), actor_slot=_own(mine))
            self.events.append(event)
            self._cuts([cut, mine], a.value)
            return
        safe = [t for t in a.targets if not self.is_red(self.key(t))]
        if not safe:
            event.update(success=False, exploded=True)
            self.events.append(event)
            self.result = "red"
            return
        at = self.rng.choice(safe)  # the teammate's pick of the token's wire
        token = None if self._explodes_on_failure(p) else self._failure_token(p, at)
        event.update(success=False, token=token)
        if token is not None:
            event["token_at"] = _ref(at)
            self.tokened.add(at)
        self.events.append(event)
        if self._explodes_on_failure(p):
            self.result = "explosion"
            return
        self._fail(p)

    def _solo_cut(self, p: int, value: Value) -> None:
        mine = self._solo_slots(p, value)
        assert mine is not None
        self.events.append({"type": "solo_cut", "actor": p, "value": value, "slots": [_own(x) for x in mine]})
        self._cuts(mine, value, solo=True)

    def _reveal_red(self, p: int) -> None:
        mine = self.uncut(p)
        self.events.append({"type": "reveal_red", "actor": p,
                            "slots": [{**_own(x), "value": key_json(self.key(x))} for x in mine]})
        self.cut.update(mine)
        self._after_cut(RED, len(mine))

    def _multi_cut(self, p: int, a: MultiCut) -> None:
        slots = sorted(a.slots)
        keys = [self.key(x) for x in slots]
        ok = all(self.gameplay(k) == a.value for k in keys)
        event: dict[str, Any] = {"type": "multi_cut", "actor": p, "value": a.value, "slots": [_ref(x) for x in slots]}
        if ok:
            event["success"] = True
            self.events.append(event)
            self._cuts(slots, a.value)
            if self.mission in (23, 39):
                self.state["special_done"] = True
                if self.mission == 39:
                    self._m39_tokens()
            if self.mission in (55, 60) and a.value == RED:
                self._challenge_done(1)
            return
        if a.value == YELLOW:  # M48: true tokens on every wire, the dial advances once
            if any(self.is_red(k) for k in keys):  # a red wire is cut: the bomb explodes
                event.update(success=False, exploded=True)
                self.events.append(event)
                self.result = "red"
                return
            event.update(success=False, tokens=[value_of(k) for k in keys])
            self.events.append(event)
            self.tokened.update(slots)
            self._fail(p)
            return
        event.update(success=False, exploded=True)
        self.events.append(event)
        self.result = "explosion"

    def _tripwire(self, p: int, target: Slot) -> None:
        key = self.key(target)
        event: dict[str, Any] = {"type": "tripwire", "actor": p, "target": _ref(target)}
        if value_of(key) == YELLOW:
            event["success"] = True
            self.events.append(event)
            self._cuts([target], YELLOW)
            self._rewind()
        elif self.is_red(key):
            event.update(success=False, exploded=True)
            self.events.append(event)
            self.result = "red"
        else:
            event.update(success=False, token=value_of(key))
            self.events.append(event)
            self.tokened.add(target)
            self._fail(p)

    # ------------------------------------------------------------ skipped turns
    def _skip(self, p: int, d: dict[str, Any]) -> None:
        """``p`` has no legal action: the mission's consequence."""
        m, st = self.mission, self.state
        self._idle += 1
        self.turns += 1
        mine = self.visible(p)
        red_only = all(self.is_red(self.key(x)) for x in mine)
        if m in (9, 16) and mine and not red_only:
            self.result = "explosion"  # only sequence-blocked wires left (FAQ: the bomb explodes)
            return
        allowed = self._allowed_now(p, d.get("restrict"))
        cards = self._constraints_for(p)
        if m == 41:
            self._absent_for(p, self._blue_values())  # only the own tripwire (and reds) left
        elif m in (26, 59, 65) or (m in (31, 32, 37, 57, 61, 36) and allowed is not None):
            if allowed is not None:
                self._absent_for(p, sorted(allowed - self._forbidden_values(), key=_vkey))
        if m == 32:
            st["skipped"] = True
        if m in SKIP_MOVES_THE_DIAL or (m == 38 and p != 0 and not self.over):
            self._advance_dial(1)
        if m == 59:
            st["nano_dir"] = -st["nano_dir"]
        self._end_turn(p, None)

    def _absent_for(self, p: int, values: list[Value]) -> None:
        """An ``absent`` event when ``p`` truly holds no visible uncut wire of these values (in play)."""
        in_play = set(self._in_play())
        values = [v for v in values if v in in_play]
        held = {self.gameplay(self.key(x)) for x in self.visible(p)}
        if values and not held & set(values):
            self.events.append({"type": "absent", "player": p, "values": values})

    # ------------------------------------------------------------ after a cut, after a turn
    def _after_cut(self, value: Value, n: int) -> None:
        m, st = self.mission, self.state
        if value == YELLOW and m in (22, 27) and not st.get("passed") and self._yellows_cut >= 2:
            st["passed"] = True
            if m == 22:
                for g in range(self.players):
                    self.queue.append({"player": g, "kind": "choose", "what": "give", "to": (g + 1) % self.players})
            else:
                supply: list[Value] = [v for v in NUMBERS for _ in range(2)] + [YELLOW, YELLOW]
                st["draft"] = self.rng.sample(supply, self.players)
                for g in range(self.players):
                    self.queue.append({"player": g, "kind": "choose", "what": "draft"})
        if not isinstance(value, int):
            return
        done = self._cut_count(value) >= 4
        if m in (9, 16):
            seq = st["sequence"]
            need = 2 if m == 9 else 4
            while st["sequence_at"] < len(seq) - 1 and self._cut_count(seq[st["sequence_at"]]) >= need:
                st["sequence_at"] += 1
        if m == 36 and st["line"]:
            end = st["line"][0] if st["end"] == "left" else st["line"][-1]
            if value == end and self._cut_count(value) >= 2:
                st["line"].remove(value)
                if st["line"]:
                    self.queue.insert(0, {"player": self._actor, "kind": "choose", "what": "end"})
        if not done:
            return
        if m in (55, 60):
            st.setdefault("validated", []).append(value)  # challenges 4 and 8 read their order
        if m == 26:
            st["cards"] = [v for v in st["cards"] if v != value]
            st["visible"] = [v for v in st["visible"] if v != value]
        if m == 37:
            self._next_constraint()
        if m == 57:
            st["constraint"] = st["pairs"][str(value)]
        if m == 59:
            st.setdefault("face_down", []).append(value)
        if m == 62 and value in st["numbers"]:
            self._rewind()
        if m == 65:
            for q in st["cards"]:
                st["cards"][q] = [v for v in st["cards"][q] if v != value]
        if m in (18, 45, 51):
            st["deck"] = [v for v in st["deck"] if v != value]

    def _end_turn(self, p: int, action: Action | None) -> None:
        m, st = self.mission, self.state
        if m in (55, 60):
            self._challenges(p, action)
        if m == 29 and st.get("played") is not None:
            card = st.pop("played")
            if card in self._turn_cuts:
                self._advance_dial(1)
            self.private[p].setdefault("cards", []).append(card)
        if m == 43:
            self._m43_end(p)
        if m == 53 and action is not None and not isinstance(action, (RevealRed,)):
            cut = self._turn_cuts
            if cut:
                self.nano_dial += -1 if cut[0] == self.nano_dial else 1
            elif self.events and self.events[-1].get("success") is False:
                self.nano_dial += 2
            self.nano_dial = max(0, self.nano_dial)
            if self.nano_dial >= 12:
                self.result = "detonator"
        if m == 59 and isinstance(action, (DualCut, DoubleDetector, SoloCut)) and not self.over:
            self.queue.insert(0, {"player": p, "kind": "choose", "what": "direction"})
        if m == 65 and not self.over and st["cards"][str(p)]:
            self.queue.append({"player": p, "kind": "choose", "what": "give_card"})

    # ------------------------------------------------------------ choices
    def _choose_options(self, d: dict[str, Any]) -> list[Any]:
        m, st, p, what = self.mission, self.state, d["player"], d["what"]
        if what in ("designate",):
            return list(d["options"])
        if what == "constraint":
            taken = set(st["constraints"].values())
            return [c for c in "ABCDE" if c not in taken]
        if what == "end":
            return ["left", "right"]
        if what == "give":
            return [v for v in self._in_play() if v != RED]
        if what == "draft":
            return sorted(set(st["draft"]), key=_vkey)
        if what == "volunteer":
            return [True, False]
        if what == "token":
            return [x for x in self.visible(p) if not self.is_red(self.key(x))]
        if what == "direction":
            return [1, -1]
        if what == "give_card":
            return [(v, q) for v in st["cards"][str(p)] for q in range(self.players) if q != p]
        raise SimError(f"unknown decision {what!r}")

    def _resolve_choice(self, d: dict[str, Any], a: Choose) -> None:
        m, st, p, what, o = self.mission, self.state, d["player"], d["what"], a.option
        if isinstance(o, list):
            o = tuple(o)
        if what == "constraint":
            st["constraints"][str(p)] = o
        elif what == "end":
            st["end"] = o
        elif what == "give":
            self._place_true_or_absent(d["to"], o)
        elif what == "draft":
            st["draft"].remove(o)
            self._place_true_or_absent(p, o)
        elif what == "direction":
            st["nano_dir"] = o
        elif what == "give_card":
            v, q = o
            st["cards"][str(p)].remove(v)
            st["cards"][str(q)].append(v)
            st["cards"][str(q)].sort()
        elif what == "designate":
            v = d["number"]
            if any(self.gameplay(self.key(x)) == v for x in self.cuttable(o)):
                dd = self._turn_decision(o, restrict=[v])
                dd["restrict"] = [v]
                if self._has_move(dd):
                    self.queue.insert(0, dd)
                    return
            self.turns += 1
            if m == 18:
                self._end_turn(p, None)
                return
            # M45 / M51: the designated player does not hold it: they say so, choose a token, the dial advances
            self._absent_for(o, [v])
            if self._choose_options({"player": o, "what": "token"}):
                self.queue.insert(0, {"player": o, "kind": "choose", "what": "token"})
            self._advance_dial(1)
        elif what == "volunteer":
            v = st["number"]
            if o:
                if any(self.gameplay(self.key(x)) == v for x in self.cuttable(p)):
                    dd = self._turn_decision(p, restrict=[v])
                    dd["restrict"] = [v]
                    if self._has_move(dd):
                        self.queue = [dd]
                        return
                self._advance_dial(1)  # "Snip!" without the value
                self.queue = []
                self.turns += 1
                return
            if not any(q["what"] == "volunteer" for q in self.queue if q["kind"] == "choose"):
                options = [q for q in range(self.players) if self.uncut(q)]
                self.queue.append({"player": 0, "kind": "choose", "what": "designate", "number": v,
                                   "options": options})
        elif what == "token":
            x = tuple(o)
            self.events.append({"type": "info_token", "at": _ref(x), "value": value_of(self.key(x))})
            self.tokened.add(x)

    # ------------------------------------------------------------ equipment (rules.md §5)
    def _card_kind(self, p: int, card: str) -> str:
        """The card whose effect a use plays: the card itself, or the player's character's card."""
        if card == eq.CHARACTER:
            return _CHARACTER_CARD.get(self.characters[p], "")
        return card

    def _available(self, p: int) -> list[str]:
        """The cards and the character ``p`` may use now (unlocked, not spent)."""
        b = self.board
        if b is None:
            return []
        barred = cards_barred(self.mission, p)  # M17, M28
        out = [] if barred else [c for c in b.board if c not in b.used and b.unlocked(c) and c in _PLAYED_CARDS]
        if not (barred and barred[1]) and self.characters[p] in _CHARACTER_CARD and not b.character_used[p] and \
                _CHARACTER_CARD[self.characters[p]] in _PLAYED_CARDS:
            out.append(eq.CHARACTER)
        return out

    def _stabilizer_ok(self, p: int) -> bool:
        """The Stabilizer is played only where a failure always gives a true token (its "no token: red"
        reading needs one) and a failure does not explode."""
        m = self.mission
        return not ({"no_failure_info", "count_tokens"} & self.tags or m in (14, 17, 28, 52)
                    or "H" in self._constraints_for(p)
                    or any("H" in self._constraints_for(q) for q in range(self.players)))

    def _card_options(self, p: int, d: dict[str, Any], kind: str) -> list[Any]:
        """Every option of a use of the card ``kind`` by ``p`` in the turn decision ``d``."""
        m = self.mission
        cut_cards = m not in _CUT_COST_MISSIONS
        plain = [tuple(t) for t in d["targets"] if not self.special.get(tuple(t))]
        if kind in ("1", "12"):
            out = []
            for s, row in enumerate(self.hands[p]):
                for j in range(len(row) - 1):
                    a, b = (p, s, j), (p, s, j + 1)
                    if (a in self.cut and b in self.cut) or self.special.get(a) or self.special.get(b):
                        continue
                    same = self.gameplay(self.key(a)) == self.gameplay(self.key(b))
                    if same == (kind == "12"):
                        out.append(a)
            return out
        if kind == "4":
            out = []
            for x in self.cuttable(p):
                if self.special.get(x) or x in self.tokened or not isinstance(self.gameplay(self.key(x)), int):
                    continue
                if "count_tokens" in self.tags and self._stand_count(x) > 3:
                    continue
                out.append(x)
            return out
        if kind == "2.2":
            return [x for x in self.slots(p) if not self.special.get(x) and x not in self.tokened
                    and isinstance(self.gameplay(self.key(x)), int) and self._stand_count(x) == 1]
        if kind == "6":
            return [None] if m != 53 and self.dial < self._rewinder_limit() else []
        if kind == "7":
            used = [q for q in range(self.players) if self.board and self.board.character_used[q]]
            return [(q,) for q in used] + [pair for pair in combinations(used, 2)]
        if kind == "8":
            return [v for v in self._blue_values() if v != self.counts_as_red]  # in play: a table refuses others
        if kind == "3.3":
            return [None] if self.board and self.board.used - {"3.3"} else []
        if kind == "10.10":
            ok = self._forbidden_values() == {RED} and m not in (55, 60)
            return [None] if ok else []
        if kind in ("2", "11.11"):
            if self.special or self.nano_dealt or m in (43, 53, 59):
                return []  # wires that move: not where stands hold X / flipped wires or Nano moves wires
            free = {q: [x for x in self.uncut(q) if x not in self.tokened] for q in range(self.players)}
            if kind == "11.11":
                return [(x, s) for q in range(self.players) if q != p for x in free[q]
                        for s in range(len(self.hands[p]))]
            return [(x, q) for x in free[p] for q in range(self.players) if q != p and free[q]]
        if kind == "11":
            return [q for q in self._active_players() if q != p]
        if not cut_cards:
            return []
        if kind == "9.9":
            allowed = self._allowed_now(p, d.get("restrict"))
            values = {self.gameplay(self.key(x)) for x in self.cuttable(p)} - self._forbidden_values()
            return sorted(v for v in values if isinstance(v, int) and (allowed is None or v in allowed)
                          and len(self.holds(p, v)) >= 2 and "K" not in self._constraints_for(p))
        if not d["values"]:
            return []
        ints = [v for v in d["values"] if isinstance(v, int)]
        if kind == "9":
            return [(t, v) for t in plain for v in d["values"]] if self._stabilizer_ok(p) else []
        if kind == "10":
            return [(t, a, b) for t in plain for a, b in combinations(d["values"], 2)]
        if kind in ("3", "5"):
            out = []
            for q in range(self.players):
                for s in range(len(self.hands[q]) if q != p else 0):
                    row = [x for x in self.uncut(q) if x[1] == s and not self.special.get(x)]
                    if kind == "5":
                        if row and all(list(x) in d["targets"] for x in row):
                            out += [((q, s), v) for v in ints]
                    else:
                        row = [x for x in row if list(x) in d["targets"]]
                        out += [(c, v) for c in combinations(row, 3) for v in ints]
            return out
        return []

    def card_uses(self, p: int, d: dict[str, Any]) -> list[dict[str, Any]]:
        """The equipment ``p`` may use in the turn decision ``d``: [{"card", "effect", "options"}]."""
        if d.get("kind") != "turn" or any(s.get("forced") for s in d["specials"]):
            return []
        out = []
        for c in self._available(p):
            kind = self._card_kind(p, c)
            options = self._card_options(p, d, kind)
            if options:
                out.append({"card": c, "effect": kind, "options": [_jsonable(o) for o in options]})
        return out

    def _check_card(self, p: int, d: dict[str, Any], a: UseCard) -> None:
        if d.get("kind") != "turn" or a.card not in self._available(p) or \
                any(s.get("forced") for s in d["specials"]):
            raise SimError(f"player {p} cannot use {a.card!r} now")
        if _tupled(a.option) not in self._card_options(p, d, self._card_kind(p, a.card)):
            raise SimError(f"player {p} cannot use {a.card!r} with {a.option!r}")

    def _spend(self, p: int, card: str) -> None:
        assert self.board is not None
        if card == eq.CHARACTER:
            self.board.use_character(p)
        else:
            self.board.use_card(card)

    def _by(self, event: dict[str, Any], p: int, card: str) -> dict[str, Any]:
        event["card"] = card
        if card == eq.CHARACTER:
            event["actor"] = p
        return event

    def _use_any_time(self, d: dict[str, Any], a: UseCard) -> None:
        """A card that does not end the turn: played, then the same player decides again."""
        p, card, o = d["player"], a.card, _tupled(a.option)
        kind = self._card_kind(p, card)
        self._spend(p, card)
        if kind in ("1", "12"):
            self.events.append(self._by({"type": "label", "kind": "equal" if kind == "12" else "different",
                                         "at": _ref(o)}, p, card))
        elif kind in ("4", "2.2"):
            e: dict[str, Any] = {"type": "info_token", "at": _ref(o)}
            v = self.gameplay(self.key(o))
            if kind == "2.2":
                e["count"] = 1
            elif "parity_tokens" in self.tags:
                e["parity"] = "even" if v % 2 == 0 else "odd"
            elif "count_tokens" in self.tags:
                e["count"] = self._stand_count(o)
            else:
                e["value"] = v
            self.events.append(self._by(e, p, card))
            self.tokened.add(o)
        elif kind == "6":
            self._rewind(card=True)
            self.events.append({"type": "equipment", "card": "6", "actor": p})
        elif kind == "7":
            assert self.board is not None
            self.board.recharge(list(o))
            self.detectors_used -= set(o)
            self.events.append({"type": "equipment", "card": "7", "actor": p, "characters": list(o)})
        elif kind == "8":
            answers = [[any(self.gameplay(self.key((q, s, j))) == o and (q, s, j) not in self.cut
                            and not self.special.get((q, s, j)) for j in range(len(row)))
                        for s, row in enumerate(self.hands[q])] for q in range(self.players)]
            self.events.append(self._by({"type": "radar", "value": o, "answers": answers}, p, card))
        elif kind == "3.3":
            assert self.board is not None
            self.board.drop()
            self.events.append({"type": "equipment", "card": "3.3", "actor": p})
        elif kind == "11.11":
            x, s = o
            key = self._remove(x)
            j = self._insert(p, s, key)
            self.events.append({"type": "move", "from": _ref(x), "to": _ref((p, s, j)), "card": "11.11"})
            self.seen[p].append({"at": _ref((p, s, j)), "value": key_json(key), "after": len(self.events) - 1})
        elif kind == "2":
            mine, q = o
            theirs = self.rng.choice([x for x in self.uncut(q) if x not in self.tokened])  # the teammate's pick
            ka, kb = self.key(mine), self.key(theirs)
            if mine[:2] == theirs[:2]:
                raise SimError("a swap between two stands")
            # both leave at once (two players' stands: the removals do not shift each other)
            self._remove(mine)
            self._remove(theirs)
            b_to = self._insert(p, mine[1], kb)
            a_to = self._insert(q, theirs[1], ka)
            self.events.append(self._by({"type": "swap", "a": _ref(mine), "b": _ref(theirs), "a_to": a_to,
                                         "b_to": b_to}, p, card))
            n = len(self.events) - 1
            self.seen[p].append({"at": _ref((p, mine[1], b_to)), "value": key_json(kb), "after": n})
            self.seen[q].append({"at": _ref((q, theirs[1], a_to)), "value": key_json(ka), "after": n})
        elif kind == "10.10":
            in_play = [n for n in self._in_play() if isinstance(n, int) and n != self.counts_as_red]
            v = self.rng.choice(in_play)  # a random token of the supply (of a value in play)
            slots = sorted(x for x in self._remaining(v) if x is not None and not self.special.get(x))
            self.events.append({"type": "disintegrator", "value": v, "slots": [_ref(x) for x in slots],
                                "card": "10.10"})
            if slots:
                self._cuts(slots, v)
        self._win_if_all_cut()
        if self.over:
            return
        nd = {**d, **self._turn_decision(p, d.get("restrict"))}
        if self._has_move(nd):
            self.queue.insert(0, nd)
        else:  # nothing left to do this turn (the Disintegrator cut the last wires it could)
            self.turns += 1
            self._end_turn(p, None)

    def _use_turn_card(self, p: int, d: dict[str, Any], a: UseCard) -> None:
        """A card that is the turn's action: a detector, the X or Y ray, a stabilized cut, the Fast Pass,
        the Coffee Mug."""
        card, o = a.card, _tupled(a.option)
        kind = self._card_kind(p, card)
        self._spend(p, card)
        if kind in ("3", "5"):
            targets, v = o
            if kind == "5":
                q, s = targets
                targets = tuple(x for x in self.uncut(q) if x[1] == s and not self.special.get(x))
            self._detect(p, "triple" if kind == "3" else "super", tuple(targets), v, card)
        elif kind == "9":
            t, v = o
            self._dual_cut(p, DualCut(t, v), stabilizer=True, card=card)
        elif kind == "10":
            t, v1, v2 = o
            self._dual_cut(p, DualCut(t, v1), values=(v1, v2), card=card)
        elif kind == "9.9":
            mine = self.holds(p, o)[:2]
            self.events.append(self._by({"type": "fast_pass", "actor": p, "value": o,
                                         "slots": [_own(x) for x in mine]}, p, card))
            self._cuts(mine, o, solo=True)
        elif kind == "11":
            self.events.append({"type": "equipment", "card": "11", "actor": p, "next": o})
            self._next = o

    def _false_bottom(self) -> None:
        """False Bottom is played the moment it unlocks: 2 cards of the mission's pool join the board."""
        b = self.board
        if b is None or eq.FALSE_BOTTOM not in b.board or eq.FALSE_BOTTOM in b.used or not b.unlocked(eq.FALSE_BOTTOM):
            return
        added = self.rng.sample(self.pool, min(2, len(self.pool)))
        self.pool = [c for c in self.pool if c not in added]
        b.use_card(eq.FALSE_BOTTOM)
        b.add_cards(added)
        self.events.append({"type": "equipment", "card": eq.FALSE_BOTTOM, "added": added})

    # ------------------------------------------------------------ mission mechanics
    def _radar(self, v: int) -> None:
        answers = [[any(value_of(self.key((q, s, j))) == v and (q, s, j) not in self.cut
                        and not self.special.get((q, s, j)) for j in range(len(row)))
                    for s, row in enumerate(self.hands[q])] for q in range(self.players)]
        self.events.append({"type": "radar", "value": v, "answers": answers, "card": "mission"})

    def _draw_number(self) -> int | None:
        st = self.state
        live = [v for v in self._blue_values() if any(x is not None for x in self._remaining(v))]
        st["deck"] = [v for v in st["deck"] if v in live]
        if not st["deck"]:
            st["deck"] = list(live)
            self.rng.shuffle(st["deck"])
        return st["deck"].pop() if st["deck"] else None

    def _m45_open(self) -> None:
        st = self.state
        for q in range(self.players):  # "at any time" a player with only reds reveals them
            if self._only_red(q):
                self._reveal_red(q)
                self._round_played = True
        self._win_if_all_cut()
        if self.over:
            return
        v = self._draw_number()
        if v is None:
            self._idle += 1
            self.turns += 1
            return
        st["number"] = v
        for q in range(self.players):
            if self.uncut(q):
                self.queue.append({"player": q, "kind": "choose", "what": "volunteer", "number": v})

    def _m29_play_card(self, p: int) -> None:
        """The right neighbour (or the next one to the right with a card) plays a Number card face down:
        the game picks it at random (the card is hidden; the neighbour's choice is theirs)."""
        st = self.state
        live = {v for v in self._blue_values() if self._cut_count(v) < 4}
        for q in range(self.players):
            hand = self.private[q].setdefault("cards", [])
            hand[:] = [v for v in hand if v in live]
            while len(hand) <= 1 and st["deck"] and len(live) > 1:
                v = st["deck"].pop()
                if v in live:
                    hand.append(v)
        for i in range(1, self.players):
            q = (p - i) % self.players
            hand = self.private[q]["cards"]
            if hand and len(live) > 1:
                st["played"] = hand.pop(self.rng.randrange(len(hand)))
                return

    def _m39_tokens(self) -> None:
        """After the special action: the deck's cards dealt from the Captain; each player puts a token
        on a wire of the first of their values they hold (a dealt value not in the hand is ignored)."""
        st = self.state
        cards: dict[int, list[int]] = {p: [] for p in range(self.players)}
        for i, v in enumerate(st.get("deck", [])):
            cards[i % self.players].append(v)
        st["deck"] = []
        for p, values in cards.items():
            for v in values:
                mine = [x for x in self.visible(p) if value_of(self.key(x)) == v]
                if mine:
                    at = self.rng.choice(mine)
                    self.events.append({"type": "info_token", "at": _ref(at), "value": v})
                    self.tokened.add(at)
                    break

    def _m43_end(self, p: int) -> None:
        st = self.state
        if self.nano and st["nano_space"] in self._turn_cuts:
            key = self.nano.pop(0)
            s = self.rng.randrange(len(self.hands[p]))  # a 2-stand player's choice of stand: at random
            j = self._insert(p, s, key)
            self.events.append({"type": "move", "from": "nano", "to": _ref((p, s, j))})
            self.seen[p].append({"at": _ref((p, s, j)), "value": key_json(key), "after": len(self.events) - 1})
            st["nano_left"] = len(self.nano)
        space, step = st["nano_space"], st["nano_dir"]
        if not 1 <= space + step <= 12:
            step = -step
        st["nano_space"], st["nano_dir"] = space + step, step

    def _remove(self, x: Slot) -> Key:
        """Take the uncut wire at ``x`` out of its stand; shift the stand's addresses; return its key."""
        p, s, j = x
        key = self.hands[p][s].pop(j)

        def shift(slots: Any) -> Any:
            return type(slots)((a[0], a[1], a[2] - 1) if a[:2] == (p, s) and a[2] > j else a for a in slots)

        self.cut = shift(self.cut)
        self.tokened = shift(self.tokened)
        self.special = {((q, t, i - 1) if (q, t) == (p, s) and i > j else (q, t, i)): v
                        for (q, t, i), v in self.special.items()}
        return key

    def _insert(self, p: int, s: int, key: Key) -> int:
        """Insert ``key`` in order into stand (p, s); shift the stand's addresses; return its index."""
        row = self.hands[p][s]
        j = 0
        while j < len(row) and (self.special.get((p, s, j)) == "flip" and j == 0):
            j += 1
        while j < len(row) and not self.special.get((p, s, j)) and row[j] <= key:
            j += 1

        def shift(slots: Any) -> Any:
            return type(slots)((x[0], x[1], x[2] + 1) if x[:2] == (p, s) and x[2] >= j else x for x in slots)

        self.cut = shift(self.cut)
        self.tokened = shift(self.tokened)
        self.special = {((q, t, i + 1) if (q, t) == (p, s) and i >= j else (q, t, i)): v
                        for (q, t, i), v in self.special.items()}
        row.insert(j, key)
        return j

    def _m59_reachable(self) -> list[int]:
        st = self.state
        line, at, step = st["line"], st["nano_at"], st["nano_dir"]
        down = set(st.get("face_down", []))
        out = [line[at]] if line[at] not in down else []
        i = at + step
        while 0 <= i < len(line):
            if line[i] not in down:
                out.append(line[i])
            i += step
        return out

    def _m47_values(self) -> list[int]:
        cards = self.state["cards"]
        out = set()
        for a, b in combinations(cards, 2):
            for v in (a + b, abs(a - b)):
                if 1 <= v <= 12:
                    out.add(v)
        return sorted(out)

    def _m47_use(self, v: int) -> None:
        st = self.state
        pairs = [(a, b) for a, b in combinations(st["cards"], 2) if v in (a + b, abs(a - b))]
        a, b = self.rng.choice(pairs)  # which pair makes the value: the game's pick at random
        st["cards"].remove(a)
        st["cards"].remove(b)
        if len(st["cards"]) < 2:
            st["cards"] = list(NUMBERS)

    def _before_cut(self, p: int, v: Value) -> None:
        """What a cut action of ``v`` costs or moves first: oxygen (M44, M49, M63), the sums' cards
        (M47), Nano on the number line (M59), the Number card flipped (M26)."""
        m, st = self.mission, self.state
        if m == 59:
            st["nano_at"] = st["line"].index(v)
        if m == 26:
            st["visible"] = [x for x in st["visible"] if x != v]
        if not isinstance(v, int):
            return
        if m == 44:
            st["oxygen"] -= _depth(v)
        elif m == 49:
            st["oxygen"][p] -= v
            others = [q for q in range(self.players) if q != p]
            # to the teammate holding the fewest tokens (the next one clockwise on a tie)
            q = min(others, key=lambda q: (st["oxygen"][q], (q - p) % self.players))
            st["oxygen"][q] += v
        elif m == 63:
            st["oxygen"] -= v
            st["reserve"] += v
        elif m == 47:
            self._m47_use(v)

    def _next_constraint(self) -> None:
        st = self.state
        st["constraint"] = st["deck"].pop() if st.get("deck") else None

    # -- challenge cards (M55, M60)
    def _challenges(self, p: int, action: Action | None) -> None:
        st = self.state
        hist = st.setdefault("history", [])
        hist.append({"cuts": list(self._turn_cuts), "solo": self._turn_solo})
        validated = st.get("validated", [])
        for c in list(st["challenges"]):
            if self._challenge_met(c, hist, validated):
                self._challenge_done(c)

    def _challenge_done(self, c: int) -> None:
        if c in self.state["challenges"]:
            self.state["challenges"].remove(c)
            self._rewind()

    def _challenge_met(self, c: int, hist: list[dict[str, Any]], validated: list[int]) -> bool:
        def last(n: int) -> list[dict[str, Any]]:
            return hist[-n:] if len(hist) >= n else []

        if c == 2:
            return len(last(4)) == 4 and all(h["cuts"] and all(isinstance(v, int) and v % 2 == 0 for v in h["cuts"])
                                             for h in last(4))
        if c == 5:
            return len(last(2)) == 2 and all(h["solo"] for h in last(2))
        if c == 7:
            vals = [h["cuts"][0] if h["cuts"] and isinstance(h["cuts"][0], int) else None for h in last(3)]
            if len(vals) == 3 and None not in vals:
                d1, d2 = vals[1] - vals[0], vals[2] - vals[1]
                return d1 == d2 and d1 in (1, -1)
            return False
        if c == 4:
            return len(validated) >= 3 and sum(validated[:3]) == 18
        if c == 8:
            return len(validated) >= 2 and sorted(validated[:2]) == sorted(self.state["challenge8"])
        for q in range(self.players):
            for s, row in enumerate(self.hands[q]):
                cut = [(q, s, j) in self.cut for j in range(len(row))]
                n = len(row)
                if c == 3:
                    runs, run = [], 0
                    for x in cut + [True]:
                        if x:
                            if run:
                                runs.append(run)
                            run = 0
                        else:
                            run += 1
                    if runs and all(r == 2 for r in runs):
                        return True
                if c == 6:
                    iso = sum(1 for j in range(n) if not cut[j] and (j == 0 or cut[j - 1]) and (j == n - 1 or cut[j + 1]))
                    if iso >= 5:
                        return True
                if c == 9:
                    blue = [row[j] // 10 for j in range(n) if not cut[j] and row[j] % 10 == 0]
                    uncut_all = [j for j in range(n) if not cut[j]]
                    if len(blue) >= 6 and all(v % 2 for v in blue) and len(uncut_all) >= 6:
                        return True
                if c == 10:
                    if n >= 4 and sum(cut) >= 7 and not any(cut[j] for j in (0, 1, n - 2, n - 1)):
                        return True
        return False


def _depth(v: int) -> int:
    """M44/M54's oxygen cost of a value: 1-4 one token, 5-8 two, 9-12 three."""
    return 1 if v <= 4 else 2 if v <= 8 else 3


def _cards(e: dict[str, Any]) -> set[str]:
    """The cards an event names in its ``card`` field (one, or a list), by printed ID: an ``equipment``
    event may name its card by its pre-ID name (equipment.card_id), which the table accepts."""
    card = e.get("card")
    named = card if isinstance(card, list) else [card] if isinstance(card, str) else []
    return {eq.NAMED.get(c, c) for c in named}


def _spends_character(e: dict[str, Any]) -> bool:
    """Whether a detector event spent its actor's Double Detector character: a double detector whose
    ``card`` names the character, or names nothing (a table that does not list the equipment plays
    the character).  The Triple and Super Detectors and the X or Y Ray are cards: they leave it."""
    return e.get("kind") == "double" and ("card" not in e or eq.CHARACTER in _cards(e))


def _detectors_used(events: list[dict[str, Any]]) -> set[int]:
    """The players whose Double Detector character the events leave spent (Emergency Batteries, card 7,
    restores the characters it names)."""
    used: set[int] = set()
    for e in events:
        if e["type"] == "detector" and _spends_character(e):
            used.add(e["actor"])
        elif e["type"] == "equipment" and "7" in _cards(e):
            used -= set(e.get("characters", ()))
    return used


# Missions with rules of their own whose game a player's view cannot rebuild: their game holds cards the
# players have not seen (a deck's order, which cards a deck holds, other players' hands; no table file
# shows them: HIDDEN_STATE, private), which a determinization would have to draw from a law the
# simulator does not have.  Every other mission is
# replayed from the simulator's own view (Position; tests/test_ismcts.py checks it against the game).
NOT_REPLAYED = {
    18: "its Number deck's order is hidden", 45: "its Number deck's order is hidden",
    51: "its Number deck's order is hidden", 32: "its constraint deck's order is hidden",
    37: "its constraint deck's order is hidden", 39: "which Number cards its deck holds is hidden",
    29: "the players' Number cards are hidden in their hands",
    34: "the weakest link's constraint card is hidden",
    61: "the constraint cards left on the table are hidden",
}


def replay_refusal(raw: dict[str, Any]) -> str | None:
    """Why :class:`Position` cannot replay this table file (None: it can)."""
    meta = raw.get("meta", {})
    mission = meta.get("mission")
    if mission in BASE_MISSIONS:
        return None
    if mission in NOT_REPLAYED:
        return f"mission {mission}: {NOT_REPLAYED[mission]}, so the replay cannot rebuild its game"
    if not isinstance(meta.get("sim"), dict) or not isinstance(meta["sim"].get("state"), dict):
        return (f"mission {mission} has rules of its own: the replay rebuilds its game only from the "
                "simulator's own view (meta.sim)")
    return None


class Position:
    """A table file's game state but its hidden deal: what :meth:`Game.restore` rebuilds, plus what
    the equipment and moved wires add, computed once from the public table and played on any deal.

    :meth:`game` is the game at the table's state on one deal of the table's segments (board.py;
    engines/sampling.py's ``Deal``: per segment its sorted keys): the stands as dealt and as they
    are now (Grappling Hook / Walkie-Talkies moves replayed), the cut wires, the tokened wires, what
    each player saw of a moved wire (their ``seen``, read from that deal), the dial and failed cuts
    as meta.sim shows them (the simulator's own view) or else as :meth:`Game.restore` replays them
    from the events (the Rewinder and the Stabilizer included), and
    the equipment board as the table's events leave it (cards used, characters spent, cuts that
    unlock, the mission's cards not on the board for False Bottom).  From the player's own view, the
    game's table file is the view itself (tests/test_ismcts.py).

    A mission with rules of its own is rebuilt from the simulator's own view only (:func:`replay_refusal`
    says which cannot be): its special wires and Nano's as the deal places them, and what the
    events do not say from ``meta.sim`` -- the mission's public state, the dial, the round's counters.
    """

    def __init__(self, raw: dict[str, Any], table: Table, turn: int, tags: frozenset[str] = frozenset()):
        refusal = replay_refusal(raw)
        if refusal is not None:
            raise SimError(refusal)
        self.raw, self.turn, self.tags = raw, turn, tags
        self.mission = raw.get("meta", {}).get("mission")
        self.segments, self.start = table.deal()  # wire identities at the deal
        now = table.board()
        self.now = now.stands
        self.cut = {(p, s, j) for p, rows in enumerate(now.stands) for s, row in enumerate(rows)
                    for j, w in enumerate(row) if w in now.cut}
        self.tokened: set[Slot] = set()
        self.seen: list[tuple[int, dict[str, Any], Any, int]] = []  # (player, at, wire, event index)
        for i, e in enumerate(raw["events"]):
            at = None
            if e["type"] == "info_token":
                at = e["at"]
            elif e["type"] == "dual_cut" and not e["success"] and e.get("token") is not None:
                at = e["target"]
            elif e["type"] == "detector" and not e["success"] and e.get("token") is not None:
                at = e["token_at"]
            elif e["type"] == "tripwire" and not e["success"] and e.get("token") is not None:
                at = e["target"]
            if at is not None:
                self.tokened.add(now.address(table.board(i).wire(at["player"], at["stand"], at["slot"])))
            if e["type"] == "move":
                self.seen.append((e["to"]["player"], e["to"], self._wire(table, i, e["to"]), i))
            elif e["type"] == "swap":
                a, b = e["a"], e["b"]
                for ref in ({**a, "slot": e["b_to"]}, {**b, "slot": e["a_to"]}):
                    self.seen.append((ref["player"], ref, self._wire(table, i, ref), i))
        # meta.sim's detonator (the simulator's own view); a page's table has none: the replay's is its events'
        sim = raw.get("meta", {}).get("sim")
        self.detonator: tuple[int, int] | None = None if sim is None else (sim["dial"], sim["strikes"])
        self.board = table.equipment_board()

    @staticmethod
    def _wire(table: Table, i: int, ref: dict[str, int]) -> Any:
        """The wire at ``ref`` just after event ``i``."""
        return table.board(i + 1).wire(ref["player"], ref["stand"], ref["slot"])

    def game(self, deal: Sequence[Sequence[Key]], rng: random.Random) -> Game:
        """The game at the table's state, played on ``deal`` (per segment its sorted keys)."""
        def keys(layout: list[list[list[Any]]]) -> list[list[list[Key]]]:
            return [[[deal[seg][i] for seg, i in row] for row in rows] for rows in layout]

        now, dealt = keys(self.now), keys(self.start)
        if self.mission in BASE_MISSIONS:
            game = Game.restore(self.raw, [row for rows in now for row in rows], self.turn, rng, self.tags,
                                self.board)
        else:
            game = self._mission_game(deal, dealt, now, rng)
        game.dealt = dealt
        game.cut, game.tokened = set(self.cut), set(self.tokened)
        if self.detonator is not None:
            dial, game.strikes = self.detonator
            game.dial, game.result = game.dial if dial is None else dial, None  # M53: no dial (Nano is)
        for p, at, (seg, i), after in self.seen:
            game.seen[p].append({"at": at, "value": key_json(deal[seg][i]), "after": after})
        game._win_if_all_cut()
        restrict = ((self.raw["meta"]["sim"].get("pending") or {}).get("restrict")
                    if self.detonator is not None else None)
        game.queue = [] if game.over else [game._turn_decision(self.turn, restrict)]
        return game

    def _mission_game(self, deal: Sequence[Sequence[Key]], dealt: list[list[list[Key]]], now: list[list[list[Key]]],
                      rng: random.Random) -> Game:
        """A mission with rules of its own at the view's state (the class docstring); the caller sets what
        the base game's replay shares (cuts, tokens, what was seen, the dial)."""
        segments, raw = self.segments, self.raw
        sim = raw["meta"]["sim"]

        def special(layout: list[list[list[Any]]]) -> dict[Slot, str]:
            return {(p, s, j): "x" if segments[sid].kind == "x" else "flip"
                    for p, rows in enumerate(layout) for s, row in enumerate(rows)
                    for j, (sid, _) in enumerate(row) if segments[sid].special}

        nano = [deal[sid][0] for sid, seg in enumerate(segments) if seg.kind == "nano"]
        taken = sum(1 for e in raw["events"] if e["type"] == "move" and e["from"] == "nano")
        aside = sorted(k for sid in range(len(segments), len(deal)) for k in deal[sid])
        setup = {k: v for k, v in raw.items() if k not in ("me", "events")}
        # the constructor shows every teammate the flipped wires as dealt, as the game does at the deal
        game = Game(setup, dealt, aside, rng, self.tags, mission=self.mission, special=special(self.start), nano=nano)
        game.hands, game.special, game.nano = now, special(self.now), nano[taken:]
        game.state = copy.deepcopy(sim["state"])
        if self.mission == 53:
            game.nano_dial = sim.get("nano_space", 0)
        game.private[self.turn] = copy.deepcopy(sim.get("private", {}))
        game.detectors_used = _detectors_used(raw["events"])
        game._yellows_cut = sum(1 for x in self.cut if value_of(game.key(x)) == YELLOW)
        if self.board is not None:
            game.take_board(self.board)
        game.events, game.turn, game._begun, game._setup = list(raw["events"]), self.turn, True, []
        game._last = self.turn  # the next turn is the next player's
        game._round_counters(raw)
        return game


# ---------------------------------------------------------------- dealing


def _tiles(wires: dict[str, Any], rng: random.Random) -> tuple[list[Key], list[Key]]:
    """The tiles in play and those set aside (each k of m pool: a uniform k-subset in play)."""
    if "deck" in wires:
        return [parse_key(k) for k, n in wires["deck"].items() for _ in range(n)], []
    tiles = [10 * v for v in wires["blue"] for _ in range(4)]
    tiles += [parse_key(k) for k in wires.get("yellow", []) + wires.get("red", [])]
    aside: list[Key] = []
    for pool in wires.get("uncertain", []):
        cands = [parse_key(k) for k in pool["candidates"]]
        rng.shuffle(cands)
        tiles += cands[:pool["count"]]
        aside += cands[pool["count"]:]
    return tiles, aside


def _shape(raw: Any) -> tuple[int, str]:
    if isinstance(raw, int):
        return raw, "plain"
    name = "x_slot" if "x_slot" in raw else "flipped"
    return raw["size"], STAND_SHAPES[(name, raw[name])]


def deal(setup: dict[str, Any], rng: random.Random, tags: frozenset[str] = frozenset(),
         mission: int | None = None) -> Game:
    """A uniform shuffle of the setup's tiles into its deal segments (board.py); ``rng`` also drives the game.

    Pre-dealt colours (``mission`` 13, 41, 48) go one per player clockwise from the Captain first;
    M35's X wires are blue tiles drawn first."""
    shapes = [[_shape(raw) for raw in pl["stands"]] for pl in setup["players"]]
    nano_n = setup.get("nano", 0)
    segments, layout = segments_and_layout(shapes, nano_n)
    tiles, aside = _tiles(setup["wires"], rng)
    sizes = sum(size for rows in shapes for size, _ in rows)
    if sizes + nano_n != len(tiles):
        raise SimError(f"the stands hold {sizes} wires (Nano {nano_n}) but {len(tiles)} are in play")
    rng.shuffle(tiles)
    fill: dict[tuple[int, int], Key] = {}  # wire identity -> key
    positions = [(sid, j) for sid, seg in enumerate(segments) for j in range(seg.size)]
    dealt_counts: list[tuple[int, int | None, str, int]] = []
    if mission in (13, 41, 48):
        colour = RED if mission == 13 else YELLOW
        coloured = [k for k in tiles if value_of(k) == colour]
        tiles = [k for k in tiles if value_of(k) != colour]
        players = len(shapes)
        seats = [p for p in range(players) if not (mission == 41 and players == 5 and p == 0)]
        got = [0] * players
        for i in range(len(coloured)):
            got[seats[i % len(seats)]] += 1
        for p, c in enumerate(got):
            mine = [w for row in layout[p] for w in row]
            if len(shapes[p]) == 2 and c == 2:
                picks = [rng.choice(layout[p][s]) for s in (0, 1)]
                dealt_counts += [(p, s, colour, 1) for s in (0, 1)]
            else:
                picks = rng.sample(mine, c)  # a stand in proportion to its size
                dealt_counts.append((p, None, colour, c))
            for w in picks:
                fill[w] = coloured.pop()
    for p, rows in enumerate(shapes):
        for s, (size, shape) in enumerate(rows):
            if shape == "x_blue":
                w = layout[p][s][-1]
                k = next(k for k in tiles if k % 10 == 0)
                tiles.remove(k)
                fill[w] = k
    rest = [w for w in positions if w not in fill]
    rng.shuffle(tiles)
    for w, k in zip(rest, tiles):
        fill[w] = k
    by_segment: dict[int, list[Key]] = {}
    for (sid, j), k in fill.items():
        by_segment.setdefault(sid, []).append(k)
    for sid, keys in by_segment.items():
        if segments[sid].kind != "nano":
            keys.sort()
    hands, special = [], {}
    for p, rows in enumerate(layout):
        stands = []
        for s, row in enumerate(rows):
            stands.append([by_segment[sid][j] for sid, j in row])
            for j, (sid, _) in enumerate(row):
                kind = segments[sid].kind
                if kind == "x":
                    special[(p, s, j)] = "x"
                elif kind in ("flip", "pair"):
                    special[(p, s, j)] = "flip"
        hands.append(stands)
    nano = [by_segment[sid][0] for sid, seg in enumerate(segments) if seg.kind == "nano"]
    game = Game(setup, hands, sorted(aside), rng, tags, mission=mission, special=special, nano=nano)
    for p, s, colour, c in dealt_counts:
        e: dict[str, Any] = {"type": "dealt", "player": p, "value": colour, "count": c}
        if s is not None:
            e["stand"] = s
        game.events.append(e)
    _open_mission(game)
    if not game._setup:
        game._begin()
    return game


def _open_mission(game: Game) -> None:
    """The mission's cards and counters at the start (public ``state``, ``private`` hands), the random
    setup tokens, and the chosen setup decisions."""
    m, st, rng, n = game.mission, game.state, game.rng, game.players
    if m in (9, 16):
        st.update(sequence=rng.sample(NUMBERS, 3), sequence_at=0)
    elif m == 36:
        st.update(line=rng.sample(NUMBERS, 5), end="left")
    elif m in (18, 45, 51):
        st["deck"] = list(NUMBERS)
        rng.shuffle(st["deck"])
    elif m == 23:
        st.update(number=rng.choice(NUMBERS), special_done=False)
    elif m == 39:
        number = rng.choice(NUMBERS)
        st.update(number=number, special_done=False, deck=rng.sample([v for v in NUMBERS if v != number], 8))
    elif m == 26:
        st.update(cards=list(NUMBERS), visible=list(NUMBERS))
    elif m == 29:
        deck = list(NUMBERS)
        rng.shuffle(deck)
        for i in range(n):
            game.private[i]["cards"] = [deck.pop() for _ in range(3 if i == n - 1 else 2)]
        st["deck"] = deck
    elif m in (31, 61):
        st["constraints"] = {str(p): None for p in range(n)}
        if m == 61:
            cards = rng.sample("ABCDE", n + (2 if n == 2 else 1 if n == 3 else 0))
            st["constraints"] = {str(p): cards[p] for p in range(n)}
            st["table_cards"] = cards[n:]  # for a rotation the players never choose (docs/architecture.md, "What is played")
    elif m in (32, 37):
        deck = list(CONSTRAINTS)
        rng.shuffle(deck)
        st["deck"] = deck
        st["constraint"] = deck.pop()
    elif m == 34:
        weakest = rng.randrange(n)
        game.private[weakest].update(weakest=True, constraint=rng.choice("ABCDE"))
    elif m == 57:
        cards = list(CONSTRAINTS)
        rng.shuffle(cards)
        st.update(pairs={str(v): c for v, c in zip(NUMBERS, cards)}, constraint=None)
    elif m == 43:
        st.update(nano_space=1, nano_dir=1, nano_left=len(game.nano))
    elif m == 44:
        st["oxygen"] = 2 * n
    elif m == 47:
        st["cards"] = list(NUMBERS)
    elif m == 49:
        st["oxygen"] = [{2: 7, 3: 6, 4: 5, 5: 4}[n]] * n
    elif m == 63:
        st.update(oxygen={2: 14, 3: 18, 4: 24, 5: 30}[n], reserve=0)
    elif m in (55, 60):
        st["challenges"] = sorted(rng.sample(range(1, 11), n))
        st["challenge8"] = rng.sample(NUMBERS, 2)
    elif m == 59:
        line = list(NUMBERS)
        rng.shuffle(line)
        at = line.index(7)
        st.update(line=line, nano_at=at, nano_dir=1 if len(line) - 1 - at >= at else -1, face_down=[])
    elif m == 62:
        st["numbers"] = rng.sample(NUMBERS, n)
    elif m == 65:
        deck = list(NUMBERS)
        rng.shuffle(deck)
        counts = even_deal(12, n)
        st["cards"] = {str(p): sorted(deck.pop() for _ in range(c)) for p, c in enumerate(counts)}
    if m == 11:
        st["number"] = game.counts_as_red
    game._random_setup_tokens()
    game._plan_setup()


def mission_setup(number: int, players: int, rng: random.Random) -> tuple[dict[str, Any], frozenset[str]]:
    """Mission ``number``'s table (no events) with its yellow/red values (and M11's Number) drawn at random,
    and its rule tags."""
    if number in REFUSED:
        raise SimError(f"mission {number}: the simulator cannot play it: {REFUSED[number]}")
    m = mission_entry(number)
    tags = frozenset(m.rule_tags(players)) if players in m.wires else frozenset()
    drawn: dict[str, list[Any]] = {}
    for d in m.wires.get(players, ()):
        if d.drawn:
            drawn[d.colour] = [key_json(d.key(n)) for n in rng.sample(range(d.lo, d.hi + 1), d.drawn)]
    number_card = rng.choice(NUMBERS) if m.number_as_red else None
    table = new_table(number, players, yellow=drawn.get(YELLOW), red=drawn.get(RED), number_card=number_card)
    del table["events"]
    return table, tags


def deal_equipment(game: Game, rng: random.Random, on: bool = True, cards: list[str] | None = None,
                   characters: list[str] | None = None) -> None:
    """The mission's equipment (missions.equipment_pool): one card per player drawn at random from its pool
    (``cards`` to name them), the characters (the Captain the Double Detector; from M31 each other
    player's drawn at random among the 5, ``characters`` to name them).  The table lists its board
    (``"equipment"``, ``players[i].character``), so the core follows and checks every use.  ``on``
    False: no equipment (the table does not list a board; everyone the Double Detector).  ``rng`` is
    a generator of its own, drawn from whether ``on`` or not: the deal and the game's draws are the
    same with and without equipment (paired games)."""
    pool = equipment_pool(mission_entry(game.mission), game.players)
    drawn = cards if cards is not None else rng.sample(pool["pool"], min(pool["count"], len(pool["pool"])))
    chars = characters if characters is not None else [
        eq.DEFAULT_CHARACTER if p == 0 or "new_characters" not in game.tags else rng.choice(list(eq.CHARACTERS))
        for p in range(game.players)]
    if not on:
        return
    game.setup["equipment"] = [{"card": c} for c in drawn]
    game.pool = [c for c in pool["pool"] if c not in drawn]
    if pool["characters"]:
        game.characters = list(chars)
        for p, ch in enumerate(chars):
            if ch != eq.DEFAULT_CHARACTER:
                game.setup["players"][p] = {**game.setup["players"][p], "character": ch}
    game.board = eq.BoardState(tuple(drawn), tuple(game.characters), game.card_cut)
    if game.queue and game.queue[0]["kind"] == "turn":  # the first turn opened before the characters were known
        d = game.queue[0]
        game.queue[0] = {**d, **game._turn_decision(d["player"], d.get("restrict"))}


def new_game(rng: random.Random, *, mission: int | None = None, players: int = 4,
             wires: dict[str, Any] | None = None, stands: list[list[int]] | None = None,
             equipment: bool = True) -> Game:
    """A dealt game: mission ``mission`` with ``players`` players, or the wire set ``wires`` on ``stands``
    (sizes per player; default: the even deal on 1 stand each for 4-5 players, 2 for 2, Captain 2 for 3).
    A mission's game has its equipment (:func:`deal_equipment`) unless ``equipment`` is False."""
    if mission is not None:
        setup, tags = mission_setup(mission, players, rng)
        game = deal(setup, rng, tags, mission)
        deal_equipment(game, random.Random(rng.getrandbits(64)), on=equipment)
        return game
    if wires is None:
        raise SimError("give a mission or a wire set")
    if stands is None:
        per = stands_per_player(players)
        tiles, _ = _tiles(wires, random.Random(0))
        sizes = iter(even_deal(len(tiles), sum(per)))
        stands = [[next(sizes) for _ in range(n)] for n in per]
    setup = {"format": 1, "players": [{"name": f"Player {p + 1}", "stands": list(st)} for p, st in enumerate(stands)],
             "wires": wires}
    return deal(setup, rng)


__all__ = ["AbsentTokens", "Action", "Choose", "DoubleDetector", "DualCut", "Game", "MultiCut", "NOTES", "Position",
           "REFUSED", "RevealRed", "SetupToken", "SimError", "SoloCut", "SUPPORTED_TAGS", "Tripwire", "UseCard",
           "action_from_json", "action_json", "deal", "deal_equipment", "mission_setup", "new_game"]
