import type { LlmRequest, LlmResponse, Model } from '@adkit/flow';
import type { ReplayServer } from '@adkit/replay-server';
import { openai, type OpenAIOptions } from '../src/index.js';

/** An OpenAI model pointed at the replay server. */
export function openaiAt(server: ReplayServer, model: string, options: OpenAIOptions = {}) {
  return openai(model, { apiKey: 'sk-replay-test', baseURL: server.openaiBaseURL, ...options });
}

/**
 * Every response the model yields but the partial tool-call deltas (#30), which most tests are not
 * about; `collectAll` keeps them, and test/toolCallDeltas.test.ts pins them.
 */
export async function collect(model: Model, request: LlmRequest, stream: boolean, signal?: AbortSignal): Promise<LlmResponse[]> {
  return (await collectAll(model, request, stream, signal)).filter((response) => !(response.partial && response.toolCallDelta));
}

/** Every response the model yields, tool-call deltas included. */
export async function collectAll(model: Model, request: LlmRequest, stream: boolean, signal?: AbortSignal): Promise<LlmResponse[]> {
  const responses: LlmResponse[] = [];
  for await (const response of model.generateContent(request, { stream, ...(signal ? { signal } : {}) })) responses.push(response);
  return responses;
}

/** The request bodies the server received. */
export function sentBodies(server: ReplayServer): Record<string, unknown>[] {
  return server.requests.map((r) => r.body as Record<string, unknown>);
}

/**
 * A recorded body without the fields only the recording client (pydantic-ai) sent: the listed keys
 * at the top level, and `null`/`""` values, which it wrote where this adapter leaves a key out.
 */
export function withoutClientDefaults(body: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  for (const key of keys) delete copy[key];
  return JSON.parse(JSON.stringify(copy, (_key, value: unknown) => (value === null ? undefined : value))) as Record<string, unknown>;
}


export { processWarnings } from '@adkit/test-support';
