"""Review of a recorded game: at each decision, the move played, its exact odds then, the best move
by the exact ranking, and what the choice cost.

A *decision* is an event that is a player's move: a dual cut (or X-or-Y ray call), a detector, a
solo cut, "reveal your reds", a simultaneous special action (``multi_cut``), a tripwire, and the
equipment cards' uses (the Fast Pass, the Disintegrator, the Grappling Hook, the Walkie-Talkies, a
Post-it, a Label or a General Radar that spends a card or a character, the ``equipment`` event).

Each decision is judged on the position as it stood: the table's events before it, seen by the
actor -- with their own wires when the table is theirs (``me``), from the public view otherwise
(``me.seen`` entries recorded after the event are left out: the actor had not seen them yet).
The suggestion list (suggest package, exact mode) is asked for that position as is: its first
move is the *best* one, and the move played is found in it by kind, targets and value(s).  A move
the list does not hold (an X-or-Y ray or detector other than the searched ones, a multi cut, a
tripwire) is scored by the same package's deciders on the same analyses (cuts.Cuts.call,
detectors.Detectors.use), or from the analyses' exact world counts.  The *cost* is the best
move's P(success) minus the played move's: the success chance given up (negative when the move
played was likelier to succeed than the ranking's first, e.g. a call above the red cap).  The
decisions of the greatest positive cost are marked ``costliest``.

Moves the ranking cannot score are listed with ``not_scored`` and the reason, never guessed: the
equipment cards' uses, a detector combined with the X-or-Y ray, a solo cut or red reveal that was
not certain in that view (the ranking lists them only when certain), a detector on a stand whose
wires have moved, and a position past the analysis's state budget; with the reason's code and
fields (``not_scored_why``, NOT_SCORED_CODES or an engine limit's) for the page to word.

:func:`try_move` scores any move at one decision the same way (a hypothetical: nothing is written
into the game).

With ``search`` iterations, each decision of the table's own player is also judged by the search
(:func:`searched`): its pick, and the win chance its rollouts give the pick and the move played.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, NamedTuple

from .analysis import analyze
from .beliefs import EngineLimit
from .engines import DEFAULT
from .events import (Detector, Disintegrator, DualCut, Equipment, FastPass, InfoToken, Label, Move, MultiCut, Radar,
                     RevealRed, SlotRef, SoloCut, Swap, Tripwire, exploded)
from .facts import compile_table
from .suggest import Policy, SuggestError, suggest
from .suggest.analyses import Analyses, probability
from .suggest.conditioning import Holding
from .suggest.cuts import Cuts
from .suggest.detectors import DETECTOR_SIZE, Detectors
from .suggest.position import Position
from .table import Table, load_table
from .wires import YELLOW, Value, WireError, parse_value

Progress = Callable[[int, int], None]
Call = tuple[str, tuple[SlotRef, ...], tuple[Value, ...]]  # a move: kind, targets (sorted), values (sorted)

SINGLE_TARGET = ("dual_cut", "xy_ray", "tripwire")
SCORED = (*SINGLE_TARGET, *DETECTOR_SIZE, "solo_cut", "reveal_red", "multi_cut")
DETECTOR_KIND = {"double": "double_detector", "triple": "triple_detector", "super": "super_detector"}
# Events that always are a card's use; a Radar, Label or Post-it token is a decision only when it
# spends a card or a character ("mission": M18's radar each turn is not chosen; a setup token spends none).
CARD_EVENTS = (FastPass, Disintegrator, Swap, Equipment)
CARD_OPTIONAL = (Radar, Label, InfoToken)


class ReviewError(ValueError):
    """A bad request: a player out of range, an event that is not a decision, a malformed move."""


def review(raw: Any, *, player: int | None = None, engine: str = DEFAULT, policy: Policy = Policy(),
           progress: Progress | None = None, search: int = 0, seed: int = 0,
           search_work: int | None = None) -> dict[str, Any]:
    """The review of the table ``raw`` (a decoded format-1 table file).

    ``player``: review only that player's decisions (default: the table's ``me``; every
    decision in public view).  Returns ``{"consistent": true, "player", "decisions": [...]}``
    (one entry per decision, in order: :func:`entry`), or the ``analyze`` JSON of an
    impossible table.  ``progress(done, total)`` hears each decision reviewed.  ``search``: that
    many search iterations at each decision of the table's own player (:func:`searched`), each
    search bounded by ``search_work`` as the Search mode's ``work`` bounds it (none: iterations only).
    Raises TableError (a malformed table), ReviewError, EngineChoiceError.
    """
    table = load_table(raw)
    reviewed = _reviewed_player(table, player)
    analysis = analyze(table, engine)
    if not analysis["consistent"]:
        return analysis
    indexes = [i for i, actor in decisions(table) if reviewed is None or actor == reviewed]
    out = []
    for done, i in enumerate(indexes):
        out.append(entry(raw, table, i, engine=engine, policy=policy, search=search, seed=seed,
                         search_work=search_work))
        if progress is not None:
            progress(done + 1, len(indexes))
    costs = [e["cost"] for e in out if e.get("cost") is not None]
    worst = max(costs, default=0.0)
    for e in out:
        e["costliest"] = worst > 0 and e.get("cost") == worst
    return {"consistent": True, "player": reviewed, "decisions": out}


# Why a move is not scored, beside the English ``not_scored``: ``not_scored_why`` {code, fields}, which the
# page words (review.why.CODE); an engine limit's is the limit's own (limit.CODE).
NOT_SCORED_CODES = ("detector_xy", "card_use", "user_not_recorded", "options_refused", "no_deal", "not_legal_cut",
                    "value_not_held", "not_certain", "detector_one_stand", "detector_one_value",
                    "not_legal_detector", "stand_moved")


class Unscored(NamedTuple):
    """Why a move is not scored: the English ``message`` and its ``code`` (NOT_SCORED_CODES) and ``fields``."""

    message: str
    code: str
    fields: dict[str, Any]

    def json(self) -> dict[str, Any]:
        assert self.code in NOT_SCORED_CODES, self.code
        return {"not_scored": self.message, "not_scored_why": {"code": self.code, "fields": self.fields}}


def _reviewed_player(table: Table, player: int | None) -> int | None:
    if player is None:
        return table.me
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(table.players):
        raise ReviewError(f"field 'player': {player!r} is not a player of this table (0-{len(table.players) - 1})")
    return player


def decisions(table: Table) -> list[tuple[int, int | None]]:
    """Every decision of the log: (event index, actor; None when a card's user is not recorded)."""
    found = []
    for i, (event, use) in enumerate(zip(table.events, table.uses)):
        actor = getattr(event, "actor", None)
        if isinstance(event, (DualCut, Detector, SoloCut, RevealRed, MultiCut, Tripwire, *CARD_EVENTS)):
            found.append((i, actor if actor is not None else use.user))
        elif isinstance(event, Move) and event.source is not None:  # the Grappling Hook (Nano's transfers: none)
            found.append((i, use.user))
        elif isinstance(event, CARD_OPTIONAL) and any(c != "mission" for c in use.cards):
            found.append((i, use.user))
    return found


def entry(raw: Any, table: Table, index: int, *, move: Any = None, engine: str = DEFAULT,
          policy: Policy = Policy(), search: int = 0, seed: int = 0,
          search_work: int | None = None) -> dict[str, Any]:
    """One decision's review: the event ``index`` of the loaded ``table`` (``raw`` its file).

    ``{"event", "actor", "view": "player" | "public", "played": {the move as a suggestion row,
    "outcome", "p_success", "p_red", "certain", "rank"}, "best": {the ranking's first row} | null,
    "cost"}``; or ``"not_scored": reason`` instead of the odds and cost.  ``move`` (a suggestion
    row: kind, target(s), value(s)): score that move instead of the one played -- a hypothetical,
    reported as ``"tried"``.  ``search`` > 0: also the search's judgement (:func:`searched`) under
    ``"search"`` at every decision (a card use, a move not scored too): at a decision of the table's
    own player the search's pick; elsewhere why it did not run.
    """
    _check_search(search, seed, search_work)
    actors = dict(decisions(table))
    if index not in actors:
        raise ReviewError(f"field 'event': {index!r} is not a decision of this table")
    actor = actors[index]
    event = table.events[index]
    own = actor is not None and table.me == actor
    row: dict[str, Any] = {"event": index, "actor": actor, "view": "player" if own else "public"}
    if move is None:
        played, reason = played_move(event, table.uses[index].cards)
        label = "played"
        row[label] = {**(_move_json(played) if played else {"kind": type(event).type}), "outcome": _outcome(event)}
    else:
        played, reason, label = _checked(parse_move(move, len(table.players)), table, index), None, "tried"
        row[label] = _move_json(played)
    if actor is None:
        reason = reason or Unscored("the card's user is not recorded", "user_not_recorded", {})
    if reason is None:
        _score(row, label, raw, index, actor, own, played, engine, policy)
    else:
        row.update(reason.json())
    if search > 0:
        row["search"] = searched(raw, index, played, search, seed, search_work) if own else _not_own_view()
    return row


def _score(row: dict[str, Any], label: str, raw: Any, index: int, actor: int, own: bool, played: Call | None,
           engine: str, policy: Policy) -> None:
    """Adds to ``row`` the odds of the move ``played`` at decision ``index`` and what it cost against the
    ranking's first move (``row[label]``, ``"best"``, ``"cost"``), or ``"not_scored"`` with why."""
    assert played is not None
    position_table = load_table(prefix(raw, index, public=not own))
    analyses = Analyses(compile_table(position_table), engine)
    try:
        listing = suggest(position_table, player=actor, top=None, engine=engine, policy=policy, cards=False,
                          explain=False, analyses=analyses)
    except EngineLimit as e:
        row["not_scored"] = f"the position is too large to rank: {e}"
        row["not_scored_why"] = e.json()  # the limit's code and fields: the page words them (limit.CODE)
        return
    except SuggestError as e:  # the review's own options (mode, equipment...): their message names the field
        row.update(Unscored(str(e), "options_refused", {"message": str(e)}).json())
        return
    if not listing["consistent"]:
        row.update(Unscored("no deal fits the events before it: " + listing.get("error", ""), "no_deal", {}).json())
        return
    rows = listing["suggestions"]
    row["best"] = rows[0] if rows else None
    rank = next((r for r, s in enumerate(rows) if _row_move(s) == played), None)
    if rank is not None:
        odds: dict[str, Any] = {k: rows[rank][k] for k in ("p_success", "p_red", "certain")}
        odds["rank"] = rank + 1
    else:
        position = Position(position_table, actor, engine, policy, analyses)
        scored = _direct_odds(position, played)
        if isinstance(scored, Unscored):
            row.update(scored.json())
            return
        p_success, p_red = scored
        odds = {"p_success": float(p_success), "p_red": float(p_red), "certain": p_success == 1, "rank": None}
    row[label].update(odds)
    row["cost"] = rows[0]["p_success"] - odds["p_success"] if rows else 0.0


def _check_search(iterations: Any, seed: Any, work: Any) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ReviewError(f"field 'seed': a whole number, not {seed!r}")
    if iterations == 0 and not isinstance(iterations, bool) and work is None:
        return  # no search asked: the simulator, whose bounds these are, stays unloaded
    from .sim.lookahead_advice import MAX_WORK
    from .sim.search_advice import MAX_ITERATIONS
    if isinstance(iterations, bool) or not isinstance(iterations, int) or not 0 <= iterations <= MAX_ITERATIONS:
        raise ReviewError(f"field 'search': the search's iterations per decision, a whole number from 0 to "
                          f"{MAX_ITERATIONS}, not {iterations!r}")
    if work is not None and (isinstance(work, bool) or not isinstance(work, int) or not 1 <= work <= MAX_WORK):
        raise ReviewError(f"field 'search_work': the search's work bound per decision, a whole number from 1 to "
                          f"{MAX_WORK}, not {work!r}")


def _not_own_view() -> dict[str, Any]:
    """The search at another player's decision: it decides from the table's own player's wires only."""
    from .sim.refusals import Refusal, reason_fields  # only a review that asks for a search loads the simulator

    return {"searched": False, **reason_fields(Refusal("the search decides from the player's own wires: it runs at "
                                                       "the decisions of the table's player ('me')", "not_own_view"))}


def searched(raw: dict[str, Any], index: int, move: Call | None, iterations: int, seed: int,
             work: int | None = None) -> dict[str, Any]:
    """The search's judgement of decision ``index`` (the page's Search mode: sim/search_advice.py, the
    ismcts policy deciding from the table's own player's view as it stood): its pick with the win
    chance its rollouts found (``win``: the mean value backed up, a win 1 and a loss 0), the move
    ``move``'s own (``played_win``, None when the search did not try it or ``move`` is None: a card
    use, which the search's calls do not name) and ``win_cost``, the win chance given up by the
    search's measure.  ``work`` bounds the search as the Search mode's request does.
    ``{"searched": false, "reason"}`` where the simulator cannot replay the table (its refusal) or
    the policy plays greedy without a search."""
    # Imported here: only a review that asks for a search loads the simulator.
    from .sim.actions import SimError
    from .sim.refusals import coded, reason_fields
    from .sim.search_advice import search

    try:
        bound = {} if work is None else {"work": work}
        result = search({"table": prefix(raw, index, public=False), "iterations": iterations, "seed": seed, **bound})
    except SimError as e:
        return {"searched": False, **reason_fields(coded(e))}
    if not result.get("consistent", True) or not result["searched"]:
        return {"searched": False, "reason": result.get("reason") or result.get("error", ""),
                **({"reason_why": result["reason_why"]} if "reason_why" in result else {})}
    rows = result["suggestions"]
    pick = rows[result["pick"]]
    tried = None if move is None else next(
        (r for r in rows if ("target" in r or "targets" in r) and _row_move(r) == move), None)
    played_win = tried["mean"] if tried is not None and tried["visits"] else None
    return {"searched": True, "iterations": result["iterations"], "seed": seed,
            "pick": {k: v for k, v in pick.items() if k not in ("value_sum", "mean")} | {"win": pick["mean"]},
            "played_win": played_win, "win_cost": None if played_win is None else pick["mean"] - played_win}


def try_move(raw: Any, index: int, move: Any, *, engine: str = DEFAULT, policy: Policy = Policy(),
             search: int = 0, seed: int = 0, search_work: int | None = None) -> dict[str, Any]:
    """A hypothetical: ``move`` (a suggestion row) at the decision of event ``index``, scored as
    :func:`entry` scores the move played; nothing is written into the game."""
    return entry(raw, load_table(raw), index, move=move, engine=engine, policy=policy, search=search, seed=seed,
                 search_work=search_work)


def prefix(raw: dict[str, Any], index: int, *, public: bool) -> dict[str, Any]:
    """The table file as it stood before event ``index``: the events before it, and what the
    observer had seen by then (``me.seen`` entries recorded after event ``index - 1`` left out);
    ``public``: no ``me`` at all."""
    out = {k: v for k, v in raw.items() if k not in ("events", "me")}
    out["events"] = list(raw.get("events", []))[:index]
    me = raw.get("me")
    if me is not None and not public:
        me = dict(me)
        if "seen" in me:
            me["seen"] = [s for s in me["seen"] if s.get("after") is None or s["after"] < index]
        out["me"] = me
    return out


def played_move(event: Any, cards: tuple[str, ...]) -> tuple[Call | None, Unscored | None]:
    """The event as a move of the suggestion list, and why it cannot be scored (None: it can)."""
    if isinstance(event, DualCut):
        kind = "xy_ray" if len(event.values) == 2 else "dual_cut"
        return _move(kind, (event.target,), event.values), None
    if isinstance(event, Detector):
        kind = DETECTOR_KIND[event.kind]
        if len(event.values) == 2:
            return _move(kind, event.targets, event.values), Unscored(
                "a detector with the X or Y ray: the ranking does not combine them", "detector_xy", {"kind": kind})
        return _move(kind, event.targets, event.values), None
    if isinstance(event, SoloCut):
        return _move("solo_cut", event.slots, (event.value,)), None
    if isinstance(event, RevealRed):
        return _move("reveal_red", event.slots, ()), None
    if isinstance(event, MultiCut):
        return _move("multi_cut", event.slots, (event.value,)), None
    if isinstance(event, Tripwire):
        return _move("tripwire", (event.target,), ()), None
    used = [c for c in cards if c != "mission"] or ([str(event.card)] if getattr(event, "card", None) else [])
    return None, Unscored(f"an equipment card's use ({', '.join(used) or type(event).type}): the ranking does not "
                          "score the cards", "card_use", {"cards": used, "type": type(event).type})


def _move(kind: str, targets: tuple[SlotRef, ...], values: tuple[Value, ...]) -> Call:
    return kind, tuple(sorted(targets)), tuple(sorted(values, key=str))


def _move_json(move: Call) -> dict[str, Any]:
    """A move as the suggestion list writes it (ranking.Suggestion.json)."""
    kind, targets, values = move
    row: dict[str, Any] = {"kind": kind}
    if kind in SINGLE_TARGET:
        row["target"] = targets[0].json()
    else:
        row["targets"] = [t.json() for t in targets]
    if kind == "xy_ray":
        row["values"] = list(values)
    elif values:
        row["value"] = values[0]
    return row


def _row_move(row: dict[str, Any]) -> Call:
    """A suggestion row's move, comparable with :func:`played_move`'s."""
    targets = [row["target"]] if "target" in row else row["targets"]
    values = row["values"] if "values" in row else [row["value"]] if "value" in row else []
    return _move(row["kind"], tuple(SlotRef(t["player"], t["stand"], t["slot"]) for t in targets), tuple(values))


def parse_move(raw: Any, players: int) -> Call:
    """A hypothetical move, written as a suggestion row; ReviewError naming the field."""
    if not isinstance(raw, dict):
        raise ReviewError("field 'move': expected an object {kind, target(s), value(s)}")
    kind = raw.get("kind")
    if kind not in SCORED:
        raise ReviewError(f"field 'move' field 'kind': {kind!r} is not a move the ranking scores "
                          f"({', '.join(SCORED)})")
    one = kind in SINGLE_TARGET
    allowed = {"kind", "target" if one else "targets"} | (
        {"values"} if kind == "xy_ray" else set() if kind in ("reveal_red", "tripwire") else {"value"})
    extra = set(raw) - allowed
    missing = allowed - set(raw)
    if extra or missing:
        name = sorted(extra or missing)[0]
        raise ReviewError(f"field 'move' field {name!r}: {'not a field of' if extra else 'missing for'} a {kind}")
    targets = [raw["target"]] if one else raw["targets"]
    if not isinstance(targets, list) or not targets:
        raise ReviewError("field 'move' field 'targets': expected a list of slots")
    refs = []
    for t in targets:
        if not isinstance(t, dict) or set(t) != {"player", "stand", "slot"} or not all(
                type(t[k]) is int and t[k] >= 0 for k in t) or t["player"] >= players:
            raise ReviewError(f"field 'move' field {'target' if one else 'targets'}: {t!r} is not a slot "
                              "{\"player\", \"stand\", \"slot\"} of this table")
        refs.append(SlotRef(t["player"], t["stand"], t["slot"]))
    raw_values = raw.get("values", [raw["value"]] if "value" in raw else [])
    if not isinstance(raw_values, list) or (kind == "xy_ray" and len(raw_values) != 2):
        raise ReviewError("field 'move' field 'values': expected two values")
    try:
        values = tuple(parse_value(v, allow_red=kind in ("multi_cut",)) for v in raw_values)
    except WireError as e:
        raise ReviewError(f"field 'move' field {'values' if 'values' in raw else 'value'}: {e}") from None
    return _move(kind, tuple(refs), values)


def _checked(move: Call, table: Table, index: int) -> Call:
    """A hypothetical move whose slots are on the table at event ``index`` and values in play."""
    stands = table.board(index).stands
    for t in move[1]:
        if t.stand >= len(stands[t.player]) or t.slot >= len(stands[t.player][t.stand]):
            raise ReviewError(f"field 'move': {t} is not on the table at event {index}")
    missing = [v for v in move[2] if v not in table.deck.values()]
    if missing:
        raise ReviewError(f"field 'move': the value {missing[0]!r} is not in play")
    return move


def _outcome(event: Any) -> str:
    if exploded(event):
        return "exploded"
    success = getattr(event, "success", None)
    return "done" if success is None else "success" if success else "failure"


def _direct_odds(position: Position, move: Call) -> tuple[Fraction, Fraction] | Unscored:
    """(P(success), P(red)) of a move the suggestion list does not hold, read by the suggest
    package's own deciders on the position's analyses; or why it cannot be scored."""
    kind, targets, values = move
    holding = Holding(position)
    if kind in ("dual_cut", "xy_ray"):
        if len(targets) != 1 or targets[0].player == position.player or targets[0] not in position.uncut(
                targets[0].player) or len(set(values)) != len(values):
            return Unscored(f"not a legal {kind} here: the target must be an uncut teammate wire", "not_legal_cut",
                            {"kind": kind})
        sug = Cuts(position, holding).call(kind, targets[0], values)
        if sug is None:
            return Unscored("in this view the player cannot hold the value called", "value_not_held", {})
        return sug.p_success, sug.p_red
    if kind in DETECTOR_SIZE:
        return _detector_odds(position, holding, kind, targets, values)
    root = position.analyses.beliefs()
    assert root is not None
    if kind == "tripwire":
        pos = position.pos(targets[0])
        return probability(root, pos, position.deck.keys_of_value(YELLOW)), probability(root, pos, position.red_keys)
    if kind == "multi_cut":
        keys = position.deck.keys_of_value(values[0])
        every = frozenset((position.pos(t), keys) for t in targets)
        p_success = position.analyses.p_condition(every)
        # A failed special action explodes, but for M48's yellows (docs/table-format.md, multi_cut).
        return p_success, Fraction(0) if values[0] == YELLOW else 1 - p_success
    return Unscored(f"the ranking lists a {kind.replace('_', ' ')} only when it is certain, and in this view it was "
                    "not", "not_certain", {"kind": kind})


def _detector_odds(position: Position, holding: Holding, kind: str, targets: tuple[SlotRef, ...],
                   values: tuple[Value, ...]) -> tuple[Fraction, Fraction] | Unscored:
    q, s = targets[0].player, targets[0].stand
    if any((t.player, t.stand) != (q, s) for t in targets) or q == position.player:
        return Unscored("the targets must lie on one teammate stand", "detector_one_stand", {"kind": kind})
    if len(values) != 1 or not isinstance(values[0], int):
        return Unscored("a detector calls one blue value", "detector_one_value", {"kind": kind})
    size = DETECTOR_SIZE[kind]
    uncut = position.uncut_on(q, s)
    if any(t not in uncut for t in targets) or (size and len(targets) != size):
        return Unscored(f"not a legal {kind.replace('_', ' ')} here: {size or 'every'} uncut wires of the stand",
                        "not_legal_detector", {"kind": kind, "size": size})
    run = position.sorted_run(q, s)
    if run is None:
        return Unscored("the stand's wires have moved: the detector's odds are not modelled there", "stand_moved",
                        {"kind": kind})
    if position.analyses.beliefs(holding(values)) is None:
        return Unscored("in this view the player cannot hold the value called", "value_not_held", {})
    sug = Detectors(position, holding).use(kind, (q, s, values[0]), tuple(t.slot - run[1] for t in targets))
    return sug.p_success, sug.p_red
