// The live table's protocol (web/js/live/protocol.js) and handshake codes
// (web/js/live/sdp.js) without a browser, for tests/test_live_protocol.py:
//   node tests/live_protocol.mjs OUT.json
// A host and phones joined by an in-memory wire that records every message;
// OUT.json: {check name: "ok" | the failure}.
import { writeFileSync } from "node:fs";
import assert from "node:assert/strict";
import {
  LiveHost, LiveJoiner, applyLog, joinerTable, logDigest, message, publicSetup, readMessage,
} from "../web/js/live/protocol.js";
import { CodeError, packSdp, unpackSdp } from "../web/js/live/sdp.js";

const HOST_WIRES = [[1, 1, 2, 3, 4, 4]];
const PHONE_WIRES = [[1, 2, 2, 3, 4]];

function hostTable() {
  return {
    format: 1,
    meta: { title: "Test", mission: 8, notes: ["a long note"], summary: "…", secret: "not whitelisted" },
    players: [{ name: "Ann", stands: [6] }, { name: "Bob", stands: [5] }, { name: "Cy", stands: [5] }],
    wires: { blue: [1, 2, 3, 4] },
    me: { player: 0, stands: HOST_WIRES, seen: [{ at: { player: 1, stand: 0, slot: 0 }, value: 1 }] },
    events: [{ type: "info_token", at: { player: 1, stand: 0, slot: 0 }, value: 1 }],
    private_notes: "a field no whitelist names",
  };
}

const token = (player, slot, value) => ({ type: "info_token", at: { player, stand: 0, slot }, value });

/** A host and its phones over an in-memory wire; every message as sent is kept in `wire`. */
function makeTable({ verdict = () => ({ ok: true }) } = {}) {
  const wire = [];
  const state = { table: hostTable() };
  const host = new LiveHost({
    live: "live-1", name: "Test game",
    getTable: () => state.table,
    check: async (candidate) => verdict(candidate),
    append: (candidate) => { state.table = candidate; },
  });
  const phones = new Map();
  let next = 1;
  const connect = (phone = null, { lostHellos = 0 } = {}) => {
    const id = `phone-${next++}`;
    let lost = 0; // the first `lostHellos` hellos never reach the host (its page was busy)
    const p = phone || { table: null, refused: [], seats: null, live: null };
    p.id = id;
    p.online = true;
    host.addPhone(id, (data) => {
      const text = JSON.stringify(data);
      wire.push({ to: id, text });
      if (p.online) p.joiner.receive(readMessage(text).message);
    });
    p.joiner = new LiveJoiner({
      live: p.live,
      send: (data) => {
        const text = JSON.stringify(data);
        wire.push({ from: id, text });
        if (data.t === "hello" && lost < lostHellos) lost += 1;
        else if (p.online) host.receive(id, readMessage(text).message);
      },
      getTable: () => p.table,
      getSeat: () => (p.table && p.table.me ? p.table.me.player : null),
      onWelcome: (setup, from, events, welcome) => { p.live = welcome.live; p.table = joinerTable(setup, from, events, p.table); p.welcomeFrom = from; },
      onLog: (from, events, ack) => { p.table = applyLog(p.table, from, events, ack !== null && p.seenFor ? p.seenFor[ack] || [] : []); p.acks = [...(p.acks || []), ack]; },
      onRefused: (id2, reason, why) => p.refused.push({ id: id2, reason, why }),
      onSeats: (seats) => { p.seats = seats; },
    });
    phones.set(id, p);
    p.joiner.hello();
    return p;
  };
  const drop = (p) => { p.online = false; host.removePhone(p.id); };
  const settle = () => host.queue.then(() => new Promise((resolve) => setImmediate(resolve)));
  const hostRecords = (event) => { state.table = { ...state.table, events: [...state.table.events, event] }; host.changed(); };
  return { wire, state, host, connect, drop, settle, hostRecords };
}

/** Every key of a JSON value, at any depth. */
function keysOf(value, out = new Set()) {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) { out.add(k); keysOf(v, out); }
  return out;
}

