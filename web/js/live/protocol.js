// The live table's protocol: one game shared by the phones at a table, the
// host's phone keeping the one true order of the log. No DOM, no WebRTC (the
// transport is live/transport.js, the screens live/session.js): testable with
// node (tests/live_protocol.mjs).
//
// What travels is the PUBLIC table only: the setup (players, wires, the
// mission's public notes), the seats taken and the events. Every message is
// built field by field from the whitelists below, never by copying a table,
// so a phone's own wires (`me`: its hand and what it has seen) cannot leave
// it; a received message with a field outside its whitelist is refused.
//
// Messages ({t: type, v: PROTOCOL, …}):
//   joiner → host  hello    {live, known, digest, seat}  on every (re)connection: the live table it
//                                                         follows (null: a new phone), how many events it
//                                                         holds and their digest
//                  request  {id, base, event}             an event recorded on the joiner, made on a log of
//                                                         `base` events
//                  seat     {seat}                        the seat this phone took (null: watching)
//   host → joiner  welcome  {live, name, setup, from, events, seats}
//                                                         the table; the log from index `from` on (the
//                                                         joiner's events before it are the host's)
//                  log      {from, events, ack}           the log changed from index `from`: its events from
//                                                         there; `ack` names the joiner's request appended
//                  refused  {id, reason, why}             a request not appended, and why: `reason` in the
//                                                         host's words, `why` ({kind, code, fields,
//                                                         contradicts?}, or null) for the joiner to word
//                                                         in its own language (live/session.js)
//                  seats    {seats}                       who is at the table: [{seat, phone}]
// The host checks every request with the engine as the page checks its own
// events (the caller's `check`), against its own wires, and appends it only
// if it was made on the whole log (no event recorded meanwhile): an event
// recorded twice by two phones at once must not be counted twice.

export const PROTOCOL = 2;
// The versions this page reads, and the fields each lacks: version 1 had no `why` on a refusal, so a
// host of version 1 is still read here; a page of version 1 refuses this one's messages by their
// version ("update both phones"), not by a field it does not know.
const READABLE = { 1: ["why"], 2: [] };

/** A table's public setup: these top-level fields, and of `meta` these keys. */
const SETUP_FIELDS = ["format", "meta", "players", "wires", "nano", "equipment"];
const META_FIELDS = ["title", "mission", "name", "players", "rules", "equipment", "dealt", "pool", "url"];

/** Each message type's fields, and a check of each field's value. */
const isIndex = (value) => Number.isInteger(value) && value >= 0;
const isSeat = (value) => value === null || (Number.isInteger(value) && value >= 0 && value < 8);
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isEvents = (value) => Array.isArray(value) && value.every((event) => isObject(event) && typeof event.type === "string");
const isLiveId = (value) => typeof value === "string" && /^[\w-]{1,40}$/.test(value);
const isText = (value) => typeof value === "string" && value.length <= 2000;
// A refusal's code and fields: "live" (the log moved: refused here), "impossible" (analyze's
// code, fields and contradicts) or "table" (a refused table's code and fields, bridge.py).
const WHY_KINDS = ["live", "impossible", "table"];
const isWhy = (value) => value === null || (isObject(value) && WHY_KINDS.includes(value.kind) && isText(value.code)
  && isObject(value.fields) && (value.contradicts === undefined || (Array.isArray(value.contradicts) && value.contradicts.every(isObject)))
  && Object.keys(value).every((key) => ["kind", "code", "fields", "contradicts"].includes(key)) && JSON.stringify(value).length <= 4000);
