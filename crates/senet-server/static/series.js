// Series (issue 13): the lobby's choice, the game page's series line and next game, the series page.

import { $, h } from './dom.js';
import { api, saved } from './api.js';

// The lobby's choice between a single game and a series to N.
export function seriesChoice() {
  const kind = (v, label, checked) => h('label', { class: 'mode' }, h('input', { type: 'radio', name: 'play', value: v, checked }), ' ', label);
  const n = h('input', { type: 'number', id: 'series-n', min: 1, max: 100000, value: 3, 'aria-label': 'series length' });
  const unit = h('select', { id: 'series-unit', 'aria-label': 'counted in' }, h('option', { value: 'points' }, 'points (games won where the rules do not score)'), h('option', { value: 'games' }, 'games in all'));
  const starts = h('select', { id: 'series-starts' }, h('option', { value: 'alternate' }, 'alternating'), h('option', { value: 'rules' }, "by the rule set's own start rule"));
  const box = h('fieldset', { class: 'modes', id: 'play-kind' }, h('legend', {}, 'Play'),
    kind('single', 'a single game', true), h('br'),
    kind('series', 'a series to '), n, ' ', unit, h('br'),
    h('label', { class: 'row' }, h('span', {}, 'Who starts each game'), starts));
  return {
    box,
    // Whether a series is chosen.
    wanted() {
      const k = box.querySelector('input[name=play]:checked');
      return !!k && k.value === 'series';
    },
    apply(body) {
      const k = box.querySelector('input[name=play]:checked');
      if (!k || k.value !== 'series') return;
      body.series = { [unit.value]: Number(n.value) };
      body.starts = starts.value;
    },
  };
}

// Series seat (1 or 2) -> how to call it on this page.
function seatName(S, seat, tokens) {
  const x = S.series.seats[seat - 1];
  if (x.kind === 'bot') return `the bot (${x.bot})`;
  if (tokens[x.player] && S.mode !== 'hotseat') return 'you';
  return `seat ${seat}`;
}

// The series line of the game page, and at the end of a game "next game" or the series result.
export function renderSeries(G, box, tokens) {
  const S = G.state;
  const sr = S.series;
  if (!sr) { box.replaceChildren(); return; }
  const target = sr.target.points != null ? `to ${sr.target.points} points` : `of ${sr.target.games} games`;
  const over = S.status.state === 'over';
  const line = h('p', { id: 'series-score' },
    h('b', {}, `Series ${target} · game ${sr.game}`), ' · ',
    `${seatName(S, 1, tokens)} ${sr.score[0]} – ${sr.score[1]} ${seatName(S, 2, tokens)}`,
    over && sr.points ? ` (this game: ${sr.points[0]} – ${sr.points[1]})` : '');
  const kids = [line];
  const mineAny = tokens['1'] || tokens['2'];
  if (over && sr.over) {
    const w = sr.winner == null ? 'The series is drawn' : `${seatName(S, sr.winner, tokens)} won the series`.replace(/^you won/, 'You won').replace(/^the bot/, 'The bot').replace(/^seat/, 'Seat');
    kids.push(h('p', { id: 'series-result', class: 'result' }, `${w} ${sr.score[0]} – ${sr.score[1]}. `,
      h('a', { href: '/s/' + sr.id, id: 'series-page' }, 'Series result'), ' · ',
      h('a', { href: `/api/series/${sr.id}/record` }, 'download the series record')));
  } else if (over && mineAny) {
    const b = h('button', { id: 'next-game', class: 'primary' }, sr.next ? 'Go to the next game' : 'Next game');
    b.addEventListener('click', () => nextGame(G.id, S, tokens, b));
    kids.push(h('p', {}, b, sr.next ? ' Your opponent has started it.' : ''));
  } else if (over && sr.next) {
    kids.push(h('p', {}, h('a', { href: '/g/' + sr.next, id: 'next-game-link' }, 'Watch the next game')));
  }
  box.replaceChildren(...kids);
}

async function nextGame(id, S, tokens, button) {
  button.disabled = true;
  const mineP = ['1', '2'].filter((p) => tokens[p]);
  try {
    const n = await api('POST', `/api/games/${id}/next`, { seq: S.seq }, tokens[mineP[0]]);
    // The caller's token plays `n.seat` in the new game; a second token (hot-seat) the other.
    const t = {};
    t[n.seat] = tokens[mineP[0]];
    if (mineP.length > 1) t[3 - n.seat] = tokens[mineP[1]];
    saved.put(n.id, { tokens: t, seed_hash: n.state.seed_hash, rules: S.rules, mode: S.mode, created: Date.now(), series: n.series });
    location.href = '/g/' + n.id;
  } catch (e) {
    button.disabled = false;
    button.after(h('span', { class: 'error' }, ' ' + e.message));
  }
}

// The series result page: every game with its points and the running score.
export async function seriesPage(sid) {
  const S = await api('GET', '/api/series/' + sid);
  document.title = 'Senet — series';
  const target = S.target.points != null ? `to ${S.target.points} points` : `of ${S.target.games} games`;
  const who = (seat) => {
    const x = S.seats[seat - 1];
    return x.kind === 'bot' ? `the bot (${x.bot})` : `seat ${seat}`;
  };
  const result = S.over
    ? (S.winner == null ? `Drawn series ${S.score[0]} – ${S.score[1]}` : `${who(S.winner)} won the series ${S.score[0]} – ${S.score[1]}`)
    : `Series going on: ${S.score[0]} – ${S.score[1]} after ${S.finished} games`;
  const rows = S.games.map((g) => h('tr', {},
    h('td', {}, h('a', { href: '/g/' + g.id }, String(g.game))),
    h('td', {}, who(g.first)),
    h('td', {}, g.state === 'over' ? (g.winner == null ? 'draw' : who(g.winner)) : 'playing'),
    h('td', {}, g.points ? `${g.points[0]} – ${g.points[1]}` : ''),
    h('td', {}, `${g.score[0]} – ${g.score[1]}`)));
  $('#app').replaceChildren(h('section', { class: 'panel', id: 'series-summary' },
    h('h2', {}, `Series ${target} · ${S.rules}`),
    h('p', { id: 'series-final' }, result[0].toUpperCase() + result.slice(1) + '.'),
    h('p', { class: 'small' }, S.scores ? "Points are the rule set's score of each game." : 'A point is a game won.'),
    h('table', { class: 'series-table' },
      h('thead', {}, h('tr', {}, h('th', {}, 'game'), h('th', {}, 'first player'), h('th', {}, 'winner'), h('th', {}, 'points'), h('th', {}, 'score'))),
      h('tbody', {}, rows)),
    h('p', {}, h('a', { href: `/api/series/${sid}/record` }, 'Download the series record'), ' (check it with ', h('code', {}, 'senet replay FILE'), ') · ', h('a', { href: '/' }, 'Lobby'))));
}
