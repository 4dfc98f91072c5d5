"""The missions played with cards: Number cards, Constraint cards, challenges (:mod:`.mission_rules`' hooks).

M9/M16's sequence, M18/M45/M51's Number deck, M23/M39's four of the Number card, M26's visible and
M29's hidden Number cards, M31/M32/M37/M57/M61's Constraint cards and M34's weakest link, M36's end
of the line, M47's sums, M55/M60's challenges, M62's Number cards, M65's hands of Number cards.
"""
from __future__ import annotations

from itertools import combinations

from ..missions import even_deal
from ..wires import RED, Value, value_of
from .actions import slot_json
from .mission_rules import CONSTRAINTS, NUMBERS, MissionRules, absent_of_allowed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .actions import Action, MultiCutAction
    from .game import Game


class Sequence(MissionRules):
    """M9, M16: the Number cards' sequence; a value is cut once the one before it is done."""

    def __init__(self, need: int):
        self.need = need  # wires of a value cut before the next value opens

    def open(self, game: Game) -> None:
        game.state.update(sequence=game.rng.sample(NUMBERS, 3), sequence_at=0)

    def allowed(self, game: Game, p: int) -> Any:
        seq, at = game.state["sequence"], game.state["sequence_at"]
        return (v for v in game.values_in_play() if v not in seq[at + 1:])

    def after_cut(self, game: Game, value: Value, n: int) -> None:
        if not isinstance(value, int):
            return
        st, seq = game.state, game.state["sequence"]
        while st["sequence_at"] < len(seq) - 1 and game.cut_count_of(seq[st["sequence_at"]]) >= self.need:
            st["sequence_at"] += 1

    def skip(self, game: Game, p: int, d: dict[str, Any]) -> bool:
        mine = game.visible(p)
        if mine and not all(game.is_red(game.key(x)) for x in mine):
            game.result = "explosion"  # only sequence-blocked wires left (FAQ: the bomb explodes)
            return True
        return False


class NumberDeck(MissionRules):
    """M18, M45, M51: a Number card drawn from a deck names the value of the turn."""

    def open(self, game: Game) -> None:
        game.state["deck"] = list(NUMBERS)
        game.rng.shuffle(game.state["deck"])

    def draw_number(self, game: Game) -> int | None:
        st = game.state
        live = [v for v in game.blue_values_in_play() if any(x is not None for x in game.remaining_wires(v))]
        st["deck"] = [v for v in st["deck"] if v in live]
        if not st["deck"]:
            st["deck"] = list(live)
            game.rng.shuffle(st["deck"])
        return st["deck"].pop() if st["deck"] else None

    def after_cut(self, game: Game, value: Value, n: int) -> None:
        if isinstance(value, int) and game.cut_count_of(value) >= 4:
            game.state["deck"] = [v for v in game.state["deck"] if v != value]

    def refused_designation(self, game: Game, p: int, o: int, v: int) -> None:
        # M45 / M51: the designated player does not hold it: they say so, choose a token, the dial advances
        game.announce_absent(o, [v])
        if game.choice_options({"player": o, "what": "token"}):
            game.queue.insert(0, {"player": o, "kind": "choose", "what": "token"})
        game.advance_dial(1)


class Designation(NumberDeck):
    """M18 (the radar answers for the card's value), M51 (Sir/Ma'am): the player designates who cuts it."""

    def __init__(self, radar: bool):
        self.radar = radar

    def dial_start(self, game: Game) -> int:
        return game.players if self.radar else game.players + 1  # M51: a space further back

    def open_turn(self, game: Game, p: int) -> bool:
        if game.holds_only_red(p):
            return False
        v = self.draw_number(game)
        if v is None:
            return False
        game.state["number"] = v
        if self.radar:
            answers = [[any(value_of(game.key((q, s, j))) == v and (q, s, j) not in game.cut
                            and not game.special.get((q, s, j)) for j in range(len(row)))
                        for s, row in enumerate(game.hands[q])] for q in range(game.players)]
            game.events.append({"type": "radar", "value": v, "answers": answers, "card": "mission"})
            options = [q for q in range(game.players) if any(game.gameplay(game.key(x)) == v
                                                              for x in game.visible(q))]
        else:
            options = game.active_players()
        game.queue.append({"player": p, "kind": "choose", "what": "designate", "number": v, "options": options})
        return True

    def refused_designation(self, game: Game, p: int, o: int, v: int) -> None:
        if self.radar:
            self.end_turn(game, p, None)  # the game's rules are these
        else:
            super().refused_designation(game, p, o, v)


