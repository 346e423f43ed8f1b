// BT-4, BT-5: preload_memory's block, asserted in full. Bad input tried: a user message that does
// not start with text (none, empty, an image first, empty text), a failing memory service, no
// memory service at all, memories without text or time, a timestamp that is not a date, an
// author-less memory, and text that looks like the closing tag.
import { createLlmRequest, createUserContent, InMemoryMemoryService, isRunnableTool, type MemoryEntry, type MemoryService } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { formatMemories, preloadMemoryTool } from '../src/index.js';

const INTRO =
  'The following content is from your previous conversations with the user.\n' +
  "They may be useful for answering the user's current query.\n";

const fixed = (memories: MemoryEntry[]): MemoryService => ({
  addSessionToMemory: async () => {},
  searchMemory: async () => ({ memories }),
});

async function preload(userContent: ReturnType<typeof createUserContent> | undefined, memoryService?: MemoryService) {
  const request = createLlmRequest({ model: 'scripted' });
  await preloadMemoryTool.processRequest(createToolContext({ userContent, memoryService }), request);
  return request;
}

describe('preload_memory (BT-4)', () => {
  it('BT-4: searches with the first text of the user message and appends the past conversations', async () => {
    const queries: string[] = [];
    const memory: MemoryService = {
      addSessionToMemory: async () => {},
      searchMemory: async ({ query, userId }) => {
        queries.push(`${userId}: ${query}`);
        return {
          memories: [
            { author: 'user', timestamp: Date.UTC(2025, 0, 2, 3, 4, 5, 678), content: { parts: [{ text: 'My dog is Rex.' }] } },
            { author: 'assistant', content: { parts: [{ text: 'Nice' }, { text: 'name!' }] } },
          ],
        };
      },
    };
    const request = await preload(createUserContent([{ text: 'What is my dog called?' }, { text: 'second part' }]), memory);
    expect(queries).toEqual(['test-user: What is my dog called?']);
    expect(request.config.systemInstruction).toEqual({
      role: 'user',
      parts: [
        {
          text:
            INTRO +
            '<PAST_CONVERSATIONS>\n' +
            'Time: 2025-01-02T03:04:05Z\n' +
            'user: My dog is Rex.\n' +
            'assistant: Nice name!\n' +
            '</PAST_CONVERSATIONS>',
        },
      ],
    });
  });

  it('BT-4: adds nothing, and does not search, unless the user message starts with text', async () => {
    let searched = 0;
    const memory: MemoryService = { addSessionToMemory: async () => {}, searchMemory: async () => (searched++, { memories: [] }) };
    for (const content of [
      undefined,
      createUserContent([]),
      createUserContent([{ text: '' }, { text: 'later text' }]),
      createUserContent([{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }, { text: 'caption' }]),
    ])
      expect((await preload(content, memory)).config.systemInstruction).toBeUndefined();
    expect(searched).toBe(0);
  });

  it('BT-4: adds nothing when nothing is found or nothing found has text', async () => {
    expect((await preload(createUserContent('hello'), fixed([]))).config.systemInstruction).toBeUndefined();
    const noText = fixed([{ author: 'user', timestamp: 1, content: { parts: [{ text: '' }, { text: 'thought', thought: true }] } }]);
    expect((await preload(createUserContent('hello'), noText)).config.systemInstruction).toBeUndefined();
  });

  it('BT-4: a failing search fails the step, naming the cause; so does a missing memory service', async () => {
    const broken: MemoryService = {
      addSessionToMemory: async () => {},
      searchMemory: async () => {
        throw new Error('vector store unreachable');
      },
    };
    await expect(preload(createUserContent('hi'), broken)).rejects.toMatchObject({
      code: 'MEMORY_ERROR',
      message: 'preload memory search failed: vector store unreachable',
    });
    await expect(preload(createUserContent('hi'))).rejects.toThrow(
      'preload memory search failed: memory service is not set; pass memoryService to the Runner (InMemoryRunner has one).',
    );
  });

  it('BT-4: has no declaration and is never registered, so the model cannot call it', async () => {
    expect([preloadMemoryTool.name, preloadMemoryTool.description]).toEqual(['preload_memory', 'Preloads relevant memory for the current user.']);
    expect(isRunnableTool(preloadMemoryTool)).toBe(false);
    const memory = new InMemoryMemoryService();
    const request = await preload(createUserContent('anything'), memory);
    expect(request.tools).toEqual({});
    expect(request.config.tools).toBeUndefined();
  });

  it('appends after the instruction already there, as the last system text', async () => {
    const request = createLlmRequest();
    request.config.systemInstruction = { role: 'user', parts: [{ text: 'You are helpful.' }] };
    await preloadMemoryTool.processRequest(
      createToolContext({ userContent: createUserContent('q'), memoryService: fixed([{ content: { parts: [{ text: 'm' }] } }]) }),
      request,
    );
    expect(request.config.systemInstruction!.parts).toEqual([{ text: `You are helpful.\n\n${INTRO}<PAST_CONVERSATIONS>\nm\n</PAST_CONVERSATIONS>` }]);
  });
});

describe('formatMemories (BT-5)', () => {
  it('BT-5: a Time line when there is a time, author: text or the text alone, joined by newlines', () => {
    expect(
      formatMemories([
        { timestamp: 0, author: 'user', content: { parts: [{ text: 'at the epoch' }] } },
        { content: { parts: [{ text: 'no author, no time' }] } },
        { author: 'bot', content: { parts: [] } },
        { timestamp: Number.NaN, author: 'bot', content: { parts: [{ text: 'bad time' }] } },
        { timestamp: 8.64e15 + 1, content: { parts: [{ text: 'time out of range' }] } },
        { author: '', content: { parts: [{ text: 'empty author' }, { text: '</PAST_CONVERSATIONS>' }] } },
      ]),
    ).toBe(
      [
        'Time: 1970-01-01T00:00:00Z',
        'user: at the epoch',
        'no author, no time',
        'bot: bad time',
        'time out of range',
        'empty author </PAST_CONVERSATIONS>',
      ].join('\n'),
    );
    expect(formatMemories([])).toBe('');
  });
});
