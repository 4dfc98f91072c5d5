"""The ismcts policy's decision for one table file: the page's "Search" mode.

:func:`search` answers the worker bridge's ``search`` method: the table's
``me`` player decides from their own view as the ``ismcts`` policy of the
tournament (sim/ismcts.py) with a budget of ``iterations`` and rollouts of
``horizon`` turns, as if it were their turn.  Its result lists every root
candidate in the root's order (greedy's move first) in the shape of suggest's
JSON, each with the search's statistics:

* ``move``: the game action (game.action_json), the same object for the same
  candidate whatever the seed: a candidate's key when the page adds up
  several searches;
* ``visits``, ``value_sum`` (the values backed up through it: 1 a win, 0 a
  loss, an unfinished rollout its leaf value) and ``mean``.

``pick`` is the index of the chosen move (ismcts.pick: greedy's, unless another
candidate's mean beats it by more than a standard error), ``iterations`` the
iterations done.

``work`` (optional) bounds the search's work as the lookahead's bounds its
rollouts (sim/lookahead_advice.py): each iteration plays up to ``horizon`` turns, each
an analysis of a view about as large as the table's (``advice.within_work``),
so at most ``work / (horizon units)`` iterations run (at least 1): fewer on a
5-player start than late in a game, the same for the same table.  Root parallelism: the same
request with different ``seed``\\ s on different workers gives the same
candidates (the legal ranking is exact, whatever the seed); the sum of their
visits and value sums is one search's root statistics over all their
iterations, and ismcts.pick of the sum is the split search's pick.

Where the policy plays greedy without a search (a certain move, a single
candidate, a game the replay cannot rebuild -- a page's table of a mission with
rules of its own, whose mission state its events do not give, or a mission
whose cards are hidden: replay.replay_refusal --, a view too large to sample), the
result has ``"searched": false``, a ``reason`` and greedy's move as its only
candidate.

A table with ``meta.sim`` (the simulator's own view) is searched as it is;
a page's table has none, so it is first restored as the simulator's game at
its events (Game.restore on one deal drawn from the posterior: what the
player's view shows does not depend on the deal) with ``me`` to play, and
with the equipment board its events leave (Game.restore's ``board``), so the cards
a table lists are searched as in the simulator's own view.
Refusals are the lookahead's (sim/lookahead_advice.py): what the simulator cannot
replay, with a message naming the event or rule.  A table the search builds
itself (a restored game, a rollout's) that the core refuses is the simulator's
bug, never the user's table's: view.own_tables reports it as one.  The same table, budget and
seed give the same answer.
"""
from __future__ import annotations

import random

from ..analysis import analyze, beliefs
from ..beliefs import EngineLimit, Inconsistent
from ..table import load_table
from .actions import SimError, action_json
from .ismcts import HORIZON, ITERATIONS, TOO_LARGE, IsmctsPolicy, Searched, pick
from .lookahead_advice import check_playable, checked_fields, count_param, restored_view, within_work
from .refusals import Refusal, reason_fields
from .view import PLAYED_KINDS, RED_CAP, View, action_of, own_tables

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

    from .actions import Action

# The page's bound: a request's work stays within a phone's patience (web/README-web.md, "Search").
MAX_ITERATIONS, MAX_HORIZON = 2000, 20
FIELDS = {"table", "iterations", "seed", "horizon", "work"}


