"""Greedy: suggest's exact ranking kept to the legal moves, and documented rules for what it does not rank.

``greedy``: what suggest's exact mode recommends, kept to the legal
moves (:func:`legal_suggestion`: a call only of an allowed value on an
allowed target, a solo cut or reveal only when the game allows it now, the
Double Detector only when the player has it and may use it): certain moves
first, then the highest exact P(success) within the red cap; the Double
Detector (while the player still has it) when its exact P(success) beats
the best call's.  What suggest does not rank, greedy decides by these
documented rules (:func:`greedy_turn`, :class:`~.base_policy.BasePolicy` choices):

- special actions (``multi_cut``: M13, M23, M39, M46, M48, M55/M60's
  challenge 1): played when the view makes every pointed wire certain
  (after the certain moves), or when forced / nothing else is legal, then
  on the wires likeliest to hold the value (exact marginals of the view);
- M41's tripwire call: on the teammate wire likeliest to be yellow, when its
  P(yellow) is at least the best call's P(success) and its red risk within
  the cap (a success also rewinds the dial);
- M56/M64: a call on a teammate's flipped wire (seen, so certain) costs a
  dial space: played only when no other certain move exists, the best
  other call is a coin flip or worse and the dial keeps 2 spaces, or when
  nothing else is legal;
- one's own flipped wire (M38/M56/M64) is cut as the caller's own wire of a
  successful call when the view makes it certainly that value (M38, where
  nobody else may cut it: also when it is the caller's last visible wire
  of the value and strictly the likeliest value of the flipped wire, P >= 1/2:
  on a tie at 1/2 the visible wire is cut);
- choices and setup tokens: :mod:`.base_policy`;
- equipment (meta.sim.pending.equipment; :func:`greedy_equipment`, before the move above): the
  Disintegrator at once; the Rewinder when the dial is one space from the skull; Emergency
  Batteries when one's own character is used (with a second used one if any); the Emergency
  Drop as soon as a card is used; the Post-it, Single Wire Label and Labels at once, on the
  wire (pair) nearest the middle of one's stand (it bounds the most neighbours); then, with no
  certain move: the Fast Pass (a sure cut of 2); the General Radar (card or E1) on the value
  whose answers are most uncertain (sum over teammate stands of min(P, 1-P), P = P(the stand
  holds it), marginals taken as independent); the X or Y ray (card or E4: P(target is v1 or
  v2)), the Triple (card or E3) and Super Detectors (P(some target is v), independent
  marginals) when the best of them beats the best call's P(success) by 0.1 within the red cap;
  the Stabilizer on the best call when it is below P 0.9 or risks red; the Coffee Mug when the
  best call is below P 0.5, to the teammate with the most uncut wires; the Double Detector as
  before; the Grappling Hook on the teammate wire likeliest to be a value one holds, when
  P >= 0.9 (a pair in one's own hand); the Walkie-Talkies (card or E2) when the best call is below
  P 0.5: one's leftmost wire of a value held once, to the teammate with the most uncut wires.
  Before the detectors' rule, when the best call risks red above the cap (no certain move):
  the card suggest's advice names (suggest.equipment.red_escape, :func:`_escape`): the
  Stabilizer on that call, else the likeliest detector use within the cap (at the dial's last
  space only one at least as likely to succeed), else the Coffee Mug, else the Walkie-Talkies.

``greedy-keep-detector``: greedy that keeps the Double Detector for a turn
when the best call risks red (most of greedy's red losses are endgame calls
where every call does: docs/results/keep-detector.md), then uses it on the two wires least likely
to be both red (:func:`keep_detector_choice`).

``entropy-seed`` / ``entropy-exact``: suggest's entropy mode (the
reference suggester) with P(success) of a branch 1/k or exact, kept legal
and completed as greedy.
"""
from __future__ import annotations

from collections import Counter

from ..public_state import dial
from ..engines import DEFAULT
from ..facts import compile_table
from ..suggest import Policy as Ranking, suggest
from ..suggest.analyses import Analyses
from ..suggest.equipment import red_escape
from ..wires import RED, YELLOW, value_of
from .actions import DualCutAction, MultiCutAction, RevealRedAction, SoloCutAction, TripwireAction, UseCard, tupled
from .base_policy import BasePolicy
from .view import CERTAIN, RED_CAP, action_of, legal_suggestion

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random
    from typing import Any, Callable

    from .actions import Action, Slot
    from .view import View

