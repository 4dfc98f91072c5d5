// Saved games in IndexedDB, table-file export/import and share URLs.
//
// A saved game is {id, name, updated, table, view, past, future}: `table` is
// the format-1 table file (the whole truth); `past` and `future` the undo and
// redo history, each step {table, label} in memory. On disk a step keeps only
// what differs from the table next to it (a patch of the events: an undone
// record is the table with one event fewer), so a saved game grows with its
// events, not with its history; the tables are rebuilt when the game is read.
//
// Every change is written at once. A write that fails (the device's storage
// full) rejects saveGame's promise: the caller says so, and the game stays
// whole in memory (loadGame returns the game as it is in memory, saved or
// not). What cannot be read is never fatal: openStorage returns a problem per
// unreadable entry, and keeps everything else. Every message is the page's
// language's (the catalogue's saved.* keys).

import { t } from "./i18n.js";

const DB_NAME = "bombbuster";
const DB_VERSION = 1;
const GAMES = "games"; // record per game, keyed by id
const SETTINGS = "settings"; // "current": the game a reload reopens
/** Undo steps kept per game. */
export const HISTORY_STEPS = 60;

// Where pages before IndexedDB kept the games (moved once, then removed).
const OLD_INDEX_KEY = "bombbuster.games";
const OLD_CURRENT_KEY = "bombbuster.current";
const OLD_GAME_PREFIX = "bombbuster.game.";

let database = null; // Promise<IDBDatabase>
const stored = new Map(); // id → record as read from disk, decoded when the game is first opened
const opened = new Map(); // id → the game object handed out (the live one: saved or not)
const summaries = new Map(); // id → what the games list shows
let current = null;

// ------------------------------------------------------------ reading what was saved

/** Why `table` cannot be a table file's content, or null when its shape is one. */
export function tableProblem(table) {
  if (!table || typeof table !== "object" || Array.isArray(table)) return t("saved.table.notTable");
  if (!Array.isArray(table.players) || !table.players.length
      || table.players.some((player) => !player || typeof player.name !== "string" || !Array.isArray(player.stands))) {
    return t("saved.table.players");
  }
  if (!table.wires || typeof table.wires !== "object") return t("saved.table.wires");
  if (!Array.isArray(table.events) || table.events.some((event) => !event || typeof event !== "object" || typeof event.type !== "string")) {
    return t("saved.table.events");
  }
  if (table.me !== undefined && (!table.me || typeof table.me !== "object")) return t("saved.table.me");
  return null;
}

const sameValue = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * What turns table `from` into table `to`: the events from `at` on, `remove`
 * of them replaced by `insert` (the common head and tail are not kept), and
 * the other top-level fields that changed (`set`, `unset`).
 */
export function tablePatch(from, to) {
  const a = from.events;
  const b = to.events;
  let at = 0;
  while (at < a.length && at < b.length && sameValue(a[at], b[at])) at++;
  let endA = a.length;
  let endB = b.length;
  while (endA > at && endB > at && sameValue(a[endA - 1], b[endB - 1])) { endA--; endB--; }
  const patch = { at, remove: endA - at, insert: b.slice(at, endB) };
  const set = {};
  const unset = [];
  for (const key of new Set([...Object.keys(from), ...Object.keys(to)])) {
    if (key === "events") continue;
    if (!(key in to)) unset.push(key);
    else if (!sameValue(from[key], to[key])) set[key] = to[key];
  }
  if (Object.keys(set).length) patch.set = set;
  if (unset.length) patch.unset = unset;
  return patch;
}

/** `table` with `patch` applied; throws an Error when the patch does not fit it. */
export function applyPatch(table, patch) {
  const events = table.events;
  if (!patch || typeof patch !== "object" || !Number.isInteger(patch.at) || !Number.isInteger(patch.remove)
      || patch.at < 0 || patch.remove < 0 || patch.at + patch.remove > events.length || !Array.isArray(patch.insert)) {
    throw new Error(t("saved.step.misfit"));
  }
  const next = { ...table, ...(patch.set && typeof patch.set === "object" ? patch.set : {}) };
  for (const key of Array.isArray(patch.unset) ? patch.unset : []) delete next[key];
  next.events = [...events.slice(0, patch.at), ...patch.insert, ...events.slice(patch.at + patch.remove)];
  return next;
}

