"""The deal: a mission's table, its tiles shuffled into the stands, its cards and its equipment.

:func:`new_game` deals a mission (its table drawn by :func:`mission_setup`) or any wire set;
:func:`deal` shuffles the tiles, builds the :class:`~.game.Game` and opens the mission (its cards,
the random setup tokens, the chosen setup decisions); :func:`deal_equipment` deals the cards.

**The deal** is a uniform shuffle of the tiles in play into the deal's
segments (board.py: each stand's sorted part, X and flipped wires, M64's
flipped pair, Nano's wires) -- the analyzer's model of the physical deal: X
is the last wire dealt (any tile of the stand), a flipped wire is taken
without looking, M35's X wires are blue tiles drawn first, pre-dealt colours
(M13 reds, M41/M48 yellows) go one per player clockwise from the Captain
(M41 with 5 players: not the Captain; a 2-player Captain's two: one per
stand; a 2-stand player's one: on a stand drawn in proportion to its size)
and are announced as ``dealt`` events.
"""
from __future__ import annotations

import random

from .. import equipment as eq
from ..board import segments_and_layout
from ..missions import (equipment_pool, even_deal, mission as mission_entry, new_table,
                        stands_per_player)
from ..table import load_table
from ..wires import RED, YELLOW, Key, key_json, parse_key, value_of
from .actions import SimError
from .game import Game, rules_for
from .mission_rules import NUMBERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Missions whose rules cannot be simulated, and why.
REFUSED = {54: "its 11 red wires lie on the card and enter play by the mission's audio track, which no source "
               "documents (rules.md §1.2 [U])"}


def _tiles(wires: dict[str, Any], rng: random.Random) -> tuple[list[Key], list[Key]]:
    """The tiles in play and those set aside (each k of m pool: a uniform k-subset in play)."""
    if "deck" in wires:
        return [parse_key(k) for k, n in wires["deck"].items() for _ in range(n)], []
    tiles = [10 * v for v in wires["blue"] for _ in range(4)]
    tiles += [parse_key(k) for k in wires.get("yellow", []) + wires.get("red", [])]
    aside: list[Key] = []
    for pool in wires.get("uncertain", []):
        cands = [parse_key(k) for k in pool["candidates"]]
        rng.shuffle(cands)
        tiles += cands[:pool["count"]]
        aside += cands[pool["count"]:]
    return tiles, aside


def deal(setup: dict[str, Any], rng: random.Random, tags: frozenset[str] = frozenset(),
         mission: int | None = None) -> Game:
    """A uniform shuffle of the setup's tiles into its deal segments (board.py); ``rng`` also drives the game.

    Pre-dealt colours (``mission`` 13, 41, 48: MissionRules.predealt) go one per player clockwise from the Captain first;
    M35's X wires are blue tiles drawn first."""
    seated = load_table({**setup, "events": []}).players  # the stands' sizes and shapes, as the table reads them
    shapes = [list(zip(pl.stands, pl.shapes)) for pl in seated]
    nano_n = setup.get("nano", 0)
    segments, layout = segments_and_layout(shapes, nano_n)
    tiles, aside = _tiles(setup["wires"], rng)
    sizes = sum(size for rows in shapes for size, _ in rows)
    if sizes + nano_n != len(tiles):
        raise SimError(f"the stands hold {sizes} wires (Nano {nano_n}) but {len(tiles)} are in play")
    rng.shuffle(tiles)
    fill: dict[tuple[int, int], Key] = {}  # wire identity -> key
    positions = [(sid, j) for sid, seg in enumerate(segments) for j in range(seg.size)]
    dealt_counts: list[tuple[int, int | None, str, int]] = []
    rules = rules_for(mission)
    if rules.predealt is not None:
        colour = rules.predealt
        coloured = [k for k in tiles if value_of(k) == colour]
        tiles = [k for k in tiles if value_of(k) != colour]
        players = len(shapes)
        seats = rules.predealt_seats(players)
        got = [0] * players
        for i in range(len(coloured)):
            got[seats[i % len(seats)]] += 1
        for p, c in enumerate(got):
            mine = [w for row in layout[p] for w in row]
            if len(shapes[p]) == 2 and c == 2:
                picks = [rng.choice(layout[p][s]) for s in (0, 1)]
                dealt_counts += [(p, s, colour, 1) for s in (0, 1)]
            else:
                picks = rng.sample(mine, c)  # a stand in proportion to its size
                dealt_counts.append((p, None, colour, c))
            for w in picks:
                fill[w] = coloured.pop()
    for p, rows in enumerate(shapes):
        for s, (size, shape) in enumerate(rows):
            if shape == "x_blue":
                w = layout[p][s][-1]
                k = next(k for k in tiles if k % 10 == 0)
                tiles.remove(k)
                fill[w] = k
    rest = [w for w in positions if w not in fill]
    rng.shuffle(tiles)
    for w, k in zip(rest, tiles):
        fill[w] = k
    by_segment: dict[int, list[Key]] = {}
    for (sid, j), k in fill.items():
        by_segment.setdefault(sid, []).append(k)
    for sid, keys in by_segment.items():
        if segments[sid].kind != "nano":
            keys.sort()
    hands, special = [], {}
    for p, rows in enumerate(layout):
        stands = []
        for s, row in enumerate(rows):
            stands.append([by_segment[sid][j] for sid, j in row])
            for j, (sid, _) in enumerate(row):
                kind = segments[sid].kind
                if kind == "x":
                    special[(p, s, j)] = "x"
                elif kind in ("flip", "pair"):
                    special[(p, s, j)] = "flip"
        hands.append(stands)
    nano = [by_segment[sid][0] for sid, seg in enumerate(segments) if seg.kind == "nano"]
    game = Game(setup, hands, sorted(aside), rng, tags, mission=mission, special=special, nano=nano)
    for p, s, colour, c in dealt_counts:
        e: dict[str, Any] = {"type": "dealt", "player": p, "value": colour, "count": c}
        if s is not None:
            e["stand"] = s
        game.events.append(e)
    open_mission(game)
    if not game.setup_token_players():
        game.begin_play()
    return game


