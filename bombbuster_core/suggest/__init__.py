"""Cut suggestions: what the player to move can do, with exact odds and information.

``suggest(table, ...)`` lists, for one player, every legal dual cut (each
uncut teammate slot x each gameplay value the player holds), the certain and
forced moves (P(success) = 1 cuts, solo cuts, "reveal your reds"), and the
best uses of the detectors and the X-or-Y ray.  Every probability is exact: a
single-slot call reads the slot marginals of one analysis; a joint event
("the player holds v" in public view, a detector's red risk) is the ratio of
the world counts of the problem conditioned on it to the unconditioned one.

Two modes rank the dual cuts: ``exact`` (default: most likely within
``Policy.red_cap``, then most informative, then a seeded random tie-break;
riskier calls follow) and ``entropy`` (the reference design's expected
entropy over each call's success and failure branches).

The package, by what each module decides:

* ``policy.py``: the options (modes, equipment kinds, :class:`Policy`) and
  their refusal (:class:`SuggestError`);
* ``analyses.py``: engine runs under conditions, memoised, packed, sent to
  executors (the jobs other workers run);
* ``position.py``: the position every decider reads (geometry, analyses,
  tie-break stream);
* ``conditioning.py``: "the player holds v", the condition of a call's odds;
* ``cuts.py``: dual cuts, solo cuts, "reveal your reds";
* ``xy_ray.py``, ``detectors.py``: the equipment searches, one per kind;
* ``entropy.py``: the entropy mode's branch analyses and scores;
* ``ranking.py``: the suggestion record, the order of the list, its JSON;
* ``equipment.py``: the advice on the board's equipment cards (``advice.py``
  its budget and views, ``radar.py`` the General Radar, ``marks.py`` the
  Post-it and Labels), beside the list.

:func:`suggest` runs them in that order.  docs/suggestions.md explains the
information measure, the ranking policy and the rule readings; the JSON
shape is the CLI's ``suggest`` output.
"""
from __future__ import annotations

from typing import Any

from ..analysis import analyze
from ..engines import DEFAULT
from ..table import Table
from ..wires import Value
from . import entropy, equipment, ranking, xy_ray
from .analyses import Analyses, Executor, Progress
from .conditioning import Holding
from .cuts import Cuts
from .detectors import Detectors
from .policy import EQUIPMENT, MODES, PROBABILITIES, Policy, SuggestError, checked_player
from .position import Position
from .ranking import Suggestion

__all__ = ["EQUIPMENT", "MODES", "PROBABILITIES", "Policy", "Progress", "SuggestError", "suggest"]


def suggest(table: Table, *, player: int | None = None, mode: str = "exact", probabilities: str = "exact",
            top: int | None = None, engine: str = DEFAULT, policy: Policy = Policy(),
            executor: Executor | None = None, progress: Progress | None = None,
            cache: entropy.Cache | None = None, cards: bool = True, moving: bool = True,
            explain: bool = True, analyses: Analyses | None = None) -> dict[str, Any]:
    """The CLI's ``suggest`` JSON for a validated table (``{"consistent": false, ...}`` if impossible).

    ``executor`` maps the entropy mode's branch analyses (with the columns
    engine: batches of packed branches) and, with other engines in public
    view, the per-value "player holds v" analyses (default: built-in ``map``;
    e.g. ``ProcessPoolExecutor().map``); ``progress(done, total)`` is called
    as those finish; ``cache`` (problem key -> H) may be kept across calls.
    ``cards``: add the equipment advice (equipment.py) for the cards the table's board lists;
    ``moving``: the player is the one to move (else only "any time" cards are advised);
    ``explain``: False lists each suggestion as its move, odds and certainty only (no why-text,
    bits, outcomes, p_strike, p_legal: ranking.Suggestion.json), in the same order, for a caller
    that reads nothing else (the simulator's policies: a tenth of their time went to the JSON);
    ``analyses``: a fresh :class:`~.analyses.Analyses` of the table's problem (``compile_table``)
    with ``engine``, to run the analyses in and keep: the caller reads the table's beliefs from it
    afterwards instead of analysing the table again (the simulator's views).
    """
    player = checked_player(table, player, mode, probabilities, top, engine, policy)
    if analyses is not None and (analyses.runs or analyses.engine != engine):
        # a run made before would change the equipment searches' budgets (Policy.equipment_budget)
        raise ValueError("suggest: the analyses passed must be fresh and of the engine asked for")
    position = Position(table, player, engine, policy, analyses)
    root = position.analyses.beliefs()
    if root is None:
        return analyze(table, engine)
    holding, values = Holding(position), position.held_values(root)
    cuts = Cuts(position, holding)
    rays = xy_ray.picks(position, root, values) if "xy_ray" in policy.equipment else []
    if any(position.uncut_on(q, s) for q, s in position.teammate_stands()):
        holding.prefetch(values, executor, progress, [pair for _, pair in rays])
    calls = cuts.dual_cuts(values)
    branch_runs = 0
    if mode == "entropy":
        branch_runs = entropy.score(position, holding, calls, probabilities, executor, progress, cache)
    uses = _equipment_uses(position, holding, cuts, rays, values)
    forced = cuts.reveal_red(root) + cuts.solo_cuts(root, values)
    stakes = position.failures_left if mode == "exact" else None  # the entropy mode is the reference's
    listing = ranking.ordered(forced, calls, uses, mode, policy.red_cap, stakes, policy.stakes)
    result: dict[str, Any] = {"consistent": True, "player": player, "mode": mode, "worlds": root.worlds,
                              "red_cap": policy.red_cap, "analyses": position.analyses.runs,
                              **position.incomplete.json()}
    if mode == "entropy":
        result["branch_analyses"] = branch_runs
    result["suggestions"] = ranking.shown(listing, top, policy.red_cap, explain, stakes)
    result["total"] = len(listing)  # before `top`: how many a longer list would show
    if cards:  # after the list: the advice reads its moves, and its runs are not the list's "analyses"
        result.update(equipment.advise(position, holding, forced + calls, uses, moving))
    return result


def _equipment_uses(position: Position, holding: Holding, cuts: Cuts, rays: list[xy_ray.Pick],
                    values: list[Value]) -> list[Suggestion]:
    """The best uses of each equipment kind searched (``Policy.equipment``, in its order: the
    searches draw on the one tie-break stream), ranked together as one group of the list.
    The advice on the board's cards (equipment.py) is not a group of the list: it reads the
    list's moves and these uses, and joins the result as its own ``equipment`` entry."""
    detectors = Detectors(position, holding)
    uses: list[Suggestion] = []
    for kind in position.policy.equipment:
        uses += xy_ray.rays(cuts, rays) if kind == "xy_ray" else detectors.search(kind, values)
    return uses
