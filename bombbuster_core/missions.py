"""Mission presets: the format-1 table a new game of mission N with P players starts from.

``new_table(mission, players, yellow=..., red=..., number=...)`` builds the
table's setup (no events): the card's wires, the stands and the even deal,
the special stands (X slots, flipped wires), Nano's hidden wires and the
Number value that counts as red, plus a ``meta`` block that names the
mission, its information-relevant rules (machine-readable tags, see
``RULE_TAGS``) and whatever the table still needs from the players (the
drawn yellow/red values, when not given, are placeholders named in
``meta.placeholders``).  ``catalogue()`` lists every mission for the page's
new-game screen.  ``python -m bombbuster_core new`` and the bridge's
``missions``/``new`` methods call these; docs/table-format.md ("Mission
presets") documents the output.

Every entry cites the facts it comes from in ``../shared/rules.md``: the
wire table of §1.2 (source S5, a Tabletop Simulator script, with its
2-player variants; every entry checked there against a card scan or S3
agreed), stands and dealing §1.3, setup §2 and mission rules §6.  Mission
names are the card titles as transcribed in S3 (``milmillin/bdiffuser``
``GAME_RULES.md``, "Card title"), whose card text matched every scanned card
rules.md checked except M24's x4 token; none is invented here.

Readings chosen where the sources are silent (each also stated in the
entry's note or in docs/table-format.md):

* the deal gives the extra wires to the earlier stands in seat order, the
  Captain's first (rules.md §1.3 [U], as S4 deals); pre-dealt colours
  (M13, M41, M48) are the first tiles of that same clockwise deal, so the
  stand sizes are those of the even deal of every wire in play;
* a 2-stand player who receives 1 pre-dealt tile gets it on an unstated
  stand, so ``meta.dealt`` gives that player's count for the whole hand;
  the Captain's 2 tiles of a 2-player M13/M48 are 1 per stand (card);
* M22 and M26 with 2 players have 3 reds: S3's card text says so (for M22
  rules.md §1.2 notes it [1]; for M26 rules.md is silent) where the S5 table
  gives no variant; M41's yellow tripwires are "N yellow" values, drawn and known
  like any other (the card does not say otherwise);
* M56's flipped wire lies on a 2-stand player's first stand.
"""
from __future__ import annotations

from . import equipment as eq
from .record import Record
from .wires import RED, YELLOW, WireError, colour, key_json, key_str, parse_key, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Sequence

MISSIONS = range(1, 67)
PLAYERS = range(2, 6)
# Missions with no rules of their own beyond their tags (None: a wire set, a page's own table): their
# game is the base game, which the simulator's replay plays exactly (sim/game.py).  The others have
# rules of their own (the dial and the result of every mission: public_state.py).  M12's rule (a Number
# card covers each Equipment card: EQUIPMENT_COVERED) is recorded in the table itself and followed by
# the equipment board (equipment.py), which the base game's replay takes from the table: it stays here.
BASE_MISSIONS = frozenset({None, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 19, 25, 30, 42, 50, 66})
# Missions whose Equipment cards are each covered by a Number card at setup (M12): the table records its
# value as ``equipment[i].cover`` and the board follows it (equipment.py COVER_NEEDS gives the rule and its
# readings); meta.equipment says so (``covers``: the Number cards' range) for the page to ask for them.
EQUIPMENT_COVERED = frozenset({12})
# Missions whose Captain (seat 1) may not use the board's Equipment cards: why, and whether their
# character is out of the game too.  M17 (rules.md §6 "Rhett cannot use equipment"; the card says
# "Equipment cards", so his character stays); M28, the card: the Captain's character card goes
# back to the box and they use no equipment.  Both may still answer a teammate's Radar or swap.
CAPTAIN_WITHOUT_CARDS: dict[int, tuple[str, bool]] = {
    17: ("M17: Rhett (the Captain) cannot use the Equipment cards", False),
    28: ("M28: Captain Careless has no equipment: no card, no character", True)}


def cards_barred(number: int | None, player: int) -> tuple[str, bool] | None:
    """Why ``player`` may not use the board's cards in mission ``number``, and whether their
    character is out too (CAPTAIN_WITHOUT_CARDS; None: they may)."""
    return CAPTAIN_WITHOUT_CARDS.get(number) if player == 0 and number is not None else None


# Missions where a failed dual cut or detector of the Captain (seat 1) explodes (rules.md §4 "Mission
# extras"): the failure is recorded as it is (no token) and ends the game (public_state.py).  M14's
# rookie is read as the Captain, as the simulator plays it.
FAILURE_EXPLODES: dict[int, str] = {14: "M14: the rookie's failed cut explodes",
                                    28: "M28: Captain Careless's failed cut explodes"}


def failure_explodes(number: int | None, player: int) -> str | None:
    """Why a failed cut of ``player`` explodes in mission ``number`` (None: it does not)."""
    return FAILURE_EXPLODES.get(number) if player == 0 and number is not None else None


_NUMBER_RANGE = (1, 12)  # Number cards (M11's, M12's)
NUMBER_CARDS = range(_NUMBER_RANGE[0], _NUMBER_RANGE[1] + 1)  # the box holds one Number card of each value


class MissionError(ValueError):
    """A mission, player count or option the game does not allow."""