const MESSAGES = {
  hello: { live: (v) => v === null || isLiveId(v), known: isIndex, digest: isText, seat: isSeat },
  request: { id: isIndex, base: isIndex, event: (v) => isEvents([v]) },
  seat: { seat: isSeat },
  welcome: { live: isLiveId, name: isText, setup: isObject, from: isIndex, events: isEvents, seats: (v) => isSeats(v) },
  log: { from: isIndex, events: isEvents, ack: (v) => v === null || isIndex(v) },
  refused: { id: isIndex, reason: isText, why: isWhy },
  seats: { seats: (v) => isSeats(v) },
};
const isSeats = (value) => Array.isArray(value) && value.every((entry) => isObject(entry) && isSeat(entry.seat) && isText(entry.phone));

/** A JSON copy: no shared objects between a table and a message. */
const copy = (value) => JSON.parse(JSON.stringify(value));

/** The public setup of a table (SETUP_FIELDS, META_FIELDS): never `me`, never the events. */
export function publicSetup(table) {
  const setup = {};
  for (const field of SETUP_FIELDS) {
    if (table[field] === undefined) continue;
    if (field === "meta") {
      if (!isObject(table.meta)) continue;
      setup.meta = {};
      for (const key of META_FIELDS) if (table.meta[key] !== undefined) setup.meta[key] = copy(table.meta[key]);
    } else {
      setup[field] = copy(table[field]);
    }
  }
  return setup;
}

/** A message of `type` with only its whitelisted fields (copied); a missing field is an error of this page. */
export function message(type, fields) {
  const spec = MESSAGES[type];
  if (!spec) throw new Error(`no live message of type ${type}`);
  const out = { t: type, v: PROTOCOL };
  for (const [name, valid] of Object.entries(spec)) {
    const value = fields[name] === undefined ? null : copy(fields[name]);
    if (!valid(value)) throw new Error(`live message ${type}: field ${name} is not valid`);
    out[name] = value;
  }
  return out;
}

/**
 * A received message's text read and checked: {message}, or {error, code, fields} when it cannot be
 * read (`error` in English, `code` and `fields` for the page to word: live.message.CODE). Nothing in
 * it is executed.
 */
export function readMessage(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return unreadable("not_json", {}, "a live message that is not JSON");
  }
  if (!isObject(data)) return unreadable("not_object", {}, "a live message that is not an object");
  if (!Number.isInteger(data.v) || !Object.hasOwn(READABLE, data.v)) {
    return unreadable("version", { got: JSON.stringify(data.v), speaks: PROTOCOL },
      `a live message of protocol ${JSON.stringify(data.v)}: this page speaks ${PROTOCOL} (update both phones)`);
  }
  const type = data.t;
  const spec = MESSAGES[type];
  if (!spec) return unreadable("unknown_type", { type: JSON.stringify(type) }, `a live message of unknown type ${JSON.stringify(type)}`);
  const lacks = READABLE[data.v];
  for (const name of Object.keys(data)) {
    if (name !== "t" && name !== "v" && (!spec[name] || lacks.includes(name))) {
      return unreadable("unknown_field", { type, field: name }, `live message ${type}: unknown field ${name}`);
    }
  }
  for (const [name, valid] of Object.entries(spec)) {
    if (!valid(data[name] === undefined ? null : data[name])) {
      return unreadable("bad_field", { type, field: name }, `live message ${type}: field ${name} is not valid`);
    }
  }
  return { message: data };
}

const unreadable = (code, fields, error) => ({ error, code, fields });

