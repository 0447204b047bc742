// The page's engine in a Web Worker (issue 54): the rules and bots compiled to WebAssembly
// (crates/senet-wasm), so that a bot's move, a hint or a win chance is computed in this
// browser, never on the server, and the page never freezes while a bot thinks. Messages in:
// {id, req} (req: a JSON request, see crates/senet-wasm); out: {id, ok: answer} or
// {id, error: words}.

let exports = null;
const ready = (async () => {
  const r = await fetch('/static/senet_engine.wasm');
  if (!r.ok) throw new Error((await r.text()) || `the engine could not be fetched (HTTP ${r.status})`);
  const bytes = await r.arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, {});
  exports = instance.exports;
})();

const enc = new TextEncoder();
const dec = new TextDecoder();

function call(req) {
  const input = enc.encode(JSON.stringify(req));
  const p = exports.senet_alloc(input.length);
  new Uint8Array(exports.memory.buffer, p, input.length).set(input);
  const r = BigInt.asUintN(64, BigInt(exports.senet_call(p, input.length)));
  exports.senet_free(p, input.length);
  const ptr = Number(r >> 32n);
  const len = Number(r & 0xffffffffn);
  const text = dec.decode(new Uint8Array(exports.memory.buffer, ptr, len).slice());
  exports.senet_free(ptr, len);
  return JSON.parse(text);
}

self.onmessage = async (ev) => {
  const { id, req } = ev.data;
  try {
    await ready;
    const answer = call(req);
    if (answer && typeof answer.error === 'string') self.postMessage({ id, error: answer.error });
    else self.postMessage({ id, ok: answer });
  } catch (e) {
    self.postMessage({ id, error: String((e && e.message) || e) });
  }
};
