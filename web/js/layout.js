// The table as it looks after a prefix of the events: which wire (tile) sits
// in which slot, which wires are cut, the tokens in front of them, the labels
// between them and the notes beside each stand. Slot addresses in events are
// CURRENT positions (docs/table-format.md, "Full rules"): moves (Grappling
// Hook, Nano) and swaps (Walkie-Talkies) renumber stands, so the page replays
// them to draw the stands and to build the addresses it records. Tiles keep
// their identity (the deal address, or Nano's n-th wire), which lets the page
// show a tile's analysis (addressed by the FINAL positions) wherever the tile
// stood at an earlier time. No DOM, no engine calls.

/** A stand entry of `players[i].stands`: a size, or {size, x_slot?, flipped?}. */
export function standSize(spec) {
  return typeof spec === "number" ? spec : Number(spec && spec.size) || 0;
}

/** The special slots of a stand at the deal: an array of null | "x" | "flipped". */
export function specialSlots(spec) {
  const size = standSize(spec);
  const kinds = Array(size).fill(null);
  if (!spec || typeof spec !== "object" || !size) return kinds;
  if (spec.x_slot) kinds[size - 1] = "x";
  if (spec.flipped === 1 || spec.flipped === "high") kinds[size - 1] = "flipped";
  if (spec.flipped === "low") kinds[0] = "flipped";
  if (spec.flipped === 2) {
    kinds[0] = "flipped";
    kinds[size - 1] = "flipped";
  }
  return kinds;
}

/** A short name of a stand's special layout, for the setup screen and the table. */
export function specialName(spec) {
  if (!spec || typeof spec !== "object") return "";
  if (spec.x_slot === "any") return "X slot";
  if (spec.x_slot === "blue") return "X slot (blue)";
  if (spec.flipped === 1) return "1 flipped";
  if (spec.flipped === 2) return "2 flipped";
  if (spec.flipped === "low") return "flipped (low)";
  if (spec.flipped === "high") return "flipped (high)";
  return "";
}

const sameAddress = (a, b) => a && b && a.player === b.player && a.stand === b.stand && a.slot === b.slot;

/**
 * Replay `table.events.slice(0, upto)` over the deal.
 * Returns {stands: [player][stand] → [tile], nano: [tile], labels: [{kind, left, right}],
 * beside: [player] → [{stand, text, kind}]} where a tile is
 * {id, deal, special, cut, tokens: [{value|parity|count, false?}], key?, red?}.
 */
