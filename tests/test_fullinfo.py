"""The full-information solver (sim/fullinfo.py) against a plain exhaustive search over every line.

The brute force knows nothing of the solver: every setup token's option, every legal move
(Game.legal_moves, each card's every option), a deep copy per move, no memo, no order, no
pruning.  It is run on positions small enough for it: tiny wire-set games, and real M38 / M43
deals played forward by random legal moves until few wires are left (M38's flipped wire and
M43's Nano make lines that lose with every wire known).
"""
from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from bombbuster_core.sim.actions import SoloCutAction
from bombbuster_core.sim.deal import new_game, open_mission
from bombbuster_core.sim.fullinfo import clone, dead, moves, play_line, solve, state_key, tokens_matter
from bombbuster_core.sim.game import Game
from bombbuster_core.wires import key_json

BRUTE_CAP = 60_000


class TooBig(Exception):
    pass


def _setup_options(game):
    p = game.setup_token_players()[0]
    pending = game.table(p)["meta"]["sim"]["pending"]
    assert pending["kind"] == "setup_token" and pending["token"] in ("value", "count", "parity")
    return [None] + [tuple(o) for o in pending["options"]]


def brute_force(game, count: list[int]) -> bool:
    """Whether some line of play wins ``game``: every option of every decision, tried in turn."""
    if game.over:
        return game.result == "win"
    if game.setup_token_players():
        options, play = _setup_options(game), "place_token"
    else:
        pending = game.queue[0]
        assert not any(sp["kind"] == "multi_cut" for sp in pending.get("specials", []))
        options, play = game.legal_moves(), "play"
    for o in options:
        count[0] += 1
        if count[0] > BRUTE_CAP:
            raise TooBig
        child = copy.deepcopy(game)
        getattr(child, play)(o)
        if brute_force(child, count):
            return True
    return False


def uncut_wires(game) -> int:
    return sum(len(game.uncut(q)) for q in range(game.players)) + len(game.nano)


def late_position(mission: int, players: int, seed: str, left: int, rng: random.Random):
    """A real deal played forward from its setup by random legal moves (mostly the sure ones, some
    random: failures, cards) until at most ``left`` wires are uncut; None when the game ended first."""
    game = new_game(random.Random(seed), mission=mission, players=players, equipment=True)
    while game.setup_token_players():
        game.place_token(rng.choice(_setup_options(game)))
    while not game.over and uncut_wires(game) > left:
        options = list(moves(game)) if rng.random() < 0.85 else game.legal_moves()
        game.play(options[0] if rng.random() < 0.7 else rng.choice(options))
    return None if game.over else game


def check(game) -> str:
    count = [0]
    truth = brute_force(copy.deepcopy(game), count)
    s = solve(game, nodes=BRUTE_CAP)
    assert s.verdict == ("win" if truth else "loss"), (s, count[0])
    if truth:
        assert play_line(game, s.line) == "win"
    return s.verdict


TINY_WIRES = [{"deck": {"1": 2, "2": 2, "3.5": 1}}, {"deck": {"1": 3, "2": 2, "1.5": 1}},
              {"deck": {"1": 2, "2": 2, "3": 2}}, {"deck": {"1": 2, "2": 3, "2.1": 1, "3.5": 1}}]


@pytest.mark.parametrize("seed", range(40))
def test_tiny_games_from_random_prefixes(seed):
    """2 players, a handful of wires, setup tokens and the Double Detector, from a random legal prefix."""
    rng = random.Random(seed)
    game = new_game(rng, wires=rng.choice(TINY_WIRES), players=2)
    while game.setup_token_players():
        game.place_token(rng.choice(_setup_options(game)))
    for _ in range(rng.randrange(3)):
        if not game.over:
            game.play(rng.choice(game.legal_moves()))
    if game.over:
        return
    check(game)


@pytest.mark.parametrize("mission", [38, 43])
def test_late_mission_positions(mission):
    """Real deals near their end: the solver's verdict is the brute force's, both verdicts occur for
    M38, and every win it reports replays to a win."""
    rng = random.Random(mission)
    verdicts = []
    for i in range(60):
        game = late_position(mission, 4, f"fullinfo-{mission}-{i}", 5, rng)
        if game is None:
            continue
        try:
            verdicts.append(check(game))
        except TooBig:
            continue
        if len(verdicts) >= 12 and len(set(verdicts)) == 2:
            break
    assert len(verdicts) >= 3
    if mission == 38:
        assert set(verdicts) == {"win", "loss"}, verdicts


