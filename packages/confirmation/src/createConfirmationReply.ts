import { ConfigError, type Content, type FunctionCall } from '@adkit/flow';
import { REQUEST_CONFIRMATION } from './protocol.js';

/** What the user decided. */
export interface ConfirmationDecision {
  confirmed: boolean;
  /** Data for the tool, e.g. the number of days actually approved. */
  payload?: unknown;
}

/**
 * The user message that answers a confirmation request (HC-7): a function response with the
 * request's own id. Send it as `newMessage` to `runner.runAsync`.
 */
export function createConfirmationReply(
  request: FunctionCall | { call: FunctionCall },
  decision: ConfirmationDecision,
): Content {
  const call = 'call' in request ? request.call : request;
  if (call.name !== REQUEST_CONFIRMATION || !call.id)
    throw new ConfigError(
      `createConfirmationReply needs the "${REQUEST_CONFIRMATION}" call with its id (from pendingConfirmations(session)), got a call to "${call.name}"${call.id ? '' : ' without an id'}.`,
    );
  if (typeof decision?.confirmed !== 'boolean')
    throw new ConfigError('createConfirmationReply: decision.confirmed must be true or false.');
  const response: Record<string, unknown> = { confirmed: decision.confirmed };
  if (decision.payload !== undefined) response.payload = decision.payload;
  return { role: 'user', parts: [{ functionResponse: { id: call.id, name: REQUEST_CONFIRMATION, response } }] };
}
