// The game's state as the table sees it, derived from the event log alone
// (nothing new to type): the detonator dial, whose turn it is, the validated
// values, the equipment unlocked, and whether the mission is won or lost.
// Rules: shared/rules.md §3 (turns: seat order, players with empty stands are
// skipped), §3.4 (validation: all 4 of a blue value cut), §4 (dial: with N
// players the N-th failure explodes; the Stabilizer keeps the dial still; a
// tripwire success moves it back one), §5 (equipment unlocks once 2 wires of
// its value are cut, 4 for the double-numbered cards; the yellow card needs 2
// yellows). No DOM, no engine calls.
import { replay } from "./layout.js";

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

/** Whether an event is a failure that moves the dial (+1), a success that moves it back (-1), or neither (0). */
export function dialStep(event) {
  if (event.type === "dual_cut" || event.type === "detector") return !event.success && !event.stabilizer ? 1 : 0;
  if (event.type === "tripwire") return event.success ? -1 : 1;
  return 0;
}

/**
 * The state after the first `upto` events (all by default):
 * {players, failures, limit, left, turn, lastActor, turns, cut: {value: count},
 *  validated: [v], unlocked: [label], wiresLeft, wiresTotal, won, lost, over, perPlayer: [{successes, failures, turns}]}.
 * `turn` is the player to move (null once the game is over or when nobody holds a wire).
 */
export function gameState(table, upto = (table.events || []).length) {
  const events = (table.events || []).slice(0, upto);
  const players = table.players.length;
  const limit = players; // the N-th failure explodes
  let failures = 0;
  let lastActor = null;
  let turns = 0;
  const cut = {};
  const perPlayer = table.players.map(() => ({ successes: 0, failures: 0, turns: 0 }));
  events.forEach((event) => {
    failures = Math.max(0, failures + dialStep(event));
    if (dialStep(event) > 0 && perPlayer[event.actor]) perPlayer[event.actor].failures += 1;
    for (const value of cutValues(event)) cut[value] = (cut[value] || 0) + 1;
    if (TURN_EVENTS.has(event.type) && typeof event.actor === "number") {
      lastActor = event.actor;
      turns += 1;
      if (perPlayer[event.actor]) {
        perPlayer[event.actor].turns += 1;
        if (event.success !== false && event.type !== "reveal_red") perPlayer[event.actor].successes += 1;
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
  const lost = failures >= limit;
  const won = !lost && wiresTotal > 0 && wiresLeft === 0;
  const over = won || lost;
  let turn = null;
  if (!over) {
    const start = lastActor === null ? 0 : (lastActor + 1) % players;
    for (let i = 0; i < players; i++) {
      const p = (start + i) % players;
      if (wiresLeftOf[p] > 0) { turn = p; break; }
    }
  }
  return {
    players, failures, limit, left: Math.max(0, limit - failures), turn, lastActor, turns, cut,
    validated, unlocked, wiresLeft, wiresTotal, wiresLeftOf, won, lost, over, perPlayer,
  };
}
