// The suggestions panel of the table screen: the core's ranked cut suggestions
// (bridge method `suggest`, docs/suggestions.md) for the player to move.
//
// - The panel owns one DOM element that GameScreen puts into every render; the
//   table screen rebuilds its children, so the panel keeps its own state.
// - Each render checks the request key (table in the current view, player,
//   mode). A new key starts a debounced request; an answer for an older key is
//   dropped (seq). A stale entropy run is cancelled (it may take minutes); a
//   stale exact run is left to finish and ignored, as cancelling costs a worker
//   restart. Recent answers are kept, so undo and view toggles are instant.
// - Tapping a suggestion pre-fills the event recorder (see docs/suggestions.md,
//   "In the page"): the player then only confirms what happened.
// - The Lookahead mode asks the bridge's `lookahead` (bombbuster_core/sim/
//   advice.py): the self-play lookahead policy's move for "me", from deals
//   drawn exactly from the posterior; its budget is bounded so that a phone
//   answers within about 10 s (docs/results/lookahead-cost.md), and the panel says how
//   many deals it used.
// - The Search mode asks every worker of the pool for the ismcts policy's
//   search (bridge method `search`, bombbuster_core/sim/search_advice.py) with
//   its own seed and share of the iterations, and adds their root statistics up
//   (engine.js, searchOnPool): the pick is greedy's move unless another's mean
//   beats it by more than a standard error (ismcts.py, pick). It shows the
//   iterations done as the workers report them; Cancel stops every worker.
// - With the board followed (the table lists its equipment), the exact list is
//   followed by a second request with `cards: true`: the core's advice for each
//   card the player may use now (cardadvice.js). It costs up to a few seconds
//   more on a full table, so the list shows first.
import { engineErrorWords, h, limitWords, openSheet, pageMessage, searchRefusalWords } from "./ui.js";
import { has, t, tn } from "./i18n.js";
import { standName, valueLabel } from "./model.js";
import { CancelledError } from "./engine.js";
import { CARD_NAMES, CHARACTER_NAMES, providers } from "./equipment.js";
import { cardsSection } from "./cardadvice.js";

const DEBOUNCE_MS = 300;
const CACHE_SIZE = 8;
// The suggestion kinds of equipment (the bridge's `equipment` param) and the use each one needs.
const SUGGESTED_EQUIPMENT = [["xy_ray", "xy"], ["double_detector", "double"], ["super_detector", "super"], ["triple_detector", "triple"]];
// The core's default red cap (bombbuster_core/suggest/policy.py Policy.red_cap, which every suggest
// answer reports as red_cap; tests/e2e/test_player_words.py checks they agree): before an answer lands.
export const RED_CAP = 0.05;
const SHOWN_CALLS = 5; // ranked dual cuts shown before "Show all"
const KIND_NAMES = {
  // The equipment by its card's name (kept as the edition prints it: docs/i18n.md).
  dual_cut: t("action.dual_cut"), solo_cut: t("action.solo_cut"), reveal_red: t("action.reveal_red"), xy_ray: t("kind.xy_ray"),
  double_detector: CHARACTER_NAMES.double_detector, triple_detector: CARD_NAMES[3], super_detector: CARD_NAMES[5],
};
const EVENT_KINDS = new Set(["dual_cut", "solo_cut", "reveal_red"]);
const MODES = ["exact", "entropy", "lookahead", "search"].map((mode) => [mode, t(`mode.${mode}`)]);
// The lookahead's budget in the page: at most 8 deals × 3 turns per rollout,
// fewer deals where a view's analysis costs more (`work`: sim/lookahead_advice.py), so
// that the slowest decisions (5 players, the first turns) stay within a phone's
// 10 s (docs/results/lookahead-cost.md). A fixed seed: the same table, the same answer.
const LOOKAHEAD = { deals: 8, depth: 3, work: 60, seed: 0 };
// The search's budget in the page, over all the workers: the tournaments' measured budget
// (docs/results/page-search-budget.md: 20 iterations), and a 5-player M8 early decision stays within
// a phone's 10 s on two workers (web/README-web.md, "Search"); `work` (sim/search_advice.py)
// runs fewer iterations where a view's analysis costs more than about 4 units (that decision's
// is about 3.65: 25 units an iteration of 6 turns).
export const SEARCH = { iterations: 20, work: 500 };

