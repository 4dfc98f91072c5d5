"""The lookahead policy's recommendation for one table file: the page's "Lookahead" mode.

:func:`lookahead` answers the worker bridge's ``lookahead`` method: the
table's ``me`` player decides from their own view, exactly as the
``lookahead`` policy of the tournament (lookahead.py), with a budget of
``deals`` sampled deals and rollouts of ``depth`` turns.  Its result has the
shape of suggest's JSON, so the page lists it like the other modes: the
chosen move first, then the other candidates by estimated value; each
candidate carries ``worth`` (its estimated worth: 1 a win, 0 a loss, an
unfinished rollout its leaf value), ``gain`` over greedy's move and the
paired standard error ``se`` of that gain; ``deals`` says how many deals the
decision drew (0 when a certain move or a single candidate needed none).

``work`` (optional) bounds the rollouts' work so that a phone answers in
time: each rollout turn is one analysis of a view about as large as the
table's, which costs about ``1 + states / STATES_PER_UNIT`` units (``states``:
the columns engine's estimate for the table, a few ms; the 1 is the fixed
cost of loading and compiling a view).  The deals drawn are then at most
``work / ((width + 1) (depth - 1) units)`` (at least 1): fewer on a
5-player start than late in a game.  The bound is a function of the table,
so the same request still gives the same answer.

A page's table is replayed as the base game and its equipment
(:func:`restored_view`: the dial, the board, moved wires, as in the
simulator's own view; a mission's own state is not in its events, so only the
simulator's own view, with ``meta.sim``, is searched in such a mission:
replay.replay_refusal), so a table it cannot replay is refused with a clear message (naming the event or rule), never
approximated: mission events (:data:`PLAYED_EVENTS`), X or flipped stands,
Nano, counts-as-red Number cards, rule tags outside ``game.SUPPORTED_TAGS``,
or no ``me``.
The same table, budget and seed give the same answer.
"""
from __future__ import annotations

import random

from ..analysis import analyze, beliefs
from ..beliefs import Inconsistent
from ..engines import columns
from ..engines.sampling import TableSampler
from ..facts import compile_table
from ..table import Table, load_table
from ..wires import parse_key
from ..missions import BASE_MISSIONS
from .actions import SimError
from .game import SUPPORTED_TAGS, Game
from .lookahead import DEALS, DEPTH, WIDTH, LookaheadPolicy
from .replay import Replay
from .refusals import Refusal
from .view import RED_CAP, View, own_tables

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

STATES_PER_UNIT = 2000  # bench/bench_sim.py: a view's analysis ~ (1 + states / 2000) x that of a small one
# The events the simulator plays in a base-game mission: the turns, and every card's (restored_view
# rebuilds the simulator's state after them: tests/test_search.py).
PLAYED_EVENTS = frozenset({"info_token", "dual_cut", "detector", "solo_cut", "reveal_red", "label", "radar",
                           "equipment", "move", "swap", "fast_pass", "disintegrator"})
# The page's bound: a phone answers within 10 s (budget figures: docs/results/lookahead-cost.md).
MAX_DEALS, MAX_DEPTH, MAX_WIDTH, MAX_WORK = 64, 8, 6, 100_000


def checked_fields(params: dict[str, Any], fields: set[str]) -> int:
    """Refuse a field not in ``fields`` and a missing table; returns the seed (default 0)."""
    unknown = sorted(set(params) - fields)
    if unknown:
        raise SimError(f"params: unknown field {unknown[0]!r}")
    if "table" not in params:
        raise SimError("params: missing field 'table'")
    seed = params.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SimError(f"params: field 'seed' must be a whole number, not {seed!r}")
    return seed


def count_param(params: dict[str, Any], name: str, default: int, top: int) -> int:
    value = params.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
        raise SimError(f"params: field {name!r} must be a whole number from 1 to {top}, not {value!r}")
    return value


def check_playable(raw: dict[str, Any], mode: str = "lookahead") -> None:
    """Refuse what the simulator cannot replay (module docstring); ``mode`` names the asker in the messages."""
    if not isinstance(raw.get("me"), dict):
        raise SimError(Refusal(f"{mode} decides for the table's 'me' player: the table needs 'me' (your own wires)",
                               "needs_me", mode=mode))
    for p, pl in enumerate(raw["players"]):
        if any(not isinstance(size, int) for size in pl["stands"]):
            raise SimError(Refusal(f"{mode}: player {p} has an X or flipped stand: a page's table of such a mission "
                                   "cannot be replayed (its events do not give the mission's state)", "stand_special",
                                   mode=mode, player=p))
    if raw.get("nano") or "counts_as_red" in raw["wires"]:
        raise SimError(Refusal(f"{mode}: a page's table with Nano or counts-as-red Number cards cannot be replayed "
                               "(its events do not give the mission's state)", "nano_or_counts_red", mode=mode))
    tags = sorted(set(raw.get("meta", {}).get("rules", ())) - SUPPORTED_TAGS)
    if tags:
        raise SimError(Refusal(f"{mode}: the simulator does not play the rule(s) {', '.join(tags)}",
                               "rules_not_played", mode=mode, rules=tags))
    for i, e in enumerate(raw["events"]):
        if e["type"] not in PLAYED_EVENTS:
            raise SimError(Refusal(f"{mode}: event {i} ({e['type']}) is beyond the base game the simulator plays",
                                   "event_not_played", mode=mode, event=i, type=e["type"]))


