// The live table on the page: a host shares the game on its screen with the
// phones at the table, phone to phone (live/transport.js), by the protocol of
// live/protocol.js. The host's phone orders the log: its own events as
// usual, a joiner's as requests it checks with its engine and appends or
// refuses. A joiner's table follows the host's; what it records is sent as a
// request (the page checked it against its own wires first), shown once the
// host appended it, or refused with the host's reason. A joiner whose
// connection was lost shows it, and a new handshake brings its log up to date.
//
// The page hooks in at a few places (js/app.js): initLive() once, liveMenuItems()
// in the menu, liveChanged(game) after every save, liveShown(game) when a game
// is shown, and liveHooks(game) for the GameScreen (a joiner's proposals).
import { h, openSheet, closeSheet, toast, coreReason, tableRefusal } from "../ui.js";
import { has, t, tn } from "../i18n.js";
import { encodeQr, qrSvg } from "../qr.js";
import { describeEvent } from "../model.js";
import { LiveHost, LiveJoiner, applyLog, firstDifference, joinerTable, readMessage } from "./protocol.js";
import { hostOffer, joinOffer } from "./transport.js";
import { CodeError } from "./sdp.js";
import { scanButton } from "./scanner.js";

let app = null; // {engine, screen(), persist(game), showGame(game), loadGame(id), listGames(), newGame(table, name)}
let session = null; // the live table this phone takes part in, if any
let bar = null;

/** Called once by the page with its hooks. */
export function initLive(hooks) {
  app = hooks;
  bar = h("div.live-bar", { id: "live-bar", role: "status", "aria-live": "polite", hidden: true });
  document.getElementById("screen").before(bar);
  // For scripts and the end-to-end tests: which live table, and its phones.
  window.bombbusterLive = { state: () => (session ? { role: session.role, connected: isConnected(), phones: phoneCount() } : null) };
}

const isConnected = () => Boolean(session && (session.role === "host" || (session.link && !session.link.closed)));
const phoneCount = () => (session && session.role === "host" ? session.links.size : 0);
/** A saved game, or null when it is gone or cannot be read. */
function load(id) {
  try {
    return app.loadGame(id);
  } catch {
    return null;
  }
}
const randomId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** The live game as the page holds it now: the one on screen, else the saved copy. */
function liveGame() {
  if (!session || !session.gameId) return null;
  const screen = app.screen();
  return screen && screen.game.id === session.gameId ? screen.game : load(session.gameId);
}

function seatName(table, seat) {
  return seat === null || seat === undefined ? t("live.watching") : table.players[seat] ? table.players[seat].name : t("live.seat", { n: seat + 1 });
}

// ------------------------------------------------------------ hooks for the page

/** The menu's live-table items (the page's own `item` builder). */
export function liveMenuItems(current, item) {
  const joining = current && current.live && current.live.role === "joiner";
  return [
    current && !joining ? item(session && session.role === "host" ? t("live.menu.phones") : t("live.menu.host"),
      "live-host", () => openHostSheet(current)) : null,
    item(joining ? t("live.menu.reconnect") : t("live.menu.join"), "live-join", openJoinSheet),
  ];
}

/** After every save: a host sends what changed to the phones; a joiner says which seat it took. */
export function liveChanged(game) {
  if (!session || game.id !== session.gameId) return;
  if (session.role === "host") session.host.changed();
  else if (!game.joinPending && isConnected()) {
    const seat = game.table.me ? game.table.me.player : null;
    if (seat !== session.seatSent) {
      session.seatSent = seat;
      session.joiner.sit(seat);
    }
  }
  drawBar();
}

/** A game shown (null: the new-game form): the host who leaves its live game ends it (its phones see the connection lost). */
export function liveShown(game) {
  if (session && session.role === "host" && (!game || game.id !== session.gameId)) {
    endSession();
    toast(t("live.left"), "info", 6000);
  }
  drawBar();
}

/** What a GameScreen of `game` asks of the live table: a joiner's change goes to the host. Null elsewhere. */
export function liveHooks(game) {
  if (!game.live || game.live.role !== "joiner") return null;
  return { propose: (screen, candidate) => propose(screen, candidate) };
}

