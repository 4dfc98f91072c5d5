// Worker pool and the page's scripting API (window.bombbuster).
//
// Each worker runs Pyodide + bombbuster_core (see worker.js). Requests carry an
// id; a request is queued until a worker is free. Long work reports elapsed
// time and can be cancelled: the busy worker is terminated and respawned. A
// worker that crashes is replaced and its request retried once on the new one;
// the game itself lives on the page, so nothing is lost.

const MAX_WORKERS = 4;
const PHONE_WORKERS = 2;
const PROGRESS_INTERVAL_MS = 250;

/**
 * JSON.parse reviver: integers beyond 2^53 (world counts) become BigInt so the
 * API returns exactly the CLI's numbers instead of rounded doubles.
 */
function keepBigIntegers(key, value, context) {
  if (typeof value === "number" && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)) {
    return BigInt(context.source);
  }
  return value;
}

/** Raised when the bridge answers with an error reply (bad input, unknown method). */
export class EngineError extends Error {
  constructor(message) {
    super(message);
    this.name = "EngineError";
  }
}

/** Raised when a request is cancelled by the caller. */
export class CancelledError extends Error {
  constructor() {
    super("cancelled");
    this.name = "CancelledError";
  }
}

export function defaultPoolSize() {
  const cores = navigator.hardwareConcurrency || 2;
  const phone = matchMedia("(pointer: coarse)").matches && Math.min(screen.width, screen.height) < 600;
  return Math.max(1, Math.min(cores, phone ? PHONE_WORKERS : MAX_WORKERS));
}

class PooledWorker {
  constructor(pool, url) {
    this.pool = pool;
    this.url = url;
    this.job = null;
    this.ready = false;
    this.spawn();
  }

  spawn() {
    this.ready = false;
    this.startedAt = performance.now();
    this.worker = new Worker(this.url, { type: "module", name: this.pool.installer });
    this.worker.onmessage = (event) => this.onMessage(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.crash(event.message || "worker error");
    };
  }

  onMessage(data) {
    if (data.type === "progress") {
      this.pool.loading(data.stage, data.detail);
    } else if (data.type === "ready") {
      this.ready = true;
      this.pool.workerReady(this, {
        ...data.timings, installer: data.installer, total: Math.round(performance.now() - this.startedAt),
      });
    } else if (data.type === "crashed") {
      this.crash(data.error);
    } else if (data.type === "fatal") {
      this.pool.workerFailed(this, data.error);
    } else if (data.type === "stats" && this.statsWaiter) {
      this.statsWaiter(data);
      this.statsWaiter = null;
    } else if (data.type === "work" && this.job && this.job.id === data.id) {
      this.job.work({ done: data.done, total: data.total });
    } else if (data.type === "reply" && this.job && this.job.id === data.id) {
      const job = this.job;
      this.job = null;
      job.finish(data.reply);
      this.pool.dispatch();
    }
  }

  run(job) {
    this.job = job;
    job.worker = this;
    this.worker.postMessage({ id: job.id, message: job.message });
  }

  /** {wasmBytes} of this worker, once it is ready. */
  stats() {
    return new Promise((resolve) => {
      this.statsWaiter = resolve;
      this.worker.postMessage({ type: "stats" });
    });
  }

  /** Terminate and start afresh (cancel, crash). The job, if any, is handed back. */
  respawn() {
    this.worker.terminate();
    const job = this.job;
    this.job = null;
    this.spawn();
    return job;
  }

  crash(reason) {
    const job = this.respawn();
    this.pool.workerCrashed(this, job, reason);
  }
}

export class EnginePool {
  /** installer: "unpack" (default) or "micropip", see worker.js. */
  constructor({ size = defaultPoolSize(), installer = "unpack", workerUrl, onStatus = () => {} } = {}) {
    this.size = size;
    this.installer = installer;
    this.workerUrl = workerUrl || new URL("./worker.js", import.meta.url).href;
    this.onStatus = onStatus;
    this.queue = [];
    this.workers = [];
    this.nextId = 1;
    this.readyTimings = [];
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    // Start one worker first so the page is usable as early as possible on two
    // cores; the rest start once it is ready.
    this.workers.push(new PooledWorker(this, this.workerUrl));
  }

  loading(stage, detail) {
    if (!this.readyTimings.length) this.onStatus({ state: "loading", stage, detail });
  }

