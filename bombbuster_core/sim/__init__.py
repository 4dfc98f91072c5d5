"""Self-play: a rules-accurate game engine, policies that see only their player's view, and a win-rate tournament.

* the game: :mod:`.game` (its state and turn loop), :mod:`.actions`, :mod:`.deal`, :mod:`.setup`,
  :mod:`.cards` (the equipment), :mod:`.mission_rules` with :mod:`.card_missions` and
  :mod:`.wire_missions` (each mission's own rules), :mod:`.table_files`, :mod:`.replay` (a player's
  view played on any deal), :mod:`.verify` (every view checked by the core);
* the policies: :mod:`.view` (what a policy sees), :mod:`.base_policy`, :mod:`.random_policy`,
  :mod:`.greedy`, :mod:`.rollout`, :mod:`.lookahead`, :mod:`.ismcts` (a tree search over the
  player's information set) and :mod:`.sighted` (FOR MEASUREMENT ONLY: greedy that sees the true
  deal); :data:`POLICIES` names them;
* the page's modes: :mod:`.lookahead_advice`, :mod:`.search_advice`;
* :mod:`.tournament` — the same deals played by several policies, win rates with confidence intervals.
"""
from __future__ import annotations

from .greedy import EntropyExactPolicy, EntropySeedPolicy, GreedyPolicy, KeepDetectorPolicy
from .ismcts import IsmctsPolicy
from .lookahead import LookaheadPolicy
from .random_policy import RandomPolicy
from .sighted import SightedPolicy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .base_policy import BasePolicy

# The tournament's policies by name (tournament.py, the CLI's --policies).
POLICIES: dict[str, type[BasePolicy]] = {cls.name: cls for cls in (
    RandomPolicy, GreedyPolicy, KeepDetectorPolicy, EntropySeedPolicy, EntropyExactPolicy, IsmctsPolicy,
    LookaheadPolicy, SightedPolicy)}
