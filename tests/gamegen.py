"""Random legal Bomb Busters games for tests (independent of ``bombbuster_core``).

``random_game(rng, **options)`` deals a small random game, plays random legal
turns (rules.md §2, §3) and returns ``(table, deal)``: a format-1 table dict as a
player at the table would write it, and the true deal (per player, per stand, the
sorted sort keys: int for blue, n.1 yellow, n.5 red).  Defaults keep the games
small enough for the brute-force oracle in ``tests/oracle.py``.
"""
from __future__ import annotations

import random
from typing import Any

Key = int | float
Gameplay = int | str  # blue number, "yellow" or "red"
Slot = tuple[int, int, int]  # (player, stand, slot)

OPTIONS = ("players", "stands", "sizes", "wires", "me", "turns", "setup_tokens",
           "keys_prob", "no_info_prob", "move_weights")
DEFAULT_MOVE_WEIGHTS = {"success": 5.0, "failure": 2.0, "solo": 2.0, "reveal_red": 1.0}


def gameplay(key: Key) -> Gameplay:
    """Blue number, "yellow" for n.1 or "red" for n.5."""
    if isinstance(key, int):
        return key
    return {1: "yellow", 5: "red"}[round(key * 10) % 10]


def standard_layout(players: int) -> list[int]:
    """Stands per player (rules.md §1.3): 2p → 2 each; 3p → captain 2, others 1; else 1."""
    if players == 2:
        return [2, 2]
    if players == 3:
        return [2, 1, 1]
    if 4 <= players <= 5:
        return [1] * players
    raise ValueError(f"Bomb Busters is for 2-5 players, not {players}")


