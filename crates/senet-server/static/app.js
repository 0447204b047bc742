// senet web app: lobby, game page and review, drawn from the server's JSON API
// (/api/openapi.json). The page knows no rule: the board comes from the game's `view`, the
// moves from `legal`, what happened from each event's `kinds`.
'use strict';

const $ = (sel, root = document) => root.querySelector(sel);
const SVGNS = 'http://www.w3.org/2000/svg';

function build(make, tag, attrs, kids) {
  const e = make(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.setAttribute('class', v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const k of kids.flat()) {
    if (k == null || k === false) continue;
    e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return e;
}
const h = (tag, attrs, ...kids) => build((t) => document.createElement(t), tag, attrs, kids);
const s = (tag, attrs, ...kids) => build((t) => document.createElementNS(SVGNS, t), tag, attrs, kids);

async function api(method, path, body, token) {
  const opt = { method, headers: {} };
  if (body !== undefined) {
    opt.headers['Content-Type'] = 'application/json';
    opt.body = JSON.stringify(body);
  }
  if (token) opt.headers.Authorization = 'Bearer ' + token;
  const r = await fetch(path, opt);
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    const err = new Error((data && data.error) || 'HTTP ' + r.status);
    err.status = r.status;
    throw err;
  }
  return data;
}

// Games this browser created, joined or watched: id -> {tokens, invite, seed_hash, ...}.
const saved = {
  all() {
    try { return JSON.parse(localStorage.getItem('senet.games') || '{}') || {}; } catch (e) { return {}; }
  },
  get(id) { return this.all()[id] || {}; },
  put(id, v) {
    const a = this.all();
    a[id] = Object.assign(a[id] || {}, v);
    try { localStorage.setItem('senet.games', JSON.stringify(a)); } catch (e) { /* private mode */ }
  },
};

let CATALOGUE = null;
async function catalogue() {
  if (!CATALOGUE) CATALOGUE = await api('GET', '/api/rules');
  return CATALOGUE;
}

// ---------------------------------------------------------------- SHA-256 (for verification)
const K256 = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const ror = (x, n) => (x >>> n) | (x << (32 - n));

// SHA-256 of a string (UTF-8); works without a secure context, unlike crypto.subtle.
function sha256(text) {
  const bytes = new TextEncoder().encode(text);
  const l = bytes.length;
  const n = ((l + 9 + 63) >> 6) << 6;
  const m = new Uint8Array(n);
  m.set(bytes);
  m[l] = 0x80;
  const dv = new DataView(m.buffer);
  dv.setUint32(n - 8, Math.floor((l * 8) / 4294967296));
  dv.setUint32(n - 4, (l * 8) >>> 0);
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const W = new Uint32Array(64);
  for (let o = 0; o < n; o += 64) {
    for (let i = 0; i < 16; i++) W[i] = dv.getUint32(o + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = W[i - 15], b = W[i - 2];
      W[i] = W[i - 16] + (ror(a, 7) ^ ror(a, 18) ^ (a >>> 3)) + W[i - 7] + (ror(b, 17) ^ ror(b, 19) ^ (b >>> 10));
    }
    let [a, b, c, d, e, f, g, k] = H;
    for (let i = 0; i < 64; i++) {
      const t1 = (k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + W[i]) >>> 0;
      const t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += k;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  H.forEach((x, i) => ov.setUint32(i * 4, x));
  return out;
}
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

// Checks a finished game's throws: the seed must hash to the published hash and throw i
// must be outcome floor(r * total / 2^32) of its distribution, r = first 4 bytes of
// SHA-256("senet-throw:SEED:i"). Returns {ok, text}.
function verifyThrows(t, hashSeenAtStart) {
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

// ---------------------------------------------------------------- drawing
const CELL = 64, PAD = 10, OFFW = 92;

function markText(special) {
  const short = special.split(/[;:(,]/)[0].trim();
  return short.length <= 8 ? short : '✱';
}

// The fill and the letter colour of each colour word that senet-rules gives a side.
const SIDE_COLOURS = {
  light: ['#fdfaf2', '#2b2118'], dark: ['#3a2a1e', '#f4ecd8'],
  white: ['#fdfaf2', '#2b2118'], black: ['#1d1a17', '#f4ecd8'],
  red: ['#b3362b', '#fdfaf2'], yellow: ['#e8c547', '#2b2118'],
};

// Colours the pieces drawn inside `elem` as the rule set's sides (see `sides` in the API).
function paintSides(elem, sides) {
  (sides || []).forEach((sd, i) => {
    const [fill, ink] = SIDE_COLOURS[sd.colour] || SIDE_COLOURS[i ? 'dark' : 'light'];
    elem.style.setProperty(`--p${i + 1}`, fill);
    elem.style.setProperty(`--p${i + 1}-ink`, ink);
  });
}

function pieceShape(p, cx, cy, r) {
  const g = s('g', { class: 'piece p' + p.player });
  g.append(s('circle', { cx, cy, r }));
  if (p.kind !== 'X' && p.kind !== 'O') {
    g.append(s('text', { x: cx, y: cy + r * 0.35, 'text-anchor': 'middle', class: 'kind' }, p.kind));
  }
  g.append(s('title', {}, `player ${p.player}: ${p.name}`));
  return g;
}

// Draws a BoardView. `ui` (optional): {legal, selected, hint, played, onPiece(square), onTarget(square|'off'), onHover(square|null)}
// (`hint` and `played`: moves {from, to} drawn gold and blue).
function drawBoard(view, ui) {
  ui = ui || {};
  const legal = ui.legal || [];
  const from = new Set(legal.filter((m) => m.from != null).map((m) => m.from));
  const focus = ui.selected != null ? ui.selected : ui.hover;
  const targets = new Set(legal.filter((m) => m.from === focus).map((m) => (m.to_name === 'off' ? 'off' : m.to)));
  const hint = ui.hint;
  const w = PAD * 2 + view.cols * CELL + OFFW, hgt = PAD * 2 + view.rows * CELL;
  const svg = s('svg', { viewBox: `0 0 ${w} ${hgt}`, class: 'board', id: 'board', role: 'img', 'aria-label': 'board' });
  for (const c of view.cells) {
    const x = PAD + c.col * CELL, y = PAD + c.row * CELL;
    const cls = ['cell'];
    if (c.special) cls.push('special');
    if (targets.has(c.square)) cls.push('target');
    if (hint && (hint.from === c.square || hint.to === c.square)) cls.push('hinted');
    if (ui.played && (ui.played.from === c.square || ui.played.to === c.square)) cls.push('played');
    if (ui.selected === c.square) cls.push('selected');
    const g = s('g', { class: cls.join(' '), 'data-square': c.square });
    g.append(s('rect', { x: x + 1.5, y: y + 1.5, width: CELL - 3, height: CELL - 3, rx: 5 }));
    g.append(s('text', { x: x + 6, y: y + 15, class: 'label' }, c.label));
    if (c.special) {
      g.append(s('text', { x: x + CELL - 6, y: y + CELL - 7, 'text-anchor': 'end', class: 'mark' }, markText(c.special)));
      g.append(s('title', {}, `${c.label}: ${c.special}`));
    }
    const n = c.pieces.length;
    c.pieces.forEach((p, i) => {
      const r = n > 1 ? CELL * 0.2 : CELL * 0.29;
      const cx = x + CELL / 2 + (i - (n - 1) / 2) * CELL * 0.42, cy = y + CELL / 2 + 3;
      const ps = pieceShape(p, cx, cy, r);
      if (from.has(c.square)) ps.classList.add('movable');
      g.append(ps);
    });
    if (ui.onPiece || ui.onTarget) {
      g.addEventListener('click', () => {
        if (targets.has(c.square) && ui.onTarget) ui.onTarget(c.square);
        else if (from.has(c.square) && ui.onPiece) ui.onPiece(c.square);
      });
      g.addEventListener('mouseenter', () => ui.onHover && from.has(c.square) && ui.onHover(c.square));
      g.addEventListener('mouseleave', () => ui.onHover && ui.onHover(null));
    }
    svg.append(g);
  }
  // Pieces borne off and captured, beside the board.
  const ox = PAD + view.cols * CELL + 8;
  const off = s('g', { class: 'off' + (targets.has('off') ? ' target' : ''), id: 'off-zone' });
  off.append(s('rect', { x: ox, y: PAD + 1.5, width: OFFW - 10, height: view.rows * CELL - 3, rx: 6 }));
  off.append(s('text', { x: ox + (OFFW - 10) / 2, y: PAD + 18, 'text-anchor': 'middle', class: 'label' }, 'off'));
  [0, 1].forEach((i) => {
    const y = PAD + 40 + i * 56;
    off.append(pieceShape({ player: i + 1, kind: i ? 'O' : 'X', name: 'piece' }, ox + 20, y, 12));
    off.append(s('text', { x: ox + 38, y: y + 5, class: 'count', id: 'off-' + (i + 1) }, '× ' + view.off[i]));
    if (view.captured[i]) {
      off.append(s('text', { x: ox + 8, y: y + 28, class: 'small' }, `lost ${view.captured[i]}`));
    }
  });
  if (ui.onTarget) off.addEventListener('click', () => targets.has('off') && ui.onTarget('off'));
  svg.append(off);
  return svg;
}

// The throw: two dice drawn with pips, a single value (sticks or one die) as its number.
function drawThrow(t) {
  const box = h('span', { class: 'throw-shown', id: 'throw-shown', 'data-throw': t || '' });
  if (!t) { box.append('–'); return box; }
  const parts = t.split('-').map(Number);
  if (parts.length === 2) {
    for (const v of parts) box.append(drawDie(v));
  } else {
    box.append(h('b', {}, t));
  }
  return box;
}
const PIPS = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]] };
function drawDie(v) {
  const svg = s('svg', { viewBox: '0 0 36 36', class: 'die', role: 'img', 'aria-label': 'die ' + v });
  svg.append(s('rect', { x: 1, y: 1, width: 34, height: 34, rx: 6 }));
  for (const [c, r] of PIPS[v] || []) svg.append(s('circle', { cx: 8 + c * 10, cy: 8 + r * 10, r: 3.2 }));
  if (!PIPS[v]) svg.append(s('text', { x: 18, y: 23, 'text-anchor': 'middle' }, v));
  return svg;
}

function rulesSummary(r) {
  const total = r.throws.reduce((a, t) => a + t[1], 0);
  return h('div', { class: 'rules-summary' },
    h('h3', {}, r.name),
    h('p', {}, h('b', {}, 'Source: '), r.source),
    h('p', {}, h('b', {}, 'Pieces: '), `${r.pieces[0]} each. `, h('b', {}, 'Board: '), r.path),
    h('p', {}, h('b', {}, 'Throws: '), r.throws.map((t) => `${t[0]} (${Math.round((1000 * t[1]) / total) / 10}%)`).join(', ')),
    r.specials.length ? h('ul', {}, r.specials.map((x) => h('li', {}, h('b', {}, x.label + ': '), x.text))) : null,
    h('p', { class: 'small' }, 'Every rule with its ruling: docs/rules/' + r.id + '.md in the senet repository.'));
}

// ---------------------------------------------------------------- lobby
async function lobby() {
  document.title = 'Senet';
  const app = $('#app');
  const cat = await catalogue();
  const rulesSel = h('select', { id: 'rules', name: 'rules' }, cat.rules.map((r) => h('option', { value: r.id }, `${r.name} — ${r.id}`)));
  const optBox = h('div', { id: 'options', class: 'options' });
  const summary = h('details', { class: 'summary' });
  const current = () => cat.rules.find((x) => x.id === rulesSel.value);
  function showOptions() {
    const r = current();
    optBox.replaceChildren(...r.options.map((o) => h('label', { class: 'opt', title: o.description },
      h('span', {}, o.name),
      o.type === 'bool'
        ? h('input', { type: 'checkbox', 'data-opt': o.name, checked: o.default })
        : h('input', { type: 'number', 'data-opt': o.name, min: o.min, max: o.max, value: o.default }),
      h('small', {}, o.description))));
    summary.replaceChildren(h('summary', {}, 'Rules summary'), rulesSummary(r));
  }
  rulesSel.addEventListener('change', showOptions);
  const levelSel = h('select', { id: 'level' }, cat.levels.map((l) => h('option', { value: l, selected: l === 'casual' }, l)));
  const seatSel = h('select', { id: 'seat' });
  function showSeats() {
    const sides = current().sides;
    const was = seatSel.value || '1';
    seatSel.replaceChildren(...['first', 'second'].map((w, i) =>
      h('option', { value: String(i + 1), selected: String(i + 1) === was }, `${w} (${sides[i].name})`)));
  }
  rulesSel.addEventListener('change', showSeats);
  showSeats();
  const mode = (v, label, checked) => h('label', { class: 'mode' }, h('input', { type: 'radio', name: 'mode', value: v, checked }), ' ', label);
  const msg = h('p', { class: 'error', id: 'lobby-error', role: 'alert' });
  const series = seriesChoice();
  const create = h('button', { id: 'create', class: 'primary' }, 'Start game');
  create.addEventListener('click', async () => {
    const r = current();
    const options = [];
    for (const inp of optBox.querySelectorAll('[data-opt]')) {
      const o = r.options.find((x) => x.name === inp.dataset.opt);
      const v = o.type === 'bool' ? inp.checked : Number(inp.value);
      if (v !== o.default) options.push(`${o.name}=${v}`);
    }
    const m = $('input[name=mode]:checked', app).value;
    const body = { rules: r.id, options, mode: m };
    if (m === 'bot') body.bot = levelSel.value;
    if (m !== 'hotseat') body.seat = Number(seatSel.value);
    series.apply(body);
    create.disabled = true;
    try {
      const c = await api('POST', '/api/games', body);
      saved.put(c.id, { tokens: c.tokens, invite: c.invite || null, seed_hash: c.state.seed_hash, rules: r.id, mode: m, created: Date.now(), series: c.series || null });
      location.href = '/g/' + c.id;
    } catch (e) {
      msg.textContent = e.message;
      create.disabled = false;
    }
  });
  const recent = h('div', { id: 'recent' }, h('p', { class: 'small' }, 'Loading your games…'));
  app.replaceChildren(
    h('section', { class: 'panel' },
      h('h2', {}, 'New game'),
      h('label', { class: 'row' }, h('span', {}, 'Rule set'), rulesSel),
      optBox,
      h('fieldset', { class: 'modes' }, h('legend', {}, 'Opponent'),
        mode('bot', 'a bot, level ', true), levelSel, h('br'),
        mode('hotseat', 'hot-seat: two players on this device'), h('br'),
        mode('online', 'invite a friend (a link for the second seat)')),
      h('label', { class: 'row' }, h('span', {}, 'You play'), seatSel),
      series.box,
      create, msg, summary),
    h('section', { class: 'panel' }, h('h2', {}, 'Your games'), recent));
  showOptions();
  const mine = saved.all();
  const ids = Object.keys(mine).sort((a, b) => (mine[b].created || 0) - (mine[a].created || 0)).slice(0, 50);
  if (!ids.length) { recent.replaceChildren(h('p', { class: 'small' }, 'None yet.')); return; }
  try {
    const l = await api('GET', '/api/games?ids=' + ids.join(','));
    recent.replaceChildren(h('ul', { class: 'games' }, l.games.map((g) => {
      const over = g.state === 'over';
      const what = over ? (g.player ? `player ${g.player} won` : 'draw') : `player ${g.player} to ${g.state}`;
      const role = Object.keys(mine[g.id].tokens || {}).length ? '' : ' (watching)';
      return h('li', {},
        h('a', { href: '/g/' + g.id }, `${g.rules}, ${g.mode}${role}`), ` — ${g.moves} moves, ${what} `,
        over ? h('a', { href: `/g/${g.id}/review`, class: 'review-link' }, 'review') : null);
    })));
  } catch (e) {
    recent.replaceChildren(h('p', { class: 'error' }, e.message));
  }
}

// ---------------------------------------------------------------- game page
function describe(e) {
  if (e.throw != null) return `player ${e.player} threw ${e.throw}`;
  const k = (e.kinds || []).filter((x) => x !== 'step');
  return `player ${e.player} played ${e.move}` + (k.length ? ` (${k.join(', ')})` : '');
}

// Takes the seat a link's fragment offers: `#claim=CODE` claims an online game's invite
// (minting the seat's token for this browser only); `#seat=N&token=X` (links made before
// claim codes) adds that token. Neither replaces a token this browser holds without asking.
async function takeLink(id, el) {
  const frag = new URLSearchParams(location.hash.slice(1));
  if (!location.hash) return;
  history.replaceState(null, '', location.pathname);
  const held = saved.get(id).tokens || {};
  const ask = (text, yesLabel, noLabel) => new Promise((resolve) => {
    const yes = h('button', { id: 'ask-yes', class: 'primary' }, yesLabel);
    const no = h('button', { id: 'ask-no' }, noLabel);
    yes.addEventListener('click', () => { el.ask.replaceChildren(); resolve(true); });
    no.addEventListener('click', () => { el.ask.replaceChildren(); resolve(false); });
    el.ask.replaceChildren(h('div', { class: 'invite', id: 'ask' }, h('p', {}, text), h('div', { class: 'row' }, yes, no)));
  });
  const created = saved.get(id).created || Date.now();
  const code = frag.get('claim');
  if (code) {
    const mine = Object.keys(held);
    if (mine.length && !(await ask(`This browser already holds seat ${mine.join(' and ')} of this game. Claim the invited seat as well?`, 'Claim it as well', 'Keep my seat only'))) return;
    try {
      const r = await api('POST', `/api/games/${id}/claim`, { code });
      saved.put(id, { tokens: Object.assign({}, held, { [r.seat]: r.token }), created });
    } catch (e) {
      el.error.textContent = 'This invite link cannot be used: ' + e.message;
    }
    return;
  }
  const seat = frag.get('seat'), tok = frag.get('token');
  if (!tok || !/^[12]$/.test(seat || '') || held[seat] === tok) return;
  if (held[seat] && !(await ask(`This link carries another token for seat ${seat} than the one this browser holds. Replace yours with the link's?`, "Use the link's token", 'Keep mine'))) return;
  saved.put(id, { tokens: Object.assign({}, held, { [seat]: tok }), created });
}

async function gamePage(id) {
  const app = $('#app');
  const G = { id, state: null, events: [], busy: false, selected: null, hover: null, hint: null, retry: 0, msgs: [], verified: null };
  const el = {
    title: h('h2', { id: 'title' }),
    status: h('p', { id: 'status', class: 'status', role: 'status' }),
    conn: h('span', { id: 'conn', class: 'conn' }),
    invite: h('div', { id: 'invite' }),
    ask: h('div', { id: 'ask-box' }),
    series: h('div', { id: 'series', class: 'series' }),
    board: h('div', { class: 'board-wrap' }),
    notes: h('p', { id: 'notes', class: 'notes small' }),
    throwBtn: h('button', { id: 'throw', class: 'primary' }, 'Throw'),
    hintBtn: h('button', { id: 'hint' }, 'Hint'),
    barBox: h('label', { class: 'small bar-toggle' }),
    bar: h('div', { id: 'win-bar', class: 'win-bar' }),
    shown: h('div', { class: 'throw-box' }),
    moves: h('div', { id: 'moves', class: 'moves' }),
    news: h('ul', { id: 'news', class: 'news', 'aria-live': 'polite' }),
    error: h('p', { id: 'error', class: 'error', role: 'alert' }),
    result: h('div', { id: 'result' }),
    log: h('ol', { id: 'events', class: 'events' }),
    rules: h('details', { class: 'summary' }),
  };
  app.replaceChildren(
    h('div', { class: 'game' },
      h('div', { class: 'main' }, el.title, el.series, el.status, el.ask, el.invite, el.board, el.notes,
        h('div', { class: 'controls' }, el.throwBtn, el.shown, el.hintBtn, el.barBox), el.bar, el.moves, el.error, el.news, el.result),
      h('aside', { class: 'side' }, h('h3', {}, 'Moves ', el.conn), el.log,
        h('p', {}, h('a', { href: `/api/games/${id}/record`, id: 'download' }, 'Download the record'), ' · ',
          h('a', { href: `/g/${id}/review` }, 'Review'), ' · ', h('a', { href: '/' }, 'Lobby')),
        el.rules)));

  const tokens = () => saved.get(id).tokens || {};
  const mine = (p) => tokens()[p];
  const st = () => G.state.status;
  const myTurn = () => st().player != null && !!mine(st().player);
  const name = (p) => {
    const seat = G.state.seats[p - 1];
    const colour = G.state.sides[p - 1].name;
    if (seat.kind === 'bot') return `the bot (${seat.bot}, ${colour})`;
    if (mine(p) && G.state.mode !== 'hotseat') return `you (${colour})`;
    return `player ${p} (${colour})`;
  };

  function say(text) {
    G.msgs.push(text);
    G.msgs = G.msgs.slice(-5);
  }

  function absorb(u) {
    // A change: accept it only if it continues the events we hold.
    if (u.seq === G.state.seq && u.series) G.state.series = u.series; // the next game of a series was started
    if (u.seq <= G.state.seq) return;
    if (u.events_from > G.events.length) { refetch(); return; }
    const fresh = u.events.slice(G.events.length - u.events_from);
    G.events = G.events.concat(fresh);
    for (const e of fresh) say(describe(e).replace(/^player (\d)/, (_, p) => name(Number(p))));
    G.state = u;
    G.selected = null;
    G.hint = null;
  }

  async function refetch() {
    try {
      G.state = await api('GET', '/api/games/' + id);
      G.events = G.state.events;
      render();
    } catch (e) { el.error.textContent = e.message; }
  }

  async function act(kind, mv) {
    if (G.busy || !myTurn()) return;
    G.busy = true;
    el.error.textContent = '';
    const tok = mine(st().player);
    try {
      const u = kind === 'throw'
        ? await api('POST', `/api/games/${id}/throw`, { seq: G.state.seq }, tok)
        : await api('POST', `/api/games/${id}/move`, { move: mv, seq: G.state.seq }, tok);
      absorb(u);
    } catch (e) {
      el.error.textContent = e.message;
      if (e.status === 409) await refetch();
    } finally {
      G.busy = false;
      render();
    }
  }

  function play(from, to) {
    const ms = G.state.legal.filter((m) => m.from === from && (to === 'off' ? m.to_name === 'off' : m.to === to));
    if (ms.length === 1) act('move', ms[0].move);
    else { G.selected = from; render(); }
  }

  el.throwBtn.addEventListener('click', () => act('throw'));
  el.hintBtn.addEventListener('click', async () => {
    try {
      G.hint = await api('GET', `/api/games/${id}/hint`, undefined, mine(st().player));
      const m = G.state.legal.find((x) => x.move === G.hint.move);
      G.hint.from = m ? m.from : null;
      G.hint.to = m ? m.to : null;
      render();
    } catch (e) { el.error.textContent = e.message; }
  });

  function renderInvite() {
    const S = G.state;
    const present = S.watchers && S.watchers.seats;
    const creator = ['1', '2'].find((p) => mine(p));
    if (S.mode !== 'online' || !creator || st().state === 'over') { el.invite.replaceChildren(); return; }
    if (S.open_seat == null) {
      const other = 3 - Number(creator);
      const here = present && present[other - 1];
      el.invite.replaceChildren(here && !mine(String(other)) ? h('div', { class: 'invite' }, h('p', {}, 'Your friend is here.')) : '');
      return;
    }
    const inv = saved.get(id).invite;
    const renew = h('button', { id: 'invite-new' }, 'New invite link');
    renew.addEventListener('click', async () => {
      try {
        const r = await api('POST', `/api/games/${id}/invite`, undefined, mine(creator));
        saved.put(id, { invite: r.invite });
        G.state.invite_open = true;
        renderInvite();
      } catch (e) { el.error.textContent = e.message; }
    });
    if (!S.invite_open || !inv) {
      el.invite.replaceChildren(h('div', { class: 'invite' }, h('p', {}, 'No invite link is open for the other seat. '), renew));
      return;
    }
    const url = location.origin + inv;
    const input = h('input', { id: 'invite-link', readonly: true, value: url });
    const copy = h('button', {}, 'Copy');
    copy.addEventListener('click', async () => {
      input.select();
      try { await navigator.clipboard.writeText(url); copy.textContent = 'Copied'; } catch (e) { document.execCommand('copy'); }
    });
    const revoke = h('button', { id: 'invite-revoke' }, 'Revoke');
    revoke.addEventListener('click', async () => {
      try {
        await api('DELETE', `/api/games/${id}/invite`, undefined, mine(creator));
        saved.put(id, { invite: null });
        G.state.invite_open = false;
        renderInvite();
      } catch (e) { el.error.textContent = e.message; }
    });
    el.invite.replaceChildren(h('div', { class: 'invite' },
      h('p', {}, 'Waiting for your friend. Send this link; the first to open it takes the other seat (once):'),
      h('div', { class: 'row' }, input, copy, revoke)));
  }

  function statusText() {
    const s0 = st();
    if (s0.state === 'over') {
      if (s0.winner == null) return 'The game is a draw' + (s0.capped ? ' (turn cap reached).' : '.');
      const w = name(s0.winner);
      return (w.startsWith('you') ? 'You win' : `${w[0].toUpperCase()}${w.slice(1)} wins`) + (s0.capped ? ' (turn cap).' : '.');
    }
    const who = name(s0.player);
    const verb = s0.state === 'throw' ? 'throw' : `move with ${s0.throw}`;
    const lead = who.startsWith('you') ? `Your turn (${G.state.sides[s0.player - 1].name}): ${verb}` : `${who[0].toUpperCase()}${who.slice(1)} to ${verb}`;
    return lead + (myTurn() || G.state.seats[s0.player - 1].kind === 'bot' ? '.' : ' — waiting.');
  }

  function render() {
    const S = G.state;
    document.title = `Senet — ${S.rules_name}`;
    el.title.textContent = `${S.rules_name} · ${S.mode === 'bot' ? 'against a bot' : S.mode === 'hotseat' ? 'hot-seat' : 'online'}`;
    el.status.textContent = statusText() + (Object.keys(tokens()).length ? '' : ' You are watching.');
    el.status.dataset.state = st().state;
    el.status.dataset.seq = S.seq;
    renderInvite();
    const mayMove = myTurn() && st().state === 'move' && !G.busy;
    el.board.replaceChildren(drawBoard(S.view, {
      legal: mayMove ? S.legal : [],
      selected: G.selected,
      hover: G.hover,
      hint: G.hint,
      onPiece: (sq) => { G.selected = G.selected === sq ? null : sq; render(); },
      onTarget: (to) => play(G.selected != null ? G.selected : G.hover, to),
      onHover: (sq) => { if (G.hover !== sq) { G.hover = sq; render(); } },
    }));
    el.notes.replaceChildren(...(S.view.notes || []).map(([k, v]) => h('span', { class: 'note' }, h('b', {}, k + ': '), v)));
    el.throwBtn.disabled = !(myTurn() && st().state === 'throw') || G.busy;
    el.throwBtn.hidden = st().state === 'over' || Object.keys(tokens()).length === 0;
    el.hintBtn.hidden = !mayMove;
    const lastThrow = [...G.events].reverse().find((e) => e.throw != null);
    el.shown.replaceChildren(
      h('span', { class: 'small' }, st().state === 'move' ? 'In hand: ' : 'Last throw: '),
      drawThrow(st().state === 'move' ? st().throw : lastThrow && lastThrow.throw),
      h('span', { class: 'small outcomes' }, S.throws.length ? ' can show ' + S.throws.map((t) => t[0]).join(', ') : ''));
    el.moves.replaceChildren();
    if (mayMove) {
      const sel = S.legal.filter((m) => G.selected == null || m.from === G.selected || m.from == null);
      el.moves.append(h('span', { class: 'small' }, S.legal.length === 1 && S.legal[0].from == null ? 'No legal move: ' : 'Moves: '));
      for (const m of sel) {
        const extra = m.kinds.filter((k) => k !== 'step');
        const val = G.hint && (G.hint.moves || []).find((x) => x.move === m.move);
        const b = h('button', { class: 'move-btn' + (G.hint && G.hint.move === m.move ? ' hinted' : ''), 'data-move': m.move },
          m.from == null ? 'forfeit the throw (pass)' : m.move + (m.die ? ` [${m.die}]` : ''), extra.length ? h('small', {}, ' ' + extra.join(', ')) : null,
          val ? h('small', { class: 'win' }, ` ${(val.win * 100).toFixed(1)}%`) : null);
        b.addEventListener('click', () => act('move', m.move));
        el.moves.append(b);
      }
      if (G.hint) {
        const chance = G.hint.score == null ? '' : `, your winning chance about ${Math.round(G.hint.score * 100)}%`;
        el.moves.append(h('span', { class: 'small', id: 'hint-text' }, ` Hint (${G.hint.level} bot): ${G.hint.move}${chance}; beside each move, your winning chance after it`));
      }
    }
    renderBar();
    el.news.replaceChildren(...G.msgs.map((m) => h('li', {}, m)));
    el.log.replaceChildren(...turns(G.events).map((t) => h('li', {}, t)));
    el.log.scrollTop = el.log.scrollHeight;
    renderResult();
    renderSeries(G, el.series, tokens());
  }

  // The optional win-chance bar (issue 19): in games against a bot (on by default) and
  // hot-seat (off by default); never in an online game.
  function renderBar() {
    const S = G.state;
    if (S.mode === 'online') { el.barBox.replaceChildren(); el.bar.replaceChildren(); return; }
    if (!el.barBox.firstChild) {
      const cb = h('input', { type: 'checkbox', id: 'show-bar' });
      const pref = localStorage.getItem('senet.bar.' + S.mode);
      cb.checked = pref == null ? S.mode === 'bot' : pref === '1';
      cb.addEventListener('change', () => { localStorage.setItem('senet.bar.' + S.mode, cb.checked ? '1' : '0'); G.barAt = null; renderBar(); });
      el.barBox.replaceChildren(cb, ' win chance');
    }
    const on = $('#show-bar', el.barBox).checked;
    el.bar.hidden = !on;
    if (!on || G.barAt === S.seq) return;
    G.barAt = S.seq;
    const seq = S.seq;
    api('POST', '/api/value', { position: S.position }).then((v) => {
      if (G.state.seq !== seq) return;
      const p1 = v.first;
      const side = (i) => G.state.sides[i].name;
      const fill = h('div', { class: 'win-fill' });
      fill.style.width = `${(p1 * 100).toFixed(1)}%`; // CSSOM: the page's CSP allows no inline styles
      el.bar.replaceChildren(fill,
        h('span', { class: 'win-text' }, `${side(0)} ${(p1 * 100).toFixed(0)}% · ${(100 - p1 * 100).toFixed(0)}% ${side(1)}`));
      el.bar.dataset.first = p1.toFixed(4);
    }).catch(() => { G.barAt = null; });
  }

  function renderResult() {
    if (st().state !== 'over') { el.result.replaceChildren(); return; }
    const sc = st().score ? h('p', {}, `Score: ${st().score[0]} – ${st().score[1]}`) : null;
    const ver = h('p', { id: 'verify', class: 'verify' }, 'Checking the throws…');
    el.result.replaceChildren(h('div', { class: 'result' },
      h('h3', { id: 'result-text' }, statusText()), sc,
      h('p', {}, h('a', { href: `/g/${id}/review` }, 'Review the game'), ' · ', h('a', { href: `/api/games/${id}/record` }, 'download its record'),
        ' (replay it with ', h('code', {}, 'senet replay FILE'), ')'),
      ver, verifyHelp(), h('p', {}, h('a', { href: '/' }, 'New game'))));
    showVerification(id, ver, G);
  }

  function connect() {
    const tok = mine(1) || mine(2);
    const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + `/api/games/${id}/ws` + (tok ? '?token=' + encodeURIComponent(tok) : '');
    const ws = new WebSocket(url);
    ws.onopen = () => { G.retry = 0; el.conn.textContent = '● live'; el.conn.className = 'conn live'; };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m.type === 'state') { G.state = m; G.events = m.events; render(); }
      else if (m.type === 'update') { absorb(m); render(); }
      else if (m.type === 'presence') { G.state.watchers = m.watchers; renderInvite(); }
      else if (m.type === 'invite') {
        G.state.invite_open = m.open;
        if (m.claimed) G.state.open_seat = null;
        renderInvite();
      }
      else if (m.type === 'resync') refetch();
    };
    ws.onclose = () => {
      el.conn.textContent = '○ reconnecting';
      el.conn.className = 'conn';
      setTimeout(connect, Math.min(10000, 500 * 2 ** G.retry++));
    };
  }

  try {
    G.state = await api('GET', '/api/games/' + id);
  } catch (e) {
    app.replaceChildren(h('p', { class: 'error' }, e.message), h('a', { href: '/' }, 'Back to the lobby'));
    return;
  }
  G.events = G.state.events;
  paintSides(el.board, G.state.sides);
  if (!saved.get(id).seed_hash) saved.put(id, { seed_hash: G.state.seed_hash, rules: G.state.rules, mode: G.state.mode, created: saved.get(id).created || Date.now() });
  catalogue().then((c) => {
    const r = c.rules.find((x) => x.id === G.state.rules);
    if (r) el.rules.replaceChildren(h('summary', {}, 'Rules summary'), rulesSummary(r));
  }).catch(() => {});
  render();
  await takeLink(id, el);
  render();
  connect();
}

