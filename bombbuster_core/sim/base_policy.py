"""The policy interface (:class:`BasePolicy`) and the choices that are not cuts, as greedy makes them.

Choices: designate oneself when holding the value, else the teammate
likeliest to (expected wires of the value); volunteer exactly when
holding it; give (M22) a value one does not hold with the most wires
uncut; draft (M27) a value one holds, else the first; M31's Constraint
card allowing the most of one's wires; M36's Sequence card at the end
whose value one holds most; M45/M51's refusal token and setup tokens on
the allowed wire nearest the middle of the longest stand; a false token
shows the value one above the wire's (12 -> 1); M22's absent values the
lowest ones; M59 Nano faces the side with more face-up cards; M65 gives
the card whose value one holds least to the next player with wires.

Setup tokens: ``random`` points at a random allowed wire; the others at the
allowed wire nearest the middle of their longest stand (leftmost on a tie):
it bounds the most neighbours by the stand's order, with no engine run.
"""
from __future__ import annotations

from ..wires import value_of
from .actions import AbsentTokens, Choose, SetupToken
from .mission_rules import VALUE_RULES
from .view import middle_token, pending_options

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random
    from typing import Any

    from .actions import Action, Slot
    from .view import View


class BasePolicy:
    """The interface: a name, a setup decision and a move, from the player's view only.  The
    choices that are not cuts follow the documented greedy rules (module docstring)."""

    name = "base"
    sees_the_deal = False  # True only for the sighted policy (sim/sighted.py): measurement, not play
    # Raised when a change makes the policy play other moves in the same games: a resumed log's records
    # name it (tournament.py) once it is above 1, so games of the old rule are not mixed in.
    version = 1
    # A search policy's tournament stream for its greedy choices ("greedy": greedy's own), its search
    # drawing from a stream of its own (``search_rng``); None: the policy's name (tournament.py).
    rng_stream: str | None = None

    def __init__(self, rng: random.Random):
        self.rng = rng

    def setup_token(self, view: View) -> Slot | SetupToken | AbsentTokens | None:
        pending = view.pending()
        if pending is None:
            return middle_token(view)
        options = pending_options(pending)
        if not options:
            return None
        if pending["kind"] == "setup_absent":
            return AbsentTokens(tuple(options[:pending["count"]]))
        slot = middle_token(view, options)
        if pending["token"] == "false":
            v = value_of(dict(view.hand())[slot])
            return SetupToken(slot, v % 12 + 1 if isinstance(v, int) else 1)
        return slot

    def move(self, view: View) -> Action:
        pending = view.pending()
        if pending is not None and pending["kind"] == "choose":
            return Choose(pending["what"], self.choose(view, pending))
        return self.turn(view, pending)

    def turn(self, view: View, pending: dict[str, Any] | None) -> Action:
        raise NotImplementedError

    def choose(self, view: View, pending: dict[str, Any]) -> Any:
        what, options = pending["what"], pending_options(pending)
        st = view.sim().get("state", {})
        me = view.player
        if what in ("designate", "volunteer"):
            v = pending["number"]
            mine = view.holds(v) > 0
            if what == "volunteer":
                return mine
            if mine and me in options:
                return me

            def expected(q: int) -> float:
                return sum(view.p_value(x, v) for x in view.uncut_slots() if x[0] == q)

            return max(options, key=lambda q: (expected(q), -((q - me) % len(view.raw["players"]))))
        if what == "give":
            left = {v: sum(view.p_value(x, v) for x in view.uncut_slots()) for v in options}
            return max(options, key=lambda v: (view.holds(v) == 0, round(left[v], 9), -options.index(v)))
        if what == "draft":
            held = [v for v in options if view.holds(v)]
            return max(held, key=view.holds) if held else options[0]
        if what == "constraint":
            mine = [value_of(k) for _, k in view.my_uncut()]
            return max(options, key=lambda c: (sum(1 for v in mine if isinstance(v, int) and VALUE_RULES[c](v)),
                                               -ord(c)))
        if what == "end":
            line = st.get("line") or []
            if not line:
                return options[0]
            left, right = view.holds(line[0]), view.holds(line[-1])
            return "right" if right > left else "left"
        if what == "token":
            return middle_token(view, options)
        if what == "direction":
            line, at, down = st["line"], st["nano_at"], set(st.get("face_down", []))
            ahead = {d: sum(1 for i in range(len(line)) if (i - at) * d > 0 and line[i] not in down) for d in (1, -1)}
            return max(options, key=lambda d: (ahead[d], d))
        if what == "give_card":
            n = len(view.raw["players"])
            has_wires = {x[0] for x in view.uncut_slots()}
            return min(options, key=lambda o: (view.holds(o[0]), o[1] not in has_wires, (o[1] - me) % n))
        return options[0]
