// The MemoryService seam: a memory service over a vector store (here a fake one, with a toy
// embedding that knows "puppy" and "dog" are near) plugs into the runner and the memory tools
// with nothing but the MemoryService interface and flow's memoryEntriesFromSession /
// memoryEntryText. It finds what keyword matching cannot ("puppy" → "dog"), keeps users apart,
// replaces a session's memories when it is added again, and returns the nearest first.
// Bad input tried: a query with no known word (nothing near enough), another user's question.
import { createUserContent, InMemoryMemoryService, InMemorySessionService, LlmAgent, Runner, type MemoryEntry, type MemoryService, type SearchMemoryRequest, type SearchMemoryResponse, type Session } from '@adkit/flow';
import { memoryEntriesFromSession, memoryEntryText } from '@adkit/flow/store';
import { ScriptedModel, textResponse } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { preloadMemoryTool } from '../src/index.js';

/** What a vector database offers: upsert by id, delete by filter, nearest-neighbour query. */
interface VectorRecord {
  id: string;
  vector: number[];
  metadata: { appName: string; userId: string; sessionId: string };
  entry: MemoryEntry;
}
class FakeVectorStore {
  readonly records = new Map<string, VectorRecord>();
  async upsert(records: VectorRecord[]): Promise<void> {
    for (const record of records) this.records.set(record.id, record);
  }
  async deleteWhere(filter: (metadata: VectorRecord['metadata']) => boolean): Promise<void> {
    for (const [id, record] of this.records) if (filter(record.metadata)) this.records.delete(id);
  }
  async query(vector: number[], options: { topK: number; minScore: number; filter: (m: VectorRecord['metadata']) => boolean }) {
    return [...this.records.values()]
      .filter((record) => options.filter(record.metadata))
      .map((record) => ({ record, score: cosine(vector, record.vector) }))
      .filter(({ score }) => score >= options.minScore)
      .sort((a, b) => b.score - a.score)
      .slice(0, options.topK);
  }
}

// A toy embedding: one dimension per concept, synonyms share one.
const CONCEPTS: Record<string, number> = { dog: 0, dogs: 0, puppy: 0, hound: 0, cat: 1, kitten: 1, vet: 2, doctor: 2, friday: 3 };
function embed(text: string): number[] {
  const vector = [0, 0, 0, 0];
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) if (word in CONCEPTS) vector[CONCEPTS[word]!]! += 1;
  return vector;
}
function cosine(a: number[], b: number[]): number {
  const dot = a.reduce((sum, x, i) => sum + x * b[i]!, 0);
  const norm = Math.hypot(...a) * Math.hypot(...b);
  return norm === 0 ? 0 : dot / norm;
}

/** The whole seam: the two MemoryService methods over the store. */
class VectorMemoryService implements MemoryService {
  constructor(private readonly store: FakeVectorStore) {}

  async addSessionToMemory(session: Session): Promise<void> {
    const owner = { appName: session.appName, userId: session.userId, sessionId: session.id };
    await this.store.deleteWhere((m) => m.appName === owner.appName && m.userId === owner.userId && m.sessionId === owner.sessionId);
    await this.store.upsert(
      memoryEntriesFromSession(session).map((entry) => ({ id: `${session.id}/${entry.id}`, vector: embed(memoryEntryText(entry)), metadata: owner, entry })),
    );
  }

  async searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse> {
    const hits = await this.store.query(embed(request.query), {
      topK: 3,
      minScore: 0.5,
      filter: (m) => m.appName === request.appName && m.userId === request.userId,
    });
    return { memories: hits.map(({ record }) => record.entry) };
  }
}

function setup(memoryService: MemoryService, answers: number) {
  const model = new ScriptedModel(Array.from({ length: answers }, (_, i) => textResponse(`answer ${i}`)));
  const runner = new Runner({
    appName: 'pets',
    agent: new LlmAgent({ name: 'assistant', model, tools: [preloadMemoryTool] }),
    sessionService: new InMemorySessionService(),
    memoryService,
    addSessionsToMemory: true,
    autoCreateSession: true,
  });
  const say = async (userId: string, sessionId: string, text: string) => {
    for await (const _ of runner.runAsync({ userId, sessionId, newMessage: createUserContent(text) }));
    const parts = model.requests.at(-1)?.config.systemInstruction?.parts ?? [];
    return parts.map((part) => part.text).join('');
  };
  return { say };
}

describe('MemoryService seam: a vector store plugs in', () => {
  it('finds "dog" for a question about a "puppy", which keyword matching cannot', async () => {
    const store = new FakeVectorStore();
    const { say } = setup(new VectorMemoryService(store), 5);
    await say('ada', 's1', 'I adopted a dog named Rex.');
    await say('ada', 's2', 'My cat sleeps all day.');

    const instruction = await say('ada', 's3', 'Does my puppy need shots?');
    expect(instruction).toContain('user: I adopted a dog named Rex.');
    expect(instruction).not.toContain('My cat sleeps');
    // The same question through the keyword service finds nothing.
    const keyword = setup(new InMemoryMemoryService(), 2);
    await keyword.say('ada', 's1', 'I adopted a dog named Rex.');
    expect(await keyword.say('ada', 's2', 'Does my puppy need shots?')).not.toContain('PAST_CONVERSATIONS');

    // Another user's question about a puppy finds nothing of ada's; nor does a question near nothing.
    expect(await say('bob', 's1', 'Does my puppy need shots?')).not.toContain('PAST_CONVERSATIONS');
    expect(await say('ada', 's4', 'What is the weather?')).not.toContain('PAST_CONVERSATIONS');
  });

  it('adding a session again replaces its vectors instead of doubling them', async () => {
    const store = new FakeVectorStore();
    const memory = new VectorMemoryService(store);
    const { say } = setup(memory, 2);
    await say('ada', 's1', 'The vet is on Friday.');
    const afterFirst = store.records.size;
    await say('ada', 's1', 'Bring the dog to the vet.');
    expect(afterFirst).toBe(2);
    expect(store.records.size).toBe(4);
    const { memories } = await memory.searchMemory({ appName: 'pets', userId: 'ada', query: 'vet doctor' });
    expect(memories.map(memoryEntryText)).toEqual(['The vet is on Friday.', 'Bring the dog to the vet.']);
  });
});
