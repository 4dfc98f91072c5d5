"""The table files of a game (:class:`TableFiles`, a part of :class:`~.game.Game`): written and read.

:meth:`TableFiles.table` writes the table file of the game so far from any player's view (or the
public one; ``meta.sim`` adds what the format does not record), :meth:`TableFiles.deal_json` the
hidden deal; :meth:`TableFiles.restore` reads a table file back into a base game on one deal, and
:meth:`TableFiles.take_board` the equipment board its events leave.
"""
from __future__ import annotations

from .. import equipment as eq
from ..missions import BASE_MISSIONS, equipment_pool, mission as mission_entry
from ..wires import RED, key_json

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random
    from typing import Any

    from ..wires import Key
    from .game import Game

# Mission cards nobody has seen (a deck's order and which cards it holds: M18, M29, M32, M37, M39, M45,
# M51; M61's cards left on the table): kept out of every table file, which shows how many there are.
HIDDEN_STATE = {"deck": "deck_size", "table_cards": "table_cards_count"}


class TableFiles:
    """The table files of :class:`~.game.Game`."""

    def table(self, player: int | None = None) -> dict[str, Any]:
        """The table file of the game so far, from ``player``'s view (None: the public view).

        ``meta.sim`` carries what the table shows that the format does not record
        (the mission's cards, the dial), in a player's view the round's counters
        (``turns``, ``idle``, ``round_played``: what :class:`~.replay.Replay` needs to
        replay the mission's round rules) and, in the view of the player who decides next,
        the pending decision: what is allowed now.
        """
        out = dict(self.setup)
        meta = dict(out.get("meta", {}))
        sim: dict[str, Any] = {"mission": self.mission, "dial": None if self.rules.nano_is_the_dial else self.dial,
                               "strikes": self.strikes, "state": self._public_state()}
        if self.rules.nano_is_the_dial:
            sim["nano_space"] = self.nano_dial
        if self.notes:
            sim["notes"] = self.notes
        if player is not None:
            # the turns so far and the round's, public but not in the events (a skipped turn may leave
            # none): what a player's replay of the game needs (replay.Replay) to know when the mission's round
            # rules fire; the public file records the game
            sim.update(turns=self.turns, idle=self.idle_turns, round_played=self.round_played)
            if self.private[player]:
                sim["private"] = self.private[player]
            pending = self._pending_for(player)
            if pending is not None:
                sim["pending"] = pending
        meta["sim"] = sim
        out["meta"] = meta
        if player is not None:
            stands = [[None if self.dealt_special.get((player, s, j)) == "flip" else key_json(k)
                       for j, k in enumerate(row)] for s, row in enumerate(self.dealt[player])]
            me: dict[str, Any] = {"player": player, "stands": stands}
            if self.seen[player]:
                me["seen"] = list(self.seen[player])
            out["me"] = me
        out["events"] = list(self.events)
        return out

    def _public_state(self) -> dict[str, Any]:
        """The mission's state as the table shows it: :data:`HIDDEN_STATE`'s cards by their number."""
        st = self.state
        if not HIDDEN_STATE.keys() & st.keys():
            return st
        out = {k: v for k, v in st.items() if k not in HIDDEN_STATE}
        out.update({shown: len(st[k]) for k, shown in HIDDEN_STATE.items() if k in st})
        return out

    def deal_json(self) -> dict[str, Any]:
        """The hidden deal: ``stands`` the keys as dealt (deal-time positions, stands in table order),
        ``final`` the keys at the stands' positions now (after Nano's transfers), ``nano`` Nano's wires
        as dealt (taken in this order), ``set_aside`` the k-of-m pools' tiles left out."""
        out = {"stands": [[key_json(k) for k in row] for rows in self.dealt for row in rows],
               "final": [[key_json(k) for k in row] for rows in self.hands for row in rows],
               "set_aside": [key_json(k) for k in sorted(self.set_aside)]}
        if self.nano_dealt:
            out["nano"] = [key_json(k) for k in self.nano_dealt]
        return out

    def _pending_for(self, player: int) -> dict[str, Any] | None:
        """The decision ``player`` must take now, as JSON, with its options (None: not theirs)."""
        if self._setup and not self._begun:
            d = self._setup[0]
            if d["player"] != player:
                return None
            return {**d, "options": [list(o) if isinstance(o, tuple) else o for o in self.setup_options(d)]}
        if not self.over:
            self._ensure()
        if not self.queue or self.queue[0]["player"] != player:
            return None
        d = self.queue[0]
        if d["kind"] == "choose":
            return {**d, "options": [list(o) if isinstance(o, tuple) else o for o in self.choice_options(d)]}
        uses = self.card_uses(player, d) if self.board is not None else []
        return {**d, "equipment": uses} if uses else d

    @classmethod
    def restore(cls, table: dict[str, Any], stands: list[list[Key]], turn: int, rng: random.Random,
                tags: frozenset[str] = frozenset(), board: eq.BoardState | None = None) -> Game:
        """A base-game game at the state of a table file's events, played on the deal ``stands`` (players/stands
        order, keys in tenths): what a player who imagines that deal would simulate.  A finished
        table gives a finished game (``result`` as the game that made it).  The dial and the failed
        cuts as the events leave them (a failure under the Stabilizer counts but holds the dial; the
        Rewinder moves it back).  ``board``: the table's equipment as its events leave it
        (:meth:`take_board`; None: the game plays no card)."""
        it = iter(stands)
        setup = {k: v for k, v in table.items() if k not in ("me", "events")}
        mission = table.get("meta", {}).get("mission")
        game = cls(setup, [[list(next(it)) for _ in pl["stands"]] for pl in table["players"]], [], rng, tags,
                   mission=mission if mission in BASE_MISSIONS else None)
        game.detectors_used = detectors_used(table["events"])
        for e in table["events"]:
            kind, actor = e["type"], e.get("actor")
            if kind in ("dual_cut", "detector"):
                if e["success"]:
                    target = e["target"] if kind == "dual_cut" else e["cut"]
                    game.cut.update(((target["player"], target["stand"], target["slot"]),
                                     (actor, e["actor_slot"]["stand"], e["actor_slot"]["slot"])))
                elif e.get("exploded"):  # a red cut: the game ended on it, the dial did not move
                    game.result = "red"
                elif e.get("stabilizer"):  # the Stabilizer: a failed cut that leaves the dial where it is
                    game.strikes += 1
                else:
                    game.charge_failed_cut(actor)
            elif kind == "equipment" and "6" in event_cards(e):  # the Rewinder
                game.rewind_dial(card=True)
            elif kind in ("solo_cut", "reveal_red", "fast_pass"):
                game.cut.update((actor, x["stand"], x["slot"]) for x in e["slots"])
            elif kind == "disintegrator":
                game.cut.update((x["player"], x["stand"], x["slot"]) for x in e["slots"])
        if board is not None:
            game.take_board(board)
        game.win_if_all_cut()
        game.resume(table, turn)
        if not game.over:
            game.queue = [game.turn_decision(turn)]
        return game

    def resume(self, table: dict[str, Any], turn: int) -> None:
        """Take the game up after a table file's events (:meth:`restore`, :class:`~.replay.Replay`): the
        events are the game's, the setup is over, ``turn`` decides now and the next turn is the next
        player's after ``turn``, not the Captain's; the round's counters as ``meta.sim`` gives them."""
        self.events, self.turn, self._begun, self._setup = list(table["events"]), turn, True, []
        self._last = turn
        self._round_counters(table)

    def _round_counters(self, table: dict[str, Any]) -> None:
        """The turns played, the turns skipped in a row and whether anyone played this round, from
        ``meta.sim`` (a player's view in the simulator; a page's table does not record them: its turn
        events are its turns -- the base game skips none -- and nobody played this round)."""
        sim = table.get("meta", {}).get("sim") or {}
        self.turns = sim.get("turns", sum(e["type"] != "info_token" for e in table["events"]))
        self.idle_turns, self.round_played = sim.get("idle", 0), sim.get("round_played", False)

    def take_board(self, b: eq.BoardState) -> None:
        """The equipment board as a table file's events leave it (Table.equipment_board): the cards
        used, the characters spent, the cuts that unlock (M12: with the Number cards covering them), and
        the mission's cards not on the board
        (what False Bottom draws from).  Restored games play their cards from it."""
        # the game counts no revealed red (no card unlocks by red)
        self.card_cut = {v: n for v, n in b.cut.items() if v != RED}
        self.characters = list(b.characters)
        self.board = eq.BoardState(tuple(b.board), b.characters, self.card_cut, covers=b.covers)
        self.board.used, self.board.character_used = set(b.used), list(b.character_used)
        self.detectors_used = {p for p, (ch, used) in enumerate(zip(b.characters, b.character_used))
                               if used and ch == eq.DEFAULT_CHARACTER}
        pool = equipment_pool(mission_entry(self.mission), self.players)["pool"] if self.mission else []
        self.pool = [c for c in pool if c not in b.board]


