// Games played in this browser alone (issue 54): a bot or hot-seat game started while the
// server is out of reach. The page's engine (engine.js) knows the rules; the throws are drawn
// here (crypto.getRandomValues, by the throw's weights, as the server draws them from its
// seed); the game is kept in localStorage (`senet.local`) after every event, so a reload or a
// closed tab loses nothing. Once the game is over and the server answers again, its record is
// uploaded (POST /api/games/import) and stored like any game; the page says what happened.
//
// A local game's state has the server's GameState shape (the fields the game page reads),
// built from the engine's `state` answer, so the game page draws it as it draws any game.

import * as engine from './engine.js';
import { api, saved } from './api.js';

const KEY = 'senet.local';

function all() {
  try { return JSON.parse(localStorage.getItem(KEY) || '{}') || {}; } catch (e) { return {}; }
}
function keep(g) {
  const a = all();
  a[g.id] = g;
  // Quota: a full localStorage must not lose the game silently.
  localStorage.setItem(KEY, JSON.stringify(a));
}

// Every local game, newest first.
export function list() {
  return Object.values(all()).sort((a, b) => b.created - a.created);
}
export function get(id) { return all()[id] || null; }
// Sets fields of a local game (`newcomer`: tips on).
export function update(id, fields) {
  const g = get(id);
  if (g) keep(Object.assign(g, fields));
}

// Whether an error from api() means the server could not be reached at all (no HTTP answer),
// as when it is stopped or the network is down; an HTTP error is an answer.
export function unreachable(e) { return e && e.status == null; }

