// The new-game screen: the mission picker (bridge methods `missions` and
// `new`: the mission fills the wire set, the stands and their special slots,
// Nano and the rule tags; the page then asks only which yellow/red values the
// table drew), players and names, the wire set for a free setup (blue range,
// yellow/red values in play or in a k-of-m pool), stands with their sizes and
// special slots (X slot, flipped wires; computed, editable), who "me" is and
// my wires (tapped in, shown sorted; an X wire at its place, my own flipped
// wires unknown) and the teammates' flipped wires I see (me.seen). A mission
// with equipment asks which cards were drawn for the board (tapped, or drawn
// at random by the page; meta.equipment gives how many and from which pool)
// and, from M31, each player's character; in M12 the Number card laid over each
// card (meta.equipment.covers; drawn too by "Draw them for us"): the table then
// lists its board and the game follows it (docs/table-format.md, "Equipment on
// the board").
import { h, toast } from "./ui.js";
import { has, t, tn } from "./i18n.js";
import { CARD_NAMES, CHARACTER_NAMES, DEFAULT_CHARACTER, drawCards } from "./equipment.js";
import { colourOf, dealSizes, label, possibleKeys, range, standsPerPlayer, wireCount } from "./model.js";
import { specialSlots } from "./layout.js";

const COLOUR_KEYS = { yellow: range(1, 11).map((n) => n + 0.1), red: range(1, 11).map((n) => n + 0.5) };
// Tapping a yellow/red value cycles: not used → in play → maybe (k-of-m pool) → not used.
const NEXT_STATE = { off: "in", in: "maybe", maybe: "off" };
// A stand's special layout (docs/table-format.md, "Stands") and its name in the picker.
const SPECIALS = ["", "x_any", "x_blue", "f1", "f2", "low", "high"].map((value) => [value, t(`special.${value || "plain"}`)]);

function specOf(size, special) {
  switch (special) {
    case "x_any": return { size, x_slot: "any" };
    case "x_blue": return { size, x_slot: "blue" };
    case "f1": return { size, flipped: 1 };
    case "f2": return { size, flipped: 2 };
    case "low": return { size, flipped: "low" };
    case "high": return { size, flipped: "high" };
    default: return size;
  }
}

function specialOf(spec) {
  if (typeof spec !== "object" || !spec) return "";
  if (spec.x_slot) return spec.x_slot === "blue" ? "x_blue" : "x_any";
  return { 1: "f1", 2: "f2", low: "low", high: "high" }[spec.flipped] || "";
}

const sizeOf = (spec) => (typeof spec === "number" ? spec : spec.size);

/**
 * Run `redraw` once the tap that ended a field's editing is over. A name is
 * committed when its field loses focus, which a tap elsewhere causes just
 * before that tap's click: redrawing at once replaced the control under the
 * finger and the tap was lost. Without a tap (Enter, the keyboard closed) it
 * runs shortly after.
 */
function afterTap(redraw) {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    document.removeEventListener("click", onClick, true);
    redraw();
  };
  const onClick = () => setTimeout(run, 0); // after the click's own handler
  document.addEventListener("click", onClick, true);
  setTimeout(run, 1000);
}

function defaultSetup() {
  return {
    playerCount: 4,
    names: ["", "", "", "", ""],
    blueLow: 1,
    blueHigh: 12,
    colourState: { yellow: {}, red: {} },
    poolCount: { yellow: 1, red: 1 },
    specs: null, // null = computed from the wire set (or the mission); else [player][stand] spec
    nano: 0,
    me: 0,
    myStands: [[], []],
    myX: [null, null],
    xMode: false,
    activeStand: 0,
    seen: {}, // "p.s.j" → sort key of a teammate's flipped wire I see
    // Mission presets
    catalogue: null,
    mission: null,
    drawn: { yellow: [], red: [] },
    number: null,
    preset: null,
    presetKey: null,
    presetLoading: false, // a request for presetKey's table is in flight
    equipment: [], // the card IDs drawn for the board
    covers: {}, // M12: card ID → the value of the Number card covering it (meta.equipment.covers)
    skipEquipment: false, // "Don't follow the equipment": the table lists no board, as before
    characters: {}, // player → character (E1–E4 from M31); absent: the Double Detector
  };
}

/** The mission's equipment for this player count (meta.equipment of its preset), or null. */
function equipmentPool(setup) {
  const meta = setup.mission && setup.preset && setup.preset.meta;
  return meta && meta.equipment && meta.equipment.count > 0 ? meta.equipment : null;
}

/** Whether the board is settled: the drawn cards all tapped (M12: each with its Number card), or not followed. */
function equipmentComplete(setup) {
  const pool = equipmentPool(setup);
  return !pool || setup.skipEquipment || (setup.equipment.length === pool.count && coversComplete(setup));
}

