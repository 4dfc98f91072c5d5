"""The ismcts policy (sim/ismcts.py) and the replay it searches on (game.Replay).

* The replay: on the true deal, every player's table file of the replayed
  game is the real game's (equipment, moved wires, dial and all); on a
  deal drawn from a player's posterior, that player's file is their view and
  every other player's file is consistent.
* The replay of a mission with rules of its own (from the simulator's own
  view): on the true deal it is the game, every field and every player's
  file, and it goes on as the game does; a determinization is the actor's
  view; the missions whose cards are hidden, and a page's mission table,
  are refused with the reason.
* Game.restore: the turn after the restored one is the next player's.
* The policy: one iteration plays greedy's move; the same seed gives the
  same search; the same view over another hidden deal gives the same move,
  and the teammates' simulated moves read only their own view; the root's
  candidates include a use of each usable card, all legal; a game with
  equipment plays to its end; the tournament pairs its deals with greedy's.
"""
from __future__ import annotations

import copy
import json
import math
import random
import re

import pytest

from bombbuster_core.analysis import beliefs
from bombbuster_core.engines.sampling import Sampler
from bombbuster_core.facts import compile_table
from bombbuster_core.missions import BASE_MISSIONS, mission as mission_entry
from bombbuster_core.sim.actions import SimError, UseCard
from bombbuster_core.sim.deal import REFUSED, new_game
from bombbuster_core.sim.game import Game
from bombbuster_core.sim.replay import NOT_REPLAYED, Replay, replay_refusal
from bombbuster_core.sim.ismcts import IsmctsPolicy
from bombbuster_core.sim.greedy import GreedyPolicy
from bombbuster_core.sim.random_policy import RandomPolicy
from bombbuster_core.sim.rollout import exact_move
from bombbuster_core.sim.view import View
from bombbuster_core.sim import tournament
from bombbuster_core.sim.tournament import run
from bombbuster_core.table import load_table


def true_deal(game: Game) -> list[tuple]:
    """The game's deal per segment (a base game: each stand as dealt, sorted)."""
    return [tuple(row) for rows in game.dealt for row in rows]


def mission_deal(game: Game, view: View) -> list[tuple]:
    """The game's deal per segment of the view's table (board.py): the stands' sorted parts, X and
    flipped wires, Nano's wires in the order they are taken, then the set-aside tiles."""
    segments, layout = view.table.deal()
    deal: list[list] = [[None] * seg.size for seg in segments]
    for p, rows in enumerate(layout):
        for s, row in enumerate(rows):
            for j, (sid, i) in enumerate(row):
                deal[sid][i] = game.dealt[p][s][j]
    nano = iter(game.nano_dealt)
    for sid, seg in enumerate(segments):
        if seg.kind == "nano":
            deal[sid][0] = next(nano)
    if game.set_aside:
        deal.append(sorted(game.set_aside))
    return [tuple(row) for row in deal]


def decisions(game: Game, policy):
    """Every decision of ``game`` as ``policy`` plays it (setup tokens first): the view of the player
    to decide, before their move; the generator plays the move when resumed."""
    for p in game.setup_token_players():
        game.place_token(policy.setup_token(View(game.table(p), p)))
    while not game.over:
        view = View(game.table(game.turn), game.turn)
        yield view
        game.play(policy.move(view))


def play_until(game: Game, policy, stop) -> Game:
    for p in game.setup_token_players():
        game.place_token(policy.setup_token(View(game.table(p), p)))
    while not game.over and not stop(game):
        game.play(policy.move(View(game.table(game.turn), game.turn)))
    return game


def open_decision(seed: int, first: int = 3) -> tuple[Game, View]:
    """An M8 5-player game with equipment at greedy's first turn from ``first`` on where the search runs
    (no certain move, more than one candidate)."""
    game = play_until(new_game(random.Random(seed), mission=8, players=5), GreedyPolicy(random.Random(seed)),
                      lambda g: g.turns >= first)
    while not game.over:
        view = View(game.table(game.turn), game.turn)
        policy = IsmctsPolicy(random.Random(0))
        pending = view.pending()
        ranked = policy.legal_ranking(view, pending)
        if pending["kind"] == "turn" and not any(s["certain"] for s in ranked):
            return game, view
        game.play(GreedyPolicy(random.Random(0)).move(view))
    raise AssertionError("no open decision")


