// The table screen: every stand as a row of slots with its probabilities, the
// event recorder (taps: who, which slot, which value, outcome, token), the event
// log with undo/redo/edit/delete, and the slot detail sheet.
//
// Every change is first analysed as a candidate table with the full table file
// (my wires included); only a consistent candidate replaces the game's table,
// so an impossible event is refused with the engine's explanation and nothing
// is lost. The displayed analysis follows the chosen view (mine or public).
import { h, openSheet, closeSheet, toast, percent, ranked, scientific, coreReason, reasonWords, tableRefusal, dialNoteWords } from "./ui.js";
import { language, t, tn } from "./i18n.js";
import { gameState } from "./gamestate.js";
import { colourOf, describeEvent, label, playerName, possibleKeys, publicView, slotName, valueLabel } from "./model.js";
import { addressIndex, replay, specialName, tileAt } from "./layout.js";
import {
  ACTIONS, DEPENDENT_FIELDS, EVENT_NAMES, EXPLODED, actionById, actionOfEvent, actionOffered, draftFromEvent, eventFromDraft, optionColour,
  optionSpan, optionText, relevantActions, seenFromDraft, stepsFor, usesEquipment,
} from "./recorder.js";
import { CHARACTER_NAMES, DEFAULT_CHARACTER, NEEDS, boardListed, cardName, characterOf } from "./equipment.js";
import { CancelledError } from "./engine.js";
import { SuggestionsPanel } from "./suggestions.js";
import { HISTORY_STEPS } from "./storage.js";

const slotId = (p, s, j) => `${p}:${s}:${j}`;

// A phone held sideways: the table and the recorder side by side (app.css, the same query).
const LANDSCAPE_PHONE = window.matchMedia("(max-width: 899px) and (orientation: landscape) and (max-height: 540px)");

// Stands wrap by the screen's width: the table screen on show is drawn again when it changes (rotation).
let shownScreen = null;
let shownWidth = window.innerWidth;
window.addEventListener("resize", () => {
  if (window.innerWidth === shownWidth) return;
  shownWidth = window.innerWidth;
  if (shownScreen && shownScreen.root.querySelector(".game")) shownScreen.render();
});
// A double tap: the first tap changes the step and the second lands on whatever
// now stands under the finger (a double tap on "Dual cut" picked a player in the
// who-row). A tap at the spot of the previous one, on a different kind of control
// (the previous one redrawn away), is dropped unless the screen under it had been
// shown for a reaction time when the tap began: a player sees the new step before
// tapping it. "Began" is the pointerdown's timeStamp (when the finger touched,
// however late a slow phone handles it) and "shown" the first frame after the
// screen was drawn, so the guard holds on a page of any speed (a fixed window
// after the first tap let the second through on a phone-slow page). The same kind
// of control (Back or Undo twice, a position after a position) still takes it,
// and so does a key. The screen says when such a tap is taken again
// (.game[data-taps-from], in performance.now() time): the e2e tests wait for it.
const REACTION_MS = 300;
const DOUBLE_TAP_PX = 20;
let lastTap = null;
let tapBegan = null; // the timeStamp of the latest pointerdown: when the finger touched
const controlIdentity = (control) => ["action", "player", "stand", "slot", "value", "field", "mode", "seat", "index"]
  .map((key) => control.dataset[key] ?? "").join("|");
document.addEventListener("pointerdown", (event) => { tapBegan = event.timeStamp; }, true);
document.addEventListener("click", (event) => {
  const control = event.target instanceof Element ? event.target.closest("button") : null;
  if (!control || !control.closest(".game") || event.detail === 0) return;
  const tap = { x: event.clientX, y: event.clientY, control, identity: controlIdentity(control) };
  const began = tapBegan ?? event.timeStamp;
  const shown = control.closest(".game").shownAt ?? Infinity; // not shown yet: drawn after the tap began
  const previous = lastTap;
  if (previous && began < shown + REACTION_MS && !previous.control.isConnected
      && Math.hypot(tap.x - previous.x, tap.y - previous.y) < DOUBLE_TAP_PX && tap.identity !== previous.identity) {
    event.stopImmediatePropagation();
    event.preventDefault();
    return; // the guard keeps running from the first tap
  }
  lastTap = tap;
}, true);

/** Note when a drawn screen is first shown (the double-tap guard above). */
function markShown(screen) {
  screen.dataset.tapsFrom = "pending";
  requestAnimationFrame(() => {
    screen.shownAt = performance.now();
    screen.dataset.tapsFrom = String(screen.shownAt + REACTION_MS);
  });
}

/** A draft field as the edit form names it (catalogue keys field.NAME). */
const FIELDS = new Set([
  "actor", "target", "targets", "value", "value1", "value2", "success", "token", "token_at", "cut", "cut_value",
  "actor_slot", "keyTarget", "keyActor", "at", "slots", "from", "toStand", "toIndex", "a", "b", "a_to", "b_to", "seen",
  "player", "stand", "values", "count", "answers", "next", "ownFlipped", "characters", "added",
]);
export function fieldName(field) {
  if (FIELDS.has(field)) return t(`field.${field}`);
  const reveal = /^reveal(\d+)$/.exec(field);
  if (reveal) return t("field.reveal", { n: Number(reveal[1]) + 1 });
  const token = /^token(\d+)$/.exec(field);
  if (token) return t("field.tokenN", { n: Number(token[1]) + 1 });
  const card = /^card_(.+)$/.exec(field);
  if (card && NEEDS[card[1]]) return t("field.cardUsed", { card: NEEDS[card[1]].name });
  return field;
}

/**
 * The recorder's top on screen while it sits in the page's flow under the
 * content above it (scrolled down to it on a phone), else null (stuck to the
 * screen's foot, off screen, or beside the table on a wide screen).
 */
function recorderInFlowTop() {
  const recorder = document.querySelector(".recorder");
  const above = recorder && recorder.previousElementSibling;
  if (!above) return null;
  const top = recorder.getBoundingClientRect().top;
  const natural = above.getBoundingClientRect().bottom + parseFloat(getComputedStyle(recorder).marginTop);
  return Math.abs(top - natural) < 0.5 && top >= 0 && top < window.innerHeight ? top : null;
}

const RESULT_CACHE_SIZE = 12;
export class GameScreen {
  /**
   * engine: the scripting API; onSave(game) persists (it reports a failure
   * itself: the game stays as it is in memory); game: the saved game, its
   * undo history in game.past and game.future ({table, label}, storage.js).
   */
  constructor(root, { engine, game, onSave, onJoin = null, live = null }) {
    this.root = root;
    this.onJoin = onJoin;
    this.live = live; // a live table's joiner (live/session.js): its changes go to the host
    this.engine = engine;
    this.game = game;
    this.onSave = onSave;
    this.analysis = null;
    this.status = { kind: "idle" };
    this.draft = null;
    this.refusal = null;
    this.requestSeq = 0;
    this.results = new Map(); // table JSON → analysis, so view toggles and undo are instant
    this.suggestions = new SuggestionsPanel(this);
    // While the engine starts, changes are kept unchecked (the page is usable at once); the
    // analysis that follows checks them, and shows an impossible table as it does an imported one.
    this.engineStarting = true;
    Promise.resolve(engine.ready).catch(() => {}).then(() => { this.engineStarting = false; });
    shownScreen = this;
    this.refresh();
  }

  // ------------------------------------------------------------ queries

  get table() {
    return this.game.table;
  }

  hasMe() {
    return Boolean(this.table.me);
  }

  view() {
    return this.hasMe() ? this.game.view : "public";
  }

  viewTable() {
    return this.view() === "me" ? this.table : publicView(this.table);
  }

  keys() {
    return possibleKeys(this.table.wires);
  }

  /** Every sort key that may be in play, ascending. */
  allKeys() {
    const keys = this.keys();
    return [...keys.blue, ...keys.yellow, ...keys.red].sort((a, b) => a - b);
  }

  /** Blue values that count as red (M11): nobody may call them, reveal_red may reveal them. */
  countsAsRed() {
    const v = this.table.wires.counts_as_red;
    return v === undefined || v === null ? [] : [v];
  }

  /** Values a player can announce: the blue values, and "yellow" when yellows may be in play. */
  announceable() {
    const keys = this.keys();
    const red = this.countsAsRed();
    return [...keys.blue.filter((v) => !red.includes(v)), ...(keys.yellow.length ? ["yellow"] : [])];
  }

  /** Gameplay values: blue numbers, "yellow", "red" (those that may be in play). */
  gameplayValues() {
    const keys = this.keys();
    return [...keys.blue, ...(keys.yellow.length ? ["yellow"] : []), ...(keys.red.length || this.countsAsRed().length ? ["red"] : [])];
  }

  playerName(p) {
    return playerName(this.table, p);
  }

  slotName(slot) {
    return slotName(this.table, slot);
  }

  /** How many events the drawn table has seen: all of them, or those before the event being edited. */
  layoutIndex() {
    return this.draft && this.draft.editIndex !== undefined ? this.draft.editIndex : this.table.events.length;
  }

  /** The table as drawn and as the recorder addresses it (layout.js), cached per table and index. */
  layout() {
    const index = this.layoutIndex();
    if (!this.layoutCache || this.layoutCache.table !== this.table || this.layoutCache.index !== index) {
      this.layoutCache = { table: this.table, index, layout: replay(this.table, index) };
    }
    return this.layoutCache.layout;
  }

  /** tile id → its address after every event: the addresses of the analysis. */
  finalAddresses() {
    if (!this.finalCache || this.finalCache.table !== this.table) {
      this.finalCache = { table: this.table, index: addressIndex(replay(this.table)) };
    }
    return this.finalCache.index;
  }

