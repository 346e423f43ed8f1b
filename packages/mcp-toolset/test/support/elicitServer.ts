// An SDK-built server whose tools ask the user for input mid-call (elicitation/create): a form with
// a schema, one asking twice, a URL, one asking up to 10,000 times, one with a 10,000-deep schema.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** What the server saw: calls started, answers received. */
export interface ElicitObserved {
  calls: string[];
  answers: ElicitResult[];
  meta: Record<string, unknown>[];
}

export const BOOKING_SCHEMA = {
  type: 'object',
  properties: {
    guest: { type: 'string', title: 'Guest name', minLength: 1 },
    nights: { type: 'integer', minimum: 1, maximum: 14 },
  },
  required: ['guest', 'nights'],
} as const;

export function elicitServer(observed: ElicitObserved): McpServer {
  const server = new McpServer({ name: 'elicit', version: '1.0.0' });
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  type Extra = { sendRequest: (request: ElicitRequest, schema: typeof ElicitResultSchema) => Promise<ElicitResult> };
  const ask = async (extra: Extra, params: ElicitRequest['params']) => {
    const answer = await extra.sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema);
    observed.answers.push(answer);
    return answer;
  };
  const outcome = (answer: ElicitResult) => (answer.action === 'accept' ? JSON.stringify(answer.content ?? {}) : answer.action);
  server.registerTool('book', { description: 'Books a room; asks who and for how long.', inputSchema: { city: z.string() } }, async ({ city }, extra) => {
    observed.calls.push(`book ${city}`);
    observed.meta.push({ ...(extra._meta ?? {}) });
    const answer = await ask(extra as never, { message: `Who stays in ${city}, and how many nights?`, requestedSchema: BOOKING_SCHEMA as never });
    return text(`booking ${city}: ${outcome(answer)}`);
  });
  server.registerTool('twice', { description: 'Asks two questions.' }, async (extra) => {
    observed.calls.push('twice');
    const first = await ask(extra as never, {
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    if (first.action !== 'accept') return text(`stopped at the first: ${first.action}`);
    const second = await ask(extra as never, {
      message: `Sure, ${String(first.content?.name)}?`,
      requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
    });
    return text(`first ${outcome(first)}, second ${outcome(second)}`);
  });
  server.registerTool('signin', { description: 'Sends the user to a page.' }, async (extra) => {
    observed.calls.push('signin');
    const answer = await ask(extra as never, { mode: 'url', message: 'Sign in to continue', url: 'https://auth.example.test/start', elicitationId: `e-${observed.calls.length}` });
    return text(`signin: ${answer.action}`);
  });
  server.registerTool('spam', { description: 'Asks until told to stop.' }, async (extra) => {
    observed.calls.push('spam');
    for (let i = 0; i < 10_000; i++) {
      const answer = await ask(extra as never, { message: `Question ${i}?`, requestedSchema: { type: 'object', properties: {} } });
      if (answer.action !== 'accept') return text(`asked ${i + 1} times, then ${answer.action}`);
    }
    return text('asked 10,000 times');
  });
  server.registerTool('deep', { description: 'Asks with a 10,000-deep schema.' }, async (extra) => {
    observed.calls.push('deep');
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 10_000; i++) schema = { type: 'object', properties: { next: schema } };
    try {
      const answer = await ask(extra as never, { message: 'deep', requestedSchema: schema as never });
      return text(`deep: ${answer.action}`);
    } catch (error) {
      return text(`deep refused: ${(error as Error).message.slice(0, 80)}`);
    }
  });
  return server;
}