def test_restore_gives_the_next_turn_to_the_next_player() -> None:
    game = play_until(new_game(random.Random(1), mission=8, players=5, equipment=False),
                      GreedyPolicy(random.Random(1)), lambda g: g.turns >= 7)
    p = game.turn
    assert p != 4
    restored = Game.restore(game.table(p), [row for rows in game.hands for row in rows], p, random.Random(0))
    move = GreedyPolicy(random.Random(1)).move(View(game.table(p), p))
    game.play(move)
    restored.play(move)
    assert restored.turn == game.turn == p + 1


def test_the_replay_on_the_true_deal_is_the_game() -> None:
    """Every player's table file (pending decision and equipment uses included) after random or greedy
    turns, cards included (the random policy uses a usable card on a quarter of its turns)."""
    cards: set[str] = set()
    for seed in range(8):
        game = new_game(random.Random(seed), mission=(1, 4, 8)[seed % 3], players=(4, 5, 3)[seed % 3])
        policy = (RandomPolicy if seed % 2 else GreedyPolicy)(random.Random(seed))
        for view in decisions(game, policy):
            p = view.player
            replay = Replay(view.raw, view.table, p, view.tags()).game(true_deal(game), random.Random(0))
            assert all(replay.table(q) == game.table(q) for q in range(game.players))
            assert (replay.hands, replay.cut, replay.tokened, replay.dial, replay.strikes, replay.detectors_used,
                    replay.turns) == (game.hands, game.cut, game.tokened, game.dial, game.strikes,
                                      game.detectors_used, game.turns)
            assert (replay.board.board, replay.board.used, replay.board.character_used, replay.card_cut,
                    sorted(replay.pool)) == (game.board.board, game.board.used, game.board.character_used,
                                             game.card_cut, sorted(game.pool))
        cards |= {e["card"] for e in game.events if isinstance(e.get("card"), str)}  # the cards used
    assert len(cards) >= 3, cards


REPLAYED = [m for m in range(1, 67) if m not in BASE_MISSIONS | set(NOT_REPLAYED) | set(REFUSED)]
# the game's fields a replay rebuilds (the events, the turn and the queue are in every player's file)
FIELDS = ("hands", "dealt", "cut", "tokened", "dial", "strikes", "detectors_used", "special", "dealt_special",
          "nano", "state", "nano_dial", "turns", "idle_turns", "round_played", "yellows_cut", "private", "seen",
          "result", "set_aside")


@pytest.mark.parametrize("mission", REPLAYED)
def test_the_replay_of_a_mission_on_the_true_deal_is_the_game(mission: int) -> None:
    """At every turn of a game of the mission (equipment dealt; random or greedy players; the player
    counts in turn), the replay from the simulator's view of the player to move, on the true deal
    and with the game's random state, has every field of the game and every player's file; and the
    next turns (choices included) played on both give the same files, so nothing the view does not
    carry (a counter, a mission's card) is missing."""
    players = sorted(mission_entry(mission).wires)
    players = players[mission % len(players)]
    checked = 0
    for seed in range(mission, mission + 5):  # a game may end at once (a red cut): the next deal then
        game = new_game(random.Random(seed), mission=mission, players=players)
        policy = (RandomPolicy if seed % 2 else GreedyPolicy)(random.Random(seed))
        for view in decisions(game, policy):
            p = view.player
            if view.pending()["kind"] == "turn":
                rng = random.Random()
                rng.setstate(game.rng.getstate())
                replay = Replay(view.raw, view.table, p, view.tags()).game(mission_deal(game, view), rng)
                where = f"M{mission} {players}p seed {seed} after event {len(view.raw['events'])}"
                for field in FIELDS:
                    assert getattr(replay, field) == getattr(game, field), f"{where}: {field}"
                assert all(replay.table(q) == game.table(q) for q in range(players)), where
                ahead = copy.deepcopy(game)
                for k in range(3):
                    if ahead.over:
                        break
                    move = RandomPolicy(random.Random(k)).move(View(ahead.table(ahead.turn), ahead.turn))
                    ahead.play(move)
                    replay.play(move)
                    assert all(replay.table(q) == ahead.table(q) for q in range(players)), f"{where}, {k + 1} on"
                    assert replay.result == ahead.result, f"{where}, {k + 1} turns on"
                checked += 1
        if checked >= 4:
            return
    raise AssertionError(f"M{mission}: only {checked} turns checked")


