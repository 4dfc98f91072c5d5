// Small DOM helpers shared by the screens: element builder, bottom sheet,
// toasts, and the probability formatting every screen uses.
import { describeEvent, label, playerName, slotName, standName, valueLabel } from "./model.js";
import { has, language, t } from "./i18n.js";
import { cardName } from "./equipment.js";

/**
 * h("button.primary", {onclick, dataset: {x: 1}}, "text", child) → element.
 * The tag may carry classes after dots. null/false children are skipped.
 */
export function h(tagWithClasses, attrs = {}, ...children) {
  const [tag, ...classes] = tagWithClasses.split(".");
  const element = document.createElement(tag || "div");
  if (classes.length) element.className = classes.join(" ");
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "dataset") Object.assign(element.dataset, value);
    else if (name === "style" && typeof value === "object") {
      for (const [property, setting] of Object.entries(value)) element.style.setProperty(property, setting);
    }
    else if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className += ` ${value}`;
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

const sheet = () => document.getElementById("sheet");
const backdrop = () => document.getElementById("sheet-backdrop");

/** Show a bottom sheet (a dialog on wide screens). Returns a function that closes it. */
export function openSheet(title, ...content) {
  const close = () => {
    sheet().hidden = true;
    backdrop().hidden = true;
    sheet().replaceChildren();
  };
  sheet().replaceChildren(
    h("div.sheet-head", {}, h("h2", { id: "sheet-title" }, title), h("button.icon-button", { onclick: close, "aria-label": t("common.close"), dataset: { action: "close-sheet" } }, "✕")),
    h("div.sheet-body", {}, ...content),
  );
  sheet().hidden = false;
  backdrop().hidden = false;
  backdrop().onclick = close;
  sheet().querySelector(".sheet-head button").focus();
  return close;
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") closeSheet();
});

export function closeSheet() {
  if (!sheet().hidden) backdrop().click();
}

/** A short message at the bottom of the screen. kind: "info" | "error". */
export function toast(message, kind = "info", ms = 3500) {
  const element = h(`div.toast.${kind}`, { role: kind === "error" ? "alert" : "status" }, message);
  document.getElementById("toasts").append(element);
  setTimeout(() => element.remove(), ms);
}

/** A probability as the page shows it: "✓" when certain, else a whole percent. */
export function percent(p) {
  if (p >= 1) return "✓";
  const rounded = Math.round(p * 100);
  if (rounded >= 100) return ">99%";
  if (rounded <= 0) return "<1%";
  return `${rounded}%`;
}

/** A distribution {key: p} as [[key, p], ...], most likely first (ties: by key). */
export function ranked(distribution) {
  return Object.entries(distribution).sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0]));
}

const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

/** A count as a short figure: "812,361" up to a million, else "8.1 × 10¹⁷" (in the page's language). Accepts a Number or a BigInt. */
export function scientific(count) {
  const digits = (typeof count === "bigint" ? count : BigInt(Math.round(Number(count)))).toString();
  if (digits.length <= 6) return Number(digits).toLocaleString(language);
  const exponent = digits.length - 1;
  // Rounded down to one decimal as before, then written in the page's language ("8.1", "8,1").
  const mantissa = Number((Number(digits.slice(0, 3)) / 100).toFixed(1)).toLocaleString(language, { minimumFractionDigits: 1 });
  const power = String(exponent).split("").map((c) => SUPERSCRIPT[c]).join("");
  return `${mantissa} × 10${power}`;
}

/**
 * Why the core found a table impossible (analyze's answer with `consistent`
 * false), in the page's language: its `code` and `fields` worded from the
 * catalogue, each reason in `contradicts` named as the log names it. A code
 * this page does not know shows the core's English `error` instead.
 */
export function coreReason(result, table) {
  if (!result.code || !has(`reason.${result.code}`)) return pageMessage(result.error, table);
  const reasons = (result.contradicts || []).map((reason) => reasonWords(reason, table));
  return t(`reason.${result.code}`, { ...result.fields, what: reasons.join("; ") });
}

/**
 * A table the core refused (an error reply with `code` and `fields`: an equipment use the
 * board does not allow, a malformed event or section), in the page's language, with the event
 * at fault when there is one. The fields are values: players, stands and slots (0-based) are
 * named as the page names them, sort values as its labels, the place at fault (`path`) as
 * the file writes it. A reply without a code this page knows shows the core's English.
 */
