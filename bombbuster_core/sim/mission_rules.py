"""The missions' own rules, one :class:`MissionRules` per mission, called by the game at fixed points of its turn.

:class:`~.game.Game` plays the base game and asks its mission's rules (``game.rules``,
:func:`rules_for`) at each hook: the deal's opening (:meth:`MissionRules.open`, :meth:`~MissionRules.begin`),
a round's end and start, a turn's opening and its decision, what a turn allows (the values, the
constraint cards, the special actions), what a cut costs first, what follows a cut and a turn, a
skipped turn, a refused designation.  Flags (class attributes) say what a mission changes in the
base game's own steps (the dial's start, the setup tokens, the flipped wires, the cards).  A mission
with no rules of its own plays :class:`MissionRules` itself; the missions' own are in
:mod:`.card_missions` (played with cards) and :mod:`.wire_missions` (wires, tokens, the dial, Nano),
by number in :data:`.game.RULES`.

**Mission rules played** (rules.md §6; S3's card texts): counts-as-red (M11),
Number/sequence cards (M9, M16, M36), forced-value turns (M18 radar and
designation, M45 volunteers and the Captain's pick, M51 Sir/Ma'am with the
refusal token), visible Number cards (M26), hidden Number cards (M29: the
right neighbour's card drawn at random), Constraint cards (M31 chosen and
flipped, M32 shared with the Captain replacing it after a skip, M34 the
secret weakest link, M37 replaced at each validation, M57 paired with the
numbers, M61 personal, never rotated nor exchanged), the sums of M47, oxygen
(M44 shared reserve, M49 given to the teammate holding the fewest, M63
passed on), Nano (M43 transfers as ``move`` from "nano", M53 as the dial,
M59 on the number line), challenge cards (M55, M60), M62's Number cards,
X stands (M20 any colour, M35 blue, cut only after all 4 yellows), flipped
wires (M38 only the Captain cuts theirs; M56/M64 a teammate's costs +1 on
the dial; one's own flipped wire is cut by a normal cut that must succeed or
explodes), token passes and drafts after the first 2 yellows (M22, M27),
M39's Number deck and post-action tokens, the rookie (M14) and Captain
Careless (M28) whose failed cut explodes (missions.FAILURE_EXPLODES: recorded
as the failure with no token, which public_state.py reads as the game's end;
a red target as any red), M17/M52's false tokens (failures in their hands
give a null token), M58's no-information failures, the dial's start
(N players: N spaces; M51 N+1; M41/M55/M60/M62 the space next to the skull;
M53 none: Nano).  Rules about talking or real time (M10, M19, M25, M30, M42,
M44/M49/M63's silence, M66's audio and bunker) are played as their
information game: clockwise turns, the events they produce.  Refused:
:data:`.deal.REFUSED` (M54, whose reds enter by an audio track no source documents).
"""
from __future__ import annotations

from ..missions import NUMBER_CARDS
from ..wires import RED, YELLOW, Value
from .actions import value_order

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

    from .actions import Action, MultiCutAction
    from .game import Game

NUMBERS = tuple(NUMBER_CARDS)  # the box's Number cards, one of each value (missions.py reads them for the tables)
CONSTRAINTS = "ABCDEFGHIJKL"
# The Constraint cards that limit the values one may cut (the others limit the targets or the moves).
VALUE_RULES: dict[str, Callable[[int], bool]] = {
    "A": lambda v: v % 2 == 0, "B": lambda v: v % 2 == 1, "C": lambda v: 1 <= v <= 6,
    "D": lambda v: 7 <= v <= 12, "E": lambda v: 4 <= v <= 9, "F": lambda v: not 4 <= v <= 9}


