/** What a truncated text ends with. */
export const TRUNCATION_MARKER = '…[truncated]';

/** Nesting deeper than this is written as `"[…]"` (also what stops a cycle). */
const MAX_DEPTH = 64;

/**
 * The value as JSON, at most `maxLength` characters: a longer text is cut and ends with
 * `…[truncated]`. The work is bounded by `maxLength`, not by the value: a 50 MB string is sliced
 * before it is escaped, nesting past 64 levels (or a cycle) becomes `"[…]"`, and a walk stops once
 * the budget is spent. `undefined`, functions and symbols are left out as `JSON.stringify` does.
 */
export function boundedJson(value: unknown, maxLength: number): string {
  const out = new BoundedText(maxLength);
  writeValue(out, value, 0);
  return out.text();
}

/** A text that stops growing one character past its limit, so it knows it was cut. */
class BoundedText {
  private readonly pieces: string[] = [];
  private length = 0;

  constructor(private readonly limit: number) {}

  /** Characters that still fit (one more than the limit, to detect a cut). */
  get room(): number {
    return this.limit + 1 - this.length;
  }

  get full(): boolean {
    return this.room <= 0;
  }

  push(piece: string): void {
    const room = this.room;
    if (room <= 0) return;
    const fitting = piece.length > room ? piece.slice(0, room) : piece;
    this.pieces.push(fitting);
    this.length += fitting.length;
  }

  text(): string {
    return truncateText(this.pieces.join(''), this.limit);
  }
}

function writeValue(out: BoundedText, value: unknown, depth: number): void {
  if (out.full) return;
  switch (typeof value) {
    case 'string':
      writeString(out, value);
      return;
    case 'number':
      out.push(Number.isFinite(value) ? String(value) : 'null');
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'bigint':
      out.push(`"${value}"`);
      return;
    case 'object':
      if (value === null) out.push('null');
      else if (depth >= MAX_DEPTH) out.push('"[…]"');
      else if (Array.isArray(value)) writeArray(out, value, depth);
      else writeObject(out, value as Record<string, unknown>, depth);
      return;
    default:
      out.push('null');
  }
}

/** Escaping only lengthens a string, so a slice as long as the room still fills it. */
function writeString(out: BoundedText, text: string): void {
  out.push(JSON.stringify(text.length > out.room ? text.slice(0, out.room) : text));
}

function writeArray(out: BoundedText, array: readonly unknown[], depth: number): void {
  out.push('[');
  for (let i = 0; i < array.length && !out.full; i++) {
    if (i > 0) out.push(',');
    writeValue(out, array[i], depth + 1);
  }
  out.push(']');
}

function writeObject(out: BoundedText, object: Record<string, unknown>, depth: number): void {
  out.push('{');
  let first = true;
  for (const key in object) {
    if (out.full) break;
    if (!Object.hasOwn(object, key)) continue;
    const item = object[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    if (!first) out.push(',');
    writeString(out, key);
    out.push(':');
    first = false;
    writeValue(out, item, depth + 1);
  }
  out.push('}');
}

/** The text, cut to `maxLength` characters (ending with `…[truncated]`) when longer. */
export function truncateText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  return text.slice(0, Math.max(0, maxLength - TRUNCATION_MARKER.length)) + TRUNCATION_MARKER;
}