/** The steps of a history as patches, each from the table nearer the current one (the first from `table`). */
function encodeSteps(table, steps) {
  let from = table;
  return steps.map(({ table: to, label }) => {
    const step = { label, patch: tablePatch(from, to) };
    from = to;
    return step;
  });
}

function decodeSteps(table, steps) {
  if (!Array.isArray(steps)) throw new Error(t("saved.step.notList"));
  let from = table;
  return steps.map((step) => {
    const to = applyPatch(from, step && step.patch);
    const problem = tableProblem(to);
    if (problem) throw new Error(t("saved.step.table", { problem }));
    from = to;
    return { table: to, label: typeof step.label === "string" ? step.label : t("history.change") };
  });
}

/** The record written to disk: the table whole, the history as patches (nearest step first). */
function encodeGame(game) {
  const { past = [], future = [], ...rest } = game;
  return { ...rest, format: 2, past: encodeSteps(game.table, [...past].reverse()), future: encodeSteps(game.table, [...future].reverse()) };
}

/**
 * The game a record holds: {game, problem}, game null when the record cannot
 * be a game; a history that cannot be read is dropped and named in `problem`.
 * Reads the records of every page so far: format 2 (patches), whole earlier
 * tables (past/future), or a list of undone events (redo).
 */
function decodeGame(record) {
  if (!record || typeof record !== "object" || typeof record.id !== "string" || !record.id) return { game: null, problem: t("saved.record.notGame") };
  const problem = tableProblem(record.table);
  if (problem) return { game: null, problem: t("saved.record.table", { problem }) };
  const { format, past, future, redo, redoSeen, ...rest } = record;
  const game = { ...rest, name: typeof rest.name === "string" && rest.name ? rest.name : t("saved.unnamed"), view: rest.view === "public" ? "public" : "me" };
  if (typeof game.updated !== "number") game.updated = 0;
  try {
    if (format === 2) {
      game.past = decodeSteps(game.table, past).reverse();
      game.future = decodeSteps(game.table, future).reverse();
    } else if (Array.isArray(past) || Array.isArray(future)) {
      const whole = (steps) => (steps || []).map((step) => {
        const reason = tableProblem(step && step.table);
        if (reason) throw new Error(t("saved.step.wholeTable", { problem: reason }));
        return { table: step.table, label: typeof step.label === "string" ? step.label : t("history.change") };
      });
      game.past = whole(past).slice(-HISTORY_STEPS);
      game.future = whole(future);
    } else {
      game.past = [];
      game.future = undoneEvents(game.table, redo || [], redoSeen || []);
    }
  } catch (error) {
    game.past = [];
    game.future = [];
    return { game, problem: t("saved.record.history", { reason: error.message }) };
  }
  return { game, problem: null };
}

/** Pages before the history kept the undone events (and my sightings with them): as redo steps. */
function undoneEvents(table, redo, redoSeen) {
  if (!Array.isArray(redo) || redo.some((event) => !event || typeof event !== "object")) throw new Error(t("saved.step.undone"));
  const later = [];
  let next = table;
  for (let i = redo.length - 1; i >= 0; i--) {
    const seen = Array.isArray(redoSeen) && redoSeen.length === redo.length ? redoSeen[i] || [] : [];
    next = { ...next, events: [...next.events, redo[i]] };
    if (next.me && seen.length) next.me = { ...next.me, seen: [...(next.me.seen || []), ...seen] };
    later.push({ table: next, label: "Record" });
  }
  return later.reverse();
}

function summaryOf(game) {
  const meta = game.table.meta && typeof game.table.meta === "object" ? game.table.meta : {};
  return {
    id: game.id, name: game.name, updated: game.updated, events: game.table.events.length,
    mission: typeof meta.mission === "number" ? meta.mission : null, missionName: typeof meta.name === "string" ? meta.name : null,
    players: game.table.players.map((p) => p.name),
  };
}

// ------------------------------------------------------------ IndexedDB

