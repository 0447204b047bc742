// senet's service worker (issue 54): keeps the page, its scripts, its engine and the rule
// sets in this browser, so that the page opens and a bot or hot-seat game is played to its
// end with the server out of reach (local.js keeps such a game and uploads it later). Served
// at /sw.js by the server, which fills in the version (a hash of everything listed) and the
// list: a new server build installs a new cache and drops the old one.
//
// - /static/*: from the cache, which was filled at install (they change only with the version).
// - Pages (navigations to the page's routes), /api/rules and /api/rules/ID, the manifest: from
//   the network, kept for later; from the cache when the network fails (every page is the one
//   HTML page, routed by its script).
// - Everything else (the API, WebSockets, records): the network only, never a stale answer.

const VERSION = '__VERSION__';
const ASSETS = __ASSETS__;
const CACHE = 'senet-' + VERSION;
const PAGES = /^\/($|g\/|l\/|s\/|rules\/|p\/|leaderboard\/|puzzles|tournaments)/;

self.addEventListener('install', (ev) => {
  ev.waitUntil((async () => {
    const c = await caches.open(CACHE);
    await c.addAll(ASSETS.map((u) => new Request(u, { cache: 'reload' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (ev) => {
  ev.waitUntil((async () => {
    for (const k of await caches.keys()) if (k.startsWith('senet-') && k !== CACHE) await caches.delete(k);
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (ev) => {
  const req = ev.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (req.mode === 'navigate' && PAGES.test(path)) ev.respondWith(fresh(req, '/'));
  else if (path.startsWith('/static/')) ev.respondWith(kept(req));
  else if (path === '/api/rules' || path.startsWith('/api/rules/') || path === '/manifest.webmanifest') ev.respondWith(fresh(req));
});

async function kept(req) {
  const hit = await caches.match(req, { cacheName: CACHE, ignoreSearch: true });
  return hit || fetch(req);
}

// The network's answer (kept, under `as` when given), or the kept one when there is none.
async function fresh(req, as) {
  try {
    const r = await fetch(req);
    const type = r.headers.get('Content-Type') || '';
    if (r.ok && (!as || type.startsWith('text/html'))) {
      const copy = r.clone();
      caches.open(CACHE).then((c) => c.put(as || req, copy));
    }
    return r;
  } catch (e) {
    const hit = await caches.match(as || req, { cacheName: CACHE, ignoreSearch: !!as });
    if (hit) return hit;
    throw e;
  }
}