  /** The analysis of the wire drawn at `slot` (a drawn address). */
  slotInfo(slot) {
    if (!this.analysis || !this.analysis.consistent) return null;
    const tile = tileAt(this.layout(), slot);
    const final = tile && this.finalAddresses().get(tile.id);
    return final ? this.slotIndex.get(slotId(final.player, final.stand, final.slot)) : null;
  }

  isCut(slot) {
    const tile = tileAt(this.layout(), slot);
    return Boolean(tile && tile.cut);
  }

  /** Addresses of one stand as drawn. */
  standSlots(player, stand) {
    const row = (this.layout().stands[player] || [])[stand] || [];
    return row.map((_, slot) => ({ player, stand, slot }));
  }

  uncutSlotsOf(player) {
    return this.layout().stands[player].flatMap((row, stand) => row.map((tile, slot) => ({ player, stand, slot, tile })))
      .filter((s) => !s.tile.cut).map(({ player: p, stand, slot }) => ({ player: p, stand, slot }));
  }

  /**
   * My uncut wires whose value I know, as drawn now: [{player, stand, slot,
   * key}]. A wire dealt to me carries its key from me.stands (moves and swaps
   * renumber stands); my flipped wires, X wires I did not note and wires I
   * received are left out. [] for anyone else's hand.
   */
  myKnownWires(player) {
    const me = this.table.me;
    if (!me || me.player !== player) return [];
    return this.layout().stands[player].flatMap((row, stand) => row.map((tile, slot) => {
      const dealt = tile.deal.player === player && me.stands[tile.deal.stand];
      const key = dealt ? me.stands[tile.deal.stand][tile.deal.slot] : null;
      return typeof key === "number" && !tile.cut ? { player, stand, slot, key, special: tile.special } : null;
    })).filter(Boolean);
  }

  /** My uncut sorted wires of a gameplay value (a blue number or "yellow"), as slots. */
  myWiresOf(player, value) {
    return this.myKnownWires(player).filter((w) => !w.special && (value === "yellow" ? colourOf(w.key) === "yellow"
      : colourOf(w.key) === "blue" && w.key === value)).map(({ player: p, stand, slot }) => ({ player: p, stand, slot }));
  }

  /**
   * The wire I cut on a success of `value`: my first uncut wire of it (equal
   * blue wires are interchangeable); a yellow only when I hold exactly one,
   * since yellow tiles differ by printed value. null when unknown.
   */
  myCutWire(player, value) {
    const matches = this.myWiresOf(player, value);
    return value === "yellow" && matches.length !== 1 ? null : matches[0] || null;
  }

  /** The game's state derived from the log (gamestate.js), cached per table. */
  state() {
    if (!this.stateCache || this.stateCache.table !== this.table) this.stateCache = { table: this.table, state: gameState(this.table) };
    return this.stateCache.state;
  }

  /**
   * The board as the core last reported it (analyze's `equipment`). An
   * inconsistent answer has none: the recorder keeps the last one meanwhile,
   * as it does while the next analysis is on its way.
   */
  keepBoard(result) {
    if (result && result.equipment) this.board = result.equipment;
  }

  /**
   * What the recorder may offer from the board (recorder.js actionOffered,
   * equipment.js providers), or null when the table does not list its board
   * (old games: everything is offered, as before). An edit offers every card
   * on the board: the page knows the board after the last event, not before
   * the edited one, and the core refuses a card that was not usable then.
   */
  equipmentOffer() {
    if (!boardListed(this.table)) return null;
    return { table: this.table, board: this.board || null, anyState: Boolean(this.draft && this.draft.editIndex !== undefined) };
  }

  // ------------------------------------------------------------ engine

  remember(table, result) {
    this.results.set(JSON.stringify(table), result);
    if (this.results.size > RESULT_CACHE_SIZE) this.results.delete(this.results.keys().next().value);
  }

  /** Analyse the other view on a free worker, so toggling the view is instant. */
  prefetchOtherView() {
    if (!this.hasMe()) return;
    const other = this.view() === "me" ? publicView(this.table) : this.table;
    const key = JSON.stringify(other);
    if (this.results.has(key)) return;
    this.engine.analyze(other).then((result) => this.remember(other, result), () => {});
  }

  setAnalysis(result) {
    this.analysis = result;
    this.keepBoard(result);
    this.slotIndex = new Map((result.slots || []).map((s) => [slotId(s.player, s.stand, s.slot), s]));
  }

  /** Analyse the table in the current view and show it. */
  async refresh() {
    // A newer request supersedes this one: its answer is ignored (seq), not
    // cancelled, since cancelling costs a worker restart.
    const seq = ++this.requestSeq;
    const table = this.viewTable();
    const known = this.results.get(JSON.stringify(table));
    if (known) {
      this.setAnalysis(known);
      this.status = known.consistent ? { kind: "ok" } : { kind: "error", message: known.error, result: known };
      this.render();
      this.prefetchOtherView();
      return;
    }
    const abort = (this.abort = new AbortController());
    this.status = { kind: "busy", ms: 0 };
    this.render();
    try {
      const result = await this.engine.analyze(table, {
        signal: abort.signal,
        onProgress: (ms) => { if (seq === this.requestSeq) this.showBusy(ms); },
      });
      this.remember(table, result);
      if (seq !== this.requestSeq) return;
      this.setAnalysis(result);
      this.status = result.consistent ? { kind: "ok" } : { kind: "error", message: result.error, result };
      this.prefetchOtherView();
    } catch (error) {
      if (seq !== this.requestSeq) return;
      this.status = error instanceof CancelledError ? { kind: "cancelled" } : { kind: "error", message: error.message, refused: error };
    }
    this.render();
  }

  /**
   * Replace the table by `candidate` if the engine finds it consistent; else
   * refuse with its explanation and keep everything as it was. While the engine
   * starts, replace it unchecked (the analysis that follows checks it).
   */
  async tryCommit(candidate, label = t("history.change")) {
    if (!this.engineStarting || this.live) {
      this.status = { kind: "checking" };
      this.render();
      let result;
      try {
        result = await this.engine.analyze(candidate);
      } catch (error) {
        return this.refuse(t("refusal.unreadable"), tableRefusal(error, candidate));
      }
      if (!result.consistent) {
        const event = candidate.events[result.event];
        const headline = event ? t("refusal.impossibleEvent", { what: describeEvent(event, candidate), event: result.event + 1 }) : t("refusal.impossible");
        return this.refuse(headline, coreReason(result, candidate));
      }
      this.remember(candidate, result);
      this.keepBoard(result);
    }
    if (this.live) return this.sendToHost(candidate);
    const before = this.table;
    this.game.past = [...(this.game.past || []), { table: before, label }].slice(-HISTORY_STEPS);
    this.game.future = [];
    this.game.table = candidate;
    this.onSave(this.game);
    this.draft = null;
    this.refusal = null;
    const wasOver = gameState(before).over;
    await this.refresh(); // from the cache in my view
    // The last cut (or a loss): the banner at the top of the screen comes into view.
    if (!wasOver && this.state().over) this.root.querySelector(".game-over")?.scrollIntoView({ block: "nearest" });
    return true;
  }

  /**
   * A live table's joiner: the host appends the change (its log then comes
   * back through replaceTable) or refuses it with its reason, shown here.
   */
  async sendToHost(candidate) {
    const answer = await this.live.propose(this, candidate);
    if (!answer.ok) return this.refuse(answer.headline, answer.reason, t("refusal.notAddedLive"), t("refusal.source.host"));
    this.draft = null;
    this.refusal = null;
    this.render();
    return true;
  }

  /** A table changed elsewhere (a live table's other phones): shown at once; a label puts it in the undo history. */
  replaceTable(table, label = null) {
    if (label) {
      this.game.past = [...(this.game.past || []), { table: this.table, label }].slice(-HISTORY_STEPS);
      this.game.future = [];
    }
    this.game.table = table;
    this.onSave(this.game);
    this.refresh();
  }

  /** Keep the draft and the table; show why the engine (or a live table's host) refused. */
  refuse(headline, engineMessage, note = t("refusal.toast"), source = t("refusal.source.engine")) {
    this.refusal = { headline, engineMessage, source };
    this.status = this.analysis ? { kind: "ok" } : { kind: "idle" };
    toast(note, "error");
    this.render();
    return false;
  }

  // ------------------------------------------------------------ actions

  setView(view) {
    if (!this.hasMe() || view === this.game.view) return;
    this.game.view = view;
    this.onSave(this.game);
    this.refresh();
  }

  /**
   * The table with `events` and my private sightings (me.seen) edited to
   * match: `drop(entry)` removes sightings, `shift(after)` renumbers them.
   */
  withEvents(events, { drop = () => false, shift = (after) => after, add = [] } = {}) {
    const table = { ...this.table, events };
    if (!table.me) return table;
    const seen = (table.me.seen || []).filter((entry) => !drop(entry))
      .map((entry) => (entry.after === undefined ? entry : { ...entry, after: shift(entry.after) }));
    seen.push(...add);
    const me = { ...table.me, seen };
    if (!seen.length) delete me.seen;
    table.me = me;
    return table;
  }

  record(event, seen = null) {
    const events = [...this.table.events];
    const editing = this.draft && this.draft.editIndex !== undefined;
    const index = editing ? this.draft.editIndex : events.length;
    if (editing) events[index] = event;
    else events.push(event);
    const candidate = this.withEvents(events, {
      drop: (entry) => editing && entry.after === index,
      add: seen ? [seen] : [],
    });
    const changed = editing && this.draft.changed && this.draft.changed.length ? ` (${this.draft.changed.map(fieldName).join(", ")})` : "";
    return this.tryCommit(candidate, editing ? t("history.edit", { event: index + 1, changed }) : t("history.record", { what: EVENT_NAMES[this.draft.action] || event.type }));
  }

