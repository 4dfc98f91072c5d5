"""The full-information solver: can this deal be won, and by which line?  FOR MEASUREMENT ONLY (issue 34).

``sighted`` (sighted.py) is greedy told the true deal: a lower bound on what
full information allows.  This module searches the legal lines of play of the
simulator's own :class:`~.game.Game` on the true deal (setup tokens, cuts, the
Double Detector, every equipment use, the missions' choices and special
actions, each as the game offers it) and answers, per deal, ``"win"`` (with a
winning line, which :func:`play_line` plays again on a fresh copy), ``"loss"``
(every line loses: a proof) or ``"unresolved"`` (the budget ran out first:
never counted as a win or a loss).

**What it knows.** The true deal, and the game's own random picks (a
teammate's pick of a detector's wire or a token's, M43's stand for Nano's
wire, a card drawn...) as the simulator makes them on each line: the game's
generator is part of the state and is copied with it.  Every policy's game on
a deal is one of these lines (the game is deterministic given the line), so a
deal any policy wins is a deal the solver wins: its win rate is a ceiling for
every policy on the same deals, not an estimate.

**The search**: depth-first over the decisions, with

* a transposition table keyed by the state (:func:`state_key`: everything the
  game's future reads -- stands, cuts, tokens, dial, queue, mission state,
  board, the generator's state -- but its log of events and the players'
  views, which no rule reads across a move);
* the children of a node that reach the same state searched once;
* the sure cuts first (a dual cut of a known pair never fails; reveal, solo,
  special actions, tripwires, sure detector calls), then the cards, then the
  moves that fail: the first line the search follows is the sighted one;
* moves that lose at once dropped without a copy (a plain call on a red wire),
  and positions :func:`dead` proves lost (M38: the Captain's flipped wire
  when they see no wire of its value left);
* a failed plain call searched once per target, not per value called, where
  the mission has no rule of its own before a cut (the value called is then
  only the event's text: no rule reads it);
* the tokens abstracted (:func:`tokens_matter`): where no rule or card reads
  which wires carry an information token (no Constraint card, no moving card
  -- Walkie-Talkies, Grappling Hook -- that could be played, no Emergency
  Drop or Emergency Batteries that read spent cards), the tokens are left out
  of the state, the setup tokens are searched once (their place changes
  nothing), and the cards that only inform (Labels, Post-it, Single Wire
  Label, General Radar) are not searched: a winning line that uses one still
  wins without it.

The budget is a number of positions (moves applied); ``seconds`` adds a wall
clock limit (not reproducible).  tests/test_fullinfo.py checks the solver
against a plain exhaustive search on small deals.
"""
from __future__ import annotations

import copy
import random
import time
from itertools import combinations

from ..equipment import CHARACTER, FALSE_BOTTOM
from ..wires import RED, YELLOW
from .actions import (AbsentTokens, DualCutAction, MultiCutAction, RevealRedAction,
                      SetupToken, SimError, SoloCutAction, TripwireAction, UseCard, value_order)
from .cards import CHARACTER_CARD
from .mission_rules import MissionRules
from .sighted import succeeds

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Hashable, Iterator
    from typing import Any

    from .actions import Action, Slot
    from .game import Game

    Decision = Action | Slot | SetupToken | AbsentTokens | None  # a move, or a setup token's placement

# The game's parts that never change after the deal (shared by every copy) or that only record what
# happened (the events, the players' views, the notes): no rule reads them across a move.
_CONSTANT = frozenset({"setup", "dealt", "set_aside", "tags", "rules", "dealt_special", "nano_dealt", "notes",
                       "_gameplay", "mission", "players", "counts_as_red", "dial_start"})
_RECORD = frozenset({"events", "seen"})
_IMMUTABLE = (int, float, str, bool, type(None), frozenset)
_MOVING_CARDS = frozenset({"2", "11.11"})  # their options and the teammate's pick skip tokened wires
_SPENT_READERS = frozenset({"3.3", "7"})  # Emergency Drop, Emergency Batteries: read what was spent
_INFORMING_CARDS = frozenset({"1", "12", "4", "2.2", "8"})  # an event or a token, nothing else

