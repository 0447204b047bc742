// A rules page (/rules/<id>): every rule of the rule set with its ruling IDs, the throw odds,
// the options, the marked squares with their signs, and small live boards where a rule is
// shown: click "Play it" (or a lit square) to play the move the rule allows; the move it
// forbids is named with the rules crate's reason. A ruling no board can show (the odds, the
// start, the result) says what shows it instead. All of it comes from GET /api/rules/{id}.

import { $, h } from './dom.js';
import { api } from './api.js';
import { drawBoard, drawThrow, paintSides, legend, upright } from './board.js';
import { animator } from './anim.js';
import { play as sound } from './sound.js';

function demoBox(d, sides, n, tt) {
  const wrap = h('div', { class: 'board-wrap demo-board' });
  paintSides(wrap, sides);
  const anim = animator(wrap, { onThrow: async () => {}, onMove: () => sound('land'), onDone: () => {} });
  const status = h('p', { class: 'small demo-status', 'aria-live': 'polite' });
  const playBtn = h('button', { class: 'primary demo-play', 'data-demo': n }, `Play it: ${d.allowed.move}`);
  const resetBtn = h('button', { class: 'demo-reset', hidden: true }, 'Set it up again');
  let played = false;
  const show = () => {
    const vertical = upright();
    if (played) {
      wrap.replaceChildren(drawBoard(d.after, { id: `board-demo-${n}`, sides, vertical, played: { from: d.allowed.from, to: d.allowed.to_name === 'off' ? 'off' : d.allowed.to } }));
    } else {
      wrap.replaceChildren(drawBoard(d.view, {
        id: `board-demo-${n}`, sides, vertical, legal: d.legal.filter((m) => m.move === d.allowed.move), selected: d.allowed.from,
        onPiece: () => {}, onTarget: () => go(), onHover: () => {},
      }));
    }
    wrap.dataset.played = String(played);
  };
  const go = () => {
    if (played) return;
    played = true;
    const before = d.view;
    show();
    anim.play(before, [{ player: d.allowed.player || Number(/turn=(\d)/.exec(d.position)[1]), move: d.allowed.move, kinds: d.allowed.kinds }], d.after, { vertical: upright() });
    status.textContent = `Played ${d.allowed.move}` + (d.allowed.kinds.filter((k) => k !== 'step').length ? ` (${d.allowed.kinds.filter((k) => k !== 'step').join(', ')})` : '') + '.';
    playBtn.hidden = true;
    resetBtn.hidden = false;
  };
  playBtn.addEventListener('click', go);
  resetBtn.addEventListener('click', () => { anim.finish(); played = false; show(); status.textContent = ''; playBtn.hidden = false; resetBtn.hidden = true; playBtn.focus(); });
  show();
  return h('div', { class: 'demo', 'data-ruling': d.ruling },
    h('p', {}, h('b', {}, `${d.ruling}: `), `throw ${d.throw} in hand. `, drawThrow(d.throw, tt.kind, tt.outcomes)),
    wrap,
    h('div', { class: 'row' }, playBtn, resetBtn),
    status,
    d.forbidden ? h('p', { class: 'demo-why' }, h('b', {}, `Not ${d.forbidden.move}: `), d.forbidden.why.replace(/^error: /, '')) : null,
    h('p', { class: 'small' }, h('code', {}, d.position)));
}

export async function rulesPage(id) {
  const app = $('#app');
  const p = await api('GET', '/api/rules/' + encodeURIComponent(id));
  const r = p.rules;
  document.title = `Senet — rules — ${r.name}`;
  const start = h('div', { class: 'board-wrap demo-board' }, drawBoard(p.start, { id: 'board-start', sides: r.sides, vertical: upright() }));
  paintSides(start, r.sides);
  const leg = h('div', {}, legend(r.sides, p.start));
  paintSides(leg, r.sides);
  let n = 0;
  app.replaceChildren(h('div', { class: 'rules-page' },
    h('h2', {}, `Rules: ${r.name}`),
    h('p', {}, h('b', {}, 'Source: '), r.source, '. ', h('a', { href: '/' }, 'Back to the lobby'), '.'),
    h('p', { class: 'small' }, 'Each rule names the rulings (IDs) that fix how the sheet is read. Where a small board is shown, play the move it allows; the move it forbids is named with the reason the rules engine gives.'),
    start, leg,
    h('section', { class: 'rule' }, h('h3', {}, 'Throws and their odds'),
      p.throws.map((tt) => {
        const total = tt.outcomes.reduce((a, t) => a + t[1], 0);
        return h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': tt.when },
          h('table', { class: 'odds' }, h('caption', {}, `${tt.when[0].toUpperCase()}${tt.when.slice(1)} (${tt.kind.replace(/_/g, ' ')})`),
            h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'throw'), h('th', { scope: 'col' }, 'chance'))),
            h('tbody', {}, tt.outcomes.map((t) => h('tr', {}, h('td', {}, h('span', { class: 'odds-art' }, drawThrow(t[0], tt.kind, tt.outcomes)), ' ', t[0]), h('td', {}, `${t[1]} in ${total} (${((100 * t[1]) / total).toFixed(1)}%)`))))));
      })),
    h('section', { class: 'rule' }, h('h3', {}, 'Options'),
      r.options.length ? h('ul', {}, r.options.map((o) => h('li', {}, h('code', {}, o.name), ` (default ${o.default}): ${o.description}`))) : h('p', {}, 'None.')),
    p.sections.map((sec) => h('section', { class: 'rule', id: 'rule-' + (sec.rulings[0] || sec.title.replace(/\W+/g, '-')) },
      h('h3', {}, sec.rulings.length ? h('span', { class: 'id' }, sec.rulings.join(', ')) : null, sec.title),
      sec.text.split('\n').map((t) => h('p', {}, t)),
      sec.demos.map((d) => demoBox(d, r.sides, n++, p.throws[p.throws.length - 1])),
      (sec.no_board || []).map((x) => h('p', { class: 'small no-board', 'data-ruling': x.ruling }, h('b', {}, `${x.ruling}: `), `no board: ${x.reason}.`))))));
}
