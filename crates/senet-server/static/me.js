// Who this browser is (issue 33): every visitor is a player. On each page load GET /api/me says
// who the session cookie belongs to; without a session POST /api/me makes an anonymous player
// once. The header shows the name (a link to the player's page) and an account dialog: rename,
// sign up (keep the player with a password), sign in, sign out, sign out everywhere, change
// the password.

import { $, h } from './dom.js';
import { api, setCsrf } from './api.js';

let ME = null;
let UNREACHABLE = false;

// The session's player, or null where the server could not say (the page still works).
export function me() { return ME; }
// Whether the server could not be reached at all when this page loaded (issue 54: the page
// came from the service worker's cache).
export function unreachable() { return UNREACHABLE; }

function take(m) {
  ME = m;
  setCsrf(m ? m.csrf : null);
  return m;
}

export async function loadMe() {
  try {
    return take(await api('GET', '/api/me'));
  } catch (e) {
    UNREACHABLE = e.status == null;
    if (e.status !== 401) return take(null);
  }
  try {
    return take(await api('POST', '/api/me', {}));
  } catch (e) {
    return take(null);
  }
}

// The rating shown for a player: `1523` or `1500?` while provisional, `—` without one.
export function ratingText(r, provisional) {
  if (r == null) return '—';
  return `${r}${provisional ? '?' : ''}`;
}

// A player's name as a link to their page, with the rating where there is one.
export function playerLink(p, opts = {}) {
  if (!p) return h('span', { class: 'pname' }, opts.empty || 'nobody yet');
  const you = ME && p.id === ME.id;
  return h('span', { class: 'pname' },
    h('a', { href: '/p/' + encodeURIComponent(p.name), class: 'plink' }, p.name),
    you && !opts.noYou ? h('span', { class: 'small' }, ' (you)') : null,
    opts.noRating ? null : h('span', { class: 'prating', title: p.provisional ? 'provisional rating' : 'rating' }, ' ', ratingText(p.rating, p.provisional)));
}

// A labelled form with one error line; `fields` are [name, label, type, attrs]. `submit`
// gets the values and returns a promise; its error's message is shown in words.
function form(id, title, fields, submitLabel, submit) {
  const err = h('p', { class: 'error', id: id + '-error', role: 'alert' });
  const inputs = fields.map(([name, label, type, attrs]) => {
    const inp = h('input', Object.assign({ id: `${id}-${name}`, name, type, required: true }, attrs || {}));
    return [name, inp, h('label', { class: 'field', for: inp.id }, h('span', {}, label), inp)];
  });
  const btn = h('button', { type: 'submit', class: 'primary', id: id + '-submit' }, submitLabel);
  const f = h('form', { class: 'account-form', id, 'aria-labelledby': id + '-title', novalidate: true },
    h('h3', { id: id + '-title' }, title), ...inputs.map((x) => x[2]), h('div', { class: 'row' }, btn), err);
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    const v = Object.fromEntries(inputs.map(([name, inp]) => [name, inp.value]));
    btn.disabled = true;
    try {
      await submit(v);
    } catch (x) {
      err.textContent = x.message;
    } finally {
      btn.disabled = false;
    }
  });
  return f;
}

const NAME = { autocomplete: 'username', minlength: 3, maxlength: 20, autocapitalize: 'off', spellcheck: 'false' };

function dialogBody(close) {
  const m = ME;
  const kids = [];
  const note = h('p', { id: 'account-note', class: 'small', role: 'status' });
  kids.push(h('p', {}, m.account ? 'Your account ' : 'You play as ', h('a', { href: '/p/' + encodeURIComponent(m.name), id: 'my-page' }, m.name),
    m.account ? '.' : ', a player kept by this browser only. Sign up to keep it with a password, or sign in to an account.'));
  kids.push(note);
  kids.push(form('rename', 'Change your name', [['name', 'New name (3–20 letters, digits, _ or -)', 'text', Object.assign({ value: m.name }, NAME)]], 'Rename', async (v) => {
    take(await api('PATCH', '/api/me', { name: v.name }));
    renderHeader();
    note.textContent = `You are now ${ME.name}.`;
    $('#my-page').textContent = ME.name;
    $('#my-page').setAttribute('href', '/p/' + encodeURIComponent(ME.name));
  }));
  if (!m.account) {
    kids.push(form('signup', 'Sign up', [
      ['name', 'Name', 'text', Object.assign({ value: m.name }, NAME)],
      ['password', 'Password (at least 8 characters)', 'password', { autocomplete: 'new-password', minlength: 8, maxlength: 128 }],
    ], 'Sign up', async (v) => {
      take(await api('POST', '/api/account', { name: v.name, password: v.password }));
      renderHeader();
      fill();
      $('#account-note').textContent = `Signed up: ${ME.name} is now an account with a password.`;
    }));
    kids.push(form('signin', 'Sign in', [
      ['name', 'Name', 'text', NAME],
      ['password', 'Password', 'password', { autocomplete: 'current-password' }],
    ], 'Sign in', async (v) => {
      take(await api('POST', '/api/login', { name: v.name, password: v.password }));
      close();
      location.reload();
    }));
  } else {
    kids.push(form('password', 'Change your password', [
      ['old', 'Current password', 'password', { autocomplete: 'current-password' }],
      ['new', 'New password (at least 8 characters)', 'password', { autocomplete: 'new-password', minlength: 8, maxlength: 128 }],
    ], 'Change the password', async (v) => {
      await api('POST', '/api/password', { old: v.old, new: v.new });
      for (const i of document.querySelectorAll('#password input')) i.value = '';
      note.textContent = 'Your password was changed; every other session was signed out.';
    }));
    const err = h('p', { class: 'error', id: 'signout-error', role: 'alert' });
    const out = (everywhere) => async () => {
      err.textContent = '';
      try {
        await api('POST', '/api/logout', { everywhere });
        close();
        location.reload();
      } catch (x) { err.textContent = x.message; }
    };
    kids.push(h('div', { class: 'account-form' }, h('h3', {}, 'Sign out'),
      h('div', { class: 'row' },
        h('button', { id: 'signout', onclick: out(false) }, 'Sign out'),
        h('button', { id: 'signout-all', onclick: out(true) }, 'Sign out everywhere')), err));
  }
  kids.push(h('div', { class: 'account-form', id: 'my-data' }, h('h3', {}, 'Your data'),
    h('p', { class: 'small' }, 'Everything stored about you: your player, ratings, games, sessions and reports, as a JSON file.'),
    h('p', {}, h('a', { href: '/api/me/data', id: 'my-data-link', download: '' }, 'Download your data'))));
  kids.push(deleteForm(m, close));
  return kids;
}

