"""The ``ismcts`` policy: information-set Monte Carlo tree search over the acting player's view.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012, "Information Set
Monte Carlo Tree Search", IEEE TCIAIG 4(2)): the tree belongs to the acting
player; each iteration plays it on one determinization.

* **Determinizations.**  Each iteration draws a full hidden deal exactly from
  the acting player's posterior (engines/sampling.py: the backward sampler,
  prepared once per decision) and plays it from the view's state with the
  equipment (game.Replay: the stands as dealt and now, cuts, tokens, dial,
  the cards on the board, used cards and characters; in a mission with rules
  of its own, its state and round counters from the simulator's view).
* **The tree.**  A node is the sequence of moves since the decision (the
  moves are public; their outcomes come from the determinization).  At the
  acting player's nodes the moves are chosen by UCT over the moves available
  in this determinization, each child's exploration term counting the visits
  in which it was available (availability counts): ``mean + c sqrt(ln(avail)
  / visits)``; an untried available move is tried first, in the candidates'
  order.  Teammates' moves in the tree (and in the rollouts) are the rollout
  policy's from THEIR OWN view of the determinization (rollout.exact_move:
  their table file over that deal, never another hand); the tree follows them
  without choosing.  One node is added per iteration.
* **Candidates.**  At the root (the real decision): greedy's move first (the
  full greedy of greedy.py, its card included), its move without the card
  when greedy uses one, the exact ranking's next ``width - 1`` calls within
  the red cap, its best Double Detector use, and for each card (or character)
  usable now one use: the option greedy's rule for that card picks
  (greedy_equipment given that card alone, its thresholds waived when they
  keep it from choosing; the Stabilizer on greedy's call).  So the tree may
  use a card, or keep it.  Deeper in the tree, the acting player's moves are
  the rollout policy's ``width`` best (rollout.exact_moves: calls and the
  Double Detector, no card).
* **Rollouts** by the rollout policy (every player from their own view; a
  mission's turn limits kept, its choices and special actions greedy's) until
  the game ends or ``horizon`` turns have been played since the decision (tree
  and rollout together).  Value: a win 1, a loss 0, an unfinished game
  rollout.leaf_value (half the share of wires cut, half the margin left by
  the failed cuts) -- the lookahead's evaluation.  The whole team shares it.
* **The choice** (:func:`pick`): greedy's move, unless another root move's
  mean value beats greedy's by more than ``z`` standard errors of the
  difference (the largest such gain wins).  The two means are independent
  (UCT does not pair the determinizations), each with the variance
  ``m(1 - m) / n`` of a mean of ``n`` values in [0, 1] (the largest a mean
  ``m`` allows), ``m`` taken plus-two (``(total + 1) / (n + 2)``) so that a
  move seen once or always winning is not certain.  Without it the first
  measurement lost to greedy (docs/architecture.md, "The ismcts policy": with about three
  visits a candidate, the most visited move was often a lucky one); a budget
  of one iteration visits greedy's move alone, so it plays greedy's move.

No search where it cannot help or cannot be played: a certain move (greedy's
certain cut, solo cut or reveal), a choice or a setup decision, with
``endgame`` N a decision while more than N wires are uncut (the searches
that changed a game's result came late: bench/search_departures.py), a game
the replay cannot rebuild (replay.replay_refusal: a mission whose cards are
hidden, or a mission's table without the simulator's meta.sim), or a view
too large for the sampler's budget: then the policy plays greedy.  Budget: ``iterations`` (default, deterministic for
a seed) or ``seconds`` of search per decision (at least one iteration; not
reproducible: the iterations run differ with the machine's speed).
:meth:`IsmctsPolicy.decide` gives the move with the root's statistics, or why
it did not search (the page's Search mode: sim/search_advice.py).
"""
from __future__ import annotations

import math
import random
import time

from ..beliefs import EngineLimit
from ..engines.sampling import Sampler
from ..facts import compile_table
from ..record import Record
from .actions import UseCard, tupled
from .refusals import Refusal
from .replay import Replay, replay_refusal
from .greedy import GreedyPolicy, choice, greedy_equipment, greedy_turn
from .rollout import exact_move, exact_moves, outcome_value
from .view import RED_CAP, View, action_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

    from .actions import Action
    from .game import Game

# Default budget of a decision: iterations, turns simulated per iteration, candidate calls, UCT's constant;
# the standard errors another move's gain must clear to replace greedy's (pick).
ITERATIONS, HORIZON, WIDTH, EXPLORATION, Z = 50, 6, 4, 0.7, 1.0


