/**
 * Page script, part 2c: function calls as they form (#30). A streaming model's partial events with
 * `toolCallDelta` draw one card per call being written (by invocation, author and call index):
 * the tool's name and its arguments so far, marked "writing call…". The card goes when that
 * author's complete event arrives (the call itself, or the error of a cut stream), or when the
 * view is cleared. Nothing of it is saved: a reload shows only the stored events.
 */
export const SCRIPT_CALL_DELTAS = String.raw`
var formingCalls = new Map();

function formingKey(ev) {
  return ev.invocationId + '|' + ev.author;
}

function showCallForming(ev, stick) {
  var delta = ev.toolCallDelta;
  if (!delta || typeof delta !== 'object') return;
  var key = formingKey(ev) + '|' + String(delta.index);
  var card = formingCalls.get(key);
  if (!card) {
    card = { name: h('span', { className: 'name' }), args: h('pre', { className: 'args' }) };
    card.el = h('article', { className: 'event forming', 'data-author': ev.author }, [
      h('header', { className: 'meta' }, [h('span', { className: 'author' }, ev.author), h('span', { className: 'badge' }, 'writing call…')]),
      h('div', { className: 'call' }, [card.name, card.args])
    ]);
    card.key = formingKey(ev);
    formingCalls.set(key, card);
    placeEvent(card.el, stick);
  }
  var name = typeof delta.name === 'string' && delta.name ? clip(delta.name, 100) : '…';
  card.name.textContent = name;
  card.el.setAttribute('data-name', name);
  card.args.textContent = clip(typeof delta.argsTextSoFar === 'string' ? delta.argsTextSoFar : '', 20000);
  if (stick) eventsEl.scrollTop = eventsEl.scrollHeight;
}

/** Removes the forming cards of an author's turn (its complete event came), or all of them. */
function dropForming(key) {
  formingCalls.forEach(function (card, k) {
    if (key !== undefined && card.key !== key) return;
    card.el.remove();
    formingCalls.delete(k);
  });
}
`;
