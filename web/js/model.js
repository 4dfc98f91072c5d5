// Table-file (format 1) helpers for the page: building a table from the setup
// form, the rules' setup facts (stands per player, even deal), value labels and
// colours, and plain-language descriptions of events. No DOM, no engine calls.
import { cardId, cardName } from "./equipment.js";

/** Stands per player by the rules: 2 players → 2 each; 3 → captain 2; 4–5 → 1. */
export function standsPerPlayer(playerCount) {
  if (playerCount === 2) return [2, 2];
  if (playerCount === 3) return [2, 1, 1];
  return Array(playerCount).fill(1);
}

/** Deal `total` wires over `standCount` stands as evenly as possible, earlier stands first. */
export function dealSizes(total, standCount) {
  const base = Math.floor(total / standCount);
  const extra = total % standCount;
  return Array.from({ length: standCount }, (_, i) => base + (i < extra ? 1 : 0));
}

/** The number of wires the wire set puts in play. */
export function wireCount(wires) {
  if (wires.deck) return Object.values(wires.deck).reduce((sum, copies) => sum + copies, 0);
  const pools = (wires.uncertain || []).reduce((sum, pool) => sum + pool.count, 0);
  return 4 * (wires.blue || []).length + (wires.yellow || []).length + (wires.red || []).length + pools;
}

export function range(lo, hi) {
  return Array.from({ length: Math.max(0, hi - lo + 1) }, (_, i) => lo + i);
}

/** Classify a sort key: blue v, yellow n.1, red n.5. */
export function colourOf(key) {
  const k = Number(key);
  const frac = Math.round((k - Math.floor(k)) * 10);
  if (frac === 1) return "yellow";
  if (frac === 5) return "red";
  return "blue";
}

/** Short label of a sort key: "7", "Y3" (3.1), "R5" (5.5). */
export function label(key) {
  const colour = colourOf(key);
  const n = Math.floor(Number(key));
  if (colour === "yellow") return `Y${n}`;
  if (colour === "red") return `R${n}`;
  return String(n);
}

/** Label of an announced/cut gameplay value: a blue int or "yellow". */
export function valueLabel(value) {
  return value === "yellow" ? "yellow" : String(value);
}

/** Every sort key that may be in play: blue values, then yellow and red keys. */
export function possibleKeys(wires) {
  if (wires.deck) {
    const keys = Object.keys(wires.deck).map(Number).sort((a, b) => a - b);
    const of = (colour) => keys.filter((k) => colourOf(k) === colour);
    return { blue: of("blue"), yellow: of("yellow"), red: of("red") };
  }
  const pooled = (wires.uncertain || []).flatMap((pool) => pool.candidates);
  const yellow = [...(wires.yellow || []), ...pooled.filter((k) => colourOf(k) === "yellow")];
  const red = [...(wires.red || []), ...pooled.filter((k) => colourOf(k) === "red")];
  return { blue: wires.blue || [], yellow: yellow.sort((a, b) => a - b), red: red.sort((a, b) => a - b) };
}

/** Stand list in table order: [{player, stand, size, index}]. */
export function standsOf(table) {
  const stands = [];
  table.players.forEach((player, p) =>
    player.stands.forEach((size, s) => stands.push({ player: p, stand: s, size, index: stands.length })));
  return stands;
}

/** The same table without "me": what every teammate can deduce. */
export function publicView(table) {
  const { me, ...rest } = table;
  return rest;
}

/** A stand as the page names it: "Di", or "Ann stand 2" for a player with several stands. */
export function standName(table, player, stand) {
  const seat = table.players[player];
  if (!seat) return `player ${player + 1} stand ${stand + 1}`;
  return `${seat.name}${seat.stands.length > 1 ? ` stand ${stand + 1}` : ""}`;
}

/** A wire as the page names it: "Di slot 4", "Ann stand 2 slot 1". */
export function slotName(table, at) {
  if (!at || !table.players[at.player]) return "?";
  return `${standName(table, at.player, at.stand)} slot ${at.slot + 1}`;
}

/** A token as the log names it: a value, a parity, a count, or none. */
export function tokenLabel(token) {
  if (token === null || token === undefined) return "no token";
  if (typeof token === "object") {
    if (token.parity) return `${token.parity} token`;
    if (token.count !== undefined) return `×${token.count} token`;
  }
  return `token ${valueLabel(token)}`;
}

const valuesText = (event) => (event.values ? event.values.map(valueLabel).join(" or ") : valueLabel(event.value));


/** One line of plain language for the event log, with the equipment it spent. */
export function describeEvent(event, table) {
  const text = describeAction(event, table);
  if (event.card === undefined || event.type === "equipment") return text;
  const spent = (Array.isArray(event.card) ? event.card : [event.card])
    .map((card) => (card === "character" ? "a character" : card === "mission" ? "the mission's" : `card ${card}`));
  return `${text} [${spent.join(" + ")}]`;
}