def pick(stats: list[tuple[int, float]], z: float = Z) -> int:
    """The root move played, by index into ``stats`` (per candidate, greedy's first: its visits and the
    sum of its values): greedy's, unless another's mean beats it by more than ``z`` standard errors
    (module docstring).  The page's Search merges its workers' roots with it too (search_advice.merged)."""
    def mean_and_variance(visits: int, total: float) -> tuple[float, float]:
        m = (total + 1) / (visits + 2)  # plus-two: never 0 or 1
        return total / visits, m * (1 - m) / visits

    if not stats or not stats[0][0]:
        return 0
    m0, v0 = mean_and_variance(*stats[0])
    best, gain = 0, 0.0
    for i, (visits, total) in enumerate(stats[1:], 1):
        if visits:
            m, v = mean_and_variance(visits, total)
            if m - m0 > z * math.sqrt(v + v0) and m - m0 > gain:
                best, gain = i, m - m0
    return best


class Node:
    """A node of the acting player's tree: its statistics and its children by move."""

    __slots__ = ("children", "visits", "total", "available")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.total = 0.0  # sum of the values backed up through this node
        self.available = 0  # visits of the parent in which this node's move was available

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


def select(node: Node, moves: list[Action], c: float) -> Action:
    """UCT with availability counts over the moves available now (``moves``, in priority order):
    the first untried one, else the best upper bound."""
    for a in moves:
        node.children.setdefault(a, Node()).available += 1
    for a in moves:
        if not node.children[a].visits:
            return a

    def bound(a: Action) -> float:
        child = node.children[a]
        return child.mean() + c * math.sqrt(math.log(child.available) / child.visits)

    return max(moves, key=bound)  # the first of equal bounds


# The view's sampler refused: the search plays greedy's move (here and for a view the search cannot restore).
TOO_LARGE = Refusal("the view is too large for the sampler's budget", "view_too_large")


class Searched(Record):
    """A decision: the move, the root's candidate moves (greedy's first) and the root after the search
    (None: no search, ``reason`` says why, its code for the page), from the legal ranking ``ranked``
    (suggest's JSON)."""

    __slots__ = ("action", "moves", "root", "ranked", "reason")
    action: Action
    moves: list[Action]
    root: Node | None
    ranked: list[dict[str, Any]]
    reason: Refusal | None

    def __init__(self, action: Action, moves: list[Action], root: Node | None, ranked: list[dict[str, Any]],
                 reason: Refusal | None):
        super().__init__(action, moves, root, ranked, reason)