// Deleting one's own player (issue 56): the name is replaced, the games stay.
function deleteForm(m, close) {
  const err = h('p', { class: 'error', id: 'delete-error', role: 'alert' });
  const pw = m.account ? h('input', { id: 'delete-password', type: 'password', autocomplete: 'current-password', required: true }) : null;
  const confirmBox = h('input', { id: 'delete-confirm', type: 'checkbox', required: true });
  const btn = h('button', { type: 'submit', id: 'delete-submit', class: 'danger' }, 'Delete my player');
  const f = h('form', { class: 'account-form', id: 'delete-form', 'aria-labelledby': 'delete-title', novalidate: true },
    h('h3', { id: 'delete-title' }, 'Delete your player'),
    h('p', { class: 'small' }, `Your name is replaced by "deleted-…", you are signed out everywhere and your seeks are withdrawn. Your games stay (your opponents keep their records and ratings) but no longer show ${m.name}. This cannot be undone.`),
    pw ? h('label', { class: 'field', for: 'delete-password' }, h('span', {}, 'Password'), pw) : null,
    h('label', { class: 'mode', for: 'delete-confirm' }, confirmBox, ' I understand'),
    h('div', { class: 'row' }, btn), err);
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    if (!confirmBox.checked) { err.textContent = 'Tick "I understand" first.'; return; }
    btn.disabled = true;
    try {
      await api('DELETE', '/api/me', pw ? { password: pw.value } : {});
      take(null);
      close();
      location.href = '/';
    } catch (x) {
      err.textContent = x.message;
    } finally {
      btn.disabled = false;
    }
  });
  return f;
}

function dialog() {
  let d = $('#account-dialog');
  if (!d) {
    d = h('dialog', { id: 'account-dialog', class: 'account-dialog', 'aria-labelledby': 'account-title' });
    document.body.append(d);
    d.addEventListener('close', () => { const b = $('#account-btn'); if (b) b.focus(); });
  }
  return d;
}

// (Re)draws the dialog's content for the session's player as it is now.
function fill() {
  const d = dialog();
  const close = () => d.close();
  const x = h('button', { id: 'account-close', class: 'close', 'aria-label': 'Close' }, '×');
  x.addEventListener('click', close);
  d.replaceChildren(h('div', { class: 'dialog-head' }, h('h2', { id: 'account-title' }, 'Account'), x), ...dialogBody(close));
}

function openDialog() {
  fill();
  dialog().showModal();
}

// Opens the account dialog from a page (a tournament's form needs an account): `onClose`, if
// given, once it is closed.
export function openAccount(onClose) {
  openDialog();
  if (onClose) dialog().addEventListener('close', onClose, { once: true });
}

// The header's part: the name (a link to the player's page) and the account button.
export function renderHeader() {
  const box = $('#account');
  if (!box) return;
  if (!ME) { box.replaceChildren(); return; }
  const b = h('button', { id: 'account-btn', class: 'setting', 'aria-haspopup': 'dialog', title: 'Rename, sign up, sign in or out' }, personIcon(), h('span', {}, 'Account'));
  b.addEventListener('click', openDialog);
  box.replaceChildren(h('a', { href: '/p/' + encodeURIComponent(ME.name), id: 'me-link', class: 'me-link' }, ME.name), b);
}

function personIcon() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 20 20');
  svg.setAttribute('class', 'icon');
  svg.setAttribute('aria-hidden', 'true');
  const p = document.createElementNS(ns, 'path');
  p.setAttribute('d', 'M10 2 A4 4 0 1 1 9.99 2 Z M2 19 C2 13 6 11 10 11 C14 11 18 13 18 19 Z');
  svg.append(p);
  return svg;
}