class Volunteers(NumberDeck):
    """M45: who holds the card's value volunteers, else the Captain designates."""

    def open_turn(self, game: Game, p: int) -> bool:
        st = game.state
        for q in range(game.players):  # "at any time" a player with only reds reveals them
            if game.holds_only_red(q):
                game.reveal_red(q)
                game.round_played = True
        game.win_if_all_cut()
        if game.over:
            return True
        v = self.draw_number(game)
        if v is None:
            game.idle_turns += 1
            game.turns += 1
            return True
        st["number"] = v
        for q in range(game.players):
            if game.uncut(q):
                game.queue.append({"player": q, "kind": "choose", "what": "volunteer", "number": v})
        return True


class FourOfTheNumber(MissionRules):
    """M23, M39: the four wires of the Number card cut at once (the special action); a round
    discards the deck's top card until it is done; M39's deck deals tokens after it."""

    def __init__(self, deck: bool):
        self.deck = deck

    def open(self, game: Game) -> None:
        st, rng = game.state, game.rng
        if self.deck:
            number = rng.choice(NUMBERS)
            st.update(number=number, special_done=False, deck=rng.sample([v for v in NUMBERS if v != number], 8))
        else:
            st.update(number=rng.choice(NUMBERS), special_done=False)

    def round_over(self, game: Game) -> bool:
        st = game.state
        if not st.get("special_done") and st.get("deck"):
            st["deck"] = st["deck"][:-1]  # the top card of the deck is discarded
        return False

    def forbidden_values(self, game: Game) -> set[Value]:
        return {RED, game.state["number"]}

    def specials(self, game: Game, p: int) -> list[dict[str, Any]]:
        st = game.state
        if not st.get("special_done"):
            return [{"kind": "multi_cut", "value": st["number"], "count": 4}]
        return []

    def after_special(self, game: Game, a: MultiCutAction) -> None:
        game.state["special_done"] = True
        if self.deck:
            self.deal_tokens(game)

    def deal_tokens(self, game: Game) -> None:
        """M39, after the special action: the deck's cards dealt from the Captain; each player puts a
        token on a wire of the first of their values they hold (a dealt value not in the hand is ignored)."""
        st = game.state
        cards: dict[int, list[int]] = {p: [] for p in range(game.players)}
        for i, v in enumerate(st.get("deck", [])):
            cards[i % game.players].append(v)
        st["deck"] = []
        for p, values in cards.items():
            for v in values:
                mine = [x for x in game.visible(p) if value_of(game.key(x)) == v]
                if mine:
                    at = game.rng.choice(mine)
                    game.events.append({"type": "info_token", "at": slot_json(at), "value": v})
                    game.tokened.add(at)
                    break


class VisibleNumbers(MissionRules):
    """M26: the visible Number cards are the values one may cut; a cut flips its card."""

    cut_cards_barred = True

    def open(self, game: Game) -> None:
        game.state.update(cards=list(NUMBERS), visible=list(NUMBERS))

    def open_turn(self, game: Game, p: int) -> bool:
        st = game.state
        if not st["visible"]:
            st["visible"] = sorted(st["cards"])
        return False

    def allowed(self, game: Game, p: int) -> Any:
        return game.state["visible"]

    def before_cut(self, game: Game, p: int, v: Value) -> None:
        st = game.state
        st["visible"] = [x for x in st["visible"] if x != v]

    def after_cut(self, game: Game, value: Value, n: int) -> None:
        if isinstance(value, int) and game.cut_count_of(value) >= 4:
            st = game.state
            st["cards"] = [v for v in st["cards"] if v != value]
            st["visible"] = [v for v in st["visible"] if v != value]

    def skip(self, game: Game, p: int, d: dict[str, Any]) -> bool:
        absent_of_allowed(game, p, d)
        return super().skip(game, p, d)


