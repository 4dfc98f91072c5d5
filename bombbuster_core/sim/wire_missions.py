"""The missions of wires, tokens, the dial and Nano (:mod:`.mission_rules`' hooks).

M11's number as red, M13's reds and M41/M48's yellows dealt first, M14/M28's rookie and Captain
Careless, M17/M52's false tokens, M22/M27's token passes, M35's X wires, M38/M56/M64's flipped
wires, M41's tripwires, M43/M53/M59's Nano, M44/M49/M63's oxygen, M46's sevens.
"""
from __future__ import annotations

from ..wires import RED, YELLOW, Value, key_json, value_of
from .actions import DoubleDetector, DualCutAction, RevealRedAction, SoloCutAction, slot_json
from .mission_rules import NUMBERS, MissionRules, absent_of_allowed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .actions import Action
    from .game import Game


def oxygen_depth(v: int) -> int:
    """M44/M54's oxygen cost of a value: 1-4 one token, 5-8 two, 9-12 three."""
    return 1 if v <= 4 else 2 if v <= 8 else 3


class CountsAsRed(MissionRules):
    """M11: the Number card counts as red."""

    def open(self, game: Game) -> None:
        game.state["number"] = game.counts_as_red


class PreDealtRed(MissionRules):
    """M13: the reds dealt one per player; three reds cut at once; no reveal."""

    predealt = RED
    reveal_allowed = False

    def specials(self, game: Game, p: int) -> list[dict[str, Any]]:
        if game.remaining_wires(RED) and (game.players >= 4 or any(game.is_red(game.key(x)) for x in game.visible(p))):
            return [{"kind": "multi_cut", "value": RED, "count": 3}]
        return []


class Rookie(MissionRules):
    """M14 (the rookie), M28 (Captain Careless): a failed cut explodes (missions.failure_explodes)."""

    stabilizer_barred = True


class CaptainCareless(Rookie):
    def detector_barred(self, game: Game, p: int) -> bool:
        return p == 0


class FalseTokens(MissionRules):
    """M17 (the Captain, Rhett, on non-red wires), M52 (everyone, on any wire): 2 false setup tokens,
    and a failure in their hands gives no token."""

    stabilizer_barred = True

    def __init__(self, captain_only: bool):
        self.captain_only = captain_only
        self.false_token_avoids = RED if captain_only else YELLOW

    def false_tokens(self, player: int) -> bool:
        return player == 0 or not self.captain_only


class TokenPass(MissionRules):
    """M22 (absent values at the setup; after the 2nd yellow each player gives the next a value),
    M27 (a draft of tokens after the 2nd yellow)."""

    def __init__(self, give: bool):
        self.give = give
        self.setup_names_absent = give

    def after_cut(self, game: Game, value: Value, n: int) -> None:
        st = game.state
        if value == YELLOW and not st.get("passed") and game.yellows_cut >= 2:
            st["passed"] = True
            if self.give:
                for g in range(game.players):
                    game.queue.append({"player": g, "kind": "choose", "what": "give", "to": (g + 1) % game.players})
            else:
                supply: list[Value] = [v for v in NUMBERS for _ in range(2)] + [YELLOW, YELLOW]
                st["draft"] = game.rng.sample(supply, game.players)
                for g in range(game.players):
                    game.queue.append({"player": g, "kind": "choose", "what": "draft"})


class XBlue(MissionRules):
    """M35: blue X wires, cut only after the 4 yellows."""

    x_waits_for_yellows = True


class FlippedWires(MissionRules):
    """M38 (only the Captain cuts their flipped wire; a teammate's skip moves the dial), M56/M64 (a
    teammate's flipped wire costs a space on the dial)."""

    def __init__(self, captain_only: bool):
        self.captain_only = captain_only
        self.flipped_target = "captain_only" if captain_only else "costly"

    def skip(self, game: Game, p: int, d: dict[str, Any]) -> bool:
        if self.captain_only and p != 0 and not game.over:
            game.advance_dial(1)
        return False


