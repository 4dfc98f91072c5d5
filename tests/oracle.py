"""Brute-force ground truth for bombbuster tables (test-only, independent of the core).

``enumerate_table(table)`` enumerates every deal that a format-1 table allows and
returns the exact per-slot probabilities in the shape the CLI prints.  It never
imports ``bombbuster_core``: it is the oracle the core is compared against, so it
aims to be obviously correct rather than fast (tables up to ~14 wires).

Model (rules.md §1.2, §1.3, §6, §7; docs/table-format.md, "Full rules"):

* The in-play tiles are the fixed wires plus, for each k-of-m "uncertain" pool,
  one k-subset of its candidates (every subset equally likely a priori); the
  unchosen candidates are set aside unseen.
* Every physical wire has an identity: ``t.initial[stand][j]`` is the wire dealt
  to slot j of a stand (deal-time positions, X and flipped slots included) and
  ``t.nano_wires`` Nano's wires in the order they will be taken.
* A deal is a uniform shuffle of distinguishable tiles.  The dealt positions
  form *groups* whose internal order the deal does not fix:
    - the sorted part of a stand: shown in key order;
    - an X slot (the last wire dealt to a stand) or one flipped wire: one
      position (an ``x_slot: "blue"`` wire must be blue: a blue tile drawn
      before the shuffle = the shuffle conditioned on that position being blue);
    - two flipped wires (M64, one stand or the "low"/"high" pair of a 2-stand
      player): an unordered pair shown lower-left / higher-right;
    - each of Nano's k wires: one position (taken one at a time).
  A deal is therefore a count matrix c[group][key], with weight
  ``prod_k copies_k! / prod_groups c[group][k]!`` = the number of ways to put the
  distinguishable tiles into the groups (a multivariate hypergeometric).
  ``tests/test_oracle.py`` checks this against naive enumeration of tile
  permutations with the physical process (flip choices, X last, Nano order).
* A deal is consistent iff the observer's wires ("me": dealt hand and ``seen``)
  match and replaying the events in order on that deal -- moving wires between
  stands as the events say, a moved wire keeping its identity -- makes every
  event true at its moment (see ``_replay``).
* ``worlds`` is the integer sum of the weights of the consistent deals.
* The result lists every CURRENT slot (after all moves) of every stand; Nano's
  remaining wires are not listed.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from typing import Any, Iterator

Key = int | float
Gameplay = int | str  # blue number, "yellow" or "red"
Hand = tuple[Key, ...]  # one sorted stand

SPECIAL_KINDS = ("x_any", "x_blue", "flip1", "flip2", "low", "high")


def norm_key(raw: Any) -> Key:
    """A sort key as an int (blue) or a float with one decimal (yellow n.1, red n.5)."""
    value = float(raw) if isinstance(raw, str) else raw
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"bad sort key {raw!r}")
    if float(value).is_integer():
        return int(value)
    return float(value)


def key_str(key: Key) -> str:
    """Sort key as printed in the CLI output: "3", "2.1", "5.5"."""
    return str(key)


def gameplay(key: Key) -> Gameplay:
    """Gameplay value of a tile: its blue number, "yellow" (n.1) or "red" (n.5)."""
    if isinstance(key, int):
        return key
    tenth = round(key * 10) % 10
    if tenth == 1:
        return "yellow"
    if tenth == 5:
        return "red"
    raise ValueError(f"sort key {key!r} is neither blue, yellow (n.1) nor red (n.5)")


def _norm_value(raw: Any) -> Gameplay:
    """A called / token / info value: blue int, "yellow" or "red"."""
    if raw in ("yellow", "red"):
        return raw
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ValueError(f"bad gameplay value {raw!r}")
    return raw


# --------------------------------------------------------------------------- table


def _stand_shape(raw: Any) -> tuple[int, str | None]:
    """(size, special kind) of one entry of ``players[i].stands``."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw, None
    if not isinstance(raw, dict) or set(raw) - {"size", "x_slot", "flipped"}:
        raise ValueError(f"bad stand {raw!r}")
    size = int(raw["size"])
    if "x_slot" in raw and "flipped" in raw:
        raise ValueError(f"bad stand {raw!r}")
    if "x_slot" in raw:
        kind = {"any": "x_any", "blue": "x_blue"}[raw["x_slot"]]
    elif "flipped" in raw:
        kind = {1: "flip1", 2: "flip2", "low": "low", "high": "high"}[raw["flipped"]]
    else:
        kind = None
    specials = 2 if kind == "flip2" else (1 if kind else 0)
    if size <= specials:
        raise ValueError(f"stand {raw!r}: size must exceed its special slots")
    return size, kind


