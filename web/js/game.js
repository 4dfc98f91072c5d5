// The table screen: every stand as a row of slots with its probabilities, the
// event recorder (taps: who, which slot, which value, outcome, token), the event
// log with undo/redo/edit/delete, and the slot detail sheet.
//
// Every change is first analysed as a candidate table with the full table file
// (my wires included); only a consistent candidate replaces the game's table,
// so an impossible event is refused with the engine's explanation and nothing
// is lost. The displayed analysis follows the chosen view (mine or public).
import { h, openSheet, closeSheet, toast, percent, ranked } from "./ui.js";
import { colourOf, describeEvent, label, possibleKeys, publicView, valueLabel } from "./model.js";
import { CancelledError } from "./engine.js";
import { SuggestionsPanel } from "./suggestions.js";

const slotId = (p, s, j) => `${p}:${s}:${j}`;
const RESULT_CACHE_SIZE = 12;
const EVENT_NAMES = { dual_cut: "Dual cut", solo_cut: "Solo cut", info_token: "Info token", reveal_red: "Reveal red" };

/** The recorder's steps for a draft event, in order; the first unfilled one is asked. */
function stepsFor(draft, screen) {
  const uncut = (slot) => !screen.isCut(slot);
  switch (draft.type) {
    case "dual_cut": {
      const steps = [
        { field: "actor", kind: "player", prompt: "Who cuts?", allow: (p) => !draft.target || draft.target.player !== p },
        { field: "target", kind: "slot", prompt: "Tap the teammate's wire they point at", allow: (s) => s.player !== draft.actor && uncut(s) },
        { field: "value", kind: "value", prompt: "Which value is announced?", values: screen.announceable() },
        { field: "success", kind: "choice", prompt: "Did the cut succeed?", choices: [["Success", true], ["Failed", false]] },
      ];
      if (draft.success === true) {
        steps.push({ field: "actor_slot", kind: "slot", prompt: `Tap the wire ${screen.playerName(draft.actor)} cuts too`, allow: (s) => s.player === draft.actor && uncut(s) });
        if (draft.value === "yellow") {
          // The printed n.1 of both tiles is visible once cut; noting it is optional.
          const printed = [...screen.keys().yellow, null];
          steps.push({ field: "keyTarget", kind: "value", prompt: "Printed value of the teammate's yellow (optional)", values: printed });
          steps.push({ field: "keyActor", kind: "value", prompt: "Printed value of the cutter's yellow (optional)", values: printed });
        }
      } else if (draft.success === false) {
        steps.push({ field: "token", kind: "value", prompt: "Which info token is placed?", values: [...screen.announceable(), null] });
      }
      return steps;
    }
    case "solo_cut":
      return [
        { field: "actor", kind: "player", prompt: "Who solo-cuts?" },
        { field: "value", kind: "value", prompt: "Which value?", values: screen.announceable() },
        { field: "slots", kind: "slots", prompt: "Tap every wire cut (2 or 4), then Done", allow: (s) => s.player === draft.actor && uncut(s) },
      ];
    case "info_token":
      return [
        { field: "at", kind: "slot", prompt: "Tap the wire the token points at", allow: uncut },
        { field: "value", kind: "value", prompt: "Which token?", values: screen.announceable() },
      ];
    case "reveal_red": {
      const steps = [{ field: "actor", kind: "player", prompt: "Who reveals their red wires?" }];
      if (draft.actor !== undefined) {
        screen.uncutSlotsOf(draft.actor).forEach((slot, i) => steps.push({
          field: `reveal${i}`, kind: "value", slot, values: screen.keys().red,
          prompt: `Which red is at ${screen.slotName(slot)}?`,
        }));
      }
      return steps;
    }
    default:
      return [];
  }
}