def open_mission(game: Game) -> None:
    """The mission's cards and counters at the start (public ``state``, ``private`` hands), the random
    setup tokens, and the chosen setup decisions."""
    game.rules.open(game)
    game.deal_setup_tokens()


def mission_setup(number: int, players: int, rng: random.Random) -> tuple[dict[str, Any], frozenset[str]]:
    """Mission ``number``'s table (no events) with its yellow/red values (and M11's Number) drawn at random,
    and its rule tags."""
    if number in REFUSED:
        raise SimError(f"mission {number}: the simulator cannot play it: {REFUSED[number]}")
    m = mission_entry(number)
    tags = frozenset(m.rule_tags(players)) if players in m.wires else frozenset()
    drawn: dict[str, list[Any]] = {}
    for d in m.wires.get(players, ()):
        if d.drawn:
            drawn[d.colour] = [key_json(d.key(n)) for n in rng.sample(range(d.lo, d.hi + 1), d.drawn)]
    number_card = rng.choice(NUMBERS) if m.number_as_red else None
    table = new_table(number, players, yellow=drawn.get(YELLOW), red=drawn.get(RED), number_card=number_card)
    del table["events"]
    return table, tags


def deal_equipment(game: Game, rng: random.Random, on: bool = True, cards: list[str] | None = None,
                   characters: list[str] | None = None) -> None:
    """The mission's equipment (missions.equipment_pool): one card per player drawn at random from its pool
    (``cards`` to name them), the characters (the Captain the Double Detector; from M31 each other
    player's drawn at random among the 5, ``characters`` to name them).  The table lists its board
    (``"equipment"``, ``players[i].character``), so the core follows and checks every use.  ``on``
    False: no equipment (the table does not list a board; everyone the Double Detector).  ``rng`` is
    a generator of its own, drawn from whether ``on`` or not: the deal and the game's draws are the
    same with and without equipment (paired games)."""
    pool = equipment_pool(mission_entry(game.mission), game.players)
    drawn = cards if cards is not None else rng.sample(pool["pool"], min(pool["count"], len(pool["pool"])))
    chars = characters if characters is not None else [
        eq.DEFAULT_CHARACTER if p == 0 or "new_characters" not in game.tags else rng.choice(list(eq.CHARACTERS))
        for p in range(game.players)]
    # M12: a Number card covers each card, drawn after the cards and characters (the other missions' draws
    # are unchanged) from all 12, as the mission uses no other Number card: one of each value in the box
    covers = dict(zip(drawn, rng.sample(NUMBERS, len(drawn)))) if "covers" in pool else {}
    if not on:
        return
    game.setup["equipment"] = [{"card": c, **({"cover": covers[c]} if c in covers else {})} for c in drawn]
    game.pool = [c for c in pool["pool"] if c not in drawn]
    if pool["characters"]:
        game.characters = list(chars)
        for p, ch in enumerate(chars):
            if ch != eq.DEFAULT_CHARACTER:
                game.setup["players"][p] = {**game.setup["players"][p], "character": ch}
    game.board = eq.BoardState(tuple(drawn), tuple(game.characters), game.card_cut, covers=covers)
    if game.queue and game.queue[0]["kind"] == "turn":  # the first turn opened before the characters were known
        d = game.queue[0]
        game.queue[0] = {**d, **game.turn_decision(d["player"], d.get("restrict"))}


def new_game(rng: random.Random, *, mission: int | None = None, players: int = 4,
             wires: dict[str, Any] | None = None, stands: list[list[int]] | None = None,
             equipment: bool = True) -> Game:
    """A dealt game: mission ``mission`` with ``players`` players, or the wire set ``wires`` on ``stands``
    (sizes per player; default: the even deal on 1 stand each for 4-5 players, 2 for 2, Captain 2 for 3).
    A mission's game has its equipment (:func:`deal_equipment`) unless ``equipment`` is False."""
    if mission is not None:
        setup, tags = mission_setup(mission, players, rng)
        game = deal(setup, rng, tags, mission)
        deal_equipment(game, random.Random(rng.getrandbits(64)), on=equipment)
        return game
    if wires is None:
        raise SimError("give a mission or a wire set")
    if stands is None:
        per = stands_per_player(players)
        tiles, _ = _tiles(wires, random.Random(0))
        sizes = iter(even_deal(len(tiles), sum(per)))
        stands = [[next(sizes) for _ in range(n)] for n in per]
    setup = {"format": 1, "players": [{"name": f"Player {p + 1}", "stands": list(st)} for p, st in enumerate(stands)],
             "wires": wires}
    return deal(setup, rng)
