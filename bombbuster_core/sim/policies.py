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
* ``lookahead``: certain moves first; otherwise the top ``width`` calls of the
  exact ranking (and the best Double Detector use) are each played on
  ``deals`` deals drawn exactly from the view's posterior (sim/sample.py), then
  ``depth - 1`` further turns by the cheap :func:`heuristic_move` for every
  player; the move with the best mean outcome wins (win 1, loss 0, an
  unfinished game :func:`leaf_value`), ties to the exact ranking's order.
  Budget: deals × (width + 1) rollouts of ``depth`` turns per decision.

Setup tokens: ``random`` points at a random blue wire; the others at the blue
wire nearest the middle of their longest stand (leftmost on a tie): it bounds
the most neighbours by the stand's order, with no engine run.
"""
from __future__ import annotations

import random

from ..suggest import Policy as Ranking, suggest
from ..table import Table, load_table
from ..wires import RED, YELLOW, Key, Value, parse_key, value_of
from .game import Action, DoubleDetector, DualCut, Game, RevealRed, Slot, SoloCut
from .sample import sample

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
        first = ranked[0]
        if not first["certain"]:
            best = next((s for s in ranked if s["kind"] == "double_detector" and s["p_red"] <= RED_CAP), None)
            if best is not None and best["p_success"] > first["p_success"]:
                return action_of(best, view.player)
        return action_of(first, view.player)


class GreedyPolicy(SuggestPolicy):
    name = "greedy"


class EntropySeedPolicy(SuggestPolicy):
    name, mode, probabilities, use_detector = "entropy-seed", "entropy", "seed", False


class EntropyExactPolicy(SuggestPolicy):
    name, mode, probabilities, use_detector = "entropy-exact", "entropy", "exact", False


# ---------------------------------------------------------------- lookahead


def _in_play(wires: dict[str, Any]) -> dict[Value, int]:
    """Wires in play per gameplay value (pools count their k)."""
    out: dict[Value, int] = {}
    if "deck" in wires:
        for k, n in wires["deck"].items():
            v = value_of(parse_key(k))
            out[v] = out.get(v, 0) + n
        return out
    for v in wires["blue"]:
        out[v] = 4
    for name in (YELLOW, RED):
        out[name] = len(wires.get(name, []))
    for pool in wires.get("uncertain", []):
        v = value_of(parse_key(pool["candidates"][0]))
        out[v] = out.get(v, 0) + pool["count"]
    return out


def heuristic_move(game: Game, rng: random.Random, red_cap: float = RED_CAP) -> Action:
    """A cheap move for the player to move from public facts and their own hand (no engine run).

    Public facts: cut wires' keys, tokens (a wire's true value) and failed
    calls ("not v").  A teammate wire's possible keys lie between its nearest
    known neighbours on the stand; P(it is v) is estimated as the copies of v
    the player cannot account for, over those of every value possible there.
    Certain moves first (reveal reds, solo cuts, a call on a token the player
    holds), then the likeliest call within the red cap.
    """
    p = game.turn
    mine = [(x, game.key(x)) for x in game.uncut(p)]
    if all(value_of(k) == RED for _, k in mine):
        return RevealRed(p)
    total = _in_play(game.setup["wires"])
    seen: dict[Value, int] = {}
    for x in game.cut:
        v = value_of(game.key(x))
        seen[v] = seen.get(v, 0) + 1
    for _, k in mine:
        seen[value_of(k)] = seen.get(value_of(k), 0) + 1
    held = {value_of(k) for _, k in mine} - {RED}
    for v in sorted(held, key=str):
        if seen[v] == total.get(v, 0):
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
    unseen = {v: n - seen.get(v, 0) - sum(1 for x, w in token.items() if w == v and x not in game.cut)
              for v, n in total.items()}
    best: tuple[tuple[Any, ...], Action] | None = None
    for q in range(game.players):
        if q == p:
            continue
        for s, row in enumerate(game.hands[q]):
            bounds = []
            for j in range(len(row)):
                x = (q, s, j)
                if x in game.cut:
                    bounds.append((row[j], row[j]))
                elif x in token:
                    v = token[x]
                    bounds.append((10 * v, 10 * v) if isinstance(v, int) else (11, 1000))
                else:
                    bounds.append(None)
            for j in range(len(row)):
                x = (q, s, j)
                if x in game.cut:
                    continue
                if x in token:
                    if token[x] in held:
                        return DualCut(x, token[x])
                    continue
                lo = max((b[0] for b in bounds[:j] if b is not None), default=0)
                hi = min((b[1] for b in bounds[j + 1:] if b is not None), default=10**6)
                weight: dict[Value, float] = {}
                for v, n in unseen.items():
                    if n > 0 and (v in (YELLOW, RED) or lo <= 10 * v <= hi) and v not in not_v.get(x, ()):
                        weight[v] = n
                den = sum(weight.values())
                if not den:
                    continue
                risk = weight.get(RED, 0) / den
                for v in held:
                    if v in weight:
                        score = (risk <= red_cap, weight[v] / den, -risk, rng.random())
                        if best is None or score > best[0]:
                            best = (score, DualCut(x, v))
    if best is not None:
        return best[1]
    targets = [x for q in range(game.players) if q != p for x in game.uncut(q)]
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

    def __init__(self, rng: random.Random, deals: int = 6, depth: int = 6, width: int = 4):
        super().__init__(rng)
        self.deals, self.depth, self.width = deals, depth, width

    def move(self, view: View) -> Action:
        detector = view.has_detector()
        ranked = self.ranking(view, ("double_detector",) if detector else ())
        if ranked[0]["certain"]:
            return action_of(ranked[0], view.player)
        calls = [s for s in ranked if s["kind"] == "dual_cut"][: self.width]
        candidates = [action_of(s, view.player) for s in calls]
        candidates += [action_of(s, view.player) for s in ranked
                       if s["kind"] == "double_detector" and s["p_red"] <= RED_CAP][:1]
        if len(candidates) == 1:
            return candidates[0]
        deals = sample(view.table, self.deals, self.rng)
        seeds = [self.rng.randrange(2**31) for _ in deals]
        tags = view.tags()
        scores = [0.0] * len(candidates)
        for deal, seed in zip(deals, seeds):
            stands = [[parse_key(k) for k in row] for row in deal["stands"]]
            for i, action in enumerate(candidates):
                rng = random.Random(seed)  # the same teammates' choices for every candidate
                game = Game.restore(view.raw, stands, view.player, rng, tags)
                game.play(action)
                for _ in range(self.depth - 1):
                    if game.over:
                        break
                    game.play(heuristic_move(game, rng))
                scores[i] += outcome_value(game)
        best = max(range(len(candidates)), key=lambda i: (scores[i], -i))
        return candidates[best]


POLICIES: dict[str, type[BasePolicy]] = {cls.name: cls for cls in (
    RandomPolicy, GreedyPolicy, EntropySeedPolicy, EntropyExactPolicy, LookaheadPolicy)}
