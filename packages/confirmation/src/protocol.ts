import { REQUEST_CONFIRMATION_FUNCTION, type FunctionCall } from '@adkit/flow';

/** The function name of confirmation requests (model side) and replies (client side) (HC-4). */
export const REQUEST_CONFIRMATION = REQUEST_CONFIRMATION_FUNCTION;

/**
 * The call a confirmation request is about (`args.originalFunctionCall`, HC-4), or `undefined`
 * when the call is not a well-formed confirmation request.
 */
export function originalCallFrom(call: FunctionCall): FunctionCall | undefined {
  if (call.name !== REQUEST_CONFIRMATION) return undefined;
  const original = call.args?.originalFunctionCall;
  if (!original || typeof original !== 'object') return undefined;
  const { id, name, args } = original as Record<string, unknown>;
  if (typeof name !== 'string' || (id !== undefined && typeof id !== 'string')) return undefined;
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return undefined;
  const result: FunctionCall = { name, args: (args as Record<string, unknown> | undefined) ?? {} };
  if (id !== undefined) result.id = id;
  return result;
}
