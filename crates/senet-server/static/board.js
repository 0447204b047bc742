// Drawing: the board from a game's `view` (senet-rules' BoardView), the pieces' legend, the
// throw, the rules summary. The page knows no rule: squares, marks, pieces and the legal moves
// all come from the server.

import { h, s } from './dom.js';
import { sign, pieceArt, shapeName, shapesName, stick, die6, die4 } from './art.js';

const PAD = 14;

// The fill and the edge of each colour word that senet-rules gives a side.
const SIDE_COLOURS = {
  light: ['#f6efdc', '#3b2a1a'], dark: ['#3a2618', '#f1e6cc'],
  white: ['#fbf8f0', '#2b2118'], black: ['#1d1a17', '#e9dfc8'],
  red: ['#b3362b', '#2b0d08'], yellow: ['#e8c547', '#3d2e05'],
};

// Colours the pieces drawn inside `elem` as the rule set's sides (see `sides` in the API).
export function paintSides(elem, sides) {
  (sides || []).forEach((sd, i) => {
    const [fill, edge] = SIDE_COLOURS[sd.colour] || SIDE_COLOURS[i ? 'dark' : 'light'];
    elem.style.setProperty(`--p${i + 1}`, fill);
    elem.style.setProperty(`--p${i + 1}-edge`, edge);
  });
}

// When a pointer last went down: focus that follows a click or tap must not redraw the board
// (the click would land on a removed element).
// Nor does hovering while a button is pressed.
let pointerAt = -1e9, pressed = false;
document.addEventListener('pointerdown', () => { pointerAt = performance.now(); pressed = true; }, true);
for (const t of ['pointerup', 'pointercancel']) document.addEventListener(t, () => setTimeout(() => { pressed = false; }, 0), true);
const pointerRecently = () => pressed || performance.now() - pointerAt < 800;

// Whether the page is narrow enough to stand the board upright (phones in portrait).
export const upright = () => window.matchMedia('(max-width: 620px)').matches;

// The board's geometry: where each square, and the borne-off piles, are drawn.
export function geometry(view, vertical) {
  const cw = vertical ? 104 : 64, ch = vertical ? 50 : 64;
  const gcols = vertical ? view.rows : view.cols, grows = vertical ? view.cols : view.rows;
  const off = vertical ? { x: PAD, y: PAD * 2 + grows * ch, w: gcols * cw, h: 64 } : { x: PAD * 2 + gcols * cw, y: PAD, w: 96, h: grows * ch };
  const width = vertical ? PAD * 2 + gcols * cw : off.x + off.w + PAD;
  const height = vertical ? off.y + off.h + PAD : PAD * 2 + grows * ch;
  const at = new Map();
  for (const c of view.cells) {
    const gx = vertical ? c.row : c.col, gy = vertical ? c.col : c.row;
    at.set(c.square, { x: PAD + gx * cw, y: PAD + gy * ch, gx, gy });
  }
  // The track: consecutive square numbers on neighbouring cells (the S-shaped 30-square boards).
  const sq = view.cells.map((c) => c.square).sort((a, b) => a - b);
  let track = sq.length > 1;
  for (let i = 1; i < sq.length && track; i++) {
    const a = at.get(sq[i - 1]), b = at.get(sq[i]);
    track = sq[i] === sq[i - 1] + 1 && Math.abs(a.gx - b.gx) + Math.abs(a.gy - b.gy) === 1;
  }
  const center = (square) => {
    const c = at.get(square);
    return c ? [c.x + cw / 2, c.y + ch / 2] : null;
  };
  const pile = (player) => vertical
    ? [off.x + off.w * (player === 1 ? 0.25 : 0.72), off.y + off.h / 2 + 6]
    : [off.x + off.w / 2, off.y + off.h * (player === 1 ? 0.3 : 0.68)];
  // Each player's path where the view gives one (parker's loops: `paths`, ruling P1).
  const paths = (view.paths || []).filter((p) => p.every((x) => at.has(x)));
  // The centres a piece of `player` passes from `from` to `to` ('off' for bearing off),
  // forward, or backward where `back`: along the numbered track, or along the player's path.
  const route = (from, to, player, back) => {
    const a = center(from);
    if (!a) return [];
    const pts = [a];
    const path = paths[(player || 1) - 1];
    if (track) {
      const last = to === 'off' ? sq[sq.length - 1] : to;
      const step = last >= from ? 1 : -1;
      for (let k = from + step; step > 0 ? k <= last : k >= last; k += step) pts.push(center(k));
    } else if (path && path.includes(from) && path.includes(to)) {
      const n = path.length, d = back ? n - 1 : 1;
      for (let i = (path.indexOf(from) + d) % n, k = 0; k < n; i = (i + d) % n, k++) {
        pts.push(center(path[i]));
        if (path[i] === to) break;
      }
    } else if (to !== 'off' && center(to)) {
      pts.push(center(to));
    }
    return pts.filter(Boolean);
  };
  return { cw, ch, width, height, off, at, track, paths: paths.length > 0, center, pile, route, r: Math.min(cw, ch) * 0.34, vertical };
}

