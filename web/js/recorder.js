// The recorder's catalogue: every action the page can record (the base
// actions, equipment cards, mission actions), the steps each one asks in
// order, and the format-1 event a finished draft becomes
// (docs/table-format.md). The table screen (game.js) renders the first
// unfilled step and fills it from taps. Slots are picked on the table as it
// stood before the event (layout.js), so addresses are current positions.
//
// An explosion (docs/table-format.md, "Explosions") is a choice where a
// failure's token is asked: EXPLODED ("Red — the bomb exploded") for a dual
// cut, a detector (every target red) or a tripwire call; "exploded" as the
// outcome of a special cut (multi_cut); and, when the cutter's own wire is
// their flipped wire (M38/M56), whether it was the value too.
import { colourOf, label, playerName, valueLabel } from "./model.js";
import { tileAt } from "./layout.js";
import { t } from "./i18n.js";
import { CARD_NAMES, CHARACTER_NAMES, NEEDS, cardId, cardName, cardPlayable, characterOf, providers } from "./equipment.js";

/**
 * Every recordable action: id (data-action of its button), the event type it
 * records, what its draft starts with, and the meta.rules tags (mission
 * presets, bombbuster_core/missions.py) that make it relevant.
 */
export const ACTIONS = [
  { id: "dual_cut", name: t("action.dual_cut"), type: "dual_cut", base: true },
  { id: "solo_cut", name: t("action.solo_cut"), type: "solo_cut", base: true },
  { id: "info_token", name: t("action.info_token"), type: "info_token", base: true },
  { id: "reveal_red", name: t("action.reveal_red"), type: "reveal_red", base: true },
  { id: "double_detector", name: CHARACTER_NAMES.double_detector, type: "detector", preset: { kind: "double" }, tags: ["double_detector_every_turn"] },
  { id: "triple_detector", name: CARD_NAMES[3], type: "detector", preset: { kind: "triple" }, tags: ["new_characters"] },
  { id: "super_detector", name: CARD_NAMES[5], type: "detector", preset: { kind: "super" }, tags: [] },
  { id: "xy_ray", name: CARD_NAMES[10], type: "dual_cut", preset: { xy: true }, tags: ["new_characters"] },
  { id: "stabilizer", name: CARD_NAMES[9], type: "dual_cut", preset: { stabilizer: true }, tags: ["stabilizer"] },
  { id: "radar", name: CARD_NAMES[8], type: "radar", need: "radar", tags: ["radar_each_turn", "new_characters"] },
  { id: "label_equal", name: CARD_NAMES[12], type: "label", preset: { kind: "equal" }, need: "label_equal", tags: [] },
  { id: "label_different", name: CARD_NAMES[1], type: "label", preset: { kind: "different" }, need: "label_different", tags: [] },
  { id: "post_it", name: CARD_NAMES[4], type: "info_token", need: "post_it", tags: [] },
  { id: "single_wire_label", name: CARD_NAMES["2.2"], type: "info_token", preset: { value: { count: 1 } }, need: "single_wire_label", tags: ["double_numbered_equipment"] },
  { id: "fast_pass", name: CARD_NAMES["9.9"], type: "fast_pass", need: "fast_pass", tags: ["double_numbered_equipment"] },
  { id: "disintegrator", name: CARD_NAMES["10.10"], type: "disintegrator", need: "disintegrator", tags: ["double_numbered_equipment"] },
  { id: "grappling_hook", name: CARD_NAMES["11.11"], type: "move", need: "grappling_hook", tags: ["double_numbered_equipment"] },
  { id: "walkie_talkies", name: CARD_NAMES[2], type: "swap", need: "walkie_talkies", tags: ["new_characters"] },
  { id: "nano", name: t("action.nano"), type: "move", preset: { from: "nano" }, tags: ["nano"] },
  { id: "false_token", name: t("action.false_token"), type: "info_token", preset: { falseToken: true }, tags: ["false_tokens"] },
  { id: "absent", name: t("action.absent"), type: "absent", tags: ["absent_tokens", "cannot_play_skips", "random_setup_tokens", "forced_value"] },
  { id: "dealt", name: t("action.dealt"), type: "dealt", tags: ["dealt"] },
  { id: "multi_cut", name: t("action.multi_cut"), type: "multi_cut", tags: ["multi_cut"] },
  { id: "tripwire", name: t("action.tripwire"), type: "tripwire", tags: ["tripwire"] },
  // Equipment cards that tell nothing about wires (the `equipment` event, by printed ID): the dial (Rewinder),
  // the turn order (Coffee Mug) and the board (Batteries, False Bottom, Drop) read them.
  { id: "rewinder", name: CARD_NAMES[6], type: "equipment", preset: { card: "6" }, tags: [], noPreselect: true },
  { id: "emergency_batteries", name: CARD_NAMES[7], type: "equipment", preset: { card: "7" }, tags: [], noPreselect: true },
  { id: "coffee_mug", name: CARD_NAMES[11], type: "equipment", preset: { card: "11" }, tags: [], noPreselect: true },
  { id: "false_bottom", name: CARD_NAMES.Y, type: "equipment", preset: { card: "Y" }, tags: [], noPreselect: true },
  { id: "emergency_drop", name: CARD_NAMES["3.3"], type: "equipment", preset: { card: "3.3" }, tags: [], noPreselect: true },
];
const ACTION_BY_ID = new Map(ACTIONS.map((action) => [action.id, action]));

export function actionById(id) {
  return ACTION_BY_ID.get(id);
}

