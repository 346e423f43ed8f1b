import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryMemoryService } from '../src/services/inMemoryMemoryService.js';
import { memoryEntriesFromSession, memoryEntryText } from '../src/services/memoryEntries.js';
import { createEvent } from '../src/content/event.js';
import type { Part } from '../src/content/content.js';
import type { Session } from '../src/sessions/session.js';

// Bad input tried: an empty query, a query of punctuation only, events without text (function
// calls, no content, thoughts only, empty strings), and the same session added twice.

function sessionWith(id: string, texts: (string | Part[])[], owner: { appName?: string; userId?: string } = {}): Session {
  return {
    id,
    appName: owner.appName ?? 'shop',
    userId: owner.userId ?? 'ada',
    state: {},
    lastUpdateTime: 0,
    events: texts.map((t, i) =>
      createEvent({
        id: `${id}-e${i}`,
        invocationId: 'inv',
        author: i % 2 === 0 ? 'user' : 'helper',
        timestamp: 1000 + i,
        content: { role: i % 2 === 0 ? 'user' : 'model', parts: typeof t === 'string' ? [{ text: t }] : t },
      }),
    ),
  };
}

const search = (memory: InMemoryMemoryService, query: string, owner: { appName?: string; userId?: string } = {}) =>
  memory.searchMemory({ appName: owner.appName ?? 'shop', userId: owner.userId ?? 'ada', query });

const ids = async (response: Promise<{ memories: { id?: string }[] }>) => (await response).memories.map((m) => m.id);

describe('InMemoryMemoryService', () => {
  let memory: InMemoryMemoryService;
  beforeEach(() => {
    memory = new InMemoryMemoryService();
  });

  it('finds events that share a word with the query, with their content, author and time', async () => {
    await memory.addSessionToMemory(sessionWith('s1', ['My dog is called Rex.', 'Nice name for a dog!', 'I also have a cat.']));
    const { memories } = await search(memory, 'dog');
    expect(memories).toEqual([
      { id: 's1-e0', author: 'user', timestamp: 1000, content: { role: 'user', parts: [{ text: 'My dog is called Rex.' }] } },
      { id: 's1-e1', author: 'helper', timestamp: 1001, content: { role: 'model', parts: [{ text: 'Nice name for a dog!' }] } },
    ]);
  });

  it('matches whole words only, any of the query words', async () => {
    await memory.addSessionToMemory(sessionWith('s1', ['dogma and doctrine', 'a hot dog', 'cats rule']));
    expect(await ids(search(memory, 'dog'))).toEqual(['s1-e1']);
    expect(await ids(search(memory, 'cats, dogma?'))).toEqual(['s1-e0', 's1-e2']);
    expect(await ids(search(memory, 'zebra'))).toEqual([]);
  });

  it('ignores case, in the query and in the text, beyond ASCII too', async () => {
    await memory.addSessionToMemory(sessionWith('s1', ['Meeting in ZÜRICH on Friday', 'nothing here']));
    expect(await ids(search(memory, 'zürich'))).toEqual(['s1-e0']);
    expect(await ids(search(memory, 'FRIDAY'))).toEqual(['s1-e0']);
  });

  it('searches every text part of an event and skips events without text', async () => {
    await memory.addSessionToMemory(
      sessionWith('s1', [
        [{ text: 'first part' }, { text: 'second keyword part' }],
        [{ functionCall: { name: 'keyword', args: { keyword: 'keyword' } } }],
        [],
      ]),
    );
    expect(await ids(search(memory, 'keyword'))).toEqual(['s1-e0']);
  });

  it('keeps memories per app and user', async () => {
    await memory.addSessionToMemory(sessionWith('ada-shop', ['secret plan']));
    await memory.addSessionToMemory(sessionWith('bob-shop', ['secret recipe'], { userId: 'bob' }));
    await memory.addSessionToMemory(sessionWith('ada-bank', ['secret pin'], { appName: 'bank' }));
    expect(await ids(search(memory, 'secret'))).toEqual(['ada-shop-e0']);
    expect(await ids(search(memory, 'secret', { userId: 'bob' }))).toEqual(['bob-shop-e0']);
    expect(await ids(search(memory, 'secret', { appName: 'bank' }))).toEqual(['ada-bank-e0']);
    expect(await ids(search(memory, 'secret', { userId: 'cy' }))).toEqual([]);
  });

  it("searches across the user's sessions", async () => {
    await memory.addSessionToMemory(sessionWith('s1', ['trip to Rome']));
    await memory.addSessionToMemory(sessionWith('s2', ['Rome again']));
    expect(await ids(search(memory, 'rome'))).toEqual(['s1-e0', 's2-e0']);
  });

  it('returns nothing for an empty query or one without words', async () => {
    await memory.addSessionToMemory(sessionWith('s1', ['anything at all', '?!']));
    expect(await ids(search(memory, ''))).toEqual([]);
    expect(await ids(search(memory, '   '))).toEqual([]);
    expect(await ids(search(memory, '?! ...'))).toEqual([]);
  });

  it('adding a session again replaces what was remembered of it', async () => {
    const session = sessionWith('s1', ['old topic']);
    await memory.addSessionToMemory(session);
    await memory.addSessionToMemory(sessionWith('s1', ['old topic', 'new topic']));
    expect(await ids(search(memory, 'topic'))).toEqual(['s1-e0', 's1-e1']);
  });

  it('remembers a copy and hands out copies', async () => {
    const session = sessionWith('s1', ['remember the milk']);
    await memory.addSessionToMemory(session);
    session.events[0]!.content!.parts![0]!.text = 'changed by caller';
    const first = await search(memory, 'milk');
    first.memories[0]!.content.parts![0]!.text = 'changed by reader';
    expect((await search(memory, 'milk')).memories[0]!.content.parts).toEqual([{ text: 'remember the milk' }]);
  });
});

