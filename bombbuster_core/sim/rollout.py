"""The rollout policy: greedy from the mover's own view with exact marginals, one analysis a turn.

The lookahead's rollouts and ismcts's playouts play :func:`exact_move` for every player from their
own view of the deal played on (their wires and the public events, exact marginals; never the
other hands); :func:`outcome_value` scores where a rollout stops.
"""
from __future__ import annotations

import math

from ..engines import columns
from ..facts import compile_table
from ..table import load_table
from ..wires import RED, Value
from .actions import DoubleDetector, DualCutAction, RevealRedAction, SoloCutAction
from .greedy import GreedyPolicy
from .view import RED_CAP, View

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random
    from typing import Any, Callable

    from .actions import Action, Slot
    from .game import Game


def exact_move(game: Game, rng: random.Random, red_cap: float = RED_CAP) -> Action:
    """The rollout policy: greedy from the mover's own view of ``game`` with exact marginals
    (the first of :func:`exact_moves`)."""
    return exact_moves(game, rng, 1, red_cap)[0]


def exact_moves(game: Game, rng: random.Random, width: int, red_cap: float = RED_CAP) -> list[Action]:
    """The rollout policy's ``width`` best moves, best first, from the mover's own view of ``game``.

    One columns analysis of the mover's table file (their own wires in the
    rollout's deal plus the public events; never the other hands): reveal
    reds or a solo cut when certain, else the call with the highest exact
    P(success) within the red cap.  The Double Detector (while the mover has
    it) on a teammate stand's two likeliest wires of a value when its success
    odds beat the best call's; those odds read the two wires as independent
    (1 - (1 - p1)(1 - p2)), an estimate that only steers the rollout — one
    analysis per turn, no joint (suggest computes the exact joint for the
    decision itself).  The other moves: the next calls by the same score (within the red cap
    first, then likelier, then less red risk), and the best detector use when it does not come first.

    A mission's rules: only the moves its pending decision allows (the values, targets, solo cuts,
    reveal and detector it lists; in the base game that is every move above, so its rollouts are
    unchanged); when none is left (a forced or special action, a restricted turn) and at a choice,
    the mover plays greedy's move from their own view.
    """
    p = game.turn
    d = game.queue[0]
    if d["kind"] != "turn":
        return [GreedyPolicy(rng).move(View(game.table(p), p))]
    legal = _legal_in(game, d)
    moves = [a for a in _rollout_moves(game, rng, width, red_cap) if legal(a)]
    return moves[:width] if moves else [GreedyPolicy(rng).move(View(game.table(p), p))]


def _legal_in(game: Game, d: dict[str, Any]) -> Callable[[Action], bool]:
    """Whether a call, Double Detector, solo cut or reveal is allowed by the turn decision ``d`` (as
    Game.is_legal: a detector never points at an X or flipped wire)."""
    values, solo, targets = set(d["values"]), set(d["solo"]), {tuple(t) for t in d["targets"]}

    def legal(a: Action) -> bool:
        if isinstance(a, DualCutAction):
            return a.value in values and a.target in targets
        if isinstance(a, DoubleDetector):
            return d["detector"] and a.value in values and all(t in targets and not game.special.get(t)
                                                               for t in a.targets)
        if isinstance(a, SoloCutAction):
            return a.value in solo
        return isinstance(a, RevealRedAction) and d["reveal"]

    return legal


def _rollout_moves(game: Game, rng: random.Random, width: int, red_cap: float) -> list[Action]:
    """:func:`exact_moves` before the turn's limits: from the mover's visible wires and their view."""
    p = game.turn
    held = sorted({game.gameplay(game.key(x)) for x in game.cuttable(p)} - {RED}, key=str)
    if not held:
        return [RevealRedAction(p)]
    table = load_table(game.table(p))
    # A legal game's analysis is far below any work budget: skip its estimate (a tenth of a rollout).
    b, board, deck = columns.analyze(compile_table(table), math.inf), table.board(), table.deck
    keys = {v: deck.keys_of_value(v) for v in held}
    reds = deck.keys_of_value(RED)
    possible: set[Value] = set()
    calls: list[tuple[tuple[Any, ...], Action]] = []
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
                calls.append(((risk <= red_cap, pv, -risk, rng.random()), DualCutAction(x, v)))
                if detector and isinstance(v, int):
                    stand_best.setdefault((x[1], v), []).append((pv, x))
        for (_, v), hits in stand_best.items():
            if len(hits) > 1:
                (p1, a), (p2, c) = sorted(hits, reverse=True)[:2]
                pairs.append((1 - (1 - p1) * (1 - p2), DoubleDetector(tuple(sorted((a, c))), v)))
    for v in held:
        if v not in possible:
            return [SoloCutAction(v)]
    calls.sort(key=lambda t: t[0], reverse=True)  # stable: the first of equal scores stays first
    moves = [a for _, a in calls]  # not empty: a value held is possible somewhere
    if pairs and calls[0][0][1] < 1:
        p_pair, pair = max(pairs, key=lambda t: t[0])
        moves.insert(0 if p_pair > calls[0][0][1] else min(width - 1, len(moves)), pair)
    return moves


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
