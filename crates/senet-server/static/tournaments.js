// Tournaments (issue 57): `/tournaments` lists them (starting soon, under way, finished, each
// with its kind, rule set, clock, players and a countdown), the session's player's invitations
// (accept, decline) and a form to make one (signed-in players only); `/tournaments/<id>` is
// one tournament: its settings, its state with a countdown to the start or the end, Join /
// Leave / Start now as they apply, the standings (score, W-D-L, each game as a small mark, a
// flame for an arena streak, the game under way), the games, byes and invited players. Both
// pages are live over the lobby's WebSocket (`tournament` messages); a `paired` message for
// this player in this tournament goes to the game.

import { $, h, s } from './dom.js';
import { api, catalogue } from './api.js';
import { me, playerLink, openAccount } from './me.js';
import { clockSpecText } from './clock.js';

const KINDS = {
  arena: {
    name: 'Arena',
    about: 'For a set time; anyone may join until it ends, and is paired again as soon as their game ends. A win is 2 points, a draw 1; after two wins in a row (the flame) each win or draw counts double.',
  },
  'round-robin': {
    name: 'Round-robin',
    about: 'The invited players who accept each play every other once, one round at a time. A win is 1 point, a draw ½.',
  },
  swiss: {
    name: 'Swiss',
    about: 'The invited players who accept play a set number of rounds, each against a player on about the same score. A win is 1 point, a draw ½, a bye 1.',
  },
};
const kindName = (k) => (KINDS[k] ? KINDS[k].name : k);
const STATE = { created: 'starting soon', running: 'under way', finishing: 'finishing', over: 'finished', cancelled: 'cancelled' };
const DAYS = [1, 2, 3, 5, 7, 14];

// The server's clock less this browser's, from the last tournament the server sent.
let skew = 0;
const serverNow = () => Date.now() + skew;

// A score as written: 2, 2½, ½.
function points(x) {
  const whole = Math.floor(x + 1e-9);
  const half = x - whole > 0.25;
  return whole === 0 && half ? '½' : `${whole}${half ? '½' : ''}`;
}

const pad = (n) => String(n).padStart(2, '0');
// A time to go as `4:05`, `1:02:03`, `2 d 5 h`.
function left(ms) {
  const t = Math.max(0, Math.floor(ms / 1000));
  if (t >= 86400) return `${Math.floor(t / 86400)} d ${Math.floor((t % 86400) / 3600)} h`;
  if (t >= 3600) return `${Math.floor(t / 3600)}:${pad(Math.floor((t % 3600) / 60))}:${pad(t % 60)}`;
  return `${Math.floor(t / 60)}:${pad(t % 60)}`;
}

// The state of a tournament in words, with its countdown: "starts in 0:42".
function stateText(t) {
  const now = serverNow();
  switch (t.state) {
    case 'created': return t.starts > now ? `starts in ${left(t.starts - now)}` : 'starting…';
    case 'running':
      if (t.ends != null) return t.ends > now ? `under way: ends in ${left(t.ends - now)}` : 'under way: ending…';
      return t.rounds ? `under way: round ${t.round} of ${t.rounds}` : 'under way';
    case 'finishing': return 'finishing: the last games are being played';
    case 'over': return 'finished';
    case 'cancelled': return 'cancelled: fewer than two players at the start';
    default: return t.state;
  }
}

// What a tournament is, in a few words: "Arena · Kendall, five pieces · 3+2 · rated · 30 min".
function settingsText(t) {
  const parts = [kindName(t.kind), t.rules_name, clockSpecText(t.clock), t.rated ? 'rated' : 'casual'];
  if (t.options && t.options.length) parts.push(t.options.join(', '));
  if (t.kind === 'arena' && t.minutes) parts.push(`${t.minutes} minutes`);
  if (t.kind === 'swiss' && t.rounds) parts.push(`${t.rounds} rounds`);
  return parts.join(' · ');
}

// Joins the lobby's WebSocket: `onMessage(m)` for each message, `onOpen()` at each
// (re)connection; `conn` shows whether it is live.
export function lobbySocket(conn, onMessage, onOpen) {
  let retry = 0, restarting = false;
  function connect() {
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/lobby/ws');
    ws.onopen = () => { retry = 0; restarting = false; conn.textContent = '● live'; conn.className = 'conn live'; onOpen(); };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      onMessage(m);
    };
    ws.onclose = (ev) => {
      conn.className = 'conn';
      if (ev.code === 1012) { restarting = true; retry = 0; }
      conn.textContent = restarting ? '○ server restarting, reconnecting' : '○ reconnecting';
      setTimeout(connect, restarting ? 1000 : Math.min(10000, 500 * 2 ** retry++));
    };
  }
  connect();
}