const SAMPLE_OFFER = [
  "v=0", "o=- 4669137679175274765 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0", "a=extmap-allow-mixed",
  "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
  "a=candidate:4276048877 1 udp 2113937151 2d05c421-283e-41e5-bbae-fac782a8c0bd.local 49997 typ host generation 0 network-cost 999",
  "a=candidate:4188880733 1 udp 2113942271 192.168.1.23 54577 typ host generation 0 network-cost 999",
  // An mDNS name whose base64url holds "_" and "-" (the code's own separators must not be among them).
  "a=candidate:4188880734 1 udp 2113942270 fbffffff-ffff-ffff-ffff-fffffffffff8.local 61000 typ host generation 0 network-cost 999",
  "a=candidate:1 1 tcp 1518280447 192.168.1.23 9 typ host tcptype active",
  "a=candidate:2 1 udp 1677729535 203.0.113.9 40000 typ srflx raddr 0.0.0.0 rport 0",
  "a=ice-ufrag:x7rx", "a=ice-pwd:1c1IOBCxX7RZbJ3Bo/LKbPpM", "a=ice-options:trickle",
  "a=fingerprint:sha-256 DE:04:C5:9A:44:D5:66:85:CB:3E:B5:01:EF:71:E0:0C:BB:FF:78:5E:46:C2:21:79:3A:A7:61:D4:7B:61:3F:16",
  "a=setup:actpass", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144", "",
].join("\r\n");

