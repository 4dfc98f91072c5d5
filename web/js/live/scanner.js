// Reading a handshake code with the phone's camera: the browser's own
// BarcodeDetector (Chrome on Android, among others). No decoder is vendored:
// where the browser has none (desktop Chrome on Linux, Safari, Firefox) the
// button is not shown and the code is pasted as text instead. The camera
// needs a secure context (https or localhost).
import { h } from "../ui.js";
import { t } from "../i18n.js";

const SCAN_EVERY_MS = 200;

export function canScan() {
  return typeof window.BarcodeDetector === "function" && Boolean(navigator.mediaDevices && navigator.mediaDevices.getUserMedia);
}

/** A "Scan with the camera" button and its preview; `onCode(text)` gets the first code of this page seen. Null without a detector. */
export function scanButton(onCode, onError) {
  if (!canScan()) return null;
  const video = h("video.live-scan", { playsinline: true, muted: true, hidden: true, "aria-label": t("live.cameraPreview") });
  const start = async () => {
    let stream;
    try {
      const formats = await window.BarcodeDetector.getSupportedFormats();
      if (!formats.includes("qr_code")) throw new Error(t("live.noQrDetector"));
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
    } catch (error) {
      return onError(error.name === "NotAllowedError" ? t("live.cameraRefused") : error.message);
    }
    const detector = new window.BarcodeDetector({ formats: ["qr_code"] });
    video.srcObject = stream;
    video.hidden = false;
    await video.play().catch(() => {});
    const stop = () => { for (const track of stream.getTracks()) track.stop(); video.hidden = true; };
    const look = async () => {
      if (!video.isConnected) return stop(); // the sheet was closed
      const codes = await detector.detect(video).catch(() => []);
      const mine = codes.map((code) => code.rawValue).find((text) => text.startsWith("BB1"));
      if (mine) {
        stop();
        onCode(mine);
      } else {
        setTimeout(look, SCAN_EVERY_MS);
      }
    };
    look();
  };
  return h("div.live-scanner", {}, h("button.secondary", { dataset: { action: "live-scan" }, onclick: start }, t("live.scan")), video);
}
