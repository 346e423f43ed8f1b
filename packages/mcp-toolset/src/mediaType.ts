/** A media type's essence and its charset parameter, when the charset can be read unambiguously. */
export interface ParsedMediaType {
  /** `type/subtype`, lower-cased. */
  readonly essence: string;
  /** The `charset` parameter, lower-cased and unquoted; `undefined` when there is none. */
  readonly charset?: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ESSENCE = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\/([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:;|$)/;

/**
 * Reads a media type the way MCP-8 needs it to decide whether a blob is text (RFC 2045/9110
 * syntax, as Go's `mime.ParseMediaType` reads it for ADK Go):
 * - the essence must be `token/token`, followed by nothing or `;` — `text/plain extra` is malformed;
 * - a malformed parameter that is not the charset (`name=my file.txt`) is ignored;
 * - anything that could hide or fake a charset — `charset*=` (RFC 2231), a charset given twice,
 *   a quote outside a parameter value, an unterminated quoted string, CR or LF inside one, a
 *   quoted or invalid parameter name before a quote — makes the whole type unreadable.
 * Returns `undefined` when it is malformed or ambiguous.
 */
export function parseMediaType(mimeType: string): ParsedMediaType | undefined {
  const head = ESSENCE.exec(mimeType);
  if (!head) return undefined;
  const essence = `${head[1]!}/${head[2]!}`.toLowerCase();
  const semicolon = mimeType.indexOf(';');
  if (semicolon < 0) return { essence };
  const segments = splitParameters(mimeType.slice(semicolon + 1));
  if (!segments) return undefined;
  let charset: string | undefined;
  for (const segment of segments) {
    const equals = segment.indexOf('=');
    const name = (equals < 0 ? segment : segment.slice(0, equals)).trim().toLowerCase();
    if (name.startsWith('charset*')) return undefined; // an RFC 2231 charset: not supported
    if (name !== 'charset') continue; // unrelated parameters may be malformed: they do not matter
    if (equals < 0 || charset !== undefined) return undefined;
    const value = parameterValue(segment.slice(equals + 1).trim());
    if (value === undefined || value.length === 0) return undefined;
    charset = value.toLowerCase();
  }
  return charset === undefined ? { essence } : { essence, charset };
}

/**
 * Splits `a=1; b="x;y"` at the semicolons outside quoted strings. `undefined` when a quote sits
 * where no value may start, a quoted string is not closed or holds CR/LF, or one quoted string
 * runs straight into another.
 */
function splitParameters(text: string): string[] | undefined {
  const segments: string[] = [];
  let start = 0;
  let inQuote = false;
  let closedAt = -1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (inQuote) {
      if (char === '\r' || char === '\n') return undefined;
      if (char === '\\') {
        const next = text[i + 1];
        if (next === '\r' || next === '\n') return undefined;
        i++;
        continue;
      }
      if (char === '"') {
        inQuote = false;
        closedAt = i;
      }
      continue;
    }
    if (char === '"') {
      // Only a value may open a quote, right after `name=` (spaces allowed), and only once.
      if (closedAt >= start) return undefined;
      const before = text.slice(start, i);
      const equals = before.indexOf('=');
      if (equals < 0 || before.slice(equals + 1).trim() !== '' || !TOKEN.test(before.slice(0, equals).trim())) return undefined;
      inQuote = true;
      continue;
    }
    if (char === ';') {
      segments.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (inQuote) return undefined;
  segments.push(text.slice(start));
  return segments;
}

/** A parameter value: a token, or a quoted string with its escapes removed; `undefined` if neither. */
function parameterValue(raw: string): string | undefined {
  if (TOKEN.test(raw)) return raw;
  const quoted = /^"((?:[^"\\]|\\.)*)"$/s.exec(raw);
  return quoted ? quoted[1]!.replace(/\\(.)/gs, '$1') : undefined;
}