const checks = {
  async "sdp code keeps what a data channel needs, and is short"() {
    const code = packSdp("offer", SAMPLE_OFFER);
    assert.ok(code.length < 180, `${code.length} characters: ${code}`);
    const { type, sdp } = unpackSdp(`  ${code.slice(0, 40)}\n${code.slice(40)} `, "offer"); // pasted with a line break
    assert.equal(type, "offer");
    const lines = sdp.split("\r\n");
    for (const kept of ["a=ice-ufrag:x7rx", "a=ice-pwd:1c1IOBCxX7RZbJ3Bo/LKbPpM", "a=setup:actpass",
      "a=fingerprint:sha-256 DE:04:C5:9A:44:D5:66:85:CB:3E:B5:01:EF:71:E0:0C:BB:FF:78:5E:46:C2:21:79:3A:A7:61:D4:7B:61:3F:16"]) {
      assert.ok(lines.includes(kept), kept);
    }
    const candidates = lines.filter((l) => l.startsWith("a=candidate:")).map((l) => l.split(" ").slice(4, 6).join(" "));
    // UDP host candidates only: the TCP and the server-reflexive ones are dropped.
    assert.deepEqual(candidates, ["2d05c421-283e-41e5-bbae-fac782a8c0bd.local 49997", "192.168.1.23 54577",
      "fbffffff-ffff-ffff-ffff-fffffffffff8.local 61000"]);
  },
  async "sdp codes refuse the wrong side and damage, in words"() {
    const code = packSdp("offer", SAMPLE_OFFER);
    // Each refusal in English and with its code, which the page words in its language (live.code.CODE).
    assert.throws(() => unpackSdp(code, "answer"), (e) => e instanceof CodeError && /host's code/.test(e.message) && e.code === "hostCode");
    assert.throws(() => unpackSdp("https://example.invalid/", "offer"), (e) => e instanceof CodeError && /BB1/.test(e.message) && e.code === "notCode");
    assert.throws(() => unpackSdp(code.slice(0, -8), "offer"), (e) => e instanceof CodeError && typeof e.code === "string");
    assert.throws(() => unpackSdp(code.replace(/,[^,]*,P,/, ",AAAA,P,"), "offer"),
      (e) => e instanceof CodeError && /fingerprint/.test(e.message) && e.code === "fingerprintShort");
    assert.throws(() => packSdp("offer", SAMPLE_OFFER.replace(/a=candidate:[^\r]*udp[^\r]*typ host[^\r]*\r\n/g, "")),
      (e) => e instanceof CodeError && /no network/.test(e.message) && e.code === "noNetwork");
  },
  async "the public setup is built from the whitelist: no me, no unlisted field"() {
    const setup = publicSetup(hostTable());
    assert.deepEqual(Object.keys(setup).sort(), ["format", "meta", "players", "wires"]);
    assert.deepEqual(setup.meta, { title: "Test", mission: 8 });
    assert.throws(() => message("hello", { live: null, known: 0, digest: "x", seat: 99 }), /seat/);
    const built = message("request", { id: 1, base: 0, event: token(1, 1, 2), me: { stands: PHONE_WIRES } });
    assert.deepEqual(Object.keys(built).sort(), ["base", "event", "id", "t", "v"]);
  },
  async "no message ever carries me or a phone's wires"() {
    const t = makeTable();
    const bob = t.connect();
    bob.table = { ...bob.table, me: { player: 1, stands: PHONE_WIRES } };
    bob.joiner.sit(1);
    const cy = t.connect();
    bob.seenFor = { 1: [{ at: { player: 2, stand: 0, slot: 4 }, value: 4, after: 1 }] };
    bob.joiner.request(token(2, 0, 1), 1);
    await t.settle();
    t.hostRecords(token(2, 4, 4));
    t.drop(cy);
    t.hostRecords(token(0, 0, 1));
    cy.online = true;
    t.connect(cy);
    await t.settle();
    assert.ok(t.wire.length >= 10, `${t.wire.length} messages`);
    for (const { text } of t.wire) {
      const keys = keysOf(JSON.parse(text));
      for (const secret of ["me", "seen", "private_notes", "secret", "notes"]) assert.ok(!keys.has(secret), `${secret} in ${text}`);
      assert.ok(!text.includes(JSON.stringify(HOST_WIRES[0])) && !text.includes(JSON.stringify(PHONE_WIRES[0])), text);
    }
    // The sighting of Bob's own event stays on Bob's phone, at the index the host gave the event.
    assert.deepEqual(bob.table.me.seen, [{ at: { player: 2, stand: 0, slot: 4 }, value: 4, after: 1 }]);
  },
  async "the host appends a phone's request and every phone gets it, the requester with its ack"() {
    const t = makeTable();
    const bob = t.connect();
    const cy = t.connect();
    assert.equal(bob.table.events.length, 1);
    assert.equal(bob.table.me, undefined);
    const id = bob.joiner.request(token(2, 0, 1), 1);
    await t.settle();
    assert.equal(t.state.table.events.length, 2);
    assert.deepEqual(bob.table.events, t.state.table.events);
    assert.deepEqual(cy.table.events, t.state.table.events);
    assert.deepEqual(bob.acks, [id]);
    assert.deepEqual(cy.acks, [null]);
    assert.ok(t.state.table.me, "the host keeps its wires");
  },
  async "a request the engine refuses comes back with the reason, to the requester only"() {
    const t = makeTable({ verdict: () => ({ ok: false, reason: "Impossible: Cy slot 1 cannot be 4" }) });
    const bob = t.connect();
    const cy = t.connect();
    const id = bob.joiner.request(token(2, 0, 4), 1);
    await t.settle();
    assert.deepEqual(bob.refused, [{ id, reason: "Impossible: Cy slot 1 cannot be 4", why: null }]);
    assert.deepEqual(cy.refused, []);
    assert.equal(t.state.table.events.length, 1);
  },
  async "a refusal carries its code and fields across, for the requester to word in its language"() {
    const why = { kind: "impossible", code: "contradicts_one", fields: { event: 1, type: "info_token" },
      contradicts: [{ host: { player: 0, stand: 0, slot: 4 }, value: 4 }] };
    const t = makeTable({ verdict: () => ({ ok: false, reason: "Impossible (in the host's language)", why }) });
    const bob = t.connect();
    const id = bob.joiner.request(token(0, 4, 3), 1);
    await t.settle();
    assert.deepEqual(bob.refused, [{ id, reason: "Impossible (in the host's language)", why }]);
    // A refused table (the host's engine refused the event): its code and fields, not only the English.
    const refused = Object.assign(new Error("event 1 (label) field 'card': card 1 (Label ≠) is already used"),
      { code: "card_used", fields: { card: "1", event: 1 } });
    const t2 = makeTable({ verdict: () => { throw refused; } });
    const cy = t2.connect();
    cy.joiner.request(token(0, 4, 3), 1);
    await t2.settle();
    assert.deepEqual(cy.refused[0].why, { kind: "table", code: "card_used", fields: { card: "1", event: 1 } });
    // The log moved: the count travels, not only the host's sentence.
    const t3 = makeTable();
    const a = t3.connect();
    const b = t3.connect();
    a.joiner.request(token(2, 0, 1), 1);
    b.joiner.request(token(2, 0, 1), 1);
    await t3.settle();
    assert.deepEqual(b.refused[0].why, { kind: "live", code: "moved", fields: { n: 1 } });
    // A refusal without a code (a host of protocol 1) still reads; protocol 1 had no `why`, so a
    // version-1 message carrying one is refused; a malformed one is refused.
    assert.equal(readMessage(JSON.stringify({ t: "refused", v: 1, id: 3, reason: "no" })).message.why, undefined);
    assert.equal(message("refused", { id: 3, reason: "no", why }).v, 2);
    assert.deepEqual(readMessage(JSON.stringify({ ...message("refused", { id: 3, reason: "no", why }), v: 1 })),
      { error: "live message refused: unknown field why", code: "unknown_field", fields: { type: "refused", field: "why" } });
    assert.match(readMessage(JSON.stringify({ ...message("refused", { id: 3, reason: "no" }), why: { kind: "eval", code: "x", fields: {} } })).error,
      /refused: field why/);
    assert.match(readMessage(JSON.stringify({ ...message("refused", { id: 3, reason: "no" }), why: { ...why, me: {} } })).error,
      /refused: field why/);
  },
  async "the host orders the log: of two requests made on the same log, the second is refused"() {
    const t = makeTable();
    const bob = t.connect();
    const cy = t.connect();
    bob.joiner.request(token(2, 0, 1), 1);
    const late = cy.joiner.request(token(2, 0, 1), 1);
    await t.settle();
    assert.equal(t.state.table.events.length, 2);
    assert.equal(cy.refused.length, 1);
    assert.equal(cy.refused[0].id, late);
    assert.match(cy.refused[0].reason, /1 event came in before yours/);
    assert.deepEqual(cy.table.events, t.state.table.events);
  },
  async "a phone that was away gets the events after the ones it holds"() {
    const t = makeTable();
    const bob = t.connect();
    t.hostRecords(token(2, 0, 1));
    t.drop(bob);
    t.hostRecords(token(2, 4, 4));
    t.hostRecords(token(0, 0, 1));
    t.hostRecords(token(0, 5, 4));
    assert.equal(bob.table.events.length, 2);
    const sent = t.wire.length;
    bob.online = true;
    t.connect(bob);
    assert.equal(bob.welcomeFrom, 2);
    const welcome = JSON.parse(t.wire.slice(sent).find((m) => m.to && JSON.parse(m.text).t === "welcome").text);
    assert.equal(welcome.events.length, 3);
    assert.deepEqual(bob.table.events, t.state.table.events);
  },
  async "a hello the host missed is said again, and the answer to a hello said again adds nothing"() {
    const t = makeTable();
    const bob = t.connect(null, { lostHellos: 1 });
    assert.equal(bob.table, null);
    assert.ok(bob.joiner.waiting, "no welcome yet: the page says hello again");
    bob.joiner.hello();
    assert.ok(!bob.joiner.waiting);
    assert.deepEqual(bob.table.events, t.state.table.events);
    let welcomes = 0;
    const onWelcome = bob.joiner.onWelcome;
    bob.joiner.onWelcome = (...args) => { welcomes += 1; onWelcome(...args); };
    const answers = t.wire.filter((m) => m.to === bob.id && JSON.parse(m.text).t === "welcome");
    bob.joiner.receive(readMessage(answers.at(-1).text).message);
    assert.equal(welcomes, 0, "a welcome after the first answer is not applied again");
  },
  async "a phone whose log differs from the host's (an edit while it was away) gets the whole log"() {
    const t = makeTable();
    const bob = t.connect();
    bob.table = { ...bob.table, me: { player: 1, stands: PHONE_WIRES, seen: [{ at: { player: 2, stand: 0, slot: 0 }, value: 1, after: 0 }] } };
    t.drop(bob);
    t.state.table = { ...t.state.table, events: [token(1, 1, 2)] }; // the host edited event 1
    bob.online = true;
    t.connect(bob);
    assert.equal(bob.welcomeFrom, 0);
    assert.deepEqual(bob.table.events, t.state.table.events);
    assert.deepEqual(bob.table.me.stands, PHONE_WIRES, "my wires stay");
    assert.equal(bob.table.me.seen, undefined, "a sighting after a changed event is dropped");
  },
  async "an undo on the host reaches the phones as the log from the first change"() {
    const t = makeTable();
    const bob = t.connect();
    t.hostRecords(token(2, 0, 1));
    t.hostRecords(token(2, 4, 4));
    const sent = t.wire.length;
    t.state.table = { ...t.state.table, events: t.state.table.events.slice(0, 2) };
    t.host.changed();
    const log = JSON.parse(t.wire[sent].text);
    assert.deepEqual([log.t, log.from, log.events.length], ["log", 2, 0]);
    assert.equal(bob.table.events.length, 2);
  },
  async "a phone that missed a message asks for the log again"() {
    const t = makeTable();
    const bob = t.connect();
    const sent = t.wire.length;
    bob.joiner.receive(message("log", { from: 5, events: [token(0, 0, 1)], ack: null }));
    const hello = JSON.parse(t.wire[sent].text);
    assert.deepEqual([hello.t, hello.known, hello.digest], ["hello", 1, logDigest(bob.table.events)]);
  },
  async "a received message outside its whitelist is refused, in words"() {
    assert.deepEqual(readMessage("{"), { error: "a live message that is not JSON", code: "not_json", fields: {} });
    assert.equal(readMessage("[]").code, "not_object");
    assert.match(readMessage(JSON.stringify({ t: "hello", v: 3 })).error, /protocol 3/);
    assert.deepEqual(readMessage(JSON.stringify({ t: "hello", v: "2" })).fields, { got: '"2"', speaks: 2 });
    assert.equal(readMessage(JSON.stringify({ t: "hello", v: 0 })).code, "version");
    assert.match(readMessage(JSON.stringify({ t: "eval", v: 1 })).error, /unknown type "eval"/);
    assert.deepEqual(readMessage(JSON.stringify({ t: "eval", v: 2 })).fields, { type: '"eval"' });
    const hello = message("hello", { live: null, known: 0, digest: logDigest([]), seat: null });
    assert.match(readMessage(JSON.stringify({ ...hello, me: { player: 0 } })).error, /hello: unknown field me/);
    assert.match(readMessage(JSON.stringify({ ...message("request", { id: 1, base: 0, event: token(0, 0, 1) }), event: { at: 1 } })).error,
      /request: field event/);
    assert.deepEqual(readMessage(JSON.stringify({ ...hello, seat: 99 })).fields, { type: "hello", field: "seat" });
    assert.deepEqual(readMessage(JSON.stringify(hello)).message, hello);
  },
  async "seats: the host's own and each phone's, sent to every phone"() {
    const t = makeTable();
    const bob = t.connect();
    bob.joiner.sit(1);
    const cy = t.connect();
    cy.joiner.sit(null);
    assert.deepEqual(bob.seats, [{ seat: 0, phone: "host" }, { seat: 1, phone: "phone-1" }, { seat: null, phone: "phone-2" }]);
    t.drop(cy);
    assert.deepEqual(bob.seats, [{ seat: 0, phone: "host" }, { seat: 1, phone: "phone-1" }]);
  },
};

const [outPath] = process.argv.slice(2);
const results = {};
for (const [name, check] of Object.entries(checks)) {
  try {
    await check();
    results[name] = "ok";
  } catch (error) {
    results[name] = String(error && error.stack ? error.stack : error);
  }
}
writeFileSync(outPath, JSON.stringify(results, null, 1));
