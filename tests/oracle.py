"""Brute-force ground truth for bombbuster tables (test-only, independent of the core).

``enumerate_table(table)`` enumerates every deal that a format-1 table allows and
returns the exact per-slot probabilities in the shape the CLI prints.  It never
imports ``bombbuster_core``: it is the oracle the core is compared against, so it
aims to be obviously correct rather than fast (tables up to ~14 wires).

Model (rules.md §1.2, §1.3, §7):

* The in-play tiles are the fixed wires plus, for each k-of-m "uncertain" pool,
  one k-subset of its candidates (every subset equally likely a priori); the
  unchosen candidates are set aside unseen.
* A deal is a uniform shuffle of distinguishable tiles into stands of fixed
  sizes, each stand sorted by sort key.  A deal is therefore determined by its
  count matrix c[stand][key] and has weight
  ``prod_k copies_k! / prod_stands c[stand][k]!`` (multivariate hypergeometric;
  the set-aside pseudo-stand only contributes factors 1! = 1).
* A deal is consistent iff the observer's stands ("me") match exactly and
  replaying the events in order on that deal makes every event true at its
  moment (see ``_replay``).
* ``worlds`` is the integer sum of the weights of the consistent deals.
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
    """A called / token / info value: blue int or "yellow"."""
    if raw == "yellow":
        return "yellow"
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ValueError(f"bad gameplay value {raw!r}")
    return raw


# --------------------------------------------------------------------------- table


class Table:
    """The parsed parts of a format-1 table the oracle needs."""

    def __init__(self, table: dict[str, Any]) -> None:
        # stands: flat list of (player, stand-in-player, size) in player/stand order
        self.stands: list[tuple[int, int, int]] = []
        self.stand_index: dict[tuple[int, int], int] = {}
        self.player_stands: list[list[int]] = []
        for p, player in enumerate(table["players"]):
            mine = []
            for s, size in enumerate(player["stands"]):
                self.stand_index[(p, s)] = len(self.stands)
                mine.append(len(self.stands))
                self.stands.append((p, s, int(size)))
            self.player_stands.append(mine)

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
        for key in self.fixed:
            gameplay(key)
        pooled = [c for cands, _ in self.pools for c in cands]
        if len(set(pooled)) != len(pooled) or set(pooled) & set(self.fixed):
            raise ValueError("uncertain candidates must be distinct and not fixed wires")
        in_play = sum(self.fixed.values()) + sum(k for _, k in self.pools)
        if in_play != sum(size for _, _, size in self.stands):
            raise ValueError(f"{in_play} wires in play but stands hold "
                             f"{sum(size for _, _, size in self.stands)}")

        self.me: dict[int, Hand] = {}
        if table.get("me") is not None:
            me = table["me"]
            for s, hand in enumerate(me["stands"]):
                self.me[self.stand_index[(me["player"], s)]] = tuple(norm_key(k) for k in hand)

        self.events: list[dict[str, Any]] = list(table.get("events", []))

    def slot(self, player: int, where: dict[str, Any]) -> tuple[int, int]:
        """(flat stand index, slot) of {"stand", "slot"} in ``player``'s hand."""
        idx = self.stand_index.get((player, where["stand"]))
        if idx is None or not 0 <= where["slot"] < self.stands[idx][2]:
            raise ValueError(f"no slot {where!r} for player {player}")
        return idx, where["slot"]

    def all_slots(self) -> list[tuple[int, int]]:
        return [(i, j) for i, (_, _, size) in enumerate(self.stands) for j in range(size)]


# ---------------------------------------------------------------- replay (the truth)


