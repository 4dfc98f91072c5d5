// The game's state as the table sees it, derived from the event log alone
// (nothing new to type): the detonator dial, whose turn it is, the validated
// values, the equipment unlocked, and whether the mission is won or lost.
// Rules: shared/rules.md §3 (turns: seat order, players with empty stands are
// skipped), §3.4 (validation: all 4 of a blue value cut), §5 (equipment
// unlocks once 2 wires of its value are cut, 4 for the double-numbered cards;
// the yellow card needs 2 yellows). No DOM, no engine calls.
//
// The dial, the turn and the result are a COPY of the core's reading
// (bombbuster_core/public_state.py, whose docstring gives the rules), kept
// here for instant display: tests/test_public_state.py replays simulated
// games of every mission and player count through both and requires the
// same answers after every event. In short: with N players the dial starts
// N spaces from the skull (M51: N + 1; M41/M55/M60/M62: next to the skull);
// a failed dual cut or detector moves it +1 (not with the Stabilizer, not
// when it explodes), as do M41's failed tripwire call, M48's failed cut of
// the yellows and, in M56/M64, a dual cut on a teammate's flipped wire; the
// Rewinder moves it back one (never past the start for N players), M41's
// tripwire success too (up to the dial's 5th section). Missions that move it
// by what the events do not record get no dial (DIAL_UNREAD says why). The
// game is lost at an event with "exploded": true, at a failed cut of M14's
// rookie or M28's Captain Careless (the Captain), or when the dial reaches
// the skull; won once every wire is cut. The core refuses any event after a
// loss, so the recorder offers only undo and edit then.
//
// Equipment events (docs/table-format.md `equipment`): the Rewinder moves the
// dial back; the Coffee Mug names the player who plays next (then seat order
// from them); the other cards change neither.
import { replay } from "./layout.js";
import { boardListed, cardId } from "./equipment.js";

/** Events that are a player's turn action (the turn passes to the next player after them). */
const TURN_EVENTS = new Set(["dual_cut", "solo_cut", "reveal_red", "detector", "fast_pass", "multi_cut", "tripwire"]);

// The core's tables (public_state.py, missions.py), word for word: the test compares them.
const DIAL_SECTIONS = 5;
const NEXT_TO_SKULL = [41, 55, 60, 62];
const SKIP = "a skipped turn moves the dial, and a skip is not an event";
const DIAL_UNREAD = {
  29: "a hidden Number card played by a teammate moves the dial when its value is cut that turn; the cards are not in the events",
  32: "the shared Constraint card may be L (a failure costs 2 spaces); the cards are not in the events",
  34: "the weakest link's secret constraint costs 2 spaces when it stops their turn; it is not in the events",
  37: "a round nobody could play moves the dial, and the Constraint card may be L (a failure costs 2): neither is in the events",
  38: `a teammate who cannot play (only the Captain cuts the Captain's flipped wire) moves the dial; ${SKIP}`,
  44: `a player out of oxygen: ${SKIP}`,
  45: "a volunteer or designated player without the value moves the dial, with no event of its own",
  47: `a player without a wire of the sums: ${SKIP}`,
  49: `a player out of oxygen: ${SKIP}`,
  51: "a designated player without the value moves the dial, with no event of its own",
  53: "Nano replaces the dial: its space moves by each turn's cuts",
  54: "its rules come with the audio track, which no source documents",
  55: "its challenge cards move the dial back; they are not in the events",
  57: "a round nobody could play explodes and the Constraint card may be L (a failure costs 2): neither is in the events",
  59: `a player Nano leaves without a value: ${SKIP}`,
  60: "its challenge cards move the dial back; they are not in the events",
  61: "a round nobody could play explodes and a Constraint card may be L (a failure costs 2): neither is in the events",
  62: "its Number cards move the dial back when their value is validated; they are not in the events",
  63: `a player out of oxygen: ${SKIP}`,
  65: `a player without a value of their Number cards: ${SKIP}`,
};
const RESULT_UNREAD = {
  9: "the bomb explodes when a player holds only wires the Sequence card does not allow yet; that skipped turn is not an event",
  16: "the bomb explodes when a player holds only wires the Sequence cards do not allow yet; that skipped turn is not an event",
};
const CANNOT_PLAY = "a player who cannot play is skipped, and a skip is not an event";
const TURN_UNREAD = {
  ...Object.fromEntries([9, 16, 26, 31, 32, 34, 35, 36, 37, 38, 41, 44, 46, 47, 49, 56, 57, 59, 61, 63, 64, 65].map((m) => [m, CANNOT_PLAY])),
  18: "a drawn Number card designates who cuts",
  29: "a hidden Number card is played before each turn",
  43: "Nano's wires are taken at the end of a turn",
  45: "a drawn Number card is cut by a volunteer or a designated player",
  51: "a drawn Number card designates who cuts",
  53: "Nano moves each turn",
  54: "its rules come with the audio track, which no source documents",
  55: "its challenges are not in the events",
  60: "its challenges are not in the events",
};
const FAILURE_EXPLODES = { 14: "M14: the rookie's failed cut explodes", 28: "M28: Captain Careless's failed cut explodes" };

