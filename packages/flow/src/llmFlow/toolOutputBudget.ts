import type { FunctionCall, Part } from '../content/content.js';
import type { EventActions } from '../content/eventActions.js';
import type { CallbackContext } from '../context/callbackContext.js';
import { ToolCallContext } from '../context/flowContext.js';
import type { InvocationContext } from '../context/invocationContext.js';
import { errorMessage } from '../errors.js';
import { artifactNameProblem } from '../services/artifactName.js';
import type { ToolOutcome } from './callTool.js';
import { budgetResponseParts } from './budgetResponseParts.js';

/** The smallest `maxToolOutputBytes` an agent accepts: room for a head and the note. */
export const MIN_TOOL_OUTPUT_BYTES = 1024;

/** At most this many bytes of the result's JSON are kept as its head. */
export const TOOL_OUTPUT_HEAD_BYTES = 2048;

/** Where results over the budget are saved: `tool-outputs/<tool>-<call id>.json`. */
export const TOOL_OUTPUT_ARTIFACT_PREFIX = 'tool-outputs/';

/** What `budgetToolOutput` needs to know about the call. */
export interface ToolOutputBudgetRequest {
  toolName: string;
  functionCallId: string;
  /** The response the model would get. */
  response: Record<string, unknown>;
  /** The largest response, as UTF-8 JSON bytes, that reaches the model as it is. */
  maxBytes: number;
  /** Saves the full result (recording it in the call's `artifactDelta`) and reports trouble. */
  context: Pick<CallbackContext, 'saveArtifact' | 'logger'>;
}

/**
 * Keeps a tool's response within the agent's `maxToolOutputBytes`. A response whose JSON is at
 * most `maxBytes` bytes comes back as it is (the same object). A larger one is saved whole as the
 * artifact `tool-outputs/<tool>-<call id>.json` (`application/json`), and the model gets instead
 * `{truncated: true, sizeBytes, head, artifact, note}`: the first bytes of the JSON (at most
 * `TOOL_OUTPUT_HEAD_BYTES`, at most a quarter of the budget, never a split character), its full size, and
 * the artifact's name with a note on loading it (`load_artifacts`). When it cannot be saved (no
 * artifact service, a failing store) the model gets the head and the size with a note saying so,
 * and the logger a warning; the full result is never sent.
 */
export async function budgetToolOutput(request: ToolOutputBudgetRequest): Promise<Record<string, unknown>> {
  const { toolName, functionCallId, response, maxBytes, context } = request;
  const json = JSON.stringify(response);
  // UTF-8 never takes fewer bytes than UTF-16 code units, so a short string needs no count.
  if (json.length <= maxBytes / 3 || Buffer.byteLength(json, 'utf8') <= maxBytes) return response;
  const bytes = Buffer.from(json, 'utf8');
  const head = utf8Head(bytes, Math.min(TOOL_OUTPUT_HEAD_BYTES, Math.floor(maxBytes / 4)));
  const artifact = artifactName(toolName, functionCallId);
  const sizes = `The result of ${toolName} is ${bytes.length} bytes of JSON, more than this agent takes at once (maxToolOutputBytes: ${maxBytes}); "head" holds its first ${Buffer.byteLength(head)} bytes.`;
  try {
    const data: Part = { inlineData: { mimeType: 'application/json', data: bytes.toString('base64'), displayName: `${toolName} result` } };
    await context.saveArtifact(artifact, data);
  } catch (error) {
    context.logger.warn(`adkit: the result of ${toolName} (${bytes.length} bytes) is over maxToolOutputBytes and could not be saved as an artifact: ${errorMessage(error)}`);
    return {
      truncated: true,
      sizeBytes: bytes.length,
      head,
      note: `${sizes} The whole result could not be saved (${errorMessage(error)}), so only the head is available; ask for less, e.g. with narrower arguments.`,
    };
  }
  return {
    truncated: true,
    sizeBytes: bytes.length,
    head,
    artifact,
    note: `${sizes} The whole result is saved as the artifact ${JSON.stringify(artifact)}; load it with load_artifacts only if you need more than the head.`,
  };
}

/**
 * Applies the agent's `maxToolOutputBytes` to one executed call, in place of its outcome: a
 * result over the budget goes through `budgetToolOutput` (the artifact is saved with the call's
 * actions), an error message over it is cut to its head. Calls that do not answer now, and agents
 * without a budget, are left as they are.
 */
export async function applyToolOutputBudget(
  invocation: InvocationContext,
  executed: { call: FunctionCall; outcome: ToolOutcome; respond: boolean; actions: EventActions },
): Promise<ToolOutcome> {
  const maxBytes = (invocation.agent as { maxToolOutputBytes?: number }).maxToolOutputBytes;
  const { call } = executed;
  let { outcome } = executed;
  if (maxBytes === undefined || !executed.respond) return outcome;
  if (outcome.error !== undefined) {
    const message = errorMessage(outcome.error);
    if (message.length <= maxBytes / 3 || Buffer.byteLength(message, 'utf8') <= maxBytes) return outcome;
    const bytes = Buffer.from(message, 'utf8');
    const head = utf8Head(bytes, Math.min(TOOL_OUTPUT_HEAD_BYTES, Math.floor(maxBytes / 4)));
    return { error: new Error(`${head}… [error message cut: ${bytes.length} bytes, over maxToolOutputBytes ${maxBytes}]`) };
  }
  if (outcome.result === undefined) return outcome;
  const context = new ToolCallContext(invocation, { actions: executed.actions, functionCall: call, functionCallId: call.id || call.name });
  if (outcome.parts) outcome = await budgetParts(outcome, call, maxBytes, context);
  const result = await budgetToolOutput({
    toolName: call.name,
    functionCallId: call.id ?? '',
    response: outcome.result!,
    maxBytes,
    context,
  });
  return result === outcome.result ? outcome : { ...outcome, result };
}

/** The first at most `limit` bytes of UTF-8, ending on a character boundary. */
function utf8Head(bytes: Buffer, limit: number): string {
  if (bytes.length <= limit) return bytes.toString('utf8');
  let end = limit;
  // Step back over continuation bytes (10xxxxxx) so no character is cut in two.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** `tool-outputs/<tool>-<call id>.json`, with anything but letters, digits, `.`, `_`, `-` made `_`. */
function artifactName(toolName: string, functionCallId: string): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/\.{2,}/g, '_').slice(0, 100);
  const name = `${TOOL_OUTPUT_ARTIFACT_PREFIX}${safe(toolName)}-${safe(functionCallId) || 'call'}.json`;
  return artifactNameProblem(name) === undefined ? name : `${TOOL_OUTPUT_ARTIFACT_PREFIX}result-${Date.now()}.json`;
}

/** The outcome with its inline parts over the budget set aside as artifacts (`budgetResponseParts`). */
async function budgetParts(outcome: ToolOutcome, call: FunctionCall, maxBytes: number, context: ToolCallContext): Promise<ToolOutcome> {
  const { parts, setAside } = await budgetResponseParts(call.name, call.id ?? '', outcome.parts!, maxBytes, context);
  if (setAside.length === 0) return outcome;
  const note = `${setAside.length} part(s) of this result are over maxToolOutputBytes (${maxBytes}) and were left out; those with an artifact can be loaded with load_artifacts.`;
  return { ...outcome, result: { ...outcome.result, partsSetAside: setAside, partsNote: note }, ...(parts.length > 0 ? { parts } : { parts: undefined }) };
}
