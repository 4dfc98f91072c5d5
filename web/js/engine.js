// Worker pool and the page's scripting API (window.bombbuster).
//
// Each worker runs Pyodide + bombbuster_core (see worker.js). Requests carry an
// id; a request is queued until a worker is free. Long work reports elapsed
// time and can be cancelled: the busy worker is terminated and respawned. A
// worker that crashes is replaced and its request retried once on the new one;
// the game itself lives on the page, so nothing is lost.
//
// One request over many workers: a request may be sent "split" (the bridge's
// protocol, bombbuster_core/bridge.py). Its reply may then be a round of
// pending tasks instead of a result; the pool runs them on any free worker (a
// "home" task on the worker that asked), then sends the request again to that
// worker with the answers, until the result comes. The result is exactly the
// serial one. Finished results are kept by exact request (method + params), so
// a repeated request (undo, redo, a view toggle) answers at once, whichever
// worker computed it.

const MAX_WORKERS = 4;
const PHONE_WORKERS = 2;
const PROGRESS_INTERVAL_MS = 250;
const CACHED_METHODS = new Set(["analyze", "suggest"]);
// Requests of a few milliseconds that a screen waits for (the setup's mission
// table): first in line, never behind minutes of queued suggestion tasks.
const QUICK_METHODS = new Set(["new", "missions", "ping"]);
const CACHE_ENTRIES = 64;
const CACHE_CHARS = 16_000_000; // ~32 MB of JS strings at most
// Task answers go back to the bridge with every number's exact text (JSON.rawJSON);
// a browser without it runs every request whole on one worker.
const CAN_SPLIT = typeof JSON.rawJSON === "function";

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

/**
 * JSON.parse reviver for task answers, which go back to the bridge: a number that
 * would not survive a round trip through a double (integers past 2^53, e.g.
 * signature weights) stays its exact source text when stringified again.
 */
function keepExactNumbers(key, value, context) {
  if (typeof value === "number" && context && String(value) !== context.source) return JSON.rawJSON(context.source);
  return value;
}

/** Raised when the bridge answers with an error reply (bad input, unknown method); a refused
 * table's reply also gives its `code` and `fields`, which the page words (ui.js tableRefusal). */