/** Which list a suggestion belongs to: forced (certain moves), calls (ranked dual cuts), equipment. */
export function groupOf(suggestion) {
  if (!EVENT_KINDS.has(suggestion.kind)) return "equipment";
  return suggestion.kind === "dual_cut" && !suggestion.certain ? "calls" : "forced";
}

/** A probability with enough digits to tell small risks apart: "0%", "<0.01%", "0.03%", "4.2%", "67%", "✓". */
/**
 * What a move tells the team, in words, from its expected information (the
 * engine's bits; the figure itself stays in the data attributes and the
 * details sheet). The thresholds are the core's own: from one bit on (at
 * least halving the possible deals, a fair yes/no question) a move "tells a
 * lot" (bombbuster_core/suggest/advice.py INFO_NOW, the line from which an
 * information card is worth using now); below 0.005 bits (0.00 once rounded)
 * it tells "nothing new"; in between "a little".
 */
export function infoWords(bits) {
  if (bits >= 1) return t("info.lot");
  if (bits >= 0.005) return t("info.little");
  return t("info.nothing");
}

export function riskText(p) {
  if (p <= 0) return "0%";
  if (p >= 1) return "✓";
  const pc = p * 100;
  if (pc < 0.01) return "<0.01%";
  if (pc < 1) return `${pc.toFixed(2)}%`;
  if (pc < 10) return `${pc.toFixed(1)}%`;
  if (pc > 99.5) return ">99%";
  return `${Math.round(pc)}%`;
}

/** A note of `incomplete` from an older core (no `incomplete_why`): a kind ("double_detector") or the core's sentence, in the page's names. */
function incompleteText(note, table) {
  const [kind, ...rest] = note.split(": ");
  return `${KIND_NAMES[kind] || kind}${rest.length ? `: ${pageMessage(rest.join(": "), table)}` : ""}`;
}

/**
 * The notes of an `incomplete` list (a suggestion list's or a card's) in the page's words: each
 * from its code and fields in `why` (the core's `incomplete_why`, parallel to the notes:
 * bombbuster_core/suggest/notes.py INCOMPLETE_CODES), else from the core's English note.
 */
export function incompleteNotes(notes, why, table) {
  return notes.map((note, i) => {
    const code = why && why[i] && why[i].code;
    if (!code || !has(`incomplete.${code}`)) return incompleteText(note, table);
    const f = why[i].fields || {};
    return t(`incomplete.${code}`, {
      ...f,
      kind: f.kind === undefined ? undefined : KIND_NAMES[f.kind] || f.kind,
      card: f.card === undefined ? undefined : CARD_NAMES[f.card] || f.card,
      stand: f.stand === undefined ? undefined : standName(table, f.player, f.stand),
      value: f.value === undefined ? undefined : valueLabel(f.value),
      reason: f.limit === undefined ? f.reason : limitWords(f.limit) || incompleteText(note, table), // an engine limit's words
    });
  });
}

// Whether the player's last tap was in the panel (pointerdown for a finger, click for a key).
let lastTapInPanel = false;
const noteTap = (event) => { lastTapInPanel = Boolean(event.target instanceof Element && event.target.closest(".suggestions")); };
document.addEventListener("pointerdown", noteTap, true);
document.addEventListener("click", noteTap, true);
// The panel keeping its height, if any: scrolling may let it go (releaseIfSafe).
let holdingPanel = null;
window.addEventListener("scroll", () => { if (holdingPanel) holdingPanel.releaseIfSafe(); }, { passive: true });

/** The recorder's top on screen if it is on screen or scrolled past (a finger may be on it or below it), else null. */
function recorderTop() {
  const recorder = document.querySelector(".recorder");
  if (!recorder) return null;
  const top = recorder.getBoundingClientRect().top;
  return top < window.innerHeight ? top : null;
}

const sameSlot = (a, b) => a.player === b.player && a.stand === b.stand && a.slot === b.slot;

export class SuggestionsPanel {
  /** screen: the GameScreen (table, view, names, recorder drafts); engine: window.bombbuster. */
  constructor(screen) {
    this.screen = screen;
    this.mode = "exact";
    this.chosenPlayer = null; // null: the default player to move
    this.expanded = false;
    this.key = null;
    this.seq = 0;
    this.state = { kind: "idle" };
    this.results = new Map();
    this.cards = null; // the card advice's state for the current key: null (none asked), busy, ok, error
    this.cardResults = new Map();
    this.heldHeight = null;
    this.root = h("section.suggestions", { "aria-label": t("suggestions.label") });
  }

