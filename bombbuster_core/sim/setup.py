"""The setup tokens of a game (:class:`SetupTokens`, a part of :class:`~.game.Game`).

**Setup.** Each player from the Captain clockwise places their token(s),
chosen by the policy (:meth:`Game.setup_token_players` / :meth:`Game.place_token`):
a true token on a blue wire; M21/M33 even/odd; M24/M40 x1/x2/x3 (not red, the
value at most 3 times on the stand); M17 the Captain (Rhett) 2 false tokens
on non-red wires, M52 everyone 2 false tokens on blue or red wires; M22 two
values absent from the hand (``absent``).  None in M18/M58, none for the
2-player Captain where the card says so.  Random tokens (M13, M39, M41, the
2-player Captain of M43) are drawn by the game from the token supply (a
yellow draw replaced in M13/M39) and placed on a matching wire or beside the
stand (``absent``).  Then the mission's opening choices: M31 each player's
Constraint card, M36 the Sequence card's end.
"""
from __future__ import annotations

from ..wires import RED, YELLOW, Value, value_of
from .actions import AbsentTokens, SetupToken, SimError, slot_json
from .mission_rules import NUMBERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .actions import Slot


class SetupTokens:
    """The setup decisions of :class:`~.game.Game`: who places which token, where it may go, the
    random tokens the game draws."""

    def _token_kind(self, player: int) -> str:
        if "parity_tokens" in self.tags:
            return "parity"
        if "count_tokens" in self.tags:
            return "count"
        if self.rules.false_tokens(player):
            return "false"
        return "value"

    def deal_setup_tokens(self) -> None:
        """The setup tokens at the deal: the random ones placed at once, the chosen ones queued for their
        players (:meth:`setup_token_players`)."""
        self._random_setup_tokens()
        self._plan_setup()

    def _plan_setup(self) -> None:
        """The chosen setup tokens, in order (random ones are placed at once)."""
        if "no_setup_tokens" in self.tags:
            return
        for p in range(self.players):
            if p == 0 and "captain_no_setup_token" in self.tags:
                continue
            if "random_setup_tokens" in self.tags or (p == 0 and "captain_random_setup_token" in self.tags):
                continue
            if self.rules.setup_names_absent:
                self._setup.append({"player": p, "kind": "setup_absent", "count": 2})
                continue
            kind = self._token_kind(p)
            decision = {"player": p, "kind": "setup_token", "token": kind}
            if self.setup_options(decision):  # a player with no wire the token may go on places none
                self._setup += [decision] * (2 if kind == "false" else 1)

    def _random_setup_tokens(self) -> None:
        """M13/M39/M41 (and M43's 2-player Captain): tokens drawn at random, placed or beside the stand."""
        who = [p for p in range(self.players) if not (p == 0 and "captain_no_setup_token" in self.tags)]
        if "random_setup_tokens" not in self.tags:
            who = [0] if "captain_random_setup_token" in self.tags else []
        if not who:
            return
        yellow = self.rules.yellow_in_token_supply
        supply: list[Value] = [v for v in NUMBERS for _ in range(2)] + ([YELLOW, YELLOW] if yellow else [])
        self.rng.shuffle(supply)
        for p in who:
            v = supply.pop()
            self._place_true_or_absent(p, v)

    def _place_true_or_absent(self, p: int, v: Value) -> None:
        """A token of value ``v`` put correctly on one of ``p``'s matching wires (the game's pick at
        random), or beside the stand: ``absent``."""
        mine = [x for x in self.visible(p) if value_of(self.key(x)) == v]
        if mine:
            at = self.rng.choice(mine)
            self.events.append({"type": "info_token", "at": slot_json(at), "value": v})
            self.tokened.add(at)
        elif v in self.values_in_play():
            self.events.append({"type": "absent", "player": p, "values": [v]})

    def setup_token_players(self) -> list[int]:
        """The players who place a chosen setup token, in order (a player twice for 2 false tokens)."""
        return [d["player"] for d in self._setup]

    def setup_options(self, decision: dict[str, Any]) -> list[Slot] | list[Value]:
        """The slots a setup token may go on (or, M22, the values a player may name as absent)."""
        p = decision["player"]
        if decision["kind"] == "setup_absent":
            held = {value_of(self.key(x)) for x in self.uncut(p)}
            return [v for v in self.values_in_play() if v != RED and v not in held]
        kind, out = decision["token"], []
        taken = {(e["at"]["player"], e["at"]["stand"], e["at"]["slot"]) for e in self.events
                 if e["type"] == "info_token"}
        for x in self.visible(p):
            k = self.key(x)
            if x in taken:
                continue
            if kind in ("value", "parity") and k % 10 == 0:
                out.append(x)
            elif kind == "count" and not self.is_red(k) and self._stand_count(x) <= 3:
                out.append(x)
            elif kind == "false" and value_of(k) != self.rules.false_token_avoids:
                out.append(x)
        return out

    def place_token(self, choice: Slot | SetupToken | AbsentTokens | None) -> None:
        """The next setup decision (:meth:`setup_token_players` order): a slot for the mission's token,
        a :class:`SetupToken` (a false token's value), :class:`AbsentTokens` (M22), None to place none."""
        if not self._setup:
            raise SimError("no setup token is due")
        decision = self._setup[0]
        p = decision["player"]
        if choice is not None:
            options = self.setup_options(decision)
            if decision["kind"] == "setup_absent":
                if not isinstance(choice, AbsentTokens):
                    raise SimError("M22: the setup names absent values (AbsentTokens)")
                values = list(dict.fromkeys(choice.values))
                if not all(v in options for v in values) or len(values) > min(decision["count"], len(options)):
                    raise SimError(f"player {p} cannot name {values} as absent")
                if values:
                    self.events.append({"type": "absent", "player": p, "values": values})
            else:
                slot, value = (choice.slot, choice.value) if isinstance(choice, SetupToken) else (tuple(choice), None)
                if slot not in options:
                    raise SimError(f"a {decision['token']} setup token cannot go on {slot}")
                self.events.append(self._setup_event(decision["token"], slot, value))
                self.tokened.add(slot)
        self._setup.pop(0)
        if not self._setup:
            self.begin_play()

    def _setup_event(self, kind: str, slot: Slot, value: int | None) -> dict[str, Any]:
        k = self.key(slot)
        at = {"type": "info_token", "at": slot_json(slot)}
        if kind == "value":
            return {**at, "value": k // 10}
        if kind == "parity":
            return {**at, "parity": "even" if (k // 10) % 2 == 0 else "odd"}
        if kind == "count":
            return {**at, "count": self._stand_count(slot)}
        wrong = [v for v in self.blue_values_in_play() if v != value_of(k)]
        if value is None:
            value = self.rng.choice(wrong)  # a policy that names only the slot: the game picks the false value
        if value not in wrong:
            raise SimError(f"a false token shows a blue value in play other than the wire's, not {value!r}")
        return {**at, "value": value, "false": True}
