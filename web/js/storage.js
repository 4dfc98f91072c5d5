// Saved games in localStorage, table-file export/import and share URLs.
//
// A saved game is {id, name, updated, table, redo, view}: `table` is the
// format-1 table file (the whole truth), `redo` the events undone since.
// Every change is written at once, so closing the tab never loses a move.

const INDEX_KEY = "bombbuster.games";
const CURRENT_KEY = "bombbuster.current";
const gameKey = (id) => `bombbuster.game.${id}`;

function readJson(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback; // a corrupt entry must not stop the app
  }
}

export function listGames() {
  return readJson(INDEX_KEY, []).sort((a, b) => b.updated - a.updated);
}

export function loadGame(id) {
  return readJson(gameKey(id), null);
}

export function saveGame(game) {
  game.updated = Date.now();
  localStorage.setItem(gameKey(game.id), JSON.stringify(game));
  const index = readJson(INDEX_KEY, []).filter((entry) => entry.id !== game.id);
  const meta = game.table.meta || {};
  index.push({
    id: game.id, name: game.name, updated: game.updated, events: game.table.events.length,
    mission: typeof meta.mission === "number" ? meta.mission : null, missionName: meta.name || null,
    players: game.table.players.map((p) => p.name),
  });
  localStorage.setItem(INDEX_KEY, JSON.stringify(index));
  localStorage.setItem(CURRENT_KEY, game.id);
}

export function deleteGame(id) {
  localStorage.removeItem(gameKey(id));
  localStorage.setItem(INDEX_KEY, JSON.stringify(readJson(INDEX_KEY, []).filter((e) => e.id !== id)));
  if (localStorage.getItem(CURRENT_KEY) === id) localStorage.removeItem(CURRENT_KEY);
}

export function currentGameId() {
  return localStorage.getItem(CURRENT_KEY);
}

/** The game a reload (or a killed tab) reopens: the one opened last, changed or not. */
export function setCurrentGame(id) {
  localStorage.setItem(CURRENT_KEY, id);
}

export function newGame(table, name) {
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
  const fallbackName = `${table.players.map((p) => p.name).join(", ")} · ${new Date().toLocaleDateString()}`;
  return { id, name: name || fallbackName, updated: Date.now(), table, redo: [], view: "me" };
}

/** Offer the table file for download. */
export function exportTable(game) {
  const blob = new Blob([JSON.stringify(game.table, null, 1)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `${game.name.replace(/[^\w.-]+/g, "_")}.bombbuster.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Parse a table file's text; throws an Error with a readable message. */
export function parseTableText(text) {
  let table;
  try {
    table = JSON.parse(text);
  } catch (error) {
    throw new Error(`not a JSON file: ${error.message}`);
  }
  if (!table || typeof table !== "object" || !Array.isArray(table.players) || !table.wires) {
    throw new Error("not a bombbuster table file: it needs \"players\" and \"wires\"");
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
  if (!payload) throw new Error("the shared link is empty: it carries no game");
  if (!/^[\w-]+$/.test(payload)) throw new Error("the shared link is damaged (it has characters a link of this page never has)");
  let text;
  try {
    if (payload.startsWith("z")) {
      text = new TextDecoder().decode(await streamBytes(base64UrlToBytes(payload.slice(1)), new DecompressionStream("deflate-raw")));
    } else {
      text = fromBase64Url(payload);
    }
  } catch {
    throw new Error("the shared link is damaged: it was probably cut short when it was copied");
  }
  try {
    return parseTableText(text);
  } catch (error) {
    throw new Error(`the shared link is damaged (${error.message})`);
  }
}

/** Rename a saved game. */
export function renameGame(game, name) {
  game.name = name;
  saveGame(game);
}

/** A name no saved game has yet: "name", else "name (2)", "name (3)"… */
export function uniqueName(name) {
  const taken = new Set(listGames().map((entry) => entry.name));
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) if (!taken.has(`${name} (${i})`)) return `${name} (${i})`;
}
