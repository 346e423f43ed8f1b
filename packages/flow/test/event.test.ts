// Pins TC-12 (event actions) and TC-14 (the final-response predicate), case by case.
import { describe, expect, it } from 'vitest';
import {
  createEvent,
  createEventActions,
  createUserContent,
  getFunctionCalls,
  getFunctionResponses,
  isEmptyActions,
  isFinalResponse,
  stringifyContent,
  type Event,
} from '../src/index.js';

const event = (init: Partial<Event>): Event => createEvent({ invocationId: 'i', author: 'a', ...init });
const call = { functionCall: { id: 'c', name: 'f', args: { x: 1 } } };
const response = { functionResponse: { id: 'c', name: 'f', response: { ok: true } } };

describe('events', () => {
  it('TC-12: new events have an id, a time and both action maps allocated', () => {
    const e = event({});
    expect(e.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof e.timestamp).toBe('number');
    expect(e.actions).toEqual({ stateDelta: {}, artifactDelta: {} });
    expect(JSON.parse(JSON.stringify(e)).actions).toEqual({ stateDelta: {}, artifactDelta: {} });
    expect(createEventActions({ stateDelta: { a: 1 } })).toEqual({ stateDelta: { a: 1 }, artifactDelta: {} });
  });

  it('TC-12: createEvent: its fields in one order (id, time, invocation, author, the rest as given, actions); undefined ones left out', () => {
    const content = createUserContent('hi');
    const made = createEvent({ author: 'a', branch: undefined, content, invocationId: 'i', errorCode: 'E' });
    expect(Object.keys(made)).toEqual(['id', 'timestamp', 'invocationId', 'author', 'content', 'errorCode', 'actions']);
    expect(made.content).toBe(content);
    const given = createEvent({ id: 'e1', timestamp: 5, invocationId: 'i', author: 'a', actions: { escalate: true } });
    expect(given).toEqual({ id: 'e1', timestamp: 5, invocationId: 'i', author: 'a', actions: { stateDelta: {}, artifactDelta: {}, escalate: true } });
    expect(Object.keys(given)).toEqual(['id', 'timestamp', 'invocationId', 'author', 'actions']);
    // A caller without types that leaves out a required field gets no undefined-valued key for it.
    const untyped = createEvent({ invocationId: undefined, author: undefined } as unknown as Parameters<typeof createEvent>[0]);
    expect(Object.keys(untyped)).toEqual(['id', 'timestamp', 'actions']);
  });

  it('TC-12: createEventActions copies what it is given: both maps its own, every other own key kept, __proto__ as data', () => {
    const stateDelta = { a: { nested: 1 } };
    const given = JSON.parse('{"skipSummarization": true, "__proto__": {"admin": true}, "artifactDelta": {"f": 2}}') as Record<string, unknown>;
    Object.assign(given, { stateDelta, startedToolCalls: ['c1'] });
    const actions = createEventActions(given);
    expect(JSON.stringify(actions)).toBe(
      '{"stateDelta":{"a":{"nested":1}},"artifactDelta":{"f":2},"skipSummarization":true,"__proto__":{"admin":true},"startedToolCalls":["c1"]}',
    );
    // The two maps first, then the other keys in their order (one shape for every copy, #24).
    expect(Object.keys(actions)).toEqual(['stateDelta', 'artifactDelta', 'skipSummarization', '__proto__', 'startedToolCalls']);
    expect(Object.getPrototypeOf(actions)).toBe(Object.prototype);
    expect((actions as { admin?: boolean }).admin).toBeUndefined();
    // The maps are copies (one level, as before): a key added to the given map later is not in them.
    expect(actions.stateDelta).not.toBe(stateDelta);
    (stateDelta as Record<string, unknown>).later = true;
    expect(actions.stateDelta).toEqual({ a: { nested: 1 } });
    expect(actions.stateDelta.a).toBe(stateDelta.a);
    // Inherited keys are not copied; a missing or empty map is a fresh one of its own.
    const inherited = Object.create({ escalate: true }) as Record<string, unknown>;
    expect(createEventActions(inherited)).toEqual({ stateDelta: {}, artifactDelta: {} });
    const empty = {};
    expect(createEventActions({ stateDelta: empty }).stateDelta).not.toBe(empty);
  });

  it('isEmptyActions sees every field', () => {
    expect(isEmptyActions(createEventActions())).toBe(true);
    for (const change of [
      { stateDelta: { a: 1 } },
      { artifactDelta: { f: 0 } },
      { skipSummarization: true },
      { escalate: true },
      { transferToAgent: 'b' },
      { requestedToolConfirmations: { c: { confirmed: false } } },
    ])
      expect(isEmptyActions(createEventActions(change))).toBe(false);
  });

  describe('TC-14: isFinalResponse', () => {
    it('plain text is final', () => expect(isFinalResponse(event({ content: { role: 'model', parts: [{ text: 'hi' }] } }))).toBe(true));
    it('an event with no content is final', () => expect(isFinalResponse(event({}))).toBe(true));
    it('function calls are not final', () => expect(isFinalResponse(event({ content: { role: 'model', parts: [call] } }))).toBe(false));
    it('function responses are not final', () =>
      expect(isFinalResponse(event({ content: { role: 'user', parts: [response] } }))).toBe(false));
    it('a partial event is not final', () =>
      expect(isFinalResponse(event({ partial: true, content: { role: 'model', parts: [{ text: 'h' }] } }))).toBe(false));
    it('ending with a code-execution result is not final', () =>
      expect(
        isFinalResponse(event({ content: { role: 'model', parts: [{ text: 'x' }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '2' } }] } })),
      ).toBe(false));
    it('a code-execution result followed by text is final', () =>
      expect(
        isFinalResponse(event({ content: { role: 'model', parts: [{ codeExecutionResult: { output: '2' } }, { text: 'two' }] } })),
      ).toBe(true));
    it('skipSummarization makes even a function response final', () =>
      expect(
        isFinalResponse(event({ content: { role: 'user', parts: [response] }, actions: { skipSummarization: true } as never })),
      ).toBe(true));
    it('long-running ids make even a function call final', () =>
      expect(isFinalResponse(event({ content: { role: 'model', parts: [call] }, longRunningToolIds: ['c'] }))).toBe(true));
    it('an empty long-running list does not', () =>
      expect(isFinalResponse(event({ content: { role: 'model', parts: [call] }, longRunningToolIds: [] }))).toBe(false));
  });

  it('getFunctionCalls/getFunctionResponses keep part order and skip other parts', () => {
    const e = event({ content: { role: 'model', parts: [{ text: 'a' }, call, { functionCall: { name: 'g' } }, response] } });
    expect(getFunctionCalls(e).map((c) => c.name)).toEqual(['f', 'g']);
    expect(getFunctionResponses(e)).toEqual([response.functionResponse]);
    expect(getFunctionCalls(event({}))).toEqual([]);
  });

  it('stringifyContent joins text, leaves thoughts out and shows function parts briefly', () => {
    const e = event({
      content: { role: 'model', parts: [{ text: 'thinking', thought: true }, { text: 'Hello ' }, { text: 'world' }, call] },
    });
    expect(stringifyContent(e)).toBe('Hello world[call f({"x":1})]');
    expect(stringifyContent({ content: createUserContent([response]) })).toBe('[response f: {"ok":true}]');
  });
});
