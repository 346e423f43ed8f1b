import type { LlmRequest } from '@adkit/flow';
import type OpenAI from 'openai';
import { UnsupportedRequestError } from './errors.js';
import { orderHistory } from './history.js';
import { toolResultMedia } from './toolResultMedia.js';
import { reasoningSettings, responseFormat, systemText, toolChoice, type ResponseFormat } from './requestSettings.js';
import type { SchemaCache } from './schemaCache.js';
import { toolSpecs, type StrictPlan } from './toolSpecs.js';
import { partAsText, userPieces } from './userParts.js';

type ChatParams = OpenAI.Chat.Completions.ChatCompletionCreateParams;
type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ChatContentPart = OpenAI.Chat.Completions.ChatCompletionContentPart;

/** Adapter settings that shape a request. */
export interface RequestSettings {
  strict: boolean;
  /** The owning model's converted and strict schemas (each worked out once per schema object). */
  schemas: SchemaCache;
  systemRole: 'system' | 'developer';
  reasoning?: { effort?: string; summary?: string };
  store?: boolean;
  extraBody?: Record<string, unknown>;
}

/** A Chat Completions request and what the response mapping needs to know about it. */
export interface MappedRequest<P> {
  body: P;
  strictPlans: Map<string, StrictPlan>;
  format: ResponseFormat | undefined;
}

function userMessage(parts: Parameters<typeof userPieces>[0], model: string): ChatMessage {
  const pieces = userPieces(parts, model);
  if (pieces.length === 1 && pieces[0]!.kind === 'text') return { role: 'user', content: pieces[0]!.text };
  const content: ChatContentPart[] = pieces.map((piece) => {
    if (piece.kind === 'text') return { type: 'text', text: piece.text };
    if (piece.kind === 'image') return { type: 'image_url', image_url: { url: piece.url } };
    if (!piece.data) {
      throw new UnsupportedRequestError(
        'UNSUPPORTED_CONTENT',
        `OpenAI model "${model}" cannot take a PDF by URL in the Chat Completions API; send it inline or use {api: 'responses'}.`,
      );
    }
    return { type: 'file', file: { file_data: piece.data, filename: piece.filename } };
  });
  return { role: 'user', content };
}

/**
 * Maps an adkit request onto `chat.completions.create` parameters: the system instruction as a
 * system (or developer) message, user and model turns, function calls as assistant `tool_calls`,
 * function responses as `tool` messages (pending ones answered `{"status":"pending"}`), tool
 * declarations, tool choice and generation settings.
 */
export function chatRequest(request: LlmRequest, defaultModel: string, settings: RequestSettings, stream: boolean): MappedRequest<ChatParams> {
  const model = request.model ?? defaultModel;
  const { config } = request;
  const { tools, strictPlans } = toolSpecs(config, model, settings.strict, settings.schemas);
  const messages: ChatMessage[] = [];
  const system = systemText(config);
  if (system !== undefined) messages.push({ role: settings.systemRole, content: system });

  for (const turn of orderHistory(request.contents)) {
    if (turn.kind === 'user') messages.push(userMessage(turn.parts, model));
    else if (turn.kind === 'tool') {
      for (const result of turn.results) messages.push({ role: 'tool', tool_call_id: result.callId, content: result.output });
      // A tool message carries text only: parts beside results follow in one user message.
      const media = toolResultMedia(turn.results, model);
      if (media.length > 0) messages.push(userMessage(media, model));
    } else {
      const texts: string[] = [];
      const calls: OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall[] = [];
      for (const part of turn.parts) {
        if (part.thought) continue;
        if (part.functionCall) {
          calls.push({
            id: turn.callIds.get(part)!,
            type: 'function',
            function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
          });
        } else if (part.text !== undefined) texts.push(part.text);
        else {
          const text = partAsText(part);
          if (text !== undefined) texts.push(`${text}\n`);
        }
      }
      const content = texts.join('');
      if (!content && calls.length === 0) continue;
      messages.push({ role: 'assistant', ...(content ? { content } : {}), ...(calls.length > 0 ? { tool_calls: calls } : {}) });
    }
  }
  if (!messages.some((m) => m.role !== 'system' && m.role !== 'developer')) {
    messages.push({ role: 'user', content: 'Handle the requests as specified in the System Instruction.' });
  }

  const body: Record<string, unknown> = { model, messages };
  if (tools.length > 0) {
    body.tools = tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        parameters: tool.parameters,
        ...(tool.strict ? { strict: true } : {}),
      },
    }));
    const choice = toolChoice(config, tools);
    if (choice === 'auto' || choice === 'required' || choice === 'none') body.tool_choice = choice;
    else if (choice && 'name' in choice) body.tool_choice = { type: 'function', function: { name: choice.name } };
    else if (choice)
      body.tool_choice = {
        type: 'allowed_tools',
        allowed_tools: { mode: 'required', tools: choice.allowed.map((name) => ({ type: 'function', function: { name } })) },
      };
  }
  if (config.temperature !== undefined) body.temperature = config.temperature;
  if (config.topP !== undefined) body.top_p = config.topP;
  if (config.maxOutputTokens !== undefined) body.max_completion_tokens = config.maxOutputTokens;
  if (config.stopSequences?.length) body.stop = config.stopSequences;
  if (config.seed !== undefined) body.seed = config.seed;
  if (config.presencePenalty !== undefined) body.presence_penalty = config.presencePenalty;
  if (config.frequencyPenalty !== undefined) body.frequency_penalty = config.frequencyPenalty;
  const format = responseFormat(config, settings.strict, settings.schemas);
  if (format?.kind === 'json_object') body.response_format = { type: 'json_object' };
  else if (format)
    body.response_format = { type: 'json_schema', json_schema: { name: 'response', schema: format.schema, ...(format.strict ? { strict: true } : {}) } };
  const reasoning = reasoningSettings(config, settings.reasoning);
  if (reasoning?.effort) body.reasoning_effort = reasoning.effort;
  if (stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  Object.assign(body, settings.extraBody);
  return { body: body as unknown as ChatParams, strictPlans, format };
}