EQUIPMENT_MARGIN = 0.1  # a detector or the ray must beat the best call's P(success) by this much
STABILIZE_BELOW = 0.9  # the Stabilizer on a call below this P(success) or with any red risk
MUG_BELOW = 0.5  # the Coffee Mug (and the Walkie-Talkies) when the best call is below this P(success)
HOOK_AT = 0.9  # the Grappling Hook on a teammate wire at least this likely of a value one holds


class SuggestPolicy(BasePolicy):
    """The first legal move of suggest's list (mode and probabilities as given), completed by
    :func:`greedy_turn`."""

    mode, probabilities, use_detector = "exact", "exact", True
    explain = False  # the rules read each suggestion's move and odds only; True where the rows are shown
    # The ranking weighs a failure by the dial and the cards avoid a call too red (issue 34: suggest's
    # Policy.stakes, equipment.red_escape); False only for FormerGreedyPolicy, greedy before that.
    stakes = True

    def ranking(self, view: View, equipment: tuple[str, ...]) -> list[dict[str, Any]]:
        policy = Ranking(red_cap=RED_CAP, seed=self.rng.randrange(2**31), equipment=equipment,
                         failure_token=not _no_failure_token(view), stakes=self.stakes)
        runs = Analyses(compile_table(view.table), DEFAULT)
        out = suggest(view.table, player=view.player, mode=self.mode, probabilities=self.probabilities,
                      policy=policy, cards=False,  # the simulator plays the cards its own way: no advice to compute
                      explain=self.explain, analyses=runs)
        view.adopt(runs)  # greedy's other rules read the marginals of the same analysis
        return out["suggestions"]

    def legal_ranking(self, view: View, pending: dict[str, Any] | None) -> list[dict[str, Any]]:
        detector = self.use_detector and view.has_detector()
        values = pending["values"] + pending["solo"] if pending is not None else [None]
        if pending is not None and not values and not pending["reveal"]:
            return []  # no call, solo cut or reveal is legal: no need to rank
        return [s for s in self.ranking(view, ("double_detector",) if detector else ())
                if legal_suggestion(s, pending)]

    def pick(self, ranked: list[dict[str, Any]]) -> dict[str, Any]:
        return choice(ranked)

    def turn(self, view: View, pending: dict[str, Any] | None) -> Action:
        ranked = self.legal_ranking(view, pending)
        use = greedy_equipment(view, pending, ranked, self.pick, self.stakes)
        if use is not None:
            return use
        return greedy_turn(view, pending, ranked, self.pick, self.rng)


def _middle(view: View, slots: list[Slot]) -> Slot:
    """The slot nearest the middle of its stand (leftmost on a tie)."""
    sizes = {(p, st): len(row) for p, rows in enumerate(view.board().stands) for st, row in enumerate(rows)}
    return min(slots, key=lambda x: (abs(x[2] - (sizes[x[:2]] - 1) / 2), x))


def _p_any(view: View, slots: Any, value: Any) -> float:
    """P(at least one of ``slots`` is ``value``), the marginals taken as independent (a cheap bound)."""
    q = 1.0
    for x in slots:
        q *= 1 - view.p_value(tuple(x), value)
    return 1 - q


def _p_all_red(view: View, slots: Any) -> float:
    q = 1.0
    for x in slots:
        q *= view.p_value(tuple(x), RED)
    return q