  /** Undo the last change of the table (a record, an edit or a delete). */
  undo() {
    this.travel("past", "future", t("history.undone"));
  }

  redo() {
    this.travel("future", "past", t("history.redone"));
  }

  /** One step through the history: the newest entry of `from` becomes the table, the table goes on `to`. */
  travel(from, to, verb) {
    const source = this.game[from] || [];
    if (!source.length) return;
    const step = source[source.length - 1];
    this.game[to] = [...(this.game[to] || []), { table: this.table, label: step.label }];
    this.game[from] = source.slice(0, -1);
    this.game.table = step.table;
    this.afterHistory(`${verb}: ${step.label}`);
  }

  afterHistory(message) {
    this.onSave(this.game);
    this.draft = null;
    this.refusal = null;
    toast(message);
    this.refresh();
  }

  /** Delete an event at once (no question): Undo brings it back. */
  deleteEvent(index) {
    const events = this.table.events.filter((_, i) => i !== index);
    this.tryCommit(this.withEvents(events, {
      drop: (entry) => entry.after === index,
      shift: (after) => (after > index ? after - 1 : after),
    }), t("history.delete", { event: index + 1 })).then((done) => { if (done) toast(t("history.deleted", { event: index + 1 })); });
  }

  /** Start recording with one of the ACTIONS (its id), optionally pre-filled. */
  startDraft(actionId, prefill = {}) {
    closeSheet();
    if (this.state().lost) return toast(t("over.lostToast"));
    if (this.state().won) return toast(t("over.wonToast"));
    const action = actionById(actionId) || actionById("dual_cut");
    const preset = { ...(action.preset || {}) };
    if (preset.xy) preset.xyPreset = true;
    if (preset.stabilizer) preset.stabilizerPreset = true;
    this.draft = { type: action.type, action: action.id, ...preset, ...prefill };
    this.moreActions = false;
    this.highlighted = null;
    // The player to move is pre-selected as the actor (the who-row above the steps changes it with one tap).
    const turn = this.state().turn;
    const actorStep = this.steps().find((step) => step.field === "actor");
    if (actorStep && !action.noPreselect && this.draft.actor === undefined && this.draft.editIndex === undefined && turn !== null
        && (!actorStep.allow || actorStep.allow(turn))) {
      this.draft.actor = turn;
      this.draft.actorPreselected = true;
    }
    if (this.draft.type === "reveal_red" && this.draft.actor !== undefined) this.draft.redSlots = this.uncutSlotsOf(this.draft.actor);
    this.refusal = null;
    this.render();
  }

  /** The who-row: another actor for the draft; fields that depended on the actor are asked again. */
  changeActor(p) {
    const draft = this.draft;
    if (draft.actor === p) return;
    draft.actor = p;
    this.afterActorChange();
    this.refusal = null;
    this.render();
  }

  /** Clear the draft's fields that depended on the actor (its own wires, a target on its own stand). */
  afterActorChange() {
    const draft = this.draft;
    const p = draft.actor;
    delete draft.actorPreselected;
    if (draft.target && draft.target.player === p) delete draft.target;
    if (draft.targets && draft.targets.some((t) => t.player === p)) delete draft.targets;
    for (const field of ["actor_slot", "slots", "chosenSlots"]) delete draft[field];
    // Own wires, and a character's card: both were the old actor's.
    for (const field of Object.keys(draft)) if (/^reveal\d+$/.test(field) || /^card_/.test(field)) delete draft[field];
    if (draft.type === "reveal_red") draft.redSlots = this.uncutSlotsOf(p);
  }

  // ------------------------------------------------------------ edit one field

  /** Open a recorded event with its fields filled in: one can be changed, then saved (undoable). */
  editEvent(index) {
    closeSheet();
    this.draft = { ...draftFromEvent(this.table.events[index], this.table, index), changed: [] };
    this.editBackup = null;
    this.moreActions = false;
    this.highlighted = null;
    this.refusal = null;
    this.render();
  }

  /** Ask one field of the event being edited again (the fields that depended on it too). */
  changeField(field) {
    const draft = this.draft;
    const step = this.steps().find((s) => s.field === field);
    this.editBackup = JSON.parse(JSON.stringify({ ...draft, changed: undefined }));
    this.editBackup.changed = [...draft.changed];
    const old = draft[field];
    delete draft[field];
    for (const other of [...(DEPENDENT_FIELDS[field] || []), ...((step && step.clears) || [])]) {
      if (!(other === "stabilizer" && draft.stabilizerPreset)) delete draft[other];
    }
    // Start from the old choice where a step collects several (wires, answers, values).
    if (step && step.kind === "slots" && Array.isArray(old)) draft.chosenSlots = old.map((t) => ({ ...t }));
    if (step && step.kind === "answers" && Array.isArray(old)) draft.picks = old.map((row) => [...row]);
    if (step && (step.kind === "multivalue" || step.kind === "multichoice") && Array.isArray(old)) draft.picks = [...old];
    draft.changing = field;
    this.refusal = null;
    this.render();
  }

  /** Save the edited event: replaces it in the log if the engine finds the table possible. */
  saveEdit() {
    const draft = this.draft;
    this.fillAutomatic();
    this.record(eventFromDraft(draft), seenFromDraft(draft, this.table, draft.editIndex));
  }

  /** The form of the event being edited: each field, its value and a Change button; Save and Cancel. */
  editForm() {
    const draft = this.draft;
    const rows = this.steps().filter((step) => step.field !== "seen" || draft.seen !== undefined);
    return h("div.edit-form", {},
      h("ul.edit-fields", {}, rows.map((step) => h(`li.edit-field${draft.changed.includes(step.field) ? ".changed" : ""}`, {
        dataset: { field: step.field },
      },
      h("span.edit-name", {}, fieldName(step.field)),
      h("span.edit-value", { dataset: { value: JSON.stringify(draft[step.field] === undefined ? null : draft[step.field]) } },
        this.fieldText(step, draft[step.field])),
      h("button.secondary.edit-change", {
        dataset: { action: "change", field: step.field }, "aria-label": t("edit.changeLabel", { field: fieldName(step.field).toLowerCase() }),
        onclick: () => this.changeField(step.field),
      }, t("edit.change"))))),
      h("div.options", {}, h("button.option.good", {
        dataset: { action: "save-edit" }, disabled: !draft.changed.length, onclick: () => this.saveEdit(),
      }, draft.changed.length ? t("edit.save") : t("edit.nothing"))));
  }

  /** A filled field of the draft as words. */
  fieldText(step, value) {
    const draft = this.draft;
    const slotText = (slot) => this.slotName(slot);
    switch (step.kind) {
      case "player":
        return value === null || value === undefined ? (step.nullText || t("edit.notNoted")) : this.playerName(value);
      case "slot":
        if (value === "nano") return t("edit.fromNano");
        return Array.isArray(value) ? value.map(slotText).join(", ") : slotText(value);
      case "slots":
        return value.length ? value.map(slotText).join(", ") : t("edit.none");
      case "value":
        return optionText(value, step.nullText || (step.field === "token" ? t("edit.noToken") : t("edit.notNoted")));
      case "choice": {
        if (step.field === "success" && value === false && draft.stabilizer) return t("edit.failedStabilizer", { card: cardName("9") });
        if (step.text) return step.text(value === undefined ? step.auto : value);
        const choice = step.choices.find(([, v]) => JSON.stringify(v) === JSON.stringify(value));
        return choice ? choice[0] : String(value);
      }
      case "stand":
        return this.table.players[value.player].stands.length > 1 ? t("name.stand", { name: this.playerName(value.player), stand: value.stand + 1 }) : this.playerName(value.player);
      case "position":
        return t("edit.position", { n: value + 1 });
      case "answers": {
        const yes = [];
        value.forEach((row, p) => row.forEach((answer, s) => { if (answer) yes.push(row.length > 1 ? t("name.stand", { name: this.playerName(p), stand: s + 1 }) : this.playerName(p)); }));
        return t("edit.yesFrom", { who: yes.length ? yes.join(", ") : t("words.nobody") });
      }
      case "multivalue":
        return value.map((v) => optionText(v)).join(", ");
      case "multichoice":
        return (value || []).map((v) => (step.choices.find(([, c]) => c === v) || [String(v)])[0]).join(", ");
      default:
        return JSON.stringify(value);
    }
  }

  steps() {
    return stepsFor(this.draft, this);
  }

  /** The first step still to ask; a step with a single way to answer (`auto`) is filled at the end, not asked. */
  currentStep() {
    return this.steps().find((step) => this.draft[step.field] === undefined && step.auto === undefined);
  }

  fillAutomatic() {
    for (const step of this.steps()) if (step.auto !== undefined && this.draft[step.field] === undefined) this.draft[step.field] = step.auto;
  }

  fill(field, value) {
    const step = this.steps().find((s) => s.field === field);
    if (field === "success" && value === "stabilizer") {
      this.draft.success = false;
      this.draft.stabilizer = true;
    } else {
      this.draft[field] = step && step.convert ? step.convert(value) : value;
    }
    if (field === "actor" && this.draft.type === "reveal_red") this.draft.redSlots = this.uncutSlotsOf(value);
    if (this.draft.editIndex !== undefined) {
      // An edit: the field changed, and what depended on the actor is asked again.
      if (field === "actor" && this.editBackup && this.editBackup.actor !== value) this.afterActorChange();
      const changed = this.draft.changed || (this.draft.changed = []);
      if (!changed.includes(field)) changed.push(field);
      delete this.draft.changing;
    }
    if (step && (step.kind === "slots" || step.kind === "answers" || step.kind === "multivalue" || step.kind === "multichoice")) {
      delete this.draft.chosenSlots;
      delete this.draft.picks;
    }
    this.refusal = null;
    this.advance();
  }