def _replay(t: Table, hands: list[Hand]) -> set[tuple[int, int]] | None:
    """Replay the events on a concrete deal; the set of cut slots, or None if some
    event is false at its moment."""
    cut: set[tuple[int, int]] = set()

    def g(slot: tuple[int, int]) -> Gameplay:
        return gameplay(hands[slot[0]][slot[1]])

    def uncut_of(player: int) -> list[tuple[int, int]]:
        return [(i, j) for i in t.player_stands[player]
                for j in range(len(hands[i])) if (i, j) not in cut]

    for ev in t.events:
        kind = ev["type"]
        if kind == "info_token":
            at = ev["at"]
            slot = t.slot(at["player"], at)
            if g(slot) != _norm_value(ev["value"]):
                return None
        elif kind == "dual_cut":
            actor, v = ev["actor"], _norm_value(ev["value"])
            target = t.slot(ev["target"]["player"], ev["target"])
            if target in cut:
                return None
            if ev["success"]:
                mine = t.slot(actor, ev["actor_slot"])
                if mine in cut or g(target) != v or g(mine) != v:
                    return None
                keys = ev.get("keys")
                if keys is not None and (hands[target[0]][target[1]] != norm_key(keys["target"])
                                         or hands[mine[0]][mine[1]] != norm_key(keys["actor"])):
                    return None
                cut |= {target, mine}
            else:
                if g(target) == v or g(target) == "red":
                    return None
                if ev.get("token") is not None and g(target) != _norm_value(ev["token"]):
                    return None
                if not any(g(s) == v for s in uncut_of(actor)):
                    return None
        elif kind == "solo_cut":
            actor, v = ev["actor"], _norm_value(ev["value"])
            listed = {t.slot(actor, w) for w in ev["slots"]}
            if any(s in cut or g(s) != v for s in listed):
                return None
            others = [s for s in t.all_slots() if s not in cut and s not in listed]
            if any(g(s) == v for s in others):
                return None
            cut |= listed
        elif kind == "reveal_red":
            actor = ev["actor"]
            listed = {}
            for w in ev["slots"]:
                listed[t.slot(actor, w)] = w.get("value")
            if set(listed) != set(uncut_of(actor)):
                return None
            for s, printed in listed.items():
                key = hands[s[0]][s[1]]
                if gameplay(key) != "red" or (printed is not None and key != norm_key(printed)):
                    return None
            cut |= set(listed)
        else:
            raise ValueError(f"unknown event type {kind!r}")
    return cut


def is_consistent(table: dict[str, Any], deal: list[list[list[Key]]]) -> bool:
    """Whether one concrete deal (per player, per stand, sorted keys) fits the table."""
    t = Table(table)
    hands = [tuple(norm_key(k) for k in deal[p][s]) for p, s, _ in t.stands]
    if any(list(h) != sorted(h) or len(h) != size for h, (_, _, size) in zip(hands, t.stands)):
        return False
    dealt = Counter(k for h in hands for k in h)
    extra = dealt - t.fixed  # must be exactly k distinct candidates of each pool
    if t.fixed - dealt or any(n > 1 for n in extra.values()):
        return False
    for cands, count in t.pools:
        if sum(extra.pop(c, 0) for c in cands) != count:
            return False
    if extra:
        return False
    if any(hands[i] != hand for i, hand in t.me.items()):
        return False
    return _replay(t, hands) is not None


# ---------------------------------------------------------------- enumeration


def _static_allowed(t: Table) -> dict[tuple[int, int], set[Key]]:
    """Allowed sort keys per slot from facts that hold whatever the timing (a tile's
    value never changes).  Used only to prune; every deal is still fully replayed."""
    every_key = set(t.fixed) | {c for cands, _ in t.pools for c in cands}
    allowed: dict[tuple[int, int], set[Key]] = {}

    def restrict(slot: tuple[int, int], ok: set[Key]) -> None:
        allowed[slot] = allowed.get(slot, every_key) & ok

    def of_value(v: Gameplay) -> set[Key]:
        return {k for k in every_key if gameplay(k) == v}

    for i, hand in t.me.items():
        for j, key in enumerate(hand):
            if j < t.stands[i][2]:
                restrict((i, j), {key})
    for ev in t.events:
        kind = ev["type"]
        if kind == "info_token":
            restrict(t.slot(ev["at"]["player"], ev["at"]), of_value(_norm_value(ev["value"])))
        elif kind == "dual_cut":
            v = _norm_value(ev["value"])
            target = t.slot(ev["target"]["player"], ev["target"])
            if ev["success"]:
                mine = t.slot(ev["actor"], ev["actor_slot"])
                restrict(target, of_value(v))
                restrict(mine, of_value(v))
                if ev.get("keys") is not None:
                    restrict(target, {norm_key(ev["keys"]["target"])})
                    restrict(mine, {norm_key(ev["keys"]["actor"])})
            else:
                restrict(target, {k for k in every_key if gameplay(k) not in (v, "red")})
                if ev.get("token") is not None:
                    restrict(target, of_value(_norm_value(ev["token"])))
        elif kind == "solo_cut":
            for w in ev["slots"]:
                restrict(t.slot(ev["actor"], w), of_value(_norm_value(ev["value"])))
        elif kind == "reveal_red":
            for w in ev["slots"]:
                slot = t.slot(ev["actor"], w)
                restrict(slot, of_value("red"))
                if w.get("value") is not None:
                    restrict(slot, {norm_key(w["value"])})
    return allowed


