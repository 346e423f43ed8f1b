/**
 * Page script, part 2: the event stream. Complete events become cards (text, calls with their
 * arguments, results, errors in red); partial events update a streaming bubble or a tool's
 * progress line in place until the complete event or the call's response arrives.
 */
export const SCRIPT_EVENTS = String.raw`
var eventsEl = document.getElementById('events');
var seenEvents = new Set();
var streamingBubbles = new Map();
var progressCards = new Map();
var REQUEST_CONFIRMATION = 'adk_request_confirmation';

function resetEvents() {
  eventsEl.textContent = '';
  seenEvents.clear();
  streamingBubbles.clear();
  progressCards.clear();
  resetTasks();
}

/**
 * After you send a message, approve, reject or answer a call, the list follows the run to its
 * answer, wherever it was scrolled; otherwise it sticks to the bottom only when it was there.
 */
var followRun = false;

function nearBottom() {
  return followRun || eventsEl.scrollHeight - eventsEl.scrollTop - eventsEl.clientHeight < 80;
}

function follow() {
  followRun = true;
  toBottom();
}

function toBottom() {
  eventsEl.scrollTop = eventsEl.scrollHeight;
}

/**
 * Puts a card in time order: complete events by timestamp (the user's message, which the run does
 * not stream, may arrive after the answers), live cards (streaming, progress, sending) last.
 */
function placeEvent(el, stick) {
  placeIn(eventsEl, el, stick);
}

/** The same order inside any list of cards (the event list, a task's thread). */
function placeIn(container, el, stick) {
  var ts = Number(el.getAttribute('data-ts'));
  var before = null;
  if (el.hasAttribute('data-ts')) {
    var cards = container.children;
    for (var i = 0; i < cards.length; i++) {
      var other = cards[i];
      var live = !other.hasAttribute('data-ts') && other.classList.contains('event');
      if (other === el) continue;
      if (live || Number(other.getAttribute('data-ts')) > ts) { before = other; break; }
    }
  }
  if (before) container.insertBefore(el, before);
  else container.appendChild(el);
  if (stick) eventsEl.scrollTop = eventsEl.scrollHeight;
}

/** The user's message as sent, until the stored event comes back. */
function showSending(text) {
  var el = h('article', { className: 'event from-user sending', 'data-author': 'user' }, [
    h('header', { className: 'meta' }, [h('span', { className: 'author' }, 'user'), h('span', { className: 'badge' }, 'sending…')]),
    h('div', { className: 'text' }, text)
  ]);
  placeEvent(el, true);
  return el;
}

function showOmitted(count) {
  if (count > 0) eventsEl.appendChild(h('div', { className: 'omitted' }, count + ' older events not shown.'));
}

function addEvent(ev) {
  if (!ev || typeof ev !== 'object') return;
  if (ev.partial) return addPartial(ev);
  if (seenEvents.has(ev.id)) return;
  seenEvents.add(ev.id);
  var stick = nearBottom();
  if (ev.author === 'user') eventsEl.querySelectorAll('.event.sending').forEach(function (el) { el.remove(); });
  var bubble = streamingBubbles.get(ev.invocationId + '|' + ev.author);
  if (bubble) { bubble.el.remove(); streamingBubbles.delete(ev.invocationId + '|' + ev.author); }
  dropForming(ev.invocationId + '|' + ev.author);
  parts(ev).forEach(function (part) {
    var id = part.functionResponse && part.functionResponse.id;
    var card = id && progressCards.get(id);
    if (card) { card.el.remove(); progressCards.delete(id); }
  });
  placeCard(ev, renderEvent(ev), stick);
}

function clearLive() {
  eventsEl.querySelectorAll('.event.sending').forEach(function (el) { el.remove(); });
  streamingBubbles.forEach(function (b) { b.el.remove(); });
  streamingBubbles.clear();
  progressCards.forEach(function (c) { c.el.remove(); });
  progressCards.clear();
  dropForming();
}

function parts(ev) {
  return ev.content && Array.isArray(ev.content.parts) ? ev.content.parts : [];
}

function renderEvent(ev) {
  var failed = !!(ev.errorCode || ev.errorMessage);
  var card = h('article', {
    className: 'event' + (ev.author === 'user' ? ' from-user' : '') + (failed ? ' has-error' : ''),
    'data-author': ev.author,
    'data-event-id': ev.id,
    'data-ts': typeof ev.timestamp === 'number' ? ev.timestamp : 0
  }, h('header', { className: 'meta' }, [
    h('span', { className: 'author' }, ev.author),
    h('time', null, clock(ev.timestamp)),
    ev.branch ? h('span', null, ev.branch) : null
  ]));
  var longRunning = Array.isArray(ev.longRunningToolIds) ? ev.longRunningToolIds : [];
  parts(ev).forEach(function (part) { card.appendChild(renderPart(part, ev, longRunning)); });
  if (failed) card.appendChild(h('div', { className: 'error', role: 'alert' }, (ev.errorCode ? ev.errorCode + ': ' : '') + (ev.errorMessage || '')));
  var notes = actionNotes(ev.actions);
  if (notes.length) card.appendChild(h('div', { className: 'actions' }, notes));
  if (!parts(ev).length && !failed && !notes.length) card.appendChild(h('div', { className: 'actions' }, 'no content'));
  return card;
}

function renderPart(part, ev, longRunning) {
  if (!part || typeof part !== 'object') return h('div', { className: 'text' }, String(part));
  if (typeof part.text === 'string') {
    if (part.thought) return h('details', { className: 'thought' }, [h('summary', null, 'thought'), h('div', { className: 'text' }, part.text)]);
    return h('div', { className: 'text' }, part.text);
  }
  if (part.functionCall) return renderCall(part.functionCall, longRunning.indexOf(part.functionCall.id) >= 0);
  if (part.functionResponse) return renderResponse(part.functionResponse, ev);
  if (part.inlineData) {
    var image = safeImageUrl(part.inlineData.dataUrl);
    var label = (part.inlineData.mimeType || 'data') + ', ' + part.inlineData.bytes + ' bytes';
    return image ? h('img', { className: 'inline-image', src: image, alt: label, title: label }) : h('div', { className: 'note' }, '[' + label + ']');
  }
  if (part.fileData) return h('div', { className: 'note' }, 'file ' + (part.fileData.fileUri || '') + (part.fileData.mimeType ? ' (' + part.fileData.mimeType + ')' : ''));
  if (part.executableCode) return h('pre', { className: 'instruction' }, part.executableCode.code || '');
  if (part.codeExecutionResult) return h('pre', { className: 'instruction' }, (part.codeExecutionResult.outcome || '') + '\n' + (part.codeExecutionResult.output || ''));
  return jsonBlock('part', part, false);
}

function renderCall(call, longRunning) {
  var args = own(call, 'args') ? call.args : {};
  if (call.name === REQUEST_CONFIRMATION) {
    var original = own(args, 'originalFunctionCall') ? args.originalFunctionCall : {};
    var confirmation = own(args, 'toolConfirmation') ? args.toolConfirmation : {};
    return h('div', { className: 'call confirm-request', 'data-call-id': call.id, 'data-name': call.name }, [
      h('div', { className: 'call-head' }, [
        h('span', { className: 'badge wait' }, 'asks for approval'),
        h('code', { className: 'fn' }, String(original.name)),
        typeof confirmation.hint === 'string' ? h('span', { className: 'hint' }, confirmation.hint) : null,
        h('span', { className: 'id' }, call.id || '')
      ]),
      jsonBlock('request', args, false)
    ]);
  }
  return h('div', { className: 'call', 'data-call-id': call.id, 'data-name': call.name }, [
    h('div', { className: 'call-head' }, [
      h('span', { className: 'badge call' }, 'call'),
      h('code', { className: 'fn' }, String(call.name)),
      longRunning ? h('span', { className: 'badge wait' }, 'long-running') : null,
      h('span', { className: 'id' }, call.id || '')
    ]),
    jsonBlock('arguments', args, true)
  ]);
}

function renderResponse(response, ev) {
  var value = own(response, 'response') ? response.response : null;
  var asked = !!(ev.actions && own(ev.actions.requestedToolConfirmations, response.id));
  var failed = own(value, 'error') && !asked;
  var toConfirmation = response.name === REQUEST_CONFIRMATION;
  var badge = asked ? ['wait', 'waits for approval'] : failed ? ['err', 'error'] : ['ok', toConfirmation ? (value && value.confirmed ? 'approved' : 'rejected') : 'result'];
  return h('div', { className: 'response' + (failed ? ' error' : '') + (asked ? ' asked' : ''), 'data-call-id': response.id, 'data-name': response.name }, [
    h('div', { className: 'call-head' }, [
      h('span', { className: 'badge ' + badge[0] }, badge[1]),
      h('code', { className: 'fn' }, String(response.name)),
      ev.author === 'user' ? h('span', { className: 'badge you' }, 'sent by the user') : null,
      h('span', { className: 'id' }, response.id || '')
    ]),
    failed ? h('div', { className: 'error' }, typeof value.error === 'string' ? value.error : JSON.stringify(value.error)) : null,
    asked ? h('div', { className: 'hint' }, 'This call waits for the user\u2019s approval; the model was told so.') : null,
    jsonBlock('response', value, !failed && !asked)
  ]);
}

function actionNotes(actions) {
  if (!actions || typeof actions !== 'object') return [];
  var notes = [];
  var delta = actions.stateDelta && typeof actions.stateDelta === 'object' ? Object.keys(actions.stateDelta) : [];
  if (delta.length) notes.push(jsonBlock('state: ' + delta.map(function (k) { return clip(k, 40); }).join(', '), actions.stateDelta, false));
  var saved = actions.artifactDelta && typeof actions.artifactDelta === 'object' ? Object.keys(actions.artifactDelta) : [];
  if (saved.length) notes.push(h('div', null, 'saved ' + saved.map(function (k) { return clip(k, 80) + ' (v' + actions.artifactDelta[k] + ')'; }).join(', ')));
  if (actions.transferToAgent) notes.push(h('div', null, 'hands over to ' + actions.transferToAgent));
  if (actions.escalate) notes.push(h('div', null, 'escalates'));
  if (actions.skipSummarization) notes.push(h('div', null, 'ends the turn with this result'));
  if (Array.isArray(actions.startedToolCalls) && actions.startedToolCalls.length)
    notes.push(h('div', null, 'runs the approved call' + (actions.startedToolCalls.length > 1 ? 's ' : ' ') + actions.startedToolCalls.join(', ')));
  return notes;
}

function addPartial(ev) {
  var stick = nearBottom();
  if (ev.toolProgress) return showProgress(ev.toolProgress, stick);
  if (ev.toolCallDelta) return showCallForming(ev, stick);
  var text = parts(ev).filter(function (p) { return typeof p.text === 'string' && !p.thought; }).map(function (p) { return p.text; }).join('');
  if (!text) return;
  var key = ev.invocationId + '|' + ev.author;
  var bubble = streamingBubbles.get(key);
  if (!bubble) {
    bubble = { text: '', body: h('div', { className: 'text' }) };
    bubble.el = h('article', { className: 'event streaming', 'data-author': ev.author }, [
      h('header', { className: 'meta' }, [h('span', { className: 'author' }, ev.author), h('span', { className: 'badge' }, 'streaming…')]),
      bubble.body
    ]);
    streamingBubbles.set(key, bubble);
    placeEvent(bubble.el, stick);
  }
  bubble.text = clip(bubble.text + text, 200000);
  bubble.body.textContent = bubble.text;
  if (stick) eventsEl.scrollTop = eventsEl.scrollHeight;
}

function showProgress(progress, stick) {
  var id = String(progress.functionCallId);
  var card = progressCards.get(id);
  if (!card) {
    card = { log: '', meter: h('div'), text: h('div', { className: 'log' }), fraction: h('span', { className: 'badge' }) };
    card.el = h('article', { className: 'event progress', 'data-call-id': id, 'data-name': progress.toolName }, [
      h('header', { className: 'meta' }, [h('span', { className: 'author' }, String(progress.toolName)), h('span', { className: 'badge wait' }, 'running'), card.fraction]),
      h('div', { className: 'progress-body' }, [h('div', { className: 'meter' }, card.meter), card.text])
    ]);
    progressCards.set(id, card);
    placeEvent(card.el, stick);
  }
  if (typeof progress.fraction === 'number' && isFinite(progress.fraction)) {
    var percent = Math.max(0, Math.min(100, progress.fraction * 100));
    card.meter.style.width = percent + '%';
    card.fraction.textContent = Math.round(percent) + '%';
  }
  var line = typeof progress.message === 'string' ? progress.message : '';
  if (progress.event && typeof progress.event === 'object') {
    var inner = parts(progress.event).map(function (p) {
      if (typeof p.text === 'string') return p.text;
      if (p.functionCall) return 'calls ' + p.functionCall.name;
      if (p.functionResponse) return p.functionResponse.name + ' answered';
      return '';
    }).join(' ');
    if (inner || progress.event.errorMessage) line = (line ? line + '\n' : '') + progress.event.author + ': ' + (inner || progress.event.errorMessage);
  }
  if (line) {
    card.log = (card.log + (card.log && !/\n$/.test(card.log) && !/^\n/.test(line) && progress.event ? '\n' : '') + line).slice(-4000);
    card.text.textContent = card.log;
  }
  if (stick) eventsEl.scrollTop = eventsEl.scrollHeight;
}
`;
