// The game page: board, throws and moves, hints, the win-chance bar, invites, live updates over
// WebSocket, the result and the check of the throws; for games between players (issue 33)
// names, ratings and clocks (online.js). A seat is this browser's by a seat token it holds, or
// by its session's player (`you`): then it acts by the session cookie and CSRF token.
// A game played in this browser alone (local.js, issue 54: the server was out of reach) is
// drawn by the same page from a state of the same shape; its seats are all this browser's.

import { $, h } from './dom.js';
import { api, saved, catalogue } from './api.js';
import { drawBoard, drawThrow, paintSides, rulesSummary, legend, upright } from './board.js';
import { animator, reducedMotion } from './anim.js';
import { play as sound } from './sound.js';
import { verifyThrows } from './verify.js';
import { renderSeries } from './series.js';
import { onlineParts } from './online.js';
import * as engine from './engine.js';
import * as local from './local.js';

export function describe(e) {
  if (e.throw != null) return `player ${e.player} threw ${e.throw}`;
  const k = (e.kinds || []).filter((x) => x !== 'step');
  return `player ${e.player} played ${e.move}` + (k.length ? ` (${k.join(', ')})` : '');
}

// Takes the seat a link's fragment offers: `#claim=CODE` claims an online game's invite
// (minting the seat's token for this browser only); `#seat=N&token=X` (links made before
// claim codes) adds that token. Neither replaces a token this browser holds without asking.
async function takeLink(id, el) {
  const frag = new URLSearchParams(location.hash.slice(1));
  if (!location.hash) return;
  history.replaceState(null, '', location.pathname);
  const held = saved.get(id).tokens || {};
  const ask = (text, yesLabel, noLabel) => new Promise((resolve) => {
    const yes = h('button', { id: 'ask-yes', class: 'primary' }, yesLabel);
    const no = h('button', { id: 'ask-no' }, noLabel);
    yes.addEventListener('click', () => { el.ask.replaceChildren(); resolve(true); });
    no.addEventListener('click', () => { el.ask.replaceChildren(); resolve(false); });
    el.ask.replaceChildren(h('div', { class: 'invite', id: 'ask' }, h('p', {}, text), h('div', { class: 'row' }, yes, no)));
  });
  const created = saved.get(id).created || Date.now();
  const code = frag.get('claim');
  if (code) {
    const mine = Object.keys(held);
    if (mine.length && !(await ask(`This browser already holds seat ${mine.join(' and ')} of this game. Claim the invited seat as well?`, 'Claim it as well', 'Keep my seat only'))) return;
    try {
      const r = await api('POST', `/api/games/${id}/claim`, { code });
      saved.put(id, { tokens: Object.assign({}, held, { [r.seat]: r.token }), created });
    } catch (e) {
      el.error.textContent = 'This invite link cannot be used: ' + e.message;
    }
    return;
  }
  const seat = frag.get('seat'), tok = frag.get('token');
  if (!tok || !/^[12]$/.test(seat || '') || held[seat] === tok) return;
  if (held[seat] && !(await ask(`This link carries another token for seat ${seat} than the one this browser holds. Replace yours with the link's?`, "Use the link's token", 'Keep mine'))) return;
  saved.put(id, { tokens: Object.assign({}, held, { [seat]: tok }), created });
}