/** Hand a read's result to `use` (a failed read aborts its transaction, which says why). */
function read(request, use) {
  request.onsuccess = () => use(request.result);
}

function openDatabase() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(GAMES)) db.createObjectStore(GAMES, { keyPath: "id" });
      if (!db.objectStoreNames.contains(SETTINGS)) db.createObjectStore(SETTINGS);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error(t("saved.error.blocked")));
  });
}

/** Run `work(stores)` in one transaction; resolves when it is on disk, rejects with why it is not. */
async function transaction(mode, work) {
  const db = await database;
  return new Promise((resolve, reject) => {
    let tx;
    try {
      tx = db.transaction([GAMES, SETTINGS], mode);
      tx.oncomplete = () => resolve();
      tx.onabort = () => reject(tx.error || new Error(t("saved.error.abandoned")));
      work({ games: tx.objectStore(GAMES), settings: tx.objectStore(SETTINGS) });
    } catch (error) {
      try { tx && tx.abort(); } catch { /* already finished */ }
      reject(error);
    }
  });
}

/** A storage error in the player's words. */
export function storageErrorText(error) {
  if (error && error.name === "QuotaExceededError") return t("saved.error.full");
  return (error && error.message) || String(error);
}

// ------------------------------------------------------------ opening

/** One saved entry that cannot be read: what it is, why, its raw text, and how to remove it. */
function problem(what, reason, raw = null, remove = null) {
  return { what, reason, raw, remove };
}

/**
 * Open the saved games (once, before anything else): IndexedDB, the games
 * older pages kept in localStorage moved there. Never throws: resolves with
 * the problems met (unreadable entries, a storage that cannot be opened).
 */
export async function openStorage() {
  const problems = [];
  database = openDatabase();
  let records = [];
  try {
    await transaction("readonly", ({ games, settings }) => {
      read(games.getAll(), (all) => { records = all; });
      read(settings.get("current"), (id) => { current = typeof id === "string" ? id : null; });
    });
  } catch (error) {
    problems.push(problem(t("saved.what.all"), t("saved.why.cannotOpen", { reason: storageErrorText(error) })));
  }
  for (const record of records) {
    const id = record && typeof record.id === "string" ? record.id : null;
    const { game, problem: reason } = decodeGame(record);
    if (!game) {
      const name = record && typeof record.name === "string" ? t("saved.what.name", { name: record.name }) : "";
      problems.push(problem(t("saved.what.record", { which: `${id ? ` (${id})` : ""}${name ? ` ${name}` : ""}` }),
        t("saved.why.unreadable", { reason }), JSON.stringify(record), () => transaction("readwrite", ({ games }) => games.delete(record.id))));
      continue;
    }
    stored.set(game.id, record);
    summaries.set(game.id, summaryOf(game));
    if (reason) {
      opened.set(game.id, game);
      problems.push(problem(t("saved.what.game", { name: game.name }), reason));
    }
  }
  await moveOldGames(problems);
  return problems;
}