  // ------------------------------------------------------------ requests

  /**
   * The player the panel answers for: the chosen one, else me (my phone's
   * advice is mine: the heading says so while a teammate plays), else the
   * player to move (gamestate.js: seat order, the Coffee Mug, empty stands).
   */
  player() {
    const table = this.screen.table;
    if (this.chosenPlayer !== null && this.chosenPlayer < table.players.length) return this.chosenPlayer;
    if (table.me) return table.me.player;
    return this.screen.state().turn ?? 0;
  }

  /** Whose moves the list is, and who plays now: "Moves for Ann (you) · Bob plays now". */
  whose(player) {
    const screen = this.screen;
    const turn = screen.state().turn;
    const mine = screen.table.me && screen.table.me.player === player;
    const now = turn === null ? "" : turn === player ? ` · ${t("who.toPlay")}` : ` · ${t("sug.playsNow", { name: screen.playerName(turn) })}`;
    return `${t(mine ? "sug.movesForYou" : "sug.movesFor", { name: screen.playerName(player) })}${now}`;
  }

  /** The element to place in the table screen; starts a request when the table, player or mode changed. */
  element() {
    this.schedule();
    this.paint();
    return this.root;
  }

  /**
   * With the board followed, the equipment the player can use now (the board
   * of the last analysis): only that is searched, so no suggestion names a
   * card that is locked, used or not on the board. Without: the bridge's default.
   */
  equipmentFor(player) {
    const offer = this.screen.equipmentOffer();
    if (!offer) return undefined;
    return SUGGESTED_EQUIPMENT.filter(([, need]) => providers(need, { ...offer, actor: player }).length).map(([kind]) => kind);
  }

  schedule() {
    const table = this.screen.viewTable();
    const player = this.player();
    const mode = this.mode;
    const equipment = this.equipmentFor(player);
    const key = JSON.stringify([table, player, mode, equipment]);
    if (key === this.key) return;
    this.key = key;
    this.seq += 1; // an answer in flight is now stale
    clearTimeout(this.timer);
    if (this.abort && ["entropy", "search"].includes(this.state.mode)) this.abort.abort(); // long stale work
    this.abort = null;
    this.cards = null;
    const known = this.results.get(key);
    if (known) {
      this.state = { kind: "ok", result: known, mode };
      this.adviseCards(key, table, player, mode, this.seq);
      return;
    }
    this.state = { kind: "busy", ms: 0, mode, previous: this.state.result || this.state.previous };
    this.timer = setTimeout(() => this.run(key, table, player, mode, equipment), DEBOUNCE_MS);
  }

  async run(key, table, player, mode, equipment) {
    const seq = ++this.seq;
    const abort = (this.abort = new AbortController());
    try {
      const onProgress = (ms, work) => { if (seq === this.seq) this.showElapsed(ms, work); };
      const options = { signal: abort.signal, onProgress };
      const result = mode === "lookahead" ? await this.lookahead(table, player, options)
        : mode === "search" ? await this.search(table, player, options)
        : await this.screen.engine.suggest(table, { player, mode, signal: abort.signal, onProgress, ...(equipment ? { equipment } : {}) });
      this.results.set(key, result);
      if (this.results.size > CACHE_SIZE) this.results.delete(this.results.keys().next().value);
      if (seq !== this.seq) return;
      this.state = { kind: "ok", result, mode };
      this.adviseCards(key, table, player, mode, seq);
    } catch (error) {
      if (seq !== this.seq) return;
      this.state = error instanceof CancelledError ? { kind: "cancelled", mode } : { kind: "error", message: engineErrorWords(error, this.screen.table), mode };
    }
    if (this.abort === abort) this.abort = null;
    this.paint();
  }

  /**
   * The card advice for the list just shown (exact mode, a table that lists its
   * board): a second request, kept by key as the lists are; its answer is
   * dropped if the table changed meanwhile.
   */
  async adviseCards(key, table, player, mode, seq) {
    if (mode !== "exact" || !table.equipment) return;
    const known = this.cardResults.get(key);
    if (known) {
      this.cards = { kind: "ok", advice: known };
      return;
    }
    this.cards = { kind: "busy" };
    const turn = this.screen.state().turn;
    try {
      const result = await this.screen.engine.suggest(table, { player, mode, cards: true, moving: turn === null || turn === player });
      this.cardResults.set(key, result.equipment);
      if (this.cardResults.size > CACHE_SIZE) this.cardResults.delete(this.cardResults.keys().next().value);
      if (seq !== this.seq) return;
      this.cards = { kind: "ok", advice: result.equipment };
    } catch (error) {
      if (seq !== this.seq) return;
      this.cards = { kind: "error", message: engineErrorWords(error, this.screen.table) };
    }
    this.paint();
  }