class Table:
    """The parsed parts of a format-1 table the oracle needs."""

    def __init__(self, table: dict[str, Any]) -> None:
        # stands: flat list of (player, stand-in-player, size at the deal)
        self.stands: list[tuple[int, int, int]] = []
        self.kinds: list[str | None] = []
        self.stand_index: dict[tuple[int, int], int] = {}
        self.player_stands: list[list[int]] = []
        for p, player in enumerate(table["players"]):
            mine = []
            for s, raw in enumerate(player["stands"]):
                size, kind = _stand_shape(raw)
                self.stand_index[(p, s)] = len(self.stands)
                mine.append(len(self.stands))
                self.stands.append((p, s, size))
                self.kinds.append(kind)
            self.player_stands.append(mine)

        # wire identities, the deal-time layout and the groups of the shuffle
        self.initial: list[list[int]] = []
        self.home: list[tuple[int, int] | tuple[str, int]] = []  # (stand, deal slot) or ("nano", i)
        self.special: set[int] = set()  # X and flipped wires
        self.flipped_owner: dict[int, int] = {}  # flipped wire -> its owner
        self.blue_only: set[int] = set()  # x_slot "blue" wires
        self.groups: list[list[int]] = []  # wires of a group, in ascending key order
        pair_part: dict[tuple[int, str], int] = {}
        for i, (p, s, size) in enumerate(self.stands):
            ids = list(range(len(self.home), len(self.home) + size))
            self.home += [(i, j) for j in range(size)]
            self.initial.append(ids)
            kind = self.kinds[i]
            if kind is None:
                self.groups.append(ids)
            elif kind in ("x_any", "x_blue", "flip1"):
                self.groups += [ids[:-1], [ids[-1]]]
                self.special.add(ids[-1])
                if kind == "x_blue":
                    self.blue_only.add(ids[-1])
                if kind == "flip1":
                    self.flipped_owner[ids[-1]] = p
            elif kind == "flip2":
                self.groups += [ids[1:-1], [ids[0], ids[-1]]]
                self.special |= {ids[0], ids[-1]}
                self.flipped_owner.update({ids[0]: p, ids[-1]: p})
            elif kind == "low":
                self.groups.append(ids[1:])
                pair_part[(p, "low")] = ids[0]
            else:  # "high"
                self.groups.append(ids[:-1])
                pair_part[(p, "high")] = ids[-1]
        for (p, part), w in pair_part.items():
            other = pair_part.get((p, "high" if part == "low" else "low"))
            if other is None or len(self.player_stands[p]) != 2:
                raise ValueError(f"player {p}: flipped 'low' and 'high' come as a pair of stands")
            self.special.add(w)
            self.flipped_owner[w] = p
            if part == "low":
                self.groups.append([w, other])
        nano = int(table.get("nano", 0))
        self.nano_wires = list(range(len(self.home), len(self.home) + nano))
        self.home += [("nano", i) for i in range(nano)]
        self.groups += [[w] for w in self.nano_wires]
        self.groups = [g for g in self.groups if g]

        wires = table["wires"]
        self.fixed: Counter[Key] = Counter()
        self.pools: list[tuple[list[Key], int]] = []
        if "deck" in wires:
            for raw, copies in wires["deck"].items():
                self.fixed[norm_key(raw)] += int(copies)
        else:
            for v in wires.get("blue", []):
                self.fixed[norm_key(v)] += 4
            for k in wires.get("yellow", []) + wires.get("red", []):
                self.fixed[norm_key(k)] += 1
            for pool in wires.get("uncertain", []):
                cands = [norm_key(c) for c in pool["candidates"]]
                count = int(pool["count"])
                if len(set(cands)) != len(cands) or not 0 <= count <= len(cands):
                    raise ValueError(f"bad uncertain pool {pool!r}")
                self.pools.append((cands, count))
        self.counts_as_red: Key | None = (norm_key(wires["counts_as_red"])
                                          if wires.get("counts_as_red") is not None else None)
        for key in self.fixed:
            gameplay(key)
        pooled = [c for cands, _ in self.pools for c in cands]
        if len(set(pooled)) != len(pooled) or set(pooled) & set(self.fixed):
            raise ValueError("uncertain candidates must be distinct and not fixed wires")
        in_play = sum(self.fixed.values()) + sum(k for _, k in self.pools)
        if in_play != len(self.home):
            raise ValueError(f"{in_play} wires in play but stands and Nano hold {len(self.home)}")

        self.events: list[dict[str, Any]] = list(table.get("events", []))
        self.layouts = _walk_positions(self)  # layouts[n]: the stands before event n

        # what the observer knows: wire -> key ("me" as dealt, and "seen")
        self.known: dict[int, Key] = {}
        self.me: dict[int, tuple[Key | None, ...]] = {}
        if table.get("me") is not None:
            me = table["me"]
            for s, hand in enumerate(me["stands"]):
                i = self.stand_index[(me["player"], s)]
                if len(hand) != self.stands[i][2]:
                    raise ValueError(f"me: stand {s} has {self.stands[i][2]} slots")
                self.me[i] = tuple(None if k is None else norm_key(k) for k in hand)
                for j, k in enumerate(self.me[i]):
                    if k is None:
                        if self.flipped_owner.get(self.initial[i][j]) != me["player"]:
                            raise ValueError("me: null only for my own flipped wires")
                    else:
                        self._know(self.initial[i][j], k)
            for seen in me.get("seen", []):
                after = seen.get("after")
                layout = self.layouts[0 if after is None else after + 1]
                at = seen["at"]
                i = self.stand_index[(at["player"], at["stand"])]
                self._know(layout[i][at["slot"]], norm_key(seen["value"]))

    def _know(self, wire: int, key: Key) -> None:
        if self.known.get(wire, key) != key:
            self.known[wire] = None  # type: ignore[assignment]  # contradictory: no deal fits
        else:
            self.known[wire] = key

    def all_slots(self) -> list[tuple[int, int]]:
        """(stand, slot) of every CURRENT slot after all events."""
        final = self.layouts[-1]
        return [(i, j) for i in range(len(self.stands)) for j in range(len(final[i]))]