/** The mission's rule tags (meta.rules of a preset), or []. */
export function ruleTags(table) {
  return table.meta && Array.isArray(table.meta.rules) ? table.meta.rules.map(String) : [];
}

/**
 * Ids of the actions shown first, in order: those the mission's meta.rules
 * tags name (bombbuster_core/missions.py RULE_TAGS), the Double Detector every
 * character carries (unless the mission removes it), then every action this
 * game has already recorded.
 */
export function relevantActions(table) {
  const rules = ruleTags(table);
  const ids = [];
  const add = (id) => { if (ACTION_BY_ID.has(id) && !ACTION_BY_ID.get(id).base && !ids.includes(id)) ids.push(id); };
  for (const rule of rules) {
    for (const action of ACTIONS) if ((action.tags || []).includes(rule)) add(action.id);
  }
  if (!rules.includes("no_double_detector") && !rules.includes("no_equipment")) add("double_detector");
  for (const event of table.events || []) add(actionOfEvent(event));
  return ids;
}

/** The action (and its draft preset) that records this event, for Edit. */
export function actionOfEvent(event) {
  switch (event.type) {
    case "dual_cut":
      if (event.values) return "xy_ray";
      return "dual_cut";
    case "detector":
      return `${event.kind}_detector`;
    case "label":
      return event.kind === "equal" ? "label_equal" : "label_different";
    case "info_token":
      if (event.false) return "false_token";
      return event.card === "4" ? "post_it" : event.card === "2.2" ? "single_wire_label" : "info_token";
    case "move":
      return event.from === "nano" ? "nano" : "grappling_hook";
    case "swap":
      return "walkie_talkies";
    case "equipment": {
      const action = ACTIONS.find((a) => a.type === "equipment" && a.preset.card === cardId(event.card));
      return action ? action.id : null;
    }
    default:
      return ACTION_BY_ID.has(event.type) ? event.type : null;
  }
}

/** The uses of equipment a draft records (NEEDS keys, in the order its `card` field lists them). */
export function needsOf(draft) {
  const action = ACTION_BY_ID.get(draft.action);
  const needs = [];
  if (draft.type === "detector") needs.push(draft.kind);
  else if (action && action.need) needs.push(action.need);
  if (draft.xy) needs.push("xy");
  if (draft.stabilizer) needs.push("stabilizer");
  return needs;
}

/**
 * Whether the board lets this action be recorded now: some card, character or
 * mission grant provides it. `offer` (the table screen's equipmentOffer) is
 * null when the table does not list its board: then every action is offered, as before.
 */
export function actionOffered(action, offer) {
  if (!offer) return true;
  if (action.type === "equipment") return cardPlayable(action.preset.card, offer);
  const [need] = needsOf({ type: action.type, action: action.id, ...(action.preset || {}) });
  return !need || providers(need, offer).length > 0;
}

/** Whether an action spends a card or a character (the `equipment` event's cards included). */
export function usesEquipment(action) {
  return action.type === "equipment" || needsOf({ type: action.type, action: action.id, ...(action.preset || {}) }).length > 0;
}

/** A `card` choice in words: a card, a player's character, or the mission's grant. */
export function cardChoiceText(choice, table) {
  if (!choice) return t("edit.notNoted");
  if (choice.card === "character") {
    return t("card.character", { name: playerName(table, choice.user), character: CHARACTER_NAMES[characterOf(table, choice.user)] });
  }
  if (choice.card === "mission") return t("card.mission");
  return t("card.card", { card: choice.card, name: cardName(choice.card) });
}

/**
 * One step per use of equipment, once the board is followed: which card (or
 * character, or mission grant) it spent. Only what the board allows now is
 * offered; a single way is filled in without a tap (`auto`).
 */
function cardSteps(draft, screen) {
  const offer = screen.equipmentOffer ? screen.equipmentOffer() : null;
  if (!offer) return [];
  return needsOf(draft).map((key) => {
    const need = NEEDS[key];
    const options = providers(key, { ...offer, actor: draft.actor });
    return {
      field: `card_${key}`, kind: "choice", text: (choice) => cardChoiceText(choice, screen.table),
      choices: options.map((choice) => [cardChoiceText(choice, screen.table), choice]),
      prompt: options.length ? t("prompt.whichCard", { card: need.name }) : t("prompt.noCard", { card: need.name }),
      auto: options.length === 1 ? options[0] : undefined,
    };
  });
}

export const EVENT_NAMES = Object.fromEntries(ACTIONS.map((action) => [action.id, action.name]));

/** The token choice that records an explosion instead of a token. */
export const EXPLODED = "exploded";

/** Text of an option value: a sort key, a gameplay value, a token object, EXPLODED, or null. */
export function optionText(value, nullText = t("option.none")) {
  if (value === null) return nullText;
  if (value === EXPLODED) return t("option.exploded");
  if (typeof value === "object") {
    if (value.parity) return value.parity === "even" ? t("option.even") : t("option.odd");
    if (value.count !== undefined) return `×${value.count}`;
    return JSON.stringify(value);
  }
  if (value === "red") return t("option.red");
  if (typeof value === "number" && colourOf(value) !== "blue") return label(value);
  return valueLabel(value);
}

/** How many keypad columns (46 px each on a phone) an option's label needs: "" one, ".wide" two, ".full" the row. */
export function optionSpan(text) {
  if (text.length <= 3) return "";
  return text.length <= 9 ? ".wide" : ".full";
}