def greedy_equipment(view: View, pending: dict[str, Any] | None, ranked: list[dict[str, Any]],
                     pick: Any = None, stakes: bool = True) -> Action | None:
    """Greedy's use of the equipment (pending["equipment"]), one simple rule per card (the module
    docstring); None: no card now, the turn goes on as greedy_turn says.  ``stakes``: when the best
    call risks red above the cap, the card the advice says avoids it (:func:`_escape`) comes first."""
    if pending is None or not pending.get("equipment"):
        return None
    uses = {u["effect"]: u for u in pending["equipment"]}
    me = view.player

    def use(effect: str, option: Any) -> UseCard:
        return UseCard(uses[effect]["card"], tupled(option))

    if "10.10" in uses:
        return use("10.10", None)
    if "6" in uses and view.sim().get("dial") == 1:
        return use("6", None)
    if "7" in uses:
        mine = [o for o in uses["7"]["options"] if me in o]
        if mine:
            return use("7", max(mine, key=len))
    if "3.3" in uses:
        return use("3.3", None)
    for effect in ("4", "2.2", "1", "12"):
        if effect in uses:
            return use(effect, _middle(view, [tuple(o) for o in uses[effect]["options"]]))
    best = (pick or choice)(ranked) if ranked else None
    if best is not None and best["certain"]:
        return None
    if "9.9" in uses:
        return use("9.9", uses["9.9"]["options"][0])
    if "8" in uses:
        stands = [[x for x in view.uncut_slots() if x[:2] == (q, s)]
                  for q, rows in enumerate(view.board().stands) if q != me for s in range(len(rows))]

        def doubt(v: int) -> float:
            return sum(min(p, 1 - p) for p in (_p_any(view, st, v) for st in stands if st))
        return use("8", max(uses["8"]["options"], key=lambda v: (doubt(v), -v)))
    candidates: list[tuple[float, float, Action]] = []  # (P(success), P(red), the use) of the detectors
    if "10" in uses:
        scored = [(view.p_value(tuple(t), a) + view.p_value(tuple(t), b), view.p_value(tuple(t), RED), (t, a, b))
                  for t, a, b in uses["10"]["options"]]
        scored = [x for x in scored if x[1] <= RED_CAP]
        if scored:
            p, red, o = max(scored, key=lambda x: x[0])
            candidates.append((p, red, use("10", o)))
    if "3" in uses:
        scored3 = [(_p_any(view, ts, v), ts, v) for ts, v in uses["3"]["options"] if _p_all_red(view, ts) <= RED_CAP]
        if scored3:
            p, ts, v = max(scored3, key=lambda x: x[0])
            candidates.append((p, _p_all_red(view, ts), use("3", (ts, v))))
    if "5" in uses:
        scored5 = []
        for (q, s), v in uses["5"]["options"]:
            st = [x for x in view.uncut_slots() if x[:2] == (q, s)]
            if _p_all_red(view, st) <= RED_CAP:
                scored5.append((_p_any(view, st, v), (q, s), v))
        if scored5:
            p, qs, v = max(scored5, key=lambda x: x[0])
            st = [x for x in view.uncut_slots() if x[:2] == qs]
            candidates.append((p, _p_all_red(view, st), use("5", (qs, v))))
    if stakes:
        escape = _escape(view, uses, ranked, candidates, use)
        if escape is not None:
            return escape
    bar = (best["p_success"] if best is not None else 0.0) + EQUIPMENT_MARGIN
    if candidates:
        p, _, action = max(candidates, key=lambda x: x[0])
        if p >= bar:
            return action
    if "11.11" in uses:
        held = {value_of(k) for _, k in view.my_uncut()} - {RED}
        scored_h = [(max((view.p_value(tuple(x), v) for v in held), default=0.0), tuple(x), st)
                    for x, st in uses["11.11"]["options"]]
        p, x, st = max(scored_h, key=lambda z: z[0])
        if p >= HOOK_AT:
            return use("11.11", (x, st))
    if "2" in uses and (best is None or best["p_success"] < MUG_BELOW):
        gift = _gift(view, uses["2"]["options"])
        if gift is not None:
            return use("2", gift)
    if "9" in uses and best is not None and best["kind"] == "dual_cut" and (
            best["p_success"] < STABILIZE_BELOW or best["p_red"] > 0):
        o = _stabilized(uses["9"]["options"], best)
        if o is not None:
            return use("9", o)
    if "11" in uses and (best is None or best["p_success"] < MUG_BELOW):
        return use("11", _busiest(view, uses["11"]["options"]))
    return None


def _escape(view: View, uses: dict[str, Any], ranked: list[dict[str, Any]],
            detectors: list[tuple[float, float, Action]], use: Callable[[str, Any], UseCard]) -> Action | None:
    """The advice's card when the best call risks red above the cap (suggest.equipment.red_escape, at
    the dial of suggest's ranking): the Stabilizer on it, the likeliest detector use within the cap (the
    Double Detector's exact odds from the ranking; the cards' greedy estimates), the Coffee Mug, the
    Walkie-Talkies' gift; None: the call is within the cap, or no such card."""
    call = next((s for s in ranked if s["kind"] == "dual_cut" and not s["certain"]), None)
    if call is None or any(s["certain"] for s in ranked):
        return None
    found = [(s["p_success"], s["p_red"], action_of(s, view.player)) for s in ranked
             if s["kind"] == "double_detector" and s["p_red"] <= RED_CAP]
    found += [c for c in detectors if c[1] <= RED_CAP]
    detector = max(found, key=lambda c: c[0], default=None)
    stabilized = _stabilized(uses["9"]["options"], call) if "9" in uses else None
    gift = _gift(view, uses["2"]["options"]) if "2" in uses else None
    cards = {name for name, there in (("stabilizer", stabilized), ("coffee_mug", uses.get("11")),
                                      ("walkie_talkies", gift), ("detector", detector)) if there is not None}
    now = dial(view.table)
    escape = red_escape((call["p_success"], call["p_red"]), detector and detector[:2], cards, RED_CAP,
                        None if now is None else now.failures_left)
    if escape == "stabilizer":
        return use("9", stabilized)
    if escape == "detector":
        return detector[2]  # type: ignore[index]
    if escape == "coffee_mug":
        return use("11", _busiest(view, uses["11"]["options"]))
    if escape == "walkie_talkies":
        return use("2", gift)
    return None