// Groups events into turns: "1: threw 4, 10-14 (bonus throw)".
function turns(events) {
  const out = [];
  let cur = null, p = null;
  for (const e of events) {
    if (e.throw != null && (cur == null || e.player !== p || cur.done)) {
      if (cur) out.push(cur.text);
      cur = { text: `P${e.player}: ${e.throw}`, done: false };
      p = e.player;
    } else if (e.throw != null) {
      cur.text += `, ${e.throw}`;
    } else {
      const k = (e.kinds || []).filter((x) => x !== 'step');
      if (!cur) cur = { text: `P${e.player}:` };
      cur.text += ` ${e.move}` + (k.length ? ` (${k.join(', ')})` : '');
      cur.done = !e.turn_continues;
    }
  }
  if (cur) out.push(cur.text);
  return out;
}

function verifyHelp() {
  return h('details', { class: 'small' }, h('summary', {}, 'How the throws are checked'),
    h('p', {}, 'The server throws, not your browser. When the game started it published the SHA-256 hash of ',
      h('code', {}, 'senet-seed:SEED'), ', where SEED is a secret number. Now that the game is over it reveals SEED. ',
      'Throw number i (from 0) is the outcome at position floor(r × total ÷ 2³²) along the cumulative weights of the throw\'s ',
      'distribution, where r is the first four bytes of SHA-256(', h('code', {}, 'senet-throw:SEED:i'), '). ',
      'This page recomputes every throw from the revealed seed; since the hash was fixed before the first throw, ',
      'no throw can have been changed. You can do the same with any SHA-256 tool.'));
}

