"""Policies for self-play: each decides from its own player's view only.

A policy sees a :class:`View` — the player's table file (their own wires in
``me`` plus the public events), exactly what that player could write down —
and calls the core on it; it never sees the hidden deal.  Two decisions:
``setup_token(view)`` (one of the player's own blue wires) and
``move(view)`` (a :mod:`.game` action).

* ``random``: a uniformly random legal dual cut (forced moves when no dual cut exists).
* ``greedy``: what suggest.py's exact mode recommends: certain moves first,
  then the highest exact P(success) within the red cap; the Double Detector
  (while the player still has it) when its exact P(success) beats the best call's.
* ``greedy-keep-detector``: greedy that keeps the Double Detector for a turn
  when the best call risks red (most of greedy's red losses are endgame calls
  where every call does: README), then uses it on the two wires least likely
  to be both red (:func:`keep_detector_choice`).
* ``entropy-seed`` / ``entropy-exact``: suggest.py's entropy mode (the
  reference suggester) with P(success) of a branch 1/k or exact.
* ``lookahead``: certain moves first; otherwise greedy's move (Double
  Detector included), the exact ranking's next ``width - 1`` calls within the
  red cap and the best detector use are each played on the same ``deals``
  deals drawn exactly from the view's posterior (engines/sampling.py), each
  followed on a deal by the same seeded rollout: ``depth - 1`` further turns
  in which every player plays :func:`exact_move` from their own view of that
  deal (their wires and the public events, exact marginals; never the other
  hands).  A move's worth: its exact P(success) and P(failure) times the mean
  rollout value (win 1, loss 0, unfinished :func:`leaf_value`) of the deals
  where it succeeded / failed; a red cut is worth 0.  Greedy's move stays
  unless another's gain exceeds ``z`` paired standard errors (common random
  numbers make the paired error far smaller than the two errors apart).
  Budget: deals × (candidates) rollouts of ``depth`` turns, one analysis per
  rollout turn.

Setup tokens: ``random`` points at a random blue wire; the others at the blue
wire nearest the middle of their longest stand (leftmost on a tie): it bounds
the most neighbours by the stand's order, with no engine run.
"""
from __future__ import annotations

import math
import random

from ..engines import columns
from ..engines.sampling import sample_table as sample
from ..facts import compile_table
from ..record import Record
from ..suggest import Policy as Ranking, suggest
from ..table import Table, load_table
from ..wires import RED, Key, Value, parse_key, value_of
from .game import Action, DoubleDetector, DualCut, Game, RevealRed, Slot, SoloCut

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RED_CAP = 0.05


class View:
    """One player's table file and what follows from it without an engine."""

    def __init__(self, raw: dict[str, Any], player: int):
        self.raw, self.player = raw, player
        self._table: Table | None = None

    @property
    def table(self) -> Table:
        if self._table is None:
            self._table = load_table(self.raw)
        return self._table

    def hand(self) -> list[tuple[Slot, Key]]:
        return [((self.player, s, j), parse_key(k)) for s, row in enumerate(self.raw["me"]["stands"])
                for j, k in enumerate(row)]

    def cut(self) -> set[Slot]:
        return {(c.player, c.stand, c.slot) for c in self.table.cut_slots()}

    def my_uncut(self) -> list[tuple[Slot, Key]]:
        cut = self.cut()
        return [(x, k) for x, k in self.hand() if x not in cut]

    def teammates_uncut(self) -> list[Slot]:
        cut = self.cut()
        return [(p, s, j) for p, pl in enumerate(self.raw["players"]) if p != self.player
                for s, size in enumerate(pl["stands"]) for j in range(size) if (p, s, j) not in cut]

    def has_detector(self) -> bool:
        if "no_double_detector" in self.raw.get("meta", {}).get("rules", ()):
            return False
        return not any(e["type"] == "detector" and e["actor"] == self.player for e in self.raw["events"])

    def tags(self) -> frozenset[str]:
        return frozenset(self.raw.get("meta", {}).get("rules", ()))


def _slot(ref: dict[str, int]) -> Slot:
    return ref["player"], ref["stand"], ref["slot"]


def action_of(suggestion: dict[str, Any], player: int) -> Action:
    """The game action of one suggest.py suggestion (JSON)."""
    kind = suggestion["kind"]
    if kind == "dual_cut":
        return DualCut(_slot(suggestion["target"]), suggestion["value"])
    if kind == "double_detector":
        a, b = (_slot(t) for t in suggestion["targets"])
        return DoubleDetector((a, b), suggestion["value"])
    if kind == "solo_cut":
        return SoloCut(suggestion["value"])
    if kind == "reveal_red":
        return RevealRed(player)
    raise ValueError(f"no game action for a {kind} suggestion")