def event_cards(e: dict[str, Any]) -> set[str]:
    """The cards an event names in its ``card`` field (one, or a list), by printed ID: an ``equipment``
    event may name its card by its pre-ID name (equipment.card_id), which the table accepts."""
    card = e.get("card")
    named = card if isinstance(card, list) else [card] if isinstance(card, str) else []
    return {eq.NAMED.get(c, c) for c in named}


def spends_character(e: dict[str, Any]) -> bool:
    """Whether a detector event spent its actor's Double Detector character: a double detector whose
    ``card`` names the character, or names nothing (a table that does not list the equipment plays
    the character).  The Triple and Super Detectors and the X or Y Ray are cards: they leave it."""
    return e.get("kind") == "double" and ("card" not in e or eq.CHARACTER in event_cards(e))


def detectors_used(events: list[dict[str, Any]]) -> set[int]:
    """The players whose Double Detector character the events leave spent (Emergency Batteries, card 7,
    restores the characters it names)."""
    used: set[int] = set()
    for e in events:
        if e["type"] == "detector" and spends_character(e):
            used.add(e["actor"])
        elif e["type"] == "equipment" and "7" in event_cards(e):
            used -= set(e.get("characters", ()))
    return used


# Missions with rules of their own whose game a player's view cannot rebuild: their game holds cards the
# players have not seen (a deck's order, which cards a deck holds, other players' hands; no table file
# shows them: HIDDEN_STATE, private), which a determinization would have to draw from a law the
