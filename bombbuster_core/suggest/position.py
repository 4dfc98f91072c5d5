"""The position the deciders share: one player to move at one table.

A :class:`Position` holds what every decider (cuts, X-or-Y ray, detectors,
entropy) reads: the table's geometry (slots, stands, which are uncut and
whose), the analyses of its problem, the keys that explode, the dial (the
failures the team survives: what a failure costs, for the ranking), the
seeded tie-break generator (one stream for the whole list, so a seed
reproduces it) and the notes of searches left incomplete.
"""
from __future__ import annotations

import random

from ..beliefs import Beliefs
from ..public_state import dial
from ..facts import Pos, compile_table
from ..table import SlotRef, Table
from ..wires import RED, Value
from .analyses import Analyses, possible
from .notes import Notes
from .policy import Policy


class Position:
    """Player ``player`` to move at ``table``, analysed with ``engine`` (in ``analyses``, when the
    caller keeps them), ranked by ``policy``."""

    def __init__(self, table: Table, player: int, engine: str, policy: Policy, analyses: Analyses | None = None):
        self.table, self.player, self.engine, self.policy = table, player, engine, policy
        self.deck = table.deck
        self.board = table.board()
        self.analyses = Analyses(compile_table(table), engine) if analyses is None else analyses
        self.rng = random.Random(policy.seed)
        # M11's Number wires count as red: calling them explodes like a red.
        self.red_keys = self.deck.keys_of_value(RED) | (
            self.deck.keys_of_value(table.red_value) if table.red_value is not None else frozenset())
        self.all_keys = frozenset(self.deck.copies)
        # None where the dial is not followed (public_state.py) or the policy does not weigh it
        now = dial(table) if policy.stakes else None
        self.failures_left = None if now is None else now.failures_left
        self.incomplete = Notes()  # searches cut short or not made, for the result
        self._runs: dict[tuple[int, int], tuple[int, int] | None] = {}

    def pos(self, ref: SlotRef) -> Pos:
        return self.board.wire(ref.player, ref.stand, ref.slot)

    def uncut(self, player: int) -> list[SlotRef]:
        return [ref for s in range(len(self.table.players[player].stands)) for ref in self.uncut_on(player, s)]

    def uncut_on(self, q: int, s: int) -> list[SlotRef]:
        return [SlotRef(q, s, j) for j, w in enumerate(self.board.stands[q][s]) if w not in self.board.cut]

    def visible(self, player: int) -> list[SlotRef]:
        """The player's uncut slots they can see (not their own flipped wires): what "holds v" counts."""
        return [ref for ref in self.uncut(player) if not self.board.owner_flipped(self.pos(ref), player)]

    def teammate_stands(self) -> list[tuple[int, int]]:
        return [(q, s) for q, pl in enumerate(self.table.players) if q != self.player for s in range(len(pl.stands))]

    def player_positions(self) -> tuple[Pos, ...]:
        return tuple(self.pos(s) for q in range(len(self.table.players)) for s in self.uncut(q))

    def held_values(self, root: Beliefs) -> list[Value]:
        """Values the player holds with probability > 0 (certainly, when the player is the observer)."""
        mine = [self.pos(s) for s in self.visible(self.player)]
        held = []
        for v in self.deck.values():
            if v != RED and v != self.table.red_value:
                keys = self.deck.keys_of_value(v)
                if any(possible(root, pos, keys) for pos in mine):
                    held.append(v)
        return held

    def sorted_run(self, q: int, s: int) -> tuple[int, int] | None:
        """(segment, offset) when the stand is its dealt sorted part in order, X/flipped wires aside
        (slot offset + j holds segment position j); None once wires have moved in or out."""
        if (q, s) not in self._runs:
            self._runs[(q, s)] = self._sorted_run(q, s)
        return self._runs[(q, s)]

    def _sorted_run(self, q: int, s: int) -> tuple[int, int] | None:
        row = self.board.stands[q][s]
        inner = [w for w in row if not self.board.special(w)]
        if not inner:
            return None
        sid = inner[0][0]
        if inner != [(sid, j) for j in range(self.board.segments[sid].size)]:
            return None
        return sid, row.index(inner[0])

    def run_of(self, q: int, s: int) -> int:
        """The segment of a stand known to be its sorted run."""
        run = self.sorted_run(q, s)
        assert run is not None
        return run[0]