  /** The lookahead policy decides for "me" only: it plays my own wires forward on sampled deals. */
  lookahead(table, player, options) {
    if (!table.me || table.me.player !== player) {
      const who = this.screen.playerName(player);
      throw new Error(t("sug.lookaheadYou", { name: who }));
    }
    if (!this.screen.engine.lookahead) throw new Error(t("sug.noLookahead"));
    return this.screen.engine.lookahead(table, { ...LOOKAHEAD, ...options });
  }

  /** The search decides for "me" only, as the lookahead: it plays my own wires forward on sampled deals. */
  search(table, player, options) {
    if (!table.me || table.me.player !== player) {
      const who = this.screen.playerName(player);
      throw new Error(t("sug.searchYou", { name: who }));
    }
    if (!this.screen.engine.search) throw new Error(t("sug.noSearch"));
    return this.screen.engine.search(table, { ...SEARCH, ...options });
  }

  cancel() {
    if (this.abort) this.abort.abort();
    else if (this.state.kind === "busy") { // still debouncing
      clearTimeout(this.timer);
      this.seq += 1;
      this.state = { kind: "cancelled", mode: this.mode };
      this.paint();
    }
  }

  retry() {
    this.key = null;
    this.element();
  }

  setMode(mode) {
    if (mode === this.mode) return;
    this.mode = mode;
    this.expanded = false;
    this.element();
  }

  setPlayer(player) {
    this.chosenPlayer = player;
    this.expanded = false;
    this.element();
  }

  // ------------------------------------------------------------ keeping the recorder still

  /**
   * Let the panel take its content's height unless that moves the recorder.
   * A list lands, or the state changes, whenever a worker answers, and the
   * panel's height can move everything below it: the recorder when it sits in
   * the page's flow under the panel (scrolled to it on a phone; stuck to the
   * screen's foot it does not move), the log when scrolled past it. The
   * finger may be on its way to any of it — the next step of a draft, the
   * next action after a commit, Undo — and the player cannot tell when an
   * answer lands. So the panel is laid out at its content's height and, if
   * the recorder on screen moved, keeps its previous height instead (both
   * before the browser paints: no jump is ever shown); a longer list then
   * scrolls inside the panel. A tap in the panel itself (a mode, a player,
   * "Show in full") lets it take its height: its top stays put and what was
   * asked for appears in full. ``height``: the panel's height to keep;
   * ``before``: the recorder's top before the panel changed (recorderTop).
   */
  settle(height, before) {
    this.applyHold(null);
    if (before === null || lastTapInPanel || !this.root.isConnected) return;
    if (Math.abs(recorderTop() - before) > 0.5) this.applyHold(height);
  }

  releaseIfSafe() {
    if (this.heldHeight !== null) this.settle(this.heldHeight, recorderTop());
  }

  /** Keep (or let go of) the panel's height; a list that no longer fits it says so at the panel's foot. */
  applyHold(height) {
    this.heldHeight = height;
    if (height !== null) holdingPanel = this;
    else if (holdingPanel === this) holdingPanel = null;
    this.root.style.height = height === null ? "" : `${height}px`;
    this.root.dataset.held = String(height !== null);
    this.root.querySelector(".sug-held")?.remove();
    if (height === null || this.state.kind !== "ok" || this.root.scrollHeight <= this.root.clientHeight + 1) return;
    this.root.append(h("div.sug-held", {}, h("span", {}, t("sug.new")),
      h("button.link", { dataset: { action: "show-suggestions" }, onclick: () => this.paint() }, t("sug.showFull"))));
  }

  // ------------------------------------------------------------ rendering

  showElapsed(ms, work) {
    const text = this.root.querySelector(".sug-status .sug-elapsed");
    const done = work && work.total ? ` · ${t(this.state.mode === "search" ? "sug.iterationsDone" : "sug.analysesDone", { done: work.done, total: work.total })}` : "";
    if (text) text.textContent = `${(ms / 1000).toFixed(1)} s${done}`;
  }

