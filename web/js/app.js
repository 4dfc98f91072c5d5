// Entry point: starts the worker pool and the scripting API, registers the
// service worker, and switches between the screens (saved games, new game,
// table). Share links (#game=…) are imported as a new saved game. The page
// always starts: saved entries it cannot read are named in a notice (and
// kept until removed there), and a game that cannot be saved says so on
// screen, with an export, while it stays open.
import { EnginePool, installScriptingApi } from "./engine.js";
import { GameScreen } from "./game.js";
import { renderSetup } from "./setup.js";
import { h, openSheet, closeSheet, toast, pageMessage } from "./ui.js";
import * as storage from "./storage.js";
import { encodeQr, qrSvg } from "./qr.js";
import { colourOf, label, possibleKeys } from "./model.js";
import { standSize, specialSlots } from "./layout.js";
import { helpCard, showHelp, showAbout } from "./help.js";
import { showReview } from "./review.js";
import { initLive, liveChanged, liveHooks, liveMenuItems, liveShown } from "./live/session.js";

const screenRoot = document.getElementById("screen");
const statusBox = document.getElementById("engine-status");
const viewToggle = document.getElementById("view-toggle");
let gameScreen = null;

// ------------------------------------------------------------ engine

const STAGE_PROGRESS = { runtime: 0.2, install: 0.75 };
const loadStarted = performance.now();

function showEngineStatus({ state, stage, detail, timings }) {
  const text = statusBox.querySelector(".engine-text");
  const fill = statusBox.querySelector(".engine-bar-fill");
  statusBox.dataset.state = state;
  if (state === "loading") {
    text.textContent = `${detail}…`;
    fill.style.width = `${(STAGE_PROGRESS[stage] || 0.1) * 100}%`;
  } else if (state === "ready") {
    fill.style.width = "100%";
    text.textContent = `Engine ready in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`;
    statusBox.dataset.timings = JSON.stringify(timings);
    setTimeout(() => statusBox.classList.add("done"), 1200);
  } else if (state === "failed") {
    text.textContent = `The engine could not start: ${detail}`;
  }
}

const params = new URLSearchParams(location.search);
const pool = new EnginePool({
  size: params.has("workers") ? Number(params.get("workers")) : undefined,
  installer: params.get("installer") || undefined,
  onStatus: showEngineStatus,
});
const engine = installScriptingApi(pool);
const ENGINE_KEY = "bombbuster.engine";
engine.setEngine(setting(ENGINE_KEY) || "columns");

/** A small setting kept in localStorage: unreadable or unwritable (storage full, blocked) is no error. */
function setting(key, value = undefined) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    localStorage.setItem(key, value);
  } catch {
    return null; // only a preference: the default is used
  }
  return value;
}

// ------------------------------------------------------------ saving, and what could not be read

const unsaved = new Map(); // game id → why its last change is not on disk

/** Save `game`; when that fails, say so on screen until a later save of it succeeds. */
function persist(game) {
  liveChanged(game); // the other phones of a live table hear of it at once
  return storage.saveGame(game).then(() => {
    if (unsaved.delete(game.id)) toast(`"${game.name}" is saved again.`);
    showSaveProblem();
  }, (error) => {
    unsaved.set(game.id, error.message);
    showSaveProblem();
  });
}

/** The notice above the screen while the open game's last change could not be saved. */
function showSaveProblem() {
  document.getElementById("save-problem")?.remove();
  const game = gameScreen && gameScreen.game;
  const reason = game && unsaved.get(game.id);
  if (!reason) return;
  screenRoot.before(h("section.storage-notice.bad", { id: "save-problem", role: "alert" },
    h("b", {}, "This game could not be saved on this device"),
    h("p", {}, `Why: ${reason}. The game stays open here with every event recorded, but closing or reloading the page `
      + "would lose what was not saved. Export the table file to keep it; each change tries to save again."),
    h("div.actions", {},
      h("button.primary", { dataset: { action: "export-unsaved" }, onclick: () => exportGame(game) }, "Export this game"),
      h("button.secondary", { dataset: { action: "save-again" }, onclick: () => persist(game) }, "Try to save again"))));
}

