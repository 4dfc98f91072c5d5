"""bombbuster_core: exact deduction for the board game Bomb Busters.

Data flow: table file (:mod:`.table`) -> facts (:mod:`.facts`) -> engine
(:mod:`.engines`) -> beliefs (:mod:`.beliefs`) -> JSON (:mod:`.analysis`,
:mod:`.bridge`).  Pure standard library; runs in CPython >= 3.11 and Pyodide.
"""
from __future__ import annotations

from .analysis import analyze, beliefs, first_impossible_event
from .beliefs import Beliefs, Inconsistent
from .table import Table, TableError, load_table

__version__ = "0.1.0"

__all__ = ["analyze", "beliefs", "first_impossible_event", "Beliefs", "Inconsistent", "Table", "TableError",
           "load_table", "__version__"]