class Draw(Record):
    """The wires of one colour a mission puts in play.

    ``count`` are in play; ``of`` (None for certain values) is the number of
    candidates revealed for a "k of m" pool; the values come from
    ``lo``..``hi`` (printed numbers n of n.1 / n.5), or are the ``fixed``
    printed numbers (no draw).
    """

    __slots__ = ("colour", "count", "of", "lo", "hi", "fixed")
    colour: str
    count: int
    of: int | None
    lo: int
    hi: int
    fixed: tuple[int, ...]

    def __init__(self, colour: str, count: int, of: int | None = None, lo: int = 1, hi: int = 11,
                 fixed: tuple[int, ...] = ()):
        super().__init__(colour, count, of, lo, hi, fixed)

    @property
    def drawn(self) -> int:
        """How many values the players draw (and give as options): m for a pool, the count otherwise; 0 if fixed."""
        return 0 if self.fixed else self.of or self.count

    def key(self, n: int) -> int:
        return 10 * n + (1 if self.colour == YELLOW else 5)

    def range_json(self) -> list[float]:
        return [key_json(self.key(self.lo)), key_json(self.key(self.hi))]


def Y(count: int, of: int | None = None, **kw: Any) -> Draw:
    return Draw(YELLOW, count, of, **kw)


def R(count: int, of: int | None = None, **kw: Any) -> Draw:
    return Draw(RED, count, of, **kw)


class Mission(Record):
    """One mission card, as far as the setup of a table goes.

    ``wires`` maps each allowed player count to the yellow/red draws;
    ``stands`` names the special stand shape (see :func:`_stand_shapes`);
    ``nano`` maps player counts to Nano's hidden wires; ``dealt`` is the
    pre-dealt colour; ``rules`` pairs each tag with the player counts it
    applies to (None: all); ``source`` cites rules.md.
    """

    __slots__ = ("number", "name", "blue", "wires", "stands", "nano", "dealt", "number_as_red", "rules", "summary",
                 "source")
    number: int
    name: str
    blue: int
    wires: dict[int, tuple[Draw, ...]]
    stands: str | None
    nano: dict[int, int]
    dealt: str | None
    number_as_red: bool
    rules: tuple[tuple[str, tuple[int, ...] | None], ...]
    summary: str
    source: str

    def __init__(self, number: int, name: str, blue: int, wires: dict[int, tuple[Draw, ...]], stands: str | None,
                 nano: dict[int, int], dealt: str | None, number_as_red: bool,
                 rules: tuple[tuple[str, tuple[int, ...] | None], ...], summary: str, source: str):
        super().__init__(number, name, blue, wires, stands, nano, dealt, number_as_red, rules, summary, source)

    def rule_tags(self, players: int | None = None) -> list[str]:
        """The mission's tags; with ``players``, only those that apply to that player count."""
        return [tag for tag, only in self.rules if players is None or only is None or players in only]


# Tags of meta.rules: what the page's recorder should offer first.  Each names
# the rules.md section it comes from and the table events it is recorded with.
RULE_TAGS: dict[str, str] = {
    "no_equipment": "no equipment cards on the board (§6 cards M1, M2, M39)",
    "no_setup_tokens": "nobody places a setup info token (§2: M18, M58)",
    "captain_no_setup_token": "2 players: the Captain places no setup token (§2)",
    "captain_random_setup_token": "2 players: the Captain draws the setup token at random (§2, M43)",
    "random_setup_tokens": "setup tokens drawn at random: on a matching wire (info_token) or beside the stand "
                           "(absent) (§2: M13, M39, M41)",
    "absent_tokens": "tokens beside a stand or refusals say a hand holds no wire of a value: absent events "
                     "(§6: M13, M22, M27, M39, M41, M45, M51)",
    "cannot_play_skips": "a skipped turn says the player holds none of the allowed values: absent events "
                         "(§6 'cannot play': M26, M31, M32, M37, M41, M57, M59, M61, M65)",
    "parity_tokens": "even/odd tokens replace info tokens: info_token parity, failure token {parity} (§6: M21, M33)",
    "count_tokens": "x1/x2/x3 tokens replace info tokens: info_token count, failure token {count} (§6: M24, M40)",
    "false_tokens": "false info tokens (info_token false: true); a failure gives no token information "
                    "(§6: M17 the Captain's, M52 everyone's)",
    "no_failure_info": "a failed cut gives no token: failure token null; no info tokens at all (§6: M58)",
    "double_detector_every_turn": "every player may use the Double Detector every turn (§6: M58)",
    "memory_mode": "tokens go beside the stand after pointing: record them as usual (§6: M50)",
    "counts_as_red": "the 4 wires of the face-up Number card count as red: wires.counts_as_red (§6: M11)",
    "radar_each_turn": "every turn a Number card is drawn and the General Radar is used on it: radar events "
                       "(§6: M18)",
    "forced_value": "a designated player must cut a drawn value; without it they say so and place a chosen "
                    "token: absent + info_token (§6: M45, M51)",
    "multi_cut": "a simultaneous special action cuts several wires at once: multi_cut events "
                 "(§6: M13 reds, M23/M39 the four of a number, M46 the four 7s, M48 the yellows)",
    "tripwire": "yellow tripwires are cut one by one: tripwire events (§6: M41)",
    "dealt": "coloured wires are dealt before the shuffle: dealt events, listed in meta.dealt (§2: M13, M41, M48)",
    "x_slots": "an unsorted X wire at the far right of every stand (§6: M20 any colour, M35 blue)",
    "flipped": "flipped wires seen by everyone but their owner (§6: M38, M56, M64)",
    "nano": "Nano holds hidden wires that move into hands: move events from 'nano' (§6: M43)",
    "no_double_detector": "the character cards are flipped: no Double Detector (M27 card, S3)",
    "no_labels": "the = and ≠ Labels are removed from the equipment (§6: M52)",
    "reds_on_card": "the 11 red wires lie on the mission card and are not dealt (§1.2: M54)",
    "new_characters": "characters E1–E4 may replace the Double Detector: General Radar, Walkie-Talkies, Triple "
                      "Detector, X or Y ray (§5, sticker B: from M31)",
    "double_numbered_equipment": "the double-numbered equipment joins the pool: Single Wire Label, Emergency Drop, "
                                 "Fast Pass, Disintegrator, Grappling Hook (§5, sticker C: from M55)",
}