// ------------------------------------------------------------ the bar above the table

function drawBar() {
  const screen = app.screen();
  const game = screen ? screen.game : null;
  const live = game && game.live;
  bar.hidden = !live && !session;
  if (bar.hidden) return bar.replaceChildren();
  if (session && session.role === "host") {
    const table = liveGame().table;
    const phones = [...session.host.peers.values()].filter((peer) => peer.welcomed);
    bar.dataset.role = "host";
    bar.dataset.state = "hosting";
    bar.dataset.phones = String(phones.length);
    bar.replaceChildren(h("span.live-dot.on"), h("span.live-text", {}, t("live.bar.host", { phones: phones.length
      ? tn("live.bar.phones", phones.length, { seats: phones.map((peer) => seatName(table, peer.seat)).join(", ") }) : t("live.bar.noPhone") })),
    h("button.link", { dataset: { action: "live-phones" }, onclick: () => openHostSheet(game) }, t("live.bar.phonesButton")));
    return;
  }
  const connected = session && session.role === "joiner" && session.gameId === (game && game.id) && isConnected();
  bar.dataset.role = "joiner";
  bar.dataset.state = connected ? "connected" : "lost";
  delete bar.dataset.phones;
  const seats = connected && session.seats ? session.seats.map((entry) => `${entry.phone === "host" ? t("live.bar.hostWord") : t("live.bar.phoneWord")}: ${seatName(game.table, entry.seat)}`) : [];
  bar.replaceChildren(h(`span.live-dot${connected ? ".on" : ".off"}`),
    h("span.live-text", {}, connected ? t("live.bar.connected", { seats: seats.join(" · ") })
      : t("live.bar.lost")),
    connected ? null : h("button.link", { dataset: { action: "live-reconnect" }, onclick: openJoinSheet }, t("live.bar.reconnect")));
}

// ------------------------------------------------------------ the host

function startHosting(game) {
  if (!game.live || game.live.role !== "host") {
    game.live = { id: randomId(), role: "host" };
    app.persist(game);
  }
  session = { role: "host", gameId: game.id, links: new Map(), nextPhone: 1 };
  session.host = new LiveHost({
    live: game.live.id,
    name: game.name,
    getTable: () => liveGame().table,
    check: checkEvent,
    append: (candidate, phone) => {
      const screen = app.screen();
      const entry = session.host.peers.get(phone);
      const label = t("live.eventFrom", { name: seatName(candidate, entry && entry.seat) });
      if (screen && screen.game.id === session.gameId) screen.replaceTable(candidate, label);
      else {
        const stored = liveGame();
        stored.table = candidate;
        app.persist(stored);
      }
    },
    onPeers: () => { drawBar(); if (session && session.sheet) session.sheet(); },
  });
}

/**
 * A joiner's event, checked as the page checks its own: the engine, on the host's table with its
 * wires. `reason` in the host's words; `why` (the code, fields and reasons) for the joiner to word
 * in its language, one of the host's own wires named as the host's ({host: slot}, not {own}).
 */
async function checkEvent(candidate) {
  const result = await app.engine.analyze(candidate);
  if (result.consistent) return { ok: true };
  const hostSeat = candidate.me ? candidate.me.player : null;
  const contradicts = (result.contradicts || []).map(({ own, ...reason }) => (own ? { ...reason, host: { player: hostSeat, ...own } } : reason));
  const why = result.code ? { kind: "impossible", code: result.code, fields: { ...result.fields, event: result.event }, contradicts } : null;
  return { ok: false, reason: impossibleWords(result, candidate), why };
}

/** An impossible event's headline and reason, as the recorder shows them (the host's, or the joiner's from the host's code). */
function impossibleWords(result, candidate) {
  const event = candidate.events[result.event];
  const headline = event ? t("refusal.impossibleEvent", { what: describeEvent(event, candidate), event: result.event + 1 }) : t("refusal.impossible");
  return `${headline} ${t("refusal.source.engine")}: ${coreReason(result, candidate)}`;
}