export function optionColour(value) {
  if (value === null) return "none";
  if (value === EXPLODED) return "red";
  if (value === "yellow" || value === "red") return value;
  if (typeof value === "object") return "token";
  return colourOf(value);
}

/**
 * The values my own known wires rule out for a call I make: a call announces a
 * value the caller holds, so with every uncut wire of mine known, any value I
 * hold none of (a blue number, or "yellow"). [] for a teammate's call, or when
 * a wire of mine is unknown (flipped, an X wire not noted, one received).
 */
export function ruledOutByMyWires(screen, actor, values) {
  const me = screen.table.me;
  if (!me || me.player !== actor) return [];
  const known = screen.myKnownWires(actor);
  if (known.length !== screen.uncutSlotsOf(actor).length) return [];
  const held = (v) => known.some((w) => (v === "yellow" ? colourOf(w.key) === "yellow" : colourOf(w.key) === "blue" && w.key === v));
  return values.filter((v) => !held(v));
}

/**
 * The values the actor may solo-cut (rules §3.2: all copies of the value left
 * in the game are in their hand), by what is known; every value while the
 * analysis is not back. Left out: a value the actor cannot hold, one surely on
 * a wire outside their hand, one on a wire of mine when they are not me. With
 * my own hand known (my view) the count of a value outside it is the same in
 * every deal, so for my own solo cut the list is exact: a value is left out as
 * soon as a wire outside my hand may be it.
 */
function soloCuttable(screen, draft, values) {
  const { actor } = draft;
  const analysis = screen.analysis;
  // An earlier event being edited: the analysis is of the whole log, not of the table then.
  if (actor === undefined || draft.editIndex !== undefined || !analysis || !analysis.consistent) return values;
  const me = screen.table.me;
  const exact = me && me.player === actor && screen.view() === "me";
  const others = screen.table.players.flatMap((_, p) => (p === actor ? [] : screen.uncutSlotsOf(p)));
  const own = screen.uncutSlotsOf(actor);
  const chance = (slot, v) => {
    return Object.entries(screen.slotInfo(slot).p).filter(([k]) => (v === "yellow" ? colourOf(k) === "yellow" : colourOf(k) === "blue" && Number(k) === v))
      .reduce((sum, [, q]) => sum + q, 0);
  };
  if ([...others, ...own].some((slot) => !screen.slotInfo(slot))) return values;
  const mine = me && me.player !== actor ? values.filter((v) => screen.myWiresOf(me.player, v).length) : [];
  return values.filter((v) => !mine.includes(v) && own.some((slot) => chance(slot, v) > 0)
    && !others.some((slot) => (exact ? chance(slot, v) > 0 : chance(slot, v) >= 1)));
}

const PARITY_AND_COUNT = [{ parity: "even" }, { parity: "odd" }, { count: 1 }, { count: 2 }, { count: 3 }];

/** The recorder's steps for a draft event, in order; the first unfilled one is asked (an `auto` step never is). */
export function stepsFor(draft, screen) {
  return [...actionSteps(draft, screen), ...cardSteps(draft, screen)];
}

