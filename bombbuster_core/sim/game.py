"""A rules-accurate game engine for self-play: the base game and every mission rule (rules.md §1-§7).

:func:`.deal.new_game` deals a mission preset (missions.py; the drawn yellow/red
values, M11's Number card and the mission's cards are drawn at random) or
any wire set, and :class:`Game` plays it.  Every public event is a format-1
event (docs/table-format.md), so :meth:`Game.table` is a valid table file from
any player's view (or the public one), which the analyzer reads exactly.

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

**The end**: every wire cut (Nano's too) wins; a red (or M11's number) cut
loses ("red"); the dial at the skull ("detonator"; M53 Nano at 12); a
mission's own explosion ("explosion": a failed special action, an own
flipped wire that was not the value, the rookie, the Captain Careless,
sequence-blocked wires, a round nobody could play in M57/M61); no player
able to make progress ("stuck").  ``strikes`` counts the failed cuts.

The seams: the actions (:mod:`.actions`), the deal and the mission's opening (:mod:`.deal`), the
setup tokens (:mod:`.setup`), the equipment (:mod:`.cards`), the missions' own rules called at
fixed points of the turn (:mod:`.mission_rules`), the table files written and read
(:mod:`.table_files`) and the replay of a player's view on any deal (:mod:`.replay`); this module
holds the game's state and its turn loop.
"""
from __future__ import annotations

from .. import equipment as eq
from ..missions import failure_explodes
from ..public_state import DIAL_SECTIONS  # one reading of the dial: the core's
from ..wires import RED, YELLOW, Key, Value, key_json, parse_key, value_of
from .actions import (Action, Choose, DoubleDetector, DualCutAction, MultiCutAction, RevealRedAction, SimError,
                      SoloCutAction, TripwireAction, UseCard, own_slot_json, slot_json, tupled, value_order)
from .cards import TURN_CARDS, CardPlay
from .card_missions import (Challenges, ConstraintCards, Designation, EndOfLine, FourOfTheNumber, HiddenNumbers,
                            NumberHands, RewindingNumbers, Sequence, Sums, VisibleNumbers, Volunteers, WeakestLink)
from .mission_rules import VALUE_RULES, MissionRules
from .setup import SetupTokens
from .table_files import TableFiles
from .wire_missions import (CaptainCareless, CountsAsRed, FalseTokens, FlippedWires, NanoDial, NanoLine, NanoTransfers,
                            Oxygen, PreDealtRed, Rookie, SevenAlone, ThreeYellows, TokenPass, Tripwires, XBlue)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random
    from typing import Any

    from .actions import Slot

# Tags the base-game replay (Game.restore, the lookahead's rollouts, lookahead_advice.py) plays.
SUPPORTED_TAGS = frozenset({"no_equipment", "no_setup_tokens", "captain_no_setup_token", "no_double_detector",
                            "memory_mode", "new_characters", "double_numbered_equipment"})
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
MAX_TURNS = 2000  # far above any legal game: every turn cuts a wire, moves the dial or is one of a bounded run of skips

# Each mission's own rules, by its number (the others play the base game's: BASE_GAME).
BASE_GAME = MissionRules()
RULES: dict[int, MissionRules] = {
    9: Sequence(need=2), 16: Sequence(need=4), 11: CountsAsRed(), 13: PreDealtRed(), 14: Rookie(),
    17: FalseTokens(captain_only=True), 52: FalseTokens(captain_only=False), 18: Designation(radar=True),
    51: Designation(radar=False), 45: Volunteers(), 22: TokenPass(give=True), 27: TokenPass(give=False),
    23: FourOfTheNumber(deck=False), 39: FourOfTheNumber(deck=True), 26: VisibleNumbers(), 28: CaptainCareless(),
    29: HiddenNumbers(), **{m: ConstraintCards(m) for m in (31, 32, 37, 57, 61)}, 34: WeakestLink(), 35: XBlue(),
    36: EndOfLine(), 38: FlippedWires(captain_only=True), 56: FlippedWires(captain_only=False),
    64: FlippedWires(captain_only=False), 41: Tripwires(), 43: NanoTransfers(),
    **{m: Oxygen(m) for m in (44, 49, 63)}, 46: SevenAlone(), 47: Sums(), 48: ThreeYellows(), 53: NanoDial(),
    55: Challenges(), 60: Challenges(), 59: NanoLine(), 62: RewindingNumbers(), 65: NumberHands(),
}


