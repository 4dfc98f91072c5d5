"""Self-play: an exact deal sampler, a rules-accurate game engine, policies and a win-rate tournament.

* :mod:`.sample` — deals drawn exactly from a table's posterior.
* :mod:`.game` — deals a mission (or a wire set) and plays its turns; every
  public event is a format-1 event, so each player's view is a table file.
* :mod:`.policies` — decision makers that see only their player's view.
* :mod:`.ismcts` — the ``ismcts`` policy: a tree search over the player's
  information set on exactly sampled deals.
* :mod:`.sighted` — the ``sighted`` policy, FOR MEASUREMENT ONLY: greedy
  that sees the true deal (the ceiling of what information is worth).
* :mod:`.tournament` — the same deals played by several policies, win rates
  with confidence intervals.
"""
