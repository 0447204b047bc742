// The game page's part for games between players (issue 33): each side's name, rating and
// clock; resign (confirmed), abort, rematch, the away countdown and "Claim the win"; the result
// with its reason in words and the rating change.

import { h } from './dom.js';
import { api } from './api.js';
import { me, playerLink } from './me.js';
import { lobbySocket } from './tournaments.js';
import { clockSpecText, clockText, clockWords, lowAt, warnings } from './clock.js';

const cap = (t) => t && t[0].toUpperCase() + t.slice(1);

// A rated game's rating change as "1500 → 1562 (+62)". A player's `rating` in a game's state
// is the rating now; once the change is applied it includes it.
export function ratingChangeText(p, delta) {
  if (!p || p.rating == null || delta == null) return null;
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  return `${p.rating - delta} → ${p.rating} (${sign}${Math.abs(delta)})`;
}

// ctx: { id, name(p) "you (light)" / "Alice (dark)", seated(p), you(), render(), error(text) }
export function onlineParts(G, ctx) {
  const el = {
    players: h('div', { id: 'players', class: 'players' }),
    actions: h('div', { id: 'game-actions', class: 'game-actions' }),
    after: h('div', { id: 'after-game' }),
    clockSay: h('p', { id: 'clock-announce', class: 'visually-hidden', 'aria-live': 'assertive', 'aria-atomic': 'true' }),
  };
  // The clock as the server last told it, and when (performance.now()).
  let clockAt = 0, awayAt = 0, confirming = false, warned = new Set(), keys = {};
  const S = () => G.state;
  const over = () => S().status.state === 'over';
  const players = () => S().players || [null, null];
  const you = () => ctx.you();
  // A game between two players (from a seek, a pairing or a rematch).
  const between = () => !!(players()[0] && players()[1]);
  const shown = () => !!(S().clock || between());

  function left(seat) {
    const c = S().clock;
    if (!c) return null;
    const ms = c.remaining[seat - 1];
    return c.running === seat && !over() ? ms - (performance.now() - clockAt) : ms;
  }

  // Takes a state from the server (the page's G.state was just set to it).
  function took() {
    clockAt = performance.now();
    awayAt = clockAt;
  }

  function card(seat) {
    const p = players()[seat - 1];
    const c = S().clock;
    const side = S().sides[seat - 1].name;
    const running = !!(c && c.running === seat && !over());
    const delta = S().rating_change ? S().rating_change[seat - 1] : null;
    const change = ratingChangeText(p, delta);
    const kids = [
      h('div', { class: 'who' },
        h('span', { class: `swatch p${seat}`, 'aria-hidden': 'true' }),
        h('span', { class: 'visually-hidden' }, `${cap(side)}: `),
        p ? playerLink(p) : h('span', { class: 'pname' }, ctx.name(seat)),
        change ? h('span', { class: 'delta ' + (delta > 0 ? 'up' : delta < 0 ? 'down' : ''), 'data-seat': seat }, ` ${delta > 0 ? '+' : delta < 0 ? '−' : '±'}${Math.abs(delta)}`) : null),
    ];
    if (c) {
      kids.push(h('div', { class: 'clock' + (running ? ' running' : ''), id: `clock-${seat}`, role: 'timer', 'data-seat': seat },
        h('span', { class: 'visually-hidden' }, running ? `${side}'s clock, running: ` : `${side}'s clock: `),
        h('span', { class: 'time' }, clockText(left(seat), c.spec))));
    }
    return h('div', { class: `pcard seat${seat}` + (running ? ' running' : ''), 'data-seat': seat }, ...kids);
  }

  // The players' cards, drawn again only when what they show (other than the time) changed.
  function renderPlayers() {
    if (!shown()) { el.players.replaceChildren(); return; }
    const s0 = S();
    const key = JSON.stringify([s0.players, s0.clock && s0.clock.running, over(), s0.rating_change, s0.clock && s0.clock.spec, me() && me().name, s0.tournament]);
    if (keys.players !== key) {
      keys.players = key;
      const spec = s0.clock ? clockSpecText(s0.clock.spec) : 'no clock';
      el.players.replaceChildren(
        h('p', { class: 'small game-kind', id: 'game-kind' }, `${s0.rated ? 'Rated' : 'Casual'} · ${spec}`,
          s0.tournament ? [' · ', h('a', { href: '/tournaments/' + s0.tournament, id: 'game-tournament' }, 'a tournament game')] : null),
        h('div', { class: 'pcards' }, card(1), card(2)),
        h('div', { id: 'away', class: 'away', role: 'status' }));
    }
    tick();
  }

  // Redraws the times and the away countdown (10 times a second while a clock runs).
  function tick() {
    const c = S().clock;
    if (c) {
      for (const seat of [1, 2]) {
        const box = el.players.querySelector(`#clock-${seat}`);
        if (!box) continue;
        const ms = left(seat);
        const t = clockText(ms, c.spec);
        const span = box.querySelector('.time');
        if (span.textContent !== t) span.textContent = t;
        box.classList.toggle('low', ms < lowAt(c.spec) && !over());
        box.setAttribute('aria-label', `${S().sides[seat - 1].name}'s clock: ${clockWords(ms, c.spec)}`);
        // A player hears, once, that their own time runs low.
        if (seat === you() && c.running === seat && !over()) {
          for (const w of warnings(c.spec)) {
            if (ms <= w && ms > 0 && !warned.has(w)) {
              warned.add(w);
              el.clockSay.textContent = `${clockWords(ms, c.spec)} left on your clock.`;
            }
          }
        }
      }
    }
    renderAway();
  }

  function renderAway() {
    const box = el.players.querySelector('#away');
    if (!box) return;
    const a = S().away;
    if (!a || over()) { if (box.firstChild) box.replaceChildren(); keys.away = null; return; }
    const ms = Math.max(0, a.claim_in - (performance.now() - awayAt));
    const other = ctx.seated(3 - a.seat) && !ctx.seated(a.seat);
    const who = a.seat === you() ? 'You have' : `${cap(ctx.name(a.seat))} has`;
    const open = ms <= 0;
    const key = JSON.stringify([a.seat, open, other]);
    const text = open
      ? (other ? `${who} left the game. You may claim the win, or wait.` : `${who} left the game: the win may be claimed now.`)
      : `${who} left the game. The win can be claimed in ${clockText(ms, null)}.`;
    if (keys.away !== key) {
      keys.away = key;
      const kids = [h('span', { class: 'away-text' }, text)];
      if (open && other) {
        const b = h('button', { id: 'claim-win', class: 'primary' }, 'Claim the win');
        b.addEventListener('click', () => post('claim-win', b));
        kids.push(' ', b);
      }
      box.replaceChildren(...kids);
    } else {
      const t = box.querySelector('.away-text');
      if (t.textContent !== text) t.textContent = text;
    }
  }

  async function post(what, btn) {
    if (btn) btn.disabled = true;
    ctx.error('');
    try {
      const r = await api('POST', `/api/games/${ctx.id}/${what}`, {}, ctx.token());
      if (what === 'rematch' && r && r.game) { location.href = '/g/' + r.game; return; }
      confirming = false;
      const fresh = await api('GET', '/api/games/' + ctx.id);
      ctx.absorbState(fresh);
    } catch (e) {
      ctx.error(e.message);
      if (btn) btn.disabled = false;
    }
  }

  // Whether the game may still be aborted: before the second player's first move.
  function abortable() {
    const movers = new Set(G.events.filter((e) => e.throw == null).map((e) => e.player));
    return movers.size < 2;
  }

  function renderActions() {
    const mine = you() != null || ctx.seated(1) || ctx.seated(2);
    if (!mine || over() || S().mode !== 'online' || !shown()) { el.actions.replaceChildren(); keys.actions = null; return; }
    const canAbort = abortable();
    const key = JSON.stringify([confirming, canAbort]);
    if (keys.actions === key) return;
    keys.actions = key;
    if (confirming) {
      const yes = h('button', { id: 'resign-yes', class: 'danger' }, 'Yes, resign');
      const no = h('button', { id: 'resign-no' }, 'Keep playing');
      yes.addEventListener('click', () => post('resign', yes));
      no.addEventListener('click', () => { confirming = false; renderActions(); const b = el.actions.querySelector('#resign'); if (b) b.focus(); });
      el.actions.replaceChildren(h('div', { class: 'confirm', role: 'group', 'aria-labelledby': 'resign-q' },
        h('span', { id: 'resign-q' }, 'Resign this game?'), yes, no));
      no.focus();
      return;
    }
    const resign = h('button', { id: 'resign' }, 'Resign');
    resign.addEventListener('click', () => { confirming = true; renderActions(); });
    const kids = [resign];
    if (canAbort) {
      const abort = h('button', { id: 'abort', title: 'End the game unrated, before both players have moved' }, 'Abort');
      abort.addEventListener('click', () => post('abort', abort));
      kids.push(abort);
    }
    el.actions.replaceChildren(...kids);
  }

  // The result in words, with its reason.
  function resultText() {
    const r = S().result;
    if (!r) return null;
    const w = r.winner;
    const n = (p) => ctx.name(p);
    const c = S().clock;
    const flagged = c ? [1, 2].find((p) => c.remaining[p - 1] <= 0) : null;
    if (r.reason === 'abort') return 'The game was aborted (unrated).';
    if (w == null) {
      if (r.reason !== 'flag-draw') return null;
      if (!flagged) return 'Draw: time ran out, but the other side could no longer win.';
      const f = n(flagged);
      return `Draw: ${f.startsWith('you') ? 'your' : f + "'s"} time ran out, but ${n(3 - flagged)} could no longer win.`;
    }
    const win = n(w), lose = n(3 - w);
    const lead = win.startsWith('you') ? 'You win' : `${cap(win)} wins`;
    switch (r.reason) {
      case 'resign': return `${lead}: ${lose.startsWith('you') ? 'you' : lose} resigned.`;
      case 'flag': return `${lead} on time: ${lose.startsWith('you') ? 'your' : lose + "'s"} time ran out.`;
      case 'claim': return `${lead}: ${lose.startsWith('you') ? 'you' : lose} left the game.`;
      default: return null;
    }
  }

  // Under the result of a game from the lobby (on a clock): the rating change, the rematch.
  // A seated player of a finished tournament game follows the tournament (issue 57): in a
  // running arena the next pairing comes within a second of a free opponent, and the page
  // goes to it (from the lobby's `paired` message, or from the tournament itself when the
  // socket opens, in case the message came first).
  let following = null;
  function nextPairing(tid) {
    if (following) return following.line;
    const line = h('p', { id: 'next-pairing', class: 'small', role: 'status' }, 'Looking for your next tournament game…');
    const conn = h('span', { class: 'conn', 'aria-hidden': 'true' });
    following = { line };
    const go = (g) => { if (g && g !== S().id) location.href = '/g/' + g; };
    const check = async () => {
      try {
        const t = await api('GET', '/api/tournaments/' + tid);
        const mineNow = me() && t.standings.find((x) => x.player.id === me().id);
        if (mineNow && mineNow.playing) return go(mineNow.playing);
        const running = t.info.state === 'running' || t.info.state === 'created';
        line.textContent = t.info.kind === 'arena' && running && mineNow && mineNow.active
          ? 'Waiting for your next pairing in the arena: this page goes to your next game.'
          : running ? 'Your next game starts with the next round: this page goes to it.' : 'The tournament is over.';
      } catch (e) { /* the link back to the tournament stays */ }
    };
    lobbySocket(conn, (m) => {
      if (m.type === 'paired' && me() && (m.players || []).includes(me().id)) go(m.game);
      else if (m.type === 'tournament' && m.tournament.info.id === tid) check();
    }, check);
    return line;
  }

  function renderAfter() {
    if (!over() || !between() || !S().clock) { el.after.replaceChildren(); keys.after = null; return; }
    const s0 = S();
    const key = JSON.stringify([s0.rating_change, s0.rematch, s0.players, s0.rated]);
    if (keys.after === key) return;
    keys.after = key;
    const kids = [];
    if (s0.rated && s0.rating_change) {
      kids.push(h('ul', { id: 'rating-change', class: 'rating-change' }, [1, 2].map((p) => {
        const x = players()[p - 1];
        return h('li', { 'data-seat': p }, playerLink(x, { noRating: true, noYou: true }), ': ', ratingChangeText(x, s0.rating_change[p - 1]) || '—');
      })));
    } else if (s0.rated && S().result && S().result.reason !== 'abort') {
      kids.push(h('p', { id: 'rating-change', class: 'small' }, 'The ratings are being updated…'));
    } else if (!s0.rated) {
      kids.push(h('p', { class: 'small' }, 'A casual game: the ratings did not change.'));
    }
    const rm = s0.rematch;
    const mine = you();
    // A tournament's game has no rematch: the tournament pairs its players (the result box
    // links back to it).
    if (s0.tournament) {
      if (mine) kids.push(nextPairing(s0.tournament));
      el.after.replaceChildren(...kids);
      return;
    }
    if (rm && rm.game) {
      kids.push(h('p', {}, h('a', { href: '/g/' + rm.game, id: 'rematch-link' }, mine ? 'Go to the rematch' : 'Watch the rematch')));
    } else if (mine) {
      const offeredByMe = rm && rm.offered_by === mine;
      const offeredToMe = rm && rm.offered_by && rm.offered_by !== mine;
      const b = h('button', { id: 'rematch', class: offeredToMe ? 'primary' : '', disabled: offeredByMe }, offeredToMe ? 'Accept the rematch' : offeredByMe ? 'Rematch offered' : 'Rematch');
      b.addEventListener('click', () => post('rematch', b));
      kids.push(h('p', { class: 'row' }, b, h('span', { id: 'rematch-text', class: 'small' },
        offeredToMe ? `${cap(ctx.name(rm.offered_by))} offers a rematch, with the seats swapped.` : offeredByMe ? 'Waiting for your opponent to accept.' : 'Play again, with the seats swapped.')));
    } else if (rm && rm.offered_by) {
      kids.push(h('p', { class: 'small' }, `${cap(ctx.name(rm.offered_by))} offers a rematch.`));
    }
    el.after.replaceChildren(...kids);
  }

  // A rematch already made when the page opened is only linked; one made while it is open
  // takes both players there.
  let rematchKnown = null;
  function render() {
    renderPlayers();
    renderActions();
    renderAfter();
    const rm = S().rematch;
    const game = rm && rm.game;
    if (rematchKnown === null) rematchKnown = game || '';
    else if (game && game !== rematchKnown && you()) location.href = '/g/' + game;
  }

  setInterval(() => { if (shown() && ((S().clock && S().clock.running && !over()) || S().away)) tick(); }, 100);

  return { el, render, took, resultText, shown };
}
