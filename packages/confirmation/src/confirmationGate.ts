import type { ToolContext } from '@adkit/flow';
import { confirmationHint, rejectedMessage, requiresConfirmationMessage } from './protocol.js';

/**
 * The built-in confirmation gate (HC-2), run before a tool's real work. On resume it lets an
 * approved call through (without asking `needsConfirmation` again) and throws for a rejected one;
 * on a first call it asks `needsConfirmation` and, if needed, requests confirmation and throws.
 */
export async function confirmationGate(
  context: ToolContext,
  toolName: string,
  needsConfirmation: () => boolean | Promise<boolean>,
): Promise<void> {
  const given = context.toolConfirmation;
  if (given) {
    if (!given.confirmed) throw new Error(rejectedMessage(toolName));
    return;
  }
  if (!(await needsConfirmation())) return;
  context.requestConfirmation({ hint: confirmationHint(toolName) });
  throw new Error(requiresConfirmationMessage(toolName));
}
