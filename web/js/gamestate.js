// The game's state as the table sees it, derived from the event log alone
// (nothing new to type): the detonator dial, whose turn it is, the validated
// values, the equipment unlocked, and whether the mission is won or lost.
// Rules: shared/rules.md §3 (turns: seat order, players with empty stands are
// skipped), §3.4 (validation: all 4 of a blue value cut), §4 (dial: with N
// players the N-th failure explodes; the Stabilizer keeps the dial still; a
// tripwire success moves it back one), §5 (equipment unlocks once 2 wires of
// its value are cut, 4 for the double-numbered cards; the yellow card needs 2
// yellows). No DOM, no engine calls.
//
// A loss comes two ways (rules.md §4): the dial reaches the skull, or the bomb
// explodes at an event recorded with "exploded": true (a red wire cut, a
// failed special action, M38/M56's own flipped wire: docs/table-format.md,
// "Explosions"). An explosion ends the game at once; the core refuses any
// later event, so the recorder offers only undo and edit then.
//
// Equipment events (docs/table-format.md `equipment`): the Rewinder moves the
// dial back one space (never past its start); the Coffee Mug names the player
// who plays next (then seat order from them); the other cards change neither.
//
// Where the dial starts, by meta.mission (rules.md §4), read here as "spaces
// from the start to the skull" (`limit`; with N players it is N: the N-th
// failure explodes):
// - M51 "starts 1 space further back": N + 1 (one more failure survives).
// - M41 sets the dial to the space next to the skull (its card shows it; the
//   Tabletop Simulator script S5 gives 1 life): limit 1, so the FIRST failure
//   explodes and no failure survives unless a tripwire success has moved the
//   dial back first. Since M41's start is nearer the skull than the standard
//   start, moves back may go past it, up to the standard start for N players.
// - M55, M60, M62 also set the dial to a printed space, which no source here
//   gives (S5's "1 life for all four" is an implementation, not the card): the
//   standard start is kept, and the help's About text says so.
import { replay } from "./layout.js";
import { cardId } from "./equipment.js";

/** Events that are a player's turn action (the turn passes to the next player after them). */
const TURN_EVENTS = new Set(["dual_cut", "solo_cut", "reveal_red", "detector", "fast_pass", "multi_cut", "tripwire"]);

const DOUBLE_NUMBERED = [2, 3, 9, 10, 11];

/** The gameplay value of each wire cut by an event, as a list ("yellow", "red" or a blue number). */
export function cutValues(event) {
  const value = event.cut_value !== undefined ? event.cut_value : event.value;
  switch (event.type) {
    case "dual_cut":
    case "detector":
      return event.success ? [value, value] : [];
    case "solo_cut":
    case "fast_pass":
    case "disintegrator":
      return (event.slots || []).map(() => value);
    case "multi_cut":
      return event.success ? (event.slots || []).map(() => value) : [];
    case "reveal_red":
      return (event.slots || []).map(() => "red");
    case "tripwire":
      return event.success ? ["yellow"] : [];
    default:
      return [];
  }
}

/** Spaces from the dial's start to the skull, and how far back past the start it may go (see the header). */
export function dialStart(table) {
  const players = table.players.length;
  const mission = table.meta ? Number(table.meta.mission) : NaN;
  if (mission === 51) return { limit: players + 1, room: 0, note: "Mission 51: the dial starts 1 space further back" };
  if (mission === 41) return { limit: 1, room: Math.max(0, players - 1), note: "Mission 41: the dial starts next to the skull" };
  if ([55, 60, 62].includes(mission)) {
    return { limit: players, room: 0, note: `Mission ${mission}: its printed dial start is not known here; the standard start is used` };
  }
  return { limit: players, room: 0, note: null };
}

/** Whether an event is a failure that moves the dial (+1), a success that moves it back (-1), or neither (0). */
export function dialStep(event) {
  if (event.exploded) return 0; // the game ends at once: no dial move
  if (event.type === "dual_cut" || event.type === "detector") return !event.success && !event.stabilizer ? 1 : 0;
  if (event.type === "tripwire") return event.success ? -1 : 1;
  if (event.type === "equipment" && cardId(event.card) === "6") return -1; // the Rewinder
  return 0;
}