/** The notice of saved entries that could not be read: each can be downloaded as it was, or removed. */
function showStorageProblems(problems) {
  document.getElementById("storage-problems")?.remove();
  if (!problems.length) return;
  const notice = h("section.storage-notice", { id: "storage-problems", role: "alert" },
    h("b", {}, problems.length === 1 ? "Something saved on this device could not be read" : `${problems.length} things saved on this device could not be read`),
    h("ul.storage-problems", {}, problems.map((problem, i) => h("li", { dataset: { problem: String(i) } },
      `${problem.what} ${problem.reason}.`,
      problem.raw === null ? null : h("button.link", {
        dataset: { action: "download-unreadable" }, onclick: () => storage.downloadText(problem.raw, `unreadable-saved-entry-${i + 1}.json`),
      }, "Download it as it is"),
      problem.remove ? h("button.link", {
        dataset: { action: "remove-unreadable" },
        onclick: async () => {
          try {
            await problem.remove();
          } catch (error) {
            return toast(`It could not be removed: ${storage.storageErrorText(error)}`, "error");
          }
          showStorageProblems(problems.filter((other) => other !== problem));
        },
      }, "Remove it") : null))),
    h("p.hint", {}, "Everything else was kept."),
    h("button.secondary", { dataset: { action: "close-problems" }, onclick: () => notice.remove() }, "Close"));
  screenRoot.before(notice);
}

// ------------------------------------------------------------ screens

/** Open a game; one that cannot be drawn is named, the setup shown instead (the game stays saved). */
function showGame(game) {
  closeSheet();
  try {
    gameScreen = new GameScreen(screenRoot, { engine, game, onSave: persist, onJoin: joinSeat, live: liveHooks(game) });
  } catch (error) {
    gameScreen = null;
    showSetup();
    toast(`The game "${game.name}" cannot be shown: ${error.message}. It stays saved: export it from the list of games.`, "error", 10000);
    return;
  }
  storage.setCurrentGame(game.id).catch(() => {}); // only which game a reload opens: a failing write is shown by the next save
  document.getElementById("title").textContent = game.name;
  viewToggle.hidden = !game.table.me;
  syncViewToggle();
  showSaveProblem();
  // A received table asks for my seat first: the first-use help does not sit above that question.
  if (game.joinPending) document.querySelector(".help-card")?.remove();
  liveShown(game);
  window.scrollTo(0, 0);
}

/** Open the saved game `id`; one that cannot be read is named. */
function openSaved(id) {
  let game;
  try {
    game = storage.loadGame(id);
  } catch (error) {
    toast(`This game cannot be opened: ${error.message}.`, "error", 10000);
    return false;
  }
  if (!game) return false;
  showGame(game);
  return true;
}

function syncViewToggle() {
  for (const button of viewToggle.querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(gameScreen && gameScreen.view() === button.dataset.view));
  }
}

viewToggle.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button || !gameScreen) return;
  gameScreen.setView(button.dataset.view);
  syncViewToggle();
});

function showSetup() {
  closeSheet();
  gameScreen = null;
  liveShown(null);
  showSaveProblem();
  viewToggle.hidden = true;
  document.getElementById("title").textContent = "New game";
  const hasGames = storage.listGames().length > 0;
  renderSetup(screenRoot, {
    onStart: (table) => startGame(storage.newGame(table, defaultName(table))),
    onCancel: hasGames ? () => openCurrentOrSetup() : null,
    engine,
  });
  // First visit: the 3-screen help above the form (outside the screen, which the setup form redraws).
  if (!setting("bombbuster.helpSeen") && !document.querySelector(".help-card")) {
    screenRoot.before(helpCard(() => setting("bombbuster.helpSeen", "1")));
  }
  window.scrollTo(0, 0);
}

/** Check a new table with the engine, then save and open it. */
async function startGame(game) {
  try {
    const result = await engine.analyze(game.table);
    // In the engine's numbers: the message is put in the page's words once, below.
    if (!result.consistent) throw new Error(`${result.error}${result.event === null || result.event === undefined ? "" : ` (event ${result.event})`}`);
  } catch (error) {
    toast(`This table cannot be used: ${pageMessage(error.message, game.table)}`, "error", 8000);
    return false;
  }
  persist(game);
  showGame(game);
  return true;
}

function openCurrentOrSetup() {
  const id = storage.currentGameId();
  if (!id || !openSaved(id)) showSetup();
}

// ------------------------------------------------------------ menu

