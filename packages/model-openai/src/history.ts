import type { Content, FunctionResponse, Part } from '@adkit/flow';

/** What a tool message says for a call that has no response yet (a long-running tool). */
export const PENDING_OUTPUT = '{"status":"pending"}';

/** A model turn, with an id for every function call (the model's, or a synthesized one). */
export interface ModelTurn {
  kind: 'model';
  parts: Part[];
  /** Call id per function-call part. */
  callIds: Map<Part, string>;
}

/** A user turn without function responses. */
export interface UserTurn {
  kind: 'user';
  parts: Part[];
}

/** The answers to the calls of the model turn just before. */
export interface ToolResults {
  kind: 'tool';
  /** `parts`: images, audio or files the tool put beside its result (`FunctionResponse.parts`). */
  results: Array<{ callId: string; name: string; output: string; parts?: Part[] }>;
}

export type Turn = ModelTurn | UserTurn | ToolResults;

/**
 * The text a function response is sent as: a lone string `result` (what a tool returning a string
 * gives, `{result: "London"}`) as that string, anything else as JSON.
 */
export function functionResponseText(response: FunctionResponse): string {
  const value = response.response ?? {};
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'result' && typeof value.result === 'string') return value.result;
  return JSON.stringify(value);
}

interface OpenCall {
  id: string;
  name: string;
  answered: boolean;
}

/**
 * Orders the history the way OpenAI requires: every model turn with function calls is followed
 * directly by one answer per call.
 * - Calls without an id (a Gemini agent's calls, whose `adk-` ids the flow cleared) get
 *   `call_<turn>_<part>`; a response without an id answers the earliest open call of its name.
 * - A call with no response (a long-running tool still pending) is answered `{"status":"pending"}`.
 * - A response to an earlier, already closed call, or to no call at all, becomes user text, so no
 *   information is lost and the API accepts the history.
 */
export function orderHistory(contents: readonly Content[]): Turn[] {
  const turns: Turn[] = [];
  let open: OpenCall[] = [];
  let results: ToolResults | undefined;
  const closed = new Map<string, string>();

  const close = () => {
    const pending = open.filter((call) => !call.answered);
    if (pending.length > 0) {
      results ??= { kind: 'tool', results: [] };
      if (!turns.includes(results)) turns.push(results);
      for (const call of pending) results.results.push({ callId: call.id, name: call.name, output: PENDING_OUTPUT });
    }
    for (const call of open) closed.set(call.id, call.name);
    open = [];
    results = undefined;
  };

  contents.forEach((content, turnIndex) => {
    const parts = content.parts ?? [];
    if (content.role === 'model') {
      close();
      const callIds = new Map<Part, string>();
      parts.forEach((part, partIndex) => {
        if (!part.functionCall) return;
        const id = part.functionCall.id || `call_${turnIndex}_${partIndex}`;
        callIds.set(part, id);
        open.push({ id, name: part.functionCall.name, answered: false });
      });
      turns.push({ kind: 'model', parts, callIds });
      return;
    }
    const others: Part[] = [];
    for (const part of parts) {
      const response = part.functionResponse;
      if (!response) {
        others.push(part);
        continue;
      }
      const call = response.id
        ? open.find((c) => !c.answered && c.id === response.id)
        : open.find((c) => !c.answered && c.name === response.name);
      if (call) {
        call.answered = true;
        results ??= { kind: 'tool', results: [] };
        if (!turns.includes(results)) turns.push(results);
        results.results.push({
          callId: call.id,
          name: call.name,
          output: functionResponseText(response),
          ...(response.parts?.length ? { parts: response.parts as Part[] } : {}),
        });
      } else {
        const late = response.id ? closed.has(response.id) : [...closed.values()].includes(response.name);
        const call = response.id ? ` (call ${response.id})` : '';
        others.push({
          text: late
            ? `Update from function ${response.name}${call}: ${functionResponseText(response)}`
            : `Function ${response.name}${call} returned: ${functionResponseText(response)}`,
        });
        if (response.parts?.length) others.push(...(response.parts as Part[]));
      }
    }
    if (others.length > 0) {
      close();
      turns.push({ kind: 'user', parts: others });
    }
  });
  close();
  return turns;
}