class HiddenNumbers(MissionRules):
    """M29: the right neighbour plays a hidden Number card; a cut of its value moves the dial."""

    def open(self, game: Game) -> None:
        deck, n = list(NUMBERS), game.players
        game.rng.shuffle(deck)
        for i in range(n):
            game.private[i]["cards"] = [deck.pop() for _ in range(3 if i == n - 1 else 2)]
        game.state["deck"] = deck

    def open_turn(self, game: Game, p: int) -> bool:
        """The right neighbour (or the next one to the right with a card) plays a Number card face down:
        the game picks it at random (the card is hidden; the neighbour's choice is theirs)."""
        st = game.state
        live = {v for v in game.blue_values_in_play() if game.cut_count_of(v) < 4}
        for q in range(game.players):
            hand = game.private[q].setdefault("cards", [])
            hand[:] = [v for v in hand if v in live]
            while len(hand) <= 1 and st["deck"] and len(live) > 1:
                v = st["deck"].pop()
                if v in live:
                    hand.append(v)
        for i in range(1, game.players):
            q = (p - i) % game.players
            hand = game.private[q]["cards"]
            if hand and len(live) > 1:
                st["played"] = hand.pop(game.rng.randrange(len(hand)))
                break
        return False

    def end_turn(self, game: Game, p: int, action: Action | None) -> None:
        st = game.state
        if st.get("played") is not None:
            card = st.pop("played")
            if card in game.turn_cuts:
                game.advance_dial(1)
            game.private[p].setdefault("cards", []).append(card)




class ConstraintCards(MissionRules):
    """Constraint cards: M31 chosen (flipped when it cannot apply), M32 shared (the Captain replaces it
    after a skip), M37 replaced at each validation, M57 paired with the numbers, M61 personal."""

    def __init__(self, mission: int):
        self.mission = mission

    def open(self, game: Game) -> None:
        m, st, rng, n = self.mission, game.state, game.rng, game.players
        if m in (31, 61):
            st["constraints"] = {str(p): None for p in range(n)}
            if m == 61:
                cards = rng.sample("ABCDE", n + (2 if n == 2 else 1 if n == 3 else 0))
                st["constraints"] = {str(p): cards[p] for p in range(n)}
                # for a rotation the players never choose (docs/architecture.md, "What is played")
                st["table_cards"] = cards[n:]
        elif m in (32, 37):
            deck = list(CONSTRAINTS)
            rng.shuffle(deck)
            st["deck"] = deck
            st["constraint"] = deck.pop()
        else:
            cards = list(CONSTRAINTS)
            rng.shuffle(cards)
            st.update(pairs={str(v): c for v, c in zip(NUMBERS, cards)}, constraint=None)

    def begin(self, game: Game) -> None:
        if self.mission == 31:
            for p in range(game.players):
                game.queue.append({"player": p, "kind": "choose", "what": "constraint"})

    def round_over(self, game: Game) -> bool:
        if self.mission in (37, 57, 61) and not game.round_played and game.idle_turns:
            if self.mission == 37:  # nobody could play a whole round: the dial advances, the constraint is replaced
                game.advance_dial(1)
                next_constraint(game)
            else:
                game.result = "explosion"  # M57, M61: nobody could play for a whole round
                return True
        return False

    def open_turn(self, game: Game, p: int) -> bool:
        m, st = self.mission, game.state
        if m == 32 and st.get("skipped") and st.get("deck") is not None:
            st["skipped"] = False
            next_constraint(game)
        if m == 31:
            card = st["constraints"].get(str(p))
            if card and not game.constraint_applies(p, card):  # the card is flipped: the player plays freely
                game.announce_absent(p, game.values_allowed_by([card]))
                st["constraints"][str(p)] = None
        return False

    def constraints(self, game: Game, p: int) -> list[str]:
        st = game.state
        if self.mission in (31, 61):
            card = st["constraints"].get(str(p))
            return [card] if card else []
        return [st["constraint"]] if st.get("constraint") else []

    def after_cut(self, game: Game, value: Value, n: int) -> None:
        if not isinstance(value, int) or game.cut_count_of(value) < 4:
            return
        if self.mission == 37:
            next_constraint(game)
        if self.mission == 57:
            game.state["constraint"] = game.state["pairs"][str(value)]

    def skip(self, game: Game, p: int, d: dict[str, Any]) -> bool:
        absent_of_allowed(game, p, d)
        if self.mission == 32:
            game.state["skipped"] = True
        return super().skip(game, p, d)


def next_constraint(game: Game) -> None:
    """The next Constraint card of the deck (M32, M37), or none."""
    st = game.state
    st["constraint"] = st["deck"].pop() if st.get("deck") else None


