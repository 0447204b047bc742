// Moves replayed as motion, over a board that already shows the server's position.
//
// The board (`#board`) is always redrawn from the server's state at once; a run of events
// (a move, a bot's turn) is then replayed by "ghost" pieces in an overlay while the board's own
// pieces are hidden. Any input finishes the replay at once, and nothing waits for it: the
// state, the buttons and the board's model are the server's throughout.

import { s } from './dom.js';
import { geometry, drawPiece } from './board.js';

export const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches || localStorage.getItem('senet.motion') === 'off';

// The squares of a move string ("10-13", "28-off", "f3-c3", "pass"), read by the view's
// labels; null for a move that moves nothing.
export function moveSquares(view, mv) {
  const parts = String(mv || '').split('-');
  if (parts.length !== 2) return null;
  const sq = (t) => {
    if (t === 'off') return 'off';
    const c = view.cells.find((x) => x.label === t || x.label.split(' ')[0] === t);
    return c ? c.square : null;
  };
  const a = sq(parts[0]), b = sq(parts[1]);
  return a == null || a === 'off' || b == null ? null : { from: a, to: b };
}

const STEP_MS = 130, MIN_MS = 320, MAX_MS = 900, PAUSE_MS = 200;

export function animator(wrap, hooks) {
  let run = null;

  function finish() { if (run) run.stop(); }

  function play(before, events, after, opts) {
    finish();
    if (reducedMotion() || !before || !events.length) return Promise.resolve();
    const G = geometry(after, opts.vertical);
    if (geometry(before, opts.vertical).width !== G.width) return Promise.resolve();
    const overlay = s('svg', { viewBox: `0 0 ${G.width} ${G.height}`, class: 'ghosts', 'aria-hidden': 'true' });
    const timers = new Map(), anims = new Set();
    let stopped = false;
    const sleep = (ms) => new Promise((ok) => {
      if (stopped) { ok(); return; }
      const t = setTimeout(() => { timers.delete(t); ok(); }, ms);
      timers.set(t, ok);
    });
    const animate = (el, frames, o) => {
      const a = el.animate(frames, o);
      anims.add(a);
      return a.finished.catch(() => {}).then(() => anims.delete(a));
    };
    // Where the ghosts are: square -> [{p, el}].
    const occ = new Map();
    const spot = (sq, i, n) => {
      const [cx, cy] = G.center(sq);
      return [cx + (i - (n - 1) / 2) * G.r * 1.5, cy + 5];
    };
    const place = (gh, x, y) => { gh.x = x; gh.y = y; gh.el.setAttribute('transform', `translate(${x.toFixed(1)} ${y.toFixed(1)})`); };
    for (const c of before.cells) {
      const list = c.pieces.map((p, i) => {
        const [x, y] = spot(c.square, i, c.pieces.length);
        const el = drawPiece(p, x, y, c.pieces.length > 1 ? G.r * 0.72 : G.r);
        overlay.append(el);
        return { p, el, x, y };
      });
      occ.set(c.square, list);
    }
    const count = (view, sq, pl) => {
      const c = view.cells.find((x) => x.square === sq);
      return c ? c.pieces.filter((p) => p.player === pl).length : 0;
    };
    const here = (sq, pl) => (occ.get(sq) || []).filter((g) => g.p.player === pl).length;
    // A square where `pl` has more pieces at the end than the ghosts show, nearest to `near`.
    const unexplained = (pl, near) => after.cells.map((c) => c.square)
      .filter((sq) => count(after, sq, pl) > here(sq, pl))
      .sort((a, b) => Math.abs(a - near) - Math.abs(b - near))[0];
    const travel = (gh, pts, ms) => {
      if (pts.length < 2) return Promise.resolve();
      const frames = pts.map(([x, y], i) => ({ transform: `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)`, offset: i / (pts.length - 1) }));
      const dur = ms || Math.max(MIN_MS, Math.min(MAX_MS, STEP_MS * (pts.length - 1)));
      const done = animate(gh.el, frames, { duration: dur, easing: 'ease-in-out' });
      const [x, y] = pts[pts.length - 1];
      return done.then(() => place(gh, x, y));
    };
    const leave = (gh, to) => {
      const pts = [[gh.x, gh.y], to];
      const frames = pts.map(([x, y]) => ({ transform: `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)`, opacity: 1 }));
      frames[1].opacity = 0;
      return animate(gh.el, frames, { duration: 450, easing: 'ease-in' }).then(() => gh.el.remove());
    };
    const put = (sq, gh) => {
      const list = occ.get(sq) || [];
      list.push(gh);
      occ.set(sq, list);
      return list;
    };
    const take = (sq, pl) => {
      const list = occ.get(sq) || [];
      const i = Math.max(0, list.findIndex((g) => g.p.player === pl));
      const gh = list.splice(i, 1)[0];
      return gh;
    };
    const route = (a, b, pl, back) => G.route(a, b, pl, back);
    const relayout = (sq) => (occ.get(sq) || []).forEach((g, i, l) => { const [x, y] = spot(sq, i, l.length); place(g, x, y); });

    async function step(e) {
      if (e.throw != null) { await hooks.onThrow(e, sleep); return; }
      const m = moveSquares(after, e.move);
      if (!m) { hooks.onMove(e); await sleep(PAUSE_MS); return; }
      const gh = take(m.from, e.player);
      if (!gh) return;
      relayout(m.from);
      const back = (e.kinds || []).includes('backward');
      if (m.to === 'off') {
        const pts = route(m.from, 'off', e.player);
        await travel(gh, pts);
        hooks.onMove(e);
        await leave(gh, G.pile(e.player));
        return;
      }
      const displaced = (occ.get(m.to) || []).filter((g) => g.p.player !== e.player);
      // Along the track, or along the mover's own path (parker's loops, from the view).
      let pts = route(m.from, m.to, e.player, back);
      // Into the water and back: along the track to the marked square, then across.
      const water = (e.kinds || []).includes('trap') ? after.cells.find((c) => /^(water|trap)$/i.test(c.mark || '')) : null;
      if (water && water.square !== m.to && G.track) {
        pts = route(m.from, water.square, e.player);
        pts.push(G.center(m.to));
      }
      if (!G.track && !G.paths && pts.length === 2) {
        // A server too old to give the paths: a hop in an arc.
        const [[x0, y0], [x1, y1]] = pts;
        pts = [pts[0], [(x0 + x1) / 2, Math.min(y0, y1) - G.ch * 0.45], pts[1]];
      }
      await travel(gh, pts);
      hooks.onMove(e);
      const kinds = e.kinds || [];
      const moves = [];
      for (const d of displaced) {
        occ.set(m.to, (occ.get(m.to) || []).filter((g) => g !== d));
        if (kinds.includes('swap')) {
          put(m.from, d);
          moves.push(travel(d, route(m.to, m.from, d.p.player, !back)));
        } else if (kinds.includes('capture') && !unexplained(d.p.player, m.to)) {
          moves.push(leave(d, G.pile(d.p.player)));
        } else {
          const dest = unexplained(d.p.player, m.to);
          if (dest == null) { moves.push(leave(d, G.pile(d.p.player))); continue; }
          put(dest, d);
          moves.push(travel(d, route(m.to, dest, d.p.player, true)));
        }
      }
      put(m.to, gh);
      relayout(m.to);
      await Promise.all(moves);
      if (kinds.includes('trap') && count(after, m.to, e.player) < here(m.to, e.player)) {
        // The water: the piece is washed back.
        const dest = unexplained(e.player, m.to);
        if (dest != null) {
          occ.set(m.to, occ.get(m.to).filter((g) => g !== gh));
          put(dest, gh);
          await sleep(120);
          await travel(gh, route(m.to, dest, e.player, true));
        }
      }
      await sleep(PAUSE_MS);
    }

    // After the run: every ghost where the server's position has it.
    async function reconcile() {
      const moves = [];
      for (const pl of [1, 2]) {
        const surplus = [];
        for (const [sq, list] of occ) {
          let extra = list.filter((g) => g.p.player === pl).length - count(after, sq, pl);
          for (const g of list.filter((x) => x.p.player === pl)) if (extra-- > 0) surplus.push([sq, g]);
        }
        for (const [sq, g] of surplus) {
          occ.set(sq, occ.get(sq).filter((x) => x !== g));
          const dest = unexplained(pl, sq);
          if (dest == null) { moves.push(leave(g, G.pile(pl))); continue; }
          put(dest, g);
          moves.push(travel(g, [[g.x, g.y], G.center(dest)], 350));
        }
      }
      await Promise.all(moves);
      let wrong = 0;
      for (const c of after.cells) {
        for (const pl of [1, 2]) wrong += Math.abs(count(after, c.square, pl) - here(c.square, pl));
      }
      return wrong;
    }

    const me = {
      overlay,
      stop() {
        stopped = true;
        for (const a of anims) a.finish();
        for (const [t, ok] of timers) { clearTimeout(t); ok(); }
        timers.clear();
      },
    };
    run = me;
    return (async () => {
      wrap.append(overlay);
      wrap.classList.add('running');
      wrap.dataset.runs = String(Number(wrap.dataset.runs || 0) + 1);
      try {
        for (const e of events) {
          if (stopped) break;
          await step(e);
        }
        if (!stopped) wrap.dataset.mismatch = String(await reconcile());
      } catch (err) {
        wrap.dataset.error = String(err);
      } finally {
        overlay.remove();
        // A newer replay may have started meanwhile: it owns the board now.
        if (run === me) {
          run = null;
          wrap.classList.remove('running');
          hooks.onDone();
        }
      }
    })();
  }

  return { play, finish, get running() { return run != null; } };
}