# ------------------------------------------------------------- positions (no keys)


def _stand_of(t: Table, addr: dict[str, Any], actor: int | None = None) -> int:
    player = addr.get("player", actor)
    if player is None or (player, addr["stand"]) not in t.stand_index:
        raise ValueError(f"no stand {addr!r}")
    return t.stand_index[(player, addr["stand"])]


class _Board:
    """Physical positions: which wire sits in each slot of each stand, Nano's queue."""

    def __init__(self, t: Table) -> None:
        self.t = t
        self.layout = [list(ws) for ws in t.initial]
        self.nano = list(t.nano_wires)

    def at(self, addr: dict[str, Any], actor: int | None = None) -> int:
        i = _stand_of(self.t, addr, actor)
        if not 0 <= addr["slot"] < len(self.layout[i]):
            raise ValueError(f"slot {addr!r} is out of range")
        return self.layout[i][addr["slot"]]

    def where(self, wire: int) -> tuple[int, int]:
        for i, ws in enumerate(self.layout):
            if wire in ws:
                return i, ws.index(wire)
        raise ValueError("wire is not on a stand")

    def take(self, source: Any) -> int:
        """Remove a wire from a slot (or Nano's next one) and return it."""
        if source == "nano":
            if not self.nano:
                raise ValueError("Nano has no wire left")
            return self.nano.pop(0)
        wire = self.at(source)
        if wire in self.t.special:
            raise ValueError("X and flipped wires never move")
        i, j = self.where(wire)
        del self.layout[i][j]
        return wire

    def put(self, wire: int, addr: dict[str, Any], index: int) -> tuple[int, int]:
        i = _stand_of(self.t, addr)
        if not 0 <= index <= len(self.layout[i]):
            raise ValueError(f"insertion index {index} is out of range")
        self.layout[i].insert(index, wire)
        return i, index

    def move(self, ev: dict[str, Any]) -> list[tuple[int, int]]:
        """Apply a move or swap; the (stand, index) of each inserted wire."""
        if ev["type"] == "move":
            wire = self.take(ev["from"])
            return [self.put(wire, ev["to"], ev["to"]["slot"])]
        wa, wb = self.at(ev["a"]), self.at(ev["b"])
        if wa in self.t.special or wb in self.t.special:
            raise ValueError("X and flipped wires never move")
        a_stand, b_stand = _stand_of(self.t, ev["a"]), _stand_of(self.t, ev["b"])
        self.layout[a_stand].remove(wa)
        self.layout[b_stand].remove(wb)
        return [self.put(wa, ev["b"], ev["a_to"]), self.put(wb, ev["a"], ev["b_to"])]


