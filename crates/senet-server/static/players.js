// Players' pages (`/p/<name>`: ratings per rule set, the rating graph, recent games) and the
// leaderboard (`/leaderboard/<rules>`), issue 33.

import { $, h, s } from './dom.js';
import { api, catalogue } from './api.js';
import { me, playerLink, ratingText } from './me.js';
import { challengeForm } from './challenges.js';

const REASONS = {
  rules: '',
  resign: 'by resignation',
  flag: 'on time',
  'flag-draw': 'time ran out, no win possible',
  abort: 'aborted',
  claim: 'opponent left',
};
const RESULT = { win: 'Won', loss: 'Lost', draw: 'Drawn', aborted: 'Aborted' };

const day = (t) => new Date(t * 1000).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

function signed(d) {
  if (d == null) return '';
  return d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0';
}

// Round tick values covering [lo, hi], about `n` of them.
function ticks(lo, hi, n) {
  const span = Math.max(1, hi - lo);
  const raw = span / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((x) => x >= raw) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(v);
  return out;
}

// The rating graph: one line per rule set over time, both axes labelled. `start` gives a
// rule set's first point, the rating before its first game (where it is known).
export function ratingGraph(ratings, start) {
  const lines = ratings.filter((r) => r.history && r.history.length).map((r) => {
    const first = start(r);
    return Object.assign({}, r, { history: first ? [first].concat(r.history) : r.history });
  });
  if (!lines.length) return null;
  const W = 640, H = 260, L = 54, R = 12, T = 12, B = 44;
  const all = lines.flatMap((r) => r.history);
  let t0 = Math.min(...all.map((p) => p.at)), t1 = Math.max(...all.map((p) => p.at));
  if (t1 - t0 < 60) { t0 -= 30; t1 += 30; }
  let r0 = Math.min(...all.map((p) => p.rating)), r1 = Math.max(...all.map((p) => p.rating));
  const padR = Math.max(20, (r1 - r0) * 0.1);
  r0 -= padR; r1 += padR;
  const x = (t) => L + ((W - L - R) * (t - t0)) / (t1 - t0);
  const y = (v) => T + ((H - T - B) * (r1 - v)) / (r1 - r0);
  const names = lines.map((r) => r.rules_name).join(', ');
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'graph rating-graph', id: 'rating-graph', role: 'img', 'aria-labelledby': 'rating-graph-title' },
    s('title', { id: 'rating-graph-title' }, `Rating over time: ${names}`));
  for (const v of ticks(r0, r1, 5)) {
    svg.append(s('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'axis' }));
    svg.append(s('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' }, String(Math.round(v))));
  }
  // Dates along the bottom (times of day where everything happened within two days, with
  // seconds within ten minutes); a label equal to the one before is left out.
  const short = t1 - t0 < 2 * 86400;
  const fmt = (t) => (short
    ? new Date(t * 1000).toLocaleTimeString(undefined, t1 - t0 < 600 ? { hour: '2-digit', minute: '2-digit', second: '2-digit' } : { hour: '2-digit', minute: '2-digit' })
    : new Date(t * 1000).toLocaleDateString(undefined, { month: 'short', day: 'numeric' }));
  let last = null;
  for (let i = 0; i <= 3; i++) {
    const t = t0 + ((t1 - t0) * i) / 3;
    const label = fmt(t);
    if (label === last) continue;
    last = label;
    svg.append(s('line', { x1: x(t), x2: x(t), y1: H - B, y2: H - B + 4, class: 'axis' }));
    svg.append(s('text', { x: x(t), y: H - B + 16, 'text-anchor': i === 0 ? 'start' : i === 3 ? 'end' : 'middle', class: 'tick' }, label));
  }
  svg.append(s('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, class: 'axis base' }));
  svg.append(s('line', { x1: L, x2: L, y1: T, y2: H - B, class: 'axis base' }));
  svg.append(s('text', { x: (L + W - R) / 2, y: H - 4, 'text-anchor': 'middle', class: 'axis-title' }, short ? 'time' : 'date'));
  svg.append(s('text', { x: 12, y: (T + H - B) / 2, 'text-anchor': 'middle', class: 'axis-title', transform: `rotate(-90 12 ${(T + H - B) / 2})` }, 'rating'));
  lines.forEach((r, i) => {
    const k = i % 6;
    const pts = r.history.map((p) => [x(p.at), y(p.rating)]);
    svg.append(s('polyline', { points: pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' '), class: `rline line-${k}`, 'data-rules': r.rules }));
    r.history.forEach((p, j) => {
      const c = s('circle', { cx: pts[j][0].toFixed(1), cy: pts[j][1].toFixed(1), r: 3.5, class: `rdot line-${k}` });
      c.append(s('title', {}, p.game ? `${r.rules_name}: ${p.rating} after the game of ${day(p.at)}` : `${r.rules_name}: ${p.rating} at the start`));
      svg.append(c);
    });
  });
  const key = h('ul', { class: 'graph-key', 'aria-label': 'lines of the graph' }, lines.map((r, i) => h('li', {},
    s('svg', { viewBox: '0 0 30 10', class: 'key-line', 'aria-hidden': 'true' }, s('line', { x1: 0, x2: 30, y1: 5, y2: 5, class: `rline line-${i % 6}` })),
    ` ${r.rules_name}: ${ratingText(r.rating, r.provisional)}`)));
  return h('figure', { class: 'rating-figure' }, svg, key);
}

export async function playerPage(name) {
  const app = $('#app');
  let p;
  try {
    p = await api('GET', '/api/players/' + encodeURIComponent(name));
  } catch (e) {
    document.title = 'Senet — no such player';
    app.replaceChildren(h('section', { class: 'panel' }, h('h2', {}, name), h('p', { class: 'error' }, e.message), h('p', { class: 'links' }, h('a', { href: '/' }, 'Back to the lobby'))));
    return;
  }
  document.title = `Senet — ${p.name}`;
  const self = me() && me().id === p.id;
  const ratings = p.ratings || [];
  const table = ratings.length
    ? h('div', { class: 'table-scroll' }, h('table', { class: 'ratings', id: 'ratings' },
      h('caption', { class: 'visually-hidden' }, 'Ratings by rule set'),
      h('thead', {}, h('tr', {}, ['Rule set', 'Rating', 'Deviation', 'Games'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, ratings.map((r) => h('tr', { 'data-rules': r.rules },
        h('th', { scope: 'row' }, h('a', { href: '/leaderboard/' + r.rules, title: `The ${r.rules_name} leaderboard` }, r.rules_name)),
        h('td', {}, ratingText(r.rating, r.provisional), r.provisional ? h('span', { class: 'visually-hidden' }, ' (provisional)') : null),
        h('td', {}, `±${r.rd}`),
        h('td', {}, String(r.games)))))))
    : h('p', { class: 'small', id: 'ratings' }, 'No rated games yet.');
  const games = p.games || [];
  // A rule set's line starts at the rating before its first game, from that game's change,
  // when the player joined.
  const graph = ratingGraph(ratings, (r) => {
    const h0 = r.history[0];
    const g = games.find((x) => x.id === h0.game);
    return g && g.delta != null ? { at: Math.min(p.created, h0.at), rating: h0.rating - g.delta, rd: null, game: null } : null;
  });
  const list = games.length
    ? h('ul', { class: 'games player-games', id: 'player-games' }, games.map((g) => {
      const reason = REASONS[g.reason] || '';
      return h('li', { 'data-id': g.id, class: 'pg ' + g.result },
        h('b', { class: 'pg-result' }, RESULT[g.result] || g.result), reason && g.result !== 'aborted' ? ` (${reason})` : '',
        ' against ', g.opponent ? playerLink(g.opponent) : 'nobody',
        h('span', { class: 'small' }, ` · ${g.rules_name} · ${g.rated ? 'rated' : 'casual'} · ${day(g.ended)}`),
        g.delta != null ? h('span', { class: 'delta ' + (g.delta > 0 ? 'up' : g.delta < 0 ? 'down' : ''), title: 'rating change' }, ` ${signed(g.delta)}`) : null,
        ' ', h('a', { href: `/g/${g.id}/review`, class: 'review-link', 'aria-label': `Review the game against ${g.opponent ? g.opponent.name : 'nobody'}, ${day(g.ended)}` }, 'Review'));
    }))
    : h('p', { class: 'small', id: 'player-games' }, 'No finished games yet.');
  app.replaceChildren(
    h('section', { class: 'panel wide' },
      h('h2', { id: 'player-name' }, p.name, self ? h('span', { class: 'small' }, ' (you)') : null),
      h('p', { class: 'small' }, `${p.account ? 'Account' : 'Anonymous player'} since ${day(p.created)}.`),
      h('h3', {}, 'Ratings'), table,
      graph ? h('h3', {}, 'Rating over time') : null, graph),
    h('section', { class: 'panel wide' }, h('h3', {}, 'Recent games'), list,
      h('p', { class: 'links' }, h('a', { href: '/' }, 'Lobby'))),
    me() && !self ? await challengeForm(p) : null,
    me() && !self ? reportBox(p, games) : null);
}

// Reporting a player to the site's operator (issue 56): what happened, and maybe the game.
function reportBox(p, games) {
  const reason = h('textarea', { id: 'report-reason', name: 'reason', rows: 3, minlength: 3, maxlength: 500, required: true });
  const game = h('select', { id: 'report-game', name: 'game' },
    h('option', { value: '' }, 'No game in particular'),
    games.map((g) => h('option', { value: g.id }, `${RESULT[g.result] || g.result} against ${g.opponent ? g.opponent.name : 'nobody'}, ${g.rules_name}, ${day(g.ended)}`)));
  const status = h('p', { id: 'report-status', role: 'status', class: 'small' });
  const btn = h('button', { type: 'submit', id: 'report-submit' }, 'Send the report');
  const f = h('form', { id: 'report-form', class: 'account-form', 'aria-labelledby': 'report-title', hidden: true },
    h('label', { class: 'field', for: 'report-reason' }, h('span', {}, 'What happened (3–500 characters)'), reason),
    h('label', { class: 'field', for: 'report-game' }, h('span', {}, 'In which game'), game),
    h('div', { class: 'row' }, btn));
  const open = h('button', { id: 'report-open', 'aria-expanded': 'false', 'aria-controls': 'report-form' }, `Report ${p.name}`);
  open.addEventListener('click', () => {
    f.hidden = !f.hidden;
    open.setAttribute('aria-expanded', String(!f.hidden));
    if (!f.hidden) reason.focus();
  });
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    status.textContent = '';
    status.className = 'small';
    btn.disabled = true;
    try {
      const body = { player: p.name, reason: reason.value };
      if (game.value) body.game = game.value;
      await api('POST', '/api/reports', body);
      f.hidden = true;
      open.setAttribute('aria-expanded', 'false');
      open.disabled = true;
      status.textContent = 'Thank you: the report was sent to the site\'s operator.';
    } catch (x) {
      status.className = 'error';
      status.textContent = x.message;
    } finally {
      btn.disabled = false;
    }
  });
  return h('section', { class: 'panel wide', id: 'report' },
    h('h3', { id: 'report-title' }, 'Report this player'),
    h('p', { class: 'small' }, 'For insults, cheating or stalling: the operator reads every report.'),
    open, f, status);
}

export async function leaderboardPage(rules) {
  const app = $('#app');
  const cat = await catalogue();
  let b;
  try {
    b = await api('GET', '/api/leaderboard/' + encodeURIComponent(rules));
  } catch (e) {
    app.replaceChildren(h('section', { class: 'panel' }, h('h2', {}, 'Leaderboard'), h('p', { class: 'error' }, e.message), switcher(cat, rules)));
    return;
  }
  document.title = `Senet — ${b.rules_name} leaderboard`;
  const mine = me() && me().name;
  const rows = b.players || [];
  const table = rows.length
    ? h('div', { class: 'table-scroll' }, h('table', { class: 'leaderboard', id: 'leaderboard' },
      h('caption', { class: 'visually-hidden' }, `${b.rules_name}: players by rating`),
      h('thead', {}, h('tr', {}, ['Rank', 'Player', 'Rating', 'Deviation', 'Games'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, rows.map((r) => h('tr', { class: r.name === mine ? 'me' : null },
        h('td', {}, String(r.rank)),
        h('th', { scope: 'row' }, h('a', { href: '/p/' + encodeURIComponent(r.name) }, r.name), r.name === mine ? h('span', { class: 'small' }, ' (you)') : null),
        h('td', {}, String(r.rating)),
        h('td', {}, `±${r.rd}`),
        h('td', {}, String(r.games)))))))
    : h('p', { class: 'small', id: 'leaderboard' }, `No one has a settled ${b.rules_name} rating yet. A rating settles (its deviation under 110) after some rated games; until then it is shown with a question mark.`);
  app.replaceChildren(h('section', { class: 'panel wide' },
    h('h2', {}, `Leaderboard: ${b.rules_name}`),
    switcher(cat, b.rules),
    table,
    h('p', { class: 'links' }, h('a', { href: '/' }, 'Lobby'), h('a', { href: '/rules/' + b.rules }, `The rules of ${b.rules_name}`))));
}

// Links to every rule set's leaderboard, the shown one marked.
function switcher(cat, current) {
  return h('nav', { class: 'switcher', 'aria-label': 'rule sets' }, h('ul', {}, cat.rules.map((r) => h('li', {},
    h('a', { href: '/leaderboard/' + r.id, 'aria-current': r.id === current ? 'page' : null, class: 'button-link' + (r.id === current ? ' current' : '') }, r.name)))));
}
