// node anbench.mjs PLAY.wasm A.wasm B.wasm ...: plays expert self-play kendall5 games with PLAY.wasm
// (as bench.mjs), then analyses the same games with each wasm in turn (whole, analyze op).
import { readFileSync } from 'node:fs';
const src = readFileSync('/work/main/crates/senet-wasm/tests/bench.mjs', 'utf8');
const BENCH = src.split('const BENCH = String.raw`')[1].split('\n`;\n')[0];
const mk = new Function(`${BENCH}; return engine;`)();
const [play, ...rest] = process.argv.slice(2);
const load = async (p) => mk((await WebAssembly.instantiate(readFileSync(p), {})).instance.exports);
const call = await load(play);
let lcg = 54;
const draw = (throws) => { lcg = (Math.imul(lcg, 1103515245) + 12345) & 0x7fffffff; const total = throws.reduce((a, t) => a + t.weight, 0); let r = Math.floor(lcg / 65536) % total; for (const t of throws) { if (r < t.weight) return t.throw; r -= t.weight; } };
const start = call({ op: 'new', rules: 'kendall5' }).position;
const games = [];
for (let game = 0; game < 4; game++) {
  let p = start; const events = [];
  for (;;) {
    const s = call({ op: 'state', position: p });
    if (s.status.state === 'over') break;
    if (s.status.state === 'throw') { const th = draw(s.throws); events.push({ throw: th }); p = call({ op: 'throw', position: p, throw: th }).position; continue; }
    const b = call({ op: 'bot', position: p, bot: 'expert', seed: game });
    events.push({ move: b.move }); p = call({ op: 'play', position: p, move: b.move }).position;
  }
  games.push({ format: 'senet-record/1', rules: 'kendall5', events });
}
for (const w of rest) {
  const c = await load(w);
  c({ op: 'bot', position: start, throw: '2', bot: 'expert', seed: 0 });
  const out = [];
  let tot = 0, dec = 0;
  for (const record of games) {
    const t = performance.now();
    const a = c({ op: 'analyze', record });
    const s = (performance.now() - t) / 1000;
    const d = a.analysis.notes.filter((n) => n.kind === 'move').length;
    tot += s; dec += d; out.push(`${d} dec ${s.toFixed(2)} s`);
  }
  console.log(w, out.join('; '), `| ${(1000 * tot / dec).toFixed(1)} ms/decision`);
}