def test_mission_determinizations_are_the_actors_view() -> None:
    """Nano (M43), X wires (M20), flipped wires (M38, M64), count tokens (M24): on deals drawn from the
    actor's posterior, the replay shows the actor their very view, and every other player a view
    consistent with the deal; and the search runs there and plays a legal move."""
    for mission, players, turns in ((43, 4, 8), (20, 4, 6), (38, 4, 6), (64, 4, 6), (24, 4, 6)):
        # M43: on until a wire has come from Nano (the view then holds a moved wire the actor saw)
        game = play_until(new_game(random.Random(mission), mission=mission, players=players),
                          GreedyPolicy(random.Random(mission)),
                          lambda g: g.turns >= turns and (g.mission != 43 or len(g.nano) < len(g.nano_dealt)))
        while game.queue and game.queue[0]["kind"] != "turn":
            game.play(GreedyPolicy(random.Random(0)).move(View(game.table(game.turn), game.turn)))
        p = game.turn
        view = View(game.table(p), p)
        position = Replay(view.raw, view.table, p, view.tags())
        sampler = Sampler(compile_table(view.table))
        rng = random.Random(mission)
        for _ in range(3):
            replay = position.game(sampler.draw(rng), rng)
            assert replay.table(p) == view.raw, mission
            for q in range(players):
                beliefs(load_table(replay.table(q)))  # raises Inconsistent if the deal breaks a fact q sees
        assert game.is_legal(IsmctsPolicy(random.Random(mission), iterations=3, horizon=3).move(view))


def test_a_mission_the_replay_cannot_rebuild_is_played_as_greedy_with_the_reason() -> None:
    from bombbuster_core.sim.lookahead_advice import restored_view

    for mission, reason in ((18, "deck's order is hidden"), (29, "Number cards are hidden")):
        game = new_game(random.Random(1), mission=mission, players=4)
        game = play_until(game, GreedyPolicy(random.Random(1)), lambda g: bool(g.queue) and g.queue[0]["kind"] == "turn")
        view = View(game.table(game.turn), game.turn)
        searched = IsmctsPolicy(random.Random(1), iterations=3).decide(view, view.pending())
        assert searched.root is None and reason in searched.reason
        with pytest.raises(SimError, match=reason):
            Replay(view.raw, view.table, view.player, view.tags())
    # a page's table of a replayed mission: no meta.sim, so no mission state to rebuild the game from
    game = play_until(new_game(random.Random(2), mission=43, players=4), GreedyPolicy(random.Random(2)),
                      lambda g: g.turns >= 4 and bool(g.queue) and g.queue[0]["kind"] == "turn")
    raw = game.table(game.turn)
    page = {**raw, "meta": {k: v for k, v in raw["meta"].items() if k != "sim"}}
    assert replay_refusal(raw) is None
    assert "only from the simulator's own view" in replay_refusal(restored_view(page, game.turn).raw)


def test_determinizations_agree_with_the_view() -> None:
    for seed in (2, 5):
        game, view = open_decision(seed, first=6)
        p = view.player
        position = Replay(view.raw, view.table, p, view.tags())
        sampler = Sampler(compile_table(view.table))
        rng = random.Random(seed)
        others = set()
        for _ in range(4):
            replay = position.game(sampler.draw(rng), rng)
            assert replay.table(p) == view.raw  # the actor's own hand and every public event, pending included
            for q in range(game.players):
                beliefs(load_table(replay.table(q)))  # raises Inconsistent if the deal breaks a fact q sees
            others.add(json.dumps([replay.hands[q] for q in range(game.players) if q != p]))
        assert len(others) > 1  # the hidden hands do vary


