// The page's art, drawn for this project as SVG paths (no font glyph, emoji or word):
// the signs of the marked squares, the pieces, the throwing sticks and the dice.
//
// A sign is chosen by the short mark senet-rules gives a square (`CellView::mark`); the page
// knows what each mark looks like, never what it does (the rule stays in the square's
// `special` text, shown in its tooltip and accessible name).

import { s } from './dom.js';

// Signs in a 100 x 100 box, centred on (50, 50). Each returns an SVG group.
const g = (cls, ...kids) => s('g', { class: 'sign ' + cls, 'aria-hidden': 'true' }, ...kids);
const path = (d, cls) => s('path', { d, class: cls || '' });
const stroke = (d) => s('path', { d, class: 'line' });

// The water (the hieroglyph mw): three rows of ripples.
function water() {
  const row = (y) => `M14 ${y} l9 -7 l9 7 l9 -7 l9 7 l9 -7 l9 7 l9 -7 l9 7`;
  return g('water', stroke(row(34)), stroke(row(52)), stroke(row(70)));
}
// The ankh.
function ankh() {
  return g('ankh', path('M50 12 C32 12 30 40 46 50 L22 50 L22 58 L46 58 L46 90 L54 90 L54 58 L78 58 L78 50 L54 50 C70 40 68 12 50 12 Z M50 20 C60 20 60 40 50 47 C40 40 40 20 50 20 Z', 'fill'));
}
// The nfr sign (heart and windpipe), "beautiful, happy": the House of Happiness.
function nfr() {
  return g('nfr', path('M50 50 C26 50 24 88 50 90 C76 88 74 50 50 50 Z M46 50 L46 14 L54 14 L54 50 Z M38 26 L62 26 L62 32 L38 32 Z', 'fill'));
}
// The djed pillar, "stability": a safe square.
function djed() {
  return g('djed', path('M42 30 L58 30 L58 88 L42 88 Z M28 22 L72 22 L72 28 L28 28 Z M28 34 L72 34 L72 40 L28 40 Z M28 46 L72 46 L72 52 L28 52 Z M34 12 L66 12 L68 18 L32 18 Z M34 88 L66 88 L66 92 L34 92 Z', 'fill'));
}
// A loop with an arrowhead: the square pieces are returned to (the House of Rebirth uses the
// rising sun instead).
function back() {
  return g('return', stroke('M70 66 A24 24 0 1 1 74 40'), path('M62 38 L82 30 L80 52 Z', 'fill'));
}
// The rising sun over the horizon (the hieroglyph xa): rebirth.
function rebirth() {
  return g('rebirth', path('M50 28 A22 22 0 0 1 72 50 L28 50 A22 22 0 0 1 50 28 Z', 'fill'),
    path('M14 60 L86 60 L86 68 L14 68 Z', 'fill'), stroke('M50 12 L50 20 M24 24 L30 30 M76 24 L70 30'));
}
// Concentric rings, a target: a square that must be landed on exactly.
function exact() {
  return g('exact', s('circle', { cx: 50, cy: 50, r: 34, class: 'line' }), s('circle', { cx: 50, cy: 50, r: 20, class: 'line' }),
    s('circle', { cx: 50, cy: 50, r: 7, class: 'fill' }));
}
// Numerals as Egyptian strokes: n upright strokes.
function strokes(n) {
  const w = 9, gap = 9, total = n * w + (n - 1) * gap;
  const kids = [];
  for (let i = 0; i < n; i++) {
    const x = 50 - total / 2 + i * (w + gap);
    kids.push(path(`M${x} 18 L${x + w} 18 L${x + w} 82 L${x} 82 Z`, 'fill'));
  }
  return g('strokes', ...kids);
}
// Ten, as pyramid's board writes its square 27 with a cross: two crossed bars.
function cross() {
  return g('cross', path('M22 28 L30 20 L78 72 L70 80 Z M70 20 L78 28 L30 80 L22 72 Z', 'fill'));
}
// A snare of crossed cords: the trap.
function trap() {
  return g('trap', s('circle', { cx: 50, cy: 50, r: 32, class: 'line' }),
    stroke('M28 28 L72 72 M72 28 L28 72 M18 50 L82 50 M50 18 L50 82'));
}
// The crook of the Pharaoh (heqa).
function crook() {
  return g('crook', path('M46 90 L46 34 C46 14 72 12 74 30 C75 40 66 42 64 36 L66 34 C68 32 66 22 58 22 C52 22 54 30 54 34 L54 90 Z', 'fill'));
}
// An hourglass: a space where a peg waits.
function wait() {
  return g('wait', path('M28 14 L72 14 L72 22 L56 48 L56 52 L72 78 L72 86 L28 86 L28 78 L44 52 L44 48 L28 22 Z', 'fill'));
}
// A doorway: the last space of a loop.
function door() {
  return g('door', path('M26 88 L26 30 C26 12 74 12 74 30 L74 88 L64 88 L64 32 C64 22 36 22 36 32 L36 88 Z', 'fill'));
}
// A rosette, for a mark this page has no sign of its own for.
function rosette() {
  const petals = [];
  for (let i = 0; i < 8; i++) {
    const a = (i * Math.PI) / 4;
    petals.push(s('ellipse', { cx: 50 + 20 * Math.cos(a), cy: 50 + 20 * Math.sin(a), rx: 11, ry: 6, transform: `rotate(${(i * 45).toFixed(0)} ${(50 + 20 * Math.cos(a)).toFixed(1)} ${(50 + 20 * Math.sin(a)).toFixed(1)})`, class: 'fill' }));
  }
  return g('rosette', ...petals, s('circle', { cx: 50, cy: 50, r: 9, class: 'fill' }));
}

