/**
 * Page script, part 2b: task threads (#27). The events of a task (a sub-agent in `mode: 'task'`,
 * in the branch `<agent>~<call id>`) are drawn in a thread of their own under the parent's call:
 * the task's first turn, its questions, the user's replies, its tools and `finish_task`. The thread
 * says "open" until the parent's call is answered, then "done"; a task inside a task nests.
 */
export const SCRIPT_TASKS = String.raw`
var taskThreads = new Map();

/** The task an event belongs to: its branch up to its last task segment, or '' outside tasks. */
function taskScope(branch) {
  if (typeof branch !== 'string') return '';
  var mark = branch.lastIndexOf('~');
  if (mark < 0) return '';
  var end = branch.indexOf('.', mark);
  return end < 0 ? branch : branch.slice(0, end);
}

/** Where a task's thread goes: inside the thread of the task that called it, or the event list. */
function threadContainer(scope) {
  var dot = scope.lastIndexOf('.', scope.lastIndexOf('~'));
  var parent = dot < 0 ? '' : taskScope(scope.slice(0, dot));
  return parent ? taskThread(parent, 0).body : eventsEl;
}

function taskThread(scope, ts) {
  var thread = taskThreads.get(scope);
  if (thread) {
    // An earlier event of the task came late (the user's message): the thread moves up to it.
    if (ts && ts < Number(thread.el.getAttribute('data-ts'))) {
      thread.el.setAttribute('data-ts', ts);
      placeIn(threadContainer(scope), thread.el, false);
    }
    return thread;
  }
  var segment = scope.slice(scope.lastIndexOf('.', scope.lastIndexOf('~')) + 1);
  var agent = segment.slice(0, segment.indexOf('~'));
  thread = { body: h('div', { className: 'task-body' }), state: h('span', { className: 'badge wait' }, 'open'), call: h('span', { className: 'id' }, '') };
  thread.el = h('section', { className: 'task-thread', 'data-task': scope, 'data-agent': agent, 'data-ts': ts || 0 }, [
    h('header', { className: 'meta' }, [h('span', { className: 'badge call' }, 'task'), h('span', { className: 'author' }, agent), thread.state, thread.call]),
    thread.body
  ]);
  taskThreads.set(scope, thread);
  placeIn(threadContainer(scope), thread.el, false);
  return thread;
}

/** A complete event's card: into its task's thread, or into the list. */
function placeCard(ev, el, stick) {
  closeAnsweredTasks(ev);
  var scope = taskScope(ev.branch);
  if (!scope) return placeEvent(el, stick);
  var thread = taskThread(scope, Number(el.getAttribute('data-ts')));
  var opening = ev.customMetadata && own(ev.customMetadata, 'adkitTask') ? ev.customMetadata.adkitTask : null;
  if (opening && typeof opening.callId === 'string') {
    thread.callId = opening.callId;
    thread.call.textContent = 'answers call ' + opening.callId;
    el.classList.add('task-opening');
    var meta = el.querySelector('.meta');
    if (meta) meta.appendChild(h('span', { className: 'badge call' }, 'the call\u2019s request'));
    if (answeredCalls.has(opening.callId)) markTaskDone(thread);
  }
  placeIn(thread.body, el, false);
  if (stick) toBottom();
}

/** The parent's call answered (a function response with the call's id): its task is done. */
function closeAnsweredTasks(ev) {
  parts(ev).forEach(function (part) {
    var id = part.functionResponse && part.functionResponse.id;
    if (!id) return;
    taskThreads.forEach(function (thread) { if (thread.callId === id) markTaskDone(thread); });
    answeredCalls.add(id);
  });
}

var answeredCalls = new Set();

function markTaskDone(thread) {
  thread.answered = true;
  thread.state.textContent = 'done';
  thread.state.className = 'badge ok';
  thread.el.classList.add('done');
}

function resetTasks() {
  taskThreads.clear();
  answeredCalls.clear();
}
`;