class MissionRules:
    """The base game: every hook does nothing, every flag is the base game's."""

    x_waits_for_yellows = False  # M35: the X wire is cut only after the 4 yellows
    nano_is_the_dial = False  # M53: Nano moves where the dial would
    setup_names_absent = False  # M22: the setup names absent values instead of a token
    yellow_in_token_supply = False  # M41: the random setup tokens' supply holds the 2 yellows
    false_token_avoids: Value = YELLOW  # what a false setup token may not go on
    flipped_target: str | None = None  # a teammate's flipped wire: "captain_only" (M38), "costly" (M56/M64)
    reveal_allowed = True  # "reveal your reds" (not in M13)
    stabilizer_barred = False  # a failure explodes or gives no true token
    # Where a cut costs or moves something first (before_cut, M55/M60's challenges): the cut cards
    # (detectors, ray, Stabilizer, Fast Pass) are not played there.
    cut_cards_barred = False
    disintegrator_barred = False
    moving_cards_barred = False  # the Grappling Hook and the Walkie-Talkies: Nano moves wires
    # A skipped turn (no value the player may cut: oxygen, M47's sums, M59's Nano, M65's cards) moves
    # the dial one space toward the skull.  Our reading of their cards, which rules.md (§6) states only
    # as "a skip carries no wire information"; it decides most of these missions' games
    # (docs/results/difficulty.md): set it False to play their skips free.
    skip_moves_the_dial = False
    predealt: Value | None = None  # the colour dealt one per player before the shuffle

    # -- the deal and the setup
    def dial_start(self, game: Game) -> int:
        return game.players

    def predealt_seats(self, players: int) -> list[int]:
        """The players who get the pre-dealt colour, clockwise from the Captain."""
        return list(range(players))

    def false_tokens(self, player: int) -> bool:
        """Whether ``player`` places false setup tokens (and gets no token from a failure)."""
        return False

    def open(self, game: Game) -> None:
        """The mission's cards and counters at the deal (public ``state``, ``private`` hands)."""

    def begin(self, game: Game) -> None:
        """The opening choices, once every setup token is placed."""

    # -- rounds and turns
    def round_over(self, game: Game) -> bool:
        """At the end of a round (before the Captain's next turn); True: the game ended."""
        return False

    def round_start(self, game: Game) -> None:
        """Before the Captain's turn (the first turn of a round)."""

    def open_turn(self, game: Game, p: int) -> bool:
        """Before ``p``'s turn is decided; True: the mission opened the turn its own way."""
        return False

    def turn_decision(self, game: Game, p: int) -> dict[str, Any] | None:
        """What ``p`` may do in the turn (None: the game ended while deciding it)."""
        return game.turn_decision(p)

    def constraints(self, game: Game, p: int) -> list[str]:
        """The Constraint cards that bind ``p`` now."""
        return []

    def allowed(self, game: Game, p: int) -> Any:
        """The values the mission lets ``p`` cut now (None: any), before holding them."""
        return None

    def forbidden_values(self, game: Game) -> set[Value]:
        """The values no call, solo cut or detector may name."""
        return {RED}

    def specials(self, game: Game, p: int) -> list[dict[str, Any]]:
        """The mission's special actions open to ``p`` now."""
        return []

    def own_tripwire_only(self, game: Game, p: int) -> bool:
        """Whether ``p`` holds only their own tripwire (and reds): a skipped turn (M41)."""
        return False

    def detector_barred(self, game: Game, p: int) -> bool:
        return False

    # -- cuts and their consequences
    def before_cut(self, game: Game, p: int, v: Value) -> None:
        """What a cut action of ``v`` costs or moves first."""

    def after_cut(self, game: Game, value: Value, n: int) -> None:
        """After ``n`` wires of ``value`` are cut (or revealed)."""

    def after_special(self, game: Game, a: MultiCutAction) -> None:
        """After a successful special action."""

    def end_turn(self, game: Game, p: int, action: Action | None) -> None:
        """After ``p``'s turn (``action`` None: skipped or ended without one)."""

    def skip(self, game: Game, p: int, d: dict[str, Any]) -> bool:
        """``p`` has no legal action (the turn's decision ``d``); True: the game ended, no turn end."""
        if self.skip_moves_the_dial:
            game.advance_dial(1)
        return False

    def refused_designation(self, game: Game, p: int, o: int, v: int) -> None:
        """The player ``o`` designated by ``p`` for the value ``v`` cannot cut it."""


def absent_of_allowed(game: Game, p: int, d: dict[str, Any]) -> None:
    """A skipped turn says the hand holds none of the values the mission allowed."""
    allowed = game.values_allowed_now(p, d.get("restrict"))
    if allowed is not None:
        game.announce_absent(p, sorted(allowed - game.rules.forbidden_values(game), key=value_order))