const SIGNS = {
  water: water, trap: trap, safe: djed, happy: nfr, exact: exact, return: back, rebirth: rebirth,
  ankh: ankh, x: cross, iii: () => strokes(3), ii: () => strokes(2), i: () => strokes(1),
  pharaoh: crook, wait: wait, last: door,
};

// The sign of a square's short mark, placed in the box (x, y, size).
export function sign(mark, x, y, size) {
  const make = SIGNS[String(mark).toLowerCase()] || rosette;
  const e = make();
  e.setAttribute('transform', `translate(${x} ${y}) scale(${size / 100})`);
  return e;
}

// ----------------------------------------------------------------------------- pieces

// The family of a piece, from the name senet-rules gives it: pyramids in three sizes,
// parker's pegs (men and the Pharaoh), else Senet's cones and spools.
export function pieceFamily(p) {
  const n = String(p.name || '');
  if (n.endsWith('pyramid')) return { kind: 'pyramid', size: n.startsWith('large') ? 1 : n.startsWith('medium') ? 0.8 : 0.62 };
  if (n === 'Pharaoh') return { kind: 'peg', pharaoh: true };
  if (n.startsWith('man') || n.startsWith('lone man')) return { kind: 'peg', powered: n.startsWith('lone') };
  return { kind: 'senet' };
}

// The word for a piece's shape, for names read aloud and the legend.
export function shapeName(p) {
  const f = pieceFamily(p);
  if (f.kind === 'pyramid') return p.player === 1 ? `smooth ${p.name}` : `stepped ${p.name}`;
  if (f.kind === 'peg') return (p.player === 1 ? 'round-headed ' : 'square-headed ') + (f.pharaoh ? 'Pharaoh peg' : 'peg');
  return p.player === 1 ? 'cone' : 'spool';
}

// The word for a side's pieces, for the legend: "cones", "stepped pyramids (by size)",
// "square-headed pegs (the Pharaoh crowned)".
export function shapesName(p) {
  const f = pieceFamily(p);
  if (f.kind === 'pyramid') return (p.player === 1 ? 'smooth' : 'stepped') + ' pyramids, drawn by size';
  if (f.kind === 'peg') return (p.player === 1 ? 'round-headed' : 'square-headed') + ' pegs, the Pharaoh crowned';
  return p.player === 1 ? 'cones' : 'spools';
}