def middle_token(view: View) -> Slot:
    """The blue wire nearest the middle of the player's longest stand (leftmost on a tie)."""
    mine = view.hand()
    stands = sorted({x[1] for x, _ in mine}, key=lambda s: -sum(1 for x, _ in mine if x[1] == s))
    for s in stands:
        blue = [(x, k) for x, k in mine if x[1] == s and k % 10 == 0]
        if blue:
            size = sum(1 for x, _ in mine if x[1] == s)
            return min(blue, key=lambda xk: (abs(2 * xk[0][2] - (size - 1)), xk[0][2]))[0]
    raise ValueError("no blue wire to put a token on")


class BasePolicy:
    """The interface: a name, a setup-token choice and a move, from the player's view only."""

    name = "base"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def setup_token(self, view: View) -> Slot:
        return middle_token(view)

    def move(self, view: View) -> Action:
        raise NotImplementedError


class RandomPolicy(BasePolicy):
    name = "random"

    def setup_token(self, view: View) -> Slot:
        return self.rng.choice([x for x, k in view.hand() if k % 10 == 0])

    def move(self, view: View) -> Action:
        mine = view.my_uncut()
        values = sorted({value_of(k) for _, k in mine if value_of(k) != RED}, key=str)
        targets = view.teammates_uncut()
        if values and targets:
            return DualCut(self.rng.choice(targets), self.rng.choice(values))
        if values:  # nobody else has a wire left: every remaining wire is mine
            return SoloCut(values[0])
        return RevealRed(view.player)


class SuggestPolicy(BasePolicy):
    """The first move of suggest.py's list (mode and probabilities as given)."""

    mode, probabilities, use_detector = "exact", "exact", True

    def ranking(self, view: View, equipment: tuple[str, ...]) -> list[dict[str, Any]]:
        policy = Ranking(red_cap=RED_CAP, seed=self.rng.randrange(2**31), equipment=equipment)
        out = suggest(view.table, player=view.player, mode=self.mode, probabilities=self.probabilities,
                      policy=policy)
        return out["suggestions"]

    def move(self, view: View) -> Action:
        detector = self.use_detector and view.has_detector()
        ranked = self.ranking(view, ("double_detector",) if detector else ())
        return action_of(choice(ranked), view.player)


def choice(ranked: list[dict[str, Any]]) -> dict[str, Any]:
    """The list's first move, or the best Double Detector use when it is likelier to succeed."""
    first = ranked[0]
    if not first["certain"]:
        best = next((s for s in ranked if s["kind"] == "double_detector" and s["p_red"] <= RED_CAP), None)
        if best is not None and best["p_success"] > first["p_success"]:
            return best
    return first


class GreedyPolicy(SuggestPolicy):
    name = "greedy"


class KeepDetectorPolicy(SuggestPolicy):
    """Greedy that keeps its Double Detector for a turn when the best call risks red."""

    name = "greedy-keep-detector"

    def move(self, view: View) -> Action:
        ranked = self.ranking(view, ("double_detector",) if view.has_detector() else ())
        return action_of(keep_detector_choice(ranked), view.player)


def keep_detector_choice(ranked: list[dict[str, Any]]) -> dict[str, Any]:
    """The best call (the list's first move that is not a detector use) unless it risks red; then
    the detector use least likely to explode (a Double Detector explodes only when both wires are
    red: rules.md), likelier to succeed on a tie, when it is safer than the call."""
    call = next(s for s in ranked if s["kind"] != "double_detector")
    if call["certain"] or call["p_red"] == 0:
        return call
    safer = [s for s in ranked if s["kind"] == "double_detector" and s["p_red"] < call["p_red"]]
    return min(safer, key=lambda s: (s["p_red"], -s["p_success"])) if safer else call


class EntropySeedPolicy(SuggestPolicy):
    name, mode, probabilities, use_detector = "entropy-seed", "entropy", "seed", False


class EntropyExactPolicy(SuggestPolicy):
    name, mode, probabilities, use_detector = "entropy-exact", "entropy", "exact", False


# ---------------------------------------------------------------- lookahead


