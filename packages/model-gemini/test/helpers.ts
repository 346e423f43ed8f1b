import type { LlmRequest, LlmResponse, Model } from '@adkit/flow';
import type { ReplayServer } from '@adkit/replay-server';
import { gemini, type GeminiOptions } from '../src/index.js';

/** A Gemini model pointed at the replay server. */
export function geminiAt(server: ReplayServer, model: string, options: GeminiOptions = {}) {
  return gemini(model, { apiKey: 'AIza-replay-test', httpOptions: { baseUrl: server.geminiBaseUrl }, ...options });
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
 * A recorded request body as the JS SDK would send it: the Python SDK (pydantic-ai's recordings)
 * writes `parameters_json_schema` in snake case and thought signatures in URL-safe base64.
 */
export function asJsSdkBody(body: Record<string, unknown>): Record<string, unknown> {
  const text = JSON.stringify(body, (key, value: unknown) => {
    if (key === 'thoughtSignature' && typeof value === 'string') return value.replace(/-/g, '+').replace(/_/g, '/');
    return value;
  }).replace(/"parameters_json_schema":/g, '"parametersJsonSchema":');
  return JSON.parse(text) as Record<string, unknown>;
}


export { processWarnings } from '@adkit/test-support';
