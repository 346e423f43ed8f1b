/**
 * Page script, part 3: what waits for the user (confirmation cards with an editable payload,
 * long-running calls with a response form), the state by scope, the artifacts and the model's
 * last request.
 */
export const SCRIPT_PANELS = String.raw`
var pendingEl = document.getElementById('pending');
var stateEl = document.getElementById('state');
var artifactsEl = document.getElementById('artifacts');
var requestEl = document.getElementById('request');

function parseJsonBox(box, problem, what) {
  if (!box) return { ok: true, value: undefined };
  var raw = box.value.trim();
  if (!raw) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    problem.textContent = what + ' is not valid JSON: ' + error.message;
    problem.hidden = false;
    return { ok: false };
  }
}

function renderPending(pending) {
  pendingEl.textContent = '';
  (pending.confirmations || []).forEach(function (entry) { pendingEl.appendChild(confirmationCard(entry)); });
  (pending.longRunning || []).forEach(function (entry) { pendingEl.appendChild(longRunningCard(entry)); });
  (pending.credentials || []).forEach(function (entry) { pendingEl.appendChild(credentialCard(entry)); });
  if (followRun) toBottom(); // the list grows as the cards go
}

function confirmationCard(entry) {
  var call = entry.originalCall && typeof entry.originalCall === 'object' ? entry.originalCall : {};
  // A payload box only for a call that asks for one (ctx.requestConfirmation({payload})).
  var hasPayload = entry.payload !== undefined && entry.payload !== null;
  var box = hasPayload ? h('textarea', { className: 'json payload', spellcheck: 'false', 'aria-label': 'payload (JSON)' }) : null;
  if (box) box.value = JSON.stringify(entry.payload, null, 2);
  var problem = h('div', { className: 'error', hidden: true });
  var approve = h('button', { type: 'button', className: 'approve' }, 'Approve');
  var reject = h('button', { type: 'button', className: 'reject' }, 'Reject');
  var card = h('section', { className: 'card confirm', 'data-call-id': entry.callId, 'data-tool': call.name }, [
    h('h3', null, [h('span', { className: 'badge wait' }, 'approval needed'), h('code', null, String(call.name)), h('span', { className: 'note' }, 'asked by ' + entry.author)]),
    typeof entry.hint === 'string' ? h('p', { className: 'hint' }, entry.hint) : null,
    h('div', { className: 'label' }, 'the exact call'),
    h('div', { className: 'json-tree exact-call' }, jsonTree({ name: call.name, id: call.id, args: own(call, 'args') ? call.args : {} }, 0)),
    box ? h('label', null, ['payload (JSON, sent with your answer; edit it)', box]) : null,
    problem,
    h('div', { className: 'buttons' }, [approve, reject])
  ]);
  function answer(confirmed) {
    problem.hidden = true;
    var payload = parseJsonBox(box, problem, 'The payload');
    if (!payload.ok) return;
    approve.disabled = reject.disabled = true;
    follow();
    var body = { callId: entry.callId, confirmed: confirmed };
    if (payload.value !== undefined) body.payload = payload.value;
    api('POST', sessionPath() + '/confirmations', body).catch(function (error) {
      approve.disabled = reject.disabled = false;
      problem.textContent = error.message;
      problem.hidden = false;
    });
  }
  approve.addEventListener('click', function () { answer(true); });
  reject.addEventListener('click', function () { answer(false); });
  return card;
}

function credentialCard(entry) {
  // Only an http(s) consent URL becomes a link (never javascript: or data:).
  var link = typeof entry.authUri === 'string' && /^https?:\/\//i.test(entry.authUri)
    ? h('a', { className: 'sign-in', href: entry.authUri, target: '_blank', rel: 'noopener noreferrer' }, 'Sign in and allow access')
    : h('p', { className: 'note' }, 'This request has no consent URL.');
  var box = h('input', { type: 'url', className: 'response-uri', spellcheck: 'false', 'aria-label': 'the URL you were sent back to', placeholder: String(entry.redirectUri || 'https://…') + '?code=…&state=…' });
  var problem = h('div', { className: 'error', hidden: true });
  var send = h('button', { type: 'button', className: 'send-credential' }, 'Send');
  var card = h('section', { className: 'card credential', 'data-call-id': entry.callId, 'data-tool': entry.toolName }, [
    h('h3', null, [h('span', { className: 'badge wait' }, 'authorization needed'), h('code', null, String(entry.toolName)), h('span', { className: 'note' }, 'asked by ' + entry.author)]),
    link,
    h('label', null, ['after signing in, paste the URL the provider sent you back to', box]),
    problem,
    h('div', { className: 'buttons' }, [send])
  ]);
  send.addEventListener('click', function () {
    problem.hidden = true;
    if (!box.value) {
      problem.textContent = 'Paste the URL you were sent back to (it has code= and state=).';
      problem.hidden = false;
      return;
    }
    send.disabled = true;
    follow();
    api('POST', sessionPath() + '/credentials', { callId: entry.callId, authResponseUri: box.value }).catch(function (error) {
      send.disabled = false;
      problem.textContent = error.message;
      problem.hidden = false;
    });
  });
  return card;
}

function longRunningCard(entry) {
  var box = h('textarea', { className: 'json response-box', spellcheck: 'false', 'aria-label': 'function response (JSON object)' });
  box.value = JSON.stringify(entry.interim && typeof entry.interim === 'object' ? entry.interim : { status: 'done' }, null, 2);
  var problem = h('div', { className: 'error', hidden: true });
  var send = h('button', { type: 'button', className: 'send-response' }, 'Send response');
  var card = h('section', { className: 'card long-running', 'data-call-id': entry.callId, 'data-tool': entry.name }, [
    h('h3', null, [h('span', { className: 'badge wait' }, 'waiting for its result'), h('code', null, String(entry.name)), h('span', { className: 'note' }, 'called by ' + entry.author)]),
    h('div', { className: 'label' }, 'the call'),
    h('div', { className: 'json-tree' }, jsonTree({ name: entry.name, id: entry.callId, args: entry.args }, 0)),
    entry.interim ? h('div', { className: 'label' }, 'the tool answered for now (edit it into the real result)') : null,
    h('label', null, ['function response (a JSON object)', box]),
    problem,
    h('div', { className: 'buttons' }, [send])
  ]);
  send.addEventListener('click', function () {
    problem.hidden = true;
    var parsed = parseJsonBox(box, problem, 'The response');
    if (!parsed.ok) return;
    if (!parsed.value || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
      problem.textContent = 'The response must be a JSON object, like {"status": "approved"}.';
      problem.hidden = false;
      return;
    }
    send.disabled = true;
    follow();
    api('POST', sessionPath() + '/responses', { callId: entry.callId, response: parsed.value }).catch(function (error) {
      send.disabled = false;
      problem.textContent = error.message;
      problem.hidden = false;
    });
  });
  return card;
}

function keyTable(values) {
  var keys = Object.keys(values || {});
  if (!keys.length) return h('p', { className: 'empty' }, 'nothing');
  return h('table', { className: 'kv' }, keys.map(function (key) {
    return h('tr', { 'data-key': key }, [h('th', null, clip(key, 200)), h('td', null, jsonTree(values[key], 1))]);
  }));
}

function renderState(state) {
  stateEl.textContent = '';
  [
    ['session', 'Session', 'this session\u2019s keys'],
    ['user', 'User', 'user: keys, shared by all of this user\u2019s sessions'],
    ['app', 'App', 'app: keys, shared by every user']
  ].forEach(function (scope) {
    stateEl.appendChild(h('section', { className: 'scope', 'data-scope': scope[0] }, [
      h('h3', null, [scope[1] + ' ', h('small', null, scope[2])]),
      keyTable(state && state[scope[0]])
    ]));
  });
}

function artifactUrl(name, version, download) {
  var url = sessionPath() + '/artifact?name=' + encodeURIComponent(name);
  if (version !== undefined && version !== null && version !== '') url += '&version=' + encodeURIComponent(version);
  if (download) url += '&download=1';
  return withToken(url);
}

function renderArtifacts(artifacts) {
  artifactsEl.textContent = '';
  if (!artifacts.available) { artifactsEl.appendChild(h('p', { className: 'note' }, 'This runner has no artifact service.')); return; }
  if (artifacts.error) artifactsEl.appendChild(h('div', { className: 'error' }, artifacts.error));
  if (!artifacts.items.length) { artifactsEl.appendChild(h('p', { className: 'empty' }, 'No artifacts in this session yet.')); return; }
  var preview = h('div', { className: 'preview' });
  artifacts.items.forEach(function (item) {
    var versions = Array.isArray(item.versions) ? item.versions : [];
    var select = h('select', { 'aria-label': 'version of ' + item.name }, versions.slice().reverse().map(function (v) { return h('option', { value: v }, 'v' + v); }));
    var download = h('a', { href: artifactUrl(item.name, versions[versions.length - 1], true), download: String(item.name).split('/').pop() }, 'download');
    select.addEventListener('change', function () { download.setAttribute('href', artifactUrl(item.name, select.value, true)); });
    var view = h('button', { type: 'button', className: 'view' }, 'view');
    view.addEventListener('click', function () { showArtifact(preview, item.name, select.value); });
    artifactsEl.appendChild(h('div', { className: 'artifact', 'data-name': item.name }, [h('span', { className: 'name' }, item.name), select, view, download]));
  });
  artifactsEl.appendChild(preview);
}

function showArtifact(preview, name, version) {
  preview.textContent = '';
  var url = artifactUrl(name, version, false);
  fetch(url).then(function (response) {
    var type = response.headers.get('content-type') || '';
    if (!response.ok) return response.text().then(function (text) { throw new Error(text); });
    preview.appendChild(h('h3', null, name + ' v' + version + ' (' + type.split(';')[0] + ')'));
    if (/^image\/(png|jpeg|gif|webp)$/.test(type)) { preview.appendChild(h('img', { src: url, alt: name })); return; }
    if (/^(text\/|application\/json)/.test(type)) return response.text().then(function (text) { preview.appendChild(h('pre', { className: 'artifact-text' }, clip(text, 200000))); });
    preview.appendChild(h('p', { className: 'note' }, 'Binary content: download it to open it.'));
  }).catch(function (error) { preview.appendChild(h('div', { className: 'error' }, error.message)); });
}

function renderRequest(request, recording) {
  requestEl.textContent = '';
  if (!recording) {
    requestEl.appendChild(h('p', { className: 'note' }, 'This runner has no devUiPlugin(): add it to the runner\u2019s plugins to see the request its model receives.'));
    return;
  }
  if (!request) { requestEl.appendChild(h('p', { className: 'empty' }, 'No model call in this session yet.')); return; }
  requestEl.appendChild(h('p', { className: 'note' }, 'What ' + request.agent + '\u2019s model' + (request.model ? ' (' + request.model + ')' : '') + ' received at ' + clock(request.at) + ', as the plugins saw it.'));
  requestEl.appendChild(h('h3', null, 'System instruction'));
  requestEl.appendChild(request.systemInstruction ? h('pre', { className: 'instruction' }, request.systemInstruction) : h('p', { className: 'empty' }, 'none'));
  requestEl.appendChild(h('h3', null, ['Tools ', h('small', null, request.tools.length + ' declared')]));
  if (!request.tools.length) requestEl.appendChild(h('p', { className: 'empty' }, 'none'));
  request.tools.forEach(function (tool) {
    var named = tool && typeof tool === 'object' && typeof tool.name === 'string';
    requestEl.appendChild(h('div', { className: 'decl', 'data-name': named ? tool.name : null }, named
      ? h('details', null, [h('summary', null, [h('code', { className: 'fn' }, tool.name), ' ', h('span', { className: 'desc' }, tool.description || '')]), h('div', { className: 'json-tree' }, jsonTree(tool, 1))])
      : jsonBlock('native tool', tool, false)));
  });
  var longRunning = request.dispatch.filter(function (d) { return d.longRunning; }).map(function (d) { return d.name; });
  if (longRunning.length) requestEl.appendChild(h('p', { className: 'note' }, 'Long-running: ' + longRunning.join(', ')));
  if (request.toolConfig !== undefined) requestEl.appendChild(jsonBlock('tool config', request.toolConfig, false));
  requestEl.appendChild(h('h3', null, 'Settings'));
  requestEl.appendChild(Object.keys(request.settings).length ? keyTable(request.settings) : h('p', { className: 'empty' }, 'defaults'));
  if (request.hiddenConfigKeys.length) requestEl.appendChild(h('p', { className: 'note' }, 'Not shown (provider options): ' + request.hiddenConfigKeys.join(', ')));
  requestEl.appendChild(h('h3', null, ['Contents ', h('small', null, request.contents.length < request.contentCount ? 'the newest ' + request.contents.length + ' of ' + request.contentCount : request.contentCount + '')]));
  requestEl.appendChild(h('div', { className: 'json-tree' }, jsonTree(request.contents, 1)));
}
`;
