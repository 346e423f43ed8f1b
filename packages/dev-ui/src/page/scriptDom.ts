/**
 * Page script, part 1: building DOM safely. Everything shown goes in as text nodes or attribute
 * values (never as HTML), and the only URLs set are the page's own API paths.
 */
export const SCRIPT_DOM = String.raw`
function h(tag, attrs, children) {
  var el = document.createElement(tag);
  if (attrs) {
    Object.keys(attrs).forEach(function (name) {
      var value = attrs[name];
      if (value === undefined || value === null || value === false) return;
      if (name === 'className') el.className = value;
      else if (name.slice(0, 2) === 'on' && typeof value === 'function') el.addEventListener(name.slice(2), value);
      else el.setAttribute(name, value === true ? '' : String(value));
    });
  }
  append(el, children);
  return el;
}

function append(el, child) {
  if (child === undefined || child === null || child === false) return;
  if (Array.isArray(child)) child.forEach(function (c) { append(el, c); });
  else if (child instanceof Node) el.appendChild(child);
  else el.appendChild(document.createTextNode(String(child)));
}

function own(object, key) {
  return object !== null && typeof object === 'object' && Object.prototype.hasOwnProperty.call(object, key);
}

function clip(text, max) {
  text = String(text);
  return text.length > max ? text.slice(0, max) + '…' : text;
}

/** A JSON value as a collapsible tree: objects and arrays are <details>, the rest typed spans. */
function jsonTree(value, depth) {
  depth = depth || 0;
  if (value === null || typeof value !== 'object') {
    var type = value === null ? 'null' : typeof value;
    return h('span', { className: 'j-' + type }, JSON.stringify(value));
  }
  var isArray = Array.isArray(value);
  var keys = Object.keys(value);
  if (keys.length === 0) return h('span', { className: 'j-empty' }, isArray ? '[]' : '{}');
  var summary = isArray
    ? '[' + keys.length + (keys.length === 1 ? ' item]' : ' items]')
    : '{' + keys.slice(0, 4).map(function (k) { return clip(k, 24); }).join(', ') + (keys.length > 4 ? ', … ' + keys.length + ' keys' : '') + '}';
  var details = h('details', { className: 'json', open: depth < 2 && keys.length <= 12 }, [h('summary', null, summary)]);
  var list = h('ul');
  keys.forEach(function (key) {
    list.appendChild(h('li', null, [isArray ? null : h('span', { className: 'j-key' }, clip(key, 200) + ': '), jsonTree(value[key], depth + 1)]));
  });
  details.appendChild(list);
  return details;
}

function jsonBlock(label, value, open) {
  return h('details', { className: 'json-block', open: !!open }, [h('summary', null, label), h('div', { className: 'json-tree' }, jsonTree(value, 1))]);
}

function clock(ms) {
  if (typeof ms !== 'number' || !isFinite(ms)) return '';
  var d = new Date(ms);
  return d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

function duration(ms) {
  if (!(ms >= 0)) return '';
  if (ms < 1) return '<1 ms';
  if (ms < 1000) return Math.round(ms) + ' ms';
  if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
  if (ms < 3600000) return Math.floor(ms / 60000) + ' min ' + Math.round((ms % 60000) / 1000) + ' s';
  return (ms / 3600000).toFixed(1) + ' h';
}

function safeImageUrl(url) {
  return typeof url === 'string' && /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+\/]+={0,2}$/.test(url) ? url : null;
}
`;
