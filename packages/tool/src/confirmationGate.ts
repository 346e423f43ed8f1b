import type { ToolContext } from '@adkit/flow';
import { ToolError } from './errors.js';

/** The hint sent with a confirmation request the gate makes (HC-2). */
export function confirmationHint(toolName: string): string {
  return `Please approve or reject the tool call ${toolName}() by responding with a FunctionResponse with an expected ToolConfirmation payload.`;
}

/**
 * The human-in-the-loop gate every confirmable tool runs before its real work (HC-2):
 * - on resume (`ctx.toolConfirmation` set): a rejection throws `error tool "<name>" call is
 *   rejected` (code `CALL_REJECTED`); an approval passes without asking `required` again;
 * - on a first call: when `required` (a flag, or a function deciding from the call) is true, it
 *   requests confirmation (HC-1: the request is recorded on `ctx.actions` and summarization is
 *   skipped) and throws `error tool "<name>" requires confirmation, please approve or reject`
 *   (code `CONFIRMATION_REQUIRED`), which the model sees while the run pauses for the user.
 */
export async function confirmationGate(
  ctx: ToolContext,
  toolName: string,
  required: boolean | (() => boolean | Promise<boolean>),
): Promise<void> {
  const confirmation = ctx.toolConfirmation;
  if (confirmation) {
    if (!confirmation.confirmed)
      throw new ToolError(`error tool "${toolName}" call is rejected`, { code: 'CALL_REJECTED', toolName });
    return;
  }
  const need = typeof required === 'function' ? await required() : required;
  if (!need) return;
  ctx.requestConfirmation({ hint: confirmationHint(toolName) });
  throw new ToolError(`error tool "${toolName}" requires confirmation, please approve or reject`, {
    code: 'CONFIRMATION_REQUIRED',
    toolName,
  });
}