  /** Record the draft when every step is filled, else show the next step. */
  advance() {
    if (!this.currentStep() && this.draft.editIndex !== undefined) {
      this.editBackup = null;
      this.render(); // back to the edit form: Save records the change
    } else if (!this.currentStep()) {
      this.fillAutomatic();
      const index = this.layoutIndex();
      this.record(eventFromDraft(this.draft), seenFromDraft(this.draft, this.table, index));
    } else {
      this.render();
    }
  }

  /** An extra button of a step: "xy" (two values: X or Y ray), "nano" (from Nano). */
  extra(action) {
    if (action === "xy") {
      this.draft.xy = true;
      this.draft.xyToggled = true;
      this.render();
    } else if (action === "nano") {
      this.fill("from", "nano");
    } else if (action === "no-actor") {
      this.fill("actor", null);
    }
  }

  back() {
    const draft = this.draft;
    if (draft.editIndex !== undefined) {
      // An edit: Back leaves the field being changed as it was (the form again), or closes the form.
      if (this.editBackup) this.draft = this.editBackup;
      else this.draft = null;
      this.editBackup = null;
      this.refusal = null;
      return this.render();
    }
    if ((draft.chosenSlots && draft.chosenSlots.length) || draft.picks) {
      delete draft.chosenSlots;
      delete draft.picks;
    } else if (draft.xyToggled && draft.value1 === undefined) {
      delete draft.xy;
      delete draft.xyToggled;
    } else {
      const steps = this.steps();
      // Fields filled without a tap are filled again at the end: Back steps over them.
      for (const step of steps) if (step.auto !== undefined) delete draft[step.field];
      const filled = steps.filter((step) => draft[step.field] !== undefined && step.auto === undefined);
      if (!filled.length) {
        this.draft = null;
      } else {
        const last = filled[filled.length - 1];
        delete draft[last.field];
        for (const field of last.clears || []) if (!(field === "stabilizer" && draft.stabilizerPreset)) delete draft[field];
      }
    }
    this.refusal = null;
    this.render();
  }

  onSlotTap(slot) {
    const step = this.draft && this.currentStep();
    if (step && step.kind === "slot") {
      if (step.allow(slot)) this.fill(step.field, slot);
      else toast(t("step.cannotChoose"));
    } else if (step && step.kind === "slots") {
      const chosen = this.draft.chosenSlots || (this.draft.chosenSlots = []);
      const at = chosen.findIndex((s) => s.player === slot.player && s.stand === slot.stand && s.slot === slot.slot);
      if (at >= 0) {
        chosen.splice(at, 1);
        return this.render();
      }
      if (!step.allow(slot, chosen)) return toast(t("step.cannotChoose"));
      chosen.push(slot);
      if (step.count && chosen.length === step.count) this.fill(step.field, [...chosen]);
      else this.render();
    } else {
      this.showSlot(slot);
    }
  }

  // ------------------------------------------------------------ rendering

  showBusy(ms) {
    const text = this.root.querySelector(".analysis-status .status-text");
    if (text) text.textContent = t("status.analysingFor", { seconds: (ms / 1000).toFixed(1) });
  }

  render() {
    // A screen another has replaced (the setup, another game) is gone: an answer of its engine
    // landing later must not draw it over the screen on show.
    if (this.shown && !this.shown.isConnected) return;
    const scroll = window.scrollY;
    // An analysis landing can change the height of what is above the recorder
    // (the status row, a new token on the table): when the player has scrolled
    // down to the recorder, it stays where it was under their finger.
    const recorderTop = recorderInFlowTop();
    const screen = h("div.game", { dataset: { view: this.view() } },
      h("div.top-area", {}, this.joinCard(), this.stateView(), this.statusBar()),
      this.tableView(), this.suggestionsView(), this.recorder(), this.eventLog());
    this.root.replaceChildren(screen);
    this.shown = screen;
    markShown(screen);
    window.scrollTo(0, scroll);
    if (recorderTop !== null) window.scrollBy(0, this.root.querySelector(".recorder").getBoundingClientRect().top - recorderTop);
    this.revealAskedWires();
  }

  /**
   * A step that asks for a wire: when a wire it allows is out of sight (in
   * landscape the asked stand can sit under the top bar), the wires are
   * scrolled into view below the top bar, once per step (the player's own
   * scrolling is kept), when they fit on screen.
   */
  revealAskedWires() {
    const step = this.draft ? this.currentStep() : null;
    const asking = step && (step.kind === "slot" || step.kind === "slots") ? `${this.draft.type}:${step.field}` : null;
    if (asking === this.revealedStep) return;
    this.revealedStep = asking;
    const wires = asking ? [...this.root.querySelectorAll(".table .slot.selectable")] : [];
    // Only a wire of one player's (the cutter's own, the wires a detector pointed at): a step open
    // to many players' wires leaves the page where the player scrolled it.
    if (!wires.length || new Set(wires.map((wire) => wire.dataset.player)).size > 1) return;
    const boxes = wires.map((wire) => wire.getBoundingClientRect());
    const barBottom = document.querySelector(".topbar")?.getBoundingClientRect().bottom ?? 0;
    const top = Math.min(...boxes.map((b) => b.top));
    const bottom = Math.max(...boxes.map((b) => b.bottom));
    if (bottom - top > window.innerHeight - barBottom) return;
    if (top < barBottom) window.scrollBy(0, top - barBottom - 8);
    else if (bottom > window.innerHeight) window.scrollBy(0, bottom - window.innerHeight + 8);
  }

  /** The suggestions panel; after an explosion or the win there is no next move, so no request either. */
  suggestionsView() {
    if (!this.state().over) return this.suggestions.element();
    return h("section.suggestions", { "aria-label": t("suggestions.label"), dataset: { state: "over" } },
      h("p.hint", {}, t("over.noSuggestions")));
  }

  /** A table received from a teammate: which seat is mine? (Not a dialog: the table stays usable.) */
  joinCard() {
    if (!this.game.joinPending || !this.onJoin) return null;
    return h("section.join-card", { "aria-label": t("joinCard.label") },
      h("b", {}, t("joinCard.which")),
      h("p.hint", {}, t("joinCard.then")),
      h("div.options", {}, this.table.players.map((player, p) => h("button.option.join-seat", {
        dataset: { seat: String(p) }, onclick: () => this.onJoin(this.game, p),
      }, player.name)), h("button.option.join-seat", { dataset: { seat: "none" }, onclick: () => this.onJoin(this.game, null) }, t("joinCard.watch"))));
  }

  /** The game at a glance: detonator dial, whose turn, validated values, equipment unlocked; the win/loss banner. */
  stateView() {
    const state = this.state();
    // The spaces drawn: from the furthest the dial may be moved back (its start, or M41's room behind it) to the skull.
    const spaces = state.limit + state.room;
    const hits = state.failures + state.room;
    const dial = h("div.dial", {
      role: "img", "aria-label": t("dial.label", { failures: Math.max(0, state.failures), limit: state.limit, left: state.left === 0 ? t("dial.exploded") : tn("dial.allowed", state.left - 1) }),
      dataset: { failures: String(state.failures), limit: String(state.limit) },
      title: dialNoteWords(state.dialNoteCode),
    }, Array.from({ length: spaces }, (_, i) => h(`span.dial-step${i < hits ? ".hit" : ""}${i === spaces - 1 ? ".skull" : ""}`, {},
      i === spaces - 1 ? "☠" : String(i + 1))));
    const safe = Math.max(0, state.left - 1);
    const parts = [
      h("div.state-row", {}, h("span.state-label", {}, t("dial.title")), dial,
        h("span.state-note", { id: "dial-note" }, state.dialUnread ? t("dial.unread") : state.lost ? t("dial.exploded") : safe === 0 ? t("dial.next") : tn("dial.allowed", safe))),
      state.dialNoteCode ? h("p.hint.dial-mission", { id: "dial-mission" }, dialNoteWords(state.dialNoteCode)) : null,
    ];
    if (!state.over) {
      parts.push(h("div.state-row", {}, h("span.state-label", {}, t("state.toPlay")),
        h("b", { id: "turn", dataset: { player: state.turn === null ? "" : String(state.turn) } }, state.turn === null ? t("state.nobody") : this.playerName(state.turn)),
        h("span.state-note", {}, t("state.wiresLeft", { n: state.wiresLeft, of: state.wiresTotal }))));
    }
    const listed = boardListed(this.table);
    // Each label wraps with its value: a longer label ("Ausrüstung freigeschaltet") once left its value alone on the next line.
    parts.push(h("div.state-row", {},
      h("span.state-pair", {}, h("span.state-label", {}, t("state.validated")),
        h("span", { id: "validated", dataset: { values: JSON.stringify(state.validated) } }, state.validated.length ? state.validated.join(" · ") : t("state.noneYet"))),
      // A table that lists its board shows the core's board below; an old one the values that unlock a card.
      listed ? null : h("span.state-pair", {}, h("span.state-label", {}, t("state.unlocked")),
        h("span", { id: "unlocked", dataset: { values: JSON.stringify(state.unlocked) } },
          !state.unlocked ? t("state.unlockedUnread") : state.unlocked.length ? state.unlocked.join(" · ") : t("state.noneYet")))));
    if (listed) parts.push(this.boardStrip());
    const headline = state.won ? t("over.won")
      : state.lostBy === "explosion" ? t("over.exploded", { event: state.exploded + 1 })
        : t("over.skull");
    const banner = state.over ? h(`div.game-over.${state.won ? "won" : "lost"}`, {
      role: "alert", dataset: { result: state.won ? "won" : "lost", cause: state.lostBy || "" },
    }, h("h2", {}, headline),
      state.lostBy === "explosion" ? h("p", {}, describeEvent(this.table.events[state.exploded], this.table)) : null,
      this.summary(state)) : null;
    return h("section.game-state", { "aria-label": t("state.label"), dataset: { over: state.over ? (state.won ? "won" : "lost") : "" } }, banner, ...parts);
  }

