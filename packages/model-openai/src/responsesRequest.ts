import { sendableParts } from './toolResultMedia.js';
import type { LlmRequest, Part } from '@adkit/flow';
import type OpenAI from 'openai';
import type { MappedRequest, RequestSettings } from './chatRequest.js';
import { UnsupportedRequestError } from './errors.js';
import { orderHistory, type ModelTurn } from './history.js';
import { responsesItemOf } from './responsesItem.js';
import { reasoningSettings, responseFormat, systemText, toolChoice } from './requestSettings.js';
import { toolSpecs } from './toolSpecs.js';
import { partAsText, userPieces } from './userParts.js';

type ResponsesParams = OpenAI.Responses.ResponseCreateParams;
type InputItem = OpenAI.Responses.ResponseInputItem;

const CHAT_ONLY_SETTINGS = [
  ['stopSequences', 'stop sequences'],
  ['seed', 'a seed'],
  ['presencePenalty', 'a presence penalty'],
  ['frequencyPenalty', 'a frequency penalty'],
] as const;

function userItem(parts: readonly Part[], model: string): InputItem {
  const pieces = userPieces(parts, model);
  if (pieces.length === 1 && pieces[0]!.kind === 'text') return { role: 'user', content: pieces[0]!.text };
  return {
    role: 'user',
    content: pieces.map((piece): OpenAI.Responses.ResponseInputContent => {
      if (piece.kind === 'text') return { type: 'input_text', text: piece.text };
      if (piece.kind === 'image') return { type: 'input_image', image_url: piece.url, detail: 'auto' };
      return piece.data
        ? { type: 'input_file', file_data: piece.data, filename: piece.filename }
        : { type: 'input_file', file_url: piece.url! };
    }),
  };
}

/** A model turn as output items again: reasoning items, messages (ids and phase kept), function calls. */
function modelItems(turn: ModelTurn): InputItem[] {
  const items: InputItem[] = [];
  let message: OpenAI.Responses.ResponseOutputMessage | undefined;
  for (const part of turn.parts) {
    const signature = responsesItemOf(part);
    if (part.functionCall) {
      message = undefined;
      items.push({
        type: 'function_call',
        call_id: turn.callIds.get(part)!,
        name: part.functionCall.name,
        arguments: JSON.stringify(part.functionCall.args ?? {}),
        ...(signature?.type === 'function_call' ? { id: signature.id } : {}),
      });
    } else if (part.thought) {
      message = undefined;
      if (signature?.type === 'reasoning') {
        const { type: _type, ...reasoning } = signature;
        items.push({ type: 'reasoning', ...reasoning } as OpenAI.Responses.ResponseReasoningItem);
      }
    } else if (part.text !== undefined && signature?.type === 'message') {
      const content = { type: 'output_text' as const, text: part.text, annotations: [] };
      if (message && message.id === signature.id) message.content.push(content);
      else {
        message = {
          type: 'message',
          role: 'assistant',
          id: signature.id,
          status: 'completed',
          content: [content],
          ...(signature.phase ? { phase: signature.phase as 'commentary' | 'final_answer' } : {}),
        };
        items.push(message);
      }
    } else {
      message = undefined;
      const text = part.text ?? partAsText(part);
      if (text) items.push({ role: 'assistant', content: text });
    }
  }
  return items;
}

/**
 * Maps an adkit request onto `responses.create` parameters: the system instruction as
 * `instructions`, user turns, model turns as their output items again (reasoning items, messages and
 * function calls restored from the signatures this adapter stored), function responses as
 * `function_call_output` items (pending ones answered `{"status":"pending"}`), tools, tool choice,
 * structured output and reasoning settings. Settings the Responses API lacks (stop sequences, seed,
 * penalties) are refused rather than dropped.
 */
export function responsesRequest(
  request: LlmRequest,
  defaultModel: string,
  settings: RequestSettings,
  stream: boolean,
): MappedRequest<ResponsesParams> {
  const model = request.model ?? defaultModel;
  const { config } = request;
  for (const [key, what] of CHAT_ONLY_SETTINGS) {
    const value = config[key];
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) {
      throw new UnsupportedRequestError(
        'UNSUPPORTED_SETTING',
        `The OpenAI Responses API takes no ${what} (config.${key}); remove it or use openai("${model}", {api: 'chat'}).`,
      );
    }
  }
  const { tools, strictPlans } = toolSpecs(config, model, settings.strict, settings.schemas);
  const input: InputItem[] = [];
  for (const turn of orderHistory(request.contents)) {
    if (turn.kind === 'user') input.push(userItem(turn.parts, model));
    else if (turn.kind === 'tool') {
      for (const result of turn.results) {
        // Parts beside the result go in the output's content list (input_text, input_image, input_file).
        const output = result.parts ? (userItem([{ text: result.output }, ...sendableParts(result.parts, model, 'responses')], model) as { content: unknown }).content : result.output;
        input.push({ type: 'function_call_output', call_id: result.callId, output } as InputItem);
      }
    } else input.push(...modelItems(turn));
  }
  if (input.length === 0) input.push({ role: 'user', content: 'Handle the requests as specified in the System Instruction.' });

  const body: Record<string, unknown> = { model, input };
  const instructions = systemText(config);
  if (instructions !== undefined) body.instructions = instructions;
  if (tools.length > 0) {
    body.tools = tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      parameters: tool.parameters,
      strict: tool.strict,
    }));
    const choice = toolChoice(config, tools);
    if (choice === 'auto' || choice === 'required' || choice === 'none') body.tool_choice = choice;
    else if (choice && 'name' in choice) body.tool_choice = { type: 'function', name: choice.name };
    else if (choice) body.tool_choice = { type: 'allowed_tools', mode: 'required', tools: choice.allowed.map((name) => ({ type: 'function', name })) };
  }
  if (config.temperature !== undefined) body.temperature = config.temperature;
  if (config.topP !== undefined) body.top_p = config.topP;
  if (config.maxOutputTokens !== undefined) body.max_output_tokens = config.maxOutputTokens;
  const format = responseFormat(config, settings.strict, settings.schemas);
  if (format?.kind === 'json_object') body.text = { format: { type: 'json_object' } };
  else if (format) body.text = { format: { type: 'json_schema', name: 'response', schema: format.schema, strict: format.strict } };
  const reasoning = reasoningSettings(config, settings.reasoning);
  if (reasoning) {
    body.reasoning = reasoning;
    body.include = ['reasoning.encrypted_content'];
  }
  if (settings.store !== undefined) body.store = settings.store;
  if (stream) body.stream = true;
  Object.assign(body, settings.extraBody);
  return { body: body as unknown as ResponsesParams, strictPlans, format };
}
