import { ConfigError, errorMessage, type GenerateContentOptions, type LlmRequest, type LlmResponse, type Model } from '@adkit/flow';
import { createRequire } from 'node:module';
import type OpenAI from 'openai';
import { chatRequest, type RequestSettings } from './chatRequest.js';
import { ChatStreamState, completionResult } from './chatResponse.js';
import { errorResponse } from './errorResponse.js';
import { readReply } from './readReply.js';
import { responsesRequest } from './responsesRequest.js';
import { responseReplyResult, ResponsesStreamState } from './responsesResponse.js';
import { SchemaCache } from './schemaCache.js';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  fetchGuardError,
  guardedFetch,
  isBrokenStream,
  raceAbort,
  readStream,
  requestSignal,
  type FetchFunction,
} from '@adkit/flow/model-kit';
import { brokenStream, isApiError } from './unusableReply.js';

/** Options of `openai()`. Pass a ready `client`, or the settings to make one. */
export interface OpenAIOptions {
  /** An `OpenAI` client you configured; excludes `apiKey`, `baseURL`, `organization`, `project`, `maxRetries`, `timeout`. */
  client?: OpenAI;
  /** Defaults to `OPENAI_API_KEY`. Any non-empty string for local servers that ignore it. */
  apiKey?: string;
  /** An OpenAI-compatible server, e.g. `http://localhost:11434/v1` (Ollama); defaults to `OPENAI_BASE_URL` or OpenAI. */
  baseURL?: string;
  organization?: string;
  project?: string;
  /** Retries of 408/409/429/5xx and connection errors, with backoff (default 2). 400/401/403/404 are never retried. */
  maxRetries?: number;
  /**
   * Limit in milliseconds for the reply's headers (the SDK's request timeout) and for each pause
   * between chunks of its body, streamed or not, so a stream that stalls after its headers ends
   * with `TIMEOUT` too. Default: the SDK's, 10 minutes (or the given client's `timeout`).
   */
  timeout?: number;
  /**
   * The largest answer read, in bytes of the reply body; a larger one is cut off and answered
   * with `RESPONSE_TOO_LARGE`. 64 MiB by default (`DEFAULT_MAX_RESPONSE_BYTES`).
   */
  maxResponseBytes?: number;
  /** `'chat'` (Chat Completions, default: what OpenAI-compatible servers speak) or `'responses'`. */
  api?: 'chat' | 'responses';
  /** Send tool and output schemas in OpenAI's strict form (see `schemaReport`). Default false. */
  strict?: boolean;
  /** Role of the system instruction in Chat Completions (default `'system'`). */
  systemRole?: 'system' | 'developer';
  /** Reasoning effort and summary for reasoning models (else from `config.thinkingConfig`). */
  reasoning?: { effort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | (string & {}); summary?: 'auto' | 'concise' | 'detailed' };
  /** Responses API `store` (the API's default is true). */
  store?: boolean;
  /** Extra body fields merged into every request (provider extensions such as `service_tier`). */
  extraBody?: Record<string, unknown>;
}

/** An OpenAI model: an adkit `Model` over the `openai` SDK. */
export interface OpenAIModel extends Model {
  /**
   * The client the model sends its requests with: the one you passed, or the one it made. The SDK
   * is loaded on the first request; reading `client` before then loads it at once (its CommonJS
   * build, through `require`).
   */
  readonly client: OpenAI;
  readonly api: 'chat' | 'responses';
}

const CLIENT_SETTINGS = ['apiKey', 'baseURL', 'organization', 'project', 'maxRetries', 'timeout'] as const;

/** The `OpenAI` class of the SDK: a constructor, whichever way the module was loaded. */
type OpenAIClass = new (options: ConstructorParameters<typeof OpenAI>[0]) => OpenAI;

/** Loads the SDK synchronously, for a `client` read before the first request. */
const requireSdk = (): OpenAIClass => (createRequire(import.meta.url)('openai') as { default: OpenAIClass }).default;

/** Loads the SDK on the first request, so importing this package does not pay for it (#24). */
const importSdk = async (): Promise<OpenAIClass> => (await import('openai')).default as unknown as OpenAIClass;

