// Runs the page's own verifier (static/sha256.js, static/verify.js) on the committed vectors:
// node --experimental-default-type=module tests/vectors/verify.mjs tests/vectors/seeds.json
// Called by tests/seeds.rs; prints "verified N games" and exits non-zero on any disagreement.
import { readFileSync } from 'node:fs';
import { sha256, hex } from '../../static/sha256.js';
import { verifyThrows } from '../../static/verify.js';

const v = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let failures = 0;
const check = (ok, what) => {
  if (!ok) { failures++; console.error('FAIL: ' + what); }
};

for (const { text, hex: want } of v.sha256) {
  check(hex(sha256(text)) === want, `sha256(${JSON.stringify(text)}) = ${hex(sha256(text))}, want ${want}`);
}
// Lengths around the 55/56/64-byte padding boundaries, against Node's own SHA-256.
const { createHash } = await import('node:crypto');
for (let n = 0; n < 200; n++) {
  const text = 'x'.repeat(n);
  const want = createHash('sha256').update(text, 'utf8').digest('hex');
  check(hex(sha256(text)) === want, `sha256 of ${n} bytes`);
}

for (const g of v.games) {
  const where = `${g.rules} seed ${g.seed}`;
  check(hex(sha256('senet-seed:' + g.seed)) === g.seed_hash, `${where}: commitment`);
  g.words.forEach((w, i) => {
    const d = sha256(`senet-throw:${g.seed}:${i}`);
    const r = ((d[0] << 24) >>> 0) + (d[1] << 16) + (d[2] << 8) + d[3];
    check(r === w, `${where}: word ${i} is ${r}, want ${w}`);
  });
  const t = { seed: g.seed, seed_hash: g.seed_hash, throws: g.throws };
  const ok = verifyThrows(t, g.seed_hash);
  check(ok.ok, `${where}: ${ok.text}`);
  check(ok.text.includes(`all ${g.throws.length} throws`), `${where}: ${ok.text}`);
  // Every changed throw is caught: each throw in turn set to another outcome.
  g.throws.forEach((th, i) => {
    const other = th.outcomes.find(([o]) => o !== th.throw);
    if (!other) return;
    const bad = { ...t, throws: g.throws.map((x, j) => (j === i ? { ...x, throw: other[0] } : x)) };
    const r = verifyThrows(bad, g.seed_hash);
    check(!r.ok && r.text.startsWith(`Throw ${i + 1} was ${other[0]}`), `${where}: changed throw ${i + 1}: ${r.text}`);
  });
  // Another seed, or a hash other than the one seen at the start, is refused.
  check(!verifyThrows({ ...t, seed: g.seed + '1' }, null).ok, `${where}: a wrong seed`);
  check(!verifyThrows(t, '0'.repeat(64)).ok, `${where}: another hash seen at the start`);
}

if (failures) {
  console.error(`${failures} failures`);
  process.exit(1);
}
console.log(`verified ${v.games.length} games`);