/** A handshake's failure in this page's language: a code's refusal (sdp.js CodeError) from its code, else its message. */
function codeWords(error) {
  return error instanceof CodeError && has(`live.code.${error.code}`) ? t(`live.code.${error.code}`, error.fields) : error.message;
}

/** The host's refusal in this phone's language, from its code (protocol.js `why`); else the host's words. */
function refusalWords(reason, why, candidate) {
  if (!why || !candidate) return reason;
  if (why.kind === "live") {
    if (why.code === "moved") return tn("live.why.moved", why.fields.n);
    if (why.code === "engine_failed") return t("live.why.engineFailed", { reason: why.fields.detail });
    return has(`live.why.${why.code}`) ? t(`live.why.${why.code}`) : reason;
  }
  if (why.kind === "table") return tableRefusal({ code: why.code, fields: why.fields, message: reason }, candidate);
  if (!has(`reason.${why.code}`)) return reason;
  return impossibleWords({ code: why.code, fields: why.fields, event: why.fields.event, contradicts: why.contradicts || [] }, candidate);
}

function endSession() {
  if (!session) return;
  const links = session.role === "host" ? [...session.links.values()] : session.link ? [session.link] : [];
  if (session.pending) for (const entry of session.pending.values()) entry.resolve(notConnected());
  session = null;
  for (const link of links) link.lost();
}

function qrOf(text, id, title) {
  let code = null;
  try {
    code = encodeQr(text);
  } catch {
    return h("p.warn", {}, t("live.tooLong"));
  }
  const box = h("div.qr-box.live-qr", { id, dataset: { version: String(code.version) } });
  box.innerHTML = qrSvg(code, { title });
  return box;
}

function copyButton(text) {
  return h("button.secondary", {
    onclick: () => navigator.clipboard.writeText(text).then(() => toast(t("live.copied")), () => toast(t("live.copyByHand"))),
  }, t("live.copy"));
}

function openHostSheet(game) {
  if (!session || session.role !== "host" || session.gameId !== game.id) {
    endSession();
    startHosting(game);
    drawBar();
  }
  let adding = null; // the handshake in progress: {code, accept, cancel} or a message
  // The list of phones is redrawn in place when a phone comes or goes (a code being pasted stays).
  const phonesBox = h("div.live-phones-box");
  const drawPhones = () => {
    if (!session || session.role !== "host") return;
    const phones = [...session.host.peers.entries()].filter(([, peer]) => peer.welcomed);
    phonesBox.replaceChildren(h("h3", {}, `Phones (${phones.length})`),
      phones.length ? h("ul.live-phones", {}, phones.map(([phone, peer]) => h("li", { dataset: { phone } }, seatName(game.table, peer.seat))))
        : h("p.hint", {}, t("live.noPhone")));
  };
  const draw = () => {
    if (!session || session.role !== "host") return;
    drawPhones();
    const answer = h("textarea.live-code", { id: "live-answer", rows: "3", "aria-label": t("live.answerLabel"), placeholder: "BB1A…" });
    const connect = async (text) => {
      const offer = adding;
      adding = { message: t("live.connecting") };
      draw();
      try {
        const link = await offer.accept(text);
        attachPhone(link);
        adding = null;
        toast(t("live.joined"));
      } catch (error) {
        offer.cancel();
        adding = { message: t("live.noConnectionAgain", { reason: codeWords(error) }) };
      }
      draw();
    };
    const step = !adding ? h("div.actions", {}, h("button.primary", {
      dataset: { action: "live-add" },
      onclick: async () => {
        adding = { message: t("live.preparing") };
        draw();
        try {
          adding = await hostOffer();
        } catch (error) {
          adding = { message: t("live.noCode", { reason: codeWords(error) }) };
        }
        draw();
      },
    }, t("live.add")))
      : adding.message ? h("p.live-message", { id: "live-host-message" }, adding.message)
        : h("div.live-handshake", {},
          h("p", {}, h("b", {}, "1. "), t("live.step1")),
          qrOf(adding.code, "live-offer-qr", t("live.offerTitle")),
          h("textarea.live-code", { id: "live-offer", readonly: true, rows: "3", "aria-label": t("live.hostCode") }, adding.code),
          h("div.actions", {}, copyButton(adding.code)),
          h("p", {}, h("b", {}, "2. "), t("live.step2")),
          scanButton((text) => connect(text), (why) => toast(why, "error", 6000)),
          answer,
          h("div.actions", {}, h("button.primary", {
            dataset: { action: "live-connect" }, onclick: () => connect(answer.value),
          }, t("live.connect"))));
    openSheet(t("live.title"),
      h("p", {}, t("live.intro"), " ", h("b", {}, t("live.publicOnly")), " ", t("live.checked")),
      phonesBox,
      step,
      h("div.actions", {}, h("button.secondary.danger", {
        dataset: { action: "live-stop" },
        onclick: () => {
          endSession();
          delete game.live;
          app.persist(game);
          closeSheet();
          drawBar();
          toast(t("live.closed"));
        },
      }, t("live.stop"))));
  };
  session.sheet = drawPhones;
  draw();
}

