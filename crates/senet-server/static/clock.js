// Clocks (issue 33): how a clock setting and a time left are written, and when time is low.

// A clock setting as words: `5+3` or `3 days` (the server's own `text` where it gave one).
export function clockSpecText(c) {
  if (!c) return 'no clock';
  if (c.text) return c.text;
  if (c.days != null) return `${c.days} day${c.days === 1 ? '' : 's'}`;
  return `${c.minutes}+${c.increment}`;
}

// Whether a clock setting is a correspondence one (days per move).
export const correspondence = (c) => !!c && c.days != null;

const pad = (n) => String(n).padStart(2, '0');

// Time left as shown: `4:59`, `0:09.4` under ten seconds, `1:02:03` over an hour; for
// correspondence `2 d 5 h`, `5 h 12 min`, then minutes and seconds.
export function clockText(ms, spec) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  if (correspondence(spec) && ms >= 3600000) {
    const d = Math.floor(s / 86400), hr = Math.floor((s % 86400) / 3600), mi = Math.floor((s % 3600) / 60);
    return d > 0 ? `${d} d ${hr} h` : `${hr} h ${mi} min`;
  }
  if (s >= 3600) return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  if (ms < 10000) return `0:${pad(s)}.${Math.floor((ms % 1000) / 100)}`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

// Time left in words, for screen readers: "4 minutes 59 seconds", "2 days 5 hours".
export function clockWords(ms, spec) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const unit = (n, w) => (n ? `${n} ${w}${n === 1 ? '' : 's'}` : '');
  const join = (...xs) => xs.filter(Boolean).join(' ') || '0 seconds';
  if (correspondence(spec) && s >= 3600) {
    return join(unit(Math.floor(s / 86400), 'day'), unit(Math.floor((s % 86400) / 3600), 'hour'), s < 86400 ? unit(Math.floor((s % 3600) / 60), 'minute') : '');
  }
  return join(unit(Math.floor(s / 3600), 'hour'), unit(Math.floor((s % 3600) / 60), 'minute'), unit(s % 60, 'second'));
}

// Below this many milliseconds a clock is drawn as low on time: a tenth of the starting time,
// at least 10 and at most 30 seconds; an hour in correspondence.
export function lowAt(spec) {
  if (!spec) return 0;
  if (correspondence(spec)) return 3600000;
  return Math.min(30000, Math.max(10000, spec.minutes * 6000));
}

// The moments (milliseconds left) at which a player is told, once each, how little time is
// left on their own clock.
export function warnings(spec) {
  if (correspondence(spec)) return [3600000];
  return [60000, 30000, 10000].filter((t) => !spec || t < spec.minutes * 60000);
}
