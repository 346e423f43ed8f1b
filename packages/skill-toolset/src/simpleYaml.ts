/**
 * A fast reader for the plain YAML most frontmatter is written in, used before the `yaml` package
 * so that listing a thousand skills stays fast. It understands only this subset, and answers
 * `undefined` for anything else, which then goes to `yaml`:
 *
 * - top-level `key: value` lines, keys of letters, digits, `_` and `-`, each key once;
 * - values that are strings for sure: single-line double-quoted without escapes, single-quoted
 *   (with `''`), or plain text that YAML 1.2's core schema cannot read as a number, boolean or
 *   null, with no `: `, ` #`, tab or trailing space;
 * - a key with nothing after it, followed by lines indented the same, all `- value` (a list) or all
 *   `key: value` (a mapping), with the same kinds of values.
 *
 * For what it accepts it gives exactly what `yaml` gives (tests compare both on the real corpus
 * and on generated input).
 */
export function readSimpleYaml(text: string): Record<string, unknown> | undefined {
  const lines = text.split('\n');
  const result: Record<string, unknown> = {};
  let i = 0;
  while (i < lines.length) {
    const line = stripCr(lines[i]!);
    i++;
    if (line === '') continue;
    const entry = keyValue(line);
    if (!entry || Object.hasOwn(result, entry.key)) return undefined;
    if (entry.rest !== '') {
      const value = scalar(entry.rest);
      if (value === undefined) return undefined;
      result[entry.key] = value;
      continue;
    }
    // A nested block: the following lines indented by the same number of spaces.
    const block: string[] = [];
    let indent = 0;
    while (i < lines.length) {
      const next = stripCr(lines[i]!);
      if (next === '') {
        i++;
        continue;
      }
      const spaces = next.length - next.trimStart().length;
      if (spaces === 0) break;
      if (indent === 0) indent = spaces;
      if (spaces !== indent || next[spaces] === '\t' || next.startsWith('\t')) return undefined;
      block.push(next.slice(indent));
      i++;
    }
    const value = nested(block);
    if (value === undefined) return undefined;
    result[entry.key] = value;
  }
  return result;
}

const KEY = /^([A-Za-z][A-Za-z0-9_-]*):(?: (.*))?$/;

function keyValue(line: string): { key: string; rest: string } | undefined {
  const match = KEY.exec(line);
  if (!match) return undefined;
  const key = match[1]!;
  // Keys the core schema reads as null or booleans, and the one key that is special in JS.
  if (/^(null|true|false)$/i.test(key) || key === '__proto__') return undefined;
  const rest = (match[2] ?? '').replace(/^ +/, '');
  return { key, rest };
}

function nested(block: readonly string[]): unknown[] | Record<string, unknown> | undefined {
  if (block.length === 0) return undefined;
  if (block[0]!.startsWith('- ')) {
    const list: unknown[] = [];
    for (const line of block) {
      if (!line.startsWith('- ')) return undefined;
      const value = scalar(line.slice(2).replace(/^ +/, ''));
      if (value === undefined) return undefined;
      list.push(value);
    }
    return list;
  }
  const map: Record<string, unknown> = {};
  for (const line of block) {
    const entry = keyValue(line);
    if (!entry || entry.rest === '' || Object.hasOwn(map, entry.key)) return undefined;
    const value = scalar(entry.rest);
    if (value === undefined) return undefined;
    map[entry.key] = value;
  }
  return map;
}

/** Tabs, control characters and the characters some YAML readers treat as line breaks. */
const UNUSUAL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;

/** A one-line value that is a string for sure, or `undefined`. */
function scalar(value: string): string | undefined {
  if (value === '' || value.endsWith(' ') || UNUSUAL.test(value)) return undefined;
  const first = value[0]!;
  if (first === '"') {
    if (value.length < 2 || !value.endsWith('"')) return undefined;
    const inner = value.slice(1, -1);
    return inner.includes('"') || inner.includes('\\') ? undefined : inner;
  }
  if (first === "'") {
    if (value.length < 2 || !value.endsWith("'")) return undefined;
    const inner = value.slice(1, -1);
    if (inner.replace(/''/g, '').includes("'")) return undefined;
    return inner.replace(/''/g, "'");
  }
  if ('-?:,[]{}#&*!|>%@`'.includes(first)) return undefined;
  if (value.includes(': ') || value.includes(' #') || value.endsWith(':')) return undefined;
  // Whatever the core schema could read as null, a boolean or a number goes to the real parser.
  if (/^[-+.0-9~]/.test(value) || /^(null|true|false)$/i.test(value)) return undefined;
  return value;
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
