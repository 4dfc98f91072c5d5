"""Check a simulated game's table against its hidden deal (``tournament --save``'s pair of files).

:func:`views` rebuilds every seat's table file from the public table and the
deal (``me.stands`` as dealt with ``null`` for one's own flipped wires,
``me.seen``: teammates' flipped wires at the deal and the wires one took from
Nano), exactly as the game shows them.  :func:`check_game` then asks, for the
public view and every seat: is the table accepted (``load_table``), is it
consistent (an analysis), does every slot's true key have a nonzero
probability, does the board replay put the deal's wires where the game's
``final`` says, and is the whole deal possible at once (every wire fixed to
its true key, the problem still has a world)?
"""
from __future__ import annotations

from ..analysis import beliefs
from ..beliefs import Inconsistent
from ..engines import DEFAULT, ENGINES
from ..facts import compile_table
from ..table import Table, load_table
from ..wires import parse_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _per_player(raw: dict[str, Any], rows: list[list[Any]]) -> list[list[list[Any]]]:
    it = iter(rows)
    return [[list(next(it)) for _ in pl["stands"]] for pl in raw["players"]]


def views(raw: dict[str, Any], deal: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
    """The public table and every seat's view of it, rebuilt from the deal."""
    public = {k: v for k, v in raw.items() if k != "me"}
    table = load_table(public)
    segments, layout = table.deal()
    dealt = _per_player(raw, deal["stands"])
    flipped = {(p, s, j) for p, rows in enumerate(layout) for s, row in enumerate(rows)
               for j, w in enumerate(row) if segments[w[0]].flipped}
    nano = list(deal.get("nano", []))
    taken: list[tuple[int, dict[str, Any]]] = []
    hands = [[list(row) for row in rows] for rows in dealt]  # the keys at their current positions

    def take(ref: dict[str, int]) -> Any:
        return hands[ref["player"]][ref["stand"]].pop(ref["slot"])

    def put(ref: dict[str, int], key: Any, i: int) -> None:
        hands[ref["player"]][ref["stand"]].insert(ref["slot"], key)
        taken.append((ref["player"], {"at": ref, "value": key, "after": i}))

    n_nano = 0
    for i, e in enumerate(raw["events"]):
        if e["type"] == "move":  # Nano's transfers, the Grappling Hook: the receiver sees the wire
            if e["from"] == "nano":
                key, n_nano = nano[n_nano], n_nano + 1
            else:
                key = take(e["from"])
            put(e["to"], key, i)
        elif e["type"] == "swap":  # the Walkie-Talkies: each receiver sees the wire they get
            ka, kb = take(e["a"]), take(e["b"])
            put({**e["a"], "slot": e["b_to"]}, kb, i)
            put({**e["b"], "slot": e["a_to"]}, ka, i)
    out: list[tuple[int | None, dict[str, Any]]] = [(None, public)]
    for p in range(len(raw["players"])):
        stands = [[None if (p, s, j) in flipped else k for j, k in enumerate(row)] for s, row in enumerate(dealt[p])]
        seen = [{"at": {"player": q, "stand": s, "slot": j}, "value": dealt[q][s][j]}
                for q, s, j in sorted(flipped) if q != p]
        seen += [entry for q, entry in taken if q == p]
        me: dict[str, Any] = {"player": p, "stands": stands}
        if seen:
            me["seen"] = seen
        out.append((p, {**public, "me": me}))
    return out


def _identity_keys(table: Table, deal: dict[str, Any]) -> dict[tuple[int, int], int]:
    """The true key of every wire identity (deal segments, Nano's wires, the set-aside pools)."""
    segments, layout = table.deal()
    keys: dict[tuple[int, int], int] = {}
    it = iter(deal["stands"])
    for rows in layout:
        for row in rows:
            for w, k in zip(row, next(it)):
                keys[w] = parse_key(k)
    nano = [(sid, 0) for sid, seg in enumerate(segments) if seg.kind == "nano"]
    for w, k in zip(nano, deal.get("nano", [])):
        keys[w] = parse_key(k)
    aside = [parse_key(k) for k in deal.get("set_aside", [])]
    sid = len(segments)
    for pool in table.deck.pools:
        n = len(pool.candidates) - pool.count
        if n:
            for j, k in enumerate(sorted(k for k in aside if k in pool.candidates)):
                keys[(sid, j)] = k
            sid += 1
    return keys


def check_view(raw: dict[str, Any], deal: dict[str, Any]) -> list[str]:
    """What is wrong with one view of a game given its deal (an empty list: nothing)."""
    try:
        table = load_table(raw)
    except ValueError as e:
        return [f"refused: {e}"]
    try:
        b = beliefs(table)
    except Inconsistent:
        return ["the analysis finds the table impossible"]
    problems = []
    keys = _identity_keys(table, deal)
    board = table.board()
    final = _per_player(raw, deal["final"]) if "final" in deal else None
    for p, rows in enumerate(board.stands):
        for s, row in enumerate(rows):
            for j, w in enumerate(row):
                if final is not None and parse_key(final[p][s][j]) != keys[w]:
                    problems.append(f"player {p} stand {s} slot {j}: the deal's final key {final[p][s][j]} is not "
                                    "the wire the table's moves put there")
                if keys[w] not in b.weights[w]:
                    problems.append(f"player {p} stand {s} slot {j}: the true key has probability 0")
    problem = compile_table(table)
    domains = dict(problem.domains)
    for pos, k in keys.items():
        domains[pos] = problem.domain(pos) & frozenset((k,))
    try:
        ENGINES[DEFAULT](problem.replace(domains=domains))
    except Inconsistent:
        problems.append("the whole deal is impossible (each wire alone is possible)")
    return problems


def check_game(raw: dict[str, Any], deal: dict[str, Any]) -> list[str]:
    """Every view's problems, each prefixed by the view (public or seat)."""
    out = []
    for player, view in views(raw, deal):
        who = "public view" if player is None else f"player {player}'s view"
        out += [f"{who}: {problem}" for problem in check_view(view, deal)]
    return out
