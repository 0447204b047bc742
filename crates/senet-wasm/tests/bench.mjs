// The WebAssembly engine's speed in headless Chromium (issue 54), as the page runs it: in a
// Web Worker. node 20, no package; chromium and chromedriver (Debian's chromium-driver).
//
//   node crates/senet-wasm/tests/bench.mjs [--moves 200] [--node] [target/wasm/senet_engine.wasm]
//
// Serves a bench page and the .wasm on 127.0.0.1, drives Chromium through chromedriver
// (traffic to 127.0.0.1 only), and prints, as JSON: the first `expert` move (the exact
// tables built on first use), then `expert` time per move over self-play kendall5 games until
// MOVES moves (median, p90, p99, max), and a whole kendall5 game analysed, at once and in
// chunks of 8 events (the page's progress). `--node` runs the same in node instead (same V8).
// The games are the same everywhere (throws from a 31-bit LCG), so
// `cargo run --release -p senet-wasm --example bench` measures the very same work natively.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : dflt;
};
const moves = Number(opt('--moves', '200'));
const inNode = args.includes('--node');
const wasmPath = args.filter((a) => !a.startsWith('--'))[0] || join(root, 'target/wasm/senet_engine.wasm');

// The benchmark, as text: run in a worker in Chromium, or here in node.
const BENCH = String.raw`
function engine(x) {
  const enc = new TextEncoder(), dec = new TextDecoder();
  return (req) => {
    const input = enc.encode(JSON.stringify(req));
    const p = x.senet_alloc(input.length);
    new Uint8Array(x.memory.buffer, p, input.length).set(input);
    const r = BigInt.asUintN(64, BigInt(x.senet_call(p, input.length)));
    x.senet_free(p, input.length);
    const ptr = Number(r >> 32n), len = Number(r & 0xffffffffn);
    const text = dec.decode(new Uint8Array(x.memory.buffer, ptr, len).slice());
    x.senet_free(ptr, len);
    const a = JSON.parse(text);
    if (a.error) throw new Error(a.error);
    return a;
  };
}
function bench(call, moves) {
  const now = () => performance.now();
  // The throws: a 31-bit LCG's high bits over the outcomes' weights (bench.rs draws the same).
  let lcg = 54;
  const draw = (throws) => {
    lcg = (Math.imul(lcg, 1103515245) + 12345) & 0x7fffffff; // exact: mod 2^31 needs the low bits only
    const total = throws.reduce((a, t) => a + t.weight, 0);
    let r = Math.floor(lcg / 65536) % total;
    for (const t of throws) { if (r < t.weight) return t.throw; r -= t.weight; }
  };
  const start = call({ op: 'new', rules: 'kendall5' }).position;
  let t = now();
  call({ op: 'bot', position: start, throw: '2', bot: 'expert', seed: 0 });
  const first = now() - t;
  const times = [];
  const games = [];
  let sum = 0;
  for (let game = 0; times.length < moves; game++) {
    let p = start;
    const events = [];
    for (;;) {
      const s = call({ op: 'state', position: p });
      if (s.status.state === 'over') break;
      if (s.status.state === 'throw') {
        const th = draw(s.throws);
        events.push({ throw: th });
        p = call({ op: 'throw', position: p, throw: th }).position;
        continue;
      }
      t = now();
      const b = call({ op: 'bot', position: p, bot: 'expert', seed: game });
      times.push(now() - t);
      sum += b.move.length;
      events.push({ move: b.move });
      p = call({ op: 'play', position: p, move: b.move }).position;
    }
    games.push({ format: 'senet-record/1', rules: 'kendall5', events });
  }
  times.sort((a, b) => a - b);
  const q = (f) => +times[Math.min(times.length - 1, Math.floor(f * times.length))].toFixed(1);
  const record = games[0];
  t = now();
  const whole = call({ op: 'analyze', record });
  const analysed = now() - t;
  t = now();
  let a = call({ op: 'analyze_start', record });
  let steps = 0;
  while (a.status !== 'done') { a = call({ op: 'analyze_step', session: a.session, events: 8 }); steps++; }
  const chunked = now() - t;
  return {
    first_move_ms: +first.toFixed(1),
    expert: { moves: times.length, games: games.length, median_ms: q(0.5), p90_ms: q(0.9), p99_ms: q(0.99), max_ms: q(1),
      mean_ms: +(times.reduce((a, b) => a + b, 0) / times.length).toFixed(1) },
    analysis: { events: record.events.length, decisions: whole.analysis.notes.filter((n) => n.kind === 'move').length,
      whole_s: +(analysed / 1000).toFixed(2), chunks_of_8_s: +(chunked / 1000).toFixed(2), steps,
      same: JSON.stringify(a.analysis) === JSON.stringify(whole.analysis) },
  };
}
`;

if (inNode) {
  const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
  const run = new Function(`${BENCH}; return (x, moves) => bench(engine(x), moves);`)();
  console.log(JSON.stringify({ where: `node ${process.version}`, ...run(instance.exports, moves) }, null, 1));
  process.exit(0);
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>senet engine bench</title><body>
<pre id="out">running</pre><script>
const w = new Worker('/bench-worker.js');
w.onmessage = (e) => { window.benchResult = e.data; document.getElementById('out').textContent = JSON.stringify(e.data); };
w.postMessage(${moves});
</script>`;
const WORKER = `${BENCH}
self.onmessage = async (e) => {
  try {
    const { instance } = await WebAssembly.instantiateStreaming(fetch('/senet_engine.wasm'), {});
    self.postMessage({ where: navigator.userAgent, ...bench(engine(instance.exports), e.data) });
  } catch (err) { self.postMessage({ error: String(err && err.stack || err) }); }
};`;
const wasm = readFileSync(wasmPath);
const server = createServer((req, res) => {
  const send = (type, body) => { res.writeHead(200, { 'content-type': type }); res.end(body); };
  if (req.url === '/bench.html') send('text/html', PAGE);
  else if (req.url === '/bench-worker.js') send('text/javascript', WORKER);
  else if (req.url === '/senet_engine.wasm') send('application/wasm', wasm);
  else { res.writeHead(404); res.end(); }
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const site = `http://127.0.0.1:${server.address().port}`;

const port = 20000 + Math.floor(Math.random() * 20000);
const driver = spawn('chromedriver', [`--port=${port}`], { stdio: 'ignore' });
const wd = async (method, path, body) => {
  const r = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${JSON.stringify(j.value)}`);
  return j.value;
};
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
let session = null;
try {
  for (let i = 0; ; i++) {
    try { await wd('GET', '/status'); break; } catch (e) { if (i > 100) throw e; await sleep(100); }
  }
  session = (await wd('POST', '/session', { capabilities: { alwaysMatch: { 'goog:chromeOptions': {
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] } } } })).sessionId;
  await wd('POST', `/session/${session}/url`, { url: `${site}/bench.html` });
  let result = null;
  for (let i = 0; i < 1200 && !result; i++) {
    await sleep(500);
    result = await wd('POST', `/session/${session}/execute/sync`, { script: 'return window.benchResult || null', args: [] });
  }
  if (!result) throw new Error('no result in 10 minutes');
  if (result.error) throw new Error(result.error);
  console.log(JSON.stringify(result, null, 1));
} finally {
  if (session) await wd('DELETE', `/session/${session}`).catch(() => {});
  driver.kill();
  server.close();
}