/** M12: every card drawn has the Number card covering it (the core refuses a board without). */
function coversComplete(setup) {
  const pool = equipmentPool(setup);
  return !pool || !pool.covers || setup.equipment.every((card) => setup.covers[card] !== undefined);
}

function resetEquipment(setup) {
  setup.equipment = [];
  setup.covers = {};
  setup.skipEquipment = false;
  setup.characters = {};
}

const HARD_SHARE = 0.1; // bench/difficulty.py's HARD: a cell won less often gets a word on why

/** The simulator's measured win rate for the chosen mission and player count (difficulty.json, written by
 * bench/difficulty.py from the committed tournament logs), as a sentence; null before it loads. */
function difficultyText(difficulty, mission, players) {
  if (!difficulty || !mission) return null;
  const why = difficulty.refused[String(mission)];
  if (why) return t("difficulty.refused", { why });
  const cell = (difficulty.cells[String(mission)] || {})[String(players)];
  if (!cell) return t("difficulty.notYet", { n: players });
  const pct = (x) => Math.round(100 * x);
  // Under 10 %: what loses those games is the mission's own rules, which greedy play does not plan
  // for (docs/results/difficulty.md), not the odds a team faces.
  const hard = cell.wins < HARD_SHARE * cell.games ? ` ${t("difficulty.hard")}` : "";
  return t("difficulty.won", { pct: pct(cell.wins / cell.games), games: cell.games, n: players, lo: pct(cell.ci95[0]), hi: pct(cell.ci95[1]) }) + hard;
}

function missionEntry(setup) {
  return setup.mission && setup.catalogue ? setup.catalogue.find((m) => m.mission === setup.mission) : null;
}

// The missions' summaries and rule tags in the page's language (js/i18n/missions-LANG.json); a mission
// or tag the catalogue does not know yet (a newer core) keeps the core's English.
function missionSummary(entry) {
  return has(`mission.summary.${entry.mission}`) ? t(`mission.summary.${entry.mission}`) : entry.summary;
}

function missionRule(tag) {
  return has(`mission.rule.${tag}`) ? t(`mission.rule.${tag}`) : tag.replace(/_/g, " ");
}

/** What the mission still needs from the table: {yellow: {values, in_play, range}, red, number}. */
function missionChoices(setup) {
  const entry = missionEntry(setup);
  return entry && entry.choices ? entry.choices[String(setup.playerCount)] || null : null;
}

function drawnComplete(setup) {
  const choices = missionChoices(setup);
  if (!choices) return false;
  return ["yellow", "red"].every((colour) => !choices[colour] || setup.drawn[colour].length === choices[colour].values)
    && (!choices.number || setup.number !== null);
}

function wiresOf(setup) {
  if (setup.mission && setup.preset) return setup.preset.wires;
  const chosen = (colour, state) => COLOUR_KEYS[colour].filter((k) => setup.colourState[colour][k] === state);
  const pools = ["yellow", "red"].map((colour) => {
    const candidates = chosen(colour, "maybe");
    return { candidates, count: Math.min(setup.poolCount[colour], Math.max(1, candidates.length - 1)) };
  }).filter((pool) => pool.candidates.length);
  const wires = {
    blue: range(setup.blueLow, setup.blueHigh),
    yellow: chosen("yellow", "in"),
    red: chosen("red", "in"),
  };
  if (pools.length) wires.uncertain = pools;
  return wires;
}

function nanoOf(setup) {
  if (setup.mission && setup.preset) return Number(setup.preset.nano) || 0;
  return setup.nano;
}

/** Stand specs per player: the edited ones, the mission's, or the even deal. */
function standsOfSetup(setup) {
  const perPlayer = standsPerPlayer(setup.playerCount);
  if (setup.specs && setup.specs.length === perPlayer.length
      && setup.specs.every((stands, p) => stands.length === perPlayer[p])) return setup.specs;
  if (setup.mission && setup.preset && setup.preset.players.length === setup.playerCount) {
    return setup.preset.players.map((player) => [...player.stands]);
  }
  const total = perPlayer.reduce((a, b) => a + b, 0);
  const sizes = dealSizes(wireCount(wiresOf(setup)) - nanoOf(setup), total);
  let next = 0;
  return perPlayer.map((count) => sizes.slice(next, (next += count)));
}

function playerName(setup, p) {
  return setup.names[p].trim() || t("setup.defaultPlayer", { n: p + 1 });
}

/** My stand as dealt: the sorted wires in the ordinary slots, the X wire at its place, null for my flipped wires. */
function myHand(setup, spec, s) {
  const sorted = [...(setup.myStands[s] || [])].sort((a, b) => a - b);
  let next = 0;
  return specialSlots(spec).map((kind) => {
    if (kind === "x") return setup.myX[s];
    if (kind === "flipped") return null;
    return sorted[next++];
  });
}