async function showVerification(id, target, G) {
  try {
    const t = await api('GET', `/api/games/${id}/throws`);
    const v = verifyThrows(t, saved.get(id).seed_hash);
    target.textContent = (v.ok ? '✔ ' : '✘ ') + v.text;
    target.className = 'verify ' + (v.ok ? 'ok' : 'bad');
    if (G) G.verified = v.ok;
  } catch (e) {
    target.textContent = 'Could not check the throws: ' + e.message;
  }
}

// ---------------------------------------------------------------- review
const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const pct = (x, d = 1) => `${(x * 100).toFixed(d)}%`;

// The win-chance graph of an analysis (issue 19): player 1's winning chance after every event,
// the marked decisions as dots, a cursor at `at`; a click picks the nearest event.
function drawGraph(an, total, at, onPick) {
  const W = 640, H = 150, L = 34, R = 6, T = 8, B = 16;
  const x = (i) => L + (W - L - R) * (total ? i / total : 0);
  const y = (p) => T + (H - T - B) * (1 - p);
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'graph', id: 'win-graph', role: 'img', 'aria-label': "player 1's winning chance over the game" });
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(s('line', { x1: L, x2: W - R, y1: y(p), y2: y(p), class: p === 0.5 ? 'axis mid' : 'axis' }));
    svg.append(s('text', { x: L - 4, y: y(p) + 4, 'text-anchor': 'end', class: 'tick' }, `${p * 100}%`));
  }
  const pts = [[0, an.start]].concat(an.notes.map((n) => [n.event + 1, n.first]));
  svg.append(s('polyline', { points: pts.map(([i, p]) => `${x(i).toFixed(1)},${y(p).toFixed(1)}`).join(' '), class: 'curve' }));
  for (const n of an.notes) {
    if (n.kind !== 'move' || !n.mark) continue;
    const c = s('circle', { cx: x(n.event + 1), cy: y(n.first), r: n.mark === 'blunder' ? 5 : 4, class: 'dot ' + n.mark, 'data-at': n.event + 1 });
    c.append(s('title', {}, `P${n.player} ${n.played} ${MARKS[n.mark]} lost ${pct(n.loss)} (best ${n.best})`));
    svg.append(c);
  }
  svg.append(s('line', { x1: x(at), x2: x(at), y1: T, y2: H - B, class: 'cursor', id: 'graph-cursor' }));
  svg.append(s('text', { x: L, y: H - 2, class: 'tick' }, 'start'));
  svg.append(s('text', { x: W - R, y: H - 2, 'text-anchor': 'end', class: 'tick' }, `event ${total}`));
  svg.addEventListener('click', (e) => {
    const r = svg.getBoundingClientRect();
    const fx = ((e.clientX - r.left) / r.width) * W;
    onPick(Math.max(0, Math.min(total, Math.round(((fx - L) / (W - L - R)) * total))));
  });
  return svg;
}