/** A game's default name: the mission (or "Free setup"), the players and the date. */
function defaultName(table) {
  const meta = table.meta || {};
  const what = typeof meta.mission === "number" ? `Mission ${meta.mission}` : "Game";
  return storage.uniqueName(`${what} · ${table.players.map((p) => p.name).join(", ")} · ${new Date().toLocaleDateString()}`);
}

function ago(time) {
  const minutes = Math.round((Date.now() - time) / 60000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return new Date(time).toLocaleDateString();
}

function showMenu() {
  const games = storage.listGames();
  const current = gameScreen && gameScreen.game;
  const item = (text, action, onclick, extra = "") => h(`button.menu-item${extra}`, { dataset: { action }, onclick }, text);
  openSheet("Games",
    h("div.menu", {},
      current ? item("Share with the table (link and QR code)", "share", () => shareWithTable(current)) : null,
      item("New game", "new", showSetup),
      current ? item("Rename this game", "rename", () => renameCurrent(current)) : null,
      item("Import a table file", "import", () => document.getElementById("import-file").click()),
      current ? item(current.table.me ? "Export this table file…" : "Export this table file", "export", () => exportGame(current)) : null,
      item(`Deduction engine: ${engine.engine()}`, "engine", chooseEngine),
      ...liveMenuItems(current, item),
      current ? item("Review this game", "review", () => showReview(pool, current)) : null,
      item("Help: how to use the page", "help", showHelp),
      item("About the numbers", "about", showAbout),
      current ? item("Delete this game", "delete-game", () => {
        if (!confirm(`Delete "${current.name}"?`)) return;
        storage.deleteGame(current.id).catch((error) => toast(`The game could not be deleted: ${storage.storageErrorText(error)}`, "error", 8000));
        openCurrentOrSetup();
      }, ".danger") : null),
    h("h3", {}, "Saved games"),
    games.length ? h("ul.saved-games", {}, games.map((entry) => h("li", {},
      h("button.menu-item", {
        dataset: { game: entry.id }, "aria-current": current && current.id === entry.id ? "true" : null,
        onclick: () => openSaved(entry.id),
      }, h("span.game-name", {}, entry.name),
      h("span.hint.game-facts", {}, [
        entry.mission ? `Mission ${entry.mission}${entry.missionName ? ` ${entry.missionName}` : ""}` : "Free setup",
        entry.players ? `${entry.players.length} players: ${entry.players.join(", ")}` : null,
        `${entry.events} events`, `changed ${ago(entry.updated)}`,
      ].filter(Boolean).join(" · "))))))
      : h("p.hint", {}, "No saved games yet."),
    h("p.hint.about", {}, "Works offline once loaded. Games are saved on this device after every event."));
}

/** The engine setting: both give the same exact numbers; signatures fans its blocks out to the workers. */
function chooseEngine() {
  const pick = (name) => {
    setting(ENGINE_KEY, name);
    engine.setEngine(name);
    closeSheet();
    toast(`Engine: ${name}.`);
  };
  const option = (name, text) => h("button.menu-item", {
    dataset: { engine: name }, "aria-pressed": String(engine.engine() === name), onclick: () => pick(name),
  }, text);
  openSheet("Deduction engine",
    h("p", {}, "Both engines compute the same exact probabilities; they differ in speed."),
    h("div.menu", {},
      option("columns", "Columns (default): fastest on most tables"),
      option("signatures", "Signatures: per-stand blocks on all workers, kept in memory; where it cannot take a table (too large, moved wires, labels), columns answers")));
}

function renameCurrent(game) {
  const input = h("input", { id: "rename-input", type: "text", value: game.name, "aria-label": "game name", maxlength: "80" });
  const save = () => {
    const name = input.value.trim();
    if (!name) return toast("A game needs a name.", "error");
    game.name = name;
    persist(game);
    document.getElementById("title").textContent = name;
    closeSheet();
    toast("Renamed.");
  };
  input.addEventListener("keydown", (event) => { if (event.key === "Enter") save(); });
  openSheet("Rename this game", h("label.name-field", {}, "Name", input),
    h("div.actions", {}, h("button.primary", { dataset: { action: "save-name" }, onclick: save }, "Save")));
  input.focus();
  input.select();
}

/** Export: a table with my wires asks first (it reveals my hand), and offers the public table instead. */
function exportGame(game) {
  if (!game.table.me) return storage.exportTable(game);
  openSheet("Export this table file",
    h("p", {}, "This file can hold your hidden wires. Anyone who opens it sees your whole hand."),
    h("div.menu", {},
      h("button.menu-item", { dataset: { action: "export-public" }, onclick: () => { storage.exportTable({ ...game, table: storage.publicTable(game.table) }); closeSheet(); } },
        "Public table only (no wires of mine)"),
      h("button.menu-item.danger", { dataset: { action: "export-with-wires" }, onclick: () => storage.exportTable(game) },
        "With my wires (keep it to myself)")));
}

/** The public table as a link and a QR code drawn on the page (no network needed). */
async function shareWithTable(game) {
  const table = storage.publicTable(game.table);
  const url = await storage.shareUrl(table);
  let code = null;
  try {
    code = encodeQr(url);
  } catch {
    code = null;
  }
  const box = h("div.qr-box", { id: "share-qr", dataset: code ? { version: String(code.version), ecl: code.ecl, mask: String(code.mask), size: String(code.size) } : {} });
  if (code) box.innerHTML = qrSvg(code, { title: "QR code of the public table" });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast("Link copied.");
    } catch {
      toast("Copy the link from the box.");
    }
  };
  openSheet("Share with the table",
    h("p", {}, "A teammate scans this code (or opens the link) to follow the same game. ",
      h("b", {}, "It holds the public table only: not your wires."), " They pick their seat and enter their own wires."),
    code ? box : h("p.warn", {}, "The table is too long for a QR code: share the link instead."),
    h("textarea.share-url", { readonly: true, rows: "3", "aria-label": "share link" }, url),
    h("div.actions", {},
      navigator.share ? h("button.secondary", { onclick: () => navigator.share({ title: game.name, url }).catch(() => {}) }, "Send…") : null,
      h("button.primary", { dataset: { action: "copy-link" }, onclick: copy }, "Copy link")),
    h("p.hint", {}, "Later events: share again, and the receiver updates their copy (their wires stay)."));
}