_TABLE = "rules.md §1.2 (S5 wire table)"
_DEFAULT_NANO = {2: 5, 3: 4, 4: 4, 5: 3}  # M43 card (rules.md §6 "Nano")


def _mission(number: int, name: str, base: tuple[Draw, ...], two: tuple[Draw, ...] | None = None, *,
             summary: str, rules: tuple[str, ...] = (), only2: tuple[str, ...] = (), blue: int = 12,
             players: tuple[int, ...] = (2, 3, 4, 5), by_players: dict[int, tuple[Draw, ...]] | None = None,
             stands: str | None = None, nano: dict[int, int] | None = None, dealt: str | None = None,
             number_as_red: bool = False, cite: str = "") -> Mission:
    """One entry: ``base`` draws for 3–5 players, ``two`` the card's 2-player variant (None: the same).

    ``by_players`` replaces both when the draws change with every player count (M41).
    """
    wires = by_players or {p: (two if p == 2 and two is not None else base) for p in players}
    tags = tuple((t, None) for t in rules) + tuple((t, (2,)) for t in only2)
    source = _TABLE + (f"; {cite}" if cite else "")
    return Mission(number, name, blue, wires, stands, nano or {}, dealt, number_as_red, tags, summary, source)


_B = ("new_characters",)  # rule sticker B (S3: missions 31–66 but M58)
_BC = ("new_characters", "double_numbered_equipment")  # stickers B and C (S3: missions 55–66)