def test_one_iteration_plays_greedys_move() -> None:
    searched = 0
    for seed in range(4):
        game, view = open_decision(seed)
        greedy = GreedyPolicy(random.Random(seed)).move(view)
        policy = IsmctsPolicy(random.Random(seed), iterations=1, horizon=3)
        pending = view.pending()
        ranked = policy.legal_ranking(view, pending)
        searched += len(policy.candidates(view, pending, ranked, greedy, greedy)) > 1
        assert IsmctsPolicy(random.Random(seed), iterations=1, horizon=3).move(view) == greedy
    assert searched == 4


def test_the_same_seed_gives_the_same_search() -> None:
    _, view = open_decision(7)

    def stats(seed: int) -> list[tuple]:
        policy = IsmctsPolicy(random.Random(seed), iterations=8, horizon=4)
        pending = view.pending()
        ranked = policy.legal_ranking(view, pending)
        moves = policy.candidates(view, pending, ranked, policy.move(view), policy.move(view))
        root = policy.search(view, Sampler(compile_table(view.table)), moves)
        return [(a, n.visits, n.total) for a, n in root.children.items()]

    assert stats(3) == stats(3)
    assert stats(3) != stats(4)
    assert IsmctsPolicy(random.Random(3), iterations=8, horizon=4).move(view) == \
        IsmctsPolicy(random.Random(3), iterations=8, horizon=4).move(view)


def test_no_peeking_the_same_view_over_another_deal_gives_the_same_move() -> None:
    for seed in (1, 6):
        game, view = open_decision(seed)
        p = view.player
        position = Replay(view.raw, view.table, p, view.tags())
        sampler = Sampler(compile_table(view.table))
        other = position.game(sampler.draw(random.Random(seed)), random.Random(0))
        assert other.hands != game.hands and other.table(p) == view.raw
        move = IsmctsPolicy(random.Random(seed), iterations=6, horizon=4).move(view)
        assert IsmctsPolicy(random.Random(seed), iterations=6, horizon=4).move(View(other.table(p), p)) == move
        # A teammate simulated in the search moves from their own view of the determinization only:
        # the same move over every deal of that teammate's own posterior.
        other.play(move)
        q = other.turn
        assert q != p
        q_view = View(other.table(q), q)
        q_position = Replay(q_view.raw, q_view.table, q, q_view.tags())
        q_sampler = Sampler(compile_table(q_view.table))
        expected = exact_move(other, random.Random(2))
        for i in range(3):
            elsewhere = q_position.game(q_sampler.draw(random.Random(i)), random.Random(0))
            assert elsewhere.table(q) == q_view.raw
            assert exact_move(elsewhere, random.Random(2)) == expected


def test_the_root_offers_each_usable_card_legally() -> None:
    found = 0
    for seed in range(30):
        game, view = open_decision(seed)
        pending = view.pending()
        if not pending.get("equipment"):
            continue
        policy = IsmctsPolicy(random.Random(seed))
        ranked = policy.legal_ranking(view, pending)
        greedy = GreedyPolicy(random.Random(seed)).move(view)
        moves = policy.candidates(view, pending, ranked, greedy, greedy)
        assert moves[0] == greedy and len(set(moves)) == len(moves)
        assert all(game.is_legal(a) for a in moves)
        offered = {a.card for a in moves if isinstance(a, UseCard)}
        assert offered and offered <= {u["card"] for u in pending["equipment"]}
        found += 1
        if found == 2:
            return
    raise AssertionError("no decision with a usable card")


def test_a_game_with_equipment_plays_to_the_end() -> None:
    game = new_game(random.Random(11), mission=8, players=5)
    assert game.board is not None and game.board.board
    policy = IsmctsPolicy(random.Random(11), iterations=3, horizon=3)
    for p in game.setup_token_players():
        game.place_token(policy.setup_token(View(game.table(p), p)))
    while not game.over:
        move = policy.move(View(game.table(game.turn), game.turn))
        assert game.is_legal(move)
        game.play(move)
    assert game.result in ("win", "red", "detonator")