export async function gamePage(id, isLocal) {
  const app = $('#app');
  const L = !!isLocal;
  // Where the game lives: the server, or this browser (local.js).
  const src = {
    get: () => {
      if (!L) return api('GET', '/api/games/' + id);
      const g = local.get(id);
      if (!g) return Promise.reject(new Error(`this browser holds no game ${id} (a game played without the server stays in the browser it was played in)`));
      return local.state(g);
    },
    throw: (seq, tok) => (L ? local.throwDice(id, seq) : api('POST', `/api/games/${id}/throw`, { seq }, tok)),
    move: (mv, seq, tok) => (L ? local.move(id, mv, seq) : api('POST', `/api/games/${id}/move`, { move: mv, seq }, tok)),
  };
  const G = { id, you: null, state: null, events: [], busy: false, selected: null, hover: null, hint: null, retry: 0, msgs: [], verified: null, choice: null, thrownAt: 0 };
  const el = {
    title: h('h2', { id: 'title' }),
    status: h('p', { id: 'status', class: 'status' }),
    announce: h('p', { id: 'announce', class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true' }),
    conn: h('span', { id: 'conn', class: 'conn' }),
    invite: h('div', { id: 'invite' }),
    ask: h('div', { id: 'ask-box' }),
    series: h('div', { id: 'series', class: 'series' }),
    board: h('div', { class: 'board-wrap', id: 'board-wrap' }),
    banner: h('p', { id: 'banner', class: 'banner', 'aria-hidden': 'true' }),
    legend: h('div', { id: 'legend-box' }),
    tip: h('div', { id: 'tip', class: 'tip', role: 'note' }),
    notes: h('p', { id: 'notes', class: 'notes small' }),
    throwBtn: h('button', { id: 'throw', class: 'primary throw-btn', 'aria-keyshortcuts': 't' }),
    hintBtn: h('button', { id: 'hint', 'aria-keyshortcuts': 'h' }, 'Hint (H)'),
    barBox: h('label', { class: 'small bar-toggle' }),
    bar: h('div', { id: 'win-bar', class: 'win-bar' }),
    shown: h('div', { class: 'throw-box', id: 'throw-box' }),
    moves: h('div', { id: 'moves', class: 'moves', role: 'group', 'aria-label': 'legal moves' }),
    news: h('ul', { id: 'news', class: 'news' }),
    error: h('p', { id: 'error', class: 'error', role: 'alert' }),
    result: h('div', { id: 'result' }),
    log: h('ol', { id: 'events', class: 'events', tabindex: 0, 'aria-label': 'moves so far' }),
    rules: h('details', { class: 'summary' }),
    download: h('a', { href: `/api/games/${id}/record`, id: 'download', download: `senet-${id}.json` }, 'Download the record'),
    review: h('a', { href: `/g/${id}/review`, id: 'review-link' }, 'Review'),
  };
  if (L) {
    // The record is made here, on demand; the review once the server has the game.
    el.download.addEventListener('click', async (e) => {
      if (el.download.dataset.ready) { delete el.download.dataset.ready; return; }
      e.preventDefault();
      el.download.href = await local.recordUrl(id);
      el.download.dataset.ready = '1';
      el.download.click();
    });
  }
  const online = onlineParts(G, {
    id,
    name: (p) => name(p),
    seated: (p) => mine(p),
    you: () => G.you,
    token: () => (G.you != null && token(G.you)) || token(1) || token(2) || undefined,
    absorbState: (u) => { if (absorb(u)) render(); },
    error: (text) => { el.error.textContent = text; },
  });
  app.replaceChildren(
    h('div', { class: 'game' },
      h('div', { class: 'main' }, el.title, el.series, el.status, online.el.players, el.announce, online.el.clockSay, el.ask, el.invite, el.tip,
        h('div', { class: 'board-area' }, el.board, el.banner), el.legend, el.notes,
        h('div', { class: 'controls' }, el.throwBtn, el.shown, el.hintBtn, el.barBox), el.bar, el.moves, el.error, online.el.actions, el.news, el.result, online.el.after),
      h('aside', { class: 'side' }, h('h3', {}, 'Moves ', el.conn), el.log,
        h('p', { class: 'links' }, el.download, el.review, h('a', { href: '/' }, 'Lobby'), h('a', { href: '/', id: 'rules-link' }, 'Rules')),
        h('p', { class: 'small' }, 'Keys: arrows choose a move, Enter plays it, T throws, H asks for a hint; a click or a key skips a replay.'),
        el.rules)));

  const tokens = () => saved.get(id).tokens || {};
  // The seat's token where this browser holds one (sent as Bearer), else undefined.
  const token = (p) => tokens()[p];
  // A bot seat that this page plays with its own engine (issue 54): its token is this
  // page's, but the seat is the bot's, not the person's.
  const pageBot = (p) => {
    const seat = G.state.seats[p - 1];
    return !!(seat && seat.in_page && (L || token(p)));
  };
  // Whether seat p is this browser's person's: by its token or by the session's player (in a
  // local game, every seat but the bot's).
  const mine = (p) => !pageBot(p) && (L || !!token(p) || (G.you != null && String(G.you) === String(p)));
  const seated = () => mine(1) || mine(2);
  const st = () => G.state.status;
  const myTurn = () => st().player != null && !!mine(st().player);
  const name = (p) => {
    const seat = G.state.seats[p - 1];
    const colour = G.state.sides[p - 1].name;
    if (seat.kind === 'bot') return `the bot (${seat.bot}, ${colour})`;
    if (mine(p) && G.state.mode !== 'hotseat') return `you (${colour})`;
    const who = G.state.players && G.state.players[p - 1];
    if (who) return `${who.name} (${colour})`;
    return `player ${p} (${colour})`;
  };
  // Newcomer tips (issue 32): for a first game against the beginner bot, unless turned off.
  const tipsOn = () => !!(L ? (local.get(id) || {}).newcomer : saved.get(id).newcomer) && localStorage.getItem('senet.tips') !== 'off';

  // The throw box's label (of a fixed width: the box never changes size).
  const throwLabel = (text) => h('span', { class: 'small' }, text);

  function say(text) {
    G.msgs.push(text);
    G.msgs = G.msgs.slice(-5);
  }

  const anim = animator(el.board, {
    onThrow: async (e, sleep) => {
      const wait = Math.max(200, 550 - (Date.now() - G.thrownAt));
      el.shown.replaceChildren(throwLabel('Thrown'), drawThrow(null, G.state.throw_kind, G.state.throws.length ? G.state.throws : G.lastOutcomes, true, 'throw-shown'));
      sound('throw');
      await sleep(Math.min(wait, 550));
      el.shown.replaceChildren(throwLabel('Thrown'), drawThrow(e.throw, G.state.throw_kind, G.lastOutcomes, false, 'throw-shown'));
      await sleep(250);
    },
    onMove: (e) => {
      const k = e.kinds || [];
      sound(k.includes('trap') ? 'water' : k.includes('capture') || k.includes('sent back') || k.includes('swap') ? 'capture' : 'land');
      if (k.includes('bonus throw')) showBanner('Bonus throw');
    },
    onDone: () => { renderThrow(); },
  });
  // Any input finishes a replay at once.
  const skip = () => anim.finish();
  document.addEventListener('pointerdown', skip, true);

  function showBanner(text) {
    el.banner.textContent = text;
    el.banner.classList.add('on');
    clearTimeout(G.bannerTimer);
    G.bannerTimer = setTimeout(() => el.banner.classList.remove('on'), reducedMotion() ? 2500 : 1400);
  }

  function absorb(u) {
    // A change: accept it only if it continues the events we hold.
    if (u.seq === G.state.seq && u.series) {
      // The next game of a series was started.
      const changed = JSON.stringify(G.state.series) !== JSON.stringify(u.series);
      G.state.series = u.series;
      if (changed) return true;
    }
    if (u.seq === G.state.seq) {
      // No new event, but the clocks, the result (time, resignation, abort, claim), the
      // away countdown, the rematch or the ratings may have changed. An answer to this page's
      // own move can come after the WebSocket's later news (the ratings applied just after
      // the last move): a state that lacks what the page already holds is older, and left.
      const had = G.state;
      if ((had.result && !u.result) || (had.rating_change && !u.rating_change)
        || (had.rematch && had.rematch.game && !(u.rematch && u.rematch.game))) return false;
      let changed = false;
      for (const k of ['status', 'legal', 'seed', 'clock', 'result', 'away', 'rematch', 'rating_change', 'players', 'rated']) {
        if (!(k in u)) continue;
        if (JSON.stringify(G.state[k]) !== JSON.stringify(u[k])) changed = true;
        G.state[k] = u[k];
      }
      online.took();
      if (changed && u.status.state === 'over' && !G.overSounded) { G.overSounded = true; sound('end'); }
      return changed;
    }
    if (u.seq < G.state.seq) return false;
    if (u.events_from > G.events.length) { refetch(); return false; }
    const fresh = u.events.slice(G.events.length - u.events_from);
    const before = G.state.view;
    if (G.state.throws.length) G.lastOutcomes = G.state.throws;
    if (u.throws.length) G.lastOutcomes = u.throws;
    G.events = G.events.concat(fresh);
    const told = [];
    for (const e of fresh) {
      const line = describe(e).replace(/^player (\d)/, (_, p) => name(Number(p)));
      say(line);
      told.push(line);
      if ((e.kinds || []).includes('bonus throw') && reducedMotion()) showBanner('Bonus throw');
    }
    el.announce.textContent = told.join('. ');
    G.state = u;
    online.took();
    G.selected = null;
    G.choice = null;
    G.hint = null;
    if (u.status.state === 'over' && !G.overSounded) { G.overSounded = true; sound('end'); }
    G.pending = { before, fresh };
    return true;
  }

  // A whole state from the server (GET, or the WebSocket's `state`). The seat of the
  // session's player (`you`) is taken from GET answers: the WebSocket's messages are the same
  // for every connection, so theirs says nothing about this one.
  function takeState(s0, fromGet) {
    G.state = s0;
    G.events = s0.events;
    if (fromGet) G.you = s0.you == null ? null : s0.you;
    online.took();
  }

  async function refetch() {
    try {
      takeState(await src.get(), true);
      render();
    } catch (e) { el.error.textContent = e.message; }
  }

  async function act(kind, mv) {
    if (G.busy || !myTurn()) return;
    anim.finish();
    G.busy = true;
    G.squareTip = null;
    el.error.textContent = '';
    const tok = token(st().player);
    if (kind === 'throw') {
      G.thrownAt = Date.now();
      if (!reducedMotion()) {
        G.tumbling = true;
        el.shown.replaceChildren(throwLabel('Thrown'), drawThrow(null, G.state.throw_kind, G.state.throws, true, 'throw-shown'));
      }
    }
    try {
      const u = kind === 'throw' ? await src.throw(G.state.seq, tok) : await src.move(mv, G.state.seq, tok);
      absorb(u);
    } catch (e) {
      el.error.textContent = e.message;
      if (e.status === 409) await refetch();
    } finally {
      G.busy = false;
      G.tumbling = false;
      render();
    }
  }

  function play(from, to) {
    const ms = G.state.legal.filter((m) => m.from === from && (to === 'off' ? m.to_name === 'off' : m.to === to));
    if (ms.length === 1) act('move', ms[0].move);
    else { G.selected = from; render(); }
  }

  // No hints in a game on a clock or a rated one (from a seek, a pairing or a rematch).
  const hints = () => !(G.state.clock || G.state.rated);

  async function hint() {
    if (!(myTurn() && st().state === 'move' && hints())) return;
    try {
      // The page's engine when this browser has it (waiting for it while it loads).
      G.hint = (await engine.loaded()) ? await localHint() : await api('GET', `/api/games/${id}/hint`, undefined, token(st().player));
      const m = G.state.legal.find((x) => x.move === G.hint.move);
      G.hint.from = m ? m.from : null;
      G.hint.to = m ? m.to : null;
      render();
    } catch (e) { el.error.textContent = e.message; }
  }
  el.throwBtn.addEventListener('click', () => act('throw'));
  // The sticks (or dice) themselves throw too.
  el.shown.addEventListener('click', () => { if (!el.throwBtn.disabled && !el.throwBtn.hidden) act('throw'); });
  el.hintBtn.addEventListener('click', hint);

  // The hint from this page's engine: the same answer as the server's (`expert`'s move and
  // every legal move's win chance, best first), computed here.
  async function localHint() {
    const a = await engine.ask({ op: 'hint', position: G.state.position });
    const moves = a.moves.map((m) => ({ move: m.move, win: m.chance })).sort((x, y) => y.win - x.win);
    const best = moves.find((m) => m.move === a.best);
    return { move: a.best, score: best ? best.win : null, level: 'expert', moves };
  }

  // Plays the turn of a bot seat this page holds (issue 54): the server (or, in a local game,
  // this page) throws for it, this
  // page's engine chooses its move (seeded by the game and the decision), after the last
  // event's replay. The server never searches for it.
  async function driveBot() {
    const p = st().player;
    if (p == null || st().state === 'over' || !pageBot(p) || G.busy || G.botBusy) return;
    G.botBusy = true;
    const seq = G.state.seq;
    try {
      await (G.replay || Promise.resolve());
      await new Promise((ok) => setTimeout(ok, reducedMotion() ? 50 : 150));
      if (G.state.seq !== seq) return;
      const tok = token(p);
      let u;
      if (st().state === 'throw') {
        u = await src.throw(seq, tok);
      } else {
        const a = await engine.ask({ op: 'bot', position: G.state.position, bot: G.state.seats[p - 1].bot, seed: engine.seedOf(id, seq) });
        if (G.state.seq !== seq) return;
        u = await src.move(a.move, seq, tok);
      }
      absorb(u);
    } catch (e) {
      el.error.textContent = `The bot could not play: ${e.message}`;
      if (e.status === 409) await refetch();
      else await new Promise((ok) => setTimeout(ok, 2000));
    } finally {
      G.botBusy = false;
    }
    render();
  }

  // The keyboard (the terminal game's keys): arrows choose a legal move, Enter plays it,
  // T throws, H asks for a hint, Escape clears the choice.
  document.addEventListener('keydown', (e) => {
    anim.finish();
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    const S = G.state;
    const mayMove = myTurn() && st().state === 'move' && !G.busy;
    const k = e.key;
    if (k === 't' || k === 'T') { if (!el.throwBtn.disabled && !el.throwBtn.hidden) { e.preventDefault(); act('throw'); } return; }
    if (k === 'h' || k === 'H') { if (mayMove && hints()) { e.preventDefault(); hint(); } return; }
    if (k === 'Escape') { G.choice = null; G.selected = null; render(); return; }
    if (!mayMove || !S.legal.length) return;
    if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(k)) {
      e.preventDefault();
      const d = k === 'ArrowLeft' || k === 'ArrowUp' ? -1 : 1;
      G.choice = G.choice == null ? (d > 0 ? 0 : S.legal.length - 1) : (G.choice + d + S.legal.length) % S.legal.length;
      G.selected = S.legal[G.choice].from;
      render();
      const b = [...el.moves.querySelectorAll('.move-btn')].find((x) => x.dataset.move === S.legal[G.choice].move);
      if (b) b.focus();
      return;
    }
    if (k === 'Enter' && G.choice != null && !(t && (t.tagName === 'BUTTON' || t.tagName === 'A' || t.getAttribute('role') === 'button'))) {
      e.preventDefault();
      act('move', S.legal[G.choice].move);
    }
  });
  window.matchMedia('(max-width: 620px)').addEventListener('change', () => { anim.finish(); render(); });

  function renderInvite() {
    const S = G.state;
    const present = S.watchers && S.watchers.seats;
    const creator = ['1', '2'].find((p) => token(p));
    if (S.mode !== 'online' || !creator || st().state === 'over' || S.clock) { el.invite.replaceChildren(); return; }
    if (S.open_seat == null) {
      const other = 3 - Number(creator);
      const here = present && present[other - 1];
      el.invite.replaceChildren(here && !mine(String(other)) ? h('div', { class: 'invite' }, h('p', {}, 'Your friend is here.')) : '');
      return;
    }
    const inv = saved.get(id).invite;
    const renew = h('button', { id: 'invite-new' }, 'New invite link');
    renew.addEventListener('click', async () => {
      try {
        const r = await api('POST', `/api/games/${id}/invite`, undefined, token(creator));
        saved.put(id, { invite: r.invite });
        G.state.invite_open = true;
        renderInvite();
      } catch (e) { el.error.textContent = e.message; }
    });
    if (!S.invite_open || !inv) {
      el.invite.replaceChildren(h('div', { class: 'invite' }, h('p', {}, 'No invite link is open for the other seat. '), renew));
      return;
    }
    const url = location.origin + inv;
    const input = h('input', { id: 'invite-link', readonly: true, value: url, 'aria-label': 'invite link' });
    const copy = h('button', {}, 'Copy');
    copy.addEventListener('click', async () => {
      input.select();
      try { await navigator.clipboard.writeText(url); copy.textContent = 'Copied'; } catch (e) { document.execCommand('copy'); }
    });
    const revoke = h('button', { id: 'invite-revoke' }, 'Revoke');
    revoke.addEventListener('click', async () => {
      try {
        await api('DELETE', `/api/games/${id}/invite`, undefined, token(creator));
        saved.put(id, { invite: null });
        G.state.invite_open = false;
        renderInvite();
      } catch (e) { el.error.textContent = e.message; }
    });
    el.invite.replaceChildren(h('div', { class: 'invite' },
      h('p', {}, 'Waiting for your friend. Send this link; the first to open it takes the other seat (once):'),
      h('div', { class: 'row' }, input, copy, revoke)));
  }

  function statusText() {
    const s0 = st();
    if (s0.state === 'over' && online.resultText()) return online.resultText();
    if (s0.state === 'over') {
      if (s0.winner == null) return 'The game is a draw' + (s0.capped ? ' (turn cap reached).' : '.');
      const w = name(s0.winner);
      return (w.startsWith('you') ? 'You win' : `${w[0].toUpperCase()}${w.slice(1)} wins`) + (s0.capped ? ' (turn cap).' : '.');
    }
    const who = name(s0.player);
    const verb = s0.state === 'throw' ? 'throw' : `move with ${s0.throw}`;
    const lead = who.startsWith('you') ? `Your turn (${G.state.sides[s0.player - 1].name}): ${verb}` : `${who[0].toUpperCase()}${who.slice(1)} to ${verb}`;
    return lead + (myTurn() || G.state.seats[s0.player - 1].kind === 'bot' ? '.' : ' — waiting.');
  }

  function renderThrow() {
    const S = G.state;
    if (anim.running || G.tumbling) return;
    const lastThrow = [...G.events].reverse().find((e) => e.throw != null);
    const outcomes = S.throws.length ? S.throws : G.lastOutcomes || [];
    el.shown.replaceChildren(
      throwLabel(st().state === 'move' ? 'In hand' : 'Last throw'),
      st().state === 'move' ? drawThrow(st().throw, S.throw_kind, outcomes, false, 'throw-shown') : drawThrow(lastThrow && lastThrow.throw, S.throw_kind, outcomes, false, 'throw-shown'));
  }

  // The newcomer's tips: what to do now, and each special square the first time a piece
  // reaches it.
  function renderTip(mayMove) {
    if (!tipsOn()) { el.tip.replaceChildren(); el.board.classList.remove('newcomer'); return; }
    el.board.classList.toggle('newcomer', mayMove);
    const seen = new Set(saved.get(id).seen || []);
    const fresh = G.state.view.cells.find((c) => c.special && c.pieces.length && !seen.has(c.square));
    const off = h('button', { id: 'tips-off', class: 'linkish' }, 'Turn tips off');
    off.addEventListener('click', () => { localStorage.setItem('senet.tips', 'off'); render(); });
    let text;
    if (fresh) {
      seen.add(fresh.square);
      saved.put(id, { seen: [...seen] });
      // Shown until the player's next action.
      G.squareTip = [h('b', {}, `Square ${fresh.label}: `), fresh.special + '. '];
    }
    if (mayMove) {
      text = G.state.legal.length === 1 && G.state.legal[0].from == null
        ? ['No piece can move with this throw; play the only button to pass.']
        : ['The ringed pieces can move. Choose one, then a lit square (or a move button; or arrows and Enter). The line drawn shows its path.'];
    } else if (myTurn() && st().state === 'throw') {
      text = ['Throw the sticks: the Throw button, or the T key.'];
    } else if (st().state === 'over') {
      text = ['The game is over: the review shows where it was won.'];
    } else {
      text = null;
    }
    const lines = [];
    if (G.squareTip) lines.push(h('p', { class: 'square-tip' }, ...G.squareTip));
    lines.push(h('p', {}, h('b', {}, 'Tip. '), ...(text || ['Watch the bot play.'])));
    el.tip.replaceChildren(...lines, off);
  }

  // The board alone (hovering a piece redraws only this: the buttons stay put under the
  // pointer). Returns whether it stands upright.
  function renderBoard() {
    const S = G.state;
    const mayMove = myTurn() && st().state === 'move' && !G.busy;
    const focused = document.activeElement;
    const focusSq = focused && focused.closest && focused.closest('#board') ? focused.getAttribute('data-square') || focused.id : null;
    const vertical = upright();
    // Only the board is replaced: a replay's overlay beside it lives on.
    const old = $('#board', el.board);
    const board = drawBoard(S.view, {
      legal: mayMove ? S.legal : [],
      selected: G.selected,
      hover: G.hover,
      hint: G.hint,
      sides: S.sides,
      vertical,
      onPiece: (sq) => { G.selected = G.selected === sq ? null : sq; G.choice = null; render(); },
      onTarget: (to) => play(G.selected != null ? G.selected : G.hover, to),
      // (With a piece chosen, hovering another changes nothing drawn.)
      onHover: (sq) => { if (G.hover !== sq) { G.hover = sq; if (G.selected == null) renderBoard(); } },
    });
    if (old) old.replaceWith(board);
    else el.board.prepend(board);
    if (focusSq) {
      const again = focusSq === 'off-zone' ? $('#off-zone', el.board) : $(`.cell[data-square='${focusSq}']`, el.board);
      if (again && again.getAttribute('tabindex') === '0') again.focus();
    }
    return vertical;
  }

  function render() {
    const S = G.state;
    document.title = `Senet — ${S.rules_name}`;
    el.title.textContent = `${S.rules_name} · ${S.mode === 'bot' ? 'against a bot' : S.mode === 'hotseat' ? 'hot-seat' : 'online'}`;
    el.status.textContent = statusText() + (seated() ? '' : ' You are watching.');
    el.status.dataset.state = st().state;
    el.status.dataset.seq = S.seq;
    renderInvite();
    const mayMove = myTurn() && st().state === 'move' && !G.busy;
    const focused = document.activeElement;
    const focusMove = focused && focused.dataset ? focused.dataset.move : null;
    const vertical = renderBoard();
    if (G.pending) {
      const p = G.pending;
      G.pending = null;
      if (p.before) G.replay = anim.play(p.before, p.fresh, S.view, { vertical });
    }
    if (!el.legend.firstChild) el.legend.replaceChildren(legend(S.sides, S.view));
    el.notes.replaceChildren(...(S.view.notes || []).map(([k, v]) => h('span', { class: 'note' }, h('b', {}, k + ': '), v)));
    el.throwBtn.disabled = !(myTurn() && st().state === 'throw') || G.busy;
    el.throwBtn.hidden = st().state === 'over' || !seated();
    if (!el.throwBtn.firstChild) el.throwBtn.replaceChildren(h('span', {}, 'Throw (T)'));
    // Kept in place while unavailable, so that nothing moves (no layout shift).
    el.hintBtn.classList.toggle('invisible', !mayMove || !hints());
    el.hintBtn.hidden = !hints();
    el.hintBtn.disabled = !mayMove || !hints();
    renderThrow();
    // The move buttons are rebuilt only when they change: a redraw between a button's press
    // and its release would lose the click.
    const movesKey = JSON.stringify([S.seq, mayMove, G.selected, G.choice, G.hint && G.hint.move]);
    if (el.moves.dataset.key !== movesKey) {
    el.moves.dataset.key = movesKey;
    el.moves.replaceChildren();
    if (mayMove) {
      const sel = S.legal.filter((m) => G.selected == null || m.from === G.selected || m.from == null);
      el.moves.append(h('span', { class: 'small' }, S.legal.length === 1 && S.legal[0].from == null ? 'No legal move: ' : 'Moves: '));
      for (const m of sel) {
        const extra = m.kinds.filter((k) => k !== 'step');
        const val = G.hint && (G.hint.moves || []).find((x) => x.move === m.move);
        const chosen = G.choice != null && S.legal[G.choice] && S.legal[G.choice].move === m.move;
        const label = m.from == null ? 'forfeit the throw (pass)' : `${m.move}${m.die ? ` [${m.die}]` : ''}`;
        const spoken = m.from == null ? label : `${label}: the piece on ${m.from_name || m.from} to ${m.to_name === 'off' ? 'off the board' : m.to_name || m.to}${extra.length ? ', ' + extra.join(', ') : ''}`;
        const b = h('button', { class: 'move-btn' + (G.hint && G.hint.move === m.move ? ' hinted' : '') + (chosen ? ' chosen' : ''), 'data-move': m.move },
          label, extra.length ? h('small', {}, ' ' + extra.join(', ')) : null,
          val ? h('small', { class: 'win' }, ` ${(val.win * 100).toFixed(1)}%`) : null);
        // The name starts with the visible text, then says it in words.
        b.setAttribute('aria-label', b.textContent.replace(/\s+/g, ' ').trim() + (m.from == null ? '' : ` (${spoken.slice(label.length + 2)})`));
        b.addEventListener('click', () => act('move', m.move));
        b.addEventListener('focus', () => { if (m.from != null && G.selected !== m.from && G.choice == null) { G.hover = m.from; } });
        el.moves.append(b);
      }
      if (G.hint) {
        const chance = G.hint.score == null ? '' : `, your winning chance about ${Math.round(G.hint.score * 100)}%`;
        el.moves.append(h('span', { class: 'small', id: 'hint-text' }, ` Hint (${G.hint.level} bot): ${G.hint.move}${chance}; beside each move, your winning chance after it`));
      }
    }
    }
    if (focusMove) {
      const b = [...el.moves.querySelectorAll('.move-btn')].find((x) => x.dataset.move === focusMove);
      if (b) b.focus();
    }
    renderTip(mayMove);
    renderBar();
    el.news.replaceChildren(...G.msgs.map((m) => h('li', {}, m)));
    el.log.replaceChildren(...turns(G.events).map((t) => h('li', {}, t)));
    el.log.scrollTop = el.log.scrollHeight;
    renderResult();
    online.render();
    renderSeries(G, el.series, tokens());
    driveBot();
  }

  // The optional win-chance bar (issue 19): in games against a bot (on by default) and
  // hot-seat (off by default); never in an online game.
  function renderBar() {
    const S = G.state;
    if (S.mode === 'online') { el.barBox.replaceChildren(); el.bar.replaceChildren(); el.bar.hidden = true; return; }
    if (!el.barBox.firstChild) {
      const cb = h('input', { type: 'checkbox', id: 'show-bar' });
      const pref = localStorage.getItem('senet.bar.' + S.mode);
      cb.checked = pref == null ? S.mode === 'bot' : pref === '1';
      cb.addEventListener('change', () => { localStorage.setItem('senet.bar.' + S.mode, cb.checked ? '1' : '0'); G.barAt = null; renderBar(); });
      el.barBox.replaceChildren(cb, ' win chance');
    }
    const on = $('#show-bar', el.barBox).checked;
    el.bar.hidden = !on;
    if (!on || G.barAt === S.seq) return;
    G.barAt = S.seq;
    const seq = S.seq;
    // A glance, not a review: 2 throws deep, which every rule set accepts (a review's
    // decisions go to `expert`'s 5), so that a bar at every event costs the server little.
    const value = engine.loaded().then((local) => (local
      ? engine.ask({ op: 'value', position: S.position, depth: 2 })
      : api('POST', '/api/value', { position: S.position, depth: 2 })));
    value.then((v) => {
      if (G.state.seq !== seq) return;
      const p1 = v.first;
      const side = (i) => G.state.sides[i].name;
      const fill = h('div', { class: 'win-fill' });
      fill.style.width = `${(p1 * 100).toFixed(1)}%`; // CSSOM: the page's CSP allows no inline styles
      el.bar.replaceChildren(fill,
        h('span', { class: 'win-text' }, `${side(0)} ${(p1 * 100).toFixed(0)}% · ${(100 - p1 * 100).toFixed(0)}% ${side(1)}`));
      el.bar.dataset.first = p1.toFixed(4);
    }).catch(() => { G.barAt = null; });
  }

  function renderResult() {
    if (st().state !== 'over') { el.result.replaceChildren(); return; }
    const sc = st().score ? h('p', {}, `Score: ${st().score[0]} – ${st().score[1]}`) : null;
    if (L) return renderLocalResult(sc);
    if (el.result.firstChild && el.result.dataset.seq === String(G.state.seq)) return;
    el.result.dataset.seq = String(G.state.seq);
    const ver = h('p', { id: 'verify', class: 'verify' }, 'Checking the throws…');
    el.result.replaceChildren(h('div', { class: 'result' },
      h('h3', { id: 'result-text' }, statusText()), sc,
      h('p', {}, h('a', { href: `/g/${id}/review` }, 'Review the game'), ' · ', h('a', { href: `/api/games/${id}/record` }, 'download its record'),
        ' (replay it with ', h('code', {}, 'senet replay FILE'), ')'),
      ver, G.state.page_throws ? null : verifyHelp(),
      // A tournament's game (issue 57): no rematch; the tournament pairs its players again.
      G.state.tournament ? h('p', {}, h('a', { href: '/tournaments/' + G.state.tournament, id: 'tournament-link', class: 'button-link' }, 'Back to the tournament')) : null,
      h('p', {}, h('a', { href: '/' }, 'New game'))));
    if (G.state.page_throws) ver.textContent = PAGE_THROWS;
    else showVerification(id, ver, G);
  }

  // The end of a game played without the server: where its record is (uploaded, waiting for
  // the server, or refused), redrawn when that changes.
  function renderLocalResult(sc) {
    const g = local.get(id) || {};
    const key = `${G.state.seq}:${g.uploaded}:${g.upload_error}`;
    if (el.result.firstChild && el.result.dataset.key === key) return;
    el.result.dataset.key = key;
    const where = g.uploaded
      ? h('p', { id: 'upload', class: 'verify ok' }, 'The server is back and has stored this game. ',
        h('a', { href: `/g/${g.uploaded}/review`, id: 'stored-review' }, 'Review it'), ' · ', h('a', { href: `/g/${g.uploaded}` }, 'its page on the server'))
      : g.upload_error
        ? h('p', { id: 'upload', class: 'verify bad' }, `The server refused this game's record: ${g.upload_error}. The record stays in this browser: download it below.`)
        : h('p', { id: 'upload', class: 'verify' }, 'The server is out of reach: this game is kept in this browser and will be uploaded when the server answers again (this page keeps trying).');
    el.result.replaceChildren(h('div', { class: 'result' },
      h('h3', { id: 'result-text' }, statusText()), sc, where,
      h('p', { class: 'small' }, PAGE_THROWS),
      h('p', {}, h('a', { href: '/' }, 'New game'))));
    if (g.uploaded) el.review.href = `/g/${g.uploaded}/review`;
    el.review.hidden = !g.uploaded;
  }

  function connect() {
    if (L) {
      el.conn.textContent = '○ in this browser';
      el.conn.className = 'conn';
      return;
    }
    const tok = token(1) || token(2);
    const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + `/api/games/${id}/ws` + (tok ? '?token=' + encodeURIComponent(tok) : '');
    const ws = new WebSocket(url);
    ws.onopen = () => { G.retry = 0; G.restarting = false; el.conn.textContent = '● live'; el.conn.className = 'conn live'; };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m.type === 'state') { takeState(m); render(); }
      else if (m.type === 'update') { if (absorb(m)) render(); }
      else if (m.type === 'presence') { G.state.watchers = m.watchers; renderInvite(); }
      else if (m.type === 'invite') {
        G.state.invite_open = m.open;
        if (m.claimed) G.state.open_seat = null;
        renderInvite();
      }
      else if (m.type === 'resync') refetch();
    };
    ws.onclose = (ev) => {
      el.conn.className = 'conn';
      // 1012: the server is restarting (an update): it is back in a moment, so the page
      // tries every second, and says so until it is connected again.
      if (ev.code === 1012) { G.restarting = true; G.retry = 0; }
      el.conn.textContent = G.restarting ? '○ server restarting, reconnecting' : '○ reconnecting';
      setTimeout(connect, G.restarting ? 1000 : Math.min(10000, 500 * 2 ** G.retry++));
    };
  }

  try {
    takeState(await src.get(), true);
  } catch (e) {
    app.replaceChildren(h('p', { class: 'error' }, e.message), h('a', { href: '/' }, 'Back to the lobby'));
    return;
  }
  // Hints, the bar and a page-played bot need the page's engine; an online game does not.
  if (G.state.mode !== 'online') engine.load();
  G.overSounded = st().state === 'over';
  G.lastOutcomes = G.state.throws;
  $('#rules-link', app).setAttribute('href', '/rules/' + G.state.rules);
  paintSides(el.board, G.state.sides);
  paintSides(el.legend, G.state.sides);
  paintSides(online.el.players, G.state.sides);
  if (L) {
    el.review.hidden = !(local.get(id) || {}).uploaded;
    local.onUpload((g) => { if (g.id === id) render(); });
    local.keepUploading();
  }
  if (!L && !saved.get(id).seed_hash) saved.put(id, { seed_hash: G.state.seed_hash, rules: G.state.rules, mode: G.state.mode, created: saved.get(id).created || Date.now() });
  // A seat of the session's player: the lobby lists the game among this browser's own.
  if (!L && G.you != null && saved.get(id).seat !== G.you) saved.put(id, { seat: G.you });
  catalogue().then((c) => {
    const r = c.rules.find((x) => x.id === G.state.rules);
    if (r) el.rules.replaceChildren(h('summary', {}, 'Rules summary'), rulesSummary(r));
    if (r && !G.lastOutcomes.length) G.lastOutcomes = r.throws;
  }).catch(() => {});
  render();
  if (!L) await takeLink(id, el);
  render();
  connect();
}