  /**
   * The board strip: each card locked / ready / used and each player's
   * character, as the core's last analysis gave them (until one lands, the
   * cards listed, state unknown).
   */
  boardStrip() {
    const board = this.board;
    const cards = board ? board.cards : this.table.equipment.map((entry) => ({ card: entry.card, name: cardName(entry.card), state: "unknown", cover: entry.cover }));
    const STATE_WORDS = { locked: t("board.locked"), unlocked: t("board.ready"), used: t("board.used"), unknown: "…" };
    const characters = this.table.players.map((player, p) => ({
      player, character: characterOf(this.table, p), used: Boolean(board && board.characters[p] && board.characters[p].used),
    }));
    const allDouble = characters.every((c) => c.character === DEFAULT_CHARACTER);
    return h("div.board-strip", { id: "board", role: "group", "aria-label": t("board.label") },
      h("div.state-row", {}, h("span.state-label", {}, t("board.title")),
        cards.length ? h("ul.board-cards", {}, cards.map((c) => h(`li.board-card.${c.state}`, {
          dataset: { card: c.card, state: c.state }, "aria-label": t("board.cardLabel", { card: c.card, name: c.name, state: STATE_WORDS[c.state] }),
        }, h("b", {}, c.card), h("span.card-name", {}, c.name),
        // M12: the Number card over the card, struck through once its pair is cut (the core's `covered`)
        c.cover === undefined ? null : h(`span.card-cover${c.covered === false ? ".removed" : ""}`, { dataset: { cover: String(c.cover) } }, t("board.cover", { value: c.cover })),
        h("span.card-state", {}, STATE_WORDS[c.state]))))
          : h("span", {}, t("board.none"))),
      h("div.state-row", {}, h("span.state-label", {}, allDouble ? t("board.doubles") : t("board.characters")),
        h("ul.board-cards.characters", {}, characters.map((c, p) => h(`li.board-card.${c.used ? "used" : "unlocked"}`, {
          dataset: { player: String(p), character: c.character, state: c.used ? "used" : "unlocked" },
          "aria-label": t("board.characterLabel", { name: c.player.name, character: CHARACTER_NAMES[c.character], state: c.used ? t("board.used") : t("board.ready") }),
        }, h("span.card-name", {}, allDouble ? c.player.name : `${c.player.name}: ${CHARACTER_NAMES[c.character]}`),
        c.used ? h("span.card-state", {}, t("board.used")) : null)))));
  }

  /** The end-of-game summary: turns, failures, and each player's turns. */
  summary(state) {
    return h("div.summary", {},
      h("p", {}, [tn("summary.turns", state.turns), tn("summary.failures", state.failures, { of: state.limit - 1 }),
        tn("summary.cut", state.wiresTotal - state.wiresLeft), tn("summary.events", this.table.events.length)].join(" · ")),
      h("ul.summary-players", {}, this.table.players.map((player, p) => h("li", {},
        h("b", {}, player.name), t("summary.player", { turns: state.perPlayer[p].turns, successes: state.perPlayer[p].successes, failures: state.perPlayer[p].failures })))));
  }

  statusBar() {
    const { kind, message } = this.status;
    const children = [];
    if (kind === "busy") {
      children.push(h("span.spinner"), h("span.status-text", {}, t("status.analysing")),
        h("button.link", { onclick: () => this.abort && this.abort.abort() }, t("common.cancel")));
    } else if (kind === "checking") {
      children.push(h("span.spinner"), h("span.status-text", {}, t("status.checking")));
    } else if (kind === "cancelled") {
      children.push(h("span.status-text", {}, t("status.cancelled")), h("button.link", { onclick: () => this.refresh() }, t("status.again")));
    } else if (kind === "error") {
      children.push(h("span.status-text.bad", {}, t("status.inconsistent", { reason: this.status.result ? coreReason(this.status.result, this.table) : tableRefusal(this.status.refused || { message }, this.table) })));
    } else if (kind === "ok" && this.analysis) {
      const worlds = this.analysis.worlds;
      const exact = typeof worlds === "bigint" ? worlds.toString() : String(Math.round(Number(worlds)));
      // Every wire cut: nothing is hidden, though the count (copies of a value told apart) is not 1.
      const known = this.state().wiresLeft === 0;
      children.push(h("span.status-text", {}, `${this.view() === "me" ? t("view.me") : t("view.public")} · `,
        h("button.link.worlds", {
          id: "worlds", dataset: { worlds: exact, known: String(known) }, title: t("worlds.tap"),
          "aria-label": known ? t("worlds.knownLabel") : t("worlds.label", { count: scientific(worlds) }),
          onclick: () => openSheet(known ? t("worlds.knownTitle") : t("worlds.title"),
            known ? h("p", {}, t("worlds.knownText"))
              : h("p", {}, this.view() === "me" ? t("worlds.textMine") : t("worlds.text")),
            h("p.exact-worlds", {}, BigInt(exact).toLocaleString(language)),
            h("p.hint", {}, t("worlds.share"))),
        }, known ? t("worlds.known") : scientific(worlds)),
        known ? "" : ` ${t("worlds.deals")}`));
    }
    return h(`div.analysis-status.${kind}`, { role: "status" }, ...children);
  }

  /** Addresses the draft has chosen so far (marked on the table). */
  draftSlots() {
    const d = this.draft;
    if (!d) return [];
    const isSlot = (v) => v && typeof v === "object" && typeof v.slot === "number" && typeof v.stand === "number";
    const out = [];
    for (const [field, value] of Object.entries(d)) {
      if (field === "editIndex" || field === "redSlots") continue;
      if (isSlot(value)) out.push({ player: value.player ?? d.actor, stand: value.stand, slot: value.slot });
      else if (Array.isArray(value)) value.filter(isSlot).forEach((v) => out.push({ player: v.player ?? d.actor, stand: v.stand, slot: v.slot }));
    }
    const step = this.currentStep();
    if (step && step.slot) out.push(step.slot);
    return out;
  }

  tableView() {
    const step = this.draft && this.currentStep();
    const picked = this.draftSlots();
    const meIndex = this.table.me ? this.table.me.player : -1;
    const layout = this.layout();
    const receiving = step && step.kind === "position" ? step.stand : null;
    const tokenText = (token) => {
      if (token.parity) return token.parity === "even" ? t("mark.even") : t("mark.odd");
      if (token.count !== undefined) return `×${token.count}`;
      const v = token.value === "yellow" ? t("mark.yellow") : String(token.value);
      return token.false ? `≠${v}` : v;
    };
    const stand = (player, p, row, s) => {
      const spec = player.stands[s];
      const special = specialName(spec) && t(`stand.special.${specialName(spec).replace(/\W+/g, "_")}`);
      const beside = layout.beside[p].filter((note) => note.stand === null || note.stand === s || player.stands.length === 1);
      const isReceiving = receiving && receiving.player === p && receiving.stand === s;
      const labels = layout.labels.map((lab) => ({ ...lab, j: row.findIndex((t) => t.id === lab.left) }))
        .filter((lab) => lab.j >= 0 && row[lab.j + 1] && row[lab.j + 1].id === lab.right);
      // On a phone a long stand wraps into rows, so that every slot stays ≥ 44 px wide.
      const cols = this.columnsFor(row.length);
      const place = (j) => ({ "grid-column": String((j % cols) + 1), "grid-row": String(2 * Math.floor(j / cols) + 1) });
      return h("div.stand-box", {},
        h(`div.stand${isReceiving ? ".receiving" : ""}${cols < row.length ? ".wrapped" : ""}`, {
          role: "group", "aria-label": t("name.stand", { name: player.name, stand: s + 1 }), dataset: { stand: String(s) },
          style: { "--slots": String(Math.max(1, cols)) },
        },
        row.map((tile, j) => {
          const slot = { player: p, stand: s, slot: j };
          const selectable = step && (step.kind === "slot" || step.kind === "slots")
            && step.allow(slot, this.draft.chosenSlots || []);
          const isPicked = picked.some((c) => c.player === p && c.stand === s && c.slot === j);
          return this.slotView(slot, tile, selectable, isPicked, place(j));
        }),
        row.map((tile, j) => (tile.tokens.length ? h("span.token-mark", {
          style: { "grid-column": place(j)["grid-column"], "grid-row": String(2 * Math.floor(j / cols) + 2) },
          dataset: { slot: String(j) },
        }, tile.tokens.map(tokenText).join(" ")) : null)),
        labels.map((lab) => {
          const wraps = (lab.j % cols) === cols - 1; // the pair is split over two rows: mark the left wire's edge
          return h(`span.label-mark.${lab.kind}${wraps ? ".at-end" : ""}`, {
            style: { "grid-column": wraps ? place(lab.j)["grid-column"] : `${(lab.j % cols) + 1} / span 2`, "grid-row": place(lab.j)["grid-row"] },
            dataset: { slot: String(lab.j), kind: lab.kind },
            title: lab.kind === "equal" ? t("mark.equal") : t("mark.different"),
          }, lab.kind === "equal" ? "=" : "≠");
        })),
        special || beside.length ? h("div.beside", {},
          special ? h("span.special-name", {}, special) : null,
          beside.map((note) => h(`span.beside-note.${note.kind}`, { dataset: { kind: note.kind } },
            note.stand !== null && player.stands.length > 1 ? t("table.standNote", { stand: note.stand + 1, text: this.besideWords(note) }) : this.besideWords(note)))) : null);
    };
    return h("section.table", { "aria-label": t("table.label") }, ...this.table.players.map((player, p) =>
      h(`div.player${p === meIndex ? ".mine" : ""}`, { dataset: { player: String(p) } },
        h("div.player-name", {}, player.name, p === meIndex ? h("span.badge", {}, t("table.me")) : null),
        layout.stands[p].map((row, s) => stand(player, p, row, s)))),
      this.table.nano ? h("p.nano-line", { dataset: { nano: String(layout.nano.length) } },
        tn("table.nano", layout.nano.length)) : null,
      this.draft && this.draft.editIndex !== undefined ? h("p.hint.edit-note", {},
        t("table.beforeEvent", { event: this.draft.editIndex + 1 })) : null,
      h("p.legend", { id: "legend" }, t("legend.numbers"), " · ",
        h("span.legend-certain", {}, t("legend.certain")), " · ", t("legend.cut"), " · ",
        h("span.risk-badge.red", {}, "R12%"), " ", t("legend.red"), " · ", h("span.risk-badge.yellow", {}, "Y5%"), " ", t("legend.yellow"), " · ",
        h("span.token-mark.legend-token", {}, "4"), " ", t("legend.rest")));
  }

