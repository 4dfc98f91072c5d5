"""The ``random`` policy: uniformly random legal moves, choices and setup tokens.

A uniformly random legal call (dual cut, or M41 tripwire call) on an allowed
target; when none exists, a random one of the other legal moves (solo cut,
reveal, a special action on random wires); every choice and setup option
uniformly at random.  On a quarter of its turns where a card is usable, a
random usable card with a random option instead.
"""
from __future__ import annotations

from ..wires import RED, value_of
from .actions import (AbsentTokens, DualCutAction, MultiCutAction, RevealRedAction, SetupToken, SoloCutAction,
                      TripwireAction, UseCard, tupled)
from .base_policy import BasePolicy
from .view import pending_options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .actions import Action, Slot
    from .view import View

RANDOM_USE = 0.25  # the chance of using a random usable card (random option) instead of its move


class RandomPolicy(BasePolicy):
    name = "random"

    def setup_token(self, view: View) -> Slot | SetupToken | AbsentTokens | None:
        pending = view.pending()
        if pending is None:
            return self.rng.choice([x for x, k in view.hand() if k % 10 == 0])
        options = pending_options(pending)
        if not options:
            return None
        if pending["kind"] == "setup_absent":
            return AbsentTokens(tuple(self.rng.sample(options, min(pending["count"], len(options)))))
        slot = self.rng.choice(options)
        if pending["token"] == "false":
            v = value_of(dict(view.hand())[slot])
            return SetupToken(slot, self.rng.choice([w for w in range(1, 13) if w != v]))
        return slot

    def choose(self, view: View, pending: dict[str, Any]) -> Any:
        return self.rng.choice(pending_options(pending))

    def turn(self, view: View, pending: dict[str, Any] | None) -> Action:
        if pending is None:  # a base-game table without the game's limits
            mine = view.my_uncut()
            values = sorted({value_of(k) for _, k in mine if value_of(k) != RED}, key=str)
            targets = view.teammates_uncut()
            if values and targets:
                return DualCutAction(self.rng.choice(targets), self.rng.choice(values))
            if values:  # nobody else has a wire left: every remaining wire is mine
                return SoloCutAction(values[0])
            return RevealRedAction(view.player)
        uses = pending.get("equipment") or []
        if uses and self.rng.random() < RANDOM_USE:
            u = self.rng.choice(uses)
            return UseCard(u["card"], tupled(self.rng.choice(u["options"])))
        calls: list[Action] = [DualCutAction(tuple(t), v) for t in pending["targets"] for v in pending["values"]]
        if any(sp["kind"] == "tripwire" for sp in pending["specials"]):
            calls += [TripwireAction(x) for x in view.uncut_slots() if x[0] != view.player]
        if calls:
            return self.rng.choice(calls)
        others: list[Action] = [SoloCutAction(v) for v in pending["solo"]]
        if pending["reveal"]:
            others.append(RevealRedAction(view.player))
        uncut = view.uncut_slots()
        for sp in pending["specials"]:
            if sp["kind"] == "multi_cut":
                pool = [x for x in uncut if not (sp.get("teammates") and x[0] == view.player)]
                if len(pool) >= sp["count"]:
                    others.append(MultiCutAction(sp["value"], tuple(self.rng.sample(pool, sp["count"]))))
        return self.rng.choice(others)