_ENTRIES = [
    _mission(1, "TRAINING, Day 1", (), blue=6, rules=("no_equipment",),
             summary="24 blue wires 1–6 and no equipment: dual and solo cuts only.",
             cite="§1.1 blue subset 1–6; M1 card (S3)"),
    _mission(2, "TRAINING, Day 2", (Y(2, hi=7),), blue=8, rules=("no_equipment",),
             summary="Blue 1–8 and 2 yellow wires drawn from 1.1–7.1; no equipment.",
             cite="§1.1 blue 1–8, yellow range 1.1–7.1"),
    _mission(3, "TRAINING, Day 3", (R(1, hi=9),), blue=10,
             summary="Blue 1–10 and 1 red wire drawn from 1.5–9.5; equipment from now on.",
             cite="§1.1 blue 1–10, red range 1.5–9.5"),
    _mission(4, "TRAINING: First Day in the Field", (Y(2), R(1)), (Y(4), R(1)),
             summary="All 48 blue wires, 2 yellow (4 with 2 players) and 1 red."),
    _mission(5, "TRAINING: Second Day in the Field", (Y(2, 3), R(1)), (Y(2, 3), R(2)),
             summary="2 of 3 yellow candidates are in play (\"?\" markers).", cite="§1.2 'k out of m', M5 card"),
    _mission(6, "TRAINING: Third Day in the Field", (Y(4), R(1)), (Y(4), R(2)),
             summary="4 yellow wires, cut like any 4 of a value."),
    _mission(7, "TRAINING: Last Day of Class", (R(1, 2),), (R(1, 3),),
             summary="1 red wire out of 2 candidates (3 with 2 players).", cite="M7 card"),
    _mission(8, "FINAL EXAM", (Y(2, 3), R(1, 2)), (Y(4), R(1, 3)),
             summary="No special rule: everything learnt so far."),
    _mission(9, "A Sense of Priorities", (Y(2), R(1)), (Y(4), R(2)),
             summary="3 Number cards set the order of some cuts (no information)."),
    _mission(10, "A Rough Patch", (Y(4), R(1)),
             summary="Timed; players take turns in any order (no information)."),
    _mission(11, "Blue on Red, Looks Like We Are Dead", (Y(2),), (Y(4),), rules=("counts_as_red",),
             only2=("captain_no_setup_token",), number_as_red=True,
             summary="The 4 wires of the face-up Number card count as red.", cite="§6 M11; §2 2p setup"),
    _mission(12, "Wrapped in Red Tape", (Y(4), R(1)), (Y(4), R(2)),
             summary="Equipment also needs the pair of its Number card cut (no information)."),
    _mission(13, "Red Alert!", (R(3),), rules=("dealt", "random_setup_tokens", "absent_tokens", "multi_cut"),
             only2=("captain_no_setup_token",), dealt=RED,
             summary="The 3 reds are dealt one per player from the Captain; random setup tokens; the 3 reds "
                     "are cut together.", cite="§2 pre-dealt M13 (S2), random tokens; §6 special action"),
    _mission(14, "High-Risk Bomb Disposal Expert (aka. NOOB)", (Y(2, 3), R(2)), (Y(4), R(3)),
             summary="The rookie's failed dual cut explodes (no information)."),
    _mission(15, "Mission in НОВОСИБИРСК", (R(1, 3),), (R(2, 3),),
             summary="Equipment face down, won by cutting Number cards' values (no information)."),
    _mission(16, "Time to Reprioritize (Is this déjà vu?)", (Y(2, 3), R(1)), (Y(4), R(2)),
             summary="3 Number cards set the order of some cuts (no information)."),
    _mission(17, "Rhett Herrings", (R(2, 3),), (R(3),), rules=("false_tokens",),
             summary="The Captain (Rhett) places 2 false setup tokens, never on red; failed cuts into his hand "
                     "give no information.", cite="§2, §6 false tokens M17 (S2)"),
    _mission(18, "BAT-Helping-Hand", (R(2),), (R(3),), rules=("no_setup_tokens", "radar_each_turn"),
             summary="No setup tokens; every turn the General Radar is used on a drawn Number card.",
             cite="§2, §6 M18 (S3)"),
    _mission(19, "In the Belly of the Beast", (Y(2, 3), R(1)),
             summary="Played with the audio file (no information)."),
    _mission(20, "The Big Bad Wolf", (Y(2), R(2)), (Y(4), R(2, 3)), rules=("x_slots",), stands="x_any",
             summary="The last wire dealt to each stand sits unsorted at its far right (X token).",
             cite="§6 X token M20 (S2)"),
    _mission(21, "Death by Haggis", (R(1, 2),), (R(2),), rules=("parity_tokens",),
             summary="Even/odd tokens replace info tokens.", cite="§6 even/odd"),
    _mission(22, "Negative Impressions", (Y(4), R(1)), (Y(4), R(3)), rules=("absent_tokens",),
             summary="Setup tokens name 2 values absent from the hand; after 2 yellows, tokens are passed left.",
             cite="S3 2p R3 (rules.md §1.2 [1]); §6 absent tokens M22 (S2)"),
    _mission(23, "Defusing in Fordwich", (R(1, 3),), (R(2, 3),), rules=("multi_cut",),
             summary="The 4 wires of a Number card are cut together by a special action.", cite="§6 M23"),
    _mission(24, "Tally Ho!", (R(2),), (R(3),), rules=("count_tokens",),
             summary="x1/x2/x3 tokens (count on the stand) replace info tokens.", cite="§6 x-tokens M24 (S2)"),
    _mission(25, "The Better to Hear You with...", (R(2),), (R(3),),
             summary="No numbers may be spoken (no information)."),
    _mission(26, "Speaking of the Wolf...", (R(2),), (R(3),), rules=("cannot_play_skips",),
             summary="Each cut follows a flipped Number card; a skip means no wire of the visible numbers.",
             cite="2p R3 from S3's card text (not in the S5 table); §6 'cannot play' M26 (S2)"),
    _mission(27, "Playing with Wire", (Y(4), R(1)), rules=("no_double_detector", "absent_tokens"),
             only2=("captain_no_setup_token",),
             summary="No Double Detectors; after 2 yellows a draft of random tokens, placed or beside the stand.",
             cite="§6 M27 (S2); §2 2p setup"),
    _mission(28, "Captain Careless", (Y(4), R(2)), (Y(4), R(3)),
             summary="The Captain has no equipment and a failed dual cut of theirs explodes (no information)."),
    _mission(29, "Guessing Game", (R(3),), only2=("captain_no_setup_token",),
             summary="Hidden Number cards penalise cuts (no information).", cite="§2 2p setup"),
    _mission(30, "Speed Mission!", (Y(4), R(1, 2)),
             summary="Played with the audio file (no information)."),
    _mission(31, "With One Hand Tied Behind My Back...", (R(2, 3),), rules=("cannot_play_skips", *_B),
             summary="Each player has a Constraint card; flipping it means no wire it allows.", cite="§6 M31 (S3)"),
    _mission(32, "Pranks-A-Plenty", (R(2),), (R(3),), rules=("cannot_play_skips", *_B),
             summary="A shared Constraint card; a skip means no wire it allows.", cite="§6 M32"),
    _mission(33, "What Happens in Vegas...", (R(2, 3),), (R(3),), rules=("parity_tokens", *_B),
             summary="Even/odd tokens replace info tokens.", cite="§6 even/odd"),
    _mission(34, "The Weakest Link", (R(1),), players=(3, 4, 5), rules=_B,
             summary="A hidden weakest link applies a secret constraint; not playable with 2 players.",
             cite="§1.2 'M34 cannot be played with 2 players'"),
    _mission(35, "No Link, Single Wire", (Y(4), R(2, 3)), (Y(4), R(3)), rules=("x_slots", *_B), stands="x_blue",
             summary="A blue wire set aside before the deal sits unsorted at the far right of every stand (X).",
             cite="§6 X token M35 (S2)"),
    _mission(36, "Panic under the Palm Trees", (Y(2), R(1, 3)), (Y(4), R(2, 3)), rules=_B,
             summary="A line of Number cards sets the order of some cuts (no information)."),
    _mission(37, "Joker's Gone Wild", (R(2),), (R(3),), rules=("cannot_play_skips", *_B),
             summary="A shared Constraint card; a skip means no wire it allows.", cite="§6 M37"),
    _mission(38, "Knit a Wire, Purl a Wire...", (R(2),), (R(3),), rules=("flipped", *_B), stands="flipped_captain",
             summary="The Captain's flipped wire sits at the far right, seen by everyone else.",
             cite="§6 flipped M38 (S2)"),
    _mission(39, "The 4 Noble Wires", (Y(4), R(2, 3)), (Y(4), R(3)),
             rules=("no_equipment", "random_setup_tokens", "absent_tokens", "multi_cut", *_B),
             summary="Random setup tokens; the 4 wires of a Number card are cut together; then Number cards "
                     "are dealt for tokens.", cite="§2 random tokens; §6 M39 (S2)"),
    _mission(40, "Hard to Die (A Christmas Tale)", (R(3),), rules=("count_tokens", *_B),
             only2=("captain_no_setup_token",),
             summary="x1/x2/x3 tokens (count on the stand) replace info tokens.", cite="§6 x-tokens M40 (S2)"),
    _mission(41, "Latin Bombshell", (),
             by_players={2: (R(2, 3), Y(2)), 3: (R(1, 3), Y(3)), 4: (R(1, 3), Y(4)), 5: (R(1, 3), Y(4))},
             rules=("tripwire", "dealt", "random_setup_tokens", "absent_tokens", "cannot_play_skips", *_B),
             dealt=YELLOW,
             summary="One yellow tripwire dealt to each player (not the Captain with 5), cut one by one; "
                     "random setup tokens.", cite="§1.2 M41 tripwires [2p R2of3 Y2]; §2 pre-dealt M41 (S2)"),
    _mission(42, "Time to Run Away and Join The Circus...", (Y(4), R(1, 3)), rules=_B,
             summary="Played with the audio file (no information)."),
    _mission(43, "Nano the Robot", (R(3),), rules=("nano", *_B), only2=("captain_random_setup_token",),
             nano=_DEFAULT_NANO,
             summary="Nano holds hidden wires (5/4/4/3 with 2/3/4/5 players) that move into hands.",
             cite="§6 Nano M43 (S2)"),
    _mission(44, "Underwater Pressure", (R(1, 3),), rules=_B,
             summary="Oxygen limits cuts; a skip carries no information."),
    _mission(45, "Seeking Volunteers", (R(2),), (R(3),), rules=("forced_value", "absent_tokens", *_B),
             summary="A drawn value must be cut by a volunteer or a designated player; a refusal means none "
                     "in hand.", cite="§6 forced-value M45 (S2)"),
    _mission(46, "Secret Agent", (Y(4, fixed=(5, 6, 7, 8)),), rules=("multi_cut", *_B),
             only2=("captain_no_setup_token",),
             summary="Yellows 5.1, 6.1, 7.1, 8.1; the four 7s are cut last, all at once.",
             cite="§1.2 M46 fixed yellows; §6 M46 (S2)"),
    _mission(47, "Calculate the Odds", (R(2, 3),), (R(3),), rules=_B,
             summary="Values to cut come from sums/differences of Number cards (no information)."),
    _mission(48, "Lethal Wires 3", (R(2), Y(3)), (R(3), Y(3)), rules=("dealt", "multi_cut", *_B), dealt=YELLOW,
             summary="3 yellows dealt one per player from the Captain, cut together (a failure gives true "
                     "tokens).", cite="§1.2 M48; §2 pre-dealt M48 (S2); §6 special action"),
    _mission(49, "Message in a Bottle", (R(2),), (R(3),), rules=_B,
             summary="Oxygen limits cuts; a skip carries no information."),
    _mission(50, "The Blackest Sea", (Y(2), R(2)), (Y(4), R(3)), rules=("memory_mode", *_B),
             summary="No markers; tokens go beside the stand (same information, to be memorised).",
             cite="§1.2 M50; §6 memory mode"),
    _mission(51, "It's Your (Un)Lucky Day!", (R(1),), (R(2),), rules=("forced_value", "absent_tokens", *_B),
             only2=("captain_no_setup_token",),
             summary="A designated player must cut a drawn value; without it they say so and place a token.",
             cite="§6 forced-value M51 (S2)"),
    _mission(52, "Dirty Double-crossers", (R(3),), (Y(4), R(3)), rules=("false_tokens", "no_labels", *_B),
             summary="Every token is false (2 each at setup, on blue or red); failures tell only \"not v\".",
             cite="§6 false tokens M52 (S2)"),
    _mission(53, "Nano Nano", (R(2),), (R(3),), rules=_B,
             summary="Nano replaces the dial (no information)."),
    _mission(54, "The Attack of Rabbit the Red", (), rules=("reds_on_card", *_B),
             summary="The 11 reds lie face down on the card, not dealt; oxygen limits cuts.",
             cite="§1.2 M54 R11 set aside on card [U how they enter play]"),
    _mission(55, "Doctor Nope's Challenge", (R(2),), (R(2, 3),), rules=_BC,
             summary="Challenge cards rewind the dial (no information)."),
    _mission(56, "Tripwires", (R(2, 3),), (R(3),), rules=("flipped", *_BC), stands="flipped_each",
             summary="Every player's flipped wire sits at the far right, seen by everyone else.",
             cite="§6 flipped M56 (S2)"),
    _mission(57, "An Impossible Mission", (R(1),), (R(2),), rules=("cannot_play_skips", *_BC),
             summary="Validated numbers bring Constraint cards; a skip means no wire they allow.", cite="§6 M57"),
    _mission(58, "Double and/or Nothing", (R(2),), (R(3),),
             rules=("no_setup_tokens", "no_failure_info", "double_detector_every_turn", "double_numbered_equipment"),
             summary="No info tokens at all: failures tell only \"not v\"; Double Detectors every turn.",
             cite="§2, §6 M58 (S2)"),
    _mission(59, "Nano to the Rescue", (R(2, 3),), (R(3),), rules=("cannot_play_skips", *_BC),
             summary="Nano picks the value to cut; a skip means none of the reachable values in hand.",
             cite="§6 M59 (S3)"),
    _mission(60, "Yep, it's Doctor Nope!", (R(2, 3),), (R(3),), rules=_BC,
             summary="Challenge cards rewind the dial (no information)."),
    _mission(61, "Sharing is Caring", (R(1),), (R(2),), rules=("cannot_play_skips", *_BC),
             summary="Personal Constraint cards; a skip means no wire the constraint allows.", cite="§6 M61"),
    _mission(62, "Armageddon Roulette", (R(2),), (R(3),), rules=_BC,
             summary="Cutting visible Number cards' values rewinds the dial (no information)."),
    _mission(63, "It is Positively Titanic", (R(2),), (R(3),), rules=_BC,
             summary="Shared oxygen limits cuts; a skip carries no information."),
    _mission(64, "Return of the Tripwires", (R(1),), (R(2),), rules=("flipped", *_BC), stands="flipped_two",
             summary="Each player flips 2 wires: the lower at the far left, the higher at the far right "
                     "(2 stands: 2 in all).", cite="§6 flipped M64 (S2, FAQ via S3)"),
    _mission(65, "Hand-Me-Downs", (R(3),), players=(3, 4, 5), rules=("cannot_play_skips", *_BC),
             summary="Face-up Number cards in front of each player; a skip means none of them in hand; not "
                     "playable with 2 players.", cite="§1.2 'M65 cannot be played with 2 players'; §6 M65"),
    _mission(66, "The Final Countdown", (Y(2), R(2)), rules=_BC,
             summary="The Bunker card and the audio file guide the cuts (no information)."),
]

