"""The replay of a player's view on any deal (:class:`Replay`): what the search policies play out.

A table file's game state is rebuilt but its hidden deal, once from the public table, then played
on any deal drawn from the view's posterior (the lookahead's rollouts, ismcts's determinizations).
"""
from __future__ import annotations

import copy

from ..missions import BASE_MISSIONS
from ..wires import YELLOW, key_json, value_of
from .actions import SimError
from .game import Game
from .refusals import Refusal
from .table_files import detectors_used

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random
    from collections.abc import Sequence
    from typing import Any

    from ..table import Table
    from ..wires import Key
    from .actions import Slot

# Missions with rules of their own whose game a player's view cannot rebuild: their game holds cards the
# players have not seen (a deck's order, which cards a deck holds, other players' hands; no table file
# shows them: HIDDEN_STATE, private), which a determinization would have to draw from a law the
# simulator does not have.  Every other mission is
# replayed from the simulator's own view (Replay; tests/test_ismcts.py checks it against the game).
NOT_REPLAYED = {
    18: "its Number deck's order is hidden", 45: "its Number deck's order is hidden",
    51: "its Number deck's order is hidden", 32: "its constraint deck's order is hidden",
    37: "its constraint deck's order is hidden", 39: "which Number cards its deck holds is hidden",
    29: "the players' Number cards are hidden in their hands",
    34: "the weakest link's constraint card is hidden",
    61: "the constraint cards left on the table are hidden",
}


def replay_refusal(raw: dict[str, Any]) -> Refusal | None:
    """Why :class:`Replay` cannot replay this table file (None: it can), with its code for the page."""
    meta = raw.get("meta", {})
    mission = meta.get("mission")
    if mission in BASE_MISSIONS:
        return None
    if mission in NOT_REPLAYED:
        return Refusal(f"mission {mission}: {NOT_REPLAYED[mission]}, so the replay cannot rebuild its game",
                       "mission_cards_hidden", mission=mission)
    if not isinstance(meta.get("sim"), dict) or not isinstance(meta["sim"].get("state"), dict):
        return Refusal(f"mission {mission} has rules of its own: the replay rebuilds its game only from the "
                       "simulator's own view (meta.sim)", "mission_own_rules", mission=mission)
    return None


