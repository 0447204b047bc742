// Challenges (issue 57): on a player's page, challenge them by name (rule set, clock, rated
// or casual); in the lobby, the challenges to you (accept, decline) and by you (withdraw),
// read again whenever the lobby's WebSocket says yours changed. An accepted challenge is a
// game like a taken seek: the lobby's `paired` message sends both players to it.

import { h } from './dom.js';
import { api, catalogue } from './api.js';
import { playerLink } from './me.js';
import { clockSpecText } from './clock.js';

const CLOCKS = [
  { minutes: 3, increment: 2 },
  { minutes: 5, increment: 3 },
  { minutes: 10, increment: 5 },
  { days: 1 },
  { days: 3 },
];

const what = (c) => `${c.rules_name}, ${c.clock.text || clockSpecText(c.clock)}, ${c.rated ? 'rated' : 'casual'}`;

// The lobby's list of your challenges; `refresh()` reads them again.
export function challengeBox() {
  const list = h('ul', { id: 'challenges', class: 'seeks', 'aria-label': 'your challenges' });
  const msg = h('p', { class: 'error', id: 'challenges-error', role: 'alert' });
  const box = h('div', { id: 'challenge-box', hidden: true }, h('h3', { id: 'challenges-title' }, 'Challenges'), list, msg);
  const act = (method, path) => async () => {
    msg.textContent = '';
    try {
      const r = await api(method, path);
      if (r && r.game) location.href = '/g/' + r.game;
      else refresh();
    } catch (e) { msg.textContent = e.message; refresh(); }
  };
  async function refresh() {
    let c;
    try { c = await api('GET', '/api/challenges'); } catch (e) { return; }
    const items = [
      ...c.incoming.map((x) => h('li', { class: 'seek challenge incoming', 'data-id': x.id },
        h('span', {}, playerLink(x.from), ' challenges you: ', what(x)),
        h('button', { class: 'primary challenge-accept', 'aria-label': `Accept ${x.from.name}'s challenge: ${what(x)}` }, 'Accept'),
        h('button', { class: 'challenge-decline', 'aria-label': `Decline ${x.from.name}'s challenge` }, 'Decline'))),
      ...c.outgoing.map((x) => h('li', { class: 'seek challenge outgoing', 'data-id': x.id },
        h('span', {}, 'You challenged ', playerLink(x.to), ': ', what(x), ' — waiting'),
        h('button', { class: 'challenge-withdraw', 'aria-label': `Withdraw your challenge to ${x.to.name}` }, 'Withdraw'))),
    ];
    for (const li of items) {
      const id = li.dataset.id;
      const b = (cls) => li.querySelector(cls);
      if (b('.challenge-accept')) b('.challenge-accept').addEventListener('click', act('POST', `/api/challenges/${id}/accept`));
      if (b('.challenge-decline')) b('.challenge-decline').addEventListener('click', act('POST', `/api/challenges/${id}/decline`));
      if (b('.challenge-withdraw')) b('.challenge-withdraw').addEventListener('click', act('DELETE', `/api/challenges/${id}`));
    }
    list.replaceChildren(...items);
    box.hidden = !items.length;
  }
  return { el: box, refresh };
}

// The player page's challenge form for player `p`.
export async function challengeForm(p) {
  const cat = await catalogue();
  const rules = h('select', { id: 'challenge-rules' }, cat.rules.map((r) => h('option', { value: r.id, selected: r.id === 'kendall5' }, r.name)));
  const clock = h('select', { id: 'challenge-clock' }, CLOCKS.map((c, i) => h('option', { value: i, selected: i === 2 }, clockSpecText(c))));
  const rated = h('input', { type: 'checkbox', id: 'challenge-rated', checked: true });
  const status = h('p', { id: 'challenge-status', role: 'status', class: 'small' });
  const btn = h('button', { type: 'submit', id: 'challenge-send', class: 'primary' }, `Challenge ${p.name}`);
  const f = h('form', { id: 'challenge-form', class: 'account-form', 'aria-labelledby': 'challenge-title' },
    h('label', { class: 'field', for: 'challenge-rules' }, h('span', {}, 'Rule set'), rules),
    h('label', { class: 'field', for: 'challenge-clock' }, h('span', {}, 'Clock'), clock),
    h('label', { class: 'mode' }, rated, ' rated'),
    h('div', { class: 'row' }, btn), status);
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    btn.disabled = true;
    status.textContent = '';
    try {
      await api('POST', '/api/challenges', { player: p.name, rules: rules.value, options: [], rated: rated.checked, clock: CLOCKS[Number(clock.value)] });
      status.replaceChildren(`Challenge sent: ${p.name} sees it in their lobby. The game starts when they accept; wait for it in `, h('a', { href: '/', id: 'challenge-lobby' }, 'the lobby'), '.');
    } catch (x) {
      status.textContent = x.message;
    } finally {
      btn.disabled = false;
    }
  });
  return h('section', { class: 'panel wide', id: 'challenge' },
    h('h3', { id: 'challenge-title' }, `Challenge ${p.name}`),
    h('p', { class: 'small' }, 'A game only they can accept; they see it in their lobby at once.'), f);
}
