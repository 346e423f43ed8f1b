// FL-1 #7 and FL-7: the history a model sees.
import { describe, expect, it } from 'vitest';
import { createEvent, type Event, type Part } from '../src/index.js';
import { buildContents } from '../src/llmFlow/buildContents.js';

const ev = (author: string, parts: Part[], extra: Partial<Event> = {}) =>
  createEvent({ invocationId: 'i', author, content: { role: author === 'user' || parts[0]?.functionResponse ? 'user' : 'model', parts }, ...extra });

describe('buildContents', () => {
  it('FL-7: clears adk- ids from calls and responses, keeps model ids, and never mutates the events', () => {
    const events = [
      ev('user', [{ text: 'hi' }]),
      ev('a', [{ functionCall: { id: 'adk-1', name: 'f', args: {} } }, { functionCall: { id: 'call_9', name: 'g' } }]),
      ev('a', [{ functionResponse: { id: 'adk-1', name: 'f', response: {} } }, { functionResponse: { id: 'call_9', name: 'g', response: {} } }]),
    ];
    const contents = buildContents(events, 'a');
    expect(contents[1]!.parts).toEqual([{ functionCall: { name: 'f', args: {} } }, { functionCall: { id: 'call_9', name: 'g' } }]);
    expect(contents[2]!.parts).toEqual([{ functionResponse: { name: 'f', response: {} } }, { functionResponse: { id: 'call_9', name: 'g', response: {} } }]);
    expect(events[1]!.content!.parts![0]!.functionCall!.id).toBe('adk-1');
  });

  it('FL-1 #7: leaves out confirmation calls and replies, partial events, empty and error-only events', () => {
    const events = [
      ev('user', [{ text: 'go' }]),
      ev('a', [{ functionCall: { id: 'adk-c', name: 'adk_request_confirmation', args: {} } }]),
      ev('user', [{ functionResponse: { id: 'adk-c', name: 'adk_request_confirmation', response: { confirmed: true } } }]),
      ev('a', [{ text: 'chunk' }], { partial: true }),
      createEvent({ invocationId: 'i', author: 'a', errorCode: 'X' }),
      ev('a', [{ text: 'done' }]),
    ];
    expect(buildContents(events, 'a')).toEqual([
      { role: 'user', parts: [{ text: 'go' }] },
      { role: 'model', parts: [{ text: 'done' }] },
    ]);
  });

  it("another agent's turns become user context; thoughts are dropped", () => {
    const events = [
      ev('other', [{ text: 'hidden', thought: true }, { text: 'I found 3 flights' }, { functionCall: { name: 'book', args: { n: 1 } } }]),
      ev('other', [{ functionResponse: { name: 'book', response: { ok: true } } }]),
    ];
    expect(buildContents(events, 'me')).toEqual([
      { role: 'user', parts: [{ text: 'For context:' }, { text: '[other] said: I found 3 flights' }, { text: '[other] called tool `book` with parameters: {"n":1}' }] },
      { role: 'user', parts: [{ text: 'For context:' }, { text: '[other] `book` tool returned result: {"ok":true}' }] },
    ]);
  });

  it('a late response goes right after its call; a second response to the same call becomes an update', () => {
    const events = [
      ev('user', [{ text: 'open a ticket' }]),
      ev('a', [{ functionCall: { id: 't1', name: 'ticket' } }]),
      ev('user', [{ text: 'any news?' }]),
      ev('a', [{ text: 'still waiting' }]),
      ev('user', [{ functionResponse: { id: 't1', name: 'ticket', response: { status: 'open' } } }, { text: 'here it is' }]),
      ev('a', [{ text: 'it is open' }]),
      ev('user', [{ functionResponse: { id: 't1', name: 'ticket', response: { status: 'closed' } } }]),
    ];
    expect(buildContents(events, 'a')).toEqual([
      { role: 'user', parts: [{ text: 'open a ticket' }] },
      { role: 'model', parts: [{ functionCall: { id: 't1', name: 'ticket' } }] },
      { role: 'user', parts: [{ functionResponse: { id: 't1', name: 'ticket', response: { status: 'open' } } }] },
      { role: 'user', parts: [{ text: 'any news?' }] },
      { role: 'model', parts: [{ text: 'still waiting' }] },
      { role: 'user', parts: [{ text: 'here it is' }] },
      { role: 'model', parts: [{ text: 'it is open' }] },
      { role: 'user', parts: [{ text: 'Update from function ticket: {"status":"closed"}' }] },
    ]);
  });

  it('the response given after a confirmation replaces the response that asked for it', () => {
    const events = [
      ev('user', [{ text: 'deploy' }]),
      ev('a', [{ functionCall: { id: 'd1', name: 'deploy' } }]),
      ev('a', [{ functionResponse: { id: 'd1', name: 'deploy', response: { error: 'requires confirmation' } } }], {
        actions: { stateDelta: {}, artifactDelta: {}, requestedToolConfirmations: { d1: { confirmed: false } } },
      }),
      ev('a', [{ functionCall: { id: 'adk-c', name: 'adk_request_confirmation', args: {} } }]),
      ev('user', [{ functionResponse: { id: 'adk-c', name: 'adk_request_confirmation', response: { confirmed: true } } }]),
      ev('a', [{ functionResponse: { id: 'd1', name: 'deploy', response: { deployed: true } } }]),
    ];
    expect(buildContents(events, 'a')).toEqual([
      { role: 'user', parts: [{ text: 'deploy' }] },
      { role: 'model', parts: [{ functionCall: { id: 'd1', name: 'deploy' } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'd1', name: 'deploy', response: { deployed: true } } }] },
    ]);
  });

  it('a call answered inside its own turn (server-side tools) stays as it is', () => {
    const events = [ev('a', [{ functionCall: { id: 's', name: 'srv' } }, { functionResponse: { id: 's', name: 'srv', response: {} } }, { text: 'ok' }])];
    expect(buildContents(events, 'a')[0]!.parts).toHaveLength(3);
  });

  it('filters by branch: events of the same or an ancestor branch only', () => {
    const events = [
      ev('user', [{ text: 'root' }]),
      ev('a', [{ text: 'mine' }], { branch: 'p.a' }),
      ev('a', [{ text: 'sibling' }], { branch: 'p.b' }),
      ev('a', [{ text: 'parent' }], { branch: 'p' }),
    ];
    expect(buildContents(events, 'a', 'p.a').map((c) => c.parts![0]!.text)).toEqual(['root', 'mine', 'parent']);
  });
});
