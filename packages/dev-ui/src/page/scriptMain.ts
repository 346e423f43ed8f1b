/**
 * Page script, part 5: the API client and the wiring — the agent, user and session pickers
 * (kept in the URL's fragment), one event stream per open session (server-sent events), the
 * composer and the inspector's tabs.
 */
export const SCRIPT_MAIN = String.raw`
var TOKEN = new URLSearchParams(location.search).get('token');
var appSelect = document.getElementById('app');
var userInput = document.getElementById('user');
var sessionSelect = document.getElementById('session');
var statusEl = document.getElementById('status');
var problemEl = document.getElementById('problem');
var composer = document.getElementById('composer');
var messageBox = document.getElementById('message');
var sendButton = document.getElementById('send');
var current = { apps: [], app: null, user: '', session: null, stream: null, running: false, connected: false, runs: 0 };
var timers = {};

function withToken(url) {
  return TOKEN ? url + (url.indexOf('?') >= 0 ? '&' : '?') + 'token=' + encodeURIComponent(TOKEN) : url;
}

function api(method, path, body) {
  var headers = {};
  if (TOKEN) headers['x-adkit-dev-ui-token'] = TOKEN;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) }).then(function (response) {
    return response.text().then(function (text) {
      var data = null;
      try { data = text ? JSON.parse(text) : null; } catch (error) { data = null; }
      if (!response.ok) throw new Error((data && data.error) || text || response.status + ' ' + response.statusText);
      return data;
    });
  });
}

function enc(value) {
  return encodeURIComponent(value);
}

function appPath() {
  return 'api/apps/' + enc(current.app) + '/users/' + enc(current.user);
}

function sessionPath() {
  return appPath() + '/sessions/' + enc(current.session);
}

function showProblem(error) {
  document.getElementById('problem-text').textContent = error && error.message ? error.message : String(error);
  problemEl.hidden = false;
}

function later(name, ms, fn) {
  clearTimeout(timers[name]);
  timers[name] = setTimeout(fn, ms);
}

function setStatus() {
  var text = !current.session ? 'no session' : !current.connected ? 'connecting…' : current.running ? 'running…' : 'idle';
  statusEl.textContent = text;
  statusEl.className = 'status' + (current.running ? ' running' : '');
  // No second message while a run goes on: the composer waits for the answer.
  sendButton.disabled = messageBox.disabled = !current.session || current.running;
}

function setRunning(running) {
  var was = current.running;
  current.running = !!running;
  if (!running) clearLive();
  setStatus();
  if (was && !running) {
    if (followRun) toBottom();
    followRun = false;
    messageBox.focus();
  }
}

function remember() {
  var hash = new URLSearchParams({ app: current.app || '', user: current.user || '', session: current.session || '' }).toString();
  history.replaceState(null, '', location.pathname + location.search + '#' + hash);
}

function loadApps() {
  return api('GET', 'api/apps').then(function (data) {
    var wanted = new URLSearchParams(location.hash.slice(1));
    current.apps = data.apps;
    appSelect.textContent = '';
    data.apps.forEach(function (app) {
      var label = app.name === app.agent ? app.name : app.name + ' \u2014 ' + app.agent;
      appSelect.appendChild(h('option', { value: app.name, title: app.description || '' }, label));
    });
    var app = data.apps.find(function (a) { return a.name === wanted.get('app'); }) || data.apps[0];
    current.app = app ? app.name : null;
    appSelect.value = current.app || '';
    current.user = wanted.get('user') || data.userId;
    userInput.value = current.user;
    return loadSessions(wanted.get('session'));
  });
}

function loadSessions(wantedSession) {
  if (!current.app || !current.user) return Promise.resolve();
  return api('GET', appPath() + '/sessions').then(function (data) {
    sessionSelect.textContent = '';
    data.sessions.forEach(function (s) {
      sessionSelect.appendChild(h('option', { value: s.id }, clip(s.id, 40) + ' \u00b7 ' + new Date(s.lastUpdateTime).toLocaleString()));
    });
    var pick = data.sessions.find(function (s) { return s.id === wantedSession; }) || data.sessions[0];
    if (pick) return openSession(pick.id);
    return newSession();
  });
}

function newSession() {
  return api('POST', appPath() + '/sessions', {}).then(function (data) {
    sessionSelect.insertBefore(h('option', { value: data.id }, clip(data.id, 40) + ' \u00b7 new'), sessionSelect.firstChild);
    return openSession(data.id);
  });
}

function openSession(id) {
  if (current.stream) current.stream.close();
  current.session = id;
  current.connected = false;
  sessionSelect.value = id;
  remember();
  resetEvents();
  renderPending({});
  setStatus();
  var stream = new EventSource(withToken(sessionPath() + '/stream'));
  current.stream = stream;
  stream.onopen = function () {
    current.connected = true;
    setStatus();
    loadView();
  };
  stream.onerror = function () {
    current.connected = false;
    setStatus();
  };
  stream.onmessage = function (message) {
    if (stream !== current.stream) return;
    var data;
    try { data = JSON.parse(message.data); } catch (error) { return; }
    onMessage(data);
  };
}

function onMessage(message) {
  if (message.type === 'hello') setRunning(message.running);
  else if (message.type === 'event') addEvent(message.event);
  else if (message.type === 'run') {
    current.runs++; // a view asked for before this says nothing about whether a run goes on now
    if (message.phase === 'started') setRunning(true);
    else {
      setRunning(false);
      if (message.error) showProblem(new Error('The run failed: ' + message.error));
      later('view', 30, loadView);
    }
  } else if (message.type === 'timeline') later('timeline', 120, loadTimeline);
  else if (message.type === 'request' || message.type === 'session') later('view', 300, loadView);
}

function loadView() {
  var session = current.session;
  var runs = current.runs;
  return api('GET', sessionPath()).then(function (view) {
    if (session !== current.session) return;
    if (view.omittedEvents && !eventsEl.querySelector('.omitted')) showOmitted(view.omittedEvents);
    view.events.forEach(addEvent);
    renderPending(view.pending);
    renderState(view.state);
    renderArtifacts(view.artifacts);
    renderRequest(view.request, view.recording);
    setTimeline(view.timeline);
    if (runs === current.runs) setRunning(view.running);
    if (followRun) toBottom();
  }).catch(showProblem);
}

function loadTimeline() {
  var session = current.session;
  api('GET', sessionPath() + '/timeline').then(function (data) { if (session === current.session) setTimeline(data); }).catch(showProblem);
}

function send() {
  var text = messageBox.value;
  if (!text.trim() || !current.session || current.running) return;
  sendButton.disabled = true;
  // Shown before the request: its stored event may come back over the event stream (and the run end)
  // before the POST answers, and a card shown after that would stay "sending…" for good.
  follow();
  var sending = showSending(text);
  api('POST', sessionPath() + '/messages', { text: text }).then(function () {
    messageBox.value = '';
  }).catch(function (error) {
    sending.remove();
    showProblem(error);
    setStatus();
  });
}

composer.addEventListener('submit', function (e) { e.preventDefault(); send(); });
messageBox.addEventListener('keydown', function (e) {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); send(); }
});
appSelect.addEventListener('change', function () { current.app = appSelect.value; loadSessions().catch(showProblem); });
userInput.addEventListener('change', function () { current.user = userInput.value.trim() || current.user; userInput.value = current.user; loadSessions().catch(showProblem); });
sessionSelect.addEventListener('change', function () { openSession(sessionSelect.value); });
document.getElementById('new-session').addEventListener('click', function () { newSession().catch(showProblem); });
document.getElementById('problem-close').addEventListener('click', function () { problemEl.hidden = true; });
document.querySelectorAll('[role=tab]').forEach(function (tab) {
  tab.addEventListener('click', function () {
    document.querySelectorAll('[role=tab]').forEach(function (other) {
      var selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      document.getElementById(other.getAttribute('data-tab')).hidden = !selected;
    });
  });
});

setStatus();
loadApps().catch(showProblem);
`;
