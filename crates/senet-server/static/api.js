// The server's JSON API (/api/openapi.json), this browser's saved games and the rule sets.

// 503 means the server is busy (its database is out of reach for a moment), not broken: the
// request is sent again after the Retry-After the server gives, a few times, while a calm
// notice at the top of the page says so. A change (throw, move) carries its seq, so a retry
// of one that did go through is refused as stale (409), never played twice.
const BUSY_TRIES = 6;
export const BUSY_NOTICE = 'The server is busy just now; retrying…';
export const BUSY_GAVE_UP = 'The server is busy just now. Nothing was lost: try again in a moment.';

function busyNotice(on) {
  let n = document.getElementById('busy');
  if (!n && on) {
    n = document.createElement('p');
    n.id = 'busy';
    n.className = 'busy';
    n.setAttribute('role', 'status');
    const app = document.getElementById('app');
    if (app) app.before(n); else document.body.prepend(n);
  }
  if (!n) return;
  n.textContent = on ? BUSY_NOTICE : '';
  n.hidden = !on;
}

let busyCalls = 0;

// The session's CSRF token (`csrf` of GET /api/me, issue 33): every write the page makes
// carries it, so that a write authenticated by the session cookie is known to come from this
// page. (A write with a seat token carries it too; the server needs none there.)
let CSRF = null;
export function setCsrf(token) { CSRF = token || null; }

export async function api(method, path, body, token, extra) {
  const opt = Object.assign({ method, headers: {} }, extra || {});
  if (body !== undefined) {
    opt.headers['Content-Type'] = 'application/json';
    opt.body = JSON.stringify(body);
  }
  if (token) opt.headers.Authorization = 'Bearer ' + token;
  if (method !== 'GET' && method !== 'HEAD' && CSRF) opt.headers['X-CSRF-Token'] = CSRF;
  let r;
  let waited = false;
  try {
    for (let tries = 1; ; tries++) {
      r = await fetch(path, opt);
      if (r.status !== 503 || tries >= BUSY_TRIES) break;
      if (!waited) { waited = true; busyCalls++; }
      busyNotice(true);
      const secs = Math.min(10, Math.max(1, Number(r.headers.get('Retry-After')) || 2));
      await new Promise((ok) => setTimeout(ok, secs * 1000));
    }
  } finally {
    if (waited && --busyCalls === 0) busyNotice(false);
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    const msg = r.status === 503 ? BUSY_GAVE_UP : (data && data.error) || 'HTTP ' + r.status;
    const err = new Error(msg);
    err.status = r.status;
    throw err;
  }
  return data;
}

// Games this browser created, joined or watched: id -> {tokens, invite, seed_hash, ...}.
export const saved = {
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
export async function catalogue() {
  if (!CATALOGUE) CATALOGUE = await api('GET', '/api/rules');
  return CATALOGUE;
}