def exact_move(game: Game, rng: random.Random, red_cap: float = RED_CAP) -> Action:
    """The rollout policy: greedy from the mover's own view of ``game`` with exact marginals.

    One columns analysis of the mover's table file (their own wires in the
    rollout's deal plus the public events; never the other hands): reveal
    reds or a solo cut when certain, else the call with the highest exact
    P(success) within the red cap.  The Double Detector (while the mover has
    it) on a teammate stand's two likeliest wires of a value when its success
    odds beat the best call's; those odds read the two wires as independent
    (1 - (1 - p1)(1 - p2)), an estimate that only steers the rollout — one
    analysis per turn, no joint (suggest.py computes the exact joint for the
    decision itself).
    """
    p = game.turn
    held = sorted({value_of(game.key(x)) for x in game.uncut(p)} - {RED}, key=str)
    if not held:
        return RevealRed(p)
    table = load_table(game.table(p))
    # A legal game's analysis is far below any work budget: skip its estimate (a tenth of a rollout).
    b, board, deck = columns.analyze(compile_table(table), math.inf), table.board(), table.deck
    keys = {v: deck.keys_of_value(v) for v in held}
    reds = deck.keys_of_value(RED)
    possible: set[Value] = set()
    best: tuple[tuple[Any, ...], Action] | None = None
    pairs: list[tuple[float, Action]] = []
    detector = "no_double_detector" not in game.tags and p not in game.detectors_used
    for q in range(game.players):
        if q == p:
            continue
        stand_best: dict[tuple[int, Value], list[tuple[float, Slot]]] = {}
        for x in game.uncut(q):
            probs = b.probabilities(board.wire(*x))
            risk = sum(w for k, w in probs.items() if k in reds)
            for v in held:
                pv = sum(w for k, w in probs.items() if k in keys[v])
                if pv <= 0:
                    continue
                possible.add(v)
                score = (risk <= red_cap, pv, -risk, rng.random())
                if best is None or score > best[0]:
                    best = (score, DualCut(x, v))
                if detector and isinstance(v, int):
                    stand_best.setdefault((x[1], v), []).append((pv, x))
        for (_, v), hits in stand_best.items():
            if len(hits) > 1:
                (p1, a), (p2, c) = sorted(hits, reverse=True)[:2]
                pairs.append((1 - (1 - p1) * (1 - p2), DoubleDetector(tuple(sorted((a, c))), v)))
    for v in held:
        if v not in possible:
            return SoloCut(v)
    assert best is not None  # a value held and possible somewhere
    if pairs and best[0][1] < 1:
        p_pair, pair = max(pairs, key=lambda t: t[0])
        if p_pair > best[0][1]:
            return pair
    return best[1]


def leaf_value(game: Game) -> float:
    """An unfinished rollout's worth: half the share of wires cut, half the detonator's margin."""
    wires = sum(len(row) for rows in game.hands for row in rows)
    return 0.5 * len(game.cut) / wires + 0.5 * (game.players - game.strikes) / game.players


def outcome_value(game: Game) -> float:
    if game.result == "win":
        return 1.0
    if game.result is not None:
        return 0.0
    return leaf_value(game)


# Default budget of a lookahead decision (CPython on this machine: bench/bench_sim.py).
DEALS, DEPTH, WIDTH, Z = 16, 4, 3, 1.0


class Decision(Record):
    """A lookahead decision: the move, its suggestion (JSON), the deals drawn, every candidate's estimate."""

    __slots__ = ("action", "suggestion", "deals", "candidates")
    action: Action
    suggestion: dict[str, Any]
    deals: int
    candidates: list[dict[str, Any]]  # suggestion JSON + "worth", "gain" (over greedy's move) and its "se"

    def __init__(self, action: Action, suggestion: dict[str, Any], deals: int, candidates: list[dict[str, Any]]):
        super().__init__(action, suggestion, deals, candidates)


