"""The live table's protocol and handshake codes, run by Node without a browser
(tests/live_protocol.mjs on web/js/live/protocol.js and web/js/live/sdp.js): the
whitelist (no message carries `me`), the host's ordering, refusals with their
reason, catch-up after a phone was away, and the compressed SDP codes."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECKS = [
    "sdp code keeps what a data channel needs, and is short",
    "sdp codes refuse the wrong side and damage, in words",
    "the public setup is built from the whitelist: no me, no unlisted field",
    "no message ever carries me or a phone's wires",
    "the host appends a phone's request and every phone gets it, the requester with its ack",
    "a request the engine refuses comes back with the reason, to the requester only",
    "a refusal carries its code and fields across, for the requester to word in its language",
    "the host orders the log: of two requests made on the same log, the second is refused",
    "a phone that was away gets the events after the ones it holds",
    "a hello the host missed is said again, and the answer to a hello said again adds nothing",
    "a phone whose log differs from the host's (an edit while it was away) gets the whole log",
    "an undo on the host reaches the phones as the log from the first change",
    "a phone that missed a message asks for the log again",
    "a received message outside its whitelist is refused, in words",
    "seats: the host's own and each phone's, sent to every phone",
]


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("live") / "results.json"
    subprocess.run(["node", str(ROOT / "tests" / "live_protocol.mjs"), str(out)], check=True, timeout=120)
    return json.loads(out.read_text())


def test_every_check_ran(results):
    assert sorted(results) == sorted(CHECKS)


@pytest.mark.parametrize("name", CHECKS)
def test_live_protocol(results, name):
    assert results[name] == "ok", results[name]
