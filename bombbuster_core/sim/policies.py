"""Policies for self-play: each decides from its own player's view only (but ``sighted``, a measure).

A policy sees a :class:`View` -- the player's table file (their own wires in
``me`` plus the public events, and ``meta.sim``: the mission's cards on the
table and, for the player who decides, the pending decision with what is
allowed: the legal values and targets of a call, the legal solo cuts and
special actions, or a choice's options) -- and never the hidden deal.  Two
entry points: ``setup_token(view)`` (the setup decision: a slot, a
:class:`~.game.SetupToken` with a false value, :class:`~.game.AbsentTokens`)
and ``move(view)`` (a :mod:`.game` action for the pending decision).

* ``random``: a uniformly random legal call (dual cut, or M41 tripwire call)
  on an allowed target; when none exists, a random one of the other legal
  moves (solo cut, reveal, a special action on random wires); every choice
  and setup option uniformly at random.
* ``greedy``: what suggest's exact mode recommends, kept to the legal
  moves (:func:`legal_suggestion`: a call only of an allowed value on an
  allowed target, a solo cut or reveal only when the game allows it now, the
  Double Detector only when the player has it and may use it): certain moves
  first, then the highest exact P(success) within the red cap; the Double
  Detector (while the player still has it) when its exact P(success) beats
  the best call's.  What suggest does not rank, greedy decides by these
  documented rules (:func:`greedy_turn`, :class:`BasePolicy` choices):

  - special actions (``multi_cut``: M13, M23, M39, M46, M48, M55/M60's
    challenge 1): played when the view makes every pointed wire certain
    (after the certain moves), or when forced / nothing else is legal, then
    on the wires likeliest to hold the value (exact marginals of the view);
  - M41's tripwire call: on the teammate wire likeliest to be yellow, when its
    P(yellow) is at least the best call's P(success) and its red risk within
    the cap (a success also rewinds the dial);
  - M56/M64: a call on a teammate's flipped wire (seen, so certain) costs a
    dial space: played only when no other certain move exists, the best
    other call is a coin flip or worse and the dial keeps 2 spaces, or when
    nothing else is legal;
  - one's own flipped wire (M38/M56/M64) is cut as the caller's own wire of a
    successful call when the view makes it certainly that value (M38, where
    nobody else may cut it: also when it is the caller's last visible wire
    of the value and the likeliest value of the flipped wire, P >= 1/2);
  - choices: designate oneself when holding the value, else the teammate
    likeliest to (expected wires of the value); volunteer exactly when
    holding it; give (M22) a value one does not hold with the most wires
    uncut; draft (M27) a value one holds, else the first; M31's Constraint
    card allowing the most of one's wires; M36's Sequence card at the end
    whose value one holds most; M45/M51's refusal token and setup tokens on
    the allowed wire nearest the middle of the longest stand; a false token
    shows the value one above the wire's (12 -> 1); M22's absent values the
    lowest ones; M59 Nano faces the side with more face-up cards; M65 gives
    the card whose value one holds least to the next player with wires.

  - equipment (meta.sim.pending.equipment; :func:`greedy_equipment`, before the move above): the
    Disintegrator at once; the Rewinder when the dial is one space from the skull; Emergency
    Batteries when one's own character is used (with a second used one if any); the Emergency
    Drop as soon as a card is used; the Post-it, Single Wire Label and Labels at once, on the
    wire (pair) nearest the middle of one's stand (it bounds the most neighbours); then, with no
    certain move: the Fast Pass (a sure cut of 2); the General Radar (card or E1) on the value
    whose answers are most uncertain (sum over teammate stands of min(P, 1-P), P = P(the stand
    holds it), marginals taken as independent); the X or Y ray (card or E4: P(target is v1 or
    v2)), the Triple (card or E3) and Super Detectors (P(some target is v), independent
    marginals) when the best of them beats the best call's P(success) by 0.1 within the red cap;
    the Stabilizer on the best call when it is below P 0.9 or risks red; the Coffee Mug when the
    best call is below P 0.5, to the teammate with the most uncut wires; the Double Detector as
    before; the Grappling Hook on the teammate wire likeliest to be a value one holds, when
    P >= 0.9 (a pair in one's own hand); the Walkie-Talkies (card or E2) when the best call is below
    P 0.5: one's leftmost wire of a value held once, to the teammate with the most uncut wires.
    Before the detectors' rule, when the best call risks red above the cap (no certain move):
    the card suggest's advice names (suggest.equipment.red_escape, :func:`_escape`): the
    Stabilizer on that call, else the likeliest detector use within the cap (at the dial's last
    space only one at least as likely to succeed), else the Coffee Mug, else the Walkie-Talkies.
    ``random`` uses a random usable card with a random option on a quarter of its turns
    where one is usable.
* ``greedy-keep-detector``: greedy that keeps the Double Detector for a turn
  when the best call risks red (most of greedy's red losses are endgame calls
  where every call does: docs/results/keep-detector.md), then uses it on the two wires least likely
  to be both red (:func:`keep_detector_choice`).
* ``entropy-seed`` / ``entropy-exact``: suggest's entropy mode (the
  reference suggester) with P(success) of a branch 1/k or exact, kept legal
  and completed as greedy.
* ``ismcts``: information-set Monte Carlo tree search over the player's view
  (sim/ismcts.py: exact determinizations, UCT with availability counts,
  greedy's move first, the equipment in the tree).
* ``lookahead``: certain moves first; otherwise greedy's move (Double
  Detector included), the exact ranking's next ``width - 1`` calls within the
  red cap and the best detector use are each played on the same ``deals``
  deals drawn exactly from the view's posterior (engines/sampling.py), each
  followed on a deal by the same seeded rollout: ``depth - 1`` further turns
  in which every player plays :func:`exact_move` from their own view of that
  deal (their wires and the public events, exact marginals; never the other
  hands).  A move's worth: its exact P(success) and P(failure) times the mean
  rollout value (win 1, loss 0, unfinished :func:`leaf_value`) of the deals
  where it succeeded / failed; a red cut is worth 0.  Greedy's move stays
  unless another's gain exceeds ``z`` paired standard errors (common random
  numbers make the paired error far smaller than the two errors apart).
  Budget: deals × (candidates) rollouts of ``depth`` turns, one analysis per
  rollout turn.  The rollouts replay the view's game (game.Position: the
  view's state with its equipment board and its mission's rules); where it
  cannot be rebuilt (game.replay_refusal: hidden mission cards, or a
  mission's table without the simulator's meta.sim) lookahead plays greedy;
  its cards are greedy's.
* ``sighted``: FOR MEASUREMENT ONLY, the one policy that sees the true deal
  (sim/sighted.py): greedy whose cut is a sure one whenever the truth offers
  one -- the ceiling of what information is worth to greedy.

Setup tokens: ``random`` points at a random allowed wire; the others at the
allowed wire nearest the middle of their longest stand (leftmost on a tie):
it bounds the most neighbours by the stand's order, with no engine run.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from contextlib import contextmanager

from ..analysis import beliefs
from ..beliefs import Beliefs
from ..board import Board
from ..engines import DEFAULT, columns
from ..engines.sampling import Sampler
from ..facts import compile_table
from ..record import Record
from ..dial import dial
from ..suggest import Policy as Ranking, suggest
from ..suggest.analyses import Analyses
from ..suggest.equipment import red_escape
from ..table import Table, TableError, load_table
from ..wires import RED, YELLOW, Key, Value, parse_key, value_of
from .game import (AbsentTokens, Action, Choose, DoubleDetector, DualCut, Game, MultiCut, Position,
                   RevealRed, SetupToken, Slot, SoloCut, Tripwire, UseCard, _tupled, action_from_json,
                   replay_refusal)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Iterator

RED_CAP = 0.05
CERTAIN = 1 - 1e-12
RANDOM_USE = 0.25  # random: the chance of using a random usable card (random option) instead of its move
EQUIPMENT_MARGIN = 0.1  # greedy: a detector or the ray must beat the best call's P(success) by this much
STABILIZE_BELOW = 0.9  # greedy: the Stabilizer on a call below this P(success) or with any red risk
MUG_BELOW = 0.5  # greedy: the Coffee Mug (and the Walkie-Talkies) when the best call is below this P(success)
HOOK_AT = 0.9  # greedy: the Grappling Hook on a teammate wire at least this likely of a value one holds


class SimulatorBug(RuntimeError):
    """A table the simulator built for itself that the core refuses: a bug of the simulator."""


@contextmanager
def own_tables() -> Iterator[None]:
    """Around a decision on a table already validated: a :class:`TableError` inside comes from a table
    the simulator built (a restored game, a rollout's), never from the user's, so it is reported as
    the simulator's bug (the bridge's "internal error"), not as a fault of the user's table."""
    try:
        yield
    except TableError as refused:
        raise SimulatorBug(f"the simulator built a table the core refuses, a bug of the simulator and not of "
                           f"this table: {refused}") from refused