// Each player's figures, side by side.
function analysisSummary(an, sides) {
  const rows = [
    ['decisions with a real choice', (p) => p.choices],
    ['winning chance lost', (p) => pct(p.lost)],
    ['lost per real choice', (p) => pct(p.lost_per_choice, 2)],
    ['error rate (gnubg mEMG)', (p) => p.error_rate.toFixed(1)],
    ['inaccuracies ?! / mistakes ? / blunders ??', (p) => `${p.inaccuracies} / ${p.mistakes} / ${p.blunders}`],
    ['luck', (p) => (p.luck >= 0 ? '+' : '') + pct(p.luck)],
    ['result', (p) => pct(p.result, 0)],
    ['luck-adjusted result', (p) => pct(p.luck_adjusted)],
    ['plays like', (p) => p.band || '–'],
  ];
  return h('table', { class: 'summary-table', id: 'analysis-summary' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), ...an.players.map((p) => h('th', {}, `Player ${p.player} (${sides[p.player - 1].name})`)))),
    h('tbody', {}, ...rows.map(([label, f]) => h('tr', {}, h('th', {}, label), ...an.players.map((p) => h('td', {}, String(f(p))))))));
}

async function reviewPage(id) {
  const app = $('#app');
  let st;
  try { st = await api('GET', '/api/games/' + id); } catch (e) {
    app.replaceChildren(h('p', { class: 'error' }, e.message), h('a', { href: '/' }, 'Back to the lobby'));
    return;
  }
  document.title = `Senet — review — ${st.rules_name}`;
  const total = st.seq;
  const frames = new Map();
  let at = 0;
  let an = null;
  const notes = new Map(); // event index -> analysis note
  const board = h('div', { class: 'board-wrap' });
  paintSides(board, st.sides);
  const what = h('p', { id: 'review-event', class: 'status' });
  const verdict = h('p', { id: 'review-verdict', class: 'verdict' });
  const graphBox = h('div', { id: 'graph-box', class: 'graph-box' });
  const summaryBox = h('div', { id: 'summary-box' });
  const slider = h('input', { type: 'range', min: 0, max: total, value: 0, id: 'review-slider' });
  const pos = h('code', { id: 'review-position', class: 'small' });
  const btn = (label, idn, f) => { const b = h('button', { id: idn }, label); b.addEventListener('click', f); return b; };
  const list = h('ol', { class: 'events', id: 'review-events' }, st.events.map((e, i) => {
    const li = h('li', { 'data-at': i + 1 }, describe(e));
    li.addEventListener('click', () => go(i + 1));
    return li;
  }));
  async function frame(n) {
    if (!frames.has(n)) frames.set(n, await api('GET', `/api/games/${id}/review?at=${n}`));
    return frames.get(n);
  }
  const square = (f, mv) => {
    const m = (f.legal || []).find((x) => x.move === mv);
    return m ? { from: m.from, to: m.to_name === 'off' ? 'off' : m.to } : null;
  };
  async function go(n) {
    at = Math.max(0, Math.min(total, n));
    slider.value = at;
    const f = await frame(at);
    const note = notes.get(at - 1);
    // A decision: the position before it, the move played (blue) beside the best (gold).
    const before = note && note.kind === 'move' ? await frame(at - 1) : null;
    if (Number(slider.value) !== at) return;
    const shown = before || f;
    const ui = before ? { played: square(before, note.played), hint: note.best !== note.played ? square(before, note.best) : null } : {};
    board.replaceChildren(drawBoard(shown.view, ui), h('p', { class: 'notes small' },
      (shown.view.notes || []).map(([k, v]) => h('span', { class: 'note' }, h('b', {}, k + ': '), v))));
    what.textContent = `Event ${at} of ${total}: ` + (f.event ? describe(f.event) : 'the start position');
    verdict.replaceChildren();
    if (note && note.kind === 'move') {
      const best = note.best === note.played ? 'the best move' : `best was ${note.best} (gold), ${pct(note.before)}`;
      verdict.append(h('b', {}, `${note.played}${note.mark ? ' ' + MARKS[note.mark] : ''}`),
        ` (blue): winning chance ${pct(note.after)} for player ${note.player}` + (note.loss >= 0.0005 ? `, lost ${pct(note.loss)}; ${best}` : `; ${best}`) + '.');
    } else if (note && note.kind === 'throw') {
      verdict.append(`Player ${note.player} threw ${note.throw}: luck ${(note.luck >= 0 ? '+' : '') + pct(note.luck)} (winning chance ${pct(note.before)} before, ${pct(note.after)} after).`);
    } else if (an && at === 0) {
      verdict.append(`Player 1's winning chance at the start: ${pct(an.start)}.`);
    }
    pos.textContent = (before ? 'Before the move: ' : '') + shown.position;
    for (const li of list.children) li.classList.toggle('current', Number(li.dataset.at) === at);
    if (an) graphBox.replaceChildren(drawGraph(an, total, at, go));
  }
  function showAnalysis(a) {
    an = a;
    for (const n of a.notes) notes.set(n.event, n);
    for (const li of list.children) {
      const n = notes.get(Number(li.dataset.at) - 1);
      if (!n) continue;
      if (n.kind === 'move' && n.mark) {
        li.classList.add('marked', n.mark);
        li.append(h('span', { class: 'mark ' + n.mark }, ` ${MARKS[n.mark]} −${pct(n.loss)}`));
      } else if (n.kind === 'move' && n.loss >= 0.0005) {
        li.append(h('span', { class: 'small loss' }, ` −${pct(n.loss)}`));
      } else if (n.kind === 'throw') {
        li.append(h('span', { class: 'small luck' }, ` luck ${(n.luck >= 0 ? '+' : '') + pct(n.luck)}`));
      }
    }
    summaryBox.replaceChildren(h('h3', {}, 'The players'), analysisSummary(a, st.sides),
      h('p', { class: 'small' }, `Analysed by expectimax ${a.depth} throws deep with the expert evaluator; marks from `,
        '2% (?!), 5% (?), 10% (??) of winning chance lost. ', h('a', { href: `/api/games/${id}/analysis` }, 'The analysis as JSON'), '.'));
    go(at);
  }
  async function loadAnalysis() {
    graphBox.replaceChildren(h('p', { class: 'small', id: 'analysis-progress' }, 'Analysing the game…'));
    for (;;) {
      let r;
      try { r = await api('GET', `/api/games/${id}/analysis`); } catch (e) {
        graphBox.replaceChildren(h('p', { class: 'error', id: 'analysis-progress' }, 'No analysis: ' + e.message));
        return;
      }
      if (r.status === 'done') { showAnalysis(r.analysis); return; }
      const p = $('#analysis-progress', graphBox);
      if (p) p.textContent = r.done ? `Analysing the game… ${r.done} of ${r.total} events` : 'Analysing the game… (waiting for a free slot)';
      await new Promise((ok) => setTimeout(ok, 400));
    }
  }
  slider.addEventListener('input', () => go(Number(slider.value)));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight') go(at + 1);
    if (e.key === 'ArrowLeft') go(at - 1);
  });
  const over = st.status.state === 'over';
  const ver = h('p', { id: 'verify', class: 'verify' }, over ? 'Checking the throws…' : 'The seed is revealed when the game is over.');
  app.replaceChildren(h('div', { class: 'game' },
    h('div', { class: 'main' },
      h('h2', {}, `Review: ${st.rules_name}`),
      graphBox, what, verdict, board,
      h('div', { class: 'controls' }, btn('⏮', 'review-first', () => go(0)), btn('◀', 'review-prev', () => go(at - 1)),
        slider, btn('▶', 'review-next', () => go(at + 1)), btn('⏭', 'review-last', () => go(total))),
      pos, summaryBox,
      h('p', {}, h('a', { href: `/api/games/${id}/record`, id: 'download' }, 'Download the record'),
        ': every throw and move; check it with ', h('code', {}, 'senet replay FILE'), '.'),
      ver, verifyHelp()),
    h('aside', { class: 'side' }, h('h3', {}, 'Events'), list, h('p', {}, h('a', { href: '/g/' + id }, 'Game page'), ' · ', h('a', { href: '/' }, 'Lobby')))));
  await go(0);
  if (over) {
    showVerification(id, ver, null);
    loadAnalysis();
  } else {
    graphBox.replaceChildren(h('p', { class: 'small', id: 'analysis-progress' }, 'The analysis is made once the game is over.'));
  }
}

