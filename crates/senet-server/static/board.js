// Drawing: the board from a game's `view`, the throw, the rules summary.

import { h, s } from './dom.js';

const CELL = 64, PAD = 10, OFFW = 92;

// The fill and the letter colour of each colour word that senet-rules gives a side.
const SIDE_COLOURS = {
  light: ['#fdfaf2', '#2b2118'], dark: ['#3a2a1e', '#f4ecd8'],
  white: ['#fdfaf2', '#2b2118'], black: ['#1d1a17', '#f4ecd8'],
  red: ['#b3362b', '#fdfaf2'], yellow: ['#e8c547', '#2b2118'],
};

// Colours the pieces drawn inside `elem` as the rule set's sides (see `sides` in the API).
export function paintSides(elem, sides) {
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
export function drawBoard(view, ui) {
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
    if (c.special || c.mark) cls.push('special');
    if (targets.has(c.square)) cls.push('target');
    if (hint && (hint.from === c.square || hint.to === c.square)) cls.push('hinted');
    if (ui.played && (ui.played.from === c.square || ui.played.to === c.square)) cls.push('played');
    if (ui.selected === c.square) cls.push('selected');
    const g = s('g', { class: cls.join(' '), 'data-square': c.square });
    g.append(s('rect', { x: x + 1.5, y: y + 1.5, width: CELL - 3, height: CELL - 3, rx: 5 }));
    g.append(s('text', { x: x + 6, y: y + 15, class: 'label' }, c.label));
    if (c.special || c.mark) {
      // The short mark and the description come from senet-rules (`mark`, `special`).
      g.append(s('text', { x: x + CELL - 6, y: y + CELL - 7, 'text-anchor': 'end', class: 'mark' }, c.mark || '✱'));
      g.append(s('title', {}, `${c.label}: ${c.special || c.mark}`));
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

// The throw: two dice drawn with pips; a single value as a die when `kind` (senet-rules'
// `throw_kind` of the throw in hand) says the throws are dice, else (sticks) as its number.
export function drawThrow(t, kind) {
  const box = h('span', { class: 'throw-shown', id: 'throw-shown', 'data-throw': t || '' });
  if (!t) { box.append('–'); return box; }
  const parts = t.split('-').map(Number);
  if (parts.length === 2) {
    for (const v of parts) box.append(drawDie(v));
  } else if (kind === 'die' || kind === 'dice') {
    box.append(drawDie(parts[0]));
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

export function rulesSummary(r) {
  const total = r.throws.reduce((a, t) => a + t[1], 0);
  return h('div', { class: 'rules-summary' },
    h('h3', {}, r.name),
    h('p', {}, h('b', {}, 'Source: '), r.source),
    h('p', {}, h('b', {}, 'Pieces: '), `${r.pieces[0]} each. `, h('b', {}, 'Board: '), r.path),
    h('p', {}, h('b', {}, 'Throws: '), r.throws.map((t) => `${t[0]} (${Math.round((1000 * t[1]) / total) / 10}%)`).join(', ')),
    r.specials.length ? h('ul', {}, r.specials.map((x) => h('li', {}, h('b', {}, x.label + ': '), x.text))) : null,
    h('p', { class: 'small' }, 'Every rule with its ruling: docs/rules/' + r.id + '.md in the senet repository.'));
}