class Tripwires(MissionRules):
    """M41: the yellows dealt one per player (not the 5-player Captain), a tripwire call, the dial next
    to the skull; a player left with their own tripwire skips."""

    predealt = YELLOW
    yellow_in_token_supply = True  # M13/M39 replace a yellow draw; M41's card does not

    def dial_start(self, game: Game) -> int:
        return 1  # the printed space next to the skull (rules.md §4; S5: 1 life)

    def predealt_seats(self, players: int) -> list[int]:
        return [p for p in range(players) if not (players == 5 and p == 0)]

    def forbidden_values(self, game: Game) -> set[Value]:
        return {RED, YELLOW}

    def specials(self, game: Game, p: int) -> list[dict[str, Any]]:
        return [{"kind": "tripwire"}] if game.remaining_wires(YELLOW) else []

    def own_tripwire_only(self, game: Game, p: int) -> bool:
        mine = [game.gameplay(game.key(x)) for x in game.visible(p)]
        return YELLOW in mine and set(mine) <= {YELLOW, RED}

    def skip(self, game: Game, p: int, d: dict[str, Any]) -> bool:
        game.announce_absent(p, game.blue_values_in_play())  # only the own tripwire (and reds) left
        return False


class NanoTransfers(MissionRules):
    """M43: Nano walks the number line; a cut of its space's value takes one of its wires."""

    moving_cards_barred = True

    def open(self, game: Game) -> None:
        game.state.update(nano_space=1, nano_dir=1, nano_left=len(game.nano))

    def end_turn(self, game: Game, p: int, action: Action | None) -> None:
        st = game.state
        if game.nano and st["nano_space"] in game.turn_cuts:
            key = game.nano.pop(0)
            s = game.rng.randrange(len(game.hands[p]))  # a 2-stand player's choice of stand: at random
            j = game.insert_wire(p, s, key)
            game.events.append({"type": "move", "from": "nano", "to": slot_json((p, s, j))})
            game.seen[p].append({"at": slot_json((p, s, j)), "value": key_json(key), "after": len(game.events) - 1})
            st["nano_left"] = len(game.nano)
        space, step = st["nano_space"], st["nano_dir"]
        if not 1 <= space + step <= 12:
            step = -step
        st["nano_space"], st["nano_dir"] = space + step, step


class Oxygen(MissionRules):
    """M44 (a shared reserve refilled each round), M49 (each player's, given to the teammate holding
    the fewest), M63 (passed on to a reserve): a cut costs oxygen."""

    cut_cards_barred = True
    skip_moves_the_dial = True

    def __init__(self, mission: int):
        self.mission = mission

    def open(self, game: Game) -> None:
        n, st = game.players, game.state
        if self.mission == 44:
            st["oxygen"] = 2 * n
        elif self.mission == 49:
            st["oxygen"] = [{2: 7, 3: 6, 4: 5, 5: 4}[n]] * n
        else:
            st.update(oxygen={2: 14, 3: 18, 4: 24, 5: 30}[n], reserve=0)

    def round_start(self, game: Game) -> None:
        st = game.state
        if self.mission == 44:
            st["oxygen"] = 2 * game.players
        if self.mission == 63:
            st["oxygen"] += st["reserve"]
            st["reserve"] = 0

    def allowed(self, game: Game, p: int) -> Any:
        st = game.state
        if self.mission == 44:
            return (v for v in game.values_in_play() if isinstance(v, int) and oxygen_depth(v) <= st["oxygen"])
        if self.mission == 49:
            return (v for v in game.values_in_play() if isinstance(v, int) and v <= st["oxygen"][p])
        return (v for v in game.values_in_play() if isinstance(v, int) and v <= st["oxygen"])

    def before_cut(self, game: Game, p: int, v: Value) -> None:
        if not isinstance(v, int):
            return
        st = game.state
        if self.mission == 44:
            st["oxygen"] -= oxygen_depth(v)
        elif self.mission == 49:
            st["oxygen"][p] -= v
            others = [q for q in range(game.players) if q != p]
            # to the teammate holding the fewest tokens (the next one clockwise on a tie)
            q = min(others, key=lambda q: (st["oxygen"][q], (q - p) % game.players))
            st["oxygen"][q] += v
        else:
            st["oxygen"] -= v
            st["reserve"] += v


