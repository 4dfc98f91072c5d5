// The new-game screen: players and names, wire set (blue range, yellow/red
// values in play or in a k-of-m pool), stands and their sizes (computed by the
// rules, editable for uneven deals), who "me" is and my wires (tapped in,
// shown sorted). Produces a format-1 table through model.tableFromSetup.
import { h, toast } from "./ui.js";
import { colourOf, dealSizes, label, possibleKeys, range, standsPerPlayer, tableFromSetup, wireCount } from "./model.js";

const COLOUR_KEYS = { yellow: range(1, 11).map((n) => n + 0.1), red: range(1, 11).map((n) => n + 0.5) };
// Tapping a yellow/red value cycles: not used → in play → maybe (k-of-m pool) → not used.
const NEXT_STATE = { off: "in", in: "maybe", maybe: "off" };

function defaultSetup() {
  return {
    playerCount: 4,
    names: ["", "", "", "", ""],
    blueLow: 1,
    blueHigh: 12,
    colourState: { yellow: {}, red: {} },
    poolCount: { yellow: 1, red: 1 },
    sizes: null, // null = computed from the wire set
    me: 0,
    myStands: [[], []],
    activeStand: 0,
  };
}

function wiresOf(setup) {
  const chosen = (colour, state) => COLOUR_KEYS[colour].filter((k) => setup.colourState[colour][k] === state);
  const pools = ["yellow", "red"].map((colour) => {
    const candidates = chosen(colour, "maybe");
    return { candidates, count: Math.min(setup.poolCount[colour], Math.max(1, candidates.length - 1)) };
  }).filter((pool) => pool.candidates.length);
  return {
    blue: range(setup.blueLow, setup.blueHigh),
    yellow: chosen("yellow", "in"),
    red: chosen("red", "in"),
    uncertain: pools,
  };
}

function standsOfSetup(setup) {
  const perPlayer = standsPerPlayer(setup.playerCount);
  const total = perPlayer.reduce((a, b) => a + b, 0);
  const computed = dealSizes(wireCount(wiresOf(setup)), total);
  const sizes = setup.sizes && setup.sizes.length === total ? setup.sizes : computed;
  let next = 0;
  return perPlayer.map((count) => sizes.slice(next, (next += count)));
}

function playerName(setup, p) {
  return setup.names[p].trim() || `Player ${p + 1}`;
}

/**
 * Render the setup screen into `root`; `onStart(table)` receives the new table
 * and resolves to whether the game started.
 */