export class EngineError extends Error {
  constructor(message, { code, fields } = {}) {
    super(message);
    this.name = "EngineError";
    this.code = code;
    this.fields = fields;
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

/**
 * The worker index.html's first script started as the page began loading, if it is one this pool
 * would start (same script, same installer); else it is stopped. Taken once.
 */
function takeEarlyWorker(url, installer) {
  const early = globalThis.bombbusterEarlyWorker;
  if (!early) return null;
  delete globalThis.bombbusterEarlyWorker;
  if (early.url === url && early.installer === installer) return early;
  early.worker.terminate();
  return null;
}

class PooledWorker {
  /** early: a worker already started (takeEarlyWorker), with the messages it sent before this listened. */
  constructor(pool, url, early = null) {
    this.pool = pool;
    this.url = url;
    this.job = null;
    this.ready = false;
    this.spawn(early);
  }

  spawn(early = null) {
    this.ready = false;
    this.startedAt = early ? early.startedAt : performance.now();
    this.worker = early ? early.worker : new Worker(this.url, { type: "module", name: this.pool.installer });
    this.worker.onmessage = (event) => this.onMessage(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.crash(event.message || "worker error");
    };
    if (early) {
      // Heard after the pool has this worker in its list (a "ready" starts the others).
      queueMicrotask(() => {
        if (early.errors.length) this.crash(early.errors[0]); // a new worker replaces it
        else for (const data of early.messages) this.onMessage(data);
      });
    }
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
      job.finish(data.reply, this);
      this.pool.dispatch();
    }
  }

  run(job) {
    this.job = job;
    job.worker = this;
    this.worker.postMessage({ id: job.id, message: job.message(this) });
  }

  /** {wasmBytes, core} of this worker (core: the bridge's `stats`), once it is ready; `forget`: then
   *  the worker drops the plans and sweeps it keeps between requests. */
  stats(forget = false) {
    return new Promise((resolve) => {
      this.statsWaiter = resolve;
      this.worker.postMessage({ type: "stats", forget });
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
  /** installer: "snapshot" (default), "unpack" or "micropip", see worker.js. */
  constructor({ size = defaultPoolSize(), installer = "snapshot", workerUrl, onStatus = () => {} } = {}) {
    this.size = size;
    this.installer = installer;
    this.workerUrl = workerUrl || new URL("./worker.js", import.meta.url).href;
    this.onStatus = onStatus;
    this.queue = [];
    this.workers = [];
    this.analysesSplit = false; // whether the last analysis asked to split did (SplitCall.speculate)
    this.speculations = { adopted: 0, dropped: 0 };
    this.nextId = 1;
    this.results = new Map(); // exact request -> reply text, oldest first
    this.resultChars = 0;
    this.cacheCounts = { hits: 0, misses: 0 };
    this.readyTimings = [];
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    // Start one worker first so the page is usable as early as possible on two
    // cores; the rest start once it is ready. The first may already be starting.
    this.workers.push(new PooledWorker(this, this.workerUrl, takeEarlyWorker(this.workerUrl, installer)));
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

  /** Give each free worker the first queued job homed on it, else the first job with no home. */
  dispatch() {
    for (const worker of this.workers) {
      if (!worker.ready || worker.job || !this.queue.length) continue;
      let index = this.queue.findIndex((job) => job.home === worker);
      if (index < 0) index = this.queue.findIndex((job) => !job.home);
      if (index >= 0) worker.run(this.queue.splice(index, 1)[0]);
    }
  }

  /**
   * Send one bridge request. Resolves with the bridge's `result`, rejects with
   * EngineError (error reply) or CancelledError. `onProgress(ms, work)` is
   * called while the request waits or runs, and whenever the worker reports
   * work: `work` is {done, total} analyses of a long request (suggestions in
   * public view, entropy branches) or null before any is reported; `signal`
   * (AbortSignal) cancels it; `fresh` skips the kept results (measurements).
   */
  request(method, params, { onProgress, signal, fresh = false } = {}) {
    const key = CACHED_METHODS.has(method) ? JSON.stringify([method, params]) : null;
    const kept = key && !fresh ? this.results.get(key) : undefined;
    if (key && !fresh) this.cacheCounts[kept === undefined ? "misses" : "hits"] += 1;
    if (kept !== undefined) {
      this.results.delete(key); // most recently used last
      this.results.set(key, kept);
      return Promise.resolve(JSON.parse(kept, keepBigIntegers).result);
    }
    return new Promise((resolve, reject) => {
      const call = new SplitCall(this, method, params, { onProgress, resolve, reject, key });
      if (signal) {
        if (signal.aborted) return call.fail(new CancelledError());
        signal.addEventListener("abort", () => this.cancel(call), { once: true });
      }
      call.start();
    });
  }

  /** Keep a finished reply by its exact request (bounded: entries and characters). */
  keep(key, replyText) {
    if (this.results.has(key) || replyText.length > CACHE_CHARS / 4) return;
    this.results.set(key, replyText);
    this.resultChars += replyText.length;
    while (this.results.size > CACHE_ENTRIES || this.resultChars > CACHE_CHARS) {
      const [oldest, text] = this.results.entries().next().value;
      this.results.delete(oldest);
      this.resultChars -= text.length;
    }
  }

  queueJob(job, { first = false, dispatch = true } = {}) {
    if (first) this.queue.unshift(job);
    else this.queue.push(job);
    if (dispatch) this.dispatch();
  }

  /** Stop a request (CancelledError, or `error`): its queued jobs are dropped, its running ones terminate their workers. */
  cancel(call, error = new CancelledError()) {
    if (call.settled) return;
    for (const job of call.jobs) {
      const queued = this.queue.indexOf(job);
      if (queued >= 0) this.queue.splice(queued, 1);
      else if (job.worker && job.worker.job === job) job.worker.respawn();
    }
    call.fail(error);
    this.dispatch();
  }

  /** Per ready worker: {wasmBytes, core, startup timings}; `forget`: as PooledWorker.stats. */
  async stats({ forget = false } = {}) {
    const ready = this.workers.filter((worker) => worker.ready);
    return Promise.all(ready.map(async (worker) => ({ ...(await worker.stats(forget)), startup: worker.timings })));
  }

  /** Cancel everything queued or running (terminates busy workers). */
  cancelAll() {
    for (const job of [...this.queue]) this.cancel(job.call);
    for (const worker of this.workers) if (worker.job) this.cancel(worker.job.call);
  }

  /** {hits, misses, entries, chars} of the kept results, and the speculative sweeps {adopted, dropped}. */
  cacheStats() {
    return { ...this.cacheCounts, entries: this.results.size, chars: this.resultChars, speculations: { ...this.speculations } };
  }
}

/**
 * One request's life in the pool: its main job (sent again with the answers
 * after each round of pending tasks) and the tasks of the current round.
 */
class SplitCall {
  constructor(pool, method, params, { onProgress, resolve, reject, key }) {
    Object.assign(this, { pool, method, params, onProgress, resolve, reject, key });
    this.jobs = new Set();
    this.answers = [];
    this.split = false;
    this.home = null;
    this.settled = false;
    this.work = null;
    this.speculative = null; // {text, reply, adopt, job}: see speculate()
    this.began = performance.now();
    this.timer = onProgress ? setInterval(() => this.tell(), PROGRESS_INTERVAL_MS) : null;
  }

  tell() {
    if (this.onProgress && !this.settled) this.onProgress(performance.now() - this.began, this.work);
  }

  reported(work) {
    // A request sent again with its answers reports its work from 0 again: keep the count rising.
    if (work && this.work && work.total === this.work.total && work.done < this.work.done) return;
    this.work = work;
    this.tell();
  }

  /** Whether to ask the bridge to split: a suggestion list always (only its executor's maps
   *  split), an analysis when another worker is free now to take the other half. */
  wantsSplit(worker) {
    if (!CAN_SPLIT || this.pool.size < 2 || !CACHED_METHODS.has(this.method)) return false;
    return this.method === "suggest" || this.pool.workers.some((other) => other !== worker && other.ready && !other.job);
  }

  /** Queue the main job: the request itself, or again with the answers (first in line, at home). */
  start() {
    const again = this.answers.length > 0;
    this.addJob(this.home, (worker) => {
      if (!again) this.split = this.wantsSplit(worker);
      if (!again && this.split) this.speculate();
      const params = !this.split ? this.params : { ...this.params, split: true, ...(again ? { answers: this.answers } : {}) };
      return { method: this.method, params };
    }, (replyText, worker) => this.mainReply(replyText, worker), { first: again || QUICK_METHODS.has(this.method) });
  }

  /**
   * Speculative: a columns analysis, when the pool's last analysis asked to split did split, queues
   * its mirrored sweep now, as the task its first reply will ask for (bridge.py: the table and the
   * direction, and the request's budget if it has one), so the other worker starts sweeping while
   * the home works out its round (~13 ms on a 5-player public start). mainReply adopts the answer
   * when the round asks for exactly this task, and drops it otherwise.
   */
  speculate() {
    const engine = this.params.engine;
    if (this.method !== "analyze" || !this.pool.analysesSplit || (engine && engine !== "columns")) return;
    const budget = this.params.budget;
    const task = { task: "columns.sweep", params: { table: this.params.table, mirrored: true, ...(budget === undefined ? {} : { budget }) } };
    const spec = { text: JSON.stringify(task), reply: null, adopt: null, job: null };
    spec.job = this.addJob(null, () => ({ method: "task", params: task }), (taskReply) => {
      spec.reply = taskReply;
      if (spec.adopt) spec.adopt(taskReply);
    }, { dispatch: false });
    this.speculative = spec;
    queueMicrotask(() => this.pool.dispatch()); // after the home's job is on its way
  }

  /** A speculative sweep the round did not ask for: unqueued, or left to finish (its answer
   *  is not read) unless the request failed (e.g. too large to analyse: the sweep could run on). */
  dropSpeculation(spec, failed) {
    this.pool.speculations.dropped += 1;
    this.jobs.delete(spec.job);
    const queued = this.pool.queue.indexOf(spec.job);
    if (queued >= 0) this.pool.queue.splice(queued, 1);
    else if (failed && spec.job.worker && spec.job.worker.job === spec.job) spec.job.worker.respawn();
  }

  /** Queue a job (returned): `request(worker)` = {method, params} when it starts; `finish(replyText, worker)`. */
  addJob(home, request, finish, options) {
    const job = {
      id: this.pool.nextId++, retries: 0, worker: null, call: this, home,
      message: (worker) => JSON.stringify({ id: job.id, ...request(worker) }),
      work: (reported) => this.reported(reported),
      finish: (replyText, worker) => {
        this.jobs.delete(job);
        if (!this.settled) finish(replyText, worker);
      },
      reject: (error) => this.pool.cancel(this, error),
    };
    this.jobs.add(job);
    this.pool.queueJob(job, options);
    return job;
  }

  mainReply(replyText, worker) {
    const reply = JSON.parse(replyText, keepBigIntegers);
    const spec = this.speculative;
    this.speculative = null;
    if (this.method === "analyze" && this.split && !this.answers.length) {
      this.pool.analysesSplit = Boolean(reply.pending && reply.pending.tasks[0].task === "columns.sweep");
    }
    const adopted = Boolean(spec && reply.pending && JSON.stringify(reply.pending.tasks[0]) === spec.text);
    if (spec && !adopted) this.dropSpeculation(spec, Boolean(reply.error));
    if (reply.error) return this.fail(new EngineError(reply.error.message, reply.error));
    if (!reply.pending) {
      if (this.key) this.pool.keep(this.key, replyText);
      return this.succeed(reply.result);
    }
    this.home = worker;
    const { tasks, weights, digest } = reply.pending;
    const results = new Array(tasks.length);
    const total = weights.reduce((a, b) => a + b, 0);
    let left = tasks.length;
    let done = 0;
    if (total) this.reported({ done: 0, total });
    const answered = (i, taskReply) => {
      const answer = JSON.parse(taskReply, keepExactNumbers);
      // A task's error is worded like the request's own: keep its code and fields (an engine limit's).
      if (answer.error) return this.pool.cancel(this, new EngineError(answer.error.message, answer.error));
      results[i] = answer.result;
      done += weights[i];
      if (total) this.reported({ done, total });
      if (--left === 0) {
        this.answers.push({ digest, results });
        this.start();
      }
    };
    // Queue the whole round before dispatching: the asking worker is free now, and a task
    // dispatched alone would take it, leaving its own home task to wait behind it.
    tasks.forEach((task, i) => {
      if (i === 0 && adopted) return;
      this.addJob(task.home ? worker : null, () => ({ method: "task", params: task }), (taskReply) => answered(i, taskReply),
        { dispatch: false });
    });
    if (adopted) {
      this.pool.speculations.adopted += 1;
      if (spec.reply !== null) answered(0, spec.reply);
      else spec.adopt = (taskReply) => answered(0, taskReply);
    }
    this.pool.dispatch();
  }

  succeed(result) {
    this.settle();
    this.resolve(result);
  }

  fail(error) {
    if (this.settled) return;
    this.settle();
    this.reject(error);
  }

  settle() {
    this.settled = true;
    if (this.timer) clearInterval(this.timer);
  }
}

/** The documented scripting API, installed as window.bombbuster. */
export function installScriptingApi(pool, extras = {}) {
  let defaultEngine = null; // null: the bridge's default (columns)
  // A request with no `engine` option runs on the page's engine setting; where the
  // signatures engine refuses a table (too large, moved wires, labels), on columns.
  const withEngine = (method, table, options) => {
    const params = { table, ...stripCallbacks(options) };
    if (params.engine || !defaultEngine) return pool.request(method, params, options);
    return pool.request(method, { ...params, engine: defaultEngine }, options).catch((error) => {
      if (!(error instanceof EngineError) || !/signatures engine/.test(error.message)) throw error;
      return pool.request(method, params, options);
    });
  };
  const api = {
    ready: pool.ready.then(() => true),
    /** Promise of exactly the CLI's `analyze` JSON for a format-1 table. */
    analyze: (table, options = {}) => withEngine("analyze", table, options),
    /** Promise of exactly the CLI's `suggest` JSON. */
    suggest: (table, options = {}) => withEngine("suggest", table, options),
    /** Promise of the lookahead policy's move for "me" (bridge method `lookahead`: {deals?, depth?, width?, seed?}). */
    lookahead: (table, options = {}) => pool.request("lookahead", { table, ...stripCallbacks(options) }, options),
    /**
     * Promise of the ismcts policy's decision for "me", searched on the whole pool (bridge method
     * `search`): {iterations, horizon?, seeds?}; see searchOnPool.
     */
    search: (table, options = {}) => searchOnPool(pool, table, options),
    /** Promise of exactly the CLI's `explain` JSON: the fewest recorded events that force a wire
     *  (bridge method `explain`: {slot: {player, stand, slot}, value? | not?}). */
    explain: (table, options = {}) => pool.request("explain", { table, ...stripCallbacks(options) }, options),
    /** Promise of the mission catalogue (bridge method `missions`: number, name, players, rules, choices). */
    missions: () => pool.request("missions", {}),
    /** Promise of a mission's format-1 table (bridge method `new`: {mission, players, yellow?, red?, number?}). */
    newTable: (params) => pool.request("new", params),
    /** Promise of {version} of the core running in the workers. */
    ping: () => pool.request("ping", {}),
    cancelAll: () => pool.cancelAll(),
    /** Promise of [{wasmBytes, startup, core}] for each ready worker (diagnostics; core: the bridge's `stats`);
     *  {forget: true}: then each worker drops the plans and sweeps it keeps (timing a repeated request). */
    stats: (options) => pool.stats(options),
    /** {hits, misses, entries, chars} of the results the pool keeps by exact request, and {speculations: {adopted, dropped}}. */
    cacheStats: () => pool.cacheStats(),
    /** The engine of requests without an `engine` option: "columns" (default) or "signatures". */
    setEngine: (name) => { defaultEngine = name === "columns" ? null : name; },
    engine: () => defaultEngine || "columns",
    poolSize: pool.size,
    ...extras,
  };
  window.bombbuster = api;
  return api;
}

/**
 * Root-parallel ISMCTS: one `search` request per seed (seeds 0..n-1, n = `seeds`, by default the
 * pool's size), each with an equal share of `iterations` (default 50, the core's) and of `work` (optional: the
 * core's bound by the table's size, sim/search_advice.py), as independent pool requests (one per
 * worker); their root statistics added up by the core (`merge_searches`). `onProgress(ms, {done, total})` hears
 * the iterations done over all of them (each worker reports every iteration); `signal` cancels
 * them all (their workers are terminated), and an error in one cancels the others.
 */
function searchOnPool(pool, table, { iterations = 50, seeds = pool.size, horizon, work, onProgress, signal, fresh } = {}) {
  const n = Math.max(1, Math.min(seeds, iterations));
  const stop = new AbortController();
  if (signal) {
    if (signal.aborted) stop.abort();
    else signal.addEventListener("abort", () => stop.abort(), { once: true });
  }
  const done = new Array(n).fill(0);
  const began = performance.now();
  const requests = Array.from({ length: n }, (_, seed) => {
    const share = Math.floor(iterations / n) + (seed < iterations % n ? 1 : 0);
    const heard = onProgress && ((ms, work) => {
      if (work) done[seed] = work.done;
      onProgress(performance.now() - began, { done: done.reduce((a, b) => a + b, 0), total: iterations });
    });
    const bound = work ? { work: Math.max(1, Math.floor((work * share) / iterations)) } : {};
    return pool.request("search", { table, iterations: share, seed, ...(horizon ? { horizon } : {}), ...bound },
      { signal: stop.signal, fresh, onProgress: heard });
  });
  // The seeds' roots added up and the pick made by the core (bridge `merge_searches`: ismcts.pick's rule
  // lives in Python alone).
  return Promise.all(requests).then((results) => pool.request("merge_searches", { results }, { signal: stop.signal }),
    (error) => {
      stop.abort();
      throw error;
    });
}

function stripCallbacks(options) {
  const { onProgress, signal, fresh, ...rest } = options;
  return rest;
}