// A piece's description for names read aloud: "dark spool", "black large pyramid".
export function pieceWords(p, sides) {
  const side = sides && sides[p.player - 1] ? sides[p.player - 1].name : `player ${p.player}`;
  return `${side} ${shapeName(p)}`;
}

// One drawn piece at (x, y): an outer group placed on the square, an inner one to animate.
export function drawPiece(p, x, y, r, extra) {
  const outer = s('g', Object.assign({ class: 'piece p' + p.player, transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`, 'data-player': p.player, 'data-kind': p.kind }, extra || {}));
  outer.append(s('g', { class: 'pz' }, ...pieceArt(p, r)));
  return outer;
}

function defs(gid) {
  const d = s('defs', {});
  const grad = s('linearGradient', { id: gid, x1: 0, y1: 0, x2: 1, y2: 0.2 });
  [[0, 'a'], [0.35, 'b'], [0.6, 'a'], [1, 'b']].forEach(([o, k]) => grad.append(s('stop', { offset: o, class: 'wood-' + k })));
  d.append(grad);
  return d;
}

// Draws a BoardView. `ui` (optional): {legal, selected, hover, hint, played, sides, vertical,
// onPiece(square), onTarget(square|'off'), onHover(square|null), focus (a square to focus)}
// (`hint` and `played`: moves {from, to} drawn gold and blue).
export function drawBoard(view, ui) {
  ui = ui || {};
  const G = geometry(view, ui.vertical);
  const legal = ui.legal || [];
  const from = new Set(legal.filter((m) => m.from != null).map((m) => m.from));
  const focus = ui.selected != null ? ui.selected : ui.hover;
  const targets = new Set(legal.filter((m) => m.from === focus).map((m) => (m.to_name === 'off' ? 'off' : m.to)));
  const hint = ui.hint;
  const svg = s('svg', { viewBox: `0 0 ${G.width} ${G.height}`, class: 'board' + (G.vertical ? ' upright' : ''), id: ui.id || 'board', role: 'group', 'aria-label': `The board. ${view.path}` });
  const gid = 'wood-' + (ui.id || 'board');
  svg.append(defs(gid));
  const gw = G.vertical ? view.rows * G.cw : view.cols * G.cw, gh = G.vertical ? view.cols * G.ch : view.rows * G.ch;
  svg.append(s('rect', { x: 2, y: 2, width: G.width - 4, height: G.height - 4, rx: 12, class: 'frame' }));
  svg.append(s('rect', { x: PAD - 4, y: PAD - 4, width: gw + 8, height: gh + 8, rx: 6, class: 'inlay' }));
  const cells = s('g', { class: 'cells' });
  const pieces = s('g', { class: 'pieces', 'aria-hidden': 'true' });
  const paths = s('g', { class: 'paths', 'aria-hidden': 'true' });
  const sideWords = (c) => (c.pieces.length ? c.pieces.map((p) => pieceWords(p, ui.sides)).join(' and ') : 'empty');
  for (const c of view.cells) {
    const { x, y } = G.at.get(c.square);
    const cls = ['cell'];
    if (c.special || c.mark) cls.push('special');
    if (targets.has(c.square)) cls.push('target');
    if (from.has(c.square)) cls.push('from');
    if (hint && (hint.from === c.square || hint.to === c.square)) cls.push('hinted');
    if (ui.played && (ui.played.from === c.square || ui.played.to === c.square)) cls.push('played');
    if (ui.selected === c.square) cls.push('selected');
    const interactive = (ui.onPiece || ui.onTarget) && (targets.has(c.square) || from.has(c.square));
    let name = `square ${c.label}` + (c.special ? `, ${c.special}` : '') + `; ${sideWords(c)}`;
    if (targets.has(c.square)) name += `; move the piece on ${focus} here`;
    else if (from.has(c.square)) name += '; can move';
    const g = s('g', {
      class: cls.join(' '), 'data-square': c.square, role: interactive ? 'button' : 'img', 'aria-label': name,
      tabindex: interactive ? 0 : null,
    });
    g.append(s('rect', { x: x + 2, y: y + 2, width: G.cw - 4, height: G.ch - 4, rx: 5, class: 'sq', fill: `url(#${gid})` }));
    if (c.mark || c.special) {
      const size = Math.min(G.cw, G.ch) * 0.66;
      g.append(sign(c.mark || '', x + G.cw / 2 - size / 2, y + G.ch / 2 - size / 2 + 4, size));
    }
    g.append(s('text', { x: x + 6, y: y + 15, class: 'label', 'aria-hidden': 'true' }, c.label));
    if (c.special) g.append(s('title', {}, `${c.label}: ${c.special}`));
    if (ui.onPiece || ui.onTarget) {
      const activate = () => {
        if (targets.has(c.square) && ui.onTarget) ui.onTarget(c.square);
        else if (from.has(c.square) && ui.onPiece) ui.onPiece(c.square);
      };
      g.addEventListener('click', activate);
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); activate(); }
      });
      // Hover with a mouse, and keyboard focus, draw the piece's path; a tap does not (it
      // would redraw the board between the touch and its click).
      g.addEventListener('pointerenter', (e) => e.pointerType === 'mouse' && !pressed && ui.onHover && from.has(c.square) && ui.onHover(c.square));
      g.addEventListener('pointerleave', (e) => e.pointerType === 'mouse' && !pressed && ui.onHover && ui.onHover(null));
      g.addEventListener('focus', () => ui.onHover && from.has(c.square) && !pointerRecently() && ui.onHover(c.square));
    }
    cells.append(g);
    const n = c.pieces.length;
    c.pieces.forEach((p, i) => {
      const [cx, cy] = G.center(c.square);
      const r = n > 1 ? G.r * 0.72 : G.r;
      const px = cx + (i - (n - 1) / 2) * G.r * 1.5, py = cy + 5;
      const ps = drawPiece(p, px, py, r, { 'data-square': c.square });
      if (from.has(c.square)) ps.classList.add('movable');
      pieces.append(ps);
    });
  }
  // The path of the chosen (or hovered, or focused) piece to each of its targets.
  if (focus != null && from.has(focus)) {
    const mover = (view.cells.find((c) => c.square === focus)?.pieces[0] || {}).player || 1;
    for (const t of targets) {
      const mv = legal.find((m) => m.from === focus && (m.to_name === 'off' ? 'off' : m.to) === t);
      const pts = G.route(focus, t, mover, !!mv && (mv.kinds || []).includes('backward'));
      if (t === 'off') pts.push(G.pile(mover));
      if (pts.length < 2) continue;
      paths.append(s('polyline', { points: pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' '), class: 'track-path' }));
      const [ex, ey] = pts[pts.length - 1];
      paths.append(s('circle', { cx: ex, cy: ey, r: 6, class: 'track-end' }));
    }
  }
  svg.append(cells, paths, pieces);
  // Pieces borne off and captured, beside (or below) the board.
  const O = G.off;
  const offTarget = targets.has('off');
  const off = s('g', {
    class: 'off' + (offTarget ? ' target' : ''), id: ui.id ? null : 'off-zone', role: offTarget ? 'button' : 'img', tabindex: offTarget ? 0 : null,
    'aria-label': `off: borne off ${view.off[0]} and ${view.off[1]}` + (view.captured[0] || view.captured[1] ? `; lost ${view.captured[0]} and ${view.captured[1]}` : '') + (offTarget ? `; bear the piece on ${focus} off` : ''),
  });
  off.append(s('rect', { x: O.x + 2, y: O.y + 2, width: O.w - 4, height: O.h - 4, rx: 8, class: 'off-bg' }));
  off.append(s('text', { x: O.x + 10, y: O.y + 18, class: 'label' }, 'off'));
  const counts = s('g', { class: 'off-counts', 'aria-hidden': 'true' });
  [1, 2].forEach((pl) => {
    const [px, py] = G.pile(pl);
    const sample = samplePiece(view, pl);
    const shown = Math.min(view.off[pl - 1], 7);
    const pile = s('g', { class: 'pile', 'aria-hidden': 'true' });
    pile.append(drawPiece(sample, px - 14, py, G.r * 0.62, { class: 'piece p' + pl + (shown ? '' : ' ghostly') }));
    counts.append(pile);
    counts.append(s('text', { x: px + 4, y: py + 6, class: 'count', id: ui.id ? null : 'off-' + pl }, '× ' + view.off[pl - 1]));
    if (view.captured[pl - 1]) {
      counts.append(s('text', { x: px - 26, y: py + 28, class: 'lost' }, `lost ${view.captured[pl - 1]}`));
    }
  });
  if (ui.onTarget) {
    off.addEventListener('click', () => offTarget && ui.onTarget('off'));
    off.addEventListener('keydown', (e) => {
      if ((e.key === 'Enter' || e.key === ' ') && offTarget) { e.preventDefault(); e.stopPropagation(); ui.onTarget('off'); }
    });
  }
  svg.append(off, counts);
  return svg;
}

