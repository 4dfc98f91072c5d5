"""The simulator's actions as JSON: actions.action_json and its one reader actions.action_from_json,
through which view.action_of reads a suggestion of suggest (with suggest's wire addresses).

* Every kind of action round-trips through its JSON text, each built from the game's own legal
  actions at every decision of a few seeded games of missions that between them reach every kind.
* A suggestion of suggest reads as the legal action it names, under the same kind name and address
  as that action's JSON; in the page's search results (sim/search_advice.py) a row's suggestion and
  its ``move`` read as the same action.
"""
from __future__ import annotations

import json
import random
from typing import Iterator

from bombbuster_core.sim.actions import (Action, Choose, DoubleDetector, DualCutAction, MultiCutAction,
                                         RevealRedAction, SoloCutAction, TripwireAction, UseCard, action_from_json,
                                         action_json)
from bombbuster_core.sim.deal import new_game
from bombbuster_core.sim.game import Game
from bombbuster_core.sim.greedy import GreedyPolicy
from bombbuster_core.sim.random_policy import RandomPolicy
from bombbuster_core.sim.rollout import exact_move
from bombbuster_core.sim.search_advice import search
from bombbuster_core.sim.view import PLAYED_KINDS, View, action_of

# (mission, players): between them every action kind is legal at some decision of seeds 0-2 -- the
# reveal (M4), a multi-cut (M13), a choice of a number (M18) and of a pair, a tuple (M65), a cut with
# one's own flipped wire (M38), a tripwire call (M41) -- and the calls, detectors, solo cuts and card
# uses of them all
GAMES = [(4, 4), (13, 3), (18, 3), (38, 3), (41, 3), (65, 3)]
SEEDS = range(3)
ADDRESS = ("player", "stand", "slot")
SEARCH_FIELDS = {"kind", "move", "visits", "value_sum", "mean"}  # a search row's, beside its suggestion's


def decisions(mission: int, players: int, seed: int) -> Iterator[tuple[Game, list[Action]]]:
    """Each decision of a seeded game with the actions legal at it: the game's list plus a legal
    multi-cut of each special the decision offers (legal_moves leaves their slot sets out); the game
    plays on mostly by the rollout's policy (a long game: the reveal, the solo cuts), at times the
    random policy's move (the specials, the cards, the choices' other options)."""
    rng = random.Random(seed)
    game = new_game(rng, mission=mission, players=players)
    policy = RandomPolicy(rng)
    for p in game.setup_token_players():
        game.place_token(policy.setup_token(View(game.table(p), p)))
    while not game.over:
        decision = game.queue[0]
        legal = game.legal_moves()
        for special in decision.get("specials", ()):
            if special["kind"] == "multi_cut":
                pool = [x for q in range(game.players) for x in game.uncut(q)
                        if not (special.get("teammates") and q == decision["player"])]
                if len(pool) >= special["count"]:
                    multi = MultiCutAction(special["value"], tuple(rng.sample(pool, special["count"])))
                    assert game.is_legal(multi), multi
                    legal.append(multi)
        yield game, legal
        game.play(exact_move(game, rng) if rng.random() < 0.9 else policy.move(View(game.table(game.turn), game.turn)))


def test_every_legal_action_round_trips_through_its_json() -> None:
    kinds: set[type] = set()
    own_flipped = tuple_options = 0
    for mission, players in GAMES:
        for seed in SEEDS:
            for game, legal in decisions(mission, players, seed):
                player = game.queue[0]["player"]
                for action in legal:
                    text = json.dumps(action_json(action))
                    assert action_from_json(json.loads(text), player) == action, (mission, seed, text)
                    kinds.add(type(action))
                    own_flipped += isinstance(action, DualCutAction) and action.own is not None
                    tuple_options += isinstance(action, Choose) and isinstance(action.option, tuple)
    assert kinds == {DualCutAction, DoubleDetector, SoloCutAction, RevealRedAction, MultiCutAction, TripwireAction,
                     Choose, UseCard}
    assert own_flipped and tuple_options


def suggested(game: Game) -> list[dict]:
    """Greedy's ranking of the legal suggestions of suggest at ``game``'s turn decision."""
    view = View(game.table(game.turn), game.turn)
    return GreedyPolicy(random.Random(0)).legal_ranking(view, view.pending())


def test_a_suggestion_reads_as_the_legal_action_it_names() -> None:
    kinds: set[str] = set()
    for game, legal in (d for mission, players in [(4, 4), (38, 3)] for d in decisions(mission, players, 0)):
        if game.queue[0]["kind"] != "turn":
            continue
        for s in suggested(game):
            if s["kind"] not in PLAYED_KINDS:
                continue
            action = action_of(s, game.turn)
            assert action in legal, (s, action)
            move = action_json(action)
            assert move["kind"] == s["kind"], (s, move)  # one vocabulary of kinds: suggest's and the JSON's
            if s["kind"] == "dual_cut":
                assert [s["target"][k] for k in ADDRESS] == move["target"], (s, move)
            if s["kind"] == "double_detector":  # (a solo cut's or a reveal's targets: the wires it cuts)
                assert [[t[k] for k in ADDRESS] for t in s["targets"]] == move["targets"], (s, move)
            kinds.add(s["kind"])
    assert kinds == PLAYED_KINDS, kinds


def test_a_search_rows_suggestion_and_move_are_the_same_action() -> None:
    """The page adds searches up by ``move`` and shows the row's suggestion: both read as one action."""
    kinds: set[str] = set()
    for game, _ in decisions(4, 4, 1):
        if game.queue[0]["kind"] != "turn":
            continue
        result = search({"table": game.table(game.turn), "iterations": 3, "horizon": 2, "seed": 1})
        for row in result["suggestions"]:
            if row["kind"] in PLAYED_KINDS and set(row) - SEARCH_FIELDS:  # a move suggest ranks
                assert action_of(row, game.turn) == action_from_json(row["move"], game.turn), row
                kinds.add(row["kind"])
    assert kinds >= {"dual_cut", "double_detector", "solo_cut"}, kinds