/** A short digest of a list of events (FNV-1a of their JSON): whether two phones hold the same log. */
export function logDigest(events) {
  let hash = 0x811c9dc5;
  const text = JSON.stringify(events);
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${events.length}:${hash.toString(16)}`;
}

/** The index of the first event where two logs differ (the shorter's length if one extends the other). */
export function firstDifference(before, after) {
  const length = Math.min(before.length, after.length);
  for (let i = 0; i < length; i++) if (JSON.stringify(before[i]) !== JSON.stringify(after[i])) return i;
  return length;
}

/**
 * A joiner's table after the host's log changed from index `from`: the
 * events replaced from there, my wires kept, and what I saw after a changed
 * event dropped (its address may no longer hold); `seen` adds sightings of an
 * event of mine the host just appended.
 */
export function applyLog(table, from, events, seen = []) {
  const next = { ...table, events: [...table.events.slice(0, from), ...copy(events)] };
  if (!table.me) return next;
  const kept = (table.me.seen || []).filter((entry) => entry.after === undefined || entry.after < from);
  const me = { ...table.me, seen: [...kept, ...seen] };
  if (!me.seen.length) delete me.seen;
  next.me = me;
  return next;
}

/**
 * A joiner's table from a welcome: the host's public setup, and the log from
 * index `from` on after the events this phone held before (`previous`, the
 * same live game on this phone, null for a new one), with its wires.
 */
export function joinerTable(setup, from, events, previous = null) {
  const table = { ...copy(setup), events: previous ? previous.events : [] };
  if (previous && previous.me) table.me = previous.me;
  return applyLog(table, from, events);
}

/**
 * The host's side. `getTable()` is the host's table (its own wires
 * included); `check(table)` resolves {ok} or {ok: false, reason, why} as the page
 * checks an event; `append(table, phone)` makes the checked table the game's
 * (the page then calls changed()); `onPeers()` says the list of phones
 * changed. Each phone is added with a `send(message)`.
 */
export class LiveHost {
  constructor({ live, name, getTable, check, append, onPeers = () => {} }) {
    Object.assign(this, { live, name, getTable, check, append, onPeers });
    this.peers = new Map(); // phone id → {send, seat, shown: the log this phone holds, acks: [request ids]}
    this.queue = Promise.resolve(); // requests are checked one at a time, in the order they came
  }

  /** Seats as the table sees them: the host's own, then each connected phone's. */
  seats() {
    const me = this.getTable().me;
    return [{ seat: me ? me.player : null, phone: "host" },
      ...[...this.peers.entries()].filter(([, peer]) => peer.welcomed).map(([phone, peer]) => ({ seat: peer.seat, phone }))];
  }

  addPhone(phone, send) {
    this.peers.set(phone, { send, seat: null, shown: null, acks: [], welcomed: false });
  }

  removePhone(phone) {
    if (!this.peers.delete(phone)) return;
    this.sendSeats();
    this.onPeers();
  }

  sendSeats() {
    const seats = this.seats();
    for (const peer of this.peers.values()) if (peer.welcomed) peer.send(message("seats", { seats }));
  }

  /** A message from a phone (already read by readMessage). */
  receive(phone, data) {
    const peer = this.peers.get(phone);
    if (!peer) return;
    if (data.t === "hello") this.welcome(phone, peer, data);
    else if (data.t === "seat") {
      peer.seat = data.seat;
      this.sendSeats();
      this.onPeers();
    } else if (data.t === "request") {
      this.queue = this.queue.then(() => this.request(phone, peer, data));
    }
  }

  /** A phone (re)connected: the table, and the log after what it holds when its log is a prefix of mine. */
  welcome(phone, peer, hello) {
    const events = this.getTable().events;
    const same = hello.live === this.live && hello.known <= events.length && logDigest(events.slice(0, hello.known)) === hello.digest;
    const from = same ? hello.known : 0;
    peer.seat = hello.live === this.live ? hello.seat : null;
    peer.shown = events;
    peer.welcomed = true;
    peer.send(message("welcome", {
      live: this.live, name: this.name, setup: publicSetup(this.getTable()), from, events: events.slice(from), seats: this.seats(),
    }));
    this.sendSeats();
    this.onPeers();
  }

  async request(phone, peer, data) {
    const table = this.getTable();
    const refuse = (reason, why = null) => { if (this.peers.get(phone) === peer) peer.send(message("refused", { id: data.id, reason, why })); };
    if (data.base !== table.events.length) {
      const moved = table.events.length - data.base;
      return moved > 0
        ? refuse(`${moved} event${moved === 1 ? "" : "s"} came in before yours: check the log and record it again if it still holds`,
          { kind: "live", code: "moved", fields: { n: moved } })
        : refuse("the log changed meanwhile: check it and record your event again", { kind: "live", code: "changed", fields: {} });
    }
    const candidate = { ...table, events: [...table.events, data.event] };
    let verdict;
    try {
      verdict = await this.check(candidate);
    } catch (error) {
      // A refused table (an equipment use the board does not allow) has its code; anything else is the engine's failure.
      verdict = { ok: false, reason: `the host's engine could not check it (${error.message})`,
        why: error.code ? { kind: "table", code: error.code, fields: error.fields || {} } : { kind: "live", code: "engine_failed", fields: { detail: String(error.message) } } };
    }
    if (this.getTable() !== table) {
      return refuse("the log changed while your event was checked: record it again if it still holds", { kind: "live", code: "changed_while_checked", fields: {} });
    }
    if (!verdict.ok) return refuse(verdict.reason, verdict.why || null);
    peer.acks.push(data.id);
    this.append(candidate, phone);
    this.changed();
  }

  /** The host's log changed (any change: an append, an edit, an undo): each phone gets what differs. */
  changed() {
    const events = this.getTable().events;
    for (const peer of this.peers.values()) {
      if (!peer.welcomed || peer.shown === events) continue;
      const from = firstDifference(peer.shown, events);
      const ack = peer.acks.length ? peer.acks.shift() : null;
      if (from === events.length && from === peer.shown.length && ack === null) {
        peer.shown = events;
        continue;
      }
      peer.shown = events;
      peer.send(message("log", { from, events: events.slice(from), ack }));
    }
  }
}