/** Checks the options at `openai()`, so a bad configuration fails there and not at the first request. */
function checkClientOptions(model: string, options: OpenAIOptions): void {
  if (options.client) {
    const extra = CLIENT_SETTINGS.filter((key) => options[key] !== undefined);
    if (extra.length > 0) {
      throw new ConfigError(
        `openai("${model}"): pass either \`client\` or client settings (${extra.join(', ')}), not both; configure the client you pass instead.`,
      );
    }
    return;
  }
  if (!options.apiKey && !process.env.OPENAI_API_KEY) {
    throw new ConfigError(
      `openai("${model}"): no API key. Pass {apiKey} or set OPENAI_API_KEY (for a local OpenAI-compatible server such as Ollama, any non-empty string works).`,
    );
  }
}

function makeClient(model: string, options: OpenAIOptions, OpenAISdk: OpenAIClass): OpenAI {
  try {
    return new OpenAISdk({
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      ...(options.organization ? { organization: options.organization } : {}),
      ...(options.project ? { project: options.project } : {}),
      maxRetries: options.maxRetries ?? 2,
      ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    });
  } catch (error) {
    throw new ConfigError(`openai("${model}"): could not create the OpenAI client: ${errorMessage(error)}`, { cause: error });
  }
}

/**
 * An OpenAI model for adkit agents, over the Chat Completions API (default; any OpenAI-compatible
 * server through `baseURL`) or the Responses API.
 *
 * Streaming yields text and reasoning deltas, and each tool call as its arguments grow
 * (`toolCallDelta`, nothing to run), as partial responses, then one complete response
 * (tool-call arguments assembled, usage, finish reason in genai's vocabulary). Failures are yielded
 * as a response with `errorCode` (the HTTP status, `CONNECTION_ERROR`, `REFUSAL`,
 * `UNSUPPORTED_TOOL`, …) and `errorMessage`; an aborted `signal` ends the stream without a response.
 * A stream that ends or breaks off before the answer is complete (no finish reason, no
 * `response.completed`) yields `INCOMPLETE_STREAM`, never a call built from partial arguments; a
 * reply that carries no answer (`{}`, `choices: []`, an HTML page, an empty stream) yields
 * `EMPTY_RESPONSE` saying what came.
 *
 * @example
 * const model = openai('gpt-4.1-mini'); // reads OPENAI_API_KEY
 * const local = openai('llama3.2', { baseURL: 'http://localhost:11434/v1', apiKey: 'ollama' });
 */
