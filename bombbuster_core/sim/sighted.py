"""The ``sighted`` policy: greedy with perfect information.  FOR MEASUREMENT ONLY.

It sees the true deal (every wire, its own flipped ones included), which no
player at the table does: it is not a way to play, only a ceiling.  The win
rate of ``sighted`` minus greedy's on the same deals is the value of
information to greedy — how far any policy that decides from its own view
(ISMCTS, lookahead) could at most improve on greedy (issue 20).  The
tournament hands it the game (``watch``); the page and the bridge never
offer it.

It is greedy (greedy.py) in every decision but the cut: setup tokens,
choices and the equipment follow greedy's rules from the player's view.  On
its turn, when the truth offers a sure cut it plays one, first of:

1. reveal its reds (legal only when only reds are left);
2. a solo cut (legal only when it holds every remaining wire of the value);
3. a special action (``multi_cut``) on wires that all hold its value: it cuts
   several wires in one turn, and greedy too plays a certain one before any
   uncertain call;
4. M41's tripwire call on a teammate's yellow (a success also rewinds the
   dial: greedy prefers it to a call no likelier);
5. a dual cut on a teammate wire that holds the value called (its own flipped
   wire with it when that wire holds the value too), values in the game's
   order then targets by seat, stand and slot; a call on a teammate's flipped
   wire (M56/M64: it costs a dial space) only when no free one is sure.

Greedy's preference among sure cuts would take greedy's inference at every
turn; this order takes none (every sure cut succeeds, so it decides only the
order in which the wires fall).  A Double Detector use is never needed: its
targets are call targets, so when it is sure a sure call exists.  With a sure
cut, the equipment greedy uses whatever the odds (the Disintegrator, Post-its,
labels, ...) is used first; the cards greedy keeps for uncertain calls are
not.  With no sure cut it plays greedy's move from its view.
"""
from __future__ import annotations

from ..wires import YELLOW
from .actions import DoubleDetector, DualCutAction, MultiCutAction, RevealRedAction, SoloCutAction, TripwireAction
from .greedy import SuggestPolicy, greedy_equipment

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random
    from typing import Any

    from .actions import Action
    from .game import Game
    from .view import View

# What greedy's equipment rules read of the best call when the truth makes one sure.
_SURE = {"kind": "sure", "certain": True, "p_success": 1.0, "p_red": 0.0}


def succeeds(game: Game, action: Action) -> bool:
    """Whether a cut succeeds on the true deal (any other action: True)."""
    if isinstance(action, DualCutAction):
        return game.gameplay(game.key(action.target)) == action.value and (
            action.own is None or game.gameplay(game.key(action.own)) == action.value)
    if isinstance(action, DoubleDetector):
        return any(game.gameplay(game.key(t)) == action.value for t in action.targets)
    if isinstance(action, MultiCutAction):
        return all(game.gameplay(game.key(x)) == action.value for x in action.slots)
    if isinstance(action, TripwireAction):
        return game.gameplay(game.key(action.target)) == YELLOW
    return True


def sure_cuts(game: Game, pending: dict[str, Any]) -> list[Action]:
    """The legal cuts of the pending turn that succeed on the true deal, in the sighted order (module
    docstring)."""
    p = pending["player"]
    out: list[Action] = [RevealRedAction(p)] if pending["reveal"] else []
    out += [SoloCutAction(v) for v in pending["solo"]]
    uncut = [x for q in range(game.players) for x in game.uncut(q)]
    for sp in pending["specials"]:
        if sp["kind"] == "multi_cut":
            right = [x for x in uncut if game.gameplay(game.key(x)) == sp["value"]
                     and not (sp.get("teammates") and x[0] == p)]
            if len(right) >= sp["count"]:
                out.append(MultiCutAction(sp["value"], tuple(right[:sp["count"]])))
        elif sp["kind"] == "tripwire":
            out += [TripwireAction(x) for x in uncut if x[0] != p and game.gameplay(game.key(x)) == YELLOW]
    own = [tuple(x) for x in pending["own_flipped"]]
    costly = [tuple(t) for t in pending["costly"]]
    calls: list[DualCutAction] = []
    for t in map(tuple, pending["targets"]):  # by seat, stand and slot
        v = game.gameplay(game.key(t))
        if v in pending["values"]:
            calls.append(DualCutAction(t, v, next((x for x in own if game.gameplay(game.key(x)) == v), None)))
    calls.sort(key=lambda a: (a.target in costly, pending["values"].index(a.value)))  # stable: targets stay in order
    return out + calls  # each legal by the pending decision's own lists (tests/test_sighted.py checks every move)


class SightedPolicy(SuggestPolicy):
    """Greedy whose cut is one the true deal says succeeds (module docstring).  FOR MEASUREMENT ONLY."""

    name = "sighted"
    sees_the_deal = True
    version = 3  # 2: greedy's ranking and cards of issue 34 (greedy.SuggestPolicy.stakes); 3: greedy 3's

    def __init__(self, rng: random.Random):
        super().__init__(rng)
        self.game: Game | None = None

    def watch(self, game: Game) -> None:
        """The game whose true deal it sees (the tournament calls this before the first decision)."""
        self.game = game

    def turn(self, view: View, pending: dict[str, Any] | None) -> Action:
        game = self.game
        if game is None or game.turn != view.player:
            raise ValueError("the sighted policy plays only the game it watches (tournament.play_game)")
        sure = sure_cuts(game, pending) if pending is not None else []
        if not sure:
            return super().turn(view, pending)
        return greedy_equipment(view, pending, [_SURE]) or sure[0]