/** A received table: my seat (then my wires), or just watch. */
function joinSeat(game, seat) {
  if (seat === null) {
    delete game.joinPending;
    persist(game);
    return showGame(game);
  }
  const player = game.table.players[seat];
  const specs = player.stands;
  if (specs.some((spec) => specialSlots(spec).some(Boolean))) {
    toast("This seat has X or flipped wires: enter them from New game (Free setup). Showing the public view.", "error", 8000);
    return;
  }
  const keys = possibleKeys(game.table.wires);
  const all = [...keys.blue, ...keys.yellow, ...keys.red].sort((a, b) => a - b);
  const stands = specs.map(() => []);
  let active = 0;
  const draw = () => {
    const body = h("div.join-wires", {},
      specs.map((spec, s) => h(`div.join-stand${s === active ? ".active" : ""}`, { dataset: { stand: String(s) }, onclick: () => { active = s; draw(); } },
        h("span.hint", {}, `${specs.length > 1 ? `Stand ${s + 1}: ` : ""}${stands[s].length} of ${standSize(spec)} wires`),
        h("div.my-wires", { "aria-label": `my wires stand ${s + 1}` }, stands[s].map((key, i) => h(`button.wire.${colourOf(key)}`, {
          dataset: { key: String(key) }, "aria-label": `remove ${label(key)}`,
          onclick: (event) => { event.stopPropagation(); stands[s].splice(i, 1); draw(); },
        }, label(key)))))),
      h("div.keypad", { "aria-label": "add my wire" }, all.map((key) => h(`button.key.${colourOf(key)}`, {
        dataset: { key: String(key) }, "aria-label": `add ${label(key)}`,
        onclick: () => {
          if (stands[active].length >= standSize(specs[active])) return toast("This stand is full: tap a wire to remove it.");
          stands[active].push(key);
          stands[active].sort((a, b) => a - b);
          if (stands[active].length === standSize(specs[active]) && active + 1 < specs.length) active += 1;
          draw();
        },
      }, label(key)))),
      h("div.actions", {}, h("button.primary", {
        dataset: { action: "join-done" }, disabled: !specs.every((spec, s) => stands[s].length === standSize(spec)),
        onclick: async () => {
          const table = { ...game.table, me: { player: seat, stands: stands.map((row) => [...row]) } };
          const result = await engine.analyze(table).catch((error) => ({ consistent: false, error: error.message }));
          if (!result.consistent) return toast(`These wires do not fit the table: ${pageMessage(result.error, table)}`, "error", 8000);
          game.table = table;
          game.view = "me";
          delete game.joinPending;
          persist(game);
          showGame(game);
          toast(`You sit as ${player.name}.`);
        },
      }, "Done")));
    openSheet(`${player.name}: my wires`, h("p.hint", {}, "Tap your wires in any order; they are shown sorted. They stay on this phone."), body);
  };
  draw();
}