class Replay:
    """A table file's game state but its hidden deal: what :meth:`Game.restore` rebuilds, plus what
    the equipment and moved wires add, computed once from the public table and played on any deal.

    :meth:`game` is the game at the table's state on one deal of the table's segments (board.py;
    engines/sampling.py's ``Deal``: per segment its sorted keys): the stands as dealt and as they
    are now (Grappling Hook / Walkie-Talkies moves replayed), the cut wires, the tokened wires, what
    each player saw of a moved wire (their ``seen``, read from that deal), the dial and failed cuts
    as meta.sim shows them (the simulator's own view) or else as :meth:`Game.restore` replays them
    from the events (the Rewinder and the Stabilizer included), and
    the equipment board as the table's events leave it (cards used, characters spent, cuts that
    unlock, the mission's cards not on the board for False Bottom).  From the player's own view, the
    game's table file is the view itself (tests/test_ismcts.py).

    A mission with rules of its own is rebuilt from the simulator's own view only (:func:`replay_refusal`
    says which cannot be): its special wires and Nano's as the deal places them, and what the
    events do not say from ``meta.sim`` -- the mission's public state, the dial, the round's counters.
    """

    def __init__(self, raw: dict[str, Any], table: Table, turn: int, tags: frozenset[str] = frozenset()):
        refusal = replay_refusal(raw)
        if refusal is not None:
            raise SimError(refusal)
        self.raw, self.turn, self.tags = raw, turn, tags
        self.mission = raw.get("meta", {}).get("mission")
        self.segments, self.start = table.deal()  # wire identities at the deal
        now = table.board()
        self.now = now.stands
        self.cut = {(p, s, j) for p, rows in enumerate(now.stands) for s, row in enumerate(rows)
                    for j, w in enumerate(row) if w in now.cut}
        self.tokened: set[Slot] = set()
        self.seen: list[tuple[int, dict[str, Any], Any, int]] = []  # (player, at, wire, event index)
        for i, e in enumerate(raw["events"]):
            at = None
            if e["type"] == "info_token":
                at = e["at"]
            elif e["type"] == "dual_cut" and not e["success"] and e.get("token") is not None:
                at = e["target"]
            elif e["type"] == "detector" and not e["success"] and e.get("token") is not None:
                at = e["token_at"]
            elif e["type"] == "tripwire" and not e["success"] and e.get("token") is not None:
                at = e["target"]
            if at is not None:
                self.tokened.add(now.address(table.board(i).wire(at["player"], at["stand"], at["slot"])))
            if e["type"] == "move":
                self.seen.append((e["to"]["player"], e["to"], self._wire(table, i, e["to"]), i))
            elif e["type"] == "swap":
                a, b = e["a"], e["b"]
                for ref in ({**a, "slot": e["b_to"]}, {**b, "slot": e["a_to"]}):
                    self.seen.append((ref["player"], ref, self._wire(table, i, ref), i))
        # meta.sim's detonator (the simulator's own view); a page's table has none: the replay's is its events'
        sim = raw.get("meta", {}).get("sim")
        self.detonator: tuple[int, int] | None = None if sim is None else (sim["dial"], sim["strikes"])
        self.board = table.equipment_board()

    @staticmethod
    def _wire(table: Table, i: int, ref: dict[str, int]) -> Any:
        """The wire at ``ref`` just after event ``i``."""
        return table.board(i + 1).wire(ref["player"], ref["stand"], ref["slot"])

    def game(self, deal: Sequence[Sequence[Key]], rng: random.Random) -> Game:
        """The game at the table's state, played on ``deal`` (per segment its sorted keys)."""
        def keys(layout: list[list[list[Any]]]) -> list[list[list[Key]]]:
            return [[[deal[seg][i] for seg, i in row] for row in rows] for rows in layout]

        now, dealt = keys(self.now), keys(self.start)
        if self.mission in BASE_MISSIONS:
            game = Game.restore(self.raw, [row for rows in now for row in rows], self.turn, rng, self.tags,
                                self.board)
        else:
            game = self._mission_game(deal, dealt, now, rng)
        game.dealt = dealt
        game.cut, game.tokened = set(self.cut), set(self.tokened)
        if self.detonator is not None:
            dial, game.strikes = self.detonator
            game.dial, game.result = game.dial if dial is None else dial, None  # M53: no dial (Nano is)
        for p, at, (seg, i), after in self.seen:
            game.seen[p].append({"at": at, "value": key_json(deal[seg][i]), "after": after})
        game.win_if_all_cut()
        restrict = ((self.raw["meta"]["sim"].get("pending") or {}).get("restrict")
                    if self.detonator is not None else None)
        game.queue = [] if game.over else [game.turn_decision(self.turn, restrict)]
        return game

    def _mission_game(self, deal: Sequence[Sequence[Key]], dealt: list[list[list[Key]]], now: list[list[list[Key]]],
                      rng: random.Random) -> Game:
        """A mission with rules of its own at the view's state (the class docstring); the caller sets what
        the base game's replay shares (cuts, tokens, what was seen, the dial)."""
        segments, raw = self.segments, self.raw
        sim = raw["meta"]["sim"]

        def special(layout: list[list[list[Any]]]) -> dict[Slot, str]:
            return {(p, s, j): "x" if segments[sid].kind == "x" else "flip"
                    for p, rows in enumerate(layout) for s, row in enumerate(rows)
                    for j, (sid, _) in enumerate(row) if segments[sid].special}

        nano = [deal[sid][0] for sid, seg in enumerate(segments) if seg.kind == "nano"]
        taken = sum(1 for e in raw["events"] if e["type"] == "move" and e["from"] == "nano")
        aside = sorted(k for sid in range(len(segments), len(deal)) for k in deal[sid])
        setup = {k: v for k, v in raw.items() if k not in ("me", "events")}
        # the constructor shows every teammate the flipped wires as dealt, as the game does at the deal
        game = Game(setup, dealt, aside, rng, self.tags, mission=self.mission, special=special(self.start), nano=nano)
        game.hands, game.special, game.nano = now, special(self.now), nano[taken:]
        game.state = copy.deepcopy(sim["state"])
        if game.rules.nano_is_the_dial:
            game.nano_dial = sim.get("nano_space", 0)
        game.private[self.turn] = copy.deepcopy(sim.get("private", {}))
        game.detectors_used = detectors_used(raw["events"])
        game.yellows_cut = sum(1 for x in self.cut if value_of(game.key(x)) == YELLOW)
        if self.board is not None:
            game.take_board(self.board)
        game.resume(raw, self.turn)
        return game


# ---------------------------------------------------------------- dealing
