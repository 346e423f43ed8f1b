/**
 * Page script, part 4: the timeline. Each turn is a chart: one row per agent's model calls and one
 * per tool call, bars placed on the turn's time axis, so calls that ran in parallel overlap; a call
 * waiting for a person is a hatched bar on its row. Long stretches in which only waiting happens
 * are drawn short (a dotted break saying how long), so the work stays readable.
 */
export const SCRIPT_TIMELINE = String.raw`
var timelineEl = document.getElementById('timeline');
var timelineData = null;
var clockOffset = 0;
var timelineTicker = 0;

function serverNow() {
  return Date.now() + clockOffset;
}

function setTimeline(data) {
  timelineData = data;
  clockOffset = data.now - Date.now();
  renderTimeline();
  var open = data.turns.some(function (turn) { return turn.spans.some(function (s) { return s.end === undefined || s.end === null; }); });
  if (open && !timelineTicker) timelineTicker = setInterval(renderTimeline, 250);
  if (!open && timelineTicker) { clearInterval(timelineTicker); timelineTicker = 0; }
}

function renderTimeline() {
  var data = timelineData;
  timelineEl.textContent = '';
  if (!data) return;
  if (!data.recording) {
    timelineEl.appendChild(h('p', { className: 'note' }, 'This runner has no devUiPlugin(): add it to the runner\u2019s plugins to see the timeline.'));
    return;
  }
  if (!data.turns.length) { timelineEl.appendChild(h('p', { className: 'empty' }, 'No turns recorded yet (turns run before the dev UI started are not shown).')); return; }
  timelineEl.appendChild(h('div', { className: 'tl-legend' }, [
    h('span', { className: 'l-model' }, 'model call'), h('span', { className: 'l-tool' }, 'tool call'),
    h('span', { className: 'l-wait' }, 'waiting for a person'), h('span', { className: 'l-error' }, 'failed')
  ]));
  var now = serverNow();
  data.turns.slice().reverse().forEach(function (turn) { timelineEl.appendChild(renderTurn(turn, now)); });
  fitLabels();
}

/**
 * A bar too narrow for its label first tries its duration alone; then (a 3 ms model call) it shows
 * the label beside the bar instead: after it, or
 * before it, wherever it overlaps no other bar or label of the row. With no room on either side
 * it shows none; its tooltip still says it all. Nothing is ever cut off.
 */
function fitLabels() {
  timelineEl.querySelectorAll('.tl-track').forEach(function (track) {
    var bars = Array.prototype.slice.call(track.querySelectorAll('.bar'));
    var taken = bars.map(function (bar) { return [bar.offsetLeft, bar.offsetLeft + bar.offsetWidth]; });
    function free(from, to) {
      return from >= 0 && to <= track.clientWidth && taken.every(function (iv) { return to <= iv[0] || from >= iv[1]; });
    }
    bars.forEach(function (bar) {
      if (bar.scrollWidth <= bar.clientWidth + 1) return;
      var texts = Array.prototype.slice.call(bar.childNodes).filter(function (node) { return node.nodeType === 3; });
      var short = bar.getAttribute('data-short');
      if (short && texts.length === 1 && texts[0].data !== short) {
        texts[0].data = short; // "waiting for approval · 358 ms" → "358 ms"
        if (bar.scrollWidth <= bar.clientWidth + 1) return;
      }
      texts.forEach(function (node) { node.remove(); });
      var outside = h('span', { className: 'bar-label ' + (bar.getAttribute('data-kind') || ''), title: bar.title }, bar.getAttribute('data-label') || '');
      track.appendChild(outside);
      var width = outside.offsetWidth;
      var after = bar.offsetLeft + bar.offsetWidth + 3;
      var before = bar.offsetLeft - width - 3;
      var x = free(after, after + width) ? after : free(before, before + width) ? before : null;
      if (x === null) { outside.remove(); return; }
      outside.style.left = x + 'px';
      taken.push([x, x + width]);
    });
  });
}

function spanEnd(span, now) {
  return typeof span.end === 'number' ? span.end : now;
}

/** Maps a time to 0..1 across the turn, shrinking long stretches where only waits go on. */
function turnScale(spans, t0, t1, now) {
  var busy = spans.filter(function (s) { return s.kind !== 'wait'; })
    .map(function (s) { return [Math.max(t0, s.start), Math.min(t1, spanEnd(s, now))]; })
    .sort(function (a, b) { return a[0] - b[0]; });
  var merged = [];
  busy.forEach(function (iv) {
    var last = merged[merged.length - 1];
    if (last && iv[0] <= last[1]) last[1] = Math.max(last[1], iv[1]);
    else merged.push([iv[0], iv[1]]);
  });
  var busyTotal = merged.reduce(function (sum, iv) { return sum + (iv[1] - iv[0]); }, 0);
  var longest = Math.max(busyTotal * 0.25, 40);
  var segments = [];
  var cursor = t0;
  function gap(to) {
    if (to <= cursor) return;
    var length = to - cursor;
    segments.push({ from: cursor, to: to, shown: Math.min(length, longest), broken: length > longest });
    cursor = to;
  }
  merged.forEach(function (iv) {
    gap(iv[0]);
    if (iv[1] > cursor) { segments.push({ from: cursor, to: iv[1], shown: iv[1] - cursor, broken: false }); cursor = iv[1]; }
  });
  gap(t1);
  var total = segments.reduce(function (sum, s) { return sum + s.shown; }, 0) || 1;
  function at(t) {
    var x = 0;
    for (var i = 0; i < segments.length; i++) {
      var s = segments[i];
      if (t >= s.to) { x += s.shown; continue; }
      if (t > s.from) x += ((t - s.from) / (s.to - s.from)) * s.shown;
      break;
    }
    return Math.max(0, Math.min(1, x / total));
  }
  return { at: at, breaks: segments.filter(function (s) { return s.broken; }) };
}

function renderTurn(turn, now) {
  var spans = turn.spans.slice().sort(function (a, b) { return a.start - b.start; });
  var t0 = Math.min.apply(null, [turn.start].concat(spans.map(function (s) { return s.start; })));
  var t1 = Math.max.apply(null, [t0 + 1].concat(spans.map(function (s) { return spanEnd(s, now); })));
  var scale = turnScale(spans, t0, t1, now);
  var rows = new Map();
  spans.forEach(function (span) {
    var key = span.kind === 'model' ? 'model|' + span.agent : 'call|' + (span.callId || span.id);
    var row = rows.get(key);
    if (!row) rows.set(key, (row = { kind: span.kind === 'model' ? 'model' : 'tool', name: span.kind === 'model' ? span.agent : span.name, spans: [] }));
    row.spans.push(span);
  });
  var chart = h('div', { className: 'tl-chart' });
  rows.forEach(function (row) {
    var track = h('div', { className: 'tl-track' });
    row.spans.forEach(function (span) { track.appendChild(renderBar(span, scale, now)); });
    chart.appendChild(h('div', { className: 'tl-row', 'data-kind': row.kind, 'data-name': row.name }, [
      h('div', { className: 'tl-name ' + row.kind, title: row.name }, row.kind === 'model' ? row.name + ' \u00b7 model' : row.name),
      track
    ]));
  });
  var axis = h('div', { className: 'tl-axis' }, [h('span', null, '0'), h('span', { className: 'end' }, duration(t1 - t0))]);
  scale.breaks.forEach(function (b) {
    var x = scale.at(b.from);
    var el = h('div', { className: 'tl-break', title: duration(b.to - b.from) + ' of waiting, drawn short' }, '\u22ef ' + duration(b.to - b.from));
    el.style.left = (x * 100) + '%';
    el.style.width = Math.max((scale.at(b.to) - x) * 100, 0.5) + '%';
    axis.appendChild(el);
  });
  var section = h('section', { className: 'tl-turn', 'data-turn': turn.index }, [
    h('div', { className: 'tl-title' }, [
      h('span', { className: 'badge' }, 'turn ' + turn.index),
      h('span', { className: 'label', title: turn.label }, turn.label || '(answers to paused calls)'),
      h('span', { className: 'note' }, clock(t0) + ' \u00b7 ' + duration(t1 - t0))
    ]),
    chart,
    axis
  ]);
  if (turn.dropped) section.appendChild(h('p', { className: 'note' }, turn.dropped + ' more calls not drawn.'));
  return section;
}

function renderBar(span, scale, now) {
  var end = spanEnd(span, now);
  var open = typeof span.end !== 'number';
  var left = scale.at(span.start);
  var width = Math.max(scale.at(end) - left, 0.004);
  var took = duration(end - span.start);
  var label = span.kind === 'wait' ? (span.waitFor === 'approval' ? 'waiting for approval' : 'waiting for its result') + ' \u00b7 ' + took : took;
  var title = (span.kind === 'model' ? span.agent + ' model call' : span.kind === 'wait' ? span.name + ': ' + label : span.name) +
    (span.kind === 'wait' ? '' : ' \u00b7 ' + took) + (open ? ' (still going)' : '') + (span.error ? '\n' + span.error : '') +
    (span.firstChunk ? '\nfirst chunk after ' + duration(span.firstChunk - span.start) : '');
  var bar = h('div', {
    className: 'bar ' + span.kind + (span.error ? ' error' : '') + (open ? ' open' : ''),
    'data-kind': span.kind,
    'data-name': span.name,
    'data-call-id': span.callId,
    'data-wait': span.waitFor,
    'data-label': label,
    'data-short': took,
    title: title
  }, label);
  bar.style.left = (left * 100) + '%';
  bar.style.width = (width * 100) + '%';
  if (span.progress && typeof span.progress.fraction === 'number') {
    var done = h('div', { className: 'done' });
    done.style.width = Math.max(0, Math.min(100, span.progress.fraction * 100)) + '%';
    bar.insertBefore(done, bar.firstChild);
  }
  return bar;
}
`;
