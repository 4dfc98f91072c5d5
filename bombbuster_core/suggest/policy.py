"""What a suggestion request may ask: the modes, the equipment searched, the ranking policy,
and the refusal of options that make no sense (:class:`SuggestError`, before any analysis)."""
from __future__ import annotations

from dataclasses import dataclass

from ..analysis import EngineChoiceError
from ..engines import ENGINES
from ..public_state import public_state
from ..table import Table

MODES = ("exact", "entropy")
PROBABILITIES = ("seed", "exact")
EQUIPMENT = ("xy_ray", "double_detector", "super_detector", "triple_detector")  # cheapest search first


class SuggestError(ValueError):
    """Bad options: unknown mode, no player to move, player out of range."""


@dataclass(frozen=True)
class Policy:
    """How suggestions are ranked and which equipment is considered.

    ``red_cap``: calls whose P(red) exceeds it rank after every call within it.
    ``seed``: seeds the tie-break among equal calls (never a fixed slot order).
    ``per_kind``: how many suggestions of each equipment kind to list.
    ``equipment``: kinds searched.  By default the Double Detector (every
    character has one) and the X-or-Y ray (free: one slot's marginals); the
    Triple and Super Detectors are equipment cards, often not in play, and
    cost one conditioned analysis per candidate stand, so they are opt-in.
    ``equipment_budget``: most engine runs spent searching each kind (joint
    events need one conditioned analysis each); a search cut short is named in
    the result's ``incomplete`` list.  None = no limit.
    ``failure_token``: False for missions where a failed cut places no token
    (M58, constraint H): the failure then reveals only "not v".
    ``stakes``: the exact ranking weighs a failure by what it costs at the
    table's dial (public_state.py: at its last space a failure loses, so P(success)
    alone ranks) and lists the futile moves last (ranking.py); False: the red
    cap alone, as before (a baseline to measure the change against:
    bench/stakes_gain.py).
    """

    red_cap: float = 0.05
    seed: int = 0
    equipment: tuple[str, ...] = ("xy_ray", "double_detector")
    per_kind: int = 1
    equipment_budget: int | None = 8
    failure_token: bool = True
    stakes: bool = True


def checked_player(table: Table, player: int | None, mode: str, probabilities: str, top: int | None,
                   engine: str, policy: Policy) -> int:
    """The player to move, once every option is known to make sense (else EngineChoiceError / SuggestError)."""
    if engine not in ENGINES:
        raise EngineChoiceError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
    if mode not in MODES:
        raise SuggestError(f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
    if probabilities not in PROBABILITIES:
        raise SuggestError(f"unknown probabilities {probabilities!r} (choose from {', '.join(PROBABILITIES)})")
    unknown = sorted(set(policy.equipment) - set(EQUIPMENT))
    if unknown:
        raise SuggestError(f"unknown equipment {unknown[0]!r} (choose from {', '.join(EQUIPMENT)})")
    if top is not None and top < 0:
        raise SuggestError("top must be >= 0")
    # NaN compares false both ways, so "not 0 <= cap <= 1" also refuses it (and inf).
    if isinstance(policy.red_cap, bool) or not 0 <= policy.red_cap <= 1:
        raise SuggestError(f"red_cap must be a probability between 0 and 1, not {policy.red_cap!r}")
    if policy.per_kind < 0:
        raise SuggestError(f"per_kind must be >= 0, not {policy.per_kind}")
    if policy.equipment_budget is not None and policy.equipment_budget < 0:
        raise SuggestError(f"budget must be >= 0 or none, not {policy.equipment_budget}")
    if player is None:
        if table.me is None:
            raise SuggestError("no player to move: the table has no 'me'; name the player")
        player = table.me
    if not 0 <= player < len(table.players):
        raise SuggestError(f"player {player} is out of range (0..{len(table.players) - 1})")
    state = public_state(table)
    if state.closed:  # nothing may follow a loss (as the table parser reads it)
        raise SuggestError(f"{state.result.headline}: the game is over, there is no next move")
    return player
