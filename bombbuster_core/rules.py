"""Rule readings: where ../shared/rules.md leaves a rule open, the reading the core takes.

Each is a flag read by facts.py (events -> facts), so changing a reading is a
one-line edit here; docs/table-format.md ("Rule readings") says why each was
chosen.  The defaults are what a careful player at the table expects.
"""
from __future__ import annotations

# A failed cut (dual cut, detector token wire, tripwire, M48) is not on a red
# wire: a red target would have exploded.  Also with no token (M58, constraint H).
FAILED_CUT_NOT_RED = True

# M11: the wires of the Number card's value count as red, so a failed cut was
# not on one either (presumably it explodes too; rules.md marks it [U]), and an
# explosion's target ("exploded": true) is red or one of them.
COUNTS_AS_RED_EXPLODES = True

# Stabilizer + failure with no token: the target is red (FAQ: a red target
# gets no token); it stays uncut.  The same for a detector: every target red.
STABILIZER_NO_TOKEN_MEANS_RED = True

# A failed detector with no token (no-info missions): not every target is red
# (all red would have exploded).
DETECTOR_NOT_ALL_RED = True

# x1/x2/x3 tokens and the Single Wire Label count the wires of the stand the
# owner can see: X wires yes, the owner's own flipped wires no.
COUNT_TOKEN_SEES_OWN_FLIPPED = False

# A solo cut cuts every remaining copy: no uncut wire anywhere else is that
# value — X, flipped wires and Nano's pool included.
SOLO_CUT_COVERS_EVERY_WIRE = True
