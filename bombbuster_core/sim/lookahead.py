"""The ``lookahead`` policy: greedy's candidates replayed on deals drawn exactly from the view's posterior.

certain moves first; otherwise greedy's move (Double
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
rollout turn.  The rollouts replay the view's game (replay.Replay: the
view's state with its equipment board and its mission's rules); where it
cannot be rebuilt (replay.replay_refusal: hidden mission cards, or a
mission's table without the simulator's meta.sim) lookahead plays greedy;
its cards are greedy's.
"""
from __future__ import annotations

import math
import random

from ..engines.sampling import Sampler
from ..facts import compile_table
from ..record import Record
from .greedy import SuggestPolicy, choice, greedy_equipment, greedy_turn
from .replay import Replay, replay_refusal
from .rollout import exact_move, outcome_value
from .view import RED_CAP, View, action_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .actions import Action


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
    explain = True  # a decision's candidates are suggest's rows (the page shows them)

    # 2: greedy's choices from greedy's stream, the deals from search_rng (tournament.py); 3: greedy's
    # ranking and cards of issue 34 (SuggestPolicy.stakes)
    version = 4  # 4: greedy 3's ranking
    rng_stream = "greedy"

    def __init__(self, rng: random.Random, deals: int = DEALS, depth: int = DEPTH, width: int = WIDTH,
                 z: float = Z, search_rng: random.Random | None = None):
        super().__init__(rng)
        if deals < 1 or depth < 1 or width < 1:
            raise ValueError("lookahead: deals, depth and width must be at least 1")
        self.deals, self.depth, self.width, self.z = deals, depth, width, z
        self.search_rng = search_rng if search_rng is not None else rng  # the deals and rollout seeds

    def turn(self, view: View, pending: dict[str, Any] | None) -> Action:
        ranked = self.legal_ranking(view, pending)  # once, as greedy ranks: the same draws of greedy's stream
        use = greedy_equipment(view, pending, ranked, choice)
        if use is not None:
            return use  # the cards are greedy's: the search weighs calls and the Double Detector
        return self.decide(view, ranked).action

    def decide(self, view: View, ranked: list[dict[str, Any]] | None = None) -> Decision:
        """The best call or Double Detector use (module docstring), with every candidate's estimate;
        ``ranked``: the legal ranking when the caller has it."""
        pending = view.pending()
        if ranked is None:
            ranked = self.legal_ranking(view, pending)
        if replay_refusal(view.raw) is not None or (pending is not None and pending["kind"] != "turn"):
            # the rollouts cannot rebuild this game (hidden mission cards): greedy
            return Decision(greedy_turn(view, pending, ranked, choice, self.rng), {}, 0, [])
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
        (score0, _), *_ = estimates = [stratified(s, v) for s, v in zip(chosen, values)]
        rows, best, gain = [], 0, 0.0
        for i, (s, (score, _)) in enumerate(zip(chosen, estimates)):
            se = paired_se(chosen[0], values[0], s, values[i]) if i else 0.0
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
        deals = Sampler(compile_table(view.table)).sample(self.deals, self.search_rng)
        seeds = [self.search_rng.randrange(2**31) for _ in deals]
        # the view's whole state, the equipment board included (which detectors are spent, what each
        # card left): Game.restore alone reads the events, not what the cards did
        position = Replay(view.raw, view.table, view.player, view.tags())
        out: list[list[tuple[str, float]]] = [[] for _ in actions]
        for deal, seed in zip(deals, seeds):
            for i, action in enumerate(actions):
                rng = random.Random(seed)
                game = position.game(deal, rng)
                first = len(game.events)
                game.play(action)
                if game.result == "red":
                    out[i].append(("red", 0.0))
                    continue
                # the action's own event: the game may go on past it (the next player's skip, M26, M57)
                outcome = "success" if game.events[first]["success"] else "failure"
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


def stratified(suggestion: dict[str, Any], values: list[tuple[str, float]]) -> tuple[float, dict[str, float]]:
    """E[value] = sum over outcomes of its exact probability times the rollouts' mean in it (a red
    cut is worth 0; deals of the posterior that fall in an outcome are draws from the posterior
    given it), and the mean used per outcome.  An outcome no deal fell in takes all rollouts' mean."""
    strata = _strata(values)
    pooled = sum(v for _, v in values) / len(values)
    means = {o: (sum(strata[o]) / len(strata[o]) if o in strata else pooled) for o in ("success", "failure")}
    means["red"] = 0.0
    return sum(w * means[o] for o, w in _weights(suggestion).items()), means


def paired_se(sa: dict[str, Any], va: list[tuple[str, float]], sb: dict[str, Any],
               vb: list[tuple[str, float]]) -> float:
    """Standard error of value(b) - value(a) over the same deals (delta method): each deal's
    contribution to a stratified mean, centred, differenced between the two moves."""
    def contributions(s: dict[str, Any], values: list[tuple[str, float]]) -> list[float]:
        weights, (_, means), strata = _weights(s), stratified(s, values), _strata(values)
        return [weights[o] * (v - means[o]) / len(strata[o]) if o != "red" else 0.0 for o, v in values]

    ca, cb = contributions(sa, va), contributions(sb, vb)
    return math.sqrt(sum((b - a) ** 2 for a, b in zip(ca, cb)))
