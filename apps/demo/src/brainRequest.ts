import type { FunctionCall, FunctionResponse, LlmRequest, LlmResponse } from '@adkit/flow';

// Reading a request the way the demo brain needs it, and writing its answers.

/** Cities the demo's tools know, in the case they are written. */
export const CITIES = ['Lisbon', 'Tokyo', 'Oslo', 'Paris'] as const;

/** The known cities named in a text, in the order they appear. */
export function citiesIn(text: string): string[] {
  return CITIES.map((city) => ({ city, at: text.toLowerCase().indexOf(city.toLowerCase()) }))
    .filter(({ at }) => at >= 0)
    .sort((a, b) => a.at - b.at)
    .map(({ city }) => city);
}

/** The system instruction's text. */
export function instructionText(request: LlmRequest): string {
  return (request.config.systemInstruction?.parts ?? []).map((part) => part.text ?? '').join('\n');
}

/** What the user last typed (not a tool answer, an update or a loaded artifact). */
export function lastUserText(request: LlmRequest): string {
  for (let i = request.contents.length - 1; i >= 0; i--) {
    const content = request.contents[i]!;
    if (content.role !== 'user') continue;
    const text = (content.parts ?? []).map((part) => part.text ?? '').join('');
    if (text && !text.startsWith('Update from function ') && !text.startsWith('Artifact ')) return text;
  }
  return '';
}

/** A late answer (DESIGN.md "Late answers come last"): the call it answers and what it says. */
export interface LateAnswer {
  name: string;
  response: Record<string, unknown>;
  /** The call answered, as the flow names it: by id when it has one, else by its arguments. */
  call: FunctionCall | undefined;
}

// The flow's wording: "Update from function <name>: <response>" and, on the next line, the call.
const LATE_ANSWER = /^Update from function ([\w.-]+): (.*?)(?:\nThis is the latest answer to your earlier call [\w.-]+\((.*?)\)(?: \(id (.+)\))?\.)?$/s;

/**
 * The late answer a text is, or undefined. The call is the one the text names (by id, else the
 * arguments it repeats); without that line, the newest call of the name.
 */
export function lateAnswer(text: string, request: LlmRequest): LateAnswer | undefined {
  const match = LATE_ANSWER.exec(text);
  if (!match) return undefined;
  const [, name, response, args, id] = match as unknown as [string, string, string, string | undefined, string | undefined];
  const byId = id === undefined ? undefined : findCallById(request, id);
  const named = args === undefined ? undefined : jsonObject(args); // cut arguments end in "…", no JSON
  const call = byId ?? (named ? { name, args: named } : findCall(request, name));
  return { name, response: parseObject(response), call };
}

function findCallById(request: LlmRequest, id: string): FunctionCall | undefined {
  for (const content of request.contents) for (const part of content.parts ?? []) if (part.functionCall?.id === id) return part.functionCall;
  return undefined;
}

/** A JSON object from text; anything else wrapped (`{value}`, or `{text}` when it is no JSON). */
export function parseObject(json: string): Record<string, unknown> {
  const value = jsonValue(json);
  if (value === NOT_JSON) return { text: json };
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}

function jsonObject(json: string): Record<string, unknown> | undefined {
  const value = jsonValue(json);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

const NOT_JSON = Symbol('not JSON');

function jsonValue(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return NOT_JSON;
  }
}

/** The newest call of this name in the request's history. */
export function findCall(request: LlmRequest, name: string): FunctionCall | undefined {
  for (let i = request.contents.length - 1; i >= 0; i--)
    for (const part of request.contents[i]!.parts ?? []) if (part.functionCall?.name === name) return part.functionCall;
  return undefined;
}

/**
 * The call each response answers, from the newest model turn with calls: by id when both have
 * one, else the k-th call of the same name for the k-th response of that name (the flow leaves
 * its own `adk-` ids out of what the model sees).
 */
export function callsAnswered(request: LlmRequest, responses: readonly FunctionResponse[]): (FunctionCall | undefined)[] {
  let made: FunctionCall[] = [];
  for (let i = request.contents.length - 1; i >= 0 && made.length === 0; i--)
    if (request.contents[i]!.role === 'model') made = (request.contents[i]!.parts ?? []).flatMap((part) => (part.functionCall ? [part.functionCall] : []));
  const seen = new Map<string, number>();
  return responses.map((response) => {
    if (response.id) {
      const byId = made.find((call) => call.id === response.id);
      if (byId) return byId;
    }
    const k = seen.get(response.name) ?? 0;
    seen.set(response.name, k + 1);
    return made.filter((call) => call.name === response.name)[k];
  });
}

/** Whether the agent offers this tool on this request. */
export function hasTool(request: LlmRequest, name: string): boolean {
  return Object.hasOwn(request.tools, name);
}

/** A model turn calling these functions (the flow gives them ids). */
export function calls(...list: { name: string; args: Record<string, unknown> }[]): LlmResponse {
  return { content: { role: 'model', parts: list.map(({ name, args }) => ({ functionCall: { name, args } })) } };
}

/** A model turn saying this text. */
export function says(text: string): LlmResponse {
  return { content: { role: 'model', parts: [{ text }] } };
}