DEFAULT_NODES = 200_000


class Solution:
    """A deal's verdict: ``"win"`` (``line``: the decisions that win it, setup tokens first), ``"loss"``
    (every line loses) or ``"unresolved"`` (the budget ran out); ``nodes`` positions searched."""

    __slots__ = ("verdict", "line", "nodes", "seconds")

    def __init__(self, verdict: str, line: list[Decision], nodes: int, seconds: float):
        self.verdict, self.line, self.nodes, self.seconds = verdict, line, nodes, seconds

    def __repr__(self) -> str:
        return f"Solution({self.verdict!r}, {len(self.line)} decisions, {self.nodes} nodes, {self.seconds:.2f} s)"


class _OutOfBudget(Exception):
    """The search's budget ran out: the position is unresolved."""


def clone(game: Game) -> Game:
    """An independent copy of ``game`` (its constant parts shared): what :func:`copy.deepcopy` gives, faster."""
    new = copy.copy(game)
    for name, value in vars(game).items():
        if name in _CONSTANT or isinstance(value, _IMMUTABLE):
            continue
        if name == "hands":
            new.hands = [[list(row) for row in rows] for rows in value]
        elif name == "events":
            new.events = list(value)  # an event is never changed once appended
        elif name == "seen":
            new.seen = {p: list(v) for p, v in value.items()}
        elif type(value) is set:
            setattr(new, name, set(value))  # of slots or players: immutable items
        elif isinstance(value, random.Random):
            rng = random.Random()
            rng.setstate(value.getstate())
            new.rng = rng
        else:
            setattr(new, name, copy.deepcopy(value))
    return new


def _freeze(value: Any) -> Hashable:
    t = type(value)
    if t in (int, str, bool, float) or value is None:
        return value
    if t is list or t is tuple:
        return tuple(_freeze(x) for x in value)
    if t is set or t is frozenset:
        return frozenset(_freeze(x) for x in value)
    if t is dict:
        return frozenset((_freeze(k), _freeze(v)) for k, v in value.items())
    if hasattr(value, "__dict__"):
        return t.__name__, _freeze(vars(value))
    hash(value)  # a record: immutable and hashable (refuses anything else)
    return value


def state_key(game: Game, tokens: bool = True) -> Hashable:
    """Everything the game's future reads (module docstring); ``tokens`` False: the information tokens
    left out (:func:`tokens_matter`)."""
    parts: list[Hashable] = []
    for name, value in sorted(vars(game).items()):
        if name in _CONSTANT or name in _RECORD or (name == "tokened" and not tokens):
            continue
        parts.append(value.getstate() if isinstance(value, random.Random) else _freeze(value))
    return tuple(parts)


def _possible_cards(game: Game) -> set[str]:
    """Every card effect that may be played in this game: the board's, the pool's when False Bottom may add
    two of them, the characters'."""
    if game.board is None:
        return set()
    pool = set(game.pool) if FALSE_BOTTOM in game.board.board else set()
    return set(game.board.board) | pool | {CHARACTER_CARD[c] for c in game.characters if c in CHARACTER_CARD}


def tokens_matter(game: Game) -> bool:
    """Whether anything in this game reads which wires carry an information token or what the informing
    cards spent: a Constraint card (H), a moving card that can be played, Emergency Drop (any spent
    card), Emergency Batteries where a character only informs (General Radar).  When nothing does, the
    tokens are abstracted (module docstring)."""
    if type(game.rules).constraints is not MissionRules.constraints:
        return True
    cards = _possible_cards(game)
    moving = not (game.special or game.nano_dealt or game.rules.moving_cards_barred)
    informing_character = any(CHARACTER_CARD.get(c) in _INFORMING_CARDS for c in game.characters)
    return "3.3" in cards or ("7" in cards and informing_character) or (moving and bool(cards & _MOVING_CARDS))