BY_NUMBER: dict[int, Mission] = {m.number: m for m in _ENTRIES}

# Cards a mission card removes beyond its tags (the mission cards, as listed in issue 19:
# M26 plays without the X or Y ray, M27 without Emergency Batteries).
_REMOVED_CARDS: dict[int, tuple[str, ...]] = {26: ("10",), 27: ("7",)}
_FALSE_BOTTOM_FROM = 9  # rules.md §5: sticker A, from M9, in missions with yellow wires


def equipment_pool(m: Mission, players: int) -> dict[str, Any]:
    """The equipment of a game of ``m``: how many cards are drawn (one per player; none where
    the mission has no equipment), from which pool, what the mission removes and adds, and
    the characters a player may take (rules.md §5, §6)."""
    tags = m.rule_tags(players)
    if "no_equipment" in tags:
        return {"count": 0, "pool": [], "removed": [], "added": [], "characters": [],
                "note": "no equipment cards on the board"}
    removed = [*(("1", "12") if "no_labels" in tags else ()), *(("2",) if "x_slots" in tags else ()),
               *_REMOVED_CARDS.get(m.number, ())]
    added = list(eq.DOUBLE_NUMBERED) if "double_numbered_equipment" in tags else []
    if m.number >= _FALSE_BOTTOM_FROM and any(d.colour == YELLOW for d in m.wires[players]):
        added.append(eq.FALSE_BOTTOM)
    pool = [c for c in eq.BASE_CARDS if c not in removed] + added
    if "no_double_detector" in tags:
        characters: list[str] = []
    else:
        characters = list(eq.CHARACTERS) if "new_characters" in tags else [eq.DEFAULT_CHARACTER]
    out = {"count": players, "pool": pool, "removed": sorted(removed, key=float), "added": added,
           "characters": characters}
    if m.number in EQUIPMENT_COVERED:
        out["covers"] = {"range": list(_NUMBER_RANGE)}
    if "new_characters" in tags:
        out["note"] = "the Captain keeps the Double Detector; other players may take E1-E4"
    return out