  /** A note beside a stand (layout.js: an `absent` or `dealt` event), worded from its event. */
  besideWords(note) {
    const event = this.table.events[note.index];
    if (note.kind === "absent" && event) return t("beside.absent", { values: event.values.map(valueLabel).join(", ") });
    if (note.kind === "dealt" && event) return t("beside.dealt", { n: event.count, value: t(`option.${event.value}`) });
    return note.text;
  }

  /** Columns of a stand of `count` slots: one row when every slot gets ≥ 44 px, else balanced rows. */
  columnsFor(count) {
    // The table's width: beside the recorder from 900 px, and on a phone in landscape (app.css).
    const width = Math.min(window.innerWidth, 1280) >= 900 ? this.root.clientWidth - 340 - 16 - 20
      : LANDSCAPE_PHONE.matches ? this.root.clientWidth - 20 - 320 - 10 - 18 : this.root.clientWidth - 20 - 18;
    const fit = Math.max(1, Math.floor((width + 3) / (44 + 3)));
    if (count <= fit) return Math.max(1, count);
    return Math.ceil(count / Math.ceil(count / fit));
  }

  slotView(slot, tile, selectable, picked, place) {
    const info = this.slotInfo(slot);
    const classes = ["slot"];
    if (selectable) classes.push("selectable");
    if (picked) classes.push("picked");
    if (tile.special) classes.push(`special-${tile.special}`);
    const moved = tile.deal.nano !== undefined || tile.deal.player !== slot.player || tile.deal.stand !== slot.stand;
    if (moved) classes.push("moved");
    // The wire's name comes from its content (words for a screen reader in hidden spans), so that
    // it always holds the text shown (axe: label-content-name-mismatch with an aria-label).
    const attrs = {
      dataset: { player: String(slot.player), stand: String(slot.stand), slot: String(slot.slot), tile: tile.id },
      onclick: () => this.onSlotTap(slot),
      style: { ...place },
    };
    const said = (text) => h("span.sr-only", {}, text);
    if (this.highlighted && this.highlighted.some((t) => t.player === slot.player && t.stand === slot.stand && t.slot === slot.slot)) classes.push("highlight");
    const marks = [
      h("span.slot-num", { "aria-hidden": "true" }, String(slot.slot + 1)),
      tile.special === "x" ? h("span.corner-mark", { title: t("mark.x") }, "X") : null,
      tile.special === "flipped" ? h("span.corner-mark", { title: t("mark.flipped") }, "⤾") : null,
      moved ? h("span.corner-mark.left", { title: t("mark.moved") }, "↪") : null,
    ];
    if (tile.cut) classes.push("cut");
    if (!info) return h(`button.${classes.join(".")}.unknown`, attrs, said(`${this.slotName(slot)}: `), h("span.slot-value", {}, "·"), ...marks);
    const dist = ranked(info.p);
    const [topKey, topP] = dist[0];
    const risk = (colour) => dist.filter(([k]) => colourOf(k) === colour).reduce((sum, [, p]) => sum + p, 0);
    attrs.dataset.dist = JSON.stringify(info.p);
    attrs.style["--conf"] = String(topP);
    classes.push(colourOf(topKey));
    if (!tile.cut && topP >= 1) classes.push("certain");
    const red = risk("red");
    const yellow = risk("yellow");
    const badge = (colour, p) => h(`span.risk-badge.${colour}`, {
      dataset: { p: String(p) }, title: t(`risk.${colour}`, { p: percent(p) }),
    }, `${colour === "red" ? "R" : "Y"}${percent(p)}`);
    const risky = !tile.cut && topP < 1;
    // The red frame only where the red chance reaches the cap the suggestions rank by (issue 32):
    // a small chance stays as text (the badge), or else nearly every teammate wire looks alarming.
    if (risky && red > 0 && red >= this.suggestions.redCap()) classes.push("has-red");
    return h(`button.${classes.join(".")}`, attrs,
      said(`${this.slotName(slot)}: `),
      h("span.slot-value", {}, label(topKey)),
      h("span.slot-p", {}, tile.cut ? ` ${t("slot.cut")}` : ` ${percent(topP)}`),
      risky && red > 0 && red < 0.005 ? said(t("slot.redRisk", { p: percent(red) })) : null,
      risky && yellow > 0 && yellow < 0.005 ? said(t("slot.yellowRisk", { p: percent(yellow) })) : null,
      ...marks,
      // A risk of 1% or more: a badge with its percentage; below: a thin line of the colour.
      risky && (red >= 0.005 || yellow >= 0.005) ? h("span.risk-badges", {},
        yellow >= 0.005 ? badge("yellow", yellow) : null, red >= 0.005 ? badge("red", red) : null) : null,
      risky && red > 0 && red < 0.005 ? h("span.risk-trace.red", { title: t("risk.red", { p: percent(red) }) }) : null,
      risky && yellow > 0 && yellow < 0.005 ? h("span.risk-trace.yellow", { title: t("risk.yellow", { p: percent(yellow) }) }) : null);
  }

  showSlot(slot) {
    const info = this.slotInfo(slot);
    if (!info) return toast(t("slot.noAnalysis"));
    const cut = this.isCut(slot);
    openSheet(this.slotName(slot),
      h("p.hint", {}, cut ? t("slot.isCut") : t("slot.chances", { view: this.view() === "me" ? t("view.me") : t("view.public") })),
      cut ? null : h("p.risk-summary", {}, ["red", "yellow"].map((colour) => {
        const p = ranked(info.p).filter(([k]) => colourOf(k) === colour).reduce((sum, [, q]) => sum + q, 0);
        return h(`span.${colour}`, {}, t(`slot.${colour}`, { p: p > 0 ? percent(p) : "0%" }));
      })),
      h("ul.distribution", { id: "distribution" }, ranked(info.p).map(([key, p]) => h(`li.${colourOf(key)}`, { dataset: { key } },
        h("span.dist-key", {}, label(key)),
        h("span.dist-bar", {}, h("span.dist-fill", { style: { width: `${p * 100}%` } })),
        h("span.dist-p", {}, percent(p))))),
      cut || !this.certain(info) ? null : h("div.why", { id: "why" },
        h("button.secondary", { dataset: { action: "why" }, onclick: () => this.showWhy(slot) }, t("why.button"))),
      cut ? null : h("div.actions", {},
        h("button.secondary", { dataset: { action: "cut-here" }, onclick: () => this.startDraft("dual_cut", { target: slot }) }, t("slot.dualCut")),
        h("button.secondary", { dataset: { action: "token-here" }, onclick: () => this.startDraft("info_token", { at: slot }) }, t("slot.infoToken"))));
  }

  /** Whether every value the wire may hold is one gameplay value (a yellow or red may have several keys). */
  certain(info) {
    return new Set(Object.keys(info.p).map((key) => (colourOf(key) === "blue" ? key : colourOf(key)))).size === 1;
  }

  /** The core's explain: the fewest recorded events (and own wires) that force this wire, in the sheet. */
  async showWhy(slot) {
    const box = document.getElementById("why");
    if (!box) return;
    box.replaceChildren(h("p.hint", {}, t("why.finding")));
    try {
      const table = this.viewTable();
      const answer = await this.engine.explain(table, { slot });
      const statement = t(answer.negated ? "why.isNot" : "why.is", { wire: this.slotName(slot), value: valueLabel(answer.value) });
      box.replaceChildren(
        h("p", {}, t("why.because", { statement })),
        answer.setup_alone ? h("p.hint", {}, t("why.setupAlone"))
          : h("ul.why-list", {}, answer.because.map((reason) => h("li", { dataset: reason.event === undefined ? {} : { event: String(reason.event) } }, reasonWords(reason, table)))),
        h("p.hint", {}, t("why.needed")));
    } catch (error) {
      box.replaceChildren(h("p.hint", {}, t("why.failed", { reason: error.message })));
    }
  }