// A piece of player `pl` as the view draws them (its first on the board).
function samplePiece(view, pl) {
  const c = view.cells.find((x) => x.pieces.some((p) => p.player === pl));
  const p = c ? c.pieces.find((q) => q.player === pl) : { player: pl, kind: '', name: 'piece' };
  return p.name === 'Pharaoh' ? Object.assign({}, p, { name: 'man' }) : p;
}

// The legend: each side's piece, its name and its seat.
export function legend(sides, view) {
  const names = [1, 2].map((pl) => samplePiece(view, pl));
  return h('ul', { class: 'legend', id: 'legend', 'aria-label': 'the pieces' }, sides.map((sd, i) => {
    const p = names[i];
    const art = s('svg', { viewBox: '-20 -22 40 40', class: 'legend-piece', 'aria-hidden': 'true' });
    art.append(drawPiece(p, 0, 0, 14));
    return h('li', {}, art, h('span', {}, h('b', {}, sd.name), ` (player ${i + 1}): ${shapesName(p)}`));
  }));
}

// ----------------------------------------------------------------------------- throws

// How many sticks a stick throw uses: its distribution's weights sum to 2^n.
export function stickCount(outcomes) {
  const total = (outcomes || []).reduce((a, t) => a + t[1], 0);
  const n = Math.round(Math.log2(total || 16));
  return n >= 2 && n <= 8 && 2 ** n === total ? n : 4;
}