export function replay(table, upto = (table.events || []).length) {
  const stands = table.players.map((player, p) => player.stands.map((spec, s) =>
    specialSlots(spec).map((special, j) => ({
      id: `${p}.${s}.${j}`, deal: { player: p, stand: s, slot: j }, special, cut: false, tokens: [],
    }))));
  const nano = Array.from({ length: Number(table.nano) || 0 }, (_, i) => ({
    id: `nano.${i}`, deal: { nano: i }, special: null, cut: false, tokens: [],
  }));
  const layout = { stands, nano, labels: [], beside: table.players.map(() => []), upto };
  const at = (slot, player) => {
    if (!slot) return null;
    const p = slot.player !== undefined ? slot.player : player;
    const row = stands[p] && stands[p][slot.stand];
    return (row && row[slot.slot]) || null;
  };
  const cut = (tile) => { if (tile) tile.cut = true; };
  const token = (tile, token) => {
    if (!tile || token === null || token === undefined) return;
    tile.tokens.push(typeof token === "object" ? { ...token } : { value: token });
  };
  const events = (table.events || []).slice(0, upto);
  events.forEach((event, index) => {
    switch (event.type) {
      case "info_token": {
        const tile = at(event.at);
        if (!tile) break;
        if (event.parity) tile.tokens.push({ parity: event.parity, index });
        else if (event.count !== undefined) tile.tokens.push({ count: event.count, index });
        else tile.tokens.push({ value: event.value, false: Boolean(event.false), index });
        break;
      }
      case "dual_cut":
      case "detector": {
        const target = event.type === "dual_cut" ? at(event.target) : at(event.cut);
        if (event.exploded) {
          // The bomb exploded: nothing is cut; a failure's target (every detector target) is red.
          const reds = event.success ? [] : event.type === "dual_cut" ? [target] : (event.targets || []).map((slot) => at(slot));
          reds.forEach((tile) => { if (tile) tile.red = true; });
        } else if (event.success) {
          cut(target);
          cut(at(event.actor_slot, event.actor));
          if (target && event.keys && event.keys.target !== undefined) target.key = event.keys.target;
          const mine = at(event.actor_slot, event.actor);
          if (mine && event.keys && event.keys.actor !== undefined) mine.key = event.keys.actor;
        } else if (event.token === null || event.token === undefined) {
          if (event.stabilizer && event.type === "dual_cut" && target) target.red = true;
          if (event.stabilizer && event.type === "detector") (event.targets || []).forEach((slot) => { const t = at(slot); if (t) t.red = true; });
        } else {
          token(event.type === "dual_cut" ? target : at(event.token_at), event.token);
        }
        break;
      }
      case "solo_cut":
      case "fast_pass":
        (event.slots || []).forEach((slot) => cut(at(slot, event.actor)));
        break;
      case "reveal_red":
        (event.slots || []).forEach((slot) => {
          const tile = at(slot, event.actor);
          cut(tile);
          if (tile && slot.value !== undefined) tile.key = slot.value;
        });
        break;
      case "disintegrator":
        (event.slots || []).forEach((slot) => cut(at(slot)));
        break;
      case "multi_cut":
        if (event.success) (event.slots || []).forEach((slot) => cut(at(slot)));
        else (event.slots || []).forEach((slot, i) => token(at(slot), (event.tokens || [])[i]));
        break;
      case "tripwire":
        if (event.exploded) {
          const tile = at(event.target);
          if (tile) tile.red = true;
        } else if (event.success) cut(at(event.target));
        else token(at(event.target), event.token);
        break;
      case "label": {
        const left = at(event.at);
        const right = event.at && at({ ...event.at, slot: event.at.slot + 1 });
        if (left && right) layout.labels.push({ kind: event.kind, left: left.id, right: right.id, index });
        break;
      }
      case "absent": {
        const values = (event.values || []).map((v) => (typeof v === "number" ? String(v) : v)).join(", ");
        layout.beside[event.player]?.push({ stand: event.stand ?? null, kind: "absent", text: `no ${values}`, index });
        break;
      }
      case "dealt":
        layout.beside[event.player]?.push({
          stand: event.stand ?? null, kind: "dealt", text: `dealt ${event.count} ${event.value}`, index,
        });
        break;
      case "move": {
        let tile;
        if (event.from === "nano") tile = nano.shift();
        else {
          tile = at(event.from);
          if (tile) stands[event.from.player][event.from.stand].splice(event.from.slot, 1);
        }
        const row = event.to && stands[event.to.player] && stands[event.to.player][event.to.stand];
        if (tile && row) row.splice(Math.min(event.to.slot, row.length), 0, tile);
        break;
      }
      case "swap": {
        const a = at(event.a);
        const b = at(event.b);
        if (!a || !b) break;
        const rowA = stands[event.a.player][event.a.stand];
        const rowB = stands[event.b.player][event.b.stand];
        rowA.splice(rowA.indexOf(a), 1);
        rowB.splice(rowB.indexOf(b), 1);
        // An x-count token is discarded with the swap (what it said stays true).
        for (const tile of [a, b]) tile.tokens = tile.tokens.filter((t) => t.count === undefined);
        rowB.splice(Math.min(event.a_to, rowB.length), 0, a);
        rowA.splice(Math.min(event.b_to, rowA.length), 0, b);
        break;
      }
      default:
        break;
    }
  });
  return layout;
}

/** The tile at a full slot address, or null. */
export function tileAt(layout, slot) {
  const row = slot && layout.stands[slot.player] && layout.stands[slot.player][slot.stand];
  return (row && row[slot.slot]) || null;
}

/** tile id → its address in this layout. */
export function addressIndex(layout) {
  const index = new Map();
  layout.stands.forEach((stands, player) => stands.forEach((row, stand) => row.forEach((tile, slot) =>
    index.set(tile.id, { player, stand, slot }))));
  return index;
}

export { sameAddress };