  /** The record buttons: the base actions, then the mission's relevant equipment/actions, then the rest under "More". */
  actionButtons() {
    const relevant = relevantActions(this.table);
    const redPossible = this.revealRedPossible();
    const button = (action, cls = "secondary") => h(`button.${cls}.action-button`, {
      dataset: { action: action.id }, onclick: () => this.startDraft(action.id),
      disabled: action.id === "reveal_red" && !redPossible,
      title: action.id === "reveal_red" && !redPossible ? t("actions.noRed") : null,
    }, action.name);
    const base = ACTIONS.filter((action) => action.base);
    // A followed board offers only what can be used now, and each card as soon as it unlocks.
    const offer = this.equipmentOffer();
    const offered = (action) => actionOffered(action, offer);
    if (offer) {
      for (const action of ACTIONS) if (usesEquipment(action) && offered(action) && !relevant.includes(action.id)) relevant.push(action.id);
    }
    const first = relevant.map(actionById).filter(offered);
    const rest = ACTIONS.filter((action) => !action.base && !relevant.includes(action.id) && offered(action));
    return h("div.action-groups", {},
      h("div.record-buttons", {}, base.map((action) => button(action, "primary"))),
      first.length ? h("div.mission-actions", { "aria-label": t("actions.mission") },
        first.map((action) => button(action))) : null,
      this.moreActions ? h("div.record-buttons.all-actions", { "aria-label": t("actions.more") }, rest.map((action) => button(action))) : null);
  }

  moreButton() {
    return h("button.secondary.more-actions", {
      dataset: { action: "more" }, "aria-expanded": String(Boolean(this.moreActions)),
      onclick: () => { this.moreActions = !this.moreActions; this.render(); },
    }, this.moreActions ? t("actions.fewerButton") : t("actions.moreButton"));
  }

  /** A multi-choice step's tap: the value joins the picks, or leaves them if it was there. */
  togglePick(picks, value) {
    const at = picks.indexOf(value);
    if (at >= 0) picks.splice(at, 1);
    else picks.push(value);
    this.render();
  }

  recorder() {
    const state = this.state();
    // A live table's joiner: my seat first (the card above), then the record buttons; its events
    // go to the host, who must know whose phone sent them.
    if (this.game.joinPending && this.onJoin && this.live) {
      return h("section.recorder.waiting", { "aria-label": t("recorder.label"), dataset: { waiting: "seat" } },
        h("p.hint", {}, t("recorder.seatFirst")));
    }
    if (!this.draft && state.over) {
      // The core refuses any event after an explosion, and a won game has no wire left to cut:
      // only undo and edit remain (a restarted mission is a new game).
      return h("section.recorder.over", { "aria-label": t("recorder.label"), dataset: { over: state.won ? "won" : "explosion" } },
        state.won ? h("p.won-line", {}, h("b", {}, t("over.won"))) : null,
        h("p.hint", {}, t("recorder.over")),
        h("div.undo-redo", {},
          h("button.secondary", { dataset: { action: "undo" }, disabled: !(this.game.past || []).length, onclick: () => this.undo() }, t("recorder.undo")),
          h("button.secondary", { dataset: { action: "redo" }, disabled: !(this.game.future || []).length, onclick: () => this.redo() }, t("recorder.redo"))));
    }
    if (!this.draft) {
      return h("section.recorder", { "aria-label": t("recorder.label") },
        this.actionButtons(),
        h("div.undo-redo", {},
          this.moreButton(),
          h("button.secondary", { dataset: { action: "undo" }, disabled: !(this.game.past || []).length, onclick: () => this.undo() }, t("recorder.undo")),
          h("button.secondary", { dataset: { action: "redo" }, disabled: !(this.game.future || []).length, onclick: () => this.redo() }, t("recorder.redo"))));
    }
    const step = this.currentStep();
    const draft = this.draft;
    const editing = draft.editIndex !== undefined ? t("recorder.editing", { event: draft.editIndex + 1 }) : "";
    let options = null;
    const extras = (step && step.extra ? step.extra : []).map(([text, action]) => h("button.option.extra", {
      dataset: { action }, onclick: () => this.extra(action),
    }, text));
    if (step && step.kind === "player") {
      options = h("div.options", {}, this.table.players.map((player, p) => h("button.option", {
        dataset: { player: String(p) }, disabled: step.allow ? !step.allow(p) : false,
        onclick: () => this.fill(step.field, p),
      }, player.name)), extras);
    } else if (step && step.kind === "value") {
      // Legal choices first: the values the actor can hold (the analysis of this view); a token the table rules out is flagged.
      const legal = this.legalValues(step);
      const contradicted = this.contradictedTokens(step);
      // The recorder's values my own wires rule out (a call of a value I hold none of): marked ✗ too.
      const mineRuleOut = new Set((step.ruledOut || []).map((value) => JSON.stringify(value)));
      mineRuleOut.forEach((value) => contradicted.add(value));
      const key = (value, cls = "") => {
        const text = optionText(value, step.nullText || (step.field === "token" ? t("edit.noToken") : t("edit.notNoted")));
        return h(`button.option.key.${optionColour(value)}${optionSpan(text)}${cls}`, {
          dataset: { value: JSON.stringify(value) }, onclick: () => this.fill(step.field, value),
          title: mineRuleOut.has(JSON.stringify(value)) ? t("keypad.mineRuleOut")
            : contradicted.has(JSON.stringify(value)) ? t("keypad.contradicted") : null,
        }, text);
      };
      const flag = (value) => (contradicted.has(JSON.stringify(value)) ? ".contradicts" : "");
      if (legal) {
        const first = step.values.filter((value) => legal.has(JSON.stringify(value)));
        const rest = step.values.filter((value) => !legal.has(JSON.stringify(value)));
        options = h("div.options.keypad", { dataset: { legal: JSON.stringify(first) } }, first.map((value) => key(value, flag(value))),
          rest.length ? h("p.value-group-label", {}, t("keypad.cannotHold", { name: this.playerName(draft.actor) })) : null,
          rest.map((value) => key(value, `.unlikely${flag(value)}`)), extras);
      } else {
        options = h("div.options.keypad", {}, step.values.map((value) => key(value, flag(value))), extras);
      }
    } else if (step && step.kind === "choice") {
      options = h("div.options", {}, step.choices.map(([text, value]) => h(`button.option${typeof value === "boolean" ? (value ? ".good" : ".bad") : ""}`, {
        dataset: { value: JSON.stringify(value) }, onclick: () => this.fill(step.field, value),
      }, text)));
    } else if (step && step.kind === "slots") {
      const count = (draft.chosenSlots || []).length;
      const min = step.min ?? 1;
      const ready = step.count ? count === step.count : count >= min;
      options = h("div.options", {}, this.knownOption(step), h("button.option.good", {
        dataset: { action: "done" }, disabled: !ready,
        onclick: () => this.fill(step.field, [...(draft.chosenSlots || [])]),
      }, t("step.doneChosen", { n: count })));
    } else if (step && step.kind === "slot") {
      options = extras.length || step.known ? h("div.options", {}, this.knownOption(step), extras) : null;
    } else if (step && step.kind === "stand") {
      options = h("div.options", {}, this.table.players.flatMap((player, p) => (step.allow(p) ? this.layout().stands[p].map((_, s) =>
        h("button.option", { dataset: { player: String(p), stand: String(s) }, onclick: () => this.fill(step.field, { player: p, stand: s }) },
          player.stands.length > 1 ? t("name.stand", { name: player.name, stand: s + 1 }) : player.name)) : [])));
    } else if (step && step.kind === "position") {
      // Each position names its neighbours in the receiving stand (their most likely values), without the wire that leaves.
      const around = this.standSlots(step.stand.player, step.stand.stand).filter((slot) => slot.slot !== step.without);
      const name = (slot) => {
        if (!slot) return t("step.end");
        const info = this.slotInfo(slot);
        return info ? label(ranked(info.p)[0][0]) : "?";
      };
      options = h("div.options.keypad.positions", {}, Array.from({ length: step.count }, (_, i) => h("button.option.key.position", {
        dataset: { index: String(i) }, onclick: () => this.fill(step.field, i),
        title: t("step.between", { a: name(around[i - 1]), b: name(around[i]) }),
      }, h("span.sr-only", {}, t("step.positionWord")), h("span", {}, String(i + 1)),
      h("span.between", {}, `${i ? name(around[i - 1]) : "|"}·${i < around.length ? name(around[i]) : "|"}`))));
    } else if (step && step.kind === "answers") {
      const picks = draft.picks || (draft.picks = this.table.players.map((player, p) => this.layout().stands[p].map((_, s) => this.myRadarAnswer(p, s, draft.value))));
      const ready = picks.every((row) => row.every((answer) => answer !== null));
      options = h("div.answers", {},
        this.table.players.flatMap((player, p) => picks[p].map((answer, s) => h("div.answer-row", { dataset: { player: String(p), stand: String(s) } },
          h("span.answer-name", {}, player.stands.length > 1 ? t("name.stand", { name: player.name, stand: s + 1 }) : player.name),
          h("div.segmented", { role: "group" }, [[t("step.yes"), true], [t("step.no"), false]].map(([text, value]) => h("button", {
            dataset: { answer: String(value) }, "aria-pressed": String(answer === value),
            onclick: () => { picks[p][s] = value; this.render(); },
          }, text)))))),
        h("div.options", {}, h("button.option.good", {
          dataset: { action: "done" }, disabled: !ready, onclick: () => this.fill(step.field, picks.map((row) => [...row])),
        }, t("common.done"))));
    } else if (step && step.kind === "multichoice") {
      const picks = draft.picks || (draft.picks = []);
      const ready = picks.length >= (step.min ?? 1) && picks.length <= (step.max ?? Infinity);
      options = h("div", {},
        h("div.options", {}, step.choices.map(([text, value]) => h("button.option", {
          dataset: { value: JSON.stringify(value) }, "aria-pressed": String(picks.includes(value)),
          onclick: () => this.togglePick(picks, value),
        }, text))),
        h("div.options", {}, h("button.option.good", {
          dataset: { action: "done" }, disabled: !ready, onclick: () => this.fill(step.field, [...picks]),
        }, t("step.doneChosen", { n: picks.length }))));
    } else if (step && step.kind === "multivalue") {
      const picks = draft.picks || (draft.picks = []);
      options = h("div", {},
        h("div.options.keypad", {}, step.values.map((value) => h(`button.option.key.${optionColour(value)}${optionSpan(optionText(value))}`, {
          dataset: { value: JSON.stringify(value) }, "aria-pressed": String(picks.includes(value)),
          onclick: () => this.togglePick(picks, value),
        }, optionText(value)))),
        h("div.options", {}, h("button.option.good", {
          dataset: { action: "done" }, disabled: !picks.length, onclick: () => this.fill(step.field, [...picks]),
        }, t("step.doneChosen", { n: picks.length }))));
    }
    return h("section.recorder.active", { "aria-label": t("recorder.label"), dataset: { step: step ? step.field : "" } },
      h("div.recorder-head", {},
        h("b", {}, (EVENT_NAMES[draft.action] || draft.type) + editing),
        h("span.draft-summary", {}, this.draftSummary())),
      draft.editIndex !== undefined ? null : this.whoRow(step),
      h("p.prompt", {}, step ? step.prompt : draft.editIndex !== undefined
        ? (this.refusal ? t("recorder.editRefused") : t("recorder.editOne"))
        : this.refusal ? t("recorder.refused") : t("recorder.checking")),
      step ? options : draft.editIndex !== undefined ? this.editForm() : options,
      this.refusal ? h("div.refusal", { role: "alert" },
        h("b", {}, this.refusal.headline),
        h("p.engine-says", {}, `${this.refusal.source}: ${this.refusal.engineMessage}`)) : null,
      h("div.undo-redo", {},
        h("button.secondary", { dataset: { action: "back" }, onclick: () => this.back() }, t("common.back")),
        h("button.secondary", { dataset: { action: "cancel" }, onclick: () => { this.draft = null; this.editBackup = null; this.refusal = null; this.render(); } }, t("common.cancel"))));
  }