  paint() {
    // Measured before the old content goes.
    const height = this.heldHeight ?? (this.root.isConnected ? this.root.getBoundingClientRect().height : null);
    const recorderBefore = recorderTop();
    const table = this.screen.table;
    const player = this.player();
    const { kind, mode } = this.state;
    this.root.dataset.state = kind;
    this.root.dataset.mode = this.mode;
    this.root.dataset.player = String(player);
    const turn = this.screen.state().turn;
    const picker = h("div.segmented.sug-players", { role: "group", "aria-label": t("sug.forLabel") },
      table.players.map((p, i) => h("button", {
        dataset: { player: String(i) }, "aria-pressed": String(i === player), onclick: () => this.setPlayer(i),
      }, p.name, i === turn ? h("span.to-move", { title: t("who.toPlay") }, " ●") : null)));
    const whose = h("p.sug-whose", { id: "sug-whose" }, this.whose(player));
    const modes = h("div.segmented.sug-modes", { role: "group", "aria-label": t("sug.ranking") },
      MODES.map(([value, text]) => h("button", {
        dataset: { mode: value }, "aria-pressed": String(value === this.mode), onclick: () => this.setMode(value),
      }, text)));
    let status = null;
    let body = null;
    if (kind === "busy") {
      status = h("div.sug-status", {}, h("span.spinner"),
        h("span", {}, {
          entropy: t("sug.busy.entropy"), lookahead: t("sug.busy.lookahead"), search: t("sug.busy.search"),
        }[mode]
          || t("sug.busy.exact")),
        h("span.sug-elapsed", {}, ""),
        h("button.link", { dataset: { action: "cancel-suggestions" }, onclick: () => this.cancel() }, t("common.cancel")));
      if (this.state.previous && this.state.previous.consistent) body = this.list(this.state.previous, true);
    } else if (kind === "cancelled") {
      status = h("div.sug-status", {}, h("span", {}, t("sug.cancelled")),
        h("button.link", { dataset: { action: "run-suggestions" }, onclick: () => this.retry() }, t("status.again")));
    } else if (kind === "error") {
      status = h("div.sug-status.bad", {}, t("sug.none", { reason: this.state.message }));
    } else if (kind === "ok" && !this.state.result.consistent) {
      status = h("div.sug-status.bad", {}, t("sug.inconsistent"));
    } else if (kind === "ok") {
      // No status row: an empty one left a gap above "Certain moves" (issue 32). The
      // recorder below does not jump when the list arrives: the panel keeps its height (settle).
      body = this.list(this.state.result, false);
    }
    this.root.replaceChildren(...[h("div.sug-head", {}, h("h2", {}, t("sug.title")), modes), picker, whose, status, body].filter(Boolean));
    this.settle(height, recorderBefore);
  }

  list(result, stale) {
    if (result.mode === "lookahead") return this.lookaheadList(result, stale);
    if (result.mode === "search") return this.searchList(result, stale);
    const items = result.suggestions.map((s, rank) => ({ s, rank, group: groupOf(s) }));
    const forced = items.filter((i) => i.group === "forced");
    const calls = items.filter((i) => i.group === "calls");
    const equipment = items.filter((i) => i.group === "equipment");
    const shown = this.expanded ? calls : calls.slice(0, SHOWN_CALLS);
    const section = (title, group, entries, extra = null) => entries.length
      ? h("div.sug-group", { dataset: { group } }, h("h3", {}, title),
        h("ol.sug-list", {}, entries.map((entry) => h("li", {}, this.item(entry, stale, result.red_cap)))), extra)
      : null;
    const more = calls.length > SHOWN_CALLS ? h("button.link.sug-more", {
      dataset: { action: "more-suggestions" }, onclick: () => { this.expanded = !this.expanded; this.paint(); },
    }, this.expanded ? t("sug.fewer") : t("sug.all", { n: calls.length })) : null;
    const who = this.screen.playerName(result.player);
    return h(`div.sug-body${stale ? ".stale" : ""}`, { "aria-busy": stale ? "true" : null },
      items.length ? null : h("p.hint", {}, t("sug.noCall", { name: who })),
      section(t("sug.certain"), "forced", forced),
      section(this.mode === "entropy" ? t("sug.callsEntropy") : t("sug.bestCalls"), "calls", shown, more),
      section(t("sug.equipment"), "equipment", equipment),
      cardsSection(this.cards, this.screen),
      result.incomplete && result.incomplete.length ? h("p.hint.sug-incomplete", {},
        t("sug.incomplete", { what: incompleteNotes(result.incomplete, result.incomplete_why, this.screen.table).join(", ") })) : null,
      h("p.hint.sug-foot", {}, this.mode === "entropy"
        ? t("sug.footEntropy", { n: result.branch_analyses ?? 0 })
        : t("sug.foot")));
  }

