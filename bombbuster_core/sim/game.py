"""A rules-accurate game engine for self-play (rules.md §1-§4, the base game).

:func:`new_game` deals a mission preset (missions.py; the drawn yellow/red
values are drawn at random from the card's range) or any wire set: a uniform
shuffle of the tiles in play (k of m pools: a uniform k-subset, the rest set
aside) into the stands, each stand sorted.  :class:`Game` then plays:

* setup: each player from the Captain clockwise puts one true info token on
  one of their own blue wires (chosen by the policy); none with the
  ``no_setup_tokens`` tag, none for the Captain with ``captain_no_setup_token``;
* turns, clockwise from the Captain, a player with no uncut wire skipped:
  a dual cut (success: both wires cut — the caller cuts their leftmost wire of
  the value — and a yellow's printed keys shown; failure: the detonator
  advances and a true-value token goes on the target; a red target explodes),
  the character's Double Detector once per player (success: a matching target
  is cut, the teammate's pick at random when both match; failure: the token on
  the non-red target, or on the teammate's random pick; both red explode),
  a solo cut (every remaining wire of a value is in the caller's hand; blue
  values go 2 or 4 at a time by construction), "reveal your reds" (every uncut
  wire of the caller is red);
* the end: a red cut loses ("red", recorded as the table records it: the
  failure with ``"exploded": true`` is the game's last event); with N players the N-th failure loses
  ("detonator"); every wire in play cut wins.

Every public event is a format-1 event (docs/table-format.md), so
:meth:`Game.table` is a valid table file from any player's view (or the
public one).  Not simulated (the game refuses the mission, or ignores a rule
that changes no event): equipment cards, X/flipped stands, Nano, pre-dealt
colours, counts-as-red numbers, mission tokens (parity, x-count, false,
absent), forced or simultaneous actions and mission-specific losses (M14's
rookie...).  Missions whose tags are outside :data:`SUPPORTED_TAGS` are
refused with :class:`SimError`.
"""
from __future__ import annotations

import random

from ..missions import even_deal, mission as mission_entry, new_table, stands_per_player
from ..record import Record
from ..wires import RED, YELLOW, Key, Value, key_json, parse_key, value_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

Slot = tuple[int, int, int]  # (player, stand, slot)

# Tags whose rules the engine plays (or that change nothing it plays: it has no equipment cards).
SUPPORTED_TAGS = frozenset({"no_equipment", "no_setup_tokens", "captain_no_setup_token", "no_double_detector",
                            "memory_mode", "new_characters", "double_numbered_equipment"})
MAX_TURNS = 1000  # far above any legal game: every turn cuts a wire or advances the detonator


class SimError(ValueError):
    """A mission or setup the simulator does not play, or an illegal move."""


class DualCut(Record):
    __slots__ = ("target", "value")
    target: Slot
    value: Value

    def __init__(self, target: Slot, value: Value):
        super().__init__(target, value)


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


Action = DualCut | DoubleDetector | SoloCut | RevealRed


def _ref(slot: Slot) -> dict[str, int]:
    return {"player": slot[0], "stand": slot[1], "slot": slot[2]}


def _own(slot: Slot) -> dict[str, int]:
    return {"stand": slot[1], "slot": slot[2]}