/** The table's mission number, or null. */
function missionOf(table) {
  const mission = table.meta ? table.meta.mission : null;
  return Number.isInteger(mission) ? mission : null;
}

const says = (mission, reasons) => (mission !== null && reasons[mission] ? `mission ${mission}: ${reasons[mission]}` : null);

/**
 * Spaces from the dial's start to the skull, how far back past the start it may go, and a note on a
 * mission's start: `note` in English (the core's words), `noteCode` for the page to word it in its
 * language ({code: "start_back" | "start_skull", mission}).
 */
export function dialStart(table) {
  const players = table.players.length;
  const mission = missionOf(table);
  const limit = NEXT_TO_SKULL.includes(mission) ? 1 : mission === 51 ? players + 1 : players;
  const room = mission === 41 ? Math.max(DIAL_SECTIONS, limit) - limit : Math.max(players, limit) - limit;
  const note = mission === 51 ? "Mission 51: the dial starts 1 space further back"
    : NEXT_TO_SKULL.includes(mission) ? `Mission ${mission}: the dial starts next to the skull` : null;
  const noteCode = mission === 51 ? { code: "start_back", mission } : NEXT_TO_SKULL.includes(mission) ? { code: "start_skull", mission } : null;
  return { limit, room, note, noteCode };
}

/**
 * The core's public state after the first `upto` events (public_state.py, PublicState.json):
 * {dial: {start, moved, spaces_left, failures_left} | null, dial_unread, turn, turn_unread,
 *  result: "won" | "lost" | "going on", lost_by: "red" | "dial" | "mission" | null, ended_at, why, result_unread}.
 */
export function publicState(table, upto = (table.events || []).length) {
  const events = (table.events || []).slice(0, upto);
  const players = table.players.length;
  const mission = missionOf(table);
  const { limit: start } = dialStart(table);
  const dialUnread = says(mission, DIAL_UNREAD);
  let moved = 0;
  let result = null; // {result, lost_by, ended_at, why}
  let lastActor = null;
  let nextPlayer = null; // a Coffee Mug's choice: who plays the next turn
  const lose = (at, cause, why) => { result = { result: "lost", lost_by: cause, ended_at: at, why }; };
  const move = (at, spaces) => {
    moved += spaces;
    if (moved >= start && !result && !dialUnread) lose(at, "dial", "the detonator dial reached the skull");
  };
  events.forEach((event, at) => {
    if (result && result.result === "lost") return; // the core refuses what follows
    const type = event.type;
    if (type === "dual_cut" || type === "detector") {
      if (event.exploded) {
        if (event.success) lose(at, "mission", "one's own flipped wire was not the value called");
        else lose(at, "red", type === "dual_cut" ? "a red wire was cut" : "every wire the detector pointed at was red");
      } else {
        if (!event.success && !event.stabilizer) {
          const rookie = event.actor === 0 && mission !== null ? FAILURE_EXPLODES[mission] : undefined;
          if (rookie) lose(at, "mission", rookie);
          else move(at, 1);
        }
        if (type === "dual_cut" && (mission === 56 || mission === 64) && !(result && result.result === "lost")) {
          const target = event.target;
          const tile = replay(table, at).stands[target.player]?.[target.stand]?.[target.slot];
          if (tile && tile.special === "flipped") move(at, 1); // a teammate's flipped wire costs a space
        }
      }
    } else if (type === "multi_cut") {
      if (event.exploded) {
        if (event.value === "yellow") lose(at, "red", "a red wire was among the yellows cut together");
        else lose(at, "mission", "the special action failed");
      } else if (!event.success) move(at, 1); // M48
    } else if (type === "tripwire") {
      if (event.exploded) lose(at, "red", "the tripwire call hit a red wire");
      else if (event.success) moved = Math.max(moved - 1, start - Math.max(DIAL_SECTIONS, start));
      else move(at, 1);
    } else if (type === "equipment" && cardId(event.card) === "6") { // the Rewinder
      moved = Math.max(moved - 1, start - Math.max(players, start));
    }
    if (TURN_EVENTS.has(type) && typeof event.actor === "number") {
      lastActor = event.actor;
      nextPlayer = null;
    } else if (type === "equipment" && cardId(event.card) === "11" && typeof event.next === "number") nextPlayer = event.next;
  });
  const layout = replay(table, upto);
  const uncut = (tile) => !tile.cut;
  if (!result && layout.nano.length === 0 && layout.stands.flat(2).every((tile) => !uncut(tile))) {
    // won at the last event that cut a wire (no wire is ever uncut again)
    let at = events.length - 1;
    while (at > 0 && cutValues(events[at]).length === 0 && events[at].type !== "disintegrator") at -= 1;
    result = { result: "won", lost_by: null, ended_at: at, why: "every wire is cut" };
  }
  const turnUnread = says(mission, TURN_UNREAD);
  let turn = null;
  if (!result && !turnUnread) {
    const first = nextPlayer !== null && nextPlayer < players ? nextPlayer : lastActor === null ? 0 : (lastActor + 1) % players;
    for (let k = 0; k < players; k++) {
      const p = (first + k) % players;
      if (layout.stands[p].flat().some((tile) => uncut(tile) && tile.special !== "flipped")) { turn = p; break; }
    }
  }
  const resultUnread = result ? null : dialUnread || says(mission, RESULT_UNREAD);
  const ended = result || { result: "going on", lost_by: null, ended_at: null, why: "the game is going on" };
  const headline = !result ? "the game is going on" : result.result === "won" ? `the mission was won at event ${result.ended_at}`
    : `the ${result.lost_by === "dial" ? "detonator dial reached the skull" : "bomb exploded"} at event ${result.ended_at}`;
  return {
    mission,
    dial: dialUnread ? null : { start, moved, spaces_left: start - moved, failures_left: Math.max(start - moved - 1, 0) },
    dial_unread: dialUnread,
    turn,
    turn_unread: turnUnread,
    ...ended,
    headline,
    result_unread: resultUnread,
  };
}

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