def rules_for(mission: int | None) -> MissionRules:
    """The rules of ``mission`` (None, or a mission with no rules of its own: the base game's)."""
    return RULES.get(mission, BASE_GAME) if mission is not None else BASE_GAME


class Game(TableFiles, SetupTokens, CardPlay):
    """The true state of one game: the deal, what is cut, the dial, the mission's cards and the public events.

    ``hands[p][s]`` holds the keys at the stands' current positions; ``cut``,
    ``special`` ("x" / "flip") and ``tokened`` are current addresses (a Nano
    transfer renumbers a stand and shifts them).  ``queue`` holds the pending
    decisions; ``turn`` is the player who decides next.

    A player's side plays it through :meth:`legal_moves`, :meth:`play` (and the setup's
    :meth:`place_token`).  The missions' rules (:mod:`.mission_rules`) read and move it through
    its public methods -- what is in play and cut (:meth:`values_in_play`, :meth:`remaining_wires`,
    :meth:`cut_count_of`), what a turn allows (:meth:`turn_decision`, :meth:`values_allowed_now`,
    :meth:`choice_options`), the dial (:meth:`advance_dial`, :meth:`rewind_dial`), an ``absent``
    event (:meth:`announce_absent`), a reveal, Nano's wire taken (:meth:`insert_wire`), the win --
    and the counters of the turn and the round (``turn_cuts``, ``yellows_cut``, ``idle_turns``...);
    its ``_``-names are its own.
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
        self.rules = rules_for(mission)  # the mission's own rules, called at the turn's fixed points
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
                        self.seen[q].append({"at": slot_json((p, s, j)), "value": key_json(hands[p][s][j])})
        self.queue: list[dict[str, Any]] = []
        self.notes: list[str] = [NOTES[mission]] if mission in NOTES else []
        self.counts_as_red: int | None = setup["wires"].get("counts_as_red")
        self._gameplay: dict[Key, Value] = {}
        self.dial_start = self.rules.dial_start(self)
        self.dial = self.dial_start
        self.nano_dial = 0  # M53: Nano's space, the dial of that mission
        self._setup: list[dict[str, Any]] = []
        self._begun = False
        self._last: int | None = None  # the last turn's active player (seat order)
        # the counters the missions' rules read (and M45's update)
        self.idle_turns = 0  # turns skipped in a row
        self.round_played = False  # whether anyone played an action this round
        self.yellows_cut = 0
        self.turn_cuts: list[Value] = []  # values cut by successful cuts this turn (challenges, M29, M43)
        self.turn_solo = False  # whether this turn cut solo
        self.acting_player = 0  # who played the last action
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
            self.begin_play()
        if self.queue:
            return self.queue[0]["player"]
        if self._setup and not self._begun:
            return self._setup[0]["player"]
        return self._turn

    @turn.setter
    def turn(self, player: int) -> None:
        self._turn = player

    def _x_locked(self, slot: Slot) -> bool:
        return self.rules.x_waits_for_yellows and self.special.get(slot) == "x" and self.yellows_cut < 4

    def values_in_play(self) -> list[Value]:
        """Gameplay values in play (for absent events)."""
        wires = self.setup["wires"]
        keys = [parse_key(k) for k in wires.get("deck", {})] or (
            [10 * v for v in wires["blue"]] + [parse_key(k) for k in wires.get("yellow", []) + wires.get("red", [])]
            + [parse_key(k) for pool in wires.get("uncertain", []) for k in pool["candidates"]])
        return sorted({value_of(k) for k in keys}, key=value_order)

    def remaining_wires(self, value: Value) -> list[Slot | None]:
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

    def cut_count_of(self, value: Value) -> int:
        """How many wires of this (printed) value are cut: four validate a blue value."""
        return sum(1 for x in self.cut if value_of(self.key(x)) == value)

    def blue_values_in_play(self) -> list[int]:
        """The blue values in play, in order."""
        return [v for v in self.values_in_play() if isinstance(v, int)]

    def _stand_count(self, slot: Slot) -> int:
        """Wires of this wire's gameplay value on its stand, cut ones included, the owner's own flipped
        wires aside (rules.COUNT_TOKEN_SEES_OWN_FLIPPED)."""
        p, s, _ = slot
        v = value_of(self.key(slot))
        return sum(1 for j, k in enumerate(self.hands[p][s])
                   if value_of(k) == v and self.special.get((p, s, j)) != "flip")

    # ------------------------------------------------------------ the mission's opening
    def begin_play(self) -> None:
        """Start the turns once the setup is over: the mission's opening choices, then the Captain's turn
        (nothing when play has begun)."""
        if self._begun:
            return
        self._begun = True
        self._setup = []
        self.rules.begin(self)
        self._advance()

    def _ensure(self) -> None:
        if not self._begun:
            self.begin_play()

    # ------------------------------------------------------------ the loop
    def active_players(self) -> list[int]:
        """The players who hold an uncut wire (the others' turns are skipped)."""
        return [q for q in range(self.players) if self.uncut(q)]

    def _advance(self) -> None:
        """Play the game forward until a decision waits for a player or the game ends."""
        while not self.over and not self.queue:
            self.win_if_all_cut()
            if self.over:
                return
            active = self.active_players()
            if not active:
                self.result = "stuck"  # Nano still holds wires nobody can take
                return
            if self.turns >= MAX_TURNS:
                raise SimError("too many turns")
            if self.idle_turns >= 2 * self.players + 2:
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
        if self._last is not None and self.turns and self.rules.round_over(self):
            return
        self.round_played = False
        self.rules.round_start(self)

    def _open_turn(self, p: int) -> None:
        self.turn_cuts, self.turn_solo = [], False
        if self.rules.open_turn(self, p):  # the mission opened the turn its own way
            return
        decision = self.rules.turn_decision(self, p)
        if decision is None:  # the game ended while the mission decided the turn
            return
        if self.has_move(decision):
            self.queue.append(decision)
            return
        self._skip(p, decision)

    def holds_only_red(self, p: int) -> bool:
        """Whether every uncut wire of ``p`` is red (and there is one): they may reveal them."""
        mine = self.uncut(p)
        return bool(mine) and all(self.is_red(self.key(x)) for x in mine)

    # ------------------------------------------------------------ what a turn allows
    def _constraints_for(self, p: int) -> list[str]:
        return self.rules.constraints(self, p)

    def values_allowed_by(self, cards: list[str]) -> list[Value]:
        """The values in play, red aside, that every Constraint card of ``cards`` allows."""
        out = []
        for v in self.values_in_play():
            if v == RED:
                continue
            ok = True
            for c in cards:
                if c in VALUE_RULES:
                    ok = ok and (VALUE_RULES[c](v) if isinstance(v, int) else c == "F")
            if ok:
                out.append(v)
        return out

    def constraint_applies(self, p: int, card: str) -> bool:
        """Whether ``p`` holds a wire they may cut that the Constraint card ``card`` allows (a card that
        limits no value always applies)."""
        if card not in VALUE_RULES:
            return True
        allowed = set(self.values_allowed_by([card]))
        return any(self.gameplay(self.key(x)) in allowed for x in self.cuttable(p))

    def values_allowed_now(self, p: int, restrict: list[Value] | None) -> set[Value] | None:
        """The values the mission lets ``p`` cut now (None: any), before holding them."""
        allowed: set[Value] | None = None if restrict is None else set(restrict)

        def meet(values: Any) -> None:
            nonlocal allowed
            allowed = set(values) if allowed is None else allowed & set(values)

        cards = self._constraints_for(p)
        if any(c in VALUE_RULES for c in cards):
            meet(self.values_allowed_by(cards))
        mission = self.rules.allowed(self, p)
        if mission is not None:
            meet(mission)
        return allowed

    def _forbidden_values(self) -> set[Value]:
        return self.rules.forbidden_values(self)

    def turn_decision(self, p: int, restrict: list[Value] | None = None) -> dict[str, Any]:
        """What ``p`` may do now (a format of its own: meta.sim.pending)."""
        rules = self.rules
        cards = self._constraints_for(p)
        allowed = self.values_allowed_now(p, restrict)
        forbidden = self._forbidden_values()
        held = sorted({self.gameplay(self.key(x)) for x in self.cuttable(p)} - forbidden, key=value_order)
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
                        if rules.flipped_target == "captain_only":
                            continue  # only the Captain cuts their flipped wire
                        if rules.flipped_target == "costly":
                            costly.append(list(x))
                    targets.append(list(x))
        if not targets:
            values_for_calls: list[Value] = []
        else:
            values_for_calls = values
        by_value = self._by_value()
        solo = [] if "K" in cards else [v for v in values if self._solo_slots(p, v, by_value) is not None]
        reveal = rules.reveal_allowed and self.holds_only_red(p)
        detector = bool(values_for_calls) and self._has_detector(p) and "G" not in cards
        specials = rules.specials(self, p)
        own_flipped = [list(x) for x in self.uncut(p) if self.special.get(x) == "flip"]
        if rules.own_tripwire_only(self, p):
            values_for_calls, solo, reveal, detector, specials = [], [], False, False, []  # skip: own tripwire
        if any(s.get("forced") for s in specials):
            values_for_calls, solo, reveal, detector = [], [], False, False
        return {"player": p, "kind": "turn", "values": values_for_calls, "targets": targets if values_for_calls else [],
                "costly": costly if values_for_calls else [], "detector": detector, "solo": solo, "reveal": reveal,
                "specials": specials, "own_flipped": own_flipped if values_for_calls else [],
                "constraints": cards}

    def _has_detector(self, p: int) -> bool:
        if "no_double_detector" in self.tags or self.rules.detector_barred(self, p):
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

    @staticmethod
    def has_move(d: dict[str, Any]) -> bool:
        """Whether the turn decision ``d`` (:meth:`turn_decision`) allows any action."""
        return bool(d["values"] or d["solo"] or d["reveal"] or d["specials"] or d["detector"])

    def legal_moves(self) -> list[Action]:
        """Every legal action of the player who decides now, but the special actions' slot sets
        (``MultiCutAction``: any uncut wires; :meth:`is_legal` checks one)."""
        self._ensure()
        if self.over or not self.queue:
            return []
        d = self.queue[0]
        if d["kind"] == "choose":
            return [Choose(d["what"], o) for o in self.choice_options(d)]
        p = d["player"]
        out: list[Action] = []
        if d["reveal"]:
            out.append(RevealRedAction(p))
        targets = [tuple(t) for t in d["targets"]]
        out += [DualCutAction(t, v) for t in targets for v in d["values"]]
        for own in d["own_flipped"]:
            out += [DualCutAction(t, v, tuple(own)) for t in targets for v in d["values"]]
        out += [SoloCutAction(v) for v in d["solo"]]
        if d["detector"]:
            for q in range(self.players):
                for s in range(len(self.hands[q]) if q != p else 0):
                    row = [x for x in self.uncut(q) if x[1] == s and not self.special.get(x)
                           and list(x) in d["targets"]]
                    out += [DoubleDetector((a, b), v) for i, a in enumerate(row) for b in row[i + 1:]
                            for v in d["values"] if isinstance(v, int)]
        for sp in d["specials"]:
            if sp["kind"] == "tripwire":
                out += [TripwireAction(x) for q in range(self.players) if q != p for x in self.uncut(q)]
        if self.board is not None:
            out += [UseCard(u["card"], tupled(o)) for u in self.card_uses(p, d) for o in u["options"]]
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
        if isinstance(action, UseCard) and action.card not in TURN_CARDS and self._card_kind(d["player"], action.card) \
                not in TURN_CARDS:
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
            if not isinstance(action, Choose) or action.what != d["what"] or option not in self.choice_options(d):
                raise SimError(f"player {p} must choose {d['what']} among {self.choice_options(d)}, not {action!r}")
            return d
        if isinstance(action, DualCutAction):
            if list(action.target) not in d["targets"] or action.value not in d["values"]:
                raise SimError(f"player {p} cannot call {action.value!r} on {action.target}")
            if action.own is not None and list(action.own) not in d["own_flipped"]:
                raise SimError(f"{action.own} is not an uncut flipped wire of player {p}")
        elif isinstance(action, DoubleDetector):
            x, y = action.targets
            if (not d["detector"] or not isinstance(action.value, int) or action.value not in d["values"] or x == y
                    or x[:2] != y[:2] or any(list(t) not in d["targets"] or self.special.get(t) for t in (x, y))):
                raise SimError("a Double Detector calls a held blue value on 2 wires of one teammate stand")
        elif isinstance(action, SoloCutAction):
            if action.value not in d["solo"]:
                raise SimError(f"player {p} cannot solo cut {action.value!r}")
        elif isinstance(action, RevealRedAction):
            if not d["reveal"]:
                raise SimError(f"player {p} holds a wire that is not red (or cannot reveal now)")
        elif isinstance(action, MultiCutAction):
            spec = next((s for s in d["specials"] if s["kind"] == "multi_cut" and s["value"] == action.value), None)
            slots = action.slots
            if spec is None or len(slots) != spec["count"] or len(set(slots)) != len(slots):
                raise SimError(f"player {p} cannot cut {len(slots)} wires as {action.value!r} now")
            for x in slots:
                if x[0] not in range(self.players) or x not in set(self.uncut(x[0])):
                    raise SimError(f"{x} is not an uncut wire")
                if spec.get("teammates") and x[0] == p:
                    raise SimError("challenge 1 points at a teammate's wire")
        elif isinstance(action, TripwireAction):
            t = action.target
            if not any(s["kind"] == "tripwire" for s in d["specials"]) or t[0] == p or t not in set(self.uncut(t[0])):
                raise SimError(f"player {p} cannot call a tripwire on {t}")
        elif isinstance(action, UseCard):
            self._check_card(p, d, action)
        else:
            raise SimError(f"unknown action {action!r}")
        if any(s.get("forced") for s in d["specials"]) and not isinstance(action, MultiCutAction):
            raise SimError("the mission forces its special action")
        return d

    def _play_turn(self, d: dict[str, Any], action: Action) -> None:
        p = d["player"]
        self.idle_turns = 0
        self.round_played = True
        self.acting_player = p
        if isinstance(action, (DualCutAction, DoubleDetector, SoloCutAction)):
            self.rules.before_cut(self, p, action.value)
        if isinstance(action, DualCutAction):
            self._dual_cut(p, action)
        elif isinstance(action, DoubleDetector):
            self._detector(p, action)
        elif isinstance(action, SoloCutAction):
            self._solo_cut(p, action.value)
        elif isinstance(action, RevealRedAction):
            self.reveal_red(p)
        elif isinstance(action, MultiCutAction):
            self._multi_cut(p, action)
        elif isinstance(action, TripwireAction):
            self._tripwire(p, action.target)
        elif isinstance(action, UseCard):
            self._use_turn_card(p, d, action)
        self.turns += 1
        if not self.over:
            self._end_turn(p, action)
        self.win_if_all_cut()

    def win_if_all_cut(self) -> None:
        """The game is won when every wire is cut (Nano's too)."""
        if self.result is None and not self.nano and all(not self.uncut(q) for q in range(self.players)):
            self.result = "win"

    def advance_dial(self, n: int) -> None:
        """The dial ``n`` spaces toward the skull; reaching it loses ("detonator")."""
        self.dial -= n
        if self.dial <= 0:
            self.result = "detonator"

    def rewind_dial(self, card: bool = False) -> None:
        """The dial one space back: by the Rewinder (``card``) never past the start for this many
        players, nor M51's start a space further back (rules.md §4 gives no cap; the S3 code's
        ``detonatorMax = players`` reads so, and the page's detonator, web/js/gamestate.js, agrees).
        A mission's own moves back (M41's tripwire, M55/M60's challenges, M62's numbers) may reach the
        dial's 5 marked sections: the reading their difficulty figures were played with (the page
        stops M41's at the standard start: a disagreement the cards should settle)."""
        self.dial = min(self.dial + 1, self._rewinder_limit() if card else max(DIAL_SECTIONS, self.dial_start))

    def _rewinder_limit(self) -> int:
        return max(self.players, self.dial_start)

    def charge_failed_cut(self, actor: int) -> None:
        """A failed cut: the dial advances (2 under constraint L; M53 moves Nano instead)."""
        self.strikes += 1
        if self.rules.nano_is_the_dial:
            return
        self.advance_dial(2 if "L" in self._constraints_for(actor) else 1)

    def _failure_token(self, actor: int, target: Slot) -> Any:
        """The token a failed cut places on ``target`` (None: no token)."""
        owner = target[0]
        if "no_failure_info" in self.tags or self.rules.false_tokens(owner):
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
        self.turn_cuts += [value] * (len(slots) // 2 or 1)
        self.turn_solo = self.turn_solo or solo
        if value == YELLOW:
            self.yellows_cut += len(slots)
        self._after_cut(value, len(slots))

    def _dual_cut(self, p: int, a: DualCutAction, values: tuple[Value, Value] | None = None, stabilizer: bool = False,
                  card: str | None = None) -> None:
        key = self.key(a.target)
        event: dict[str, Any] = {"type": "dual_cut", "actor": p, "target": slot_json(a.target)}
        if values:
            event["values"] = list(values)
        else:
            event["value"] = a.value
        if stabilizer:
            event["stabilizer"] = True
        if card is not None:
            self._by(event, p, card)
        costly = self.rules.flipped_target == "costly" and self.special.get(a.target) == "flip"
        g = self.gameplay(key)
        if g in (values or (a.value,)):
            if values:
                a = DualCutAction(a.target, g, a.own)
                event["cut_value"] = g
            mine = a.own if a.own is not None else self.holds(p, a.value)[0]
            event.update(success=True, actor_slot=own_slot_json(mine))
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
                self.charge_failed_cut(p)
        if costly and not self.over:
            self.advance_dial(1)  # M56/M64: a teammate's flipped wire costs a space

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
        event: dict[str, Any] = {"type": "detector", "actor": p, "kind": kind, "targets": [slot_json(t) for t in targets],
                                 "value": a.value}
        if card is not None:
            event["card"] = card
        hits = [t for t in a.targets if self.gameplay(self.key(t)) == a.value]
        if hits:
            cut, mine = self.rng.choice(hits), self.holds(p, a.value)[0]  # the teammate's pick
            event.update(success=True, cut=slot_json(cut), actor_slot=own_slot_json(mine))
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
            event["token_at"] = slot_json(at)
            self.tokened.add(at)
        self.events.append(event)
        if self._explodes_on_failure(p):
            self.result = "explosion"
            return
        self.charge_failed_cut(p)

    def _solo_cut(self, p: int, value: Value) -> None:
        mine = self._solo_slots(p, value)
        assert mine is not None
        self.events.append({"type": "solo_cut", "actor": p, "value": value, "slots": [own_slot_json(x) for x in mine]})
        self._cuts(mine, value, solo=True)

    def reveal_red(self, p: int) -> None:
        """``p`` reveals their uncut wires, all red: cut, with the event showing them."""
        mine = self.uncut(p)
        self.events.append({"type": "reveal_red", "actor": p,
                            "slots": [{**own_slot_json(x), "value": key_json(self.key(x))} for x in mine]})
        self.cut.update(mine)
        self._after_cut(RED, len(mine))

    def _multi_cut(self, p: int, a: MultiCutAction) -> None:
        slots = sorted(a.slots)
        keys = [self.key(x) for x in slots]
        ok = all(self.gameplay(k) == a.value for k in keys)
        event: dict[str, Any] = {"type": "multi_cut", "actor": p, "value": a.value, "slots": [slot_json(x) for x in slots]}
        if ok:
            event["success"] = True
            self.events.append(event)
            self._cuts(slots, a.value)
            self.rules.after_special(self, a)
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
            self.charge_failed_cut(p)
            return
        event.update(success=False, exploded=True)
        self.events.append(event)
        self.result = "explosion"

    def _tripwire(self, p: int, target: Slot) -> None:
        key = self.key(target)
        event: dict[str, Any] = {"type": "tripwire", "actor": p, "target": slot_json(target)}
        if value_of(key) == YELLOW:
            event["success"] = True
            self.events.append(event)
            self._cuts([target], YELLOW)
            self.rewind_dial()
        elif self.is_red(key):
            event.update(success=False, exploded=True)
            self.events.append(event)
            self.result = "red"
        else:
            event.update(success=False, token=value_of(key))
            self.events.append(event)
            self.tokened.add(target)
            self.charge_failed_cut(p)

    # ------------------------------------------------------------ skipped turns
    def _skip(self, p: int, d: dict[str, Any]) -> None:
        """``p`` has no legal action: the mission's consequence."""
        self.idle_turns += 1
        self.turns += 1
        if self.rules.skip(self, p, d):
            return
        self._end_turn(p, None)

    def announce_absent(self, p: int, values: list[Value]) -> None:
        """An ``absent`` event when ``p`` truly holds no visible uncut wire of these values (in play)."""
        in_play = set(self.values_in_play())
        values = [v for v in values if v in in_play]
        held = {self.gameplay(self.key(x)) for x in self.visible(p)}
        if values and not held & set(values):
            self.events.append({"type": "absent", "player": p, "values": values})

    # ------------------------------------------------------------ after a cut, after a turn
    def _after_cut(self, value: Value, n: int) -> None:
        self.rules.after_cut(self, value, n)

    def _end_turn(self, p: int, action: Action | None) -> None:
        self.rules.end_turn(self, p, action)

    # ------------------------------------------------------------ choices
    def choice_options(self, d: dict[str, Any]) -> list[Any]:
        """The options of the pending choice ``d`` (``what``: a designation, a constraint card, an end of
        the line, a token to give or draft or to place, a volunteer, Nano's direction, a card to give)."""
        st, p, what = self.state, d["player"], d["what"]
        if what in ("designate",):
            return list(d["options"])
        if what == "constraint":
            taken = set(st["constraints"].values())
            return [c for c in "ABCDE" if c not in taken]
        if what == "end":
            return ["left", "right"]
        if what == "give":
            return [v for v in self.values_in_play() if v != RED]
        if what == "draft":
            return sorted(set(st["draft"]), key=value_order)
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
        st, p, what, o = self.state, d["player"], d["what"], a.option
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
                dd = self.turn_decision(o, restrict=[v])
                dd["restrict"] = [v]
                if self.has_move(dd):
                    self.queue.insert(0, dd)
                    return
            self.turns += 1
            self.rules.refused_designation(self, p, o, v)
        elif what == "volunteer":
            v = st["number"]
            if o:
                if any(self.gameplay(self.key(x)) == v for x in self.cuttable(p)):
                    dd = self.turn_decision(p, restrict=[v])
                    dd["restrict"] = [v]
                    if self.has_move(dd):
                        self.queue = [dd]
                        return
                self.advance_dial(1)  # "Snip!" without the value
                self.queue = []
                self.turns += 1
                return
            if not any(q["what"] == "volunteer" for q in self.queue if q["kind"] == "choose"):
                options = [q for q in range(self.players) if self.uncut(q)]
                self.queue.append({"player": 0, "kind": "choose", "what": "designate", "number": v,
                                   "options": options})
        elif what == "token":
            x = tuple(o)
            self.events.append({"type": "info_token", "at": slot_json(x), "value": value_of(self.key(x))})
            self.tokened.add(x)

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

    def insert_wire(self, p: int, s: int, key: Key) -> int:
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