/**
 * The state after the first `upto` events (all by default):
 * {players, failures, limit, left, turn, lastActor, turns, cut: {value: count},
 *  validated: [v], unlocked: [label], wiresLeft, wiresTotal, won, lost, lostBy ("explosion" | "dial" | null),
 *  exploded (the index of the event where the bomb exploded, or null), over, perPlayer: [{successes, failures, turns}]}.
 * `turn` is the player to move (null once the game is over or when nobody holds a wire).
 */
export function gameState(table, upto = (table.events || []).length) {
  const events = (table.events || []).slice(0, upto);
  const players = table.players.length;
  const { limit, room, note: dialNote } = dialStart(table); // standard: the N-th failure explodes
  let failures = 0; // net spaces the dial has moved from its start (negative: behind it, M41 only)
  let lastActor = null;
  let nextPlayer = null; // a Coffee Mug's choice: who plays the next turn
  let turns = 0;
  const cut = {};
  const perPlayer = table.players.map(() => ({ successes: 0, failures: 0, turns: 0 }));
  events.forEach((event) => {
    failures = Math.max(-room, failures + dialStep(event));
    if (event.type === "equipment" && cardId(event.card) === "11" && typeof event.next === "number") nextPlayer = event.next; // the Coffee Mug
    if (dialStep(event) > 0 && perPlayer[event.actor]) perPlayer[event.actor].failures += 1;
    for (const value of cutValues(event)) cut[value] = (cut[value] || 0) + 1;
    if (TURN_EVENTS.has(event.type) && typeof event.actor === "number") {
      lastActor = event.actor;
      nextPlayer = null;
      turns += 1;
      if (perPlayer[event.actor]) {
        perPlayer[event.actor].turns += 1;
        if (event.success !== false && !event.exploded && event.type !== "reveal_red") perPlayer[event.actor].successes += 1;
      }
    }
  });
  const layout = replay(table, upto);
  const wiresLeftOf = layout.stands.map((stands) => stands.reduce((sum, row) => sum + row.filter((tile) => !tile.cut).length, 0));
  const wiresLeft = wiresLeftOf.reduce((a, b) => a + b, 0) + layout.nano.length;
  const wiresTotal = layout.stands.flat(2).length + layout.nano.length;
  const blue = table.wires.blue || Object.keys(table.wires.deck || {}).map(Number).filter((k) => Number.isInteger(k));
  const validated = blue.filter((v) => (cut[v] || 0) >= 4);
  const rules = (table.meta && Array.isArray(table.meta.rules)) ? table.meta.rules : [];
  const unlocked = [];
  if (!rules.includes("no_equipment")) {
    for (const v of blue) if ((cut[v] || 0) >= 2) unlocked.push(String(v));
    if (rules.includes("double_numbered_equipment")) {
      for (const v of DOUBLE_NUMBERED) if ((cut[v] || 0) >= 4) unlocked.push(`${v}.${v}`);
    }
    if ((cut.yellow || 0) >= 2) unlocked.push("yellow");
  }
  const at = events.findIndex((event) => event.exploded === true);
  const exploded = at >= 0 ? at : null;
  const lostBy = exploded !== null ? "explosion" : failures >= limit ? "dial" : null;
  const lost = lostBy !== null;
  const won = !lost && wiresTotal > 0 && wiresLeft === 0;
  const over = won || lost;
  let turn = null;
  if (!over) {
    const start = nextPlayer !== null && nextPlayer < players ? nextPlayer : lastActor === null ? 0 : (lastActor + 1) % players;
    for (let i = 0; i < players; i++) {
      const p = (start + i) % players;
      if (wiresLeftOf[p] > 0) { turn = p; break; }
    }
  }
  return {
    players, failures, limit, room, dialNote, nextPlayer, left: Math.max(0, limit - failures), turn, lastActor, turns, cut,
    validated, unlocked, wiresLeft, wiresTotal, wiresLeftOf, won, lost, lostBy, exploded, over, perPlayer,
  };
}
