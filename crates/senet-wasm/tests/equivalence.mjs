// The WebAssembly engine answers as the native one (issue 54), in node 20 with no package:
//
//   node crates/senet-wasm/tests/equivalence.mjs [target/wasm/senet_engine.wasm] [target/wasm/equivalence.jsonl]
//
// The cases (requests with the native engine's answers) are written by
// `cargo run --release -p senet-wasm --example equivalence_cases`; scripts/test.sh runs both
// (after scripts/build-wasm.sh). Every answer must be the same JSON, numbers within 1e-6
// (moves, positions, statuses, legal moves and every text exactly). Then perft from every
// start (the counts of crates/senet-rules/tests/perft.rs) and the move counts of the
// regression positions (crates/senet-rules/tests/regression/*.txt), through the .wasm alone.
// Exits 1 on any difference, naming the first ones.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const wasmPath = process.argv[2] || join(root, 'target/wasm/senet_engine.wasm');
const casesPath = process.argv[3] || join(root, 'target/wasm/equivalence.jsonl');

const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
const x = instance.exports;
const enc = new TextEncoder();
const dec = new TextDecoder();

// One request through the C ABI, as the page's worker does it.
function call(req) {
  const input = enc.encode(JSON.stringify(req));
  const p = x.senet_alloc(input.length);
  new Uint8Array(x.memory.buffer, p, input.length).set(input);
  const r = BigInt.asUintN(64, BigInt(x.senet_call(p, input.length)));
  x.senet_free(p, input.length);
  const ptr = Number(r >> 32n);
  const len = Number(r & 0xffffffffn);
  const text = dec.decode(new Uint8Array(x.memory.buffer, ptr, len).slice());
  x.senet_free(ptr, len);
  return JSON.parse(text);
}

// The first difference between two JSON values (numbers within 1e-6), or null.
function diff(a, b, path = '') {
  if (typeof a === 'number' && typeof b === 'number') {
    return Math.abs(a - b) <= 1e-6 ? null : `${path}: ${a} vs ${b}`;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return a === b ? null : `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: a list and an object`;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) {
    return `${path}: fields ${JSON.stringify(ka)} vs ${JSON.stringify(kb)}`;
  }
  for (const k of ka) {
    const d = diff(a[k], b[k], `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

let failures = 0;
const fail = (what) => {
  failures += 1;
  if (failures <= 20) console.error(`DIFFERENT ${what}`);
};

const started = performance.now();
const tally = {};
let maxDelta = 0;
const numbers = (a, b) => {
  if (typeof a === 'number' && typeof b === 'number') maxDelta = Math.max(maxDelta, Math.abs(a - b));
  else if (a && b && typeof a === 'object' && typeof b === 'object') for (const k of Object.keys(a)) numbers(a[k], b[k]);
};
for (const line of readFileSync(casesPath, 'utf8').split('\n')) {
  if (!line) continue;
  const c = JSON.parse(line);
  const key = `${c.rules} ${c.req.op}${c.req.bot ? ' ' + c.req.bot : ''}`;
  tally[key] = (tally[key] || 0) + 1;
  const got = call(c.req);
  numbers(got, c.answer);
  const d = diff(got, c.answer);
  if (d) fail(`${key} ${JSON.stringify(c.req).slice(0, 300)}: ${d}`);
}
const cases = Object.values(tally).reduce((a, b) => a + b, 0);
const byRules = {};
for (const [k, n] of Object.entries(tally)) {
  const [rules, ...what] = k.split(' ');
  (byRules[rules] ||= []).push(`${what.join(' ')} ${n}`);
}
for (const [r, parts] of Object.entries(byRules)) console.log(`${r}: ${parts.join(', ')}`);
console.log(`${cases} answers compared in ${((performance.now() - started) / 1000).toFixed(1)} s; largest difference of a number: ${maxDelta}`);

// Perft from every start through the .wasm alone (paths of decisions, every throw and move
// counted once), memoised by position.
const PERFT = { kendall: [5, 87, 1362], kendall5: [18, 268, 3919], senat: [1, 18, 252], houses: [5, 94, 1531], pyramid: [23, 1817, 9478], parker: [172, 6708, 323092] };
const memo = new Map();
function perft(position, depth, throwText) {
  const key = `${position}|${depth}|${throwText || ''}`;
  if (memo.has(key)) return memo.get(key);
  const s = call(throwText ? { op: 'state', position, throw: throwText } : { op: 'state', position });
  if (s.error) throw new Error(`${position}: ${s.error}`);
  let n;
  if (s.status.state === 'over' || depth === 0) n = 1;
  // (A throw may leave a throw pending: parker's dice-off names who throws first.)
  else if (s.status.state === 'throw') n = s.throws.reduce((a, t) => a + perft(s.position, depth, t.throw), 0);
  else n = s.legal.reduce((a, m) => a + perft(m.position, depth - 1), 0);
  memo.set(key, n);
  return n;
}
for (const [rules, want] of Object.entries(PERFT)) {
  const start = call({ op: 'new', rules }).position;
  const have = [1, 2, 3].map((d) => perft(start, d));
  if (have.some((h, i) => h !== want[i])) fail(`perft ${rules}: ${have} vs ${want}`);
  else console.log(`perft ${rules}: ${have.join(', ')} as committed`);
}

// The regression files' move counts per position and throw.
let counted = 0;
for (const rules of Object.keys(PERFT)) {
  const text = readFileSync(join(root, `crates/senet-rules/tests/regression/${rules}.txt`), 'utf8');
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [position, counts] = line.split('\t');
    for (const c of counts.trim().split(/\s+/)) {
      const [t, k] = c.split(':');
      const s = call({ op: 'state', position, throw: t });
      // (No move awaited after the throw, as after parker's dice-off: none listed.)
      const n = s.error ? -1 : s.legal ? s.legal.length : 0;
      if (n !== Number(k)) fail(`regression ${position} throw ${t}: ${n} moves, not ${k}${s.error ? ` (${s.error})` : ''}`);
      counted += 1;
    }
  }
}
console.log(`regression positions: ${counted} move counts checked`);

if (failures) {
  console.error(`${failures} differences`);
  process.exit(1);
}
console.log('the WebAssembly engine answers as the native one');