def dead(game: Game) -> bool:
    """A position no line wins, by M38's rule: a flipped wire only its owner may cut (a call of its value
    naming it as their own wire, or a solo cut: either needs a wire of that value the owner can see), of a
    value other than red, while the owner sees no uncut wire of it -- and their stands never gain one
    (no Nano; the moving cards are barred where stands hold flipped wires)."""
    if game.rules.flipped_target != "captain_only" or game.nano:
        return False
    for x, kind in game.special.items():
        if kind != "flip" or x in game.cut:
            continue
        v = game.gameplay(game.key(x))
        if v != RED and not any(game.gameplay(game.key(y)) == v for y in game.visible(x[0])):
            return True
    return False


def _effect(game: Game, p: int, card: str) -> str:
    """The card whose effect a use of ``card`` by ``p`` plays (a character plays its card's)."""
    return CHARACTER_CARD.get(game.characters[p], "") if card == CHARACTER else card


def _setup_choices(game: Game, tokens: bool) -> list[Decision]:
    """The options of the pending setup token (once, None, when the tokens do not matter)."""
    if not tokens:
        return [None]
    p = game.setup_token_players()[0]
    pending = game.table(p)["meta"]["sim"]["pending"]
    options = [tuple(o) if isinstance(o, list) else o for o in pending["options"]]
    if pending["kind"] == "setup_absent":
        return [AbsentTokens(c) for n in range(min(pending["count"], len(options)) + 1)
                for c in combinations(options, n)]
    if pending["token"] == "false":
        values = sorted({k // 10 for k in (game.key(x) for x in game.slots(p)) if k % 10 == 0})
        return [None] + [SetupToken(x, v) for x in options for v in values if v != game.key(x) // 10]
    return [None, *options]


def _multi_cuts(game: Game, pending: dict[str, Any]) -> list[Action]:
    """Every special action (``multi_cut``) that succeeds: one that fails ends the game (refused where it
    does not: M48's yellows)."""
    p = pending["player"]
    uncut = [x for q in range(game.players) for x in game.uncut(q)]
    out: list[Action] = []
    for sp in pending["specials"]:
        if sp["kind"] != "multi_cut":
            continue
        if sp["value"] == YELLOW:
            raise SimError("the full-information solver does not play M48's special action (a failure goes on)")
        right = [x for x in uncut if game.gameplay(game.key(x)) == sp["value"]
                 and not (sp.get("teammates") and x[0] == p)]
        out += [MultiCutAction(sp["value"], c) for c in combinations(right, sp["count"])]
    return out


def _sure_calls(game: Game, pending: dict[str, Any]) -> list[Action]:
    """The calls the true deal makes sure, built from the pending turn (no card options: cheap).  Only an
    order: M43 the value of Nano's space first while Nano holds wires (a cut of it takes one), M38 one's
    own flipped wire first."""
    own = [tuple(x) for x in pending["own_flipped"]]
    calls: list[Action] = []
    for t in map(tuple, pending["targets"]):
        v = game.gameplay(game.key(t))
        if v in pending["values"]:  # one's own flipped wire first: it is the wire that only this call cuts
            calls += [DualCutAction(t, v, x) for x in own if game.gameplay(game.key(x)) == v]
            calls.append(DualCutAction(t, v))
    nano_space = game.state.get("nano_space") if game.nano else None
    calls.sort(key=lambda a: (a.value != nano_space, value_order(a.value)))
    return calls


def moves(game: Game, tokens: bool = True) -> Iterator[Decision]:
    """The decisions searched at this position, the sure ones first (module docstring); the full legal
    list (the cards' options: thousands with the X or Y ray) is built only when the sure ones are spent."""
    if game.setup_token_players():
        yield from _setup_choices(game, tokens)
        return
    pending = game.queue[0] if game.queue and not game.over else None
    if pending is None or pending["kind"] != "turn":
        yield from game.legal_moves()
        return
    p = pending["player"]
    sure: list[Action] = [RevealRedAction(p)] if pending["reveal"] else []
    sure += [SoloCutAction(v) for v in pending["solo"]] + _multi_cuts(game, pending)
    if any(sp["kind"] == "tripwire" for sp in pending["specials"]):
        sure += [TripwireAction(x) for q in range(game.players) if q != p for x in game.uncut(q)
                 if game.gameplay(game.key(x)) == YELLOW]
    sure += _sure_calls(game, pending)
    yield from sure
    done = set(sure)
    failed_targets: set[Slot] = set()
    value_free = type(game.rules).before_cut is MissionRules.before_cut
    later: list[Action] = []
    for a in game.legal_moves():
        if a in done:
            continue
        if isinstance(a, UseCard):
            if not tokens and _effect(game, p, a.card) in _INFORMING_CARDS:
                continue  # an informing card changes nothing a rule reads here
            yield a
        elif succeeds(game, a):
            yield a  # a sure detector call
        elif isinstance(a, DualCutAction):
            if game.is_red(game.key(a.target)):
                continue  # a red cut: the game is lost
            if value_free:
                if a.target in failed_targets:
                    continue  # the same failure: the value called is only the event's text
                failed_targets.add(a.target)
            later.append(a)
        else:
            later.append(a)
    yield from later


def _apply(game: Game, decision: Decision) -> None:
    if game.setup_token_players():
        game.place_token(decision)  # type: ignore[arg-type]
    else:
        game.play(decision)  # type: ignore[arg-type]


class Solver:
    """One deal's search (:func:`solve`)."""

    def __init__(self, nodes: int, seconds: float | None, tokens: bool):
        self.budget, self.deadline = nodes, (time.monotonic() + seconds if seconds is not None else None)
        self.tokens = tokens
        self.nodes = 0
        self.table: dict[Hashable, bool] = {}
        self.line: list[Decision] = []

    def won(self, game: Game, key: Hashable) -> bool:
        """Whether the position can be won (the winning line's decisions pushed on ``line`` in reverse)."""
        known = self.table.get(key)
        if known is not None:
            return known
        children: set[Hashable] = set()
        for decision in moves(game, self.tokens):
            self.nodes += 1
            if self.nodes > self.budget or (self.deadline is not None and time.monotonic() > self.deadline):
                raise _OutOfBudget
            child = clone(game)
            _apply(child, decision)
            if child.over:
                if child.result != "win":
                    continue
                self.line.append(decision)
                self.table[key] = True
                return True
            ck = state_key(child, self.tokens)
            if ck in children or dead(child):
                continue
            children.add(ck)
            if self.won(child, ck):
                self.line.append(decision)
                self.table[key] = True
                return True
        self.table[key] = False
        return False


def solve(game: Game, nodes: int = DEFAULT_NODES, seconds: float | None = None) -> Solution:
    """Whether ``game`` (a dealt game, before or during play; not changed) can be won on its true deal."""
    t0 = time.perf_counter()
    if game.over:
        return Solution("win" if game.result == "win" else "loss", [], 0, 0.0)
    tokens = tokens_matter(game)
    solver = Solver(nodes, seconds, tokens)
    root = clone(game)
    if dead(root):
        return Solution("loss", [], 0, time.perf_counter() - t0)
    try:
        won = solver.won(root, state_key(root, tokens))
    except _OutOfBudget:
        return Solution("unresolved", [], solver.nodes, time.perf_counter() - t0)
    return Solution("win" if won else "loss", solver.line[::-1] if won else [], solver.nodes,
                    time.perf_counter() - t0)


def play_line(game: Game, line: list[Decision]) -> str | None:
    """The result of playing ``line`` on a copy of ``game`` (None: the game is not over after it)."""
    g = clone(game)
    for decision in line:
        _apply(g, decision)
    return g.result
