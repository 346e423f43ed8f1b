// Issue #23 point 1, on the wire: the late-answer history as the real openai and @google/genai
// SDKs send it, through the adapters, to a local replay server. Each call is answered exactly once,
// right after it (OpenAI: one tool message per tool_call id; Gemini: one functionResponse per
// functionCall in the next content), and the request ends with the late outcome.
import { createConfirmationReply, pendingConfirmations } from '@adkit/confirmation';
import { createUserContent, InMemoryRunner, LlmAgent, type Content, type Model } from '@adkit/flow';
import { gemini } from '@adkit/model-gemini';
import { openai } from '@adkit/model-openai';
import { startReplayServer, type ReplayServer, type ReplayStep } from '@adkit/replay-server';
import { afterEach, describe, expect, it } from 'vitest';
import { bookTrip } from '../src/travelTools.js';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const LATE = /^Update from function book_trip: \{"reference":"LIS-1001","city":"Lisbon","nights":3,"status":"confirmed"\}\nThis is the latest answer to your earlier call book_trip\(\{"city":"Lisbon","nights":3\}\)/;

async function bookThenChatThenApprove(model: Model): Promise<void> {
  const agent = new LlmAgent({ name: 'assistant', model, tools: [bookTrip] });
  const runner = new InMemoryRunner({ agent, appName: 'demo' });
  await runner.sessionService.createSession({ appName: 'demo', userId: 'ann', sessionId: 's' });
  const send = async (message: Content) => {
    for await (const event of runner.runAsync({ userId: 'ann', sessionId: 's', newMessage: message }))
      if (event.errorCode) throw new Error(`${event.errorCode}: ${event.errorMessage}`);
  };
  await send(createUserContent('Book me 3 nights in Lisbon, please.'));
  await send(createUserContent('Meanwhile, hi!'));
  const session = await runner.sessionService.getSession({ appName: 'demo', userId: 'ann', sessionId: 's' });
  await send(createConfirmationReply(pendingConfirmations(session!.events)[0]!, { confirmed: true }));
}

describe('late answers on the wire (issue #23 point 1)', () => {
  it('OpenAI Chat Completions: every tool_call answered once, right after it; the last message is the late outcome', async () => {
    const reply = (message: Record<string, unknown>): ReplayStep => ({
      endpoint: '/chat/completions',
      json: { id: 'x', object: 'chat.completion', created: 0, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }] },
    });
    server = await startReplayServer({
      script: [
        reply({ content: null, tool_calls: [{ id: 'call_book', type: 'function', function: { name: 'book_trip', arguments: '{"city":"Lisbon","nights":3}' } }] }),
        reply({ content: 'Hi! The booking waits for your approval.' }),
        reply({ content: 'Booked.' }),
      ],
    });
    await bookThenChatThenApprove(openai('gpt-4o', { apiKey: 'sk-replay-test', baseURL: server.openaiBaseURL, maxRetries: 0 }));
    server.assertDone();
    type Message = { role: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string };
    const messages = (server.requests[2]!.body as { messages: Message[] }).messages.filter((m) => m.role !== 'system');
    messages.forEach((message, i) => {
      if (!message.tool_calls) return;
      const answers = messages.slice(i + 1).findIndex((next) => next.role !== 'tool');
      const tools = messages.slice(i + 1, i + 1 + (answers < 0 ? messages.length : answers));
      expect(tools.map((tool) => tool.tool_call_id)).toEqual(message.tool_calls.map((call) => call.id));
    });
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['call_book']);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant', 'user']);
    expect(messages.at(-1)!.content).toMatch(LATE);
  });

  it('Gemini: every functionCall answered once in the next content; the last content is the late outcome', async () => {
    const reply = (parts: Record<string, unknown>[]): ReplayStep => ({
      endpoint: ':generateContent',
      json: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] },
    });
    server = await startReplayServer({
      script: [
        reply([{ functionCall: { name: 'book_trip', args: { city: 'Lisbon', nights: 3 } } }]),
        reply([{ text: 'Hi! The booking waits for your approval.' }]),
        reply([{ text: 'Booked.' }]),
      ],
    });
    await bookThenChatThenApprove(gemini('gemini-2.5-flash', { apiKey: 'AIza-replay-test', httpOptions: { baseUrl: server.geminiBaseUrl } }));
    server.assertDone();
    type Part = { text?: string; functionCall?: { name: string }; functionResponse?: { name: string } };
    const contents = (server.requests[2]!.body as { contents: { role: string; parts: Part[] }[] }).contents;
    contents.forEach((content, i) => {
      const calls = content.parts.filter((part) => part.functionCall);
      if (calls.length === 0) return;
      expect(content.role).toBe('model');
      expect(contents[i + 1]!.parts.filter((part) => part.functionResponse).map((part) => part.functionResponse!.name)).toEqual(
        calls.map((part) => part.functionCall!.name),
      );
    });
    expect(contents.flatMap((c) => c.parts).filter((part) => part.functionResponse)).toHaveLength(1);
    expect(contents.at(-1)!.role).toBe('user');
    expect(contents.at(-1)!.parts.at(-1)!.text).toMatch(LATE);
  });
});
