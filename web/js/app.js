// Entry point: starts the worker pool and the scripting API, registers the
// service worker, and switches between the screens (saved games, new game,
// table). Share links (#game=…) are imported as a new saved game. The page
// always starts: saved entries it cannot read are named in a notice (and
// kept until removed there), and a game that cannot be saved says so on
// screen, with an export, while it stays open.
import { EnginePool, installScriptingApi } from "./engine.js";
import { GameScreen } from "./game.js";
import { renderSetup } from "./setup.js";
import { h, openSheet, closeSheet, toast, coreReason, tableRefusal } from "./ui.js";
import { LANGUAGES, has, language, switchLanguage, t, tn, translateShell } from "./i18n.js";
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
translateShell(); // before the engine's first status, which writes into the shell

// ------------------------------------------------------------ engine

const STAGE_PROGRESS = { runtime: 0.2, install: 0.75 };
const loadStarted = performance.now();

function showEngineStatus({ state, stage, detail, timings }) {
  const text = statusBox.querySelector(".engine-text");
  const fill = statusBox.querySelector(".engine-bar-fill");
  statusBox.dataset.state = state;
  if (state === "loading") {
    // The worker names its stage in English; the page words the stages it knows.
    text.textContent = has(`engine.stage.${stage}`) ? t(`engine.stage.${stage}`) : `${detail}…`;
    fill.style.width = `${(STAGE_PROGRESS[stage] || 0.1) * 100}%`;
  } else if (state === "ready") {
    fill.style.width = "100%";
    text.textContent = t("engine.ready", { seconds: ((performance.now() - loadStarted) / 1000).toFixed(1) });
    statusBox.dataset.timings = JSON.stringify(timings);
    setTimeout(() => statusBox.classList.add("done"), 1200);
  } else if (state === "failed") {
    text.textContent = t("engine.failed", { detail });
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
    if (unsaved.delete(game.id)) toast(t("save.again", { name: game.name }));
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
    h("b", {}, t("save.problem.title")),
    h("p", {}, t("save.problem.why", { reason })),
    h("div.actions", {},
      h("button.primary", { dataset: { action: "export-unsaved" }, onclick: () => exportGame(game) }, t("save.problem.export")),
      h("button.secondary", { dataset: { action: "save-again" }, onclick: () => persist(game) }, t("save.problem.retry")))));
}

/** The notice of saved entries that could not be read: each can be downloaded as it was, or removed. */
function showStorageProblems(problems) {
  document.getElementById("storage-problems")?.remove();
  if (!problems.length) return;
  const notice = h("section.storage-notice", { id: "storage-problems", role: "alert" },
    h("b", {}, tn("storage.unreadable", problems.length)),
    h("ul.storage-problems", {}, problems.map((problem, i) => h("li", { dataset: { problem: String(i) } },
      `${problem.what} ${problem.reason}.`,
      problem.raw === null ? null : h("button.link", {
        dataset: { action: "download-unreadable" }, onclick: () => storage.downloadText(problem.raw, `unreadable-saved-entry-${i + 1}.json`),
      }, t("storage.unreadable.download")),
      problem.remove ? h("button.link", {
        dataset: { action: "remove-unreadable" },
        onclick: async () => {
          try {
            await problem.remove();
          } catch (error) {
            return toast(t("storage.unreadable.removeFailed", { reason: storage.storageErrorText(error) }), "error");
          }
          showStorageProblems(problems.filter((other) => other !== problem));
        },
      }, t("storage.unreadable.remove")) : null))),
    h("p.hint", {}, t("storage.unreadable.kept")),
    h("button.secondary", { dataset: { action: "close-problems" }, onclick: () => notice.remove() }, t("common.close")));
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
    toast(t("game.cannotShow", { name: game.name, reason: error.message }), "error", 10000);
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
    toast(t("game.cannotOpen", { reason: error.message }), "error", 10000);
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
  document.getElementById("title").textContent = t("setup.title");
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
    if (!result.consistent) {
      const why = coreReason(result, game.table);
      const at = result.event === null || result.event === undefined ? "" : t("table.atEvent", { event: result.event + 1 });
      toast(t("table.cannotUse", { reason: `${why}${at}` }), "error", 8000);
      return false;
    }
  } catch (error) {
    toast(t("table.cannotUse", { reason: tableRefusal(error, game.table) }), "error", 8000);
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
  const what = typeof meta.mission === "number" ? t("mission.number", { n: meta.mission }) : t("game.defaultName");
  return storage.uniqueName(`${what} · ${table.players.map((p) => p.name).join(", ")} · ${new Date().toLocaleDateString()}`);
}

