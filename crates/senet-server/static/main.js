// senet web app: lobby, game page, review and rules pages, drawn from the server's JSON API
// (/api/openapi.json); players' pages and the leaderboard (issue 33); puzzles and tournaments
// (issue 57). The page knows no rule: the board comes from the game's `view`, the moves from
// `legal`, what happened from each event's `kinds`. Loaded as an ES module; each page lives
// in its own module.

import { $, h } from './dom.js';
import { lobby } from './lobby.js';
import { gamePage } from './game.js';
import { reviewPage } from './review.js';
import { seriesPage } from './series.js';
import { rulesPage } from './rules.js';
import { soundPrefs, setSoundPrefs, play } from './sound.js';
import { loadMe, renderHeader } from './me.js';
import { playerPage, leaderboardPage } from './players.js';
import { puzzlesPage } from './puzzles.js';
import { tournamentsPage, tournamentPage } from './tournaments.js';

// The theme: the one chosen on this page (kept), else the system's.
const THEME = 'senet.theme';
const dark = window.matchMedia('(prefers-color-scheme: dark)');
function theme() {
  let t = null;
  try { t = localStorage.getItem(THEME); } catch (e) { t = null; }
  return t === 'dark' || t === 'light' ? t : dark.matches ? 'dark' : 'light';
}
function applyTheme() {
  document.documentElement.dataset.theme = theme();
  const b = $('#theme-btn');
  if (b) {
    b.setAttribute('aria-pressed', String(theme() === 'dark'));
    b.replaceChildren(themeIcon(), h('span', {}, 'Dark theme'));
  }
}
function themeIcon() {
  // A sun or a crescent moon, drawn.
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 20 20');
  svg.setAttribute('class', 'icon');
  svg.setAttribute('aria-hidden', 'true');
  const p = document.createElementNS(ns, 'path');
  p.setAttribute('d', theme() === 'dark' ? 'M13 3 A7 7 0 1 0 17 13 A6 6 0 0 1 13 3 Z' : 'M10 5 A5 5 0 1 1 9.99 5 Z M10 0 L10 3 M10 17 L10 20 M0 10 L3 10 M17 10 L20 10');
  svg.append(p);
  return svg;
}

function settings() {
  const box = $('#settings');
  if (!box) return;
  const themeBtn = h('button', { id: 'theme-btn', class: 'setting', title: 'Switch between the light and dark themes' });
  themeBtn.addEventListener('click', () => {
    try { localStorage.setItem(THEME, theme() === 'dark' ? 'light' : 'dark'); } catch (e) { /* private mode */ }
    applyTheme();
  });
  const sp = soundPrefs();
  const soundBtn = h('button', { id: 'sound-btn', class: 'setting', 'aria-pressed': String(sp.on), title: 'Sounds (off until turned on)' }, 'Sound');
  const vol = h('input', { type: 'range', id: 'volume', min: 0, max: 100, value: Math.round(sp.volume * 100), 'aria-label': 'Volume' });
  const volBox = h('label', { class: 'volume', hidden: !sp.on }, h('span', { class: 'visually-hidden' }, 'Volume'), vol);
  soundBtn.addEventListener('click', () => {
    const p = soundPrefs();
    p.on = !p.on;
    setSoundPrefs(p);
    soundBtn.setAttribute('aria-pressed', String(p.on));
    volBox.hidden = !p.on;
    if (p.on) play('land');
  });
  vol.addEventListener('change', () => {
    const p = soundPrefs();
    p.volume = Number(vol.value) / 100;
    setSoundPrefs(p);
    play('land');
  });
  box.replaceChildren(themeBtn, soundBtn, volBox);
  applyTheme();
}

applyTheme();
dark.addEventListener('change', applyTheme);
settings();

async function route() {
  // Who this browser is (issue 33): before any page, whose writes carry the session's CSRF
  // token. A server that cannot say leaves the page working without a name.
  // The page's engine (issue 54) loads in the background on the pages that use it (the
  // lobby, a bot, hot-seat or local game, a review); the page works meanwhile.
  await loadMe();
  renderHeader();
  const p = location.pathname;
  let m = p.match(/^\/g\/([A-Za-z0-9]+)\/review$/);
  const done = (x) => x.catch((e) => { $('#app').replaceChildren(h('p', { class: 'error' }, String(e.message || e))); });
  if (m) return done(reviewPage(m[1]));
  m = p.match(/^\/g\/([A-Za-z0-9]+)$/);
  if (m) return done(gamePage(m[1]));
  m = p.match(/^\/l\/([a-f0-9]+)$/);
  if (m) return done(gamePage(m[1], true));
  m = p.match(/^\/s\/([A-Za-z0-9]+)$/);
  if (m) return done(seriesPage(m[1]));
  m = p.match(/^\/rules\/([A-Za-z0-9_]+)$/);
  if (m) return done(rulesPage(m[1]));
  m = p.match(/^\/p\/([^/]+)$/);
  if (m) return done(playerPage(decodeURIComponent(m[1])));
  m = p.match(/^\/puzzles(?:\/([A-Za-z0-9]+))?$/);
  if (m) return done(puzzlesPage(m[1]));
  if (p === '/tournaments') return done(tournamentsPage());
  m = p.match(/^\/tournaments\/([A-Za-z0-9]+)$/);
  if (m) return done(tournamentPage(m[1]));
  m = p.match(/^\/leaderboard\/([A-Za-z0-9_]+)$/);
  if (m) return done(leaderboardPage(m[1]));
  return done(lobby());
}

// The service worker keeps the page and its engine for play with no server (sw.js, issue 54).
// `<html data-offline="ready">` once it controls this page.
function offlineReady() {
  if (navigator.serviceWorker.controller) document.documentElement.dataset.offline = 'ready';
}
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.addEventListener('controllerchange', offlineReady);
  offlineReady();
  navigator.serviceWorker.register('/sw.js').catch(() => { document.documentElement.dataset.offline = 'none'; });
}

route();