class WeakestLink(MissionRules):
    """M34: a secret Constraint card for the weakest link, no Double Detector; when the card alone stops
    their turn, it is revealed and the dial advances 2."""

    def open(self, game: Game) -> None:
        weakest = game.rng.randrange(game.players)
        game.private[weakest].update(weakest=True, constraint=game.rng.choice("ABCDE"))

    def constraints(self, game: Game, p: int) -> list[str]:
        mine = game.private[p]
        return [mine["constraint"]] if mine.get("weakest") and mine.get("constraint") else []

    def detector_barred(self, game: Game, p: int) -> bool:
        return True

    def turn_decision(self, game: Game, p: int) -> dict[str, Any] | None:
        decision = game.turn_decision(p)
        if not game.has_move(decision) and game.private[p].get("constraint"):
            card = game.private[p].pop("constraint")
            if game.has_move(game.turn_decision(p)):  # the weakest link cannot play because of it
                game.advance_dial(2)
                for q in range(game.players):
                    game.private[q].pop("constraint", None)
                game.state["weakest"] = p
                if game.over:
                    return None
            else:
                game.private[p]["constraint"] = card
            decision = game.turn_decision(p)
        return decision


class EndOfLine(MissionRules):
    """M36: the Sequence card's line is cut from the end the Captain chose."""

    def open(self, game: Game) -> None:
        game.state.update(line=game.rng.sample(NUMBERS, 5), end="left")

    def begin(self, game: Game) -> None:
        game.queue.append({"player": 0, "kind": "choose", "what": "end"})

    def allowed(self, game: Game, p: int) -> Any:
        st = game.state
        if not st["line"]:
            return None
        end = st["line"][0] if st["end"] == "left" else st["line"][-1]
        return (v for v in game.values_in_play() if v not in st["line"] or v == end)

    def after_cut(self, game: Game, value: Value, n: int) -> None:
        st = game.state
        if not isinstance(value, int) or not st["line"]:
            return
        end = st["line"][0] if st["end"] == "left" else st["line"][-1]
        if value == end and game.cut_count_of(value) >= 2:
            st["line"].remove(value)
            if st["line"]:
                game.queue.insert(0, {"player": game.acting_player, "kind": "choose", "what": "end"})

    def skip(self, game: Game, p: int, d: dict[str, Any]) -> bool:
        absent_of_allowed(game, p, d)
        return super().skip(game, p, d)


class Sums(MissionRules):
    """M47: a value one may cut is the sum or difference of two Number cards, which it uses up."""

    cut_cards_barred = True
    skip_moves_the_dial = True

    def open(self, game: Game) -> None:
        game.state["cards"] = list(NUMBERS)

    def allowed(self, game: Game, p: int) -> Any:
        out = set()
        for a, b in combinations(game.state["cards"], 2):
            for v in (a + b, abs(a - b)):
                if 1 <= v <= 12:
                    out.add(v)
        return sorted(out)

    def before_cut(self, game: Game, p: int, v: Value) -> None:
        if not isinstance(v, int):
            return
        st = game.state
        pairs = [(a, b) for a, b in combinations(st["cards"], 2) if v in (a + b, abs(a - b))]
        a, b = game.rng.choice(pairs)  # which pair makes the value: the game's pick at random
        st["cards"].remove(a)
        st["cards"].remove(b)
        if len(st["cards"]) < 2:
            st["cards"] = list(NUMBERS)


