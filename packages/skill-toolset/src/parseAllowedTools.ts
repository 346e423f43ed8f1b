import { SkillError } from './errors.js';

const PREFIX = 'allowed-tools must be a whitespace- or comma-separated list of Tool or Tool(well-balanced expression)';

/**
 * Splits the string form of `allowed-tools` (SK-2) on whitespace and on commas that are not inside
 * balanced parentheses: `"Bash(git add, git commit) Read"` → `["Bash(git add, git commit)", "Read"]`.
 * An unbalanced `)` or `(` throws a `SKILL_INVALID_FRONTMATTER` error with SK-2's message.
 */
export function parseAllowedTools(value: string): string[] {
  const entries: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of value) {
    if (char === '(') depth++;
    else if (char === ')') {
      if (depth === 0) throw new SkillError('SKILL_INVALID_FRONTMATTER', `${PREFIX}: unexpected ')'`);
      depth--;
    } else if (depth === 0 && (char === ',' || /\s/.test(char))) {
      if (current) entries.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  if (depth > 0) throw new SkillError('SKILL_INVALID_FRONTMATTER', `${PREFIX}: unclosed '('`);
  if (current) entries.push(current);
  return entries;
}

/**
 * The tool name an `allowed-tools` entry grants: the part before any `(…)` expression, trimmed
 * (`"Bash(git:*)"` → `"Bash"`). adkit does not check the expression itself.
 */
export function allowedToolName(entry: string): string {
  const paren = entry.indexOf('(');
  return (paren === -1 ? entry : entry.slice(0, paren)).trim();
}