// Groups events into turns: "1: threw 4, 10-14 (bonus throw)".
export function turns(events) {
  const out = [];
  let cur = null, p = null;
  for (const e of events) {
    if (e.throw != null && (cur == null || e.player !== p || cur.done)) {
      if (cur) out.push(cur.text);
      cur = { text: `P${e.player}: ${e.throw}`, done: false };
      p = e.player;
    } else if (e.throw != null) {
      cur.text += `, ${e.throw}`;
    } else {
      const k = (e.kinds || []).filter((x) => x !== 'step');
      if (!cur) cur = { text: `P${e.player}:` };
      cur.text += ` ${e.move}` + (k.length ? ` (${k.join(', ')})` : '');
      cur.done = !e.turn_continues;
    }
  }
  if (cur) out.push(cur.text);
  return out;
}

// What the page says of a game played in a browser with no server (issue 54), in place of
// the check of the throws.
export const PAGE_THROWS = 'This game was played in a browser while the server was out of reach: its throws were drawn by that browser, so there is no seed to check them by.';

export function verifyHelp() {
  return h('details', { class: 'small' }, h('summary', {}, 'How the throws are checked'),
    h('p', {}, 'The server throws, not your browser. When the game started it published the SHA-256 hash of ',
      h('code', {}, 'senet-seed:SEED'), ', where SEED is a secret number. Now that the game is over it reveals SEED. ',
      'Throw number i (from 0) is the outcome at position floor(r × total ÷ 2³²) along the cumulative weights of the throw\'s ',
      'distribution, where r is the first four bytes of SHA-256(', h('code', {}, 'senet-throw:SEED:i'), '). ',
      'This page recomputes every throw from the revealed seed; since the hash was fixed before the first throw, ',
      'no throw can have been changed. You can do the same with any SHA-256 tool.'));
}

export async function showVerification(id, target, G) {
  try {
    const t = await api('GET', `/api/games/${id}/throws`);
    const v = verifyThrows(t, saved.get(id).seed_hash);
    target.textContent = (v.ok ? '✔ ' : '✘ ') + v.text;
    target.className = 'verify ' + (v.ok ? 'ok' : 'bad');
    if (G) G.verified = v.ok;
  } catch (e) {
    target.textContent = 'Could not check the throws: ' + e.message;
  }
}
