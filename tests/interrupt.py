"""Ctrl-C in the tests: start a CLI as a terminal would, with SIGINT at its default.

A shell starts its background jobs with SIGINT ignored (no job control), and
a child inherits that; Python started with SIGINT ignored never raises
KeyboardInterrupt, so a suite launched in the background would see every
Ctrl-C test time out.  The tests send the SIGINT a terminal's Ctrl-C sends,
to a CLI started as from a terminal.
"""
from __future__ import annotations

import signal


def sigint_default() -> None:
    """``preexec_fn`` for the CLI under test: SIGINT back to its default, so Python installs its handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
