/** A fresh random id (Web Crypto, so the core imports no `node:` module). */
export function newId(): string {
  return crypto.randomUUID();
}

/** Prefix of function-call ids that the flow made up because the model gave none (FL-7). */
export const CLIENT_FUNCTION_CALL_ID_PREFIX = 'adk-';

/** A client function-call id, `adk-<uuid>`. */
export function newFunctionCallId(): string {
  return CLIENT_FUNCTION_CALL_ID_PREFIX + crypto.randomUUID();
}