def _equipment(m: Mission, players: int, raw: Sequence[Any]) -> list[dict[str, Any]]:
    """The cards drawn for the board, checked against the mission's pool."""
    pool = equipment_pool(m, players)
    cards: list[str] = []
    for item in raw:
        try:
            card = eq.card_id(item if isinstance(item, str) else str(item))
        except eq.EquipmentError as e:
            raise MissionError(f"mission {m.number} equipment: {e}") from None
        if card not in pool["pool"]:
            raise MissionError(f"mission {m.number} equipment: card {card} ({eq.CARDS[card].name}) is not in this "
                               f"mission's pool ({', '.join(pool['pool']) or 'no equipment'})")
        if card in cards:
            raise MissionError(f"mission {m.number} equipment: card {card} is listed twice")
        cards.append(card)
    if len(cards) != pool["count"]:
        raise MissionError(f"mission {m.number} equipment: {pool['count']} cards are drawn with {players} players, "
                           f"got {len(cards)}")
    return [{"card": c} for c in cards]


def _cover(m: Mission, board: list[dict[str, Any]], covers: Any) -> None:
    """M12: each card drawn takes the value of the Number card covering it (in the same order), as given.
    Only what the table loader cannot see is checked here; the values are the loader's to refuse
    (table._parse_cover, naming ``equipment[i].cover``)."""
    where = f"mission {m.number} covers"
    if not isinstance(covers, (list, tuple)):
        raise MissionError(f"{where}: expected a list of Number card values, got {shown(covers)}")
    if len(covers) > len(board):  # a card short of a cover is the loader's cover_missing; a spare one has no entry
        raise MissionError(f"{where}: one Number card covers each of the {len(board)} Equipment cards, "
                           f"got {len(covers)}")
    for entry, value in zip(board, covers):
        entry["cover"] = value


# ---------------------------------------------------------------- building a table

def stands_per_player(players: int) -> list[int]:
    """2 players: 2 stands each; 3: the Captain 2, the others 1; 4–5: 1 each (rules.md §1.3)."""
    if players == 2:
        return [2, 2]
    if players == 3:
        return [2, 1, 1]
    return [1] * players