// A piece drawn around (0, 0) with radius r: player 1 and player 2 differ in shape, not only
// in colour (cones and spools; smooth and stepped pyramids; round and square peg heads).
export function pieceArt(p, r) {
  const f = pieceFamily(p);
  const kids = [];
  const q = (v) => (v * r).toFixed(1);
  if (f.kind === 'pyramid') {
    const k = r * f.size;
    const t = (v) => (v * k).toFixed(1);
    if (p.player === 1) {
      kids.push(s('path', { class: 'body', d: `M${t(-1)} ${t(0.8)} L${t(1)} ${t(0.8)} L0 ${t(-0.95)} Z` }));
      kids.push(s('path', { class: 'shade', d: `M0 ${t(-0.95)} L${t(1)} ${t(0.8)} L${t(0.25)} ${t(0.8)} Z` }));
    } else {
      const d = [];
      const steps = 4;
      for (let i = 0; i < steps; i++) {
        const y0 = 0.8 - (i * 1.75) / steps, y1 = 0.8 - ((i + 1) * 1.75) / steps, hw = 1 - (i * 0.85) / steps;
        d.push(`M${t(-hw)} ${t(y0)} L${t(hw)} ${t(y0)} L${t(hw)} ${t(y1)} L${t(-hw)} ${t(y1)} Z`);
      }
      kids.push(s('path', { class: 'body', d: d.join(' ') }));
    }
  } else if (f.kind === 'peg') {
    kids.push(s('path', { class: 'body', d: `M${q(-0.22)} ${q(-0.1)} L${q(0.22)} ${q(-0.1)} L${q(0.3)} ${q(0.85)} L${q(-0.3)} ${q(0.85)} Z` }));
    if (p.player === 1) kids.push(s('circle', { class: 'body', cx: 0, cy: q(-0.35), r: q(0.42) }));
    else kids.push(s('rect', { class: 'body', x: q(-0.4), y: q(-0.75), width: q(0.8), height: q(0.8), rx: q(0.08) }));
    if (f.pharaoh) {
      // The Pharaoh's crown on the head.
      kids.push(s('path', { class: 'crown', d: `M${q(-0.4)} ${q(-0.72)} L${q(-0.45)} ${q(-1.15)} L${q(-0.18)} ${q(-0.92)} L0 ${q(-1.25)} L${q(0.18)} ${q(-0.92)} L${q(0.45)} ${q(-1.15)} L${q(0.4)} ${q(-0.72)} Z` }));
    }
    if (f.powered) kids.push(s('circle', { class: 'ring', cx: 0, cy: q(-0.35), r: q(0.58) }));
  } else if (p.player === 1) {
    // A cone: a rounded cone on an oval base.
    kids.push(s('path', { class: 'body', d: `M${q(-0.72)} ${q(0.62)} L${q(-0.12)} ${q(-0.82)} Q0 ${q(-1)} ${q(0.12)} ${q(-0.82)} L${q(0.72)} ${q(0.62)} Q0 ${q(0.98)} ${q(-0.72)} ${q(0.62)} Z` }));
    kids.push(s('path', { class: 'shade', d: `M${q(0.12)} ${q(-0.82)} L${q(0.72)} ${q(0.62)} Q${q(0.5)} ${q(0.78)} ${q(0.3)} ${q(0.84)} Z` }));
  } else {
    // A spool: two discs joined by a waist.
    kids.push(s('path', { class: 'body', d: `M${q(-0.72)} ${q(-0.7)} L${q(0.72)} ${q(-0.7)} Q${q(0.2)} 0 ${q(0.72)} ${q(0.7)} L${q(-0.72)} ${q(0.7)} Q${q(-0.2)} 0 ${q(-0.72)} ${q(-0.7)} Z` }));
    kids.push(s('ellipse', { class: 'top', cx: 0, cy: q(-0.7), rx: q(0.72), ry: q(0.2) }));
  }
  return kids;
}

// ----------------------------------------------------------------------------- throws

// One throwing stick: the marked face (light, with cross-bands) or the plain face (dark).
export function stick(x, y, w, hgt, marked) {
  // The outer group places the stick; the inner one tumbles (a CSS transform would replace
  // the placing transform).
  const e = s('g', { class: 'stick ' + (marked ? 'marked' : 'plain'), transform: `translate(${x} ${y})` });
  const body = s('g', { class: 'spin' });
  body.append(s('rect', { x: 0, y: 0, width: w, height: hgt, rx: w / 2, class: 'face' }));
  if (marked) {
    for (const f of [0.2, 0.5, 0.8]) {
      body.append(s('path', { d: `M${w * 0.2} ${hgt * f - 3} L${w * 0.8} ${hgt * f + 3}`, class: 'band' }));
    }
  }
  e.append(body);
  return e;
}

const PIPS6 = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]] };
// A six-sided die showing v (a cube face with pips), in a box of `size` at (x, y).
export function die6(x, y, size, v) {
  const e = s('g', { class: 'die d6', transform: `translate(${x} ${y})` });
  const body = s('g', { class: 'spin' });
  body.append(s('rect', { x: 0, y: 0, width: size, height: size, rx: size * 0.18, class: 'face' }));
  const step = size / 4;
  for (const [c, r] of PIPS6[v] || []) body.append(s('circle', { cx: step * (c + 1), cy: step * (r + 1), r: size * 0.085, class: 'pip' }));
  e.append(body);
  return e;
}
// A four-sided die (a tetrahedron seen from above: a triangle) showing v pips.
export function die4(x, y, size, v) {
  const e = s('g', { class: 'die d4', transform: `translate(${x} ${y})` });
  const body = s('g', { class: 'spin' });
  body.append(s('path', { d: `M${size / 2} 0 L${size} ${size * 0.9} L0 ${size * 0.9} Z`, class: 'face' }));
  const spots = { 1: [[0.5, 0.6]], 2: [[0.38, 0.66], [0.62, 0.66]], 3: [[0.5, 0.42], [0.36, 0.7], [0.64, 0.7]], 4: [[0.5, 0.38], [0.36, 0.62], [0.64, 0.62], [0.5, 0.76]] }[v] || [];
  for (const [a, b] of spots) body.append(s('circle', { cx: size * a, cy: size * b, r: size * 0.07, class: 'pip' }));
  e.append(body);
  return e;
}
