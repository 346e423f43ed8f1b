import { ConfigError, errorMessage, type GenerateContentOptions, type LlmRequest, type LlmResponse, type Model } from '@adkit/flow';
import { GoogleGenAI, type HttpOptions } from '@google/genai';
import { errorResponse } from './errorResponse.js';
import { DEFAULT_MAX_RESPONSE_BYTES, fetchGuardError, isBrokenStream, readStream, requestSignal } from '@adkit/flow/model-kit';
import { answerFetch } from './answerFetch.js';
import { isApiError } from './errorResponse.js';
import { brokenStream } from './unusableReply.js';
import { ResponseAggregator } from './responseAggregator.js';
import { toGenaiRequest, type GeminiSchemaCache } from './toGenaiRequest.js';

/** Options of `gemini()`. Pass a ready `client`, or the settings to make one. */
export interface GeminiOptions {
  /** A `GoogleGenAI` client you configured; excludes the other options. */
  client?: GoogleGenAI;
  /** Gemini API key; defaults to `GEMINI_API_KEY` / `GOOGLE_API_KEY`. */
  apiKey?: string;
  /** Use Vertex AI instead of the Gemini API. */
  vertexai?: boolean;
  /** Vertex AI project (defaults to `GOOGLE_CLOUD_PROJECT`). */
  project?: string;
  /** Vertex AI location (defaults to `GOOGLE_CLOUD_LOCATION`). */
  location?: string;
  /** Passed to the client: `baseUrl`, `apiVersion`, `headers`, `timeout`, … */
  httpOptions?: HttpOptions;
  /**
   * The largest answer read, in bytes of the reply body; a larger one is cut off and answered
   * with `RESPONSE_TOO_LARGE`. 64 MiB by default (`DEFAULT_MAX_RESPONSE_BYTES`). Allowed with `client`.
   */
  maxResponseBytes?: number;
}

/** A Gemini model: an adkit `Model` over `@google/genai`. */
export interface GeminiModel extends Model {
  /** The genai client the model calls. */
  readonly client: GoogleGenAI;
}

function makeClient(model: string, options: GeminiOptions): GoogleGenAI {
  const { client, maxResponseBytes: _adapterOption, ...settings } = options;
  if (client) {
    const extra = Object.keys(settings).filter((key) => settings[key as keyof typeof settings] !== undefined);
    if (extra.length > 0) {
      throw new ConfigError(
        `gemini("${model}"): pass either \`client\` or client settings (${extra.join(', ')}), not both; configure the client you pass instead.`,
      );
    }
    return client;
  }
  if (!settings.vertexai && !settings.apiKey && !process.env.GEMINI_API_KEY && !process.env.GOOGLE_API_KEY) {
    throw new ConfigError(
      `gemini("${model}"): no API key. Pass {apiKey}, set GEMINI_API_KEY or GOOGLE_API_KEY, or use Vertex AI with {vertexai: true, project, location}.`,
    );
  }
  try {
    return new GoogleGenAI({
      ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      ...(settings.vertexai ? { vertexai: true } : {}),
      ...(settings.project ? { project: settings.project } : {}),
      ...(settings.location ? { location: settings.location } : {}),
      ...(settings.httpOptions ? { httpOptions: settings.httpOptions } : {}),
    });
  } catch (error) {
    throw new ConfigError(`gemini("${model}"): could not create the Gemini client: ${errorMessage(error)}`, { cause: error });
  }
}

/**
 * A Gemini model (Gemini API or Vertex AI) for adkit agents.
 *
 * Streaming yields text and thought deltas, and each call whose arguments stream (Vertex
 * `streamFunctionCallArguments`) as they grow (`toolCallDelta`, nothing to run), as partial responses, then one complete response with
 * the whole content (text, thoughts and their signatures, function calls, code execution, grounding
 * metadata, usage). Provider failures are yielded as a response with `errorCode` (the HTTP status,
 * or `CONNECTION_ERROR`) and `errorMessage`; an aborted `signal` ends the stream without a response.
 * A stream that ends or breaks off before the answer is complete (no finish reason, a call's
 * arguments still streaming) yields `INCOMPLETE_STREAM`, never a call built from partial
 * arguments; a reply that carries no answer (no candidates, an HTML page, an empty stream) yields
 * `EMPTY_RESPONSE` saying what came.
 *
 * @example
 * const model = gemini('gemini-2.5-flash'); // reads GEMINI_API_KEY
 */
export function gemini(model: string, options: GeminiOptions = {}): GeminiModel {
  if (typeof model !== 'string' || model.trim() === '') {
    throw new ConfigError(`gemini(model): the model name must be a non-empty string such as "gemini-2.5-flash"; got ${JSON.stringify(model)}.`);
  }
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
    throw new ConfigError(`gemini("${model}"): maxResponseBytes must be a positive whole number of bytes, got ${String(options.maxResponseBytes)}.`);
  const client = makeClient(model, options);
  const vertexai = options.vertexai ?? client.vertexai ?? false;
  const fetch = answerFetch(client, options.httpOptions?.fetch, maxBytes);
  // Tool and output schemas in Gemini's form, worked out once per schema object for this model.
  const schemas: GeminiSchemaCache = new WeakMap();

  return {
    model,
    client,
    async *generateContent(request: LlmRequest, { stream, signal }: GenerateContentOptions): AsyncGenerator<LlmResponse> {
      if (signal?.aborted) return;
      // The SDK gets a signal of its own for this request (see requestSignal), closed however the
      // request ends: answered, failed, aborted, or left early by the consumer.
      const link = requestSignal(signal);
      const params = toGenaiRequest(request, model, { vertexai, signal: link.signal, fetch, schemas });
      const aggregator = new ResponseAggregator(params.model, stream);
      try {
        if (stream) {
          for await (const chunk of readStream(await client.models.generateContentStream(params), isApiError)) {
            const deltas = aggregator.add(chunk);
            if (deltas.length > 0) yield { partial: true, content: { role: 'model', parts: deltas } };
            for (const toolCallDelta of aggregator.takeCallDeltas()) yield { partial: true, toolCallDelta };
          }
        } else {
          aggregator.add(await client.models.generateContent(params));
        }
      } catch (error) {
        if (signal?.aborted) return;
        if (fetchGuardError(error))
          yield {
            errorCode: 'RESPONSE_TOO_LARGE',
            errorMessage: `The answer of the Gemini API for model "${params.model}" is larger than ${maxBytes} bytes (maxResponseBytes); the rest was not read. Ask for a shorter answer, or raise maxResponseBytes.`,
          };
        else yield isBrokenStream(error) ? brokenStream(params.model, error) : errorResponse(error, params.model);
        return;
      } finally {
        link.close();
      }
      if (signal?.aborted) return;
      yield aggregator.result();
    },
  };
}
