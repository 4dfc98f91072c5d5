// Table-file (format 1) helpers for the page: building a table from the setup
// form, the rules' setup facts (stands per player, even deal), value labels and
// colours, and plain-language descriptions of events. No DOM, no engine calls.
import { cardId, cardName } from "./equipment.js";
import { t } from "./i18n.js";

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
  return value === "yellow" ? t("value.yellow") : String(value);
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

/** A player as the page names it: their name, or "Player 2" for a seat the table does not name. */
export function playerName(table, p) {
  const seat = table && table.players ? table.players[p] : undefined;
  return seat ? seat.name : t("name.player", { player: Number(p) + 1 });
}

/** A stand as the page names it: "Di", or "Ann stand 2" for a player with several stands. */
export function standName(table, player, stand) {
  const seat = table.players[player];
  if (!seat) return t("name.playerStand", { player: player + 1, stand: stand + 1 });
  return seat.stands.length > 1 ? t("name.stand", { name: seat.name, stand: stand + 1 }) : seat.name;
}

/** A wire as the page names it: "Di slot 4", "Ann stand 2 slot 1". */
export function slotName(table, at) {
  if (!at || !table.players[at.player]) return "?";
  return t("name.slot", { stand: standName(table, at.player, at.stand), slot: at.slot + 1 });
}

/** A token as the log names it: a value, a parity, a count, or none. */
export function tokenLabel(token) {
  if (token === null || token === undefined) return t("token.none");
  if (typeof token === "object") {
    if (token.parity) return t(`token.${token.parity}`);
    if (token.count !== undefined) return t("token.count", { n: token.count });
  }
  return t("token.value", { value: valueLabel(token) });
}

/** Values as alternatives: "7 or 9". */
export function valuesOr(values) {
  return values.map(valueLabel).join(t("words.or"));
}

/** Names as a list: "Ann, Bob and Cy". */
export function namesAnd(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")}${t("words.and")}${names[names.length - 1]}`;
}

const valuesText = (event) => (event.values ? valuesOr(event.values) : valueLabel(event.value));


/** One line of plain language for the event log, with the equipment it spent. */
export function describeEvent(event, table) {
  const text = describeAction(event, table);
  if (event.card === undefined || event.type === "equipment") return text;
  const spent = (Array.isArray(event.card) ? event.card : [event.card])
    .map((card) => (card === "character" ? t("spent.character") : card === "mission" ? t("spent.mission") : t("spent.card", { card })));
  return `${text} [${spent.join(" + ")}]`;
}

