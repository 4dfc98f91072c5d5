"""Random legal Bomb Busters games for tests (independent of ``bombbuster_core``).

``random_game(rng, **options)`` deals a small random game, plays random legal
turns (rules.md §2, §3) and returns ``(table, deal)``: a format-1 table dict as a
player at the table would write it, and the true deal (per player, per stand, the
sorted sort keys: int for blue, n.1 yellow, n.5 red).  Defaults keep the games
small enough for the brute-force oracle in ``tests/oracle.py``.

``random_full_game(rng, ...)`` (or ``random_game(rng, full={...})``) plays the
full rules of docs/table-format.md: X / flipped stands and Nano dealt by the
physical process, then random legal equipment and mission events of every kind
(FULL_KINDS) consistent with the true deal, tracking wires through moves and
swaps.  Its ``deal`` is a :class:`Deal`: the keys at deal-time positions, plus
``nano``, ``final`` (keys at the current positions) and ``final_cut``.
"""
from __future__ import annotations

import random
from typing import Any

Key = int | float
Gameplay = int | str  # blue number, "yellow" or "red"
Slot = tuple[int, int, int]  # (player, stand, slot)

OPTIONS = ("players", "stands", "sizes", "wires", "me", "turns", "setup_tokens",
           "keys_prob", "no_info_prob", "move_weights", "explode", "full")
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

    def explosions(self) -> list[dict[str, Any]]:
        """Dual cuts that would explode now: a player holding some value calls it on a teammate's red wire."""
        out = []
        for actor in range(len(self.deal)):
            held = sorted({self.g(s) for s in self.uncut(actor)} - {"red"}, key=str)
            for q in range(len(self.deal)):
                if q != actor and held:
                    out += [{"type": "dual_cut", "actor": actor, "target": _at(t), "value": v, "success": False,
                             "exploded": True} for t in self.uncut(q) if self.g(t) == "red" for v in held]
        return out

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
      explode: the chance (default 0) that the game then ends by an explosion
        (a dual cut on a red wire), when one is possible: the last event.
      full: a dict of ``random_full_game`` options: play a full-rules game
        instead (X / flipped stands, Nano, equipment and mission events); the
        other options given here (players, stands, wires, me, turns,
        setup_tokens) are passed on.
    """
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise TypeError(f"unknown options {sorted(unknown)}")
    if "full" in options:
        passed = {k: options[k] for k in ("players", "stands", "wires", "me", "turns", "setup_tokens", "explode")
                  if k in options}
        return random_full_game(rng, **passed, **options["full"])
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
    _end_by_explosion(rng, table, options.get("explode", 0.0), game.explosions)
    return table, deal


def _end_by_explosion(rng: random.Random, table: dict[str, Any], chance: float, explosions: Any) -> None:
    """With probability ``chance``, append an explosion as the game's last event (drawn last, so that
    the rest of a seed's game does not depend on ``chance``)."""
    if chance and rng.random() < chance:
        options = explosions()
        if options:
            table["events"].append(rng.choice(options))


# ------------------------------------------------------------------ full rules

FULL_KINDS = ("success", "failure", "solo", "reveal_red", "xy", "stabilizer", "detector", "radar",
              "label", "post_it", "fast_pass", "disintegrator", "move", "nano", "swap", "absent",
              "dealt", "multi_cut", "multi_fail", "tripwire")
SPECIALS = ("x_any", "x_blue", "flip1", "flip2", "lowhigh")
TOKEN_MODES = ("value", "null", "parity", "count", "false")


class Deal(list):
    """The true deal: ``deal[p][s]`` lists a stand's keys at the deal (deal-time
    positions: an X wire at the far right, flipped wires where they were put).
    Attributes: ``nano`` (Nano's wires in the order they are taken), ``final``
    (``final[p][s]``: the keys at the stands' current positions after every move)
    and ``final_cut`` (the current (player, stand, slot) addresses that are cut)."""

    nano: list[Key]
    final: list[list[list[Key]]]
    final_cut: set[Slot]