def test_the_tournament_pairs_ismcts_with_greedy_on_the_same_deals(tmp_path) -> None:
    budget = {"iterations": 2, "horizon": 2}
    records = run(8, 4, 2, ["greedy", "ismcts"], seed=3, ismcts=budget, save=str(tmp_path))
    assert [(r["policy"], r["game"]) for r in records] == [("greedy", 0), ("greedy", 1), ("ismcts", 0), ("ismcts", 1)]
    assert records[2]["settings"]["budget"] == budget and "budget" not in records[0]["settings"]
    for i in range(2):
        deals = [json.loads((tmp_path / f"{name}-{i:05d}.deal.json").read_text())["stands"]
                 for name in ("greedy", "ismcts")]
        assert deals[0] == deals[1]
    assert json.loads((tmp_path / "greedy-00000.deal.json").read_text())["stands"] != \
        json.loads((tmp_path / "greedy-00001.deal.json").read_text())["stands"]
    # The pick rule changed (version 2), then greedy's ranking and cards (issue 34: greedy 2 then 3, ismcts 3 then 4):
    # a log of the first rule's games is refused, not mixed in.
    assert records[2]["settings"]["version"] == 4 and records[0]["settings"]["version"] == 3
    old = tmp_path / "old.log"
    old.write_text("".join(json.dumps({**r, "settings": {k: v for k, v in r["settings"].items() if k != "version"}})
                           + "\n" for r in records))
    with pytest.raises(tournament.LogError, match="with other settings"):
        run(8, 4, 2, ["greedy", "ismcts"], seed=3, ismcts=budget, log=str(old), resume=True)


def test_budget_refusals() -> None:
    for bad in ({"iterations": 0}, {"horizon": 0}, {"width": 0}, {"seconds": 0}):
        with pytest.raises(ValueError, match="ismcts"):
            IsmctsPolicy(random.Random(0), **bad)