/**
 * Render the setup screen into `root`; `onStart(table)` receives the new table
 * and resolves to whether the game started. `engine` (window.bombbuster)
 * gives the mission presets.
 */
export function renderSetup(root, { onStart, onCancel, engine }) {
  const setup = defaultSetup();

  let form = null;
  const rerender = () => {
    const scroll = root.scrollTop;
    form = view();
    root.replaceChildren(form);
    root.scrollTop = scroll;
  };
  // A name's redraw waits for the tap that ended the editing: by then that tap may have left the form (Cancel).
  const redrawIfShown = () => { if (form && form.isConnected) rerender(); };
  // The wire set or the stands changed: my wires that still fit are kept (copies
  // in play, stand sizes), the others are dropped and named.
  const resetSizes = () => {
    setup.specs = null;
    const before = setup.myStands.map((row) => [...row]);
    setup.myStands = [[], []];
    setup.myX = [null, null];
    setup.seen = {};
    if (!before.flat().length) return;
    const keys = possibleKeys(wiresOf(setup));
    const copies = new Map([...keys.blue.map((k) => [k, 4]), ...keys.yellow.map((k) => [k, 1]), ...keys.red.map((k) => [k, 1])]);
    const specs = standsOfSetup(setup)[setup.me] || [];
    const dropped = [];
    before.forEach((row, s) => {
      const room = specs[s] === undefined ? 0 : sizeOf(specs[s]) - specialSlots(specs[s]).filter(Boolean).length;
      for (const key of row) {
        if (typeof key !== "number") continue;
        const left = copies.get(key) || 0;
        if (left > 0 && setup.myStands[s].length < room) {
          setup.myStands[s].push(key);
          copies.set(key, left - 1);
        } else {
          dropped.push(key);
        }
      }
    });
    if (dropped.length) toast(t("setup.dropped", { wires: dropped.map(label).join(", ") }), "info", 6000);
  };

  // The catalogue comes from the engine once it is ready. What arrives later redraws the form only
  // while it is on screen: a game opened meanwhile (a share link on a slow phone) keeps the screen.
  if (engine && engine.missions) {
    engine.missions().then((catalogue) => { setup.catalogue = catalogue; redrawIfShown(); }, () => {
      setup.catalogue = [];
      redrawIfShown();
    });
  }

  // The measured win rates are a static file of the site (cached offline by the service worker).
  // The mark is set whatever the outcome (a failed fetch, a bad body, a redraw that throws), after any redraw (e2e waits).
  fetch("difficulty.json").then((r) => (r.ok ? r.json() : null)).then((d) => { setup.difficulty = d; redrawIfShown(); },
    () => {}).finally(() => { document.body.dataset.difficulty = "handled"; });

  /** Ask the engine for the mission's table (placeholders until the drawn values are complete). */
  const loadPreset = () => {
    if (!setup.mission) return;
    const params = { mission: setup.mission, players: setup.playerCount };
    const choices = missionChoices(setup);
    if (drawnComplete(setup)) {
      if (choices.yellow) params.yellow = [...setup.drawn.yellow].sort((a, b) => a - b);
      if (choices.red) params.red = [...setup.drawn.red].sort((a, b) => a - b);
      if (choices.number) params.number = setup.number;
    }
    const key = JSON.stringify(params);
    if (key === setup.presetKey) return;
    setup.presetKey = key;
    setup.presetLoading = true;
    engine.newTable(params).then((table) => {
      if (setup.presetKey !== key) return;
      setup.presetLoading = false;
      const keepSpecs = setup.preset && JSON.stringify(setup.preset.players) === JSON.stringify(table.players);
      setup.preset = table;
      if (!keepSpecs) resetSizes();
      redrawIfShown();
    }, (error) => {
      if (setup.presetKey !== key) return;
      setup.presetLoading = false;
      setup.preset = null;
      toast(t("setup.presetFailed", { reason: error.message }), "error", 8000);
      redrawIfShown();
    });
  };

  // `group` names the control for tests and scripts (data-group), whatever the page's language.
  const segmented = (values, current, onPick, name, group = null, text = String) => h("div.segmented", {
    role: "group", "aria-label": name, dataset: group ? { group } : {},
  }, values.map((value) => h("button", {
    "aria-pressed": String(value === current),
    dataset: { value: String(value) },
    onclick: () => { onPick(value); rerender(); },
  }, text(value))));

  const missionSection = () => {
    const entry = missionEntry(setup);
    const catalogue = setup.catalogue;
    return h("section.card.mission-picker", {},
      h("h2", {}, t("setup.mission")),
      h("select", {
        id: "mission", "aria-label": t("setup.missionLabel"), disabled: !catalogue,
        onchange: (event) => {
          setup.mission = event.target.value ? Number(event.target.value) : null;
          setup.preset = null;
          setup.presetKey = null;
          setup.presetLoading = false;
          setup.drawn = { yellow: [], red: [] };
          setup.number = null;
          resetEquipment(setup);
          resetSizes();
          const chosen = missionEntry(setup);
          if (chosen && !chosen.players.includes(setup.playerCount)) setup.playerCount = chosen.players[chosen.players.length - 1];
          loadPreset();
          rerender();
        },
      },
      h("option", { value: "", selected: !setup.mission }, catalogue ? t("setup.freeOption") : t("setup.loadingMissions")),
      (catalogue || []).map((m) => h("option", { value: String(m.mission), selected: m.mission === setup.mission },
        `${m.mission} · ${m.name}`))),
      entry ? h("p.hint.mission-summary", {}, missionSummary(entry)) : null,
      entry && entry.rules.length
        ? h("p.hint.mission-rules", {}, t("setup.rules", { rules: entry.rules.map(missionRule).join(", ") }))
        : null);
  };

  const playersSection = () => {
    const entry = missionEntry(setup);
    const counts = entry ? entry.players : [2, 3, 4, 5];
    const difficulty = difficultyText(setup.difficulty, setup.mission, setup.playerCount);
    return h("section.card", {},
      h("h2", {}, t("setup.players")),
      h("div.row", {}, h("span.label", {}, t("setup.howMany")),
        segmented(counts, setup.playerCount, (n) => {
          setup.playerCount = n;
          setup.me = setup.me === null ? null : Math.min(setup.me, n - 1);
          setup.drawn = { yellow: [], red: [] };
          resetEquipment(setup);
          resetSizes();
          loadPreset();
        }, t("setup.playerCount"), "player-count")),
      difficulty ? h("p.hint.difficulty", {}, difficulty) : null,
      h("div.names", {}, range(0, setup.playerCount - 1).map((p) => h("label.name-field", {},
        h("span", {}, p === 0 ? t("setup.captain") : t("setup.seat", { n: p + 1 })),
        h("input", {
          type: "text", value: setup.names[p], placeholder: t("setup.defaultPlayer", { n: p + 1 }), maxlength: "20",
          "aria-label": t("setup.nameLabel", { n: p + 1 }), dataset: { player: String(p) },
          oninput: (event) => { setup.names[p] = event.target.value; },
          onchange: () => afterTap(redrawIfShown),
        })))));
  };

  const colourChips = (colour) => h("div.chips", { role: "group", "aria-label": t(`setup.${colour}Wires`), dataset: { group: `${colour}-wires` } },
    COLOUR_KEYS[colour].map((key) => {
      const state = setup.colourState[colour][key] || "off";
      return h(`button.chip.${colour}.state-${state}`, {
        dataset: { key: String(key) },
        title: t(`setup.chip.${state}`),
        onclick: () => { setup.colourState[colour][key] = NEXT_STATE[state]; resetSizes(); rerender(); },
      }, label(key), state === "maybe" ? "?" : "");
    }));

  const poolControl = (colour) => {
    const maybe = COLOUR_KEYS[colour].filter((k) => setup.colourState[colour][k] === "maybe").length;
    if (maybe < 2) return maybe === 1 ? h("p.hint.warn", {}, t("setup.poolTwo")) : null;
    return h("div.row", {}, h("span.label", {}, t(`setup.pool.${colour}`, { n: maybe })),
      segmented(range(1, maybe - 1), Math.min(setup.poolCount[colour], maybe - 1),
        (k) => { setup.poolCount[colour] = k; resetSizes(); }, t(`setup.poolCount.${colour}`)));
  };

  const numberInput = (value, onValue, attrs) => h("input.number", {
    type: "number", inputmode: "numeric", value: String(value), ...attrs,
    onchange: (event) => { const n = parseInt(event.target.value, 10); if (Number.isFinite(n)) onValue(n); rerender(); },
  });

  /** The mission's draws: tap exactly the values the table drew (a pool: the m revealed candidates). */
  const drawnChips = (colour, choice) => {
    const [lo, hi] = choice.range;
    const keys = COLOUR_KEYS[colour].filter((k) => k >= lo && k <= hi);
    const picked = setup.drawn[colour];
    const what = choice.values === choice.in_play
      ? tn(`setup.drawn.${colour}`, choice.values)
      : t(`setup.revealed.${colour}`, { n: choice.values, inPlay: choice.in_play });
    return h("div", {},
      h("h3", {}, `${what} (${picked.length}/${choice.values})`),
      h("div.chips", { role: "group", "aria-label": t(`setup.drawnLabel.${colour}`), dataset: { group: `drawn-${colour}` } }, keys.map((key) => {
        const on = picked.includes(key);
        return h(`button.chip.${colour}.state-${on ? (choice.values === choice.in_play ? "in" : "maybe") : "off"}`, {
          dataset: { key: String(key) }, "aria-pressed": String(on),
          onclick: () => {
            if (on) picked.splice(picked.indexOf(key), 1);
            else if (picked.length < choice.values) picked.push(key);
            else return toast(t("setup.alreadyChosen", { n: choice.values }));
            loadPreset();
            rerender();
          },
        }, label(key));
      })));
  };

  const wiresSection = () => {
    const choices = missionChoices(setup);
    if (setup.mission && choices) {
      const wires = wiresOf(setup);
      const keys = possibleKeys(wires || { blue: [] });
      return h("section.card", {},
        h("h2", {}, t("setup.wires")),
        h("p.hint", {}, wires
          ? `${t("setup.blueRange", { lo: keys.blue[0], hi: keys.blue[keys.blue.length - 1] })}${wires.counts_as_red !== undefined ? ` · ${t("setup.countsAsRed", { value: wires.counts_as_red })}` : ""}`
          : t("setup.loadingMission")),
        choices.yellow ? drawnChips("yellow", choices.yellow) : null,
        choices.red ? drawnChips("red", choices.red) : null,
        choices.number ? h("div", {}, h("h3", {}, t("setup.numberCard")),
          segmented(range(choices.number.range[0], choices.number.range[1]), setup.number,
            (n) => { setup.number = n; loadPreset(); }, t("setup.numberCardLabel"), "number-card")) : null,
        !drawnComplete(setup) ? h("p.hint.warn", {}, t("setup.chooseDrawn"))
          // The engine may be busy with the last game's work: say so rather than refuse Start.
          : setup.presetLoading ? h("p.hint.warn", {}, t("setup.loadingTable")) : null);
    }
    return h("section.card", {},
      h("h2", {}, t("setup.wires")),
      h("div.row", {}, h("span.label", {}, t("setup.blueValues")),
        numberInput(setup.blueLow, (n) => { setup.blueLow = Math.max(1, Math.min(n, setup.blueHigh)); resetSizes(); }, { min: "1", max: "12", "aria-label": t("setup.lowestBlue"), dataset: { field: "blue-low" } }),
        h("span", {}, t("setup.to")),
        numberInput(setup.blueHigh, (n) => { setup.blueHigh = Math.min(12, Math.max(n, setup.blueLow)); resetSizes(); }, { min: "1", max: "12", "aria-label": t("setup.highestBlue"), dataset: { field: "blue-high" } }),
        h("span.hint", {}, t("setup.fourEach"))),
      h("h3", {}, t("choice.yellow")), colourChips("yellow"), poolControl("yellow"),
      h("h3", {}, t("choice.red")), colourChips("red"), poolControl("red"),
      h("p.hint", {}, t("setup.tapCycle")));
  };

  /** The cards drawn for the board (tapped, or drawn by the page) and, from M31, each player's character. */
  const equipmentSection = () => {
    const pool = equipmentPool(setup);
    if (!pool) return null;
    const picked = setup.equipment;
    const characters = setup.skipEquipment ? [] : pool.characters || [];
    const characterRow = (p) => {
      if (p === 0) return h("div.row", {}, h("span.label", {}, playerName(setup, 0)), h("span", {}, t("setup.captainKeeps", { character: CHARACTER_NAMES[DEFAULT_CHARACTER] })));
      const mine = setup.characters[p] || DEFAULT_CHARACTER;
      // One card of each E1–E4 in the box: a character another player took is not offered.
      const taken = Object.entries(setup.characters).filter(([q, c]) => Number(q) !== p && c !== DEFAULT_CHARACTER).map(([, c]) => c);
      return h("label.row", {}, h("span.label", {}, playerName(setup, p)),
        h("select.special", {
          dataset: { character: String(p) }, "aria-label": t("setup.characterOf", { name: playerName(setup, p) }),
          onchange: (event) => { setup.characters[p] = event.target.value; rerender(); },
        }, characters.map((c) => h("option", { value: c, selected: c === mine, disabled: taken.includes(c) }, CHARACTER_NAMES[c] || c))));
    };
    return h("section.card.equipment-setup", {},
      h("h2", {}, t("board.title")),
      h("h3", {}, t("setup.equipmentDrawn", { n: pool.count, picked: picked.length })),
      h("div.chips", { role: "group", "aria-label": t("setup.equipmentLabel") }, pool.pool.map((card) => {
        const on = picked.includes(card);
        return h("button.chip.card-chip", {
          dataset: { card }, "aria-pressed": String(on), disabled: setup.skipEquipment,
          onclick: () => {
            if (on) {
              picked.splice(picked.indexOf(card), 1);
              delete setup.covers[card];
            } else if (picked.length < pool.count) picked.push(card);
            else return toast(t("setup.alreadyCards", { n: pool.count }));
            rerender();
          },
        }, h("b", {}, card), ` ${CARD_NAMES[card] || ""}`);
      })),
      h("div.options", {},
        h("button.secondary", {
          dataset: { action: "draw-equipment" }, disabled: setup.skipEquipment,
          onclick: () => {
            setup.equipment = drawCards(pool.pool, pool.count);
            // M12: a Number card drawn for each card, one of each value in the box
            setup.covers = {};
            if (pool.covers) {
              const values = drawCards(range(pool.covers.range[0], pool.covers.range[1]), setup.equipment.length);
              setup.equipment.forEach((card, i) => { setup.covers[card] = values[i]; });
            }
            rerender();
          },
        }, t("setup.drawForUs")),
        h("button.secondary", {
          dataset: { action: "skip-equipment" }, "aria-pressed": String(setup.skipEquipment),
          onclick: () => { setup.skipEquipment = !setup.skipEquipment; rerender(); },
        }, setup.skipEquipment ? t("setup.follow") : t("setup.dontFollow"))),
      setup.skipEquipment ? h("p.hint", {}, t("setup.notFollowed")) : null,
      pool.covers && !setup.skipEquipment && picked.length ? coversRows(pool) : null,
      characters.length > 1 ? h("div.characters", {},
        h("h3", {}, t("board.characters")),
        pool.note ? h("p.hint", {}, pool.note) : null,
        range(0, setup.playerCount - 1).map(characterRow)) : null,
      equipmentComplete(setup) ? null : h("p.hint.warn", {}, setup.equipment.length === pool.count
        ? t("setup.coversMissing") : t("setup.tapCards", { n: pool.count })));
  };

  /** M12: the Number card laid over each card drawn (its value); one card of each value in the box. */
  const coversRows = (pool) => {
    const [lo, hi] = pool.covers.range;
    return h("div.covers", {},
      h("h3", {}, t("setup.coversTitle")),
      h("p.hint", {}, t("setup.coversHint")),
      setup.equipment.map((card) => {
        const taken = Object.entries(setup.covers).filter(([other]) => other !== card).map(([, value]) => value);
        return h("label.row", {}, h("span.label", {}, `${card} ${CARD_NAMES[card] || ""}`),
          h("select.special", {
            dataset: { cover: card }, "aria-label": t("setup.coverOf", { card, name: CARD_NAMES[card] || "" }),
            onchange: (event) => {
              if (event.target.value === "") delete setup.covers[card];
              else setup.covers[card] = Number(event.target.value);
              rerender();
            },
          }, h("option", { value: "", selected: setup.covers[card] === undefined }, t("setup.coverNone")),
          range(lo, hi).map((value) => h("option", {
            value: String(value), selected: setup.covers[card] === value, disabled: taken.includes(value),
          }, String(value)))));
      }));
  };

  const standsSection = () => {
    const stands = standsOfSetup(setup);
    const wires = wiresOf(setup);
    const total = wires ? wireCount(wires) : 0;
    const nano = nanoOf(setup);
    const dealt = stands.flat().reduce((a, spec) => a + sizeOf(spec), 0);
    const edit = (p, s, spec) => {
      setup.specs = stands.map((row) => [...row]);
      setup.specs[p][s] = spec;
      setup.myStands = [[], []];
      setup.myX = [null, null];
      setup.seen = {};
    };
    let flat = 0;
    return h("section.card", {},
      h("h2", {}, t("setup.stands")),
      h("div.stand-sizes", {}, stands.map((specs, p) => h("div.row", {},
        h("span.label", {}, playerName(setup, p)),
        specs.map((spec, s) => {
          const index = flat++;
          return h("span.stand-specials", {},
            numberInput(sizeOf(spec), (n) => edit(p, s, specOf(Math.max(1, n), specialOf(spec))),
              { min: "1", max: "30", "aria-label": t("setup.standSize", { p: p + 1, s: s + 1 }), dataset: { stand: String(index) } }),
            h("select.special", {
              "aria-label": t("setup.specialSlots", { p: p + 1, s: s + 1 }), dataset: { special: String(index) },
              onchange: (event) => { edit(p, s, specOf(sizeOf(spec), event.target.value)); rerender(); },
            }, SPECIALS.map(([value, name]) => h("option", { value, selected: value === specialOf(spec) }, name))));
        })))),
      setup.mission ? (nano ? h("p.hint", {}, t("setup.nanoHolds", { n: nano })) : null)
        : h("div.row", {}, h("span.label", {}, t("setup.nanoLabel")),
          numberInput(setup.nano, (n) => { setup.nano = Math.max(0, n); resetSizes(); }, { min: "0", max: "6", "aria-label": t("setup.nanoWires") }),
          h("span.hint", {}, t("setup.nanoHint"))),
      h(`p.hint${dealt + nano === total ? "" : ".warn"}`, {},
        dealt + nano === total ? t("setup.dealtEvenly", { n: total })
          : t(nano ? "setup.mismatchNano" : "setup.mismatch", { n: dealt + nano, total })));
  };

  const meSection = () => {
    const stands = standsOfSetup(setup);
    const wires = wiresOf(setup);
    const keys = possibleKeys(wires || { blue: [] });
    const allKeys = [...keys.blue, ...keys.yellow, ...keys.red];
    const mine = setup.me === null ? [] : stands[setup.me];
    const active = Math.min(setup.activeStand, mine.length - 1);
    const spec = mine[active];
    const kinds = spec === undefined ? [] : specialSlots(spec);
    const sortedSize = kinds.filter((k) => k === null).length;
    const hasX = kinds.includes("x");
    const flippedCount = kinds.filter((k) => k === "flipped").length;
    const sorted = setup.myStands[active] || [];
    const copiesAllowed = (key) => (colourOf(key) === "blue" ? 4 : 1);
    const held = (key) => setup.myStands.flat().filter((k) => k === key).length + setup.myX.filter((k) => k === key).length;
    const xMode = hasX && setup.xMode;
    const keypad = () => h("div.keypad", { role: "group", "aria-label": t("setup.addMyWire"), dataset: { group: "add-my-wire" } },
      allKeys.map((key) => h(`button.key.${colourOf(key)}`, {
        dataset: { key: String(key) },
        disabled: xMode ? held(key) >= copiesAllowed(key) || (spec.x_slot === "blue" && colourOf(key) !== "blue")
          : sorted.length >= sortedSize || held(key) >= copiesAllowed(key),
        onclick: () => {
          if (xMode) {
            setup.myX[active] = key;
            setup.xMode = false;
          } else {
            sorted.push(key);
            sorted.sort((a, b) => a - b);
            setup.myStands[active] = sorted;
          }
          rerender();
        },
      }, label(key))));
    // Teammates' flipped wires: I see them.
    const flippedSeen = [];
    if (setup.me !== null) {
      stands.forEach((specs, p) => specs.forEach((teammateSpec, s) => specialSlots(teammateSpec).forEach((kind, j) => {
        if (kind === "flipped" && p !== setup.me) flippedSeen.push({ player: p, stand: s, slot: j, specs });
      })));
    }
    return h("section.card", {},
      h("h2", {}, t("setup.whoPhone")),
      h("div.chips", { role: "group", "aria-label": t("setup.meLabel") },
        [...range(0, setup.playerCount - 1), null].map((p) => h("button.chip", {
          "aria-pressed": String(p === setup.me),
          dataset: { me: p === null ? "none" : String(p) },
          onclick: () => { setup.me = p; setup.myStands = [[], []]; setup.myX = [null, null]; setup.seen = {}; setup.activeStand = 0; rerender(); },
        }, p === null ? t("setup.nobody") : playerName(setup, p)))),
      setup.me === null || spec === undefined ? null : h("div", {},
        mine.length > 1 ? segmented(mine.map((_, s) => s + 1), active + 1,
          (n) => { setup.activeStand = n - 1; setup.xMode = false; }, t("setup.myStand"), "my-stand", (n) => t("choice.stand", { n })) : null,
        h("p.hint", {}, t("setup.myWires", { n: sorted.length, of: sortedSize })
          + (flippedCount ? ` ${tn("setup.myFlipped", flippedCount)}` : "")),
        h("div.my-wires", {},
          kinds[0] === "flipped" ? h("span.wire.flipped", { title: t("setup.myFlippedWire") }, "?") : null,
          sorted.map((key, i) => h(`button.wire.${colourOf(key)}`, {
            onclick: () => { sorted.splice(i, 1); rerender(); }, "aria-label": t("wire.remove", { wire: label(key) }),
          }, label(key))),
          kinds.length > 1 && kinds[kinds.length - 1] === "flipped" ? h("span.wire.flipped", { title: t("setup.myFlippedWire") }, "?") : null,
          hasX ? h(`button.wire.x-wire${setup.myX[active] === null ? ".empty" : `.${colourOf(setup.myX[active])}`}`, {
            dataset: { action: "x-wire" }, "aria-pressed": String(xMode),
            onclick: () => { setup.xMode = !setup.xMode; rerender(); },
          }, `X: ${setup.myX[active] === null ? "?" : label(setup.myX[active])}`) : null),
        hasX ? h(`p.hint${xMode ? ".warn" : ""}`, {}, xMode ? t("setup.xValue") : t("setup.xEnter")) : null,
        keypad()),
      flippedSeen.length ? h("div.flipped-seen", {},
        h("h3", {}, t("setup.flippedSeen")),
        flippedSeen.map(({ player, stand, slot, specs }) => {
          const key = `${player}.${stand}.${slot}`;
          return h("label.row", {},
            h("span.label", {}, t("name.slot", { stand: specs.length > 1 ? t("name.stand", { name: playerName(setup, player), stand: stand + 1 }) : playerName(setup, player), slot: slot + 1 })),
            h("select.special", {
              dataset: { seen: key }, "aria-label": t("setup.flippedOf", { name: playerName(setup, player), slot: slot + 1 }),
              onchange: (event) => {
                if (event.target.value === "") delete setup.seen[key];
                else setup.seen[key] = Number(event.target.value);
              },
            }, h("option", { value: "" }, t("setup.notNoted")),
            allKeys.map((k) => h("option", { value: String(k), selected: setup.seen[key] === k }, label(k)))));
        })) : null);
  };

  const buildTable = () => {
    const stands = standsOfSetup(setup);
    const wires = wiresOf(setup);
    const table = {
      players: stands.map((specs, p) => ({ name: playerName(setup, p), stands: specs.map((spec) => (typeof spec === "object" ? { ...spec } : spec)) })),
      wires: JSON.parse(JSON.stringify(wires)),
      events: [],
    };
    if (!table.wires.uncertain || !table.wires.uncertain.length) delete table.wires.uncertain;
    const nano = nanoOf(setup);
    if (nano) table.nano = nano;
    if (equipmentPool(setup) && !setup.skipEquipment) {
      // In the pool's order (as printed), whatever order they were tapped in.
      table.equipment = equipmentPool(setup).pool.filter((card) => setup.equipment.includes(card))
        .map((card) => (setup.covers[card] === undefined ? { card } : { card, cover: setup.covers[card] }));
      table.players.forEach((player, p) => {
        const character = setup.characters[p];
        if (p > 0 && character && character !== DEFAULT_CHARACTER) player.character = character;
      });
    }
    if (setup.mission && setup.preset) {
      table.meta = JSON.parse(JSON.stringify(setup.preset.meta || {}));
      delete table.meta.placeholders;
      delete table.meta.notes;
      // Pre-dealt colours are public facts about the deal: recorded as the first events.
      table.events = (table.meta.dealt || []).map((event) => ({ ...event }));
    }
    if (setup.me !== null) {
      table.me = { player: setup.me, stands: stands[setup.me].map((spec, s) => myHand(setup, spec, s)) };
      const seen = Object.entries(setup.seen).map(([key, value]) => {
        const [player, stand, slot] = key.split(".").map(Number);
        return { at: { player, stand, slot }, value };
      });
      if (seen.length) table.me.seen = seen;
    }
    return table;
  };

  const start = async (event) => {
    if (setup.mission && !drawnComplete(setup)) return toast(t("setup.drawnFirst"), "error");
    if (setup.mission && (setup.presetLoading || !setup.preset)) return toast(t("setup.stillLoading"), "error");
    if (!equipmentComplete(setup)) {
      return toast(coversComplete(setup) || setup.equipment.length !== equipmentPool(setup).count
        ? t("setup.tapEquipment", { n: equipmentPool(setup).count }) : t("setup.coversFirst"), "error");
    }
    const stands = standsOfSetup(setup);
    const wires = wiresOf(setup);
    const dealt = stands.flat().reduce((a, spec) => a + sizeOf(spec), 0) + nanoOf(setup);
    if (dealt !== wireCount(wires)) return toast(t("setup.mismatch", { n: dealt, total: wireCount(wires) }), "error");
    if (setup.me !== null) {
      const missing = stands[setup.me].findIndex((spec, s) => {
        const kinds = specialSlots(spec);
        return (setup.myStands[s] || []).length !== kinds.filter((k) => k === null).length
          || (kinds.includes("x") && setup.myX[s] === null);
      });
      if (missing >= 0) return toast(t("setup.enterWires", { n: missing + 1 }), "error");
    }
    const button = event.currentTarget;
    button.disabled = true;
    button.textContent = t("recorder.checking");
    const started = await onStart(buildTable());
    if (!started) {
      button.disabled = false;
      button.textContent = t("setup.start");
    }
  };

  const view = () => h("div.setup", {},
    h("h1.screen-title", {}, t("setup.title")),
    missionSection(), playersSection(), wiresSection(), equipmentSection(), standsSection(), meSection(),
    h("div.actions", {},
      onCancel ? h("button.secondary", { onclick: onCancel }, t("common.cancel")) : null,
      h("button.primary", { id: "start-game", onclick: start }, t("setup.start"))));

  rerender();
}