class _FullGame:
    """A full-rules game: wires with identities that moves and swaps carry around."""

    def __init__(self, rng: random.Random, shapes: list[list[Any]], tiles: list[Key], nano: int,
                 counts_as_red: int | None, token_mode: str) -> None:
        self.rng = rng
        self.shapes = shapes
        self.counts_as_red = counts_as_red
        self.token_mode = token_mode
        self.key: list[Key] = []
        self.stands: list[tuple[int, int]] = []  # flat index -> (player, stand)
        self.layout: list[list[int]] = []
        self.special: set[int] = set()
        self.flipped_owner: dict[int, int] = {}
        self.events: list[dict[str, Any]] = []
        self.cut: set[int] = set()
        self.received: list[tuple[int, int, dict[str, int]]] = []  # (wire, event index, address after it)
        # x_slot "blue": a blue tile drawn before the shuffle, per such stand
        pre = {}
        for p, stands in enumerate(shapes):
            for s, shape in enumerate(stands):
                if isinstance(shape, dict) and shape.get("x_slot") == "blue":
                    blues = [n for n, k in enumerate(tiles) if isinstance(k, int)]
                    pre[(p, s)] = tiles.pop(rng.choice(blues))
        rng.shuffle(tiles)
        pending_low: dict[int, tuple[int, int]] = {}  # player -> (stand index, flipped key)
        for p, stands in enumerate(shapes):
            for s, shape in enumerate(stands):
                size = shape if isinstance(shape, int) else shape["size"]
                kind = None if isinstance(shape, int) else (shape.get("x_slot") or shape.get("flipped"))
                n = size - ((p, s) in pre)
                dealt, tiles = tiles[:n], tiles[n:]
                if (p, s) in pre:
                    dealt.append(pre[(p, s)])
                if kind is None:
                    keys = sorted(dealt)
                elif kind in ("any", "blue"):
                    keys = sorted(dealt[:-1]) + [dealt[-1]]
                elif kind == 1:
                    flipped = dealt.pop(rng.randrange(len(dealt)))
                    keys = sorted(dealt) + [flipped]
                elif kind == 2:
                    a = dealt.pop(rng.randrange(len(dealt)))
                    b = dealt.pop(rng.randrange(len(dealt)))
                    keys = [min(a, b)] + sorted(dealt) + [max(a, b)]
                else:  # "low" / "high": one flipped wire of each stand, fixed up below
                    flipped = dealt.pop(rng.randrange(len(dealt)))
                    keys = [flipped] + sorted(dealt) if kind == "low" else sorted(dealt) + [flipped]
                ids = list(range(len(self.key), len(self.key) + size))
                self.key += keys
                self.stands.append((p, s))
                self.layout.append(ids)
                if kind in ("any", "blue", 1, "high"):
                    self.special.add(ids[-1])
                if kind in (2, "low"):
                    self.special.add(ids[0])
                if kind == 2:
                    self.special.add(ids[-1])
                if kind in (1, 2, "low", "high"):
                    for w in ids:
                        if w in self.special:
                            self.flipped_owner[w] = p
                if kind == "low":
                    pending_low[p] = (len(self.layout) - 1, ids[0])
                if kind == "high":
                    lo_w = self.layout[pending_low[p][0]][0]
                    hi_w = ids[-1]
                    a, b = sorted([self.key[lo_w], self.key[hi_w]])
                    self.key[lo_w], self.key[hi_w] = a, b
        self.nano = list(range(len(self.key), len(self.key) + nano))
        self.key += tiles[:nano]
        assert len(tiles) == nano
        self.dealt_layout = [list(ws) for ws in self.layout]

    # ---- views of the true state
    def g(self, w: int) -> Gameplay:
        return gameplay(self.key[w])

    def red(self, w: int) -> bool:
        return self.g(w) == "red" or self.key[w] == self.counts_as_red

    def index(self, p: int, s: int) -> int:
        return self.stands.index((p, s))

    def addr(self, w: int) -> dict[str, int]:
        for i, ws in enumerate(self.layout):
            if w in ws:
                p, s = self.stands[i]
                return {"player": p, "stand": s, "slot": ws.index(w)}
        raise ValueError("wire is not on a stand")

    def own(self, w: int) -> dict[str, int]:
        a = self.addr(w)
        return {"stand": a["stand"], "slot": a["slot"]}

    def hand(self, p: int, uncut: bool = True) -> list[int]:
        return [w for i, (q, _) in enumerate(self.stands) if q == p for w in self.layout[i]
                if not uncut or w not in self.cut]

    def players(self) -> int:
        return len(self.shapes)

    def held(self, p: int) -> set[Gameplay]:
        """Values p may call: uncut, not own flipped, not red / counts-as-red."""
        return {self.g(w) for w in self.hand(p) if self.flipped_owner.get(w) != p and not self.red(w)}

    def teammates_wires(self, p: int, plain: bool) -> list[int]:
        return [w for q in range(self.players()) if q != p for w in self.hand(q)
                if not (plain and w in self.special)]

    def all_uncut(self) -> list[int]:
        return [w for ws in self.layout for w in ws if w not in self.cut]

    def token(self, w: int, stabilized: bool = False) -> Any:
        """The failure token the mission gives for w (never null after a stabilizer)."""
        mode = self.token_mode
        if mode == "parity" and isinstance(self.key[w], int):
            return {"parity": "even" if self.key[w] % 2 == 0 else "odd"}
        if mode == "count" and w not in self.flipped_owner:
            # what the stand's owner can see: not their own flipped wires
            i = next(i for i, ws in enumerate(self.layout) if w in ws)
            owner = self.stands[i][0]
            n = sum(1 for x in self.layout[i] if self.g(x) == self.g(w) and self.flipped_owner.get(x) != owner)
            if n <= 3:
                return {"count": n}
        if mode in ("null", "false") and not stabilized:
            return None
        return self.g(w)

    def legal_inserts(self, i: int, w: int) -> list[int]:
        """Indexes of stand i where w may be inserted: between the specials at the
        ends, and between its nearest uncut sorted neighbours."""
        ws = self.layout[i]
        lo = 1 if ws and ws[0] in self.special else 0
        hi = len(ws) - 1 if ws and ws[-1] in self.special and not (lo == 1 and len(ws) == 1) else len(ws)
        out = []
        for j in range(lo, hi + 1):
            left = [x for x in ws[:j] if x not in self.cut and x not in self.special]
            right = [x for x in ws[j:] if x not in self.cut and x not in self.special]
            if (not left or self.key[left[-1]] <= self.key[w]) and (not right or self.key[w] <= self.key[right[0]]):
                out.append(j)
        return out

    # ---- candidate events of one kind for one actor: (event, apply)
    def candidates(self, kind: str, actor: int) -> list[tuple[dict[str, Any], Any]]:
        rng, out = self.rng, []
        held = self.held(actor)
        mine = [w for w in self.hand(actor) if self.flipped_owner.get(w) != actor]

        def cutter(*ws: int) -> Any:
            return lambda: self.cut.update(ws)

        if kind in ("success", "failure", "stabilizer", "xy"):
            plain = kind in ("stabilizer", "xy")  # equipment never targets X/flipped slots
            for t in self.teammates_wires(actor, plain):
                if kind == "stabilizer" and self.red(t):
                    out.append(({"type": "dual_cut", "actor": actor, "target": self.addr(t),
                                 "value": rng.choice(sorted(held, key=str)), "success": False,
                                 "token": None, "stabilizer": True}, None) if held else None)
                    continue
                if self.red(t):
                    continue
                v = self.g(t)
                if kind == "xy":
                    if len(held) < 2:
                        continue
                    pair = rng.sample(sorted(held, key=str), 2)
                    ev = {"type": "dual_cut", "actor": actor, "target": self.addr(t), "values": pair}
                    if v in pair:
                        own = rng.choice([w for w in mine if self.g(w) == v])
                        out.append(({**ev, "success": True, "cut_value": v, "actor_slot": self.own(own)},
                                    cutter(t, own)))
                    else:
                        out.append(({**ev, "success": False, "token": self.token(t)}, None))
                    continue
                flipped_v = [w for w in self.hand(actor) if self.flipped_owner.get(w) == actor and self.g(w) == v]
                if kind == "success" and flipped_v and v in held and rng.random() < 0.5:
                    # M38/M56: the owner cuts their own flipped wire (teammates see it is v);
                    # the call itself needs a v the caller can see (held never counts it)
                    own = flipped_v[0]
                    out.append(({"type": "dual_cut", "actor": actor, "target": self.addr(t), "value": v,
                                 "success": True, "actor_slot": self.own(own)}, cutter(t, own)))
                    continue
                if kind in ("success", "stabilizer") and v in held:
                    own = rng.choice([w for w in mine if self.g(w) == v])
                    ev = {"type": "dual_cut", "actor": actor, "target": self.addr(t), "value": v,
                          "success": True, "actor_slot": self.own(own)}
                    if kind == "stabilizer":
                        ev["stabilizer"] = True
                    elif v == "yellow" and rng.random() < 0.5:
                        ev["keys"] = {"target": self.key[t], "actor": self.key[own]}
                    out.append((ev, cutter(t, own)))
                if kind in ("failure", "stabilizer"):
                    for called in sorted(held - {v}, key=str):
                        ev = {"type": "dual_cut", "actor": actor, "target": self.addr(t), "value": called,
                              "success": False, "token": self.token(t, kind == "stabilizer")}
                        if kind == "stabilizer":
                            ev["stabilizer"] = True
                        out.append((ev, None))
            return [c for c in out if c is not None]
        if kind == "detector":
            blues = sorted(v for v in held if isinstance(v, int))
            if not blues:
                return []
            for q in range(self.players()):
                if q == actor:
                    continue
                for i, (p, s) in enumerate(self.stands):
                    if p != q:
                        continue
                    free = [w for w in self.layout[i] if w not in self.cut and w not in self.special]
                    for det, n in (("double", 2), ("triple", 3), ("super", len(free))):
                        if len(free) < max(n, 2) or (det == "super" and n in (2, 3) and rng.random() < 0.5):
                            continue
                        targets = sorted(rng.sample(free, n), key=lambda w: self.layout[i].index(w))
                        if len(blues) >= 2 and rng.random() < 0.3:
                            values: list[Gameplay] = rng.sample(blues, 2)
                        else:
                            values = [rng.choice(blues)]
                        ev: dict[str, Any] = {"type": "detector", "actor": actor, "kind": det,
                                              "targets": [self.addr(w) for w in targets]}
                        ev.update({"values": values} if len(values) == 2 else {"value": values[0]})
                        hits = [w for w in targets if self.g(w) in values]
                        stab = rng.random() < 0.2
                        if hits:
                            hit = rng.choice(hits)
                            cv = self.g(hit)
                            own = rng.choice([w for w in mine if self.g(w) == cv])
                            ev.update({"success": True, "cut": self.addr(hit), "actor_slot": self.own(own)})
                            if len(values) == 2:
                                ev["cut_value"] = cv
                            out.append((ev, cutter(hit, own)))
                            continue
                        safe = [w for w in targets if not self.red(w)]
                        if not safe:
                            if stab:
                                out.append(({**ev, "success": False, "token": None, "stabilizer": True}, None))
                            continue
                        at = rng.choice(safe)
                        token = self.token(at, stab)
                        ev.update({"success": False, "token": token})
                        if token is not None:
                            ev["token_at"] = self.addr(at)
                        if stab:
                            ev["stabilizer"] = True
                        out.append((ev, None))
            return out
        if kind == "solo":
            everywhere = self.all_uncut() + self.nano
            for v in sorted(held, key=str):
                all_v = [w for w in everywhere if self.g(w) == v]
                if all(w in mine for w in all_v) and (v == "yellow" or len(all_v) in (2, 4)):
                    out.append(({"type": "solo_cut", "actor": actor, "value": v,
                                 "slots": [self.own(w) for w in all_v]}, cutter(*all_v)))
            return out
        if kind == "reveal_red":
            left = self.hand(actor)
            if left and all(self.red(w) for w in left):
                out.append(({"type": "reveal_red", "actor": actor,
                             "slots": [{**self.own(w), "value": self.key[w]} for w in left]}, cutter(*left)))
            return out
        if kind == "radar":
            blues = sorted({k for k in self.key if isinstance(k, int)})
            v = rng.choice(blues)
            answers = [[any(self.key[w] == v for w in self.layout[self.index(p, s)]
                            if w not in self.cut and w not in self.special)
                        for s in range(len(self.shapes[p]))] for p in range(self.players())]
            return [({"type": "radar", "value": v, "answers": answers}, None)]
        if kind == "label":
            for i, ws in enumerate(self.layout):
                for j in range(len(ws) - 1):
                    if ws[j] in self.special or ws[j + 1] in self.special:
                        continue
                    if ws[j] in self.cut and ws[j + 1] in self.cut:
                        continue
                    p, s = self.stands[i]
                    same = self.g(ws[j]) == self.g(ws[j + 1])
                    out.append(({"type": "label", "kind": "equal" if same else "different",
                                 "at": {"player": p, "stand": s, "slot": j}}, None))
            return out
        if kind == "post_it":
            for w in self.hand(actor, uncut=False):
                if w in self.special:
                    continue
                mode = self.token_mode
                ev = {"type": "info_token", "at": self.addr(w)}
                if mode == "parity":
                    if isinstance(self.key[w], int):
                        out.append(({**ev, **self.token(w)}, None))
                elif mode == "count":
                    tok = self.token(w)
                    if isinstance(tok, dict) and not self.red(w):
                        out.append(({**ev, **tok}, None))
                elif mode == "false":
                    wrong = sorted({self.g(x) for x in range(len(self.key))} - {self.g(w), "red"}, key=str)
                    if wrong:
                        out.append(({**ev, "value": rng.choice(wrong), "false": True}, None))
                elif isinstance(self.key[w], int) and self.key[w] != self.counts_as_red:
                    out.append(({**ev, "value": self.key[w]}, None))
            return out
        if kind == "fast_pass":
            plain = [w for w in mine if w not in self.special and isinstance(self.key[w], int)
                     and not self.red(w)]
            for v in sorted({self.g(w) for w in plain}, key=str):
                ws = [w for w in plain if self.g(w) == v]
                if len(ws) >= 2:
                    pick = rng.sample(ws, 2)
                    out.append(({"type": "fast_pass", "actor": actor, "value": v,
                                 "slots": [self.own(w) for w in pick]}, cutter(*pick)))
            return out
        if kind == "disintegrator":
            values = sorted({self.g(w) for w in range(len(self.key))} - {"red", self.counts_as_red}, key=str)
            v = rng.choice(values)
            ws = [w for w in self.all_uncut() if w not in self.special and self.g(w) == v]
            return [({"type": "disintegrator", "value": v, "slots": [self.addr(w) for w in ws]}, cutter(*ws))]
        if kind in ("move", "nano"):
            if kind == "nano":
                sources = [("nano", self.nano[0])] if self.nano else []
            else:
                sources = [(None, w) for w in self.teammates_wires(actor, True)]
            for source, w in sources:
                for i, (p, s) in enumerate(self.stands):
                    if p != actor:
                        continue
                    out.append(((source, w, i), None))
            if not out:
                return []
            (source, w, i), _ = rng.choice(out)
            frm: Any = "nano" if source == "nano" else self.addr(w)
            # where it can go once it has left
            ws_before = None
            if source != "nano":
                k = next(k for k, ws in enumerate(self.layout) if w in ws)
                ws_before = (k, self.layout[k].index(w))
                self.layout[k].remove(w)
            else:
                self.nano.pop(0)
            spots = self.legal_inserts(i, w)
            # undo the removal: candidates must not change the state
            if ws_before is not None:
                self.layout[ws_before[0]].insert(ws_before[1], w)
            else:
                self.nano.insert(0, w)
            if not spots:
                return []
            j = rng.choice(spots)
            p, s = self.stands[i]
            to = {"player": p, "stand": s, "slot": j}

            def apply() -> None:
                if source == "nano":
                    self.nano.pop(0)
                else:
                    self.layout[ws_before[0]].remove(w)
                self.layout[i].insert(j, w)
                self.received.append((w, len(self.events) - 1, self.addr(w)))
            return [({"type": "move", "from": frm, "to": to}, apply)]
        if kind == "swap":
            mine_plain = [w for w in self.hand(actor) if w not in self.special]
            theirs = self.teammates_wires(actor, True)
            if not mine_plain or not theirs:
                return []
            a, b = rng.choice(mine_plain), rng.choice(theirs)
            ia = next(k for k, ws in enumerate(self.layout) if a in ws)
            ib = next(k for k, ws in enumerate(self.layout) if b in ws)
            ev = {"type": "swap", "a": self.addr(a), "b": self.addr(b)}
            ja, jb = self.layout[ia].index(a), self.layout[ib].index(b)
            self.layout[ia].remove(a)
            self.layout[ib].remove(b)
            spots_a, spots_b = self.legal_inserts(ib, a), self.legal_inserts(ia, b)
            self.layout[ia].insert(ja, a)
            self.layout[ib].insert(jb, b)
            if not spots_a or not spots_b:
                return []
            a_to, b_to = rng.choice(spots_a), rng.choice(spots_b)
            ev.update({"a_to": a_to, "b_to": b_to})

            def apply_swap() -> None:
                self.layout[ia].remove(a)
                self.layout[ib].remove(b)
                self.layout[ib].insert(a_to, a)
                self.layout[ia].insert(b_to, b)
                self.received += [(a, len(self.events) - 1, self.addr(a)), (b, len(self.events) - 1, self.addr(b))]
            return [(ev, apply_swap)]
        if kind == "absent":
            p = actor
            stand = rng.choice([None] + list(range(len(self.shapes[p])))) if len(self.shapes[p]) == 2 else None
            ws = [w for w in self.hand(p) if self.flipped_owner.get(w) != p
                  and (stand is None or self.stands[next(k for k, l in enumerate(self.layout) if w in l)][1] == stand)]
            present = {self.g(w) for w in ws}
            values = sorted({self.g(w) for w in range(len(self.key))} - present, key=str)
            if not values:
                return []
            ev = {"type": "absent", "player": p, "values": rng.sample(values, rng.randint(1, min(2, len(values))))}
            if stand is not None:
                ev["stand"] = stand
            return [(ev, None)]
        if kind == "dealt":
            p = actor
            stand = rng.choice([None] + list(range(len(self.shapes[p])))) if len(self.shapes[p]) == 2 else None
            colour = rng.choice(["red", "yellow"])
            n = sum(1 for i, (q, s) in enumerate(self.stands) if q == p and (stand is None or s == stand)
                    for w in self.dealt_layout[i] if self.g(w) == colour)
            ev = {"type": "dealt", "player": p, "value": colour, "count": n}
            if stand is not None:
                ev["stand"] = stand
            return [(ev, None)]
        if kind == "multi_cut":
            for v in sorted({self.g(w) for w in self.all_uncut()}, key=str):
                ws = [w for w in self.all_uncut() if self.g(w) == v]
                if v != "red" and len(ws) < 2:
                    continue
                out.append(({"type": "multi_cut", "actor": actor, "value": v,
                             "slots": [self.addr(w) for w in ws], "success": True}, cutter(*ws)))
            return out
        if kind == "multi_fail":
            pool = [w for w in self.all_uncut() if not self.red(w)]
            if len(pool) < 2:
                return []
            ws = rng.sample(pool, min(len(pool), rng.randint(2, 3)))
            tokens = [self.g(w) for w in ws]
            yellow = ["yellow"] if any(gameplay(k) == "yellow" for k in self.key) else []
            v = rng.choice(yellow + sorted({t for t in tokens if isinstance(t, int)}))
            if all(t == v for t in tokens):
                return []
            return [({"type": "multi_cut", "actor": actor, "value": v, "slots": [self.addr(w) for w in ws],
                      "success": False, "tokens": tokens}, None)]
        if kind == "tripwire":
            if not any(gameplay(k) == "yellow" for k in self.key):  # M41 has yellow tripwires
                return []
            for t in self.teammates_wires(actor, False):
                if self.g(t) == "yellow":
                    out.append(({"type": "tripwire", "actor": actor, "target": self.addr(t), "success": True},
                                cutter(t)))
                elif isinstance(self.g(t), int) and not self.red(t):
                    out.append(({"type": "tripwire", "actor": actor, "target": self.addr(t), "success": False,
                                 "token": self.g(t)}, None))
            return out
        raise ValueError(f"unknown event kind {kind!r}")

    def explosions(self) -> list[dict[str, Any]]:
        """Events that would explode now (rules.md §3.1, §5, §6): a dual cut, tripwire call or
        detector on red (or counts-as-red) wires, a failed special action, an own flipped wire
        (M38/M56) that is not the value called on a matching target."""
        rng, out = self.rng, []
        yellow = any(gameplay(k) == "yellow" for k in self.key)
        for actor in range(self.players()):
            held = sorted(self.held(actor), key=str)
            blues = [v for v in held if isinstance(v, int)]
            for t in self.teammates_wires(actor, False):
                if self.red(t):
                    if held:
                        out.append({"type": "dual_cut", "actor": actor, "target": self.addr(t),
                                    "value": rng.choice(held), "success": False, "exploded": True})
                    if yellow:
                        out.append({"type": "tripwire", "actor": actor, "target": self.addr(t), "success": False,
                                    "exploded": True})
                    continue
                for f in self.hand(actor):
                    # the caller must hold a v they can see, as for any call
                    if self.flipped_owner.get(f) == actor and self.g(f) != self.g(t) and self.g(t) in held:
                        out.append({"type": "dual_cut", "actor": actor, "target": self.addr(t), "value": self.g(t),
                                    "success": True, "actor_slot": self.own(f), "exploded": True})
            for i, (q, _) in enumerate(self.stands):
                reds = [w for w in self.layout[i] if w not in self.cut and w not in self.special and self.red(w)]
                if q != actor and blues and len(reds) >= 2:
                    out.append({"type": "detector", "actor": actor, "kind": "double", "value": rng.choice(blues),
                                "targets": [self.addr(w) for w in sorted(rng.sample(reds, 2), key=self.layout[i].index)],
                                "success": False, "exploded": True})
            pool = self.all_uncut()
            values = sorted({self.g(w) for w in pool} - {"yellow"}, key=str)
            if len(pool) >= 2 and values:
                v = rng.choice(values)
                ws = rng.sample(pool, rng.randint(2, min(3, len(pool))))
                if not all(self.g(w) == v for w in ws):
                    out.append({"type": "multi_cut", "actor": actor, "value": v, "slots": [self.addr(w) for w in ws],
                                "success": False, "exploded": True})
        return out

    def setup_tokens(self) -> None:
        for p in range(self.players()):
            options = self.candidates("post_it", p)
            if options:
                self.events.append(self.rng.choice(options)[0])

    def play(self, turns: int, weights: dict[str, float]) -> None:
        seat = 0
        for _ in range(turns):
            for offset in range(self.players()):
                actor = (seat + offset) % self.players()
                kinds = [k for k in sorted(weights) if weights[k] > 0]
                self.rng.shuffle(kinds)
                moves = {}
                for k in kinds:
                    c = self.candidates(k, actor)
                    if c:
                        moves[k] = c
                if moves:
                    break
            else:
                return
            kinds = sorted(moves)
            kind = self.rng.choices(kinds, [weights[k] for k in kinds])[0]
            event, apply = self.rng.choice(moves[kind])
            self.events.append(event)
            if apply is not None:
                apply()
            seat = actor + 1


