// Puzzles (issue 57): `/puzzles` (the next puzzle near your puzzle rating, of the rule set and
// theme chosen), `/puzzles/daily` and `/puzzles/<id>`. The board is drawn from the puzzle's
// `view`, the moves from its `legal`; a piece then a lit square, a move button, or arrows and
// Enter answer it. The answer shows every move's win chance (exact where the tables hold the
// position), the rule that decides it, and how both ratings moved. N goes to the next puzzle.

import { $, h } from './dom.js';
import { api, catalogue } from './api.js';
import { drawBoard, paintSides, legend, upright } from './board.js';
import { play as sound } from './sound.js';

const THEMES = ['water', 'blockade', 'bear-off', 'swap', 'capture'];
const pct = (x) => `${(x * 100).toFixed(1)}%`;

function ratingText(you) {
  if (!you) return 'Answer a puzzle to get a puzzle rating.';
  return `Your puzzle rating: ${you.rating}${you.provisional ? '?' : ''} · ${you.tried} tried, ${you.solved} solved`;
}

export async function puzzlesPage(which) {
  document.title = 'Senet — puzzles';
  const app = $('#app');
  const cat = await catalogue();
  const prefs = JSON.parse(localStorage.getItem('senet.puzzles') || '{}');
  const rulesSel = h('select', { id: 'puzzle-rules', 'aria-label': 'rule set' },
    h('option', { value: '' }, 'any rule set'), ...cat.rules.map((r) => h('option', { value: r.id, selected: prefs.rules === r.id }, r.name)));
  const themeSel = h('select', { id: 'puzzle-theme', 'aria-label': 'theme' },
    h('option', { value: '' }, 'any theme'), ...THEMES.map((t) => h('option', { value: t, selected: prefs.theme === t }, t)));
  const keep = () => localStorage.setItem('senet.puzzles', JSON.stringify({ rules: rulesSel.value, theme: themeSel.value }));
  const el = {
    rating: h('p', { id: 'puzzle-rating', class: 'status' }),
    title: h('h3', { id: 'puzzle-title' }),
    task: h('p', { id: 'puzzle-task', class: 'status' }),
    board: h('div', { class: 'board-wrap', id: 'board-wrap' }),
    legend: h('div', { id: 'legend-box' }),
    moves: h('div', { id: 'moves', class: 'moves', role: 'group', 'aria-label': 'the moves to choose from' }),
    result: h('div', { id: 'puzzle-result', 'aria-live': 'polite' }),
    error: h('p', { id: 'error', class: 'error', role: 'alert' }),
    next: h('button', { id: 'puzzle-next', class: 'primary', 'aria-keyshortcuts': 'n' }, 'Next puzzle (N)'),
    link: h('a', { id: 'puzzle-link' }, 'link to this puzzle'),
  };
  const daily = h('a', { href: '/puzzles/daily', id: 'puzzle-daily', class: 'button-link' }, 'Puzzle of the day');
  app.replaceChildren(h('div', { class: 'game puzzles' },
    h('div', { class: 'main' },
      h('h2', {}, 'Puzzles'), el.rating,
      h('div', { class: 'row puzzle-choice' }, h('label', {}, 'Rule set ', rulesSel), h('label', {}, 'Theme ', themeSel), daily),
      el.title, el.task, h('div', { class: 'board-area' }, el.board), el.legend, el.moves, el.error, el.result,
      h('div', { class: 'controls' }, el.next)),
    h('aside', { class: 'side' },
      h('h3', {}, 'How it works'),
      h('p', { class: 'small' }, 'Each puzzle is a position from a real or a solved game where one move is clearly best: by at least 10 points of win chance. Find it. The answer shows every move\'s chance of winning: exact where the exact tables hold the position, else the expert bot\'s.'),
      h('p', { class: 'small' }, 'Your first answer to a puzzle moves your puzzle rating and the puzzle\'s (Glicko-2: solving is a win against the puzzle). Puzzles are chosen near your rating.'),
      h('p', { class: 'small' }, 'Keys: a piece then a lit square, or arrows and Enter on the move buttons; N for the next puzzle.'),
      h('p', { class: 'links' }, el.link, h('a', { href: '/' }, 'Lobby')))));

  const P = { puzzle: null, answer: null, selected: null, hover: null, busy: false };

  function render() {
    const z = P.puzzle;
    if (!z) return;
    const side = z.sides[z.player - 1].name;
    document.title = `Senet — puzzle ${z.id}`;
    el.title.textContent = `${z.daily ? 'Puzzle of the day · ' : ''}${z.rules_name} · puzzle rating ${z.rating}` + (z.themes.length ? ` · ${z.themes.join(', ')}` : '');
    el.task.textContent = P.answer
      ? (P.answer.solved ? `Solved: ${P.answer.played} is the best move.` : `Not the best: ${P.answer.best} was.`)
      : `${side} to move with a throw of ${z.throw}. Find the best move.`;
    el.task.dataset.state = P.answer ? (P.answer.solved ? 'solved' : 'missed') : 'open';
    el.link.href = '/puzzles/' + z.id;
    const open = !P.answer && !P.busy;
    const best = P.answer ? z.legal.find((m) => m.move === P.answer.best) : null;
    const played = P.answer ? z.legal.find((m) => m.move === P.answer.played) : null;
    const board = drawBoard(z.view, {
      legal: open ? z.legal : [],
      selected: P.selected,
      hover: P.hover,
      hint: best && !P.answer.solved ? { from: best.from, to: best.to } : null,
      played: played ? { from: played.from, to: played.to } : null,
      sides: z.sides,
      vertical: upright(),
      onPiece: open ? (sq) => { P.selected = P.selected === sq ? null : sq; render(); } : null,
      onTarget: open ? (to) => choose(P.selected != null ? P.selected : P.hover, to) : null,
      onHover: open ? (sq) => { if (P.hover !== sq) { P.hover = sq; render(); } } : null,
    });
    const had = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.move : null;
    el.board.replaceChildren(board);
    if (!el.legend.firstChild) el.legend.replaceChildren(legend(z.sides, z.view));
    const values = P.answer ? new Map(P.answer.moves.map((m) => [m.move, m])) : null;
    el.moves.replaceChildren(h('span', { class: 'small' }, P.answer ? 'Every move\'s win chance: ' : 'Moves: '),
      ...z.legal.filter((m) => P.answer || P.selected == null || m.from === P.selected).map((m) => {
        const extra = m.kinds.filter((k) => k !== 'step');
        const v = values && values.get(m.move);
        const cls = 'move-btn' + (P.answer && m.move === P.answer.best ? ' hinted' : '') + (P.answer && m.move === P.answer.played ? ' chosen' : '');
        const b = h('button', { class: cls, 'data-move': m.move, disabled: !open && !P.answer },
          m.move + (m.die ? ` [${m.die}]` : ''), extra.length ? h('small', {}, ' ' + extra.join(', ')) : null,
          v ? h('small', { class: 'win' }, ` ${pct(v.chance)}`) : null);
        const where = m.from == null ? 'forfeit the throw' : `the piece on ${m.from_name} to ${m.to_name === 'off' ? 'off the board' : m.to_name}`;
        b.setAttribute('aria-label', b.textContent.replace(/\s+/g, ' ').trim() + ` (${where}${extra.length ? ', ' + extra.join(', ') : ''})`);
        if (open) b.addEventListener('click', () => answer(m.move));
        return b;
      }));
    if (had) { const b = [...el.moves.querySelectorAll('.move-btn')].find((x) => x.dataset.move === had); if (b) b.focus(); }
    el.rating.textContent = ratingText(P.answer ? P.answer.you : z.you);
    renderResult();
  }

  function renderResult() {
    const a = P.answer;
    if (!a) { el.result.replaceChildren(); return; }
    const delta = a.rating_after - a.rating_before;
    el.result.replaceChildren(h('div', { class: 'result' },
      h('h3', { id: 'puzzle-verdict' }, a.solved ? '✔ Right' : '✘ Not the best move'),
      h('p', {}, a.solved
        ? `${a.best} is best: ${pct(a.moves[0].chance)} to win, ${pct(a.margin)} ahead of the next move.`
        : `You played ${a.played} (${pct((a.moves.find((m) => m.move === a.played) || { chance: 0 }).chance)}); ${a.best} gives ${pct(a.moves[0].chance)}.`),
      a.why ? h('p', { id: 'puzzle-why' }, h('b', {}, 'Why: '), a.why) : null,
      h('p', { class: 'small' }, a.exact ? 'The chances are exact, from the exact tables.' : 'The chances are the expert bot\'s estimates.'),
      h('p', { id: 'puzzle-rating-change' }, a.rated
        ? `Your puzzle rating: ${a.rating_before} → ${a.rating_after} (${delta >= 0 ? '+' : ''}${delta}); the puzzle's is now ${a.puzzle_rating}.`
        : 'You had answered this puzzle before: ratings unchanged.')));
  }

  function choose(from, to) {
    const ms = P.puzzle.legal.filter((m) => m.from === from && (to === 'off' ? m.to_name === 'off' : m.to === to));
    if (ms.length === 1) answer(ms[0].move);
    else { P.selected = from; render(); }
  }

  async function answer(mv) {
    if (P.busy || P.answer) return;
    P.busy = true;
    el.error.textContent = '';
    try {
      P.answer = await api('POST', `/api/puzzles/${P.puzzle.id}/solve`, { move: mv });
      sound(P.answer.solved ? 'land' : 'water');
    } catch (e) {
      el.error.textContent = e.message;
    } finally {
      P.busy = false;
      render();
    }
    $('#puzzle-verdict') && el.next.focus();
  }

  async function load(path) {
    el.error.textContent = '';
    try {
      P.puzzle = await api('GET', path);
      P.answer = null;
      P.selected = null;
      P.hover = null;
      paintSides(el.board, P.puzzle.sides);
      paintSides(el.legend, P.puzzle.sides);
      el.legend.replaceChildren();
      if (location.pathname !== '/puzzles/' + P.puzzle.id && path.endsWith('/next')) history.replaceState(null, '', '/puzzles');
      render();
    } catch (e) {
      el.error.textContent = e.message;
    }
  }
  const nextPath = () => {
    const q = new URLSearchParams();
    if (rulesSel.value) q.set('rules', rulesSel.value);
    if (themeSel.value) q.set('theme', themeSel.value);
    return '/api/puzzles/next' + (q.toString() ? '?' + q : '');
  };
  el.next.addEventListener('click', () => load(nextPath()));
  rulesSel.addEventListener('change', () => { keep(); load(nextPath()); });
  themeSel.addEventListener('change', () => { keep(); load(nextPath()); });
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    if (e.key === 'n' || e.key === 'N') { e.preventDefault(); load(nextPath()); return; }
    if (e.key === 'Escape') { P.selected = null; render(); return; }
    if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(e.key)) {
      const bs = [...el.moves.querySelectorAll('.move-btn')];
      if (!bs.length) return;
      e.preventDefault();
      const i = bs.indexOf(document.activeElement);
      const d = e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 1;
      bs[i < 0 ? (d > 0 ? 0 : bs.length - 1) : (i + d + bs.length) % bs.length].focus();
    }
  });
  window.matchMedia('(max-width: 620px)').addEventListener('change', render);
  await load(which === 'daily' ? '/api/puzzles/daily' : which ? '/api/puzzles/' + which : nextPath());
}