def _walk_positions(t: Table) -> list[list[list[int]]]:
    """The layout before each event, and after the last one (no key is looked at)."""
    board = _Board(t)
    layouts = [[list(ws) for ws in board.layout]]
    for ev in t.events:
        if ev["type"] in ("move", "swap"):
            board.move(ev)
        layouts.append([list(ws) for ws in board.layout])
    return layouts


# ---------------------------------------------------------------- replay (the truth)


def _replay(t: Table, keys: list[Key], upto: int | None = None, checked: set[int] | None = None,
            reference: list[Key] | None = None) -> tuple[set[int], _Board] | None:
    """Replay the events (the first ``upto``) on a concrete deal (``keys[wire]``):
    the set of cut wires and the final board, or None if some event is false at
    its moment.

    ``checked``: only these events must be true (tests/test_explain.py); the others
    are replayed on ``reference``, a deal where every event is true (the real one),
    for what they do to the board -- which wires they cut or move, the same on any
    deal -- and say nothing of ``keys``."""
    deal = keys
    board = _Board(t)
    cut: set[int] = set()
    layout = board.layout

    def g(w: int) -> Gameplay:
        return gameplay(keys[w])

    def red(w: int) -> bool:  # red, or a blue value that counts as red (M11)
        return g(w) == "red" or keys[w] == t.counts_as_red

    def hand(player: int) -> list[int]:
        return [w for i in t.player_stands[player] for w in layout[i]]

    def holds(player: int, v: Gameplay) -> bool:
        """An uncut v in the player's hand; their own flipped wires do not count."""
        return any(g(w) == v for w in hand(player)
                   if w not in cut and t.flipped_owner.get(w) != player)

    def stand_count(w: int) -> int:
        """Wires of w's gameplay value on w's current stand, cut ones included, that
        the stand's owner can see: not their own flipped wires (docs, "Rule
        readings": COUNT_TOKEN_SEES_OWN_FLIPPED is False)."""
        i, _ = board.where(w)
        owner = t.stands[i][0]
        return sum(1 for x in layout[i] if g(x) == g(w) and t.flipped_owner.get(x) != owner)

    def token_ok(token: Any, w: int) -> bool:
        if token is None:
            return True
        if isinstance(token, dict):
            if "parity" in token:
                return isinstance(keys[w], int) and keys[w] % 2 == (0 if token["parity"] == "even" else 1)
            # "not red": a red wire (the counts_as_red value is not named among
            # what M11 changes; a failed cut's target is checked apart)
            return g(w) != "red" and stand_count(w) == token["count"]
        return g(w) == _norm_value(token)

    def in_order(i: int, j: int) -> bool:
        """The wire inserted at (i, j) lies between its nearest uncut sorted neighbours."""
        w = layout[i][j]
        left = [x for x in layout[i][:j] if x not in cut and x not in t.special]
        right = [x for x in layout[i][j + 1:] if x not in cut and x not in t.special]
        return (not left or keys[left[-1]] <= keys[w]) and (not right or keys[w] <= keys[right[0]])

    def called(ev: dict[str, Any]) -> list[Gameplay]:
        return [_norm_value(v) for v in ev["values"]] if "values" in ev else [_norm_value(ev["value"])]

    events = t.events if upto is None else t.events[:upto]
    for n, ev in enumerate(events):
        keys = deal if checked is None or n in checked else reference  # g(), red(), ... read it late
        kind = ev["type"]
        if n and events[n - 1].get("exploded"):
            raise ValueError("an event after the bomb exploded")
        boom = bool(ev.get("exploded"))  # the bomb exploded: nothing is cut, the game is over
        if kind == "info_token":
            w = board.at(ev["at"])
            if "parity" in ev:
                ok = token_ok({"parity": ev["parity"]}, w)
            elif "count" in ev:
                ok = token_ok({"count": ev["count"]}, w)
            elif ev.get("false"):
                ok = g(w) != _norm_value(ev["value"])
            else:
                ok = g(w) == _norm_value(ev["value"])
            if not ok:
                return None
        elif kind in ("dual_cut", "detector"):
            actor, values = ev["actor"], called(ev)
            if kind == "dual_cut":
                targets = [board.at(ev["target"])]
            else:
                targets = [board.at(a) for a in ev["targets"]]
            if any(w in cut for w in targets):
                return None
            # rules.md §3.1 and docs "Rule readings": the caller holds an uncut
            # wire of every called value among the wires they can see, whatever
            # happens next (their own flipped wire, even cut as actor_slot, is not one)
            if not all(holds(actor, v) for v in values):
                return None
            if ev["success"]:
                value = _norm_value(ev["cut_value"]) if "values" in ev else values[0]
                if value not in values:
                    return None
                hit = targets[0] if kind == "dual_cut" else board.at(ev["cut"])
                mine = board.at(ev["actor_slot"], actor)
                if t.flipped_owner.get(mine) == actor and (kind == "detector" or "values" in ev
                                                           or ev.get("stabilizer")):
                    raise ValueError("M38: one's own flipped wire is cut by a normal cut, no equipment")
                if hit not in targets or mine in cut or g(hit) != value:
                    return None
                if boom:  # M38/M56: the actor's own flipped wire, cut as the value, was not it
                    if g(mine) == value:
                        return None
                    continue
                if g(mine) != value:
                    return None
                ks = ev.get("keys")
                if ks is not None and (keys[hit] != norm_key(ks["target"]) or keys[mine] != norm_key(ks["actor"])):
                    return None
                cut |= {hit, mine}
            else:
                if any(g(w) in values for w in targets):
                    return None
                token = ev.get("token")
                if boom:  # every target red (or counting as red): the bomb exploded
                    if not all(red(w) for w in targets):
                        return None
                elif token is None and ev.get("stabilizer"):
                    if not all(red(w) for w in targets):
                        return None
                elif kind == "dual_cut":
                    if red(targets[0]) or not token_ok(token, targets[0]):
                        return None
                else:
                    if all(red(w) for w in targets):
                        return None
                    if token is not None:
                        at = board.at(ev["token_at"])
                        if at not in targets or red(at) or not token_ok(token, at):
                            return None
        elif kind == "solo_cut":
            actor, v = ev["actor"], _norm_value(ev["value"])
            listed = {board.at(w, actor) for w in ev["slots"]}
            if any(w in cut or g(w) != v for w in listed):
                return None
            # no other uncut wire anywhere is v: every stand, X/flipped and Nano included
            others = [w for ws in layout for w in ws if w not in cut and w not in listed] + board.nano
            if any(g(w) == v for w in others):
                return None
            cut |= listed
        elif kind == "reveal_red":
            actor = ev["actor"]
            listed = {board.at(w, actor): w.get("value") for w in ev["slots"]}
            if set(listed) != {w for w in hand(actor) if w not in cut}:
                return None
            for w, printed in listed.items():
                if not red(w) or (printed is not None and keys[w] != norm_key(printed)):
                    return None
            cut |= set(listed)
        elif kind == "radar":
            v = _norm_value(ev["value"])
            for p, answers in enumerate(ev["answers"]):
                for s, yes in enumerate(answers):
                    ws = layout[t.stand_index[(p, s)]]
                    has = any(keys[w] == v and isinstance(keys[w], int) for w in ws
                              if w not in cut and w not in t.special)
                    if has != yes:
                        return None
        elif kind == "label":
            i = _stand_of(t, ev["at"])
            j = ev["at"]["slot"]
            if not 0 <= j < len(layout[i]) - 1:
                raise ValueError("label: no right neighbour")
            same = g(layout[i][j]) == g(layout[i][j + 1])
            if same != (ev["kind"] == "equal"):
                return None
        elif kind == "fast_pass":
            actor, v = ev["actor"], _norm_value(ev["value"])
            listed = {board.at(w, actor) for w in ev["slots"]}
            if any(w in cut or g(w) != v for w in listed):
                return None
            cut |= listed
        elif kind == "disintegrator":
            v = _norm_value(ev["value"])
            listed = {board.at(w) for w in ev["slots"]}
            every = {w for ws in layout for w in ws
                     if w not in cut and w not in t.special and g(w) == v}
            if listed != every:
                return None
            cut |= listed
        elif kind in ("move", "swap"):
            moving = [board.at(ev["from"])] if kind == "move" and ev["from"] != "nano" else []
            if kind == "swap":
                moving = [board.at(ev["a"]), board.at(ev["b"])]
            if any(w in cut for w in moving):
                return None
            for i, j in board.move(ev):
                if not in_order(i, j):
                    return None
        elif kind == "absent":
            p = ev["player"]
            stands = ([t.stand_index[(p, ev["stand"])]] if ev.get("stand") is not None
                      else t.player_stands[p])
            values = {_norm_value(v) for v in ev["values"]}
            if any(g(w) in values for i in stands for w in layout[i]
                   if w not in cut and t.flipped_owner.get(w) != p):
                return None
        elif kind == "dealt":
            p = ev["player"]
            stands = ([t.stand_index[(p, ev["stand"])]] if ev.get("stand") is not None
                      else t.player_stands[p])
            n = sum(1 for i in stands for w in t.initial[i] if g(w) == ev["value"])
            if n != ev["count"]:
                return None
        elif kind == "multi_cut":
            v = _norm_value(ev["value"])
            listed = [board.at(w) for w in ev["slots"]]
            if any(w in cut for w in listed) or len(set(listed)) != len(listed):
                return None
            if ev["success"]:
                if any(g(w) != v for w in listed):
                    return None
                cut |= set(listed)
            elif boom:  # M13/M23/M39/M46: not every listed wire is v
                if all(g(w) == v for w in listed):
                    return None
            else:
                tokens = [_norm_value(x) for x in ev["tokens"]]
                if len(tokens) != len(listed) or all(x == v for x in tokens):
                    return None
                # a failed cut: not red (nor a counts_as_red wire: it would have exploded)
                if any(g(w) != x or red(w) for w, x in zip(listed, tokens)):
                    return None
        elif kind == "tripwire":
            w = board.at(ev["target"])
            if w in cut:
                return None
            if ev["success"]:
                if g(w) != "yellow":
                    return None
                cut.add(w)
            elif boom:
                if not red(w):
                    return None
            elif g(w) == "yellow" or red(w) or g(w) != _norm_value(ev["token"]):
                return None
        elif kind == "equipment":
            pass  # a card that tells nothing about wires (Rewinder, Batteries, Coffee Mug, False Bottom, Drop)
        else:
            raise ValueError(f"unknown event type {kind!r}")
    return cut, board


