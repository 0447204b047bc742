// The page's engine (issue 54): a Web Worker running the rules and bots in WebAssembly
// (engine-worker.js). `ask(req)` answers a request as crates/senet-wasm does; `ready()`
// says (without waiting) whether the engine has loaded, `loaded()` waits for it. A server
// built without the engine, or a browser without WebAssembly, leaves the page as it was:
// it asks the server for every bot move, hint and value. `<html data-engine>` says which:
// `ready` or `none` once known.

let worker = null;
let state = 'idle'; // idle, loading, ready, none
let next = 1;
const waiting = new Map();
let loading = null;

function start() {
  if (worker || state === 'none') return;
  if (typeof Worker === 'undefined' || typeof WebAssembly === 'undefined') {
    state = 'none';
    document.documentElement.dataset.engine = state;
    return;
  }
  state = 'loading';
  try {
    worker = new Worker('/static/engine-worker.js');
  } catch (e) {
    state = 'none';
    return;
  }
  worker.onmessage = (ev) => {
    const w = waiting.get(ev.data.id);
    if (!w) return;
    waiting.delete(ev.data.id);
    if ('ok' in ev.data) w.ok(ev.data.ok); else w.fail(new Error(ev.data.error));
  };
  worker.onerror = () => {
    state = 'none';
    for (const w of waiting.values()) w.fail(new Error('the engine stopped'));
    waiting.clear();
  };
  loading = send({ op: 'rules' }).then(() => { state = 'ready'; return true; }, () => { state = 'none'; return false; })
    .then((ok) => { document.documentElement.dataset.engine = state; return ok; });
}

function send(req) {
  return new Promise((ok, fail) => {
    const id = next++;
    waiting.set(id, { ok, fail });
    worker.postMessage({ id, req });
  });
}

// Starts loading the engine (at once, in the background: the page works meanwhile).
export function load() { start(); }

// Whether the engine is loaded and answering now.
export function ready() { return state === 'ready'; }

// Waits until the engine has loaded (true) or could not be (false).
export function loaded() {
  start();
  return loading || Promise.resolve(false);
}

// Asks the engine; rejects with the engine's words when it refuses, or when it is not there.
export async function ask(req) {
  if (!(await loaded())) throw new Error('the engine is not available in this browser');
  return send(req);
}

// A bot's seed for a decision of a game: the same game and decision give the same seed, so
// a bot's move can be checked by anyone with the engine.
export function seedOf(game, seq) {
  let h = 0x811c9dc5;
  for (const c of `${game}:${seq}`) {
    h ^= c.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