  /** The lookahead's pick first, then the other candidates it compared, by estimated worth. */
  lookaheadList(result, stale) {
    const [pick, ...others] = result.suggestions;
    const entries = (list, first) => h("ol.sug-list", {},
      list.map((s, i) => h("li", {}, this.item({ s, rank: first + i }, stale, result.red_cap))));
    const foot = result.deals
      ? t("sug.lookaheadFoot", { deals: result.deals, depth: result.depth })
      : t("sug.lookaheadCertain");
    return h(`div.sug-body${stale ? ".stale" : ""}`, { "aria-busy": stale ? "true" : null, dataset: { deals: String(result.deals) } },
      pick ? h("div.sug-group", { dataset: { group: "pick" } }, h("h3", {}, t("sug.lookaheadPick")), entries([pick], 0))
        : h("p.hint", {}, t("sug.noMove", { name: this.screen.playerName(result.player) })),
      others.length ? h("div.sug-group", { dataset: { group: "candidates" } }, h("h3", {}, t("sug.othersCompared")),
        entries(others, 1)) : null,
      h("p.hint.sug-foot.sug-deals", {}, foot));
  }

  /** The search's pick first, then the other root candidates by visits (the root's order on a tie). */
  searchList(result, stale) {
    const pick = result.suggestions[result.pick];
    const others = result.suggestions.filter((s) => s !== pick).sort((a, b) => b.visits - a.visits);
    const entries = (list, first) => h("ol.sug-list", {},
      list.map((s, i) => h("li", {}, this.item({ s, rank: first + i }, stale, result.red_cap))));
    const workers = result.seeds.length;
    const foot = result.searched
      ? tn("sug.searchFoot", workers, { iterations: result.iterations, horizon: result.horizon })
      : t("sug.noSearchFoot", { reason: searchRefusalWords(result.reason_why, this.screen.table) || result.reason });
    return h(`div.sug-body${stale ? ".stale" : ""}`, {
      "aria-busy": stale ? "true" : null, dataset: { iterations: String(result.iterations), searched: String(result.searched) },
    },
    pick ? h("div.sug-group", { dataset: { group: "pick" } }, h("h3", {}, t("sug.searchPick")), entries([pick], 0))
      : h("p.hint", {}, t("sug.noMove", { name: this.screen.playerName(result.player) })),
    others.length ? h("div.sug-group", { dataset: { group: "candidates" } }, h("h3", {}, t("sug.othersSearched")),
      entries(others, 1)) : null,
    h("p.hint.sug-foot.sug-iterations", {}, foot));
  }

  /** The red cap the moves are ranked by: the last answer's, else the core's default. */
  redCap() {
    return this.state.result?.red_cap ?? RED_CAP;
  }

  /** One suggestion as a button whose data attributes carry the engine's exact numbers. */
  item({ s, rank }, stale, cap) {
    const classes = ["suggestion", s.kind.replace(/_/g, "-")];
    if (s.certain) classes.push("certain");
    if (s.p_red > cap) classes.push("risky");
    if (this.isDrafted(s)) classes.push("chosen");
    return h(`button.${classes.join(".")}`, {
      disabled: stale,
      dataset: {
        rank: String(rank), kind: s.kind,
        targets: JSON.stringify(s.target ? [s.target] : s.targets),
        value: JSON.stringify(s.values || (s.value === undefined ? null : s.value)),
        pSuccess: String(s.p_success), pRed: String(s.p_red), bits: String(s.bits),
        certain: String(Boolean(s.certain)), pLegal: String(s.p_legal ?? 1),
        ...(s.visits === undefined ? {} : { visits: String(s.visits) }),
      },
      onclick: () => this.tap(s),
    },
    h("span.sug-line", {},
      h("span.sug-kind", {}, KIND_NAMES[s.kind] || s.kind),
      h("span.sug-what", {}, this.describe(s))),
    h("span.sug-stats", {},
      h("span.sug-p", { title: t("sug.pTitle") }, s.certain ? `${t("sug.certainMark")}${this.condition(s)}` : t("sug.p", { p: riskText(s.p_success) })),
      h(`span.sug-red${s.p_red > 0 ? ".some" : ""}`, { title: t("sug.redTitle") }, t("sug.red", { p: riskText(s.p_red) })),
      h("span.sug-bits", { title: t("sug.bitsTitle") }, t("sug.tells", { what: infoWords(Number(s.bits)) })),
      s.worth === undefined ? null : h("span.sug-worth", {
        title: t("sug.worthTitle"),
      }, `${t("sug.worth", { worth: s.worth.toFixed(2) })}${s.se ? ` ±${s.se.toFixed(2)}` : ""}`),
      s.visits === undefined ? null : h("span.sug-visits", {
        title: t("sug.visitsTitle"),
      }, t("sug.visits", { n: s.visits, mean: s.mean.toFixed(2) }))),
    this.whyText(s, cap) ? h("span.sug-why", {}, this.whyText(s, cap)) : null);
  }

