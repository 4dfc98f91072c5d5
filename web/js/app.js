// Entry point: starts the worker pool and the scripting API, registers the
// service worker, and switches between the screens (saved games, new game,
// table). Share links (#game=…) are imported as a new saved game.
import { EnginePool, installScriptingApi } from "./engine.js";
import { GameScreen } from "./game.js";
import { renderSetup } from "./setup.js";
import { h, openSheet, closeSheet, toast } from "./ui.js";
import * as storage from "./storage.js";

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

// ------------------------------------------------------------ screens

function persist(game) {
  storage.saveGame(game);
}

function showGame(game) {
  closeSheet();
  document.getElementById("title").textContent = game.name;
  viewToggle.hidden = !game.table.me;
  gameScreen = new GameScreen(screenRoot, { engine, game, onSave: persist });
  syncViewToggle();
  window.scrollTo(0, 0);
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
  viewToggle.hidden = true;
  document.getElementById("title").textContent = "New game";
  const hasGames = storage.listGames().length > 0;
  renderSetup(screenRoot, {
    onStart: (table) => startGame(storage.newGame(table)),
    onCancel: hasGames ? () => openCurrentOrSetup() : null,
    engine,
  });
  window.scrollTo(0, 0);
}

/** Check a new table with the engine, then save and open it. */
async function startGame(game) {
  try {
    const result = await engine.analyze(game.table);
    if (!result.consistent) throw new Error(`${result.error} (event ${result.event + 1})`);
  } catch (error) {
    toast(`This table cannot be used: ${error.message}`, "error", 8000);
    return false;
  }
  persist(game);
  showGame(game);
  return true;
}

function openCurrentOrSetup() {
  const id = storage.currentGameId();
  const game = id && storage.loadGame(id);
  if (game) showGame(game);
  else showSetup();
}

// ------------------------------------------------------------ menu

function showMenu() {
  const games = storage.listGames();
  const current = gameScreen && gameScreen.game;
  const item = (text, action, onclick, extra = "") => h(`button.menu-item${extra}`, { dataset: { action }, onclick }, text);
  openSheet("Games",
    h("div.menu", {},
      item("New game", "new", showSetup),
      item("Import a table file", "import", () => document.getElementById("import-file").click()),
      current ? item("Export this table file", "export", () => storage.exportTable(current)) : null,
      current ? item("Share as a link", "share", () => shareGame(current)) : null,
      current ? item("Delete this game", "delete-game", () => {
        if (!confirm(`Delete "${current.name}"?`)) return;
        storage.deleteGame(current.id);
        openCurrentOrSetup();
      }, ".danger") : null),
    h("h3", {}, "Saved games"),
    games.length ? h("ul.saved-games", {}, games.map((entry) => h("li", {},
      h("button.menu-item", {
        dataset: { game: entry.id }, "aria-current": current && current.id === entry.id ? "true" : null,
        onclick: () => { const game = storage.loadGame(entry.id); if (game) showGame(game); },
      }, h("span", {}, entry.name), h("span.hint", {}, `${entry.events} events · ${new Date(entry.updated).toLocaleString()}`)))))
      : h("p.hint", {}, "No saved games yet."),
    h("p.hint.about", {}, "Works offline once loaded. Games are saved on this device after every event."));
}

async function shareGame(game) {
  const url = storage.shareUrl(game.table);
  try {
    if (navigator.share) await navigator.share({ title: game.name, url });
    else {
      await navigator.clipboard.writeText(url);
      toast("Link copied to the clipboard.");
    }
  } catch {
    openSheet("Share link", h("textarea.share-url", { readonly: true, rows: "4" }, url));
  }
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

async function openSharedLink() {
  const table = storage.tableFromHash(location.hash);
  history.replaceState(null, "", location.pathname + location.search);
  if (table && await startGame(storage.newGame(table))) toast("Shared game opened and saved.");
}

if ("serviceWorker" in navigator && !params.has("nosw")) {
  navigator.serviceWorker.register("sw.js").catch((error) => console.warn("offline cache unavailable:", error));
}

openCurrentOrSetup();
if (location.hash.startsWith("#game=")) {
  openSharedLink().catch((error) => toast(error.message, "error", 8000));
}
