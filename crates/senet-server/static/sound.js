// Sounds synthesized with the Web Audio API (nothing is downloaded): a throw, a landing, a
// capture, the water and the end of a game. Off until the user turns them on; the switch
// and the volume are kept in this browser.

const KEY = 'senet.sound';
let ctx = null;

export function soundPrefs() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '{}') || {};
    return { on: v.on === true, volume: typeof v.volume === 'number' ? Math.min(1, Math.max(0, v.volume)) : 0.6 };
  } catch (e) { return { on: false, volume: 0.6 }; }
}

export function setSoundPrefs(p) {
  try { localStorage.setItem(KEY, JSON.stringify(p)); } catch (e) { /* private mode */ }
}

function audio() {
  if (!ctx) {
    const C = window.AudioContext || window.webkitAudioContext;
    if (!C) return null;
    ctx = new C();
  }
  if (ctx.state === 'suspended') ctx.resume();
  return ctx;
}

// A short tone: frequency f (falling to f2), d seconds, at time t0 from now.
function tone(a, out, f, f2, d, t0, type, gain) {
  const o = a.createOscillator(), g = a.createGain();
  const t = a.currentTime + t0;
  o.type = type || 'sine';
  o.frequency.setValueAtTime(f, t);
  o.frequency.exponentialRampToValueAtTime(Math.max(20, f2), t + d);
  g.gain.setValueAtTime(0.0001, t);
  g.gain.exponentialRampToValueAtTime(gain || 0.5, t + 0.005);
  g.gain.exponentialRampToValueAtTime(0.0001, t + d);
  o.connect(g).connect(out);
  o.start(t);
  o.stop(t + d + 0.02);
}

// A burst of filtered noise: wood on wood, or water.
function noise(a, out, d, t0, freq, q, gain) {
  const n = Math.floor(a.sampleRate * d);
  const buf = a.createBuffer(1, n, a.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / n);
  const src = a.createBufferSource(), f = a.createBiquadFilter(), g = a.createGain();
  src.buffer = buf;
  f.type = 'bandpass';
  f.frequency.value = freq;
  f.Q.value = q;
  g.gain.value = gain;
  src.connect(f).connect(g).connect(out);
  src.start(a.currentTime + t0);
}

// Plays one of 'throw', 'land', 'capture', 'water', 'end' if sounds are on.
export function play(name) {
  const p = soundPrefs();
  if (!p.on || p.volume <= 0) return;
  const a = audio();
  if (!a) return;
  const out = a.createGain();
  out.gain.value = p.volume;
  out.connect(a.destination);
  if (name === 'throw') {
    for (let i = 0; i < 4; i++) noise(a, out, 0.05, i * 0.055 + Math.random() * 0.02, 1800 + i * 300, 3, 0.9);
  } else if (name === 'land') {
    tone(a, out, 220, 140, 0.12, 0, 'triangle', 0.6);
    noise(a, out, 0.03, 0, 1200, 2, 0.5);
  } else if (name === 'capture') {
    tone(a, out, 330, 180, 0.1, 0, 'triangle', 0.6);
    tone(a, out, 260, 120, 0.16, 0.09, 'triangle', 0.6);
  } else if (name === 'water') {
    noise(a, out, 0.5, 0, 500, 0.8, 0.7);
    tone(a, out, 600, 180, 0.45, 0, 'sine', 0.2);
  } else if (name === 'end') {
    [523, 659, 784].forEach((f, i) => tone(a, out, f, f * 0.99, 0.35, i * 0.14, 'sine', 0.35));
  }
}