def _stabilized(options: list[Any], call: dict[str, Any]) -> Any:
    """The Stabilizer's option for a dual cut suggestion (None: not among them)."""
    o = ([call["target"][k] for k in ("player", "stand", "slot")], call["value"])
    return o if list(o) in [list(x) for x in options] else None


def _busiest(view: View, players: list[int]) -> int:
    """The player with the most uncut wires (the lowest on a tie): the Coffee Mug's."""
    board = view.board()
    return max(players, key=lambda q: (sum(1 for row in board.stands[q] for w in row if w not in board.cut), -q))


def _gift(view: View, options: list[Any]) -> Any:
    """The Walkie-Talkies' option: one's leftmost wire of a value held once, to the teammate with the
    most uncut wires (None: every value is held more than once)."""
    counts = Counter(value_of(k) for _, k in view.my_uncut())
    mine = set(counts)

    def value_at(x: Slot) -> Any:  # my own wire: certain in my view
        return max(mine, key=lambda v: (view.p_value(x, v), str(v)))
    alone = [(x, q) for x, q in options if counts[value_at(tuple(x))] == 1]
    if not alone:
        return None
    x, _ = alone[0]
    return x, _busiest(view, [q for y, q in alone if y == x])


def _no_failure_token(view: View) -> bool:
    return bool({"no_failure_info", "false_tokens"} & view.tags())


def choice(ranked: list[dict[str, Any]]) -> dict[str, Any]:
    """The list's first move, or the best Double Detector use when it is likelier to succeed."""
    first = ranked[0]
    if not first["certain"]:
        best = next((s for s in ranked if s["kind"] == "double_detector" and s["p_red"] <= RED_CAP), None)
        if best is not None and best["p_success"] > first["p_success"]:
            return best
    return first


def _costly(s: dict[str, Any], pending: dict[str, Any] | None) -> bool:
    return (pending is not None and s["kind"] == "dual_cut"
            and [s["target"][k] for k in ("player", "stand", "slot")] in pending["costly"])


def greedy_turn(view: View, pending: dict[str, Any] | None, ranked: list[dict[str, Any]],
                pick: Any, rng: random.Random) -> Action:
    """Greedy's turn from the legal ranking: certain moves, certain special actions, the best call,
    a tripwire call, a costly sure call, a forced special action (module docstring)."""
    me = view.player
    free = [s for s in ranked if not _costly(s, pending)]
    costly = [s for s in ranked if _costly(s, pending)]
    certain = [s for s in free if s["certain"]]
    if certain:
        return _own_flipped(view, pending, action_of(certain[0], me))
    specials = pending["specials"] if pending is not None else []
    multi = [sp for sp in specials if sp["kind"] == "multi_cut"]
    for sp in multi:
        slots, p = _likeliest(view, sp)
        if slots is not None and p >= CERTAIN:
            return MultiCutAction(sp["value"], slots)
    best = pick(free) if free else None
    if any(sp["kind"] == "tripwire" for sp in specials):
        slots = [x for x in view.uncut_slots() if x[0] != me]
        if slots:
            t = max(slots, key=lambda x: (view.p_value(x, YELLOW), -view.p_value(x, RED)))
            p_yellow, p_red = view.p_value(t, YELLOW), view.p_value(t, RED)
            if best is None or (p_red <= RED_CAP and p_yellow >= best["p_success"]):
                return TripwireAction(t)
    if costly and (best is None or (best["p_success"] < 0.5 and view.sim().get("dial", 99) >= 2)):
        return action_of(costly[0], me)
    if best is not None:
        return _own_flipped(view, pending, action_of(best, me))
    for sp in multi:
        slots, _ = _likeliest(view, sp)
        if slots is not None:
            return MultiCutAction(sp["value"], slots)
    if costly:
        return action_of(costly[0], me)
    # nothing ranked is legal (e.g. every legal call has no chance in this view): a legal call at random
    calls = [DualCutAction(tuple(t), v) for t in pending["targets"] for v in pending["values"]] if pending else []
    if calls:
        return rng.choice(calls)
    if pending and pending["solo"]:  # a solo cut the view cannot prove (e.g. an unseen flipped wire may be one)
        return SoloCutAction(pending["solo"][0])
    if pending and pending["reveal"]:
        return RevealRedAction(me)
    raise ValueError(f"player {me} has no legal move to play: {pending}")


