// The check of a finished game's throws against the seed hash published at its start: no DOM,
// importable by Node (crates/senet-server/tests/seeds.rs runs it on the committed vectors).

import { sha256, hex } from './sha256.js';

// Checks a finished game's throws: the seed must hash to the published hash and throw i
// must be outcome floor(r * total / 2^32) of its distribution, r = first 4 bytes of
// SHA-256("senet-throw:SEED:i"). Returns {ok, text}.
export function verifyThrows(t, hashSeenAtStart) {
  const h0 = hex(sha256('senet-seed:' + t.seed));
  if (h0 !== t.seed_hash) return { ok: false, text: `The seed ${t.seed} hashes to ${h0}, not to the published ${t.seed_hash}.` };
  if (hashSeenAtStart && hashSeenAtStart !== t.seed_hash) {
    return { ok: false, text: `This browser saw the hash ${hashSeenAtStart} when the game started, but the server now shows ${t.seed_hash}.` };
  }
  for (let i = 0; i < t.throws.length; i++) {
    const d = sha256('senet-throw:' + t.seed + ':' + i);
    const r = ((d[0] << 24) >>> 0) + (d[1] << 16) + (d[2] << 8) + d[3];
    const outs = t.throws[i].outcomes;
    const total = outs.reduce((a, o) => a + o[1], 0);
    const x = Math.floor((r * total) / 4294967296);
    let acc = 0, want = outs[outs.length - 1][0];
    for (const [v, w] of outs) { acc += w; if (x < acc) { want = v; break; } }
    if (want !== t.throws[i].throw) {
      return { ok: false, text: `Throw ${i + 1} was ${t.throws[i].throw}, but the seed gives ${want}.` };
    }
  }
  return {
    ok: true,
    text: `Verified: the revealed seed ${t.seed} hashes to ${t.seed_hash}` +
      (hashSeenAtStart ? ', the hash this browser was shown at the start,' : '') +
      ` and all ${t.throws.length} throws follow from it.`,
  };
}