// ---------------------------------------------------------------- series (issue 13)
// The lobby's choice between a single game and a series to N.
function seriesChoice() {
  const kind = (v, label, checked) => h('label', { class: 'mode' }, h('input', { type: 'radio', name: 'play', value: v, checked }), ' ', label);
  const n = h('input', { type: 'number', id: 'series-n', min: 1, max: 100000, value: 3 });
  const unit = h('select', { id: 'series-unit' }, h('option', { value: 'points' }, 'points (games won where the rules do not score)'), h('option', { value: 'games' }, 'games in all'));
  const starts = h('select', { id: 'series-starts' }, h('option', { value: 'alternate' }, 'alternating'), h('option', { value: 'rules' }, "by the rule set's own start rule"));
  const box = h('fieldset', { class: 'modes', id: 'play-kind' }, h('legend', {}, 'Play'),
    kind('single', 'a single game', true), h('br'),
    kind('series', 'a series to '), n, ' ', unit, h('br'),
    h('label', { class: 'row' }, h('span', {}, 'Who starts each game'), starts));
  return {
    box,
    apply(body) {
      const k = box.querySelector('input[name=play]:checked');
      if (!k || k.value !== 'series') return;
      body.series = { [unit.value]: Number(n.value) };
      body.starts = starts.value;
    },
  };
}