function ago(time) {
  const minutes = Math.round((Date.now() - time) / 60000);
  if (minutes < 1) return t("ago.now");
  if (minutes < 60) return t("ago.minutes", { n: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 24) return t("ago.hours", { n: hours });
  return new Date(time).toLocaleDateString();
}

function showMenu() {
  const games = storage.listGames();
  const current = gameScreen && gameScreen.game;
  const item = (text, action, onclick, extra = "") => h(`button.menu-item${extra}`, { dataset: { action }, onclick }, text);
  openSheet(t("menu.title"),
    h("div.menu", {},
      current ? item(t("menu.share"), "share", () => shareWithTable(current)) : null,
      item(t("menu.new"), "new", showSetup),
      current ? item(t("menu.rename"), "rename", () => renameCurrent(current)) : null,
      item(t("menu.import"), "import", () => document.getElementById("import-file").click()),
      current ? item(current.table.me ? t("menu.exportAsk") : t("menu.export"), "export", () => exportGame(current)) : null,
      item(t("menu.engine", { engine: engine.engine() }), "engine", chooseEngine),
      item(t("menu.language", { language: LANGUAGES[language] }), "language", chooseLanguage),
      ...liveMenuItems(current, item),
      current ? item(t("menu.review"), "review", () => showReview(pool, current)) : null,
      item(t("menu.help"), "help", showHelp),
      item(t("menu.about"), "about", showAbout),
      current ? item(t("menu.delete"), "delete-game", () => {
        if (!confirm(t("menu.deleteConfirm", { name: current.name }))) return;
        storage.deleteGame(current.id).catch((error) => toast(t("menu.deleteFailed", { reason: storage.storageErrorText(error) }), "error", 8000));
        openCurrentOrSetup();
      }, ".danger") : null),
    h("h3", {}, t("menu.saved")),
    games.length ? h("ul.saved-games", {}, games.map((entry) => h("li", {},
      h("button.menu-item", {
        dataset: { game: entry.id }, "aria-current": current && current.id === entry.id ? "true" : null,
        onclick: () => openSaved(entry.id),
      }, h("span.game-name", {}, entry.name),
      h("span.hint.game-facts", {}, [
        entry.mission ? `${t("mission.number", { n: entry.mission })}${entry.missionName ? ` ${entry.missionName}` : ""}` : t("setup.free"),
        entry.players ? tn("menu.players", entry.players.length, { names: entry.players.join(", ") }) : null,
        tn("menu.events", entry.events), t("menu.changed", { when: ago(entry.updated) }),
      ].filter(Boolean).join(" · "))))))
      : h("p.hint", {}, t("menu.noGames")),
    h("p.hint.about", {}, t("menu.offline")));
}

/** The page's language: kept on this device; the page reloads in it (the open game is saved). */
function chooseLanguage() {
  openSheet(t("language.title"),
    h("div.menu", {}, Object.entries(LANGUAGES).map(([code, name]) => h("button.menu-item", {
      dataset: { language: code }, lang: code, "aria-pressed": String(code === language),
      onclick: () => (code === language ? closeSheet() : switchLanguage(code)),
    }, name))));
}

/** The engine setting: both give the same exact numbers; signatures fans its blocks out to the workers. */
function chooseEngine() {
  const pick = (name) => {
    setting(ENGINE_KEY, name);
    engine.setEngine(name);
    closeSheet();
    toast(t("engine.chosen", { engine: name }));
  };
  const option = (name, text) => h("button.menu-item", {
    dataset: { engine: name }, "aria-pressed": String(engine.engine() === name), onclick: () => pick(name),
  }, text);
  openSheet(t("engine.title"),
    h("p", {}, t("engine.same")),
    h("div.menu", {},
      option("columns", t("engine.columns")),
      option("signatures", t("engine.signatures"))));
}

function renameCurrent(game) {
  const input = h("input", { id: "rename-input", type: "text", value: game.name, "aria-label": t("rename.label"), maxlength: "80" });
  const save = () => {
    const name = input.value.trim();
    if (!name) return toast(t("rename.empty"), "error");
    game.name = name;
    persist(game);
    document.getElementById("title").textContent = name;
    closeSheet();
    toast(t("rename.done"));
  };
  input.addEventListener("keydown", (event) => { if (event.key === "Enter") save(); });
  openSheet(t("menu.rename"), h("label.name-field", {}, t("rename.name"), input),
    h("div.actions", {}, h("button.primary", { dataset: { action: "save-name" }, onclick: save }, t("common.save"))));
  input.focus();
  input.select();
}

/** Export: a table with my wires asks first (it reveals my hand), and offers the public table instead. */
function exportGame(game) {
  if (!game.table.me) return storage.exportTable(game);
  openSheet(t("menu.export"),
    h("p", {}, t("export.warning")),
    h("div.menu", {},
      h("button.menu-item", { dataset: { action: "export-public" }, onclick: () => { storage.exportTable({ ...game, table: storage.publicTable(game.table) }); closeSheet(); } },
        t("export.public")),
      h("button.menu-item.danger", { dataset: { action: "export-with-wires" }, onclick: () => storage.exportTable(game) },
        t("export.withWires"))));
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
  if (code) box.innerHTML = qrSvg(code, { title: t("share.qrTitle") });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast(t("share.copied"));
    } catch {
      toast(t("share.copyByHand"));
    }
  };
  openSheet(t("share.title"),
    h("p", {}, t("share.scan"), " ", h("b", {}, t("share.publicOnly")), " ", t("share.theirSeat")),
    code ? box : h("p.warn", {}, t("share.tooLong")),
    h("textarea.share-url", { readonly: true, rows: "3", "aria-label": t("share.linkLabel") }, url),
    h("div.actions", {},
      navigator.share ? h("button.secondary", { onclick: () => navigator.share({ title: game.name, url }).catch(() => {}) }, t("share.send")) : null,
      h("button.primary", { dataset: { action: "copy-link" }, onclick: copy }, t("share.copy"))),
    h("p.hint", {}, t("share.later")));
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
    toast(t("join.special"), "error", 8000);
    return;
  }
  const keys = possibleKeys(game.table.wires);
  const all = [...keys.blue, ...keys.yellow, ...keys.red].sort((a, b) => a - b);
  const stands = specs.map(() => []);
  let active = 0;
  const draw = () => {
    const body = h("div.join-wires", {},
      specs.map((spec, s) => h(`div.join-stand${s === active ? ".active" : ""}`, { dataset: { stand: String(s) }, onclick: () => { active = s; draw(); } },
        h("span.hint", {}, `${specs.length > 1 ? t("join.stand", { n: s + 1 }) : ""}${t("join.count", { n: stands[s].length, of: standSize(spec) })}`),
        h("div.my-wires", { "aria-label": t("join.standLabel", { n: s + 1 }) }, stands[s].map((key, i) => h(`button.wire.${colourOf(key)}`, {
          dataset: { key: String(key) }, "aria-label": t("wire.remove", { wire: label(key) }),
          onclick: (event) => { event.stopPropagation(); stands[s].splice(i, 1); draw(); },
        }, label(key)))))),
      h("div.keypad", { "aria-label": t("setup.addMyWire"), dataset: { group: "add-my-wire" } }, all.map((key) => h(`button.key.${colourOf(key)}`, {
        dataset: { key: String(key) }, "aria-label": t("wire.add", { wire: label(key) }),
        onclick: () => {
          if (stands[active].length >= standSize(specs[active])) return toast(t("join.full"));
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
          const result = await engine.analyze(table).catch((error) => ({ consistent: false, refused: error }));
          if (!result.consistent) return toast(t("join.misfit", { reason: result.refused ? tableRefusal(result.refused, table) : coreReason(result, table) }), "error", 8000);
          game.table = table;
          game.view = "me";
          delete game.joinPending;
          persist(game);
          showGame(game);
          toast(t("join.seated", { name: player.name }));
        },
      }, t("common.done"))));
    openSheet(t("join.title", { name: player.name }), h("p.hint", {}, t("join.hint")), body);
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
    if (await startGame(storage.newGame(table, file.name.replace(/\.bombbuster\.json$|\.json$/, "")))) toast(t("import.done"));
  } catch (error) {
    toast(t("import.failed", { reason: error.message }), "error", 8000);
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
      if (!result.consistent) throw new Error(coreReason(result, update));
    } catch (error) {
      toast(t("link.misfit", { name: followed.name, reason: error.message }), "error", 8000);
      return openAsNew(table);
    }
    followed.past = [...(followed.past || []), { table: followed.table, label: t("link.undoLabel") }].slice(-storage.HISTORY_STEPS);
    followed.future = [];
    if (update.me && update.me.seen) update.me = { ...update.me, seen: update.me.seen.filter((s) => s.after === undefined || s.after < update.events.length) };
    followed.table = update;
    persist(followed);
    showGame(followed);
    toast(tn("link.updated", table.events.length, { name: followed.name }));
    return;
  }
  await openAsNew(table);
}

async function openAsNew(table) {
  const meta = table.meta || {};
  const base = `${t("link.sharedName")} · ${typeof meta.mission === "number" ? `${t("mission.number", { n: meta.mission })} · ` : ""}${table.players.map((p) => p.name).join(", ")}`;
  const game = storage.newGame(table, storage.uniqueName(base));
  if (!table.me) game.joinPending = true;
  if (await startGame(game)) toast(table.me ? t("link.opened") : t("link.pickSeat"));
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
