// The transcript renderer on its own: what each kind of event becomes, colours only when asked.
// Bad input tried: a 50 MB result, `__proto__` arguments, an arguments object 10,000 levels deep,
// a cycle, progress fractions outside 0..1 and NaN, an event with no content.
import { createEvent, type Event } from '@adkit/flow';
import { describe, expect, it } from 'vitest';
import { createStyle, stripAnsi, wantsColor } from '../src/style.js';
import { Transcript, bar, compact } from '../src/transcript.js';

const plain = () => new Transcript(createStyle(false));
const texts = (transcript: Transcript, event: Event) => transcript.lines(event).map((line) => `${line.kind}: ${line.text}`);

describe('Transcript', () => {
  it('HC-2: a call asking for confirmation reads as waiting, never as the error the model sees', () => {
    const event = createEvent({
      invocationId: 'i',
      author: 'assistant',
      content: { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'book_trip', response: { error: 'error tool "book_trip" requires confirmation, please approve or reject' } } }] },
      actions: { requestedToolConfirmations: { c1: { confirmed: false, hint: 'Approve "book_trip"?' } } },
    });
    expect(texts(plain(), event)).toEqual(['line:   ⏸ book_trip is waiting for your approval']);
  });

  it('HC-10: with a payload to fill in, the hint that says what is shown', () => {
    const event = createEvent({
      invocationId: 'i',
      author: 'hr',
      content: { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'request_vacation_days', response: { status: 'Waiting.' } } }] },
      actions: { requestedToolConfirmations: { c1: { confirmed: false, hint: 'How many days?', payload: { days_approved: 0 } } } },
    });
    expect(texts(plain(), event)).toEqual(['line:   ⏸ request_vacation_days is waiting for your approval: How many days?']);
  });

  it('FL-8: a long-running call is marked, and its interim answer reads as "answers later"', () => {
    const transcript = plain();
    const call = createEvent({
      invocationId: 'i',
      author: 'a',
      content: { role: 'model', parts: [{ functionCall: { id: 'lr', name: 'ask_for_approval', args: { amount: 480 } } }] },
      longRunningToolIds: ['lr'],
    });
    const interim = createEvent({ invocationId: 'i', author: 'a', content: { role: 'user', parts: [{ functionResponse: { id: 'lr', name: 'ask_for_approval', response: { status: 'pending' } } }] } });
    expect([...texts(transcript, call), ...texts(transcript, interim)]).toEqual([
      'line: a → ask_for_approval({"amount":480}) (long-running)',
      'line:   ⏳ ask_for_approval answers later; for now: {"status":"pending"}',
    ]);
  });

  it('AU-4: the flow\'s adk_request_credential call and its answer are not shown; the paused call reads as waiting for a sign-in', () => {
    const transcript = plain();
    const paused = createEvent({
      invocationId: 'i',
      author: 'assistant',
      content: { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'authorize_calendar', response: { status: 'Pending User Authorization.' } } }] },
      actions: { requestedAuthConfigs: { c1: { authScheme: { type: 'http', scheme: 'bearer' } } } },
    });
    const request = createEvent({
      invocationId: 'i',
      author: 'assistant',
      content: { role: 'model', parts: [{ functionCall: { id: 'r1', name: 'adk_request_credential', args: { functionCallId: 'c1', authConfig: { authScheme: { type: 'http', scheme: 'bearer' } } } } }] },
      longRunningToolIds: ['r1'],
    });
    const reply = createEvent({ invocationId: 'j', author: 'user', content: { role: 'user', parts: [{ functionResponse: { id: 'r1', name: 'adk_request_credential', response: { authScheme: {} } } }] } });
    expect([...texts(transcript, paused), ...texts(transcript, request), ...texts(transcript, reply)]).toEqual(['line:   🔑 authorize_calendar is waiting for you to sign in']);
  });

  it('progress: a bar for fractions (clamped), a line for messages, the child’s parts for agent tools', () => {
    const transcript = plain();
    const progress = (toolProgress: Event['toolProgress']) => texts(transcript, createEvent({ invocationId: 'i', author: 'a', partial: true, toolProgress }));
    expect(progress({ functionCallId: 'c', toolName: 'f', fraction: 0.5, message: 'half' })).toEqual(['progress:   … f [#####-----]  50% half']);
    expect(progress({ functionCallId: 'c', toolName: 'f', fraction: 7 })).toEqual(['progress:   … f [##########] 100%']);
    expect(progress({ functionCallId: 'c', toolName: 'f', fraction: Number.NaN })).toEqual(['progress:   … f [----------]   0%']);
    expect(progress({ functionCallId: 'c', toolName: 's', message: 'line one\nline two\n' })).toEqual(['progress:   … s: line one …']);
    const child = createEvent({ invocationId: 'j', author: 'summarizer', content: { role: 'model', parts: [{ text: 'Short.' }, { functionCall: { name: 'x', args: {} } }] } });
    expect(progress({ functionCallId: 'c', toolName: 'summarizer', event: child })).toEqual([
      'progress:   … summarizer › summarizer: Short.',
      'progress:   … summarizer › summarizer → x({})',
    ]);
    expect(texts(transcript, createEvent({ invocationId: 'i', author: 'a', partial: true, content: { role: 'model', parts: [{ text: 'streamed' }] } }))).toEqual([]);
  });

  it('errors, saved artifacts, multi-line answers; bookkeeping events print nothing', () => {
    const transcript = plain();
    expect(texts(transcript, createEvent({ invocationId: 'i', author: 'a', errorCode: 'STORE_ERROR', errorMessage: 'disk full' }))).toEqual(['line: a ! STORE_ERROR: disk full']);
    expect(texts(transcript, createEvent({ invocationId: 'i', author: 'a', actions: { artifactDelta: { 'user:notes.md': 2 } } }))).toEqual([
      'line:   (saved artifact user:notes.md, version 2)',
    ]);
    expect(texts(transcript, createEvent({ invocationId: 'i', author: 'a', content: { role: 'model', parts: [{ text: 'one\ntwo' }, { text: 'hidden', thought: true }] } }))).toEqual([
      'line: a: one',
      'line:   two',
    ]);
    expect(texts(transcript, createEvent({ invocationId: 'i', author: 'a', actions: { stateDelta: { x: 1 } } }))).toEqual([]);
  });

  it('hostile values: 50 MB, __proto__ keys, 10,000 levels, a cycle — cut or named, never thrown', () => {
    const huge = compact({ text: 'x'.repeat(50_000_000) });
    expect(huge).toMatch(/^\{"text":"x{191}… \(50000011 characters\)$/);
    expect(compact(JSON.parse('{"__proto__":{"polluted":true}}'))).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    expect(() => compact(deep)).not.toThrow();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(compact(cycle)).toBe('[object Object]');
  });

  it('bar() draws ten cells', () => {
    expect([0, 0.04, 0.33, 1].map(bar)).toEqual(['[----------]   0%', '[----------]   4%', '[###-------]  33%', '[##########] 100%']);
  });
});

describe('colours', () => {
  it('only on a terminal, never with NO_COLOR, always with FORCE_COLOR (no-color.org)', () => {
    expect(wantsColor({ isTTY: true }, {})).toBe(true);
    expect(wantsColor({ isTTY: false }, {})).toBe(false);
    expect(wantsColor({}, {})).toBe(false);
    expect(wantsColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(wantsColor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
  });

  it('a coloured transcript is the plain one with ANSI codes added', () => {
    const event = createEvent({ invocationId: 'i', author: 'a', content: { role: 'model', parts: [{ functionCall: { name: 'f', args: { x: 1 } } }, { text: 'hi' }] } });
    const coloured = new Transcript(createStyle(true)).lines(event).map((line) => line.text);
    expect(coloured.every((text) => text.includes('\u001b['))).toBe(true);
    expect(coloured.map(stripAnsi)).toEqual(plain().lines(event).map((line) => line.text));
  });
});
