// The engine's first worker, started by the page's first script (issue 31, item 3): before
// the page's modules, its language catalogue and its first screen load (~0.3 s of a warm
// start on this machine), so the Python runtime starts while the page draws. js/engine.js's
// pool adopts it (EnginePool: takeEarlyWorker) and hears the messages it sent meanwhile.
// A classic script, so that it runs as the page's head is read.
(() => {
  const installer = new URLSearchParams(location.search).get("installer") || "snapshot";
  const url = new URL("worker.js", document.currentScript.src).href;
  const worker = new Worker(url, { type: "module", name: installer });
  const early = { worker, url, installer, startedAt: performance.now(), messages: [], errors: [] };
  // Kept until the pool listens: a message with no listener would be lost.
  worker.onmessage = (event) => early.messages.push(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    early.errors.push(event.message || "worker error");
  };
  window.bombbusterEarlyWorker = early;
})();