class Game:
    """The true state of one game: the deal, what is cut, the detonator and the public events."""

    def __init__(self, setup: dict[str, Any], hands: list[list[list[Key]]], set_aside: list[Key],
                 rng: random.Random, tags: frozenset[str] = frozenset()):
        self.setup = setup  # the format-1 table without "me" and "events"
        self.hands = hands
        self.set_aside = set_aside
        self.rng = rng  # teammates' free choices (which matching wire a detector cuts, where its token goes)
        self.tags = tags
        self.players = len(hands)
        self.cut: set[Slot] = set()
        self.events: list[dict[str, Any]] = []
        self.strikes = 0
        self.detectors_used: set[int] = set()
        self.turn = 0
        self.turns = 0
        self.result: str | None = None  # "win", "red" or "detonator"

    # -- state
    def key(self, slot: Slot) -> Key:
        p, s, j = slot
        return self.hands[p][s][j]

    def slots(self, player: int) -> list[Slot]:
        return [(player, s, j) for s, row in enumerate(self.hands[player]) for j in range(len(row))]

    def uncut(self, player: int) -> list[Slot]:
        return [x for x in self.slots(player) if x not in self.cut]

    def holds(self, player: int, value: Value) -> list[Slot]:
        return [x for x in self.uncut(player) if value_of(self.key(x)) == value]

    @property
    def over(self) -> bool:
        return self.result is not None

    def table(self, player: int | None = None) -> dict[str, Any]:
        """The table file of the game so far, from ``player``'s view (None: the public view)."""
        out = dict(self.setup)
        if player is not None:
            out["me"] = {"player": player, "stands": [[key_json(k) for k in row] for row in self.hands[player]]}
        out["events"] = list(self.events)
        return out

    def deal_json(self) -> dict[str, Any]:
        """The hidden deal, in the sampler's shape (engines/sampling.py)."""
        return {"stands": [[key_json(k) for k in row] for rows in self.hands for row in rows],
                "set_aside": [key_json(k) for k in sorted(self.set_aside)]}

    @classmethod
    def restore(cls, table: dict[str, Any], stands: list[list[Key]], turn: int, rng: random.Random,
                tags: frozenset[str] = frozenset()) -> Game:
        """A game at the state of a table file's events, played on the deal ``stands`` (players/stands
        order, keys in tenths): what a player who imagines that deal would simulate.  A finished
        table gives a finished game (``result`` as the game that made it)."""
        it = iter(stands)
        setup = {k: v for k, v in table.items() if k not in ("me", "events")}
        game = cls(setup, [[list(next(it)) for _ in pl["stands"]] for pl in table["players"]], [], rng, tags)
        for e in table["events"]:
            kind, actor = e["type"], e.get("actor")
            if kind in ("dual_cut", "detector"):
                if kind == "detector":
                    game.detectors_used.add(actor)
                if e["success"]:
                    target = e["target"] if kind == "dual_cut" else e["cut"]
                    game.cut.update(((target["player"], target["stand"], target["slot"]),
                                     (actor, e["actor_slot"]["stand"], e["actor_slot"]["slot"])))
                elif e.get("exploded"):  # a red cut: the game ended on it, the dial did not move
                    game.result = "red"
                else:
                    game._strike()
            elif kind in ("solo_cut", "reveal_red"):
                game.cut.update((actor, x["stand"], x["slot"]) for x in e["slots"])
            game.turns += kind != "info_token"
        game._win_if_all_cut()
        game.events, game.turn = list(table["events"]), turn
        return game

    # -- setup
    def setup_token_players(self) -> list[int]:
        if "no_setup_tokens" in self.tags:
            return []
        return [p for p in range(self.players) if not (p == 0 and "captain_no_setup_token" in self.tags)]

    def place_token(self, slot: Slot) -> None:
        """A setup token: the owner's own blue wire, its true value."""
        key = self.key(slot)
        if key % 10:
            raise SimError(f"a setup token goes on a blue wire, not {key_json(key)}")
        self.events.append({"type": "info_token", "at": _ref(slot), "value": key // 10})

    # -- turns
    def legal_moves(self) -> list[Action]:
        """Every legal action of the player to move (it depends only on their hand and what is cut)."""
        p = self.turn
        mine = self.uncut(p)
        held = sorted({value_of(self.key(x)) for x in mine} - {RED}, key=str)
        out: list[Action] = []
        if mine and all(value_of(self.key(x)) == RED for x in mine):
            out.append(RevealRed(p))
        others = [x for q in range(self.players) if q != p for x in self.uncut(q)]
        out += [DualCut(t, v) for t in others for v in held]
        out += [SoloCut(v) for v in held if not any(value_of(self.key(x)) == v for x in others)]
        if "no_double_detector" not in self.tags and p not in self.detectors_used:
            for q in range(self.players):
                for s in range(len(self.hands[q]) if q != p else 0):
                    row = [x for x in self.uncut(q) if x[1] == s]
                    out += [DoubleDetector((a, b), v) for i, a in enumerate(row) for b in row[i + 1:]
                            for v in held if isinstance(v, int)]
        return out

    def play(self, action: Action) -> None:
        """The player to move does ``action``; then the turn passes (or the game ends)."""
        if self.over:
            raise SimError("the game is over")
        p = self.turn
        if isinstance(action, DualCut):
            self._dual_cut(p, action)
        elif isinstance(action, DoubleDetector):
            self._detector(p, action)
        elif isinstance(action, SoloCut):
            self._solo_cut(p, action)
        elif isinstance(action, RevealRed):
            self._reveal_red(p)
        else:
            raise SimError(f"unknown action {action!r}")
        self.turns += 1
        self._win_if_all_cut()
        if self.result is None:
            if self.turns >= MAX_TURNS:
                raise SimError("too many turns")
            self.turn = next(q % self.players for q in range(p + 1, p + 1 + self.players)
                             if self.uncut(q % self.players))

    def _called(self, p: int, target: Slot, value: Value) -> None:
        if value == RED or not (value == YELLOW or isinstance(value, int)):
            raise SimError(f"cannot call {value!r}")
        if not self.holds(p, value):
            raise SimError(f"player {p} holds no uncut {value!r}")
        if target[0] == p or target not in set(self.uncut(target[0])):
            raise SimError(f"{target} is not an uncut teammate wire")

    def _win_if_all_cut(self) -> None:
        if self.result is None and all(not self.uncut(q) for q in range(self.players)):
            self.result = "win"

    def _strike(self) -> None:
        self.strikes += 1
        if self.strikes >= self.players:
            self.result = "detonator"

    def _dual_cut(self, p: int, a: DualCut) -> None:
        self._called(p, a.target, a.value)
        key = self.key(a.target)
        event: dict[str, Any] = {"type": "dual_cut", "actor": p, "target": _ref(a.target), "value": a.value}
        if value_of(key) == a.value:
            mine = self.holds(p, a.value)[0]
            event.update(success=True, actor_slot=_own(mine))
            if a.value == YELLOW:
                event["keys"] = {"target": key_json(key), "actor": key_json(self.key(mine))}
            self.cut.update((a.target, mine))
        elif value_of(key) == RED:  # recorded as the table would: the game ends on this event
            event.update(success=False, exploded=True)
            self.result = "red"
        else:
            event.update(success=False, token=value_of(key))
            self._strike()
        self.events.append(event)

    def _detector(self, p: int, a: DoubleDetector) -> None:
        if "no_double_detector" in self.tags or p in self.detectors_used:
            raise SimError(f"player {p} has no Double Detector left")
        x, y = a.targets
        if not isinstance(a.value, int) or x == y or x[:2] != y[:2]:
            raise SimError("a Double Detector calls a blue value on 2 wires of one teammate stand")
        for t in a.targets:
            self._called(p, t, a.value)
        self.detectors_used.add(p)
        event: dict[str, Any] = {"type": "detector", "actor": p, "kind": "double", "targets": [_ref(x), _ref(y)],
                                 "value": a.value}
        hits = [t for t in a.targets if value_of(self.key(t)) == a.value]
        if hits:
            cut, mine = self.rng.choice(hits), self.holds(p, a.value)[0]
            event.update(success=True, cut=_ref(cut), actor_slot=_own(mine))
            self.cut.update((cut, mine))
        else:
            safe = [t for t in a.targets if value_of(self.key(t)) != RED]
            if safe:
                at = self.rng.choice(safe)
                event.update(success=False, token=value_of(self.key(at)), token_at=_ref(at))
                self._strike()
            else:
                event.update(success=False, exploded=True)
                self.result = "red"
        self.events.append(event)

    def _solo_cut(self, p: int, a: SoloCut) -> None:
        if a.value == RED:
            raise SimError("red wires are revealed, not cut")
        mine = self.holds(p, a.value)
        others = [x for q in range(self.players) if q != p for x in self.holds(q, a.value)]
        if not mine or others:
            raise SimError(f"player {p} does not hold every remaining {a.value!r}")
        self.events.append({"type": "solo_cut", "actor": p, "value": a.value, "slots": [_own(x) for x in mine]})
        self.cut.update(mine)

    def _reveal_red(self, p: int) -> None:
        mine = self.uncut(p)
        if not mine or any(value_of(self.key(x)) != RED for x in mine):
            raise SimError(f"player {p} holds a wire that is not red")
        self.events.append({"type": "reveal_red", "actor": p,
                            "slots": [{**_own(x), "value": key_json(self.key(x))} for x in mine]})
        self.cut.update(mine)


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


def deal(setup: dict[str, Any], rng: random.Random, tags: frozenset[str] = frozenset()) -> Game:
    """A uniform shuffle of the setup's tiles into its stands (each sorted); ``rng`` also drives the game."""
    for p, pl in enumerate(setup["players"]):
        if any(not isinstance(size, int) for size in pl["stands"]):
            raise SimError(f"player {p}: the simulator deals plain stands only (no X or flipped wires)")
    if setup.get("nano") or "counts_as_red" in setup["wires"]:
        raise SimError("the simulator does not play Nano or counts-as-red Number cards")
    tiles, aside = _tiles(setup["wires"], rng)
    sizes = [size for pl in setup["players"] for size in pl["stands"]]
    if sum(sizes) != len(tiles):
        raise SimError(f"the stands hold {sum(sizes)} wires but {len(tiles)} are in play")
    rng.shuffle(tiles)
    hands, at = [], 0
    for pl in setup["players"]:
        rows = []
        for size in pl["stands"]:
            rows.append(sorted(tiles[at:at + size]))
            at += size
        hands.append(rows)
    return Game(setup, hands, sorted(aside), rng, tags)


def mission_setup(number: int, players: int, rng: random.Random) -> tuple[dict[str, Any], frozenset[str]]:
    """Mission ``number``'s table (no events) with its yellow/red values drawn at random, and its rule tags."""
    m = mission_entry(number)
    tags = frozenset(m.rule_tags(players)) if players in m.wires else frozenset()
    unsupported = sorted(tags - SUPPORTED_TAGS)
    if unsupported:
        raise SimError(f"mission {number}: the simulator does not play its rule(s) {', '.join(unsupported)}")
    drawn: dict[str, list[Any]] = {}
    for d in m.wires.get(players, ()):
        if d.drawn:
            drawn[d.colour] = [key_json(d.key(n)) for n in rng.sample(range(d.lo, d.hi + 1), d.drawn)]
    table = new_table(number, players, yellow=drawn.get(YELLOW), red=drawn.get(RED))
    del table["events"]
    return table, tags


def new_game(rng: random.Random, *, mission: int | None = None, players: int = 4,
             wires: dict[str, Any] | None = None, stands: list[list[int]] | None = None) -> Game:
    """A dealt game: mission ``mission`` with ``players`` players, or the wire set ``wires`` on ``stands``
    (sizes per player; default: the even deal on 1 stand each for 4-5 players, 2 for 2, Captain 2 for 3)."""
    if mission is not None:
        setup, tags = mission_setup(mission, players, rng)
        return deal(setup, rng, tags)
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


__all__ = ["Action", "DoubleDetector", "DualCut", "Game", "RevealRed", "SimError", "SoloCut",
           "SUPPORTED_TAGS", "deal", "mission_setup", "new_game"]
