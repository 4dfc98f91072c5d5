// Equipment on the page: the cards' printed IDs and names, which card or
// character can provide each use the recorder writes, and what the board
// offers now. The rules themselves (a card unlocks after 2 cuts of its value,
// 4 for the double-numbered ones; single use; Emergency Batteries and Drop;
// False Bottom's added cards) live only in the core
// (bombbuster_core/equipment.py): the page reads each card's state from the
// last analysis (`equipment` in analyze's answer) and the core refuses a use
// the board does not allow, naming the event and field. No DOM, no engine calls.

/** Printed ID → name (docs/table-format.md, "Equipment on the board"). */
export const CARD_NAMES = {
  1: "Label ≠", 2: "Walkie-Talkies", 3: "Triple Detector", 4: "Post-it", 5: "Super Detector", 6: "Rewinder",
  7: "Emergency Batteries", 8: "General Radar", 9: "Stabilizer", 10: "X or Y ray", 11: "Coffee Mug", 12: "Label =",
  "2.2": "Single Wire Label", "3.3": "Emergency Drop", "9.9": "Fast Pass", "10.10": "Disintegrator",
  "11.11": "Grappling Hook", Y: "False Bottom",
};

export const CHARACTER_NAMES = {
  double_detector: "Double Detector", general_radar: "E1 General Radar", walkie_talkies: "E2 Walkie-Talkies",
  triple_detector: "E3 Triple Detector", xy_ray: "E4 X or Y ray",
};
export const DEFAULT_CHARACTER = "double_detector";

// The `equipment` event named its card before cards had IDs: saved games still hold these.
const OLD_CARD_NAMES = { rewinder: "6", emergency_batteries: "7", coffee_mug: "11", false_bottom: "Y", emergency_drop: "3.3" };

/** The printed ID of an `equipment` event's card (an old name read as its ID). */
export function cardId(card) {
  return OLD_CARD_NAMES[card] || card;
}

export function cardName(card) {
  return CARD_NAMES[cardId(card)] || String(card);
}

/**
 * What each use can spend, by the recorder's name for it: the card, the
 * character that works like it (E1–E4, or everyone's Double Detector), and the
 * mission tag that grants it every turn (M18 radar, M58 Double Detector).
 * The same list as equipment.py's Need objects; the core checks the choice.
 */
export const NEEDS = {
  double: { name: "Double Detector", character: "double_detector", missionTag: "double_detector_every_turn" },
  triple: { name: "Triple Detector", card: "3", character: "triple_detector" },
  super: { name: "Super Detector", card: "5" },
  xy: { name: "X or Y ray", card: "10", character: "xy_ray" },
  stabilizer: { name: "Stabilizer", card: "9" },
  radar: { name: "General Radar", card: "8", character: "general_radar", missionTag: "radar_each_turn" },
  label_equal: { name: "Label =", card: "12" },
  label_different: { name: "Label ≠", card: "1" },
  post_it: { name: "Post-it", card: "4" },
  single_wire_label: { name: "Single Wire Label", card: "2.2" },
  fast_pass: { name: "Fast Pass", card: "9.9" },
  disintegrator: { name: "Disintegrator", card: "10.10" },
  grappling_hook: { name: "Grappling Hook", card: "11.11" },
  walkie_talkies: { name: "Walkie-Talkies", card: "2", character: "walkie_talkies" },
};

/** Whether the table lists the cards on its board (only then is the board followed; old tables do not). */
export function boardListed(table) {
  return Array.isArray(table.equipment);
}

/** Each player's character (the table's, or the Double Detector everyone has). */
export function characterOf(table, p) {
  return (table.players[p] && table.players[p].character) || DEFAULT_CHARACTER;
}

/**
 * The ways to provide `needKey` on this table, as the `card` choices the
 * recorder offers: {card: ID}, {card: "character", user: p}, {card: "mission"}.
 * `board`: the analysis's `equipment` ({cards: [{card, state}], characters:
 * [{used}]}), or null when no analysis has come yet. `anyState`: offer every
 * card on the board and every character whatever its state (an edit: the page
 * knows the board after the last event, not before the edited one).
 * `actor`: the user when the event names one (else every player is offered).
 */
export function providers(needKey, { table, board, actor, anyState = false }) {
  const need = NEEDS[needKey];
  if (!need) return [];
  const free = anyState || !board;
  const out = [];
  const entry = need.card && boardCards(table, board).find((c) => c.card === need.card);
  if (entry && (free || entry.state === "unlocked")) out.push({ card: need.card });
  const allowed = table.meta && table.meta.equipment && Array.isArray(table.meta.equipment.characters)
    ? table.meta.equipment.characters : null; // a mission without characters (M27) lends none
  if (need.character && (!allowed || allowed.includes(need.character))) {
    const users = typeof actor === "number" ? [actor] : table.players.map((_, p) => p);
    for (const p of users) {
      const used = board && board.characters && board.characters[p] ? board.characters[p].used : false;
      if (characterOf(table, p) === need.character && (free || !used)) out.push({ card: "character", user: p });
    }
  }
  const rules = table.meta && Array.isArray(table.meta.rules) ? table.meta.rules : [];
  if (need.missionTag && rules.includes(need.missionTag)) out.push({ card: "mission" });
  return out;
}

/** Whether an `equipment` event's card (Rewinder, Coffee Mug, ...) can be played now. */
export function cardPlayable(card, { table, board, anyState = false }) {
  const entry = boardCards(table, board).find((c) => c.card === cardId(card));
  return Boolean(entry && (anyState || !board || entry.state === "unlocked"));
}

/** The cards on the board: the analysis's list (False Bottom's added cards included), else the table's. */
function boardCards(table, board) {
  return board ? board.cards : (table.equipment || []).map((entry) => ({ card: entry.card }));
}

/** `count` different cards drawn at random from `pool` (the table's "draw them for us"). */
export function drawCards(pool, count, random = Math.random) {
  const left = [...pool];
  const drawn = [];
  while (drawn.length < count && left.length) drawn.push(left.splice(Math.floor(random() * left.length), 1)[0]);
  return drawn;
}