function newId() {
  const b = new Uint8Array(8);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

// A new local game: `r` the rule set as /api/rules lists it, `options` NAME=VALUE strings,
// `mode` bot or hotseat, `bot` the level, `seat` the person's seat against a bot.
export async function create(r, options, mode, bot, seat) {
  if (!(await engine.loaded())) throw new Error('the server is out of reach, and this browser cannot run the engine to play without it');
  const n = await engine.ask({ op: 'new', rules: r.id, options });
  const seats = [1, 2].map((p) => (mode === 'bot' && p !== seat
    ? { player: p, kind: 'bot', bot, in_page: true }
    : { player: p, kind: 'human' }));
  const g = {
    id: newId(), rules: r.id, rules_name: r.name, sides: r.sides, options, mode, bot: mode === 'bot' ? bot : null,
    seat: mode === 'bot' ? seat : null, seats, start: n.position, position: n.position, events: [],
    created: Date.now(), over: false, uploaded: null, upload_error: null,
  };
  keep(g);
  return g;
}

// The record (docs/notation.md) of a local game: no seed, since this browser drew its throws.
export function record(g, status) {
  const options = {};
  for (const o of g.options) {
    const [k, v] = o.split('=');
    options[k] = v === 'true' ? true : v === 'false' ? false : Number(v);
  }
  const rec = { format: 'senet-record/1', rules: g.rules, options, events: g.events.map((e) => (e.throw != null ? { throw: e.throw } : { move: e.move })) };
  if (status && status.state === 'over') {
    rec.result = { winner: status.winner == null ? null : status.winner, capped: !!status.capped, position: g.position };
    if (status.score) rec.result.score = status.score;
  }
  return rec;
}

// The game's state in the server's GameState shape, with the events from `from` on.
export async function state(g, from = 0) {
  const s = await engine.ask({ op: 'state', position: g.position });
  const over = s.status.state === 'over';
  return {
    id: g.id, local: true, rules: g.rules, rules_name: g.rules_name, sides: g.sides, options: g.options,
    mode: g.mode, seats: g.seats, seq: g.events.length, moves: s.decisions, status: s.status, position: s.position,
    view: s.view,
    legal: (s.legal || []).map((m) => ({ move: m.move, from: m.from_square, to: m.to_square, from_name: m.from_name, to_name: m.to_name, kinds: m.kinds, turn_continues: m.turn_continues, die: m.die })),
    throws: (s.throws || []).map((t) => [t.throw, t.weight]), throw_kind: s.throw_kind,
    seed_hash: '', invite_open: false, open_seat: null, seed: null, page_throws: true,
    watchers: { seats: [false, false], spectators: 0 }, events_from: Math.min(from, g.events.length),
    events: g.events.slice(from), series: null, players: [null, null], you: null, rated: false, clock: null,
    result: null, away: null, rematch: null, rating_change: null, over,
  };
}

function stale(g, seq) {
  if (seq !== g.events.length) {
    const e = new Error('the game has moved on since (another tab?): reloaded');
    e.status = 409;
    throw e;
  }
}

// Draws the throw awaited, by its weights: the outcome at floor(r × total ÷ 2³²) along the
// cumulative weights, r uniform on 32 bits (as the server does with its seeded hash).
export async function throwDice(id, seq) {
  const g = get(id);
  stale(g, seq);
  const s = await engine.ask({ op: 'state', position: g.position });
  if (s.status.state !== 'throw') {
    const e = new Error('it is not time to throw');
    e.status = 409;
    throw e;
  }
  const total = s.throws.reduce((a, t) => a + t.weight, 0);
  const r = crypto.getRandomValues(new Uint32Array(1))[0];
  let at = Math.floor((r * total) / 2 ** 32);
  let pick = s.throws[s.throws.length - 1].throw;
  for (const t of s.throws) {
    if (at < t.weight) { pick = t.throw; break; }
    at -= t.weight;
  }
  const a = await engine.ask({ op: 'throw', position: g.position, throw: pick });
  g.events.push({ seq: g.events.length, player: s.status.player, throw: pick });
  g.position = a.position;
  keep(g);
  return state(g, seq);
}

export async function move(id, mv, seq) {
  const g = get(id);
  stale(g, seq);
  const s = await engine.ask({ op: 'state', position: g.position });
  const a = await engine.ask({ op: 'play', position: g.position, move: mv });
  const e = { seq: g.events.length, player: s.status.player, move: a.move };
  if (a.kinds && a.kinds.length) e.kinds = a.kinds;
  if (a.turn_continues) e.turn_continues = true;
  g.events.push(e);
  g.position = a.position;
  g.over = a.status.state === 'over';
  keep(g);
  if (g.over) upload(g.id);
  return state(g, seq);
}

// The record of local game `id` as it stands.
export async function recordOf(id) {
  const g = get(id);
  const s = await engine.ask({ op: 'state', position: g.position });
  return record(g, s.status);
}

// A record file of the game for download (an object URL).
export async function recordUrl(id) {
  const blob = new Blob([JSON.stringify(await recordOf(id), null, 1)], { type: 'application/json' });
  return URL.createObjectURL(blob);
}

const listeners = new Set();
// Calls f(game) whenever a local game's upload changes (stored, or refused).
export function onUpload(f) { listeners.add(f); }

let uploading = null;
let timer = null;
let listening = false;
// Uploads every finished local game not stored yet (or only `only`); quietly leaves them for
// later while the server cannot be reached, trying again every few seconds while this page is
// open (the server may come back at any time; the browser's `online` event does not see a
// server restarting). A refusal (the server answered no) is kept in the game and shown, and
// not retried.
export function upload(only) {
  if (uploading) return uploading.then(() => (only ? upload(only) : undefined));
  // One tab at a time (Web Locks where the browser has them), each game read afresh: two
  // open tabs never store a game twice.
  const run = async () => {
    for (const { id } of list()) {
      const g = get(id);
      if (!g || !g.over || g.uploaded || g.upload_error || (only && g.id !== only)) continue;
      let s;
      try { s = await engine.ask({ op: 'state', position: g.position }); } catch (e) { continue; }
      const body = { record: record(g, s.status), mode: g.mode };
      if (g.mode === 'bot') { body.bot = g.bot; body.seat = g.seat; }
      try {
        const c = await api('POST', '/api/games/import', body);
        g.uploaded = c.id;
        saved.put(c.id, { tokens: c.tokens, rules: g.rules, mode: g.mode, created: g.created, local: g.id });
      } catch (e) {
        if (unreachable(e) || e.status === 503 || e.status === 429) continue;
        g.upload_error = e.message;
      }
      keep(g);
      for (const f of listeners) f(g);
    }
  };
  uploading = (navigator.locks ? navigator.locks.request('senet-upload', run) : run()).finally(() => {
    uploading = null;
    if (!timer && pending()) timer = setTimeout(() => { timer = null; upload(); }, 3000);
  });
  return uploading;
}

// Whether some finished game waits for the server.
export function pending() { return list().some((g) => g.over && !g.uploaded && !g.upload_error); }

// Uploads what waits, now and whenever the browser comes back online.
export function keepUploading() {
  if (!listening) { listening = true; window.addEventListener('online', () => upload()); }
  if (pending()) upload();
}
