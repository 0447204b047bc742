// The lobby's "Play someone" (issue 33): quick pairing, a seek of one's own, the open seeks to
// accept and the games being played now to watch, all live over /api/lobby/ws.

import { h } from './dom.js';
import { api } from './api.js';
import { me, playerLink } from './me.js';
import { clockSpecText, correspondence } from './clock.js';
import { challengeBox } from './challenges.js';

// The quick pairings offered: real-time clocks and one correspondence.
const QUICK = [
  { minutes: 3, increment: 2 },
  { minutes: 5, increment: 3 },
  { minutes: 10, increment: 5 },
  { days: 3 },
];
const DAYS = [1, 2, 3, 5, 7, 14];

const clockOf = (c) => (c.days != null ? { days: c.days } : { minutes: c.minutes, increment: c.increment });

export function playSomeone(cat) {
  const L = { seeks: [], games: [], waiting: null, retry: 0, ws: null, closed: false };
  const mineSeek = (s) => me() && s.player && s.player.id === me().id;
  // Withdraws this player's waiting quick pairing and real-time seeks (a correspondence seek
  // stays open): on leaving the lobby, and on going to a game (no second game meanwhile).
  function withdraw() {
    if (L.closed) return;
    L.closed = true;
    const gone = L.seeks.filter((s) => mineSeek(s) && !correspondence(s.clock)).map((s) => s.id);
    if (L.waiting) gone.push(L.waiting.seek);
    for (const id of new Set(gone)) api('DELETE', '/api/seeks/' + id, undefined, undefined, { keepalive: true }).catch(() => {});
  }
  const go = (game) => { withdraw(); location.href = '/g/' + game; };
  const ruleOptions = (sel) => cat.rules.map((r) => h('option', { value: r.id, selected: r.id === sel }, r.name));
  const defaultRules = cat.rules.some((r) => r.id === 'kendall5') ? 'kendall5' : cat.rules[0].id;

  // Quick pairing.
  const quickRules = h('select', { id: 'quick-rules' }, ruleOptions(defaultRules));
  const quickRated = h('input', { type: 'checkbox', id: 'quick-rated', checked: true });
  const quickBox = h('div', { class: 'quick', id: 'quick', role: 'group', 'aria-label': 'quick pairing clocks' });
  const waitBox = h('div', { id: 'pairing', class: 'pairing', role: 'status' });
  const quickError = h('p', { class: 'error', id: 'quick-error', role: 'alert' });
  const quickButtons = QUICK.map((c) => {
    const b = h('button', { class: 'quick-btn', 'data-clock': clockSpecText(c) }, h('span', { class: 'quick-clock' }, clockSpecText(c)), h('small', { class: 'quick-kind' }, correspondence(c) ? 'per move' : 'real time'));
    b.addEventListener('click', () => quick(c));
    return b;
  });
  quickBox.append(...quickButtons);

  async function quick(clock) {
    if (L.waiting) return;
    quickError.textContent = '';
    const body = { rules: quickRules.value, options: [], rated: quickRated.checked, clock: clockOf(clock) };
    quickButtons.forEach((b) => { b.disabled = true; });
    try {
      const r = await api('POST', '/api/pairing', body);
      if (r.game) { go(r.game); return; }
      L.waiting = { seek: r.seek, body, since: Date.now() };
      renderWaiting();
    } catch (e) {
      quickError.textContent = e.message;
      quickButtons.forEach((b) => { b.disabled = false; });
    }
  }

  async function cancelWaiting() {
    const w = L.waiting;
    if (!w) return;
    try {
      await api('DELETE', '/api/seeks/' + w.seek);
    } catch (e) {
      if (e.status !== 404) { quickError.textContent = e.message; return; }
    }
    L.waiting = null;
    quickButtons.forEach((b) => { b.disabled = false; });
    renderWaiting();
    const first = quickButtons[0];
    if (first) first.focus();
  }

  function renderWaiting() {
    const w = L.waiting;
    if (!w) { waitBox.replaceChildren(); return; }
    const name = (cat.rules.find((r) => r.id === w.body.rules) || {}).name || w.body.rules;
    const secs = Math.floor((Date.now() - w.since) / 1000);
    const text = `Looking for an opponent: ${name}, ${clockSpecText(w.body.clock)}, ${w.body.rated ? 'rated' : 'casual'}…`;
    let t = waitBox.querySelector('.wait-text');
    if (!t) {
      const cancel = h('button', { id: 'pairing-cancel' }, 'Cancel');
      cancel.addEventListener('click', cancelWaiting);
      t = h('span', { class: 'wait-text' });
      waitBox.replaceChildren(h('span', { class: 'spinner', 'aria-hidden': 'true' }), t, h('span', { class: 'wait-time small', 'aria-hidden': 'true' }), cancel);
      t.textContent = text;
    }
    waitBox.querySelector('.wait-time').textContent = ` ${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
  }
  setInterval(() => { if (L.waiting) renderWaiting(); }, 1000);

  // A seek of one's own.
  const seekRules = h('select', { id: 'seek-rules', name: 'seek-rules' }, ruleOptions(defaultRules));
  const radio = (name, value, label, checked) => h('label', { class: 'mode' }, h('input', { type: 'radio', name, value, id: `${name}-${value}`, checked }), ' ', label);
  const minutes = h('input', { type: 'number', id: 'seek-minutes', min: 1, max: 60, value: 10, inputmode: 'numeric' });
  const increment = h('input', { type: 'number', id: 'seek-increment', min: 0, max: 60, value: 5, inputmode: 'numeric' });
  const days = h('select', { id: 'seek-days' }, DAYS.map((d) => h('option', { value: d, selected: d === 3 }, `${d} day${d === 1 ? '' : 's'}`)));
  const live = h('div', { class: 'clock-fields', id: 'seek-live' },
    h('label', { class: 'field small-field', for: 'seek-minutes' }, h('span', {}, 'Minutes'), minutes),
    h('label', { class: 'field small-field', for: 'seek-increment' }, h('span', {}, 'Seconds added per move'), increment));
  const corr = h('div', { class: 'clock-fields', id: 'seek-corr', hidden: true },
    h('label', { class: 'field small-field', for: 'seek-days' }, h('span', {}, 'Time per move'), days));
  const seekError = h('p', { class: 'error', id: 'seek-error', role: 'alert' });
  const seekBtn = h('button', { type: 'submit', id: 'seek-create', class: 'primary' }, 'Create the seek');
  const form = h('form', { id: 'seek-form', class: 'seek-form', 'aria-labelledby': 'seek-title', novalidate: true },
    h('h3', { id: 'seek-title' }, 'Create a seek'),
    h('label', { class: 'row', for: 'seek-rules' }, h('span', {}, 'Rule set'), seekRules),
    h('fieldset', { class: 'modes' }, h('legend', {}, 'Ratings'),
      radio('seek-rated', 'rated', 'rated', true), ' ', radio('seek-rated', 'casual', 'casual')),
    h('fieldset', { class: 'modes' }, h('legend', {}, 'Clock'),
      radio('seek-clock', 'live', 'real time', true), ' ', radio('seek-clock', 'days', 'correspondence'),
      live, corr),
    h('div', { class: 'row' }, seekBtn), seekError);
  form.addEventListener('change', (e) => {
    if (e.target.name === 'seek-clock') {
      const d = form.querySelector('input[name=seek-clock]:checked').value === 'days';
      live.hidden = d;
      corr.hidden = !d;
    }
    if (e.target === seekRules) board.setAttribute('href', '/leaderboard/' + seekRules.value);
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    seekError.textContent = '';
    const d = form.querySelector('input[name=seek-clock]:checked').value === 'days';
    const body = {
      rules: seekRules.value,
      options: [],
      rated: form.querySelector('input[name=seek-rated]:checked').value === 'rated',
      clock: d ? { days: Number(days.value) } : { minutes: Number(minutes.value), increment: Number(increment.value) },
    };
    seekBtn.disabled = true;
    try {
      const s = await api('POST', '/api/seeks', body);
      if (!L.seeks.some((x) => x.id === s.id)) { L.seeks.push(s); renderSeeks(); }
    } catch (x) {
      seekError.textContent = x.message;
    } finally {
      seekBtn.disabled = false;
    }
  });

  // The open seeks (the server lists no quick-pairing waits; `pool` is left out all the same).
  const seekList = h('ul', { id: 'seeks', class: 'seeks', 'aria-label': 'open seeks' });
  const seekNote = h('p', { class: 'small', id: 'seeks-empty' });
  const seekMsg = h('p', { class: 'error', id: 'seeks-error', role: 'alert' });
  function renderSeeks() {
    const open = L.seeks.filter((s) => !s.pool);
    // Keep the focus where it was when the list is drawn again.
    const focused = document.activeElement;
    const focusKey = focused && focused.closest && focused.closest('#seeks') ? focused.dataset.key : null;
    seekList.replaceChildren(...open.map((s) => {
      const mine = mineSeek(s);
      const what = `${s.rules_name}, ${s.clock.text || clockSpecText(s.clock)}, ${s.rated ? 'rated' : 'casual'}`;
      const b = mine
        ? h('button', { class: 'seek-cancel', 'data-key': 'c' + s.id, 'aria-label': `Cancel your seek: ${what}` }, 'Cancel')
        : h('button', { class: 'seek-accept primary', 'data-key': 'a' + s.id, 'aria-label': `Accept ${s.player.name}'s seek: ${what}` }, 'Accept');
      b.addEventListener('click', () => (mine ? cancelSeek(s, b) : accept(s, b)));
      return h('li', { class: 'seek' + (mine ? ' mine' : ''), 'data-id': s.id },
        h('span', { class: 'seek-who' }, playerLink(s.player)),
        h('span', { class: 'seek-what' }, h('span', { class: 'seek-rules' }, s.rules_name), ' · ',
          h('span', { class: 'seek-clock' }, s.clock.text || clockSpecText(s.clock)), ' · ',
          h('span', { class: 'seek-rated' }, s.rated ? 'rated' : 'casual'),
          s.options && s.options.length ? ` · ${s.options.join(', ')}` : ''),
        b);
    }));
    seekNote.textContent = open.length ? '' : 'No open seeks just now: create one, or use quick pairing.';
    if (focusKey) {
      const again = seekList.querySelector(`[data-key='${focusKey}']`);
      if (again) again.focus();
    }
  }

  async function accept(s, b) {
    seekMsg.textContent = '';
    b.disabled = true;
    try {
      const r = await api('POST', `/api/seeks/${s.id}/accept`, {});
      go(r.game);
    } catch (e) {
      seekMsg.textContent = e.message;
      b.disabled = false;
    }
  }

  async function cancelSeek(s, b) {
    seekMsg.textContent = '';
    b.disabled = true;
    try {
      await api('DELETE', '/api/seeks/' + s.id);
      L.seeks = L.seeks.filter((x) => x.id !== s.id);
      renderSeeks();
    } catch (e) {
      seekMsg.textContent = e.message;
      b.disabled = false;
    }
  }

  // The player's own games under way (on any browser): a way back to each.
  const myGames = h('div', { id: 'my-games', class: 'my-games' });
  function renderMine() {
    const ids = (me() && me().playing) || [];
    if (!ids.length) { myGames.replaceChildren(); return; }
    myGames.replaceChildren(h('p', {}, h('b', {}, ids.length === 1 ? 'Your game under way: ' : 'Your games under way: ')),
      h('ul', { class: 'links' }, ids.map((id) => {
        const g = L.games.find((x) => x.id === id);
        const other = g && g.players.find((p) => p && p.id !== me().id);
        const label = g ? `${g.rules_name}, ${g.clock ? g.clock.text || clockSpecText(g.clock) : 'no clock'}${other ? ` against ${other.name}` : ''}` : `game ${id}`;
        return h('li', {}, h('a', { href: '/g/' + id, class: 'my-game' }, 'Continue: ', label));
      })));
  }

  // The games being played now.
  const liveList = h('ul', { id: 'live', class: 'live', 'aria-label': 'games being played now' });
  const liveNote = h('p', { class: 'small', id: 'live-empty' });
  function renderLive() {
    liveList.replaceChildren(...L.games.map((g) => {
      const mine = me() && g.players.some((p) => p && p.id === me().id);
      const what = `${g.rules_name} · ${g.clock ? g.clock.text || clockSpecText(g.clock) : 'no clock'} · ${g.rated ? 'rated' : 'casual'} · ${g.moves} move${g.moves === 1 ? '' : 's'}`;
      const names = g.players.map((p) => (p ? p.name : '?')).join(' and ');
      return h('li', { class: 'live-game' + (mine ? ' mine' : ''), 'data-id': g.id },
        h('span', { class: 'live-players' }, playerLink(g.players[0]), ' – ', playerLink(g.players[1])),
        h('span', { class: 'small live-what' }, what),
        h('a', { href: '/g/' + g.id, class: 'watch button-link', 'aria-label': `${mine ? 'Play' : 'Watch'} ${names}: ${g.rules_name}` }, mine ? 'Play' : 'Watch'));
    }));
    liveNote.textContent = L.games.length ? '' : 'No games are being played just now.';
    renderMine();
  }

  const board = h('a', { href: '/leaderboard/' + defaultRules, id: 'leaderboard-link', class: 'button-link' }, 'Leaderboard');
  const conn = h('span', { id: 'lobby-conn', class: 'conn' });
  const challenges = challengeBox();

  function connect() {
    if (L.closed) return;
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/lobby/ws');
    L.ws = ws;
    ws.onopen = () => { L.retry = 0; L.restarting = false; conn.textContent = '● live'; conn.className = 'conn live'; if (me()) challenges.refresh(); };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m.type === 'seeks') { L.seeks = m.seeks; renderSeeks(); }
      else if (m.type === 'games') { L.games = m.games; renderLive(); }
      else if (m.type === 'paired' && me() && (m.players || []).includes(me().id)) go(m.game);
      else if (m.type === 'challenges' && me() && (m.players || []).includes(me().id)) challenges.refresh();
    };
    ws.onclose = (ev) => {
      if (L.closed) return;
      conn.className = 'conn';
      // 1012: the server is restarting (an update): it is back in a moment, so the page
      // tries every second, and says so until it is connected again.
      if (ev.code === 1012) { L.restarting = true; L.retry = 0; }
      conn.textContent = L.restarting ? '○ server restarting, reconnecting' : '○ reconnecting';
      setTimeout(connect, L.restarting ? 1000 : Math.min(10000, 500 * 2 ** L.retry++));
    };
  }

  window.addEventListener('pagehide', withdraw);

  const box = h('section', { class: 'panel play', id: 'play', 'aria-labelledby': 'play-title' },
    h('h2', { id: 'play-title' }, 'Play someone ', conn),
    challenges.el,
    myGames,
    h('h3', {}, 'Quick pairing'),
    h('p', { class: 'small' }, 'Paired at once with a player of about your rating who wants the same game, or as soon as one comes.'),
    h('label', { class: 'row', for: 'quick-rules' }, h('span', {}, 'Rule set'), quickRules),
    h('label', { class: 'mode' }, quickRated, ' rated'),
    quickBox, waitBox, quickError,
    h('h3', { id: 'seeks-title' }, 'Open seeks'),
    seekList, seekNote, seekMsg,
    form,
    h('p', { class: 'small' }, 'Your real-time seeks are withdrawn when you leave this page or start a game; a correspondence seek stays open.'),
    h('h3', { id: 'live-title' }, 'Playing now'),
    liveList, liveNote,
    h('p', { class: 'links' }, board));
  renderSeeks();
  renderLive();
  liveNote.textContent = 'Loading…';
  return { box, start: connect };
}
