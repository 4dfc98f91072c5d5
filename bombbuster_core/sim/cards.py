"""The equipment a game plays (:class:`CardPlay`, a part of :class:`~.game.Game`).

**Equipment** (rules.md §5; :func:`deal_equipment`, :meth:`Game.card_uses`): one card per player drawn
from the mission's pool, characters (E1-E4 drawn at random for the non-Captains from M31).  A card
unlocks by the cuts of its value (counted as the core counts them: each cutting event's value), is
spent once and its effect is played on the true deal as its format-1 event with ``"card"``.  The
turn decision lists the uses (``meta.sim.pending.equipment``: card, effect, options); a use is a
:class:`UseCard`.  "Any time" cards are played in one's own turn before its action and the player
decides again: Label ≠/= (1/12, on one's own adjacent pair: the owner places it [U]), Post-it (4: a
true token of the mission's kind on one's own uncut blue wire), Single Wire Label (2.2), Rewinder
(6), Emergency Batteries (7: 1-2 used characters), General Radar (8 / E1), Emergency Drop (3.3),
Disintegrator (10.10: a random blue value in play drawn, never yellow [U]), Grappling Hook (11.11: a
teammate's uncut wire into one's own stand, in order; a 2-stand player's stand is the option),
Walkie-Talkies (2 / E2: one's own uncut wire for a teammate's, the teammate's pick at random; each
goes in order into the stand the other left); the moving cards only on wires with no token, and not
where stands hold X / flipped wires or Nano moves wires.  The turn's action:
Triple / Super Detector (3 / E3, 5), X or Y ray (10 / E4, on a dual cut), Stabilizer (9, on a dual
cut: a failure does not move the dial; a red target: no explosion, no token; offered only where
every failure gives a true token and does not explode), Fast Pass (9.9, the caller's two leftmost
wires of the value), Coffee Mug (11: the turn is skipped and the player names the next active
player).  False Bottom (Y) plays itself when its 2nd yellow is cut (2 cards of the pool join the
board).  The cut cards are not offered where a cut costs or moves something first (M26, M44, M47,
M49, M55, M59, M60, M63).  Equipment never targets X or flipped wires.
"""
from __future__ import annotations

from itertools import combinations

from .. import equipment as eq
from ..missions import cards_barred
from ..wires import RED, key_json
from .actions import DualCutAction, SimError, UseCard, jsonable, own_slot_json, slot_json, tupled

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Equipment the engine plays (rules.md §5); False Bottom (Y) plays itself when it unlocks.
PLAYED_CARDS = frozenset({"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "2.2", "3.3", "9.9", "10.10",
                          "11.11"})
TURN_CARDS = frozenset({"3", "5", "9", "10", "11", "9.9"})  # a use that is the turn's action
CHARACTER_CARD = {"general_radar": "8", "walkie_talkies": "2", "triple_detector": "3", "xy_ray": "10"}


