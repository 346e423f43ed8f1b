import type { StandardSchemaV1 } from '@standard-schema/spec';
import { formatSchemaPath, MAX_SCHEMA_PROBLEMS } from './schemaErrors.js';

/** How long one problem line may get, so a hostile schema's 10 MB message stays a line. */
const MAX_LINE = 300;
/** How many path segments a line shows. */
const MAX_PATH_SEGMENTS = 32;
/** How many issues are looked at for `max` distinct lines (duplicates are dropped). */
const MAX_ISSUES_READ = 256;

/**
 * A Standard Schema's issues as at most `max` lines `path: message`, the form TypeBox errors take
 * (`formatSchemaErrors`): paths in dot/bracket form (`items[0].price`), `(root)` for the value
 * itself, a message that repeats its path (arktype's `city must be non-empty`) shortened to
 * `city: must be non-empty`. Bounded whatever the schema produced: at most 256 issues read, each
 * line at most 300 characters, paths at most 32 segments; anything that is not an issue is
 * skipped, never thrown on.
 */
export function formatStandardIssues(issues: unknown, max = MAX_SCHEMA_PROBLEMS): string[] {
  const lines = new Set<string>();
  if (!Array.isArray(issues)) return ['(root): the value is invalid'];
  const count = Math.min(issues.length, MAX_ISSUES_READ);
  for (let i = 0; i < count && lines.size < max; i++) {
    const line = issueLine(issues[i]);
    if (line) lines.add(line);
  }
  if (lines.size === 0) lines.add('(root): the value is invalid');
  return [...lines];
}

function issueLine(issue: unknown): string | undefined {
  if (typeof issue !== 'object' || issue === null) return undefined;
  const { message, path } = issue as Partial<StandardSchemaV1.Issue>;
  const where = pathText(path);
  let text = typeof message === 'string' && message !== '' ? message.slice(0, MAX_LINE) : 'is invalid';
  if (where !== '(root)' && text.startsWith(`${where} `)) text = text.slice(where.length + 1);
  return truncate(`${where}: ${text}`);
}

function pathText(path: unknown): string {
  if (!Array.isArray(path) || path.length === 0) return '(root)';
  const segments = path.slice(0, MAX_PATH_SEGMENTS).map((segment: unknown) => {
    const key = typeof segment === 'object' && segment !== null ? (segment as { key?: unknown }).key : segment;
    const text = typeof key === 'symbol' ? key.toString() : String(key);
    return text.slice(0, MAX_LINE).replace(/~/g, '~0').replace(/\//g, '~1');
  });
  const formatted = formatSchemaPath(`/${segments.join('/')}`);
  return path.length > MAX_PATH_SEGMENTS ? `${formatted}…` : formatted;
}

function truncate(line: string): string {
  return line.length <= MAX_LINE ? line : `${line.slice(0, MAX_LINE - 1)}…`;
}
