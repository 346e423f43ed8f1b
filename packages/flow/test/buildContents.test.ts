// FL-1 #7 and FL-7: the history a model sees; issue #15: built incrementally over frozen (stored)
// events. Bad input tried: random histories (late, repeated and confirmed responses, client ids,
// other agents, branches, partial events) built step by step, with unfrozen tails; arrays that
// share a first event but are not extensions of each other; writes into the shared contents.
import { describe, expect, it } from 'vitest';
import { createEvent, type Content, type Event, type Part } from '../src/index.js';
import { deepFreeze } from '../src/store.js';
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
      ev('a', [{ functionCall: { id: 'adk-c', name: 'adk_request_confirmation', args: {} } }], { longRunningToolIds: ['adk-c'] }),
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

  it('FL-1 #7: an event asking two confirmations among other parts shows only the other parts, in order; the replies stay out', () => {
    const ask = (id: string) => ({ functionCall: { id, name: 'adk_request_confirmation', args: {} } });
    const reply = (id: string) => ({ functionResponse: { id, name: 'adk_request_confirmation', response: { confirmed: true } } });
    const events = [
      ev('user', [{ text: 'go' }]),
      ev('a', [{ text: 'before' }, ask('adk-1'), { text: 'between' }, ask('adk-2'), { text: 'after' }], { longRunningToolIds: ['adk-1', 'adk-2'] }),
      ev('user', [reply('adk-1'), reply('adk-2')]),
    ];
    expect(buildContents(events, 'a')).toEqual([
      { role: 'user', parts: [{ text: 'go' }] },
      { role: 'model', parts: [{ text: 'before' }, { text: 'between' }, { text: 'after' }] },
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

  it('FL-15, late answers come last: a call still unanswered when other turns follow is answered pending in place; its answer comes as a user text where it arrived', () => {
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
      { role: 'user', parts: [{ functionResponse: { id: 't1', name: 'ticket', response: { status: 'pending' } } }] },
      { role: 'user', parts: [{ text: 'any news?' }] },
      { role: 'model', parts: [{ text: 'still waiting' }] },
      { role: 'user', parts: [{ text: 'here it is' }] },
      {
        role: 'user',
        parts: [{ text: 'Update from function ticket: {"status":"open"}\nThis is the latest answer to your earlier call ticket({}) (id t1).' }],
      },
      { role: 'model', parts: [{ text: 'it is open' }] },
      {
        role: 'user',
        parts: [{ text: 'Update from function ticket: {"status":"closed"}\nThis is the latest answer to your earlier call ticket({}) (id t1).' }],
      },
    ]);
  });

  it('the response given after a confirmation, with nothing said in between, replaces the response that asked for it', () => {
    const events = [
      ev('user', [{ text: 'deploy' }]),
      ev('a', [{ functionCall: { id: 'd1', name: 'deploy' } }]),
      ev('a', [{ functionResponse: { id: 'd1', name: 'deploy', response: { error: 'requires confirmation' } } }], {
        actions: { stateDelta: {}, artifactDelta: {}, requestedToolConfirmations: { d1: { confirmed: false } } },
      }),
      ev('a', [{ functionCall: { id: 'adk-c', name: 'adk_request_confirmation', args: {} } }], { longRunningToolIds: ['adk-c'] }),
      ev('user', [{ functionResponse: { id: 'adk-c', name: 'adk_request_confirmation', response: { confirmed: true } } }]),
      ev('a', [{ functionResponse: { id: 'd1', name: 'deploy', response: { deployed: true } } }]),
    ];
    expect(buildContents(events, 'a')).toEqual([
      { role: 'user', parts: [{ text: 'deploy' }] },
      { role: 'model', parts: [{ functionCall: { id: 'd1', name: 'deploy' } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'd1', name: 'deploy', response: { deployed: true } } }] },
    ]);
  });

  it("a resumed call's answer replaces the client's answer that resumed it (startedToolCalls)", () => {
    const events = [
      ev('user', [{ text: 'VPN is down' }]),
      ev('a', [{ functionCall: { id: 'outer', name: 'helpdesk' } }]),
      ev('user', [{ functionResponse: { id: 'outer', name: 'helpdesk', response: { ticket: 991 } } }]),
      createEvent({ invocationId: 'i', author: 'a', actions: { stateDelta: {}, artifactDelta: {}, startedToolCalls: ['outer'] } }),
      ev('a', [{ functionResponse: { id: 'outer', name: 'helpdesk', response: { result: 'open' } } }]),
    ];
    const expected = [
      { role: 'user', parts: [{ text: 'VPN is down' }] },
      { role: 'model', parts: [{ functionCall: { id: 'outer', name: 'helpdesk' } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'outer', name: 'helpdesk', response: { result: 'open' } } }] },
    ];
    expect(buildContents(events, 'a')).toEqual(expected);
    expect(buildContents([...events.slice(0, 3).map((e) => deepFreeze(structuredClone(e))), ...events.slice(3)], 'a')).toEqual(expected);
  });

  it('a call answered inside its own turn (server-side tools) stays as it is, and gets no placeholder', () => {
    const events = [
      ev('a', [{ functionCall: { id: 's', name: 'srv' } }, { functionResponse: { id: 's', name: 'srv', response: {} } }, { functionCall: { id: 'c', name: 'f' } }]),
      ev('user', [{ text: 'next' }]),
    ];
    const contents = buildContents(events, 'a');
    expect(contents[0]!.parts).toHaveLength(3);
    expect(contents[1]).toEqual({ role: 'user', parts: [{ functionResponse: { id: 'c', name: 'f', response: { status: 'pending' } } }] });
  });

  it('issue #23 point 1: 10,000 parallel calls, some answered, all answered exactly once in call order once another turn follows', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => `c${i}`);
    const events = [
      ev('a', ids.map((id) => ({ functionCall: { id, name: 'f' } }))),
      ev('a', ids.filter((_, i) => i % 3 === 0).reverse().map((id) => ({ functionResponse: { id, name: 'f', response: { ok: id } } }))),
      ev('user', [{ text: 'next' }]),
    ];
    const answers = buildContents(events, 'a')[1]!.parts!.map((part) => [part.functionResponse!.id, part.functionResponse!.response]);
    expect(answers).toEqual(ids.map((id, i) => [id, i % 3 === 0 ? { ok: id } : { status: 'pending' }]));
  });

  it("issue #23 point 4: a model's own adk_request_confirmation call and the flow's error answer stay visible, paired; the client's reply to it does not", () => {
    const refusal = { error: 'reserved' };
    const events = [
      ev('user', [{ text: 'go' }]),
      ev('a', [{ functionCall: { id: 'adk-m', name: 'adk_request_confirmation', args: { hint: 'ok?' } } }]),
      ev('a', [{ functionResponse: { id: 'adk-m', name: 'adk_request_confirmation', response: refusal } }]),
      ev('user', [{ functionResponse: { id: 'adk-m', name: 'adk_request_confirmation', response: { confirmed: true } } }]),
    ];
    expect(buildContents(events, 'a')).toEqual([
      { role: 'user', parts: [{ text: 'go' }] },
      { role: 'model', parts: [{ functionCall: { name: 'adk_request_confirmation', args: { hint: 'ok?' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'adk_request_confirmation', response: refusal } }] },
    ]);
  });

  it("FL-1 #7: an agent's own answer to the flow's confirmation request stays out too, whether the request is in the kept (frozen) prefix or not", () => {
    const request = ev('a', [{ functionCall: { id: 'adk-c', name: 'adk_request_confirmation', args: {} } }], { longRunningToolIds: ['adk-c'] });
    const answer = ev('a', [{ functionResponse: { id: 'adk-c', name: 'adk_request_confirmation', response: { confirmed: false } } }, { text: 'declined' }]);
    const expected = [
      { role: 'user', parts: [{ text: 'go' }] },
      // The event's own role (a response event's, here) is kept.
      { role: 'user', parts: [{ text: 'declined' }] },
    ];
    expect(buildContents([ev('user', [{ text: 'go' }]), request, answer], 'a')).toEqual(expected);
    // The request stored (frozen, so kept in the cache), the answer still this invocation's own.
    const stored = [deepFreeze(ev('user', [{ text: 'go' }])), deepFreeze(request)];
    buildContents(stored, 'a');
    expect(buildContents([...stored, answer], 'a')).toEqual(expected);
  });

  it("issue #23 point 1: a resumed call answered late: the tool's answer replaces the client's late answer, and stays last", () => {
    const started = (id: string) => createEvent({ invocationId: 'i', author: 'a', actions: { stateDelta: {}, artifactDelta: {}, startedToolCalls: [id] } });
    const events = [
      ev('user', [{ text: 'VPN is down' }]),
      ev('a', [{ functionCall: { id: 'outer', name: 'helpdesk', args: { issue: 'vpn' } } }]),
      ev('user', [{ text: 'hello?' }]),
      ev('user', [{ functionResponse: { id: 'outer', name: 'helpdesk', response: { ticket: 991 } } }]),
      started('outer'),
      ev('a', [{ functionResponse: { id: 'outer', name: 'helpdesk', response: { result: 'open' } } }]),
    ];
    const expected = [
      { role: 'user', parts: [{ text: 'VPN is down' }] },
      { role: 'model', parts: [{ functionCall: { id: 'outer', name: 'helpdesk', args: { issue: 'vpn' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'outer', name: 'helpdesk', response: { status: 'pending' } } }] },
      { role: 'user', parts: [{ text: 'hello?' }] },
      {
        role: 'user',
        parts: [{ text: 'Update from function helpdesk: {"result":"open"}\nThis is the latest answer to your earlier call helpdesk({"issue":"vpn"}) (id outer).' }],
      },
    ];
    expect(buildContents(events, 'a')).toEqual(expected);
    for (const cut of [3, 4, 5]) {
      const mixed = [...events.slice(0, cut).map((e) => deepFreeze(structuredClone(e))), ...events.slice(cut)];
      expect(buildContents(mixed, 'a')).toEqual(expected);
      expect(buildContents(mixed, 'a')).toEqual(expected);
    }
    expect(buildContents(events.map((e) => deepFreeze(structuredClone(e))), 'a')).toEqual(expected);
  });

  it("contents with nothing to clear are still the caller's own: changing them changes no event and no later build", () => {
    const events = [ev('user', [{ text: 'hi' }]), ev('a', [{ functionCall: { id: 'm1', name: 'f', args: {} } }]), ev('a', [{ functionResponse: { id: 'm1', name: 'f', response: { ok: 1 } } }])];
    const before = JSON.stringify(events);
    const first = buildContents(events, 'a');
    const expected = JSON.stringify(first);
    for (const content of first) {
      content.parts!.push({ text: 'added by a callback' });
      content.role = 'changed';
    }
    expect(JSON.stringify(events)).toBe(before);
    expect(JSON.stringify(buildContents(events, 'a'))).toBe(expected);
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

  describe('issue #15: incremental over frozen events', () => {
    /** A deterministic pseudo-random history of `length` events, all kinds mixed. */
    function randomHistory(seed: number, length: number): Event[] {
      let state = seed;
      const next = (n: number) => {
        state = (state * 1103515245 + 12345) % 2147483648;
        return state % n;
      };
      const calls: string[] = [];
      const events: Event[] = [];
      for (let i = 0; i < length; i++) {
        const roll = next(12);
        const id = `${next(3) === 0 ? 'adk-' : 'c'}${i}`;
        const callId = calls.length > 0 ? calls[next(calls.length)]! : 'none';
        if (roll < 2) events.push(ev('user', [{ text: `u${i}` }]));
        else if (roll < 4) {
          calls.push(id);
          events.push(ev('a', [{ functionCall: { id, name: `f${i % 3}`, args: { i } } }]));
        } else if (roll < 6) events.push(ev(next(2) ? 'a' : 'user', [{ functionResponse: { id: callId, name: 'f', response: { i } } }]));
        else if (roll === 6)
          events.push(
            ev('a', [{ functionResponse: { id: callId, name: 'f', response: { error: 'confirm' } } }], {
              actions: { stateDelta: {}, artifactDelta: {}, requestedToolConfirmations: { [callId]: { confirmed: false } } },
            }),
          );
        else if (roll === 7) events.push(ev('user', [{ functionResponse: { id: `adk-c${i}`, name: 'adk_request_confirmation', response: { confirmed: true } } }]));
        else if (roll === 8) events.push(ev('other', [{ text: `o${i}` }, { functionCall: { id, name: 'g' } }]));
        else if (roll === 9) events.push(ev('a', [{ text: `p${i}` }], { partial: true }));
        else if (roll === 10) events.push(ev('a', [{ text: `b${i}` }], { branch: next(2) ? 'p' : 'q' }));
        else if (next(3) === 0)
          events.push(createEvent({ invocationId: 'i', author: 'a', actions: { stateDelta: {}, artifactDelta: {}, startedToolCalls: [callId] } }));
        else if (next(2) === 0)
          events.push(ev('a', [{ functionCall: { id: `adk-c${i}`, name: 'adk_request_confirmation', args: {} } }], { longRunningToolIds: [`adk-c${i}`] }));
        else events.push(ev('a', [{ text: `t${i}` }]));
      }
      return events;
    }
    const frozenCopy = (event: Event) => deepFreeze(structuredClone(event));

    it('gives the same contents as a fresh build, step after step, with and without unfrozen tails', () => {
      const mismatches: string[] = [];
      for (let seed = 1; seed <= 8; seed++) {
        const plain = randomHistory(seed, 36);
        const frozen = plain.map(frozenCopy);
        for (let length = 0; length <= plain.length; length++)
          for (const tail of [0, 1, 4, 12]) {
            const cut = Math.max(0, length - tail);
            const mixed = [...frozen.slice(0, cut), ...plain.slice(cut, length)];
            for (const branch of [undefined, 'p']) {
              const got = JSON.stringify(buildContents(mixed, 'a', branch));
              if (got !== JSON.stringify(buildContents(plain.slice(0, length), 'a', branch)))
                mismatches.push(`seed ${seed}, ${length} events, tail ${tail}, branch ${branch}`);
            }
          }
      }
      expect(mismatches).toEqual([]);
    });

    it('a long history (its kept contents copied with the step\'s own in one go, #24) gives what a fresh build gives', () => {
      const mismatches: string[] = [];
      let longest = 0;
      for (let seed = 1; seed <= 3; seed++) {
        const plain = randomHistory(seed, 1_600);
        const frozen = plain.map(frozenCopy);
        // Step after step through the length where the kept contents pass 512.
        for (let length = 700; length <= plain.length; length += 37)
          for (const tail of [0, 1, 4, 12]) {
            const mixed = [...frozen.slice(0, length - tail), ...plain.slice(length - tail, length)];
            for (const branch of [undefined, 'p']) {
              const got = buildContents(mixed, 'a', branch);
              longest = Math.max(longest, got.length);
              if (JSON.stringify(got) !== JSON.stringify(buildContents(plain.slice(0, length), 'a', branch)))
                mismatches.push(`seed ${seed}, ${length} events, tail ${tail}, branch ${branch}`);
            }
          }
      }
      expect(mismatches).toEqual([]);
      expect(longest).toBeGreaterThan(600);
    });

    it('an event of the kept prefix replaced in place, in the same array, at any position, is seen at the next build', () => {
      // 23 kept events: the prefix is compared four at a time, then the rest one by one.
      const events = Array.from({ length: 23 }, (_, i) => frozenCopy(ev('user', [{ text: `e${i}` }])));
      const texts = () => buildContents(events, 'a').map((content) => content.parts![0]!.text);
      const original = events.map((event) => event.content!.parts![0]!.text);
      expect(texts()).toEqual(original);
      for (let i = 0; i < events.length; i++) {
        const kept = events[i]!;
        events[i] = frozenCopy(ev('user', [{ text: `changed ${i}` }]));
        expect(texts(), `event ${i} replaced`).toEqual(original.map((text, j) => (j === i ? `changed ${i}` : text)));
        events[i] = kept;
        expect(texts(), `event ${i} put back`).toEqual(original);
      }
    });

    it('keeps one history per agent and branch over the same frozen events: each gives what a fresh build gives', () => {
      const plain = [
        ev('user', [{ text: 'root' }]),
        ev('a', [{ text: 'mine' }], { branch: 'p.a' }),
        ev('a', [{ text: 'sibling' }], { branch: 'p.b' }),
        ev('a', [{ text: 'parent' }], { branch: 'p' }),
        ev('b', [{ text: 'from b' }]),
      ];
      const frozen = plain.map(frozenCopy);
      const texts = (contents: Content[]) => contents.map((c) => c.parts!.map((part) => part.text).join(' '));
      // Twice in turn, so that each reads its kept history after the others made theirs.
      for (let round = 0; round < 2; round++)
        for (const [agent, branch] of [['a', undefined], ['a', 'p.a'], ['a', 'p.b'], ['b', undefined], ['b', 'p.a']] as const)
          expect(texts(buildContents(frozen, agent, branch)), `${agent} ${branch} round ${round}`).toEqual(texts(buildContents(plain, agent, branch)));
      expect(texts(buildContents(frozen, 'a', 'p.a'))).toEqual(['root', 'mine', 'parent', expect.stringContaining('from b')]);
    });

    it('a later response in the unfrozen tail never changes what the kept prefix gives', () => {
      const frozen = [ev('user', [{ text: 'open' }]), ev('a', [{ functionCall: { id: 't1', name: 'ticket' } }])].map(frozenCopy);
      const answer = ev('user', [{ functionResponse: { id: 't1', name: 'ticket', response: { status: 'open' } } }]);
      expect(buildContents([...frozen, answer], 'a')).toHaveLength(3);
      expect(buildContents(frozen, 'a')).toEqual([
        { role: 'user', parts: [{ text: 'open' }] },
        { role: 'model', parts: [{ functionCall: { id: 't1', name: 'ticket' } }] },
      ]);
    });

    it('a confirmed call in the frozen prefix: the tail\'s first response replaces the placeholder, a second one is an update', () => {
      const plain = [
        ev('user', [{ text: 'deploy' }]),
        ev('a', [{ functionCall: { id: 'd1', name: 'deploy' } }]),
        ev('a', [{ functionResponse: { id: 'd1', name: 'deploy', response: { error: 'requires confirmation' } } }], {
          actions: { stateDelta: {}, artifactDelta: {}, requestedToolConfirmations: { d1: { confirmed: false } } },
        }),
        ev('a', [{ functionResponse: { id: 'd1', name: 'deploy', response: { deployed: true } } }]),
        ev('a', [{ functionResponse: { id: 'd1', name: 'deploy', response: { deployed: 'again' } } }]),
      ];
      const expected = [
        { role: 'user', parts: [{ text: 'deploy' }] },
        { role: 'model', parts: [{ functionCall: { id: 'd1', name: 'deploy' } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'd1', name: 'deploy', response: { deployed: true } } }] },
        {
          role: 'user',
          parts: [{ text: 'Update from function deploy: {"deployed":"again"}\nThis is the latest answer to your earlier call deploy({}) (id d1).' }],
        },
      ];
      expect(buildContents(plain, 'a')).toEqual(expected);
      const frozen = plain.slice(0, 3).map(frozenCopy);
      for (let i = 0; i < 2; i++) expect(buildContents([...frozen, ...plain.slice(3)], 'a')).toEqual(expected);
      expect(buildContents([...frozen, ...plain.slice(3).map(frozenCopy)], 'a')).toEqual(expected);
    });

    it('keeps the contents of a frozen prefix: the same frozen objects each call, in a new array', () => {
      const events = [
        ev('user', [{ text: 'hi' }]),
        ev('a', [{ functionCall: { id: 'adk-1', name: 'f' } }]),
        ev('a', [{ functionResponse: { id: 'adk-1', name: 'f', response: { ok: true } } }]),
        ev('a', [{ text: 'done' }]),
      ].map(frozenCopy);
      const first = buildContents(events, 'a');
      const second = buildContents([...events, ev('user', [{ text: 'more' }])], 'a');
      for (let i = 0; i < first.length; i++) expect(second[i]).toBe(first[i]);
      expect(Object.isFrozen(first[1]!.parts![0])).toBe(true);
      expect(() => first[0]!.parts!.push({ text: 'x' })).toThrow(TypeError);
      first.push({ role: 'user', parts: [] });
      expect(buildContents(events, 'a')).toHaveLength(4);
      expect(events[1]!.content!.parts![0]!.functionCall!.id).toBe('adk-1');
    });

    it('a frozen prefix shorter than a first exchange is built afresh each call, to the same contents (#24)', () => {
      const events = [ev('user', [{ text: 'hi' }]), ev('a', [{ functionCall: { id: 'adk-1', name: 'f' } }])].map(frozenCopy);
      const first = buildContents(events, 'a');
      const second = buildContents(events, 'a');
      expect(second).toEqual(first);
      expect(second[1]).not.toBe(first[1]);
      expect(buildContents([...events, ev('user', [{ text: 'more' }])], 'a')).toEqual([
        ...first,
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: { status: 'pending' } } }] },
        { role: 'user', parts: [{ text: 'more' }] },
      ]);
    });

    it('an array sharing the first event but not extending the kept one is built afresh', () => {
      const prefix = ['p1', 'p2', 'p3'].map((text) => frozenCopy(ev('user', [{ text }])));
      const [a, b, c] = [ev('user', [{ text: 'a' }]), ev('user', [{ text: 'b' }]), ev('user', [{ text: 'c' }])].map(frozenCopy);
      const text = (events: Event[]) => buildContents([...prefix, ...events], 'a').map((content) => content.parts![0]!.text);
      expect(text([a!, b!])).toEqual(['p1', 'p2', 'p3', 'a', 'b']);
      expect(text([a!, c!])).toEqual(['p1', 'p2', 'p3', 'a', 'c']);
      expect(text([a!, b!, c!])).toEqual(['p1', 'p2', 'p3', 'a', 'b', 'c']);
      expect(text([a!])).toEqual(['p1', 'p2', 'p3', 'a']);
    });
  });
});
