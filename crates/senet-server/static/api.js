// The server's JSON API (/api/openapi.json), this browser's saved games and the rule sets.

export async function api(method, path, body, token) {
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