export function renderSetup(root, { onStart, onCancel }) {
  const setup = defaultSetup();

  const rerender = () => {
    const scroll = root.scrollTop;
    root.replaceChildren(view());
    root.scrollTop = scroll;
  };
  const resetSizes = () => {
    setup.sizes = null;
    setup.myStands = [[], []];
  };

  const segmented = (values, current, onPick, name) => h("div.segmented", { role: "group", "aria-label": name },
    values.map((value) => h("button", {
      "aria-pressed": String(value === current),
      dataset: { value: String(value) },
      onclick: () => { onPick(value); rerender(); },
    }, String(value))));

  const playersSection = () => h("section.card", {},
    h("h2", {}, "Players"),
    h("div.row", {}, h("span.label", {}, "How many"),
      segmented([2, 3, 4, 5], setup.playerCount, (n) => { setup.playerCount = n; setup.me = setup.me === null ? null : Math.min(setup.me, n - 1); resetSizes(); }, "player count")),
    h("div.names", {}, range(0, setup.playerCount - 1).map((p) => h("label.name-field", {},
      h("span", {}, p === 0 ? "Captain" : `Seat ${p + 1}`),
      h("input", {
        type: "text", value: setup.names[p], placeholder: `Player ${p + 1}`, maxlength: "20",
        "aria-label": `name of player ${p + 1}`, dataset: { player: String(p) },
        oninput: (event) => { setup.names[p] = event.target.value; },
        onchange: rerender,
      })))));

  const colourChips = (colour) => h("div.chips", { role: "group", "aria-label": `${colour} wires` },
    COLOUR_KEYS[colour].map((key) => {
      const state = setup.colourState[colour][key] || "off";
      return h(`button.chip.${colour}.state-${state}`, {
        dataset: { key: String(key) },
        title: { off: "not used", in: "in play", maybe: "maybe (k of m)" }[state],
        onclick: () => { setup.colourState[colour][key] = NEXT_STATE[state]; resetSizes(); rerender(); },
      }, label(key), state === "maybe" ? "?" : "");
    }));

  const poolControl = (colour) => {
    const maybe = COLOUR_KEYS[colour].filter((k) => setup.colourState[colour][k] === "maybe").length;
    if (maybe < 2) return maybe === 1 ? h("p.hint.warn", {}, "A pool needs at least 2 candidates.") : null;
    return h("div.row", {}, h("span.label", {}, `${colour} in play, of the ${maybe} "?"`),
      segmented(range(1, maybe - 1), Math.min(setup.poolCount[colour], maybe - 1),
        (k) => { setup.poolCount[colour] = k; resetSizes(); }, `${colour} pool count`));
  };

  const numberInput = (value, onValue, attrs) => h("input.number", {
    type: "number", inputmode: "numeric", value: String(value), ...attrs,
    onchange: (event) => { const n = parseInt(event.target.value, 10); if (Number.isFinite(n)) onValue(n); rerender(); },
  });

  const wiresSection = () => h("section.card", {},
    h("h2", {}, "Wires"),
    h("div.row", {}, h("span.label", {}, "Blue values"),
      numberInput(setup.blueLow, (n) => { setup.blueLow = Math.max(1, Math.min(n, setup.blueHigh)); resetSizes(); }, { min: "1", max: "12", "aria-label": "lowest blue value" }),
      h("span", {}, "to"),
      numberInput(setup.blueHigh, (n) => { setup.blueHigh = Math.min(12, Math.max(n, setup.blueLow)); resetSizes(); }, { min: "1", max: "12", "aria-label": "highest blue value" }),
      h("span.hint", {}, "4 of each")),
    h("h3", {}, "Yellow"), colourChips("yellow"), poolControl("yellow"),
    h("h3", {}, "Red"), colourChips("red"), poolControl("red"),
    h("p.hint", {}, "Tap a value: once = in play, twice = maybe (a k-of-m pool), three times = not used."));

  const standsSection = () => {
    const stands = standsOfSetup(setup);
    const total = wireCount(wiresOf(setup));
    const dealt = stands.flat().reduce((a, b) => a + b, 0);
    let flat = 0;
    return h("section.card", {},
      h("h2", {}, "Stands"),
      h("div.stand-sizes", {}, stands.map((sizes, p) => h("div.row", {},
        h("span.label", {}, playerName(setup, p)),
        sizes.map((size, s) => {
          const index = flat++;
          return numberInput(size, (n) => {
            setup.sizes = stands.flat();
            setup.sizes[index] = Math.max(1, n);
          }, { min: "1", max: "30", "aria-label": `stand size ${p + 1}.${s + 1}`, dataset: { stand: String(index) } });
        })))),
      h(`p.hint${dealt === total ? "" : ".warn"}`, {},
        dealt === total ? `${total} wires dealt as evenly as possible. Edit a size if your deal differs.`
          : `The stands hold ${dealt} wires but the wire set has ${total}.`));
  };

  const meSection = () => {
    const stands = standsOfSetup(setup);
    const keys = possibleKeys(wiresOf(setup));
    const mine = setup.me === null ? [] : stands[setup.me];
    const active = Math.min(setup.activeStand, mine.length - 1);
    const wires = setup.myStands[active] || [];
    const copiesAllowed = (key) => (colourOf(key) === "blue" ? 4 : 1);
    const held = (key) => setup.myStands.flat().filter((k) => k === key).length;
    const keypad = () => h("div.keypad", { role: "group", "aria-label": "add my wire" },
      [...keys.blue, ...keys.yellow, ...keys.red].map((key) => h(`button.key.${colourOf(key)}`, {
        dataset: { key: String(key) },
        disabled: wires.length >= mine[active] || held(key) >= copiesAllowed(key),
        onclick: () => { wires.push(key); wires.sort((a, b) => a - b); setup.myStands[active] = wires; rerender(); },
      }, label(key))));
    return h("section.card", {},
      h("h2", {}, "Who is using this phone?"),
      h("div.chips", { role: "group", "aria-label": "me" },
        [...range(0, setup.playerCount - 1), null].map((p) => h("button.chip", {
          "aria-pressed": String(p === setup.me),
          dataset: { me: p === null ? "none" : String(p) },
          onclick: () => { setup.me = p; setup.myStands = [[], []]; setup.activeStand = 0; rerender(); },
        }, p === null ? "Nobody (public only)" : playerName(setup, p)))),
      setup.me === null ? null : h("div", {},
        mine.length > 1 ? segmented(mine.map((_, s) => `Stand ${s + 1}`), `Stand ${active + 1}`,
          (name) => { setup.activeStand = Number(name.split(" ")[1]) - 1; }, "my stand") : null,
        h("p.hint", {}, `My wires (${wires.length} of ${mine[active]}), sorted. Tap a wire to remove it.`),
        h("div.my-wires", {}, wires.map((key, i) => h(`button.wire.${colourOf(key)}`, {
          onclick: () => { wires.splice(i, 1); rerender(); }, "aria-label": `remove ${label(key)}`,
        }, label(key)))),
        keypad()));
  };

  const start = async (event) => {
    const stands = standsOfSetup(setup);
    const wires = wiresOf(setup);
    const dealt = stands.flat().reduce((a, b) => a + b, 0);
    if (dealt !== wireCount(wires)) return toast(`The stands hold ${dealt} wires but the wire set has ${wireCount(wires)}.`, "error");
    if (setup.me !== null) {
      const missing = stands[setup.me].findIndex((size, s) => (setup.myStands[s] || []).length !== size);
      if (missing >= 0) return toast(`Enter all your wires (stand ${missing + 1}) or choose "Nobody".`, "error");
    }
    const button = event.currentTarget;
    button.disabled = true;
    button.textContent = "Checking…";
    const started = await onStart(tableFromSetup({
      players: stands.map((sizes, p) => ({ name: playerName(setup, p), stands: sizes })),
      blueLow: setup.blueLow,
      blueHigh: setup.blueHigh,
      yellow: wires.yellow,
      red: wires.red,
      pools: wires.uncertain,
      me: setup.me,
      myStands: setup.me === null ? [] : stands[setup.me].map((_, s) => setup.myStands[s]),
    }));
    if (!started) {
      button.disabled = false;
      button.textContent = "Start game";
    }
  };

  const view = () => h("div.setup", {},
    h("h1.screen-title", {}, "New game"),
    playersSection(), wiresSection(), standsSection(), meSection(),
    h("div.actions", {},
      onCancel ? h("button.secondary", { onclick: onCancel }, "Cancel") : null,
      h("button.primary", { id: "start-game", onclick: start }, "Start game")));

  rerender();
}
