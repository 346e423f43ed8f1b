/** A fresh random id: a version 4 UUID from Web Crypto's random bytes (the core imports no `node:` module). */
export function newId(): string {
  return randomUuid();
}

/** Prefix of function-call ids that the flow made up because the model gave none (FL-7). */
export const CLIENT_FUNCTION_CALL_ID_PREFIX = 'adk-';

/** A client function-call id, `adk-<uuid>`. */
export function newFunctionCallId(): string {
  return CLIENT_FUNCTION_CALL_ID_PREFIX + randomUuid();
}

// Why not `crypto.randomUUID()`: Node builds its UUID by joining hex pairs one by one, which V8
// keeps as a tree of about twenty joined pieces (~500 bytes) until something reads the characters,
// and ids live as long as their events. Here each id is made flat in one piece, by one
// `String.fromCharCode` of its 36 character codes, from a pool of random bytes: each stored event
// keeps ~60 bytes for its id, not ~500, and an id takes half the time of the same call applied to
// an array of the codes (#24).
const HEX_CODES = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
const DASH = '-'.charCodeAt(0);
/** Random bytes for 256 ids, refilled when used up. */
const pool = new Uint8Array(16 * 256);
let used = pool.length;

const high = (byte: number): number => HEX_CODES[byte >> 4]!;
const low = (byte: number): number => HEX_CODES[byte & 15]!;

function randomUuid(): string {
  if (used === pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  const at = used;
  // Taken bytes are never given out again.
  used += 16;
  const b = pool;
  b[at + 6] = (b[at + 6]! & 0x0f) | 0x40; // version 4
  b[at + 8] = (b[at + 8]! & 0x3f) | 0x80; // the RFC 9562 variant
  return String.fromCharCode(
    high(b[at]!), low(b[at]!), high(b[at + 1]!), low(b[at + 1]!), high(b[at + 2]!), low(b[at + 2]!), high(b[at + 3]!), low(b[at + 3]!),
    DASH,
    high(b[at + 4]!), low(b[at + 4]!), high(b[at + 5]!), low(b[at + 5]!),
    DASH,
    high(b[at + 6]!), low(b[at + 6]!), high(b[at + 7]!), low(b[at + 7]!),
    DASH,
    high(b[at + 8]!), low(b[at + 8]!), high(b[at + 9]!), low(b[at + 9]!),
    DASH,
    high(b[at + 10]!), low(b[at + 10]!), high(b[at + 11]!), low(b[at + 11]!), high(b[at + 12]!), low(b[at + 12]!),
    high(b[at + 13]!), low(b[at + 13]!), high(b[at + 14]!), low(b[at + 14]!), high(b[at + 15]!), low(b[at + 15]!),
  );
}