/** The games pages before IndexedDB kept in localStorage: moved over, then removed there; unreadable ones stay. */
async function moveOldGames(problems) {
  let keys;
  try {
    keys = Object.keys(localStorage).filter((key) => key === OLD_INDEX_KEY || key === OLD_CURRENT_KEY || key.startsWith(OLD_GAME_PREFIX));
  } catch {
    return; // no localStorage on this device: nothing to move
  }
  if (!keys.length) return;
  const text = (key) => localStorage.getItem(key);
  const index = text(OLD_INDEX_KEY);
  if (index !== null) {
    let list = null;
    try { list = JSON.parse(index); } catch { /* named below */ }
    if (!Array.isArray(list)) {
      problems.push(problem(t("saved.what.oldList"), t("saved.why.oldListNotList")));
    } else if (list.some((entry) => !entry || typeof entry !== "object")) {
      problems.push(problem(t("saved.what.oldList"), t("saved.why.oldListEntries")));
    }
  }
  const oldCurrent = text(OLD_CURRENT_KEY);
  const moving = [];
  for (const key of keys.filter((k) => k.startsWith(OLD_GAME_PREFIX))) {
    const raw = text(key);
    let record;
    try {
      record = JSON.parse(raw);
    } catch {
      problems.push(problem(t("saved.what.oldEntry", { key }), t("saved.why.notJson"), raw, async () => localStorage.removeItem(key)));
      continue;
    }
    const { game, problem: reason } = decodeGame(record);
    if (!game || summaries.has(game.id)) {
      if (!game) problems.push(problem(t("saved.what.oldEntry", { key }), t("saved.why.unreadable", { reason }), raw, async () => localStorage.removeItem(key)));
      else localStorage.removeItem(key); // moved before, the removal was cut short
      continue;
    }
    if (reason) problems.push(problem(t("saved.what.game", { name: game.name }), reason));
    moving.push({ key, game });
    opened.set(game.id, game);
    summaries.set(game.id, summaryOf(game));
  }
  if (!current && oldCurrent && summaries.has(oldCurrent)) current = oldCurrent;
  try {
    await transaction("readwrite", ({ games, settings }) => {
      for (const { game } of moving) games.put(encodeGame(game));
      if (current) settings.put(current, "current");
    });
  } catch (error) {
    problems.push(problem(t("saved.what.oldGames"), t("saved.why.notMoved", { reason: storageErrorText(error) })));
    return;
  }
  for (const { key } of moving) localStorage.removeItem(key);
  localStorage.removeItem(OLD_INDEX_KEY);
  localStorage.removeItem(OLD_CURRENT_KEY);
}

// ------------------------------------------------------------ the games

export function listGames() {
  return [...summaries.values()].sort((a, b) => b.updated - a.updated);
}

/**
 * The saved game `id`, as it is in memory (every change this tab made, saved
 * or not); null when there is none. Throws an Error saying why when its
 * record cannot be read.
 */
export function loadGame(id) {
  if (opened.has(id)) return opened.get(id);
  if (!stored.has(id)) return null;
  const { game, problem: reason } = decodeGame(stored.get(id));
  if (!game) throw new Error(t("saved.error.unreadable", { reason }));
  opened.set(id, game);
  return game;
}

/** Write `game` (it becomes the current one); resolves once it is on disk, rejects with an Error in words. */
export async function saveGame(game) {
  game.updated = Date.now();
  opened.set(game.id, game);
  summaries.set(game.id, summaryOf(game));
  current = game.id;
  let record;
  try {
    record = encodeGame(game);
    await transaction("readwrite", ({ games, settings }) => {
      games.put(record);
      settings.put(game.id, "current");
    });
  } catch (error) {
    throw new Error(storageErrorText(error));
  }
  stored.set(game.id, record);
}

export async function deleteGame(id) {
  opened.delete(id);
  summaries.delete(id);
  stored.delete(id);
  if (current === id) current = null;
  await transaction("readwrite", ({ games, settings }) => {
    games.delete(id);
    if (current === null) settings.delete("current");
  });
}

export function currentGameId() {
  return current;
}

/** The game a reload (or a killed tab) reopens: the one opened last, changed or not. */
export async function setCurrentGame(id) {
  current = id;
  await transaction("readwrite", ({ settings }) => settings.put(id, "current"));
}

/** The record on disk for `id` as it was written (for tests and diagnosis), or null. */
export async function storedRecord(id) {
  let record = null;
  await transaction("readonly", ({ games }) => read(games.get(id), (found) => { record = found ?? null; }));
  return record;
}

/** The game on disk for `id`, read afresh (not the copy in memory), or null. */
export async function storedGame(id) {
  const record = await storedRecord(id);
  return record ? decodeGame(record).game : null;
}

export function newGame(table, name) {
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
  const fallbackName = `${table.players.map((p) => p.name).join(", ")} · ${new Date().toLocaleDateString()}`;
  return { id, name: name || fallbackName, updated: Date.now(), table, past: [], future: [], view: "me" };
}

