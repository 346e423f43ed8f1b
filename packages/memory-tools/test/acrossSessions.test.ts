// BT-3, BT-4 end to end: what one session of a user said reaches the model in the user's next
// session, through preload_memory (in the system instruction) and load_memory (a function call),
// as the requests the model receives show. Bad input tried: another user asking the same
// question (must see nothing of the first user's).
import {
  createUserContent,
  InMemoryMemoryService,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type Event,
  type MemoryService,
} from '@adkit/flow';
import { functionCallResponse, ScriptedModel, textResponse, type RecordedRequest } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { loadMemoryTool, preloadMemoryTool } from '../src/index.js';

async function run(runner: Runner, userId: string, sessionId: string, text: string): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId, sessionId, newMessage: createUserContent(text) })) events.push(event);
  return events;
}

function system(request: RecordedRequest | undefined): string {
  return (request?.config.systemInstruction?.parts ?? []).map((part) => part.text ?? '').join('');
}

function setup(model: ScriptedModel, memoryService: MemoryService = new InMemoryMemoryService()) {
  const agent = new LlmAgent({ name: 'assistant', model, instruction: 'Be brief.', tools: [preloadMemoryTool, loadMemoryTool] });
  const runner = new Runner({
    appName: 'pets',
    agent,
    sessionService: new InMemorySessionService(),
    memoryService,
    addSessionsToMemory: true,
    autoCreateSession: true,
  });
  return runner;
}

describe('memory across two sessions of one user', () => {
  it('BT-4: preload_memory puts the first session into the second session\'s system instruction', async () => {
    const model = new ScriptedModel([textResponse('Rex is a fine name.'), textResponse('Your dog is called Rex.'), textResponse('I do not know.')]);
    const runner = setup(model);

    await run(runner, 'ada', 'monday', 'My dog is called Rex.');
    expect(system(model.requests[0])).not.toContain('PAST_CONVERSATIONS');

    const answer = await run(runner, 'ada', 'tuesday', 'What is my dog called?');
    expect(answer.at(-1)?.content?.parts?.[0]?.text).toBe('Your dog is called Rex.');
    const instruction = system(model.requests[1]);
    expect(instruction).toMatch(
      new RegExp(
        '<PAST_CONVERSATIONS>\\n' +
          'Time: \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\n' +
          'user: My dog is called Rex\\.\\n' +
          'Time: \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\n' +
          'assistant: Rex is a fine name\\.\\n' +
          '</PAST_CONVERSATIONS>\n',
      ),
    );
    // After the agent's own instruction; then load_memory's, in the order of the agent's tools.
    expect(instruction.indexOf('Be brief.')).toBeLessThan(instruction.indexOf('<PAST_CONVERSATIONS>'));
    expect(instruction.indexOf('</PAST_CONVERSATIONS>')).toBeLessThan(instruction.indexOf('You have memory.'));

    // Another user asking the same question gets nothing of ada's.
    await run(runner, 'bob', 'tuesday', 'What is my dog called?');
    expect(system(model.requests[2])).not.toContain('PAST_CONVERSATIONS');
    expect(model.remaining).toBe(0);
  });

  it('BT-3: load_memory finds the first session when the model asks for it in the second', async () => {
    const model = new ScriptedModel([
      textResponse('Noted: the vet is on Friday.'),
      functionCallResponse([{ name: 'load_memory', args: { query: 'vet appointment' }, id: 'call-1' }]),
      textResponse('Friday.'),
    ]);
    // Only load_memory here, so the first session reaches the model through the function call alone.
    const agent = new LlmAgent({ name: 'assistant', model, tools: [loadMemoryTool] });
    const memory = new InMemoryMemoryService();
    const runner = new Runner({ appName: 'pets', agent, sessionService: new InMemorySessionService(), memoryService: memory, addSessionsToMemory: true, autoCreateSession: true });

    await run(runner, 'ada', 'monday', 'Book the vet for Friday.');
    const events = await run(runner, 'ada', 'tuesday', 'When is the vet?');

    const response = model.requests[2]!.contents.at(-1)!.parts![0]!.functionResponse!;
    expect(response.name).toBe('load_memory');
    const memories = (response.response as { memories: { author: string; content: { parts: { text: string }[] } }[] }).memories;
    expect(memories.map((m) => `${m.author}: ${m.content.parts[0]!.text}`)).toEqual([
      'user: Book the vet for Friday.',
      'assistant: Noted: the vet is on Friday.',
    ]);
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe('Friday.');
    // The tuesday session is remembered too: its question (the call and its response have no text).
    expect((await memory.searchMemory({ appName: 'pets', userId: 'ada', query: 'vet' })).memories).toHaveLength(3);
  });
});