function actionSteps(draft, screen) {
  const offer = screen.equipmentOffer ? screen.equipmentOffer() : null;
  // With the board followed, the X or Y ray and the Stabilizer are offered only when something provides them.
  const can = (need) => !offer || providers(need, { ...offer, actor: draft.actor }).length > 0;
  const layout = screen.layout();
  const tile = (s) => tileAt(layout, s);
  const uncut = (s) => Boolean(tile(s) && !tile(s).cut);
  const sorted = (s) => Boolean(tile(s) && !tile(s).special);
  const name = (p) => screen.playerName(p);
  const announce = screen.announceable();
  // Mission tokens first where they replace the number tokens (M21/M33 parity, M24/M40 counts).
  const rules = ruleTags(screen.table);
  const parity = PARITY_AND_COUNT.filter((token) => token.parity);
  const counts = PARITY_AND_COUNT.filter((token) => token.count !== undefined);
  // Even/odd and ×1–×3 tokens only where the mission uses them; a free setup (no mission) may be any mission.
  const mission = screen.table.meta && typeof screen.table.meta.mission === "number";
  const tokens = rules.includes("parity_tokens") ? [...parity, ...announce]
    : rules.includes("count_tokens") ? [...counts, ...announce]
      : mission ? announce : [...announce, ...PARITY_AND_COUNT];
  const outcome = () => ({
    field: "success", kind: "choice", prompt: t("prompt.succeeded"),
    choices: [[t("choice.success"), true], [t("choice.failed"), false], ...(draft.stabilizerPreset || !can("stabilizer") ? [] : [[t("edit.failedStabilizer", { card: cardName("9") }), "stabilizer"]])],
    clears: ["stabilizer"],
  });
  const valueSteps = (values, prompt) => (draft.xy
    ? [
      { field: "value1", kind: "value", prompt: t("prompt.xyFirst", { card: cardName("10") }), values: announce },
      { field: "value2", kind: "value", prompt: t("prompt.xySecond", { card: cardName("10") }), values: announce.filter((v) => v !== draft.value1) },
    ]
    : [{ field: "value", kind: "value", prompt, values, ruledOut: ruledOutByMyWires(screen, draft.actor, values),
      extra: draft.xyPreset || !can("xy") ? [] : [[`${cardName("10")}…`, "xy"]] }]);
  const yellowKeys = (cutValue) => {
    if (cutValue !== "yellow") return [];
    const printed = [...screen.keys().yellow, null];
    return [
      { field: "keyTarget", kind: "value", prompt: t("prompt.keyTarget"), values: printed, nullText: t("edit.notNoted") },
      { field: "keyActor", kind: "value", prompt: t("prompt.keyActor"), values: printed, nullText: t("edit.notNoted") },
    ];
  };
  // My own wires are known: the step offers mine (`known`), one tap in the recorder.
  const actorSlot = (value) => {
    const mine = screen.myCutWire(draft.actor, value);
    return {
      field: "actor_slot", kind: "slot", prompt: t("prompt.actorSlot", { name: name(draft.actor) }),
      allow: (s) => s.player === draft.actor && uncut(s), known: mine ? [mine] : null,
    };
  };
  const cutValue = draft.xy ? draft.cut_value : draft.value;
  // Every wire of a value in my own hand (a solo cut, a Fast Pass), or null when not known.
  const mineOf = (value) => {
    const mine = value === undefined ? [] : screen.myWiresOf(draft.actor, value);
    return mine.length >= 2 ? mine : null;
  };
  const seenStep = (receiving) => (screen.table.me && receiving === screen.table.me.player
    ? [{ field: "seen", kind: "value", prompt: t("prompt.seen"), values: [...screen.allKeys(), null], nullText: t("option.skip") }]
    : []);

  switch (draft.type) {
    case "dual_cut": {
      const equipment = draft.xy || draft.stabilizer;
      const steps = [
        { field: "actor", kind: "player", prompt: t("prompt.whoCuts"), allow: (p) => !draft.target || draft.target.player !== p },
        { field: "target", kind: "slot", prompt: t("prompt.target"),
          allow: (s) => s.player !== draft.actor && uncut(s) && (!equipment || sorted(s)) },
        ...valueSteps(announce, t("prompt.announced")),
        outcome(),
      ];
      if (draft.success === true) {
        if (draft.xy) steps.push({ field: "cut_value", kind: "value", prompt: t("prompt.whichOfTwo"), values: [draft.value1, draft.value2] });
        steps.push(actorSlot(cutValue));
        const own = draft.actor_slot && tile(draft.actor_slot);
        if (own && own.special === "flipped") {
          // M38/M56: the cutter cannot see their own flipped wire; if it is not the value, the bomb explodes.
          steps.push({ field: "ownFlipped", kind: "choice", prompt: t("prompt.ownFlipped", { name: name(draft.actor), value: optionText(cutValue) }),
            choices: [[t("choice.bothCut"), "cut"], [t("choice.noExploded"), EXPLODED]] });
        }
        if (draft.ownFlipped !== EXPLODED) steps.push(...yellowKeys(cutValue));
      } else if (draft.success === false) {
        // The Stabilizer stops an explosion (a red target then gets no token).
        steps.push({ field: "token", kind: "value", prompt: t("prompt.token"),
          values: [...tokens, null, ...(draft.stabilizer ? [] : [EXPLODED])],
          nullText: draft.stabilizer ? t("option.noTokenRed") : t("edit.noToken") });
      }
      return steps;
    }
    case "detector": {
      const count = { double: 2, triple: 3 }[draft.kind];
      const allow = (s) => s.player !== draft.actor && uncut(s) && sorted(s);
      // With the board followed, only players who can provide this detector (a used Double Detector cannot).
      const steps = [{ field: "actor", kind: "player", prompt: t("prompt.whoDetector"),
        allow: offer ? (p) => providers(draft.kind, { ...offer, actor: p }).length > 0 : undefined }];
      if (count) {
        steps.push({ field: "targets", kind: "slots", count, prompt: t("prompt.targets", { n: count }),
          allow: (s, chosen) => allow(s) && (!chosen.length || (chosen[0].player === s.player && chosen[0].stand === s.stand)) });
      } else {
        steps.push({ field: "targets", kind: "slot", prompt: t("prompt.anyOfStand"), allow,
          convert: (s) => screen.standSlots(s.player, s.stand).filter((other) => uncut(other) && sorted(other)) });
      }
      steps.push(...valueSteps(screen.keys().blue, t("prompt.announced")), outcome());
      const isTarget = (s) => (draft.targets || []).some((at) => at.player === s.player && at.stand === s.stand && at.slot === s.slot);
      if (draft.success === true) {
        steps.push({ field: "cut", kind: "slot", prompt: t("prompt.cutWire"), allow: isTarget });
        if (draft.xy) steps.push({ field: "cut_value", kind: "value", prompt: t("prompt.whichOfTwo"), values: [draft.value1, draft.value2] });
        steps.push(actorSlot(draft.xy ? draft.cut_value : draft.value));
      } else if (draft.success === false) {
        steps.push({ field: "token", kind: "value", prompt: t("prompt.token"),
          values: [...tokens, null, ...(draft.stabilizer ? [] : [EXPLODED])],
          nullText: draft.stabilizer ? t("option.noTokenAllRed") : t("edit.noToken") });
        if (draft.token !== null && draft.token !== EXPLODED) {
          steps.push({ field: "token_at", kind: "slot", prompt: t("prompt.tokenAt"), allow: isTarget });
        }
      }
      return steps;
    }
    case "solo_cut":
      return [
        { field: "actor", kind: "player", prompt: t("prompt.whoSolo") },
        { field: "value", kind: "value", prompt: t("prompt.whichValue"), values: soloCuttable(screen, draft, announce) },
        { field: "slots", kind: "slots", prompt: t("prompt.soloSlots"), allow: (s) => s.player === draft.actor && uncut(s),
          known: mineOf(draft.value) },
      ];
    case "info_token":
      if (draft.falseToken) {
        return [
          { field: "at", kind: "slot", prompt: t("prompt.falseAt"), allow: (s) => Boolean(tile(s)) },
          { field: "value", kind: "value", prompt: t("prompt.falseValue"), values: announce },
        ];
      }
      return [
        { field: "at", kind: "slot", prompt: t("prompt.tokenWire"), allow: (s) => Boolean(tile(s)) },
        { field: "value", kind: "value", prompt: t("prompt.whichToken"), values: tokens },
      ];
    case "reveal_red": {
      const steps = [{ field: "actor", kind: "player", prompt: t("prompt.whoReveals") }];
      const reds = [...screen.keys().red, ...screen.countsAsRed()];
      if (draft.actor !== undefined) {
        (draft.redSlots || []).forEach((slot, i) => steps.push({
          field: `reveal${i}`, kind: "value", slot, values: reds,
          prompt: t("prompt.whichRed", { where: screen.slotName(slot) }),
        }));
      }
      return steps;
    }
    case "radar":
      return [
        { field: "value", kind: "value", prompt: t("prompt.radarValue", { card: cardName("8") }), values: screen.keys().blue },
        { field: "answers", kind: "answers", prompt: t("prompt.radarAnswers") },
      ];
    case "label":
      return [{ field: "at", kind: "slot",
        prompt: t("prompt.label", { card: cardName(draft.kind === "equal" ? "12" : "1") }),
        allow: (s) => sorted(s) && sorted({ ...s, slot: s.slot + 1 }) }];
    case "fast_pass":
      return [
        { field: "actor", kind: "player", prompt: t("prompt.whoUses", { card: cardName("9.9") }) },
        { field: "value", kind: "value", prompt: t("prompt.whichValue"), values: announce },
        { field: "slots", kind: "slots", count: 2, prompt: t("prompt.twoCut"), allow: (s) => s.player === draft.actor && uncut(s) && sorted(s),
          known: mineOf(draft.value) && mineOf(draft.value).slice(0, 2) },
      ];
    case "disintegrator":
      return [
        { field: "value", kind: "value", prompt: t("prompt.disintegrator", { card: cardName("10.10") }), values: announce },
        { field: "slots", kind: "slots", min: 0, prompt: t("prompt.disintegratorSlots"),
          allow: (s) => uncut(s) && sorted(s) },
      ];
    case "move": {
      const nanoLeft = layout.nano.length;
      const fromPlayer = draft.from && draft.from !== "nano" ? draft.from.player : null;
      const steps = [
        { field: "from", kind: "slot", prompt: t("prompt.taken"), allow: (s) => uncut(s) && sorted(s),
          extra: nanoLeft ? [[t("option.fromNano", { n: nanoLeft }), "nano"]] : [] },
        { field: "toStand", kind: "stand", prompt: t("prompt.receives"), allow: (p) => p !== fromPlayer },
      ];
      if (draft.toStand) {
        const length = screen.standSlots(draft.toStand.player, draft.toStand.stand).length;
        steps.push({ field: "toIndex", kind: "position", count: length + 1, prompt: t("prompt.lands"), stand: draft.toStand });
        steps.push(...seenStep(draft.toStand.player));
      }
      return steps;
    }
    case "swap": {
      const steps = [
        { field: "a", kind: "slot", prompt: t("prompt.swapFirst", { card: cardName("2") }), allow: (s) => uncut(s) && sorted(s) },
        { field: "b", kind: "slot", prompt: t("prompt.swapSecond"), allow: (s) => uncut(s) && sorted(s) && s.player !== draft.a.player },
      ];
      if (draft.a && draft.b) {
        const lengthB = screen.standSlots(draft.b.player, draft.b.stand).length;
        const lengthA = screen.standSlots(draft.a.player, draft.a.stand).length;
        steps.push({ field: "a_to", kind: "position", count: lengthB, prompt: t("prompt.firstLands", { name: name(draft.b.player) }), stand: draft.b, without: draft.b.slot });
        steps.push({ field: "b_to", kind: "position", count: lengthA, prompt: t("prompt.secondLands", { name: name(draft.a.player) }), stand: draft.a, without: draft.a.slot });
        const me = screen.table.me ? screen.table.me.player : -1;
        if (draft.a.player === me) steps.push(...seenStep(me));
        else if (draft.b.player === me) steps.push(...seenStep(me));
      }
      return steps;
    }
    case "absent": {
      const steps = [{ field: "player", kind: "player", prompt: t("prompt.whoseHand") }];
      if (draft.player !== undefined && screen.table.players[draft.player].stands.length > 1) {
        steps.push({ field: "stand", kind: "choice", prompt: t("prompt.wholeHand"),
          choices: [[t("choice.wholeHand"), null], ...screen.table.players[draft.player].stands.map((_, s) => [t("choice.stand", { n: s + 1 }), s])] });
      }
      steps.push({ field: "values", kind: "multivalue", prompt: t("prompt.absentValues"),
        values: screen.gameplayValues() });
      return steps;
    }
    case "dealt": {
      const steps = [{ field: "player", kind: "player", prompt: t("prompt.whoDealt") }];
      if (draft.player !== undefined && screen.table.players[draft.player].stands.length > 1) {
        steps.push({ field: "stand", kind: "choice", prompt: t("prompt.wholeHand"),
          choices: [[t("choice.wholeHand"), null], ...screen.table.players[draft.player].stands.map((_, s) => [t("choice.stand", { n: s + 1 }), s])] });
      }
      steps.push({ field: "value", kind: "choice", prompt: t("prompt.colour"), choices: [[t("choice.red"), "red"], [t("choice.yellow"), "yellow"]] });
      steps.push({ field: "count", kind: "choice", prompt: t("prompt.howMany"), choices: [0, 1, 2, 3, 4].map((c) => [String(c), c]) });
      return steps;
    }
    case "multi_cut": {
      const steps = [
        { field: "actor", kind: "player", prompt: t("prompt.whoSpecial") },
        { field: "value", kind: "value", prompt: t("prompt.claimed"), values: screen.gameplayValues() },
        { field: "slots", kind: "slots", min: 1, prompt: t("prompt.everyPointed"), allow: uncut },
        { field: "success", kind: "choice", prompt: t("prompt.didSucceed"),
          choices: [[t("choice.success"), true], [t("choice.failedTokens"), false], [t("choice.failedExploded"), EXPLODED]] },
      ];
      if (draft.success === false) {
        (draft.slots || []).forEach((slot, i) => steps.push({
          field: `token${i}`, kind: "value", slot, values: announce, prompt: t("prompt.tokenOn", { where: screen.slotName(slot) }),
        }));
      }
      return steps;
    }
    case "tripwire": {
      const steps = [
        { field: "actor", kind: "player", prompt: t("prompt.whoTripwire") },
        { field: "target", kind: "slot", prompt: t("prompt.tripwireWire"), allow: (s) => s.player !== draft.actor && uncut(s) },
        { field: "success", kind: "choice", prompt: t("prompt.wasTripwire"), choices: [[t("choice.yesCut"), true], [t("step.no"), false]] },
      ];
      if (draft.success === false) steps.push({ field: "token", kind: "value", prompt: t("prompt.token"), values: [...screen.keys().blue, EXPLODED] });
      return steps;
    }
    case "equipment": {
      const card = cardId(draft.card);
      const steps = [{ field: "actor", kind: "player", prompt: t("prompt.whoUses", { card: cardName(card) }), extra: [[t("edit.notNoted"), "no-actor"]], nullText: t("edit.notNoted") }];
      if (card === "11") steps.push({ field: "next", kind: "player", prompt: t("prompt.coffee", { card: cardName("11") }) });
      // A followed board must know what changed on it (the core asks for these fields then).
      if (offer && card === "7") {
        const used = (p) => offer.anyState || !offer.board || (offer.board.characters[p] && offer.board.characters[p].used);
        steps.push({ field: "characters", kind: "multichoice", min: 1, max: 2, prompt: t("prompt.batteries"),
          choices: screen.table.players.map((player, p) => [`${player.name} (${CHARACTER_NAMES[characterOf(screen.table, p)]})`, p]).filter(([, p]) => used(p)) });
      }
      if (offer && card === "Y") {
        const meta = screen.table.meta && screen.table.meta.equipment;
        const onBoard = offer.board ? offer.board.cards.map((c) => c.card) : (screen.table.equipment || []).map((e) => e.card);
        const pool = meta && Array.isArray(meta.pool) ? meta.pool : Object.keys(CARD_NAMES);
        steps.push({ field: "added", kind: "multichoice", min: 2, max: 2, prompt: t("prompt.falseBottom", { card: cardName("Y") }),
          choices: pool.filter((c) => !onBoard.includes(c) || (draft.added || []).includes(c)).map((c) => [`${c} ${CARD_NAMES[c]}`, c]) });
      }
      return steps;
    }
    default:
      return [];
  }
}