def _deal_ok(t: Table, keys: list[Key]) -> bool:
    """Group shape (sorted parts sorted, pairs low <= high, X blue) and the observer's wires."""
    for group in t.groups:
        if any(keys[a] > keys[b] for a, b in zip(group, group[1:])):
            return False
    if any(not isinstance(keys[w], int) for w in t.blue_only):
        return False
    return all(keys[w] == k for w, k in t.known.items())


def _deal_keys(t: Table, deal: list[list[list[Key | None]]], nano: list[Key]) -> list[Key]:
    """Keys per wire identity of a concrete deal; ValueError when its shape is not the table's."""
    keys: list[Key] = [0] * len(t.home)
    for i, (p, s, size) in enumerate(t.stands):
        if len(deal[p][s]) != size:
            raise ValueError(f"stand {p}/{s} has {size} slots")
        for j, k in enumerate(deal[p][s]):
            keys[t.initial[i][j]] = norm_key(k)
    if len(nano) != len(t.nano_wires):
        raise ValueError(f"Nano holds {len(t.nano_wires)} wires")
    for w, k in zip(t.nano_wires, nano):
        keys[w] = norm_key(k)
    return keys


def is_consistent(table: dict[str, Any], deal: list[list[list[Key | None]]],
                  nano: list[Key] | None = None) -> bool:
    """Whether one concrete deal fits the table: ``deal[p][s]`` lists the keys of a
    stand at the deal (deal-time positions, X and flipped slots included), ``nano``
    (or ``deal.nano``) Nano's wires in the order they are taken."""
    t = Table(table)
    if nano is None:
        nano = list(getattr(deal, "nano", []))
    try:
        keys = _deal_keys(t, deal, nano)
    except ValueError:
        return False
    dealt = Counter(keys)
    extra = dealt - t.fixed  # must be exactly k distinct candidates of each pool
    if t.fixed - dealt or any(n > 1 for n in extra.values()):
        return False
    for cands, count in t.pools:
        if sum(extra.pop(c, 0) for c in cands) != count:
            return False
    if extra:
        return False
    return _deal_ok(t, keys) and _replay(t, keys) is not None


