// The live table's wire between two phones: a WebRTC data channel opened
// with no server at all. No ICE servers (nothing on the internet is asked
// for an address): the phones find each other on the local network by their
// host candidates. No trickle: each side waits until its candidates are
// gathered, so that one code each way (live/sdp.js) carries the whole
// handshake: the host's offer, then the joining phone's answer.
import { packSdp, unpackSdp } from "./sdp.js";
import { t } from "../i18n.js";

const CHANNEL = "bombbuster-live";
// A network that never says its gathering is over: go on with the candidates found by then.
const GATHER_LIMIT_MS = 5000;

function gathered(pc) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const timer = setTimeout(resolve, GATHER_LIMIT_MS);
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState !== "complete") return;
      clearTimeout(timer);
      resolve();
    });
  });
}

/** One open data channel to one phone: text messages in and out; `onclose` once it is gone. */
export class Link {
  constructor(pc, channel) {
    this.pc = pc;
    this.channel = channel;
    this.closed = false;
    this.inbox = []; // messages that came before a listener
    this.handler = null;
    this.onclose = () => {};
    channel.addEventListener("message", (event) => (this.handler ? this.handler(event.data) : this.inbox.push(event.data)));
    channel.addEventListener("close", () => this.lost());
    pc.addEventListener("connectionstatechange", () => {
      if (pc.connectionState === "failed" || pc.connectionState === "closed") this.lost();
    });
  }

  listen(handler) {
    this.handler = handler;
    for (const text of this.inbox.splice(0)) handler(text);
  }

  send(message) {
    if (!this.closed && this.channel.readyState === "open") this.channel.send(JSON.stringify(message));
  }

  lost() {
    if (this.closed) return;
    this.closed = true;
    this.channel.close();
    this.pc.close();
    this.onclose();
  }
}

/** `link` once its channel opens; an Error if the phones cannot reach each other. */
function opened(link) {
  const { pc, channel } = link;
  return new Promise((resolve, reject) => {
    if (channel.readyState === "open") return resolve(link);
    if (link.closed) return reject(new Error(t("live.unreachable")));
    channel.addEventListener("open", () => resolve(link), { once: true });
    pc.addEventListener("connectionstatechange", () => {
      if (pc.connectionState === "failed") reject(new Error(t("live.unreachable")));
    });
  });
}

/** The host's side of one handshake: its code, then accept(answer code) → a Link once the channel opens. */
export async function hostOffer() {
  const pc = new RTCPeerConnection({ iceServers: [] });
  // The Link listens from the channel's creation: on a busy page the channel can open and the
  // joiner's first message arrive before the answer's setRemoteDescription has settled.
  const link = new Link(pc, pc.createDataChannel(CHANNEL, { ordered: true }));
  try {
    await pc.setLocalDescription(await pc.createOffer());
    await gathered(pc);
    const code = packSdp("offer", pc.localDescription.sdp);
    return {
      code,
      async accept(answerCode) {
        await pc.setRemoteDescription(unpackSdp(answerCode, "answer"));
        return opened(link);
      },
      cancel: () => pc.close(),
    };
  } catch (error) {
    pc.close();
    throw error;
  }
}

/** The joining phone's side: the host's code read, its answer code, and `link`: a Link once the host accepts it. */
export async function joinOffer(offerCode) {
  const offer = unpackSdp(offerCode, "offer");
  const pc = new RTCPeerConnection({ iceServers: [] });
  // The Link listens as soon as the channel exists (in the event itself, not a later microtask).
  const link = new Promise((resolve) => pc.addEventListener("datachannel", (event) => resolve(new Link(pc, event.channel)), { once: true }));
  try {
    await pc.setRemoteDescription(offer);
    await pc.setLocalDescription(await pc.createAnswer());
    await gathered(pc);
    return { code: packSdp("answer", pc.localDescription.sdp), link: link.then(opened), cancel: () => pc.close() };
  } catch (error) {
    pc.close();
    throw error;
  }
}
