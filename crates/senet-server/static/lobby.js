// The lobby: playing someone (issue 33: quick pairing, seeks, games being played now; seeks.js),
// a new game (rule set, options, opponent, seat, single game or series) and this browser's
// games (on the server, and those played in this browser while the server was out of reach,
// issue 54).

import * as engine from './engine.js';
import * as local from './local.js';
import { $, h } from './dom.js';
import { api, saved, catalogue } from './api.js';
import { rulesSummary, drawBoard, paintSides, legend, upright } from './board.js';
import { seriesChoice } from './series.js';
import { playSomeone } from './seeks.js';
import { me, unreachable } from './me.js';

export async function lobby() {
  document.title = 'Senet';
  // A bot game started here is played by the page's engine once it has loaded.
  engine.load();
  const app = $('#app');
  const cat = await catalogue();
  const rulesSel = h('select', { id: 'rules', name: 'rules' }, cat.rules.map((r) => h('option', { value: r.id }, `${r.name} — ${r.id}`)));
  const optBox = h('div', { id: 'options', class: 'options' });
  const summary = h('details', { class: 'summary' });
  const rulesLink = h('a', { id: 'rules-page-link', class: 'button-link' }, 'The rules');
  // The chosen rule set's board at the start, as the rules page draws it.
  const preview = h('div', { class: 'board-wrap lobby-board', id: 'lobby-board' });
  const shown = new Map();
  async function showBoard(r) {
    try {
      if (!shown.has(r.id)) shown.set(r.id, await api('GET', '/api/rules/' + r.id));
      if (current().id !== r.id) return;
      const p = shown.get(r.id);
      paintSides(preview, r.sides);
      preview.replaceChildren(drawBoard(p.start, { id: 'board-preview', sides: r.sides, vertical: upright() }), legend(r.sides, p.start));
    } catch (e) { preview.replaceChildren(); }
  }
  const current = () => cat.rules.find((x) => x.id === rulesSel.value);
  function showOptions() {
    const r = current();
    optBox.replaceChildren(...r.options.map((o) => h('label', { class: 'opt', title: o.description },
      h('span', {}, o.name),
      o.type === 'bool'
        ? h('input', { type: 'checkbox', 'data-opt': o.name, checked: o.default })
        : h('input', { type: 'number', 'data-opt': o.name, min: o.min, max: o.max, value: o.default }),
      h('small', {}, o.description))));
    summary.replaceChildren(h('summary', {}, 'Rules summary'), rulesSummary(r));
    showBoard(r);
    rulesLink.setAttribute('href', '/rules/' + r.id);
    rulesLink.textContent = `The rules of ${r.name}`;
  }
  rulesSel.addEventListener('change', showOptions);
  const levelSel = h('select', { id: 'level', 'aria-label': 'bot level' }, cat.levels.map((l) => h('option', { value: l, selected: l === 'casual' }, l)));
  const seatSel = h('select', { id: 'seat' });
  function showSeats() {
    const sides = current().sides;
    const was = seatSel.value || '1';
    seatSel.replaceChildren(...['first', 'second'].map((w, i) =>
      h('option', { value: String(i + 1), selected: String(i + 1) === was }, `${w} (${sides[i].name})`)));
  }
  rulesSel.addEventListener('change', showSeats);
  showSeats();
  const mode = (v, label, checked) => h('label', { class: 'mode' }, h('input', { type: 'radio', name: 'mode', value: v, checked }), ' ', label);
  const msg = h('p', { class: 'error', id: 'lobby-error', role: 'alert' });
  const series = seriesChoice();
  const create = h('button', { id: 'create', class: 'primary' }, 'Start game');
  create.addEventListener('click', async () => {
    const r = current();
    const options = [];
    for (const inp of optBox.querySelectorAll('[data-opt]')) {
      const o = r.options.find((x) => x.name === inp.dataset.opt);
      const v = o.type === 'bool' ? inp.checked : Number(inp.value);
      if (v !== o.default) options.push(`${o.name}=${v}`);
    }
    const m = $('input[name=mode]:checked', app).value;
    const body = { rules: r.id, options, mode: m };
    if (m === 'bot') body.bot = levelSel.value;
    // The bot plays in this page when its engine has loaded (issue 54), else on the server.
    if (m === 'bot' && engine.ready()) body.bot_in_page = true;
    if (m !== 'hotseat') body.seat = Number(seatSel.value);
    series.apply(body);
    create.disabled = true;
    try {
      const c = await api('POST', '/api/games', body);
      saved.put(c.id, { tokens: c.tokens, invite: c.invite || null, seed_hash: c.state.seed_hash, rules: r.id, mode: m, created: Date.now(), series: c.series || null });
      location.href = '/g/' + c.id;
    } catch (e) {
      if (local.unreachable(e)) return offline(r, options, m);
      msg.textContent = e.message;
      create.disabled = false;
    }
  });
  // The server is out of reach (stopped, or no network): a bot or hot-seat game is played in
  // this browser (local.js) and uploaded when the server is back.
  async function offline(r, options, m, newcomer) {
    const fail = (text) => { msg.textContent = text; create.disabled = false; learn.disabled = false; };
    if (m === 'online') return fail('The server is out of reach, and a game with a friend needs it. A bot or hot-seat game can be played in this browser meanwhile.');
    if (series.wanted()) return fail('The server is out of reach, and a series needs it. A single game can be played in this browser meanwhile.');
    try {
      const g = await local.create(r, options, m, newcomer ? 'beginner' : levelSel.value, newcomer ? 1 : Number(seatSel.value));
      if (newcomer) {
        try { localStorage.removeItem('senet.tips'); } catch (e) { /* private mode */ }
        local.update(g.id, { newcomer: true });
      }
      location.href = '/l/' + g.id;
    } catch (e) { fail(e.message); }
  }
  // A first game for newcomers: against the beginner bot, with tips (issue 32).
  const learn = h('button', { id: 'learn' }, 'First game, with tips');
  learn.addEventListener('click', async () => {
    const r = current();
    learn.disabled = true;
    try {
      const c = await api('POST', '/api/games', { rules: r.id, options: [], mode: 'bot', bot: 'beginner', seat: 1, bot_in_page: engine.ready() });
      try { localStorage.removeItem('senet.tips'); } catch (e) { /* private mode */ }
      saved.put(c.id, { tokens: c.tokens, invite: null, seed_hash: c.state.seed_hash, rules: r.id, mode: 'bot', created: Date.now(), newcomer: true });
      location.href = '/g/' + c.id;
    } catch (e) {
      if (local.unreachable(e)) return offline(r, [], 'bot', true);
      msg.textContent = e.message;
      learn.disabled = false;
    }
  });
  const recent = h('div', { id: 'recent' }, h('p', { class: 'small' }, 'Loading your games…'));
  const notice = h('p', { id: 'offline', class: 'busy', role: 'status', hidden: true });
  const play = playSomeone(cat);
  app.replaceChildren(notice, h('div', { class: 'lobby' },
    play.box,
    h('section', { class: 'panel' },
      h('h2', {}, 'New game'),
      h('p', { class: 'links' }, h('a', { href: '/puzzles', id: 'puzzles-link', class: 'button-link' }, 'Puzzles'),
        h('a', { href: '/puzzles/daily', id: 'daily-link' }, 'the puzzle of the day'),
        h('a', { href: '/tournaments', id: 'tournaments-link', class: 'button-link' }, 'Tournaments')),
      h('p', { class: 'small' }, 'New to Senet? ', learn, ' plays the rule set chosen below against the beginner bot, pointing at the moves you can make and explaining each special square the first time a piece reaches it.'),
      h('label', { class: 'row' }, h('span', {}, 'Rule set'), rulesSel),
      preview,
      h('p', { class: 'links' }, rulesLink),
      optBox,
      h('fieldset', { class: 'modes' }, h('legend', {}, 'Opponent'),
        mode('bot', 'a bot, level ', true), levelSel, h('br'),
        mode('hotseat', 'hot-seat: two players on this device'), h('br'),
        mode('online', 'invite a friend (a link for the second seat)')),
      h('label', { class: 'row' }, h('span', {}, 'You play'), seatSel),
      series.box,
      create, msg, summary),
    h('section', { class: 'panel' }, h('h2', {}, 'Your games'), recent, localGames())));
  showOptions();
  play.start();
  const offlineText = 'The server is out of reach. You can still play a bot or a hot-seat game: it is played in this browser and stored on the server when it is back.';
  if (unreachable()) { notice.textContent = offlineText; notice.hidden = false; }
  local.onUpload(() => { const b = $('#local-games'); if (b) b.replaceWith(localGames()); });
  local.keepUploading();
  const mine = saved.all();
  // The player's games under way on any browser (issue 33) first, then this browser's own.
  const playing = (me() && me().playing) || [];
  const ids = [...new Set(playing.concat(Object.keys(mine).sort((a, b) => (mine[b].created || 0) - (mine[a].created || 0))))].slice(0, 50);
  if (!ids.length) { recent.replaceChildren(h('p', { class: 'small' }, local.list().length ? '' : 'None yet.')); return; }
  try {
    const l = await api('GET', '/api/games?ids=' + ids.join(','));
    recent.replaceChildren(h('ul', { class: 'games' }, l.games.map((g) => {
      const over = g.state === 'over';
      const what = over ? (g.player ? `player ${g.player} won` : 'draw') : `player ${g.player} to ${g.state}`;
      const own = mine[g.id] || {};
      const role = playing.includes(g.id) || Object.keys(own.tokens || {}).length || own.seat ? '' : ' (watching)';
      return h('li', {},
        h('a', { href: '/g/' + g.id }, `${g.rules}, ${g.mode}${role}`), ` ${g.moves} moves, ${what} `,
        over ? h('a', { href: `/g/${g.id}/review`, class: 'review-link' }, 'review') : null);
    })));
  } catch (e) {
    if (!local.unreachable(e)) { recent.replaceChildren(h('p', { class: 'error' }, e.message)); return; }
    recent.replaceChildren(h('p', { class: 'small' }, 'The server is out of reach: its games show when it answers again.'));
    notice.textContent = offlineText;
    notice.hidden = false;
  }
}

// The games played in this browser without the server: where each stands.
function localGames() {
  const games = local.list();
  if (!games.length) return h('div', { id: 'local-games' });
  return h('div', { id: 'local-games' }, h('h3', {}, 'Played in this browser'),
    h('ul', { class: 'games' }, games.slice(0, 50).map((g) => {
      const who = g.mode === 'bot' ? `against the bot (${g.bot})` : 'hot-seat';
      const where = !g.over ? 'not finished' : g.uploaded ? 'stored on the server' : g.upload_error ? `refused by the server: ${g.upload_error}` : 'waiting for the server';
      return h('li', {}, h('a', { href: '/l/' + g.id }, `${g.rules}, ${who}`), ` ${g.events.length} events, ${where} `,
        g.uploaded ? h('a', { href: `/g/${g.uploaded}/review`, class: 'review-link' }, 'review') : null);
    })));
}