class View:
    """One player's table file and what follows from it."""

    def __init__(self, raw: dict[str, Any], player: int):
        self.raw, self.player = raw, player
        self._table: Table | None = None
        self._board: Board | None = None
        self._beliefs: Beliefs | None = None
        # p_value is asked thousands of times a decision (choices, equipment scores), the board and
        # the beliefs never change: each answer is computed once
        self._p_values: dict[tuple[Slot, Value], float] = {}

    @property
    def table(self) -> Table:
        if self._table is None:
            self._table = load_table(self.raw)
        return self._table

    def board(self) -> Board:
        """The table's board now (Table.board replays every event: kept for the view's life)."""
        if self._board is None:
            self._board = self.table.board()
        return self._board

    def sim(self) -> dict[str, Any]:
        return self.raw.get("meta", {}).get("sim") or {}

    def pending(self) -> dict[str, Any] | None:
        """The decision the game waits for from this player (None: a base-game turn, no limits)."""
        return self.sim().get("pending")

    def hand(self) -> list[tuple[Slot, Key]]:
        """My wires as dealt that I can see (my own flipped wires aside), deal-time addresses."""
        return [((self.player, s, j), parse_key(k)) for s, row in enumerate(self.raw["me"]["stands"])
                for j, k in enumerate(row) if k is not None]

    def cut(self) -> set[Slot]:
        return {(c.player, c.stand, c.slot) for c in self.table.cut_slots()}

    def my_uncut(self) -> list[tuple[Slot, Key]]:
        cut = self.cut()
        return [(x, k) for x, k in self.hand() if x not in cut]

    def teammates_uncut(self) -> list[Slot]:
        cut = self.cut()
        return [(p, s, j) for p, pl in enumerate(self.raw["players"]) if p != self.player
                for s, size in enumerate(pl["stands"]) for j in range(size if isinstance(size, int) else size["size"])
                if (p, s, j) not in cut]

    def has_detector(self) -> bool:
        pending = self.pending()
        if pending is not None:
            return bool(pending.get("detector"))
        if "no_double_detector" in self.raw.get("meta", {}).get("rules", ()):
            return False
        return not any(e["type"] == "detector" and e["actor"] == self.player for e in self.raw["events"])

    def tags(self) -> frozenset[str]:
        return frozenset(self.raw.get("meta", {}).get("rules", ()))

    # -- exact marginals of the view (for what suggest does not rank)
    def beliefs(self) -> Beliefs:
        if self._beliefs is None:
            self._beliefs = beliefs(self.table)
        return self._beliefs

    def adopt(self, runs: Analyses) -> None:
        """Take the beliefs from suggest's analyses of this view (``suggest(analyses=...)``): its
        root is the run :func:`~bombbuster_core.analysis.beliefs` would make again."""
        if self._beliefs is None:
            self._beliefs = runs.beliefs()

    def p_value(self, slot: Slot, value: Value) -> float:
        """P(the wire now at ``slot`` plays as ``value``) in this view (M11's Number counts as red)."""
        known = self._p_values.get((slot, value))
        if known is None:
            table = self.table
            keys = table.deck.keys_of_value(value)
            if value == RED and table.red_value is not None:
                keys = keys | table.deck.keys_of_value(table.red_value)
            known = sum(p for k, p in self.beliefs().probabilities(self.board().wire(*slot)).items() if k in keys)
            self._p_values[(slot, value)] = known
        return known

    def uncut_slots(self) -> list[Slot]:
        board = self.board()
        return [(p, s, j) for p, rows in enumerate(board.stands) for s, row in enumerate(rows)
                for j, w in enumerate(row) if w not in board.cut]

    def holds(self, value: Value) -> int:
        """How many wires of ``value`` I can see uncut now (cuttable or not)."""
        board = self.board()
        n = 0
        for s, row in enumerate(board.stands[self.player]):
            for j, w in enumerate(row):
                if w not in board.cut and not board.owner_flipped(w, self.player) and self.p_value(
                        (self.player, s, j), value) >= CERTAIN:
                    n += 1
        return n