  /**
   * The engine's reason, without the figures the stats already show (its
   * percentages round differently from the page's): one percentage per call.
   */
  whyText(s, cap) {
    // The core says which reason (`why_code`, bombbuster_core/suggest/ranking.py WHY_CODES) and the
    // page words it from the move's own fields; the core's `why` is its English, shown only for a
    // code this page does not know. A conditional certainty's condition is on the stats line.
    const values = s.values ? s.values.map(valueLabel).join(t("words.or")) : valueLabel(s.value);
    const code = s.why_code;
    if (code === "certain") {
      const one = ["dual_cut", "xy_ray"].includes(s.kind);
      if (this.condition(s)) return t(one ? "sug.why.canOnlyBe" : "sug.why.oneOfIs", { values });
      return t(one ? "sug.why.certainWire" : "sug.why.certainOneOf", { values });
    }
    if (code === "solo_cut") return t("sug.why.solo", { value: values, n: s.targets.length });
    if (code === "reveal_red") return t("sug.why.reveal");
    if (!["last_space", "futile", "odds"].includes(code)) return s.why;
    const notes = [];
    if (code === "last_space") notes.push(t("sug.why.lastSpace", { p: riskText(s.p_success) }));
    if (code === "futile") notes.push(t("sug.why.futile"));
    // At the dial's last space the red cap is not the ranking's test: a failure loses as red does.
    if (s.p_red > cap && code !== "last_space") notes.push(t("sug.why.aboveCap", { cap: Math.round(cap * 100) }));
    if (this.condition(s)) notes.push(t("sug.why.legalOnly", { condition: this.condition(s) }));
    return notes.join("; ");
  }

  /**
   * The condition a call's odds are under when the player may not hold the
   * value (public view, a teammate): " if Bob holds an 11 (24%)", else "".
   */
  condition(s) {
    if (s.p_legal === undefined || s.p_legal >= 1) return "";
    const who = this.screen.playerName(this.state.result?.player ?? this.player());
    const held = (s.values || [s.value]).map((v) => (v === "yellow" ? t("sug.aYellow") : t([8, 11, 18].includes(v) ? "sug.anValue" : "sug.aValue", { value: v })));
    return t("sug.condition", { name: who, held: held.join(t("words.and")), p: riskText(s.p_legal) });
  }

  /** Whether the recorder's draft is this move (the tapped suggestion stays marked while it is recorded). */
  isDrafted(s) {
    const d = this.screen.draft;
    if (!d || d.editIndex !== undefined || d.type !== s.kind || d.actor !== this.state.result?.player) return false;
    if (s.kind === "dual_cut") return Boolean(d.target) && sameSlot(d.target, s.target) && d.value === s.value;
    if (s.kind === "solo_cut") return d.value === s.value;
    return s.kind === "reveal_red";
  }

  describe(s) {
    const screen = this.screen;
    const values = s.values ? s.values.map(valueLabel).join(t("words.or")) : valueLabel(s.value);
    if (s.kind === "reveal_red") return t("sug.revealWires", { name: screen.playerName(this.state.result?.player ?? this.player()), n: s.targets.length });
    if (s.kind === "solo_cut") return `${values} × ${s.targets.length}`;
    if (s.target) return `${screen.slotName(s.target)} = ${values}`;
    const stands = [...new Set(s.targets.map((t) => `${t.player}:${t.stand}`))];
    const slots = s.targets.map((t) => t.slot + 1).join(", ");
    return stands.length === 1
      ? t("sug.standSlots", { stand: standName(screen.table, s.targets[0].player, s.targets[0].stand), slots, values })
      : `${s.targets.map((t) => screen.slotName(t)).join(", ")} = ${values}`;
  }