/** Offer a file for download. */
export function downloadText(text, fileName) {
  const blob = new Blob([text], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Offer the table file for download. */
export function exportTable(game) {
  downloadText(JSON.stringify(game.table, null, 1), `${game.name.replace(/[^\w.-]+/g, "_")}.bombbuster.json`);
}

/** Parse a table file's text; throws an Error with a readable message. */
export function parseTableText(text) {
  let table;
  try {
    table = JSON.parse(text);
  } catch (error) {
    throw new Error(t("saved.file.notJson", { reason: error.message }));
  }
  if (!table || typeof table !== "object" || !Array.isArray(table.players) || !table.wires) {
    throw new Error(t("saved.file.notTable"));
  }
  if (!Array.isArray(table.events)) table.events = [];
  return table;
}

function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(encoded) {
  const binary = atob(encoded.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

async function streamBytes(bytes, transform) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The most a share link's table may inflate to: a whole played game's table is a small part of it. */
export const SHARED_TABLE_LIMIT = 4 * 1024 * 1024;
// Compressed bytes handed to the inflater at a time: deflate inflates one byte
// to at most about 1,032, so the output in flight stays near a megabyte.
const INFLATE_STEP = 1024;

/** A link whose table is larger than SHARED_TABLE_LIMIT: refused before it is inflated whole. */
class TooLargeError extends Error {}

/**
 * Inflate raw-deflate `bytes`, fed a step at a time while the output is read,
 * and stop as soon as the output passes `limit` (TooLargeError): a small link
 * may inflate to gigabytes.
 */
async function inflateWithin(bytes, limit) {
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const feeding = (async () => {
    for (let at = 0; at < bytes.length; at += INFLATE_STEP) await writer.write(bytes.subarray(at, at + INFLATE_STEP));
    await writer.close();
  })();
  feeding.catch(() => {}); // its failure is the reader's too (a damaged stream), or the reader stopped it
  const chunks = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new TooLargeError(t("saved.link.tooLarge", { mb: limit / (1024 * 1024) }));
    }
    chunks.push(value);
  }
  await feeding;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

function bytesToBase64Url(bytes) {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function base64UrlToBytes(encoded) {
  return Uint8Array.from(atob(encoded.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
}

/** The PUBLIC table: no `me` (my wires, what I have seen), and meta without the long notes. */
export function publicTable(table) {
  const { me, ...rest } = table;
  if (rest.meta && typeof rest.meta === "object") {
    const { source, notes, summary, ...meta } = rest.meta;
    rest.meta = meta;
  }
  return rest;
}

/**
 * A URL that opens this table on another device: `#game=z<base64url of the
 * deflated JSON>` (short enough for a QR code); tables from older links,
 * `#game=<base64url of the JSON>`, still open.
 */
export async function shareUrl(table) {
  const json = new TextEncoder().encode(JSON.stringify(table));
  const packed = await streamBytes(json, new CompressionStream("deflate-raw"));
  const url = new URL(location.href);
  url.search = "";
  url.hash = `game=z${bytesToBase64Url(packed)}`;
  return url.href;
}

/**
 * The table carried by a share URL's hash; null when the hash is no share
 * link. Throws an Error saying what is wrong for an empty or damaged link.
 */
export async function tableFromHash(hash) {
  if (!hash.startsWith("#game=")) return null;
  const payload = hash.slice("#game=".length);
  if (!payload) throw new Error(t("saved.link.empty"));
  if (!/^[\w-]+$/.test(payload)) throw new Error(t("saved.link.characters"));
  let text;
  try {
    if (payload.startsWith("z")) {
      text = new TextDecoder().decode(await inflateWithin(base64UrlToBytes(payload.slice(1)), SHARED_TABLE_LIMIT));
    } else {
      text = fromBase64Url(payload);
    }
  } catch (error) {
    if (error instanceof TooLargeError) throw error;
    throw new Error(t("saved.link.cutShort"));
  }
  try {
    return parseTableText(text);
  } catch (error) {
    throw new Error(t("saved.link.damaged", { reason: error.message }));
  }
}

/** A name no saved game has yet: "name", else "name (2)", "name (3)"… */
export function uniqueName(name) {
  const taken = new Set(listGames().map((entry) => entry.name));
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) if (!taken.has(`${name} (${i})`)) return `${name} (${i})`;
}