def _slot(ref: dict[str, int]) -> Slot:
    return ref["player"], ref["stand"], ref["slot"]


def action_of(suggestion: dict[str, Any], player: int) -> Action:
    """The game action of one suggestion of suggest (JSON)."""
    kind = suggestion["kind"]
    if kind == "dual_cut":
        return DualCut(_slot(suggestion["target"]), suggestion["value"])
    if kind == "double_detector":
        a, b = (_slot(t) for t in suggestion["targets"])
        return DoubleDetector((a, b), suggestion["value"])
    if kind == "solo_cut":
        return SoloCut(suggestion["value"])
    if kind == "reveal_red":
        return RevealRed(player)
    raise ValueError(f"no game action for a {kind} suggestion")


def legal_suggestion(s: dict[str, Any], pending: dict[str, Any] | None) -> bool:
    """Whether the game allows a suggestion of suggest now (``pending``: meta.sim's turn; None: the
    base game, where every suggestion is legal)."""
    if pending is None:
        return True
    kind = s["kind"]
    targets = pending["targets"]
    if kind == "dual_cut":
        return s["value"] in pending["values"] and [s["target"][k] for k in ("player", "stand", "slot")] in targets
    if kind == "double_detector":
        return (pending["detector"] and s["value"] in pending["values"]
                and all([t[k] for k in ("player", "stand", "slot")] in targets for t in s["targets"]))
    if kind == "solo_cut":
        return s["value"] in pending["solo"]
    if kind == "reveal_red":
        return bool(pending["reveal"])
    return False


def middle_token(view: View, options: list[Slot] | None = None) -> Slot:
    """The allowed wire (default: a blue one) nearest the middle of the player's longest stand (leftmost on a tie)."""
    mine = view.hand()
    allowed = set(options) if options is not None else {x for x, k in mine if k % 10 == 0}
    sizes = {s: len(row) for s, row in enumerate(view.raw["me"]["stands"])}
    for s in sorted(sizes, key=lambda s: -sizes[s]):
        ok = [x for x, _ in mine if x[1] == s and x in allowed]
        if ok:
            return min(ok, key=lambda x: (abs(2 * x[2] - (sizes[s] - 1)), x[2]))
    raise ValueError("no wire to put a token on")


def _options(pending: dict[str, Any]) -> list[Any]:
    return [tuple(o) if isinstance(o, list) else o for o in pending["options"]]


class BasePolicy:
    """The interface: a name, a setup decision and a move, from the player's view only.  The
    choices that are not cuts follow the documented greedy rules (module docstring)."""

    name = "base"
    sees_the_deal = False  # True only for the sighted policy (sim/sighted.py): measurement, not play
    # Raised when a change makes the policy play other moves in the same games: a resumed log's records
    # name it (tournament.py) once it is above 1, so games of the old rule are not mixed in.
    version = 1
    # A search policy's tournament stream for its greedy choices ("greedy": greedy's own), its search
    # drawing from a stream of its own (``search_rng``); None: the policy's name (tournament.py).
    rng_stream: str | None = None

    def __init__(self, rng: random.Random):
        self.rng = rng

    def setup_token(self, view: View) -> Slot | SetupToken | AbsentTokens | None:
        pending = view.pending()
        if pending is None:
            return middle_token(view)
        options = _options(pending)
        if not options:
            return None
        if pending["kind"] == "setup_absent":
            return AbsentTokens(tuple(options[:pending["count"]]))
        slot = middle_token(view, options)
        if pending["token"] == "false":
            v = value_of(dict(view.hand())[slot])
            return SetupToken(slot, v % 12 + 1 if isinstance(v, int) else 1)
        return slot

    def move(self, view: View) -> Action:
        pending = view.pending()
        if pending is not None and pending["kind"] == "choose":
            return Choose(pending["what"], self.choose(view, pending))
        return self.turn(view, pending)

    def turn(self, view: View, pending: dict[str, Any] | None) -> Action:
        raise NotImplementedError

    def choose(self, view: View, pending: dict[str, Any]) -> Any:
        what, options = pending["what"], _options(pending)
        st = view.sim().get("state", {})
        me = view.player
        if what in ("designate", "volunteer"):
            v = pending["number"]
            mine = view.holds(v) > 0
            if what == "volunteer":
                return mine
            if mine and me in options:
                return me

            def expected(q: int) -> float:
                return sum(view.p_value(x, v) for x in view.uncut_slots() if x[0] == q)

            return max(options, key=lambda q: (expected(q), -((q - me) % len(view.raw["players"]))))
        if what == "give":
            left = {v: sum(view.p_value(x, v) for x in view.uncut_slots()) for v in options}
            return max(options, key=lambda v: (view.holds(v) == 0, round(left[v], 9), -options.index(v)))
        if what == "draft":
            held = [v for v in options if view.holds(v)]
            return max(held, key=view.holds) if held else options[0]
        if what == "constraint":
            mine = [value_of(k) for _, k in view.my_uncut()]
            from .game import _VALUE_RULES  # the card's rule
            return max(options, key=lambda c: (sum(1 for v in mine if isinstance(v, int) and _VALUE_RULES[c](v)),
                                               -ord(c)))
        if what == "end":
            line = st.get("line") or []
            if not line:
                return options[0]
            left, right = view.holds(line[0]), view.holds(line[-1])
            return "right" if right > left else "left"
        if what == "token":
            return middle_token(view, options)
        if what == "direction":
            line, at, down = st["line"], st["nano_at"], set(st.get("face_down", []))
            ahead = {d: sum(1 for i in range(len(line)) if (i - at) * d > 0 and line[i] not in down) for d in (1, -1)}
            return max(options, key=lambda d: (ahead[d], d))
        if what == "give_card":
            n = len(view.raw["players"])
            has_wires = {x[0] for x in view.uncut_slots()}
            return min(options, key=lambda o: (view.holds(o[0]), o[1] not in has_wires, (o[1] - me) % n))
        return options[0]