describe('memoryEntriesFromSession and memoryEntryText (the seam for other memory services)', () => {
  it('remembers events with text, without the model\'s thoughts, as copies', () => {
    const session = sessionWith('s1', [
      'plain question',
      [{ text: 'thinking…', thought: true }, { text: 'the answer' }, { functionCall: { name: 'f', args: {} } }],
      [{ text: 'only a thought', thought: true }],
      [{ text: '' }],
      [],
    ]);
    const entries = memoryEntriesFromSession(session);
    expect(entries).toEqual([
      { id: 's1-e0', author: 'user', timestamp: 1000, content: { role: 'user', parts: [{ text: 'plain question' }] } },
      {
        id: 's1-e1',
        author: 'helper',
        timestamp: 1001,
        content: { role: 'model', parts: [{ text: 'the answer' }, { functionCall: { name: 'f', args: {} } }] },
      },
    ]);
    entries[0]!.content.parts![0]!.text = 'changed';
    expect(session.events[0]!.content!.parts![0]!.text).toBe('plain question');
  });

  it('BT-5: a memory\'s text is its non-empty, non-thought text parts joined by one space', () => {
    expect(
      memoryEntryText({
        content: { parts: [{ text: 'a' }, { text: '' }, { text: 'hidden', thought: true }, { inlineData: { data: '' } }, { text: 'b  c' }] },
      }),
    ).toBe('a b  c');
    expect(memoryEntryText({ content: {} })).toBe('');
  });

  it('InMemoryMemoryService does not match words that were only in thoughts', async () => {
    const memory = new InMemoryMemoryService();
    await memory.addSessionToMemory(sessionWith('s1', [[{ text: 'secret plan', thought: true }, { text: 'public words' }]]));
    expect(await ids(search(memory, 'secret'))).toEqual([]);
    expect(await ids(search(memory, 'public'))).toEqual(['s1-e0']);
  });
});