  // ------------------------------------------------------------ tapping

  /** Pre-fill the recorder for this move (dual, solo, reveal), or show an equipment move's details. */
  tap(s) {
    const actor = this.state.result ? this.state.result.player : this.player();
    const screen = this.screen;
    if (s.kind === "dual_cut") {
      const prefill = { actor, target: { ...s.target }, value: s.value };
      const mine = screen.myCutWire(actor, s.value);
      if (mine) prefill.actor_slot = mine; // asked only after a success
      screen.startDraft("dual_cut", prefill);
    } else if (s.kind === "solo_cut") {
      screen.startDraft("solo_cut", { actor, value: s.value, chosenSlots: s.targets.map((t) => ({ ...t })) });
    } else if (s.kind === "reveal_red") {
      screen.startDraft("reveal_red", { actor });
    } else {
      this.highlight(s);
      return this.showEquipment(s, actor);
    }
    this.highlight(s);
    this.revealRecorder();
  }

  showEquipment(s, actor) {
    const screen = this.screen;
    const targets = s.target ? [s.target] : s.targets;
    const values = s.values ? s.values.map(valueLabel).join(t("words.or")) : valueLabel(s.value);
    const outcome = (o) => {
      if (o.outcome === "success") {
        // An X or Y ray's success names the value cut (the core gives it), a yellow also its printed number.
        const printed = o.key !== undefined ? ` (Y${Math.floor(Number(o.key))})` : "";
        if (o.value !== undefined && s.values) return `${t("sug.outcome.itIs", { value: valueLabel(o.value) })}${printed}`;
        if (printed) return `${t("draft.success")}${printed}`;
        if (o.value !== undefined) return t("sug.outcome.itIs", { value: valueLabel(o.value) });
        return t("draft.success");
      }
      if (o.outcome === "token") return t("token.value", { value: valueLabel(o.value) });
      return o.outcome === "red" ? t("sug.outcome.red") : o.outcome;
    };
    const record = () => {
      // The recorder is pre-filled with the move (actor, wires, values); the
      // player then records what happened (success, cut wire, token).
      const copy = (t) => ({ ...t });
      if (s.kind === "xy_ray") {
        screen.startDraft("xy_ray", { actor, target: copy(s.target), value1: s.values[0], value2: s.values[1] });
      } else {
        const prefill = { actor, targets: targets.map(copy) };
        if (s.values) Object.assign(prefill, { xy: true, value1: s.values[0], value2: s.values[1] });
        else prefill.value = s.value;
        screen.startDraft(s.kind, prefill);
      }
      this.revealRecorder();
    };
    openSheet(`${KIND_NAMES[s.kind] || s.kind}: ${values}`,
      h("p.hint", {}, t("sug.ifYouUse")),
      h("ul.sug-targets", {}, targets.map((t) => h("li", {}, screen.slotName(t)))),
      this.condition(s) ? h("p.sug-condition", {}, t("sug.only", { condition: this.condition(s) })) : null,
      h("p.risk-summary", {}, h("span", {}, t("sug.success", { p: riskText(s.p_success) })), h("span.red", {}, t("slot.red", { p: riskText(s.p_red) })),
        h("span", { title: t("sug.infoTitle") }, t("sug.info", { bits: Number(s.bits).toFixed(2) }))),
      h("ul.distribution.sug-outcomes", {}, (s.outcomes || []).map((o) => h("li", {},
        h("span.dist-key", {}, outcome(o)),
        h("span.dist-bar", {}, h("span.dist-fill", { style: { width: `${o.p * 100}%` } })),
        h("span.dist-p", {}, riskText(o.p))))),
      h("p.hint", {}, this.whyText(s, this.state.result?.red_cap ?? 1)),
      h("div.actions", {}, h("button.secondary", { dataset: { action: "record-equipment" }, onclick: record }, t("sug.record"))));
  }

  /** Mark the suggestion's target wire(s) on the table. */
  highlight(s) {
    this.screen.highlighted = (s.target ? [s.target] : s.targets || []).map((t) => ({ ...t }));
    this.screen.render();
  }

  revealRecorder() {
    const recorder = document.querySelector(".recorder");
    if (!recorder) return;
    const box = recorder.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) recorder.scrollIntoView({ block: "nearest" });
  }
}