class LookaheadPolicy(SuggestPolicy):
    """Greedy's candidates replayed on exactly sampled deals (module docstring)."""

    name = "lookahead"

    def __init__(self, rng: random.Random, deals: int = DEALS, depth: int = DEPTH, width: int = WIDTH,
                 z: float = Z):
        super().__init__(rng)
        if deals < 1 or depth < 1 or width < 1:
            raise ValueError("lookahead: deals, depth and width must be at least 1")
        self.deals, self.depth, self.width, self.z = deals, depth, width, z

    def move(self, view: View) -> Action:
        return self.decide(view).action

    def decide(self, view: View) -> Decision:
        detector = view.has_detector()
        ranked = self.ranking(view, ("double_detector",) if detector else ())
        base = choice(ranked)
        if base["certain"]:
            return Decision(action_of(base, view.player), base, 0, [])
        safe = [s for s in ranked if s is not base and s["p_red"] <= RED_CAP]
        chosen = [base] + [s for s in safe if s["kind"] == "dual_cut"][: self.width - 1]
        chosen += [s for s in safe if s["kind"] == "double_detector"][:1]
        if len(chosen) == 1:
            return Decision(action_of(base, view.player), base, 0, [])
        actions = [action_of(s, view.player) for s in chosen]
        values = self.rollouts(view, actions)
        (score0, _), *_ = estimates = [_stratified(s, v) for s, v in zip(chosen, values)]
        rows, best, gain = [], 0, 0.0
        for i, (s, (score, _)) in enumerate(zip(chosen, estimates)):
            se = _paired_se(chosen[0], values[0], s, values[i]) if i else 0.0
            rows.append({**s, "worth": score, "gain": score - score0, "se": se})
            # Greedy's move stays unless another's gain clears z paired standard errors:
            # the largest of several noisy estimates flatters its move.
            if i and score - score0 > self.z * se and score - score0 > gain:
                best, gain = i, score - score0
        return Decision(actions[best], rows[best], self.deals, rows)

    def rollouts(self, view: View, actions: list[Action]) -> list[list[tuple[str, float]]]:
        """Per action, per sampled deal: (its immediate outcome, the rollout's value).

        Common random numbers: every action meets the same deals and, on each
        deal, the same rollout seed (paired comparison).  The deals come from
        the view's exact posterior; after the action each player in turn plays
        :func:`exact_move` from their own view of the imagined deal for
        ``depth - 1`` turns; an unfinished game is worth :func:`leaf_value`.
        """
        deals = sample(view.table, self.deals, self.rng)
        seeds = [self.rng.randrange(2**31) for _ in deals]
        tags = view.tags()
        out: list[list[tuple[str, float]]] = [[] for _ in actions]
        for deal, seed in zip(deals, seeds):
            stands = [[parse_key(k) for k in row] for row in deal["stands"]]
            for i, action in enumerate(actions):
                rng = random.Random(seed)
                game = Game.restore(view.raw, stands, view.player, rng, tags)
                game.play(action)
                if game.result == "red":
                    out[i].append(("red", 0.0))
                    continue
                outcome = "success" if game.events[-1]["success"] else "failure"
                for _ in range(self.depth - 1):
                    if game.over:
                        break
                    game.play(exact_move(game, rng))
                out[i].append((outcome, outcome_value(game)))
        return out


def _weights(suggestion: dict[str, Any]) -> dict[str, float]:
    """The exact probabilities of a move's immediate outcomes."""
    p_success, p_red = suggestion["p_success"], suggestion["p_red"]
    return {"success": p_success, "failure": max(0.0, 1.0 - p_success - p_red), "red": p_red}


def _strata(values: list[tuple[str, float]]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for outcome, v in values:
        out.setdefault(outcome, []).append(v)
    return out


def _stratified(suggestion: dict[str, Any], values: list[tuple[str, float]]) -> tuple[float, dict[str, float]]:
    """E[value] = sum over outcomes of its exact probability times the rollouts' mean in it (a red
    cut is worth 0; deals of the posterior that fall in an outcome are draws from the posterior
    given it), and the mean used per outcome.  An outcome no deal fell in takes all rollouts' mean."""
    strata = _strata(values)
    pooled = sum(v for _, v in values) / len(values)
    means = {o: (sum(strata[o]) / len(strata[o]) if o in strata else pooled) for o in ("success", "failure")}
    means["red"] = 0.0
    return sum(w * means[o] for o, w in _weights(suggestion).items()), means


def _paired_se(sa: dict[str, Any], va: list[tuple[str, float]], sb: dict[str, Any],
               vb: list[tuple[str, float]]) -> float:
    """Standard error of value(b) - value(a) over the same deals (delta method): each deal's
    contribution to a stratified mean, centred, differenced between the two moves."""
    def contributions(s: dict[str, Any], values: list[tuple[str, float]]) -> list[float]:
        weights, (_, means), strata = _weights(s), _stratified(s, values), _strata(values)
        return [weights[o] * (v - means[o]) / len(strata[o]) if o != "red" else 0.0 for o, v in values]

    ca, cb = contributions(sa, va), contributions(sb, vb)
    return math.sqrt(sum((b - a) ** 2 for a, b in zip(ca, cb)))


POLICIES: dict[str, type[BasePolicy]] = {cls.name: cls for cls in (
    RandomPolicy, GreedyPolicy, KeepDetectorPolicy, EntropySeedPolicy, EntropyExactPolicy, LookaheadPolicy)}