def _likeliest(view: View, sp: dict[str, Any]) -> tuple[tuple[Slot, ...] | None, float]:
    """A special action's ``count`` wires likeliest to hold its value, and the least likely one's P."""
    pool = [x for x in view.uncut_slots() if not (sp.get("teammates") and x[0] == view.player)]
    if len(pool) < sp["count"]:
        return None, 0.0
    scored = sorted(pool, key=lambda x: -view.p_value(x, sp["value"]))[:sp["count"]]
    return tuple(sorted(scored)), min(view.p_value(x, sp["value"]) for x in scored)


def _own_flipped(view: View, pending: dict[str, Any] | None, action: Action) -> Action:
    """Cut one's own flipped wire on a call of its value when the view makes it certain (M38: also
    the last visible wire of the value when the flipped wire is strictly likeliest that value, P >= 1/2)."""
    if pending is None or not isinstance(action, DualCutAction) or not pending.get("own_flipped"):
        return action
    for own in pending["own_flipped"]:
        own = tuple(own)
        p = view.p_value(own, action.value)
        if p >= CERTAIN:
            return DualCutAction(action.target, action.value, own)
        if view.sim().get("mission") == 38 and p >= 0.5 and view.holds(action.value) == 1:
            # Strictly the likeliest: on a tie (P = 1/2 each) the visible wire is cut.  Taking the first
            # maximum of a set let the set's order decide, and a set holding "red" or "yellow" iterates
            # in an order that changes with each process's string hashing (PYTHONHASHSEED).
            others = {value_of(k) for _, k in view.my_uncut()} - {action.value}
            if all(view.p_value(own, v) < p for v in others):
                return DualCutAction(action.target, action.value, own)
    return action


class GreedyPolicy(SuggestPolicy):
    name = "greedy"
    version = 3  # 2: the ranking weighs the dial, and the cards avoid a call too red (issue 34: stakes);
                 # 3: with spaces left a futile call within the red cap is a pass again (ranking.ordered)


class FormerGreedyPolicy(GreedyPolicy):
    """Greedy before issue 34 (its version 1, under its name): the red cap alone, the cards by their
    own thresholds.  Not a tournament policy: kept to replay version 1's logs (tests/test_greedy_logged.py)
    and to measure the change on the same deals (bench/stakes_gain.py)."""

    version = 1
    stakes = False


class KeepDetectorPolicy(SuggestPolicy):
    """Greedy that keeps its Double Detector for a turn when the best call risks red."""

    name = "greedy-keep-detector"
    version = 3  # 2: greedy's ranking and cards of issue 34 (SuggestPolicy.stakes); 3: greedy 3's

    def pick(self, ranked: list[dict[str, Any]]) -> dict[str, Any]:
        return keep_detector_choice(ranked)


def keep_detector_choice(ranked: list[dict[str, Any]]) -> dict[str, Any]:
    """The best call (the list's first move that is not a detector use) unless it risks red; then
    the detector use least likely to explode (a Double Detector explodes only when both wires are
    red: rules.md), likelier to succeed on a tie, when it is safer than the call."""
    call = next((s for s in ranked if s["kind"] != "double_detector"), None)
    if call is None:
        return ranked[0]
    if call["certain"] or call["p_red"] == 0:
        return call
    safer = [s for s in ranked if s["kind"] == "double_detector" and s["p_red"] < call["p_red"]]
    return min(safer, key=lambda s: (s["p_red"], -s["p_success"])) if safer else call


class EntropySeedPolicy(SuggestPolicy):
    name, mode, probabilities, use_detector = "entropy-seed", "entropy", "seed", False
    version = 2  # 2: the futile moves last and greedy's cards of issue 34 (SuggestPolicy.stakes)


class EntropyExactPolicy(SuggestPolicy):
    name, mode, probabilities, use_detector = "entropy-exact", "entropy", "exact", False
    version = 2  # as entropy-seed's