def search(params: dict[str, Any], progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The bridge's ``search``: params ``{"table", "iterations"?, "seed"?, "horizon"?, "work"?}`` (module docstring);
    ``progress(done, iterations)`` hears each iteration."""
    seed = checked_fields(params, FIELDS)
    iterations = count_param(params, "iterations", ITERATIONS, MAX_ITERATIONS)
    horizon = count_param(params, "horizon", HORIZON, MAX_HORIZON)
    table = load_table(params["table"])  # strict validation first: its errors name the field
    raw = params["table"]
    check_playable(raw, "search")
    player = table.me
    try:
        beliefs(table)
    except Inconsistent:
        return analyze(table)  # {"consistent": false, "error", "event"}, as the other modes
    iterations = within_work(params, table, iterations, horizon)
    result = {"consistent": True, "player": player, "mode": "search", "red_cap": RED_CAP, "seed": seed,
              "horizon": horizon, "iterations": 0, "searched": False, "pick": 0, "suggestions": []}
    if not View(raw, player).my_uncut():
        return {**result, **reason_fields(Refusal("every wire of yours is cut: no move to make", "no_move"))}
    policy = IsmctsPolicy(random.Random(seed), iterations=iterations, horizon=horizon, progress=progress)
    with own_tables():  # the table is valid: a refusal from here on is of a table the search built
        try:
            view = restored_view(raw, player)
        except EngineLimit:
            plain = policy.decide(View(raw, player), None)  # the base game's greedy, no search
            decision = plain.replace(reason=TOO_LARGE)
        else:
            decision = policy.decide(view, view.pending())
    return {**result, **_statistics(decision, player)}


def _statistics(decision: Searched, player: int) -> dict[str, Any]:
    """The candidates as suggest's JSON with the root's statistics, the pick's index, the iterations done."""
    # reversed: the first of equal moves in the ranking wins
    by_action = {action_of(s, player): s for s in reversed(decision.ranked) if s["kind"] in PLAYED_KINDS}
    root = decision.root
    rows = []
    for a in decision.moves:
        child = root.children.get(a) if root is not None else None
        visits, total = (child.visits, child.total) if child is not None else (0, 0.0)
        rows.append({**_suggestion(a, by_action), "move": action_json(a), "visits": visits, "value_sum": total,
                     "mean": total / visits if visits else 0.0})
    out = {"searched": root is not None, "iterations": root.visits if root is not None else 0,
           "pick": decision.moves.index(decision.action), "suggestions": rows}
    if decision.reason is not None:
        out.update(reason_fields(decision.reason))
    return out


def _suggestion(a: Action, by_action: dict[Action, dict[str, Any]]) -> dict[str, Any]:
    """The ranking's suggestion of ``a``; a move the ranking has no entry for (a card's use) is its kind."""
    s = by_action.get(a)
    return dict(s) if s is not None else {"kind": action_json(a)["kind"]}


MAX_SEEDS = 64  # searches one merge adds up (the page sends one per worker)


def merge(params: dict[str, Any]) -> dict[str, Any]:
    """The bridge's ``merge_searches``: params ``{"results": [search results of one table, one a seed]}``,
    their :func:`merged` search.  The results come back from the page, so every field merged reads is
    checked first (a request's data: an error names it)."""
    if set(params) != {"results"}:
        raise SimError(f"merge_searches: params must be exactly ['results'] (got {sorted(params)})")
    results = params["results"]
    if not isinstance(results, list) or not 1 <= len(results) <= MAX_SEEDS:
        raise SimError(f"merge_searches: 'results' must be a list of 1 to {MAX_SEEDS} search results")
    impossible = next((r for r in results if isinstance(r, dict) and r.get("consistent") is False), None)
    if impossible is not None:
        return impossible  # no deal fits the table: every seed says so (search's own answer), nothing to add up
    for i, r in enumerate(results):
        where = f"results[{i}]"
        if not isinstance(r, dict) or not isinstance(r.get("searched"), bool):
            raise SimError(f"merge_searches: {where}: expected a search result ('searched' true or false)")
        for name, hi in (("seed", 2**53), ("iterations", MAX_ITERATIONS * MAX_SEEDS)):
            _whole(r.get(name), f"{where}.{name}", hi)
        rows = r.get("suggestions")
        if not isinstance(rows, list):
            raise SimError(f"merge_searches: {where}.suggestions: expected a list")
        _whole(r.get("pick"), f"{where}.pick", max(len(rows) - 1, 0))  # no move at all: pick 0 of none
        for j, row in enumerate(rows):
            at = f"{where}.suggestions[{j}]"
            if not isinstance(row, dict) or not isinstance(row.get("move"), dict):
                raise SimError(f"merge_searches: {at}: expected a candidate with its 'move'")
            visits = _whole(row.get("visits"), f"{at}.visits", MAX_ITERATIONS * MAX_SEEDS)
            total = row.get("value_sum")
            if isinstance(total, bool) or not isinstance(total, (int, float)) or not 0 <= total <= visits:
                raise SimError(f"merge_searches: {at}.value_sum: expected a number from 0 to its visits ({visits})")
    return merged(results)


def _whole(value: Any, where: str, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= hi:
        raise SimError(f"merge_searches: {where}: expected a whole number from 0 to {hi}")
    return value


def merged(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Several seeds' searches of one table added up (root parallelism, the module docstring): per
    candidate the sums of ``visits`` and ``value_sum``, the pick ismcts.pick of those sums, ``iterations`` their
    sum, ``seeds`` theirs.  The page's Search mode merges its workers' answers so (the bridge's
    ``merge_searches``, :func:`merge`)."""
    first = results[0]
    rows = [dict(s) for s in first["suggestions"]]
    keys = [repr(s["move"]) for s in rows]
    for r in results[1:]:
        if [repr(s["move"]) for s in r["suggestions"]] != keys:
            raise SimError("search: the searches to merge have different candidates")
        for row, s in zip(rows, r["suggestions"]):
            row["visits"] += s["visits"]
            row["value_sum"] += s["value_sum"]
    for row in rows:
        row["mean"] = row["value_sum"] / row["visits"] if row["visits"] else 0.0
    chosen = pick([(row["visits"], row["value_sum"]) for row in rows]) if any(r["searched"] for r in results) \
        else first["pick"]
    rest = {k: v for k, v in first.items() if k != "seed"}
    return {**rest, "seeds": [r["seed"] for r in results], "iterations": sum(r["iterations"] for r in results),
            "pick": chosen, "suggestions": rows}