function describeAction(event, table) {
  const who = (p) => (table.players[p] ? table.players[p].name : `player ${p + 1}`);
  const own = (actor, slot) => slotName(table, { player: actor, ...slot });
  switch (event.type) {
    case "info_token": {
      const where = slotName(table, event.at);
      if (event.parity) return `Info token ${event.parity} on ${where}`;
      if (event.count !== undefined) return `Info token ×${event.count} on ${where}`;
      if (event.false) return `False token ${valueLabel(event.value)} on ${where} (it is not ${valueLabel(event.value)})`;
      return `Info token ${valueLabel(event.value)} on ${where}`;
    }
    case "dual_cut": {
      const equipment = [event.values ? "X or Y ray" : null, event.stabilizer ? "Stabilizer" : null].filter(Boolean);
      const head = `${who(event.actor)} cuts ${valuesText(event)} at ${slotName(table, event.target)}${equipment.length ? ` (${equipment.join(", ")})` : ""}`;
      if (event.success && event.exploded) {
        return `${head}: it matched, but own flipped wire ${own(event.actor, event.actor_slot)} did not: the bomb exploded`;
      }
      if (event.success) {
        const value = event.cut_value !== undefined ? ` it was ${valueLabel(event.cut_value)};` : "";
        return `${head}: success,${value} own wire ${own(event.actor, event.actor_slot)}`;
      }
      if (event.exploded) return `${head}: red wire, the bomb exploded`;
      if (event.stabilizer && (event.token === null || event.token === undefined)) return `${head}: failed, no token: it is red`;
      return `${head}: failed, ${tokenLabel(event.token)}`;
    }
    case "detector": {
      const head = `${who(event.actor)}: ${event.kind} detector, ${valuesText(event)} on ${(event.targets || []).map((t) => slotName(table, t)).join(", ")}`;
      if (event.success) return `${head}: success at ${slotName(table, event.cut)}, own wire ${own(event.actor, event.actor_slot)}`;
      if (event.exploded) return `${head}: all red, the bomb exploded`;
      if (event.token === null || event.token === undefined) return `${head}: failed, no token${event.stabilizer ? ": all red" : ""}`;
      return `${head}: failed, ${tokenLabel(event.token)} on ${slotName(table, event.token_at)}`;
    }
    case "solo_cut":
      return `${who(event.actor)} solo-cuts ${valueLabel(event.value)} (${event.slots.length} wires)`;
    case "reveal_red":
      return `${who(event.actor)} reveals red: ${event.slots.map((s) => (s.value === undefined ? "?" : label(s.value))).join(", ")}`;
    case "radar": {
      const yes = [];
      (event.answers || []).forEach((row, p) => row.forEach((answer, s) => {
        if (answer) yes.push(table.players[p] && table.players[p].stands.length > 1 ? `${who(p)} stand ${s + 1}` : who(p));
      }));
      return `General Radar ${valueLabel(event.value)}: yes from ${yes.length ? yes.join(", ") : "nobody"}`;
    }
    case "label":
      return `Label ${event.kind === "equal" ? "=" : "≠"} on ${slotName(table, event.at)} and the next wire`;
    case "fast_pass":
      return `${who(event.actor)} Fast Pass ${valueLabel(event.value)}: ${event.slots.map((s) => own(event.actor, s)).join(", ")}`;
    case "disintegrator":
      return `Disintegrator ${valueLabel(event.value)}: ${event.slots.length} wire(s) cut`;
    case "move":
      return `Wire moved from ${event.from === "nano" ? "Nano" : slotName(table, event.from)} to ${slotName(table, event.to)}`;
    case "swap":
      return `Walkie-Talkies: ${slotName(table, event.a)} ⇄ ${slotName(table, event.b)} (land at ${event.a_to + 1} / ${event.b_to + 1})`;
    case "absent":
      return `${who(event.player)}${event.stand !== undefined ? ` stand ${event.stand + 1}` : ""} holds no ${event.values.map(valueLabel).join(", ")}`;
    case "dealt":
      return `${who(event.player)}${event.stand !== undefined ? ` stand ${event.stand + 1}` : ""} was dealt ${event.count} ${event.value}`;
    case "multi_cut":
      return `${who(event.actor)} special cut ${valueLabel(event.value)} on ${event.slots.length} wires: ${event.success ? "success" : event.exploded ? "failed, the bomb exploded" : `failed, tokens ${(event.tokens || []).map(valueLabel).join(", ")}`}`;
    case "tripwire":
      return `${who(event.actor)} calls the tripwire at ${slotName(table, event.target)}: ${event.success ? "cut" : event.exploded ? "red wire, the bomb exploded" : `no, token ${valueLabel(event.token)}`}`;
    case "equipment": {
      const card = cardId(event.card);
      const by = typeof event.actor === "number" ? `${who(event.actor)} uses the ${cardName(card)}` : `${cardName(card)} used`;
      if (card === "6") return `${by}: the dial moves back one space`;
      if (card === "11") return `${by}: ${who(event.next)} plays next`;
      if (card === "7" && Array.isArray(event.characters)) {
        return `${by}: the character${event.characters.length > 1 ? "s" : ""} of ${event.characters.map(who).join(" and ")} can be used again`;
      }
      if (card === "Y" && Array.isArray(event.added)) return `${by}: cards ${event.added.map((c) => `${c} (${cardName(c)})`).join(" and ")} join the board`;
      return by;
    }
    default:
      return `${event.type} event`;
  }
}
