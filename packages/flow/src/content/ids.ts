/** A fresh random id: a version 4 UUID from Web Crypto's random bytes (the core imports no `node:` module). */
export function newId(): string {
  return randomUuid();
}

/** Prefix of function-call ids that the flow made up because the model gave none (FL-7). */
export const CLIENT_FUNCTION_CALL_ID_PREFIX = 'adk-';

/** A client function-call id, `adk-<uuid>`. */
export function newFunctionCallId(): string {
  return randomUuid(clientCallCodes);
}

// Why not `crypto.randomUUID()`: Node builds its UUID by joining hex pairs one by one, which V8
// keeps as a tree of about twenty joined pieces (~500 bytes) until something reads the characters,
// and ids live as long as their events. Here each id is made flat in one piece from a pool of
// random bytes: a sixth of the garbage, half the time, and each stored event keeps ~60 bytes for
// its id, not ~500 (#24).
const HEX_CODES = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
const DASH = '-'.charCodeAt(0);
/** Random bytes for 256 ids, refilled when used up. */
const pool = new Uint8Array(16 * 256);
let used = pool.length;
/** The character codes of an id, one array for each prefix, filled again for every id (ids are made synchronously). */
const plainCodes = new Array<number>(36).fill(0);
const clientCallCodes = [...Array.from(CLIENT_FUNCTION_CALL_ID_PREFIX, (char) => char.charCodeAt(0)), ...plainCodes];

function randomUuid(codes: number[] = plainCodes): string {
  if (used === pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  let at = codes.length - 36;
  for (let i = 0; i < 16; i++) {
    let byte = pool[used + i]!;
    if (i === 6) byte = (byte & 0x0f) | 0x40; // version 4
    else if (i === 8) byte = (byte & 0x3f) | 0x80; // the RFC 9562 variant
    if (i === 4 || i === 6 || i === 8 || i === 10) codes[at++] = DASH;
    codes[at++] = HEX_CODES[byte >> 4]!;
    codes[at++] = HEX_CODES[byte & 15]!;
  }
  // Taken bytes are never given out again.
  used += 16;
  return String.fromCharCode.apply(null, codes);
}