# ---------------------------------------------------------------- enumeration


def _static_allowed(t: Table, upto: int | None = None, checked: set[int] | None = None) -> dict[int, set[Key]]:
    """Allowed sort keys per wire from facts that hold whatever the timing (a tile's
    value never changes).  Used only to prune; every deal is still fully replayed."""
    every_key = set(t.fixed) | {c for cands, _ in t.pools for c in cands}
    allowed: dict[int, set[Key]] = {}

    def restrict(w: int, ok: set[Key]) -> None:
        allowed[w] = allowed.get(w, every_key) & ok

    def of_value(v: Gameplay) -> set[Key]:
        return {k for k in every_key if gameplay(k) == v}

    reds = {k for k in every_key if gameplay(k) == "red" or k == t.counts_as_red}
    for w, k in t.known.items():
        restrict(w, {k} if k is not None else set())
    for w in t.blue_only:
        restrict(w, {k for k in every_key if isinstance(k, int)})
    for n, ev in enumerate(t.events[:upto]):
        if checked is not None and n not in checked:
            continue
        layout = t.layouts[n]

        def at(addr: dict[str, Any], actor: int | None = None) -> int:
            return layout[_stand_of(t, addr, actor)][addr["slot"]]

        kind = ev["type"]
        if kind == "info_token" and "value" in ev and "parity" not in ev and "count" not in ev:
            ok = of_value(_norm_value(ev["value"]))
            restrict(at(ev["at"]), every_key - ok if ev.get("false") else ok)
        elif kind in ("dual_cut", "detector") and ev["success"]:
            value = _norm_value(ev["cut_value"] if "values" in ev else ev["value"])
            hit = at(ev["target"]) if kind == "dual_cut" else at(ev["cut"])
            restrict(hit, of_value(value))
            mine = of_value(value)
            restrict(at(ev["actor_slot"], ev["actor"]), every_key - mine if ev.get("exploded") else mine)
        elif kind == "dual_cut":
            w = at(ev["target"])
            values = ev.get("values", [ev.get("value")])
            restrict(w, {k for k in every_key if gameplay(k) not in values})
            token = ev.get("token")
            if ev.get("exploded"):
                restrict(w, reds)
            elif token is None and ev.get("stabilizer"):
                restrict(w, reds)
            else:
                restrict(w, every_key - reds)
                if token is not None and not isinstance(token, dict):
                    restrict(w, of_value(_norm_value(token)))
        elif kind == "detector":
            values = ev.get("values", [ev.get("value")])
            for a in ev["targets"]:
                restrict(at(a), {k for k in every_key if gameplay(k) not in values})
        elif kind in ("solo_cut", "fast_pass"):
            for a in ev["slots"]:
                restrict(at(a, ev["actor"]), of_value(_norm_value(ev["value"])))
        elif kind == "reveal_red":
            for a in ev["slots"]:
                restrict(at(a, ev["actor"]), reds)
        elif kind == "disintegrator" or (kind == "multi_cut" and ev["success"]):
            for a in ev["slots"]:
                restrict(at(a), of_value(_norm_value(ev["value"])))
        elif kind == "multi_cut" and not ev.get("exploded"):
            for a, x in zip(ev["slots"], ev["tokens"]):
                restrict(at(a), of_value(_norm_value(x)))
        elif kind == "tripwire" and ev.get("exploded"):
            restrict(at(ev["target"]), reds)
        elif kind == "tripwire":
            restrict(at(ev["target"]), of_value("yellow" if ev["success"] else _norm_value(ev["token"])))
    return allowed