export function tableRefusal(error, table) {
  const { code, fields = {} } = error || {};
  if (!code || !has(`reason.${code}`)) return replyWords(error, table);
  const key = code === "card_locked" && fields.unlock === "yellow" ? "reason.card_locked_yellow" : `reason.${code}`;
  const text = t(key, refusalWords(code, fields, table));
  return fields.event === null || fields.event === undefined ? text : t("reason.atEvent", { event: fields.event + 1, what: text });
}

/**
 * An engine limit (bombbuster_core/beliefs.py LIMIT_CODES: `{code, fields}`, numbers and no words)
 * in the page's language, or null for a limit this page does not know.
 */
export function limitWords(limit) {
  if (!limit || !limit.code || !has(`limit.${limit.code}`)) return null;
  const f = limit.fields || {};
  const count = (n) => (n === undefined || n === null ? n : scientific(n));
  return t(`limit.${limit.code}`, { ...f, states: count(f.states), budget: count(f.budget), limit: count(f.limit) });
}

/** An error reply of the engine (an EngineError: an engine limit's carries its code and fields) in the page's language. */
export function engineErrorWords(error, table = null) {
  return limitWords(error) || searchRefusalWords(error, table) || replyWords(error, table);
}

/**
 * An error reply the bridge itself coded (bombbuster_core/bridge.py BRIDGE_ERROR_CODES: a table nested
 * too deeply or too long, a bug caught at its boundary, whose English `detail` is kept for a report)
 * in the page's language; any other reply as the core wrote it.
 */
function replyWords(error, table) {
  const { code, fields = {} } = error || {};
  if (!code || !has(`error.${code}`)) return pageMessage(error && error.message, table);
  const count = (n) => (typeof n === "number" ? n.toLocaleString(language) : n);
  return t(`error.${code}`, { ...fields, size: count(fields.size), limit: count(fields.limit) });
}

/**
 * Why the search did not run, or why the search or lookahead refused a table
 * (bombbuster_core/sim/refusals.py SEARCH_REFUSAL_CODES: `{code, fields}`), in the page's
 * language, or null for a refusal this page does not know.
 */
export function searchRefusalWords(why, table = null) {
  if (!why || !why.code || !has(`search.refused.${why.code}`)) return null;
  const f = why.fields || {};
  return t(`search.refused.${why.code}`, {
    ...f,
    mode: f.mode === undefined ? undefined : t(`mode.${f.mode}`),
    player: f.player === undefined ? undefined : playerName(table, f.player),
    event: f.event === undefined ? undefined : f.event + 1, // events as the log numbers them
    rules: Array.isArray(f.rules) ? f.rules.join(", ") : f.rules,
  });
}

/** A refusal's fields as its catalogue entry's words (on a live table, a host's: a list or a slot is checked as one). */
function refusalWords(code, fields, table) {
  const seats = { players: (table && table.players) || [] };
  const slot = (at) => t("name.slot", { stand: standName(seats, at.player, at.stand), slot: at.slot + 1 });
  const value = (v) => (v === "red" || v === "blue" ? t(`value.${v}`) : valueLabel(v));
  const entry = (name) => (name === "character" ? t("reason.entry.character") : name === "mission" ? t("reason.entry.mission") : cardWords(name));
  const words = { ...fields };
  if (code === "card_unknown" && fields.given === null) words.given = t(`reason.card_kind.${fields.kind}`); // a JSON kind, not a text
  if (fields.card !== undefined) words.card = cardWords(fields.card);
  if (fields.entry !== undefined) words.entry = entry(fields.entry);
  if (fields.player !== undefined) words.player = playerName(seats, fields.player);
  if (fields.stand !== undefined) words.stand = fields.player === undefined ? String(fields.stand + 1) : standName(seats, fields.player, fields.stand);
  if (fields.slot && typeof fields.slot === "object") words.slot = slot(fields.slot);
  for (const name of ["key", "nearest"]) if (fields[name] !== undefined) words[name] = label(fields[name]);
  if (Array.isArray(fields.keys)) words.keys = fields.keys.map(label).join(", ");
  if (fields.value !== undefined && fields.value !== null) words.value = value(fields.value);
  if (Array.isArray(fields.called)) words.called = fields.called.map(value).join(", ");
  if (fields.colour) words.colour = value(fields.colour);
  if (Array.isArray(fields.allowed)) words.allowed = (code === "equipment_event_card" ? fields.allowed.map(cardWords) : fields.allowed).join(", ");
  for (const name of ["at", "after"]) if (fields[name] !== undefined && fields[name] !== null) words[name] = fields[name] + 1; // events
  const path = Array.isArray(fields.path) ? fields.path : [];
  // The core says when the value is a 0-based index (a player, stand or slot), shown 1-based as the page names them.
  if (code === "out_of_range" && fields.index === true) {
    for (const name of ["value", "low", "high"]) if (fields[name] !== null) words[name] = fields[name] + 1;
  }
  words.place = place(path, fields.event);
  return words;
}