/**
 * The draft of a recorded event: every field its steps ask, filled from the
 * event (the inverse of eventFromDraft), so that Edit changes one field and
 * keeps the others. Addresses become full {player, stand, slot}.
 */
export function draftFromEvent(event, table, index) {
  const actionId = actionOfEvent(event) || event.type;
  const action = actionById(actionId);
  const draft = { type: event.type, action: actionId, ...((action && action.preset) || {}) };
  if (draft.xy) draft.xyPreset = true;
  if (draft.stabilizer) delete draft.stabilizer; // the event says whether the Stabilizer was used
  const full = (slot) => ({ player: slot.player, stand: slot.stand, slot: slot.slot });
  const own = (slot) => ({ player: event.actor, stand: slot.stand, slot: slot.slot });
  const values = () => {
    if (event.values) Object.assign(draft, { xy: true, value1: event.values[0], value2: event.values[1] });
    else draft.value = event.value;
  };
  switch (event.type) {
    case "dual_cut":
      Object.assign(draft, { actor: event.actor, target: full(event.target) });
      values();
      draft.success = event.success;
      if (event.stabilizer) draft.stabilizer = true;
      if (event.success) {
        if (event.cut_value !== undefined) draft.cut_value = event.cut_value;
        draft.actor_slot = own(event.actor_slot);
        draft.ownFlipped = event.exploded ? EXPLODED : "cut"; // asked only when the own wire is a flipped one
        const cut = event.values ? event.cut_value : event.value;
        if (cut === "yellow" && !event.exploded) {
          draft.keyTarget = event.keys ? event.keys.target : null;
          draft.keyActor = event.keys ? event.keys.actor : null;
        }
      } else {
        draft.token = event.exploded ? EXPLODED : event.token === undefined ? null : event.token;
      }
      break;
    case "detector":
      Object.assign(draft, { actor: event.actor, kind: event.kind, targets: event.targets.map(full) });
      values();
      draft.success = event.success;
      if (event.stabilizer) draft.stabilizer = true;
      if (event.success) {
        draft.cut = full(event.cut);
        if (event.cut_value !== undefined) draft.cut_value = event.cut_value;
        draft.actor_slot = own(event.actor_slot);
      } else {
        draft.token = event.exploded ? EXPLODED : event.token === undefined ? null : event.token;
        if (draft.token !== null && draft.token !== EXPLODED) draft.token_at = full(event.token_at);
      }
      break;
    case "solo_cut":
    case "fast_pass":
      Object.assign(draft, { actor: event.actor, value: event.value, slots: event.slots.map(own) });
      break;
    case "info_token":
      draft.at = full(event.at);
      if (event.parity) draft.value = { parity: event.parity };
      else if (event.count !== undefined) draft.value = { count: event.count };
      else draft.value = event.value;
      if (event.false) draft.falseToken = true;
      break;
    case "reveal_red":
      draft.actor = event.actor;
      draft.redSlots = event.slots.map((slot) => own(slot));
      event.slots.forEach((slot, i) => { draft[`reveal${i}`] = slot.value; });
      break;
    case "radar":
      Object.assign(draft, { value: event.value, answers: event.answers.map((row) => [...row]) });
      break;
    case "label":
      Object.assign(draft, { kind: event.kind, at: full(event.at) });
      break;
    case "disintegrator":
      Object.assign(draft, { value: event.value, slots: event.slots.map(full) });
      break;
    case "move":
      Object.assign(draft, { from: event.from === "nano" ? "nano" : full(event.from),
        toStand: { player: event.to.player, stand: event.to.stand }, toIndex: event.to.slot });
      break;
    case "swap":
      Object.assign(draft, { a: full(event.a), b: full(event.b), a_to: event.a_to, b_to: event.b_to });
      break;
    case "absent":
    case "dealt":
      Object.assign(draft, { player: event.player, stand: event.stand === undefined ? null : event.stand });
      if (event.type === "absent") draft.values = [...event.values];
      else Object.assign(draft, { value: event.value, count: event.count });
      break;
    case "multi_cut":
      Object.assign(draft, { actor: event.actor, value: event.value, slots: event.slots.map(full),
        success: event.exploded ? EXPLODED : event.success });
      if (!event.success) (event.tokens || []).forEach((token, i) => { draft[`token${i}`] = token; });
      break;
    case "tripwire":
      Object.assign(draft, { actor: event.actor, target: full(event.target), success: event.success });
      if (!event.success) draft.token = event.exploded ? EXPLODED : event.token;
      break;
    case "equipment":
      Object.assign(draft, { card: cardId(event.card), actor: event.actor === undefined ? null : event.actor });
      if (event.next !== undefined) draft.next = event.next;
      if (Array.isArray(event.characters)) draft.characters = [...event.characters];
      if (Array.isArray(event.added)) draft.added = [...event.added];
      break;
    default:
      break;
  }
  if (event.card !== undefined && event.type !== "equipment") Object.assign(draft, cardFields(event, draft, table));
  // A wire I received by this move or swap, noted privately: kept by the edit.
  const seen = table.me && (table.me.seen || []).find((entry) => entry.after === index);
  if ((event.type === "move" || event.type === "swap") && table.me) {
    const receives = event.type === "move" ? event.to.player === table.me.player
      : event.a.player === table.me.player || event.b.player === table.me.player;
    if (receives) draft.seen = seen ? seen.value : null;
  }
  draft.editIndex = index;
  return draft;
}