class SevenAlone(MissionRules):
    """M46: the four 7s cut at once, forced on a player left with only 7s."""

    def forbidden_values(self, game: Game) -> set[Value]:
        return {RED, 7}

    def specials(self, game: Game, p: int) -> list[dict[str, Any]]:
        if game.remaining_wires(7):
            mine = game.uncut(p)
            if mine and all(value_of(game.key(x)) == 7 for x in mine):
                return [{"kind": "multi_cut", "value": 7, "count": 4, "forced": True}]
        return []


class ThreeYellows(MissionRules):
    """M48: the yellows dealt one per player, cut three at once (a failure: true tokens, the dial)."""

    predealt = YELLOW

    def forbidden_values(self, game: Game) -> set[Value]:
        return {RED, YELLOW}

    def specials(self, game: Game, p: int) -> list[dict[str, Any]]:
        if game.remaining_wires(YELLOW) and (
                game.players >= 4 or any(value_of(game.key(x)) == YELLOW for x in game.visible(p))):
            return [{"kind": "multi_cut", "value": YELLOW, "count": 3}]
        return []


class NanoDial(MissionRules):
    """M53: Nano is the dial: a cut of its space's value moves it back, a failure 2 forward, 12 explodes."""

    nano_is_the_dial = True
    moving_cards_barred = True

    def dial_start(self, game: Game) -> int:
        return 10**6  # no dial: Nano is the dial

    def end_turn(self, game: Game, p: int, action: Action | None) -> None:
        if action is None or isinstance(action, RevealRedAction):
            return
        cut = game.turn_cuts
        if cut:
            game.nano_dial += -1 if cut[0] == game.nano_dial else 1
        elif game.events and game.events[-1].get("success") is False:
            game.nano_dial += 2
        game.nano_dial = max(0, game.nano_dial)
        if game.nano_dial >= 12:
            game.result = "detonator"


class NanoLine(MissionRules):
    """M59: Nano on a shuffled number line: one cuts the values it can reach in its direction; a cut
    turns the card face down and the player turns Nano."""

    cut_cards_barred = True
    moving_cards_barred = True
    skip_moves_the_dial = True

    def open(self, game: Game) -> None:
        line = list(NUMBERS)
        game.rng.shuffle(line)
        at = line.index(7)
        game.state.update(line=line, nano_at=at, nano_dir=1 if len(line) - 1 - at >= at else -1, face_down=[])

    def allowed(self, game: Game, p: int) -> Any:
        st = game.state
        line, at, step = st["line"], st["nano_at"], st["nano_dir"]
        down = set(st.get("face_down", []))
        out = [line[at]] if line[at] not in down else []
        i = at + step
        while 0 <= i < len(line):
            if line[i] not in down:
                out.append(line[i])
            i += step
        return out

    def before_cut(self, game: Game, p: int, v: Value) -> None:
        game.state["nano_at"] = game.state["line"].index(v)

    def after_cut(self, game: Game, value: Value, n: int) -> None:
        if isinstance(value, int) and game.cut_count_of(value) >= 4:
            game.state.setdefault("face_down", []).append(value)

    def end_turn(self, game: Game, p: int, action: Action | None) -> None:
        if isinstance(action, (DualCutAction, DoubleDetector, SoloCutAction)) and not game.over:
            game.queue.insert(0, {"player": p, "kind": "choose", "what": "direction"})

    def skip(self, game: Game, p: int, d: dict[str, Any]) -> bool:
        absent_of_allowed(game, p, d)
        super().skip(game, p, d)
        game.state["nano_dir"] = -game.state["nano_dir"]
        return False