function eventFromDraft(draft) {
  const place = (slot) => ({ stand: slot.stand, slot: slot.slot });
  switch (draft.type) {
    case "dual_cut": {
      if (!draft.success) {
        return { type: "dual_cut", actor: draft.actor, target: draft.target, value: draft.value, success: false, token: draft.token };
      }
      const event = { type: "dual_cut", actor: draft.actor, target: draft.target, value: draft.value, success: true, actor_slot: place(draft.actor_slot) };
      if (typeof draft.keyTarget === "number" && typeof draft.keyActor === "number") {
        event.keys = { target: draft.keyTarget, actor: draft.keyActor };
      }
      return event;
    }
    case "solo_cut":
      return { type: "solo_cut", actor: draft.actor, value: draft.value, slots: draft.slots.map(place) };
    case "info_token":
      return { type: "info_token", at: draft.at, value: draft.value };
    case "reveal_red":
      return {
        type: "reveal_red", actor: draft.actor,
        slots: draft.redSlots.map((slot, i) => ({ ...place(slot), value: draft[`reveal${i}`] })),
      };
    default:
      throw new Error(`unknown event type ${draft.type}`);
  }
}

export class GameScreen {
  /** engine: the scripting API; onSave(game) persists; game: the saved game record. */
  constructor(root, { engine, game, onSave }) {
    this.root = root;
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

  /** Values a player can announce: the blue values, and "yellow" when yellows may be in play. */
  announceable() {
    const keys = this.keys();
    return [...keys.blue, ...(keys.yellow.length ? ["yellow"] : [])];
  }

  playerName(p) {
    return this.table.players[p] ? this.table.players[p].name : `player ${p + 1}`;
  }

  slotName(slot) {
    const stands = this.table.players[slot.player].stands.length;
    return `${this.playerName(slot.player)}${stands > 1 ? ` stand ${slot.stand + 1}` : ""} slot ${slot.slot + 1}`;
  }

  slotInfo(slot) {
    return this.analysis && this.analysis.consistent ? this.slotIndex.get(slotId(slot.player, slot.stand, slot.slot)) : null;
  }

  isCut(slot) {
    const info = this.slotInfo(slot);
    return Boolean(info && info.cut);
  }

  uncutSlotsOf(player) {
    return this.table.players[player].stands.flatMap((size, stand) =>
      Array.from({ length: size }, (_, slot) => ({ player, stand, slot }))).filter((s) => !this.isCut(s));
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
      this.status = known.consistent ? { kind: "ok" } : { kind: "error", message: known.error };
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
      this.status = result.consistent ? { kind: "ok" } : { kind: "error", message: result.error };
      this.prefetchOtherView();
    } catch (error) {
      if (seq !== this.requestSeq) return;
      this.status = error instanceof CancelledError ? { kind: "cancelled" } : { kind: "error", message: error.message };
    }
    this.render();
  }

  /**
   * Replace the table by `candidate` if the engine finds it consistent; else
   * refuse with its explanation and keep everything as it was.
   */
  async tryCommit(candidate, redo) {
    this.status = { kind: "checking" };
    this.render();
    let result;
    try {
      result = await this.engine.analyze(candidate);
    } catch (error) {
      return this.refuse("The engine cannot read this event.", error.message);
    }
    if (!result.consistent) {
      const event = candidate.events[result.event];
      const what = event ? `: ${describeEvent(event, candidate)} (event ${result.event + 1} in the log)` : "";
      return this.refuse(`Impossible${what}.`, result.error);
    }
    this.remember(candidate, result);
    this.game.table = candidate;
    this.game.redo = redo;
    this.onSave(this.game);
    this.draft = null;
    this.refusal = null;
    await this.refresh(); // from the cache in my view
    return true;
  }