function attachPhone(link) {
  const phone = `phone-${session.nextPhone++}`;
  const current = session;
  current.links.set(phone, link);
  current.host.addPhone(phone, (message) => link.send(message));
  link.onclose = () => {
    if (session !== current) return;
    current.links.delete(phone);
    current.host.removePhone(phone);
  };
  link.listen((text) => {
    const { message, error, code, fields } = readMessage(text);
    if (error) return toast(t("live.phoneSent", { error: t(`live.message.${code}`, fields) }), "error", 6000);
    current.host.receive(phone, message);
  });
}

// ------------------------------------------------------------ the joiner

const HELLO_AGAIN_MS = 3000;
const notConnected = () => ({ ok: false, headline: t("live.notSent"), reason: t("live.notSentWhy") });

function openJoinSheet() {
  const screen = app.screen();
  // A phone that followed a live game here before reconnects to it: its log catches up.
  const resume = screen && screen.game.live && screen.game.live.role === "joiner" ? screen.game : null;
  let pending = null;
  const draw = (content) => openSheet(resume ? t("live.reconnectTitle") : t("live.menu.join"), ...content);
  const input = h("textarea.live-code", { id: "live-join-code", rows: "3", "aria-label": t("live.hostCode"), placeholder: "BB1O…" });
  const connect = async (text) => {
    let handshake;
    try {
      handshake = await joinOffer(text);
    } catch (error) {
      return toast(t("live.badCode", { reason: codeWords(error) }), "error", 8000);
    }
    pending = handshake;
    draw([
      h("p", {}, t("live.showHost")),
      qrOf(handshake.code, "live-answer-qr", t("live.answerTitle")),
      h("textarea.live-code", { id: "live-answer-code", readonly: true, rows: "3", "aria-label": t("live.thisAnswer") }, handshake.code),
      h("div.actions", {}, copyButton(handshake.code)),
      h("p.live-message", { id: "live-join-message" }, t("live.waiting")),
    ]);
    try {
      const link = await handshake.link;
      if (pending !== handshake) return link.lost();
      startJoining(link, resume);
    } catch (error) {
      toast(t("live.noConnection", { reason: codeWords(error) }), "error", 8000);
    }
  };
  draw([
    h("p", {}, t("live.onHost")),
    scanButton((text) => connect(text), (why) => toast(why, "error", 6000)),
    input,
    h("div.actions", {}, h("button.primary", { dataset: { action: "live-join" }, onclick: () => connect(input.value) }, t("live.connect"))),
    h("p.hint", {}, t("live.privacy")),
  ]);
}

