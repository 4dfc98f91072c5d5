"""The core's modules talk through public names: no ``obj._private`` attribute but one's own.

The missions' rules (sim/card_missions.py, wire_missions.py, mission_rules.py), the deal, the replay
and the table files act on a :class:`~bombbuster_core.sim.game.Game` through its public methods
(issue 33 item 2: no ``_private`` reach across modules, at the attribute level as
tests/test_module_structure.py checks it at the import level).  Only ``self`` and ``cls`` may name a
``_``-attribute.  The same holds for every module of the core (the columns engine's plan, for one,
was read through ``plan._local`` by support.py); ``os._exit`` is the standard library's public name.
"""
from __future__ import annotations

import ast
import os

import pytest

CORE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bombbuster_core")
MODULES = sorted(os.path.relpath(os.path.join(folder, name), CORE) for folder, _, names in os.walk(CORE)
                 for name in names if name.endswith(".py"))
PUBLIC_ANYWAY = {"os._exit"}  # a public function of the standard library despite its underscore


def private_reaches(source: str) -> list[str]:
    """Every ``x._name`` (not a dunder) whose ``x`` is not ``self`` or ``cls``, as ``line: expression``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
            if ast.unparse(node) not in PUBLIC_ANYWAY:
                out.append(f"{node.lineno}: {ast.unparse(node)}")
    return sorted(out)


def test_the_check_sees_a_reach_into_a_private_attribute() -> None:
    source = "def skip(game):\n    game._advance_dial(1)\n    self._own = game.public\n    cls._also = 1\n    os._exit(0)\n"
    assert private_reaches(source) == ["2: game._advance_dial"]


@pytest.mark.parametrize("module", MODULES)
def test_no_module_of_the_core_reaches_into_another_objects_private_attributes(module: str) -> None:
    with open(os.path.join(CORE, module), encoding="utf-8") as f:
        assert private_reaches(f.read()) == []
