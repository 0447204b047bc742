// The review: a finished game event by event, with the analysis's graph, marks and summary.

import * as engine from './engine.js';
import { $, h, s } from './dom.js';
import { api } from './api.js';
import { drawBoard, paintSides, upright } from './board.js';
import { describe, showVerification, verifyHelp, PAGE_THROWS } from './game.js';

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

export async function reviewPage(id) {
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
  const slider = h('input', { type: 'range', min: 0, max: total, value: 0, id: 'review-slider', 'aria-label': 'event' });
  const pos = h('code', { id: 'review-position', class: 'small' });
  // The step buttons' arrows are drawn (a font's arrow glyphs can be missing).
  const ICONS = { first: 'M4 3 L4 17 M16 3 L7 10 L16 17 Z', prev: 'M14 3 L5 10 L14 17 Z', next: 'M6 3 L15 10 L6 17 Z', last: 'M16 3 L16 17 M4 3 L13 10 L4 17 Z' };
  const btn = (label, idn, f) => {
    const icon = s('svg', { viewBox: '0 0 20 20', class: 'icon step-icon', 'aria-hidden': 'true' }, s('path', { d: ICONS[idn.replace('review-', '')] }));
    const b = h('button', { id: idn, 'aria-label': label, title: label }, icon);
    b.addEventListener('click', f);
    return b;
  };
  const list = h('ol', { class: 'events', id: 'review-events', tabindex: 0, 'aria-label': 'events' }, st.events.map((e, i) => {
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
    board.replaceChildren(drawBoard(shown.view, Object.assign({ sides: st.sides, vertical: upright() }, ui)), h('p', { class: 'notes small' },
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
    summaryBox.replaceChildren(h('h3', {}, 'The players'), h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'the players' }, analysisSummary(a, st.sides)),
      h('p', { class: 'small' }, `Analysed by expectimax ${a.depth} throws deep with the expert evaluator; marks from `,
        '2% (?!), 5% (?), 10% (??) of winning chance lost. ', h('a', { href: `/api/games/${id}/analysis` }, 'The analysis as JSON'), '.'));
    go(at);
  }
  // The analysis made in this browser by the page's engine (issue 54): the same analysis
  // as the server's, a few events at a time so that the progress shows; the server does no
  // work for it.
  async function localAnalysis() {
    const rec = await api('GET', `/api/games/${id}/record`);
    let r = await engine.ask({ op: 'analyze_start', record: rec });
    while (r.status === 'running') {
      const p = $('#analysis-progress', graphBox);
      if (p) p.textContent = `Analysing the game in this browser… ${r.done} of ${r.total} events`;
      r = await engine.ask({ op: 'analyze_step', session: r.session, events: 4 });
    }
    return r.analysis;
  }
  async function loadAnalysis() {
    graphBox.replaceChildren(h('p', { class: 'small', id: 'analysis-progress' }, 'Analysing the game…'));
    if (await engine.loaded()) {
      try {
        showAnalysis(await localAnalysis());
        return;
      } catch (e) {
        // The server analyses it instead.
      }
    }
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
  const ver = h('p', { id: 'verify', class: 'verify' }, st.page_throws ? PAGE_THROWS : over ? 'Checking the throws…' : 'The seed is revealed when the game is over.');
  app.replaceChildren(h('div', { class: 'game' },
    h('div', { class: 'main' },
      h('h2', {}, `Review: ${st.rules_name}`),
      graphBox, what, verdict, board,
      h('div', { class: 'controls' }, btn('First', 'review-first', () => go(0)), btn('Previous', 'review-prev', () => go(at - 1)),
        slider, btn('Next', 'review-next', () => go(at + 1)), btn('Last', 'review-last', () => go(total))),
      pos, summaryBox,
      h('p', {}, h('a', { href: `/api/games/${id}/record`, id: 'download' }, 'Download the record'),
        ': every throw and move; check it with ', h('code', {}, 'senet replay FILE'), '.'),
      ver, st.page_throws ? null : verifyHelp()),
    h('aside', { class: 'side' }, h('h3', {}, 'Events'), list, h('p', {}, h('a', { href: '/g/' + id }, 'Game page'), ' · ', h('a', { href: '/' }, 'Lobby')))));
  await go(0);
  if (over) {
    if (!st.page_throws) showVerification(id, ver, null);
    loadAnalysis();
  } else {
    graphBox.replaceChildren(h('p', { class: 'small', id: 'analysis-progress' }, 'The analysis is made once the game is over.'));
  }
}