/** The place a refusal names (its JSON path), as the file writes it; within an event, from the event. */
function place(path, event) {
  const within = event === null || event === undefined ? path : path.slice(2);
  if (!within.length) return t(event === null || event === undefined ? "reason.place.table" : "reason.place.event");
  return within.map((part, i) => (typeof part === "number" ? `[${part}]` : i ? `.${part}` : part)).join("");
}

/** A mission's note on the dial (gamestate.js dialNoteCode) in the page's language, or null. */
export function dialNoteWords(note) {
  if (!note) return null;
  if (note.code === "unread") return t("dial.unreadAt", { mission: note.mission, why: t(`dial.unread.m${note.mission}`) });
  return t(note.code === "start_back" ? "dial.start.back" : "dial.start.skull", { mission: note.mission });
}

/** A card as the refusals name it: its printed ID and name ("card 4 (Post-it)"). */
function cardWords(card) {
  return t("reason.card", { id: card, name: cardName(card) });
}

/** One thing an impossible event contradicts: a recorded event, one of my wires, or a wire I saw. */
export function reasonWords(reason, table) {
  if (reason.event !== undefined) {
    const event = table.events[reason.event];
    return t("reason.event", { event: reason.event + 1, what: event ? describeEvent(event, table) : reason.type });
  }
  const wire = label(reason.value);
  if (reason.host) return t("reason.host", { wire, slot: slotName(table, reason.host) }); // a live table's host's own wire
  if (reason.own) return t("reason.own", { wire, slot: slotName(table, { player: table.me.player, ...reason.own }) });
  return t("reason.seen", { wire, slot: reason.seen ? slotName(table, reason.seen) : "Nano" });
}

/**
 * An engine message with its 0-based numbers (events, players, stands,
 * slots) turned into the page's 1-based numbering; with the table, players,
 * stands and wires are named as the page names them ("Di slot 4", "Ann
 * stand 2"), not by the engine's numbers.
 */
export function pageMessage(message, table = null) {
  const one = (n) => String(Number(n) + 1);
  const text = String(message)
    .replace(/\bevent (\d+)/g, (_, n) => `event ${one(n)}`)
    .replace(/\bstand (\d+) slot (\d+)/g, (m, s, j, offset, whole) => (/player \d+ $/.test(whole.slice(0, offset)) ? m : `stand ${one(s)} slot ${one(j)}`))
    .replace(/field '(player|stand|slot|actor|a_to|b_to)'((?: field '\w+')*): (\d+) is out of range \((\d+)\.\.(\d+)\)/g,
      (_, field, rest, v, lo, hi) => `field '${field}'${rest}: ${one(v)} is out of range (${one(lo)}..${one(hi)})`);
  // One pass: a player, a stand or a wire, each named once.
  return text.replace(/\bplayer (\d+)(?: stand (\d+)(?: slot (\d+))?)?(?! is out of range)/g, (_, p, s, j) => {
    if (!table || !table.players[p]) return `player ${one(p)}${s === undefined ? "" : ` stand ${one(s)}`}${j === undefined ? "" : ` slot ${one(j)}`}`;
    if (j !== undefined) return slotName(table, { player: Number(p), stand: Number(s), slot: Number(j) });
    return s === undefined ? table.players[p].name : standName(table, Number(p), Number(s));
  });
}