def _group_contents(size: int, keys: list[Key], copies: Counter[Key],
                    allowed: list[set[Key] | None]) -> Iterator[Hand]:
    """Every sorted multiset of ``size`` tiles drawn from ``copies`` (copies per key),
    with its j-th smallest key in ``allowed[j]`` when that is not None."""
    def rec(ki: int, hand: list[Key]) -> Iterator[Hand]:
        if len(hand) == size:
            yield tuple(hand)
            return
        if ki == len(keys):
            return
        key = keys[ki]
        for n in range(min(copies[key], size - len(hand)) + 1):
            slots = range(len(hand), len(hand) + n)
            if all(allowed[j] is None or key in allowed[j] for j in slots):
                yield from rec(ki + 1, hand + [key] * n)
            else:
                break  # more copies would still cover the failing slot
    yield from rec(0, [])


def _deals(t: Table, copies: Counter[Key],
           allowed: dict[int, set[Key]]) -> Iterator[tuple[list[Key], int]]:
    """Every assignment of the in-play tiles ``copies`` to the groups, as keys per
    wire, with its weight prod_k copies_k! / prod_groups c[group][k]! (an integer:
    a product of multinomials).  Groups breaking a static fact in ``allowed`` are skipped."""
    keys = sorted(copies)
    options: list[dict[Hand, tuple[tuple[int, ...], int]]] = []
    for group in t.groups:
        per_slot = [allowed.get(w) for w in group]
        options.append({})
        for content in _group_contents(len(group), keys, copies, per_slot):
            counts = tuple(content.count(k) for k in keys)
            options[-1][content] = counts, math.prod(math.factorial(n) for n in counts)
    last = len(t.groups) - 1
    num = math.prod(math.factorial(n) for n in copies.values())

    def emit(contents: list[Hand], den: int) -> tuple[list[Key], int]:
        assert num % den == 0
        wire_keys: list[Key] = [0] * len(t.home)
        for group, content in zip(t.groups, contents):
            for w, k in zip(group, content):
                wire_keys[w] = k
        return wire_keys, num // den

    def rec(i: int, left: tuple[int, ...], contents: list[Hand], den: int
            ) -> Iterator[tuple[list[Key], int]]:
        if i == last:  # the last group takes whatever is left
            content = tuple(k for k, n in zip(keys, left) for _ in range(n))
            if content in options[i]:
                yield emit(contents + [content], den * options[i][content][1])
            return
        for content, (counts, group_den) in options[i].items():
            if all(n <= m for n, m in zip(counts, left)):
                rest = tuple(m - n for n, m in zip(counts, left))
                yield from rec(i + 1, rest, contents + [content], den * group_den)
    yield from rec(0, tuple(copies[k] for k in keys), [], 1)