class RandomPolicy(BasePolicy):
    name = "random"

    def setup_token(self, view: View) -> Slot | SetupToken | AbsentTokens | None:
        pending = view.pending()
        if pending is None:
            return self.rng.choice([x for x, k in view.hand() if k % 10 == 0])
        options = _options(pending)
        if not options:
            return None
        if pending["kind"] == "setup_absent":
            return AbsentTokens(tuple(self.rng.sample(options, min(pending["count"], len(options)))))
        slot = self.rng.choice(options)
        if pending["token"] == "false":
            v = value_of(dict(view.hand())[slot])
            return SetupToken(slot, self.rng.choice([w for w in range(1, 13) if w != v]))
        return slot

    def choose(self, view: View, pending: dict[str, Any]) -> Any:
        return self.rng.choice(_options(pending))

    def turn(self, view: View, pending: dict[str, Any] | None) -> Action:
        if pending is None:  # a base-game table without the game's limits
            mine = view.my_uncut()
            values = sorted({value_of(k) for _, k in mine if value_of(k) != RED}, key=str)
            targets = view.teammates_uncut()
            if values and targets:
                return DualCut(self.rng.choice(targets), self.rng.choice(values))
            if values:  # nobody else has a wire left: every remaining wire is mine
                return SoloCut(values[0])
            return RevealRed(view.player)
        uses = pending.get("equipment") or []
        if uses and self.rng.random() < RANDOM_USE:
            u = self.rng.choice(uses)
            return UseCard(u["card"], _tupled(self.rng.choice(u["options"])))
        calls: list[Action] = [DualCut(tuple(t), v) for t in pending["targets"] for v in pending["values"]]
        if any(sp["kind"] == "tripwire" for sp in pending["specials"]):
            calls += [Tripwire(x) for x in view.uncut_slots() if x[0] != view.player]
        if calls:
            return self.rng.choice(calls)
        others: list[Action] = [SoloCut(v) for v in pending["solo"]]
        if pending["reveal"]:
            others.append(RevealRed(view.player))
        uncut = view.uncut_slots()
        for sp in pending["specials"]:
            if sp["kind"] == "multi_cut":
                pool = [x for x in uncut if not (sp.get("teammates") and x[0] == view.player)]
                if len(pool) >= sp["count"]:
                    others.append(MultiCut(sp["value"], tuple(self.rng.sample(pool, sp["count"]))))
        return self.rng.choice(others)


class SuggestPolicy(BasePolicy):
    """The first legal move of suggest's list (mode and probabilities as given), completed by
    :func:`greedy_turn`."""

    mode, probabilities, use_detector = "exact", "exact", True
    explain = False  # the rules read each suggestion's move and odds only; True where the rows are shown
    # The ranking weighs a failure by the dial and the cards avoid a call too red (issue 34: suggest's
    # Policy.stakes, equipment.red_escape); False only for FormerGreedyPolicy, greedy before that.
    stakes = True

    def ranking(self, view: View, equipment: tuple[str, ...]) -> list[dict[str, Any]]:
        policy = Ranking(red_cap=RED_CAP, seed=self.rng.randrange(2**31), equipment=equipment,
                         failure_token=not _no_failure_token(view), stakes=self.stakes)
        runs = Analyses(compile_table(view.table), DEFAULT)
        out = suggest(view.table, player=view.player, mode=self.mode, probabilities=self.probabilities,
                      policy=policy, cards=False,  # the simulator plays the cards its own way: no advice to compute
                      explain=self.explain, analyses=runs)
        view.adopt(runs)  # greedy's other rules read the marginals of the same analysis
        return out["suggestions"]

    def legal_ranking(self, view: View, pending: dict[str, Any] | None) -> list[dict[str, Any]]:
        detector = self.use_detector and view.has_detector()
        values = pending["values"] + pending["solo"] if pending is not None else [None]
        if pending is not None and not values and not pending["reveal"]:
            return []  # no call, solo cut or reveal is legal: no need to rank
        return [s for s in self.ranking(view, ("double_detector",) if detector else ())
                if legal_suggestion(s, pending)]

    def pick(self, ranked: list[dict[str, Any]]) -> dict[str, Any]:
        return choice(ranked)

    def turn(self, view: View, pending: dict[str, Any] | None) -> Action:
        ranked = self.legal_ranking(view, pending)
        use = greedy_equipment(view, pending, ranked, self.pick, self.stakes)
        if use is not None:
            return use
        return greedy_turn(view, pending, ranked, self.pick, self.rng)


def _middle(view: View, slots: list[Slot]) -> Slot:
    """The slot nearest the middle of its stand (leftmost on a tie)."""
    sizes = {(p, st): len(row) for p, rows in enumerate(view.board().stands) for st, row in enumerate(rows)}
    return min(slots, key=lambda x: (abs(x[2] - (sizes[x[:2]] - 1) / 2), x))


def _p_any(view: View, slots: Any, value: Any) -> float:
    """P(at least one of ``slots`` is ``value``), the marginals taken as independent (a cheap bound)."""
    q = 1.0
    for x in slots:
        q *= 1 - view.p_value(tuple(x), value)
    return 1 - q


def _p_all_red(view: View, slots: Any) -> float:
    q = 1.0
    for x in slots:
        q *= view.p_value(tuple(x), RED)
    return q