class IsmctsPolicy(GreedyPolicy):
    """Greedy's moves improved by a search over the acting player's information set (module docstring)."""

    name = "ismcts"
    # 2: greedy's move unless another's clears a standard error (pick; 1 played the most visited), and
    # greedy's choices from greedy's stream, the determinizations from search_rng (tournament.py); 3: greedy's
    # ranking and cards of issue 34 (greedy.SuggestPolicy.stakes)
    version = 4  # 4: greedy 3's ranking
    rng_stream = "greedy"
    explain = True  # a search's candidates are suggest's rows (the page shows them: search_advice.py)

    def __init__(self, rng: random.Random, iterations: int = ITERATIONS, seconds: float | None = None,
                 horizon: int = HORIZON, width: int = WIDTH, exploration: float = EXPLORATION, z: float = Z,
                 progress: Callable[[int, int], None] | None = None, search_rng: random.Random | None = None,
                 endgame: int | None = None):
        super().__init__(rng)
        self.search_rng = search_rng if search_rng is not None else rng  # determinizations, rollouts
        if iterations < 1 or horizon < 1 or width < 1 or (seconds is not None and seconds <= 0) or (
                endgame is not None and endgame < 1):
            raise ValueError("ismcts: iterations, horizon, width and endgame must be at least 1, seconds above 0")
        self.iterations, self.seconds, self.horizon = iterations, seconds, horizon
        # Search only once at most this many wires are uncut, on the whole table (None: every open
        # decision): where the searches that changed a game's result were (bench/search_departures.py),
        # and where they cost least.
        self.endgame = endgame
        self.width, self.c, self.z = width, exploration, z
        self.progress = progress  # hears (iterations done, the budget's iterations) after each iteration

    def turn(self, view: View, pending: dict[str, Any] | None) -> Action:
        return self.decide(view, pending).action

    def decide(self, view: View, pending: dict[str, Any] | None) -> Searched:
        """The move and the search behind it (the root's statistics, or why there was none)."""
        ranked = self.legal_ranking(view, pending)
        use = greedy_equipment(view, pending, ranked, choice)
        # greedy's stream is drawn as greedy draws it: greedy_turn only when greedy plays no card
        plain = greedy_turn(view, pending, ranked, choice, self.rng if use is None else self.search_rng)
        greedy = use if use is not None else plain

        def unsearched(reason: Refusal) -> Searched:
            return Searched(greedy, [greedy], None, ranked, reason)

        if pending is None or pending["kind"] != "turn":
            return unsearched(Refusal("not a turn of the game (a choice or a setup decision)", "not_a_turn"))
        refusal = replay_refusal(view.raw)
        if refusal is not None:
            return unsearched(refusal)
        if use is None and any(s["certain"] for s in ranked):
            # greedy_turn plays a certain move first: it cannot fail
            return unsearched(Refusal("a certain move", "certain_move"))
        if self.endgame is not None and len(view.my_uncut()) + len(view.teammates_uncut()) > self.endgame:
            return unsearched(Refusal(f"more than {self.endgame} wires uncut: the search waits for the endgame",
                                      "before_endgame", endgame=self.endgame))
        moves = self.candidates(view, pending, ranked, greedy, plain)
        if len(moves) == 1:
            return unsearched(Refusal("a single candidate move", "single_candidate"))
        try:
            sampler = Sampler(compile_table(view.table))
        except EngineLimit:
            return unsearched(TOO_LARGE)
        root = self.search(view, sampler, moves)
        stats = [(root.children[a].visits, root.children[a].total) if a in root.children else (0, 0.0) for a in moves]
        return Searched(moves[pick(stats, self.z)], moves, root, ranked, None)

    def candidates(self, view: View, pending: dict[str, Any], ranked: list[dict[str, Any]], greedy: Action,
                   plain: Action) -> list[Action]:
        """The root's moves, greedy's first (module docstring)."""
        me = view.player
        safe = [s for s in ranked if s["p_red"] <= RED_CAP]
        moves = [greedy, plain] + [action_of(s, me) for s in safe if s["kind"] == "dual_cut"][: self.width - 1]
        moves += [action_of(s, me) for s in safe if s["kind"] == "double_detector"][:1]
        best = choice(ranked) if ranked else None
        for u in pending.get("equipment") or ():
            alone = {**pending, "equipment": [u]}
            use = greedy_equipment(view, alone, ranked, choice) or greedy_equipment(view, alone, [], choice)
            if use is None and u["effect"] == "9" and best is not None and best["kind"] == "dual_cut":
                option = [[best["target"][k] for k in ("player", "stand", "slot")], best["value"]]
                use = UseCard(u["card"], tupled(option)) if option in u["options"] else None
            if use is not None:
                moves.append(use)
        return list(dict.fromkeys(moves))

    def search(self, view: View, sampler: Sampler, moves: list[Action]) -> Node:
        """The root after the budget's iterations, every one on a fresh determinization."""
        position = Replay(view.raw, view.table, view.player, view.tags())
        root = Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while done < 1 or (done < self.iterations if deadline is None else time.perf_counter() < deadline):
            rng = random.Random(self.search_rng.randrange(2**63))
            game = position.game(sampler.draw(rng), rng)
            self.iterate(root, game, view.player, moves, rng)
            done += 1
            if self.progress is not None and deadline is None:
                self.progress(done, self.iterations)
        return root

    def iterate(self, root: Node, game: Game, me: int, moves: list[Action], rng: random.Random) -> None:
        """One iteration: down the tree, one node added, a rollout, the value backed up."""
        start = game.turns
        node, path = root, [root]
        while not game.over and game.turns - start < self.horizon:
            if game.turn == me:
                a = select(node, moves if node is root else exact_moves(game, rng, self.width), self.c)
            else:
                a = exact_move(game, rng)  # the teammate's move from their own view of this deal
            new = a not in node.children or not node.children[a].visits
            node = node.children.setdefault(a, Node())
            path.append(node)
            game.play(a)
            if new:
                break
        while not game.over and game.turns - start < self.horizon:
            game.play(exact_move(game, rng))
        value = outcome_value(game)
        for n in path:
            n.visits += 1
            n.total += value