def enumerate_table(table: dict[str, Any], upto: int | None = None, *, checked: set[int] | None = None,
                    reference: Any = None, forget: set[int] = frozenset()) -> dict[str, Any]:
    """Exact marginals of every current slot over all consistent deals of ``table``.

    ``upto``: replay only the first ``upto`` events (the observer's wires are
    still resolved against the whole table): the prefix test of "first
    impossible event".

    ``checked`` (with ``reference``, the real deal as ``deal[p][s]``, ``.nano`` when
    Nano plays): only those events are required true, as in :func:`_replay`.
    ``forget``: wires (identities: ``Table.initial``, ``Table.layouts``) the
    observer knows from "me" (their own, or seen), taken as unknown to them.

    Returns ``{"consistent": False}`` when no deal fits, else
    ``{"consistent": True, "worlds": W, "slots": [...], "exact": [...]}`` where
    ``slots`` lists ``{"player", "stand", "slot", "cut", "p"}`` for every current
    slot (after all moves) in player/stand/slot order with float probabilities
    keyed by sort-key string (non-zero only), and ``exact`` is the same list
    with ``fractions.Fraction`` probabilities.
    """
    t = Table(table)
    for wire in forget:
        del t.known[wire]
    ref_keys = None if reference is None else _deal_keys(t, reference, list(getattr(reference, "nano", [])))
    allowed = _static_allowed(t, upto, checked)
    tally: list[Counter[Key]] = [Counter() for _ in t.home]  # per wire: key -> weight
    worlds = 0
    cut: set[int] = set()
    final: list[list[int]] = t.layouts[-1]
    subsets = itertools.product(*(itertools.combinations(c, k) for c, k in t.pools))
    for chosen in subsets:
        copies = Counter(t.fixed)
        copies.update(c for subset in chosen for c in subset)
        for keys, w in _deals(t, copies, allowed):
            if not _deal_ok(t, keys):
                continue
            replayed = _replay(t, keys, upto, checked, ref_keys)
            if replayed is None:
                continue
            cut = replayed[0]  # the same for every deal: the events say what is cut
            worlds += w
            for wire, key in enumerate(keys):
                tally[wire][key] += w
    if worlds == 0:
        return {"consistent": False}

    exact: list[dict[str, Any]] = []
    for i, (p, s, _) in enumerate(t.stands):
        for j, wire in enumerate(final[i]):
            probs = {key_str(k): Fraction(w, worlds) for k, w in sorted(tally[wire].items()) if w}
            exact.append({"player": p, "stand": s, "slot": j, "cut": wire in cut, "p": probs})
    slots = [{**row, "p": {k: float(f) for k, f in row["p"].items()}} for row in exact]
    return {"consistent": True, "worlds": worlds, "slots": slots, "exact": exact}