def greedy_equipment(view: View, pending: dict[str, Any] | None, ranked: list[dict[str, Any]],
                     pick: Any = None, stakes: bool = True) -> Action | None:
    """Greedy's use of the equipment (pending["equipment"]), one simple rule per card (the module
    docstring); None: no card now, the turn goes on as greedy_turn says.  ``stakes``: when the best
    call risks red above the cap, the card the advice says avoids it (:func:`_escape`) comes first."""
    if pending is None or not pending.get("equipment"):
        return None
    uses = {u["effect"]: u for u in pending["equipment"]}
    me = view.player

    def use(effect: str, option: Any) -> UseCard:
        return UseCard(uses[effect]["card"], _tupled(option))

    if "10.10" in uses:
        return use("10.10", None)
    if "6" in uses and view.sim().get("dial") == 1:
        return use("6", None)
    if "7" in uses:
        mine = [o for o in uses["7"]["options"] if me in o]
        if mine:
            return use("7", max(mine, key=len))
    if "3.3" in uses:
        return use("3.3", None)
    for effect in ("4", "2.2", "1", "12"):
        if effect in uses:
            return use(effect, _middle(view, [tuple(o) for o in uses[effect]["options"]]))
    best = (pick or choice)(ranked) if ranked else None
    if best is not None and best["certain"]:
        return None
    if "9.9" in uses:
        return use("9.9", uses["9.9"]["options"][0])
    if "8" in uses:
        stands = [[x for x in view.uncut_slots() if x[:2] == (q, s)]
                  for q, rows in enumerate(view.board().stands) if q != me for s in range(len(rows))]

        def doubt(v: int) -> float:
            return sum(min(p, 1 - p) for p in (_p_any(view, st, v) for st in stands if st))
        return use("8", max(uses["8"]["options"], key=lambda v: (doubt(v), -v)))
    candidates: list[tuple[float, float, Action]] = []  # (P(success), P(red), the use) of the detectors
    if "10" in uses:
        scored = [(view.p_value(tuple(t), a) + view.p_value(tuple(t), b), view.p_value(tuple(t), RED), (t, a, b))
                  for t, a, b in uses["10"]["options"]]
        scored = [x for x in scored if x[1] <= RED_CAP]
        if scored:
            p, red, o = max(scored, key=lambda x: x[0])
            candidates.append((p, red, use("10", o)))
    if "3" in uses:
        scored3 = [(_p_any(view, ts, v), ts, v) for ts, v in uses["3"]["options"] if _p_all_red(view, ts) <= RED_CAP]
        if scored3:
            p, ts, v = max(scored3, key=lambda x: x[0])
            candidates.append((p, _p_all_red(view, ts), use("3", (ts, v))))
    if "5" in uses:
        scored5 = []
        for (q, s), v in uses["5"]["options"]:
            st = [x for x in view.uncut_slots() if x[:2] == (q, s)]
            if _p_all_red(view, st) <= RED_CAP:
                scored5.append((_p_any(view, st, v), (q, s), v))
        if scored5:
            p, qs, v = max(scored5, key=lambda x: x[0])
            st = [x for x in view.uncut_slots() if x[:2] == qs]
            candidates.append((p, _p_all_red(view, st), use("5", (qs, v))))
    if stakes:
        escape = _escape(view, uses, ranked, candidates, use)
        if escape is not None:
            return escape
    bar = (best["p_success"] if best is not None else 0.0) + EQUIPMENT_MARGIN
    if candidates:
        p, _, action = max(candidates, key=lambda x: x[0])
        if p >= bar:
            return action
    if "11.11" in uses:
        held = {value_of(k) for _, k in view.my_uncut()} - {RED}
        scored_h = [(max((view.p_value(tuple(x), v) for v in held), default=0.0), tuple(x), st)
                    for x, st in uses["11.11"]["options"]]
        p, x, st = max(scored_h, key=lambda z: z[0])
        if p >= HOOK_AT:
            return use("11.11", (x, st))
    if "2" in uses and (best is None or best["p_success"] < MUG_BELOW):
        gift = _gift(view, uses["2"]["options"])
        if gift is not None:
            return use("2", gift)
    if "9" in uses and best is not None and best["kind"] == "dual_cut" and (
            best["p_success"] < STABILIZE_BELOW or best["p_red"] > 0):
        o = _stabilized(uses["9"]["options"], best)
        if o is not None:
            return use("9", o)
    if "11" in uses and (best is None or best["p_success"] < MUG_BELOW):
        return use("11", _busiest(view, uses["11"]["options"]))
    return None


def _escape(view: View, uses: dict[str, Any], ranked: list[dict[str, Any]],
            detectors: list[tuple[float, float, Action]], use: Callable[[str, Any], UseCard]) -> Action | None:
    """The advice's card when the best call risks red above the cap (suggest.equipment.red_escape, at
    the dial of suggest's ranking): the Stabilizer on it, the likeliest detector use within the cap (the
    Double Detector's exact odds from the ranking; the cards' greedy estimates), the Coffee Mug, the
    Walkie-Talkies' gift; None: the call is within the cap, or no such card."""
    call = next((s for s in ranked if s["kind"] == "dual_cut" and not s["certain"]), None)
    if call is None or any(s["certain"] for s in ranked):
        return None
    found = [(s["p_success"], s["p_red"], action_of(s, view.player)) for s in ranked
             if s["kind"] == "double_detector" and s["p_red"] <= RED_CAP]
    found += [c for c in detectors if c[1] <= RED_CAP]
    detector = max(found, key=lambda c: c[0], default=None)
    stabilized = _stabilized(uses["9"]["options"], call) if "9" in uses else None
    gift = _gift(view, uses["2"]["options"]) if "2" in uses else None
    cards = {name for name, there in (("stabilizer", stabilized), ("coffee_mug", uses.get("11")),
                                      ("walkie_talkies", gift), ("detector", detector)) if there is not None}
    now = dial(view.table)
    escape = red_escape((call["p_success"], call["p_red"]), detector and detector[:2], cards, RED_CAP,
                        None if now is None else now.failures_left)
    if escape == "stabilizer":
        return use("9", stabilized)
    if escape == "detector":
        return detector[2]  # type: ignore[index]
    if escape == "coffee_mug":
        return use("11", _busiest(view, uses["11"]["options"]))
    if escape == "walkie_talkies":
        return use("2", gift)
    return None


def _stabilized(options: list[Any], call: dict[str, Any]) -> Any:
    """The Stabilizer's option for a dual cut suggestion (None: not among them)."""
    o = ([call["target"][k] for k in ("player", "stand", "slot")], call["value"])
    return o if list(o) in [list(x) for x in options] else None


def _busiest(view: View, players: list[int]) -> int:
    """The player with the most uncut wires (the lowest on a tie): the Coffee Mug's."""
    board = view.board()
    return max(players, key=lambda q: (sum(1 for row in board.stands[q] for w in row if w not in board.cut), -q))


def _gift(view: View, options: list[Any]) -> Any:
    """The Walkie-Talkies' option: one's leftmost wire of a value held once, to the teammate with the
    most uncut wires (None: every value is held more than once)."""
    counts = Counter(value_of(k) for _, k in view.my_uncut())
    mine = set(counts)

    def value_at(x: Slot) -> Any:  # my own wire: certain in my view
        return max(mine, key=lambda v: (view.p_value(x, v), str(v)))
    alone = [(x, q) for x, q in options if counts[value_at(tuple(x))] == 1]
    if not alone:
        return None
    x, _ = alone[0]
    return x, _busiest(view, [q for y, q in alone if y == x])


def _no_failure_token(view: View) -> bool:
    return bool({"no_failure_info", "false_tokens"} & view.tags())


def choice(ranked: list[dict[str, Any]]) -> dict[str, Any]:
    """The list's first move, or the best Double Detector use when it is likelier to succeed."""
    first = ranked[0]
    if not first["certain"]:
        best = next((s for s in ranked if s["kind"] == "double_detector" and s["p_red"] <= RED_CAP), None)
        if best is not None and best["p_success"] > first["p_success"]:
            return best
    return first