/**
 * The state after the first `upto` events (all by default): the core's public state (`public`:
 * publicState above) and, for the page, {players, failures, limit, room, dialNote, dialNoteCode, dialUnread, left, turn,
 * turnUnread, lastActor, turns, cut: {value: count}, validated: [v], unlocked: [label] (null: not told), wiresLeft,
 * wiresTotal, won, lost, lostBy ("explosion" | "dial" | null), cause ("red" | "dial" | "mission" | null),
 * endedAt, exploded (the index of the event where the bomb exploded, or null), over,
 * perPlayer: [{successes, failures, turns}]}. `failures` is the dial's spaces moved from its start (0
 * where the dial is not read: `dialUnread` says why); `turn` is the player to move (null once the game
 * is over, when nobody holds a wire, or where the mission's turns are not read: `turnUnread`).
 * `dialNote` is in English (this module runs under Node too and takes no catalogue); `dialNoteCode`
 * ({code: "unread" | "start_back" | "start_skull", mission}) is what the page words in its language.
 */
export function gameState(table, upto = (table.events || []).length) {
  const events = (table.events || []).slice(0, upto);
  const players = table.players.length;
  const state = publicState(table, upto);
  const { limit, room: back, note, noteCode } = dialStart(table);
  const failures = state.dial ? state.dial.moved : 0;
  let lastActor = null;
  let nextPlayer = null;
  let turns = 0;
  const cut = {};
  const perPlayer = table.players.map(() => ({ successes: 0, failures: 0, turns: 0 }));
  events.forEach((event) => {
    if (event.type === "equipment" && cardId(event.card) === "11" && typeof event.next === "number") nextPlayer = event.next; // the Coffee Mug
    const failed = (event.type === "dual_cut" || event.type === "detector" || event.type === "tripwire" || event.type === "multi_cut")
      && event.success === false && !event.exploded && !event.stabilizer;
    if (failed && perPlayer[event.actor]) perPlayer[event.actor].failures += 1;
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
  // M12 (the core's meta.equipment.covers): a card also waits for its Number card's pair, which a
  // table that does not list its board does not record: not told (null), never a card called unlocked.
  const covered = Boolean(table.meta && table.meta.equipment && table.meta.equipment.covers);
  const unlocked = covered && !boardListed(table) ? null : [];
  if (unlocked && !rules.includes("no_equipment")) {
    for (const v of blue) if ((cut[v] || 0) >= 2) unlocked.push(String(v));
    if (rules.includes("double_numbered_equipment")) {
      for (const v of DOUBLE_NUMBERED) if ((cut[v] || 0) >= 4) unlocked.push(`${v}.${v}`);
    }
    if ((cut.yellow || 0) >= 2) unlocked.push("yellow");
  }
  const won = state.result === "won";
  const lost = state.result === "lost";
  const lostBy = !lost ? null : state.lost_by === "dial" ? "dial" : "explosion";
  return {
    public: state, players, failures, limit, room: Math.max(back, -failures), dialNote: state.dial_unread || note,
    dialNoteCode: state.dial_unread ? { code: "unread", mission: state.mission } : noteCode,
    dialUnread: state.dial_unread, nextPlayer, left: Math.max(0, limit - failures), turn: state.turn, turnUnread: state.turn_unread,
    lastActor, turns, cut, validated, unlocked, wiresLeft, wiresTotal, wiresLeftOf, won, lost, lostBy, cause: state.lost_by,
    endedAt: state.ended_at, exploded: lostBy === "explosion" ? state.ended_at : null, over: won || lost, perPlayer,
  };
}