def even_deal(wires: int, stands: int) -> list[int]:
    """As equal as possible; the earlier stands in seat order get the extra wires (rules.md §1.3 [U])."""
    q, r = divmod(wires, stands)
    return [q + 1 if i < r else q for i in range(stands)]


def mission(number: Any) -> Mission:
    if not isinstance(number, int) or isinstance(number, bool) or number not in BY_NUMBER:
        raise MissionError(f"no mission {shown(number)} (missions {MISSIONS[0]}–{MISSIONS[-1]})")
    return BY_NUMBER[number]


def _check_players(m: Mission, players: Any) -> None:
    if not isinstance(players, int) or isinstance(players, bool) or players not in PLAYERS:
        raise MissionError(f"{shown(players)} players: the game has {PLAYERS[0]} to {PLAYERS[-1]} players")
    if players not in m.wires:
        allowed = ", ".join(map(str, sorted(m.wires)))
        raise MissionError(f"mission {m.number} cannot be played with {players} players (allowed: {allowed})")


def _keys(m: Mission, draw: Draw, raw: Any) -> list[int]:
    """The drawn sort keys given for ``draw``, validated against the card."""
    where = f"mission {m.number} {draw.colour}"
    if not isinstance(raw, (list, tuple)):
        raise MissionError(f"{where}: expected a list of sort keys, got {shown(raw)}")
    keys = []
    for item in raw:
        try:
            key = parse_key(item)
        except WireError as e:
            raise MissionError(f"{where}: {e}") from None
        if colour(key) != draw.colour:
            raise MissionError(f"{where}: {key_str(key)} is not a {draw.colour} sort key "
                               f"({'n.1' if draw.colour == YELLOW else 'n.5'})")
        if not draw.lo <= key // 10 <= draw.hi:
            lo, hi = (key_str(draw.key(n)) for n in (draw.lo, draw.hi))
            raise MissionError(f"{where}: {key_str(key)} is outside the mission's {draw.colour} range {lo}–{hi}")
        if key in keys:
            raise MissionError(f"{where}: {key_str(key)} is listed twice")
        keys.append(key)
    if len(keys) != draw.drawn:
        what = (f"{draw.drawn} {draw.colour} candidates ({draw.count} of {draw.of} in play)" if draw.of
                else f"{draw.drawn} {draw.colour} values")
        raise MissionError(f"{where}: the card draws {what}; got {len(keys)} values")
    return sorted(keys)


def new_table(number: Any, players: Any, *, yellow: Sequence[Any] | None = None, red: Sequence[Any] | None = None,
              number_card: Any = None, equipment: Sequence[Any] | None = None,
              covers: Sequence[Any] | None = None) -> dict[str, Any]:
    """The format-1 table (no events) that mission ``number`` with ``players`` players starts from.

    ``yellow`` / ``red``: the drawn sort keys (all m candidates for a "k of m"
    pool); absent, the lowest values of the card's range stand in and are
    named in ``meta.placeholders``.  ``number_card``: M11's face-up Number.
    ``equipment``: the card IDs drawn for the board (``meta.equipment`` says how many and
    from which pool); absent, the table does not list its board.  ``covers``: M12's Number card
    covering each of those cards (its value, in the same order); absent, placeholders 1, 2, ...
    stand in (``meta.placeholders``).  The covers are written as given: their values are the table
    loader's to check (``load_table`` of this table refuses a bad one, coded and naming
    ``equipment[i].cover``), so a caller passing ``covers`` loads the table before using it (cli ``new``).
    """
    m = mission(number)
    _check_players(m, players)
    draws = {d.colour: d for d in m.wires[players]}
    placeholders: list[str] = []
    wires: dict[str, Any] = {"blue": list(range(1, m.blue + 1))}
    pools = []
    for colour_name, given in ((YELLOW, yellow), (RED, red)):
        draw = draws.get(colour_name)
        if draw is None or draw.fixed:
            if given is not None:
                if draw is not None:
                    why = f"its {colour_name} wires are fixed ({', '.join(key_str(draw.key(n)) for n in draw.fixed)})"
                elif colour_name == RED and "reds_on_card" in m.rule_tags():
                    why = "its 11 red wires lie on the card, none is dealt"
                else:
                    why = f"it has no {colour_name} wire with {players} players"
                raise MissionError(f"mission {m.number} {colour_name}: {why}")
            if draw is not None:
                wires[colour_name] = [key_json(draw.key(n)) for n in draw.fixed]
            continue
        if given is None:
            keys = [draw.key(n) for n in range(draw.lo, draw.lo + draw.drawn)]
            placeholders.append(colour_name)
        else:
            keys = _keys(m, draw, given)
        if draw.of:
            pools.append({"candidates": [key_json(k) for k in keys], "count": draw.count})
        else:
            wires[colour_name] = [key_json(k) for k in keys]
    if pools:
        wires["uncertain"] = pools
    if m.number_as_red:
        if number_card is None:
            wires["counts_as_red"] = _NUMBER_RANGE[0]
            placeholders.append("number")
        else:
            lo, hi = _NUMBER_RANGE
            if not isinstance(number_card, int) or isinstance(number_card, bool) or not lo <= number_card <= hi:
                raise MissionError(f"mission {m.number} number: {shown(number_card)} is not a Number card ({lo}–{hi})")
            wires["counts_as_red"] = number_card
    elif number_card is not None:
        raise MissionError(f"mission {m.number} number: only mission 11 has a Number card counted as red")

    board = None if equipment is None else _equipment(m, players, equipment)
    if board is None:
        if covers is not None:  # no entry to write them on: the loader would never see them
            why = ("only mission 12 covers its equipment" if m.number not in EQUIPMENT_COVERED
                   else "name the Equipment cards they cover")
            raise MissionError(f"mission {m.number} covers: {why}")
    elif covers is not None or m.number in EQUIPMENT_COVERED:
        if covers is None:  # the lowest values stand in, as for the other values drawn at the table
            covers = list(range(_NUMBER_RANGE[0], _NUMBER_RANGE[0] + len(board)))
            placeholders.append("covers")
        _cover(m, board, covers)

    in_play = 4 * m.blue + sum(d.count for d in m.wires[players])
    nano = m.nano.get(players, 0)
    per_player = stands_per_player(players)
    sizes = iter(even_deal(in_play - nano, sum(per_player)))
    shapes = [[_stand_shape(m.stands, p, s, n_stands, next(sizes)) for s in range(n_stands)]
              for p, n_stands in enumerate(per_player)]
    table: dict[str, Any] = {
        "format": 1,
        "meta": _meta(m, players, placeholders, per_player),
        "players": [{"name": "Captain" if p == 0 else f"Player {p + 1}", "stands": st} for p, st in enumerate(shapes)],
        "wires": wires,
    }
    if nano:
        table["nano"] = nano
    if board is not None:
        table["equipment"] = board
    table["events"] = []
    return table