def split_sizes(total: int, stands: int, how: str, rng: random.Random) -> list[int]:
    """Stand sizes summing to ``total``: "even" (as equal as possible, earlier
    stands get the extras) or "random" (uniform composition, each stand ≥ 1)."""
    if how == "even":
        return [total // stands + (1 if i < total % stands else 0) for i in range(stands)]
    if how == "random":
        cuts = sorted(rng.sample(range(1, total), stands - 1))
        return [b - a for a, b in zip([0] + cuts, cuts + [total])]
    raise ValueError(f"sizes must be 'even' or 'random', not {how!r}")


def random_wires(rng: random.Random, total: int | None = None) -> dict[str, Any]:
    """A small random "wires" spec; with ``total``, exactly that many wires in play.

    Blue 1..2/1..3 (4 copies) or a "deck" with 1-4 copies per blue value, 0-2
    yellows, 0-1 red, and sometimes a k-of-m uncertain pool of yellows or reds.
    """
    top = rng.choice([2, 3, 3]) if total is None else max(1, min(4, -(-total // 4)))
    colour_keys = {"yellow": [round(n + 0.1, 1) for n in range(1, top + 1)],
                   "red": [n + 0.5 for n in range(1, top + 1)]}
    yellow = sorted(rng.sample(colour_keys["yellow"], min(top, rng.choice([0, 0, 1, 2]))))
    red = sorted(rng.sample(colour_keys["red"], rng.choice([0, 1])))
    pool: dict[str, Any] | None = None
    if rng.random() < 0.3:
        colour = rng.choice(["yellow", "red"])
        free = [k for k in colour_keys[colour] if k not in yellow + red]
        if len(free) >= 2:
            m = rng.randint(2, min(3, len(free)))
            pool = {"candidates": sorted(rng.sample(free, m)), "count": rng.randint(1, m - 1)}

    if total is None:
        if rng.random() < 0.3:
            blues = {v: rng.randint(1, 4) for v in range(1, top + 1)}
            return _deck(blues, yellow + red)
        wires: dict[str, Any] = {"blue": list(range(1, top + 1)), "yellow": yellow, "red": red}
        if pool is not None:
            wires["uncertain"] = [pool]
        return wires

    while len(yellow) + len(red) + (pool["count"] if pool else 0) > total:
        if pool is not None:
            pool = None
        else:
            (yellow if yellow else red).pop()
    n_blue = total - len(yellow) - len(red) - (pool["count"] if pool else 0)
    if n_blue % 4 == 0:
        wires = {"blue": list(range(1, n_blue // 4 + 1)), "yellow": yellow, "red": red}
        if pool is not None:
            wires["uncertain"] = [pool]
        return wires
    n_blue = total - len(yellow) - len(red)  # a deck has no uncertain pool
    blues = {v: 4 for v in range(1, n_blue // 4 + 1)}
    if n_blue % 4:
        blues[n_blue // 4 + 1] = n_blue % 4
    return _deck(blues, yellow + red)


def _deck(blues: dict[int, int], coloured: list[float]) -> dict[str, Any]:
    deck = {str(v): n for v, n in blues.items()}
    deck.update({str(k): 1 for k in coloured})
    return {"deck": deck}


def _in_play(wires: dict[str, Any], rng: random.Random) -> list[Key]:
    """The tiles in play, choosing k of m uniformly for each uncertain pool."""
    tiles: list[Key] = []
    if "deck" in wires:
        for raw, n in wires["deck"].items():
            key = float(raw)
            tiles += [int(key) if key.is_integer() else key] * n
        return tiles
    for v in wires.get("blue", []):
        tiles += [v] * 4
    tiles += list(wires.get("yellow", [])) + list(wires.get("red", []))
    for pool in wires.get("uncertain", []):
        tiles += rng.sample(pool["candidates"], pool["count"])
    return tiles


def _in_play_count(wires: dict[str, Any]) -> int:
    if "deck" in wires:
        return sum(wires["deck"].values())
    return (4 * len(wires.get("blue", [])) + len(wires.get("yellow", []))
            + len(wires.get("red", [])) + sum(p["count"] for p in wires.get("uncertain", [])))


class _Game:
    """The true state of a game being played: hands, cut slots and events so far."""

    def __init__(self, deal: list[list[list[Key]]], rng: random.Random,
                 keys_prob: float, no_info_prob: float) -> None:
        self.deal = deal
        self.rng = rng
        self.keys_prob = keys_prob
        self.no_info_prob = no_info_prob
        self.cut: set[Slot] = set()
        self.events: list[dict[str, Any]] = []

    def key(self, slot: Slot) -> Key:
        return self.deal[slot[0]][slot[1]][slot[2]]

    def g(self, slot: Slot) -> Gameplay:
        return gameplay(self.key(slot))

    def uncut(self, player: int) -> list[Slot]:
        return [(player, s, j) for s, stand in enumerate(self.deal[player])
                for j in range(len(stand)) if (player, s, j) not in self.cut]

    def setup_tokens(self) -> None:
        """Each player points one of their own uncut blue wires (rules.md §2)."""
        for p in range(len(self.deal)):
            blues = [slot for slot in self.uncut(p) if isinstance(self.g(slot), int)]
            if blues:
                slot = self.rng.choice(blues)
                self.events.append({"type": "info_token", "at": _at(slot), "value": self.g(slot)})

    def moves(self, actor: int) -> dict[str, list[tuple[dict[str, Any], list[Slot]]]]:
        """Legal moves of ``actor`` by kind: (event, slots it cuts)."""
        mine = self.uncut(actor)
        held = {self.g(s) for s in mine} - {"red"}
        targets = [s for q in range(len(self.deal)) if q != actor for s in self.uncut(q)
                   if self.g(s) != "red"]
        moves: dict[str, list[tuple[dict[str, Any], list[Slot]]]] = {k: [] for k in DEFAULT_MOVE_WEIGHTS}
        for target in targets:
            v = self.g(target)
            for own in (s for s in mine if self.g(s) == v):
                event = {"type": "dual_cut", "actor": actor, "target": _at(target), "value": v,
                         "success": True, "actor_slot": {"stand": own[1], "slot": own[2]}}
                if self.rng.random() < self.keys_prob:
                    event["keys"] = {"target": self.key(target), "actor": self.key(own)}
                moves["success"].append((event, [target, own]))
            for called in sorted(held - {v}, key=str):
                token = None if self.rng.random() < self.no_info_prob else v
                moves["failure"].append(({"type": "dual_cut", "actor": actor, "target": _at(target),
                                          "value": called, "success": False, "token": token}, []))
        everywhere = [s for p in range(len(self.deal)) for s in self.uncut(p)]
        for v in sorted(held, key=str):
            all_v = [s for s in everywhere if self.g(s) == v]
            if all(s[0] == actor for s in all_v):
                slots = [{"stand": s[1], "slot": s[2]} for s in all_v]
                moves["solo"].append(({"type": "solo_cut", "actor": actor, "value": v,
                                       "slots": slots}, all_v))
        if mine and not held:
            slots = [{"stand": s[1], "slot": s[2], "value": self.key(s)} for s in mine]
            moves["reveal_red"].append(({"type": "reveal_red", "actor": actor, "slots": slots}, mine))
        return moves

    def play(self, turns: int, weights: dict[str, float]) -> None:
        """Up to ``turns`` turns in seat order, skipping players with no legal move."""
        players = len(self.deal)
        seat = 0
        for _ in range(turns):
            for offset in range(players):
                actor = (seat + offset) % players
                moves = {k: v for k, v in self.moves(actor).items() if v and weights.get(k, 0) > 0}
                if moves:
                    break
            else:
                return
            kinds = sorted(moves)
            kind = self.rng.choices(kinds, [weights[k] for k in kinds])[0]
            event, cuts = self.rng.choice(moves[kind])
            self.events.append(event)
            self.cut |= set(cuts)
            seat = actor + 1


def _at(slot: Slot) -> dict[str, int]:
    return {"player": slot[0], "stand": slot[1], "slot": slot[2]}


def random_game(rng: random.Random, **options: Any) -> tuple[dict[str, Any], list[list[list[Key]]]]:
    """A random legal game: ``(table, deal)``.

    Options (all optional, random defaults):
      players: 2-5, stands per player per rules.md §1.3.
      stands: explicit stand sizes per player, e.g. [[3, 3], [4], [3]] (fixes players).
      sizes: "even" (default; earlier stands get the extras) or "random".
      wires: a format-1 "wires" dict (blue/yellow/red/uncertain, or deck); with
        ``stands`` it must put exactly sum(sizes) wires in play.
      me: True (random observer), False (none), or a player index; default 50/50.
      turns: maximum number of turns (default 0-12); play stops earlier when no
        player has a legal move.
      setup_tokens: whether each player places a setup info token (default 50/50).
      keys_prob: chance that a dual-cut success records the printed keys (0.5).
      no_info_prob: chance that a dual-cut failure has token null (0.1).
      move_weights: relative weights of "success", "failure", "solo", "reveal_red".
    """
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise TypeError(f"unknown options {sorted(unknown)}")
    layout = options.get("stands")
    wires = options.get("wires")
    if layout is None:
        shape = standard_layout(options.get("players", rng.randint(2, 5)))
        while wires is None or _in_play_count(wires) < sum(shape):
            wires = random_wires(rng)
        flat = split_sizes(_in_play_count(wires), sum(shape), options.get("sizes", "even"), rng)
        layout = []
        for n in shape:
            layout.append(flat[:n])
            flat = flat[n:]
    elif wires is None:
        wires = random_wires(rng, sum(map(sum, layout)))
    if _in_play_count(wires) != sum(map(sum, layout)):
        raise ValueError("the wires in play do not fill the stands exactly")

    tiles = _in_play(wires, rng)
    rng.shuffle(tiles)
    deal: list[list[list[Key]]] = []
    for sizes in layout:
        deal.append([])
        for n in sizes:
            deal[-1].append(sorted(tiles[:n]))
            tiles = tiles[n:]

    game = _Game(deal, rng, options.get("keys_prob", 0.5), options.get("no_info_prob", 0.1))
    if options.get("setup_tokens", rng.random() < 0.5):
        game.setup_tokens()
    game.play(options.get("turns", rng.randint(0, 12)),
              options.get("move_weights", DEFAULT_MOVE_WEIGHTS))

    table: dict[str, Any] = {
        "players": [{"name": f"P{p}", "stands": list(sizes)} for p, sizes in enumerate(layout)],
        "wires": wires,
        "events": game.events,
    }
    me = options.get("me", rng.random() < 0.5)
    if me is not False and me is not None:
        observer = rng.randrange(len(layout)) if me is True else me
        table["me"] = {"player": observer, "stands": [list(h) for h in deal[observer]]}
    return table, deal