// Series seat (1 or 2) -> how to call it on this page.
function seatName(S, seat, tokens) {
  const x = S.series.seats[seat - 1];
  if (x.kind === 'bot') return `the bot (${x.bot})`;
  if (tokens[x.player] && S.mode !== 'hotseat') return 'you';
  return `seat ${seat}`;
}

// The series line of the game page, and at the end of a game "next game" or the series result.
function renderSeries(G, box, tokens) {
  const S = G.state;
  const sr = S.series;
  if (!sr) { box.replaceChildren(); return; }
  const target = sr.target.points != null ? `to ${sr.target.points} points` : `of ${sr.target.games} games`;
  const over = S.status.state === 'over';
  const line = h('p', { id: 'series-score' },
    h('b', {}, `Series ${target} · game ${sr.game}`), ' · ',
    `${seatName(S, 1, tokens)} ${sr.score[0]} – ${sr.score[1]} ${seatName(S, 2, tokens)}`,
    over && sr.points ? ` (this game: ${sr.points[0]} – ${sr.points[1]})` : '');
  const kids = [line];
  const mineAny = tokens['1'] || tokens['2'];
  if (over && sr.over) {
    const w = sr.winner == null ? 'The series is drawn' : `${seatName(S, sr.winner, tokens)} won the series`.replace(/^you won/, 'You won').replace(/^the bot/, 'The bot').replace(/^seat/, 'Seat');
    kids.push(h('p', { id: 'series-result', class: 'result' }, `${w} ${sr.score[0]} – ${sr.score[1]}. `,
      h('a', { href: '/s/' + sr.id, id: 'series-page' }, 'Series result'), ' · ',
      h('a', { href: `/api/series/${sr.id}/record` }, 'download the series record')));
  } else if (over && mineAny) {
    const b = h('button', { id: 'next-game', class: 'primary' }, sr.next ? 'Go to the next game' : 'Next game');
    b.addEventListener('click', () => nextGame(G.id, S, tokens, b));
    kids.push(h('p', {}, b, sr.next ? ' Your opponent has started it.' : ''));
  } else if (over && sr.next) {
    kids.push(h('p', {}, h('a', { href: '/g/' + sr.next, id: 'next-game-link' }, 'Watch the next game')));
  }
  box.replaceChildren(...kids);
}