def _stand_hands(size: int, keys: list[Key], copies: Counter[Key],
                 allowed: list[set[Key] | None]) -> Iterator[Hand]:
    """Every sorted stand of ``size`` tiles drawn from ``copies`` (copies per key),
    with slot j's key in ``allowed[j]`` when that is not None."""
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
           allowed: dict[tuple[int, int], set[Key]]) -> Iterator[tuple[list[Hand], int]]:
    """Every assignment of the in-play tiles ``copies`` to the stands, with its
    weight prod_k copies_k! / prod_stands c[stand][k]! (an integer: a product of
    multinomials).  Stands whose slots break a static fact in ``allowed`` are skipped."""
    keys = sorted(copies)
    # per stand: hand -> (count of each key in ``keys`` order, prod_k c[stand][k]!)
    options: list[dict[Hand, tuple[tuple[int, ...], int]]] = []
    for i, (_, _, size) in enumerate(t.stands):
        per_slot = [allowed.get((i, j)) for j in range(size)]
        options.append({})
        for hand in _stand_hands(size, keys, copies, per_slot):
            counts = tuple(hand.count(k) for k in keys)
            options[i][hand] = counts, math.prod(math.factorial(n) for n in counts)
    last = len(t.stands) - 1
    num = math.prod(math.factorial(n) for n in copies.values())

    def rec(i: int, left: tuple[int, ...], hands: list[Hand], den: int
            ) -> Iterator[tuple[list[Hand], int]]:
        if i == last:  # the last stand takes whatever is left
            hand = tuple(k for k, n in zip(keys, left) for _ in range(n))
            if hand in options[i]:
                den *= options[i][hand][1]
                assert num % den == 0
                yield hands + [hand], num // den
            return
        for hand, (counts, stand_den) in options[i].items():
            if all(n <= m for n, m in zip(counts, left)):
                rest = tuple(m - n for n, m in zip(counts, left))
                yield from rec(i + 1, rest, hands + [hand], den * stand_den)
    yield from rec(0, tuple(copies[k] for k in keys), [], 1)


def enumerate_table(table: dict[str, Any]) -> dict[str, Any]:
    """Exact marginals of every slot over all consistent deals of ``table``.

    Returns ``{"consistent": False}`` when no deal fits, else
    ``{"consistent": True, "worlds": W, "slots": [...], "exact": [...]}`` where
    ``slots`` lists ``{"player", "stand", "slot", "cut", "p"}`` in player/stand/slot
    order with float probabilities keyed by sort-key string (non-zero only), and
    ``exact`` is the same list with ``fractions.Fraction`` probabilities.
    """
    t = Table(table)
    allowed = _static_allowed(t)
    # per stand: sorted hand -> total weight of consistent deals giving it
    tally: list[Counter[Hand]] = [Counter() for _ in t.stands]
    worlds = 0
    cut: set[tuple[int, int]] = set()
    subsets = itertools.product(*(itertools.combinations(c, k) for c, k in t.pools))
    for chosen in subsets:
        copies = Counter(t.fixed)
        copies.update(c for subset in chosen for c in subset)
        for hands, w in _deals(t, copies, allowed):
            if any(hands[i] != hand for i, hand in t.me.items()):
                continue
            cut_now = _replay(t, hands)
            if cut_now is None:
                continue
            cut = cut_now  # the same for every deal: cutting depends only on the events
            worlds += w
            for i, hand in enumerate(hands):
                tally[i][hand] += w
    if worlds == 0:
        return {"consistent": False}

    exact: list[dict[str, Any]] = []
    for i, (p, s, size) in enumerate(t.stands):
        for j in range(size):
            mass: Counter[Key] = Counter()
            for hand, w in tally[i].items():
                mass[hand[j]] += w
            probs = {key_str(k): Fraction(w, worlds) for k, w in sorted(mass.items()) if w}
            exact.append({"player": p, "stand": s, "slot": j, "cut": (i, j) in cut, "p": probs})
    slots = [{**row, "p": {k: float(f) for k, f in row["p"].items()}} for row in exact]
    return {"consistent": True, "worlds": worlds, "slots": slots, "exact": exact}
