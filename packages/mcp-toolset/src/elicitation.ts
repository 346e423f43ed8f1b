import { createHash } from 'node:crypto';
import { compileSchema, errorMessage, type CompiledSchema, type JsonSchema, type ToolContext } from '@adkit/flow';

/**
 * What a server asks the user for in the middle of a call (`elicitation/create`): a form (a
 * message and a flat JSON Schema of the fields it wants) or a URL to open (a sign-in, a payment
 * page), where the answer is only whether the user went.
 */
export type McpElicitationRequest =
  | { readonly mode: 'form'; readonly message: string; readonly requestedSchema: JsonSchema }
  | { readonly mode: 'url'; readonly message: string; readonly url: string; readonly elicitationId: string };

/** The user's answer: accept (with the form's content), decline, or cancel (dismissed). */
export type McpElicitationAnswer =
  | { readonly action: 'accept'; readonly content?: Record<string, string | number | boolean | string[]> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/**
 * Answers a server's request in place, like ADK Go's `ElicitationHandler`: called with the request
 * and the call's context; return the answer, or `undefined` to pause the call durably instead.
 */
export type McpElicitationHandler = (
  request: McpElicitationRequest,
  ctx: ToolContext,
) => McpElicitationAnswer | undefined | Promise<McpElicitationAnswer | undefined>;

/** Options of `elicitation` on `mcpToolset`; giving them declares the elicitation capability (form and URL). */
export interface McpElicitationOptions {
  /** Answers in place; without it (or when it returns `undefined`) the call pauses until the user answers. */
  handler?: McpElicitationHandler;
  /**
   * What an answer does when the server's session that asked is gone (another process, a restart,
   * the request timed out): `"reissue"` (default) sends the call again and gives the server the
   * answers already given when it asks the same again; `"fail"` tells the model the call did not
   * complete and it must call the tool again.
   */
  whenSessionLost?: 'reissue' | 'fail';
  /** Requests one call may make; later ones are answered `cancel`. 20 by default. */
  maxPerCall?: number;
}

/** The paused call's saved form (`ctx.setResumeState`): versioned, JSON only. */
export interface ElicitationPause {
  readonly format: typeof ELICITATION_PAUSE_FORMAT;
  /** The request the user is asked to answer. */
  readonly request: McpElicitationRequest;
  /** Earlier requests of the same call and their answers, to give again when the call is re-issued. */
  readonly answered: readonly { readonly digest: string; readonly answer: McpElicitationAnswer }[];
}

export const ELICITATION_PAUSE_FORMAT = 'adkit.mcpElicitation/1';

/** The request from the SDK's validated `elicitation/create` params. */
export function elicitationRequest(params: Record<string, unknown>): McpElicitationRequest {
  const message = typeof params.message === 'string' ? params.message : '';
  if (params.mode === 'url')
    return { mode: 'url', message, url: String(params.url), elicitationId: String(params.elicitationId) };
  return { mode: 'form', message, requestedSchema: (params.requestedSchema ?? { type: 'object', properties: {} }) as JsonSchema };
}

/** Identifies a request by what the user sees (not the URL mode's per-request id), to match it when re-issued. */
export function elicitationDigest(request: McpElicitationRequest): string {
  const shown = request.mode === 'url' ? ['url', request.message, request.url] : ['form', request.message, request.requestedSchema];
  return createHash('sha256').update(JSON.stringify(shown)).digest('base64url');
}

const compiled = new WeakMap<object, Promise<CompiledSchema>>();

/**
 * Checks an answer: one of the three actions; for an accepted form, content that matches the
 * requested schema (MCP allows a flat object of strings, numbers, booleans and string arrays).
 * Returns the answer as it goes to the server, or throws an `Error` naming what is wrong.
 */
export async function checkElicitationAnswer(request: McpElicitationRequest, answer: unknown): Promise<McpElicitationAnswer> {
  const action = (answer as { action?: unknown } | null)?.action;
  if (action === 'decline' || action === 'cancel') return { action };
  if (action !== 'accept') throw new Error(`an answer must be {action: "accept" | "decline" | "cancel"}, got ${describe(answer)}`);
  const content = (answer as { content?: unknown }).content;
  if (request.mode === 'url') {
    if (content !== undefined) throw new Error('an answer to a URL request has no content');
    return { action };
  }
  if (typeof content !== 'object' || content === null || Array.isArray(content))
    throw new Error(`an accepted form needs its content as an object, got ${describe(content)}`);
  for (const [key, value] of Object.entries(content)) {
    const flat =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || (Array.isArray(value) && value.every((item) => typeof item === 'string'));
    if (!flat) throw new Error(`field "${key.slice(0, 100)}" must be a string, number, boolean or list of strings`);
  }
  const schema = request.requestedSchema as object;
  let check = compiled.get(schema);
  if (!check) {
    check = compileSchema(schema as never);
    compiled.set(schema, check);
  }
  let problems: string[];
  try {
    problems = (await check).problems(content);
  } catch (error) {
    throw new Error(`the requested schema cannot be checked: ${errorMessage(error)}`, { cause: error });
  }
  if (problems.length > 0) throw new Error(`the content does not match the requested schema: ${problems.join('; ')}`);
  return { action, content: content as Record<string, string | number | boolean | string[]> };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object with keys ${JSON.stringify(Object.keys(value).slice(0, 5))}`;
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 100)) : String(value);
}