def test_cli_budget(capsys) -> None:
    from bombbuster_core.cli import main

    common = ["tournament", "--mission", "8", "--players", "4", "--games", "1", "--policy", "ismcts", "--json"]
    assert main(common + ["--iterations", "3", "--seconds", "1"]) == 2
    assert "--iterations or --seconds, not both" in capsys.readouterr().out
    assert main(common + ["--iterations", "1", "--horizon", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["policies"][0]["games"] == 1
    assert main(["tournament", "--mission", "1", "--players", "2", "--games", "1", "--policy", "greedy"]) == 0


def test_a_seconds_budget_searches_at_least_once_and_plays_legally() -> None:
    game, view = open_decision(4)
    policy = IsmctsPolicy(random.Random(4), seconds=1e-9, horizon=2)
    pending = view.pending()
    ranked = policy.legal_ranking(view, pending)
    greedy = GreedyPolicy(random.Random(4)).move(view)
    moves = policy.candidates(view, pending, ranked, greedy, greedy)
    root = policy.search(view, Sampler(compile_table(view.table)), moves)
    assert root.visits == 1 and root.children[moves[0]].visits == 1
    assert game.is_legal(IsmctsPolicy(random.Random(4), seconds=0.05, horizon=2).move(view))


def test_a_search_that_keeps_greedys_move_plays_greedys_game() -> None:
    """Common random numbers (tournament.py): a search policy's greedy choices come from greedy's own
    stream and its search from another, so with a bar no gain clears (z infinite) ismcts and lookahead
    play greedy's very games, cards included — their pairs differ only where a decision did."""
    def played(records: list[dict]) -> list[tuple]:
        return [(r["game"], r["result"], r["failed_cuts"], r["turns"], r["decisions"]) for r in records]

    greedy = run(8, 4, 3, ["greedy"], seed=11)
    ismcts = run(8, 4, 3, ["ismcts"], seed=11, ismcts={"iterations": 3, "horizon": 2, "z": math.inf})
    lookahead = run(8, 4, 3, ["lookahead"], seed=11, lookahead={"deals": 2, "depth": 2, "width": 2, "z": math.inf})
    assert played(ismcts) == played(greedy) == played(lookahead)


def bench_script(name: str):
    """A bench/ script as a module (they are scripts, not a package)."""
    import importlib.util
    import pathlib

    spec = importlib.util.spec_from_file_location(name, pathlib.Path(__file__).resolve().parent.parent / "bench" /
                                                  f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_search_gain_prints_the_paired_comparison_from_a_log(tmp_path, capsys) -> None:
    search_gain = bench_script("search_gain")
    log = tmp_path / "g.log"
    records = run(8, 4, 3, ["greedy", "ismcts"], seed=11, ismcts={"iterations": 3, "horizon": 2, "z": math.inf},
                  log=str(log))
    assert search_gain.main([str(log), "ismcts"]) == 0
    out = capsys.readouterr().out
    wins = sum(r["result"] == "win" for r in records if r["policy"] == "greedy")
    assert "3 paired games" in out and re.search(rf"^  greedy +{wins}/3 ", out, re.M)
    assert "greedy's very game: 3 of 3" in out and "won by ismcts only: 0; by greedy only: 0" in out
    assert "ismcts - greedy +0.000" in out
    assert search_gain.main([str(log), "lookahead"]) == 2  # no lookahead game in it
    fewer = tmp_path / "two.log"  # another budget's search on the first two of the same deals
    run(8, 4, 2, ["ismcts"], seed=11, ismcts={"iterations": 2, "horizon": 2}, log=str(fewer))
    capsys.readouterr()
    assert search_gain.main([str(log), "ismcts", "--deals-of", str(fewer)]) == 0
    assert "2 paired games" in capsys.readouterr().out


def test_search_departures_replays_the_logged_games_and_refuses_one_that_differs(tmp_path, capsys) -> None:
    departures = bench_script("search_departures")
    log = tmp_path / "g.log"
    records = run(8, 4, 2, ["greedy", "ismcts"], seed=11, ismcts={"iterations": 4, "horizon": 2}, log=str(log))
    assert departures.main([str(log), "--games", "0,1"]) == 0
    out = capsys.readouterr().out
    for r in records:
        if r["policy"] == "ismcts":
            assert f"game {r['game']}: " in out and f"ismcts {r['result']} (" in out
    # a record the replay does not give back (here: one turn more) stops the script
    lines = log.read_text().splitlines()
    tampered = [json.loads(x) for x in lines]
    for r in tampered:
        if r.get("policy") == "ismcts" and r.get("game") == 1:
            r["turns"] += 1
    log.write_text("\n".join(json.dumps(r) for r in tampered) + "\n")
    assert departures.main([str(log), "--games", "1"]) == 2
    assert "did not replay as logged" in capsys.readouterr().err


def test_an_endgame_budget_searches_only_once_few_wires_are_uncut(tmp_path) -> None:
    game, view = open_decision(4)
    uncut = len(view.my_uncut()) + len(view.teammates_uncut())
    waiting = IsmctsPolicy(random.Random(4), iterations=3, horizon=2, endgame=uncut - 1).decide(view, view.pending())
    assert waiting.root is None and waiting.reason.startswith(f"more than {uncut - 1} wires uncut")
    assert waiting.action == GreedyPolicy(random.Random(4)).move(view)
    searching = IsmctsPolicy(random.Random(4), iterations=3, horizon=2, endgame=uncut).decide(view, view.pending())
    assert searching.root is not None and searching.root.visits == 3
    with pytest.raises(ValueError, match="endgame"):
        IsmctsPolicy(random.Random(4), endgame=0)
    # the option is in the log's settings: a run with it never resumes one without
    log = str(tmp_path / "e.log")
    records = run(8, 4, 1, ["ismcts"], seed=3, ismcts={"iterations": 2, "horizon": 2, "endgame": 10}, log=log)
    assert records[0]["settings"]["budget"] == {"iterations": 2, "horizon": 2, "endgame": 10}
    with pytest.raises(tournament.LogError):
        run(8, 4, 1, ["ismcts"], seed=3, ismcts={"iterations": 2, "horizon": 2}, log=log, resume=True)
