// Table-file (format 1) helpers for the page: building a table from the setup
// form, the rules' setup facts (stands per player, even deal), value labels and
// colours, and plain-language descriptions of events. No DOM, no engine calls.

/** Stands per player by the rules: 2 players → 2 each; 3 → captain 2; 4–5 → 1. */
export function standsPerPlayer(playerCount) {
  if (playerCount === 2) return [2, 2];
  if (playerCount === 3) return [2, 1, 1];
  return Array(playerCount).fill(1);
}

/** Deal `total` wires over `standCount` stands as evenly as possible, earlier stands first. */
export function dealSizes(total, standCount) {
  const base = Math.floor(total / standCount);
  const extra = total % standCount;
  return Array.from({ length: standCount }, (_, i) => base + (i < extra ? 1 : 0));
}

/** The number of wires the wire set puts in play. */
export function wireCount(wires) {
  const pools = (wires.uncertain || []).reduce((sum, pool) => sum + pool.count, 0);
  return 4 * wires.blue.length + wires.yellow.length + wires.red.length + pools;
}

export function range(lo, hi) {
  return Array.from({ length: Math.max(0, hi - lo + 1) }, (_, i) => lo + i);
}

/** Classify a sort key: blue v, yellow n.1, red n.5. */
export function colourOf(key) {
  const k = Number(key);
  const frac = Math.round((k - Math.floor(k)) * 10);
  if (frac === 1) return "yellow";
  if (frac === 5) return "red";
  return "blue";
}

/** Short label of a sort key: "7", "Y3" (3.1), "R5" (5.5). */
export function label(key) {
  const colour = colourOf(key);
  const n = Math.floor(Number(key));
  if (colour === "yellow") return `Y${n}`;
  if (colour === "red") return `R${n}`;
  return String(n);
}

/** Label of an announced/cut gameplay value: a blue int or "yellow". */
export function valueLabel(value) {
  return value === "yellow" ? "yellow" : String(value);
}

/** Every sort key that may be in play: blue values, then yellow and red keys. */
export function possibleKeys(wires) {
  if (wires.deck) {
    const keys = Object.keys(wires.deck).map(Number).sort((a, b) => a - b);
    const of = (colour) => keys.filter((k) => colourOf(k) === colour);
    return { blue: of("blue"), yellow: of("yellow"), red: of("red") };
  }
  const pooled = (wires.uncertain || []).flatMap((pool) => pool.candidates);
  const yellow = [...wires.yellow, ...pooled.filter((k) => colourOf(k) === "yellow")];
  const red = [...wires.red, ...pooled.filter((k) => colourOf(k) === "red")];
  return { blue: wires.blue, yellow: yellow.sort((a, b) => a - b), red: red.sort((a, b) => a - b) };
}

/** Stand list in table order: [{player, stand, size, index}]. */
export function standsOf(table) {
  const stands = [];
  table.players.forEach((player, p) =>
    player.stands.forEach((size, s) => stands.push({ player: p, stand: s, size, index: stands.length })));
  return stands;
}

/** The same table without "me": what every teammate can deduce. */
export function publicView(table) {
  const { me, ...rest } = table;
  return rest;
}

function slotName(table, at) {
  const player = table.players[at.player];
  const stand = player.stands.length > 1 ? ` stand ${at.stand + 1}` : "";
  return `${player.name}${stand} slot ${at.slot + 1}`;
}

/** One line of plain language for the event log. */
export function describeEvent(event, table) {
  const who = (p) => (table.players[p] ? table.players[p].name : `player ${p + 1}`);
  switch (event.type) {
    case "info_token":
      return `Info token ${valueLabel(event.value)} on ${slotName(table, event.at)}`;
    case "dual_cut": {
      const head = `${who(event.actor)} cuts ${valueLabel(event.value)} at ${slotName(table, event.target)}`;
      if (event.success) {
        const own = slotName(table, { player: event.actor, ...event.actor_slot });
        return `${head}: success (own wire ${own})`;
      }
      const token = event.token === null || event.token === undefined ? "no token" : `token ${valueLabel(event.token)}`;
      return `${head}: failed, ${token}`;
    }
    case "solo_cut":
      return `${who(event.actor)} solo-cuts ${valueLabel(event.value)} (${event.slots.length} wires)`;
    case "reveal_red":
      return `${who(event.actor)} reveals red: ${event.slots.map((s) => label(s.value)).join(", ")}`;
    default:
      return `${event.type} event`;
  }
}

/** Build a format-1 table from the setup form's state. */
export function tableFromSetup(setup) {
  const table = {
    players: setup.players.map((player) => ({ name: player.name, stands: [...player.stands] })),
    wires: {
      blue: range(setup.blueLow, setup.blueHigh),
      yellow: [...setup.yellow],
      red: [...setup.red],
    },
    events: [],
  };
  const pools = setup.pools.filter((pool) => pool.candidates.length);
  if (pools.length) {
    table.wires.uncertain = pools.map((pool) => ({
      candidates: [...pool.candidates].sort((a, b) => a - b),
      count: pool.count,
    }));
  }
  if (setup.me !== null && setup.me !== undefined) {
    table.me = { player: setup.me, stands: setup.myStands.map((wires) => [...wires].sort((a, b) => a - b)) };
  }
  return table;
}