class CardPlay:
    """The cards of :class:`~.game.Game`: what each player may use now, and each card's effect."""

    def _card_kind(self, p: int, card: str) -> str:
        """The card whose effect a use plays: the card itself, or the player's character's card."""
        if card == eq.CHARACTER:
            return CHARACTER_CARD.get(self.characters[p], "")
        return card

    def _available(self, p: int) -> list[str]:
        """The cards and the character ``p`` may use now (unlocked, not spent)."""
        b = self.board
        if b is None:
            return []
        barred = cards_barred(self.mission, p)  # M17, M28
        out = [] if barred else [c for c in b.board if c not in b.used and b.unlocked(c) and c in PLAYED_CARDS]
        if not (barred and barred[1]) and self.characters[p] in CHARACTER_CARD and not b.character_used[p] and \
                CHARACTER_CARD[self.characters[p]] in PLAYED_CARDS:
            out.append(eq.CHARACTER)
        return out

    def _stabilizer_ok(self, p: int) -> bool:
        """The Stabilizer is played only where a failure always gives a true token (its "no token: red"
        reading needs one) and a failure does not explode."""
        return not ({"no_failure_info", "count_tokens"} & self.tags or self.rules.stabilizer_barred
                    or "H" in self._constraints_for(p)
                    or any("H" in self._constraints_for(q) for q in range(self.players)))

    def _card_options(self, p: int, d: dict[str, Any], kind: str) -> list[Any]:
        """Every option of a use of the card ``kind`` by ``p`` in the turn decision ``d``."""
        rules = self.rules
        plain = [tuple(t) for t in d["targets"] if not self.special.get(tuple(t))]
        if kind in ("1", "12"):
            out = []
            for s, row in enumerate(self.hands[p]):
                for j in range(len(row) - 1):
                    a, b = (p, s, j), (p, s, j + 1)
                    if (a in self.cut and b in self.cut) or self.special.get(a) or self.special.get(b):
                        continue
                    same = self.gameplay(self.key(a)) == self.gameplay(self.key(b))
                    if same == (kind == "12"):
                        out.append(a)
            return out
        if kind == "4":
            out = []
            for x in self.cuttable(p):
                if self.special.get(x) or x in self.tokened or not isinstance(self.gameplay(self.key(x)), int):
                    continue
                if "count_tokens" in self.tags and self._stand_count(x) > 3:
                    continue
                out.append(x)
            return out
        if kind == "2.2":
            return [x for x in self.slots(p) if not self.special.get(x) and x not in self.tokened
                    and isinstance(self.gameplay(self.key(x)), int) and self._stand_count(x) == 1]
        if kind == "6":
            return [None] if not rules.nano_is_the_dial and self.dial < self._rewinder_limit() else []
        if kind == "7":
            used = [q for q in range(self.players) if self.board and self.board.character_used[q]]
            return [(q,) for q in used] + [pair for pair in combinations(used, 2)]
        if kind == "8":
            return [v for v in self.blue_values_in_play() if v != self.counts_as_red]  # in play: a table refuses others
        if kind == "3.3":
            return [None] if self.board and self.board.used - {"3.3"} else []
        if kind == "10.10":
            ok = self._forbidden_values() == {RED} and not rules.disintegrator_barred
            return [None] if ok else []
        if kind in ("2", "11.11"):
            if self.special or self.nano_dealt or rules.moving_cards_barred:
                return []  # wires that move: not where stands hold X / flipped wires or Nano moves wires
            free = {q: [x for x in self.uncut(q) if x not in self.tokened] for q in range(self.players)}
            if kind == "11.11":
                return [(x, s) for q in range(self.players) if q != p for x in free[q]
                        for s in range(len(self.hands[p]))]
            return [(x, q) for x in free[p] for q in range(self.players) if q != p and free[q]]
        if kind == "11":
            return [q for q in self.active_players() if q != p]
        if rules.cut_cards_barred:
            return []
        if kind == "9.9":
            allowed = self.values_allowed_now(p, d.get("restrict"))
            values = {self.gameplay(self.key(x)) for x in self.cuttable(p)} - self._forbidden_values()
            return sorted(v for v in values if isinstance(v, int) and (allowed is None or v in allowed)
                          and len(self.holds(p, v)) >= 2 and "K" not in self._constraints_for(p))
        if not d["values"]:
            return []
        ints = [v for v in d["values"] if isinstance(v, int)]
        if kind == "9":
            return [(t, v) for t in plain for v in d["values"]] if self._stabilizer_ok(p) else []
        if kind == "10":
            return [(t, a, b) for t in plain for a, b in combinations(d["values"], 2)]
        if kind in ("3", "5"):
            out = []
            for q in range(self.players):
                for s in range(len(self.hands[q]) if q != p else 0):
                    row = [x for x in self.uncut(q) if x[1] == s and not self.special.get(x)]
                    if kind == "5":
                        if row and all(list(x) in d["targets"] for x in row):
                            out += [((q, s), v) for v in ints]
                    else:
                        row = [x for x in row if list(x) in d["targets"]]
                        out += [(c, v) for c in combinations(row, 3) for v in ints]
            return out
        return []

    def card_uses(self, p: int, d: dict[str, Any]) -> list[dict[str, Any]]:
        """The equipment ``p`` may use in the turn decision ``d``: [{"card", "effect", "options"}]."""
        if d.get("kind") != "turn" or any(s.get("forced") for s in d["specials"]):
            return []
        out = []
        for c in self._available(p):
            kind = self._card_kind(p, c)
            options = self._card_options(p, d, kind)
            if options:
                out.append({"card": c, "effect": kind, "options": [jsonable(o) for o in options]})
        return out

    def _check_card(self, p: int, d: dict[str, Any], a: UseCard) -> None:
        if d.get("kind") != "turn" or a.card not in self._available(p) or \
                any(s.get("forced") for s in d["specials"]):
            raise SimError(f"player {p} cannot use {a.card!r} now")
        if tupled(a.option) not in self._card_options(p, d, self._card_kind(p, a.card)):
            raise SimError(f"player {p} cannot use {a.card!r} with {a.option!r}")

    def _spend(self, p: int, card: str) -> None:
        assert self.board is not None
        if card == eq.CHARACTER:
            self.board.use_character(p)
        else:
            self.board.use_card(card)

    def _by(self, event: dict[str, Any], p: int, card: str) -> dict[str, Any]:
        event["card"] = card
        if card == eq.CHARACTER:
            event["actor"] = p
        return event

    def _use_any_time(self, d: dict[str, Any], a: UseCard) -> None:
        """A card that does not end the turn: played, then the same player decides again."""
        p, card, o = d["player"], a.card, tupled(a.option)
        kind = self._card_kind(p, card)
        self._spend(p, card)
        if kind in ("1", "12"):
            self.events.append(self._by({"type": "label", "kind": "equal" if kind == "12" else "different",
                                         "at": slot_json(o)}, p, card))
        elif kind in ("4", "2.2"):
            e: dict[str, Any] = {"type": "info_token", "at": slot_json(o)}
            v = self.gameplay(self.key(o))
            if kind == "2.2":
                e["count"] = 1
            elif "parity_tokens" in self.tags:
                e["parity"] = "even" if v % 2 == 0 else "odd"
            elif "count_tokens" in self.tags:
                e["count"] = self._stand_count(o)
            else:
                e["value"] = v
            self.events.append(self._by(e, p, card))
            self.tokened.add(o)
        elif kind == "6":
            self.rewind_dial(card=True)
            self.events.append({"type": "equipment", "card": "6", "actor": p})
        elif kind == "7":
            assert self.board is not None
            self.board.recharge(list(o))
            self.detectors_used -= set(o)
            self.events.append({"type": "equipment", "card": "7", "actor": p, "characters": list(o)})
        elif kind == "8":
            answers = [[any(self.gameplay(self.key((q, s, j))) == o and (q, s, j) not in self.cut
                            and not self.special.get((q, s, j)) for j in range(len(row)))
                        for s, row in enumerate(self.hands[q])] for q in range(self.players)]
            self.events.append(self._by({"type": "radar", "value": o, "answers": answers}, p, card))
        elif kind == "3.3":
            assert self.board is not None
            self.board.drop()
            self.events.append({"type": "equipment", "card": "3.3", "actor": p})
        elif kind == "11.11":
            x, s = o
            key = self._remove(x)
            j = self.insert_wire(p, s, key)
            self.events.append({"type": "move", "from": slot_json(x), "to": slot_json((p, s, j)), "card": "11.11"})
            self.seen[p].append({"at": slot_json((p, s, j)), "value": key_json(key), "after": len(self.events) - 1})
        elif kind == "2":
            mine, q = o
            theirs = self.rng.choice([x for x in self.uncut(q) if x not in self.tokened])  # the teammate's pick
            ka, kb = self.key(mine), self.key(theirs)
            if mine[:2] == theirs[:2]:
                raise SimError("a swap between two stands")
            # both leave at once (two players' stands: the removals do not shift each other)
            self._remove(mine)
            self._remove(theirs)
            b_to = self.insert_wire(p, mine[1], kb)
            a_to = self.insert_wire(q, theirs[1], ka)
            self.events.append(self._by({"type": "swap", "a": slot_json(mine), "b": slot_json(theirs), "a_to": a_to,
                                         "b_to": b_to}, p, card))
            n = len(self.events) - 1
            self.seen[p].append({"at": slot_json((p, mine[1], b_to)), "value": key_json(kb), "after": n})
            self.seen[q].append({"at": slot_json((q, theirs[1], a_to)), "value": key_json(ka), "after": n})
        elif kind == "10.10":
            in_play = [n for n in self.values_in_play() if isinstance(n, int) and n != self.counts_as_red]
            v = self.rng.choice(in_play)  # a random token of the supply (of a value in play)
            slots = sorted(x for x in self.remaining_wires(v) if x is not None and not self.special.get(x))
            self.events.append({"type": "disintegrator", "value": v, "slots": [slot_json(x) for x in slots],
                                "card": "10.10"})
            if slots:
                self._cuts(slots, v)
        self.win_if_all_cut()
        if self.over:
            return
        nd = {**d, **self.turn_decision(p, d.get("restrict"))}
        if self.has_move(nd):
            self.queue.insert(0, nd)
        else:  # nothing left to do this turn (the Disintegrator cut the last wires it could)
            self.turns += 1
            self._end_turn(p, None)

    def _use_turn_card(self, p: int, d: dict[str, Any], a: UseCard) -> None:
        """A card that is the turn's action: a detector, the X or Y ray, a stabilized cut, the Fast Pass,
        the Coffee Mug."""
        card, o = a.card, tupled(a.option)
        kind = self._card_kind(p, card)
        self._spend(p, card)
        if kind in ("3", "5"):
            targets, v = o
            if kind == "5":
                q, s = targets
                targets = tuple(x for x in self.uncut(q) if x[1] == s and not self.special.get(x))
            self._detect(p, "triple" if kind == "3" else "super", tuple(targets), v, card)
        elif kind == "9":
            t, v = o
            self._dual_cut(p, DualCutAction(t, v), stabilizer=True, card=card)
        elif kind == "10":
            t, v1, v2 = o
            self._dual_cut(p, DualCutAction(t, v1), values=(v1, v2), card=card)
        elif kind == "9.9":
            mine = self.holds(p, o)[:2]
            self.events.append(self._by({"type": "fast_pass", "actor": p, "value": o,
                                         "slots": [own_slot_json(x) for x in mine]}, p, card))
            self._cuts(mine, o, solo=True)
        elif kind == "11":
            self.events.append({"type": "equipment", "card": "11", "actor": p, "next": o})
            self._next = o

    def _false_bottom(self) -> None:
        """False Bottom is played the moment it unlocks: 2 cards of the mission's pool join the board."""
        b = self.board
        if b is None or eq.FALSE_BOTTOM not in b.board or eq.FALSE_BOTTOM in b.used or not b.unlocked(eq.FALSE_BOTTOM):
            return
        added = self.rng.sample(self.pool, min(2, len(self.pool)))
        self.pool = [c for c in self.pool if c not in added]
        b.use_card(eq.FALSE_BOTTOM)
        b.add_cards(added)
        self.events.append({"type": "equipment", "card": eq.FALSE_BOTTOM, "added": added})