async function nextGame(id, S, tokens, button) {
  button.disabled = true;
  const mineP = ['1', '2'].filter((p) => tokens[p]);
  try {
    const n = await api('POST', `/api/games/${id}/next`, { seq: S.seq }, tokens[mineP[0]]);
    // The caller's token plays `n.seat` in the new game; a second token (hot-seat) the other.
    const t = {};
    t[n.seat] = tokens[mineP[0]];
    if (mineP.length > 1) t[3 - n.seat] = tokens[mineP[1]];
    saved.put(n.id, { tokens: t, seed_hash: n.state.seed_hash, rules: S.rules, mode: S.mode, created: Date.now(), series: n.series });
    location.href = '/g/' + n.id;
  } catch (e) {
    button.disabled = false;
    button.after(h('span', { class: 'error' }, ' ' + e.message));
  }
}

// The series result page: every game with its points and the running score.
async function seriesPage(sid) {
  const S = await api('GET', '/api/series/' + sid);
  document.title = 'Senet — series';
  const target = S.target.points != null ? `to ${S.target.points} points` : `of ${S.target.games} games`;
  const who = (seat) => {
    const x = S.seats[seat - 1];
    return x.kind === 'bot' ? `the bot (${x.bot})` : `seat ${seat}`;
  };
  const result = S.over
    ? (S.winner == null ? `Drawn series ${S.score[0]} – ${S.score[1]}` : `${who(S.winner)} won the series ${S.score[0]} – ${S.score[1]}`)
    : `Series going on: ${S.score[0]} – ${S.score[1]} after ${S.finished} games`;
  const rows = S.games.map((g) => h('tr', {},
    h('td', {}, h('a', { href: '/g/' + g.id }, String(g.game))),
    h('td', {}, who(g.first)),
    h('td', {}, g.state === 'over' ? (g.winner == null ? 'draw' : who(g.winner)) : 'playing'),
    h('td', {}, g.points ? `${g.points[0]} – ${g.points[1]}` : ''),
    h('td', {}, `${g.score[0]} – ${g.score[1]}`)));
  $('#app').replaceChildren(h('section', { class: 'panel', id: 'series-summary' },
    h('h2', {}, `Series ${target} · ${S.rules}`),
    h('p', { id: 'series-final' }, result[0].toUpperCase() + result.slice(1) + '.'),
    h('p', { class: 'small' }, S.scores ? "Points are the rule set's score of each game." : 'A point is a game won.'),
    h('table', { class: 'series-table' },
      h('thead', {}, h('tr', {}, h('th', {}, 'game'), h('th', {}, 'first player'), h('th', {}, 'winner'), h('th', {}, 'points'), h('th', {}, 'score'))),
      h('tbody', {}, rows)),
    h('p', {}, h('a', { href: `/api/series/${sid}/record` }, 'Download the series record'), ' (check it with ', h('code', {}, 'senet replay FILE'), ') · ', h('a', { href: '/' }, 'Lobby'))));
}

// ---------------------------------------------------------------- routing
function route() {
  const p = location.pathname;
  let m = p.match(/^\/g\/([A-Za-z0-9]+)\/review$/);
  const done = (x) => x.catch((e) => { $('#app').replaceChildren(h('p', { class: 'error' }, String(e.message || e))); });
  if (m) return done(reviewPage(m[1]));
  m = p.match(/^\/g\/([A-Za-z0-9]+)$/);
  if (m) return done(gamePage(m[1]));
  m = p.match(/^\/s\/([A-Za-z0-9]+)$/);
  if (m) return done(seriesPage(m[1]));
  return done(lobby());
}

if (typeof document !== 'undefined') route();
if (typeof module !== 'undefined') module.exports = { sha256, hex, verifyThrows, turns };