document.getElementById("menu-button").addEventListener("click", showMenu);

document.getElementById("import-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  event.target.value = "";
  if (!file) return;
  try {
    const table = storage.parseTableText(await file.text());
    if (await startGame(storage.newGame(table, file.name.replace(/\.bombbuster\.json$|\.json$/, "")))) toast("Table imported.");
  } catch (error) {
    toast(`Import failed: ${error.message}`, "error", 8000);
  }
});

// ------------------------------------------------------------ start

const sameSetup = (a, b) => JSON.stringify(a.players) === JSON.stringify(b.players) && JSON.stringify(a.wires) === JSON.stringify(b.wires);

/**
 * Open the table of a share link (#game=…): an update of a game I already
 * follow (same players and wires: its events are replaced, my wires kept, Undo
 * brings the old ones back), or a new saved game with a name of its own. A
 * public table asks for my seat. An empty or damaged link says so.
 */
async function openSharedLink() {
  const hash = location.hash;
  history.replaceState(null, "", location.pathname + location.search);
  let table;
  try {
    table = await storage.tableFromHash(hash);
  } catch (error) {
    toast(`${error.message[0].toUpperCase()}${error.message.slice(1)}.`, "error", 10000);
    return;
  }
  if (!table) return;
  const readable = (id) => { try { return storage.loadGame(id); } catch { return null; } };
  const followed = storage.listGames().map((entry) => readable(entry.id))
    .find((game) => game && game.table.me && !table.me && sameSetup(game.table, table));
  if (followed) {
    const update = { ...followed.table, events: table.events };
    try {
      const result = await engine.analyze(update);
      if (!result.consistent) throw new Error(pageMessage(result.error, update));
    } catch (error) {
      toast(`The shared table does not fit "${followed.name}" with my wires (${error.message}): opened as a new game.`, "error", 8000);
      return openAsNew(table);
    }
    followed.past = [...(followed.past || []), { table: followed.table, label: "Update from a shared link" }].slice(-storage.HISTORY_STEPS);
    followed.future = [];
    if (update.me && update.me.seen) update.me = { ...update.me, seen: update.me.seen.filter((s) => s.after === undefined || s.after < update.events.length) };
    followed.table = update;
    persist(followed);
    showGame(followed);
    toast(`"${followed.name}" updated from the shared link (${table.events.length} events; your wires kept).`);
    return;
  }
  await openAsNew(table);
}

async function openAsNew(table) {
  const meta = table.meta || {};
  const base = `Shared · ${typeof meta.mission === "number" ? `Mission ${meta.mission} · ` : ""}${table.players.map((p) => p.name).join(", ")}`;
  const game = storage.newGame(table, storage.uniqueName(base));
  if (!table.me) game.joinPending = true;
  if (await startGame(game)) toast(table.me ? "Shared game opened and saved." : "Shared table opened: pick your seat.");
}

window.addEventListener("hashchange", () => {
  if (location.hash.startsWith("#game=")) storageOpened.then(openSharedLink).catch((error) => toast(error.message, "error", 8000));
});

// Plain http from another machine (build.py serve --lan): say what the phone cannot do.
document.getElementById("insecure-notice").hidden = window.isSecureContext;
if ("serviceWorker" in navigator && !params.has("nosw")) {
  navigator.serviceWorker.register("sw.js").catch((error) => console.warn("offline cache unavailable:", error));
}

initLive({ engine, screen: () => gameScreen, persist, showGame, loadGame: storage.loadGame, listGames: storage.listGames,
  newGame: (table, name) => storage.newGame(table, storage.uniqueName(name)) });
const storageOpened = storage.openStorage();
storageOpened.then((problems) => {
  showStorageProblems(problems);
  openCurrentOrSetup();
  if (location.hash.startsWith("#game=")) openSharedLink().catch((error) => toast(error.message, "error", 8000));
});