/** An event's `card` entries as the draft's card_<need> fields: each entry goes to the need it provides. */
function cardFields(event, draft, table) {
  const user = typeof event.actor === "number" ? event.actor : undefined;
  const provides = (key, entry) => {
    const need = NEEDS[key];
    if (entry === "mission") return Boolean(need.missionTag);
    if (entry === "character") return user !== undefined && characterOf(table, user) === need.character;
    return need.card === entry;
  };
  const fields = {};
  const needs = needsOf(draft);
  for (const entry of Array.isArray(event.card) ? event.card : [event.card]) {
    const key = needs.find((k) => !fields[`card_${k}`] && provides(k, entry));
    if (key) fields[`card_${key}`] = entry === "character" ? { card: entry, user } : { card: entry };
  }
  return fields;
}

/**
 * Fields that depend on another (cleared with it when Edit changes it), so the
 * steps ask them again on the new choice.
 */
export const DEPENDENT_FIELDS = {
  // actor: the table screen's changeActor clears what depended on the actor (its own wires, a target on its stand).
  targets: ["cut", "token_at"],
  value1: ["cut_value", "value2"],
  value2: ["cut_value"],
  success: ["stabilizer"],
  actor_slot: ["ownFlipped"],
  token: ["token_at"],
  from: ["toStand", "toIndex", "seen"],
  toStand: ["toIndex", "seen"],
  a: ["b", "a_to", "b_to", "seen"],
  b: ["a_to", "b_to", "seen"],
  player: ["stand"],
  value: ["keyTarget", "keyActor"],
  slots: Array.from({ length: 12 }, (_, i) => `token${i}`),
};