def test_clone_plays_as_a_deep_copy():
    """The fast copy and a deep copy play the same random lines to the same states and results."""
    rng = random.Random(5)
    for mission in (38, 43, 8):
        game = new_game(random.Random(f"clone-{mission}"), mission=mission, players=4, equipment=True)
        while game.setup_token_players():
            game.place_token(rng.choice(_setup_options(game)))
        a, b = clone(game), copy.deepcopy(game)
        while not a.over:
            move = rng.choice(a.legal_moves())
            a.play(move)
            b.play(move)
            assert state_key(a) == state_key(b) and a.events == b.events
        assert a.result == b.result and not game.over


def test_a_dead_m38_deal_is_a_loss():
    """M38, seed 2026 game 3: the Captain's flipped wire is a 4 and they hold no other 4, so no call or solo
    cut can ever take it: a loss from the deal, found without a search; M38 game 0 (flipped 3, a 3 in
    hand) is not dead and is won."""
    lost = new_game(random.Random("2026-3"), mission=38, players=4, equipment=True)
    assert dead(lost) and solve(lost).verdict == "loss"
    won = new_game(random.Random("2026-0"), mission=38, players=4, equipment=True)
    s = solve(won)
    assert not dead(won) and s.verdict == "win" and play_line(won, s.line) == "win"


def test_the_budget_is_reported_not_guessed():
    """A budget too small to finish answers unresolved (never a win or a loss)."""
    game = new_game(random.Random("2026-0"), mission=8, players=5, equipment=True)
    assert solve(game, nodes=5).verdict == "unresolved"
    assert solve(game).verdict == "win"


def test_tokens_abstracted_only_where_nothing_reads_them():
    game = new_game(random.Random("2026-1"), mission=43, players=4, equipment=True)
    assert not tokens_matter(game)  # Nano: the moving cards are barred; no Emergency Drop
    m31 = new_game(random.Random("2026-1"), mission=31, players=4, equipment=True)
    assert tokens_matter(m31)  # Constraint cards: H reads the tokens



def one_winning_order() -> Game:
    """M9 by hand, 2 players, the Number cards' sequence 5, 2, 3 (a value opens once 2 wires of the one
    before it are cut: 2 and 3 are closed), the dial at its last space (a failure loses):

        Captain: 1 1 5 5        player 2: 2 2

    The Captain moves first.  Every call and detector fails (player 2 holds only 2s, which the Captain
    cannot call), so loses.  The solo cut of the 1s -- the first the solver tries: solo cuts go by value
    -- leaves player 2 with only 2s while 2 is closed: their turn has no legal action, and a skip with
    sequence-blocked wires left explodes (M9's FAQ).  Only the solo cut of the 5s opens the 2s: player 2
    cuts them alone, the Captain their 1s, and the game is won."""
    hands = [[[10, 10, 50, 50]], [[20, 20]]]
    keys = Counter(k for rows in hands for row in rows for k in row)
    setup = {"format": 1, "meta": {"mission": 9, "rules": ["no_setup_tokens"]},
             "players": [{"stands": [4]}, {"stands": [2]}],
             "wires": {"deck": {str(key_json(k)): n for k, n in sorted(keys.items())}}}
    game = Game(setup, hands, [], random.Random(0), frozenset({"no_setup_tokens"}), mission=9)
    open_mission(game)
    game.state.update(sequence=[5, 2, 3], sequence_at=0)
    game.dial = 1
    game.begin_play()
    return game


def test_the_one_winning_first_move_is_found():
    """A hand-worked position where one first move wins and every other loses: the solver's line is the
    one the docstring above works out, every other first move's position is a loss for the solver and
    for the plain exhaustive search, and the brute force agrees the position is won."""
    game = one_winning_order()
    assert game.turn == 0 and game.dial == 1 and not game.over
    s = solve(game)
    assert s.verdict == "win" and play_line(game, s.line) == "win"
    assert s.line == [SoloCutAction(5), SoloCutAction(2), SoloCutAction(1)]
    assert brute_force(copy.deepcopy(game), [0])
    first_moves = game.legal_moves()
    assert {SoloCutAction(1), SoloCutAction(5)} <= set(first_moves) and len(first_moves) >= 6  # calls, detector
    for move in first_moves:
        child = copy.deepcopy(game)
        child.play(move)
        wins = brute_force(copy.deepcopy(child), [0])
        assert wins == (move == SoloCutAction(5)), move
        assert solve(child).verdict == ("win" if wins else "loss"), move