def within_work(params: dict[str, Any], table: Table, count: int, turns: int) -> int:
    """``count`` (deals, iterations) cut down so that ``count x turns`` rollout turns fit the
    request's ``work`` (at least 1; ``count`` itself without one).  A turn is an analysis of a
    view about as large as the table's: ``1 + states / STATES_PER_UNIT`` units (module docstring)."""
    if "work" not in params:
        return count
    work = count_param(params, "work", 0, MAX_WORK)
    forward, _ = columns.plans(compile_table(table))
    unit = 1 + columns.estimated_states(forward, MAX_WORK * STATES_PER_UNIT) / STATES_PER_UNIT
    return max(1, min(count, int(work / (turns * unit))))


def restored_view(raw: dict[str, Any], player: int) -> View:
    """The simulator's view of a page's table at its events, ``player`` to play, on one deal drawn
    from the posterior (what the player's view shows does not depend on the deal): in a base-game
    mission game.Replay gives the whole state (the dial and failed cuts its events leave, the
    equipment board, moved wires and what the player saw of them), as in the simulator's
    own view (tests/test_search.py checks the two agree at every turn of simulated games).  A table
    that is already the simulator's own view (``meta.sim``) is taken as it is."""
    if raw.get("meta", {}).get("sim") is not None:
        return View(raw, player)
    table = load_table(raw)
    sampler = TableSampler(table)
    deal = sampler.sampler.draw(random.Random(0))
    tags = frozenset(raw.get("meta", {}).get("rules", ()))
    if raw.get("meta", {}).get("mission") in BASE_MISSIONS:
        game = Replay(raw, table, player, tags).game(deal, random.Random(0))
    else:
        now = [[parse_key(k) for k in row] for row in sampler.convert(deal)["stands"]]
        game = Game.restore(raw, now, player, random.Random(0), tags, table.equipment_board())
    own = game.table(player)
    # Game.restore plays a mission outside the base game as the base game: the policy must know the
    # table's own mission, and that this is not the simulator's view of it (no mission state: its
    # events do not give it), to refuse to search it (replay.replay_refusal).
    sim = {k: v for k, v in own["meta"]["sim"].items() if k != "state"}
    sim["mission"] = raw.get("meta", {}).get("mission")
    return View({**own, "meta": {**own["meta"], "sim": sim}}, player)


def lookahead(params: dict[str, Any]) -> dict[str, Any]:
    """The bridge's ``lookahead``: params ``{"table", "deals"?, "depth"?, "width"?, "seed"?, "work"?}``."""
    seed = checked_fields(params, {"table", "deals", "depth", "width", "seed", "work"})
    deals = count_param(params, "deals", DEALS, MAX_DEALS)
    depth = count_param(params, "depth", DEPTH, MAX_DEPTH)
    width = count_param(params, "width", WIDTH, MAX_WIDTH)
    table = load_table(params["table"])  # strict validation first: its errors name the field
    raw = params["table"]
    check_playable(raw)
    player = table.me
    try:
        beliefs(table)
    except Inconsistent:
        return analyze(table)  # {"consistent": false, "error", "event"}, as the other modes
    deals = within_work(params, table, deals, (width + 1) * max(1, depth - 1))
    result = {"consistent": True, "player": player, "mode": "lookahead", "red_cap": RED_CAP, "deals": 0,
              "depth": depth, "width": width, "seed": seed, "suggestions": []}
    if not View(raw, player).my_uncut():
        return result  # every wire of mine is cut: no move to make
    with own_tables():  # the table is valid: a refusal from here on is of a table the rollouts built
        view = restored_view(raw, player)
        decision = LookaheadPolicy(random.Random(seed), deals=deals, depth=depth, width=width).decide(view)
    picked = decision.suggestion
    others = sorted((r for r in decision.candidates if r is not picked), key=lambda r: -r["worth"])
    return {**result, "deals": decision.deals, "suggestions": [picked] + others}