export function openai(model: string, options: OpenAIOptions = {}): OpenAIModel {
  if (typeof model !== 'string' || model.trim() === '') {
    throw new ConfigError(`openai(model): the model name must be a non-empty string such as "gpt-4.1-mini"; got ${JSON.stringify(model)}.`);
  }
  const api = options.api ?? 'chat';
  if (api !== 'chat' && api !== 'responses') {
    throw new ConfigError(`openai("${model}"): api must be 'chat' or 'responses'; got ${JSON.stringify(api)}.`);
  }
  if (options.systemRole !== undefined && options.systemRole !== 'system' && options.systemRole !== 'developer') {
    throw new ConfigError(`openai("${model}"): systemRole must be 'system' or 'developer'; got ${JSON.stringify(options.systemRole)}.`);
  }
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
    throw new ConfigError(`openai("${model}"): maxResponseBytes must be a positive whole number of bytes, got ${String(options.maxResponseBytes)}.`);
  checkClientOptions(model, options);
  // The client, once made (or given); the caller is it with the guarded fetch.
  let client: OpenAI | undefined = options.client;
  let caller: OpenAI | undefined;
  let idleTimeoutMs = 0;
  const useClient = (made: OpenAI): OpenAI => {
    client ??= made;
    if (!caller) {
      // The SDK's timeout ends at the reply's headers; the guard bounds the body too (size and pauses).
      idleTimeoutMs = options.timeout ?? client.timeout;
      const given = (client as unknown as { fetch?: FetchFunction }).fetch ?? ((input, init) => fetch(input, init));
      caller = client.withOptions({ fetch: guardedFetch(given, { maxBytes, idleTimeoutMs }) });
    }
    return caller;
  };
  if (client) useClient(client);
  const loadCaller = async (): Promise<OpenAI> => caller ?? useClient(client ?? makeClient(model, options, await importSdk()));
  const settings: RequestSettings = {
    strict: options.strict ?? false,
    schemas: new SchemaCache(),
    systemRole: options.systemRole ?? 'system',
    ...(options.reasoning ? { reasoning: options.reasoning } : {}),
    ...(options.store !== undefined ? { store: options.store } : {}),
    ...(options.extraBody ? { extraBody: options.extraBody } : {}),
  };

  // raceAbort: the SDK sleeps through a Retry-After wait without looking at the signal, so an
  // aborted run would otherwise wait it out; its next attempt sees the signal and never goes out.
  async function* chat(caller: OpenAI, request: LlmRequest, stream: boolean, signal: AbortSignal, name: string): AsyncGenerator<LlmResponse> {
    const mapped = chatRequest(request, model, settings, stream);
    if (!stream) {
      const reply = await raceAbort(readReply(caller.chat.completions.create(mapped.body as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, { signal })), signal);
      yield completionResult(reply, mapped, name);
      return;
    }
    const reply = await raceAbort(readReply(caller.chat.completions.create(mapped.body as OpenAI.Chat.ChatCompletionCreateParamsStreaming, { signal })), signal);
    const state = new ChatStreamState();
    for await (const chunk of readStream(reply.data ?? [], isApiError)) {
      const deltas = state.add(chunk);
      if (deltas.length > 0) yield { partial: true, content: { role: 'model', parts: deltas } };
      for (const toolCallDelta of state.takeCallDeltas()) yield { partial: true, toolCallDelta };
    }
    yield state.result(mapped, name, reply.contentType);
  }

  async function* responses(caller: OpenAI, request: LlmRequest, stream: boolean, signal: AbortSignal, name: string): AsyncGenerator<LlmResponse> {
    const mapped = responsesRequest(request, model, settings, stream);
    if (!stream) {
      const reply = await raceAbort(readReply(caller.responses.create(mapped.body as OpenAI.Responses.ResponseCreateParamsNonStreaming, { signal })), signal);
      yield responseReplyResult(reply, mapped, name);
      return;
    }
    const reply = await raceAbort(readReply(caller.responses.create(mapped.body as OpenAI.Responses.ResponseCreateParamsStreaming, { signal })), signal);
    const state = new ResponsesStreamState();
    for await (const event of readStream(reply.data ?? [], isApiError)) {
      const deltas = state.add(event);
      if (deltas.length > 0) yield { partial: true, content: { role: 'model', parts: deltas } };
      const toolCallDelta = state.takeCallDelta();
      if (toolCallDelta) yield { partial: true, toolCallDelta };
    }
    yield state.result(mapped, name, reply.contentType);
  }

  return {
    model,
    get client(): OpenAI {
      if (!client) useClient(makeClient(model, options, requireSdk()));
      return client as OpenAI;
    },
    api,
    async *generateContent(request: LlmRequest, { stream, signal }: GenerateContentOptions): AsyncGenerator<LlmResponse> {
      if (signal?.aborted) return;
      const name = request.model ?? model;
      const caller = await loadCaller();
      if (signal?.aborted) return;
      // The SDK gets a signal of its own for this request (see requestSignal), closed however the
      // request ends: answered, failed, aborted, or left early by the consumer.
      const link = requestSignal(signal);
      try {
        for await (const response of (api === 'chat' ? chat : responses)(caller, request, stream, link.signal, name)) {
          if (signal?.aborted) return;
          yield response;
        }
      } catch (error) {
        if (signal?.aborted) return;
        const guard = fetchGuardError(error);
        if (guard?.code === 'RESPONSE_TOO_LARGE')
          yield {
            errorCode: 'RESPONSE_TOO_LARGE',
            errorMessage: `The answer of the OpenAI API for model "${name}" is larger than ${maxBytes} bytes (maxResponseBytes); the rest was not read. Ask for a shorter answer, or raise maxResponseBytes.`,
          };
        else if (guard)
          yield {
            errorCode: 'TIMEOUT',
            errorMessage: `The OpenAI API at ${caller.baseURL} stopped sending its answer for model "${name}": nothing arrived for ${idleTimeoutMs} ms (timeout).`,
          };
        else yield isBrokenStream(error) ? brokenStream(name, error) : errorResponse(error, name, caller.baseURL);
      } finally {
        link.close();
      }
    },
  };
}

