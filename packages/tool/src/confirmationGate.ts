import type { ToolContext } from '@adkit/flow';
import { ToolError } from './errors.js';

/** How much of the arguments a hint shows. */
const HINT_ARGS_LENGTH = 300;

/**
 * The hint shown to the person asked to approve a call the gate stops (HC-2), written for that
 * person rather than for a developer: `Approve "pay" with {"to":"bob","amount":40}?`, the arguments
 * cut at 300 characters. (ADK Go's hint describes the reply protocol instead; the model still gets
 * a clear instruction in the call's error response.)
 */
export function confirmationHint(toolName: string, args?: Record<string, unknown>): string {
  let shown = '';
  if (args && Object.keys(args).length > 0) {
    let json: string;
    try {
      json = JSON.stringify(args);
    } catch {
      json = '{…}';
    }
    shown = ` with ${json.length > HINT_ARGS_LENGTH ? `${json.slice(0, HINT_ARGS_LENGTH)}…` : json}`;
  }
  return `Approve "${toolName}"${shown}?`;
}

/** What a tool asks with, beyond the HC-2 defaults, and how it checks the approver's payload. */
export interface ConfirmationGateOptions {
  /** Shown to the approver; default `confirmationHint(toolName, args)`. */
  hint?: string;
  /** Data the request carries for the approver to see or fill in (e.g. `{days_approved: 5}`). */
  payload?: unknown;
  /**
   * Checks the payload of an approval before the tool runs: the problems as `path: message` lines,
   * empty when it is fine. An approval with problems is refused (`INVALID_CONFIRMATION_PAYLOAD`).
   */
  checkPayload?: (payload: unknown) => readonly string[] | Promise<readonly string[]>;
}

/**
 * The human-in-the-loop gate every confirmable tool runs before its real work (HC-2):
 * - on resume (`ctx.toolConfirmation` set): a rejection throws `error tool "<name>" call is
 *   rejected` (code `CALL_REJECTED`); an approval passes without asking `required` again;
 * - on a first call: when `required` (a flag, or a function deciding from the call) is true, it
 *   requests confirmation (HC-1: the request is recorded on `ctx.actions` and summarization is
 *   skipped) and throws `error tool "<name>" requires confirmation, please approve or reject`
 *   (code `CONFIRMATION_REQUIRED`), which the model sees while the run pauses for the user;
 * - with `options.checkPayload`, an approval whose payload fails the check throws (code
 *   `INVALID_CONFIRMATION_PAYLOAD`), listing the problems: the tool never sees that payload, and
 *   the model and the client see why.
 */
export async function confirmationGate(
  ctx: ToolContext,
  toolName: string,
  required: boolean | (() => boolean | Promise<boolean>),
  options: ConfirmationGateOptions = {},
): Promise<void> {
  const confirmation = ctx.toolConfirmation;
  if (confirmation) {
    if (!confirmation.confirmed)
      throw new ToolError(`error tool "${toolName}" call is rejected`, { code: 'CALL_REJECTED', toolName });
    const problems = options.checkPayload ? await options.checkPayload(confirmation.payload) : [];
    if (problems.length > 0)
      throw new ToolError(
        `error tool "${toolName}" approval refused: its payload is invalid (${problems.join('; ')}). The call was not run; ask the user to approve it again with a valid payload.`,
        { code: 'INVALID_CONFIRMATION_PAYLOAD', toolName, problems },
      );
    return;
  }
  const need = typeof required === 'function' ? await required() : required;
  if (!need) return;
  const request: { hint: string; payload?: unknown } = { hint: options.hint ?? confirmationHint(toolName, ctx.functionCall?.args) };
  if (options.payload !== undefined) request.payload = options.payload;
  ctx.requestConfirmation(request);
  throw new ToolError(`error tool "${toolName}" requires confirmation, please approve or reject`, {
    code: 'CONFIRMATION_REQUIRED',
    toolName,
  });
}