def _costly(s: dict[str, Any], pending: dict[str, Any] | None) -> bool:
    return (pending is not None and s["kind"] == "dual_cut"
            and [s["target"][k] for k in ("player", "stand", "slot")] in pending["costly"])


def greedy_turn(view: View, pending: dict[str, Any] | None, ranked: list[dict[str, Any]],
                pick: Any, rng: random.Random) -> Action:
    """Greedy's turn from the legal ranking: certain moves, certain special actions, the best call,
    a tripwire call, a costly sure call, a forced special action (module docstring)."""
    me = view.player
    free = [s for s in ranked if not _costly(s, pending)]
    costly = [s for s in ranked if _costly(s, pending)]
    certain = [s for s in free if s["certain"]]
    if certain:
        return _own_flipped(view, pending, action_of(certain[0], me))
    specials = pending["specials"] if pending is not None else []
    multi = [sp for sp in specials if sp["kind"] == "multi_cut"]
    for sp in multi:
        slots, p = _likeliest(view, sp)
        if slots is not None and p >= CERTAIN:
            return MultiCut(sp["value"], slots)
    best = pick(free) if free else None
    if any(sp["kind"] == "tripwire" for sp in specials):
        slots = [x for x in view.uncut_slots() if x[0] != me]
        if slots:
            t = max(slots, key=lambda x: (view.p_value(x, YELLOW), -view.p_value(x, RED)))
            p_yellow, p_red = view.p_value(t, YELLOW), view.p_value(t, RED)
            if best is None or (p_red <= RED_CAP and p_yellow >= best["p_success"]):
                return Tripwire(t)
    if costly and (best is None or (best["p_success"] < 0.5 and view.sim().get("dial", 99) >= 2)):
        return action_of(costly[0], me)
    if best is not None:
        return _own_flipped(view, pending, action_of(best, me))
    for sp in multi:
        slots, _ = _likeliest(view, sp)
        if slots is not None:
            return MultiCut(sp["value"], slots)
    if costly:
        return action_of(costly[0], me)
    # nothing ranked is legal (e.g. every legal call has no chance in this view): a legal call at random
    calls = [DualCut(tuple(t), v) for t in pending["targets"] for v in pending["values"]] if pending else []
    if calls:
        return rng.choice(calls)
    if pending and pending["solo"]:  # a solo cut the view cannot prove (e.g. an unseen flipped wire may be one)
        return SoloCut(pending["solo"][0])
    if pending and pending["reveal"]:
        return RevealRed(me)
    raise ValueError(f"player {me} has no legal move to play: {pending}")


def _likeliest(view: View, sp: dict[str, Any]) -> tuple[tuple[Slot, ...] | None, float]:
    """A special action's ``count`` wires likeliest to hold its value, and the least likely one's P."""
    pool = [x for x in view.uncut_slots() if not (sp.get("teammates") and x[0] == view.player)]
    if len(pool) < sp["count"]:
        return None, 0.0
    scored = sorted(pool, key=lambda x: -view.p_value(x, sp["value"]))[:sp["count"]]
    return tuple(sorted(scored)), min(view.p_value(x, sp["value"]) for x in scored)


def _own_flipped(view: View, pending: dict[str, Any] | None, action: Action) -> Action:
    """Cut one's own flipped wire on a call of its value when the view makes it certain (M38: also
    the last visible wire of the value when the flipped wire is likeliest that value, P >= 1/2)."""
    if pending is None or not isinstance(action, DualCut) or not pending.get("own_flipped"):
        return action
    for own in pending["own_flipped"]:
        own = tuple(own)
        p = view.p_value(own, action.value)
        if p >= CERTAIN:
            return DualCut(action.target, action.value, own)
        if view.sim().get("mission") == 38 and p >= 0.5 and view.holds(action.value) == 1:
            board_values = [value_of(k) for _, k in view.my_uncut()]
            likeliest = max(set(board_values) | {action.value}, key=lambda v: view.p_value(own, v))
            if likeliest == action.value:
                return DualCut(action.target, action.value, own)
    return action


class GreedyPolicy(SuggestPolicy):
    name = "greedy"
    version = 3  # 2: the ranking weighs the dial, and the cards avoid a call too red (issue 34: stakes);
                 # 3: with spaces left a futile call within the red cap is a pass again (ranking.ordered)


class FormerGreedyPolicy(GreedyPolicy):
    """Greedy before issue 34 (its version 1, under its name): the red cap alone, the cards by their
    own thresholds.  Not a tournament policy: kept to replay version 1's logs (tests/test_greedy_logged.py)
    and to measure the change on the same deals (bench/stakes_gain.py)."""

    version = 1
    stakes = False


class KeepDetectorPolicy(SuggestPolicy):
    """Greedy that keeps its Double Detector for a turn when the best call risks red."""

    name = "greedy-keep-detector"
    version = 3  # 2: greedy's ranking and cards of issue 34 (SuggestPolicy.stakes); 3: greedy 3's

    def pick(self, ranked: list[dict[str, Any]]) -> dict[str, Any]:
        return keep_detector_choice(ranked)


def keep_detector_choice(ranked: list[dict[str, Any]]) -> dict[str, Any]:
    """The best call (the list's first move that is not a detector use) unless it risks red; then
    the detector use least likely to explode (a Double Detector explodes only when both wires are
    red: rules.md), likelier to succeed on a tie, when it is safer than the call."""
    call = next((s for s in ranked if s["kind"] != "double_detector"), None)
    if call is None:
        return ranked[0]
    if call["certain"] or call["p_red"] == 0:
        return call
    safer = [s for s in ranked if s["kind"] == "double_detector" and s["p_red"] < call["p_red"]]
    return min(safer, key=lambda s: (s["p_red"], -s["p_success"])) if safer else call


class EntropySeedPolicy(SuggestPolicy):
    name, mode, probabilities, use_detector = "entropy-seed", "entropy", "seed", False
    version = 2  # 2: the futile moves last and greedy's cards of issue 34 (SuggestPolicy.stakes)


class EntropyExactPolicy(SuggestPolicy):
    name, mode, probabilities, use_detector = "entropy-exact", "entropy", "exact", False
    version = 2  # as entropy-seed's


# ---------------------------------------------------------------- lookahead


def exact_move(game: Game, rng: random.Random, red_cap: float = RED_CAP) -> Action:
    """The rollout policy: greedy from the mover's own view of ``game`` with exact marginals
    (the first of :func:`exact_moves`)."""
    return exact_moves(game, rng, 1, red_cap)[0]