/**
 * The joiner's side. `getTable()` is this phone's table for the live game
 * (null before the first welcome); `onWelcome(setup, from, events, welcome)`,
 * `onLog(from, events, ack)`, `onRefused(id, reason, why)` and `onSeats(seats)`
 * apply what the host sends.
 */
export class LiveJoiner {
  constructor({ send, live = null, getTable = () => null, getSeat = () => null, onWelcome, onLog, onRefused, onSeats = () => {} }) {
    Object.assign(this, { send, live, getTable, getSeat, onWelcome, onLog, onRefused, onSeats });
    this.nextId = 1;
    this.waiting = false; // a hello not answered yet
  }

  /** Say hello: on every connection, with what this phone holds of the live game. */
  hello() {
    const table = this.live ? this.getTable() : null;
    const events = table ? table.events : [];
    this.waiting = true; // until the host's welcome answers
    this.send(message("hello", { live: this.live, known: events.length, digest: logDigest(events), seat: this.getSeat() }));
  }

  receive(data) {
    if (data.t === "welcome") {
      // A welcome answers a hello: one more (the answer to a hello said again) adds nothing.
      if (!this.waiting) return;
      const table = this.live === data.live ? this.getTable() : null;
      if (data.from > (table ? table.events.length : 0)) {
        // The host thinks this phone holds more than it does: start again from nothing.
        this.live = null;
        return this.hello();
      }
      this.live = data.live;
      this.waiting = false;
      this.onWelcome(data.setup, data.from, data.events, data);
    } else if (data.t === "log") {
      const table = this.getTable();
      // A gap (a message lost while the phone slept): ask for the log again.
      if (!table || data.from > table.events.length) return this.hello();
      this.onLog(data.from, data.events, data.ack);
    } else if (data.t === "refused") {
      this.onRefused(data.id, data.reason, data.why);
    } else if (data.t === "seats") {
      this.onSeats(data.seats);
    }
  }

  /** Ask the host to append `event` to the log of `base` events; returns the request's id. */
  request(event, base) {
    const id = this.nextId++;
    this.send(message("request", { id, base, event }));
    return id;
  }

  sit(seat) {
    this.send(message("seat", { seat }));
  }
}
