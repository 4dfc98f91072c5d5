"""Equipment advice: for every card the player may use now, candidates with exact odds and a verdict.

:func:`advise` reads the table's equipment board (equipment.py: cards
unlocked and not used, the player's own character if not spent) and, for
each usable card, lists what it would do with exact odds, and "use now" or
"keep" from a simple documented policy (docs/suggestions.md, "Equipment
advice").  "Your turn" cards are advised only for the player to move
(``moving``); "any time" and "instant" cards always.  A table that does not
list its equipment gets no card advice (``"equipment": null`` and a note),
never a guess.

Odds are ratios of exact world counts, as in the suggestion list.  Which
card reads what:

* General Radar: radar.py; Post-it, Labels, Single Wire Label: marks.py;
* Stabilizer, Coffee Mug, Fast Pass: the list's own calls and certain moves;
* Grappling Hook: the slot marginals given "the player holds v"
  (conditioning.py); Walkie-Talkies: "a teammate holds v" as packed world
  counts; Disintegrator: slot marginals;
* the detectors and the X-or-Y ray: the list's equipment uses;
* Rewinder: the dial (public_state.py); Emergency Batteries, Emergency Drop, False Bottom: the board.

Each card's engine runs count against the policy's ``equipment_budget``
(advice.py); what the budget cut short is named in the card's ``incomplete``.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

from .. import equipment as eq
from ..beliefs import EngineLimit
from ..public_state import public_state
from ..missions import cards_barred
from ..table import SlotRef
from ..wires import RED, Value, value_of
from . import marks, radar
from .advice import Context, OverBudget, Row, barred_why, because, fraction_json
from .analyses import probability
from .conditioning import Holding
from .notes import Notes
from .position import Position
from .ranking import Suggestion, exact_key, futile, rank_key, value_name

YOUR_TURN, ANY_TIME, INSTANT = "your turn", "any time", "instant"
TIMING: dict[str, str] = {
    "1": ANY_TIME, "2": ANY_TIME, "3": YOUR_TURN, "4": ANY_TIME, "5": YOUR_TURN, "6": ANY_TIME, "7": ANY_TIME,
    "8": ANY_TIME, "9": YOUR_TURN, "10": YOUR_TURN, "11": YOUR_TURN, "12": ANY_TIME, "Y": INSTANT,
    "2.2": ANY_TIME, "3.3": INSTANT, "9.9": YOUR_TURN, "10.10": INSTANT, "11.11": ANY_TIME,
    "double_detector": YOUR_TURN, "general_radar": ANY_TIME, "walkie_talkies": ANY_TIME,
    "triple_detector": YOUR_TURN, "xy_ray": YOUR_TURN,
}
# Cards and characters whose effect is one of suggest's own kinds: advised in its list.
LISTED_KIND = {"3": "triple_detector", "5": "super_detector", "10": "xy_ray", "double_detector": "double_detector",
               "triple_detector": "triple_detector", "xy_ray": "xy_ray"}
SAME_EFFECT = {"general_radar": "8", "walkie_talkies": "2"}  # a character works as the card (rules §5)
# Cards advised from the views alone (their own modules); the others read suggest's lists or the board too.
VIEW_CARDS: dict[str, Callable[[Context, Notes], Row]] = {
    "8": radar.advise, "4": marks.post_it, "12": marks.label_equal, "1": marks.label_different,
    "2.2": marks.single_wire_label}
NOTE_NO_BOARD = ('the table does not list its equipment (top-level "equipment"): no card advice; '
                 "list the cards on the board to get it")


def red_escape(call: tuple[float, float] | None, detector: tuple[float, float] | None, cards: set[str],
               cap: float, failures_left: int | None) -> str | None:
    """The card that avoids the best call's red risk when it is above the cap (None: no such card,
    or the call is within the cap): the advice's rule, which the simulator's greedy plays too.

    ``call``: the best call's (P(success), P(red)) (None: no call); ``detector``: the likeliest
    detector or X-or-Y ray use within the cap, same odds (None: none); ``cards``: what the player
    may use now, among "stabilizer", "coffee_mug", "walkie_talkies" and "detector".  In order:
    the Stabilizer on that call (stabilised, a red neither explodes nor moves the dial); a
    detector use within the cap that can succeed (at the dial's last space, where a failure
    loses too, only one at least as likely to succeed as the call); the Coffee Mug (the turn
    passes: no risk now); the Walkie-Talkies (a wire swapped changes the calls in hand)."""
    if call is None or call[1] <= cap:
        return None
    if "stabilizer" in cards:
        return "stabilizer"
    if "detector" in cards and detector is not None and detector[0] > 0 and detector[1] <= cap and (
            failures_left is None or failures_left > 0 or detector[0] >= call[0]):
        return "detector"
    return next((c for c in ("coffee_mug", "walkie_talkies") if c in cards), None)


def advise(position: Position, holding: Holding, moves: list[Suggestion], uses: list[Suggestion],
           moving: bool) -> dict[str, Any]:
    """Suggest's ``equipment`` entry from its lists (``moves``: the cuts and reveals, certain or
    not; ``uses``: the equipment uses): every usable card's advice, or None and a note when the
    table lists no board."""
    state = position.table.equipment_board()
    if state is None:
        return {"equipment": None, "equipment_note": NOTE_NO_BOARD}
    return {"equipment": Advisor(Context(position, holding), state, moves, uses, moving).json()}


class Advisor:
    """The cards of one board advised for one position."""

    def __init__(self, ctx: Context, state: eq.BoardState, moves: list[Suggestion], uses: list[Suggestion],
                 moving: bool):
        self.ctx, self.state, self.moves, self.uses, self.moving = ctx, state, moves, uses, moving
        self.position = ctx.position
        self.barred = cards_barred(self.position.table.mission, self.position.player)  # M17, M28's Captain
        self.escape, self.escape_use = self.red_escape()

    def red_escape(self) -> tuple[str | None, Suggestion | None]:
        """The card that avoids the best call's red risk (:func:`red_escape`) and, for a detector, its use."""
        position = self.position
        cap, failures_left = position.policy.red_cap, position.failures_left
        if not self.moving or self.certain_move():
            return None, None
        calls = [m for m in self.moves if m.kind == "dual_cut"]
        if not calls:
            return None, None
        best = min(calls, key=lambda c: (futile(c), rank_key(c, cap, failures_left)))
        usable = {SAME_EFFECT.get(card, card) for card, _ in self.usable()}
        kinds = {LISTED_KIND[c] for c in usable if c in LISTED_KIND}
        safe = [u for u in self.uses if u.kind in kinds and float(u.p_red) <= cap]
        use = max(safe, key=lambda u: (exact_key(u.p_success), -float(u.p_red), -u.tiebreak), default=None)
        cards = {name for card, name in (("9", "stabilizer"), ("11", "coffee_mug"), ("2", "walkie_talkies"))
                 if card in usable} | ({"detector"} if use is not None else set())
        escape = red_escape((float(best.p_success), float(best.p_red)),
                            None if use is None else (float(use.p_success), float(use.p_red)), cards, cap, failures_left)
        return escape, use if escape == "detector" else None

    def usable(self) -> list[tuple[str, str]]:
        """(card or character, source) the player may use now, board order, the character last."""
        barred = self.barred
        out = [] if barred else [(c, "card") for c in self.state.board if c not in self.state.used
                                 and self.state.unlocked(c)]
        player = self.position.player
        if not self.state.character_used[player] and not (barred and barred[1]):
            out.append((self.state.characters[player], "character"))
        return out

    def json(self) -> dict[str, Any]:
        cards, later = [], []
        barred = self.barred
        for card, source in self.usable():
            name = eq.CARDS[card].name if source == "card" else eq.CHARACTERS[card]
            timing = TIMING[card]
            row: Row = {"card": card, "name": name, "source": source, "timing": timing}
            if timing == YOUR_TURN and not self.moving:
                later.append({**row, **because("turn_only", "usable on this player's turn only")})
                continue
            self.ctx.start_card()
            incomplete = Notes()
            try:
                row.update(self.card(SAME_EFFECT.get(card, card), incomplete))
            except EngineLimit as e:
                # the limit's code and fields, not its English: the page words them (``limit.CODE``)
                row.update({"verdict": "keep", "candidates": [], **because("not_computed", f"not computed: {e}", limit=e.json())})
                incomplete.add("engine_limit", str(e), limit=e.json())
            row.update(incomplete.json())
            row["analyses"] = self.ctx.card_runs()
            cards.append(row)
        return {"player": self.position.player, "moving": self.moving, "cards": cards, "your_turn_only": later,
                **({"barred": barred[0], "barred_why": barred_why(self.position.table.mission, self.position.player,
                                                                  barred[1])} if barred else {})}

    def card(self, card: str, incomplete: Notes) -> Row:
        """One card's advice (verdict, candidates, why), its shortfalls added to ``incomplete``."""
        if card in LISTED_KIND:
            return self.listed(LISTED_KIND[card])
        if card in VIEW_CARDS:
            return VIEW_CARDS[card](self.ctx, incomplete)
        advisors: dict[str, Callable[[Notes], Row]] = {
            "9": self.stabilizer, "11.11": self.grappling_hook, "2": self.walkie_talkies, "9.9": self.fast_pass,
            "10.10": self.disintegrator, "6": self.rewinder, "11": self.coffee_mug, "7": self.batteries,
            "3.3": self.drop, "Y": self.false_bottom}
        return advisors[card](incomplete)

    def certain_move(self) -> bool:
        return any(m.certain for m in self.moves)

    def per_kind(self) -> int:
        """How many candidates a card lists at most."""
        return max(self.position.policy.per_kind, 3)

    # -- detectors and the X-or-Y ray: suggest's own list
    def listed(self, kind: str) -> Row:
        if kind not in self.position.policy.equipment:
            return {"verdict": "keep", "candidates": [],
                    **because("not_searched", f"not searched: add {kind} to the equipment kinds", kind=kind)}
        use = self.escape_use
        if use is not None and use.kind == kind:
            return {"verdict": "use now", "candidates": [], "see": kind,
                    **because("escape_use", f"the best call risks red above the {self.position.policy.red_cap:.0%} cap: "
                              f"this kind's use risks {float(use.p_red):.1%} and succeeds {float(use.p_success):.0%}",
                              cap=self.position.policy.red_cap, p_red=float(use.p_red), p_success=float(use.p_success))}
        best = next((s for s in self.uses if s.kind == kind), None)
        if best is None:
            return {"verdict": "keep", "candidates": [], **because("no_better_use", "no use beats a plain dual cut")}
        now = best.certain and not self.certain_move()
        return {"verdict": "use now" if now else "keep", "candidates": [], "see": kind,
                **(because("certain_no_free", "certain, and no free certain move exists") if now
                   else because("best_in_list", "its best use is in the suggestions list"))}

    # -- Stabilizer
    def stabilizer(self, incomplete: Notes) -> Row:
        """The dual cuts likeliest to succeed: with the Stabilizer a red neither explodes nor gets a
        token, and a failure does not move the dial (rules §5), so the red cap does not apply."""
        calls = sorted((c for c in self.moves if c.kind == "dual_cut"),
                       key=lambda c: (-c.p_success, -c.bits, c.tiebreak))[: self.per_kind()]
        candidates = [{"target": c.targets[0].json(), "value": c.values[0],
                       "p_success": float(c.p_success), "p_success_exact": fraction_json(c.p_success)["exact"],
                       "p_red": float(c.p_red), "p_red_exact": fraction_json(c.p_red)["exact"],
                       "p_failure": float(c.p_strike), "p_failure_exact": fraction_json(c.p_strike)["exact"],
                       "p_legal": float(c.p_legal)} for c in calls]
        if not calls:
            return {"verdict": "keep", "candidates": [], **because("no_dual_cut", "no dual cut to stabilise")}
        best = calls[0]
        if self.certain_move() or best.p_success == 1:
            return {"verdict": "keep", "candidates": candidates,
                    **because("certain_needs_no_stabilizer", "a certain move needs no Stabilizer")}
        return {"verdict": "use now", "candidates": candidates,
                **because("stabilize", f"no certain move: stabilised, the best call cannot explode (red "
                          f"{float(best.p_red):.1%}, no token) and a failure ({float(best.p_strike):.1%}) does not move "
                          "the dial", p_red=float(best.p_red), p_strike=float(best.p_strike))}

    # -- Grappling Hook, Walkie-Talkies
    def grappling_hook(self, incomplete: Notes) -> Row:
        """Teammate wires ranked by P(its value is one the player holds): taken, it pairs with a
        wire already in hand (toward a solo cut or the Fast Pass); then by lower P(red)."""
        position = self.position
        analyses = position.analyses
        root = analyses.beliefs()
        assert root is not None
        held = position.held_values(root)
        rows = []
        for q, s in position.teammate_stands():
            for ref in position.uncut_on(q, s):
                pos = position.pos(ref)
                if position.board.special(pos):
                    continue  # equipment never targets X or flipped wires (rules §5)
                p_match = Fraction(0)
                for v in held:
                    condition = self.ctx.holding((v,))
                    given = analyses.beliefs(condition)
                    if given is not None:
                        p_match += (probability(given, pos, position.deck.keys_of_value(v))
                                    * analyses.p_condition(condition))
                law: dict[Value, Fraction] = {}
                for k, p in root.exact(pos).items():
                    law[value_of(k)] = law.get(value_of(k), Fraction(0)) + p
                p_red = probability(root, pos, position.red_keys)
                rows.append((-p_match, p_red, ref, p_match, law))
        rows.sort(key=lambda r: r[:3])
        candidates = [{"target": ref.json(), "p_match": float(p_match),
                       "p_match_exact": fraction_json(p_match)["exact"], "p_red": float(p_red),
                       "values": [{"value": v, **fraction_json(p)}
                                  for v, p in sorted(law.items(), key=lambda x: -x[1])]}
                      for _, p_red, ref, p_match, law in rows[: self.per_kind()]]
        if not rows:
            return {"verdict": "keep", "candidates": [], **because("no_teammate_wire", "no teammate wire to take")}
        now = rows[0][3] == 1
        return {"verdict": "use now" if now else "keep", "candidates": candidates,
                **(because("surely_pairs", "this wire surely pairs with one in hand") if now else
                   because("pairs_keep", f"the best wire pairs with one in hand with P {float(rows[0][3]):.0%}: keep "
                           "until one surely does", p=float(rows[0][3])))}

    def walkie_talkies(self, incomplete: Notes) -> Row:
        """Own wires to give, by (value held once first) then P(the teammate holds that value):
        a lone wire the player cannot pair goes where it pairs.  The teammate then chooses the
        wire they give back (rules §5)."""
        if not self.ctx.own_view:
            return {"verdict": "keep", "candidates": [],
                    **because("give_own_view", "the wire to give is chosen among the player's own: ask in that "
                              "player's view")}
        position = self.position
        mine: dict[Value, list[SlotRef]] = {}
        for ref, pos, v, cut in self.ctx.own_wires():
            if v is not None and v != RED and not cut and not position.board.special(pos):
                mine.setdefault(v, []).append(ref)
        pairs = [(v, q) for v in mine for q in range(len(position.table.players)) if q != position.player]
        variants = [[(frozenset(position.pos(r) for r in position.visible(q)), position.deck.keys_of_value(v))]
                    for v, q in pairs]
        try:
            worlds = self.ctx.none_worlds(position.analyses, variants)
        except OverBudget:
            incomplete.add("card_budget", "walkie-talkies: not computed (budget)", card="2")
            return {"verdict": "keep", "candidates": [], **because("budget", "not computed within the budget")}
        rows = []
        for (v, q), none in zip(pairs, worlds[1:]):
            p = 1 - Fraction(none, worlds[0])
            rows.append((len(mine[v]) != 1, -p, str(v), q, v, p))
        rows.sort(key=lambda r: r[:4])
        candidates = [{"give": mine[v][0].json(), "value": v, "to": q, "alone": len(mine[v]) == 1,
                       "p_teammate_holds": float(p), "p_teammate_holds_exact": fraction_json(p)["exact"]}
                      for *_, q, v, p in rows[: self.per_kind()]]
        if not rows:
            return {"verdict": "keep", "candidates": [], **because("no_wire_to_give", "no wire to give")}
        _, _, _, q, v, p = rows[0]
        alone = len(mine[v]) == 1
        if alone and p < 1 and self.escape == "walkie_talkies":  # the swap changes the calls in hand
            return {"verdict": "use now", "candidates": candidates,
                    **because("give_escape", f"the best call risks red above the {position.policy.red_cap:.0%} cap: "
                              f"give the lone {value_name(v)} (it pairs in player {q}'s hand with P {float(p):.0%}); "
                              "the teammate chooses the wire they give back",
                              cap=position.policy.red_cap, value=v, player=q, p=float(p))}
        now = alone and p == 1
        return {"verdict": "use now" if now else "keep", "candidates": candidates,
                **(because("lone_pairs", f"the lone {value_name(v)} surely pairs in player {q}'s hand; the teammate "
                           "chooses the wire they give back", value=v, player=q) if now else
                   because("gift_keep", f"the best gift pairs with P {float(p):.0%}: keep until one surely does; the "
                           "teammate chooses the wire they give back", p=float(p)))}

    # -- Fast Pass, Disintegrator
    def fast_pass(self, incomplete: Notes) -> Row:
        position = self.position
        root = position.analyses.beliefs()
        assert root is not None
        candidates = []
        for v in position.deck.values():
            if v == RED or v == position.table.red_value:
                continue
            keys = position.deck.keys_of_value(v)
            sure = [ref for ref in position.visible(position.player) if not position.board.special(position.pos(ref))
                    and probability(root, position.pos(ref), keys) == 1]
            if len(sure) >= 2:
                candidates.append({"value": v, "slots": [r.json() for r in sure], "cuts": 2})
        if not candidates:
            return {"verdict": "keep", "candidates": [], **because("no_double", "no value surely held twice")}
        now = not self.certain_move()
        return {"verdict": "use now" if now else "keep", "candidates": candidates,
                **(because("cuts_two", "cuts two wires with certainty") if now else
                   because("cuts_two_free", "cuts two wires with certainty; a free certain move does as well now"))}

    def disintegrator(self, incomplete: Notes) -> Row:
        """Per number: the wires it would cut (exact expectation over the view); the drawn token's
        law is assumed uniform over 1-12, since tables do not record the token supply."""
        position = self.position
        root = position.analyses.beliefs()
        assert root is not None
        board = position.board
        counted = [w for p in range(len(position.table.players)) for w in board.uncut(p) if not board.special(w)]
        rows = []
        for v in range(1, 13):
            keys = position.deck.keys_of_value(v)
            expected = sum((probability(root, pos, keys) for pos in counted), Fraction(0))
            rows.append({"value": v, "p_drawn": fraction_json(Fraction(1, 12)),
                         "expected_cut": float(expected), "expected_cut_exact": fraction_json(expected)["exact"]})
        mean = sum((Fraction(r["expected_cut_exact"]) for r in rows), Fraction(0)) / 12
        return {"verdict": "use now" if mean else "keep", "candidates": rows,
                "expected_cut": float(mean), "expected_cut_exact": fraction_json(mean)["exact"],
                "assumption": "the drawn token is uniform over the numbers 1-12: the table does not record the "
                              "token supply; a yellow token (rules [U]) is not modelled",
                "assumption_why": {"code": "uniform_draw", "fields": {"low": 1, "high": 12}},  # the page's words
                **(because("no_risk", f"no risk: it cuts {float(mean):.2f} wires on average", mean=float(mean)) if mean
                   else because("nothing_to_cut", "no wire left to cut"))}

    # -- cards without odds
    def rewinder(self, incomplete: Notes) -> Row:
        # Using it as soon as the dial has moved is never worse than later: the dial ends where it would,
        # and a used card may come back (Emergency Drop).  At its start it cannot move back (public_state.py).
        state = public_state(self.position.table)
        now = state.dial
        if now is None:
            return {"verdict": "keep", "candidates": [],
                    **because("dial_unread", f"dial -1: the core does not follow this dial ({state.dial_unread}); use "
                              "it once the dial has moved from its start", reason=state.dial_unread)}
        left = now.failures_left
        allowed = "the next failure explodes" if left == 0 else f"{left} more failure{'s' if left > 1 else ''} allowed"
        if now.moved:
            return {"verdict": "use now", "candidates": [],
                    **because("dial_moved", f"dial -1: it has moved {now.moved} space{'s' if now.moved > 1 else ''} "
                              f"({allowed}); one more failure survived", moved=now.moved, left=left)}
        return {"verdict": "keep", "candidates": [],
                **because("dial_start", f"the dial is at its start ({allowed}): nothing to move back", left=left)}

    def coffee_mug(self, incomplete: Notes) -> Row:
        cap = self.position.policy.red_cap
        if self.escape == "coffee_mug":
            return {"verdict": "use now", "candidates": [],
                    **because("pass_turn", f"the best call risks the bomb above the {cap:.0%} cap: pass the turn to a "
                              "teammate", cap=cap)}
        if self.escape is not None:
            return {"verdict": "keep", "candidates": [],
                    **because("escape_exists", f"the best call risks red above the {cap:.0%} cap, but the "
                              f"{self.escape.replace('_', ' ')} avoids it", cap=cap, kind=self.escape)}
        return {"verdict": "keep", "candidates": [],
                **because("no_need_to_pass", "a certain move or a call within the red cap exists")}

    def batteries(self, incomplete: Notes) -> Row:
        used = [p for p, u in enumerate(self.state.character_used) if u]
        candidates = [{"player": p, "character": self.state.characters[p]} for p in used]
        return {"verdict": "use now" if used else "keep", "candidates": candidates,
                **(because("batteries", f"re-enables {min(len(used), 2)} used character(s)", n=min(len(used), 2))
                   if used else because("no_character_used", "no character is used"))}

    def drop(self, incomplete: Notes) -> Row:
        used = [c for c in self.state.board if c in self.state.used and c != "3.3"]
        return {"verdict": "use now" if used else "keep", "candidates": [{"card": c} for c in used],
                **(because("drop", f"turns {len(used)} used card(s) face up again", n=len(used)) if used
                   else because("no_card_used", "no card is used"))}

    def false_bottom(self, incomplete: Notes) -> Row:
        return {"verdict": "use now", "candidates": [], **because("false_bottom", "adds 2 equipment cards at no cost")}