  /** Keep the draft and the table; show why the engine refused. */
  refuse(headline, engineMessage) {
    this.refusal = { headline, engineMessage };
    this.status = this.analysis ? { kind: "ok" } : { kind: "idle" };
    toast("Refused: the event does not fit the table. Nothing was changed.", "error");
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

  record(event) {
    const events = [...this.table.events];
    if (this.draft && this.draft.editIndex !== undefined) events[this.draft.editIndex] = event;
    else events.push(event);
    const redo = this.draft && this.draft.editIndex !== undefined ? this.game.redo : [];
    return this.tryCommit({ ...this.table, events }, redo);
  }

  undo() {
    if (!this.table.events.length) return;
    const events = [...this.table.events];
    const undone = events.pop();
    this.game.table = { ...this.table, events };
    this.game.redo = [...this.game.redo, undone];
    this.onSave(this.game);
    this.draft = null;
    this.refusal = null;
    this.refresh();
  }

  redo() {
    if (!this.game.redo.length) return;
    const redo = [...this.game.redo];
    const event = redo.pop();
    this.tryCommit({ ...this.table, events: [...this.table.events, event] }, redo);
  }

  deleteEvent(index) {
    const events = this.table.events.filter((_, i) => i !== index);
    this.tryCommit({ ...this.table, events }, this.game.redo);
  }

  startDraft(type, prefill = {}) {
    closeSheet();
    this.draft = { type, ...prefill };
    if (type === "reveal_red" && prefill.actor !== undefined) this.draft.redSlots = this.uncutSlotsOf(prefill.actor);
    this.refusal = null;
    this.render();
  }

  currentStep() {
    return stepsFor(this.draft, this).find((step) => this.draft[step.field] === undefined);
  }

  fill(field, value) {
    this.draft[field] = value;
    if (field === "actor" && this.draft.type === "reveal_red") this.draft.redSlots = this.uncutSlotsOf(value);
    this.refusal = null;
    if (!this.currentStep()) this.record(eventFromDraft(this.draft));
    else this.render();
  }

  back() {
    const filled = stepsFor(this.draft, this).filter((step) => this.draft[step.field] !== undefined);
    if (!filled.length) {
      this.draft = null;
    } else {
      delete this.draft[filled[filled.length - 1].field];
    }
    this.refusal = null;
    this.render();
  }

  onSlotTap(slot) {
    const step = this.draft && this.currentStep();
    if (step && step.kind === "slot") {
      if (step.allow(slot)) this.fill(step.field, slot);
      else toast("That wire cannot be chosen for this step.");
    } else if (step && step.kind === "slots") {
      if (!step.allow(slot)) return toast("That wire cannot be chosen for this step.");
      const chosen = this.draft.chosenSlots || (this.draft.chosenSlots = []);
      const at = chosen.findIndex((s) => s.stand === slot.stand && s.slot === slot.slot);
      if (at >= 0) chosen.splice(at, 1);
      else chosen.push(slot);
      this.render();
    } else {
      this.showSlot(slot);
    }
  }

  // ------------------------------------------------------------ rendering

  showBusy(ms) {
    const text = this.root.querySelector(".analysis-status .status-text");
    if (text) text.textContent = `Analysing… ${(ms / 1000).toFixed(1)} s`;
  }

  render() {
    const scroll = window.scrollY;
    this.root.replaceChildren(h("div.game", { dataset: { view: this.view() } },
      this.statusBar(), this.tableView(), this.suggestions.element(), this.recorder(), this.eventLog()));
    window.scrollTo(0, scroll);
  }

  statusBar() {
    const { kind, message } = this.status;
    const children = [];
    if (kind === "busy") {
      children.push(h("span.spinner"), h("span.status-text", {}, "Analysing…"),
        h("button.link", { onclick: () => this.abort && this.abort.abort() }, "Cancel"));
    } else if (kind === "checking") {
      children.push(h("span.spinner"), h("span.status-text", {}, "Checking the event…"));
    } else if (kind === "cancelled") {
      children.push(h("span.status-text", {}, "Analysis cancelled."), h("button.link", { onclick: () => this.refresh() }, "Run again"));
    } else if (kind === "error") {
      children.push(h("span.status-text.bad", {}, `Inconsistent table: ${message}`));
    } else if (kind === "ok" && this.analysis) {
      const worlds = this.analysis.worlds;
      children.push(h("span.status-text", {}, `${this.view() === "me" ? "My view" : "Public view"} · `,
        h("b", { id: "worlds" }, typeof worlds === "bigint" ? worlds.toLocaleString() : Number(worlds).toLocaleString()),
        " possible deals"));
    }
    return h(`div.analysis-status.${kind}`, { role: "status" }, ...children);
  }

  tableView() {
    const step = this.draft && this.currentStep();
    const chosen = (this.draft && this.draft.chosenSlots) || [];
    const meIndex = this.table.me ? this.table.me.player : -1;
    return h("section.table", { "aria-label": "table" }, ...this.table.players.map((player, p) =>
      h(`div.player${p === meIndex ? ".mine" : ""}`, { dataset: { player: String(p) } },
        h("div.player-name", {}, player.name, p === meIndex ? h("span.badge", {}, "me") : null),
        player.stands.map((size, s) => h("div.stand", {
          role: "group", "aria-label": `${player.name} stand ${s + 1}`, dataset: { stand: String(s) },
          style: { "--slots": String(size) },
        }, Array.from({ length: size }, (_, j) => {
          const slot = { player: p, stand: s, slot: j };
          const selectable = step && (step.kind === "slot" || step.kind === "slots") && step.allow(slot);
          const picked = chosen.some((c) => c.stand === s && c.slot === j && p === this.draft.actor)
            || (step && step.slot && step.slot.player === p && step.slot.stand === s && step.slot.slot === j);
          return this.slotView(slot, selectable, picked);
        }))))),
      h("p.legend", {}, "Most likely value and its chance · ", h("span.legend-certain", {}, "✓ certain"),
        " · struck through = cut · bottom bar = chance of ", h("span.legend-red", {}, "red"), " / ",
        h("span.legend-yellow", {}, "yellow"), " · tap a wire for details"));
  }

  slotView(slot, selectable, picked) {
    const info = this.slotInfo(slot);
    const classes = ["slot"];
    if (selectable) classes.push("selectable");
    if (picked) classes.push("picked");
    const attrs = {
      dataset: { player: String(slot.player), stand: String(slot.stand), slot: String(slot.slot) },
      onclick: () => this.onSlotTap(slot),
      "aria-label": this.slotName(slot),
    };
    if (!info) return h(`button.${classes.join(".")}.unknown`, attrs, h("span.slot-value", {}, "·"));
    const dist = ranked(info.p);
    const [topKey, topP] = dist[0];
    const risk = (colour) => dist.filter(([k]) => colourOf(k) === colour).reduce((sum, [, p]) => sum + p, 0);
    attrs.dataset.dist = JSON.stringify(info.p);
    attrs.style = { "--conf": String(topP) };
    classes.push(colourOf(topKey));
    if (info.cut) classes.push("cut");
    else if (topP >= 1) classes.push("certain");
    const red = risk("red");
    const yellow = risk("yellow");
    return h(`button.${classes.join(".")}`, attrs,
      h("span.slot-value", {}, label(topKey)),
      h("span.slot-p", {}, info.cut ? "cut" : percent(topP)),
      !info.cut && red > 0 ? h("span.risk.red", { style: { width: `${Math.max(8, red * 100)}%` }, title: `red ${percent(red)}` }) : null,
      !info.cut && yellow > 0 ? h("span.risk.yellow", { style: { width: `${Math.max(8, yellow * 100)}%` }, title: `yellow ${percent(yellow)}` }) : null);
  }

  showSlot(slot) {
    const info = this.slotInfo(slot);
    if (!info) return toast("No analysis yet for this wire.");
    const cut = info.cut;
    openSheet(this.slotName(slot),
      h("p.hint", {}, cut ? "This wire is cut." : `${this.view() === "me" ? "My view" : "Public view"}: chance of each value`),
      cut ? null : h("p.risk-summary", {}, ["red", "yellow"].map((colour) => {
        const p = ranked(info.p).filter(([k]) => colourOf(k) === colour).reduce((sum, [, q]) => sum + q, 0);
        return h(`span.${colour}`, {}, `${colour === "red" ? "Red" : "Yellow"}: ${p > 0 ? percent(p) : "0%"}`);
      })),
      h("ul.distribution", { id: "distribution" }, ranked(info.p).map(([key, p]) => h(`li.${colourOf(key)}`, { dataset: { key } },
        h("span.dist-key", {}, label(key)),
        h("span.dist-bar", {}, h("span.dist-fill", { style: { width: `${p * 100}%` } })),
        h("span.dist-p", {}, percent(p))))),
      cut ? null : h("div.actions", {},
        h("button.secondary", { onclick: () => this.startDraft("dual_cut", { target: slot }) }, "Dual cut on this wire"),
        h("button.secondary", { onclick: () => this.startDraft("info_token", { at: slot }) }, "Info token here")));
  }

  recorder() {
    if (!this.draft) {
      return h("section.recorder", { "aria-label": "record an event" },
        h("div.record-buttons", {}, Object.entries(EVENT_NAMES).map(([type, name]) =>
          h("button.primary", { dataset: { action: type }, onclick: () => this.startDraft(type) }, name))),
        h("div.undo-redo", {},
          h("button.secondary", { dataset: { action: "undo" }, disabled: !this.table.events.length, onclick: () => this.undo() }, "↶ Undo"),
          h("button.secondary", { dataset: { action: "redo" }, disabled: !this.game.redo.length, onclick: () => this.redo() }, "↷ Redo")));
    }
    const step = this.currentStep();
    const editing = this.draft.editIndex !== undefined ? ` (replacing event ${this.draft.editIndex + 1})` : "";
    let options = null;
    if (step && step.kind === "player") {
      options = h("div.options", {}, this.table.players.map((player, p) => h("button.option", {
        dataset: { player: String(p) }, disabled: step.allow ? !step.allow(p) : false,
        onclick: () => this.fill("actor", p),
      }, player.name)));
    } else if (step && step.kind === "value") {
      options = h("div.options.keypad", {}, step.values.map((value) => {
        const text = value === null ? (step.field === "token" ? "No token" : "Not noted")
          : typeof value === "number" && colourOf(value) !== "blue" ? label(value) : valueLabel(value);
        const colour = value === null ? "none" : value === "yellow" ? "yellow" : colourOf(value);
        return h(`button.option.key.${colour}`, { dataset: { value: JSON.stringify(value) }, onclick: () => this.fill(step.field, value) }, text);
      }));
    } else if (step && step.kind === "choice") {
      options = h("div.options", {}, step.choices.map(([text, value]) => h(`button.option.${value ? "good" : "bad"}`, {
        dataset: { value: JSON.stringify(value) }, onclick: () => this.fill(step.field, value),
      }, text)));
    } else if (step && step.kind === "slots") {
      const count = (this.draft.chosenSlots || []).length;
      options = h("div.options", {}, h("button.option.good", {
        dataset: { action: "done" }, disabled: count === 0,
        onclick: () => this.fill("slots", this.draft.chosenSlots),
      }, `Done (${count} chosen)`));
    }
    return h("section.recorder.active", { "aria-label": "record an event" },
      h("div.recorder-head", {},
        h("b", {}, EVENT_NAMES[this.draft.type] + editing),
        h("span.draft-summary", {}, this.draftSummary())),
      h("p.prompt", {}, step ? step.prompt : this.refusal ? "Change a choice with Back, or Cancel." : "Checking…"),
      options,
      this.refusal ? h("div.refusal", { role: "alert" },
        h("b", {}, this.refusal.headline),
        h("p.engine-says", {}, `Engine: ${this.refusal.engineMessage}`)) : null,
      h("div.undo-redo", {},
        h("button.secondary", { dataset: { action: "back" }, onclick: () => this.back() }, "Back"),
        h("button.secondary", { dataset: { action: "cancel" }, onclick: () => { this.draft = null; this.refusal = null; this.render(); } }, "Cancel")));
  }

  draftSummary() {
    const d = this.draft;
    const parts = [];
    if (d.actor !== undefined) parts.push(this.playerName(d.actor));
    if (d.target) parts.push(`→ ${this.slotName(d.target)}`);
    if (d.at) parts.push(this.slotName(d.at));
    if (d.value !== undefined) parts.push(`value ${valueLabel(d.value)}`);
    if (d.success !== undefined) parts.push(d.success ? "success" : "failed");
    return parts.join(" · ");
  }

  eventLog() {
    const events = this.table.events;
    return h("section.log", { "aria-label": "event log" },
      h("h2", {}, `Events (${events.length})`),
      events.length ? h("ol.events", {}, events.map((event, i) => h("li", { dataset: { index: String(i) } },
        h("span.event-text", {}, describeEvent(event, this.table)),
        h("span.event-actions", {},
          h("button.link", { dataset: { action: "edit" }, onclick: () => this.startDraft(event.type, { editIndex: i }) }, "Edit"),
          h("button.link", { dataset: { action: "delete" }, onclick: () => this.deleteEvent(i) }, "Delete")))))
        : h("p.hint", {}, "No events yet. Record setup info tokens first, then every cut."),
      this.game.redo.length ? h("p.hint", {}, `${this.game.redo.length} undone event(s) can be redone.`) : null);
  }
}
