/** A fresh random id (Web Crypto, so the core imports no `node:` module). */
export function newId(): string {
  return flat(crypto.randomUUID());
}

/** Prefix of function-call ids that the flow made up because the model gave none (FL-7). */
export const CLIENT_FUNCTION_CALL_ID_PREFIX = 'adk-';

/** A client function-call id, `adk-<uuid>`. */
export function newFunctionCallId(): string {
  return flat(CLIENT_FUNCTION_CALL_ID_PREFIX + crypto.randomUUID());
}

/**
 * The string made flat. Node builds a UUID by joining its hex pairs one by one, so V8 holds it as
 * a tree of about twenty joined pieces (~500 bytes) until something reads its characters. Ids live
 * as long as their events: flattened at once, a session's ids took ~2 KB less per turn, and the
 * garbage collector no longer copies the pieces each time it moves a stored event (#24).
 */
function flat(id: string): string {
  // Reading a character flattens the string in place (V8's String::Flatten).
  id.charCodeAt(0);
  return id;
}