function startJoining(link, resume) {
  if (session && session.role === "host") return link.lost();
  endSession();
  const current = { role: "joiner", link, gameId: resume ? resume.id : null, pending: new Map(), seats: null, seatSent: undefined };
  session = current;
  const gameOf = (live) => {
    const screen = app.screen();
    if (screen && screen.game.live && screen.game.live.id === live) return screen.game;
    const entry = app.listGames().map((e) => load(e.id)).find((game) => game && game.live && game.live.role === "joiner" && game.live.id === live);
    return entry || null;
  };
  current.joiner = new LiveJoiner({
    send: (message) => link.send(message),
    live: resume ? resume.live.id : null,
    getTable: () => { const game = gameOf(current.joiner.live); return game ? game.table : null; },
    getSeat: () => { const game = gameOf(current.joiner.live); return game && game.table.me ? game.table.me.player : null; },
    onWelcome: (setup, from, events, welcome) => {
      let game = gameOf(welcome.live);
      const table = joinerTable(setup, from, events, game ? game.table : null);
      if (game) {
        game.table = table;
      } else {
        game = app.newGame(table, `Live · ${welcome.name}`);
        game.live = { id: welcome.live, role: "joiner" };
        game.joinPending = true;
      }
      game.past = [];
      game.future = [];
      current.gameId = game.id;
      current.seats = welcome.seats;
      current.seatSent = game.joinPending ? undefined : (game.table.me ? game.table.me.player : null);
      app.persist(game);
      app.showGame(game);
      toast(from ? tn("live.caughtUp", events.length) : t("live.whichSeat"));
    },
    onLog: (from, events, ack) => {
      const game = liveGame();
      const waiting = ack !== null ? current.pending.get(ack) : null;
      const table = applyLog(game.table, from, events, waiting ? waiting.seen : []);
      const screen = app.screen();
      if (screen && screen.game.id === game.id) screen.replaceTable(table);
      else {
        game.table = table;
        app.persist(game);
      }
      if (waiting) {
        current.pending.delete(ack);
        waiting.resolve({ ok: true });
      }
    },
    onRefused: (id, reason, why) => {
      const waiting = current.pending.get(id);
      if (!waiting) return;
      current.pending.delete(id);
      waiting.resolve({ ok: false, headline: t("live.refused"), reason: refusalWords(reason, why, waiting.candidate) });
    },
    onSeats: (seats) => { current.seats = seats; drawBar(); },
  });
  link.onclose = () => {
    for (const entry of current.pending.values()) entry.resolve(notConnected());
    current.pending.clear();
    drawBar();
    if (session === current) toast(t("live.lostToast"), "error", 6000);
  };
  link.listen((text) => {
    const { message, error, code, fields } = readMessage(text);
    if (error) return toast(t("live.hostSent", { error: t(`live.message.${code}`, fields) }), "error", 6000);
    current.joiner.receive(message);
  });
  // A channel that closed before this phone listened has said nothing yet: say it now, not "Waiting…" for ever.
  if (link.closed) return link.onclose();
  current.joiner.hello();
  // A hello the host's page missed (busy as the channel opened) is said again until the host answers.
  const retry = setInterval(() => {
    if (session !== current || link.closed || !current.joiner.waiting) clearInterval(retry);
    else current.joiner.hello();
  }, HELLO_AGAIN_MS);
}

/** A joiner's change: an event added at the end goes to the host; anything else is the host's to do. */
function propose(screen, candidate) {
  if (!session || session.role !== "joiner" || session.gameId !== screen.game.id || !isConnected()) return Promise.resolve(notConnected());
  const events = screen.table.events;
  if (candidate.events.length !== events.length + 1 || firstDifference(events, candidate.events) !== events.length) {
    return Promise.resolve({ ok: false, headline: t("live.onlyHost"), reason: t("live.onlyHostWhy") });
  }
  // What I saw with my event (me.seen) stays here: it joins my table once the host has appended the event.
  const before = new Set(((screen.table.me && screen.table.me.seen) || []).map((entry) => JSON.stringify(entry)));
  const seen = ((candidate.me && candidate.me.seen) || []).filter((entry) => !before.has(JSON.stringify(entry)));
  const current = session;
  return new Promise((resolve) => {
    const id = current.joiner.request(candidate.events[events.length], events.length);
    current.pending.set(id, { resolve, seen, candidate });
  });
}