function describeAction(event, table) {
  const who = (p) => playerName(table, p);
  const whoStand = (p, s) => (s !== undefined ? t("name.stand", { name: who(p), stand: s + 1 }) : who(p));
  const own = (actor, slot) => slotName(table, { player: actor, ...slot });
  switch (event.type) {
    case "info_token": {
      const where = slotName(table, event.at);
      if (event.parity) return t(`log.info.${event.parity}`, { where });
      if (event.count !== undefined) return t("log.info.count", { n: event.count, where });
      if (event.false) return t("log.info.false", { value: valueLabel(event.value), where });
      return t("log.info", { value: valueLabel(event.value), where });
    }
    case "dual_cut": {
      const equipment = [event.values ? cardName("10") : null, event.stabilizer ? cardName("9") : null].filter(Boolean);
      const head = `${t("log.cut", { who: who(event.actor), values: valuesText(event), where: slotName(table, event.target) })}${equipment.length ? ` (${equipment.join(", ")})` : ""}`;
      const ownWire = own(event.actor, event.actor_slot);
      if (event.success && event.exploded) return t("log.cut.flippedExploded", { head, own: ownWire });
      if (event.success && event.cut_value !== undefined) return t("log.cut.successWas", { head, value: valueLabel(event.cut_value), own: ownWire });
      if (event.success) return t("log.cut.success", { head, own: ownWire });
      if (event.exploded) return t("log.cut.exploded", { head });
      if (event.stabilizer && (event.token === null || event.token === undefined)) return t("log.cut.failedRed", { head });
      return t("log.cut.failed", { head, token: tokenLabel(event.token) });
    }
    case "detector": {
      const head = t(`log.detector.${event.kind}`, { who: who(event.actor), values: valuesText(event), where: (event.targets || []).map((at) => slotName(table, at)).join(", ") });
      if (event.success) return t("log.detector.success", { head, where: slotName(table, event.cut), own: own(event.actor, event.actor_slot) });
      if (event.exploded) return t("log.detector.exploded", { head });
      if (event.token === null || event.token === undefined) return t(event.stabilizer ? "log.detector.failedRed" : "log.detector.failedNoToken", { head });
      return t("log.detector.failed", { head, token: tokenLabel(event.token), where: slotName(table, event.token_at) });
    }
    case "solo_cut":
      return t("log.solo", { who: who(event.actor), value: valueLabel(event.value), n: event.slots.length });
    case "reveal_red":
      return t("log.revealRed", { who: who(event.actor), wires: event.slots.map((s) => (s.value === undefined ? "?" : label(s.value))).join(", ") });
    case "radar": {
      const yes = [];
      (event.answers || []).forEach((row, p) => row.forEach((answer, s) => {
        if (answer) yes.push(table.players[p] && table.players[p].stands.length > 1 ? whoStand(p, s) : who(p));
      }));
      return t("log.radar", { card: cardName("8"), value: valueLabel(event.value), who: yes.length ? yes.join(", ") : t("words.nobody") });
    }
    case "label":
      return t("log.labelSticker", { sign: event.kind === "equal" ? "=" : "≠", where: slotName(table, event.at) });
    case "fast_pass":
      return t("log.fastPass", { who: who(event.actor), card: cardName("9.9"), value: valueLabel(event.value), wires: event.slots.map((s) => own(event.actor, s)).join(", ") });
    case "disintegrator":
      return t("log.disintegrator", { card: cardName("10.10"), value: valueLabel(event.value), n: event.slots.length });
    case "move":
      return t("log.move", { from: event.from === "nano" ? "Nano" : slotName(table, event.from), to: slotName(table, event.to) });
    case "swap":
      return t("log.swap", { card: cardName("2"), a: slotName(table, event.a), b: slotName(table, event.b), aTo: event.a_to + 1, bTo: event.b_to + 1 });
    case "absent":
      return t("log.absent", { who: whoStand(event.player, event.stand), values: event.values.map(valueLabel).join(", ") });
    case "dealt":
      return t("log.dealt", { who: whoStand(event.player, event.stand), n: event.count, value: t(`option.${event.value}`) });
    case "multi_cut":
      return t(event.success ? "log.multi.success" : event.exploded ? "log.multi.exploded" : "log.multi.failed", {
        who: who(event.actor), value: valueLabel(event.value), n: event.slots.length, tokens: (event.tokens || []).map(valueLabel).join(", ") });
    case "tripwire":
      return t(event.success ? "log.tripwire.cut" : event.exploded ? "log.tripwire.exploded" : "log.tripwire.no", {
        who: who(event.actor), where: slotName(table, event.target), token: valueLabel(event.token) });
    case "equipment": {
      const card = cardId(event.card);
      const by = typeof event.actor === "number" ? t("log.equipment.by", { who: who(event.actor), card: cardName(card) }) : t("log.equipment.used", { card: cardName(card) });
      if (card === "6") return t("log.equipment.rewinder", { by });
      if (card === "11") return t("log.equipment.next", { by, who: who(event.next) });
      if (card === "7" && Array.isArray(event.characters)) {
        return t(event.characters.length > 1 ? "log.equipment.batteries.other" : "log.equipment.batteries.one", { by, who: namesAnd(event.characters.map(who)) });
      }
      if (card === "Y" && Array.isArray(event.added)) return t("log.equipment.added", { by, cards: namesAnd(event.added.map((c) => `${c} (${cardName(c)})`)) });
      return by;
    }
    default:
      return t("log.unknown", { type: event.type });
  }
}