  workerReady(worker, timings) {
    worker.timings = timings;
    this.readyTimings.push(timings);
    if (this.readyTimings.length === 1) {
      this.onStatus({ state: "ready", timings });
      this.resolveReady({ timings });
      while (this.workers.length < this.size) this.workers.push(new PooledWorker(this, this.workerUrl));
    }
    this.dispatch();
  }

  workerFailed(worker, error) {
    this.onStatus({ state: "failed", detail: error });
    this.rejectReady(new EngineError(`the engine could not start: ${error}`));
  }

  workerCrashed(worker, job, reason) {
    if (job && job.retries < 1) {
      job.retries += 1;
      this.queue.unshift(job);
    } else if (job) {
      job.reject(new EngineError(`the engine crashed: ${reason}`));
    }
    this.dispatch();
  }

  dispatch() {
    for (const worker of this.workers) {
      if (!this.queue.length) return;
      if (worker.ready && !worker.job) worker.run(this.queue.shift());
    }
  }

  /**
   * Send one bridge request. Resolves with the bridge's `result`, rejects with
   * EngineError (error reply) or CancelledError. `onProgress(ms, work)` is
   * called while the request waits or runs, and whenever the worker reports
   * work: `work` is {done, total} analyses of a long request (suggestions in
   * public view, entropy branches) or null before any is reported; `signal`
   * (AbortSignal) cancels it.
   */
  request(method, params, { onProgress, signal } = {}) {
    const id = this.nextId++;
    const message = JSON.stringify({ id, method, params });
    return new Promise((resolve, reject) => {
      const began = performance.now();
      let work = null;
      const tell = () => onProgress && onProgress(performance.now() - began, work);
      const timer = onProgress ? setInterval(tell, PROGRESS_INTERVAL_MS) : null;
      const done = () => timer && clearInterval(timer);
      const job = {
        id, message, retries: 0, worker: null,
        work: (reported) => { work = reported; tell(); },
        finish: (replyText) => {
          done();
          const reply = JSON.parse(replyText, keepBigIntegers);
          if (reply.error) reject(new EngineError(reply.error.message));
          else resolve(reply.result);
        },
        reject: (error) => { done(); reject(error); },
      };
      if (signal) {
        if (signal.aborted) return job.reject(new CancelledError());
        signal.addEventListener("abort", () => this.cancel(job), { once: true });
      }
      this.queue.push(job);
      this.dispatch();
    });
  }

  cancel(job) {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    else if (job.worker && job.worker.job === job) job.worker.respawn();
    else return;
    job.reject(new CancelledError());
  }

  /** Per ready worker: {wasmBytes, startup timings}. */
  async stats() {
    const ready = this.workers.filter((worker) => worker.ready);
    return Promise.all(ready.map(async (worker) => ({ ...(await worker.stats()), startup: worker.timings })));
  }

  /** Cancel everything queued or running (terminates busy workers). */
  cancelAll() {
    for (const job of [...this.queue]) this.cancel(job);
    for (const worker of this.workers) if (worker.job) this.cancel(worker.job);
  }
}

/** The documented scripting API, installed as window.bombbuster. */
export function installScriptingApi(pool, extras = {}) {
  const api = {
    ready: pool.ready.then(() => true),
    /** Promise of exactly the CLI's `analyze` JSON for a format-1 table. */
    analyze: (table, options = {}) => pool.request("analyze", { table, ...stripCallbacks(options) }, options),
    /** Promise of exactly the CLI's `suggest` JSON (rejects until the core provides it). */
    suggest: (table, options = {}) => pool.request("suggest", { table, ...stripCallbacks(options) }, options),
    /** Promise of the mission catalogue (bridge method `missions`: number, name, players, rules, choices). */
    missions: () => pool.request("missions", {}),
    /** Promise of a mission's format-1 table (bridge method `new`: {mission, players, yellow?, red?, number?}). */
    newTable: (params) => pool.request("new", params),
    /** Promise of {version} of the core running in the workers. */
    ping: () => pool.request("ping", {}),
    cancelAll: () => pool.cancelAll(),
    /** Promise of [{wasmBytes, startup}] for each ready worker (diagnostics). */
    stats: () => pool.stats(),
    poolSize: pool.size,
    ...extras,
  };
  window.bombbuster = api;
  return api;
}

function stripCallbacks(options) {
  const { onProgress, signal, ...rest } = options;
  return rest;
}