def exact_moves(game: Game, rng: random.Random, width: int, red_cap: float = RED_CAP) -> list[Action]:
    """The rollout policy's ``width`` best moves, best first, from the mover's own view of ``game``.

    One columns analysis of the mover's table file (their own wires in the
    rollout's deal plus the public events; never the other hands): reveal
    reds or a solo cut when certain, else the call with the highest exact
    P(success) within the red cap.  The Double Detector (while the mover has
    it) on a teammate stand's two likeliest wires of a value when its success
    odds beat the best call's; those odds read the two wires as independent
    (1 - (1 - p1)(1 - p2)), an estimate that only steers the rollout — one
    analysis per turn, no joint (suggest computes the exact joint for the
    decision itself).  The other moves: the next calls by the same score (within the red cap
    first, then likelier, then less red risk), and the best detector use when it does not come first.

    A mission's rules: only the moves its pending decision allows (the values, targets, solo cuts,
    reveal and detector it lists; in the base game that is every move above, so its rollouts are
    unchanged); when none is left (a forced or special action, a restricted turn) and at a choice,
    the mover plays greedy's move from their own view.
    """
    p = game.turn
    d = game.queue[0]
    if d["kind"] != "turn":
        return [GreedyPolicy(rng).move(View(game.table(p), p))]
    legal = _legal_in(game, d)
    moves = [a for a in _rollout_moves(game, rng, width, red_cap) if legal(a)]
    return moves[:width] if moves else [GreedyPolicy(rng).move(View(game.table(p), p))]


def _legal_in(game: Game, d: dict[str, Any]) -> Callable[[Action], bool]:
    """Whether a call, Double Detector, solo cut or reveal is allowed by the turn decision ``d`` (as
    Game._check: a detector never points at an X or flipped wire)."""
    values, solo, targets = set(d["values"]), set(d["solo"]), {tuple(t) for t in d["targets"]}

    def legal(a: Action) -> bool:
        if isinstance(a, DualCut):
            return a.value in values and a.target in targets
        if isinstance(a, DoubleDetector):
            return d["detector"] and a.value in values and all(t in targets and not game.special.get(t)
                                                               for t in a.targets)
        if isinstance(a, SoloCut):
            return a.value in solo
        return isinstance(a, RevealRed) and d["reveal"]

    return legal


def _rollout_moves(game: Game, rng: random.Random, width: int, red_cap: float) -> list[Action]:
    """:func:`exact_moves` before the turn's limits: from the mover's visible wires and their view."""
    p = game.turn
    held = sorted({game.gameplay(game.key(x)) for x in game.cuttable(p)} - {RED}, key=str)
    if not held:
        return [RevealRed(p)]
    table = load_table(game.table(p))
    # A legal game's analysis is far below any work budget: skip its estimate (a tenth of a rollout).
    b, board, deck = columns.analyze(compile_table(table), math.inf), table.board(), table.deck
    keys = {v: deck.keys_of_value(v) for v in held}
    reds = deck.keys_of_value(RED)
    possible: set[Value] = set()
    calls: list[tuple[tuple[Any, ...], Action]] = []
    pairs: list[tuple[float, Action]] = []
    detector = "no_double_detector" not in game.tags and p not in game.detectors_used
    for q in range(game.players):
        if q == p:
            continue
        stand_best: dict[tuple[int, Value], list[tuple[float, Slot]]] = {}
        for x in game.uncut(q):
            probs = b.probabilities(board.wire(*x))
            risk = sum(w for k, w in probs.items() if k in reds)
            for v in held:
                pv = sum(w for k, w in probs.items() if k in keys[v])
                if pv <= 0:
                    continue
                possible.add(v)
                calls.append(((risk <= red_cap, pv, -risk, rng.random()), DualCut(x, v)))
                if detector and isinstance(v, int):
                    stand_best.setdefault((x[1], v), []).append((pv, x))
        for (_, v), hits in stand_best.items():
            if len(hits) > 1:
                (p1, a), (p2, c) = sorted(hits, reverse=True)[:2]
                pairs.append((1 - (1 - p1) * (1 - p2), DoubleDetector(tuple(sorted((a, c))), v)))
    for v in held:
        if v not in possible:
            return [SoloCut(v)]
    calls.sort(key=lambda t: t[0], reverse=True)  # stable: the first of equal scores stays first
    moves = [a for _, a in calls]  # not empty: a value held is possible somewhere
    if pairs and calls[0][0][1] < 1:
        p_pair, pair = max(pairs, key=lambda t: t[0])
        moves.insert(0 if p_pair > calls[0][0][1] else min(width - 1, len(moves)), pair)
    return moves


def leaf_value(game: Game) -> float:
    """An unfinished rollout's worth: half the share of wires cut, half the detonator's margin."""
    wires = sum(len(row) for rows in game.hands for row in rows)
    return 0.5 * len(game.cut) / wires + 0.5 * (game.players - game.strikes) / game.players


def outcome_value(game: Game) -> float:
    if game.result == "win":
        return 1.0
    if game.result is not None:
        return 0.0
    return leaf_value(game)


# Default budget of a lookahead decision (CPython on this machine: bench/bench_sim.py).
DEALS, DEPTH, WIDTH, Z = 16, 4, 3, 1.0


class Decision(Record):
    """A lookahead decision: the move, its suggestion (JSON), the deals drawn, every candidate's estimate."""

    __slots__ = ("action", "suggestion", "deals", "candidates")
    action: Action
    suggestion: dict[str, Any]
    deals: int
    candidates: list[dict[str, Any]]  # suggestion JSON + "worth", "gain" (over greedy's move) and its "se"

    def __init__(self, action: Action, suggestion: dict[str, Any], deals: int, candidates: list[dict[str, Any]]):
        super().__init__(action, suggestion, deals, candidates)


