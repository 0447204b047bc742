// Building DOM and SVG elements: h('div', {class: 'x', onclick: f}, ...children).

export const $ = (sel, root = document) => root.querySelector(sel);
const SVGNS = 'http://www.w3.org/2000/svg';

function build(make, tag, attrs, kids) {
  const e = make(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.setAttribute('class', v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const k of kids.flat()) {
    if (k == null || k === false) continue;
    e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return e;
}
export const h = (tag, attrs, ...kids) => build((t) => document.createElement(t), tag, attrs, kids);
export const s = (tag, attrs, ...kids) => build((t) => document.createElementNS(SVGNS, t), tag, attrs, kids);