/**
 * The format-1 event a finished draft records, with the `card` it spent (an
 * ID, "character" or "mission"; a list for two uses). A character's user is
 * the event's `actor`; events without one of their own name it in `actor`.
 */
export function eventFromDraft(draft) {
  const event = plainEvent(draft);
  const spent = event.type === "equipment" ? [] : needsOf(draft).map((key) => draft[`card_${key}`]).filter(Boolean);
  if (!spent.length) return event;
  event.card = spent.length === 1 ? spent[0].card : spent.map((choice) => choice.card);
  const character = spent.find((choice) => choice.card === "character");
  if (character && event.actor === undefined) event.actor = character.user;
  return event;
}

function plainEvent(draft) {
  const place = (slot) => ({ stand: slot.stand, slot: slot.slot });
  const full = (slot) => ({ player: slot.player, stand: slot.stand, slot: slot.slot });
  const valueOf = (event) => {
    if (draft.xy) event.values = [draft.value1, draft.value2];
    else event.value = draft.value;
    return event;
  };
  switch (draft.type) {
    case "dual_cut": {
      const event = valueOf({ type: "dual_cut", actor: draft.actor, target: full(draft.target) });
      event.success = draft.success;
      if (draft.stabilizer) event.stabilizer = true;
      if (!draft.success) {
        if (draft.token === EXPLODED) event.exploded = true;
        else event.token = draft.token;
        return event;
      }
      if (draft.xy) event.cut_value = draft.cut_value;
      event.actor_slot = place(draft.actor_slot);
      if (draft.ownFlipped === EXPLODED) {
        event.exploded = true;
        return event;
      }
      if (typeof draft.keyTarget === "number" && typeof draft.keyActor === "number") {
        event.keys = { target: draft.keyTarget, actor: draft.keyActor };
      }
      return event;
    }
    case "detector": {
      const event = { type: "detector", actor: draft.actor, kind: draft.kind, targets: draft.targets.map(full) };
      valueOf(event);
      event.success = draft.success;
      if (draft.stabilizer) event.stabilizer = true;
      if (draft.success) {
        event.cut = full(draft.cut);
        if (draft.xy) event.cut_value = draft.cut_value;
        event.actor_slot = place(draft.actor_slot);
      } else if (draft.token === EXPLODED) {
        event.exploded = true;
      } else {
        event.token = draft.token;
        if (draft.token !== null) event.token_at = full(draft.token_at);
      }
      return event;
    }
    case "solo_cut":
      return { type: "solo_cut", actor: draft.actor, value: draft.value, slots: draft.slots.map(place) };
    case "info_token": {
      const event = { type: "info_token", at: full(draft.at) };
      if (draft.value !== null && typeof draft.value === "object") Object.assign(event, draft.value);
      else event.value = draft.value;
      if (draft.falseToken) event.false = true;
      return event;
    }
    case "reveal_red":
      return {
        type: "reveal_red", actor: draft.actor,
        slots: draft.redSlots.map((slot, i) => ({ ...place(slot), value: draft[`reveal${i}`] })),
      };
    case "radar":
      return { type: "radar", value: draft.value, answers: draft.answers.map((row) => [...row]) };
    case "label":
      return { type: "label", kind: draft.kind, at: full(draft.at) };
    case "fast_pass":
      return { type: "fast_pass", actor: draft.actor, value: draft.value, slots: draft.slots.map(place) };
    case "disintegrator":
      return { type: "disintegrator", value: draft.value, slots: draft.slots.map(full) };
    case "move":
      return {
        type: "move", from: draft.from === "nano" ? "nano" : full(draft.from),
        to: { player: draft.toStand.player, stand: draft.toStand.stand, slot: draft.toIndex },
      };
    case "swap":
      return { type: "swap", a: full(draft.a), b: full(draft.b), a_to: draft.a_to, b_to: draft.b_to };
    case "absent": {
      const event = { type: "absent", player: draft.player, values: [...draft.values] };
      if (draft.stand !== undefined && draft.stand !== null) event.stand = draft.stand;
      return event;
    }
    case "dealt": {
      const event = { type: "dealt", player: draft.player, value: draft.value, count: draft.count };
      if (draft.stand !== undefined && draft.stand !== null) event.stand = draft.stand;
      return event;
    }
    case "multi_cut": {
      const event = { type: "multi_cut", actor: draft.actor, value: draft.value, slots: draft.slots.map(full), success: draft.success === true };
      if (draft.success === EXPLODED) event.exploded = true;
      else if (!draft.success) event.tokens = draft.slots.map((_, i) => draft[`token${i}`]);
      return event;
    }
    case "tripwire": {
      const event = { type: "tripwire", actor: draft.actor, target: full(draft.target), success: draft.success };
      if (draft.token === EXPLODED && !draft.success) event.exploded = true;
      else if (!draft.success) event.token = draft.token;
      return event;
    }
    case "equipment": {
      const event = { type: "equipment", card: cardId(draft.card) };
      if (typeof draft.actor === "number") event.actor = draft.actor;
      if (event.card === "11") event.next = draft.next;
      if (Array.isArray(draft.characters)) event.characters = [...draft.characters];
      if (Array.isArray(draft.added)) event.added = [...draft.added];
      return event;
    }
    default:
      throw new Error(`unknown event type ${draft.type}`);
  }
}

/**
 * The private sighting a draft adds to me.seen (a wire I received by a move
 * or swap), or null: {at, value, after}.
 */
export function seenFromDraft(draft, table, index) {
  if (typeof draft.seen !== "number" || !table.me) return null;
  const me = table.me.player;
  let at = null;
  if (draft.type === "move") at = { player: draft.toStand.player, stand: draft.toStand.stand, slot: draft.toIndex };
  else if (draft.type === "swap" && draft.a.player === me) at = { player: me, stand: draft.a.stand, slot: draft.b_to };
  else if (draft.type === "swap" && draft.b.player === me) at = { player: me, stand: draft.b.stand, slot: draft.a_to };
  return at ? { at, value: draft.seen, after: index } : null;
}