def _full_shapes(rng: random.Random, layout: list[list[int]], special: str | None) -> list[list[Any]]:
    """Stand shapes: ``special`` applied to every stand that can take it (or one
    random kind per stand when "mixed")."""
    shapes: list[list[Any]] = []
    for sizes in layout:
        stands: list[Any] = []
        kind = special if special != "mixed" else rng.choice([None, "x_any", "flip1", "flip2"])
        if kind == "lowhigh" and len(sizes) == 2 and min(sizes) >= 2:
            stands = [{"size": sizes[0], "flipped": "low"}, {"size": sizes[1], "flipped": "high"}]
        else:
            for n in sizes:
                if kind in ("x_any", "x_blue") and n >= 2:
                    stands.append({"size": n, "x_slot": kind[2:]})
                elif kind == "flip1" and n >= 2:
                    stands.append({"size": n, "flipped": 1})
                elif kind in ("flip2", "lowhigh") and n >= 3:
                    stands.append({"size": n, "flipped": 2})
                else:
                    stands.append(n)
        shapes.append(stands)
    return shapes


def random_full_game(rng: random.Random, *, players: int | None = None, total: int | None = None,
                     special: str | None = None, nano: int = 0, counts_as_red: bool = False,
                     token_mode: str = "value", setup_tokens: bool | None = None,
                     kinds: dict[str, float] | None = None, turns: int | None = None,
                     me: Any = None, wires: dict[str, Any] | None = None,
                     stands: list[list[int]] | None = None, explode: float = 0.15) -> tuple[dict[str, Any], Deal]:
    """A random legal full-rules game: ``(table, deal)`` (see :class:`Deal`).

    special: None, "x_any", "x_blue", "flip1", "flip2", "lowhigh" (M64 2-stand
      player; flip2 on 1-stand players) or "mixed" (X any / flipped per player).
    nano: Nano's wire count.  counts_as_red: one blue value counts as red (M11).
    token_mode: what failure tokens and Post-its say: "value", "null",
      "parity", "count" or "false" (false Post-its, null failure tokens).
    kinds: weights of the event kinds in FULL_KINDS (default: all equal).
    me: True / False / player index (default 50/50); the observer's "seen"
      lists teammates' flipped wires and every wire moved into their hand.
    explode: the chance that the game then ends by an explosion (the last
      event, when one is possible: :meth:`_FullGame.explosions`).
    """
    players = players or rng.randint(2, 4)
    if stands is None:
        shape = standard_layout(players)
        total = total or rng.randint(sum(shape) * 2 + nano, 10)
        if wires is None:
            wires = random_wires(rng, total)
        flat = split_sizes(_in_play_count(wires) - nano, sum(shape), "even", rng)
        stands = []
        for n in shape:
            stands.append(flat[:n])
            flat = flat[n:]
    elif wires is None:
        wires = random_wires(rng, sum(map(sum, stands)) + nano)
    players = len(stands)
    wires = dict(wires)
    v0 = None
    if counts_as_red:
        blues = sorted({k for k in _in_play(wires, random.Random(0)) if isinstance(k, int)})
        v0 = rng.choice(blues)
        wires["counts_as_red"] = v0
    shapes = _full_shapes(rng, stands, special)
    tiles = _in_play({k: v for k, v in wires.items() if k != "counts_as_red"}, rng)
    game = _FullGame(rng, shapes, tiles, nano, v0, token_mode)
    if setup_tokens if setup_tokens is not None else rng.random() < 0.5:
        game.setup_tokens()
    weights = kinds or {k: 1.0 for k in FULL_KINDS}
    game.play(turns if turns is not None else rng.randint(1, 8), weights)

    table: dict[str, Any] = {
        "players": [{"name": f"P{p}", "stands": st} for p, st in enumerate(shapes)],
        "wires": wires,
        "events": game.events,
    }
    if nano:
        table["nano"] = nano
    deal = Deal([[[game.key[w] for w in game.dealt_layout[game.index(p, s)]] for s in range(len(shapes[p]))]
                 for p in range(players)])
    deal.nano = [game.key[w] for w in range(len(game.key) - nano, len(game.key))]
    deal.final = [[[game.key[w] for w in game.layout[game.index(p, s)]] for s in range(len(shapes[p]))]
                  for p in range(players)]
    deal.final_cut = {(p, s, j) for i, (p, s) in enumerate(game.stands)
                      for j, w in enumerate(game.layout[i]) if w in game.cut}
    if me is None:
        me = rng.random() < 0.5
    if me is not False:
        obs = rng.randrange(players) if me is True else me
        mine = [[None if game.flipped_owner.get(w) == obs else game.key[w]
                 for w in game.dealt_layout[game.index(obs, s)]] for s in range(len(shapes[obs]))]
        seen = []
        for i, (p, s) in enumerate(game.stands):
            if p != obs:
                for j, w in enumerate(game.dealt_layout[i]):
                    if w in game.flipped_owner:
                        seen.append({"at": {"player": p, "stand": s, "slot": j}, "value": game.key[w]})
        # a wire moved into my hand: its address after that event
        for w, n, at in game.received:
            if at["player"] == obs:
                seen.append({"at": at, "value": game.key[w], "after": n})
        table["me"] = {"player": obs, "stands": mine}
        if seen:
            table["me"]["seen"] = seen
    _end_by_explosion(rng, table, explode, game.explosions)
    return table, deal