class Challenges(MissionRules):
    """M55, M60: challenge cards; each one met moves the dial back (challenge 1: "it is red" on one
    teammate wire, a special action)."""

    cut_cards_barred = True
    disintegrator_barred = True

    def dial_start(self, game: Game) -> int:
        return 1

    def open(self, game: Game) -> None:
        game.state["challenges"] = sorted(game.rng.sample(range(1, 11), game.players))
        game.state["challenge8"] = game.rng.sample(NUMBERS, 2)

    def specials(self, game: Game, p: int) -> list[dict[str, Any]]:
        if 1 in game.state["challenges"]:
            return [{"kind": "multi_cut", "value": RED, "count": 1, "teammates": True}]
        return []

    def after_special(self, game: Game, a: MultiCutAction) -> None:
        if a.value == RED:
            self.done(game, 1)

    def after_cut(self, game: Game, value: Value, n: int) -> None:
        if isinstance(value, int) and game.cut_count_of(value) >= 4:
            game.state.setdefault("validated", []).append(value)  # challenges 4 and 8 read their order

    def end_turn(self, game: Game, p: int, action: Action | None) -> None:
        st = game.state
        hist = st.setdefault("history", [])
        hist.append({"cuts": list(game.turn_cuts), "solo": game.turn_solo})
        validated = st.get("validated", [])
        for c in list(st["challenges"]):
            if self.met(game, c, hist, validated):
                self.done(game, c)

    def done(self, game: Game, c: int) -> None:
        if c in game.state["challenges"]:
            game.state["challenges"].remove(c)
            game.rewind_dial()

    def met(self, game: Game, c: int, hist: list[dict[str, Any]], validated: list[int]) -> bool:
        def last(n: int) -> list[dict[str, Any]]:
            return hist[-n:] if len(hist) >= n else []

        if c == 2:
            return len(last(4)) == 4 and all(h["cuts"] and all(isinstance(v, int) and v % 2 == 0 for v in h["cuts"])
                                             for h in last(4))
        if c == 5:
            return len(last(2)) == 2 and all(h["solo"] for h in last(2))
        if c == 7:
            vals = [h["cuts"][0] if h["cuts"] and isinstance(h["cuts"][0], int) else None for h in last(3)]
            if len(vals) == 3 and None not in vals:
                d1, d2 = vals[1] - vals[0], vals[2] - vals[1]
                return d1 == d2 and d1 in (1, -1)
            return False
        if c == 4:
            return len(validated) >= 3 and sum(validated[:3]) == 18
        if c == 8:
            return len(validated) >= 2 and sorted(validated[:2]) == sorted(game.state["challenge8"])
        for q in range(game.players):
            for s, row in enumerate(game.hands[q]):
                cut = [(q, s, j) in game.cut for j in range(len(row))]
                n = len(row)
                if c == 3:
                    runs, run = [], 0
                    for x in cut + [True]:
                        if x:
                            if run:
                                runs.append(run)
                            run = 0
                        else:
                            run += 1
                    if runs and all(r == 2 for r in runs):
                        return True
                if c == 6:
                    iso = sum(1 for j in range(n) if not cut[j] and (j == 0 or cut[j - 1]) and (j == n - 1 or cut[j + 1]))
                    if iso >= 5:
                        return True
                if c == 9:
                    blue = [row[j] // 10 for j in range(n) if not cut[j] and row[j] % 10 == 0]
                    uncut_all = [j for j in range(n) if not cut[j]]
                    if len(blue) >= 6 and all(v % 2 for v in blue) and len(uncut_all) >= 6:
                        return True
                if c == 10:
                    if n >= 4 and sum(cut) >= 7 and not any(cut[j] for j in (0, 1, n - 2, n - 1)):
                        return True
        return False


class RewindingNumbers(MissionRules):
    """M62: the dial next to the skull; validating one of the Number cards' values moves it back."""

    def dial_start(self, game: Game) -> int:
        return 1

    def open(self, game: Game) -> None:
        game.state["numbers"] = game.rng.sample(NUMBERS, game.players)

    def after_cut(self, game: Game, value: Value, n: int) -> None:
        if isinstance(value, int) and game.cut_count_of(value) >= 4 and value in game.state["numbers"]:
            game.rewind_dial()


class NumberHands(MissionRules):
    """M65: each player's Number cards are the values they may cut; after a turn they give one away."""

    skip_moves_the_dial = True

    def open(self, game: Game) -> None:
        deck = list(NUMBERS)
        game.rng.shuffle(deck)
        counts = even_deal(12, game.players)
        game.state["cards"] = {str(p): sorted(deck.pop() for _ in range(c)) for p, c in enumerate(counts)}

    def allowed(self, game: Game, p: int) -> Any:
        return game.state["cards"][str(p)]

    def after_cut(self, game: Game, value: Value, n: int) -> None:
        if isinstance(value, int) and game.cut_count_of(value) >= 4:
            cards = game.state["cards"]
            for q in cards:
                cards[q] = [v for v in cards[q] if v != value]

    def end_turn(self, game: Game, p: int, action: Action | None) -> None:
        if not game.over and game.state["cards"][str(p)]:
            game.queue.append({"player": p, "kind": "choose", "what": "give_card"})

    def skip(self, game: Game, p: int, d: dict[str, Any]) -> bool:
        absent_of_allowed(game, p, d)
        return super().skip(game, p, d)