def _stand_shape(kind: str | None, player: int, stand: int, n_stands: int, size: int) -> int | dict[str, Any]:
    """A stand's entry in ``players[i].stands`` (docs/table-format.md, "Stands")."""
    if kind in ("x_any", "x_blue"):  # M20, M35: every stand
        return {"size": size, "x_slot": "any" if kind == "x_any" else "blue"}
    if (kind == "flipped_captain" and player == 0 and stand == 0) or (kind == "flipped_each" and stand == 0):
        return {"size": size, "flipped": 1}  # M38: the Captain's first stand; M56: every player's first stand
    if kind == "flipped_two":  # M64: 2 per player; a 2-stand player's lower on stand 0, higher on stand 1
        return {"size": size, "flipped": 2 if n_stands == 1 else ("low", "high")[stand]}
    return size


def _dealt(m: Mission, players: int, per_player: list[int]) -> list[dict[str, Any]]:
    """M13/M41/M48: the ``dealt`` events of the pre-dealt colour, one clockwise from the Captain (rules.md §2)."""
    assert m.dealt is not None
    tiles = next(d.count for d in m.wires[players] if d.colour == m.dealt)
    seats = [p for p in range(players) if not (m.number == 41 and players == 5 and p == 0)]  # M41: 5p, not the Captain
    got = [0] * players
    for i in range(tiles):
        got[seats[i % len(seats)]] += 1
    events: list[dict[str, Any]] = []
    for p, c in enumerate(got):
        if per_player[p] == 2 and c == 2:  # the card: "puts 1 on each tile stand"
            events += [{"type": "dealt", "player": p, "stand": s, "value": m.dealt, "count": 1} for s in (0, 1)]
        else:
            events.append({"type": "dealt", "player": p, "value": m.dealt, "count": c})
    return events


def _source(m: Mission, players: int) -> str:
    """The entry's citation, naming the card's 2-player variant only on a 2-player table that uses it."""
    variant = players == 2 and m.wires[2] != m.wires.get(3, m.wires[2])
    return m.source.replace(_TABLE, _TABLE + "; 2-player variant", 1) if variant else m.source


def _meta(m: Mission, players: int, placeholders: list[str], per_player: list[int]) -> dict[str, Any]:
    meta: dict[str, Any] = {"title": f"Mission {m.number}: {m.name} ({players} players)", "mission": m.number,
                            "name": m.name, "players": players, "rules": m.rule_tags(players), "summary": m.summary,
                            "source": _source(m, players), "equipment": equipment_pool(m, players)}
    notes = []
    if placeholders:
        meta["placeholders"] = placeholders
        named = {YELLOW: "the yellow values", RED: "the red values", "number": "the Number card counted as red",
                 "covers": "the Number cards covering the equipment"}
        notes.append(f"Placeholders: {' and '.join(named[p] for p in placeholders)} are the lowest the card allows; "
                     "replace them with the ones drawn at the table.")
    if m.dealt:
        meta["dealt"] = _dealt(m, players, per_player)
        notes.append(f"The {m.dealt} wires were dealt before the other wires: record meta.dealt as dealt events.")
    if "reds_on_card" in m.rule_tags():
        notes.append("The 11 red wires lie face down on the mission card; how they enter play is not documented.")
    if notes:
        meta["notes"] = notes
    return meta


def choices(m: Mission, players: int) -> dict[str, Any]:
    """What a table of ``m`` with ``players`` players must be told: the values drawn at the table."""
    out: dict[str, Any] = {}
    for d in m.wires[players]:
        if d.drawn:
            out[d.colour] = {"values": d.drawn, "in_play": d.count, "range": d.range_json()}
    if m.number_as_red:
        out["number"] = {"range": list(_NUMBER_RANGE)}
    return out


def catalogue() -> list[dict[str, Any]]:
    """Every mission for the new-game screen: number, name, allowed player counts, rules, summary, choices."""
    return [{"mission": m.number, "name": m.name, "players": sorted(m.wires), "rules": m.rule_tags(),
             "summary": m.summary, "choices": {str(p): choices(m, p) for p in sorted(m.wires)}}
            for m in _ENTRIES]