// A small flame: an arena player on a streak (their next win counts double).
function flame() {
  return h('span', { class: 'fire', title: 'on a streak: the next win counts double' },
    s('svg', { viewBox: '0 0 12 16', class: 'fire-icon', 'aria-hidden': 'true' },
      s('path', { d: 'M6 0 C7 4 11 6 11 10.5 A5 5 0 0 1 1 10.5 C1 8 2.5 6.5 3.5 5.5 C3.5 7.5 4.5 8.5 5.5 8.5 C5 6 4.5 3 6 0 Z' })),
    h('span', { class: 'visually-hidden' }, ' on a streak: the next win counts double'));
}

// ---- /tournaments ----

export async function tournamentsPage() {
  document.title = 'Senet — tournaments';
  const app = $('#app');
  const cat = await catalogue();
  const T = { list: new Map(), invitations: [] };
  const conn = h('span', { id: 'tournaments-conn', class: 'conn' });
  const say = h('p', { id: 'tournaments-announce', class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true' });
  const error = h('p', { id: 'tournaments-error', class: 'error', role: 'alert' });
  const lists = {
    created: h('ul', { id: 'upcoming', class: 'seeks tlist', 'aria-labelledby': 'upcoming-title' }),
    running: h('ul', { id: 'running', class: 'seeks tlist', 'aria-labelledby': 'running-title' }),
    over: h('ul', { id: 'finished', class: 'seeks tlist', 'aria-labelledby': 'finished-title' }),
  };
  const empty = {
    created: h('p', { class: 'small', id: 'upcoming-empty' }),
    running: h('p', { class: 'small', id: 'running-empty' }),
    over: h('p', { class: 'small', id: 'finished-empty' }),
  };
  const invList = h('ul', { id: 'invitations', class: 'seeks', 'aria-labelledby': 'invitations-title' });
  const invBox = h('div', { id: 'invitation-box', hidden: true }, h('h3', { id: 'invitations-title' }, 'Your invitations'), invList);

  function item(t) {
    const mine = me() && t.creator === me().name;
    return h('li', { class: 'tournament' + (mine ? ' mine' : ''), 'data-id': t.id },
      h('span', { class: 'seek-who' }, h('a', { href: '/tournaments/' + t.id, class: 't-link' }, t.name)),
      h('span', { class: 'seek-what' }, settingsText(t), h('br'),
        h('span', { class: 'small' }, `${t.players} player${t.players === 1 ? '' : 's'} · by ${t.creator}`)),
      h('span', { class: 't-when', 'data-id': t.id }, stateText(t)));
  }

  function render() {
    const all = [...T.list.values()];
    const group = (t) => (t.state === 'created' ? 'created' : t.state === 'running' || t.state === 'finishing' ? 'running' : 'over');
    for (const g of ['created', 'running', 'over']) {
      const ts = all.filter((t) => group(t) === g).sort((a, b) => (g === 'over' ? b.starts - a.starts : a.starts - b.starts));
      lists[g].replaceChildren(...ts.map(item));
      empty[g].textContent = ts.length ? '' : { created: 'None just now: make one below.', running: 'None under way just now.', over: 'None yet.' }[g];
    }
    const inv = T.invitations;
    invList.replaceChildren(...inv.map((t) => {
      const what = `${t.name}: ${settingsText(t)}, by ${t.creator}`;
      const yes = h('button', { class: 'primary invitation-accept', 'aria-label': `Accept the invitation to ${t.name}` }, 'Accept');
      const no = h('button', { class: 'invitation-decline', 'aria-label': `Decline the invitation to ${t.name}` }, 'Decline');
      yes.addEventListener('click', async () => {
        error.textContent = '';
        yes.disabled = true;
        try {
          await api('POST', `/api/tournaments/${t.id}/join`);
          location.href = '/tournaments/' + t.id;
        } catch (e) { error.textContent = e.message; yes.disabled = false; }
      });
      no.addEventListener('click', async () => {
        error.textContent = '';
        no.disabled = true;
        try {
          await api('POST', `/api/tournaments/${t.id}/leave`);
          T.invitations = T.invitations.filter((x) => x.id !== t.id);
          say.textContent = `You declined the invitation to ${t.name}.`;
          renderIfChanged();
          const next = invList.querySelector('button') || lists.created.querySelector('a') || $('#t-create');
          if (next) next.focus();
        } catch (e) { error.textContent = e.message; no.disabled = false; }
      });
      return h('li', { class: 'seek invitation', 'data-id': t.id },
        h('span', { class: 'seek-what' }, h('a', { href: '/tournaments/' + t.id }, t.name), `: ${settingsText(t)}, by ${t.creator}, ${stateText(t)}`), yes, no);
    }));
    invBox.hidden = !inv.length;
    invBox.dataset.count = String(inv.length);
  }

  // The countdowns, every second.
  setInterval(() => {
    for (const el of document.querySelectorAll('.t-when')) {
      const t = T.list.get(el.dataset.id);
      if (t) { const x = stateText(t); if (el.textContent !== x) el.textContent = x; }
    }
  }, 1000);

  // Drawn again only when something changed: a list drawn anew under a pointer or the
  // focus would lose a click or the place.
  let drawn = null;
  function renderIfChanged() {
    const key = JSON.stringify([[...T.list.values()], T.invitations]);
    if (key !== drawn) { drawn = key; render(); }
  }

  async function load() {
    try {
      const l = await api('GET', '/api/tournaments');
      T.list = new Map(l.tournaments.map((t) => [t.id, t]));
      T.invitations = l.invitations;
      renderIfChanged();
    } catch (e) { error.textContent = e.message; }
  }

  app.replaceChildren(h('div', { class: 'lobby tournaments' },
    h('section', { class: 'panel', id: 'tournament-lists', 'aria-labelledby': 'tournaments-title' },
      h('h2', { id: 'tournaments-title' }, 'Tournaments ', conn),
      h('p', { class: 'small' }, 'An arena: anyone joins, for a set time, and plays as many games as they can. A round-robin or a Swiss event: the players invited by its maker.'),
      invBox, error, say,
      h('h3', { id: 'upcoming-title' }, 'Starting soon'), lists.created, empty.created,
      h('h3', { id: 'running-title' }, 'Under way'), lists.running, empty.running,
      h('h3', { id: 'finished-title' }, 'Finished'), lists.over, empty.over,
      h('p', { class: 'links' }, h('a', { href: '/' }, 'Lobby'), h('a', { href: '/puzzles' }, 'Puzzles'))),
    createBox(cat)));
  await load();
  lobbySocket(conn, (m) => {
    // A game made for this player (a tournament's pairing, a seek or a challenge): to it, as
    // from the lobby.
    if (m.type === 'paired' && me() && (m.players || []).includes(me().id)) { location.href = '/g/' + m.game; return; }
    if (m.type !== 'tournament') return;
    const t = m.tournament;
    skew = t.now - Date.now();
    const was = T.list.get(t.info.id);
    T.list.set(t.info.id, t.info);
    if (!was) say.textContent = `New tournament: ${t.info.name}, ${settingsText(t.info)}.`;
    else if (was.state !== t.info.state) say.textContent = `${t.info.name} is ${STATE[t.info.state] || t.info.state}.`;
    const invited = !!me() && t.invited.some((p) => p.id === me().id);
    if (invited !== T.invitations.some((x) => x.id === t.info.id)) { load(); return; }
    renderIfChanged();
  }, () => load());
}

// The form that makes a tournament; for a player without an account, how to get one.
function createBox(cat) {
  const box = h('section', { class: 'panel', id: 'tournament-create', 'aria-labelledby': 'create-title' });
  function draw() {
    const m = me();
    if (!m || !m.account) {
      const b = h('button', { id: 'create-signin', class: 'primary', 'aria-haspopup': 'dialog' }, 'Sign up or sign in');
      b.addEventListener('click', () => {
        openAccount(() => { if (me() && me().account) draw(); });
      });
      box.replaceChildren(h('h2', { id: 'create-title' }, 'Make a tournament'),
        h('p', { id: 'create-needs-account' }, m
          ? `Making a tournament needs an account: you play as ${m.name}, a player kept by this browser only. Sign up to keep it with a password, or sign in.`
          : 'Making a tournament needs an account, and the server cannot say who you are just now.'),
        m ? h('div', { class: 'row' }, b) : null,
        h('p', { class: 'small' }, 'Anyone may join an arena, with an account or without one.'));
      return;
    }
    box.replaceChildren(h('h2', { id: 'create-title' }, 'Make a tournament'), createForm(cat));
  }
  draw();
  return box;
}

function createForm(cat) {
  const field = (id, label, input) => h('label', { class: 'field', for: id, id: id + '-field' }, h('span', {}, label), input);
  const radio = (name, value, label, checked) => h('label', { class: 'mode' },
    h('input', { type: 'radio', name, value, id: `${name}-${value}`, checked }), ' ', label);
  const defaultRules = cat.rules.some((r) => r.id === 'kendall5') ? 'kendall5' : cat.rules[0].id;
  const name = h('input', { id: 't-name', name: 'name', type: 'text', maxlength: 60, autocomplete: 'off', placeholder: 'made from your name when empty' });
  const rules = h('select', { id: 't-rules', name: 'rules' }, cat.rules.map((r) => h('option', { value: r.id, selected: r.id === defaultRules }, r.name)));
  const minutes = h('input', { type: 'number', id: 't-minutes', min: 1, max: 60, value: 3, inputmode: 'numeric' });
  const increment = h('input', { type: 'number', id: 't-increment', min: 0, max: 60, value: 2, inputmode: 'numeric' });
  const days = h('select', { id: 't-days' }, DAYS.map((d) => h('option', { value: d, selected: d === 3 }, `${d} day${d === 1 ? '' : 's'}`)));
  const rated = h('input', { type: 'checkbox', id: 't-rated', checked: true });
  const length = h('input', { type: 'number', id: 't-length', min: 2, max: 720, value: 30, inputmode: 'numeric' });
  const rounds = h('input', { type: 'number', id: 't-rounds', min: 1, max: 15, value: 5, inputmode: 'numeric' });
  const invite = h('input', { type: 'text', id: 't-invite', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', 'aria-describedby': 't-invite-hint' });
  const starts = h('input', { type: 'number', id: 't-starts', min: 0, max: 10080, value: 5, inputmode: 'numeric', 'aria-describedby': 't-starts-hint' });
  const live = h('div', { class: 'clock-fields', id: 't-live' },
    h('label', { class: 'field small-field', for: 't-minutes' }, h('span', {}, 'Minutes'), minutes),
    h('label', { class: 'field small-field', for: 't-increment' }, h('span', {}, 'Seconds added per move'), increment));
  const corr = h('div', { class: 'clock-fields', id: 't-corr', hidden: true },
    h('label', { class: 'field small-field', for: 't-days' }, h('span', {}, 'Time per move'), days));
  const about = h('p', { class: 'small', id: 't-kind-about' });
  const lengthBox = h('label', { class: 'field small-field', for: 't-length', id: 't-length-field' }, h('span', {}, 'Length in minutes (2–720)'), length);
  const roundsBox = h('label', { class: 'field small-field', for: 't-rounds', id: 't-rounds-field', hidden: true }, h('span', {}, 'Rounds (1–15)'), rounds);
  const inviteBox = h('div', { id: 't-invite-field', hidden: true },
    field('t-invite', 'Players to invite', invite),
    h('p', { class: 'small', id: 't-invite-hint' }, 'Their names, separated by commas or spaces: up to 15 for a round-robin, 63 for a Swiss event. They see the invitation on this page and accept it before the start.'));
  const err = h('p', { class: 'error', id: 't-create-error', role: 'alert' });
  const btn = h('button', { type: 'submit', id: 't-create', class: 'primary' }, 'Make the tournament');
  const corrRadio = radio('t-clock', 'days', 'correspondence');
  const f = h('form', { id: 'tournament-form', class: 'seek-form', 'aria-labelledby': 'create-title', novalidate: true },
    h('fieldset', { class: 'modes' }, h('legend', {}, 'Kind'),
      radio('t-kind', 'arena', 'arena', true), ' ', radio('t-kind', 'round-robin', 'round-robin'), ' ', radio('t-kind', 'swiss', 'Swiss'), about),
    field('t-name', 'Name (up to 60 characters)', name),
    h('label', { class: 'row', for: 't-rules' }, h('span', {}, 'Rule set'), rules),
    h('fieldset', { class: 'modes' }, h('legend', {}, 'Clock'),
      radio('t-clock', 'live', 'real time', true), ' ', corrRadio, live, corr,
      h('p', { class: 'small', id: 't-clock-hint' })),
    h('label', { class: 'mode' }, rated, ' rated games'),
    h('div', { class: 'clock-fields' }, lengthBox, roundsBox),
    inviteBox,
    h('label', { class: 'field small-field', for: 't-starts' }, h('span', {}, 'Starts in (minutes)'), starts),
    h('p', { class: 'small', id: 't-starts-hint' }, '0 starts it at once. You play in your own tournament, and may start it early from its page.'),
    h('div', { class: 'row' }, btn), err);
  const kind = () => f.querySelector('input[name=t-kind]:checked').value;
  const isDays = () => f.querySelector('input[name=t-clock]:checked').value === 'days';
  function shape() {
    const k = kind();
    about.textContent = KINDS[k].about;
    const arena = k === 'arena';
    const daysInput = corrRadio.querySelector('input');
    daysInput.disabled = arena;
    if (arena && daysInput.checked) f.querySelector('#t-clock-live').checked = true;
    $('#t-clock-hint', f).textContent = arena ? 'An arena is played on a real-time clock.' : '';
    live.hidden = isDays();
    corr.hidden = !isDays();
    lengthBox.hidden = !arena;
    roundsBox.hidden = k !== 'swiss';
    inviteBox.hidden = arena;
  }
  f.addEventListener('change', shape);
  shape();
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    const k = kind();
    const body = {
      kind: k,
      rules: rules.value,
      options: [],
      rated: rated.checked,
      clock: isDays() ? { days: Number(days.value) } : { minutes: Number(minutes.value), increment: Number(increment.value) },
      starts_in: Math.round(Number(starts.value) * 60),
    };
    if (name.value.trim()) body.name = name.value.trim();
    if (k === 'arena') body.minutes = Number(length.value);
    else body.invite = invite.value.split(/[\s,;]+/).filter(Boolean);
    if (k === 'swiss') body.rounds = Number(rounds.value);
    btn.disabled = true;
    try {
      const t = await api('POST', '/api/tournaments', body);
      location.href = '/tournaments/' + t.info.id;
    } catch (x) {
      err.textContent = x.message;
      btn.disabled = false;
    }
  });
  return f;
}

// ---- /tournaments/<id> ----

export async function tournamentPage(id) {
  const app = $('#app');
  let T;
  try {
    T = await api('GET', '/api/tournaments/' + encodeURIComponent(id));
  } catch (e) {
    document.title = 'Senet — tournament';
    app.replaceChildren(h('section', { class: 'panel' }, h('h2', {}, 'Tournament'), h('p', { class: 'error' }, e.message),
      h('p', { class: 'links' }, h('a', { href: '/tournaments' }, 'All tournaments'), h('a', { href: '/' }, 'Lobby'))));
    return;
  }
  skew = T.now - Date.now();
  const el = {
    title: h('h2', { id: 't-title' }),
    conn: h('span', { id: 't-conn', class: 'conn' }),
    settings: h('p', { id: 't-settings', class: 'small' }),
    state: h('p', { id: 't-state', class: 'status', tabindex: -1 }),
    you: h('div', { id: 't-you' }),
    actions: h('div', { id: 't-actions', class: 'game-actions' }),
    error: h('p', { id: 't-error', class: 'error', role: 'alert' }),
    say: h('p', { id: 't-announce', class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true' }),
    standings: h('div', { id: 't-standings' }),
    games: h('div', { id: 't-games' }),
    byes: h('div', { id: 't-byes' }),
    invited: h('div', { id: 't-invited' }),
  };
  const when = h('span', { id: 't-countdown', role: 'timer' });
  app.replaceChildren(h('div', { class: 'tournament-page' },
    h('section', { class: 'panel wide', id: 't-head', 'aria-labelledby': 't-title' },
      el.title, el.settings, el.state, el.you, el.actions, el.error, el.say),
    h('section', { class: 'panel wide', id: 't-standings-box', 'aria-labelledby': 't-standings-title' },
      h('h3', { id: 't-standings-title' }, 'Standings'), el.standings),
    h('section', { class: 'panel wide', id: 't-games-box', 'aria-labelledby': 't-games-title' },
      h('h3', { id: 't-games-title' }, 'Games'), el.games, el.byes, el.invited,
      h('p', { class: 'links' }, h('a', { href: '/tournaments', id: 't-all' }, 'All tournaments'), h('a', { href: '/' }, 'Lobby')))));

  const my = () => me() && T.standings.find((x) => x.player.id === me().id);
  const amInvited = () => me() && T.invited.some((p) => p.id === me().id);
  const open = () => T.info.state === 'created' || (T.info.state === 'running' && !(T.info.ends != null && serverNow() >= T.info.ends));
  let confirming = false;
  let shownPlaying = (my() || {}).playing || null;

  function act(path, b) {
    return async () => {
      el.error.textContent = '';
      b.disabled = true;
      try {
        const out = await api('POST', `/api/tournaments/${id}/${path}`);
        const asked = confirming;
        confirming = false;
        take(out);
        if (asked) renderHead();
        if (b.isConnected) b.disabled = false;
        // The focus to what is offered now, else to the state (the button went away).
        const first = el.actions.querySelector('button');
        if (first) first.focus();
        else el.state.focus();
      } catch (e) {
        el.error.textContent = e.message;
        b.disabled = false;
      }
    };
  }

  function renderHead() {
    const t = T.info;
    document.title = `Senet — ${t.name}`;
    el.title.replaceChildren(t.name, ' ', el.conn);
    el.settings.replaceChildren(settingsText(t), ` · made by `, h('a', { href: '/p/' + encodeURIComponent(t.creator) }, t.creator));
    el.state.dataset.state = t.state;
    when.textContent = stateText(t);
    el.state.replaceChildren(h('span', { class: 'visually-hidden' }, 'State: '), when);
    // Where the session's player stands, and what they may do.
    const m = me();
    const mine = my();
    const kids = [];
    if (mine && mine.playing && (t.state === 'running' || t.state === 'finishing')) {
      kids.push(h('p', { class: 'my-games', id: 't-my-game' }, h('a', { href: '/g/' + mine.playing, class: 'my-game' }, 'Your game is under way: go to it')));
    }
    let text = '';
    if (!m) text = 'The server cannot say who you are just now.';
    else if (mine && !mine.active) text = t.kind === 'arena' ? 'You left: join again to be paired again.' : 'You withdrew from this tournament.';
    else if (mine) text = t.state === 'created' ? 'You are in: the pairings begin at the start.' : open() ? (t.kind === 'arena' ? 'You are in: you are paired again as soon as your game ends.' : 'You are in.') : 'You played in it.';
    else if (amInvited()) text = t.state === 'created' ? 'You are invited: accept to play.' : 'You were invited.';
    else if (t.kind === 'arena' && open()) text = 'Join to play: anyone may, until it ends.';
    else if (t.kind !== 'arena' && t.state === 'created') text = 'Only the invited players play in it.';
    if (text) kids.push(h('p', { id: 't-you-text' }, text));
    el.you.replaceChildren(...kids);
    const bs = [];
    if (m && open()) {
      if (confirming) {
        const yes = h('button', { id: 't-withdraw-yes', class: 'danger' }, 'Yes, withdraw');
        const no = h('button', { id: 't-withdraw-no' }, 'Stay in');
        yes.addEventListener('click', act('leave', yes));
        no.addEventListener('click', () => { confirming = false; renderHead(); const b = $('#t-leave'); if (b) b.focus(); });
        bs.push(h('div', { class: 'confirm', role: 'group', 'aria-labelledby': 't-withdraw-q' },
          h('span', { id: 't-withdraw-q' }, 'Withdraw from the tournament? Your later opponents take a bye.'), yes, no));
      } else if (t.kind === 'arena') {
        if (!mine || !mine.active) {
          const b = h('button', { id: 't-join', class: 'primary' }, mine ? 'Join again' : 'Join');
          b.addEventListener('click', act('join', b));
          bs.push(b);
        } else {
          const b = h('button', { id: 't-leave', title: 'Not paired again until you join again; a game under way is played out' }, 'Leave');
          b.addEventListener('click', act('leave', b));
          bs.push(b);
        }
      } else if (t.state === 'created') {
        if (amInvited()) {
          const b = h('button', { id: 't-join', class: 'primary' }, 'Accept the invitation');
          b.addEventListener('click', act('join', b));
          const no = h('button', { id: 't-leave' }, 'Decline');
          no.addEventListener('click', act('leave', no));
          bs.push(b, no);
        } else if (mine && t.creator !== m.name) {
          const b = h('button', { id: 't-leave' }, 'Leave');
          b.addEventListener('click', act('leave', b));
          bs.push(b);
        }
      } else if (mine && mine.active) {
        const b = h('button', { id: 't-leave' }, 'Withdraw');
        b.addEventListener('click', () => { confirming = true; renderHead(); const y = $('#t-withdraw-yes'); if (y) y.focus(); });
        bs.push(b);
      }
      if (t.state === 'created' && t.creator === m.name) {
        const b = h('button', { id: 't-start' }, 'Start now');
        b.addEventListener('click', act('start', b));
        bs.push(b);
      }
    }
    // Keep the focus where it was when the buttons are drawn again.
    const had = document.activeElement && el.actions.contains(document.activeElement) ? document.activeElement.id : null;
    el.actions.replaceChildren(...bs);
    if (had) { const b = document.getElementById(had); if (b) b.focus(); }
  }

  function sheetMark(x) {
    const word = { win: 'win', draw: 'draw', loss: 'loss', bye: 'bye' }[x.result] || x.result;
    const label = `${word}, ${points(x.points)} point${x.points === 1 ? '' : 's'}${x.doubled ? ', doubled by a streak' : ''}`;
    const attrs = { class: `mark-sheet ${x.result}${x.doubled ? ' doubled' : ''}`, title: label, 'aria-label': label };
    const text = x.result === 'bye' ? 'B' : points(x.points);
    return x.game ? h('a', Object.assign({ href: '/g/' + x.game }, attrs), text) : h('span', Object.assign({ role: 'img' }, attrs), text);
  }

  function renderStandings() {
    const t = T.info;
    const rows = T.standings;
    if (!rows.length) {
      el.standings.replaceChildren(h('p', { class: 'small', id: 'standings' }, 'Nobody has joined yet.'));
      return;
    }
    const arena = t.kind === 'arena';
    const heads = ['Rank', 'Player', 'Score'].concat(arena ? [] : ['Tie-break'], ['Games (W-D-L)', 'Results', 'Now']);
    const winner = t.state === 'over' && rows[0] && rows[0].games > 0 ? rows[0] : null;
    el.standings.replaceChildren(
      winner ? h('p', { id: 't-winner', class: 'status' }, `Winner: ${winner.player.name}, with ${points(winner.score)} points.`) : '',
      h('div', { class: 'table-scroll' }, h('table', { class: 'leaderboard standings', id: 'standings' },
        h('caption', { class: 'visually-hidden' }, `${t.name}: standings, the leader first`),
        h('thead', {}, h('tr', {}, heads.map((x) => h('th', { scope: 'col' }, x)))),
        h('tbody', {}, rows.map((r) => {
          const you = me() && r.player.id === me().id;
          return h('tr', { class: (you ? 'me' : '') + (r.active ? '' : ' paused'), 'data-player': r.player.id },
            h('td', {}, String(r.rank)),
            h('th', { scope: 'row' }, playerLink(r.player), r.fire ? flame() : null, r.active ? null : h('span', { class: 'small' }, arena ? ' (left)' : ' (withdrew)')),
            h('td', { class: 't-score' }, points(r.score)),
            arena ? null : h('td', {}, points(r.tiebreak)),
            h('td', {}, `${r.games} (${r.wins}-${r.draws}-${r.losses})`),
            h('td', { class: 'sheet' }, r.sheet.length ? h('span', { class: 'sheet-marks' }, r.sheet.map(sheetMark)) : h('span', { class: 'small' }, '—')),
            h('td', {}, r.playing ? h('a', { href: '/g/' + r.playing, class: 'playing', 'aria-label': you ? 'Your game, under way' : `Playing: ${r.player.name}'s game, under way` }, you ? 'Your game' : 'Playing') : ''));
        })))));
  }

  function resultOf(g) {
    if (g.aborted) return 'aborted';
    if (!g.over) return 'playing';
    if (g.winner === 1) return '1–0';
    if (g.winner === 2) return '0–1';
    return '½–½';
  }

  function renderGames() {
    const t = T.info;
    const arena = t.kind === 'arena';
    el.games.replaceChildren(T.games.length
      ? h('ul', { class: 'live t-games', id: 't-game-list', 'aria-label': 'the games, latest first' }, T.games.map((g) => {
        const mine = me() && g.players.some((p) => p.id === me().id);
        const names = `${g.players[0].name} against ${g.players[1].name}`;
        const r = resultOf(g);
        return h('li', { class: 'live-game' + (mine ? ' mine' : '') + (g.over ? '' : ' under-way'), 'data-id': g.id },
          h('span', { class: 'small t-round' }, `${arena ? 'Pairing' : 'Round'} ${g.round}`),
          h('span', { class: 'live-players' }, playerLink(g.players[0]), ' – ', playerLink(g.players[1])),
          h('span', { class: 't-result' }, r),
          h('a', { href: '/g/' + g.id, class: 'watch button-link', 'aria-label': `${g.over ? 'Game:' : mine ? 'Play' : 'Watch'} ${names}, ${arena ? 'pairing' : 'round'} ${g.round}: ${r}` },
            g.over ? 'Game' : mine ? 'Play' : 'Watch'));
      }))
      : h('p', { class: 'small', id: 't-game-list' }, t.state === 'created' ? 'The games are paired at the start.' : 'No games yet.'));
    el.byes.replaceChildren(...(T.byes.length ? [h('h3', { id: 't-byes-title' }, 'Byes'),
      h('ul', { class: 'links t-byes', 'aria-labelledby': 't-byes-title' }, T.byes.map((b) => h('li', {}, `Round ${b.round}: `, playerLink(b.player, { noRating: true }))))] : []));
    el.invited.replaceChildren(...(T.invited.length ? [h('h3', { id: 't-invited-title' }, t.state === 'created' ? 'Invited, not yet accepted' : 'Invited, did not accept'),
      h('ul', { class: 'links t-invited', 'aria-labelledby': 't-invited-title' }, T.invited.map((p) => h('li', {}, playerLink(p))))] : []));
  }

  function render() {
    renderHead();
    renderStandings();
    renderGames();
  }

  // What changed, in words, for the polite live region.
  function news(a, b) {
    const out = [];
    if (a.info.state !== b.info.state) {
      out.push({ running: 'The tournament has started.', finishing: 'The arena has ended: the last games are being played.', over: 'The tournament is over.', cancelled: 'The tournament was cancelled: fewer than two players at the start.' }[b.info.state] || `The tournament is ${b.info.state}.`);
    }
    const before = new Map(a.standings.map((x) => [x.player.id, x]));
    for (const x of b.standings) {
      const y = before.get(x.player.id);
      if (!y) out.push(`${x.player.name} joined.`);
      else if (y.active && !x.active) out.push(`${x.player.name} left.`);
      else if (!y.active && x.active) out.push(`${x.player.name} is back.`);
    }
    const now = new Set(b.standings.map((x) => x.player.id).concat(b.invited.map((p) => p.id)));
    for (const y of a.standings) if (!now.has(y.player.id)) out.push(`${y.player.name} left.`);
    for (const p of a.invited) if (!now.has(p.id)) out.push(`${p.name} declined.`);
    const known = new Map(a.games.map((g) => [g.id, g]));
    const fresh = b.games.filter((g) => !known.has(g.id));
    if (fresh.length) out.push(b.info.kind === 'arena' ? fresh.map((g) => `New game: ${g.players[0].name} against ${g.players[1].name}.`).join(' ') : `Round ${fresh[0].round} is paired: ${fresh.length} game${fresh.length === 1 ? '' : 's'}.`);
    for (const g of b.games) {
      const o = known.get(g.id);
      if (o && !o.over && g.over) {
        out.push(g.aborted ? `${g.players[0].name} against ${g.players[1].name} was aborted.`
          : g.winner ? `${g.players[g.winner - 1].name} beat ${g.players[2 - g.winner].name}.` : `${g.players[0].name} and ${g.players[1].name} drew.`);
      }
    }
    return out.join(' ');
  }

  function go(game) { location.href = '/g/' + game; }

  // The tournament as drawn (less the server's time): drawn again only when it changed, so
  // that a button is not replaced under a pointer or the focus for nothing.
  const keyOf = (x) => JSON.stringify([x.info, x.standings, x.games, x.invited, x.byes]);
  let drawn = keyOf(T);

  function take(out) {
    const was = T;
    T = out;
    skew = T.now - Date.now();
    const text = news(was, T);
    if (text) el.say.textContent = text;
    const key = keyOf(T);
    if (key !== drawn) { drawn = key; render(); }
    // Paired while this page is open (the `paired` message may have been missed).
    const mine = my();
    if (mine && mine.playing && mine.playing !== shownPlaying && (T.info.state === 'running')) go(mine.playing);
    shownPlaying = (mine && mine.playing) || null;
  }

  setInterval(() => {
    const x = stateText(T.info);
    if (when.textContent !== x) when.textContent = x;
    // An arena's end or a start passing changes what the buttons offer.
    if (String(open()) !== el.actions.dataset.open) { el.actions.dataset.open = String(open()); renderHead(); }
  }, 1000);
  el.actions.dataset.open = String(open());
  render();
  lobbySocket(el.conn, (m) => {
    if (m.type === 'tournament' && m.tournament.info.id === id) take(m.tournament);
    else if (m.type === 'paired' && me() && (m.players || []).includes(me().id)) {
      const mine = my();
      if (T.games.some((g) => g.id === m.game) || (mine && mine.active && T.info.state === 'running')) go(m.game);
    }
  }, async () => {
    // (Re)connected: catch up on what was missed meanwhile.
    try { take(await api('GET', '/api/tournaments/' + encodeURIComponent(id))); } catch (e) { /* the next message brings it */ }
  });
}