class LookaheadPolicy(SuggestPolicy):
    """Greedy's candidates replayed on exactly sampled deals (module docstring)."""

    name = "lookahead"
    explain = True  # a decision's candidates are suggest's rows (the page shows them)

    # 2: greedy's choices from greedy's stream, the deals from search_rng (tournament.py); 3: greedy's
    # ranking and cards of issue 34 (SuggestPolicy.stakes)
    version = 4  # 4: greedy 3's ranking
    rng_stream = "greedy"

    def __init__(self, rng: random.Random, deals: int = DEALS, depth: int = DEPTH, width: int = WIDTH,
                 z: float = Z, search_rng: random.Random | None = None):
        super().__init__(rng)
        if deals < 1 or depth < 1 or width < 1:
            raise ValueError("lookahead: deals, depth and width must be at least 1")
        self.deals, self.depth, self.width, self.z = deals, depth, width, z
        self.search_rng = search_rng if search_rng is not None else rng  # the deals and rollout seeds

    def turn(self, view: View, pending: dict[str, Any] | None) -> Action:
        ranked = self.legal_ranking(view, pending)  # once, as greedy ranks: the same draws of greedy's stream
        use = greedy_equipment(view, pending, ranked, choice)
        if use is not None:
            return use  # the cards are greedy's: the search weighs calls and the Double Detector
        return self.decide(view, ranked).action

    def decide(self, view: View, ranked: list[dict[str, Any]] | None = None) -> Decision:
        """The best call or Double Detector use (module docstring), with every candidate's estimate;
        ``ranked``: the legal ranking when the caller has it."""
        pending = view.pending()
        if ranked is None:
            ranked = self.legal_ranking(view, pending)
        if replay_refusal(view.raw) is not None or (pending is not None and pending["kind"] != "turn"):
            # the rollouts cannot rebuild this game (hidden mission cards): greedy
            return Decision(greedy_turn(view, pending, ranked, choice, self.rng), {}, 0, [])
        base = choice(ranked)
        if base["certain"]:
            return Decision(action_of(base, view.player), base, 0, [])
        safe = [s for s in ranked if s is not base and s["p_red"] <= RED_CAP]
        chosen = [base] + [s for s in safe if s["kind"] == "dual_cut"][: self.width - 1]
        chosen += [s for s in safe if s["kind"] == "double_detector"][:1]
        if len(chosen) == 1:
            return Decision(action_of(base, view.player), base, 0, [])
        actions = [action_of(s, view.player) for s in chosen]
        values = self.rollouts(view, actions)
        (score0, _), *_ = estimates = [_stratified(s, v) for s, v in zip(chosen, values)]
        rows, best, gain = [], 0, 0.0
        for i, (s, (score, _)) in enumerate(zip(chosen, estimates)):
            se = _paired_se(chosen[0], values[0], s, values[i]) if i else 0.0
            rows.append({**s, "worth": score, "gain": score - score0, "se": se})
            # Greedy's move stays unless another's gain clears z paired standard errors:
            # the largest of several noisy estimates flatters its move.
            if i and score - score0 > self.z * se and score - score0 > gain:
                best, gain = i, score - score0
        return Decision(actions[best], rows[best], self.deals, rows)

    def rollouts(self, view: View, actions: list[Action]) -> list[list[tuple[str, float]]]:
        """Per action, per sampled deal: (its immediate outcome, the rollout's value).

        Common random numbers: every action meets the same deals and, on each
        deal, the same rollout seed (paired comparison).  The deals come from
        the view's exact posterior; after the action each player in turn plays
        :func:`exact_move` from their own view of the imagined deal for
        ``depth - 1`` turns; an unfinished game is worth :func:`leaf_value`.
        """
        deals = Sampler(compile_table(view.table)).sample(self.deals, self.search_rng)
        seeds = [self.search_rng.randrange(2**31) for _ in deals]
        # the view's whole state, the equipment board included (which detectors are spent, what each
        # card left): Game.restore alone reads the events, not what the cards did
        position = Position(view.raw, view.table, view.player, view.tags())
        out: list[list[tuple[str, float]]] = [[] for _ in actions]
        for deal, seed in zip(deals, seeds):
            for i, action in enumerate(actions):
                rng = random.Random(seed)
                game = position.game(deal, rng)
                first = len(game.events)
                game.play(action)
                if game.result == "red":
                    out[i].append(("red", 0.0))
                    continue
                # the action's own event: the game may go on past it (the next player's skip, M26, M57)
                outcome = "success" if game.events[first]["success"] else "failure"
                for _ in range(self.depth - 1):
                    if game.over:
                        break
                    game.play(exact_move(game, rng))
                out[i].append((outcome, outcome_value(game)))
        return out


def _weights(suggestion: dict[str, Any]) -> dict[str, float]:
    """The exact probabilities of a move's immediate outcomes."""
    p_success, p_red = suggestion["p_success"], suggestion["p_red"]
    return {"success": p_success, "failure": max(0.0, 1.0 - p_success - p_red), "red": p_red}


def _strata(values: list[tuple[str, float]]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for outcome, v in values:
        out.setdefault(outcome, []).append(v)
    return out


def _stratified(suggestion: dict[str, Any], values: list[tuple[str, float]]) -> tuple[float, dict[str, float]]:
    """E[value] = sum over outcomes of its exact probability times the rollouts' mean in it (a red
    cut is worth 0; deals of the posterior that fall in an outcome are draws from the posterior
    given it), and the mean used per outcome.  An outcome no deal fell in takes all rollouts' mean."""
    strata = _strata(values)
    pooled = sum(v for _, v in values) / len(values)
    means = {o: (sum(strata[o]) / len(strata[o]) if o in strata else pooled) for o in ("success", "failure")}
    means["red"] = 0.0
    return sum(w * means[o] for o, w in _weights(suggestion).items()), means


def _paired_se(sa: dict[str, Any], va: list[tuple[str, float]], sb: dict[str, Any],
               vb: list[tuple[str, float]]) -> float:
    """Standard error of value(b) - value(a) over the same deals (delta method): each deal's
    contribution to a stratified mean, centred, differenced between the two moves."""
    def contributions(s: dict[str, Any], values: list[tuple[str, float]]) -> list[float]:
        weights, (_, means), strata = _weights(s), _stratified(s, values), _strata(values)
        return [weights[o] * (v - means[o]) / len(strata[o]) if o != "red" else 0.0 for o, v in values]

    ca, cb = contributions(sa, va), contributions(sb, vb)
    return math.sqrt(sum((b - a) ** 2 for a, b in zip(ca, cb)))


def __getattr__(name: str) -> Any:
    """``POLICIES`` (name -> policy class), built on first use: the ``ismcts`` and ``sighted`` policies'
    modules build on this one, so they can only join once this module is loaded, whichever comes first."""
    if name != "POLICIES":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .ismcts import IsmctsPolicy
    from .sighted import SightedPolicy

    registry: dict[str, type[BasePolicy]] = {cls.name: cls for cls in (
        RandomPolicy, GreedyPolicy, KeepDetectorPolicy, EntropySeedPolicy, EntropyExactPolicy, IsmctsPolicy,
        LookaheadPolicy, SightedPolicy)}
    globals()["POLICIES"] = registry
    return registry