  /**
   * My stand's answer to a General Radar of `value` when my wires tell it:
   * true if I hold an uncut one there, false if every uncut wire there is
   * known and none is; null otherwise (and for anyone else's stand).
   */
  myRadarAnswer(player, stand, value) {
    if (!this.table.me || this.table.me.player !== player) return null;
    const known = this.myKnownWires(player).filter((w) => w.stand === stand);
    if (known.some((w) => w.key === value)) return true;
    const uncut = this.layout().stands[player][stand].filter((tile) => !tile.cut).length;
    return known.length === uncut ? false : null;
  }

  /** My own wires a step asks for, when I know them: one tap fills the step ("Mine: slots 3, 4"). */
  knownOption(step) {
    if (!step.known) return null;
    const where = step.known.map((s) => (this.table.players[s.player].stands.length > 1 ? t("step.standSlot", { stand: s.stand + 1, slot: s.slot + 1 }) : `${s.slot + 1}`));
    return h("button.option.good.known", {
      dataset: { action: "known" },
      onclick: () => this.fill(step.field, step.kind === "slot" ? { ...step.known[0] } : step.known.map((s) => ({ ...s }))),
    }, tn("step.mine", where.length, { slots: where.join(", ") }));
  }

  /**
   * The values the actor can announce (as JSON strings), from the analysis of
   * this view: a value with a chance on one of the actor's uncut wires. null
   * when it does not apply (no actor, an edit, no analysis yet).
   */
  legalValues(step) {
    const draft = this.draft;
    if (!["value", "value1", "value2"].includes(step.field) || draft.actor === undefined || draft.editIndex !== undefined) return null;
    if (!["dual_cut", "detector", "solo_cut", "fast_pass"].includes(draft.type)) return null;
    if (!this.analysis || !this.analysis.consistent) return null;
    const held = new Set();
    for (const slot of this.uncutSlotsOf(draft.actor)) {
      const info = this.slotInfo(slot);
      if (!info) return null;
      for (const [key, p] of Object.entries(info.p)) {
        if (p <= 0) continue;
        const colour = colourOf(key);
        if (colour === "blue") held.add(JSON.stringify(Number(key)));
        else if (colour === "yellow") held.add(JSON.stringify("yellow"));
      }
    }
    return held;
  }

  /** Token values the table already rules out on the token's wire (JSON strings). */
  contradictedTokens(step) {
    const draft = this.draft;
    const out = new Set();
    if (step.field !== "token" || draft.editIndex !== undefined) return out;
    // The call failed: its wire(s) are not the value announced.
    for (const value of [draft.value, draft.value1, draft.value2]) if (value !== undefined && draft.type !== "tripwire") out.add(JSON.stringify(value));
    if (!this.analysis || !this.analysis.consistent) return out;
    const at = draft.type === "dual_cut" || draft.type === "tripwire" ? draft.target : null;
    const info = at && this.slotInfo(at);
    if (!info) return out;
    const keys = Object.entries(info.p).filter(([, p]) => p > 0).map(([k]) => k);
    for (const value of step.values) {
      if (typeof value === "number" && !keys.some((k) => Number(k) === value)) out.add(JSON.stringify(value));
      if (value === "yellow" && !keys.some((k) => colourOf(k) === "yellow")) out.add(JSON.stringify(value));
      if (value === EXPLODED && !keys.some((k) => colourOf(k) === "red" || this.countsAsRed().includes(Number(k)))) out.add(JSON.stringify(value));
    }
    return out;
  }

  /** Reveal red can be legal: some player's uncut wires may all be red. */
  revealRedPossible() {
    if (!this.analysis || !this.analysis.consistent) return true;
    return this.table.players.some((_, p) => {
      const slots = this.uncutSlotsOf(p);
      return slots.length > 0 && slots.every((slot) => {
        const info = this.slotInfo(slot);
        return !info || Object.entries(info.p).some(([k, q]) => q > 0 && colourOf(k) === "red")
          || (this.countsAsRed().length && Object.keys(info.p).some((k) => this.countsAsRed().includes(Number(k))));
      });
    });
  }

  /** Once the actor is chosen (or pre-selected: the player to move), one tap changes it. */
  whoRow(step) {
    const draft = this.draft;
    const actorStep = this.steps().find((s) => s.field === "actor");
    if (!actorStep || draft.actor === undefined || (step && step.kind === "player")) return null; // one row of names at a time
    const turn = this.state().turn;
    return h("div.who-row", { role: "group", "aria-label": t("who.label") },
      h("span.who-label", {}, t("who.title")),
      this.table.players.map((player, p) => h("button.option.who", {
        dataset: { player: String(p) }, "aria-pressed": String(draft.actor === p),
        disabled: actorStep.allow ? !actorStep.allow(p) && draft.actor !== p : false,
        title: p === turn ? t("who.toPlay") : null,
        onclick: () => this.changeActor(p),
      }, h("span.who-name", {}, player.name), p === turn ? h("span.to-move", { "aria-label": t("who.toPlay") }, " ●") : null)));
  }

  draftSummary() {
    const d = this.draft;
    const parts = [];
    if (d.kind && d.type === "detector") parts.push(t(`detector.${d.kind}`));
    if (d.actor !== undefined) parts.push(this.playerName(d.actor));
    if (d.player !== undefined) parts.push(this.playerName(d.player));
    if (d.target) parts.push(`→ ${this.slotName(d.target)}`);
    if (d.targets) parts.push(`→ ${d.targets.map((t) => this.slotName(t)).join(", ")}`);
    if (d.at) parts.push(this.slotName(d.at));
    if (d.from) parts.push(t("draft.from", { where: d.from === "nano" ? "Nano" : this.slotName(d.from) }));
    if (d.a) parts.push(this.slotName(d.a));
    if (d.b) parts.push(`⇄ ${this.slotName(d.b)}`);
    if (d.value !== undefined && d.type !== "dealt") parts.push(t("draft.value", { value: optionText(d.value) }));
    if (d.value1 !== undefined) parts.push(t("draft.values", { values: [d.value1, d.value2].filter((v) => v !== undefined).map((v) => optionText(v)).join(t("words.or")) }));
    if (d.success !== undefined) parts.push(d.success === EXPLODED ? t("draft.exploded") : d.success ? t("draft.success") : d.stabilizer ? t("draft.failedStabilizer", { card: cardName("9") }) : t("draft.failed"));
    return parts.join(" · ");
  }

  eventLog() {
    const events = this.table.events;
    return h("section.log", { "aria-label": t("log.label") },
      h("h2", {}, t("log.title", { n: events.length })),
      events.length ? h("ol.events", {}, events.map((event, i) => h("li", { dataset: { index: String(i) } },
        h("span.event-text", {}, describeEvent(event, this.table)),
        h("span.event-actions", {},
          h("button.link", { dataset: { action: "edit" }, "aria-label": t("log.editLabel", { event: i + 1 }), onclick: () => this.editEvent(i) }, t("log.edit")),
          h("button.link", { dataset: { action: "delete" }, onclick: () => this.deleteEvent(i) }, t("log.delete"))))))
        : h("p.hint", {}, t("log.empty")),
      (this.game.future || []).length ? h("p.hint", {}, t("log.redoable", { n: this.game.future.length })) : null);
  }
}
