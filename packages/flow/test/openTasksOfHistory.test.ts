// #24, #27 (TM-5): the runner finds a session's open tasks from where its last scan of that history
// ended, instead of reading every event on every turn. What was tried: the history grown turn by
// turn (the same answer as a whole scan each time), a task opened and answered across turns, a
// history that is not the same one grown (another first event, the scanned event moved, fewer
// events, a window of the newest events only), 200 new events at once, and two
// histories going on from one scan.
import { describe, expect, it } from 'vitest';
import { createEvent, openTasks, TASK_METADATA_KEY, type Event } from '../src/index.js';
import { openTasksOfHistory } from '../src/agents/taskEvents.js';

const text = (t: string) => ({ role: 'user' as const, parts: [{ text: t }] });
const opening = (callId: string, agent = 'collector', branch = `${agent}~${callId}`): Event =>
  createEvent({ invocationId: 'i', author: 'user', branch, content: text('go'), customMetadata: { [TASK_METADATA_KEY]: { callId, agent, parent: 'root' } } });
const answer = (callId: string): Event =>
  createEvent({ invocationId: 'i', author: 'root', content: { role: 'user', parts: [{ functionResponse: { id: callId, name: 'collector', response: { result: 'ok' } } }] } });
const chat = (t: string): Event => createEvent({ invocationId: 'i', author: 'user', content: text(t) });

describe('openTasksOfHistory', () => {
  it('gives what a whole scan gives, turn after turn, as the history grows', () => {
    const history: Event[] = [];
    const turns: Event[][] = [[chat('hi')], [opening('c1')], [chat('Lisbon')], [answer('c1'), chat('next')], [opening('c2'), chat('x')], [chat('y')], [answer('c2')]];
    for (const turn of turns) {
      history.push(...turn);
      const view = history.slice(); // a store returns a new array of the same events each load
      expect(openTasksOfHistory(view)).toEqual(openTasks(view));
    }
    expect(openTasksOfHistory(history.slice(0, 2))).toEqual([expect.objectContaining({ callId: 'c1' })]);
  });

  it('scans anew a history that is not the one it scanned grown', () => {
    const a = opening('a');
    const history = [chat('1'), a, chat('2')];
    expect(openTasksOfHistory(history).map((t) => t.callId)).toEqual(['a']);
    // Another first event before the same events: the scanned event is elsewhere.
    expect(openTasksOfHistory([answer('a'), ...history, chat('3')])).toEqual([]);
    // The same last event at the same place, but another first event.
    const other = [answer('a'), a, history[2]!];
    expect(openTasksOfHistory(other)).toEqual(openTasks(other));
    expect(openTasksOfHistory(other)).toEqual([]);
    // A window of the newest events only (numRecentEvents): the opening is not in it.
    expect(openTasksOfHistory(history.slice(-1))).toEqual([]);
    expect(openTasksOfHistory(history)).toEqual(openTasks(history));
  });

  it('finds an opening 200 events back, after many events came at once', () => {
    const history = [chat('start'), opening('far')];
    expect(openTasksOfHistory(history).map((t) => t.callId)).toEqual(['far']);
    for (let i = 0; i < 200; i++) history.push(chat(`m${i}`));
    expect(openTasksOfHistory(history.slice()).map((t) => t.callId)).toEqual(['far']);
    history.push(answer('far'));
    expect(openTasksOfHistory(history.slice())).toEqual([]);
  });

  it('lets no second history go on from a scan another one took', () => {
    const base = [chat('0'), opening('t')];
    openTasksOfHistory(base);
    const left = [...base, answer('t')];
    const right = [...base, chat('still talking')];
    expect(openTasksOfHistory(left)).toEqual([]);
    expect(openTasksOfHistory(right).map((t) => t.callId)).toEqual(['t']);
    expect(openTasksOfHistory(left)).toEqual([]);
  });

  it('gives nothing for an empty history', () => {
    expect(openTasksOfHistory([])).toEqual([]);
  });
});