// The throw `t` drawn as the rule set throws (`kind`, senet-rules' ThrowKind): sticks showing
// their marked faces (a value above the stick count stands for none marked, as ThrowKind
// documents), one die, or two dice (four-sided where no outcome passes 4). `t` empty: the
// sticks or dice at rest, faces hidden. `tumbling`: drawn mid-throw.
export function drawThrow(t, kind, outcomes, tumbling, id) {
  const box = h('span', { class: 'throw-shown' + (tumbling ? ' tumbling' : ''), id, 'data-throw': tumbling ? '' : t || '' });
  const parts = t ? String(t).split('-').map(Number) : [];
  const maxFace = Math.max(0, ...(outcomes || []).flatMap((o) => String(o[0]).split('-').map(Number)));
  const svg = s('svg', { class: 'throw-art', viewBox: '0 0 150 60', 'aria-hidden': 'true' });
  if (kind === 'sticks' || (!kind && parts.length < 2 && maxFace <= 7)) {
    const n = stickCount(outcomes);
    const marked = parts.length ? (parts[0] <= n ? parts[0] : 0) : -1;
    const w = 12, gap = Math.min(10, (150 - n * w) / (n + 1));
    const x0 = (150 - n * w - (n - 1) * gap) / 2;
    for (let i = 0; i < n; i++) {
      const st = stick(x0 + i * (w + gap), 4, w, 52, marked < 0 ? i % 2 === 0 : i < marked);
      st.style.setProperty('--i', i);
      svg.append(st);
    }
  } else {
    const dice = parts.length ? parts : kind === 'die' ? [0] : [0, 0];
    const d4 = maxFace > 0 && maxFace <= 4;
    const size = 46, gap = 14;
    const x0 = (150 - dice.length * size - (dice.length - 1) * gap) / 2;
    dice.forEach((v, i) => {
      const d = d4 ? die4(x0 + i * (size + gap), 8, size, v) : die6(x0 + i * (size + gap), 7, size, v);
      d.style.setProperty('--i', i);
      svg.append(d);
    });
  }
  box.append(svg);
  if (t && !tumbling) box.append(h('b', { class: 'throw-value' }, String(t)));
  return box;
}

export function rulesSummary(r) {
  const total = r.throws.reduce((a, t) => a + t[1], 0);
  return h('div', { class: 'rules-summary' },
    h('h3', {}, r.name),
    h('p', {}, h('b', {}, 'Source: '), r.source),
    h('p', {}, h('b', {}, 'Pieces: '), `${r.pieces[0]} each. `, h('b', {}, 'Board: '), r.path),
    h('p', {}, h('b', {}, 'Throws: '), r.throws.map((t) => `${t[0]} (${Math.round((1000 * t[1]) / total) / 10}%)`).join(', ')),
    r.specials.length ? h('ul', {}, r.specials.map((x) => h('li', {}, h('b', {}, x.label + ': '), x.text))) : null,
    h('p', {}, h('a', { href: '/rules/' + r.id }, `Every rule of ${r.name}, with a board to try it`)));
}
