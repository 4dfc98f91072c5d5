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
* ``entropy-seed`` / ``entropy-exact``: suggest.py's entropy mode (the
  reference suggester) with P(success) of a branch 1/k or exact.
* ``lookahead``: certain moves first; otherwise greedy's move, the exact
  ranking's next ``width - 1`` calls within the red cap and the best Double
  Detector use are each played on ``deals`` deals drawn exactly from the view's
  posterior (engines/sampling.py), then ``depth - 1`` further turns by the cheap
  :func:`heuristic_move` for every player.  A move's worth is its exact
  P(success) and P(failure) times the mean rollout outcome (win 1, loss 0, an
  unfinished game :func:`leaf_value`) of the deals where it succeeded / failed;
  a red cut is worth 0 with its exact probability.  Greedy's move is kept
  unless another's worth exceeds it by ``z`` standard errors (the
  estimates of a few rollouts are noisy, and the largest of noisy estimates
  flatters its move); then the largest gain wins.  Budget: deals × (width + 1)
  rollouts of ``depth`` turns per decision.

Setup tokens: ``random`` points at a random blue wire; the others at the blue
wire nearest the middle of their longest stand (leftmost on a tie): it bounds
the most neighbours by the stand's order, with no engine run.
"""
from __future__ import annotations

import math
import random
from math import comb

from ..suggest import Policy as Ranking, suggest
from ..table import Table, load_table
from ..wires import RED, YELLOW, Key, Value, parse_key, value_of
from .game import Action, DoubleDetector, DualCut, Game, RevealRed, Slot, SoloCut
from ..engines.sampling import sample_table as sample

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


class EntropySeedPolicy(SuggestPolicy):
    name, mode, probabilities, use_detector = "entropy-seed", "entropy", "seed", False


class EntropyExactPolicy(SuggestPolicy):
    name, mode, probabilities, use_detector = "entropy-exact", "entropy", "exact", False


# ---------------------------------------------------------------- lookahead


def _copies(wires: dict[str, Any]) -> dict[Key, int]:
    """Tiles per sort key that may be in play (every pool candidate once)."""
    if "deck" in wires:
        return {parse_key(k): n for k, n in wires["deck"].items()}
    out = {10 * v: 4 for v in wires["blue"]}
    for k in wires.get(YELLOW, []) + wires.get(RED, []) + [c for pool in wires.get("uncertain", [])
                                                             for c in pool["candidates"]]:
        out[parse_key(k)] = 1
    return out


def _rank_odds(i: int, m: int, size: int) -> list[float]:
    """P(the i-th smallest (0-based) of m tiles drawn from ``size`` sorted tiles is the r-th), r = 0..size-1."""
    total = comb(size, m)
    return [comb(r, i) * comb(size - 1 - r, m - 1 - i) / total for r in range(size)]


def heuristic_move(game: Game, rng: random.Random, red_cap: float = RED_CAP) -> Action:
    """A cheap move for the player to move from public facts and their own hand (no engine run).

    Public facts: cut wires' keys, tokens (a wire's true value) and failed
    calls ("not v").  The m hidden wires between two known wires of a stand
    are read as a sorted draw of m of the tiles the player cannot account for
    whose keys lie between those two: the i-th hidden wire is that draw's i-th
    order statistic (hypergeometric rank odds), which ignores what other
    stands say.  Certain moves first (reveal reds, solo cuts, a call on a token
    the player holds), then the likeliest call within the red cap.
    """
    p = game.turn
    mine = [(x, game.key(x)) for x in game.uncut(p)]
    if all(value_of(k) == RED for _, k in mine):
        return RevealRed(p)
    unseen = _copies(game.setup["wires"])
    for x in list(game.cut) + [x for x, _ in mine]:
        unseen[game.key(x)] -= 1
    held = {value_of(k) for _, k in mine} - {RED}
    for v in sorted(held, key=str):
        if not any(n > 0 for k, n in unseen.items() if value_of(k) == v):
            return SoloCut(v)
    token: dict[Slot, Value] = {}
    not_v: dict[Slot, set[Value]] = {}
    for e in game.events:
        if e["type"] == "info_token":
            token[_slot(e["at"])] = e["value"]
        elif e["type"] in ("dual_cut", "detector") and not e["success"]:
            at = _slot(e["target"] if e["type"] == "dual_cut" else e["token_at"])
            token[at] = e["token"]
            for t in ([e["target"]] if e["type"] == "dual_cut" else e["targets"]):
                not_v.setdefault(_slot(t), set()).add(e["value"])
    for x, v in token.items():
        if x not in game.cut and isinstance(v, int) and x[0] != p:
            unseen[10 * v] -= 1
    pool = sorted(k for k, n in unseen.items() for _ in range(max(n, 0)))
    best: tuple[tuple[Any, ...], Action] | None = None
    for q in range(game.players):
        if q == p:
            continue
        for s, row in enumerate(game.hands[q]):
            anchors = [(-1, 0, 0)]  # (slot, lowest key, highest key) of the known wires, with two sentinels
            for j in range(len(row)):
                x = (q, s, j)
                if x in game.cut:
                    anchors.append((j, row[j], row[j]))
                elif x in token:
                    v = token[x]
                    if v in held:
                        return DualCut(x, v)
                    anchors.append((j, 10 * v, 10 * v) if isinstance(v, int) else (j, 11, 10**6))
            anchors.append((len(row), 10**6, 10**6))
            for (a, _, lo), (b, hi, _) in zip(anchors, anchors[1:]):
                m = b - a - 1
                inside = [k for k in pool if lo <= k <= hi]
                if not m or len(inside) < m:
                    continue
                for i in range(m):
                    x = (q, s, a + 1 + i)
                    odds: dict[Value, float] = {}
                    for k, w in zip(inside, _rank_odds(i, m, len(inside))):
                        if w and value_of(k) not in not_v.get(x, ()):
                            odds[value_of(k)] = odds.get(value_of(k), 0.0) + w
                    den = sum(odds.values())
                    if not den:
                        continue
                    risk = odds.get(RED, 0.0) / den
                    for v in held & odds.keys():
                        score = (risk <= red_cap, odds[v] / den, -risk, rng.random())
                        if best is None or score > best[0]:
                            best = (score, DualCut(x, v))
    if best is not None:
        return best[1]
    targets = [x for q in range(game.players) if q != p for x in game.uncut(q)]
    if not targets:  # every wire left is mine
        return SoloCut(sorted(held, key=str)[0])
    return DualCut(rng.choice(targets), rng.choice(sorted(held, key=str)))


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


class LookaheadPolicy(SuggestPolicy):
    name = "lookahead"

    def __init__(self, rng: random.Random, deals: int = 8, depth: int = 10, width: int = 4, z: float = 2.0):
        super().__init__(rng)
        self.deals, self.depth, self.width, self.z = deals, depth, width, z

    def move(self, view: View) -> Action:
        detector = view.has_detector()
        ranked = self.ranking(view, ("double_detector",) if detector else ())
        if ranked[0]["certain"]:
            return action_of(ranked[0], view.player)
        base = choice(ranked)
        chosen = [base] + [s for s in ranked if s is not base and s["kind"] == "dual_cut"
                           and s["p_red"] <= RED_CAP][: self.width - 1]
        chosen += [s for s in ranked if s is not base and s["kind"] == "double_detector"
                   and s["p_red"] <= RED_CAP][:1]
        if len(chosen) == 1:
            return action_of(chosen[0], view.player)
        candidates = [action_of(s, view.player) for s in chosen]
        deals = sample(view.table, self.deals, self.rng)
        seeds = [self.rng.randrange(2**31) for _ in deals]
        tags = view.tags()
        # Per candidate and immediate outcome (success / failure): the rollout values.
        strata: list[dict[bool, list[float]]] = [{True: [], False: []} for _ in candidates]
        for deal, seed in zip(deals, seeds):
            stands = [[parse_key(k) for k in row] for row in deal["stands"]]
            for i, action in enumerate(candidates):
                rng = random.Random(seed)  # the same teammates' choices for every candidate
                game = Game.restore(view.raw, stands, view.player, rng, tags)
                game.play(action)
                if game.result == "red":
                    continue  # weighted by the exact P(red) below
                stratum = strata[i][game.events[-1]["success"]]
                for _ in range(self.depth - 1):
                    if game.over:
                        break
                    game.play(heuristic_move(game, rng))
                stratum.append(outcome_value(game))
        (first, first_se), *others = [_stratified(s, row) for s, row in zip(chosen, strata)]
        # Leave greedy's move only for a gain the rollouts show clearly: the largest of
        # several noisy estimates flatters its move.
        best, gain = 0, 0.0
        for i, (score, se) in enumerate(others, 1):
            if score - first > self.z * math.hypot(se, first_se) and score - first > gain:
                best, gain = i, score - first
        return candidates[best]


def _stratified(suggestion: dict[str, Any], strata: dict[bool, list[float]]) -> tuple[float, float]:
    """E[value] = P(success) E[value | success] + P(failure) E[value | failure] (a red cut is worth 0)
    and its standard error, with the exact probabilities and the rollouts' conditional means
    (deals drawn from the posterior that fall in an outcome are draws from the posterior given
    it).  An outcome no deal fell in takes the other's values."""
    filled = {o: values for o, values in strata.items() if values}
    if not filled:
        return 0.0, 0.0
    pooled = [v for values in filled.values() for v in values]
    p = {True: suggestion["p_success"], False: max(0.0, 1.0 - suggestion["p_success"] - suggestion["p_red"])}
    score = variance = 0.0
    for outcome, weight in p.items():
        values = filled.get(outcome, pooled)
        mean = sum(values) / len(values)
        spread = sum((v - mean) ** 2 for v in values) / (len(values) - 1) if len(values) > 1 else 0.25
        score += weight * mean
        variance += weight * weight * spread / len(values)
    return score, math.sqrt(variance)


POLICIES: dict[str, type[BasePolicy]] = {cls.name: cls for cls in (
    RandomPolicy, GreedyPolicy, EntropySeedPolicy, EntropyExactPolicy, LookaheadPolicy)}
