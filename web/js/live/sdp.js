// A WebRTC offer or answer in as few characters as a phone's camera reads
// reliably from a QR code: the handshake of the live table (live/transport.js)
// carries only what two browsers on one network need to open a data channel,
// and the rest of the SDP is rebuilt from a fixed template.
//
// Kept: the ICE user fragment and password, the DTLS fingerprint (sha-256),
// the DTLS role, and the UDP host candidates (an address or the browser's
// mDNS name, and a port). Dropped: everything a data channel with no ICE
// servers does not use (session ids, media options, TCP, relay candidates).
//
// Code: "BB1" kind "," ufrag "," pwd "," fingerprint "," setup "," candidates
//   kind: O (offer) or A (answer); fingerprint: base64url of its 32 bytes;
//   setup: P (actpass), A (active), S (passive);
//   candidates: "~"-joined, each address "@" port (base 36); an mDNS name
//   "<uuid>.local" is written as "m" + base64url of its 16 bytes.
// No DOM: testable with node (tests/live_protocol.mjs).

export const CODE_PREFIX = "BB1";
const SETUP_LETTERS = { actpass: "P", active: "A", passive: "S" };
const SETUP_NAMES = Object.fromEntries(Object.entries(SETUP_LETTERS).map(([name, letter]) => [letter, name]));
const ICE_CHARS = /^[A-Za-z0-9+/]+$/; // ice-char (RFC 8839)
const MDNS = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/i;

/**
 * A handshake code that cannot be read: its message says what is wrong in English, its `code` and
 * `fields` let the page say it in its language (live.code.CODE; this module runs under Node too).
 */
export class CodeError extends Error {
  constructor(message, code, fields = {}) {
    super(message);
    this.code = code;
    this.fields = fields;
  }
}

function toBase64Url(bytes) {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
}

const hexOf = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

function packAddress(address) {
  const mdns = MDNS.exec(address);
  if (mdns) {
    const hex = mdns.slice(1).join("");
    return `m${toBase64Url(Uint8Array.from(hex.match(/../g), (pair) => parseInt(pair, 16)))}`;
  }
  return address;
}

function unpackAddress(text) {
  if (!text.startsWith("m")) {
    if (!/^[0-9a-fA-F.:]+$/.test(text)) throw new CodeError(`the code's address "${text}" is not an IP address`, "notAddress", { address: text });
    return text;
  }
  const hex = hexOf(fromBase64Url(text.slice(1)));
  if (hex.length !== 32) throw new CodeError("the code's network name is cut short", "nameShort");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}.local`;
}

/** The handshake code of an SDP offer or answer ("offer" | "answer"). Throws if it has no way to connect. */
export function packSdp(type, sdp) {
  const line = (name) => {
    const found = sdp.split(/\r?\n/).find((l) => l.startsWith(`a=${name}:`));
    return found ? found.slice(name.length + 3).trim() : null;
  };
  const ufrag = line("ice-ufrag");
  const pwd = line("ice-pwd");
  const fingerprint = line("fingerprint");
  const setup = line("setup");
  if (!ufrag || !pwd || !fingerprint || !setup) throw new CodeError("the browser's description lacks its ICE or DTLS lines", "browserLines");
  const [algorithm, digest] = fingerprint.split(/\s+/);
  if (algorithm.toLowerCase() !== "sha-256") throw new CodeError(`the browser signs with ${algorithm}, not sha-256`, "browserSigns", { algorithm });
  const candidates = [];
  for (const l of sdp.split(/\r?\n/)) {
    // a=candidate:foundation component transport priority address port typ type …
    const parts = l.startsWith("a=candidate:") ? l.slice("a=candidate:".length).split(/\s+/) : null;
    if (!parts || parts[1] !== "1" || parts[2].toLowerCase() !== "udp" || parts[7] !== "host") continue;
    candidates.push(`${packAddress(parts[4])}@${Number(parts[5]).toString(36)}`);
  }
  if (!candidates.length) throw new CodeError("this phone found no network to connect on: join the table's Wi-Fi first", "noNetwork");
  const digestBytes = Uint8Array.from(digest.split(":"), (pair) => parseInt(pair, 16));
  return [`${CODE_PREFIX}${type === "offer" ? "O" : "A"}`, ufrag, pwd, toBase64Url(digestBytes), SETUP_LETTERS[setup] || "P",
    [...new Set(candidates)].join("~")].join(",");
}

/** {type, sdp} rebuilt from a handshake code; `expected` ("offer" | "answer") is what the caller waits for. */
export function unpackSdp(code, expected) {
  const text = String(code).replace(/\s+/g, "");
  const parts = text.split(",");
  if (!text.startsWith(CODE_PREFIX) || parts.length !== 6) {
    throw new CodeError("this is not a live-table code of this page (it starts with BB1)", "notCode");
  }
  const type = { O: "offer", A: "answer" }[parts[0].slice(CODE_PREFIX.length)];
  if (type !== expected) {
    throw type === "offer" ? new CodeError("this is the host's code: the host needs the code shown on the joining phone", "hostCode")
      : type === "answer" ? new CodeError("this is a joining phone's answer: scan the host's code here", "answerCode")
        : new CodeError("the code's kind is unknown", "unknownKind");
  }
  const [, ufrag, pwd, digestText, setupLetter, candidateText] = parts;
  if (!ICE_CHARS.test(ufrag) || !ICE_CHARS.test(pwd)) throw new CodeError("the code's ICE credentials are damaged", "credentials");
  let digest;
  try {
    digest = fromBase64Url(digestText);
  } catch {
    throw new CodeError("the code's fingerprint is damaged", "fingerprint");
  }
  if (digest.length !== 32) throw new CodeError("the code's fingerprint is cut short", "fingerprintShort");
  const setup = SETUP_NAMES[setupLetter];
  if (!setup) throw new CodeError("the code's DTLS role is damaged", "role");
  const candidates = candidateText.split("~").map((entry, i) => {
    const [address, port] = entry.split("@");
    const number = parseInt(port, 36);
    if (!address || !(number > 0 && number < 65536)) throw new CodeError("the code's network address is damaged", "addressDamaged");
    // Host candidates only: priorities in the order the code lists them.
    return `a=candidate:${i + 1} 1 udp ${2113937151 - i} ${unpackAddress(address)} ${number} typ host`;
  });
  const fingerprint = hexOf(digest).toUpperCase().match(/../g).join(":");
  const sdp = [
    "v=0", `o=- ${Date.now()} 2 IN IP4 127.0.0.1`, "s=-", "t=0 0", "a=group:BUNDLE 0", "a=msid-semantic: WMS",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0", ...candidates,
    `a=ice-ufrag:${ufrag}`, `a=ice-pwd:${pwd}`, `a=fingerprint:sha-256 ${fingerprint}`, `a=setup:${setup}`,
    "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144", "",
  ].join("\r\n");
  return { type, sdp };
}
