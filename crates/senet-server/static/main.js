// senet web app: lobby, game page and review, drawn from the server's JSON API
// (/api/openapi.json). The page knows no rule: the board comes from the game's `view`, the
// moves from `legal`, what happened from each event's `kinds`. Loaded as an ES module;
// each page lives in its own module.

import { $, h } from './dom.js';
import { lobby } from './lobby.js';
import { gamePage } from './game.js';
import { reviewPage } from './review.js';
import { seriesPage } from './series.js';

function route() {
  const p = location.pathname;
  let m = p.match(/^\/g\/([A-Za-z0-9]+)\/review$/);
  const done = (x) => x.catch((e) => { $('#app').replaceChildren(h('p', { class: 'error' }, String(e.message || e))); });
  if (m) return done(reviewPage(m[1]));
  m = p.match(/^\/g\/([A-Za-z0-9]+)$/);
  if (m) return done(gamePage(m[1]));
  m = p.match(/^\/s\/([A-Za-z0-9]+)$/);
  if (m) return done(seriesPage(m[1]));
  return done(lobby());
}

route();
